/*
 * The command processor's control state, which both the register file
 * (regs.c: RBBM_SOFT_RESET, CP_IB_BUFSZ, RBBM_STATUS) and the packet
 * processor (cp.c) use: whether the ring is enabled and has work, its size
 * (Linux radeon r100.c r100_cp_init: RB_BUFSZ), the CP's soft reset and the
 * start of an indirect buffer. It calls no block, so cp.c, which writes
 * registers through regs.c, and regs.c both stay above it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "r300-int.h"

#include <string.h>

#define RB_BUFSZ_MAX 22             /* 32 MiB of ring; larger is a guest error */

bool r300_cp_ring_enabled(R300Core *c)
{
    uint32_t mode = G3D_FIELD_EX32(R300_REG(c, A_CP_CSQ_CNTL), CP_CSQ_CNTL,
                                   CSQ_MODE);
    return mode == R300_CSQ_PRIBM_INDDIS || mode == R300_CSQ_PRIBM_INDBM;
}

/* ring size in dwords, or 0 when the ring setup is unusable */
uint32_t r300_cp_ring_dwords(R300Core *c)
{
    uint32_t bufsz = G3D_FIELD_EX32(R300_REG(c, A_CP_RB_CNTL), CP_RB_CNTL,
                                    RB_BUFSZ);
    if (bufsz > RB_BUFSZ_MAX) {
        return 0;
    }
    return 2u << bufsz;             /* 8 << RB_BUFSZ bytes */
}

uint32_t r300_cp_ring_avail(R300Core *c, uint32_t size)
{
    return (R300_REG(c, A_CP_RB_WPTR) - c->cp.rptr) & (size - 1);
}

bool r300_cp_busy(R300Core *c)
{
    uint32_t size;

    if (c->cp.ib_active) {
        return true;
    }
    size = r300_cp_ring_dwords(c);
    return r300_cp_ring_enabled(c) && size && r300_cp_ring_avail(c, size) != 0;
}

void r300_cp_reset(R300Core *c)
{
    memset(&c->cp, 0, sizeof(c->cp));
}

void r300_cp_start_ib(R300Core *c)
{
    uint32_t size = R300_REG(c, A_CP_IB_BUFSZ) & 0x7FFFFF;

    if (c->cp.ib_active) {
        g3d_error(&c->errors, 0, 0,
                  "r300: CP_IB_BUFSZ written inside an indirect buffer");
        return;
    }
    if (size == 0) {
        return;
    }
    c->cp.ib_active = true;
    c->cp.ib_base = R300_REG(c, A_CP_IB_BASE) & ~3u;
    c->cp.ib_size = size;
    c->cp.ib_pos = 0;
}
