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
 * Between jobs a helper first polls for the next one for a short while
 * (g3d_pool_spin_us), and the caller polls for the helpers' end, before
 * either sleeps: waking a sleeping thread costs a futex wake and, on a
 * virtual machine, an interrupt to an idle virtual CPU, tens of
 * microseconds, as long as a small draw's whole work. Draws come in
 * streams, so a helper that has just finished one is usually still polling
 * when the next begins.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "raster.h"
#include "g3d-core.h"

#include <glib.h>

#define MAX_THREADS 64

unsigned g3d_pool_spin_us = 200;

/*
 * A helper that notices a job this long after it was posted although it
 * was polling for it was not given a core meanwhile: on a busy host a
 * polling thread waits for its turn (a polling helper, on a loaded host,
 * saw 90-95 % of the jobs a scheduler's slice, 5-8 ms, late), while one
 * that sleeps is woken at once. After LATE_ROW such notices with no
 * punctual one between, it sleeps between its next jobs without polling:
 * SLEEP_JOBS_MIN of them, twice as many after each late notice that
 * follows, up to SLEEP_JOBS_MAX; a punctual notice starts that over. One
 * hiccup of a virtual machine's host costs nothing, two in a row at most
 * SLEEP_JOBS_MIN wake-ups, and a loaded host's helper soon polls for one
 * job in 65, as it did when one late notice put it to sleep for 64 jobs
 * (docs/performance.md, "Branch pool19").
 */
#define SPIN_LATE_US 50
#define LATE_ROW 2
#define SLEEP_JOBS_MIN 8
#define SLEEP_JOBS_MAX 64

unsigned g3d_pool_pace_spin(const G3DPoolPace *pc)
{
    return pc->sleep_jobs ? 0 : g3d_pool_spin_us;
}

void g3d_pool_pace_note(G3DPoolPace *pc, G3DPoolNotice n)
{
    switch (n) {
    case G3D_POOL_PUNCTUAL:
        pc->late_row = 0;
        pc->period = 0;
        break;
    case G3D_POOL_LATE:
        if (++pc->late_row >= LATE_ROW) {
            pc->late_row = LATE_ROW;
            pc->sleep_jobs = pc->period ? pc->period : SLEEP_JOBS_MIN;
            pc->period = MIN(pc->sleep_jobs * 2, SLEEP_JOBS_MAX);
        }
        break;
    default:
        pc->sleep_jobs -= pc->sleep_jobs != 0;
        break;
    }
}

void (*g3d_helper_thread_begin)(void);
void (*g3d_helper_thread_end)(void);

struct G3DThreadPool {
    int threads;
    GThread **helpers;
    GMutex lock;
    GCond start;         /* a new generation or quit */
    GCond done;          /* a helper finished the generation */
    uint64_t generation;
    int64_t posted;      /* when the generation began, monotonic us */
    int pending;         /* helpers still running the generation */
    /*
     * Helpers asleep on `start`, and whether the caller sleeps on `done`:
     * a GCond's broadcast or signal is a futex call even with no one
     * waiting (about 2.4 calls a job in simplefog before branch thr14),
     * so they are made only for a sleeper. Both change under the lock.
     */
    int sleepers;
    bool caller_sleeps;
    bool shared;         /* the generation is a shared job */
    bool open;           /* a shared job helpers may still join */
    int joined;          /* helpers that joined the shared job */
    /*
     * A shared job whose caller returned before its helpers finished
     * (g3d_pool_post_shared): the next job or g3d_pool_wait waits for them
     */
    bool detached;
    bool quit;
    G3DJobFn *fn;
    void *arg;
    G3DPreempt *preempt;    /* the caller's, lent to the helpers */
};

static bool new_generation(G3DThreadPool *p, uint64_t seen)
{
    return __atomic_load_n(&p->generation, __ATOMIC_ACQUIRE) != seen ||
           __atomic_load_n(&p->quit, __ATOMIC_ACQUIRE);
}

static bool helpers_done(G3DThreadPool *p, uint64_t unused)
{
    return __atomic_load_n(&p->pending, __ATOMIC_ACQUIRE) == 0;
}

/* Poll ready(p, v) for up to `us` microseconds, without the lock; true
 * once it holds. */
static bool pool_poll(G3DThreadPool *p, bool (*ready)(G3DThreadPool *, uint64_t),
                      uint64_t v, unsigned us)
{
    G3DPoll poll = g3d_poll_begin(us);

    while (!ready(p, v)) {
        if (!g3d_poll_step(&poll)) {
            return false;
        }
    }
    return true;
}

/*
 * The lock, polled for a while before blocking: a helper that has just
 * seen a new job meets the caller still holding it, and a thread that
 * blocks on a GMutex costs both a futex call.
 */
static void pool_lock(G3DThreadPool *p)
{
    unsigned i;

    /* 63 tries: the 64th step would give the core away */
    for (i = 1; i < 64; i++) {
        if (g_mutex_trylock(&p->lock)) {
            return;
        }
        g3d_spin_pause(i);
    }
    g_mutex_lock(&p->lock);
}

typedef struct Helper {
    G3DThreadPool *pool;
    int index;
} Helper;

static gpointer helper_main(gpointer opaque)
{
    Helper *h = opaque;
    G3DThreadPool *p = h->pool;
    uint64_t seen = 0;
    G3DPoolPace pace = { 0 };

    if (g3d_helper_thread_begin) {
        g3d_helper_thread_begin();
    }

    g_mutex_lock(&p->lock);
    for (;;) {
        const unsigned spin = g3d_pool_pace_spin(&pace);
        G3DPoolNotice notice = G3D_POOL_UNPOLLED;

        if (!p->quit && p->generation == seen && spin) {
            g_mutex_unlock(&p->lock);
            if (pool_poll(p, new_generation, seen, spin)) {
                /*
                 * Seen long after it was posted: this thread was not
                 * running while it polled (a busy host), where a sleeper
                 * is woken sooner
                 */
                notice = g_get_monotonic_time() -
                         __atomic_load_n(&p->posted, __ATOMIC_RELAXED) >
                         SPIN_LATE_US ? G3D_POOL_LATE : G3D_POOL_PUNCTUAL;
            }
            pool_lock(p);
        }
        while (!p->quit && p->generation == seen) {
            p->sleepers++;
            g_cond_wait(&p->start, &p->lock);
            p->sleepers--;
        }
        if (p->quit) {
            break;
        }
        g3d_pool_pace_note(&pace, notice);
        seen = p->generation;
        if (p->shared) {
            if (!p->open) {
                continue;       /* its caller has done the work */
            }
            p->pending++;
            __atomic_add_fetch(&p->joined, 1, __ATOMIC_RELEASE);
        }
        g3d_preempt_helping = p->preempt;
        g_mutex_unlock(&p->lock);
        p->fn(p->arg, h->index);
        pool_lock(p);
        g3d_preempt_helping = NULL;
        /* release: the caller may see 0 without the lock (helpers_done) */
        if (__atomic_sub_fetch(&p->pending, 1, __ATOMIC_RELEASE) == 0 &&
            p->caller_sleeps) {
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
    __atomic_store_n(&p->quit, true, __ATOMIC_RELEASE);
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

/*
 * The caller's wait for the helpers of the job it has left (the lock
 * held): polled for a while, then asleep; a caller that drives a core
 * gives way every millisecond meanwhile.
 */
static void pool_wait_locked(G3DThreadPool *p)
{
    bool woken;

    if (p->pending && g3d_pool_spin_us) {
        g_mutex_unlock(&p->lock);
        pool_poll(p, helpers_done, 0, g3d_pool_spin_us);
        pool_lock(p);
    }
    while (p->pending) {
        if (!g3d_preempt_current) {
            p->caller_sleeps = true;
            g_cond_wait(&p->done, &p->lock);
            p->caller_sleeps = false;
            continue;
        }
        /*
         * The caller drives a core that others may wait for: while the
         * helpers finish, give way every millisecond (the helpers check
         * for a stop or a cancel by themselves).
         */
        p->caller_sleeps = true;
        woken = g_cond_wait_until(&p->done, &p->lock,
                                  g_get_monotonic_time() + 1000);
        p->caller_sleeps = false;
        if (!woken && p->pending) {
            g_mutex_unlock(&p->lock);
            (void)g3d_yield();
            g_mutex_lock(&p->lock);
        }
    }
    p->detached = false;
}

/*
 * false only with `try`, when a job is in progress: nothing was run.
 * `detach`: return once the caller's fn has (a shared job), the helpers
 * that joined still running; *joined is how many did.
 */
static bool pool_run(G3DThreadPool *p, G3DJobFn *fn, void *arg, bool shared,
                     bool try, bool detach, int *joined)
{
    if (joined) {
        *joined = 0;
    }
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
        if (joined) {
            *joined = -1;       /* nothing run */
        }
        return true;
    }
    pool_lock(p);
    if (try && (p->open || p->pending)) {
        g_mutex_unlock(&p->lock);
        return false;
    }
    if (p->detached) {
        pool_wait_locked(p);    /* one job at a time */
    }
    p->fn = fn;
    p->arg = arg;
    p->preempt = g3d_preempt_current;
    p->shared = shared;
    p->open = shared;
    p->joined = 0;
    p->pending = shared ? 0 : p->threads - 1;
    __atomic_store_n(&p->posted, g_get_monotonic_time(), __ATOMIC_RELAXED);
    __atomic_store_n(&p->generation, p->generation + 1, __ATOMIC_RELEASE);
    if (p->sleepers) {
        g_cond_broadcast(&p->start);
    }
    g_mutex_unlock(&p->lock);

    fn(arg, 0);

    pool_lock(p);
    p->open = false;
    if (detach) {
        if (joined) {
            *joined = p->joined;
        }
        p->detached = p->pending != 0;
        g_mutex_unlock(&p->lock);
        return true;
    }
    pool_wait_locked(p);
    g_mutex_unlock(&p->lock);
    return true;
}

void g3d_pool_run(G3DThreadPool *p, G3DJobFn *fn, void *arg)
{
    pool_run(p, fn, arg, false, false, false, NULL);
}

void g3d_pool_run_shared(G3DThreadPool *p, G3DJobFn *fn, void *arg)
{
    pool_run(p, fn, arg, true, false, false, NULL);
}

int g3d_pool_post_shared(G3DThreadPool *p, G3DJobFn *fn, void *arg)
{
    int joined;

    pool_run(p, fn, arg, true, false, true, &joined);
    return joined;
}

int g3d_pool_joined(G3DThreadPool *p)
{
    return __atomic_load_n(&p->joined, __ATOMIC_ACQUIRE);
}

bool g3d_pool_busy(G3DThreadPool *p)
{
    return __atomic_load_n(&p->pending, __ATOMIC_ACQUIRE) != 0;
}

void g3d_pool_wait(G3DThreadPool *p)
{
    if (p->threads == 1) {
        return;
    }
    pool_lock(p);
    pool_wait_locked(p);
    g_mutex_unlock(&p->lock);
}

bool g3d_pool_try_run_shared(G3DThreadPool *p, G3DJobFn *fn, void *arg)
{
    return pool_run(p, fn, arg, true, true, false, NULL);
}

int g3d_default_threads(void)
{
    int n = (int)g_get_num_processors();
    return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : n;
}
