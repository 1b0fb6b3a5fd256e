// tests/runners/rss_anon.hpp: this process's resident anonymous memory, for the tests
// that check memory is given back (heap_test, subprocess_test).
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace concord::testing_rss {

// /proc/self/status RssAnon, in MiB.
inline double rss_anon_mib() {
  std::ifstream f("/proc/self/status");
  std::string key;
  while (f >> key) {
    if (key == "RssAnon:") {
      double kb = 0;
      f >> kb;
      return kb / 1024;
    }
    std::getline(f, key);
  }
  ADD_FAILURE() << "no RssAnon in /proc/self/status";
  return 0;
}

}  // namespace concord::testing_rss
