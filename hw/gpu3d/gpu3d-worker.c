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
}

/* ---- guest memory ----------------------------------------------------- */

/*
 * Only RAM is reachable: a DMA to MMIO from the worker would need the BQL,
 * which the worker never takes (a vCPU holding the BQL may be waiting for
 * the worker). A chip address that lands on MMIO is a failed access, which
 * the core logs as a guest error.
 */
static void *guest_map(void *opaque, uint64_t addr, uint64_t len,
                       bool is_write)
{
    PCIDevice *pdev = opaque;
    AddressSpace *as = pci_get_address_space(pdev);
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
    return p;
}

static bool guest_read(void *opaque, uint64_t addr, void *buf, uint64_t len)
{
    uint8_t *out = buf;

    /* page by page: guest RAM need not be contiguous in the host */
    while (len) {
        uint64_t n = MIN(len, CHUNK - (addr & (CHUNK - 1)));
        void *p = guest_map(opaque, addr, n, false);
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
    const uint8_t *in = buf;
    uint64_t a, left;

    /* all or nothing: check every page first */
    for (a = addr, left = len; left;) {
        uint64_t n = MIN(left, CHUNK - (a & (CHUNK - 1)));
        if (!guest_map(opaque, a, n, true)) {
            return false;
        }
        a += n;
        left -= n;
    }
    while (len) {
        uint64_t n = MIN(len, CHUNK - (addr & (CHUNK - 1)));
        memcpy(guest_map(opaque, addr, n, true), in, n);
        in += n;
        addr += n;
        len -= n;
    }
    return true;
}

void g3d_guest_mem_init(G3DMem *mem, PCIDevice *pdev)
{
    mem->opaque = pdev;
    mem->map = guest_map;
    mem->read = guest_read;
    mem->write = guest_write;
}

void g3d_ram_mem_init(G3DMem *mem, G3DRamMem *ram, MemoryRegion *mr)
{
    g3d_flat_mem_init(mem, &ram->flat, memory_region_get_ram_ptr(mr), 0,
                      memory_region_size(mr));
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
        if (!w->busy && w->qcount && !(f & G3D_PREEMPT_PAUSE)) {
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

static G3DWrite queue_pop(G3DWorker *w)
{
    G3DWrite wr = w->queue[w->qhead];

    w->qhead = (w->qhead + 1) & (w->qsize - 1);
    w->qcount--;
    return wr;
}

static void *worker_main(void *opaque)
{
    G3DWorker *w = opaque;
    bool stepped = false;       /* a step ran since the last hand-over */

    rcu_register_thread();
    qemu_mutex_lock(&w->lock);
    while (!w->quit) {
        unsigned f = qatomic_read(&w->preempt.flags);

        if (f & (G3D_PREEMPT_CANCEL | G3D_PREEMPT_PAUSE)) {
            /* reset/unplug in progress, or the VM is stopped */
            qemu_cond_broadcast(&w->changed);
            qemu_cond_wait(&w->wake, &w->lock);
            continue;
        }
        if (w->qcount) {
            G3DWrite wr = queue_pop(w);

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
        qemu_cond_wait(&w->wake, &w->lock);
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

void g3d_worker_irq_changed(G3DWorker *w)
{
    qatomic_set(&w->irq_level, w->ops->irq_level(w->core));
    qemu_bh_schedule(w->irq_bh);
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
    while (w->qcount && !w->busy &&
           !(qatomic_read(&w->preempt.flags) &
             (G3D_PREEMPT_PAUSE | G3D_PREEMPT_CANCEL))) {
        client_wait(w);
    }
    if (w->busy) {
        return;
    }
    while (w->qcount) {
        G3DWrite wr = queue_pop(w);

        w->ops->reg_write(w->core, wr.offset, wr.val, wr.size);
    }
}

void g3d_worker_mmio_write(G3DWorker *w, uint32_t offset, uint64_t val,
                           unsigned size)
{
    if (w->ops->write_seen) {
        w->ops->write_seen(w, offset, val, size);
    }
    client_lock(w);
    if (w->qcount == w->qsize) {
        /*
         * Never wait for the chip: the queue grows (the guest's writes keep
         * their order) up to a bound, past which a guest that outruns the
         * chip loses writes, logged.
         */
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
                          " to 0x%x dropped\n", w->name, w->qcount, val,
                          offset);
            client_unlock(w);
            return;
        }
    }
    w->queue[(w->qhead + w->qcount) & (w->qsize - 1)] =
        (G3DWrite){ .offset = offset, .size = size, .val = val };
    w->qcount++;
    client_unlock(w);
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
    w->qcount = 0;
    w->kick = false;
    /*
     * As the worker's stand-in: with CANCEL set, whatever the core's reset
     * finishes (queued triangles) is dropped rather than drawn.
     */
    g3d_preempt_enter(&w->preempt);
    w->ops->reset(w->core);
    g3d_preempt_leave(&w->preempt);
    worker_release(w);
    qatomic_set(&w->irq_level, 0);
    pci_set_irq(w->pdev, 0);
}

static void vm_state_change(void *opaque, bool running, RunState state)
{
    G3DWorker *w = opaque;

    if (running) {
        g3d_preempt_clear(&w->preempt, G3D_PREEMPT_PAUSE);
        client_lock(w);
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

bool g3d_worker_start(G3DWorker *w, PCIDevice *pdev, const char *name,
                      void *core, const G3DCoreOps *ops, int heads,
                      const uint32_t *blank_w, const uint32_t *blank_h,
                      Error **errp)
{
    int i;

    /* the only step that can fail comes first: nothing to undo */
    error_setg(&w->migration_blocker,
               "%s: device state is not migratable yet", name);
    if (g3d_migrate_add_blocker(&w->migration_blocker, errp) < 0) {
        error_free(w->migration_blocker);
        w->migration_blocker = NULL;
        return false;
    }
    w->pdev = pdev;
    w->name = name;
    w->core = core;
    w->ops = ops;
    w->qsize = QUEUE_SIZE;
    w->queue = g_new0(G3DWrite, w->qsize);
    qemu_mutex_init(&w->lock);
    qemu_cond_init(&w->wake);
    qemu_cond_init(&w->changed);
    g3d_preempt_init(&w->preempt, worker_yield);
    if (!runstate_is_running()) {
        g3d_preempt_set(&w->preempt, G3D_PREEMPT_PAUSE);
    }
    w->irq_bh = qemu_bh_new(irq_bh, w);
    w->vmstate = qemu_add_vm_change_state_handler(vm_state_change, w);
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
    return true;
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
    g3d_migrate_del_blocker(&w->migration_blocker);
    qemu_bh_delete(w->irq_bh);
    g3d_preempt_destroy(&w->preempt);
    qemu_mutex_destroy(&w->lock);
    qemu_cond_destroy(&w->wake);
    qemu_cond_destroy(&w->changed);
    g_free(w->queue);
}
