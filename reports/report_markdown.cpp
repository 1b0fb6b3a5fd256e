// reports/report_markdown.cpp: summary.md: the report for a pull request, a wiki or
// a terminal: the figures, time per target, each signature with its first
// difference and reproduce line, and coverage.
#include <sstream>

#include "reports/report.hpp"
#include "runners/campaign/coverage.hpp"

namespace concord {

std::string report_markdown(const ojson& j) {
  std::ostringstream out;
  double secs = j["seconds"].get<double>();
  uint64_t programs = j["programs"], runs = j["runs"];
  out << "# " << campaign_title(j) << "\n\n| | |\n|---|---|\n";
  out << "| targets | " << targets_words(j) << " |\n";
  out << "| programs | " << programs << " (" << fixed_point(secs > 0 ? programs / secs : 0, 1) << " per second) |\n";
  out << "| runs | " << runs << " (" << j["seeds_per_program"] << " seeds per program) |\n";
  out << "| wall time | " << fixed_point(secs, 1) << " s" << (j.value("interrupted", false) ? " (interrupted)" : "")
      << " |\n";
  out << "| divergent cases | " << j["divergent_cases"] << " |\n";
  out << "| signatures | " << signatures_words(j) << " |\n";
  out << "| flaky cases | " << j["flaky"] << " |\n";
  for (const auto& [t, n] : j["no_verdict"].items()) {
    uint64_t u = j.value("unconfirmed", ojson::object()).value(t, uint64_t{0});
    out << "| no verdict from " << t << " | " << n << " cases"
        << (u ? " (" + std::to_string(u) + " a crash or hang that did not happen again on a fresh backend)" : "")
        << " |\n";
  }
  const ojson not_claimed = j.value("not_claimed", ojson::object());  // named: items() must not outlive it
  for (const auto& [t, n] : not_claimed.items())
    out << "| not claimed by " << t << " | " << n << " programs, not compared there |\n";
  out << "\n## Time per target\n\nSummed over workers and shards.\n\n| target | seconds | share |\n|---|---|---|\n";
  double total = 0;
  for (const auto& [t, s] : j["target_seconds"].items()) total += s.get<double>();
  for (const auto& [t, s] : j["target_seconds"].items())
    out << "| " << t << " | " << fixed_point(s.get<double>(), 1) << " | "
        << fixed_point(total > 0 ? 100 * s.get<double>() / total : 0, 0) << "% |\n";

  out << "\n## Divergences\n\n";
  if (j["signatures"].empty()) out << "None: every target agreed with the oracle on every run.\n";
  for (const ojson& s : j["signatures"]) {
    out << "### " << status_words(s) << " `" << s["signature"].get<std::string>() << "`\n\n";
    out << s["hits"] << (s["hits"] == 1 ? " divergent case" : " divergent cases") << ", the first case "
        << s["first_case"] << ".";
    if (s.contains("corpus_file")) out << " Corpus: `" << s["corpus_file"].get<std::string>() << "`.";
    if (s.contains("triage"))
      out << " Triage: [" << s["triage"].get<std::string>() << "](" << s["triage"].get<std::string>() << ").";
    out << "\n\n```\n" << first_difference_words(s) << "```\n\nReproduce: `" << s.value("reproduce", "") << "`\n\n";
  }
  if (!j["flaky_cases"].empty()) {
    out << "\n## Flaky cases\n\nDivergences that did not repeat when run again.\n\n";
    for (const ojson& f : j["flaky_cases"])
      out << "- case " << f.value("case", 0) << " `" << f.value("signature", "") << "`: `" << f.value("reproduce", "")
          << "`\n";
  }

  Coverage cov = Coverage::from_json(j["coverage"]);
  std::vector<std::string> blind = cov.blind_spots();
  out << "\n## Coverage\n\n| category | reached | of the spec's |\n|---|---|---|\n";
  for (const std::string& cat : Coverage::categories())
    out << "| " << cat << " | " << cov.known_seen(cat) << " | " << cov.reported(cat).size() << " |\n";
  out << "\nNever reached: ";
  if (blind.empty()) out << "nothing";
  for (size_t i = 0; i < blind.size(); i++) out << (i ? ", " : "") << "`" << blind[i] << "`";
  out << ".\n\nReproduce this campaign (add `--shard i/N` for a shard): `" << j.value("reproduce", "") << "`\n";
  return out.str();
}

}  // namespace concord
