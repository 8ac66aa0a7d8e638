/*
 * Fuzz harness over the flipper-gx command processor and GX decoder, and
 * everything a command stream reaches (vertex loader, XF, setup, clipper,
 * rasteriser, TEV, PE, EFB copies), plus BAR0 writes and the VI scanout.
 *
 * Input: u32 ops, u8 blob count, blobs (u32 MEM1 address, u16 length,
 * bytes: arrays and display lists), then as ops asks 16 register writes
 * (u16 offset, u32 value), the VI's TFBL and HSW (u32 each), FIFO read
 * pointer, distance and end (u32 each), then the GX stream. ops selects how the
 * stream reaches the GP (through the write-gather pipe into a linked FIFO
 * ring, or executed at once), fuzzed FIFO pointers, fuzzed BAR0 writes, a
 * VI scanout of a fuzzed XFB, a reset in the middle of work, and a saved
 * state round trip. Work is bounded per input. The harness checks that
 * nothing crashes, hangs or touches memory it must not (run it under
 * ASan/UBSan), and that save -> load -> save gives the same stream.
 *
 * Seeds (gpu3d_fuzz_seed) are the image tests' scenes, so mutations reach
 * the whole pipeline, texturing included (texture and TLUT blobs, TX/TEV/
 * indirect registers, texgens).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <string.h>

#include "rig.h"
#include "common/scanout.h"
#include "../state-test.h"

enum {
    OP_GATHER = 1 << 0,     /* through the gather pipe (else gx_exec) */
    OP_REGS = 1 << 1,       /* fuzzed BAR0 writes before the stream */
    OP_FIFO = 1 << 2,       /* fuzzed FIFO pointers */
    OP_VI = 1 << 3,         /* VI with a fuzzed XFB address and timing */
    OP_RESET = 1 << 4,      /* reset while work is pending */
    OP_BYTES = 1 << 5,      /* gather pipe fed with 1-byte writes */
    OP_EFB = 1 << 6,        /* CPU EFB peeks and pokes after the stream */
    OP_STATE = 1 << 7,      /* with OP_GATHER: the state left (work often
                             * in progress) survives save -> load -> save */
};

#define FZ_CLEAR 0x00100000u     /* MEM1 bytes cleared at each fuzz region */

static FlipperRig *rig;
static FlipperCore *twin;       /* the saved state's destination */

static void state_save(void *c, G3DStateOut *o)
{
    flipper_state_save(c, o);
}

static bool state_load(void *c, G3DStateIn *in)
{
    return flipper_state_load(c, in);
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = v >> 24;
    p[1] = v >> 16;
    p[2] = v >> 8;
    p[3] = v;
}

static void clear_mem(void)
{
    /* where the scenes and the harness put data: FIFO, XFB, arrays,
     * textures */
    static const uint32_t at[] = { RIG_FIFO_BASE, SCENE_XFB_ADDR,
                                   SCENE_DATA_ADDR, SCENE_TEX_ADDR };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(at); i++) {
        memset(rig->mem1 + at[i], 0, FZ_CLEAR);
    }
}

/* feed the stream through the gather pipe, the GP draining a bounded
 * number of steps whenever the ring is nearly full */
static void feed_gather(const uint8_t *p, size_t len, uint32_t ops)
{
    uint32_t ring = RIG_FIFO_SIZE;
    size_t pos = 0;
    unsigned steps = 0;

    while (pos < len) {
        size_t n = MIN(32, len - pos), i;
        while (rig_cp32(rig, A_CP_FIFO_DIST_LO) + 64 > ring) {
            if (++steps > 64) {
                return;         /* the GP stalled: give up on the rest */
            }
            flipper_core_work(rig->core, 4096);
        }
        if (ops & OP_BYTES) {
            for (i = 0; i < n; i++) {
                flipper_reg_write(rig->core, FLIPPER_WGP_BASE, p[pos + i], 1);
            }
        } else {
            for (i = 0; i + 4 <= n; i += 4) {
                flipper_reg_write(rig->core, FLIPPER_WGP_BASE,
                                  rd32(p + pos + i), 4);
            }
            for (; i < n; i++) {
                flipper_reg_write(rig->core, FLIPPER_WGP_BASE, p[pos + i], 1);
            }
        }
        pos += n;
    }
    for (pos = 0; pos < 8; pos++) {
        flipper_reg_write(rig->core, FLIPPER_WGP_BASE, 0, 4);   /* GX_Flush */
    }
}

static void scan_out(void)
{
    G3DScanout so;
    uint32_t *px;

    if (!flipper_scanout(rig->core, 0, &so) || !so.enabled ||
        (uint64_t)so.width * so.height > 1024 * 1024) {
        return;
    }
    px = g_new(uint32_t, (size_t)so.width * so.height);
    g3d_scanout_copy(&so, &rig->mem, px, so.width, "fuzz");
    g_free(px);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *end = data + size, *p;
    uint32_t ops;
    unsigned nblobs, i;

    if (size < 5) {
        return 0;
    }
    if (!rig) {
        rig = rig_new(2);
    }
    flipper_core_reset(rig->core);
    clear_mem();
    ops = rd32(data);
    nblobs = data[4] & 7;
    p = data + 5;
    for (i = 0; i < nblobs && end - p >= 6; i++) {
        uint32_t addr = rd32(p) % FLIPPER_MEM1_SIZE;
        size_t len = MIN((size_t)(p[4] << 8 | p[5]), (size_t)(end - p - 6));
        len = MIN(len, (size_t)(FLIPPER_MEM1_SIZE - addr));
        memcpy(rig->mem1 + addr, p + 6, len);
        p += 6 + len;
    }

    if (ops & OP_REGS) {
        /* up to 16 register writes: u16 offset, u32 value, from the stream */
        for (i = 0; i < 16 && end - p >= 6; i++, p += 6) {
            uint32_t off = (p[0] << 8 | p[1]) & 0x7FFE;
            flipper_reg_write(rig->core, off, rd32(p + 2), (off & 2) ? 2 : 4);
        }
    }
    if (ops & OP_VI) {
        rig_vi_init(rig, SCENE_XFB_ADDR);
        if (end - p >= 8) {
            flipper_reg_write(rig->core, A_VI_TFBL, rd32(p), 4);
            flipper_reg_write(rig->core, A_VI_HSW, rd32(p + 4) & 0xFFFF, 2);
            p += 8;
        }
    }
    if (ops & OP_GATHER) {
        rig_fifo_init(rig, RIG_FIFO_BASE, RIG_FIFO_SIZE);
        if ((ops & OP_FIFO) && end - p >= 12) {
            rig_set_cp32(rig, A_CP_FIFO_RPTR_LO, rd32(p));
            rig_set_cp32(rig, A_CP_FIFO_DIST_LO, rd32(p + 4));
            rig_set_cp32(rig, A_CP_FIFO_END_LO, rd32(p + 8));
            p += 12;
        }
        rig_w16(rig, A_CP_CR, (ops >> 8) & 0x3F ? (ops >> 8) & 0x3F :
                R_CP_CR_GP_READ_ENABLE_MASK | R_CP_CR_GP_LINK_ENABLE_MASK);
        feed_gather(p, end - p, ops);
        for (i = 0; i < 64; i++) {
            if (!flipper_core_work(rig->core, 1u << 14)) {
                break;
            }
            if (i == 4 && (ops & OP_RESET)) {
                flipper_core_reset(rig->core);
            }
        }
    } else {
        /* the same bound on work as the gather-pipe path above */
        flipper_gx_exec_budget(rig->core, p, end - p, 64u << 14);
    }
    if (ops & OP_EFB) {
        /* up to 8 (offset, value) pairs from the input's tail; the PE
         * CPU-access modes come from fuzzed register writes (OP_REGS) */
        for (i = 1; i <= 8 && (size_t)(end - data) >= 5 + 8 * i; i++) {
            uint32_t off = rd32(end - 8 * i), val = rd32(end - 8 * i + 4);
            if (!(off & 0x80000000u)) {
                off %= FLIPPER_EFB_CPU_SPAN + 64;
            }
            flipper_efb_poke(rig->core, off, val);
            flipper_efb_peek(rig->core, off ^ (val & 0x00400000u));
        }
    }
    if ((ops & (OP_GATHER | OP_STATE)) == (OP_GATHER | OP_STATE)) {
        static const G3DStateTestOps ops = { state_save, state_load, NULL };
        size_t len;
        uint8_t *st;

        if (!twin) {
            twin = rig_core_new(rig, 1);
        }
        st = g3d_state_test_save(&ops, rig->core, &len);
        g3d_state_test_roundtrip(&ops, twin, st, len);
        g_free(st);
    }
    /* every register reads back without harm */
    for (i = 0; i < 0x7000; i += 2) {
        flipper_reg_read(rig->core, i, 2);
    }
    flipper_irq_level(rig->core);
    scan_out();
    return 0;
}

/*
 * Shrink a scene to 256x192 (scissor and copy rectangles) so that 3000
 * inputs stay within a unit test's time; the pipeline is the same.
 */
static void shrink_scene(uint8_t *p, size_t len)
{
    size_t i;

    for (i = 0; i + 5 <= len; i++) {
        uint32_t v;
        if (p[i] != GX_LOAD_BP_REG) {
            continue;
        }
        if (p[i + 1] == BP_SCISSOR_BR) {
            v = (255 + 342) << 12 | (191 + 342);
        } else if (p[i + 1] == BP_EFB_WH) {
            v = 255 | 191 << 10;
        } else {
            continue;
        }
        p[i + 2] = v >> 16;
        p[i + 3] = v >> 8;
        p[i + 4] = v;
    }
}

size_t gpu3d_fuzz_seed(unsigned index, uint8_t *buf, size_t max);

size_t gpu3d_fuzz_seed(unsigned index, uint8_t *buf, size_t max)
{
    const char *const *names = flipper_scene_names();
    unsigned n = 0, i;
    FlipperScene *s;
    GByteArray *pro;
    size_t len;

    while (names[n]) {
        n++;
    }
    s = flipper_scene_build(names[index % n]);
    pro = flipper_scene_prologue(s);
    /*
     * Ways in, by index / (number of scenes): gather pipe; gather pipe with
     * the VI and a reset; exec; gather pipe after DMA-starting register
     * writes (ARAM, DVD, EXI, SI) with fuzzed FIFO pointers; byte-wide
     * gather-pipe writes with the VI; exec after register writes, then CPU
     * EFB peeks and pokes.
     */
    static const uint32_t variants[6] = {
        OP_GATHER, OP_GATHER | OP_VI | OP_RESET, 0,
        OP_GATHER | OP_REGS | OP_FIFO, OP_GATHER | OP_BYTES | OP_VI,
        OP_REGS | OP_VI | OP_EFB,
    };
    /* register writes (u16 offset, u32 value) that start DMAs and transfers */
    static const struct { uint16_t off; uint32_t val; } regs[16] = {
        { A_AR_DMA_MMADDR_H, 0x00001000 }, { A_AR_DMA_ARADDR_H, 0x00000400 },
        { A_AR_DMA_CNT_H, 0x00000040 }, { A_DI_CMDBUF0, 0x12000000 },
        { A_DI_MAR, 0x00003000 }, { A_DI_LENGTH, 0x00000020 },
        { A_DI_CR, 0x00000003 }, { A_EXI_MAR, 0x00004000 },
        { A_EXI_LENGTH, 0x00000040 }, { A_EXI_CR, 0x00000003 },
        { A_SI_COMCSR, 0x40000001 }, { A_PI_INTMR, 0x00003FFF },
        { A_CP_FIFO_BP_LO, 0x01000010 }, { A_AI_CR, 0x00000005 },
        { A_MI_INT_MASK, 0x001F0000 }, { A_DSP_CSR, 0x00000150 },
    };
    uint32_t ops = variants[(index / n) % 6];

    put32(buf, ops);
    buf[4] = MIN(s->mem->len, 7);
    len = 5;
    for (i = 0; i < buf[4]; i++) {
        const SceneBlob *b = &g_array_index(s->mem, SceneBlob, i);
        uint32_t bl = MIN(b->data->len, 0xFFFF);
        if (len + 6 + bl > max) {
            break;
        }
        put32(buf + len, b->addr);
        buf[len + 4] = bl >> 8;
        buf[len + 5] = bl;
        memcpy(buf + len + 6, b->data->data, bl);
        len += 6 + bl;
    }
    buf[4] = i;
    if ((ops & OP_REGS) && len + 16 * 6 <= max) {
        for (i = 0; i < 16; i++) {
            buf[len] = regs[i].off >> 8;
            buf[len + 1] = regs[i].off;
            put32(buf + len + 2, regs[i].val);
            len += 6;
        }
    }
    if ((ops & OP_VI) && len + 8 <= max) {
        /* OP_VI reads the TFBL and HSW values next */
        put32(buf + len, SCENE_XFB_ADDR);
        put32(buf + len + 4, 0x2850);
        len += 8;
    }
    if ((ops & OP_GATHER) && (ops & OP_FIFO) && len + 12 <= max) {
        /* read pointer, distance, end: the ring as rig_fifo_init sets it */
        put32(buf + len, RIG_FIFO_BASE);
        put32(buf + len + 4, 0);
        put32(buf + len + 8, RIG_FIFO_BASE + RIG_FIFO_SIZE - 4);
        len += 12;
    }
    if (len + pro->len + s->fifo->len <= max) {
        memcpy(buf + len, pro->data, pro->len);
        len += pro->len;
        memcpy(buf + len, s->fifo->data, s->fifo->len);
        shrink_scene(buf + len - pro->len, pro->len + s->fifo->len);
        len += s->fifo->len;
    }
    g_byte_array_unref(pro);
    flipper_scene_free(s);
    return len;
}
