/*
 * Fuzz harness over the R300 command processor: the input is a ring of PM4
 * packets (and, first, a few register writes through the BAR) run to
 * completion through the core with a small VRAM. Seeds are well-formed
 * driver streams (include/gpu3d/r300-cmd.h) that the driver damages.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "r300/r300.h"
#include "gpu3d/r300-cmd.h"

#define VRAM_SIZE (4u << 20)
#define RING_BUFSZ 12           /* 32 KiB */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t gpu3d_fuzz_seed(unsigned index, uint8_t *buf, size_t max);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t *vram;
    static uint8_t sys[8192];
    G3DFlatMem f1, f2;
    R300CoreConfig cfg = { .vram_size = VRAM_SIZE, .hooks.threads = 1 };
    R300Core *c;
    uint32_t ndw, i, wr;
    unsigned steps;

    if (!vram) {
        vram = malloc(VRAM_SIZE);
    }
    memset(vram, 0, VRAM_SIZE);
    g3d_flat_mem_init(&cfg.vram, &f1, vram, 0, VRAM_SIZE);
    g3d_flat_mem_init(&cfg.sys, &f2, sys, 0, sizeof(sys));
    c = r300_core_new(&cfg);

    /* the first 8 bytes (if any): one direct register write, anywhere */
    if (size >= 8) {
        uint32_t off, val;
        memcpy(&off, data, 4);
        memcpy(&val, data + 4, 4);
        r300_reg_write(c, off % R300_MMIO_SIZE, val, 1u << (off >> 30 & 3) > 4
                       ? 4 : 1u << (off >> 30 & 3));
        data += 8;
        size -= 8;
    }
    ndw = size / 4;
    if (ndw > (2u << RING_BUFSZ) - 1) {
        ndw = (2u << RING_BUFSZ) - 1;
    }
    memcpy(vram, data, ndw * 4);
    r300_reg_write(c, A_CP_CSQ_CNTL, (uint32_t)R300_CSQ_PRIBM_INDBM << 28, 4);
    r300_reg_write(c, A_CP_RB_BASE, 0, 4);
    r300_reg_write(c, A_CP_RB_CNTL, RING_BUFSZ, 4);
    r300_reg_write(c, A_CP_RB_RPTR_ADDR, 0x100000, 4);
    r300_reg_write(c, A_CP_RB_WPTR, ndw, 4);
    for (steps = 0; steps < 20000 && r300_core_work(c, 16); steps++) {
    }
    /* reads of every register must be safe too */
    for (i = 0, wr = 0; i < R300_MMIO_SIZE; i += 4) {
        wr ^= (uint32_t)r300_reg_read(c, i, 4);
    }
    (void)wr;
    r300_core_reset(c);
    r300_core_free(c);
    return 0;
}

size_t gpu3d_fuzz_seed(unsigned index, uint8_t *buf, size_t max)
{
    static uint32_t cmd[8192];
    static const float tri[3 * 8] = {
        -1, -1, 0, 1, 1, 0, 0, 1,  1, -1, 0, 1, 0, 1, 0, 1,
        0, 1, 0, 1, 0, 0, 1, 1,
    };
    static const float m[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0,
                                 0, 0, 0, 1 };
    R300Cmd c = { cmd, 0, 8192, 0 };
    R300Surface cb = { 0x200000, 64, R300_COLOR_FORMAT_ARGB8888 };
    R300Surface zb = { 0x300000, 64, R300_DEPTHFORMAT_16BIT_INT_Z };
    uint32_t head[2] = { A_SCRATCH_UMSK, 0x3F };
    size_t n;

    if (index % 4 == 3) {
        return 0;               /* one in four inputs is pure noise */
    }
    r300_cmd_pipeline(&c, &cb, index & 1 ? &zb : NULL, 64, 48);
    r300_cmd_matrix(&c, m);
    r300_cmd_draw(&c, index % 3 == 0 ? R300_PRIM_TRIANGLE_STRIP
                                     : R300_PRIM_TRIANGLES, tri, 3);
    r300_cmd_finish(&c);
    n = 8 + 4 * (size_t)c.n;
    if (n > max) {
        return 0;
    }
    memcpy(buf, head, 8);
    memcpy(buf + 8, cmd, 4 * (size_t)c.n);
    return n;
}
