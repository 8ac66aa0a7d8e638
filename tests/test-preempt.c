/*
 * Unit tests of preemption (common/g3d-core.h, G3DPreempt): the rasteriser
 * gives way at its tiles without changing the picture, abandons its batch
 * on CANCEL, parks its helper threads on PAUSE and goes on correctly, and
 * never flushes a batch whose owner is parked in the middle of it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <string.h>

#include "common/g3d-core.h"
#include "common/raster.h"

#define W 512
#define H 512
#define TRIS 8

typedef struct Canvas {
    uint32_t px[H][W];          /* order-dependent: px = px * 3 + id */
} Canvas;

typedef struct User {
    Canvas *cv;
    uint32_t id;
} User;

static void shade(void *opaque, const G3DQuad *q, int thread)
{
    User *u = opaque;
    int i;

    for (i = 0; i < 4; i++) {
        if (q->mask & (1u << i)) {
            uint32_t *p = &u->cv->px[q->y + (i >> 1)][q->x + (i & 1)];
            *p = *p * 3 + u->id;
        }
    }
}

/* TRIS triangles that each cover the whole canvas, queued */
static void queue(G3DRaster *r, Canvas *cv, User *users)
{
    int k;

    for (k = 0; k < TRIS; k++) {
        G3DTriangle t = {
            .v = { { -W * 16, -H * 16, 1 }, { 3 * W * 16, -H * 16, 1 },
                   { -W * 16, 3 * H * 16, 1 } },
            .clip = { 0, 0, W, H },
            .rules = &g3d_rules_top_left_16,
            .shade = shade,
            .user = &users[k],
            .no_weights = true,
        };
        users[k] = (User){ cv, k + 1 };
        g_assert_true(g3d_raster_triangle(r, &t));
    }
}

static Canvas *draw(int threads, G3DPreempt *p)
{
    Canvas *cv = g_new0(Canvas, 1);
    User users[TRIS];
    G3DRaster *r = g3d_raster_new(threads);

    if (p) {
        g3d_preempt_enter(p);
    }
    queue(r, cv, users);
    g3d_raster_flush(r);
    if (p) {
        g3d_preempt_leave(p);
    }
    g3d_raster_free(r);
    return cv;
}

/* ---- a driver that counts and scripts its yields ------------------------ */

typedef struct Driver {
    G3DPreempt p;
    int calls;
    int cancel_at;              /* set CANCEL at this call (0: never) */
    int unpause_at;             /* clear PAUSE at this call (0: never) */
} Driver;

static bool driver_yield(G3DPreempt *gp)
{
    Driver *d = (Driver *)gp;

    d->calls++;
    if (d->cancel_at && d->calls == d->cancel_at) {
        g3d_preempt_set(gp, G3D_PREEMPT_CANCEL);
    }
    if (d->unpause_at && d->calls == d->unpause_at) {
        /* the helpers parked meanwhile go on */
        g_usleep(20 * 1000);
        g3d_preempt_clear(gp, G3D_PREEMPT_PAUSE);
    }
    return __atomic_load_n(&gp->flags, __ATOMIC_ACQUIRE) & G3D_PREEMPT_CANCEL;
}

static void driver_init(Driver *d, unsigned flags)
{
    memset(d, 0, sizeof(*d));
    g3d_preempt_init(&d->p, driver_yield);
    if (flags) {
        g3d_preempt_set(&d->p, flags);
    }
}

static uint64_t covered(const Canvas *cv)
{
    uint64_t n = 0;
    int x, y;

    for (y = 0; y < H; y++) {
        for (x = 0; x < W; x++) {
            n += cv->px[y][x] != 0;
        }
    }
    return n;
}

/* a waiter at every tile: yields happen, the picture is the same */
static void test_waiter(void)
{
    int threads;

    for (threads = 1; threads <= 3; threads++) {
        g_autofree Canvas *ref = draw(threads, NULL);
        g_autofree Canvas *cv = NULL;
        Driver d;

        driver_init(&d, G3D_PREEMPT_WAITER);
        cv = draw(threads, &d.p);
        /* thread 0 owns at least a tile of each triangle */
        g_assert_cmpint(d.calls, >=, TRIS);
        g_assert_cmpmem(cv, sizeof(*cv), ref, sizeof(*ref));
        g3d_preempt_destroy(&d.p);
    }
}

/*
 * CANCEL in the middle: the batch is abandoned and dropped. Thread 0 sets
 * CANCEL at its 10th tile, so its later tiles are never drawn, whatever
 * the helper threads got done meanwhile (on a loaded host they may finish
 * all of theirs first): fewer quads than the whole batch, and with one
 * thread no more than its first tiles.
 */
static void test_cancel(void)
{
    const uint64_t all = (uint64_t)TRIS * W * H / 4;
    const uint64_t tile = G3D_TILE_SIZE * G3D_TILE_SIZE / 4;
    int threads;

    for (threads = 1; threads <= 3; threads++) {
        Canvas *cv = g_new0(Canvas, 1);
        User users[TRIS];
        G3DRaster *r = g3d_raster_new(threads);
        G3DRasterStats st;
        uint64_t drawn;
        Driver d;

        driver_init(&d, G3D_PREEMPT_WAITER);
        d.cancel_at = 10;
        g3d_preempt_enter(&d.p);
        queue(r, cv, users);
        g3d_raster_flush(r);
        g3d_raster_stats(r, &st);
        g_assert_cmpuint(st.quads, <, all);
        if (threads == 1) {
            g_assert_cmpuint(st.quads, <=, 10 * tile);
        }
        drawn = st.quads;
        /* nothing of the abandoned batch is left to draw */
        g3d_preempt_clear(&d.p, G3D_PREEMPT_CANCEL | G3D_PREEMPT_WAITER);
        g3d_raster_flush(r);
        g3d_raster_stats(r, &st);
        g_assert_cmpuint(st.quads, ==, drawn);
        g3d_preempt_leave(&d.p);
        g3d_raster_free(r);
        g3d_preempt_destroy(&d.p);
        g_free(cv);
    }
}

/* PAUSE: helpers park until it is cleared; the picture is the same */
static void test_pause(void)
{
    g_autofree Canvas *ref = draw(3, NULL);
    g_autofree Canvas *cv = NULL;
    Driver d;

    driver_init(&d, G3D_PREEMPT_PAUSE);
    d.unpause_at = 3;
    cv = draw(3, &d.p);
    g_assert_cmpint(d.calls, >=, 3);
    g_assert_cmpuint(covered(cv), ==, (uint64_t)W * H);
    g_assert_cmpmem(cv, sizeof(*cv), ref, sizeof(*ref));
    g3d_preempt_destroy(&d.p);
}

/*
 * Another thread's flush while the owner is inside the core (parked at a
 * yield) does nothing; the owner's own flush then draws everything.
 */
typedef struct Foreign {
    G3DRaster *r;
} Foreign;

static gpointer foreign_flush(gpointer opaque)
{
    g3d_raster_flush(((Foreign *)opaque)->r);
    return NULL;
}

static void test_foreign_flush(void)
{
    g_autofree Canvas *ref = draw(2, NULL);
    Canvas *cv = g_new0(Canvas, 1);
    User users[TRIS];
    G3DRaster *r = g3d_raster_new(2);
    Foreign f = { r };
    Driver d;

    driver_init(&d, 0);
    g3d_preempt_enter(&d.p);
    queue(r, cv, users);
    g_thread_join(g_thread_new("foreign", foreign_flush, &f));
    g_assert_cmpuint(covered(cv), ==, 0);
    g3d_raster_flush(r);
    g3d_preempt_leave(&d.p);
    g_assert_cmpmem(cv, sizeof(*cv), ref, sizeof(*ref));
    g3d_raster_free(r);
    g3d_preempt_destroy(&d.p);
    g_free(cv);
}

/* without a driver, g3d_yield() never stops anything */
static void test_no_driver(void)
{
    g_assert_false(g3d_yield());
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/preempt/no-driver", test_no_driver);
    g_test_add_func("/preempt/waiter", test_waiter);
    g_test_add_func("/preempt/cancel", test_cancel);
    g_test_add_func("/preempt/pause", test_pause);
    g_test_add_func("/preempt/foreign-flush", test_foreign_flush);
    return g_test_run();
}
