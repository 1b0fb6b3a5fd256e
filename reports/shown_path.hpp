// reports/shown_path.hpp: a path as a triage page shows it: relative, never absolute.
// A report folder travels (a CI artefact, a mail, another machine): an absolute path
// names the machine it was made on and its user's folders, and means nothing
// elsewhere. Commands name files relative to the working directory (where they are
// run again); a page's links, relative to the folder the page is written in.
#pragma once

#include <string>

namespace concord {

// `path` relative to the folder `from` ("": the working directory), lexically (no
// link is followed): "/w/spec/SPEC.md" from "/w/campaigns/seed-7/triage" is
// "../../../spec/SPEC.md". "" stays "".
std::string shown_path(const std::string& path, const std::string& from = "");

}  // namespace concord
