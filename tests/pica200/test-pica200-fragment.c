/*
 * The fragment pipeline: texture combiners (every operation, operand,
 * source, scale and the delayed combiner buffer), alpha test, stencil,
 * blending, logic ops and write masks. Expected values come from the
 * formulas in 3dbrew GPU/Internal Registers 0x0C0-0x0FD, 0x100-0x130; Citra
 * (Citra's 8-bit arithmetic), written out here independently of the core.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>

#include "pica-scene.h"
#include "pica200/pica200-int.h"

/* ---- combiner math, unit level ---------------------------------------------- */

static int clampi(int v)
{
    return v < 0 ? 0 : v > 255 ? 255 : v;
}

static int ref_combine(int op, int a, int b, int c)
{
    switch (op) {
    case 0: return a;
    case 1: return a * b / 255;
    case 2: return a + b > 255 ? 255 : a + b;
    case 3: return clampi(a + b - 128);
    case 4: return (a * c + b * (255 - c)) / 255;
    case 5: return a - b < 0 ? 0 : a - b;
    case 8: return clampi((a * b + 255 * c) / 255);
    case 9: return (a + b > 255 ? 255 : a + b) * c / 255;
    }
    g_assert_not_reached();
}

static PicaTevStage passthrough_stage(void)
{
    PicaTevStage s;

    memset(&s, 0, sizeof(s));
    s.src_rgb[0] = s.src_a[0] = PICA_TEVSRC_PREVIOUS;
    s.scale_rgb = s.scale_a = 1;
    return s;
}

static void tev_init(PicaTevState *t)
{
    int i;

    memset(t, 0, sizeof(*t));
    for (i = 0; i < 6; i++) {
        t->stage[i] = passthrough_stage();
    }
}

static void test_combiner_ops(void)
{
    static const int ops[] = { 0, 1, 2, 3, 4, 5, 8, 9 };
    static const uint8_t prim[4] = { 200, 100, 30, 77 };
    static const uint8_t konst[4] = { 90, 180, 250, 140 };
    unsigned o, ch;

    for (o = 0; o < G_N_ELEMENTS(ops); o++) {
        PicaTevState t;
        uint8_t out[4];

        tev_init(&t);
        /* a = primary, b = constant, c = previous (= primary in stage 0) */
        t.stage[0].src_rgb[0] = t.stage[0].src_a[0] = PICA_TEVSRC_PRIMARY;
        t.stage[0].src_rgb[1] = t.stage[0].src_a[1] = PICA_TEVSRC_CONSTANT;
        t.stage[0].src_rgb[2] = t.stage[0].src_a[2] = PICA_TEVSRC_PREVIOUS;
        t.stage[0].comb_rgb = t.stage[0].comb_a = ops[o];
        memcpy(t.stage[0].konst, konst, 4);
        pica_texenv_prepare(&t);
        pica_texenv_combine(&t, prim, NULL, out);
        for (ch = 0; ch < 4; ch++) {
            g_assert_cmpint(out[ch], ==,
                            ref_combine(ops[o], prim[ch], konst[ch], prim[ch]));
        }
    }
}

static void test_combiner_operands_scale_dot3(void)
{
    static const uint8_t prim[4] = { 200, 100, 30, 77 };
    static const uint8_t konst[4] = { 90, 180, 250, 140 };
    /* RGB operand codes -> the value each channel sees of `konst` */
    static const struct { int code; int v[3]; } rgb_ops[] = {
        { 0, { 90, 180, 250 } }, { 1, { 165, 75, 5 } },
        { 2, { 140, 140, 140 } }, { 3, { 115, 115, 115 } },
        { 4, { 90, 90, 90 } }, { 5, { 165, 165, 165 } },
        { 8, { 180, 180, 180 } }, { 9, { 75, 75, 75 } },
        { 12, { 250, 250, 250 } }, { 13, { 5, 5, 5 } },
    };
    static const struct { int code; int v; } a_ops[] = {
        { 0, 140 }, { 1, 115 }, { 2, 90 }, { 3, 165 }, { 4, 180 }, { 5, 75 },
        { 6, 250 }, { 7, 5 },
    };
    PicaTevState t;
    uint8_t out[4];
    unsigned i, ch;

    for (i = 0; i < G_N_ELEMENTS(rgb_ops); i++) {
        tev_init(&t);
        t.stage[0].src_rgb[0] = PICA_TEVSRC_CONSTANT;
        t.stage[0].src_a[0] = PICA_TEVSRC_PRIMARY;
        t.stage[0].op_rgb[0] = rgb_ops[i].code;
        memcpy(t.stage[0].konst, konst, 4);
        pica_texenv_prepare(&t);
        pica_texenv_combine(&t, prim, NULL, out);
        for (ch = 0; ch < 3; ch++) {
            g_assert_cmpint(out[ch], ==, rgb_ops[i].v[ch]);
        }
        g_assert_cmpint(out[3], ==, 77);
    }
    for (i = 0; i < G_N_ELEMENTS(a_ops); i++) {
        tev_init(&t);
        t.stage[0].src_rgb[0] = PICA_TEVSRC_PRIMARY;
        t.stage[0].src_a[0] = PICA_TEVSRC_CONSTANT;
        t.stage[0].op_a[0] = a_ops[i].code;
        memcpy(t.stage[0].konst, konst, 4);
        pica_texenv_prepare(&t);
        pica_texenv_combine(&t, prim, NULL, out);
        g_assert_cmpint(out[3], ==, a_ops[i].v);
        g_assert_cmpint(out[0], ==, 200);
    }
    /* scale 2x and 4x, saturating */
    tev_init(&t);
    t.stage[0].src_rgb[0] = t.stage[0].src_a[0] = PICA_TEVSRC_PRIMARY;
    t.stage[0].scale_rgb = 2;
    t.stage[0].scale_a = 4;
    pica_texenv_prepare(&t);
    pica_texenv_combine(&t, prim, NULL, out);
    g_assert_cmpint(out[0], ==, 255);
    g_assert_cmpint(out[1], ==, 200);
    g_assert_cmpint(out[2], ==, 60);
    g_assert_cmpint(out[3], ==, 255);
    /* dot3 RGB: sum of ((2a - 255)(2b - 255) + 128) / 256, replicated */
    tev_init(&t);
    t.stage[0].src_rgb[0] = PICA_TEVSRC_PRIMARY;
    t.stage[0].src_rgb[1] = PICA_TEVSRC_CONSTANT;
    t.stage[0].src_a[0] = PICA_TEVSRC_PRIMARY;
    t.stage[0].comb_rgb = PICA_TEVOP_DOT3_RGB;
    memcpy(t.stage[0].konst, konst, 4);
    pica_texenv_prepare(&t);
    pica_texenv_combine(&t, prim, NULL, out);
    {
        int d = 0;
        for (ch = 0; ch < 3; ch++) {
            d += ((2 * prim[ch] - 255) * (2 * konst[ch] - 255) + 128) / 256;
        }
        g_assert_cmpint(out[0], ==, clampi(d));
        g_assert_cmpint(out[2], ==, clampi(d));
        g_assert_cmpint(out[3], ==, 77);
        /* dot3 RGBA writes alpha too */
        t.stage[0].comb_rgb = PICA_TEVOP_DOT3_RGBA;
        pica_texenv_prepare(&t);
        pica_texenv_combine(&t, prim, NULL, out);
        g_assert_cmpint(out[3], ==, clampi(d));
    }
}

static void test_combiner_buffer(void)
{
    static const uint8_t prim[4] = { 10, 20, 30, 40 };
    PicaTevState t;
    uint8_t out[4];
    int s;

    /*
     * stage s adds constant (s + 1) to previous; stage 5 reads the buffer.
     * Stage 0 sees buffer 0, stage 1 BUFFER_COLOR, stage k + 2 the output of
     * stage k when stage k updates (a delay of one stage).
     */
    tev_init(&t);
    for (s = 0; s < 5; s++) {
        t.stage[s].src_rgb[0] = t.stage[s].src_a[0] = PICA_TEVSRC_PREVIOUS;
        t.stage[s].src_rgb[1] = t.stage[s].src_a[1] = PICA_TEVSRC_CONSTANT;
        t.stage[s].comb_rgb = t.stage[s].comb_a = PICA_TEVOP_ADD;
        memset(t.stage[s].konst, s + 1, 4);
    }
    t.stage[5].src_rgb[0] = t.stage[5].src_a[0] = PICA_TEVSRC_PREVIOUS_BUFFER;
    memset(t.buffer_init, 99, 4);
    /* outputs: 11, 13, 16, 20, 25 (red); stage 5 sees what stage 3 left */
    t.update_rgb = 1 << 3;
    t.update_a = 0;
    pica_texenv_prepare(&t);
    pica_texenv_combine(&t, prim, NULL, out);
    g_assert_cmpint(out[0], ==, 20);
    g_assert_cmpint(out[3], ==, 99);           /* alpha never updated */
    /* stage 0 updates: its output 11 reaches stages 2.. */
    t.update_rgb = 1 << 0;
    t.update_a = 1 << 2;
    pica_texenv_prepare(&t);
    pica_texenv_combine(&t, prim, NULL, out);
    g_assert_cmpint(out[0], ==, 11);
    g_assert_cmpint(out[3], ==, 40 + 1 + 2 + 3);
    /* stage 0 reads the buffer as 0, stage 1 reads BUFFER_COLOR */
    tev_init(&t);
    t.stage[0].src_rgb[0] = PICA_TEVSRC_PREVIOUS_BUFFER;
    t.stage[0].src_a[0] = PICA_TEVSRC_PREVIOUS_BUFFER;
    memset(t.buffer_init, 99, 4);
    pica_texenv_prepare(&t);
    pica_texenv_combine(&t, prim, NULL, out);
    g_assert_cmpint(out[0], ==, 0);
    t.stage[1].src_rgb[0] = PICA_TEVSRC_PREVIOUS_BUFFER;
    pica_texenv_prepare(&t);
    pica_texenv_combine(&t, prim, NULL, out);
    g_assert_cmpint(out[0], ==, 99);
}

/* ---- end to end -------------------------------------------------------------------- */

#define W 8
#define H 8
#define LIST_OFF 0x10000u
#define VB_OFF 0x100000u
#define PA(off) (PICA200_PHYS_VRAM + (off))

typedef struct Frag {
    PicaTest t;
    CmdBuf b;
} Frag;

/* a full-target quad of colour (r, g, b, a) / 255 over a target cleared to `clear` */
static void frag_begin(Frag *f, const uint8_t col[4], uint32_t clear)
{
    float v[4][8];
    int i, k;

    for (i = 0; i < 4; i++) {
        v[i][0] = (i & 1) ? 1 : -1;
        v[i][1] = (i & 2) ? 1 : -1;
        v[i][2] = -0.5f;
        v[i][3] = 1;
        for (k = 0; k < 4; k++) {
            v[i][4 + k] = col[k] / 255.0f;
        }
    }
    pt_put_vertices(&f->t, VB_OFF, &v[0][0], 4);
    for (i = 0; i < W * H; i++) {
        memcpy(f->t.vram + 4 * i, &clear, 4);
    }
    cb_init(&f->b);
    pica_cmd_basic_scene(&f->b, W, H, PA(0), PICA_COLORFMT_RGBA8, PICA200_PHYS_FCRAM + VB_OFF);
}

/* draw, and return pixel (0, 0) as R, G, B, A */
static void frag_end(Frag *f, uint8_t out[4])
{
    pica_cmd_draw(&f->b, PICA_TOPOLOGY_STRIP, 4, 0, false, 0);
    pica_cmd_finalize(&f->b);
    pt_kick(&f->t, &f->b, LIST_OFF);
    g_assert_true(pt_run(&f->t, 100));
    pt_wreg(&f->t, GPUREG_IRQ_ACK0, 0);
    out[0] = f->t.vram[3];
    out[1] = f->t.vram[2];
    out[2] = f->t.vram[1];
    out[3] = f->t.vram[0];
    cb_free(&f->b);
}

static uint32_t rgba8(const uint8_t c[4])
{
    /* memory bytes A, B, G, R */
    return c[3] | c[2] << 8 | c[1] << 16 | (uint32_t)c[0] << 24;
}

static void test_texenv_registers(void)
{
    Frag f;
    static const uint8_t col[4] = { 200, 100, 50, 128 };
    uint8_t out[4];

    pt_init(&f.t, 1);
    frag_begin(&f, col, 0);
    /* stage 0: modulate(primary, constant0); stage 1: add(previous,
     * constant1) x2 for RGB */
    {
        uint32_t env0[5] = { 0x00E000E0, 0, 0x00010001, 0x80402010, 0 };
        uint32_t env1[5] = { 0x00EF00EF, 0, 0x00020002, 0x04030201, 0x00000001 };
        pica_cmd(&f.b, PICA_TEXENV_BASE(0), 0xF, true, env0, 5);
        pica_cmd(&f.b, PICA_TEXENV_BASE(1), 0xF, true, env1, 5);
    }
    frag_end(&f, out);
    /* R: (200 * 0x10 / 255 + 1) * 2 = (12 + 1) * 2 */
    g_assert_cmpint(out[0], ==, (200 * 0x10 / 255 + 1) * 2);
    g_assert_cmpint(out[1], ==, (100 * 0x20 / 255 + 2) * 2);
    g_assert_cmpint(out[2], ==, (50 * 0x40 / 255 + 3) * 2);
    g_assert_cmpint(out[3], ==, 128 * 0x80 / 255 + 4);
    pt_free(&f.t);
}

static void test_blend(void)
{
    static const struct {
        uint32_t func;               /* BLEND_FUNC */
        int want[4];
    } cases[] = {
        /* add, src alpha / one minus src alpha (both RGB and A) */
        { 0x76760000, { (200 * 128 + 40 * 127) / 255, (100 * 128 + 80 * 127) / 255,
                        (50 * 128 + 160 * 127) / 255, (128 * 128 + 64 * 127) / 255 } },
        /* subtract src - dst with ONE, ONE */
        { 0x11110101, { 160, 20, 0, 64 } },
        /* reverse subtract dst - src */
        { 0x11110202, { 0, 0, 110, 0 } },
        /* min and max ignore the factors */
        { 0x00000303, { 40, 80, 50, 64 } },
        { 0x00000404, { 200, 100, 160, 128 } },
        /* src x dst colour + dst x zero; alpha: zero, zero */
        { 0x00040000, { 200 * 40 / 255, 100 * 80 / 255, 50 * 160 / 255, 0 } },
        /* saturate: min(As, 1 - Ad) for RGB, 1 for alpha; dst ZERO */
        { 0x010E0000, { 200 * 128 / 255, 100 * 128 / 255, 50 * 128 / 255, 128 } },
        /* constant colour (blend colour 0x10203040) */
        { 0x0C0A0000, { 200 * 0x40 / 255, 100 * 0x30 / 255, 50 * 0x20 / 255,
                        128 * 0x10 / 255 } },
    };
    static const uint8_t col[4] = { 200, 100, 50, 128 };
    static const uint8_t dst[4] = { 40, 80, 160, 64 };
    unsigned i, k;

    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        Frag f;
        uint8_t out[4];

        pt_init(&f.t, 1);
        frag_begin(&f, col, rgba8(dst));
        pica_cmd_reg(&f.b, GPUREG_BLEND_FUNC, cases[i].func);
        pica_cmd_reg(&f.b, GPUREG_BLEND_COLOR, 0x10203040);
        frag_end(&f, out);
        for (k = 0; k < 4; k++) {
            if (out[k] != cases[i].want[k]) {
                g_error("blend 0x%08x channel %u: %u, want %d", cases[i].func,
                        k, out[k], cases[i].want[k]);
            }
        }
        pt_free(&f.t);
    }
}

static void test_logic_ops(void)
{
    static const uint8_t col[4] = { 0xCA, 0x35, 0xF0, 0x0F };
    static const uint8_t dst[4] = { 0xAC, 0x53, 0x0F, 0xF0 };
    unsigned op, k;

    for (op = 0; op < 16; op++) {
        Frag f;
        uint8_t out[4];

        pt_init(&f.t, 1);
        frag_begin(&f, col, rgba8(dst));
        pica_cmd_reg(&f.b, GPUREG_COLOR_OPERATION, 0x00E40000);   /* logic op */
        pica_cmd_reg(&f.b, GPUREG_LOGIC_OP, op);
        frag_end(&f, out);
        for (k = 0; k < 4; k++) {
            uint8_t s = col[k], d = dst[k], want;
            /* reference L1748-1771 order */
            switch (op) {
            case 0: want = 0; break;
            case 1: want = s & d; break;
            case 2: want = s & ~d; break;
            case 3: want = s; break;
            case 4: want = 0xFF; break;
            case 5: want = ~s; break;
            case 6: want = d; break;
            case 7: want = ~d; break;
            case 8: want = ~(s & d); break;
            case 9: want = s | d; break;
            case 10: want = ~(s | d); break;
            case 11: want = s ^ d; break;
            case 12: want = ~(s ^ d); break;
            case 13: want = ~s & d; break;
            case 14: want = s | ~d; break;
            default: want = ~s | d; break;
            }
            if (out[k] != want) {
                g_error("logic op %u channel %u: 0x%02x, want 0x%02x", op, k,
                        out[k], want);
            }
        }
        pt_free(&f.t);
    }
}

/* one register set on top of the default state, one quad drawn */
static void frag_one(const uint8_t col[4], const uint8_t dst[4], uint32_t id,
                     uint32_t value, uint8_t out[4])
{
    Frag f;

    pt_init(&f.t, 1);
    frag_begin(&f, col, rgba8(dst));
    pica_cmd_reg(&f.b, id, value);
    frag_end(&f, out);
    pt_free(&f.t);
}

static void test_alpha_test_and_masks(void)
{
    static const uint8_t col[4] = { 200, 100, 50, 0x7F };
    static const uint8_t dst[4] = { 1, 2, 3, 4 };
    uint8_t out[4];

    /* alpha 0x7F > 0x80 fails: nothing written; 0x7F <= 0x80 passes */
    frag_one(col, dst, GPUREG_FRAGOP_ALPHA_TEST, 1 | PICA_CMP_GREATER << 4 | 0x80 << 8, out);
    g_assert_cmpmem(out, 4, dst, 4);
    frag_one(col, dst, GPUREG_FRAGOP_ALPHA_TEST, 1 | PICA_CMP_LEQUAL << 4 | 0x80 << 8, out);
    g_assert_cmpmem(out, 4, col, 4);
    /* channel mask: only G and A written */
    frag_one(col, dst, GPUREG_DEPTH_COLOR_MASK, 0xA00, out);
    g_assert_cmpint(out[0], ==, 1);
    g_assert_cmpint(out[1], ==, 100);
    g_assert_cmpint(out[2], ==, 3);
    g_assert_cmpint(out[3], ==, 0x7F);
    /* colour writes not allowed at all */
    frag_one(col, dst, GPUREG_COLORBUFFER_WRITE, 0, out);
    g_assert_cmpmem(out, 4, dst, 4);
}

static void test_stencil(void)
{
    static const uint8_t col[4] = { 200, 100, 50, 128 };
    Frag f;
    uint8_t out[4];
    const uint32_t depth = 0x1000;
    int i;

    pt_init(&f.t, 1);
    /* D24S8 cleared to depth 0xFFFFFF, stencil 0 */
    for (i = 0; i < W * H; i++) {
        uint32_t v = 0x00FFFFFF;
        memcpy(f.t.vram + depth + 4 * i, &v, 4);
    }
    frag_begin(&f, col, 0);
    pica_cmd_target(&f.b, W, H, PA(0), PICA_COLORFMT_RGBA8, PA(depth), PICA_DEPTH_D24S8);
    /* pass 1: ALWAYS, replace on z-pass with ref 5, write mask 0xFF */
    pica_cmd_reg(&f.b, GPUREG_STENCIL_TEST, 1 | PICA_CMP_ALWAYS << 4 | 0xFF << 8 |
           5 << 16 | 0xFFu << 24);
    pica_cmd_reg(&f.b, GPUREG_STENCIL_OP, 2 << 8);
    pica_cmd_reg(&f.b, GPUREG_DEPTH_COLOR_MASK, 0xF00);
    pica_cmd_draw(&f.b, PICA_TOPOLOGY_STRIP, 4, 0, false, 0);
    /* pass 2: NOTEQUAL 5 fails everywhere: fail op = increment */
    pica_cmd_reg(&f.b, GPUREG_STENCIL_TEST, 1 | PICA_CMP_NOTEQUAL << 4 | 0xFF << 8 |
           5 << 16 | 0xFFu << 24);
    pica_cmd_reg(&f.b, GPUREG_STENCIL_OP, 3);
    frag_end(&f, out);
    /* pass 1 replaced 0 by 5, pass 2 failed and incremented it */
    g_assert_cmpuint(f.t.vram[depth + 3], ==, 6);
    g_assert_cmpmem(out, 4, col, 4);
    g_assert_cmphex(f.t.vram[depth] | f.t.vram[depth + 1] << 8 |
                    f.t.vram[depth + 2] << 16, ==, 0xFFFFFF);   /* depth kept */
    pt_free(&f.t);
}

/* ---- fog (3dbrew GPU/Internal Registers 0x0E0-0x0EF; Citra's formula written
 * out here) */

/* LUT entry: value v (0..2047) in b13-23, difference d in b0-12 */
static uint32_t fog_entry(int v, int d)
{
    return (uint32_t)v << 13 | ((uint32_t)d & 0x1FFF);
}

static int fog_ref(const uint32_t *lut, double depth, int flip, int c, int fogc)
{
    double x, f;
    int i, v, d;

    if (flip) {
        depth = 1.0 - depth;
    }
    x = depth * 128;
    i = MIN((int)x, 127);
    v = lut[i] >> 13 & 0x7FF;
    d = (int)(lut[i] & 0x1FFF) - (lut[i] & 0x1000 ? 0x2000 : 0);
    f = (v + d * (x - i)) / 2047.0;
    f = f < 0 ? 0 : f > 1 ? 1 : f;
    return (int)(f * c + (1 - f) * fogc);
}

static void fog_lut(uint32_t *lut)
{
    int i;

    /* rising by 16 a step, with a falling (negative difference) stretch */
    for (i = 0; i < 128; i++) {
        int v = i < 64 ? i * 30 : 1890 - (i - 64) * 20;
        int next = i + 1 < 64 ? (i + 1) * 30 : 1890 - (i + 1 - 64) * 20;
        lut[i] = fog_entry(v, next - v);
    }
}

static void test_fog_unit(void)
{
    static const uint8_t col[4] = { 200, 100, 50, 77 };
    uint32_t lut[128];
    PicaFog fog;
    int i, k, flip;

    fog_lut(lut);
    memset(&fog, 0, sizeof(fog));
    fog.enabled = true;
    fog.color[0] = 10; fog.color[1] = 220; fog.color[2] = 130;
    for (i = 0; i < 128; i++) {
        fog.value[i] = lut[i] >> 13;
        fog.diff[i] = (float)((int)(lut[i] & 0x1FFF) - (lut[i] & 0x1000 ? 0x2000 : 0));
    }
    for (flip = 0; flip < 2; flip++) {
        fog.z_flip = flip;
        for (i = 0; i <= 100; i++) {
            double depth = i / 100.0;
            uint8_t out[4];

            memcpy(out, col, 4);
            pica_fog_apply(&fog, (float)depth, out);
            for (k = 0; k < 3; k++) {
                int want = fog_ref(lut, depth, flip, col[k], fog.color[k]);
                g_assert_cmpint(abs(out[k] - want), <=, 1);
            }
            g_assert_cmpint(out[3], ==, col[3]);
        }
    }
}

/* the LUT through its data port, FOG_COLOR, mode 5 and Z flip in a draw */
static void test_fog_draw(void)
{
    static const uint8_t col[4] = { 200, 100, 50, 128 };
    static const uint8_t fogc[3] = { 10, 220, 130 };
    uint32_t lut[128];
    int flip, k, i;

    fog_lut(lut);
    for (flip = 0; flip < 2; flip++) {
        Frag f;
        uint8_t out[4];
        float *v;

        pt_init(&f.t, 1);
        frag_begin(&f, col, 0);
        /* z = -0.3: window depth 0.3 with the basic scene's depth map */
        v = (float *)(f.t.ram + VB_OFF);
        for (i = 0; i < 4; i++) {
            v[8 * i + 2] = -0.3f;
        }
        pica_cmd_reg(&f.b, GPUREG_FOG_LUT_INDEX, 0);
        pica_cmd(&f.b, GPUREG_FOG_LUT_DATA0, 0xF, 0, lut, 128);
        pica_cmd_reg(&f.b, GPUREG_FOG_COLOR, fogc[0] | fogc[1] << 8 | fogc[2] << 16);
        pica_cmd_regm(&f.b, GPUREG_TEXENV_UPDATE_BUFFER, 0x5,
                      PICA_FOG_MODE_FOG | (uint32_t)flip << 16);
        frag_end(&f, out);
        for (k = 0; k < 3; k++) {
            g_assert_cmpint(abs(out[k] - fog_ref(lut, 0.3, flip, col[k], fogc[k])), <=, 1);
        }
        g_assert_cmpint(out[3], ==, col[3]);
        pt_free(&f.t);
    }
}

/*
 * Shadow rendering (FRAGMENT_MODE 3; Citra's DrawShadowMapPixel): the
 * colour buffer holds depth big-endian in bytes 0-2 and the intensity in
 * byte 3; the fragment's green is its intensity. Closed-form cases at
 * window depth 0.5 (z = 0x7FFFFF), f16 constants 1.0 = 0x3C00, 2.0 =
 * 0x4000, -1.0 = 0xBC00.
 */
static void test_shadow_map(void)
{
    static const struct {
        uint8_t green;
        uint32_t clear;                 /* the texel's bytes 0-3, little-endian */
        uint32_t shadow;                /* FRAGOP_SHADOW: constant | linear << 16 */
        uint8_t want[4];
    } cases[] = {
        /* intensity 0: the nearer depth is written, byte 3 kept */
        { 0, 0xFFFFFFFF, 0x3C00, { 0x7F, 0xFF, 0xFF, 0xFF } },
        /* a nearer stored depth: nothing written */
        { 0, 0xFF000040, 0x3C00, { 0x40, 0x00, 0x00, 0xFF } },
        { 200, 0xFF000040, 0x3C00, { 0x40, 0x00, 0x00, 0xFF } },
        /* 200 / (1 + 0 * x) = 200 below 255: byte 3 only */
        { 200, 0xFFFFFFFF, 0x3C00, { 0xFF, 0xFF, 0xFF, 200 } },
        /* 200 / (2 - 1 * 0.5) = 133.33, 133.375 in float1.5.10 -> 133 */
        { 200, 0xFFFFFFFF, 0x4000 | 0xBC00u << 16, { 0xFF, 0xFF, 0xFF, 133 } },
        /* not below the stored 100: kept */
        { 200, 0x64FFFFFF, 0x3C00, { 0xFF, 0xFF, 0xFF, 100 } },
    };
    unsigned i;

    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        uint8_t col[4] = { 17, cases[i].green, 99, 255 }, out[4];
        Frag f;

        pt_init(&f.t, 1);
        frag_begin(&f, col, cases[i].clear);
        pica_cmd_regm(&f.b, GPUREG_COLOR_OPERATION, 0x1, 3);
        pica_cmd_reg(&f.b, GPUREG_FRAGOP_SHADOW, cases[i].shadow);
        frag_end(&f, out);
        g_assert_cmpmem(f.t.vram, 4, cases[i].want, 4);
        pt_free(&f.t);
    }
    /* a 16-bit colour buffer cannot hold a shadow map: logged, not drawn */
    {
        uint8_t col[4] = { 0, 0, 0, 255 }, out[4];
        static const uint8_t keep[4] = { 0x78, 0x56, 0x34, 0x12 };
        Frag f;

        pt_init(&f.t, 1);
        frag_begin(&f, col, 0x12345678);
        pica_cmd_regm(&f.b, GPUREG_COLOR_OPERATION, 0x1, 3);
        pica_cmd_regm(&f.b, GPUREG_COLORBUFFER_FORMAT, 0x4, PICA_COLORFMT_RGB565 << 16);
        frag_end(&f, out);
        g_assert_cmpmem(f.t.vram, 4, keep, 4);
        pt_free(&f.t);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/pica200/fragment/combiner-ops", test_combiner_ops);
    g_test_add_func("/pica200/fragment/combiner-operands",
                    test_combiner_operands_scale_dot3);
    g_test_add_func("/pica200/fragment/combiner-buffer", test_combiner_buffer);
    g_test_add_func("/pica200/fragment/texenv-registers", test_texenv_registers);
    g_test_add_func("/pica200/fragment/blend", test_blend);
    g_test_add_func("/pica200/fragment/logic-ops", test_logic_ops);
    g_test_add_func("/pica200/fragment/alpha-test-masks", test_alpha_test_and_masks);
    g_test_add_func("/pica200/fragment/stencil", test_stencil);
    g_test_add_func("/pica200/fragment/fog-unit", test_fog_unit);
    g_test_add_func("/pica200/fragment/fog-draw", test_fog_draw);
    g_test_add_func("/pica200/fragment/shadow-map", test_shadow_map);
    return g_test_run();
}
