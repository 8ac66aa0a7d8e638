/*
 * The thread pool that runs the rasteriser's tiles (see raster.h).
 *
 * Thread 0 is the caller: a pool of one thread creates no threads at all.
 * Helpers sleep on a condition variable between jobs; a job is one
 * generation, and the caller returns once every helper has finished it
 * (g3d_pool_run), or once every helper that joined it has (a shared job,
 * g3d_pool_run_shared: a helper that wakes after the caller has finished
 * does nothing).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "raster.h"
#include "g3d-core.h"

#include <glib.h>

#define MAX_THREADS 64

void (*g3d_helper_thread_begin)(void);
void (*g3d_helper_thread_end)(void);

struct G3DThreadPool {
    int threads;
    GThread **helpers;
    GMutex lock;
    GCond start;         /* a new generation or quit */
    GCond done;          /* a helper finished the generation */
    uint64_t generation;
    int pending;         /* helpers still running the generation */
    bool shared;         /* the generation is a shared job */
    bool open;           /* a shared job helpers may still join */
    bool quit;
    G3DJobFn *fn;
    void *arg;
    G3DPreempt *preempt;    /* the caller's, lent to the helpers */
};

typedef struct Helper {
    G3DThreadPool *pool;
    int index;
} Helper;

static gpointer helper_main(gpointer opaque)
{
    Helper *h = opaque;
    G3DThreadPool *p = h->pool;
    uint64_t seen = 0;

    if (g3d_helper_thread_begin) {
        g3d_helper_thread_begin();
    }
    g_mutex_lock(&p->lock);
    for (;;) {
        while (!p->quit && p->generation == seen) {
            g_cond_wait(&p->start, &p->lock);
        }
        if (p->quit) {
            break;
        }
        seen = p->generation;
        if (p->shared) {
            if (!p->open) {
                continue;       /* its caller has done the work */
            }
            p->pending++;
        }
        g3d_preempt_helping = p->preempt;
        g_mutex_unlock(&p->lock);
        p->fn(p->arg, h->index);
        g_mutex_lock(&p->lock);
        g3d_preempt_helping = NULL;
        if (--p->pending == 0) {
            g_cond_signal(&p->done);
        }
    }
    g_mutex_unlock(&p->lock);
    if (g3d_helper_thread_end) {
        g3d_helper_thread_end();
    }
    g_free(h);
    return NULL;
}

G3DThreadPool *g3d_pool_new(int threads)
{
    G3DThreadPool *p = g_new0(G3DThreadPool, 1);
    int i;

    p->threads = threads < 1 ? 1 : threads > MAX_THREADS ? MAX_THREADS : threads;
    g_mutex_init(&p->lock);
    g_cond_init(&p->start);
    g_cond_init(&p->done);
    p->helpers = g_new0(GThread *, p->threads);
    for (i = 1; i < p->threads; i++) {
        Helper *h = g_new0(Helper, 1);
        h->pool = p;
        h->index = i;
        p->helpers[i] = g_thread_new("gpu3d-raster", helper_main, h);
    }
    return p;
}

void g3d_pool_free(G3DThreadPool *p)
{
    int i;

    if (!p) {
        return;
    }
    g_mutex_lock(&p->lock);
    p->quit = true;
    g_cond_broadcast(&p->start);
    g_mutex_unlock(&p->lock);
    for (i = 1; i < p->threads; i++) {
        g_thread_join(p->helpers[i]);
    }
    g_free(p->helpers);
    g_mutex_clear(&p->lock);
    g_cond_clear(&p->start);
    g_cond_clear(&p->done);
    g_free(p);
}

int g3d_pool_threads(const G3DThreadPool *p)
{
    return p->threads;
}

/* false only with `try`, when a job is in progress: nothing was run */
static bool pool_run(G3DThreadPool *p, G3DJobFn *fn, void *arg, bool shared,
                     bool try)
{
    if (p->threads == 1) {
        fn(arg, 0);
        return true;
    }
    /*
     * An operation already cancelled (a reset flushing the batch it
     * abandoned) wakes no helper: each would give up at its first tile, but
     * only after the host schedules it, which on a busy host is milliseconds
     * the reset waits for.
     */
    if (!try && g3d_yield()) {
        return true;
    }
    g_mutex_lock(&p->lock);
    if (try && (p->open || p->pending)) {
        g_mutex_unlock(&p->lock);
        return false;
    }
    p->fn = fn;
    p->arg = arg;
    p->preempt = g3d_preempt_current;
    p->shared = shared;
    p->open = shared;
    p->pending = shared ? 0 : p->threads - 1;
    p->generation++;
    g_cond_broadcast(&p->start);
    g_mutex_unlock(&p->lock);

    fn(arg, 0);

    g_mutex_lock(&p->lock);
    p->open = false;
    while (p->pending) {
        if (!g3d_preempt_current) {
            g_cond_wait(&p->done, &p->lock);
            continue;
        }
        /*
         * The caller drives a core that others may wait for: while the
         * helpers finish, give way every millisecond (the helpers check
         * for a stop or a cancel by themselves).
         */
        if (!g_cond_wait_until(&p->done, &p->lock,
                               g_get_monotonic_time() + 1000) && p->pending) {
            g_mutex_unlock(&p->lock);
            (void)g3d_yield();
            g_mutex_lock(&p->lock);
        }
    }
    g_mutex_unlock(&p->lock);
    return true;
}

void g3d_pool_run(G3DThreadPool *p, G3DJobFn *fn, void *arg)
{
    pool_run(p, fn, arg, false, false);
}

void g3d_pool_run_shared(G3DThreadPool *p, G3DJobFn *fn, void *arg)
{
    pool_run(p, fn, arg, true, false);
}

bool g3d_pool_try_run_shared(G3DThreadPool *p, G3DJobFn *fn, void *arg)
{
    return pool_run(p, fn, arg, true, true);
}

int g3d_default_threads(void)
{
    int n = (int)g_get_num_processors();
    return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : n;
}
