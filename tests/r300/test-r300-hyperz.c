/*
 * R300 HyperZ through the command processor, as Mesa's r300 driver uses it
 * with RADEON_HYPERZ=1 (r300_blit.c r300_clear, r300_hyperz.c, r300_emit.c):
 * a fast Z clear (3D_CLEAR_ZMASK + ZB_DEPTHCLEARVALUE, 3D_CLEAR_HIZ),
 * draws with Z compression and HiZ, the ZMASK decompression; the images
 * must be the bytes of the same scene drawn without HyperZ. Then what the
 * RAMs hold, read through the ZB_*_DWORD ports and checked against the
 * layout docs/r300-3d.md "HyperZ" states, and bad offsets, pitches and
 * indices.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <string.h>

#include "r300-rig.h"
#include "common/g3d-core.h"

#define VRAM_SIZE   (8u << 20)
#define RING_BUFSZ  13
#define CB_ADDR     0x00100000u
#define ZB_ADDR     0x00300000u
#define W 128
#define H 96
#define ZB_MACRO    (1u << 16)      /* ZB_DEPTHPITCH.DEPTHMACROTILE */
#define ZB_MICRO    (1u << 17)      /* DEPTHMICROTILE 1: tiled */

/* Mesa r300_reg.h */
#define HIZ_ENABLE      R_ZB_BW_CNTL_HIZ_ENABLE_MASK
#define HIZ_MIN         R_ZB_BW_CNTL_HIZ_MIN_MASK
#define FAST_FILL       R_ZB_BW_CNTL_FAST_FILL_MASK
#define RD_COMP         R_ZB_BW_CNTL_RD_COMP_ENABLE_MASK
#define WR_COMP         R_ZB_BW_CNTL_WR_COMP_ENABLE_MASK
#define SC_HYPERZ_ADJ_2 (7u << 2)

typedef R300Rig Dev;

static uint32_t buf[1 << 14];

static void run(Dev *d, R300Cmd *c)
{
    g_assert_false(c->overflow);
    r300_rig_ring_run(d, buf, c->n);
}

static Dev *dev_new(uint32_t zpitch_bits)
{
    Dev *d = r300_rig_new(2, VRAM_SIZE, RING_BUFSZ);
    R300Surface cb = { CB_ADDR, W, R300_COLOR_FORMAT_ARGB8888 };
    R300Surface zb = { ZB_ADDR, W | zpitch_bits,
                       R300_DEPTHFORMAT_24BIT_INT_Z_8BIT_STENCIL };
    static const float identity[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0,
                                        0, 0, 0, 1 };
    R300Cmd c;

    r300_rig_ring_init(d);
    /* stale VRAM under both surfaces: a clear must not rely on it */
    memset(d->vram + CB_ADDR, 0x5A, 4 * W * H);
    memset(d->vram + ZB_ADDR, 0x00, 4 * W * H);
    r300_rig_cmd_begin(&c, buf, G_N_ELEMENTS(buf));
    r300_cmd_pipeline(&c, &cb, &zb, W, H);
    r300_cmd_matrix(&c, identity);
    run(d, &c);
    return d;
}

static void pkt_clear(R300Cmd *c, uint32_t op, uint32_t count, uint32_t val)
{
    r300_cmd_dw(c, R300_PACKET3(op, 2));
    r300_cmd_dw(c, 0);
    r300_cmd_dw(c, count);
    r300_cmd_dw(c, val);
}

/* a rectangle from (x0, y0) to (x1, y1) in clip space at depth z */
static void rect(R300Cmd *c, float x0, float y0, float x1, float y1, float z,
                 float r, float g, float b)
{
    const float v[6 * 8] = {
        x0, y0, z, 1, r, g, b, 1,   x1, y0, z, 1, r, g, b, 1,
        x1, y1, z, 1, r, g, b, 1,   x0, y0, z, 1, r, g, b, 1,
        x1, y1, z, 1, r, g, b, 1,   x0, y1, z, 1, r, g, b, 1,
    };
    r300_cmd_draw(c, R300_PRIM_TRIANGLES, v, 6);
}

/* a triangle whose depth varies across it */
static void slope(R300Cmd *c, float za, float zb, float zc, float r, float g,
                  float b)
{
    const float v[3 * 8] = {
        -0.9f, -0.8f, za, 1, r, g, b, 1,   0.7f, -0.3f, zb, 1, r, g, b, 1,
        -0.2f,  0.6f, zc, 1, r, g, b, 1,
    };
    r300_cmd_draw(c, R300_PRIM_TRIANGLES, v, 3);
}

/*
 * The scene: clear to grey and depth 1, then overlapping rectangles and
 * sloped triangles with LESS, back to front and front to back, leaving the
 * right-hand quarter untouched after the clear.
 */
typedef struct HyperZSetup {
    uint32_t zmask_pitch, hiz_offset, zmask_dw, hiz_dw;
} HyperZSetup;

/* Mesa's for a W x H buffer: dwords per pipe from r300_texture_desc.c */
static const HyperZSetup mesa_setup = { W, 0, W * H / 512, W * H / 128 };

static void scene_with(Dev *d, const HyperZSetup *hs, uint32_t zclear)
{
    bool hyperz = hs != NULL;
    R300Cmd c;

    r300_rig_cmd_begin(&c, buf, G_N_ELEMENTS(buf));
    if (hyperz) {
        /* Mesa's fast Z clear: ZMASK and HiZ cleared, the value in
         * ZB_DEPTHCLEARVALUE, the colour by drawing with Z off */
        r300_cmd_reg(&c, A_ZB_ZMASK_OFFSET, 0);
        r300_cmd_reg(&c, A_ZB_ZMASK_PITCH, hs->zmask_pitch);
        r300_cmd_reg(&c, A_ZB_HIZ_OFFSET, hs->hiz_offset);
        r300_cmd_reg(&c, A_ZB_HIZ_PITCH, W);
        r300_cmd_reg(&c, A_ZB_DEPTHCLEARVALUE, zclear);
        pkt_clear(&c, R300_PKT3_3D_CLEAR_ZMASK, hs->zmask_dw, 0);
        pkt_clear(&c, R300_PKT3_3D_CLEAR_HIZ, hs->hiz_dw,
                  (zclear >> 24) * 0x01010101u);
        r300_cmd_depth(&c, 0, R300_ZS_ALWAYS);
        rect(&c, -1, -1, 1, 1, 1, 0.5f, 0.5f, 0.5f);
        r300_cmd_reg(&c, A_ZB_BW_CNTL, HIZ_ENABLE | FAST_FILL | RD_COMP |
                                       WR_COMP);
        r300_cmd_reg(&c, A_SC_HYPERZ_EN, R_SC_HYPERZ_EN_HZ_EN_MASK |
                                         SC_HYPERZ_ADJ_2);
    } else {
        /* the uncompressed clear: every Z word written (here by the CPU,
         * as a blit would), the colour as above */
        uint32_t i;
        for (i = 0; i < W * H; i++) {
            memcpy(d->vram + ZB_ADDR + 4 * i, &zclear, 4);
        }
        r300_cmd_depth(&c, 0, R300_ZS_ALWAYS);
        rect(&c, -1, -1, 1, 1, 1, 0.5f, 0.5f, 0.5f);
    }
    r300_cmd_depth(&c, 1, R300_ZS_LESS);
    rect(&c, -0.8f, -0.8f, 0.2f, 0.4f, 0.5f, 1, 0, 0);     /* far */
    rect(&c, -0.6f, -0.6f, 0.0f, 0.0f, 0.0f, 0, 1, 0);     /* nearer */
    rect(&c, -0.9f, -0.9f, 0.4f, 0.8f, 0.7f, 0, 0, 1);     /* behind: HiZ */
    slope(&c, -0.5f, 0.9f, 0.2f, 1, 1, 0);
    slope(&c, 0.8f, -0.9f, 0.1f, 0, 1, 1);
    rect(&c, -0.3f, -0.2f, 0.45f, 0.3f, -0.2f, 1, 0, 1);   /* front */
    rect(&c, -0.3f, -0.2f, 0.45f, 0.3f, 0.95f, 1, 1, 1);   /* rejected */
    if (hyperz) {
        /* Mesa's decompression (r300_decompress_zmask): FAST_FILL and
         * RD_COMP, Z off, a full-screen rectangle, no colour written */
        r300_cmd_depth(&c, 0, R300_ZS_ALWAYS);
        r300_cmd_reg(&c, A_ZB_BW_CNTL, FAST_FILL | RD_COMP);
        r300_cmd_reg(&c, A_SC_HYPERZ_EN, SC_HYPERZ_ADJ_2);
        r300_cmd_reg(&c, A_RB3D_COLOR_CHANNEL_MASK, 0);
        rect(&c, -1, -1, 1, 1, 0, 0, 0, 0);
        r300_cmd_reg(&c, A_RB3D_COLOR_CHANNEL_MASK, 0xF);
        r300_cmd_reg(&c, A_ZB_BW_CNTL, 0);
    }
    r300_cmd_finish(&c);
    run(d, &c);
}

static void scene(Dev *d, bool hyperz, uint32_t zclear)
{
    scene_with(d, hyperz ? &mesa_setup : NULL, zclear);
}

static void test_same_image(gconstpointer data)
{
    uint32_t tiling = GPOINTER_TO_UINT(data);
    Dev *plain = dev_new(tiling), *hz = dev_new(tiling);
    unsigned errs = g3d_log_count(G3D_LOG_GUEST_ERROR);
    const uint32_t zfar = 0xFFFFFF00u;     /* Z 1, stencil 0 */
    uint32_t z;

    scene(plain, false, zfar);
    scene(hz, true, zfar);
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errs);
    g_assert_true(!memcmp(plain->vram + CB_ADDR, hz->vram + CB_ADDR,
                          4 * W * H));
    g_assert_true(!memcmp(plain->vram + ZB_ADDR, hz->vram + ZB_ADDR,
                          4 * W * H));
    /* the scene is not trivial: the untouched corner holds the clear
     * depth (it was 0 in VRAM), the front rectangle a nearer one */
    if (!tiling) {
        memcpy(&z, hz->vram + ZB_ADDR + 4 * (5 * W + W - 3), 4);
        g_assert_cmphex(z, ==, zfar);
        memcpy(&z, hz->vram + ZB_ADDR + 4 * (H / 2 * W + W / 2), 4);
        g_assert_cmphex(z >> 8, <, 0x800000);
    }
    r300_rig_free(plain);
    r300_rig_free(hz);
}

/* the ZB_HIZ_DWORD / ZB_ZMASK_DWORD read port from global dword index i */
static uint32_t port_read(Dev *d, bool hiz, uint32_t i)
{
    r300_rig_wr(d, hiz ? A_ZB_HIZ_RDINDEX : A_ZB_ZMASK_RDINDEX, 4 * i);
    return r300_rig_rd(d, hiz ? A_ZB_HIZ_DWORD : A_ZB_ZMASK_DWORD);
}

static uint32_t zpx(Dev *d, int x, int y)
{
    uint32_t v;
    memcpy(&v, d->vram + ZB_ADDR + 4 * (y * W + x), 4);
    return v;
}

/*
 * The RAMs after a HyperZ scene on a linear buffer, against the layout
 * written out here: HiZ byte of block (x/4, y/4) = the largest top byte of
 * its 16 Z values; ZMASK 2-bit codes 3 where the scene drew, 0 where not.
 */
static void test_ram_layout(void)
{
    Dev *d = dev_new(0);
    R300Cmd c;
    int x, y;

    r300_rig_cmd_begin(&c, buf, G_N_ELEMENTS(buf));
    r300_cmd_reg(&c, A_ZB_ZMASK_OFFSET, 0);
    r300_cmd_reg(&c, A_ZB_ZMASK_PITCH, W);
    r300_cmd_reg(&c, A_ZB_HIZ_OFFSET, 0);
    r300_cmd_reg(&c, A_ZB_HIZ_PITCH, W);
    r300_cmd_reg(&c, A_ZB_DEPTHCLEARVALUE, 0xFFFFFF00u);
    pkt_clear(&c, R300_PKT3_3D_CLEAR_ZMASK, W * H / 512, 0);
    pkt_clear(&c, R300_PKT3_3D_CLEAR_HIZ, W * H / 128, 0xFFFFFFFFu);
    r300_cmd_reg(&c, A_ZB_BW_CNTL, HIZ_ENABLE | FAST_FILL | RD_COMP | WR_COMP);
    r300_cmd_reg(&c, A_SC_HYPERZ_EN, R_SC_HYPERZ_EN_HZ_EN_MASK);
    r300_cmd_depth(&c, 1, R300_ZS_LESS);
    /* the left half: x < 64 */
    rect(&c, -1, -1, 0, 1, 0.25f, 1, 0, 0);
    {
        static const float v[3 * 8] = {
            -0.95f, -0.8f, -0.5f, 1, 1, 1, 0, 1,
            -0.05f, -0.3f,  0.2f, 1, 1, 1, 0, 1,
            -0.5f,   0.9f, -0.9f, 1, 1, 1, 0, 1,
        };
        r300_cmd_draw(&c, R300_PRIM_TRIANGLES, v, 3);
    }
    r300_cmd_finish(&c);
    run(d, &c);

    for (y = 0; y < H; y += 4) {
        for (x = 0; x < W; x += 4) {
            /* pipe X[3], address Y[11:3] * pitch/16 + X[11:4] */
            uint32_t hi = 2 * ((y >> 3) * (W / 16) + (x >> 4)) + ((x >> 3) & 1);
            unsigned hshift = 16 * ((x >> 2) & 1) + 8 * ((y >> 2) & 1);
            /* pipe X[4], address Y[11:4] * pitch/32 + X[11:5] */
            uint32_t zi = 2 * ((y >> 4) * (W / 32) + (x >> 5)) + ((x >> 4) & 1);
            unsigned zshift = 2 * (4 * ((y >> 2) & 3) + ((x >> 2) & 3));
            unsigned hiz = (port_read(d, true, hi) >> hshift) & 0xFF;
            unsigned code = (port_read(d, false, zi) >> zshift) & 3;
            unsigned max = 0;
            int i, j;

            if (x < W / 2) {
                for (j = 0; j < 4; j++) {
                    for (i = 0; i < 4; i++) {
                        max = MAX(max, zpx(d, x + i, y + j) >> 24);
                    }
                }
                g_assert_cmpuint(code, ==, 3);
                g_assert_cmpuint(hiz, ==, max);
                g_assert_cmpuint(hiz, <=, 0xA0);  /* 0.625 and nearer */
            } else {
                /* untouched: cleared, VRAM still stale (0) */
                g_assert_cmpuint(code, ==, 0);
                g_assert_cmpuint(hiz, ==, 0xFF);
                g_assert_cmphex(zpx(d, x, y), ==, 0);
            }
        }
    }
    r300_rig_free(d);
}

/*
 * A cleared block reads as ZB_DEPTHCLEARVALUE whatever VRAM holds, and a
 * stale HiZ rejects fragments the Z test would pass: both RAMs are what
 * the ZB uses.
 */
static void test_clear_value_and_reject(void)
{
    Dev *d = dev_new(ZB_MACRO | ZB_MICRO);
    R300Cmd c;
    uint32_t p;

    r300_rig_cmd_begin(&c, buf, G_N_ELEMENTS(buf));
    r300_cmd_reg(&c, A_ZB_ZMASK_OFFSET, 0);
    r300_cmd_reg(&c, A_ZB_ZMASK_PITCH, W);
    r300_cmd_reg(&c, A_ZB_DEPTHCLEARVALUE, 0x80000000u);    /* Z 0.5 */
    pkt_clear(&c, R300_PKT3_3D_CLEAR_ZMASK, W * H / 512, 0);
    r300_cmd_reg(&c, A_ZB_BW_CNTL, FAST_FILL | RD_COMP | WR_COMP);
    r300_cmd_depth(&c, 1, R300_ZS_LESS);
    /* VRAM holds Z 0: without the ZMASK nothing at 0.2 would pass */
    rect(&c, -1, -1, 1, 1, 0.2f, 1, 0, 0);      /* 0.6: fails against 0.5 */
    rect(&c, -1, -1, 0, 1, -0.2f, 0, 1, 0);     /* 0.4: passes, left half */
    r300_cmd_finish(&c);
    run(d, &c);
    memcpy(&p, d->vram + CB_ADDR + 4 * (H / 2 * W + W / 4), 4);
    g_assert_cmphex(p, ==, 0xFF00FF00u);
    memcpy(&p, d->vram + CB_ADDR + 4 * (H / 2 * W + 3 * W / 4), 4);
    g_assert_cmphex(p, ==, 0x5A5A5A5Au);

    /* HiZ says "everything at Z 0" while VRAM is at 0.4 and 0.5 */
    r300_rig_cmd_begin(&c, buf, G_N_ELEMENTS(buf));
    r300_cmd_reg(&c, A_ZB_HIZ_OFFSET, 0);
    r300_cmd_reg(&c, A_ZB_HIZ_PITCH, W);
    pkt_clear(&c, R300_PKT3_3D_CLEAR_HIZ, W * H / 128, 0);
    r300_cmd_reg(&c, A_ZB_BW_CNTL, HIZ_ENABLE | FAST_FILL | RD_COMP | WR_COMP);
    /* HZ_MAX (a GREATER test's side): this HiZ rejects nothing */
    r300_cmd_reg(&c, A_SC_HYPERZ_EN, R_SC_HYPERZ_EN_HZ_EN_MASK |
                                     R_SC_HYPERZ_EN_HZ_MAX_MASK);
    rect(&c, -1, -1, 1, 1, -0.8f, 1, 1, 1);     /* 0.1: drawn */
    r300_cmd_finish(&c);
    run(d, &c);
    memcpy(&p, d->vram + CB_ADDR + 4 * (H / 2 * W + W / 4), 4);
    g_assert_cmphex(p, ==, 0xFFFFFFFFu);
    r300_rig_free(d);

    /* without HZ_MAX the 0.2 rectangle is rejected */
    d = dev_new(0);
    r300_rig_cmd_begin(&c, buf, G_N_ELEMENTS(buf));
    r300_cmd_reg(&c, A_ZB_HIZ_OFFSET, 0);
    r300_cmd_reg(&c, A_ZB_HIZ_PITCH, W);
    r300_cmd_depth(&c, 1, R300_ZS_ALWAYS);
    rect(&c, -1, -1, 1, 1, 1, 0, 0, 0);         /* Z 1 everywhere */
    pkt_clear(&c, R300_PKT3_3D_CLEAR_HIZ, W * H / 128, 0);
    r300_cmd_depth(&c, 1, R300_ZS_LESS);
    r300_cmd_reg(&c, A_ZB_BW_CNTL, HIZ_ENABLE);
    r300_cmd_reg(&c, A_SC_HYPERZ_EN, R_SC_HYPERZ_EN_HZ_EN_MASK);
    rect(&c, -1, -1, 1, 1, -0.6f, 0, 0, 1);
    r300_cmd_finish(&c);
    run(d, &c);
    memcpy(&p, d->vram + CB_ADDR + 4 * (H / 2 * W + W / 4), 4);
    g_assert_cmphex(p, ==, 0xFF000000u);
    g_assert_cmphex(zpx(d, W / 4, H / 2) >> 24, ==, 0xFF);
    r300_rig_free(d);
}

/* bad offsets, pitches, clear lengths and port indices: logged, skipped */
static void test_bad_input(void)
{
    Dev *d = dev_new(0);
    unsigned errs = g3d_log_count(G3D_LOG_GUEST_ERROR);

    /*
     * a ZMASK pitch narrower than the buffer, a HiZ offset at the RAM's
     * end, clears longer than the RAMs: the clears clipped, every draw
     * without the feature it cannot address (and the fast clear lost)
     */
    static const HyperZSetup bad = { 32, 0x1FFF0, 0x7FFFFFFF, 0xFFFFFFFF };
    unsigned errs_clear, i;

    scene_with(d, &bad, 0xFFFFFF00u);
    errs_clear = g3d_log_count(G3D_LOG_GUEST_ERROR) - errs;
    /* 2 clears, 2 per draw with Z (7 scene draws and the decompression) */
    g_assert_cmpuint(errs_clear, ==, 2 + 2 * 7 + 1);
    /* VRAM's stale Z 0 was never replaced by the clear value: every
     * fragment failed LESS, the colour is the clear's grey */
    for (i = 0; i < W * H; i++) {
        uint32_t zw, cw;
        memcpy(&zw, d->vram + ZB_ADDR + 4 * i, 4);
        memcpy(&cw, d->vram + CB_ADDR + 4 * i, 4);
        g_assert_cmphex(zw, ==, 0);
        /* 0.5 interpolated: 127 or 128 */
        g_assert_true(cw == 0xFF7F7F7Fu || cw == 0xFF808080u);
    }
    /* port indices past the ZMASK RAM: a read gives 0, a write is dropped */
    errs = g3d_log_count(G3D_LOG_GUEST_ERROR);
    r300_rig_wr(d, A_ZB_ZMASK_WRINDEX, 0x1FFF8);
    r300_rig_wr(d, A_ZB_ZMASK_DWORD, 0x12345678);
    g_assert_cmphex(port_read(d, false, 0x7FFE), ==, 0);
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errs + 2);
    /* in range: broadcast to both pipes, +2 dwords per access */
    r300_rig_wr(d, A_ZB_HIZ_WRINDEX, 0x40);
    r300_rig_wr(d, A_ZB_HIZ_DWORD, 0xCAFEF00D);
    g_assert_cmphex(r300_rig_rd(d, A_ZB_HIZ_WRINDEX), ==, 0x48);
    g_assert_cmphex(port_read(d, true, 0x10), ==, 0xCAFEF00D);
    g_assert_cmphex(port_read(d, true, 0x11), ==, 0xCAFEF00D);
    g_assert_cmphex(r300_rig_rd(d, A_ZB_HIZ_RDINDEX), ==, 0x4C);
    r300_rig_free(d);
}

/*
 * CMASK: Mesa's fast clear of a multisampled colour buffer (r300_blit.c
 * r300_clear: 3D_CLEAR_CMASK, RB3D_COLOR_CLEAR_VALUE, RB3D_CCTL
 * CMASK_ENABLE | AA_COMPRESSION_ENABLE, RB3D_CMASK_OFFSET0/PITCH0; the
 * colour is not drawn), then a triangle and the AA resolve; the same as
 * the samples cleared by writing them.
 */
#define MS_N            4
#define RESOLVE_ADDR    0x00200000u
#define CCTL_AA_COMPRESSION (1u << 9)       /* Mesa r300_reg.h */

static void cmask_frame(Dev *d, bool cmask, uint32_t clear)
{
    /* 4x at Mesa's positions (r300_emit.c sample_locs_4x), 1/12 pixel */
    const float tri[3 * 8] = {
        -0.8f, -0.7f, 0, 1, 1, 0, 0, 1,   0.9f, -0.6f, 0, 1, 0, 1, 0, 1,
        -0.1f,  0.8f, 0, 1, 0, 0, 1, 1,
    };
    const float screen[3 * 8] = {
        -1, -1, 0, 1, 0, 0, 0, 0,   3, -1, 0, 1, 0, 0, 0, 0,
        -1, 3, 0, 1, 0, 0, 0, 0,
    };
    R300Cmd c;
    uint32_t i;

    memset(d->vram + RESOLVE_ADDR, 0x33, 4 * W * H);
    for (i = 0; i < W * H * MS_N; i++) {
        uint32_t v = cmask ? 0x5A5A5A5Au : clear;
        memcpy(d->vram + CB_ADDR + 4 * i, &v, 4);
    }
    r300_rig_cmd_begin(&c, buf, G_N_ELEMENTS(buf));
    r300_cmd_depth(&c, 0, R300_ZS_ALWAYS);
    r300_cmd_reg(&c, A_GB_AA_CONFIG, R_GB_AA_CONFIG_AA_ENABLE_MASK |
                 2u << R_GB_AA_CONFIG_NUM_AA_SUBSAMPLES_SHIFT);
    r300_cmd_reg(&c, A_GB_MSPOS0, 0x2A8844);
    r300_cmd_reg(&c, A_GB_MSPOS1, 0x2A2A2A);
    if (cmask) {
        r300_cmd_reg(&c, A_RB3D_CMASK_OFFSET0, 0);
        r300_cmd_reg(&c, A_RB3D_CMASK_PITCH0, W);
        r300_cmd_reg(&c, A_RB3D_COLOR_CLEAR_VALUE, clear);
        pkt_clear(&c, R300_PKT3_3D_CLEAR_CMASK, W * H / 512, 0);
        r300_cmd_reg(&c, A_RB3D_CCTL, R300_RB3D_CCTL_CMASK_ENABLE |
                                      CCTL_AA_COMPRESSION);
    }
    r300_cmd_draw(&c, R300_PRIM_TRIANGLES, tri, 3);
    r300_cmd_reg(&c, A_RB3D_AARESOLVE_OFFSET, RESOLVE_ADDR);
    r300_cmd_reg(&c, A_RB3D_AARESOLVE_PITCH, W);
    r300_cmd_reg(&c, A_RB3D_AARESOLVE_CTL, 1);
    r300_cmd_draw(&c, R300_PRIM_TRIANGLES, screen, 3);
    r300_cmd_reg(&c, A_RB3D_AARESOLVE_CTL, 0);
    r300_cmd_reg(&c, A_GB_AA_CONFIG, 0);
    r300_cmd_reg(&c, A_RB3D_CCTL, 0);
    r300_cmd_finish(&c);
    run(d, &c);
}

static void test_cmask(void)
{
    const uint32_t clear = 0xFF203040u;
    Dev *plain = dev_new(0), *d = dev_new(0);
    unsigned errs = g3d_log_count(G3D_LOG_GUEST_ERROR);
    uint32_t i, v;

    cmask_frame(plain, false, clear);
    cmask_frame(d, true, clear);
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errs);
    g_assert_true(!memcmp(plain->vram + RESOLVE_ADDR, d->vram + RESOLVE_ADDR,
                          4 * W * H));
    g_assert_true(!memcmp(plain->vram + CB_ADDR, d->vram + CB_ADDR,
                          4 * W * H * MS_N));
    /* the resolve read every block: all "in memory" now, in both pipes
     * (a read advances RDINDEX two dwords: one pipe's) */
    for (v = 0; v < 2; v++) {
        r300_rig_wr(d, A_RB3D_CMASK_RDINDEX, 4 * v);
        for (i = 0; i < W * H / 512; i++) {
            g_assert_cmphex(r300_rig_rd(d, A_RB3D_CMASK_DWORD), ==,
                            0xFFFFFFFFu);
        }
        g_assert_cmphex(r300_rig_rd(d, A_RB3D_CMASK_DWORD), ==, 0);
    }
    /* a corner the triangle misses resolves to the clear colour */
    memcpy(&v, d->vram + RESOLVE_ADDR + 4 * (W - 1), 4);
    g_assert_cmphex(v, ==, clear);
    r300_rig_free(plain);
    r300_rig_free(d);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_data_func("/r300/hyperz/same-image/linear",
                         GUINT_TO_POINTER(0), test_same_image);
    g_test_add_data_func("/r300/hyperz/same-image/tiled",
                         GUINT_TO_POINTER(ZB_MACRO | ZB_MICRO),
                         test_same_image);
    g_test_add_func("/r300/hyperz/ram-layout", test_ram_layout);
    g_test_add_func("/r300/hyperz/clear-value-and-reject",
                    test_clear_value_and_reject);
    g_test_add_func("/r300/hyperz/bad-input", test_bad_input);
    g_test_add_func("/r300/hyperz/cmask", test_cmask);
    return g_test_run();
}
