// reports/report_html.cpp: index.html of a report folder: the figures, every
// signature with a link to its triage page and its reproduce command, and what
// reads better drawn than written (throughput over time per shard, time per
// target, how often each construct was generated) as inline SVG.
#include <sstream>

#include "reports/html.hpp"
#include "reports/report.hpp"
#include "reports/svg_chart.hpp"
#include "runners/campaign/coverage.hpp"

namespace concord {
namespace {

// Programs per second over each stretch of at least a second between samples of
// one shard (the last sample, at the campaign's end, may come right after another).
Series rate_series(const ojson& shard) {
  Series s;
  s.name = "shard " + shard.value("shard", std::string());
  const ojson& samples = shard.value("throughput", ojson::array());
  size_t from = 0;
  for (size_t i = 1; i < samples.size(); i++) {
    double dt = samples[i][0].get<double>() - samples[from][0].get<double>();
    if (dt < 1) continue;
    double dp = samples[i][1].get<double>() - samples[from][1].get<double>();
    s.points.emplace_back(samples[i][0].get<double>(), dp / dt);
    from = i;
  }
  return s;
}

std::string row(const std::string& k, const std::string& v) {
  return "<tr><td>" + html_escape(k) + "</td><td>" + v + "</td></tr>\n";
}

}  // namespace

std::string report_html(const ojson& j) {
  std::ostringstream out;
  std::string title = campaign_title(j);
  out << html_page_start(title) << "<h1>" << html_escape(title) << "</h1>\n";
  double secs = j["seconds"].get<double>();
  uint64_t programs = j["programs"];
  out << "<table class=\"meta\" id=\"figures\">\n"
      << row("targets", html_escape(targets_words(j)))
      << row("programs",
             std::to_string(programs) + " (" + fixed_point(secs > 0 ? programs / secs : 0, 1) + " per second)")
      << row("runs", j["runs"].dump() + " (" + j["seeds_per_program"].dump() + " seeds per program)")
      << row("wall time", fixed_point(secs, 1) + " s" + (j.value("interrupted", false) ? " (interrupted)" : ""))
      << row("divergent cases", j["divergent_cases"].dump()) << row("signatures", signatures_words(j))
      << row("flaky cases", j["flaky"].dump());
  for (const auto& [t, n] : j["no_verdict"].items()) {
    uint64_t u = j.value("unconfirmed", ojson::object()).value(t, uint64_t{0});
    out << row(
        "no verdict from " + t,
        n.dump() + " cases" +
            (u ? " (" + std::to_string(u) + " a crash or hang that did not happen again on a fresh backend)" : ""));
  }
  const ojson not_claimed = j.value("not_claimed", ojson::object());  // named: items() must not outlive it
  for (const auto& [t, n] : not_claimed.items())
    out << row("not claimed by " + t, n.dump() + " programs, not compared there");
  out << "</table>\n<p>Reproduce this campaign (add <code>--shard i/N</code> for one shard):</p>\n"
      << html_command(j.value("reproduce", ""));

  out << "<h2>Divergences</h2>\n";
  if (j["signatures"].empty()) {
    out << "<p id=\"signatures\" class=\"agree\">None: every target agreed with the oracle on every run.</p>\n";
  } else {
    out << "<table id=\"signatures\">\n<tr><th>status</th><th>signature</th><th class=\"num\">cases</th>"
           "<th class=\"num\">first case</th><th>corpus file</th><th>triage</th></tr>\n";
    for (const ojson& s : j["signatures"]) {
      bool is_new = s["status"] == "new";
      out << "<tr><td class=\"" << (is_new ? "differ" : "noverdict") << "\">" << status_words(s) << "</td><td><code>"
          << html_escape(s["signature"].get<std::string>()) << "</code></td><td class=\"num\">" << s["hits"]
          << "</td><td class=\"num\">" << s["first_case"] << "</td><td><code>"
          << html_escape(s.value("corpus_file", "")) << "</code></td><td>";
      if (s.contains("triage"))
        out << "<a href=\"" << html_escape(s["triage"].get<std::string>()) << "\">what differs</a>";
      out << "</td></tr>\n";
    }
    out << "</table>\n";
    for (const ojson& s : j["signatures"]) {
      out << "<details><summary><code>" << html_escape(s["signature"].get<std::string>())
          << "</code>: first difference and reproduce line</summary>\n<pre>";
      out << html_escape(first_difference_words(s)) << "</pre>\n"
          << html_command(s.value("reproduce", "")) << "</details>\n";
    }
  }
  if (!j["flaky_cases"].empty()) {
    out << "<h2>Flaky cases</h2>\n<p>Divergences that did not repeat when run again.</p>\n";
    for (const ojson& f : j["flaky_cases"])
      out << "<p>case " << f.value("case", 0) << " <code>" << html_escape(f.value("signature", "")) << "</code></p>\n"
          << html_command(f.value("reproduce", ""));
  }

  out << "<h2>Throughput over time</h2>\n<figure id=\"throughput\">\n";
  std::vector<Series> series;
  for (const ojson& sh : j["shards"]) series.push_back(rate_series(sh));
  out << svg_line_chart(series, "seconds since the start", "programs per second") << "</figure>\n";

  out << "<h2>Time per target</h2>\n<p>Summed over workers and shards.</p>\n<figure id=\"target-time\">\n";
  std::vector<Bar> time_bars;
  for (const auto& [t, s] : j["target_seconds"].items()) time_bars.push_back(Bar{t, s.get<double>(), false});
  out << svg_bar_chart(time_bars, "seconds", false) << "</figure>\n";

  Coverage cov = Coverage::from_json(j["coverage"]);
  std::vector<std::string> blind = cov.blind_spots();
  out << "<h2>Coverage</h2>\n<table id=\"coverage\">\n<tr><th>category</th><th class=\"num\">reached</th>"
         "<th class=\"num\">of the spec's</th></tr>\n";
  for (const std::string& cat : Coverage::categories())
    out << "<tr><td>" << cat << "</td><td class=\"num\">" << cov.known_seen(cat) << "</td><td class=\"num\">"
        << cov.reported(cat).size() << "</td></tr>\n";
  out << "</table>\n<p id=\"blind-spots\">Never reached: ";
  if (blind.empty()) out << "nothing";
  for (size_t i = 0; i < blind.size(); i++) out << (i ? ", " : "") << "<code>" << html_escape(blind[i]) << "</code>";
  out << ".</p>\n";
  for (const std::string& cat : Coverage::categories()) {
    std::vector<Bar> bars;
    const auto& counts = cov.counts(cat);
    for (const std::string& name : cov.reported(cat)) {  // what the table counts, no more
      if (name.front() == '<') continue;                 // a pseudo-name (any program failure code)
      auto it = counts.find(name);
      double n = it == counts.end() ? 0 : static_cast<double>(it->second);
      bars.push_back(Bar{name, n, n == 0});
    }
    out << "<details" << (cat == "constructs" ? " open" : "") << "><summary>" << cat
        << ": how often each was seen</summary>\n<figure class=\"coverage-chart\" data-category=\"" << cat << "\">\n"
        << svg_bar_chart(bars, cat == "constructs" ? "occurrences in generated programs" : "occurrences in results",
                         true)
        << "</figure></details>\n";
  }
  out << html_page_end();
  return out.str();
}

}  // namespace concord
