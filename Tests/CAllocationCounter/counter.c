// Wraps the allocator of the test process so a test can count what a piece of work
// allocates on its own thread: deterministic, unlike time. Each wrapper forwards to
// glibc's own entry point.
#include "CAllocationCounter.h"
#include <stddef.h>

static _Thread_local uint64_t allocations;
static _Thread_local uint64_t bytes;

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define CAC_SANITIZED 1
#endif
#endif

// Under a sanitizer the allocator is the sanitizer's: wrapping glibc's would hand it
// blocks it did not make. The counter is then inactive (the tests that need it skip).
#if defined(__linux__) && defined(__GLIBC__) && !defined(CAC_SANITIZED)
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);

void *malloc(size_t size) {
    allocations += 1;
    bytes += size;
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    allocations += 1;
    bytes += count * size;
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    allocations += 1;
    bytes += size;
    return __libc_realloc(pointer, size);
}

int cac_is_active(void) { return 1; }
#else
int cac_is_active(void) { return 0; }
#endif

void cac_reset(void) {
    allocations = 0;
    bytes = 0;
}

uint64_t cac_allocations(void) { return allocations; }
uint64_t cac_bytes(void) { return bytes; }
