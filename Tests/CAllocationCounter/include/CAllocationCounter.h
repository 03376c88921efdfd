#ifndef CALLOCATIONCOUNTER_H
#define CALLOCATIONCOUNTER_H
#include <stdint.h>

/// Counts the allocations (malloc, calloc, realloc) of the calling thread, and the
/// bytes they asked for. The test process's malloc is wrapped (glibc only; elsewhere
/// `cac_is_active` is 0 and the counts stay 0).
void cac_reset(void);
uint64_t cac_allocations(void);
uint64_t cac_bytes(void);
int cac_is_active(void);

#endif
