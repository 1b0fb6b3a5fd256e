// reports/report_junit.cpp: junit.xml, so that a CI system (GitLab, Jenkins,
// GitHub's test reporters) lists a campaign's divergences as tests: one test case
// per signature, failed when new, skipped when already known (kept in the corpus),
// a known deviation (declared by its targets) or flaky; one passing test case when
// nothing diverged.
#include <sstream>

#include "reports/html.hpp"
#include "reports/report.hpp"

namespace concord {
namespace {

// The same five entities as HTML; control characters, which XML 1.0 cannot carry
// even escaped (a backend's garbled output may hold some), become '?'.
std::string xml(const std::string& s) {
  std::string out = html_escape(s);
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') c = '?';
  return out;
}

std::string details(const ojson& s) {
  std::string out = first_difference_words(s);
  if (s.contains("corpus_file")) out += "corpus: " + s["corpus_file"].get<std::string>() + "\n";
  out += "reproduce: " + s.value("reproduce", "") + "\n";
  return out;
}

}  // namespace

std::string report_junit(const ojson& j) {
  size_t tests = 0, failures = 0, skipped = 0;
  std::ostringstream cases;
  for (const ojson& s : j["signatures"]) {
    tests++;
    std::string sig = s["signature"].get<std::string>();
    cases << "    <testcase classname=\"concord.fuzz." << xml(targets_of(s)) << "\" name=\"" << xml(sig)
          << "\" time=\"0\">\n";
    uint64_t hits = s["hits"];
    std::string what = std::to_string(hits) + (hits == 1 ? " divergent case" : " divergent cases") +
                       ", the first case " + std::to_string(s["first_case"].get<uint64_t>());
    if (s["status"] == "new") {
      failures++;
      cases << "      <failure type=\"divergence\" message=\"new divergence " << xml(sig) << ": " << xml(what) << "\">"
            << xml(details(s)) << "</failure>\n";
    } else {
      skipped++;
      std::string why = s["status"] == "deviation" ? "known deviation, declared by its target: "
                                                   : "known divergence, kept in the corpus: ";
      cases << "      <skipped message=\"" << why << xml(what) << "\"/>\n"
            << "      <system-out>" << xml(details(s)) << "</system-out>\n";
    }
    cases << "    </testcase>\n";
  }
  for (const ojson& f : j["flaky_cases"]) {
    tests++;
    skipped++;
    cases << "    <testcase classname=\"concord.fuzz.flaky\" name=\"case " << f.value("case", 0) << " "
          << xml(f.value("signature", "")) << "\" time=\"0\">\n      <skipped message=\"flaky: did not repeat; "
          << xml(f.value("reproduce", "")) << "\"/>\n    </testcase>\n";
  }
  if (tests == 0) {
    tests = 1;
    cases << "    <testcase classname=\"concord.fuzz\" name=\"every target agrees with the oracle\" time=\""
          << fixed_point(j["seconds"].get<double>(), 3) << "\">\n      <system-out>" << j["programs"] << " programs, "
          << j["runs"] << " runs</system-out>\n    </testcase>\n";
  }
  std::ostringstream out;
  std::string name = campaign_title(j);
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"concord fuzz\" tests=\"" << tests
      << "\" failures=\"" << failures << "\" errors=\"0\" skipped=\"" << skipped << "\" time=\""
      << fixed_point(j["seconds"].get<double>(), 3) << "\">\n  <testsuite name=\"" << xml(name) << "\" tests=\""
      << tests << "\" failures=\"" << failures << "\" errors=\"0\" skipped=\"" << skipped << "\" time=\""
      << fixed_point(j["seconds"].get<double>(), 3) << "\">\n    <properties>\n";
  for (const char* key : {"seed", "profile", "generator_version", "seeds_per_program", "programs", "runs", "reproduce"})
    out << "      <property name=\"" << key << "\" value=\""
        << xml(j[key].is_string() ? j[key].get<std::string>() : j[key].dump()) << "\"/>\n";
  out << "    </properties>\n" << cases.str() << "  </testsuite>\n</testsuites>\n";
  return out.str();
}

}  // namespace concord
