/*
 * A G3DMem over a host buffer that can be read but never mapped, as guest
 * memory split over several host blocks is: it drives the texture units'
 * copy path. Shared by the tests and the fuzz harness.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TESTS_R300_NOMAP_H
#define TESTS_R300_NOMAP_H

#include <string.h>

#include "common/g3d-core.h"

typedef struct R300NoMap {
    uint8_t *ptr;
    uint64_t size;
} R300NoMap;

static inline bool r300_nomap_read(void *opaque, uint64_t addr, void *buf,
                                   uint64_t len)
{
    R300NoMap *m = opaque;

    if (!g3d_range_ok(addr, len, 0, m->size)) {
        return false;
    }
    memcpy(buf, m->ptr + addr, len);
    return true;
}

static inline G3DMem r300_nomap_mem(R300NoMap *m)
{
    return (G3DMem){ .opaque = m, .read = r300_nomap_read };
}

#endif
