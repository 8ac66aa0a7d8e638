/*
 * pica200-3d saved state (pica200_state_save/load, docs/pica200-3d.md):
 *
 * - the demo scene driven in small work steps, moved to a fresh core again
 *   and again at points inside memory fills, command lists, draws and
 *   display transfers, ends with memory (VRAM and guest RAM) byte for byte
 *   equal to an uninterrupted run's, and the same counters;
 * - at every such point save -> load -> save gives the identical stream;
 * - truncated streams, a foreign magic, another version, trailing bytes
 *   (tests/state-test.c), values no register could hold (a command list position outside its
 *   buffer, a draw past its count, a fill outside its range, a queued write
 *   to no register, an emitter slot past 2) all fail with a message and
 *   leave the core reset and usable;
 * - 3000 random mutations of a valid stream load or fail without a crash,
 *   and the core works on from whatever loaded;
 * - the byte scripts/test.sh damages in a migration file is the queued
 *   write count.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <stdio.h>

#include "pica-scene.h"
#include "pica200/pica200-int.h"
#include "../state-test.h"


/* the scene's driver: small work steps, a migration every `every` polls */
typedef struct Mig {
    PicaTest *t;
    int threads;
    unsigned budget;
    unsigned every;             /* 0: never migrate */
    unsigned polls, migrations;
    unsigned busy_migrations;   /* migrations with the P3D or an engine busy */
} Mig;

static void op_save(void *core, G3DStateOut *o)
{
    pica200_state_save(core, o);
}

static bool op_load(void *core, G3DStateIn *in)
{
    return pica200_state_load(core, in);
}

static void op_exercise(void *core)
{
    pica200_core_work(core, 64);
    pica200_core_work(core, 64);
}

static const G3DStateTestOps ops = { op_save, op_load, op_exercise };

/* move the test's core to a fresh one through its saved state */
static void migrate(Mig *m)
{
    Pica200Core *fresh = pt_core_new(m->t, m->threads);
    size_t len;
    uint8_t *st = g3d_state_test_save(&ops, m->t->core, &len);

    if (pica200_reg_read(m->t->core, A_GPU_BUSY, 4)) {
        m->busy_migrations++;
    }
    g3d_state_test_roundtrip(&ops, fresh, st, len);
    g_assert_cmpint(pica200_irq_level(fresh), ==,
                    pica200_irq_level(m->t->core));
    pica200_core_free(m->t->core);
    m->t->core = fresh;
    m->migrations++;
    g_free(st);
}

static void mig_wr(void *opaque, uint32_t off, uint32_t val)
{
    Mig *m = opaque;

    pt_w32(m->t, off, val);
}

static uint32_t mig_rd(void *opaque, uint32_t off)
{
    Mig *m = opaque;

    pica200_core_work(m->t->core, m->budget);
    if (m->every && ++m->polls % m->every == 0) {
        migrate(m);
    }
    return pt_r32(m->t, off);
}

/* the scene test's frames (pt_demo_scene) through the Mig driver */
static void run_scene(Mig *m)
{
    PicaBus bus = { m, mig_wr, mig_rd };

    pt_demo_scene(m->t, &bus);
}

static void test_scene_migrate(gconstpointer data)
{
    int threads = GPOINTER_TO_INT(data);
    PicaTest ref, mt;
    Mig a = { &ref, threads, 5, 0 }, b = { &mt, threads, 5, 7 };
    Pica200Stats sa, sb;
    G3DScanout soa, sob;
    uint8_t *ga, *gb;
    size_t la, lb;
    int head;

    pt_init(&ref, threads);
    pt_init(&mt, threads);
    run_scene(&a);
    run_scene(&b);
    printf("# %u polls, %u migrations (%u with work in progress)\n", b.polls,
           b.migrations, b.busy_migrations);
    g_assert_cmpuint(b.migrations, >=, 20);
    g_assert_cmpuint(b.busy_migrations, >=, 10);
    g_assert_true(memcmp(ref.vram, mt.vram, PICA200_VRAM_SIZE) == 0);
    g_assert_true(memcmp(ref.ram, mt.ram, PT_RAM_SIZE) == 0);
    pica200_stats(ref.core, &sa);
    pica200_stats(mt.core, &sb);
    g_assert_cmpuint(sa.triangles, >, 0);
    /*
     * fragments_filled is a statistic the state does not carry (state.c):
     * the demo's Gouraud triangles are drawn by spans, which count there
     */
    g_assert_cmpuint(sa.fragments_filled, >, 0);
    sa.fragments_filled = sb.fragments_filled = 0;
    g_assert_true(memcmp(&sa, &sb, sizeof(sa)) == 0);
    /* every register, engine and memory of the two cores */
    ga = g3d_state_test_save(&ops, ref.core, &la);
    gb = g3d_state_test_save(&ops, mt.core, &lb);
    g_assert_cmpuint(la, ==, lb);
    g_assert_true(memcmp(ga, gb, la) == 0);
    g_free(ga);
    g_free(gb);
    for (head = 0; head < 2; head++) {
        g_assert_true(pica200_scanout(ref.core, head, &soa));
        g_assert_true(pica200_scanout(mt.core, head, &sob));
        g_assert_true(memcmp(&soa, &sob, sizeof(soa)) == 0);
    }
    pt_free(&ref);
    pt_free(&mt);
}

/* ---- a state in the middle of the scene's first draw ---------------------- */

/* the demo's first frame kicked, then `steps` work calls of `budget` units */
static void mid_draw(PicaTest *t, unsigned steps, unsigned budget)
{
    PicaCmd c = { 0 };
    PicaRegWrite w[4];
    PicaBus bus = pt_bus(t);
    const uint32_t list = PICA200_PHYS_FCRAM + PT_SCENE_LIST;

    scene_vertices((float *)(t->ram + PT_SCENE_VB));
    c.buf = (uint32_t *)(t->ram + PT_SCENE_LIST);
    c.cap = PT_SCENE_LIST_WORDS;
    pica_scene_list(&c, 3, 320, 240, PT_VPA(PICA_SCENE_COLOR_VRAM),
                    PT_VPA(PICA_SCENE_DEPTH_VRAM),
                    PICA200_PHYS_FCRAM + PT_SCENE_VB);
    pica_bus_seq(&bus, w, pica_seq_kick(w, list, c.n * 4));
    while (steps--) {
        pica200_core_work(t->core, budget);
    }
}

/*
 * The common damage (state-test.c): truncations, magic, version, trailing
 * bytes, 3000 random mutations; every refused load leaves the core as a
 * reset one, every accepted one runs.
 */
static void test_bad_streams(void)
{
    PicaTest t;
    Pica200Core *fresh;
    uint8_t *st, *reset;
    size_t len, reset_len;

    pt_init(&t, 1);
    fresh = pt_core_new(&t, 1);
    mid_draw(&t, 12, 3);
    g_assert_true(pica200_reg_read(t.core, A_GPU_BUSY, 4) &
                  R_GPU_BUSY_P3D_MASK);
    st = g3d_state_test_save(&ops, t.core, &len);
    reset = g3d_state_test_save(&ops, fresh, &reset_len);
    g3d_state_test_bad(&ops, fresh, st, len, reset, reset_len, 3000);
    /* the original still loads, and the draw finishes */
    g3d_state_test_roundtrip(&ops, fresh, st, len);
    pica200_core_free(t.core);
    t.core = fresh;
    g_assert_true(pt_run(&t, 100));
    g_free(st);
    g_free(reset);
    pt_free(&t);
}

/* one field set to what no hardware could hold, through the core's struct */
typedef void (*Spoil)(Pica200Core *c);

static void spoil_list_pc(Pica200Core *c) { c->cp.pc = c->cp.end + 8; }
static void spoil_list_start(Pica200Core *c) { c->cp.start = c->cp.pc + 8; }
static void spoil_draw_next(Pica200Core *c) { c->draw.next = c->draw.count + 1; }
static void spoil_nattrs(Pica200Core *c) { c->draw.nattrs = 13; }
static void spoil_attr_type(Pica200Core *c) { c->draw.attr[0].comps = 5; }
static void spoil_emitter(Pica200Core *c) { c->emitter.vertex_id = 3; }
static void spoil_pa(Pica200Core *c) { c->pa.index = 2; }
static void spoil_gs_n(Pica200Core *c) { c->gs_in.n = 16; }
static void spoil_fixed(Pica200Core *c) { c->fixed_nwords = 3; }
static void spoil_uniform(Pica200Core *c) { c->sh[1].float_nwords = 3; }
static void spoil_code(Pica200Core *c) { c->sh[0].code_index = 0x1000; }
static void spoil_param(Pica200Core *c)
{
    c->cp.in_cmd = true;
    c->cp.k = c->cp.nparams + 2;
}
static void spoil_addr(Pica200Core *c) { c->cp.end = 1ull << 32; }

static void spoil_fill(Pica200Core *c)
{
    c->psc[1].busy = true;
    c->psc[1].start = 0x1000;
    c->psc[1].pos = 0x2000 << 3;
    c->psc[1].stop = 0x1800 << 3;
}

static void spoil_transfer(Pica200Core *c)
{
    c->ppf.busy = true;
    c->ppf.hs = c->ppf.vs = 1;
    c->ppf.in_fmt = c->ppf.out_fmt = PICA_PIXFMT_RGBA8;
    c->ppf.in_w = c->ppf.in_h = 8;
    c->ppf.out_w = 16;
    c->ppf.out_h = 8;
}

static void spoil_queue(Pica200Core *c)
{
    PicaQueuedWrite w = { PICA_NREGS, 1, 0xFFFFFFFF };

    g_array_append_val(c->queue, w);
}

static const struct {
    Spoil spoil;
    const char *what;
} spoils[] = {
    { spoil_list_pc, "command list position is outside its buffer" },
    { spoil_list_start, "command list position is outside its buffer" },
    { spoil_draw_next, "draw position is past its vertex count" },
    { spoil_nattrs, "vertex attribute count is 13, past its limit 13" },
    { spoil_attr_type, "attribute components is 5" },
    { spoil_emitter, "emitter vertex is 3" },
    { spoil_pa, "strip slot is 2" },
    { spoil_gs_n, "geometry shader input count is 16" },
    { spoil_fixed, "fixed attribute word count is 3" },
    { spoil_uniform, "float uniform word count is 3, past its limit 3" },
    { spoil_code, "shader code index is 4096" },
    { spoil_param, "command parameter is" },
    { spoil_addr, "command list end 0x100000000 is past 4 GiB" },
    { spoil_fill, "memory fill position is outside its range" },
    { spoil_transfer, "display transfer reads past its input" },
    { spoil_queue, "queued write names no register" },
};

static void test_bad_values(void)
{
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(spoils); i++) {
        PicaTest t;
        uint8_t *st;
        size_t len;

        pt_init(&t, 1);
        mid_draw(&t, 12, 3);
        spoils[i].spoil(t.core);
        st = g3d_state_test_save(&ops, t.core, &len);
        /* a fresh core: the spoiled one may not be run */
        pica200_core_free(t.core);
        t.core = pt_core_new(&t, 1);
        g3d_state_test_fails(&ops, t.core, st, len, spoils[i].what);
        /* left reset: idle, no interrupt, the GSP's IRQ compare value */
        g_assert_cmphex(pica200_reg_read(t.core, A_GPU_BUSY, 4), ==, 0);
        g_assert_false(pica200_irq_level(t.core));
        g_assert_cmphex(pt_rreg(&t, GPUREG_IRQ_CMP0), ==, 0x12345678);
        g_free(st);
        pt_free(&t);
    }
}

/* the offset scripts/test.sh corrupts for migrate-test.py's bad-pointer run */
static void test_script_offset(void)
{
    PicaTest t;
    uint8_t *st;
    size_t len;

    pt_init(&t, 1);
    st = g3d_state_test_save(&ops, t.core, &len);
    g_assert_true(memcmp(st, "PICA", 4) == 0);
    st[7384] = 0xF0;
    st[7385] = st[7386] = 0xFF;
    st[7387] = 0x7F;
    g3d_state_test_fails(&ops, t.core, st, len,
                         "queued write count is 2147483632, past its limit");
    g_free(st);
    pt_free(&t);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_data_func("/pica200/state/scene-migrate/1-thread",
                         GINT_TO_POINTER(1), test_scene_migrate);
    g_test_add_data_func("/pica200/state/scene-migrate/3-threads",
                         GINT_TO_POINTER(3), test_scene_migrate);
    g_test_add_func("/pica200/state/bad-streams", test_bad_streams);
    g_test_add_func("/pica200/state/bad-values", test_bad_values);
    g_test_add_func("/pica200/state/script-offset", test_script_offset);
    return g_test_run();
}
