/*
 * The glamo-3d fast paths chosen per draw (render.c choose_quad) against
 * the general path: randomised states (the eight 16 bpp destination
 * formats, dither, no Z or a Z16 test/write with a random function and
 * write mask, [5].11 Z, flat or Gouraud colour, untextured or texture 0
 * in a random format, size, wrap mode, filter, level count and
 * perspective, texture blending that is one product per channel
 * (modulate, replace) or one field away from it, and now and then what
 * must take the general path: blending, ROP, colour write mask, alpha
 * test, stencil, fog, specular, texture transparency, two units, two
 * blend stages, a paletted or mip-mapped texture). Each state draws the same
 * random triangles over the same random colour and depth contents twice,
 * once as chosen and once with g3d_general_path set; the colour and depth
 * bytes must be equal. The test also checks that every fast path was
 * taken often enough to mean something, and never with g3d_general_path.
 * A fast draw's triangles reach render.c as spans (whole tiles, 8x8
 * blocks, row runs) where colour, Z and texture bytes are apart, and flat
 * untextured ones without Z as one-colour fills: a quarter of the draws
 * cover the target with two triangles (so whole tiles are filled), and a
 * few put the Z buffer or the texture over the colour buffer (so the
 * quads must be kept); both counts are checked.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <inttypes.h>
#include <string.h>

#include "rig.h"
#include "common/fragment.h"
#include "common/g3d-core.h"
#include "glamo/glamo-int.h"

#define W 64
#define H 48
#define PITCH (W * 2)
#define FB   0x000000
#define ZB   0x010000
#define STB  0x020000
#define TEX  0x100000
#define CASES 2000

typedef struct Draw {
    uint32_t en0, en1, dst, zset, zmask, atest, blset, stset, stop, fog;
    uint32_t txset, txfilt, txsize, txpitch, cwmask, shade;
    uint8_t tex[2][32 * 32 * 2];    /* levels 0 and 1 */
    uint16_t palette[256];
    uint32_t stage[4];              /* colour/alpha stage 0 MOD, ARG */
    struct {
        float x, y, z, w, u, v;
        uint32_t argb, spec;
    } vtx[12][3];
    int ntri;
    uint32_t zbase, texbase;
    bool spans, flat;               /* expected when a fast path is taken */
    bool lanes;                     /* textured spans in SSE2 lanes */
    uint8_t fb[W * H * 2], zb[W * H * 2];
    int expect;                     /* fast path index, -1: general */
} Draw;

/* which fast function the state should get: [565][z16][tex] as an index */
static int fast_index(bool is565, bool z16, bool tex)
{
    return is565 * 4 + z16 * 2 + tex;
}

/*
 * One unit of combiner stage 0 (MOD, ARG registers, L3669-L4543): mostly
 * "current 0 = arg1 * arg2" with the arguments texture 0, diffuse or ZERO
 * complemented (modulate, replace), otherwise one field changed so that
 * it is something else. Returns whether the unit is such a product.
 */
static bool combiner_stage(GRand *r, bool alpha, uint32_t *mod, uint32_t *arg)
{
    static const uint8_t sels[3] = {
        GLAMO_TXARG_TEX0, GLAMO_TXARG_DIFFUSE, GLAMO_TXARG_ZERO,
    };
    uint8_t s1 = sels[g_rand_int_range(r, 0, 3)];
    uint8_t s2 = sels[g_rand_int_range(r, 0, 3)];
    uint32_t imod1 = s1 == GLAMO_TXARG_ZERO, imod2 = s2 == GLAMO_TXARG_ZERO;
    uint32_t w0 = GLAMO_TXW_OPA, o0 = g_rand_int_range(r, 0, 2);
    uint32_t opa = GLAMO_TXOP_MUL;
    bool product = true;

    switch (g_rand_int_range(r, 0, 10)) {
    case 0:
        imod1 = g_rand_int_range(r, 2, 16);     /* bias, scale, negate */
        product = false;
        break;
    case 1:
        o0 = g_rand_int_range(r, 2, 32);        /* output bias or scale */
        product = false;
        break;
    case 2:
        w0 = g_rand_int_range(r, 2, 6);         /* B, C or "to t0/t1" */
        product = false;
        break;
    case 3:
        s1 |= GLAMO_TXARG_REPLICATE;
        product = false;
        break;
    case 4:
        opa = g_rand_int_range(r, 0, 2);        /* DP3, DP4 */
        product = alpha;                        /* alpha always multiplies */
        break;
    case 5:
        s2 = GLAMO_TXARG_SPECULAR;
        product = false;
        break;
    default:
        break;
    }
    *mod = imod1 << 28 | imod2 << 24 | (uint32_t)g_rand_int_range(r, 0, 256) |
           w0 << 13 | o0 << 8;
    *arg = (uint32_t)s1 << 25 | (uint32_t)s2 << 16 | opa << 6 |
           (g_rand_int(r) & (7u << 22 | 0x3fu << 8 | 3u << 14 | 0x3f));
    return product;
}

static void make_draw(GRand *r, Draw *d)
{
    static const uint8_t cfms[] = {
        GLAMO_CFM_RGB565, GLAMO_CFM_RGB565, GLAMO_CFM_RGB565,
        GLAMO_CFM_RGB555, GLAMO_CFM_ARGB1555, GLAMO_CFM_ARGB4444,
        GLAMO_CFM_BGR555, GLAMO_CFM_BGR565, GLAMO_CFM_ABGR1555,
        GLAMO_CFM_ABGR4444,
    };
    static const uint8_t texfmts[] = {
        0x61, 0x61, 0x62, 0x63, 0x60, 0xe1, 0xe3, 0x13, 0x33, 0x38, 0x51,
        0x42, 0x08,      /* the last: 8-bit index into the palette */
    };
    uint8_t cfm = cfms[g_rand_int_range(r, 0, G_N_ELEMENTS(cfms))];
    int zmode = g_rand_int_range(r, 0, 5), i, k;
    bool big, lanes = false, general = false, z16 = false, tex = false, product = true;

    memset(d, 0, sizeof(*d));
    d->dst = GLAMO_ROP_COPY_PEN << 24 | (uint32_t)cfm << 16 | (PITCH / 2);
    d->shade = (g_rand_boolean(r) ? GLAMO_SHADE_GOURAUD
                                  : GLAMO_SHADE_FLAT_A) << 11;
    if (g_rand_boolean(r)) {
        d->en0 |= R_EGEN0_EGenDITH_MASK;
    }
    /* Z: 0 off, 1 test + write, 2 write only, 3 test only, 4 [5].11 */
    if (zmode) {
        d->zset = (zmode == 4 ? GLAMO_ZFMT_FLOAT511 : GLAMO_ZFMT_Z16) << 20 |
                  (uint32_t)g_rand_int_range(r, 0, 8) << 16 | (PITCH / 2);
        d->en0 |= zmode != 2 ? R_EGEN0_EGenZT_MASK : 0;
        d->en0 |= zmode != 3 ? R_EGEN0_EGenZW_MASK : 0;
        if (g_rand_int_range(r, 0, 4) == 0) {
            d->en1 |= R_EGEN1_EGenZWrMask_MASK;
            d->zmask = g_rand_int(r) & 0xffff;
        }
        z16 = zmode != 4;
        general |= zmode == 4;
    }
    /* what the fast paths leave to the general path */
    switch (g_rand_int_range(r, 0, 24)) {
    case 0:
        d->en0 |= R_EGEN0_EGenBLEND_MASK;
        d->blset = GLAMO_BLEQ_ADD << 24 | 4 << 4 | 5;
        break;
    case 1:
        d->dst = (d->dst & ~0x0f000000u) |
                 (uint32_t)g_rand_int_range(r, 0, 12) << 24;
        break;
    case 2:
        d->en1 |= R_EGEN1_EGenCWrMask_MASK;
        d->cwmask = g_rand_int(r) & 0xffff;
        break;
    case 3:
        d->en0 |= R_EGEN0_EGenAT_MASK;
        d->atest = (uint32_t)g_rand_int_range(r, 0, 8) << 8 |
                   g_rand_int_range(r, 0, 256);
        break;
    case 4:
        d->en0 |= R_EGEN0_EGenStT_MASK;
        d->stset = 3u << 28 | (uint32_t)g_rand_int_range(r, 0, 8) << 24 |
                   0x5a << 8 | 0xff;
        d->stop = 2u << 20 | 3u << 16 | 1u << 12 | (W / 2);
        break;
    case 5:
        d->en0 |= R_EGEN0_EGenFOG_MASK;
        d->fog = (uint32_t)GLAMO_FOG_NORMAL << 24 | 0x405060;
        break;
    case 6:
        d->en0 |= R_EGEN0_EGenSPEC_MASK;
        break;
    default:
        break;
    }
    general |= (d->en0 & (R_EGEN0_EGenBLEND_MASK | R_EGEN0_EGenAT_MASK |
                          R_EGEN0_EGenStT_MASK | R_EGEN0_EGenFOG_MASK |
                          R_EGEN0_EGenSPEC_MASK)) ||
               ((d->dst >> 24) & 0xf) != GLAMO_ROP_COPY_PEN ||
               (d->en1 & R_EGEN1_EGenCWrMask_MASK);

    if (g_rand_boolean(r)) {
        uint8_t fmt = texfmts[g_rand_int_range(r, 0, G_N_ELEMENTS(texfmts))];
        int lw = 2 << g_rand_int_range(r, 1, 5), lh = 2 << g_rand_int_range(r, 0, 5);
        int levels = g_rand_int_range(r, 0, 4) == 0 ? 2 : 1;
        int mag = g_rand_int_range(r, 0, 2), min = g_rand_int_range(r, 0, 6);

        if (g_rand_int_range(r, 0, 3)) {
            min = mag;   /* mostly one filter: what the fast fetch takes */
        }
        /* half: what render.c samples four pixels at once (RGB565,
         * bilinear, both axes wrapping a power-of-two size) */
        lanes = g_rand_boolean(r);
        if (lanes) {
            fmt = 0x61;
            mag = min = 1;
        } else if (g_rand_int_range(r, 0, 4) == 0) {
            lw -= 2;     /* not a power of two */
        }
        tex = true;
        d->en0 |= R_EGEN0_EGenTXMP_MASK | 1 << R_EGEN0_EGTXNUM_SHIFT;
        if (g_rand_boolean(r)) {
            d->en0 |= R_EGEN0_EGenTXPP_MASK;
        }
        d->txset = (uint32_t)fmt << 24 |
                   (uint32_t)g_rand_int_range(r, 0, 4) << 19 |
                   (uint32_t)g_rand_int_range(r, 0, 4) << 16 |
                   (uint32_t)(levels - 1) << 8;
        d->txfilt = (uint32_t)mag << 18 | (uint32_t)min << 15;
        if (lanes || g_rand_int_range(r, 0, 3) == 0) {
            /* both axes wrap (a power-of-two size has its own fetch) */
            d->txset = (d->txset & ~(0x3fu << 16)) |
                       (GLAMO_TXADDR_WRAP << 3 | GLAMO_TXADDR_WRAP) << 16;
        }
        d->txsize = (uint32_t)lw << 12 | lh;
        d->txpitch = 64u << 16 | 64;    /* 64-byte rows, both levels */
        for (i = 0; i < (int)sizeof(d->tex); i++) {
            ((uint8_t *)d->tex)[i] = g_rand_int(r);
        }
        for (i = 0; i < 256; i++) {
            d->palette[i] = g_rand_int(r);
        }
        switch (g_rand_int_range(r, 0, 12)) {
        case 0:      /* texel transparency */
            d->en1 |= R_EGEN1_EGenTX0TR_MASK;
            d->txsize |= 0x0cu << 24;
            break;
        case 1: case 3: case 4: case 5: case 6: case 7:  /* blending */
            d->en1 |= R_EGEN1_EGenTXBl_MASK;
            product = combiner_stage(r, false, &d->stage[0], &d->stage[1]) &
                      combiner_stage(r, true, &d->stage[2], &d->stage[3]);
            if (g_rand_int_range(r, 0, 8) == 0) {
                d->txset |= 1;      /* two stages */
                product = false;
            }
            break;
        case 2:      /* two units (unit 1 left unprogrammed) */
            d->en0 = (d->en0 & ~R_EGEN0_EGTXNUM_MASK) |
                     2 << R_EGEN0_EGTXNUM_SHIFT;
            break;
        default:
            break;
        }
        general |= fmt == 0x08 || (d->en1 & R_EGEN1_EGenTX0TR_MASK) ||
                   !product ||
                   ((d->en0 & R_EGEN0_EGTXNUM_MASK) >>
                    R_EGEN0_EGTXNUM_SHIFT) != 1 ||
                   !(min <= 1 || levels == 1) ||
                   (mag == 1) != (min == 1 || min >= 4);
    }
    d->expect = general ? -1 : fast_index(cfm == GLAMO_CFM_RGB565, z16, tex);
    d->lanes = lanes && cfm == GLAMO_CFM_RGB565;

    d->zbase = ZB;
    d->texbase = TEX;
    switch (g_rand_int_range(r, 0, 24)) {
    case 0:     /* Z over the colour buffer, a few rows down */
        d->zbase = FB + PITCH * g_rand_int_range(r, 0, 4);
        break;
    case 1:     /* texture 0 over the colour buffer */
        d->texbase = FB + PITCH * g_rand_int_range(r, 0, 4);
        break;
    default:
        break;
    }
    d->spans = !(zmode && d->zbase != ZB) && !(tex && d->texbase != TEX);
    d->flat = d->spans && !zmode && !tex &&
              d->shade == GLAMO_SHADE_FLAT_A << 11;
    d->ntri = g_rand_int_range(r, 1, 12);
    big = g_rand_int_range(r, 0, 4) == 0;
    if (big) {
        d->ntri = 2;
    }
    for (i = 0; i < d->ntri; i++) {
        for (k = 0; k < 3; k++) {
            if (big) {
                /* two triangles over the target and a little past it */
                int corner = (i ? 3 - k : k);
                d->vtx[i][k].x = (corner & 1 ? W + 4 : -4) +
                                 g_rand_double_range(r, -2, 2);
                d->vtx[i][k].y = (corner & 2 ? H + 4 : -4) +
                                 g_rand_double_range(r, -2, 2);
            } else {
                d->vtx[i][k].x = g_rand_double_range(r, -8, W + 8);
                d->vtx[i][k].y = g_rand_double_range(r, -8, H + 8);
            }
            d->vtx[i][k].z = g_rand_double_range(r, -0.1, 1.1);
            d->vtx[i][k].w = g_rand_double_range(r, 0.5, 2);
            d->vtx[i][k].u = g_rand_double_range(r, -1.5, 2.5);
            d->vtx[i][k].v = g_rand_double_range(r, -1.5, 2.5);
            d->vtx[i][k].argb = g_rand_int(r);
            d->vtx[i][k].spec = g_rand_int(r);
        }
    }
    for (i = 0; i < W * H * 2; i++) {
        d->fb[i] = g_rand_int(r);
        d->zb[i] = g_rand_int(r);
    }
}

/* draw `d` on a fresh core; returns its counters */
static GlamoStats run_draw(const Draw *d, bool general, int threads,
                           uint8_t *fb, uint8_t *zb)
{
    GlamoRig r;
    GlamoStats st;
    int i, k;

    g3d_general_path = general;
    rig_init(&r, threads);
    rig_enable_3d(&r);
    memcpy(r.vram + FB, d->fb, sizeof(d->fb));
    memcpy(r.vram + ZB, d->zb, sizeof(d->zb));
    memset(r.vram + STB, 0x33, W * H);
    memcpy(r.vram + TEX, d->tex, sizeof(d->tex));
    rig_target(&r, rig_direct32, FB, PITCH, W, H, 0);
    rig_w32(&r, A_EGDST0SET, d->dst);
    rig_w32(&r, A_RGXFEN3, d->shade);
    rig_w32(&r, A_EGZSET, d->zset);
    rig_w32(&r, A_EGZBAS, d->zbase);
    rig_w16(&r, A_EGZWrMASK, (uint16_t)d->zmask);
    rig_w32(&r, A_EGD0CWrMASK, d->cwmask);
    rig_w32(&r, A_EGATEST, d->atest);
    rig_w32(&r, A_EGBLSET, d->blset);
    rig_w32(&r, A_EGSTSET, d->stset);
    rig_w32(&r, A_EGSTOP, d->stop);
    rig_w32(&r, A_EGStBAS, STB);
    rig_w32(&r, A_EGFOGSET, d->fog);
    rig_w32(&r, A_EGTX0SET, d->txset);
    rig_w32(&r, A_EGTX0FILT, d->txfilt);
    rig_w32(&r, A_EGTX0SIZE, d->txsize);
    rig_w32(&r, A_EGTX0L0BAS, d->texbase);
    rig_w32(&r, A_EGTX0L0BAS + 4, d->texbase + sizeof(d->tex[0]));
    rig_w32(&r, A_EGTX0L01PITCH, d->txpitch);
    for (i = 0; i < 256; i++) {
        rig_w16(&r, GLAMO_TX0_PALETTE + 2 * i, d->palette[i]);
    }
    rig_w32(&r, GLAMO_TXCB(0) + GLAMO_TXB_MOD, d->stage[0]);
    rig_w32(&r, GLAMO_TXCB(0) + GLAMO_TXB_ARG, d->stage[1]);
    rig_w32(&r, GLAMO_TXAB(0) + GLAMO_TXB_MOD, d->stage[2]);
    rig_w32(&r, GLAMO_TXAB(0) + GLAMO_TXB_ARG, d->stage[3]);
    rig_w32(&r, A_EGEN1, d->en1);
    rig_w32(&r, A_EGEN0, d->en0);
    rig_w16(&r, A_EGPrim1, GLAMO_PRIM_TRIANGLES);
    for (i = 0; i < d->ntri; i++) {
        for (k = 0; k < 3; k++) {
            rig_w32(&r, A_RGPXa, rig_fbits(d->vtx[i][k].x));
            rig_w32(&r, A_RGPYa, rig_fbits(d->vtx[i][k].y));
            rig_w32(&r, A_RGPZa, rig_fbits(d->vtx[i][k].z));
            rig_w32(&r, A_RGPWa, rig_fbits(d->vtx[i][k].w));
            rig_w32(&r, A_RGPDIFFa, d->vtx[i][k].argb);
            rig_w32(&r, A_RGPSPECa, d->vtx[i][k].spec);
            rig_w32(&r, A_RGPUAa, rig_fbits(d->vtx[i][k].u));
            rig_w32(&r, A_RGPVAa, rig_fbits(d->vtx[i][k].v));
            rig_w16(&r, A_EGFIRE, 0);
        }
    }
    rig_w16(&r, A_EGEND, 0);
    rig_run(&r);
    memcpy(fb, r.vram + FB, W * H * 2);
    memcpy(zb, r.vram + ZB, W * H * 2);
    glamo_stats(r.core, &st);
    rig_free(&r);
    g3d_general_path = false;
    return st;
}

/* data: whether the lanes may use AVX2 (else SSE2 alone): "avx2" at most
 * AVX2, "avx512" the sixteen-pixel spans and fetch too */
static void test_fast_paths(gconstpointer data)
{
    GRand *r;
    Draw *d = g_new(Draw, 1);
    static uint8_t fb[2][W * H * 2], zb[2][W * H * 2];
    unsigned hits[8] = { 0 }, general = 0, blended = 0;
    uint64_t spans = 0, flats = 0, quads_kept = 0, tex_lanes = 0;
    int n, i;

#ifdef GLAMO_HAVE_AVX2
    glamo_lanes_init();
    if (data && !__builtin_cpu_supports("avx2")) {
        g_test_skip("no AVX2 on this CPU");
        g_free(d);
        return;
    }
    if (data && !strcmp(data, "avx512") &&
        !(__builtin_cpu_supports("avx512f") &&
          __builtin_cpu_supports("avx512bw") &&
          __builtin_cpu_supports("avx512vl"))) {
        g_test_skip("no AVX-512 (F, BW, VL) on this CPU");
        g_free(d);
        return;
    }
    glamo_lanes_avx2 = data != NULL;
    glamo_lanes_avx512 = data && !strcmp(data, "avx512");
#else
    if (data) {
        g_test_skip("no AVX2 path in this build");
        g_free(d);
        return;
    }
#endif
    r = g_rand_new_with_seed(0x6a3d0003);
    for (n = 0; n < CASES; n++) {
        GlamoStats fast, slow;

        make_draw(r, d);
        fast = run_draw(d, false, 1, fb[0], zb[0]);
        slow = run_draw(d, true, 1, fb[1], zb[1]);
        g_assert_cmpuint(fast.primitives, ==, slow.primitives);
        if (!fast.primitives) {
            continue;       /* every triangle degenerate or outside */
        }
        if (memcmp(fb[0], fb[1], sizeof(fb[0])) != 0 ||
            memcmp(zb[0], zb[1], sizeof(zb[0])) != 0) {
            for (i = 0; i < W * H; i++) {
                if (memcmp(fb[0] + 2 * i, fb[1] + 2 * i, 2) ||
                    memcmp(zb[0] + 2 * i, zb[1] + 2 * i, 2)) {
                    break;
                }
            }
            g_test_message("case %d (fast path %d, en0 %08x en1 %08x tx "
                           "%08x/%08x): pixel (%d, %d) colour %04x vs %04x, "
                           "Z %04x vs %04x", n, d->expect, d->en0, d->en1,
                           d->txset, d->txfilt, i % W, i / W,
                           fb[0][2 * i] | fb[0][2 * i + 1] << 8,
                           fb[1][2 * i] | fb[1][2 * i + 1] << 8,
                           zb[0][2 * i] | zb[0][2 * i + 1] << 8,
                           zb[1][2 * i] | zb[1][2 * i + 1] << 8);
            g_assert_not_reached();
        }
        /* g3d_general_path forces the general path */
        g_assert_cmpuint(slow.fast_primitives, ==, 0);
        /* the selector takes a fast path exactly where the test expects */
        if (d->expect < 0) {
            g_assert_cmpuint(fast.fast_primitives, ==, 0);
            general++;
        } else {
            g_assert_cmpuint(fast.fast_primitives, ==, fast.primitives);
            /* spans only where the bytes are apart (and the triangle is
             * 16 pixels wide), one colour only where flat */
            g_assert_cmpuint(fast.span_primitives, <=,
                             d->spans ? fast.primitives : 0);
            g_assert_cmpuint(fast.flat_primitives, ==,
                             d->flat ? fast.span_primitives : 0);
            spans += fast.span_primitives;
            flats += fast.flat_primitives;
            quads_kept += d->spans ? 0 : fast.primitives;
            tex_lanes += d->spans && d->lanes;
            hits[d->expect]++;
            blended += (d->en1 & R_EGEN1_EGenTXBl_MASK) != 0;
        }
    }
    for (i = 0; i < 8; i++) {
        g_test_message("fast path %d: %u states", i, hits[i]);
        g_assert_cmpuint(hits[i], >=, 8);
    }
    g_assert_cmpuint(general, >=, 40);
    g_test_message("triangles as spans %" PRIu64 ", of which flat %" PRIu64
                   ", quads kept for shared bytes %" PRIu64, spans, flats,
                   quads_kept);
    g_assert_cmpuint(flats, >=, 100);
    g_assert_cmpuint(spans, >=, flats + 1000);
    g_assert_cmpuint(quads_kept, >=, 20);
    g_test_message("textured RGB565 spans in lanes: %" PRIu64 " states",
                   tex_lanes);
    g_assert_cmpuint(tex_lanes, >=, 25);
    /* modulate/replace products through the combiner, fast */
    g_test_message("fast through texture blending: %u states", blended);
    g_assert_cmpuint(blended, >=, 20);
    g_free(d);
    g_rand_free(r);
}

/*
 * A draw that samples its own colour buffer, or whose Z or stencil buffer
 * lies over it a few rows down, makes a pixel's value depend on the order
 * in which the tiles are drawn: such a draw's batches run on one thread
 * (render.c tile_order_shows), so its image is the same at any thread
 * count and in every run. Twelve triangles over the whole target make the
 * batch large enough to be shared between threads; each state is drawn at
 * one thread, then five times each at two and three, fast and general.
 * Without the serial batch, states of every kind differed between runs
 * (5, 9 and 8 of the 20 of each kind).
 */
static void test_overlap_threads(void)
{
    GRand *r = g_rand_new_with_seed(0x6a3d0011);
    Draw *d = g_new(Draw, 1);
    static uint8_t fb[2][W * H * 2], zb[2][W * H * 2];
    int n, i, k, t, run, general;

    for (n = 0; n < 60; n++) {
        do {
            make_draw(r, d);
        } while (n % 3 != 2 && !(d->en0 & R_EGEN0_EGenTXMP_MASK));
        switch (n % 3) {
        case 0:     /* texture 0 over the colour buffer */
            d->texbase = FB + PITCH * g_rand_int_range(r, 0, 8);
            break;
        case 1:     /* and blending, so the general path reads both */
            d->texbase = FB + PITCH * g_rand_int_range(r, 0, 8);
            d->en0 |= R_EGEN0_EGenBLEND_MASK;
            d->blset = GLAMO_BLEQ_ADD << 24 | 4 << 4 | 5;
            break;
        default:    /* a Z16 test and write over rows of the colour buffer */
            d->en0 |= R_EGEN0_EGenZT_MASK | R_EGEN0_EGenZW_MASK;
            d->zset = GLAMO_ZFMT_Z16 << 20 | (uint32_t)G3D_CMP_ALWAYS << 16 |
                      (PITCH / 2);
            d->zbase = FB + PITCH * g_rand_int_range(r, 1, 8) + 2 * 33;
            break;
        }
        d->ntri = 12;
        for (i = 0; i < d->ntri; i++) {
            for (k = 0; k < 3; k++) {
                d->vtx[i][k].x = g_rand_double_range(r, -W, 2 * W);
                d->vtx[i][k].y = g_rand_double_range(r, -H, 2 * H);
            }
        }
        for (general = 0; general < 2; general++) {
            run_draw(d, general, 1, fb[0], zb[0]);
            for (t = 2; t <= 3; t++) {
                for (run = 0; run < 5; run++) {
                    run_draw(d, general, t, fb[1], zb[1]);
                    if (memcmp(fb[0], fb[1], sizeof(fb[0])) ||
                        memcmp(zb[0], zb[1], sizeof(zb[0]))) {
                        g_test_message("state %d (%s path) at %d threads, "
                                       "run %d: not the one-thread image",
                                       n, general ? "general" : "chosen", t,
                                       run);
                        g_assert_not_reached();
                    }
                }
            }
        }
    }
    g_free(d);
    g_rand_free(r);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_data_func("/glamo/fast/random-states/sse2", NULL,
                         test_fast_paths);
    g_test_add_data_func("/glamo/fast/random-states/avx2", "avx2",
                         test_fast_paths);
    g_test_add_data_func("/glamo/fast/random-states/avx512", "avx512",
                         test_fast_paths);
    g_test_add_func("/glamo/fast/overlap/threads", test_overlap_threads);
    return g_test_run();
}
