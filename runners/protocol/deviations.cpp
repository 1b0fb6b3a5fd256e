// runners/protocol/deviations.cpp: reading declared deviations, and explaining a
// divergence by running the oracle in their dialect (oracle/dialect.hpp).
#include "deviations.hpp"

#include <algorithm>
#include <set>

#include "oracle/error.hpp"
#include "oracle/interpreter.hpp"
#include "oracle/memory.hpp"
#include "runners/protocol/backend.hpp"

namespace concord {
namespace {

std::string text_at(const ojson& d, const char* key, const std::string& at) {
  if (!d.contains(key)) throw InputError(at, std::string("a deviation needs \"") + key + "\"");
  if (!d[key].is_string() || d[key].get<std::string>().empty())
    throw InputError(at + "/" + key, "expected a non-empty string");
  return d[key].get<std::string>();
}

bool good_id(const std::string& id) {
  return !id.empty() && id.size() <= 64 && std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

std::string catalogue_ids() {
  std::string out;
  for (const Alternative& a : alternatives()) out += (out.empty() ? "" : ", ") + std::string(a.id);
  return out;
}

}  // namespace

std::vector<Deviation> parse_deviations(const ojson& j, const std::string& where) {
  if (!j.is_array()) throw InputError(where, "expected an array of deviations");
  std::vector<Deviation> out;
  std::set<std::string> ids;
  std::set<Alt> dialects;
  for (size_t i = 0; i < j.size(); i++) {
    const ojson& d = j[i];
    std::string at = where + "/" + std::to_string(i);
    if (!d.is_object()) throw InputError(at, "a deviation is an object");
    for (auto it = d.begin(); it != d.end(); ++it) {
      if (it.key() == "signatures" || it.key() == "first_difference" || it.key() == "rule")
        throw InputError(at + "/" + it.key(),
                         "a deviation no longer matches field paths or names its rule: it names the oracle dialect "
                         "it is (\"dialect\"), whose rule and scope the catalogue gives (`concord dialects`)");
      if (!std::set<std::string>{"id", "dialect", "about", "experiment", "source"}.count(it.key()))
        throw InputError(at + "/" + it.key(), "unknown key '" + it.key() + "'");
    }
    Deviation dev;
    dev.id = text_at(d, "id", at);
    if (!good_id(dev.id)) throw InputError(at + "/id", "expected 1..64 of a-z 0-9 _ -");
    if (!ids.insert(dev.id).second) throw InputError(at + "/id", "'" + dev.id + "' is declared twice");
    std::string dialect = text_at(d, "dialect", at);
    std::optional<Alt> a = alternative_named(dialect);
    if (!a)
      throw InputError(at + "/dialect", "deviation '" + dev.id + "': no oracle dialect '" + dialect +
                                            "' (the oracle runs: " + catalogue_ids() + ")");
    if (!dialects.insert(*a).second)
      throw InputError(at + "/dialect", "deviation '" + dev.id + "': dialect '" + dialect + "' is declared twice");
    dev.dialect = *a;
    dev.about = text_at(d, "about", at);
    dev.experiment = text_at(d, "experiment", at);
    dev.source = text_at(d, "source", at);
    out.push_back(std::move(dev));
  }
  return out;
}

std::vector<Deviation> parse_deviations_file(const std::string& text, const std::string& origin) {
  ojson j;
  try {
    j = ojson::parse(text);
  } catch (const ojson::parse_error& e) {
    throw InputError(origin, std::string("not JSON: ") + e.what());
  }
  if (!j.is_object() || j.size() != 1 || !j.contains("deviations"))
    throw InputError(origin, "expected {\"deviations\":[...]}");
  return parse_deviations(j["deviations"], origin + ": /deviations");
}

DialectResult run_in_dialect(const Program& p, const RunSettings& s, const AltSet& dialect) {
  DialectResult out;
  try {
    RunResult r = run(p, s, {}, nullptr, Dialect{dialect});
    out.taken = r.world->taken;
    out.changes = r.world->changes;
    out.unordered = r.world->unordered;
    std::string line = result_line(r);
    out.result = ojson::parse(line);
  } catch (const std::bad_alloc&) {
    out.result = nullptr;  // past the oracle's limits: nothing to explain with
  } catch (const OutOfSteps&) {
    out.result = nullptr;
  }
  return out;
}

namespace {

// The journal with each unordered span sorted (by the events' canonical text).
ojson with_spans_sorted(ojson result, const std::vector<UnorderedSpan>& spans) {
  if (!result.is_object() || !result.contains("journal") || !result["journal"].is_array()) return result;
  ojson& j = result["journal"];
  for (const UnorderedSpan& sp : spans) {
    if (sp.end > j.size() || sp.begin >= sp.end) continue;
    std::vector<std::string> texts;
    for (size_t i = sp.begin; i < sp.end; i++) texts.push_back(j[i].dump());
    std::sort(texts.begin(), texts.end());
    for (size_t i = sp.begin; i < sp.end; i++) j[i] = ojson::parse(texts[i - sp.begin]);
  }
  return result;
}

}  // namespace

bool agrees_up_to_freedom(const DialectResult& d, const ojson& got) {
  if (d.result.is_null()) return false;
  if (d.result == got) return true;
  if (d.unordered.empty()) return false;
  return with_spans_sorted(d.result, d.unordered) == with_spans_sorted(got, d.unordered);
}

std::vector<const Deviation*> explaining(const std::vector<Deviation>& declared, const Program& p, const RunSettings& s,
                                         const Answer& got) {
  if (declared.empty() || !got.ok()) return {};
  AltSet dialect;
  for (const Deviation& d : declared) dialect.set(static_cast<size_t>(d.dialect));
  DialectResult r = run_in_dialect(p, s, dialect);
  if (r.taken.none() || !agrees_up_to_freedom(r, got.json)) return {};
  std::vector<const Deviation*> out;
  for (const Deviation& d : declared)
    if (r.taken.test(static_cast<size_t>(d.dialect))) out.push_back(&d);
  return out;
}

std::string deviation_ids(const std::vector<const Deviation*>& ds) {
  std::string out;
  for (const Deviation* d : ds) out += (out.empty() ? "" : " + ") + d->id;
  return out;
}

}  // namespace concord
