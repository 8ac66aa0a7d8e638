/*
 * The PICA200 quad function chosen per render-state snapshot
 * (framebuffer.c choose_shade) against the general fragment path:
 * randomised states (colour and depth formats, depth test, function and
 * write, stencil, blend or logic op, channel mask, alpha test, scissor,
 * W-buffer; half of them textured: texture 0's format, size, filters, wrap
 * modes, border, level range, bias and type, and a combiner stage 0 that
 * replaces with or modulates by it, or does something else), each drawn
 * twice from the same random colour, depth and texture contents, once as
 * chosen and once with g3d_general_path set; the colour and depth bytes
 * must be equal. The states each fast function covers are counted so the
 * comparison is known to exercise them. Half the untextured cases draw
 * flat triangles (one colour per triangle: 8-bit colours, colours at a
 * rounding tie, arbitrary ones) with the depth test off three times in four,
 * so that the block fill of flat triangles (framebuffer.c pica_flat_fill)
 * is compared too; some of those draw a pair covering the target first,
 * and take the scissor half the time (fills of whole tile parts that end
 * between 8x8 tiles). A second test draws only textured cases the bilinear
 * sampler of texture 0 takes four pixels at a time (texunit.c
 * quad_linear_lanes): its four formats, every wrap mode, sizes that are
 * not powers of two, and coordinates far outside the image (once more
 * with the SSE2 samplers where the CPU has AVX too, once with the AVX
 * ones of four pixels a call where it has AVX2, whose textured spans
 * sample eight pixels a call, and once with the AVX2 spans where it has
 * AVX-512, which has textured spans of its own). A third draws
 * only untextured Gouraud cases the replace function takes, so that the
 * spans of its wide triangles (framebuffer.c pica_span_choose) are
 * compared in every depth format and function, one case in four with a
 * vertex whose 1/w is below 2^-40. The spans have SSE2, AVX, AVX2 and
 * AVX-512 instances (the last two eight pixels a group; chosen by the
 * CPU): that test runs at each level (g3d_simd_max, and
 * g3d_simd_textured_max: the textured spans at that level too), so that
 * every level the CPU has is compared. At AVX-512 the textured spans have
 * two instances, 256-bit vectors only (AVX-512VL) or the weights in
 * 512-bit ones (g3d_simd_textured_zmm): bilinear-lanes/wide runs the
 * latter.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <string.h>

#include "pica-scene.h"
#include "pica200/pica200-int.h"
#include "common/raster.h"

#define W 64
#define H 64
#define LIST_OFF 0x10000u
#define VB_OFF 0x100000u
#define RAM_PA(off) (PICA200_PHYS_FCRAM + (off))
#define SURF_BYTES (W * H * 4)
#define NTRIS 6
#define TEX_OFF (SURF_BYTES * 2)        /* VRAM, after colour and depth */
#define TEX_MAX (64 * 64 * 4 * 2)       /* a 64x64 RGBA8 image and its levels */

typedef enum Path { PATH_GENERAL, PATH_REPLACE, PATH_TEX0 } Path;

/* every case textured with a bilinear texture the fast sampler takes */
static bool linear_cases;
/*
 * every case an untextured Gouraud draw the replace function takes, its
 * wide triangles drawn by spans (framebuffer.c pica_span_choose)
 */
static bool span_cases;
/* span cases' triangles of one power-of-two w, each case built twice */
static unsigned same_w_tris;
/* the chosen paths at most at this level (g3d_simd_max) */
static G3DSimdLevel simd_cap = G3D_SIMD_AVX512;
/*
 * at AVX-512, the textured spans' weights in 512-bit vectors
 * (g3d_simd_textured_zmm), else the AVX-512VL instances of 256 bits
 */
static bool simd_wide;
/*
 * Overlapping colour and depth buffers, and textures in them: at every
 * thread count, since such a state's batches run on one thread
 * (framebuffer.c tile_order_shows); before, with two threads, tiles drawn
 * at once wrote each other's bytes.
 */
static bool overlap_cases;

/* one side of combiner stage 0: sources, operands, combiner, covered */
typedef struct TevSide {
    uint32_t src, op, comb;
    bool fast;
} TevSide;

static const TevSide tev_sides[] = {
    { PICA_TEVSRC_TEXTURE0, 0, PICA_TEVOP_REPLACE, true },
    { PICA_TEVSRC_PRIMARY | PICA_TEVSRC_TEXTURE0 << 4, 0,
      PICA_TEVOP_MODULATE, true },
    { PICA_TEVSRC_TEXTURE0 | PICA_TEVSRC_PRIMARY << 4, 0,
      PICA_TEVOP_MODULATE, true },
    { PICA_TEVSRC_PRIMARY | PICA_TEVSRC_TEXTURE0 << 4, 0,
      PICA_TEVOP_REPLACE, true },
    { PICA_TEVSRC_PRIMARY | PICA_TEVSRC_TEXTURE0 << 4, 0, PICA_TEVOP_ADD,
      false },
    { PICA_TEVSRC_TEXTURE0 | PICA_TEVSRC_PRIMARY << 4, 1,
      PICA_TEVOP_MODULATE, false },     /* 1 - texture */
    { PICA_TEVSRC_CONSTANT, 0, PICA_TEVOP_REPLACE, false },
};

/*
 * Texture 0 and combiner stage 0 for a textured case (after
 * pica_cmd_fragment, which turned both off); true if the fast texture
 * function covers them. Its own random stream, so that the untextured
 * part of a case does not depend on it.
 */
static bool build_texture(PicaTest *t, uint32_t seed, CmdBuf *b)
{
    static const unsigned fmts[] = {
        PICA_TEXFMT_RGBA8, PICA_TEXFMT_RGBA8, PICA_TEXFMT_RGB8,
        PICA_TEXFMT_RGB565, PICA_TEXFMT_RGBA4, PICA_TEXFMT_RGBA5551,
        PICA_TEXFMT_I8, PICA_TEXFMT_ETC1,
    };
    GRand *r = g_rand_new_with_seed(seed ^ 0x7e47u);
    unsigned fmt = fmts[g_rand_int_range(r, 0, linear_cases ? 5
                                                            : G_N_ELEMENTS(fmts))];
    unsigned w = 8 * g_rand_int_range(r, 1, 9), h = 8 * g_rand_int_range(r, 1, 9);
    bool mag = g_rand_boolean(r);
    bool min = g_rand_int_range(r, 0, 4) ? mag : !mag;
    unsigned ws = g_rand_int_range(r, 0, 5) ? g_rand_int_range(r, 0, 4)
                  : g_rand_int_range(r, 0, 8);
    unsigned wt = g_rand_int_range(r, 0, 3) ? ws : g_rand_int_range(r, 0, 4);
    unsigned max_level = g_rand_int_range(r, 0, 5) == 0 && w % 16 == 0 &&
                         h % 16 == 0;
    uint32_t bias = g_rand_int_range(r, 0, 4) == 0 ? g_rand_int(r) & 0x1FFF : 0;
    unsigned type = g_rand_int_range(r, 0, 8) == 0 ? PICA_TEXTYPE_PROJECTION
                    : PICA_TEXTYPE_2D;
    const TevSide *rgb = &tev_sides[g_rand_int_range(r, 0, 4) ?
                                    g_rand_int_range(r, 0, 4) :
                                    g_rand_int_range(r, 0, G_N_ELEMENTS(tev_sides))];
    const TevSide *a = &tev_sides[g_rand_int_range(r, 0, 4) ?
                                  g_rand_int_range(r, 0, 4) :
                                  g_rand_int_range(r, 0, G_N_ELEMENTS(tev_sides))];
    uint32_t scale = g_rand_int_range(r, 0, 8) == 0 ? 1 : 0;     /* 2x */
    bool stage1 = g_rand_int_range(r, 0, 8) == 0;
    unsigned i;

    if (linear_cases) {
        mag = min = true;
        max_level = scale = 0;
        type = PICA_TEXTYPE_2D;
        stage1 = false;
        rgb = &tev_sides[g_rand_int_range(r, 0, 3)];
        a = &tev_sides[g_rand_int_range(r, 0, 3)];
        if (g_rand_boolean(r)) {
            ws = wt = g_rand_boolean(r) ? PICA_WRAP_REPEAT
                                        : PICA_WRAP_CLAMP_TO_EDGE;
        }
    }

    for (i = 0; i < TEX_MAX; i++) {
        t->vram[TEX_OFF + i] = g_rand_int(r);
    }
    pica_cmd_reg(b, GPUREG_SH_OUTMAP_O1, 0x0B0A0D0C);    /* u, v, B, A */
    pica_cmd_reg(b, GPUREG_TEXUNIT0_BORDER_COLOR, g_rand_int(r));
    pica_cmd_reg(b, GPUREG_TEXUNIT0_DIM, h | w << 16);
    pica_cmd_reg(b, GPUREG_TEXUNIT0_PARAM, mag << 1 | min << 2 | wt << 8 |
                 ws << 12 | g_rand_int_range(r, 0, 2) << 24 | type << 28);
    pica_cmd_reg(b, GPUREG_TEXUNIT0_LOD, bias | max_level << 16);
    /* now and then the texture is the colour buffer (read while drawn:
     * the spans of texture 0 decline those, keeping the quads' order) */
    pica_cmd_reg(b, GPUREG_TEXUNIT0_ADDR1, (PICA200_PHYS_VRAM +
                                            (overlap_cases && linear_cases &&
                                             seed % 11 == 7 ? 0 : TEX_OFF))
                                           >> 3);
    pica_cmd_reg(b, GPUREG_TEXUNIT0_TYPE, fmt);
    pica_cmd_regm(b, GPUREG_TEXUNIT_CONFIG, 0xB, 0x1001);
    pica_cmd_reg(b, PICA_TEXENV_BASE(0), rgb->src | a->src << 16);
    pica_cmd_reg(b, PICA_TEXENV_BASE(0) + 1, rgb->op | a->op << 12);
    pica_cmd_reg(b, PICA_TEXENV_BASE(0) + 2, rgb->comb | a->comb << 16);
    pica_cmd_reg(b, PICA_TEXENV_BASE(0) + 3, g_rand_int(r));
    pica_cmd_reg(b, PICA_TEXENV_BASE(0) + 4, scale << (g_rand_boolean(r) ? 16 : 0));
    if (stage1) {
        /* a second stage that adds the primary colour */
        pica_cmd_reg(b, PICA_TEXENV_BASE(1), (PICA_TEVSRC_PREVIOUS |
                     PICA_TEVSRC_PRIMARY << 4) * 0x10001u);
        pica_cmd_reg(b, PICA_TEXENV_BASE(1) + 2, PICA_TEVOP_ADD * 0x10001u);
    }
    g_rand_free(r);

    /* TEX0 on both sides is the one texture; PRIMARY on both reads none */
    return fmt <= PICA_TEXFMT_RGBA4 && fmt != PICA_TEXFMT_RGBA5551 &&
           mag == min && !max_level && type == PICA_TEXTYPE_2D &&
           rgb->fast && a->fast && !scale && !stage1 &&
           !(rgb->comb == PICA_TEVOP_REPLACE && a->comb == PICA_TEVOP_REPLACE &&
             (rgb->src & 0xF) == PICA_TEVSRC_PRIMARY &&
             (a->src & 0xF) == PICA_TEVSRC_PRIMARY);
}

/* Build the case's list; which path its state should take. */
static Path build_case(PicaTest *t, uint32_t seed, CmdBuf *b)
{
    static const unsigned cfmts[] = {
        PICA_COLORFMT_RGBA8, PICA_COLORFMT_RGBA8, PICA_COLORFMT_RGBA8,
        PICA_COLORFMT_RGB565, PICA_COLORFMT_RGBA4,
    };
    static const unsigned dfmts[] = {
        PICA_DEPTH_D16, PICA_DEPTH_D24, PICA_DEPTH_D24S8,
    };
    GRand *r = g_rand_new_with_seed(seed);
    unsigned cfmt = cfmts[g_rand_int_range(r, 0, G_N_ELEMENTS(cfmts))];
    unsigned dfmt = dfmts[g_rand_int_range(r, 0, G_N_ELEMENTS(dfmts))];
    bool stencil = g_rand_int_range(r, 0, 4) == 0;
    bool alpha = g_rand_int_range(r, 0, 5) == 0;
    bool blend = g_rand_boolean(r), replace;
    unsigned mask = g_rand_int_range(r, 0, 4) ? 0xF : g_rand_int_range(r, 0, 16);
    unsigned scissor = g_rand_int_range(r, 0, 4);   /* 1 inverted, 3 on */
    uint32_t blend_func = g_rand_boolean(r) ? 0x01010000u : 0x76760000u;
    uint32_t logic = g_rand_boolean(r) ? 3 : g_rand_int_range(r, 0, 16);
    bool textured = !span_cases && (linear_cases || seed & 1);
    bool tex_fast = false;
    bool flat = !textured && !span_cases && (seed & 2);
    /* spans: one case in four with a vertex far away (1/w below 2^-40) */
    unsigned far = span_cases && seed % 4 == 1 ? seed / 4 % (NTRIS * 3)
                   : NTRIS * 3;
    float v[NTRIS * 3 * 8], tw = 0.0f;
    uint32_t depth_mask;
    unsigned i, k;

    /* coordinates: the image and its neighbours, or far outside it */
    float tc_range = !linear_cases || seed % 3 == 0 ? 0.0f :
                     seed % 3 == 1 ? 4.0f : 3.0e5f;

    if ((textured && (seed & 6 || linear_cases)) || (flat && seed & 4) ||
        span_cases) {
        /* three in four textured cases and half the flat ones: fragment
         * operations the fast functions take, so that the texture's part
         * or the colours decide */
        cfmt = PICA_COLORFMT_RGBA8;
        stencil = alpha = blend = false;
        mask = 0xF;
        logic = 3;
        /* flat ones: the scissor on half the time (fills of tile parts
         * that end between 8x8 tiles) */
        scissor = flat && scissor & 1 ? 3 : scissor & 2;
    }

    for (i = 0; i < SURF_BYTES * 2; i++) {
        t->vram[i] = g_rand_int(r);
    }
    for (i = 0; i < NTRIS * 3; i++) {
        /*
         * span cases: a third of the triangles with one w at the three
         * vertices, mostly a power of two (g3d_inv_w_unit: the weights'
         * unit 1/w instances; 1.5 is not)
         */
        static const float same_w[5] = { 1.0f, 0.5f, 2.0f, 0.25f, 1.5f };
        float w;

        if (i % 3 == 0) {
            tw = span_cases && g_rand_int_range(r, 0, 3) == 0
                 ? same_w[g_rand_int_range(r, 0, 5)] : 0.0f;
            same_w_tris += tw != 0.0f;
        }
        w = i == far ? 0x1p41f : tw != 0.0f ? tw : g_rand_boolean(r) ? 1.0f
            : (float)g_rand_double_range(r, 0.5, 2.0);
        /* the far vertex's triangle inside the view volume: not clipped */
        double xy = far / 3 == i / 3 ? 1.0 : 1.2;
        float *p = &v[8 * i];
        p[0] = (float)g_rand_double_range(r, -xy, xy) * w;
        p[1] = (float)g_rand_double_range(r, -xy, xy) * w;
        p[2] = (float)g_rand_double_range(r, -1.0, 0.0) * w;
        p[3] = w;
        p[4] = (float)g_rand_double_range(r, -0.2, 1.2);
        p[5] = (float)g_rand_double_range(r, -0.2, 1.2);
        p[6] = (float)g_rand_double_range(r, -0.2, 1.2);
        p[7] = (float)g_rand_double_range(r, -0.2, 1.2);
        if (tc_range != 0.0f) {
            p[4] = (float)g_rand_double_range(r, -tc_range, tc_range);
            p[5] = (float)g_rand_double_range(r, -tc_range, tc_range);
        }
        if (flat && i % 3) {
            memcpy(p + 4, p + 4 - 8 * (i % 3), 4 * sizeof(float));
        } else if (flat) {
            for (k = 4; k < 8; k++) {
                int kind = g_rand_int_range(r, 0, 8);
                int b = g_rand_int_range(r, 0, 256);

                /* mostly 8-bit; some ties (b + 0.5) / 255; some arbitrary */
                p[k] = kind < 5 ? b / 255.0f :
                       kind < 7 ? (b + 0.5f) / 255.0f : p[k];
            }
        }
    }
    if (flat && seed & 8) {
        /* the first two triangles cover the target: whole tile parts,
         * ending where the scissor does */
        static const float q[6][2] = { { -1.1f, -1.1f }, { 1.1f, -1.1f },
                                       { 1.1f, 1.1f }, { -1.1f, -1.1f },
                                       { 1.1f, 1.1f }, { -1.1f, 1.1f } };

        for (i = 0; i < 6; i++) {
            v[8 * i] = q[i][0];
            v[8 * i + 1] = q[i][1];
            v[8 * i + 3] = 1.0f;
            for (k = 4; k < 8; k++) {
                /* 8-bit colours, one a triangle: fills */
                v[8 * i + k] = i % 3 ? v[8 * (i - i % 3) + k]
                                     : g_rand_int_range(r, 0, 256) / 255.0f;
            }
        }
    }
    pt_put_vertices(t, VB_OFF, v, NTRIS * 3);

    cb_init(b);
    pica_cmd_shader_passthrough(b);
    pica_cmd_viewport(b, W, H, 0, 0);
    /* now and then a depth buffer that overlaps the colour buffer's
     * pixels other than its own (the fast functions decline those) */
    pica_cmd_target(b, W, H, PICA200_PHYS_VRAM, cfmt,
                    PICA200_PHYS_VRAM + (overlap_cases && seed % 11 == 3 ? 8 * (seed % 5 + 1)
                                                         : SURF_BYTES), dfmt);
    pica_cmd_fragment(b, 1, PICA_CMP_LESS, 1);
    pica_cmd_reg(b, GPUREG_SH_OUTMAP_O1, 0x0B0A0908);    /* R, G, B, A */
    if (textured) {
        tex_fast = build_texture(t, seed, b);
    }
    pica_cmd_reg(b, GPUREG_COLOR_OPERATION, 0x00E40000 | (blend ? 0x100 : 0));
    pica_cmd_reg(b, GPUREG_BLEND_FUNC, blend_func);
    pica_cmd_reg(b, GPUREG_LOGIC_OP, logic);
    pica_cmd_reg(b, GPUREG_BLEND_COLOR, g_rand_int(r));
    pica_cmd_reg(b, GPUREG_FRAGOP_ALPHA_TEST, alpha ? 1u |
                 g_rand_int_range(r, 0, 8) << 4 |
                 g_rand_int_range(r, 0, 256) << 8 : 0);
    pica_cmd_reg(b, GPUREG_STENCIL_TEST, (g_rand_int(r) & ~1u) | stencil);
    pica_cmd_reg(b, GPUREG_STENCIL_OP, g_rand_int(r) & 0x777);
    depth_mask = g_rand_int(r) & 0x1071;
    if (flat && g_rand_int_range(r, 0, 4)) {
        depth_mask &= ~0x1001u;                 /* no depth test or write */
    }
    pica_cmd_reg(b, GPUREG_DEPTH_COLOR_MASK, depth_mask | mask << 8);
    pica_cmd_reg(b, GPUREG_DEPTHMAP_ENABLE, g_rand_int_range(r, 0, 4) != 0);
    pica_cmd_reg(b, GPUREG_SCISSORTEST_MODE, scissor);
    pica_cmd_reg(b, GPUREG_SCISSORTEST_POS, g_rand_int_range(r, 0, W / 2) |
                 g_rand_int_range(r, 0, H / 2) << 16);
    pica_cmd_reg(b, GPUREG_SCISSORTEST_DIM, g_rand_int_range(r, W / 2, W) |
                 g_rand_int_range(r, H / 2, H) << 16);
    pica_cmd_attribs(b, RAM_PA(VB_OFF), PICA_F32X4, PICA_F32X4, 32);
    pica_cmd_draw(b, PICA_TOPOLOGY_TRIANGLES, NTRIS * 3, 0, false, 0);
    pica_cmd_finalize(b);
    g_rand_free(r);

    replace = mask == 0xF && (blend ? blend_func == 0x01010000u : logic == 3);
    if (cfmt != PICA_COLORFMT_RGBA8 || !replace || alpha || scissor == 1 ||
        (overlap_cases && seed % 11 == 3 && depth_mask & 0x1001) ||
        (stencil && dfmt == PICA_DEPTH_D24S8)) {
        return PATH_GENERAL;
    }
    if (!textured) {
        return PATH_REPLACE;
    }
    return tex_fast ? PATH_TEX0 : PATH_GENERAL;
}

static Path run(PicaTest *t, uint32_t seed, bool general, uint8_t *out,
                uint64_t *filled)
{
    CmdBuf b;
    Path path = build_case(t, seed, &b);
    Pica200Stats st0, st1;

    pica200_stats(t->core, &st0);
    g3d_general_path = general;
    /* exactly that level, the textured spans too (whatever the CPU) */
    g3d_simd_max = general ? G3D_SIMD_SSE2 : simd_cap;
    g3d_simd_textured_max = (int)simd_cap;
    g3d_simd_textured_zmm = simd_wide;
    pt_kick(t, &b, LIST_OFF);
    g_assert_true(pt_run(t, 1u << 20));
    g3d_general_path = false;
    g3d_simd_max = G3D_SIMD_AVX512;
    g3d_simd_textured_max = -1;
    g3d_simd_textured_zmm = -1;
    pt_wreg(t, GPUREG_IRQ_ACK0, 0);
    memcpy(out, t->vram, SURF_BYTES * 2);
    cb_free(&b);
    pica200_stats(t->core, &st1);
    *filled = st1.fragments_filled - st0.fragments_filled;
    return path;
}

/* the CPU runs framebuffer.c span16_rows where the level is AVX-512 */
static bool span16_cpu(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
    return __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("avx512bw");
#else
    return false;
#endif
}

static void test_fast_equals_general(gconstpointer data)
{
    int threads = GPOINTER_TO_INT(data) & 0xFF;
    PicaTest t;
    uint8_t *img[2];
    unsigned n, path[3] = { 0, 0, 0 }, errors, filled_cases = 0;
    uint64_t filled, filled_general;
    const unsigned cases = 300;

    linear_cases = GPOINTER_TO_INT(data) & 0x100;
    span_cases = GPOINTER_TO_INT(data) & 0x200;
    /* the SSE2 spans and bilinear samplers where the CPU has AVX too,
     * or the AVX or AVX2 spans (Gouraud and textured) where it has more */
    simd_cap = GPOINTER_TO_INT(data) & 0x400 ? G3D_SIMD_SSE2
               : GPOINTER_TO_INT(data) & 0x800 ? G3D_SIMD_AVX
               : GPOINTER_TO_INT(data) & 0x1000 ? G3D_SIMD_AVX2
               : G3D_SIMD_AVX512;
    simd_wide = GPOINTER_TO_INT(data) & 0x2000;
    if (linear_cases) {
        g3d_simd_max = simd_cap;
        g3d_simd_textured_max = (int)simd_cap;
        g3d_simd_textured_zmm = simd_wide;
        g_test_message("textured spans: %s",
                       g3d_simd_level_textured() < G3D_SIMD_AVX512 ?
                       (const char *[]){ "SSE2", "AVX",
                                         "AVX2, eight pixels a call" }
                       [g3d_simd_level_textured()] :
                       g3d_simd_textured_wide() ?
                       "AVX-512, eight pixels a call, 512-bit weights" :
                       "AVX-512VL, eight pixels a call, 256 bits");
        g3d_simd_max = G3D_SIMD_AVX512;
        g3d_simd_textured_max = -1;
        g3d_simd_textured_zmm = -1;
    }
    if (span_cases) {
        g3d_simd_max = simd_cap;
        g_test_message("spans: %s", (const char *[]){
                           "SSE2", "AVX", "AVX2, 8 pixels",
                           span16_cpu() ? "AVX-512, 8 pixels, 16 without a depth test"
                           : "AVX-512, 8 pixels" }[g3d_simd_level()]);
        g3d_simd_max = G3D_SIMD_AVX512;
    }
    overlap_cases = true;
    pt_init(&t, threads);
    img[0] = g_malloc(SURF_BYTES * 2);
    img[1] = g_malloc(SURF_BYTES * 2);
    errors = g3d_log_count(G3D_LOG_GUEST_ERROR);
    for (n = 0; n < cases; n++) {
        uint32_t seed = 0x91ca0000u + n;

        path[run(&t, seed, false, img[0], &filled)]++;
        run(&t, seed, true, img[1], &filled_general);
        g_assert_cmpuint(filled_general, ==, 0);
        filled_cases += filled > 0;
        if (memcmp(img[0], img[1], SURF_BYTES)) {
            g_error("seed %#x: the colour bytes of the chosen path differ "
                    "from the general path's", seed);
        }
        if (memcmp(img[0] + SURF_BYTES, img[1] + SURF_BYTES, SURF_BYTES)) {
            g_error("seed %#x: the depth bytes of the chosen path differ "
                    "from the general path's", seed);
        }
    }
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errors);
    g_test_message("paths: %u general, %u replace (%u with block fills or "
                   "spans), "
                   "%u texture 0; triangles of one w at its three vertices %u",
                   path[PATH_GENERAL], path[PATH_REPLACE],
                   filled_cases, path[PATH_TEX0], same_w_tris / 2);
    same_w_tris = 0;
    if (span_cases) {
        /* all but the overlapping buffers' cases with a depth buffer, and
         * nearly all of them with some triangle drawn by spans */
        g_assert_cmpuint(path[PATH_REPLACE], >=, cases - cases / 11 - 1);
        g_assert_cmpuint(filled_cases, >=, path[PATH_REPLACE] * 9 / 10);
    } else if (linear_cases) {
        /* all but the overlapping buffers' cases with a depth buffer, and
         * those of REPEAT or CLAMP_TO_EDGE mostly drawn by spans */
        g_assert_cmpuint(path[PATH_TEX0], >=, cases - cases / 11 - 1);
        g_assert_cmpuint(filled_cases, >=, cases / 4);
    } else {
        g_assert_cmpuint(filled_cases, >=, cases / 32);
        g_assert_cmpuint(path[PATH_REPLACE], >=, cases / 16);
        g_assert_cmpuint(path[PATH_TEX0], >=, cases / 16);
        g_assert_cmpuint(path[PATH_GENERAL], >=, cases / 8);
    }
    g_free(img[0]);
    g_free(img[1]);
    pt_free(&t);
    linear_cases = span_cases = false;
    simd_cap = G3D_SIMD_AVX512;
    simd_wide = false;
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_data_func("/pica200/fast-path/equals-general/1-thread",
                         GINT_TO_POINTER(1), test_fast_equals_general);
    g_test_add_data_func("/pica200/fast-path/equals-general/2-threads",
                         GINT_TO_POINTER(2), test_fast_equals_general);
    g_test_add_data_func("/pica200/fast-path/bilinear-lanes/1-thread",
                         GINT_TO_POINTER(0x101), test_fast_equals_general);
    g_test_add_data_func("/pica200/fast-path/bilinear-lanes/2-threads",
                         GINT_TO_POINTER(0x102), test_fast_equals_general);
    g_test_add_data_func("/pica200/fast-path/bilinear-lanes/sse2",
                         GINT_TO_POINTER(0x501), test_fast_equals_general);
    g_test_add_data_func("/pica200/fast-path/bilinear-lanes/avx",
                         GINT_TO_POINTER(0x901), test_fast_equals_general);
    g_test_add_data_func("/pica200/fast-path/bilinear-lanes/avx2",
                         GINT_TO_POINTER(0x1101), test_fast_equals_general);
    g_test_add_data_func("/pica200/fast-path/bilinear-lanes/wide",
                         GINT_TO_POINTER(0x2101), test_fast_equals_general);
    g_test_add_data_func("/pica200/fast-path/gouraud-spans/1-thread",
                         GINT_TO_POINTER(0x201), test_fast_equals_general);
    g_test_add_data_func("/pica200/fast-path/gouraud-spans/2-threads",
                         GINT_TO_POINTER(0x202), test_fast_equals_general);
    g_test_add_data_func("/pica200/fast-path/gouraud-spans-sse2/1-thread",
                         GINT_TO_POINTER(0x601), test_fast_equals_general);
    g_test_add_data_func("/pica200/fast-path/gouraud-spans-sse2/2-threads",
                         GINT_TO_POINTER(0x602), test_fast_equals_general);
    g_test_add_data_func("/pica200/fast-path/gouraud-spans-avx/1-thread",
                         GINT_TO_POINTER(0xA01), test_fast_equals_general);
    g_test_add_data_func("/pica200/fast-path/gouraud-spans-avx/2-threads",
                         GINT_TO_POINTER(0xA02), test_fast_equals_general);
    g_test_add_data_func("/pica200/fast-path/gouraud-spans-avx2/1-thread",
                         GINT_TO_POINTER(0x1201), test_fast_equals_general);
    g_test_add_data_func("/pica200/fast-path/gouraud-spans-avx2/2-threads",
                         GINT_TO_POINTER(0x1202), test_fast_equals_general);
    return g_test_run();
}
