// oracle/memory.cpp: the oracle's memory limit, read once from the environment.
#include "memory.hpp"

#include <atomic>
#include <cstdlib>

#include "error.hpp"

namespace concord {
namespace {

std::atomic<int64_t> g_limit{0};  // 0: not read yet
std::atomic<int64_t> g_steps{0};

}  // namespace

int64_t parse_size(const std::string& text, const std::string& what) {
  size_t i = 0;
  uint64_t n = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; i++) {
    if (n > (uint64_t{1} << 50)) throw InputError(what, "size '" + text + "' is too large");
    n = n * 10 + static_cast<uint64_t>(text[i] - '0');
  }
  if (i == 0) throw InputError(what, "expected a size such as 1073741824, 512M or 2G, got '" + text + "'");
  int shift = 0;
  if (i + 1 == text.size()) {
    char u = text[i];
    shift = u == 'K' || u == 'k'   ? 10
            : u == 'M' || u == 'm' ? 20
            : u == 'G' || u == 'g' ? 30
            : u == 'T' || u == 't' ? 40
                                   : -1;
    if (shift < 0) throw InputError(what, "unknown unit in '" + text + "' (K, M, G or T: powers of 1024)");
  } else if (i != text.size()) {
    throw InputError(what, "expected a size such as 1073741824, 512M or 2G, got '" + text + "'");
  }
  if (n > (uint64_t{1} << (62 - shift))) throw InputError(what, "size '" + text + "' is too large");
  int64_t bytes = static_cast<int64_t>(n << shift);
  if (bytes < (int64_t{1} << 20)) throw InputError(what, "size '" + text + "' is below the minimum of 1M");
  return bytes;
}

int64_t oracle_memory_limit() {
  int64_t v = g_limit.load();
  if (v > 0) return v;
  const char* env = std::getenv(kOracleMemoryVariable);
  v = env && *env ? parse_size(env, std::string("$") + kOracleMemoryVariable) : kDefaultOracleMemory;
  g_limit.store(v);
  return v;
}

void set_oracle_memory_limit(int64_t bytes) { g_limit.store(bytes); }

int64_t oracle_step_limit() {
  int64_t v = g_steps.load();
  if (v > 0) return v;
  v = kDefaultOracleSteps;
  if (const char* env = std::getenv(kOracleStepsVariable); env && *env) {
    std::string what = std::string("$") + kOracleStepsVariable, text = env;
    uint64_t n = 0;
    for (char c : text) {
      if (c < '0' || c > '9' || n > (uint64_t{1} << 58))
        throw InputError(what, "expected a count of statements such as 10000000000, got '" + text + "'");
      n = n * 10 + static_cast<uint64_t>(c - '0');
    }
    if (n < 1000000) throw InputError(what, "'" + text + "' is below the minimum of 1000000");
    v = static_cast<int64_t>(n);
  }
  g_steps.store(v);
  return v;
}

void set_oracle_step_limit(int64_t steps) { g_steps.store(steps); }

std::string size_text(int64_t bytes) {
  for (auto [shift, unit] : {std::pair{40, "TiB"}, std::pair{30, "GiB"}, std::pair{20, "MiB"}, std::pair{10, "KiB"}})
    if (bytes >= (int64_t{1} << shift) && bytes % (int64_t{1} << shift) == 0)
      return std::to_string(bytes >> shift) + " " + unit;
  return std::to_string(bytes) + " bytes";
}

}  // namespace concord
