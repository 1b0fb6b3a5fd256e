// tests/reports/campaign_folder_test.cpp: one campaign's report folder against what
// its terminal said (issue 37): coverage counted once (the same reached / known per
// category and the same never-reached list in the terminal, summary.md and
// index.html, and a red bar in index.html for each never-reached name, no more), and
// triage pages that name no absolute path. The divergent target is the oracle
// saying turn_limit where it means quiescent (bent_oracles.hpp).
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <regex>

#include "runners/process/subprocess.hpp"
#include "runners/protocol/load.hpp"
#include "targets/common/build_paths.hpp"
#include "tests/runners/bent_oracles.hpp"

using namespace concord;
namespace fs = std::filesystem;

namespace {

using Figures = std::map<std::string, std::pair<int, int>>;  // category -> reached, known

Figures figures(const std::string& text, const std::string& pattern) {
  Figures out;
  std::regex re(pattern);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it)
    out[(*it)[1]] = {std::stoi((*it)[2]), std::stoi((*it)[3])};
  return out;
}

// The names of a "never reached" list: after `lead`, up to `end`, each between `open`
// and `close` (or the whole list split at ", "); "nothing" is none.
std::vector<std::string> never_reached(const std::string& text, const std::string& lead, const std::string& end,
                                       const std::string& open, const std::string& close) {
  size_t from = text.find(lead);
  if (from == std::string::npos) return {"(no list)"};
  from += lead.size();
  std::string list = text.substr(from, text.find(end, from) - from);
  std::vector<std::string> out;
  if (list == "nothing") return out;
  for (size_t at = 0; at < list.size();) {
    size_t comma = list.find(", ", at);
    std::string item = list.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    if (!open.empty()) item = item.substr(open.size(), item.size() - open.size() - close.size());
    for (auto [esc, c] : {std::pair{"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}})
      for (size_t p; (p = item.find(esc)) != std::string::npos;) item.replace(p, std::string(esc).size(), c);
    out.push_back(item);
    at = comma == std::string::npos ? list.size() : comma + 2;
  }
  return out;
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) n++;
  return n;
}

}  // namespace

TEST(CampaignFolder, TheTerminalAndTheReportCountCoverageAlikeAndPagesNameNoAbsolutePath) {
  TempDir dir("concord-campaign-folder");
  std::string liar = test_backends::bent_option("liar", test_backends::kSaysTurnLimit);
  CommandResult r = run_command(
      Command{{build_paths::concord_binary, "fuzz", "--seed", "9", "--cases", "12", "--target", "liar", "--backend",
               liar, "--no-shrink", "--corpus", dir.path() + "/found", "--report", dir.path() + "/report"},
              {},
              dir.path(),
              {}},
      "", 300);
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;  // the liar is found
  std::string md = read_file(dir.path() + "/report/summary.md");
  ASSERT_NE(md.find("## Coverage"), std::string::npos) << md;
  md = md.substr(md.find("## Coverage"));
  std::string html = read_file(dir.path() + "/report/index.html");

  Figures terminal = figures(r.out, R"(\n([a-z]+) \((\d+)/(\d+) known seen\))");
  ASSERT_EQ(terminal.size(), 6u) << r.out;
  EXPECT_EQ(figures(md, R"(\n\| ([a-z]+) \| (\d+) \| (\d+) \|)"), terminal) << md;
  std::string table = html.substr(html.find("<table id=\"coverage\">"));
  table = table.substr(0, table.find("</table>"));
  EXPECT_EQ(figures(table, R"(<tr><td>([a-z]+)</td><td class="num">(\d+)</td><td class="num">(\d+)</td></tr>)"),
            terminal)
      << table;

  std::vector<std::string> spots = never_reached(r.out, "never reached: ", "\n", "", "");
  EXPECT_EQ(never_reached(md, "Never reached: ", ".\n", "`", "`"), spots) << md;
  EXPECT_EQ(never_reached(html, "Never reached: ", ".</p>", "<code>", "</code>"), spots);
  // A red bar per never-reached name (the pseudo-name of any program code has none).
  for (const auto& [category, seen] : terminal) {
    size_t from = html.find("data-category=\"" + category + "\"");
    ASSERT_NE(from, std::string::npos) << category;
    std::string chart = html.substr(from, html.find("</figure>", from) - from);
    size_t missing = 0;
    for (const std::string& s : spots) missing += s.rfind(category + ":", 0) == 0 && s.find(":<") == std::string::npos;
    EXPECT_EQ(count(chart, "class=\"bar warn\""), missing) << category;
    EXPECT_EQ(count(chart, "class=\"bar"), static_cast<size_t>(seen.second) - (category == "failures")) << category;
  }

  // The triage page of what the liar showed: the case relative to the working
  // directory, SPEC.md relative to the page.
  std::vector<fs::path> pages;
  for (const auto& e : fs::directory_iterator(dir.path() + "/report/triage")) pages.push_back(e.path());
  ASSERT_FALSE(pages.empty());
  for (const fs::path& p : pages) {
    std::string page = read_file(p.string());
    auto absolute = [&](const std::string& path) {  // not after "..": a relative path climbing there
      for (size_t at = page.find(path); at != std::string::npos; at = page.find(path, at + 1))
        if (at == 0 || page[at - 1] != '.') return true;
      return false;
    };
    EXPECT_FALSE(absolute(dir.path())) << p;
    EXPECT_FALSE(absolute(std::string(build_paths::source_dir) + "/spec")) << p;
    EXPECT_EQ(page.find("file://"), std::string::npos) << p;
    EXPECT_NE(page.find(" found/div_"), std::string::npos) << p;
  }
}
