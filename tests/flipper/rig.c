/*
 * Test rig (see rig.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "rig.h"

#include <stdlib.h>
#include <string.h>

#include "common/scanout.h"
#include "gpu3d/flipper-cmd.h"
#include "gx-build.h"

static int64_t rig_clock(void *opaque)
{
    return ((FlipperRig *)opaque)->clock_ns;
}

FlipperCore *rig_core_new(FlipperRig *r, int threads)
{
    FlipperCoreConfig cfg = { 0 };

    cfg.vram = r->mem;
    cfg.vram_size = FLIPPER_MEM1_SIZE;
    cfg.hooks.threads = threads;
    cfg.clock_ns = rig_clock;
    cfg.hooks.opaque = r;
    return flipper_core_new(&cfg);
}

FlipperRig *rig_new(int threads)
{
    FlipperRig *r = g_new0(FlipperRig, 1);

    r->mem1 = g_malloc0(FLIPPER_MEM1_SIZE);
    g3d_flat_mem_init(&r->mem, &r->flat, r->mem1, 0, FLIPPER_MEM1_SIZE);
    r->core = rig_core_new(r, threads);
    return r;
}

void rig_free(FlipperRig *r)
{
    if (r) {
        flipper_core_free(r->core);
        g_free(r->mem1);
        g_free(r->surface);
        g_free(r);
    }
}

uint32_t rig_r16(FlipperRig *r, uint32_t off)
{
    return (uint32_t)flipper_reg_read(r->core, off, 2);
}

uint32_t rig_r32(FlipperRig *r, uint32_t off)
{
    return (uint32_t)flipper_reg_read(r->core, off, 4);
}

void rig_w16(FlipperRig *r, uint32_t off, uint32_t v)
{
    flipper_reg_write(r->core, off, v & 0xFFFF, 2);
}

void rig_w32(FlipperRig *r, uint32_t off, uint32_t v)
{
    flipper_reg_write(r->core, off, v, 4);
}

uint32_t rig_cp32(FlipperRig *r, uint32_t off)
{
    return rig_r16(r, off) | rig_r16(r, off + 2) << 16;
}

void rig_set_cp32(FlipperRig *r, uint32_t off, uint32_t v)
{
    rig_w16(r, off, v);
    rig_w16(r, off + 2, v >> 16);
}

static void rig_seq(FlipperRig *r, const FlipperRegWrite *w, unsigned n)
{
    unsigned i;

    for (i = 0; i < n; i++) {
        flipper_reg_write(r->core, w[i].off, w[i].val, w[i].size);
    }
}

void rig_fifo_init(FlipperRig *r, uint32_t base, uint32_t size)
{
    FlipperRegWrite w[FGX_FIFO_INIT_WRITES];

    /* read enable and link; interrupts as the test wants them */
    rig_seq(r, w, fgx_fifo_init(w, base, size));
}

void rig_run(FlipperRig *r)
{
    int guard = 0;

    /* in the device's steps */
    while (flipper_core_work(r->core, FLIPPER_WORK_BUDGET)) {
        g_assert_cmpint(++guard, <, 1 << 20);
    }
}

void rig_wgp_write(FlipperRig *r, const uint8_t *p, size_t n)
{
    size_t i = 0;

    for (; i + 4 <= n; i += 4) {
        uint32_t v = (uint32_t)p[i] << 24 | p[i + 1] << 16 | p[i + 2] << 8 |
                     p[i + 3];
        flipper_reg_write(r->core, FLIPPER_WGP_BASE, v, 4);
    }
    for (; i < n; i++) {
        flipper_reg_write(r->core, FLIPPER_WGP_BASE, p[i], 1);
    }
}

void rig_submit(FlipperRig *r, const uint8_t *p, size_t len)
{
    static const uint8_t nops[32];
    uint32_t ring = rig_cp32(r, A_CP_FIFO_END_LO) -
                    rig_cp32(r, A_CP_FIFO_BASE_LO) + 32;
    size_t pos = 0;

    while (pos < len) {
        size_t n = MIN(32, len - pos);
        /* the CPU waits while the ring is nearly full */
        while (rig_cp32(r, A_CP_FIFO_DIST_LO) + 64 > ring) {
            flipper_core_work(r->core, FLIPPER_WORK_BUDGET);
        }
        rig_wgp_write(r, p + pos, n);
        pos += n;
    }
    /* push out the partial burst, as GX_Flush does */
    rig_wgp_write(r, nops, (32 - len % 32) % 32);
    rig_run(r);
}

void rig_run_scene(FlipperRig *r, const FlipperScene *s)
{
    GByteArray *pro = flipper_scene_prologue(s);
    guint i;

    for (i = 0; i < s->mem->len; i++) {
        const SceneBlob *b = &g_array_index(s->mem, SceneBlob, i);
        g_assert(g3d_range_ok(b->addr, b->data->len, 0, FLIPPER_MEM1_SIZE));
        memcpy(r->mem1 + b->addr, b->data->data, b->data->len);
    }
    rig_submit(r, pro->data, pro->len);
    rig_submit(r, s->fifo->data, s->fifo->len);
    g_byte_array_unref(pro);
}

void rig_vi_init(FlipperRig *r, uint32_t xfb)
{
    size_t i;

    /* the doc's NTSC snapshot (YAGCD §5.3.1 video modes), as the guest demo
     * writes it */
    for (i = 0; i < G_N_ELEMENTS(fgx_vi_ntsc640); i++) {
        const FlipperRegWrite *w = &fgx_vi_ntsc640[i];
        uint32_t v = w->val;
        if (w->off == A_VI_TFBL || w->off == A_VI_BFBL) {
            v = v - FGX_XFB_ADDR + xfb;         /* libogc: full address */
        }
        flipper_reg_write(r->core, w->off, v, w->size);
    }
}

const uint32_t *rig_scanout_argb(FlipperRig *r, uint32_t *width,
                                 uint32_t *height)
{
    G3DScanout so;
    size_t n;

    if (!flipper_scanout(r->core, 0, &so)) {
        return NULL;
    }
    n = (size_t)so.width * so.height;
    if (n > r->surface_len) {
        g_free(r->surface);
        r->surface = g_new(uint32_t, n);
        r->surface_len = n;
    }
    if (!g3d_scanout_copy(&so, &r->mem, r->surface, so.width, "rig")) {
        return NULL;
    }
    *width = so.width;
    *height = so.height;
    return r->surface;
}

bool rig_scanout(FlipperRig *r, G3DImage *img)
{
    const uint32_t *px;
    uint32_t w, h;

    px = rig_scanout_argb(r, &w, &h);
    if (!px || !g3d_image_alloc(img, (int)w, (int)h)) {
        return false;
    }
    g3d_image_from_argb(img, px, (int)w);
    return true;
}

char *rig_src_path(const char *rel)
{
    const char *src = getenv("GPU3D_SRCDIR");

    return g_build_filename(src ? src : ".", "tests", "flipper", rel, NULL);
}

void rig_bp(FlipperRig *r, uint8_t reg, uint32_t val)
{
    GByteArray *b = g_byte_array_new();

    gx_bp(b, reg, val);
    flipper_gx_exec(r->core, b->data, b->len);
    g_byte_array_unref(b);
}
