// runners/process/heap.hpp: giving the C library's free heap back to the system, so
// that a long campaign's resident memory follows what it holds, not the most it ever
// held.
//
// Why: glibc returns freed memory to the system only from the top of a heap, and
// after a large block is freed it raises the size above which it maps blocks apart
// (up to 32 MiB), so the JSON of a 10,000-process run lands in the heap too. A
// campaign's RSS then rose with the largest programs it had met and stayed there:
// 15.9 -> 123.6 MiB in a 1-hour soak (bench/run_soak.sh); at 10 minutes into another,
// malloc_trim(0) called from gdb took it from 121 to 57 MiB. Unlike the trimming
// free() does, malloc_trim releases the free pages in the middle of every arena.
#pragma once

namespace concord {

// Releases the free pages of every malloc arena (glibc's malloc_trim(0)); a no-op
// with another C library. Takes each arena's lock in turn: call it now and then
// (the campaign: every few seconds), not per allocation.
void release_free_heap();

}  // namespace concord
