// runners/process/heap.cpp: see heap.hpp.
#include "runners/process/heap.hpp"

#include <cstdlib>  // defines __GLIBC__ under glibc: tested below, so included first

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace concord {

void release_free_heap() {
#if defined(__GLIBC__)
  ::malloc_trim(0);
#endif
}

}  // namespace concord
