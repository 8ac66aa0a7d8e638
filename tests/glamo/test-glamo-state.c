/*
 * The glamo core's saved state (glamo_state_save/_load): the reference
 * scene sent through the command queue (with a long burst), interrupted
 * after any work unit, saved, loaded into a fresh core over a copy of VRAM
 * and finished there, gives the bytes of the uninterrupted run; every
 * field survives save -> load -> save; damaged streams fail with a message
 * and leave the core reset (tests/state-test.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "rig.h"
#include "../state-test.h"

#define FB      0x000000
#define ZB      0x040000
#define VB      0x100000
#define RING    0x200000
#define RINGSZ  0x4000

static void op_save(void *core, G3DStateOut *o)
{
    glamo_state_save(core, o);
}

static bool op_load(void *core, G3DStateIn *in)
{
    return glamo_state_load(core, in);
}

static void op_exercise(void *core)
{
    unsigned i;

    for (i = 0; i < 64 && glamo_core_work(core, 8); i++) {
    }
    glamo_reg_read(core, A_EGSTATUSA, 2);
}

static bool op_step(void *core)
{
    return glamo_core_work(core, 1);
}

static const G3DStateTestOps ops = { op_save, op_load, op_exercise, op_step };

/* the scene queued in the command queue, not yet run */
static void rig_scene_queued(GlamoRig *r)
{
    uint16_t pal[200];
    unsigned i;

    rig_init(r, 2);
    rig_enable_3d(r);
    rig_cmdq_init(r, RING, RINGSZ);
    /* a burst longer than one work unit (64 words): the TX1 palette */
    for (i = 0; i < G_N_ELEMENTS(pal); i++) {
        pal[i] = (uint16_t)(i * 0x0123);
    }
    rig_cmd_burst(r, 0x1C00, pal, G_N_ELEMENTS(pal));
    rig_scene(r, rig_cmd32, FB, ZB, VB);
    rig_cmd_submit(r);
}

static unsigned run(GlamoRig *r, unsigned steps)
{
    return g3d_state_test_run(&ops, r->core, steps);
}

static void migrate(GlamoRig *from, GlamoRig *to)
{
    g3d_state_test_move(&ops, from->core, to->core, from->vram, to->vram,
                        GLAMO_VRAM_SIZE);
}

static void same(GlamoRig *a, GlamoRig *b)
{
    g3d_state_test_same(&ops, a->core, b->core, a->vram, b->vram,
                        GLAMO_VRAM_SIZE);
}

static void test_split_scene(void)
{
    GlamoRig ref;
    unsigned total, k;

    rig_scene_queued(&ref);
    total = run(&ref, 1000000);
    g_assert_cmpuint(total, >, 8);
    /* drawn: the frame is not all one colour */
    g_assert_true(memcmp(ref.vram + FB, ref.vram + FB + 256 * 2 * 96, 256 * 2));

    for (k = 0; k <= total; k++) {
        GlamoRig a, b;

        rig_scene_queued(&a);
        rig_init(&b, 2);
        g_assert_cmpuint(run(&a, k), ==, k);
        migrate(&a, &b);
        run(&a, 1000000);
        run(&b, 1000000);
        same(&ref, &b);
        same(&a, &b);
        rig_free(&a);
        rig_free(&b);
    }
    rig_free(&ref);
}

static void test_bad_streams(void)
{
    GlamoRig a, fresh;
    uint8_t *s, *reset;
    size_t len, reset_len, at;
    uint32_t v;
    const char *iters = g_getenv("GPU3D_STATE_MUTATIONS");

    rig_scene_queued(&a);
    run(&a, 3);
    rig_init(&fresh, 2);
    s = g3d_state_test_save(&ops, a.core, &len);
    reset = g3d_state_test_save(&ops, fresh.core, &reset_len);
    g3d_state_test_bad(&ops, fresh.core, s, len, reset, reset_len,
                       iters ? atoi(iters) : 2000);

    /*
     * The command queue's read pointer past the ring: it follows the
     * header, the registers, the palette, the 3D queue, the error latch
     * (21 bytes) and a flag.
     */
    at = 12 + 2 * (GLAMO_REG_SIZE / 2) + 2 * 256;
    memcpy(&v, s + at, 4);
    at += 4 + 4 * v + 21 + 1 + 1 + 4 + 4;
    memcpy(&v, s + at - 4, 4);
    g_assert_cmphex(v, ==, RINGSZ);             /* the size: found it */
    v = RINGSZ + 2;
    memcpy(s + at, &v, 4);
    g3d_state_test_fails(&ops, fresh.core, s, len, "command queue pointers");
    g_free(s);
    g_free(reset);
    rig_free(&a);
    rig_free(&fresh);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/glamo/state/split-scene", test_split_scene);
    g_test_add_func("/glamo/state/bad-streams", test_bad_streams);
    return g_test_run();
}
