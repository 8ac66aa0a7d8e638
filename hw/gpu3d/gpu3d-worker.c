/*
 * The QEMU glue every gpu3d device shares (see gpu3d-worker.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "qemu/rcu.h"
#include "qapi/error.h"
#include "qemu/error-report.h"
#include "migration/misc.h"
#include "ui/console.h"
#include "gpu3d-worker.h"
#include "common/raster.h"
#include "trace.h"

#define QUEUE_SIZE      4096    /* queued writes at start (a power of 2) */
#define QUEUE_MAX       (1u << 20) /* queued writes before writes are lost */
#define WORK_BUDGET     32      /* default units per locked step */
#define CHUNK           4096    /* guest RAM is contiguous within a page */

/* ---- logging ---------------------------------------------------------- */

static void log_sink(G3DLogKind kind, const char *msg)
{
    qemu_log_mask(kind == G3D_LOG_GUEST_ERROR ? LOG_GUEST_ERROR : LOG_UNIMP,
                  "%s\n", msg);
}

void g3d_install_qemu_log(void)
{
    g3d_set_log_sink(log_sink);
    /* render helpers read guest memory through guest_translate */
    g3d_helper_thread_begin = rcu_register_thread;
    g3d_helper_thread_end = rcu_unregister_thread;
}

/* ---- guest memory ----------------------------------------------------- */

/*
 * Only RAM is reachable: a DMA to MMIO from the worker would need the BQL,
 * which the worker never takes (a vCPU holding the BQL may be waiting for
 * the worker). A chip address that lands on MMIO is a failed access, which
 * the core logs as a guest error.
 */
static void *guest_translate(G3DWorker *w, uint64_t addr, uint64_t len,
                             bool is_write, MemoryRegion **mrp, hwaddr *xlatp)
{
    AddressSpace *as = pci_get_address_space(w->pdev);
    MemoryRegion *mr;
    hwaddr xlat, l = len;
    void *p = NULL;

    if (len == 0 || addr + len < addr) {
        return NULL;
    }
    RCU_READ_LOCK_GUARD();
    mr = address_space_translate(as, addr, &xlat, &l, is_write,
                                 MEMTXATTRS_UNSPECIFIED);
    if (l < len || !memory_region_is_ram(mr) ||
        (is_write && mr->readonly)) {
        return NULL;
    }
    p = (uint8_t *)memory_region_get_ram_ptr(mr) + xlat;
    if (is_write) {
        memory_region_set_dirty(mr, xlat, len);
    }
    *mrp = mr;
    *xlatp = xlat;
    return p;
}

/* ranges of a region this close are logged as one */
#define WRITE_LOG_GAP   (1 << 20)

static hwaddr range_gap(const struct G3DWriteRange *a,
                        const struct G3DWriteRange *b)
{
    return a->hi < b->lo ? b->lo - a->hi :
           b->hi < a->lo ? a->lo - b->hi : 0;
}

static void range_merge(struct G3DWriteRange *into,
                        const struct G3DWriteRange *r)
{
    into->lo = MIN(into->lo, r->lo);
    into->hi = MAX(into->hi, r->hi);
}

/* log [xlat, xlat + len) of mr as written behind dirty tracking's back */
static void write_log_add(G3DWriteLog *log, MemoryRegion *mr, hwaddr xlat,
                          hwaddr len)
{
    struct G3DWriteRange r = { mr, xlat, xlat + len };
    unsigned i, j, bi = 0, bj = 0;
    hwaddr best = HWADDR_MAX;

    qemu_mutex_lock(&log->lock);
    for (i = 0; i < log->n; i++) {
        if (log->r[i].mr == mr && range_gap(&log->r[i], &r) <= WRITE_LOG_GAP) {
            range_merge(&log->r[i], &r);
            goto out;
        }
    }
    if (log->n == G3D_WRITE_LOG_MAX) {
        /* full: merge the two closest ranges of one region */
        for (i = 0; i < log->n; i++) {
            for (j = i + 1; j < log->n; j++) {
                if (log->r[i].mr == log->r[j].mr &&
                    range_gap(&log->r[i], &log->r[j]) < best) {
                    best = range_gap(&log->r[i], &log->r[j]);
                    bi = i;
                    bj = j;
                }
            }
        }
        if (best == HWADDR_MAX) {
            /* 32 regions at once (never seen): this range goes unlogged */
            goto out;
        }
        /* the same region stays referenced by the merged entry */
        range_merge(&log->r[bi], &log->r[bj]);
        memory_region_unref(log->r[bj].mr);
        log->r[bj] = log->r[--log->n];
    }
    /* held until the log forgets it: the region may be another device's */
    memory_region_ref(mr);
    log->r[log->n++] = r;
out:
    qemu_mutex_unlock(&log->lock);
}

/* A save, the core quiet: what it wrote through its maps goes again. */
static void write_log_mark(G3DWriteLog *log)
{
    unsigned i;

    qemu_mutex_lock(&log->lock);
    for (i = 0; i < log->n; i++) {
        memory_region_set_dirty(log->r[i].mr, log->r[i].lo,
                                log->r[i].hi - log->r[i].lo);
    }
    qemu_mutex_unlock(&log->lock);
}

/* Forget every range (a reset: the core maps again before it writes). */
static void write_log_clear(G3DWriteLog *log)
{
    qemu_mutex_lock(&log->lock);
    while (log->n) {
        memory_region_unref(log->r[--log->n].mr);
    }
    qemu_mutex_unlock(&log->lock);
}

/*
 * The core's map: a pointer it may write through long after this call (a
 * draw's colour buffer), so a write map is logged for the next save.
 */
static void *guest_map(void *opaque, uint64_t addr, uint64_t len,
                       bool is_write)
{
    G3DWorker *w = opaque;
    MemoryRegion *mr;
    hwaddr xlat;
    void *p = guest_translate(w, addr, len, is_write, &mr, &xlat);

    if (p && is_write) {
        write_log_add(&w->wlog, mr, xlat, len);
    }
    return p;
}

static bool guest_read(void *opaque, uint64_t addr, void *buf, uint64_t len)
{
    G3DWorker *w = opaque;
    uint8_t *out = buf;
    MemoryRegion *mr;
    hwaddr xlat;

    /* page by page: guest RAM need not be contiguous in the host */
    while (len) {
        uint64_t n = MIN(len, CHUNK - (addr & (CHUNK - 1)));
        void *p = guest_translate(w, addr, n, false, &mr, &xlat);
        if (!p) {
            return false;
        }
        memcpy(out, p, n);
        out += n;
        addr += n;
        len -= n;
    }
    return true;
}

static bool guest_write(void *opaque, uint64_t addr, const void *buf,
                        uint64_t len)
{
    G3DWorker *w = opaque;
    const uint8_t *in = buf;
    uint64_t a, left;
    MemoryRegion *mr;
    hwaddr xlat;

    /* all or nothing: check every page first */
    for (a = addr, left = len; left;) {
        uint64_t n = MIN(left, CHUNK - (a & (CHUNK - 1)));
        if (!guest_translate(w, a, n, true, &mr, &xlat)) {
            return false;
        }
        a += n;
        left -= n;
    }
    while (len) {
        uint64_t n = MIN(len, CHUNK - (addr & (CHUNK - 1)));
        memcpy(guest_translate(w, addr, n, true, &mr, &xlat), in, n);
        /*
         * dirty again after the copy: a live migration's bitmap sync
         * between the translation's marking and the copy would send the
         * old bytes
         */
        memory_region_set_dirty(mr, xlat, n);
        in += n;
        addr += n;
        len -= n;
    }
    return true;
}

void g3d_guest_mem_init(G3DMem *mem, G3DWorker *w, PCIDevice *pdev)
{
    /* before g3d_worker_start: the core is made with this G3DMem */
    w->pdev = pdev;
    qemu_mutex_init(&w->wlog.lock);
    w->wlog.n = 0;
    w->wlog.used = true;
    mem->opaque = w;
    mem->map = guest_map;
    mem->read = guest_read;
    mem->write = guest_write;
}

void g3d_ram_mem_init(G3DMem *mem, G3DRamMem *ram, MemoryRegion *mr)
{
    g3d_flat_mem_init(mem, &ram->flat, memory_region_get_ram_ptr(mr), 0,
                      memory_region_size(mr));
}

/*
 * ---- the write queue ----------------------------------------------------
 *
 * Guest writes queue under `qlock` alone, so a vCPU never waits for the
 * worker to leave the core (which it may hold for a quantum). The worker
 * and the clients that apply writes take `qlock` inside `lock`.
 */

/* writes queued, read without qlock: a peek that a writer may outdate */
static unsigned queue_peek(G3DWorker *w)
{
    return qatomic_read(&w->qcount);
}

/* the oldest queued write into *wr; false when there is none */
static bool queue_pop(G3DWorker *w, G3DWrite *wr)
{
    bool any;

    qemu_mutex_lock(&w->qlock);
    any = w->qcount != 0;
    if (any) {
        *wr = w->queue[w->qhead];
        w->qhead = (w->qhead + 1) & (w->qsize - 1);
        qatomic_set(&w->qcount, w->qcount - 1);
    }
    qemu_mutex_unlock(&w->qlock);
    return any;
}

static void queue_clear(G3DWorker *w)
{
    qemu_mutex_lock(&w->qlock);
    qatomic_set(&w->qcount, 0);
    qemu_mutex_unlock(&w->qlock);
}

/*
 * qlock held: append a write. Never wait for the chip: the queue grows
 * (the guest's writes keep their order) up to a bound, past which a guest
 * that outruns the chip loses writes, logged.
 */
static void queue_push_locked(G3DWorker *w, G3DWrite wr)
{
    if (w->qcount == w->qsize) {
        if (w->qsize < QUEUE_MAX) {
            G3DWrite *q = g_new(G3DWrite, w->qsize * 2);
            unsigned i;

            for (i = 0; i < w->qcount; i++) {
                q[i] = w->queue[(w->qhead + i) & (w->qsize - 1)];
            }
            g_free(w->queue);
            w->queue = q;
            w->qhead = 0;
            w->qsize *= 2;
        } else {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: %u register writes queued "
                          "behind the chip's work: write of 0x%" PRIx64
                          " to 0x%x dropped\n", w->name, w->qcount, wr.val,
                          wr.offset);
            return;
        }
    }
    w->queue[(w->qhead + w->qcount) & (w->qsize - 1)] = wr;
    qatomic_set(&w->qcount, w->qcount + 1);
}

/* ---- the worker thread ---------------------------------------------- */

/*
 * Who may touch the core (docs/architecture.md, Threads): the worker holds
 * `lock` while it applies writes and runs work steps. Everyone else (MMIO,
 * the display, reset, the VM state handler) announces itself in
 * preempt.flags before it takes the lock (client_lock). The worker checks
 * those flags at every g3d_yield() of the core (per tile, per packet, per
 * few thousand pixels) and between steps; when someone waits it parks on
 * `wake`, which hands the lock over, and resumes only once the threads that
 * waited when it parked have left, so a waiter always gets in. It gives way
 * after running at least QUANTUM_US, so a guest that polls a register
 * cannot starve the chip. PAUSE (VM stopped) parks it until cont, in the
 * middle of a frame if need be; CANCEL (reset, unplug) makes the core
 * abandon what it was doing.
 */
#define QUANTUM_US      1000

static void client_lock(G3DWorker *w)
{
    qatomic_add(&w->preempt.flags, G3D_PREEMPT_WAITER);
    qemu_mutex_lock(&w->lock);
}

static void client_unlock(G3DWorker *w)
{
    qatomic_sub(&w->preempt.flags, G3D_PREEMPT_WAITER);
    w->served++;
    qemu_cond_broadcast(&w->wake);
    qemu_mutex_unlock(&w->lock);
}

/*
 * With the lock held: wait for the worker to change state (drain the queue,
 * park, leave the core). The client still counts as waiting, so a worker in
 * the middle of a core call parks for it at its next g3d_yield().
 */
static void client_wait(G3DWorker *w)
{
    qemu_cond_broadcast(&w->wake);
    qemu_cond_wait(&w->changed, &w->lock);
}

static int64_t now_us(void)
{
    return g_get_monotonic_time();
}

/*
 * The worker (lock held), inside a core call or between steps: give way.
 * true when the core must abandon the operation.
 */
static bool worker_yield(G3DPreempt *p)
{
    G3DWorker *w = container_of(p, G3DWorker, preempt);
    unsigned f = qatomic_read(&p->flags);
    unsigned waiting = f / G3D_PREEMPT_WAITER, served0 = w->served;

    if (f & G3D_PREEMPT_CANCEL) {
        return true;
    }
    if (!(f & G3D_PREEMPT_PAUSE) && now_us() - w->run_since < QUANTUM_US) {
        return false;
    }
    w->parked = true;
    qemu_cond_broadcast(&w->changed);
    for (;;) {
        f = qatomic_read(&p->flags);
        if (f & G3D_PREEMPT_CANCEL) {
            break;
        }
        if (!(f & G3D_PREEMPT_PAUSE) &&
            (f / G3D_PREEMPT_WAITER == 0 || w->served - served0 >= waiting)) {
            break;
        }
        if (!w->busy && queue_peek(w) && !(f & G3D_PREEMPT_PAUSE)) {
            /*
             * Between steps, writes came in while parked: a client may be
             * waiting for them to be applied (drain_locked), which is the
             * worker's job.
             */
            break;
        }
        qemu_cond_wait(&w->wake, &w->lock);
    }
    w->parked = false;
    w->run_since = now_us();
    return f & G3D_PREEMPT_CANCEL;
}

/* The worker (lock held): one call into the core, preemptible. */
static void worker_enter(G3DWorker *w)
{
    w->busy = true;
    w->run_since = now_us();
    g3d_preempt_enter(&w->preempt);
}

static void worker_leave(G3DWorker *w)
{
    g3d_preempt_leave(&w->preempt);
    w->busy = false;
    qemu_cond_broadcast(&w->changed);
}

static void *worker_main(void *opaque)
{
    G3DWorker *w = opaque;
    bool stepped = false;       /* a step ran since the last hand-over */
    G3DWrite wr;

    rcu_register_thread();
    qemu_mutex_lock(&w->lock);
    while (!w->quit) {
        unsigned f = qatomic_read(&w->preempt.flags);

        if ((f & (G3D_PREEMPT_CANCEL | G3D_PREEMPT_PAUSE)) || w->hold) {
            /* reset/unplug in progress, the VM is stopped, or being saved */
            qemu_cond_broadcast(&w->changed);
            qemu_cond_wait(&w->wake, &w->lock);
            continue;
        }
        if (queue_pop(w, &wr)) {
            worker_enter(w);
            w->ops->reg_write(w->core, wr.offset, wr.val, wr.size);
            worker_leave(w);
            w->kick = true;     /* a write may have started work */
            continue;
        }
        if (f && stepped) {
            /*
             * Between steps with the queue applied: whoever waits goes
             * first, without a quantum; then at least one step runs.
             */
            stepped = false;
            w->run_since = 0;
            worker_yield(&w->preempt);
            continue;
        }
        if (w->kick) {
            worker_enter(w);
            w->kick = w->ops->work(w->core, w->ops->work_budget ?
                                            w->ops->work_budget : WORK_BUDGET);
            worker_leave(w);
            stepped = true;
            continue;
        }
        qemu_cond_broadcast(&w->changed);
        /*
         * Idle: a writer that queues from now on wakes the worker (it sees
         * `idle`, or the worker sees its write: both are stored before
         * the other is read).
         */
        qatomic_set(&w->idle, true);
        smp_mb();
        if (!queue_peek(w)) {
            qemu_cond_wait(&w->wake, &w->lock);
        }
        qatomic_set(&w->idle, false);
    }
    qemu_mutex_unlock(&w->lock);
    rcu_unregister_thread();
    return NULL;
}

static void irq_bh(void *opaque)
{
    G3DWorker *w = opaque;

    pci_set_irq(w->pdev, qatomic_read(&w->irq_level));
}

/*
 * The line follows the core's level. Under the BQL (a vCPU's register
 * access, a timer) it is set at once: a guest's acknowledge must lower it
 * before the handler returns and the interrupt controller samples the
 * level again, or the interrupt is delivered again with nothing pending;
 * on a loaded host the main loop runs a bottom half late, and Linux,
 * counting 99 900 such deliveries of 100 000, disables the line ("irq N:
 * nobody cared", kernel/irq/spurious.c). The worker's changes go through
 * the bottom half, which sets the level current when it runs.
 */
void g3d_worker_irq_changed(G3DWorker *w)
{
    qatomic_set(&w->irq_level, w->ops->irq_level(w->core));
    if (g3d_bql_locked()) {
        pci_set_irq(w->pdev, qatomic_read(&w->irq_level));
    } else {
        qemu_bh_schedule(w->irq_bh);
    }
}

void g3d_worker_irq_cb(void *worker)
{
    G3DWorker *w = worker;

    /* a core may raise its callback while it is created, before the worker */
    if (w->ops) {
        g3d_worker_irq_changed(w);
    }
}

/*
 * A client (lock held): the guest's queued writes applied, so that what it
 * reads from the core sees them in order. Never waits for rendering: when
 * the worker is in the middle of a core call (parked at a g3d_yield()), the
 * queued writes are behind that work, as in the chip's own FIFO, and the
 * read answers from the state so far. With the VM stopped and the core
 * idle, the writes are applied here.
 */
static void drain_locked(G3DWorker *w)
{
    G3DWrite wr;

    while (queue_peek(w) && !w->busy &&
           !(qatomic_read(&w->preempt.flags) &
             (G3D_PREEMPT_PAUSE | G3D_PREEMPT_CANCEL))) {
        client_wait(w);
    }
    if (w->busy) {
        return;
    }
    while (queue_pop(w, &wr)) {
        w->ops->reg_write(w->core, wr.offset, wr.val, wr.size);
    }
}

void g3d_worker_mmio_write(G3DWorker *w, uint32_t offset, uint64_t val,
                           unsigned size)
{
    G3DWrite wr = { .offset = offset, .size = size, .val = val };

    if (w->ops->write_seen) {
        w->ops->write_seen(w, offset, val, size);
    }
    if (w->ops->write_now && w->ops->write_now(offset, val, size)) {
        client_lock(w);
        w->ops->reg_write(w->core, offset, val, size);
        client_unlock(w);
        return;
    }
    qemu_mutex_lock(&w->qlock);
    queue_push_locked(w, wr);
    qemu_mutex_unlock(&w->qlock);
    /* pairs with the worker's barrier between `idle` and its queue peek */
    smp_mb();
    if (qatomic_read(&w->idle)) {
        /* the worker holds the lock only up to its wait: not for long */
        qemu_mutex_lock(&w->lock);
        qemu_cond_broadcast(&w->wake);
        qemu_mutex_unlock(&w->lock);
    }
}

void g3d_worker_kick(G3DWorker *w)
{
    client_lock(w);
    w->kick = true;
    client_unlock(w);
}

uint64_t g3d_worker_mmio_read(G3DWorker *w, uint32_t offset, unsigned size)
{
    uint64_t v;

    client_lock(w);
    drain_locked(w);
    v = w->ops->reg_read(w->core, offset, size);
    client_unlock(w);
    return v;
}

/* ---- the register BAR -------------------------------------------------- */

static uint64_t mmio_read(void *opaque, hwaddr addr, unsigned size)
{
    G3DWorker *w = opaque;
    uint64_t val = g3d_worker_mmio_read(w, addr, size);

    trace_gpu3d_mmio_read(w->name, addr, size, val);
    return val;
}

static void mmio_write(void *opaque, hwaddr addr, uint64_t val, unsigned size)
{
    G3DWorker *w = opaque;

    trace_gpu3d_mmio_write(w->name, addr, size, val);
    g3d_worker_mmio_write(w, addr, val, size);
}

#define MMIO_OPS(valid_max, impl_max) {                                      \
        .read = mmio_read,                                                  \
        .write = mmio_write,                                                \
        .endianness = DEVICE_LITTLE_ENDIAN,                                 \
        .valid = { .min_access_size = 1, .max_access_size = valid_max },    \
        .impl = { .min_access_size = 1, .max_access_size = impl_max },      \
    }

static const MemoryRegionOps mmio_ops[] = {
    [G3D_MMIO_4] = MMIO_OPS(4, 4),
    [G3D_MMIO_8_SPLIT] = MMIO_OPS(8, 4),
    [G3D_MMIO_8] = MMIO_OPS(8, 8),
};

void g3d_worker_init_mmio(G3DWorker *w, Object *owner, MemoryRegion *mr,
                          uint64_t size, G3DMmioWidth width)
{
    g_autofree char *name = g_strdup_printf("%s.mmio",
                                            object_get_typename(owner));

    w->name = object_get_typename(owner);
    w->mmio_size = size;
    memory_region_init_io(mr, owner, &mmio_ops[width], w, name, size);
}

bool g3d_render_threads(uint32_t prop, int *threads, Error **errp)
{
    if (prop > 64) {
        error_setg(errp, "render-threads must be 0 (host CPUs) to 64");
        return false;
    }
    *threads = prop ? (int)prop : g3d_default_threads();
    return true;
}

/* the saved streams (save and load, below) */
static void saved_free(G3DWorker *w)
{
    g_free(w->saved_core);
    g_free(w->saved_queue);
    w->saved_core = w->saved_queue = NULL;
    w->saved_core_len = w->saved_queue_len = 0;
}

/*
 * Take the core from the worker for a reset or unplug: the core abandons
 * what it is doing (at its next g3d_yield()) and the worker waits outside
 * it until g3d_worker_release. Main loop, BQL held; returns with the lock.
 */
static void worker_cancel(G3DWorker *w)
{
    g3d_preempt_set(&w->preempt, G3D_PREEMPT_CANCEL);
    client_lock(w);
    qemu_cond_broadcast(&w->wake);
    while (w->busy) {
        client_wait(w);
    }
}

static void worker_release(G3DWorker *w)
{
    g3d_preempt_clear(&w->preempt, G3D_PREEMPT_CANCEL);
    client_unlock(w);
}

void g3d_worker_reset(G3DWorker *w)
{
    worker_cancel(w);
    queue_clear(w);
    w->kick = false;
    saved_free(w);
    /*
     * As the worker's stand-in: with CANCEL set, whatever the core's reset
     * finishes (queued triangles) is dropped rather than drawn.
     */
    g3d_preempt_enter(&w->preempt);
    w->ops->reset(w->core);
    g3d_preempt_leave(&w->preempt);
    worker_release(w);
    if (w->wlog.used) {
        write_log_clear(&w->wlog);
    }
    qatomic_set(&w->irq_level, 0);
    pci_set_irq(w->pdev, 0);
}

/* ---- save and load (docs/architecture.md, Migration) -------------------- */

/* how long saving waits for the step the worker is in (then it fails) */
#define QUIESCE_US      (10 * G_USEC_PER_SEC)

/* The core's stream, with the worker outside the core (lock held). */
static void snapshot_locked(G3DWorker *w)
{
    G3DStateOut o;

    saved_free(w);
    g3d_state_out_init(&o);
    w->ops->save_state(w->core, &o);
    w->saved_core = o.buf;
    w->saved_core_len = o.len;
}

/*
 * Every RAM region in a BAR's tree: a BAR may be a container (r300's BAR0
 * holds its VRAM under the SURFACE_* overlay), and the RAM below it is what
 * the core wrote behind dirty tracking's back during a live migration.
 */
static void mark_ram_dirty(MemoryRegion *mr)
{
    MemoryRegion *sub;

    if (memory_region_is_ram(mr)) {
        memory_region_set_dirty(mr, 0, memory_region_size(mr));
    }
    QTAILQ_FOREACH(sub, &mr->subregions, subregions_link) {
        mark_ram_dirty(sub);
    }
}

/*
 * The VM is stopped and the worker parked, maybe at a g3d_yield() in the
 * middle of a step, whose C stack no stream can hold: let it finish the
 * unit it is in (the core ends the step there, g3d_step_end), hold it
 * outside the core until the VM runs again, and take the core's stream.
 * This runs before guest RAM is saved (at the VM stop of a migration or
 * savevm, or at a migration's or savevm's setup when the VM was stopped
 * already), so what the unit and the core's save draw (a core may finish
 * a batch of queued triangles before it saves) travels with the RAM; the
 * RAM in the device's BARs is marked dirty, since the cores write it through
 * host pointers, which dirty tracking does not see. false when the unit
 * did not end within QUIESCE_US (one unit can be hours of pixels): the
 * worker parks in it again and pre_save fails.
 */
static bool worker_quiesce(G3DWorker *w)
{
    int64_t deadline = now_us() + QUIESCE_US;
    bool done;
    int i;

    client_lock(w);
    w->hold = true;
    if (w->busy) {
        /* the core ends the step at its next unit (g3d_step_end) */
        __atomic_store_n(&w->preempt.end_step, true, __ATOMIC_RELEASE);
        /* render helpers park while PAUSE is set: let them go on too */
        g3d_preempt_clear(&w->preempt, G3D_PREEMPT_PAUSE);
        while (w->busy && now_us() < deadline) {
            /*
             * The worker parks for this waiting client every quantum;
             * count the client as served so that it resumes at once.
             */
            w->served++;
            qemu_cond_broadcast(&w->wake);
            qemu_cond_timedwait(&w->changed, &w->lock, 100);
        }
        g3d_preempt_set(&w->preempt, G3D_PREEMPT_PAUSE);
        __atomic_store_n(&w->preempt.end_step, false, __ATOMIC_RELEASE);
    }
    done = !w->busy;
    if (done) {
        snapshot_locked(w);
    } else {
        w->hold = false;
        saved_free(w);
        while (w->busy && !w->parked) {
            client_wait(w);
        }
    }
    client_unlock(w);
    for (i = 0; done && i < PCI_NUM_REGIONS; i++) {
        MemoryRegion *mr = w->pdev->io_regions[i].memory;

        if (mr) {
            mark_ram_dirty(mr);
        }
    }
    if (done && w->wlog.used) {
        write_log_mark(&w->wlog);
    }
    trace_gpu3d_quiesce(w->name, done);
    return done;
}

/* A migration or savevm starts: with the VM stopped already, quiesce now. */
static int worker_precopy_notify(G3D_PRECOPY_NOTIFY_ARGS)
{
    G3DWorker *w = container_of(n, G3DWorker, precopy);
    PrecopyNotifyData *pnd = data;

    if (pnd->reason == PRECOPY_NOTIFY_SETUP && !runstate_is_running()) {
        worker_quiesce(w);
    }
    return 0;
}

/* The queued writes: what the worker has not applied yet. */
#define QUEUE_MAGIC     0x57443347u     /* "G3DW" */
#define QUEUE_VERSION   1

static int worker_pre_save(void *opaque)
{
    G3DWorker *w = opaque;
    G3DStateOut queue;
    unsigned i;

    qemu_mutex_lock(&w->lock);
    if (!w->saved_core) {
        if (w->busy) {
            qemu_mutex_unlock(&w->lock);
            error_report("%s: the device is in the middle of a command that "
                         "did not finish within %d s of the VM stop; its "
                         "state cannot be saved", w->name,
                         (int)(QUIESCE_US / G_USEC_PER_SEC));
            return -EBUSY;
        }
        snapshot_locked(w);
    }
    g3d_state_out_init(&queue);
    g3d_state_begin(&queue, QUEUE_MAGIC, QUEUE_VERSION);
    g3d_state_put_u8(&queue, w->kick);
    qemu_mutex_lock(&w->qlock);
    g3d_state_put_u32(&queue, w->qcount);
    for (i = 0; i < w->qcount; i++) {
        const G3DWrite *wr = &w->queue[(w->qhead + i) & (w->qsize - 1)];

        g3d_state_put_u32(&queue, wr->offset);
        g3d_state_put_u8(&queue, wr->size);
        g3d_state_put_u64(&queue, wr->val);
    }
    qemu_mutex_unlock(&w->qlock);
    g_free(w->saved_queue);
    w->saved_queue = queue.buf;
    w->saved_queue_len = queue.len;
    qemu_mutex_unlock(&w->lock);
    return 0;
}

static int worker_post_save(void *opaque)
{
    saved_free(opaque);
    return 0;
}

static int worker_pre_load(void *opaque)
{
    saved_free(opaque);
    return 0;
}

/* the streams are bounded before VMState allocates them */
#define SAVED_MAX       (256u << 20)

static bool saved_len_ok(void *opaque, int version_id)
{
    G3DWorker *w = opaque;

    return w->saved_core_len <= SAVED_MAX &&
           w->saved_queue_len <= 8 + 1 + 4 + QUEUE_MAX * 13;
}

/* The saved queue into w->queue (lock held); false with in->error set. */
static bool queue_load(G3DWorker *w, G3DStateIn *in)
{
    uint32_t n, i, limit = w->mmio_size + w->ops->queue_events;
    unsigned size = QUEUE_SIZE;
    bool kick;

    g3d_state_expect(in, QUEUE_MAGIC, QUEUE_VERSION, "the gpu3d worker");
    kick = g3d_state_get_bool(in);
    n = g3d_state_get_index(in, QUEUE_MAX + 1, "queued write count");
    if (!in->ok) {
        return false;
    }
    while (size < n) {
        size *= 2;
    }
    qemu_mutex_lock(&w->qlock);
    g_free(w->queue);
    w->queue = g_new0(G3DWrite, size);
    w->qsize = size;
    w->qhead = 0;
    qatomic_set(&w->qcount, 0);
    for (i = 0; i < n && in->ok; i++) {
        G3DWrite *wr = &w->queue[i];

        wr->offset = g3d_state_get_index(in, limit, "queued write offset");
        wr->size = g3d_state_get_u8(in);
        wr->val = g3d_state_get_u64(in);
        if (in->ok && wr->size != 1 && wr->size != 2 && wr->size != 4 &&
            wr->size != 8) {
            g3d_state_fail(in, "saved queued write has size %u", wr->size);
        }
    }
    if (g3d_state_end(in)) {
        qatomic_set(&w->qcount, n);
    }
    qemu_mutex_unlock(&w->qlock);
    if (!in->ok) {
        return false;
    }
    w->kick = kick;
    return true;
}

static int worker_post_load(void *opaque, int version_id)
{
    G3DWorker *w = opaque;
    G3DStateIn in;
    bool ok;
    int i;

    /* loadvm over a running core: it abandons whatever it was doing */
    worker_cancel(w);
    queue_clear(w);
    w->kick = false;
    g3d_state_in_init(&in, w->saved_core, w->saved_core_len);
    /* as the worker's stand-in, with CANCEL set (as a reset is) */
    g3d_preempt_enter(&w->preempt);
    ok = w->ops->load_state(w->core, &in);
    if (ok) {
        g3d_state_in_init(&in, w->saved_queue, w->saved_queue_len);
        ok = queue_load(w, &in);
        if (!ok) {
            w->ops->reset(w->core);     /* a failed load leaves it reset */
        }
    }
    g3d_preempt_leave(&w->preempt);
    worker_release(w);
    saved_free(w);
    qatomic_set(&w->irq_level, w->ops->irq_level(w->core));
    pci_set_irq(w->pdev, qatomic_read(&w->irq_level));
    for (i = 0; i < w->heads; i++) {
        /* the next refresh copies the whole picture */
        g3d_scanout_cache_reset(&w->shown[i]);
    }
    trace_gpu3d_load(w->name, ok);
    if (!ok) {
        error_report("%s: cannot load the saved device state: %s", w->name,
                     in.error);
        return -EINVAL;
    }
    return 0;
}

const VMStateDescription g3d_vmstate_worker = {
    .name = "gpu3d-worker",
    .version_id = 1,
    .minimum_version_id = 1,
    .pre_save = worker_pre_save,
    .post_save = worker_post_save,
    .pre_load = worker_pre_load,
    .post_load = worker_post_load,
    .fields = (VMStateField[]) {
        VMSTATE_UINT32(saved_core_len, G3DWorker),
        VMSTATE_UINT32(saved_queue_len, G3DWorker),
        VMSTATE_VALIDATE("gpu3d saved state size", saved_len_ok),
        VMSTATE_VBUFFER_ALLOC_UINT32(saved_core, G3DWorker, 1, NULL,
                                     saved_core_len),
        VMSTATE_VBUFFER_ALLOC_UINT32(saved_queue, G3DWorker, 1, NULL,
                                     saved_queue_len),
        VMSTATE_END_OF_LIST()
    },
};

static void vm_state_change(void *opaque, bool running, RunState state)
{
    G3DWorker *w = opaque;

    if (running) {
        g3d_preempt_clear(&w->preempt, G3D_PREEMPT_PAUSE);
        client_lock(w);
        w->hold = false;
        saved_free(w);          /* the snapshot of a stop that did not save */
        w->kick = true;
        client_unlock(w);
        return;
    }
    /*
     * Park: the worker stops touching the core and memory before the VM
     * counts as stopped, in the middle of a frame if it is in one; cont
     * resumes it where it stopped.
     */
    g3d_preempt_set(&w->preempt, G3D_PREEMPT_PAUSE);
    client_lock(w);
    while (w->busy && !w->parked) {
        client_wait(w);
    }
    client_unlock(w);
    if (state == RUN_STATE_FINISH_MIGRATE || state == RUN_STATE_SAVE_VM) {
        /* the state is saved next: finish the step before RAM is sent */
        worker_quiesce(w);
    }
}

/* ---- consoles --------------------------------------------------------- */

static void gfx_update(void *opaque)
{
    struct G3DHead *h = opaque;
    G3DWorker *w = h->w;
    QemuConsole *con = w->con[h->head];
    DisplaySurface *surf = qemu_console_surface(con);
    G3DScanoutCache *shown = &w->shown[h->head];
    G3DScanout so;
    bool on, changed = true;

    /*
     * The scanout registers as the guest last wrote them, unless they are
     * queued behind work in progress; the picture is whatever the scanout
     * address holds now, as a CRTC would show it.
     */
    client_lock(w);
    drain_locked(w);
    on = w->ops->scanout(w->core, h->head, &so) &&
         g3d_scanout_check(&so, w->ops->scanout_mem(w->core, h->head),
                           w->name);
    if (!on) {
        so.width = w->blank_w[h->head];
        so.height = w->blank_h[h->head];
    }
    if (!surf || surface_width(surf) != so.width ||
        surface_height(surf) != so.height) {
        surf = qemu_create_displaysurface(so.width, so.height);
        dpy_gfx_replace_surface(con, surf);
        g3d_scanout_cache_reset(shown);
    }
    if (on) {
        /* unchanged registers and memory: the surface already shows it */
        g3d_scanout_copy_cached(shown, &so,
                                w->ops->scanout_mem(w->core, h->head),
                                (uint32_t *)surface_data(surf),
                                surface_stride(surf) / 4, w->name, &changed);
    } else {
        /* a head that is off, or set up wrongly, shows black */
        g3d_scanout_cache_reset(shown);
        memset(surface_data(surf), 0,
               (size_t)surface_stride(surf) * surface_height(surf));
    }
    client_unlock(w);
    if (changed) {
        dpy_gfx_update_full(con);
    }
}

static const GraphicHwOps gfx_ops = {
    .gfx_update = gfx_update,
};

/* ---- life cycle --------------------------------------------------------- */

void g3d_worker_start(G3DWorker *w, PCIDevice *pdev, const char *name,
                      void *core, const G3DCoreOps *ops, int heads,
                      const uint32_t *blank_w, const uint32_t *blank_h)
{
    int i;

    /* every core migrates: a device without save/load is a build mistake */
    assert(ops->save_state && ops->load_state);
    w->pdev = pdev;
    w->name = name;
    w->core = core;
    w->ops = ops;
    w->qsize = QUEUE_SIZE;
    w->queue = g_new0(G3DWrite, w->qsize);
    qemu_mutex_init(&w->lock);
    qemu_mutex_init(&w->qlock);
    qemu_cond_init(&w->wake);
    qemu_cond_init(&w->changed);
    g3d_preempt_init(&w->preempt, worker_yield);
    if (!runstate_is_running()) {
        g3d_preempt_set(&w->preempt, G3D_PREEMPT_PAUSE);
    }
    w->irq_bh = qemu_bh_new(irq_bh, w);
    w->vmstate = qemu_add_vm_change_state_handler(vm_state_change, w);
    w->precopy.notify = worker_precopy_notify;
    precopy_add_notifier(&w->precopy);
    w->heads = heads;
    for (i = 0; i < heads && i < G3D_MAX_HEADS; i++) {
        struct G3DHead *h = &w->head[i];

        h->w = w;
        h->head = i;
        w->blank_w[i] = blank_w[i];
        w->blank_h[i] = blank_h[i];
        w->con[i] = graphic_console_init(DEVICE(pdev), i, &gfx_ops, h);
    }
    qemu_thread_create(&w->thread, name, worker_main, w,
                       QEMU_THREAD_JOINABLE);
}

void g3d_worker_stop(G3DWorker *w)
{
    int i;

    /* unplug: whatever the core is doing is abandoned, not finished */
    worker_cancel(w);
    w->quit = true;
    qemu_cond_broadcast(&w->wake);
    qemu_mutex_unlock(&w->lock);
    qemu_thread_join(&w->thread);
    for (i = 0; i < w->heads; i++) {
        graphic_console_close(w->con[i]);
        g3d_scanout_cache_reset(&w->shown[i]);
    }
    qemu_del_vm_change_state_handler(w->vmstate);
    precopy_remove_notifier(&w->precopy);
    saved_free(w);
    qemu_bh_delete(w->irq_bh);
    g3d_preempt_destroy(&w->preempt);
    qemu_mutex_destroy(&w->lock);
    qemu_mutex_destroy(&w->qlock);
    if (w->wlog.used) {
        write_log_clear(&w->wlog);
        qemu_mutex_destroy(&w->wlog.lock);
        w->wlog.used = false;
    }
    qemu_cond_destroy(&w->wake);
    qemu_cond_destroy(&w->changed);
    g_free(w->queue);
}
