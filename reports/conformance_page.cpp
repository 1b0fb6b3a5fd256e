// reports/conformance_page.cpp: the conformance table as text, Markdown, a page and JSON.
#include "reports/conformance_page.hpp"

#include <sstream>

#include "reports/html.hpp"
#include "reports/report.hpp"

namespace concord {

namespace {

std::string padded(const std::string& s, size_t width, bool right = false) {
  size_t shown = 0;  // UTF-8 characters, so that a § takes one column
  for (unsigned char c : s) shown += (c & 0xC0) != 0x80;
  std::string fill(shown < width ? width - shown : 0, ' ');
  return right ? fill + s : s + fill;
}

std::string num(int n) { return std::to_string(n); }

std::string percent(int pass, int judged) {
  if (judged == 0) return "-";
  return fixed_point(100.0 * pass / judged, pass == judged ? 0 : 1) + "%";
}

Tally both(const ScoreRow& r) {
  Tally t = r.hand;
  t.pass += r.generated.pass, t.fail += r.generated.fail, t.skip += r.generated.skip;
  t.deviation += r.generated.deviation;
  return t;
}

std::string settings_words(const Scoreboard& b) {
  const ScoreSettings& s = b.settings;
  std::string profiles;
  for (const std::string& p : s.profiles) profiles += (profiles.empty() ? "" : ", ") + p;
  std::string corpora;
  for (const std::string& c : s.corpus_dirs) corpora += (corpora.empty() ? "" : ", ") + c;
  std::ostringstream out;
  out << b.hand_cases << " hand cases (" << (corpora.empty() ? "none" : corpora) << ") and " << b.generated_programs
      << " generated programs (" << s.programs << " per profile: " << (profiles.empty() ? "none" : profiles)
      << "; campaign seed " << s.seed << ", " << s.runs << " runs each), in " << fixed_point(b.seconds, 1) << " s"
      << (b.stopped ? "; INTERRUPTED: the counts cover what ran" : "");
  return out.str();
}

ojson tally_json(const Tally& t) {
  return ojson{{"pass", t.pass}, {"fail", t.fail}, {"skip", t.skip}, {"deviation", t.deviation}};
}

ojson row_json(const ScoreRow& r) {
  return ojson{
      {"section", r.section}, {"what", r.what}, {"hand", tally_json(r.hand)}, {"generated", tally_json(r.generated)}};
}

}  // namespace

std::string score_cell(const Tally& hand, const Tally& generated) {
  int pass = hand.pass + generated.pass, judged = hand.judged() + generated.judged();
  int skip = hand.skip + generated.skip;
  if (judged == 0) return skip ? "skipped " + num(skip) : "-";
  std::string s = num(pass) + "/" + num(judged) + " (" + percent(pass, judged) + ")";
  return skip ? s + ", " + num(skip) + " skipped" : s;
}

std::string scoreboard_text(const Scoreboard& b) {
  std::ostringstream out;
  out << "conformance: " << settings_words(b) << "\n";
  for (const TargetScore& t : b.targets) {
    out << "\n" << t.target << " (claims " << t.claims << ")\n";
    out << padded("section", 22) << padded("", 15) << padded("hand corpus", 17, true) << padded("generated", 17, true)
        << "   passed\n";
    out << padded("", 37) << padded("pass fail skip", 17, true) << padded("pass fail skip", 17, true) << "\n";
    auto line = [&](const ScoreRow& r) {
      Tally all = both(r);
      out << padded(r.section, 22) << padded(r.what, 15) << padded(num(r.hand.pass), 7, true)
          << padded(num(r.hand.fail), 5, true) << padded(num(r.hand.skip), 5, true)
          << padded(num(r.generated.pass), 7, true) << padded(num(r.generated.fail), 5, true)
          << padded(num(r.generated.skip), 5, true) << "   " << percent(all.pass, all.judged()) << "\n";
    };
    for (const ScoreRow& r : t.rows) line(r);
    line(t.total);
    Tally all = both(t.total);
    if (all.deviation) out << "of the passes, " << all.deviation << " by a known deviation (concord dialects)\n";
    if (t.failures.empty()) {
      out << "failures: none\n";
      continue;
    }
    out << "failures (" << t.failures.size() << "):\n";
    for (const ScoreFailure& f : t.failures) {
      out << "  FAIL " << f.source << " [" << f.rows << "]: " << f.bucket << "\n";
      if (!f.case_file.empty()) out << "       case: " << f.case_file << "\n";
      if (!f.triage.empty()) out << "       triage: " << f.triage << "\n";
      out << "       reproduce: " << f.reproduce << "\n";
    }
  }
  return out.str();
}

std::string scoreboard_markdown(const Scoreboard& b) {
  std::ostringstream out;
  out << "Conformance: " << settings_words(b) << ". Each cell: programs passed / judged (skipped: "
      << "not claimed by the target's declaration).\n\n";
  out << "| section | what |";
  for (const TargetScore& t : b.targets) out << " " << t.target << " |";
  out << "\n|---|---|";
  for (size_t i = 0; i < b.targets.size(); i++) out << "---|";
  out << "\n";
  if (b.targets.empty()) return out.str();
  for (size_t r = 0; r <= b.targets[0].rows.size(); r++) {
    const ScoreRow& head = r < b.targets[0].rows.size() ? b.targets[0].rows[r] : b.targets[0].total;
    out << "| " << (head.section.empty() ? "**all**" : head.section) << " | " << head.what << " |";
    for (const TargetScore& t : b.targets) {
      const ScoreRow& row = r < t.rows.size() ? t.rows[r] : t.total;
      out << " " << score_cell(row.hand, row.generated) << " |";
    }
    out << "\n";
  }
  for (const TargetScore& t : b.targets) {
    if (t.failures.empty()) continue;
    out << "\n**" << t.target << "** fails " << t.failures.size() << ":\n\n";
    for (const ScoreFailure& f : t.failures)
      out << "- " << f.source << " (" << f.rows << "): " << f.bucket
          << (f.triage.empty() ? "" : " ([triage](" + f.triage + "))") << "\n";
  }
  return out.str();
}

std::string scoreboard_html(const Scoreboard& b) {
  std::ostringstream out;
  out << html_page_start("concord conformance");
  out << "<h1>Conformance</h1>\n<p>" << html_escape(settings_words(b)) << "</p>\n";
  out << "<table>\n<tr><th>section</th><th>what</th>";
  for (const TargetScore& t : b.targets) out << "<th>" << html_escape(t.target) << "</th>";
  out << "</tr>\n";
  if (!b.targets.empty())
    for (size_t r = 0; r <= b.targets[0].rows.size(); r++) {
      const ScoreRow& head = r < b.targets[0].rows.size() ? b.targets[0].rows[r] : b.targets[0].total;
      out << "<tr><td>" << html_escape(head.section.empty() ? "all" : head.section) << "</td><td>"
          << html_escape(head.what) << "</td>";
      for (const TargetScore& t : b.targets) {
        const ScoreRow& row = r < t.rows.size() ? t.rows[r] : t.total;
        Tally all = both(row);
        const char* cls = all.judged() == 0 ? "" : all.fail ? " class=\"differ\"" : " class=\"agree\"";
        out << "<td" << cls << ">" << html_escape(score_cell(row.hand, row.generated)) << "</td>";
      }
      out << "</tr>\n";
    }
  out << "</table>\n";
  for (const TargetScore& t : b.targets) {
    out << "<h2>" << html_escape(t.target) << "</h2>\n<p>claims " << html_escape(t.claims) << "; "
        << (t.failures.empty() ? "no failure" : std::to_string(t.failures.size()) + " failing") << "</p>\n";
    if (t.failures.empty()) continue;
    out << "<ul>\n";
    for (const ScoreFailure& f : t.failures) {
      out << "<li>" << html_escape(f.source) << " (" << html_escape(f.rows) << "): <b>" << html_escape(f.bucket)
          << "</b>";
      if (!f.triage.empty()) out << " <a href=\"" << html_escape(f.triage) << "\">triage</a>";
      out << html_command(f.reproduce) << "</li>\n";
    }
    out << "</ul>\n";
  }
  out << html_page_end();
  return out.str();
}

ojson scoreboard_json(const Scoreboard& b) {
  const ScoreSettings& s = b.settings;
  ojson settings{{"corpus", ojson::array()},
                 {"profiles", ojson::array()},
                 {"programs_per_profile", s.programs},
                 {"seed", s.seed},
                 {"runs", s.runs}};
  for (const std::string& c : s.corpus_dirs) settings["corpus"].push_back(c);
  for (const std::string& p : s.profiles) settings["profiles"].push_back(p);
  ojson targets = ojson::array();
  for (const TargetScore& t : b.targets) {
    ojson rows = ojson::array(), failures = ojson::array();
    for (const ScoreRow& r : t.rows) rows.push_back(row_json(r));
    for (const ScoreFailure& f : t.failures)
      failures.push_back(ojson{{"source", f.source},
                               {"rows", f.rows},
                               {"bucket", f.bucket},
                               {"case", f.case_file},
                               {"triage", f.triage},
                               {"reproduce", f.reproduce}});
    targets.push_back(ojson{{"target", t.target},
                            {"claims", t.claims},
                            {"rows", rows},
                            {"total", row_json(t.total)},
                            {"failures", failures}});
  }
  return ojson{{"settings", settings}, {"hand_cases", b.hand_cases}, {"generated_programs", b.generated_programs},
               {"seconds", b.seconds}, {"stopped", b.stopped},       {"targets", targets}};
}

}  // namespace concord
