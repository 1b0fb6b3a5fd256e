// oracle/memory.hpp: the memory and time bounds of an oracle run (SPEC §11). The oracle
// counts, as the run grows, the bytes it holds for it (journal events, processes,
// queued messages, names, child entries; version 2: links, monitors, queued
// signals, pending items, waiting callers, given back when they go, rules.hpp
// kLinkCost ...) plus an upper bound of the text each
// adds to the result line (a vector's storage as malloc takes it, a mailbox's with
// room for its growth, state.hpp); a run whose count passes the limit stops with
// OutOfMemory, answered as the indefinite error MEMORY (SPEC §10). The count is
// the same on every machine, so the same run always stops at the same place, and
// no result line the oracle writes is longer than the limit.
//
// Time is bounded the same way, by a count rather than a clock: the statements the
// run executes (its steps). A run past the step limit stops with OutOfSteps,
// answered as the indefinite error TIMEOUT.
#pragma once

#include <cstdint>
#include <new>
#include <stdexcept>
#include <string>

namespace concord {

constexpr int64_t kDefaultOracleMemory = int64_t{1} << 30;  // 1 GiB
constexpr const char* kOracleMemoryVariable = "CONCORD_ORACLE_MEMORY";
constexpr int64_t kDefaultOracleSteps = int64_t{1000000000};  // 10^9: about a minute
constexpr const char* kOracleStepsVariable = "CONCORD_ORACLE_STEPS";

// Thrown out of run() when the run's count passes the limit. A std::bad_alloc, so
// that every place that answers MEMORY for an allocation failure answers it here.
class OutOfMemory : public std::bad_alloc {
 public:
  explicit OutOfMemory(std::string message) : message_(std::move(message)) {}
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  std::string message_;
};

// Thrown out of run() when the run has executed more statements than the step limit.
class OutOfSteps : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The limit of every run of this process: $CONCORD_ORACLE_MEMORY when set (a size
// as parse_size reads it), else kDefaultOracleMemory. A malformed value is an
// InputError naming the variable.
int64_t oracle_memory_limit();
void set_oracle_memory_limit(int64_t bytes);  // for tests and the CLI
// Statements a run may execute: $CONCORD_ORACLE_STEPS (a count, at least 10^6), else
// kDefaultOracleSteps.
int64_t oracle_step_limit();
void set_oracle_step_limit(int64_t steps);

// "1073741824", "512K", "64M", "2G" (binary units), at least 1 MiB. InputError
// naming `what` otherwise.
int64_t parse_size(const std::string& text, const std::string& what);

// "1 GiB", "512 MiB", "12345 bytes", for messages.
std::string size_text(int64_t bytes);

}  // namespace concord
