// runners/protocol/supports.hpp: what a backend claims to implement, from "supports" in
// its declaration (runners/PROTOCOL.md, "What a backend claims"): the language
// versions and the features of oracle/features.hpp. A program that uses anything
// else is not sent to it: `concord corpus` skips the case, `concord fuzz` does not
// compare that target on the program, `concord run --target` says so (exit 4). No
// "supports" claims everything, as the built-in targets do.
#pragma once

#include <string>
#include <vector>

#include "oracle/features.hpp"
#include "oracle/program_json.hpp"

namespace concord {

struct Supports {
  bool everything = true;  // no "supports": every version and feature
  bool version1 = true, version2 = true;
  FeatureSet features;  // when !everything
};

// "supports" of a declaration at `where` (its JSON pointer): {"versions":[1,2],
// "features":[...]}, both keys mandatory. Throws InputError at where/KEY[/INDEX] on
// anything off: an unknown key, no version, a version other than 1 and 2, an unknown
// or repeated feature, a version 2 feature without version 2 (every one but
// supervisors), supervisor_api or significant without supervisors.
Supports parse_supports(const ojson& j, const std::string& where);

// What `p` uses that `s` does not claim: "version 2", then feature names; empty when
// `s` claims the program.
std::vector<std::string> unclaimed(const Supports& s, const Program& p);
// "version 2, links, calls".
std::string joined(const std::vector<std::string>& what);
// "everything", or "version 1 with supervisors" / "versions 1 and 2 with links, calls"
// / "version 1, no features".
std::string describe(const Supports& s);

}  // namespace concord
