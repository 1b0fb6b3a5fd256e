// reports/conformance_page.hpp: a Scoreboard (runners/conformance/scoreboard.hpp) for
// people and for dashboards: a table per target in the terminal, the same tables in
// Markdown (the README's record of the built-in targets) and as one page, and JSON.
#pragma once

#include <string>

#include "oracle/program_json.hpp"
#include "runners/conformance/scoreboard.hpp"

namespace concord {

// "41/41 (100%)"; "-" when nothing was judged.
std::string score_cell(const Tally& hand, const Tally& generated);

std::string scoreboard_text(const Scoreboard& b);
// A matrix (rows by targets: passed/judged, skipped) and every failure with its
// bucket and, when it has one, the link to its triage page.
std::string scoreboard_markdown(const Scoreboard& b);
std::string scoreboard_html(const Scoreboard& b);
// {"settings":{...},"hand_cases":N,"generated_programs":N,"seconds":S,"stopped":B,
//  "targets":[{"target":T,"claims":"...","rows":[{"section","what","hand":{"pass",
//  "fail","skip","deviation"},"generated":{...}}],"total":{...},"failures":[...]}]}
ojson scoreboard_json(const Scoreboard& b);

}  // namespace concord
