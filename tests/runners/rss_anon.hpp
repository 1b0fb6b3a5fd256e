// tests/runners/rss_anon.hpp: this process's resident anonymous memory, for the tests
// that check memory is given back or bounded (heap, subprocess, answer_memory, memory_rss).
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace concord::testing_rss {

// A /proc/self/status figure in kB ("RssAnon:", "VmHWM:"), in MiB.
inline double status_mib(const std::string& field) {
  std::ifstream f("/proc/self/status");
  std::string key;
  while (f >> key) {
    if (key == field) {
      double kb = 0;
      f >> kb;
      return kb / 1024;
    }
    std::getline(f, key);
  }
  ADD_FAILURE() << "no " << field << " in /proc/self/status";
  return 0;
}

// Resident anonymous memory, in MiB.
inline double rss_anon_mib() { return status_mib("RssAnon:"); }

// The peak resident memory (VmHWM) since the last reset_peak(), in MiB.
inline double peak_mib() { return status_mib("VmHWM:"); }
inline void reset_peak() { std::ofstream("/proc/self/clear_refs") << "5"; }  // Linux >= 4.0

}  // namespace concord::testing_rss
