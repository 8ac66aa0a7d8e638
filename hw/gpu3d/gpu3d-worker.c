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

#define QUEUE_SIZE      4096    /* queued writes before MMIO waits */
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

static void *worker_main(void *opaque)
{
    G3DWorker *w = opaque;

    rcu_register_thread();
    qemu_mutex_lock(&w->lock);
    while (!w->quit) {
        if (w->paused) {
            qemu_cond_wait(&w->wake, &w->lock);
            continue;
        }
        if (w->qcount) {
            G3DWrite wr = w->queue[w->qhead];
            w->qhead = (w->qhead + 1) % QUEUE_SIZE;
            w->qcount--;
            w->busy = true;
            w->ops->reg_write(w->core, wr.offset, wr.val, wr.size);
            w->busy = false;
            if (!w->qcount) {
                qemu_cond_broadcast(&w->drained);
            }
            w->kick = true;     /* a write may have started work */
            continue;
        }
        if (w->kick) {
            w->busy = true;
            w->kick = w->ops->work(w->core, w->ops->work_budget ?
                                            w->ops->work_budget : WORK_BUDGET);
            w->busy = false;
            qemu_cond_broadcast(&w->idle);
            if (w->kick) {
                /* let MMIO and the main loop in between steps */
                qemu_mutex_unlock(&w->lock);
                qemu_mutex_lock(&w->lock);
            }
            continue;
        }
        qemu_cond_broadcast(&w->idle);
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
 * With the lock held: every queued write applied, by the worker, or here
 * when the VM is stopped. What reads the core from outside (MMIO reads,
 * the display) sees the guest's writes in order.
 */
static void drain_locked(G3DWorker *w)
{
    while (w->qcount && !w->paused) {
        qemu_cond_wait(&w->drained, &w->lock);
    }
    while (w->qcount) {
        G3DWrite wr = w->queue[w->qhead];
        w->qhead = (w->qhead + 1) % QUEUE_SIZE;
        w->qcount--;
        w->ops->reg_write(w->core, wr.offset, wr.val, wr.size);
    }
}

void g3d_worker_mmio_write(G3DWorker *w, uint32_t offset, uint64_t val,
                           unsigned size)
{
    qemu_mutex_lock(&w->lock);
    /*
     * back-pressure: a guest that writes faster than the chip runs waits
     * (with the VM stopped, the full queue is applied in place, in order)
     */
    if (w->qcount == QUEUE_SIZE) {
        drain_locked(w);
    }
    w->queue[(w->qhead + w->qcount) % QUEUE_SIZE] =
        (G3DWrite){ .offset = offset, .size = size, .val = val };
    w->qcount++;
    qemu_cond_signal(&w->wake);
    qemu_mutex_unlock(&w->lock);
}

void g3d_worker_kick(G3DWorker *w)
{
    qemu_mutex_lock(&w->lock);
    w->kick = true;
    qemu_cond_signal(&w->wake);
    qemu_mutex_unlock(&w->lock);
}

uint64_t g3d_worker_mmio_read(G3DWorker *w, uint32_t offset, unsigned size)
{
    uint64_t v;

    qemu_mutex_lock(&w->lock);
    drain_locked(w);
    v = w->ops->reg_read(w->core, offset, size);
    qemu_mutex_unlock(&w->lock);
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

void g3d_worker_reset(G3DWorker *w)
{
    qemu_mutex_lock(&w->lock);
    w->qcount = 0;
    w->kick = false;
    w->ops->reset(w->core);
    qemu_cond_broadcast(&w->drained);
    qemu_mutex_unlock(&w->lock);
    qatomic_set(&w->irq_level, 0);
    pci_set_irq(w->pdev, 0);
}

static void vm_state_change(void *opaque, bool running, RunState state)
{
    G3DWorker *w = opaque;

    qemu_mutex_lock(&w->lock);
    w->paused = !running;
    if (!running) {
        /* park: the worker leaves the core before the VM counts as stopped */
        while (w->busy) {
            qemu_cond_wait(&w->idle, &w->lock);
        }
    } else {
        w->kick = true;
    }
    qemu_cond_broadcast(&w->wake);
    qemu_cond_broadcast(&w->drained);
    qemu_mutex_unlock(&w->lock);
}

/* ---- consoles --------------------------------------------------------- */

static void gfx_update(void *opaque)
{
    struct G3DHead *h = opaque;
    G3DWorker *w = h->w;
    QemuConsole *con = w->con[h->head];
    DisplaySurface *surf = qemu_console_surface(con);
    G3DScanout so;
    bool on;

    qemu_mutex_lock(&w->lock);
    /* the scanout registers as the guest last wrote them */
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
    }
    if (on) {
        g3d_scanout_copy(&so, w->ops->scanout_mem(w->core, h->head),
                         (uint32_t *)surface_data(surf),
                         surface_stride(surf) / 4, w->name);
    } else {
        /* a head that is off, or set up wrongly, shows black */
        memset(surface_data(surf), 0,
               (size_t)surface_stride(surf) * surface_height(surf));
    }
    qemu_mutex_unlock(&w->lock);
    dpy_gfx_update_full(con);
}

static const GraphicHwOps gfx_ops = {
    .gfx_update = gfx_update,
};

/* ---- life cycle --------------------------------------------------------- */

void g3d_worker_start(G3DWorker *w, PCIDevice *pdev, const char *name,
                      void *core, const G3DCoreOps *ops, int heads,
                      const uint32_t *blank_w, const uint32_t *blank_h,
                      Error **errp)
{
    int i;

    w->pdev = pdev;
    w->name = name;
    w->core = core;
    w->ops = ops;
    w->queue = g_new0(G3DWrite, QUEUE_SIZE);
    qemu_mutex_init(&w->lock);
    qemu_cond_init(&w->wake);
    qemu_cond_init(&w->drained);
    qemu_cond_init(&w->idle);
    w->irq_bh = qemu_bh_new(irq_bh, w);
    w->paused = !runstate_is_running();
    w->vmstate = qemu_add_vm_change_state_handler(vm_state_change, w);
    error_setg(&w->migration_blocker,
               "%s: device state is not migratable yet", name);
    if (g3d_migrate_add_blocker(&w->migration_blocker, errp) < 0) {
        error_free(w->migration_blocker);
        w->migration_blocker = NULL;
    }
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

    qemu_mutex_lock(&w->lock);
    w->quit = true;
    qemu_cond_broadcast(&w->wake);
    qemu_mutex_unlock(&w->lock);
    qemu_thread_join(&w->thread);
    for (i = 0; i < w->heads; i++) {
        graphic_console_close(w->con[i]);
    }
    qemu_del_vm_change_state_handler(w->vmstate);
    if (w->migration_blocker) {
        g3d_migrate_del_blocker(&w->migration_blocker);
    }
    qemu_bh_delete(w->irq_bh);
    qemu_mutex_destroy(&w->lock);
    qemu_cond_destroy(&w->wake);
    qemu_cond_destroy(&w->drained);
    qemu_cond_destroy(&w->idle);
    g_free(w->queue);
}
