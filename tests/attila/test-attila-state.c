/*
 * The attila-3d core's saved state (attila_state_save/_load): the demo's
 * scene (two frames, each cleared, drawn and swapped) fed through the ring,
 * interrupted after any record, saved, loaded into a fresh core over a
 * copy of the memories and finished there, gives the bytes and the DAC
 * picture of the uninterrupted run; every field survives save -> load ->
 * save; damaged streams fail with a message and leave the core reset
 * (tests/state-test.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "attila-run.h"
#include "attila-scene.h"
#include "../state-test.h"

#define GPU_SIZE    (32u << 20)
#define SYS_SIZE    (1u << 20)
#define RING        0x01c00000u
#define RING_SIZE   0x00010000u
#define SW 64
#define SH 48

static void op_save(void *core, G3DStateOut *o)
{
    attila_state_save(core, o);
}

static bool op_load(void *core, G3DStateIn *in)
{
    return attila_state_load(core, in);
}

static void op_exercise(void *core)
{
    unsigned i;

    for (i = 0; i < 64 && attila_core_work(core, 4); i++) {
    }
    attila_reg_read(core, A_ATTILA_STATUS, 4);
}

static bool op_step(void *core)
{
    return attila_core_work(core, 1);
}

static const G3DStateTestOps ops = { op_save, op_load, op_exercise, op_step };

static AttilaRun *rig_new(void)
{
    AttilaRun *r = attila_run_new(GPU_SIZE, SYS_SIZE, 2);

    g_assert_nonnull(r);
    return r;
}

/* the scene's records in the ring, RING_WRITE moved: nothing run yet */
static AttilaRun *rig_scene(void)
{
    AttilaRun *r = rig_new();
    static uint8_t buf[RING_SIZE];
    AttilaRecBuf b = { buf, 0, sizeof(buf), 0 };
    int f;

    scene_vertices((float *)r->sys);
    attila_scene_setup(&b, SW, SH, 0x80000000u);
    for (f = 0; f < 2; f++) {
        attila_scene_frame(&b, f, SW, SH);
    }
    g_assert_false(b.overflow);
    g_assert_cmpuint(b.n, <, RING_SIZE);
    memcpy(r->gpu + RING, buf, b.n);
    attila_reg_write(r->core, A_ATTILA_RING_BASE, RING, 4);
    attila_reg_write(r->core, A_ATTILA_RING_SIZE, RING_SIZE, 4);
    attila_reg_write(r->core, A_ATTILA_RING_WRITE, b.n, 4);
    attila_reg_write(r->core, A_ATTILA_RING_CONTROL,
                     R_ATTILA_RING_CONTROL_ENABLE_MASK, 4);
    return r;
}

static unsigned run(AttilaRun *r, unsigned steps)
{
    return g3d_state_test_run(&ops, r->core, steps);
}

static void migrate(AttilaRun *from, AttilaRun *to)
{
    memcpy(to->sys, from->sys, SYS_SIZE);
    g3d_state_test_move(&ops, from->core, to->core, from->gpu, to->gpu,
                        GPU_SIZE);
}

static void same(AttilaRun *a, AttilaRun *b)
{
    g3d_state_test_same(&ops, a->core, b->core, a->gpu, b->gpu, GPU_SIZE);
}

static void test_split_scene(void)
{
    AttilaRun *ref = rig_scene();
    unsigned total, k, stride;
    G3DScanout so;

    total = run(ref, 1000000);
    g_assert_cmpuint(total, >, 20);
    /* the second frame is on the DAC */
    g_assert_true(attila_scanout(ref->core, 0, &so));
    g_assert_cmpuint(so.width, ==, SW);
    g_assert_cmpuint(attila_reg_read(ref->core, A_ATTILA_STATUS, 4) &
                     R_ATTILA_STATUS_ERROR_MASK, ==, 0);

    /* every record near the draws and swaps, every third before them */
    stride = 1;
    for (k = 0; k <= total; k += (k < total - 24 ? 3 : stride)) {
        AttilaRun *a = rig_scene(), *b = rig_new();

        g_assert_cmpuint(run(a, k), ==, k);
        migrate(a, b);
        run(a, 1000000);
        run(b, 1000000);
        same(ref, b);
        same(a, b);
        attila_run_free(a);
        attila_run_free(b);
    }
    attila_run_free(ref);
}

static void test_bad_streams(void)
{
    AttilaRun *a = rig_scene(), *fresh = rig_new();
    uint8_t *s, *reset;
    size_t len, reset_len;
    uint32_t v;
    const char *iters = g_getenv("GPU3D_STATE_MUTATIONS");

    run(a, 1000000);
    s = g3d_state_test_save(&ops, a->core, &len);
    /* the rig opens system memory: a failed load leaves a reset core */
    attila_core_reset(fresh->core);
    reset = g3d_state_test_save(&ops, fresh->core, &reset_len);
    g3d_state_test_bad(&ops, fresh->core, s, len, reset, reset_len,
                       iters ? atoi(iters) : 2000);

    /* RING_READ (after the header, the error latch's 21 bytes and 4 words)
     * past the ring */
    memcpy(&v, s + 8 + 21 + 4 * 3, 4);
    g_assert_cmphex(v, ==, RING_SIZE);
    v = RING_SIZE;
    memcpy(s + 8 + 21 + 4 * 4, &v, 4);
    g3d_state_test_fails(&ops, fresh->core, s, len, "ring pointers");
    g_free(s);
    g_free(reset);
    attila_run_free(a);
    attila_run_free(fresh);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/attila/state/split-scene", test_split_scene);
    g_test_add_func("/attila/state/bad-streams", test_bad_streams);
    return g_test_run();
}
