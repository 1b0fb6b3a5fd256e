// tests/runners/heap_test.cpp: release_free_heap (runners/process/heap.hpp) gives back
// memory that glibc keeps after free: a worker thread's many small blocks, freed
// below one still held, stay resident until it is called.
#include <gtest/gtest.h>

#include <cstdlib>
#include <thread>
#include <vector>

#include "runners/process/heap.hpp"
#include "tests/runners/rss_anon.hpp"

using namespace concord;

using concord::testing_rss::rss_anon_mib;

TEST(Heap, FreedBlocksBelowAHeldOneGoBackToTheSystem) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer replaces malloc (and keeps freed blocks in quarantine): glibc's trim is not "
                  "what runs here; the normal build runs this test";
#endif
  double base = rss_anon_mib(), held = 0, released = 0;
  // A campaign's worker: its own malloc arena, a large result's JSON in small nodes.
  std::thread([&] {
    std::vector<void*> blocks;
    for (int i = 0; i < 240000; i++) {  // 240,000 x 512 bytes: about 120 MiB
      void* b = std::malloc(512);
      static_cast<char*>(b)[0] = 1;  // touched: resident
      blocks.push_back(b);
    }
    void* top = std::malloc(512);  // held: the freed ones are not at the heap's top
    static_cast<char*>(top)[0] = 1;
    for (void* b : blocks) std::free(b);
    blocks = {};
    held = rss_anon_mib();
    release_free_heap();
    released = rss_anon_mib();
    std::free(top);
  }).join();
  // The setup shows the retention (else the second check would prove nothing)...
  EXPECT_GT(held - base, 80) << "base " << base << " MiB, after free " << held << " MiB";
  // ... and the call ends it.
  EXPECT_LT(released - base, 20) << "base " << base << " MiB, after free " << held << " MiB, after release " << released
                                 << " MiB";
}
