/*
 * Unit tests of the shared engine parts other than the rasteriser:
 * number formats, colour formats, fragment helpers, the memory interface.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "common/g3d-core.h"
#include "common/clip.h"
#include "common/fill.h"
#include "common/error-latch.h"
#include "common/raster.h"
#include "common/texaddr.h"
#include "common/formats.h"
#include "common/fpformat.h"
#include "common/fragment.h"
#include "common/scanout.h"
#include "common/g3d-state.h"

/* IEEE half: values from the IEEE-754 binary16 definition */
static void test_fp16(void)
{
    static const struct { uint16_t bits; float val; } v[] = {
        { 0x0000, 0.0f }, { 0x3c00, 1.0f }, { 0xc000, -2.0f },
        { 0x7bff, 65504.0f }, { 0x0400, 6.103515625e-05f },
        { 0x0001, 5.9604644775390625e-08f },   /* smallest denormal */
        { 0x3555, 0.333251953125f }, { 0x7c00, INFINITY },
    };
    unsigned i;

    for (i = 0; i < G_N_ELEMENTS(v); i++) {
        g_assert_cmpfloat(g3d_float_unpack(v[i].bits, &g3d_fp16_ieee), ==,
                          v[i].val);
        g_assert_cmphex(g3d_float_pack(v[i].val, &g3d_fp16_ieee), ==,
                        v[i].bits);
    }
    g_assert_true(isnan(g3d_float_unpack(0x7e00, &g3d_fp16_ieee)));
    /* truncation versus rounding: 1 + 2^-11 is halfway between halves */
    {
        G3DFloatFmt rnd = g3d_fp16_ieee;
        rnd.flags |= G3D_FP_ROUND;
        g_assert_cmphex(g3d_float_pack(1.0f + 3.0f / 2048, &g3d_fp16_ieee),
                        ==, 0x3c01);
        g_assert_cmphex(g3d_float_pack(1.0f + 3.0f / 2048, &rnd), ==, 0x3c02);
        g_assert_cmphex(g3d_float_pack(65520.0f, &rnd), ==, 0x7c00);
    }
}

/*
 * The 24-bit float of R300 constants and PICA uniforms: 1 sign, 7 exponent
 * bits biased by 63, 16 mantissa bits, no denormals (R3xx 3D ref. §1.9 US
 * US_ALU_CONST, PICA200 float24).
 */
static void test_fp24(void)
{
    const G3DFloatFmt fp24 = { 7, 16, 63, 0 };

    g_assert_cmphex(g3d_float_pack(1.0f, &fp24), ==, 0x3f0000);
    g_assert_cmphex(g3d_float_pack(-0.5f, &fp24), ==, 0xbe0000);
    g_assert_cmphex(g3d_float_pack(0.0f, &fp24), ==, 0);
    g_assert_cmpfloat(g3d_float_unpack(0x400000, &fp24), ==, 2.0f);
    g_assert_cmpfloat(g3d_float_unpack(0x3f8000, &fp24), ==, 1.5f);
    /* mantissa truncation: the low 7 bits of a float32 mantissa drop */
    g_assert_cmphex(g3d_float_pack(g3d_u2f(0x3f80007f), &fp24), ==, 0x3f0000);
    /* below the smallest normal: zero */
    g_assert_cmphex(g3d_float_pack(1e-30f, &fp24), ==, 0);
    /* every 24-bit normal value survives a round trip */
    {
        uint32_t b;
        for (b = 0x010000; b < 0x7f0000; b += 0x1235) {
            g_assert_cmphex(g3d_float_pack(g3d_float_unpack(b, &fp24), &fp24),
                            ==, b);
        }
    }
}

static void test_formats(void)
{
    uint8_t buf[4];
    G3DRGBA8 c = { 0xff, 0x80, 0x08, 0x40 }, d;
    int f;

    /* 565: full channels expand to 0xff; 5-bit 16 expands by replication */
    buf[0] = 0xff;
    buf[1] = 0xff;
    d = g3d_fmt_unpack(G3D_FMT_RGB565, buf);
    g_assert_cmpuint(d.r, ==, 0xff);
    g_assert_cmpuint(d.g, ==, 0xff);
    g_assert_cmpuint(d.a, ==, 0xff);
    g3d_fmt_pack(G3D_FMT_RGB565, buf, c);
    g_assert_cmphex(buf[0] | buf[1] << 8, ==, 0x1f << 11 | 0x20 << 5 | 0x01);
    /* ARGB8888 is 0xAARRGGBB little-endian */
    g3d_fmt_pack(G3D_FMT_ARGB8888, buf, c);
    g_assert_cmphex(buf[0], ==, 0x08);
    g_assert_cmphex(buf[3], ==, 0x40);
    /* 8-bit formats round-trip exactly */
    for (f = G3D_FMT_ARGB8888; f <= G3D_FMT_RGBA8888; f++) {
        g3d_fmt_pack(f, buf, c);
        d = g3d_fmt_unpack(f, buf);
        g_assert_cmpmem(&c, 4, &d, 4);
    }
    /* a reduced channel round-trips when it is already representable */
    for (f = G3D_FMT_RGB565; f <= G3D_FMT_RGBA4444; f++) {
        G3DRGBA8 e;
        g3d_fmt_pack(f, buf, c);
        d = g3d_fmt_unpack(f, buf);
        g3d_fmt_pack(f, buf, d);
        e = g3d_fmt_unpack(f, buf);
        g_assert_cmpmem(&d, 4, &e, 4);
    }
}

static void test_fragment(void)
{
    float src[4] = { 1.0f, 0.5f, 0.0f, 0.25f }, dst[4] = { 0, 1, 1, 1 };
    float cst[4] = { 0 }, out[4];

    g_assert_true(g3d_compare_u(G3D_CMP_LESS, 1, 2));
    g_assert_false(g3d_compare_u(G3D_CMP_LESS, 2, 2));
    g_assert_true(g3d_compare_u(G3D_CMP_LEQUAL, 2, 2));
    g_assert_false(g3d_compare_u(G3D_CMP_NEVER, 0, 0));
    g_assert_cmpuint(g3d_stencil_op(G3D_SOP_INCR_SAT, 0xff, 0), ==, 0xff);
    g_assert_cmpuint(g3d_stencil_op(G3D_SOP_INCR_WRAP, 0xff, 0), ==, 0);
    g_assert_cmpuint(g3d_stencil_op(G3D_SOP_DECR_SAT, 0, 0), ==, 0);
    g_assert_cmpuint(g3d_stencil_op(G3D_SOP_REPLACE, 3, 9), ==, 9);
    g3d_blend_float(out, src, dst, cst, G3D_BEQ_ADD, G3D_BF_SRC_ALPHA,
                    G3D_BF_INV_SRC_ALPHA, G3D_BEQ_ADD, G3D_BF_ONE,
                    G3D_BF_ZERO);
    g_assert_cmpfloat(out[0], ==, 0.25f);
    g_assert_cmpfloat(out[1], ==, 0.125f + 0.75f);
    g_assert_cmpfloat(out[3], ==, 0.25f);
    g_assert_cmphex(g3d_logic_op(6, 0xf0f0, 0xff00), ==, 0x0ff0);
    g_assert_cmphex(g3d_logic_op(12, 0, 0), ==, ~0u);
}

static void test_mem(void)
{
    uint8_t ram[64];
    G3DFlatMem flat;
    G3DMem m;
    uint32_t v;

    memset(ram, 0, sizeof(ram));
    g3d_flat_mem_init(&m, &flat, ram, 0x1000, sizeof(ram));
    g_assert_true(g3d_mem_write32le(&m, 0x1000 + 60, 0xdeadbeef));
    g_assert_true(g3d_mem_read32le(&m, 0x1000 + 60, &v));
    g_assert_cmphex(v, ==, 0xdeadbeef);
    g_assert_false(g3d_mem_write32le(&m, 0x1000 + 61, 1));
    g_assert_false(g3d_mem_read32le(&m, 0xfff, &v));
    g_assert_false(g3d_mem_read(&m, UINT64_MAX - 2, &v, 4));
    g_assert_null(g3d_mem_map(&m, 0x1000, 65, false));
    g_assert_nonnull(g3d_mem_map(&m, 0x1000, 64, false));
    g_assert_true(g3d_range_ok(0, 0, 0, 0));
    g_assert_false(g3d_range_ok(UINT64_MAX, 2, 0, UINT64_MAX));
}

#if defined(__x86_64__) && defined(__GNUC__)
/* g3d_unorm2f_avx of v .. v + 7 into got */
__attribute__((target("avx")))
static void unorm_avx(uint32_t v, int bits, float got[8])
{
    _mm256_storeu_ps(got, g3d_unorm2f_avx(
        _mm256_setr_ps(v, v + 1, v + 2, v + 3, v + 4, v + 5, v + 6, v + 7),
        bits));
}
#endif

/* The table behind g3d_unorm2f gives the quotient itself, bit for bit. */
static void test_unorm_table(void)
{
    volatile float one = 1.0f;      /* keeps the division at run time */
    int bits;
    uint32_t v;

    for (bits = 1; bits <= 10; bits++) {
        for (v = 0; v < (1u << bits); v++) {
            float want = (float)v * one / (float)((1u << bits) - 1);
            float got = g3d_unorm2f(v, bits);
            g_assert_cmpmem(&got, sizeof(got), &want, sizeof(want));
        }
    }
    g_assert_cmpfloat(g3d_unorm2f(255, 8), ==, 1.0f);
    g_assert_cmpfloat(g3d_unorm2f(0, 5), ==, 0.0f);
#ifdef __SSE2__
    /* the lanes' split reciprocal gives the same quotients */
    for (bits = 1; bits <= 8; bits++) {
        for (v = 0; v < (1u << bits); v += 4) {
            float got[4];
            int i;

            _mm_storeu_ps(got, g3d_unorm2f_sse2(
                _mm_setr_ps(v, v + 1, v + 2, v + 3), bits));
            for (i = 0; i < 4 && v + i < (1u << bits); i++) {
                float want = (float)(v + i) * one /
                             (float)((1u << bits) - 1);
                g_assert_cmpmem(&got[i], sizeof(got[i]), &want,
                                sizeof(want));
            }
        }
    }
#endif
#if defined(__x86_64__) && defined(__GNUC__)
    /* and the eight AVX lanes, where the CPU has AVX */
    for (bits = 1; __builtin_cpu_supports("avx") && bits <= 8; bits++) {
        for (v = 0; v < (1u << bits); v += 8) {
            float got[8];
            int i;

            unorm_avx(v, bits, got);
            for (i = 0; i < 8 && v + i < (1u << bits); i++) {
                float want = (float)(v + i) * one /
                             (float)((1u << bits) - 1);
                g_assert_cmpmem(&got[i], sizeof(got[i]), &want,
                                sizeof(want));
            }
        }
    }
#endif
}

/* g3d_f2snorm: GL's SNORM conversion, v * (2^(n-1) - 1) rounded, clamped */
static void test_snorm(void)
{
    g_assert_cmphex(g3d_f2snorm(1.0f, 8), ==, 0x7F);
    g_assert_cmphex(g3d_f2snorm(-1.0f, 8), ==, 0x81);     /* -127 */
    g_assert_cmphex(g3d_f2snorm(-2.0f, 8), ==, 0x81);     /* clamped */
    g_assert_cmphex(g3d_f2snorm(0.0f, 8), ==, 0);
    g_assert_cmphex(g3d_f2snorm(0.25f, 8), ==, 0x20);     /* 31.75 */
    g_assert_cmphex(g3d_f2snorm(-0.25f, 8), ==, 0xE0);    /* -32 */
    g_assert_cmphex(g3d_f2snorm(0.5f, 16), ==, 0x4000);   /* 16383.5 up */
    g_assert_cmphex(g3d_f2snorm(-1.0f, 16), ==, 0x8001);
}

/* Scanout: plain, rotated (3DS layout), and refused descriptions. */
static void test_scanout(void)
{
    static uint8_t vram[4096];
    uint32_t out[6 * 4];
    G3DFlatMem flat;
    G3DMem m;
    G3DScanout so = {
        .enabled = true, .addr = 0x100, .width = 3, .height = 2,
        .pitch = 16, .format = G3D_FMT_ARGB8888,
    };
    unsigned errs = g3d_log_count(G3D_LOG_GUEST_ERROR);
    int x, y;

    g3d_flat_mem_init(&m, &flat, vram, 0, sizeof(vram));
    for (y = 0; y < 3; y++) {
        for (x = 0; x < 3; x++) {
            uint32_t v = 0x10 * y + x;
            memcpy(vram + 0x100 + y * 16 + x * 4, &v, 4);
        }
    }
    g_assert_true(g3d_scanout_copy(&so, &m, out, 4, "test"));
    g_assert_cmphex(out[0], ==, 0xff000000);
    g_assert_cmphex(out[1 * 4 + 2], ==, 0xff000012);
    /*
     * Rotated: 2 stored lines of 3 pixels show as 2 columns of 3 rows,
     * stored pixel 0 at the bottom. Shown size is 2 wide, 3 high.
     */
    so.rotate = 90;
    so.width = 2;
    so.height = 3;
    g_assert_true(g3d_scanout_copy(&so, &m, out, 4, "test"));
    g_assert_cmphex(out[2 * 4 + 0], ==, 0xff000000);   /* bottom-left */
    g_assert_cmphex(out[0 * 4 + 0], ==, 0xff000002);   /* top-left */
    g_assert_cmphex(out[0 * 4 + 1], ==, 0xff000012);
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errs);
    /* refused: pitch below a line, past the end of memory, zero size */
    so.rotate = 0;
    so.pitch = 4;
    g_assert_false(g3d_scanout_copy(&so, &m, out, 4, "test"));
    so.pitch = 16;
    so.addr = sizeof(vram) - 16;
    g_assert_false(g3d_scanout_copy(&so, &m, out, 4, "test"));
    so.addr = 0;
    so.width = 0;
    g_assert_false(g3d_scanout_check(&so, &m, "test"));
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errs + 3);
}

/* one refresh through the cache: accepted, and converted or not */
static void refresh(G3DScanoutCache *cache, const G3DScanout *so,
                    const G3DMem *m, uint32_t *dst, bool want_changed)
{
    bool changed;

    g_assert_true(g3d_scanout_copy_cached(cache, so, m, dst, 4, "test",
                                          &changed));
    g_assert_cmpint(changed, ==, want_changed);
}

/*
 * The scanout cache: a second refresh of the same picture converts nothing
 * (a mark left in dst survives); a changed byte of memory, a changed
 * description or another destination converts again; a refused
 * description and a reset forget the picture.
 */
static void test_scanout_cache(void)
{
    static uint8_t vram[4096];
    uint32_t out[3 * 4], other[3 * 4];
    G3DScanoutCache cache = { 0 };
    G3DFlatMem flat;
    G3DMem m;
    G3DScanout so = {
        .enabled = true, .addr = 0x100, .width = 3, .height = 3,
        .pitch = 16, .format = G3D_FMT_ARGB8888,
    };
    bool changed;

    g3d_flat_mem_init(&m, &flat, vram, 0, sizeof(vram));
    memset(vram + 0x100, 0x11, 48);
    refresh(&cache, &so, &m, out, true);
    g_assert_cmphex(out[4 + 1], ==, 0xff111111);
    out[4 + 1] = 0xdeadbeef;        /* a mark only a conversion overwrites */
    refresh(&cache, &so, &m, out, false);
    g_assert_cmphex(out[4 + 1], ==, 0xdeadbeef);
    /* the last pixel of the last line changes (its blue byte) */
    vram[0x100 + 2 * 16 + 8] = 0x22;
    refresh(&cache, &so, &m, out, true);
    g_assert_cmphex(out[4 + 1], ==, 0xff111111);
    g_assert_cmphex(out[2 * 4 + 2], ==, 0xff111122);
    /* another format over the same bytes */
    so.format = G3D_FMT_XRGB8888;
    out[4 + 1] = 0xdeadbeef;
    refresh(&cache, &so, &m, out, true);
    g_assert_cmphex(out[4 + 1], ==, 0xff111111);
    /* another destination */
    refresh(&cache, &so, &m, other, true);
    g_assert_cmphex(other[0], ==, 0xff111111);
    /* refused, then the same picture again: converted anew */
    so.pitch = 4;
    g_assert_false(g3d_scanout_copy_cached(&cache, &so, &m, other, 4, "test",
                                           &changed));
    so.pitch = 16;
    other[0] = 0;
    refresh(&cache, &so, &m, other, true);
    g_assert_cmphex(other[0], ==, 0xff111111);
    /* a reset forces the next conversion */
    g3d_scanout_cache_reset(&cache);
    other[0] = 0;
    refresh(&cache, &so, &m, other, true);
    g_assert_cmphex(other[0], ==, 0xff111111);
    g3d_scanout_cache_reset(&cache);
}

/* The saved-state stream: round trip, little-endian layout, checked reads. */
static void test_state(void)
{
    G3DStateOut o;
    G3DStateIn in;
    uint32_t words[3] = { 1, 0x80000000u, 0xdeadbeefu }, back[3];
    float f[2] = { -1.5f, 0.25f }, fb[2];

    g3d_state_out_init(&o);
    g3d_state_begin(&o, 0x54534554, 2);
    g3d_state_put_u8(&o, 1);
    g3d_state_put_u16(&o, 0x1234);
    g3d_state_put_u32s(&o, words, 3);
    g3d_state_put_f32s(&o, f, 2);
    g3d_state_put_u64(&o, 0x0102030405060708ull);
    g3d_state_put_u32(&o, 7);
    g_assert_cmpuint(o.len, ==, 8 + 1 + 2 + 12 + 8 + 8 + 4);
    /* little-endian whatever the host: the u16 after the flag */
    g_assert_cmpuint(o.buf[9], ==, 0x34);
    g_assert_cmpuint(o.buf[10], ==, 0x12);

    g3d_state_in_init(&in, o.buf, o.len);
    g_assert_true(g3d_state_expect(&in, 0x54534554, 2, "test"));
    g_assert_true(g3d_state_get_bool(&in));
    g_assert_cmpuint(g3d_state_get_u16(&in), ==, 0x1234);
    g3d_state_get_u32s(&in, back, 3);
    g_assert_cmpmem(back, sizeof(back), words, sizeof(words));
    g3d_state_get_f32s(&in, fb, 2);
    g_assert_cmpmem(fb, sizeof(fb), f, sizeof(f));
    g_assert_cmphex(g3d_state_get_u64(&in), ==, 0x0102030405060708ull);
    g_assert_cmpuint(g3d_state_get_index(&in, 8, "ring pointer"), ==, 7);
    g_assert_true(g3d_state_end(&in));

    /* an index at its limit fails, and the first failure is kept */
    g3d_state_in_init(&in, o.buf, o.len);
    in.pos = o.len - 4;
    g_assert_cmpuint(g3d_state_get_index(&in, 7, "ring pointer"), ==, 0);
    g_assert_false(in.ok);
    g_assert_nonnull(strstr(in.error, "ring pointer is 7"));
    g3d_state_get_u32(&in);
    g_assert_nonnull(strstr(in.error, "ring pointer"));

    /* wrong version, wrong magic, short stream, trailing bytes, bad flag */
    g3d_state_in_init(&in, o.buf, o.len);
    g_assert_false(g3d_state_expect(&in, 0x54534554, 3, "test"));
    g_assert_nonnull(strstr(in.error, "version 2"));
    g3d_state_in_init(&in, o.buf, o.len);
    g_assert_false(g3d_state_expect(&in, 0x41414141, 2, "test"));
    g3d_state_in_init(&in, o.buf, 5);
    g_assert_false(g3d_state_expect(&in, 0x54534554, 2, "test"));
    g_assert_nonnull(strstr(in.error, "early"));
    g3d_state_in_init(&in, o.buf, o.len);
    g_assert_true(g3d_state_expect(&in, 0x54534554, 2, "test"));
    g_assert_false(g3d_state_end(&in));
    g3d_state_in_init(&in, o.buf, o.len);
    in.pos = 10;                        /* 0x12 read as a flag */
    g_assert_false(g3d_state_get_bool(&in));
    g_free(o.buf);
}

/* ---- the error latch -------------------------------------------------- */

static char latch_last_msg[512];
static G3DLogKind latch_last_kind;

static void latch_sink(G3DLogKind kind, const char *msg)
{
    latch_last_kind = kind;
    g_strlcpy(latch_last_msg, msg, sizeof(latch_last_msg));
}

typedef struct LatchChip {
    unsigned raised, first;
} LatchChip;

static void latch_raise(void *opaque, bool first)
{
    LatchChip *chip = opaque;

    chip->raised++;
    chip->first += first;
}

static void test_error_latch(void)
{
    G3DErrorLatch e;
    LatchChip chip = { 0 };
    unsigned ge = g3d_log_count(G3D_LOG_GUEST_ERROR);
    unsigned un = g3d_log_count(G3D_LOG_UNIMP);

    g3d_set_log_sink(latch_sink);
    g3d_error_init(&e, "chip: ", latch_raise, &chip);
    g_assert_false(e.latched);

    /* the first error latches its code and info and logs with the prefix */
    g_assert_true(g3d_error(&e, 3, 0x40, "bad %s %d", "count", 7));
    g_assert_cmpstr(latch_last_msg, ==, "chip: bad count 7");
    g_assert_cmpint(latch_last_kind, ==, G3D_LOG_GUEST_ERROR);
    g_assert_true(e.latched);
    g_assert_cmpuint(e.code, ==, 3);
    g_assert_cmpuint(e.info, ==, 0x40);
    g_assert_cmpuint(chip.raised, ==, 1);
    g_assert_cmpuint(chip.first, ==, 1);

    /* later ones are counted and logged but keep the first */
    g_assert_false(g3d_error(&e, 5, 0x99, "another"));
    g_assert_cmpstr(latch_last_msg, ==, "chip: another");
    g_assert_cmpuint(e.count, ==, 2);
    g_assert_cmpuint(e.code, ==, 3);
    g_assert_cmpuint(e.info, ==, 0x40);
    g_assert_cmpuint(chip.raised, ==, 2);
    g_assert_cmpuint(chip.first, ==, 1);
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, ge + 2);

    /* clearing re-arms the latch, the count goes on */
    g3d_error_clear(&e);
    g_assert_false(e.latched);
    g_assert_cmpuint(e.code, ==, 0);
    g_assert_true(g3d_error(&e, 9, 1, "third"));
    g_assert_cmpuint(e.code, ==, 9);
    g_assert_cmpuint(e.count, ==, 3);
    g_assert_cmpuint(chip.first, ==, 2);

    /* once per kind until reset, kinds independent */
    g3d_unimp_once(&e, 4, "feature %c", 'x');
    g_assert_cmpstr(latch_last_msg, ==, "chip: feature x");
    g_assert_cmpint(latch_last_kind, ==, G3D_LOG_UNIMP);
    g3d_unimp_once(&e, 4, "feature %c", 'y');
    g_assert_cmpstr(latch_last_msg, ==, "chip: feature x");
    g3d_unimp_once(&e, 63, "top kind");
    g_assert_cmpstr(latch_last_msg, ==, "chip: top kind");
    g_assert_cmpuint(g3d_log_count(G3D_LOG_UNIMP), ==, un + 2);
    g_assert_false(g3d_error_once(&e, 4));
    g_assert_true(g3d_error_once(&e, 5));
    g_assert_false(g3d_error_once(&e, 5));

    /* reset forgets everything but the hooks */
    g3d_error_reset(&e);
    g_assert_cmpuint(e.count, ==, 0);
    g_assert_false(e.latched);
    g_assert_true(g3d_error_once(&e, 4));
    g_assert_true(e.raise == latch_raise);

    /* no prefix, no raise hook */
    g3d_error_init(&e, NULL, NULL, NULL);
    g_assert_true(g3d_error(&e, 1, 2, "plain"));
    g_assert_cmpstr(latch_last_msg, ==, "plain");
    g_assert_cmpuint(e.count, ==, 1);
    g3d_set_log_sink(NULL);
}

/* ---- texel addressing, clipping helpers, tile owners ------------------ */

/* floor division, written independently of the helpers under test */
static int floordiv(int a, int b)
{
    return (int)floor((double)a / (double)b);
}

static void test_texaddr(void)
{
    static const int sizes[] = { 1, 2, 3, 4, 5, 7, 8, 12, 16, 64, 100, 1024 };
    unsigned k;
    int i;

    for (k = 0; k < G_N_ELEMENTS(sizes); k++) {
        int n = sizes[k];
        bool pow2 = (n & (n - 1)) == 0;

        for (i = -3 * n - 5; i <= 3 * n + 5; i++) {
            int q = floordiv(i, n), r = i - q * n;
            int mirror = (q & 1) ? n - 1 - r : r;
            int clamp = i < 0 ? 0 : i > n - 1 ? n - 1 : i;
            int once = i < 0 ? -(i + 1) : i;

            g_assert_cmpint(g3d_tex_repeat(i, n), ==, r);
            g_assert_cmpint(g3d_tex_mirror(i, n), ==, mirror);
            g_assert_cmpint(g3d_tex_clamp(i, n), ==, clamp);
            g_assert_cmpint(g3d_tex_border(i, n), ==,
                            i >= 0 && i < n ? i : -1);
            g_assert_cmpint(g3d_tex_mirror_once(i, n), ==,
                            once < n ? once : n - 1);
            g_assert_cmpint(g3d_tex_mirror_once_border(i, n), ==,
                            once < n ? once : -1);
            if (pow2) {
                g_assert_cmpint(g3d_tex_repeat_pow2(i, n), ==, r);
                g_assert_cmpint(g3d_tex_mirror_pow2(i, n), ==, mirror);
            }
        }
    }
    /* the dispatch by mode gives each helper */
    for (i = -20; i <= 20; i++) {
        g_assert_cmpint(g3d_tex_wrap(i, 6, G3D_TEX_REPEAT), ==,
                        g3d_tex_repeat(i, 6));
        g_assert_cmpint(g3d_tex_wrap(i, 6, G3D_TEX_MIRROR), ==,
                        g3d_tex_mirror(i, 6));
        g_assert_cmpint(g3d_tex_wrap(i, 6, G3D_TEX_CLAMP), ==,
                        g3d_tex_clamp(i, 6));
        g_assert_cmpint(g3d_tex_wrap(i, 6, G3D_TEX_BORDER), ==,
                        g3d_tex_border(i, 6));
        g_assert_cmpint(g3d_tex_wrap(i, 6, G3D_TEX_MIRROR_ONCE), ==,
                        g3d_tex_mirror_once(i, 6));
        g_assert_cmpint(g3d_tex_wrap(i, 6, G3D_TEX_MIRROR_ONCE_BORDER), ==,
                        g3d_tex_mirror_once_border(i, 6));
        g_assert_cmpint(g3d_tex_wrap(i, 8, G3D_TEX_REPEAT_POW2), ==,
                        g3d_tex_repeat_pow2(i, 8));
        g_assert_cmpint(g3d_tex_wrap(i, 8, G3D_TEX_MIRROR_POW2), ==,
                        g3d_tex_mirror_pow2(i, 8));
    }
    /* GX masks sizes that are not powers of two: 6 texels repeat as 8 */
    g_assert_cmpint(g3d_tex_repeat_pow2(7, 6), ==, 7 & 5);
    /* the extremes of int do not trap */
    g_assert_cmpint(g3d_tex_repeat(G_MININT, 3), ==,
                    (int)(((long long)G_MININT % 3 + 3) % 3));
    g_assert_cmpint(g3d_tex_clamp(G_MAXINT, 10), ==, 9);
}

static void test_clip_helpers(void)
{
    const float plane[4] = { 1.0f, -2.0f, 0.5f, 3.0f };
    const float v[4] = { 2.0f, 1.0f, 4.0f, -1.0f };
    float a[5] = { 0, 1, -2, 10, 0.25f }, b[5] = { 4, 1, 2, -10, 0.75f };
    float o[5];
    int k;

    /* 2 - 2 + 2 - 3 */
    g_assert_cmpfloat(g3d_plane_dist(plane, v), ==, -1.0f);
    g3d_lerp(o, a, b, 5, 0.25f);
    g_assert_cmpfloat(o[0], ==, 1.0f);
    g_assert_cmpfloat(o[1], ==, 1.0f);
    g_assert_cmpfloat(o[2], ==, -1.0f);
    g_assert_cmpfloat(o[3], ==, 5.0f);
    g_assert_cmpfloat(o[4], ==, 0.375f);
    /* t = 0 and t = 1 give the end points; in place is allowed */
    g3d_lerp(o, a, b, 5, 1.0f);
    for (k = 0; k < 5; k++) {
        g_assert_cmpfloat(o[k], ==, b[k]);
    }
    g3d_lerp(a, a, b, 5, 0.0f);
    g_assert_cmpfloat(a[3], ==, 10.0f);
    /* the crossing of an edge lies on the plane */
    {
        const float p[4] = { -1, 0, 0, 1 };     /* x <= w */
        float in[4] = { 0, 0, 0, 1 }, out[4] = { 3, 0, 0, 1 }, x[4];
        float din = g3d_plane_dist(p, in), dout = g3d_plane_dist(p, out);

        g3d_lerp(x, in, out, 4, din / (din - dout));
        g_assert_cmpfloat(fabsf(g3d_plane_dist(p, x)), <, 1e-6f);
    }
}

static void test_tile_owner(void)
{
    int threads, tx, ty;

    /* two threads: a checkerboard */
    for (ty = 0; ty < 8; ty++) {
        for (tx = 0; tx < 8; tx++) {
            g_assert_cmpint(g3d_tile_owner(tx, ty, 2), ==, (tx + ty) & 1);
            g_assert_cmpint(g3d_tile_owner(tx, ty, 1), ==, 0);
        }
    }
    /* any count: along every row of `threads` tiles each thread owns one,
     * so a wide triangle is shared by all of them */
    for (threads = 2; threads <= 8; threads++) {
        for (ty = 0; ty < 2 * threads; ty++) {
            int count[8] = { 0 };

            for (tx = 0; tx < threads; tx++) {
                int o = g3d_tile_owner(tx + 3 * threads, ty, threads);
                g_assert_cmpint(o, >=, 0);
                g_assert_cmpint(o, <, threads);
                count[o]++;
            }
            for (tx = 0; tx < threads; tx++) {
                g_assert_cmpint(count[tx], ==, 1);
            }
        }
    }
}

/*
 * g3d_pool_run_shared: units claimed by whichever thread is free. Every
 * unit of every job is done exactly once, by the time the call returns
 * (a helper that wakes late must not run an old job or take units of the
 * next one), and over many jobs both the caller and the helpers take
 * some; with the helpers polling between jobs (g3d_pool_spin_us), where
 * the caller also sees their end without the lock, and sleeping at once.
 */
#define SHARED_UNITS 64

typedef struct SharedJob {
    uint32_t next;
    unsigned spin;              /* work a unit: 0 lets the caller finish
                                 * before the helpers wake */
    uint32_t done[SHARED_UNITS];
    uint64_t by_thread[3];
} SharedJob;

static void shared_fn(void *arg, int thread)
{
    SharedJob *j = arg;
    uint32_t u;
    volatile unsigned spin;

    while ((u = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED)) <
           SHARED_UNITS) {
        __atomic_fetch_add(&j->done[u], 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&j->by_thread[thread], 1, __ATOMIC_RELAXED);
        for (spin = 0; spin < j->spin; spin++) {
        }
    }
}

static void pool_shared_runs(void)
{
    int threads, run, u;

    for (threads = 2; threads <= 3; threads++) {
        G3DThreadPool *p = g3d_pool_new(threads);
        uint64_t total[2] = { 0 };
        SharedJob jobs[4];
        uint32_t next_after[4];

        for (run = 0; run < 4000; run++) {
            SharedJob *j = &jobs[run % 4], *prev = &jobs[(run + 3) % 4];

            memset(j, 0, sizeof(*j));
            /*
             * a tenth of the jobs long enough (about 1 ms) that a helper
             * joins even on a busy host, where a polling one waits for a
             * core: over the run the helpers must take some units
             */
            j->spin = run % 10 == 5 ? 20000 : run % 3 * 200;
            if (run % 100 == 99) {
                /* a plain job: every helper runs it */
                g3d_pool_run(p, shared_fn, j);
            } else {
                g3d_pool_run_shared(p, shared_fn, j);
            }
            next_after[run % 4] = j->next;
            for (u = 0; u < SHARED_UNITS; u++) {
                g_assert_cmpuint(j->done[u], ==, 1);
            }
            total[0] += j->by_thread[0];
            total[1] += j->by_thread[1] + j->by_thread[2];
            /* nothing touched the job before since it returned: each fn
             * call moves next once past the last unit */
            if (run > 0) {
                g_assert_cmpuint(prev->next, ==, next_after[(run + 3) % 4]);
            }
        }
        g_assert_cmpuint(total[0] + total[1], ==, 4000 * SHARED_UNITS);
        g_assert_cmpuint(total[0], >, 0);
        g_assert_cmpuint(total[1], >, 0);
        g3d_pool_free(p);
    }
}

static void test_pool_shared(void)
{
    static const unsigned spins[] = { 0, 200, 5 };
    unsigned saved = g3d_pool_spin_us, k;

    for (k = 0; k < G_N_ELEMENTS(spins); k++) {
        g3d_pool_spin_us = spins[k];
        g_test_message("helpers poll %u us between jobs", spins[k]);
        pool_shared_runs();
    }
    g3d_pool_spin_us = saved;
}

/*
 * g3d_claim: each unit claimed exactly once; a run's owner takes its
 * units from the front in order, every other thread from the back
 * (descending, after all of its own run), so the owner's units are a
 * prefix of the run and the others' a suffix; g3d_claim_left counts what
 * no thread has yet. First the threads' claims interleaved in a random
 * order on one thread (every order reachable), then on a pool's threads.
 */
#define CLAIM_MAX 300

/* by[u]: the thread that claimed unit u; when[u]: the claim's place in
 * time; own[u]: claimed in its own run (g3d_claim's *k 0) */
static void claim_check_runs(uint32_t n, int threads,
                             const int8_t *by, const uint32_t *when,
                             const bool *own, bool exact)
{
    int64_t last_own[4] = { -1, -1, -1, -1 }, first_stolen[4];
    uint32_t u;
    int s;

    for (s = 0; s < 4; s++) {
        first_stolen[s] = INT64_MAX;
    }
    for (s = 0; s < threads; s++) {
        uint32_t lo = g3d_claim_run_start(n, threads, s);
        uint32_t hi = g3d_claim_run_start(n, threads, s + 1);

        for (u = lo; u < hi; u++) {
            g_assert_cmpint(by[u], >=, 0);      /* claimed */
            g_assert_cmpint(own[u], ==, by[u] == s);
            if (u > lo && own[u]) {
                /* the owner's a prefix, in order */
                g_assert_true(own[u - 1]);
                g_assert_cmpuint(when[u - 1], <, when[u]);
            }
            if (u > lo && !own[u - 1]) {
                /* the others' a suffix, back to front (on a pool: each
                 * thread's, its clock read after the claim) */
                g_assert_false(own[u]);
                if (exact || by[u - 1] == by[u]) {
                    g_assert_cmpuint(when[u - 1], >, when[u]);
                }
            }
        }
    }
    for (u = 0; u < n; u++) {
        if (own[u]) {
            last_own[by[u]] = MAX(last_own[by[u]], (int64_t)when[u]);
        } else {
            first_stolen[by[u]] = MIN(first_stolen[by[u]], (int64_t)when[u]);
        }
    }
    for (s = 0; s < threads; s++) {
        g_assert_cmpint(first_stolen[s], >, last_own[s]);
    }
}

static void test_claim(void)
{
    GRand *rnd = g_rand_new_with_seed(0xC1A1);
    uint64_t next[G3D_CLAIM_STRIDE * 4];
    uint32_t when[CLAIM_MAX];
    int8_t by[CLAIM_MAX];
    bool own[CLAIM_MAX];
    uint64_t stolen_all = 0;
    int run;

    for (run = 0; run < 20000; run++) {
        int threads = g_rand_int_range(rnd, 1, 5), t, live;
        uint32_t n = g_rand_int_range(rnd, 0, run % 7 ? 40 : CLAIM_MAX);
        int k[4] = { 0 };
        bool done[4] = { false };
        uint32_t u, order = 0;

        memset(next, 0, sizeof(next));
        memset(by, -1, sizeof(by));
        memset(own, 0, sizeof(own));
        for (live = threads; live; ) {
            t = g_rand_int_range(rnd, 0, threads);
            if (done[t]) {
                continue;
            }
            if (!g3d_claim(next, n, threads, t, &k[t], &u)) {
                done[t] = true;
                live--;
                continue;
            }
            g_assert_cmpuint(u, <, n);
            g_assert_cmpint(by[u], ==, -1);     /* once */
            by[u] = (int8_t)t;
            own[u] = k[t] == 0;
            stolen_all += k[t] != 0;
            when[u] = order++;
            g_assert_cmpuint(g3d_claim_left(next, n, threads), ==, n - order);
        }
        g_assert_cmpuint(order, ==, n);
        claim_check_runs(n, threads, by, when, own, true);
    }
    g_assert_cmpuint(stolen_all, >, 0);
    g_rand_free(rnd);
}

/*
 * The same on a pool's threads (2 and 3), every job's units counted: each
 * once, the owners' a prefix of their runs, and over the jobs some taken
 * by a thread that is not the owner.
 */
typedef struct ClaimJob {
    uint64_t next[G3D_CLAIM_STRIDE * 3];
    uint32_t n, clock;
    int threads;
    unsigned spin;
    int8_t by[CLAIM_MAX];
    uint32_t when[CLAIM_MAX];
    bool own[CLAIM_MAX];
} ClaimJob;

static void claim_fn(void *arg, int thread)
{
    ClaimJob *j = arg;
    volatile unsigned spin;
    uint32_t u;
    int k = 0;

    while (g3d_claim(j->next, j->n, j->threads, thread, &k, &u)) {
        j->by[u] = (int8_t)thread;
        j->own[u] = k == 0;
        /* a unit's claim is ordered with its run's others by the counter;
         * the clock taken after it keeps that order within the run */
        j->when[u] = __atomic_fetch_add(&j->clock, 1, __ATOMIC_SEQ_CST);
        for (spin = 0; spin < j->spin; spin++) {
        }
    }
}

static void test_claim_pool(void)
{
    int threads, run;

    for (threads = 2; threads <= 3; threads++) {
        G3DThreadPool *p = g3d_pool_new(threads);
        uint64_t stolen = 0;
        uint32_t u;

        for (run = 0; run < 2000; run++) {
            ClaimJob *j = g_new0(ClaimJob, 1);

            j->n = 1 + run % CLAIM_MAX;
            j->threads = threads;
            j->spin = run % 4 * 300;
            memset(j->by, -1, sizeof(j->by));
            g3d_pool_run_shared(p, claim_fn, j);
            for (u = 0; u < j->n; u++) {
                g_assert_cmpint(j->by[u], >=, 0);
                stolen += !j->own[u];
            }
            g_assert_cmpuint(j->clock, ==, j->n);
            claim_check_runs(j->n, threads, j->by, j->when, j->own,
                             false);
            g_free(j);
        }
        g_test_message("%d threads: %" G_GUINT64_FORMAT " units taken from "
                       "another's run", threads, stolen);
        g_assert_cmpuint(stolen, >, 0);
        g3d_pool_free(p);
    }
}

/*
 * g3d_pool_try_run_shared from another thread: while the pool's driver is
 * inside a job (its fn on thread 0, the helpers maybe too) it runs nothing
 * and says so; between jobs it runs the whole job, helpers included, as
 * g3d_pool_run_shared does.
 */
typedef struct TryCtx {
    G3DThreadPool *pool;
    SharedJob inner;
    bool tried, ran;
} TryCtx;

static gpointer try_thread(gpointer opaque)
{
    TryCtx *t = opaque;
    unsigned spin = t->inner.spin;

    memset(&t->inner, 0, sizeof(t->inner));
    t->inner.spin = spin;
    t->ran = g3d_pool_try_run_shared(t->pool, shared_fn, &t->inner);
    return NULL;
}

static void try_in_job(void *arg, int thread)
{
    TryCtx *t = arg;

    if (thread == 0) {
        g_thread_join(g_thread_new("try", try_thread, t));
        t->tried = true;
    }
}

static void test_pool_try(void)
{
    int threads, run, u;

    for (threads = 1; threads <= 3; threads++) {
        TryCtx t = { .pool = g3d_pool_new(threads) };
        uint64_t helpers = 0;

        for (run = 0; run < 200; run++) {
            /* inside a job: nothing (one thread: no job to be inside) */
            t.tried = false;
            t.inner.spin = 0;
            g3d_pool_run_shared(t.pool, try_in_job, &t);
            g_assert_true(t.tried);
            g_assert_cmpint(t.ran, ==, threads == 1);
            g_assert_cmpuint(t.inner.next, ==, threads == 1 ? SHARED_UNITS + 1
                                                            : 0);
            /* between jobs: every unit once */
            t.inner.spin = 200;
            g_thread_join(g_thread_new("try", try_thread, &t));
            g_assert_true(t.ran);
            for (u = 0; u < SHARED_UNITS; u++) {
                g_assert_cmpuint(t.inner.done[u], ==, 1);
            }
            helpers += t.inner.by_thread[1] + t.inner.by_thread[2];
        }
        if (threads > 1) {
            g_test_message("%d threads: helpers took %" G_GUINT64_FORMAT
                           " units", threads, helpers);
        }
        g3d_pool_free(t.pool);
    }
}

/*
 * The helpers' pace between jobs (tiles.c): stated here as its rule, and
 * the pool's functions driven through random sequences of notices against
 * it. One late notice changes nothing (a hiccup of the host costs no job
 * a wake-up); two with no punctual one between put the helper to sleep
 * between its next 8 jobs seen otherwise, each further late notice twice
 * as many up to 64; a punctual notice starts that over; a helper that
 * polls polls g3d_pool_spin_us (0: the helpers sleep at once, always).
 */
static void test_pool_pace(void)
{
    static const unsigned spins[] = { 200, 5, 0 };
    unsigned saved = g3d_pool_spin_us, k, i;
    GRand *rnd = g_rand_new_with_seed(19);

    for (k = 0; k < G_N_ELEMENTS(spins); k++) {
        G3DPoolPace pc = { 0 };
        unsigned row = 0, asleep = 0, next = 8, longest = 0;

        g3d_pool_spin_us = spins[k];
        for (i = 0; i < 200000; i++) {
            /* stretches of each kind, so that long rows of both occur */
            G3DPoolNotice n = g_rand_int_range(rnd, 0, 8) == 0 ?
                (G3DPoolNotice)g_rand_int_range(rnd, 0, 3) :
                i % 20000 < 10000 ? (i % 3 ? G3D_POOL_UNPOLLED
                                           : G3D_POOL_PUNCTUAL) :
                i % 2 ? G3D_POOL_UNPOLLED : G3D_POOL_LATE;

            /* a helper that sleeps between jobs notices nothing */
            if (asleep) {
                n = G3D_POOL_UNPOLLED;
            }
            g3d_pool_pace_note(&pc, n);
            if (n == G3D_POOL_PUNCTUAL) {
                row = 0;
                next = 8;
            } else if (n == G3D_POOL_LATE) {
                if (++row >= 2) {
                    asleep = next;
                    next = MIN(next * 2, 64);
                }
            } else if (asleep) {
                asleep--;
            }
            longest = MAX(longest, asleep);
            g_assert_cmpuint(g3d_pool_pace_spin(&pc), ==,
                             asleep ? 0 : spins[k]);
        }
        /* the sequences reached the longest sleep */
        g_assert_cmpuint(longest, ==, 64);
    }
    g3d_pool_spin_us = saved;
    g_rand_free(rnd);
}

/*
 * g3d_fill_pattern / g3d_fill32 / g3d_fill16x4 against a byte loop: every
 * length to past the long-fill threshold at every start alignment of a
 * 64-byte line, on both long loops (AVX2 where the host has it, and SSE2);
 * the bytes just before and after the run must stay as they were.
 */
/*
 * g3d_fill32_keep (the clears of r300-3d and attila-3d that keep some bits
 * of each word) against a word-by-word loop: random bytes, 0-70 words at
 * every byte alignment, keep masks of depth/stencil clears and random ones;
 * every byte equal. Checked to fail when the SSE2 loop does not read the
 * words it keeps bits of.
 */
static void test_fill_keep(void)
{
    static const uint32_t keeps[4] = { 0, 0x00ffffff, 0xff000000, 0xffffffff };
    GRand *rnd = g_rand_new_with_seed(0xF111);
    uint8_t a[300], b[300];
    int n, k;

    for (n = 0; n < 5000; n++) {
        uint32_t keep = n % 5 < 4 ? keeps[n % 4] : g_rand_int(rnd);
        uint32_t value = g_rand_int(rnd) & ~keep;
        size_t words = g_rand_int_range(rnd, 0, 71), off = n % 16, i;

        for (k = 0; k < (int)sizeof(a); k++) {
            a[k] = b[k] = g_rand_int(rnd);
        }
        g3d_fill32_keep(a + off, words, value, keep);
        for (i = 0; i < words; i++) {
            uint32_t w;

            memcpy(&w, b + off + 4 * i, 4);
            w = (w & keep) | value;
            memcpy(b + off + 4 * i, &w, 4);
        }
        g_assert_cmpmem(a, sizeof(a), b, sizeof(b));
    }
    g_rand_free(rnd);
}

static void test_fill(void)
{
    enum { PAD = 80, MAXB = G3D_FILL_LONG_BYTES + 200 };
    static uint8_t buf[PAD + MAXB + PAD + 64], want[sizeof(buf)];
    const uint64_t pat = 0x8877665544332211ull;
    int avx, start;
    size_t bytes, i;

    for (avx = 0; avx < 2; avx++) {
        g3d_fill_no_avx2 = !avx;
        for (start = 0; start < 64; start += 2) {
            for (bytes = 0; bytes <= MAXB; bytes += 2) {
                uint8_t *p = buf + PAD + start;

                for (i = 0; i < sizeof(buf); i++) {
                    buf[i] = want[i] = (uint8_t)(i * 7 + bytes);
                }
                for (i = 0; i < bytes; i++) {
                    want[PAD + start + i] = (uint8_t)(pat >> (8 * (i & 7)));
                }
                switch (bytes % 8) {
                case 0:
                    g3d_fill16x4(p, bytes / 2, pat);
                    break;
                case 4:
                    if (bytes < 16 || (bytes & 8)) {
                        /* a 32-bit fill's pattern: the word twice */
                        for (i = 0; i < bytes; i++) {
                            want[PAD + start + i] = (uint8_t)(pat >> (8 * (i & 3)));
                        }
                        g3d_fill32(p, bytes / 4, (uint32_t)pat);
                        break;
                    }
                    /* fall through */
                default:
                    g3d_fill_pattern(p, bytes, pat);
                    break;
                }
                if (memcmp(buf, want, sizeof(buf))) {
                    g_test_message("avx %d start %d bytes %zu", avx, start,
                                   bytes);
                    g_assert_cmpmem(buf, sizeof(buf), want, sizeof(want));
                }
            }
        }
    }
    g3d_fill_no_avx2 = false;
}

#ifdef __SSE2__
/*
 * g3d_unorm8x4_lanes against the clamp it stands for, byte by byte:
 * (uint8_t)(clamp(c, 0, 1) * 255 + 0.5) with NaN clamped to 0, for NaNs
 * of either sign, infinities, zeros of either sign, rounding ties, values
 * just outside [0, 1], huge ones and random ones
 */
static void test_unorm8x4_lanes(void)
{
    static const float odd[] = {
        NAN, -NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1.0f, 1.0000001f,
        0.99999994f, 0.5f / 255, 1.5f / 255, 254.5f / 255, -0.5f / 255,
        -1e-30f, 1e-45f, -1.0f, 2.0f, 3e38f, -3e38f, 0x1p31f, -0x1p31f,
        65535.0f, -65536.0f,
    };
    GRand *r = g_rand_new_with_seed(0x8888);
    int n, i, k;

    for (n = 0; n < 20000; n++) {
        float c[4][4];
        __m128 v[4];
        uint8_t got[16];

        for (k = 0; k < 4; k++) {
            for (i = 0; i < 4; i++) {
                c[k][i] = g_rand_boolean(r)
                          ? odd[g_rand_int_range(r, 0, G_N_ELEMENTS(odd))]
                          : (float)g_rand_double_range(r, -0.2, 1.2);
            }
            v[k] = _mm_loadu_ps(c[k]);
        }
        _mm_storeu_si128((__m128i *)got, g3d_unorm8x4_lanes(v));
        for (i = 0; i < 4; i++) {
            for (k = 0; k < 4; k++) {
                float x = c[k][i];
                uint8_t want = (uint8_t)((isnan(x) ? 0.0f : x < 0 ? 0.0f :
                                          x > 1 ? 1.0f : x) * 255.0f + 0.5f);

                if (got[4 * i + k] != want) {
                    g_error("pixel %d component %d of %a: %u, not %u", i, k,
                            x, got[4 * i + k], want);
                }
            }
        }
    }
    g_rand_free(r);
}
#endif

/*
 * g3d_float_unpack against ldexpf (the library's exact scaling) for every
 * bit pattern of every format the chips use with at most 24 bits, and
 * every exponent of the 31-bit one with its mantissa's edges
 */
static float unpack_ref(uint32_t bits, const G3DFloatFmt *f)
{
    uint32_t man_mask = (1u << f->man_bits) - 1;
    uint32_t exp_max = (1u << f->exp_bits) - 1;
    uint32_t sign = (bits >> (f->exp_bits + f->man_bits)) & 1;
    uint32_t e = (bits >> f->man_bits) & exp_max, m = bits & man_mask;
    float v;

    if (e == 0 && !(m != 0 && (f->flags & G3D_FP_EXP0_NORMAL))) {
        if (!(f->flags & G3D_FP_DENORM) || m == 0) {
            return sign ? -0.0f : 0.0f;
        }
        v = ldexpf((float)m, 1 - f->bias - f->man_bits);
    } else if (e == exp_max && (f->flags & G3D_FP_INFNAN)) {
        v = m ? NAN : INFINITY;
    } else {
        v = ldexpf((float)(m | (man_mask + 1)), (int)e - f->bias - f->man_bits);
    }
    return sign ? -v : v;
}

static void check_unpack(uint32_t bits, const G3DFloatFmt *f)
{
    float a = g3d_float_unpack(bits, f), b = unpack_ref(bits, f);

    if (isnan(b)) {
        g_assert_true(isnan(a));
    } else {
        g_assert_cmphex(g3d_f2u(a), ==, g3d_f2u(b));
    }
}

static void test_float_unpack(void)
{
    static const G3DFloatFmt fmts[] = {
        { 5, 10, 15, G3D_FP_DENORM | G3D_FP_INFNAN },       /* binary16 */
        { 7, 16, 63, G3D_FP_INFNAN | G3D_FP_EXP0_NORMAL },  /* PICA f24 */
        { 7, 12, 63, G3D_FP_INFNAN | G3D_FP_EXP0_NORMAL },  /* PICA f20 */
        { 5, 10, 15, G3D_FP_INFNAN | G3D_FP_EXP0_NORMAL },  /* PICA f16 */
        { 7, 16, 63, G3D_FP_ROUND },        /* Glamo f24, R300 fp24: 0 */
        { 7, 10, 63, G3D_FP_ROUND },        /* Glamo f18 */
        { 5, 11, 31, G3D_FP_ROUND },        /* Glamo float depth */
    };
    static const G3DFloatFmt f31 = { 7, 23, 63,
                                     G3D_FP_INFNAN | G3D_FP_EXP0_NORMAL };
    uint32_t i, b, e, m;

    for (i = 0; i < G_N_ELEMENTS(fmts); i++) {
        uint32_t n = 1u << (1 + fmts[i].exp_bits + fmts[i].man_bits);

        for (b = 0; b < n; b++) {
            check_unpack(b, &fmts[i]);
        }
    }
    for (e = 0; e < 128; e++) {
        for (m = 0; m < 64; m++) {
            uint32_t lo = m, hi = 0x7FFFFFu - m;

            check_unpack(e << 23 | lo, &f31);
            check_unpack(e << 23 | hi, &f31);
            check_unpack(1u << 30 | e << 23 | lo, &f31);
        }
    }
}

/*
 * g3d_simd_level_textured: the CPU's level by default, never above
 * g3d_simd_level(); exactly the level asked for when g3d_simd_textured_max
 * and g3d_simd_max name one (tests, GPU3D_BENCH_SIMD).
 * g3d_simd_textured_wide: by default not on an Intel CPU (whose 512-bit
 * uops take port 1's vector units from the 256-bit work), elsewhere yes;
 * as g3d_simd_textured_zmm says where it says
 */
static void test_simd_textured(void)
{
    G3DSimdLevel cpu = g3d_simd_level();
    bool wide = true;
    int l;

#if defined(__x86_64__) && defined(__GNUC__)
    wide = !__builtin_cpu_is("intel");
#endif
    g_test_message("CPU level %d, textured spans %d, wide weights %d", cpu,
                   g3d_simd_level_textured(), g3d_simd_textured_wide());
    g_assert_cmpint(g3d_simd_textured_max, ==, -1);
    g_assert_cmpint(g3d_simd_textured_zmm, ==, -1);
    g_assert_cmpint(g3d_simd_level_textured(), ==, cpu);
    g_assert_cmpint(g3d_simd_textured_wide(), ==, wide);
    for (l = G3D_SIMD_SSE2; l <= G3D_SIMD_AVX512; l++) {
        g3d_simd_max = (G3DSimdLevel)l;
        g_assert_cmpint(g3d_simd_level_textured(), ==, g3d_simd_level());
        g3d_simd_textured_max = G3D_SIMD_AVX512;
        g_assert_cmpint(g3d_simd_level_textured(), ==, g3d_simd_level());
        g3d_simd_textured_max = l;
        g_assert_cmpint(g3d_simd_level_textured(), ==, g3d_simd_level());
        g3d_simd_textured_max = G3D_SIMD_SSE2;
        g_assert_cmpint(g3d_simd_level_textured(), ==, G3D_SIMD_SSE2);
        g3d_simd_textured_max = -1;
    }
    g3d_simd_max = G3D_SIMD_AVX512;
    for (l = 0; l <= 1; l++) {
        g3d_simd_textured_zmm = l;
        g_assert_cmpint(g3d_simd_textured_wide(), ==, l);
    }
    g3d_simd_textured_zmm = -1;
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/common/fp16", test_fp16);
    g_test_add_func("/common/fp24", test_fp24);
    g_test_add_func("/common/float-unpack", test_float_unpack);
    g_test_add_func("/common/formats", test_formats);
#ifdef __SSE2__
    g_test_add_func("/common/unorm8x4-lanes", test_unorm8x4_lanes);
#endif
    g_test_add_func("/common/fragment", test_fragment);
    g_test_add_func("/common/mem", test_mem);
    g_test_add_func("/common/fill", test_fill);
    g_test_add_func("/common/fill-keep", test_fill_keep);
    g_test_add_func("/common/unorm-table", test_unorm_table);
    g_test_add_func("/common/snorm", test_snorm);
    g_test_add_func("/common/scanout", test_scanout);
    g_test_add_func("/common/scanout-cache", test_scanout_cache);
    g_test_add_func("/common/state", test_state);
    g_test_add_func("/common/error-latch", test_error_latch);
    g_test_add_func("/common/texaddr", test_texaddr);
    g_test_add_func("/common/clip-helpers", test_clip_helpers);
    g_test_add_func("/common/tile-owner", test_tile_owner);
    g_test_add_func("/common/pool-shared", test_pool_shared);
    g_test_add_func("/common/pool-try", test_pool_try);
    g_test_add_func("/common/pool-pace", test_pool_pace);
    g_test_add_func("/common/claim", test_claim);
    g_test_add_func("/common/claim-pool", test_claim_pool);
    g_test_add_func("/common/simd-textured", test_simd_textured);
    return g_test_run();
}
