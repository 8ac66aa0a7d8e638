/*
 * The R300 core's saved state (r300_state_save/_load): a scene interrupted
 * after any packet, saved, loaded into a fresh core over a copy of the
 * memory and finished there, gives the bytes of the uninterrupted run; the
 * same in the middle of an indirect buffer and of a VAP port draw; every
 * field survives save -> load -> save; damaged streams fail with a message
 * and leave the core reset (tests/state-test.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "r300-rig.h"
#include "../state-test.h"

#define VRAM_SIZE   (8u << 20)
#define RING_BUFSZ  13              /* 64 KiB ring at 0 */
#define IB_ADDR     0x00020000u
#define CB_ADDR     0x00100000u
#define ZB_ADDR     0x00300000u
#define W 96
#define H 64

static const float identity[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0,
                                    0, 0, 0, 1 };
static const float tri_a[3 * 8] = {
    -0.8f, -0.7f, 0.3f, 1, 1, 0, 0, 1,   0.9f, -0.6f, 0.1f, 1, 0, 1, 0, 1,
    -0.1f,  0.8f, 0.2f, 1, 0, 0, 1, 1,
};
static const float tri_b[3 * 8] = {
    -1, 1, -0.5f, 1, 0, 1, 0, 0.5f,   1, 1, 0.5f, 1, 0, 1, 1, 0.5f,
     0, -1, 0.0f, 1, 1, 1, 0, 0.5f,
};
static const float tri_c[3 * 8] = {
    -0.5f, -1, 0.9f, 1, 0.25f, 0.5f, 0.75f, 1,   1, -0.2f, -0.9f, 1, 1, 1, 1, 1,
    -0.9f, 0.9f, 0.0f, 1, 0, 0, 0, 1,
};

/* The scene's ring (returned) and its indirect buffer, in `vram`. */
static uint32_t scene(uint8_t *vram, uint32_t *ring, uint32_t cap)
{
    static uint32_t ib[4096];
    R300Surface cb = { CB_ADDR, W, R300_COLOR_FORMAT_ARGB8888 };
    R300Surface zb = { ZB_ADDR, W, R300_DEPTHFORMAT_24BIT_INT_Z_8BIT_STENCIL };
    R300Cmd c, ic;

    r300_rig_cmd_begin(&ic, ib, G_N_ELEMENTS(ib));
    r300_cmd_reg(&ic, A_RB3D_BLENDCNTL,
                 R_RB3D_BLENDCNTL_ALPHA_BLEND_ENABLE_MASK |
                 R300_BLEND_GL_ONE << R_RB3D_BLENDCNTL_SRCBLEND_SHIFT |
                 R300_BLEND_GL_ONE << R_RB3D_BLENDCNTL_DESTBLEND_SHIFT);
    r300_cmd_draw(&ic, R300_PRIM_TRIANGLES, tri_b, 3);
    r300_cmd_reg(&ic, A_RB3D_BLENDCNTL, 0);
    r300_cmd_draw(&ic, R300_PRIM_TRIANGLES, tri_c, 3);
    g_assert_false(ic.overflow);
    memcpy(vram + IB_ADDR, ib, 4 * ic.n);

    r300_rig_cmd_begin(&c, ring, cap);
    r300_cmd_pipeline(&c, &cb, &zb, W, H);
    r300_cmd_clear(&c, 0.1f, 0.2f, 0.3f, 1);
    r300_cmd_matrix(&c, identity);
    r300_cmd_depth(&c, 1, R300_ZS_LESS);
    r300_cmd_draw(&c, R300_PRIM_TRIANGLES, tri_a, 3);
    r300_cmd_reg(&c, A_SCRATCH_REG0, 0x1111);
    r300_cmd_dw(&c, R300_PACKET0(A_CP_IB_BASE, 1));
    r300_cmd_dw(&c, IB_ADDR);
    r300_cmd_dw(&c, ic.n);
    r300_cmd_draw(&c, R300_PRIM_TRIANGLES, tri_a, 3);
    r300_cmd_finish(&c);
    g_assert_false(c.overflow);
    return c.n;
}

static R300Rig *rig_new(void)
{
    R300Rig *d = r300_rig_new(2, VRAM_SIZE, RING_BUFSZ);

    r300_rig_ring_init(d);
    return d;
}

/* the scene's ring written, WPTR moved: the CP is ready to run it */
static void rig_load_scene(R300Rig *d)
{
    static uint32_t ring[8192];
    uint32_t n = scene(d->vram, ring, G_N_ELEMENTS(ring));

    memcpy(d->vram, ring, 4 * n);
    r300_rig_wr(d, A_CP_RB_WPTR, n);
}

/* one packet at a time; the packets run */
static unsigned run(R300Rig *d, unsigned steps)
{
    unsigned k = 0;

    while (k < steps && r300_core_work(d->core, 1)) {
        k++;
    }
    return k;
}

static void op_save(void *core, G3DStateOut *o)
{
    r300_state_save(core, o);
}

static bool op_load(void *core, G3DStateIn *in)
{
    return r300_state_load(core, in);
}

static void op_exercise(void *core)
{
    unsigned i;

    for (i = 0; i < 64 && r300_core_work(core, 4); i++) {
    }
    r300_reg_read(core, A_RBBM_STATUS, 4);
    r300_reg_write(core, A_CP_RB_WPTR, 3, 4);
    r300_core_work(core, 4);
}

static const G3DStateTestOps ops = { op_save, op_load, op_exercise };

/* `to` gets `from`'s memory and state, as a migration moves them */
static void migrate(R300Rig *from, R300Rig *to)
{
    size_t len;
    uint8_t *s = g3d_state_test_save(&ops, from->core, &len);

    memcpy(to->vram, from->vram, VRAM_SIZE);
    memcpy(to->sysram, from->sysram, sizeof(to->sysram));
    g3d_state_test_roundtrip(&ops, to->core, s, len);
    g_free(s);
}

static void same_memory_and_state(R300Rig *a, R300Rig *b)
{
    size_t la, lb;
    uint8_t *sa = g3d_state_test_save(&ops, a->core, &la);
    uint8_t *sb = g3d_state_test_save(&ops, b->core, &lb);

    g_assert_true(memcmp(a->vram, b->vram, VRAM_SIZE) == 0);
    g_assert_cmpuint(la, ==, lb);
    g_assert_true(memcmp(sa, sb, la) == 0);
    g_free(sa);
    g_free(sb);
}

/* Interrupted after every packet of the scene, ring and indirect buffer. */
static void test_split_scene(void)
{
    R300Rig *ref = rig_new();
    unsigned total, k;

    rig_load_scene(ref);
    total = run(ref, 100000);
    g_assert_cmpuint(total, >, 10);
    g_assert_cmphex(r300_rig_rd(ref, A_SCRATCH_REG0), ==, 0x1111);
    /* something was drawn: not the clear colour everywhere */
    g_assert_true(memcmp(ref->vram + CB_ADDR,
                         ref->vram + CB_ADDR + 4 * W * H / 2, 4 * W) != 0);

    for (k = 0; k <= total; k++) {
        R300Rig *a = rig_new(), *b = rig_new();

        rig_load_scene(a);
        g_assert_cmpuint(run(a, k), ==, k);
        /* b is a fresh process; a goes on, so the source stays usable */
        migrate(a, b);
        run(a, 100000);
        run(b, 100000);
        same_memory_and_state(ref, b);
        same_memory_and_state(a, b);
        r300_rig_free(a);
        r300_rig_free(b);
    }
    r300_rig_free(ref);
}

/* A draw fed through the VAP data port, saved with half its vertices. */
static void test_split_port_draw(void)
{
    static uint32_t ring[8192];
    R300Surface cb = { CB_ADDR, W, R300_COLOR_FORMAT_ARGB8888 };
    R300Surface zb = { ZB_ADDR, 0, R300_DEPTHFORMAT_24BIT_INT_Z_8BIT_STENCIL };
    R300Rig *d[2];
    unsigned i, r;
    R300Cmd c;

    for (r = 0; r < 2; r++) {
        d[r] = rig_new();
        r300_rig_cmd_begin(&c, ring, G_N_ELEMENTS(ring));
        r300_cmd_pipeline(&c, &cb, &zb, W, H);
        r300_cmd_matrix(&c, identity);
        r300_rig_ring_run(d[r], ring, c.n);
        r300_rig_wr(d[r], A_VAP_VF_MAX_VTX_INDX, 2);
        r300_rig_wr(d[r], A_VAP_VF_CNTL, R300_PRIM_TRIANGLES |
                    R300_PRIM_WALK_RING << R_VAP_VF_CNTL_PRIM_WALK_SHIFT |
                    3u << R_VAP_VF_CNTL_NUM_VERTICES_SHIFT);
    }
    for (i = 0; i < 24; i++) {
        uint32_t u;

        if (i == 11) {
            R300Rig *b = rig_new();

            migrate(d[1], b);
            r300_rig_free(d[1]);
            d[1] = b;
        }
        memcpy(&u, &tri_a[i], 4);
        for (r = 0; r < 2; r++) {
            r300_rig_wr(d[r], A_VAP_PORT_DATA_0 + 4 * (i % 16), u);
        }
    }
    /* drawn, and the same */
    g_assert_cmphex(*(uint32_t *)(d[0]->vram + CB_ADDR +
                                  4 * (W * H / 2 + W / 2)), !=, 0);
    same_memory_and_state(d[0], d[1]);
    r300_rig_free(d[0]);
    r300_rig_free(d[1]);
}

/*
 * Every field survives: a state with all of them away from their reset
 * values (a CRTC mode and flip, palette, PLL, DDC in a transfer, PVS
 * memory, HiZ, a port draw armed) round-trips to the same bytes.
 */
static void test_roundtrip(void)
{
    R300Rig *a = rig_new(), *b = rig_new();
    uint8_t *s;
    size_t len;

    rig_load_scene(a);
    run(a, 7);
    r300_rig_wr(a, A_CRTC_OFFSET, 0x4000);
    r300_rig_wr(a, A_PALETTE_INDEX, 5);
    r300_rig_wr(a, A_PALETTE_DATA, 0x123456);
    r300_rig_wr(a, A_GPIO_VGA_DDC, 0);
    r300_rig_wr(a, A_VAP_VF_CNTL, R300_PRIM_TRIANGLES |
                R300_PRIM_WALK_RING << R_VAP_VF_CNTL_PRIM_WALK_SHIFT |
                3u << R_VAP_VF_CNTL_NUM_VERTICES_SHIFT);
    r300_rig_wr(a, A_VAP_PORT_DATA_0, 0x3f800000);
    s = g3d_state_test_save(&ops, a->core, &len);
    g3d_state_test_roundtrip(&ops, b->core, s, len);
    g_free(s);
    r300_rig_free(a);
    r300_rig_free(b);
}

/* Bad streams: the common damages, then the r300's own checks. */
static void test_bad_streams(void)
{
    R300Rig *a = rig_new(), *fresh = r300_rig_new(2, VRAM_SIZE, RING_BUFSZ);
    R300Rig *small = r300_rig_new(1, VRAM_SIZE / 2, RING_BUFSZ);
    uint8_t *s, *reset;
    size_t len, reset_len;
    uint32_t v;
    const char *iters = g_getenv("GPU3D_STATE_MUTATIONS");

    rig_load_scene(a);
    run(a, 9);
    g_assert_cmpuint(r300_reg_read(a->core, A_CP_RB_RPTR, 4), >, 16);
    s = g3d_state_test_save(&ops, a->core, &len);
    reset = g3d_state_test_save(&ops, fresh->core, &reset_len);

    g3d_state_test_bad(&ops, fresh->core, s, len, reset, reset_len,
                       iters ? atoi(iters) : 2000);

    /* a ring of 16 dwords (CP_RB_CNTL in the saved register file): the
     * saved read pointer is past its end */
    memcpy(&v, s + 12 + A_CP_RB_CNTL, 4);
    v = (v & ~R_CP_RB_CNTL_RB_BUFSZ_MASK) | 3;
    memcpy(s + 12 + A_CP_RB_CNTL, &v, 4);
    g3d_state_test_fails(&ops, fresh->core, s, len, "ring read pointer");
    /* the same stream into a device with other VRAM */
    g_free(s);
    s = g3d_state_test_save(&ops, a->core, &len);
    g3d_state_test_fails(&ops, small->core, s, len, "VRAM");
    g_free(s);
    g_free(reset);
    r300_rig_free(a);
    r300_rig_free(fresh);
    r300_rig_free(small);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/r300/state/split-scene", test_split_scene);
    g_test_add_func("/r300/state/split-port-draw", test_split_port_draw);
    g_test_add_func("/r300/state/roundtrip", test_roundtrip);
    g_test_add_func("/r300/state/bad-streams", test_bad_streams);
    return g_test_run();
}
