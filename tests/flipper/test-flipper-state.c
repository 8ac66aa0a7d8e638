/*
 * flipper-gx saved state (flipper_state_save/load, docs/flipper-gx.md):
 *
 * - every test scene, streamed through the write-gather pipe into the FIFO
 *   in small work steps with the VI running on a moving clock, moved to a
 *   fresh core again and again (with bytes staged in the CP, draws and
 *   display lists half done, gather bursts half full), ends with MEM1 and
 *   the whole saved state byte for byte equal to an uninterrupted run's;
 * - at every such point save -> load -> save gives the identical stream;
 * - truncated streams, a foreign magic, another version, trailing bytes
 *   (tests/state-test.c) and values no register could hold (a FIFO pointer off its 32-byte grid, a
 *   staged count past its buffer, a display list outside MEM1, a vertex
 *   format past 7, ...) fail with a message and leave the core reset;
 * - random mutations of a valid stream load or fail without a crash, and
 *   the core works on from whatever loaded;
 * - the byte scripts/test.sh damages in a migration file is the FIFO's
 *   fetched byte count.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "rig.h"
#include "flipper/flipper-int.h"
#include "gpu3d/flipper-cmd.h"
#include "../state-test.h"

#define STEP_NS 50000           /* the clock's advance per work step */

typedef struct Mig {
    FlipperRig *r;
    int threads;
    unsigned budget;
    unsigned every;             /* 0: never migrate */
    unsigned steps, migrations;
    unsigned busy_migrations;   /* with FIFO bytes staged or a draw */
    unsigned dl_migrations;     /* inside a display list */
} Mig;

static void op_save(void *core, G3DStateOut *o)
{
    flipper_state_save(core, o);
}

static bool op_load(void *core, G3DStateIn *in)
{
    return flipper_state_load(core, in);
}

/* a few commands from a loaded state (whole frames would be slow) */
static void op_exercise(void *core)
{
    flipper_core_work(core, 8);
}

static const G3DStateTestOps ops = { op_save, op_load, op_exercise };

static void migrate(Mig *m)
{
    FlipperCore *old = m->r->core, *fresh = rig_core_new(m->r, m->threads);
    size_t len;
    uint8_t *st = g3d_state_test_save(&ops, old, &len);

    if (old->cp.stage_len || old->cp.dec.in_draw || old->cp.dl_active) {
        m->busy_migrations++;
    }
    m->dl_migrations += old->cp.dl_active;
    g3d_state_test_roundtrip(&ops, fresh, st, len);
    g_assert_cmpint(flipper_irq_level(fresh), ==, flipper_irq_level(old));
    flipper_core_free(old);
    m->r->core = fresh;
    m->migrations++;
    g_free(st);
}

static bool step(Mig *m)
{
    bool more;

    m->r->clock_ns += STEP_NS;
    more = flipper_core_work(m->r->core, m->budget);
    /* every so often, and whenever a display list is half done */
    if (m->every && (++m->steps % m->every == 0 || m->r->core->cp.dl_active)) {
        migrate(m);
    }
    return more;
}

/* the stream through the gather pipe, a work step every 20 bytes */
static void submit(Mig *m, const uint8_t *p, size_t len)
{
    static const uint8_t nops[32];
    FlipperRig *r = m->r;
    uint32_t ring = rig_cp32(r, A_CP_FIFO_END_LO) -
                    rig_cp32(r, A_CP_FIFO_BASE_LO) + 32;
    size_t pos = 0, i;
    unsigned guard = 0;

    while (pos < len) {
        size_t n = MIN(20, len - pos);
        while (rig_cp32(r, A_CP_FIFO_DIST_LO) + 64 > ring) {
            step(m);
        }
        for (i = 0; i < n; i++) {
            flipper_reg_write(r->core, FLIPPER_WGP_BASE, p[pos + i], 1);
        }
        pos += n;
        step(m);
    }
    for (i = 0; i < (32 - len % 32) % 32; i++) {
        flipper_reg_write(r->core, FLIPPER_WGP_BASE, nops[i], 1);
    }
    while (step(m)) {
        g_assert_cmpuint(++guard, <, 1u << 20);
    }
}

static void run_scene(Mig *m, const FlipperScene *s)
{
    GByteArray *pro = flipper_scene_prologue(s);
    guint i;

    for (i = 0; i < s->mem->len; i++) {
        const SceneBlob *b = &g_array_index(s->mem, SceneBlob, i);
        memcpy(m->r->mem1 + b->addr, b->data->data, b->data->len);
    }
    rig_vi_init(m->r, SCENE_XFB_ADDR);
    rig_fifo_init(m->r, RIG_FIFO_BASE, RIG_FIFO_SIZE);
    submit(m, pro->data, pro->len);
    submit(m, s->fifo->data, s->fifo->len);
    g_byte_array_unref(pro);
}

static void test_scene_migrate(gconstpointer data)
{
    const char *name = data;
    FlipperScene *s = flipper_scene_build(name);
    FlipperRig *ra = rig_new(2), *rb = rig_new(2);
    Mig a = { ra, 2, 6, 0 }, b = { rb, 2, 6, 37 };
    uint8_t *sa, *sb;
    size_t la, lb;
    FlipperStats st;

    g_assert_nonnull(s);
    run_scene(&a, s);
    run_scene(&b, s);
    printf("# %s: %u steps, %u migrations (%u with work in progress, %u in "
           "a display list)\n", name, b.steps, b.migrations,
           b.busy_migrations, b.dl_migrations);
    g_assert_cmpuint(b.migrations, >=, 20);
    g_assert_cmpuint(b.busy_migrations, >=, 5);
    if (!strcmp(name, "indexed")) {
        g_assert_cmpuint(b.dl_migrations, >=, 1);
    }
    flipper_core_stats(ra->core, &st);
    g_assert_cmpuint(st.efb_copies, >, 0);
    g_assert_true(memcmp(ra->mem1, rb->mem1, FLIPPER_MEM1_SIZE) == 0);
    sa = g3d_state_test_save(&ops, ra->core, &la);
    sb = g3d_state_test_save(&ops, rb->core, &lb);
    g_assert_cmpuint(la, ==, lb);
    g_assert_true(memcmp(sa, sb, la) == 0);
    g_free(sa);
    g_free(sb);
    rig_free(ra);
    rig_free(rb);
    flipper_scene_free(s);
}

/* ---- a state in the middle of a scene -------------------------------------- */

/* the "cube" scene's stream in the FIFO, `steps` work steps of 5 units run */
static FlipperRig *mid_scene(unsigned steps)
{
    FlipperScene *s = flipper_scene_build("cube");
    FlipperRig *r = rig_new(1);
    Mig m = { r, 1, 5, 0 };
    GByteArray *pro = flipper_scene_prologue(s);
    guint i;

    for (i = 0; i < s->mem->len; i++) {
        const SceneBlob *b = &g_array_index(s->mem, SceneBlob, i);
        memcpy(r->mem1 + b->addr, b->data->data, b->data->len);
    }
    rig_vi_init(r, SCENE_XFB_ADDR);
    rig_fifo_init(r, RIG_FIFO_BASE, RIG_FIFO_SIZE);
    submit(&m, pro->data, pro->len);
    /* the frame: as much as the ring holds, then part of it worked */
    for (i = 0; i + 4 <= MIN(s->fifo->len, RIG_FIFO_SIZE / 2); i += 4) {
        const uint8_t *p = s->fifo->data + i;
        flipper_reg_write(r->core, FLIPPER_WGP_BASE,
                          (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3],
                          4);
    }
    flipper_reg_write(r->core, FLIPPER_WGP_BASE, 0, 2);
    while (steps--) {
        step(&m);
    }
    g_byte_array_unref(pro);
    flipper_scene_free(s);
    return r;
}

/* left reset: no FIFO, no interrupt, the VI's defaults */
static void check_reset(FlipperRig *r)
{
    g_assert_cmphex(rig_cp32(r, A_CP_FIFO_BASE_LO), ==, 0);
    g_assert_cmphex(rig_r16(r, A_CP_CR), ==, 0);
    g_assert_false(flipper_irq_level(r->core));
    g_assert_cmphex(rig_r16(r, A_VI_FBWIDTH), ==, 0x0280);
}

/*
 * The common damage (state-test.c): truncations, magic, version, trailing
 * bytes, random mutations over the whole stream (most land in the EFB and
 * TMEM, which take any value); every refused load leaves a reset core.
 */
static void test_bad_streams(void)
{
    FlipperRig *r = mid_scene(3);
    FlipperCore *fresh = rig_core_new(r, 1);
    uint8_t *st, *reset;
    size_t len, reset_len;

    g_assert_true(r->core->cp.stage_len || r->core->cp.dec.in_draw);
    st = g3d_state_test_save(&ops, r->core, &len);
    reset = g3d_state_test_save(&ops, fresh, &reset_len);
    g3d_state_test_bad(&ops, fresh, st, len, reset, reset_len, 200);
    /* the original still loads, and the frame finishes */
    g3d_state_test_roundtrip(&ops, fresh, st, len);
    flipper_core_free(r->core);
    r->core = fresh;
    rig_run(r);
    g_free(st);
    g_free(reset);
    rig_free(r);
}

typedef void (*Spoil)(FlipperCore *c);

static void spoil_rptr(FlipperCore *c) { c->cp.rptr |= 4; }
static void spoil_end(FlipperCore *c) { c->cp.end = 0x04000000; }
static void spoil_stage(FlipperCore *c) { c->cp.stage_len = CP_STAGE_SIZE + 1; }
static void spoil_vat(FlipperCore *c) { c->cp.dec.vat = 8; }
static void spoil_left(FlipperCore *c) { c->cp.dec.left = 0x10000; }
static void spoil_gather(FlipperCore *c) { c->pi.gather_len = 32; }
static void spoil_pi(FlipperCore *c) { c->pi.fifo_wptr = 0x10; }
static void spoil_prim(FlipperCore *c) { c->su.prim = 8; }
static void spoil_ai(FlipperCore *c) { c->ai.frac = NS_PER_S; }

static void spoil_dl_addr(FlipperCore *c)
{
    c->cp.dl_active = true;
    c->cp.dl_addr = FLIPPER_MEM1_SIZE - 32;
    c->cp.dl_size = 64;
}

static void spoil_dl_pos(FlipperCore *c)
{
    c->cp.dl_active = true;
    c->cp.dl_addr = 0x1000;
    c->cp.dl_size = 64;
    c->cp.dl_pos = 96;
}

static const struct {
    Spoil spoil;
    const char *what;
} spoils[] = {
    { spoil_rptr, "FIFO read pointer" },
    { spoil_end, "FIFO end 0x04000000 is not a FIFO address" },
    { spoil_stage, "fetched FIFO byte count is 4097, past its limit 4097" },
    { spoil_vat, "no such primitive or vertex format" },
    { spoil_left, "vertices left in a draw is 65536" },
    { spoil_gather, "gather pipe byte count is 32" },
    { spoil_pi, "PI FIFO write pointer 0x00000010" },
    { spoil_prim, "setup primitive is 8" },
    { spoil_ai, "sample clock remainder is past a second" },
    { spoil_dl_addr, "display list position is outside MEM1" },
    { spoil_dl_pos, "display list position is outside MEM1 or its list" },
};

static void test_bad_values(void)
{
    FlipperRig *r = mid_scene(3);
    size_t good_len, i;
    uint8_t *good = g3d_state_test_save(&ops, r->core, &good_len);

    for (i = 0; i < G_N_ELEMENTS(spoils); i++) {
        uint8_t *st;
        size_t len;

        g3d_state_test_roundtrip(&ops, r->core, good, good_len);
        spoils[i].spoil(r->core);
        st = g3d_state_test_save(&ops, r->core, &len);
        /* a fresh core: the spoiled one may not be run */
        flipper_core_free(r->core);
        r->core = rig_core_new(r, 1);
        g3d_state_test_fails(&ops, r->core, st, len, spoils[i].what);
        check_reset(r);
        g_free(st);
    }
    g_free(good);
    rig_free(r);
}

/* the offset scripts/test.sh corrupts for migrate-test.py's bad-pointer run */
static void test_script_offset(void)
{
    FlipperRig *r = rig_new(1);
    size_t len;
    uint8_t *st = g3d_state_test_save(&ops, r->core, &len);

    g_assert_true(memcmp(st, "FLIP", 4) == 0);
    st[58] = 0xF0;
    st[59] = st[60] = 0xFF;
    st[61] = 0x7F;
    g3d_state_test_fails(&ops, r->core, st, len,
                         "fetched FIFO byte count is 2147483632, past its");
    g_free(st);
    rig_free(r);
}

/*
 * Mutations aimed at the first 8 KiB, where the checked fields are (the
 * registers, the CP, the I/O blocks): state-test.c's spread over the whole
 * 3.6 MiB would mostly hit the EFB.
 */
static void test_mutations(void)
{
    FlipperRig *r = mid_scene(3);
    size_t len;
    uint8_t *st = g3d_state_test_save(&ops, r->core, &len);
    GRand *rnd = g_rand_new_with_seed(14);
    size_t head = MIN(len, 8192);
    uint8_t *buf = g_memdup2(st, len);
    unsigned i, failed = 0, iters = 3000;

    for (i = 0; i < iters; i++) {
        size_t n = len;
        G3DStateIn in;
        unsigned k, nmut = g_rand_int_range(rnd, 1, 5);

        memcpy(buf, st, head);
        for (k = 0; k < nmut; k++) {
            size_t at = g_rand_int_range(rnd, 0, head);
            switch (g_rand_int_range(rnd, 0, 4)) {
            case 0: buf[at] ^= 1u << g_rand_int_range(rnd, 0, 8); break;
            case 1: buf[at] = g_rand_int_range(rnd, 0, 256); break;
            case 2: buf[at] = 0xFF; break;
            default: n = at; break;
            }
        }
        g3d_state_in_init(&in, buf, n);
        if (!flipper_state_load(r->core, &in)) {
            failed++;
            continue;
        }
        r->clock_ns += STEP_NS;
        op_exercise(r->core);
    }
    printf("# %u mutated streams, %u refused\n", iters, failed);
    g_assert_cmpuint(failed, >, 0);
    g_assert_cmpuint(failed, <, iters);
    g_free(buf);
    g_free(st);
    g_rand_free(rnd);
    rig_free(r);
}

int main(int argc, char **argv)
{
    /*
     * A scene of each kind (the rest take the same paths): colours, a
     * display list with indexed arrays, lines, a cube in depth, a TLUT,
     * TMEM preloads, indirect and Z textures, EFB copies with mipmaps.
     */
    static const char *const names[] = {
        "gouraud", "indexed", "lines", "cube", "tex-tlut", "tex-preload",
        "tex-indirect", "tex-ztex", "efb-copy-mip", NULL,
    };
    int i;

    g_test_init(&argc, &argv, NULL);
    for (i = 0; names[i]; i++) {
        g_autofree char *path = g_strdup_printf("/flipper/state/migrate/%s",
                                                names[i]);
        g_test_add_data_func(path, names[i], test_scene_migrate);
    }
    g_test_add_func("/flipper/state/bad-streams", test_bad_streams);
    g_test_add_func("/flipper/state/bad-values", test_bad_values);
    g_test_add_func("/flipper/state/mutations", test_mutations);
    g_test_add_func("/flipper/state/script-offset", test_script_offset);
    return g_test_run();
}
