/*
 * r300-3d: the ATI Radeon R300 3D engine as a PCI device.
 *
 *   BAR0  VRAM (vram-size, default 64 MiB), 32-bit prefetchable; while a
 *         surface register tiles a range, that range is an MMIO overlay
 *         that shows it linear (r300/surface.c)
 *   BAR1  256 bytes of I/O space: registers 0x00-0xFF, MM_INDEX/MM_DATA
 *         among them reaching all others (as a real 9700's I/O BAR)
 *   BAR2  64 KiB of registers: the R3xx 3D registers at the reference's
 *         offsets and the CP, RBBM, interrupt, scratch, memory-controller,
 *         PCI GART and CRTC registers at their real Radeon offsets
 *
 * The engine core (hw/gpu3d/r300/) runs on the shared worker thread
 * (gpu3d-worker.c); this file is PCI, BARs, properties and console wiring,
 * the monitor's EDID (QEMU's generator; the core answers the DDC reads) and
 * the vblank timer.
 * docs/r300-3d.md says what is modelled.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/units.h"
#include "qapi/error.h"
#include "hw/pci/pci.h"
#include "hw/qdev-properties.h"
#include "qom/object.h"
#include "qemu/timer.h"
#include "hw/display/edid.h"
#include "gpu3d-worker.h"
#include "r300/r300.h"
#include "gpu3d/r300-regs.h"

#define TYPE_R300_3D "r300-3d"
OBJECT_DECLARE_SIMPLE_TYPE(R300State, R300_3D)

struct R300State {
    PCIDevice parent_obj;

    MemoryRegion bar0;          /* container: vram, and surf over it */
    MemoryRegion vram;
    MemoryRegion surf;          /* the tiled surfaces' linear view */
    MemoryRegion mmio;
    MemoryRegion io;
    G3DRamMem vram_mem;
    R300Core *core;
    G3DWorker worker;

    /* the surface registers as the guest writes them (BQL) */
    R300Surfaces surfaces;
    uint64_t surf_lo;           /* VRAM offset of surf's first byte */

    uint32_t vram_size;         /* property */
    uint32_t render_threads;    /* property; 0 = host CPUs */

    /* the monitor's EDID, from QEMU's generator; the core answers DDC */
    uint8_t edid[R300_EDID_SIZE];

    /* vblank: a timer at the mode's refresh; the core is reached through
     * the worker's queue (R300_VBLANK_EVENT), never by waiting for it */
    QEMUTimer *vblank_timer;
    int64_t next_vblank;
    uint64_t frame_ns;          /* atomic: set by the worker, read by the timer */
};

/*
 * a queued pseudo-write past the BAR: the worker runs a vblank (no value:
 * a saved queue may hold it, and is loaded by another process)
 */
#define R300_VBLANK_EVENT   R300_MMIO_SIZE

/* ---- the core behind the worker -------------------------------------- */

G3D_CORE_THUNKS(r300)
G3D_CORE_STATE_THUNKS(r300)

static void r300_glue_reg_write(void *core, uint32_t offset, uint64_t val,
                                unsigned size)
{
    if (offset == R300_VBLANK_EVENT) {
        G3DWorker *w = r300_core_opaque(core);
        R300State *s = container_of(w, R300State, worker);

        qatomic_set(&s->frame_ns,
                    r300_crtc_vblank(core,
                                     qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL)));
        return;
    }
    r300_op_reg_write(core, offset, val, size);
}

/*
 * GEN_INT_STATUS acknowledges interrupts in the bus interface, not through
 * the CP's FIFO: the radeon kernel's r100_irq_process() re-reads it after
 * acking and loops while a source stays set, so an ack that waited behind a
 * long draw would hold the guest in its interrupt handler until the draw
 * ends. SW_INT_FIRE (raise the software interrupt) keeps its place in the
 * queue.
 */
static bool r300_write_now(uint32_t offset, uint64_t val, unsigned size)
{
    return offset == A_GEN_INT_STATUS && size == 4 &&
           !(val & R_GEN_INT_STATUS_SW_INT_FIRE_MASK);
}

static int64_t r300_now_ns(void *opaque)
{
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

static void r300_vblank_tick(void *opaque)
{
    R300State *s = opaque;
    uint64_t period = qatomic_read(&s->frame_ns);
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

    g3d_worker_mmio_write(&s->worker, R300_VBLANK_EVENT, 0, 4);
    /* CRTC off: look again at 60 Hz; on: the mode's period, without drift */
    s->next_vblank += period ? period : 16666667;
    if (s->next_vblank < now) {
        s->next_vblank = now + (period ? period : 16666667);
    }
    timer_mod(s->vblank_timer, s->next_vblank);
}

static const G3DMem *op_scanout_mem(void *core, int head)
{
    /* CRTC_OFFSET is a VRAM offset */
    return r300_scanout_mem(core);
}

/* ---- BAR0 through the surface registers ------------------------------- */

/*
 * Cover the range tiled surfaces span with the de-tiling overlay, or none:
 * untiled VRAM stays plain RAM.
 */
static void r300_surf_update(R300State *s)
{
    uint64_t lo, hi;
    bool on = r300_surfaces_tiled_range(&s->surfaces, &lo, &hi) &&
              lo < s->vram_size;

    memory_region_transaction_begin();
    if (on) {
        hi = MIN(hi, (uint64_t)s->vram_size - 1);
        s->surf_lo = lo;
        memory_region_set_size(&s->surf, hi - lo + 1);
        memory_region_set_address(&s->surf, lo);
    }
    memory_region_set_enabled(&s->surf, on);
    memory_region_transaction_commit();
}

static void r300_write_seen(G3DWorker *w, uint32_t offset, uint64_t val,
                            unsigned size)
{
    R300State *s = container_of(w, R300State, worker);

    if (r300_surfaces_write(&s->surfaces, offset, val, size)) {
        r300_surf_update(s);
    }
}

/*
 * One access through the overlay, a pixel (4 bytes, the surface's unit) at
 * a time: the bytes of one pixel stay together in every layout.
 */
static void r300_surf_access(R300State *s, hwaddr addr, uint8_t *buf,
                             unsigned size, bool is_write)
{
    uint8_t *ram = memory_region_get_ram_ptr(&s->vram);
    unsigned i = 0;

    while (i < size) {
        uint64_t off = s->surf_lo + addr + i;
        uint64_t t = r300_surface_translate(&s->surfaces, off);
        unsigned n = MIN(size - i, 4 - (unsigned)(off & 3));

        if (t + n > s->vram_size) {
            qemu_log_mask(LOG_GUEST_ERROR, "r300-3d: surface access at VRAM "
                          "0x%" PRIx64 " reaches 0x%" PRIx64 ", past VRAM\n",
                          off, t);
            if (!is_write) {
                memset(buf + i, 0, n);
            }
        } else if (is_write) {
            memcpy(ram + t, buf + i, n);
            memory_region_set_dirty(&s->vram, t, n);
        } else {
            memcpy(buf + i, ram + t, n);
        }
        i += n;
    }
}

static uint64_t r300_surf_read(void *opaque, hwaddr addr, unsigned size)
{
    uint8_t b[8];

    r300_surf_access(opaque, addr, b, size, false);
    return ldn_le_p(b, size);
}

static void r300_surf_write(void *opaque, hwaddr addr, uint64_t val,
                            unsigned size)
{
    uint8_t b[8];

    stn_le_p(b, size, val);
    r300_surf_access(opaque, addr, b, size, true);
}

static const MemoryRegionOps r300_surf_ops = {
    .read = r300_surf_read,
    .write = r300_surf_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8, .unaligned = true },
    .impl = { .min_access_size = 1, .max_access_size = 8, .unaligned = true },
};

static const G3DCoreOps r300_core_ops = {
    .reg_write = r300_glue_reg_write,
    .write_now = r300_write_now,
    .reg_read = r300_op_reg_read,
    .work = r300_op_work,
    .reset = r300_op_reset,
    .irq_level = r300_op_irq_level,
    .scanout = r300_op_scanout,
    .scanout_mem = op_scanout_mem,
    G3D_CORE_STATE_OPS_FIELDS(r300),
    .queue_events = 1,          /* R300_VBLANK_EVENT */
    .write_seen = r300_write_seen,
};

/* ---- the I/O BAR: the first 256 bytes of the registers ------------------ */

static uint64_t r300_io_read(void *opaque, hwaddr addr, unsigned size)
{
    R300State *s = opaque;
    return g3d_worker_mmio_read(&s->worker, addr, size);
}

static void r300_io_write(void *opaque, hwaddr addr, uint64_t val,
                          unsigned size)
{
    R300State *s = opaque;
    g3d_worker_mmio_write(&s->worker, addr, val, size);
}

static const MemoryRegionOps r300_io_ops = {
    .read = r300_io_read,
    .write = r300_io_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 4 },
    .impl = { .min_access_size = 1, .max_access_size = 4 },
};

/* ---- PCI ---------------------------------------------------------------- */

static void r300_realize(PCIDevice *pdev, Error **errp)
{
    R300State *s = R300_3D(pdev);
    R300CoreConfig cfg = { 0 };
    static const uint32_t blank_w[1] = { 640 }, blank_h[1] = { 480 };
    Error *err = NULL;

    if (s->vram_size < 16 * MiB || s->vram_size > 256 * MiB ||
        !is_power_of_2(s->vram_size)) {
        error_setg(errp, "vram-size must be a power of 2 from 16 to 256 MiB");
        return;
    }
    if (!g3d_render_threads(s->render_threads, &cfg.hooks.threads, errp)) {
        return;
    }
    g3d_install_qemu_log();
    memory_region_init_ram(&s->vram, OBJECT(s), "r300-3d.vram", s->vram_size,
                           &err);
    if (err) {
        error_propagate(errp, err);
        return;
    }
    g3d_worker_init_mmio(&s->worker, OBJECT(s), &s->mmio, R300_MMIO_SIZE,
                         G3D_MMIO_4);
    memory_region_init(&s->bar0, OBJECT(s), "r300-3d.bar0", s->vram_size);
    memory_region_add_subregion(&s->bar0, 0, &s->vram);
    memory_region_init_io(&s->surf, OBJECT(s), &r300_surf_ops, s,
                          "r300-3d.surfaces", s->vram_size);
    memory_region_set_enabled(&s->surf, false);
    memory_region_add_subregion_overlap(&s->bar0, 0, &s->surf, 1);
    /* 32-bit like the real card's, which leaves BAR1 for I/O */
    pci_register_bar(pdev, R300_VRAM_BAR,
                     PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_PREFETCH, &s->bar0);
    memory_region_init_io(&s->io, OBJECT(s), &r300_io_ops, s, "r300-3d.io",
                          R300_IO_SIZE);
    pci_register_bar(pdev, R300_IO_BAR, PCI_BASE_ADDRESS_SPACE_IO, &s->io);
    pci_register_bar(pdev, R300_MMIO_BAR, PCI_BASE_ADDRESS_SPACE_MEMORY,
                     &s->mmio);
    pci_config_set_interrupt_pin(pdev->config, 1);

    g3d_ram_mem_init(&cfg.vram, &s->vram_mem, &s->vram);
    cfg.vram_size = s->vram_size;
    g3d_guest_mem_init(&cfg.sys, &s->worker, pdev);
    cfg.hooks.irq_update = g3d_worker_irq_cb;
    cfg.now_ns = r300_now_ns;
    cfg.hooks.opaque = &s->worker;

    {
        /*
         * the monitor: 1024x768 at 60 Hz preferred, modes up to 1600x1200,
         * inside the 350 MHz pixel clock of radeon's generic clock info
         */
        qemu_edid_info info = {
            .prefx = 1024, .prefy = 768, .maxx = 1600, .maxy = 1200,
            .refresh_rate = 60000,
        };
        qemu_edid_generate(s->edid, sizeof(s->edid), &info);
    }
    cfg.edid = s->edid;
    cfg.vga_monitor = true;

    s->core = r300_core_new(&cfg);
    g3d_worker_start(&s->worker, pdev, "r300-3d", s->core,
                     &r300_core_ops, 1, blank_w, blank_h);
    s->vblank_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, r300_vblank_tick, s);
    s->next_vblank = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + 16666667;
    timer_mod(s->vblank_timer, s->next_vblank);
}

static void r300_exit(PCIDevice *pdev)
{
    R300State *s = R300_3D(pdev);

    timer_free(s->vblank_timer);
    /* a container's subregions hold references on their owner, this
     * device: without this it would never be freed after an unplug */
    memory_region_del_subregion(&s->bar0, &s->surf);
    memory_region_del_subregion(&s->bar0, &s->vram);
    g3d_worker_stop(&s->worker);
    r300_core_free(s->core);
}

static void r300_reset_hold(G3D_RESET_HOLD_ARGS)
{
    R300State *s = R300_3D(obj);

    g3d_worker_reset(&s->worker);
    /* the core's registers are back at reset: no surface tiles */
    memset(&s->surfaces, 0, sizeof(s->surfaces));
    r300_surf_update(s);
}

/*
 * After the core is loaded: the glue's copy of the surface registers from
 * the core's, then the writes still queued for it, as write_seen saw them
 * on the source; the overlay follows.
 */
static int r300_post_load(void *opaque, int version_id)
{
    R300State *s = opaque;
    G3DWorker *w = &s->worker;
    unsigned i;

    r300_surfaces_get(s->core, &s->surfaces);
    for (i = 0; i < w->qcount; i++) {
        const G3DWrite *wr = &w->queue[(w->qhead + i) & (w->qsize - 1)];
        r300_surfaces_write(&s->surfaces, wr->offset, wr->val, wr->size);
    }
    r300_surf_update(s);
    return 0;
}

/* the vblank timer goes on where it was (QEMU_CLOCK_VIRTUAL migrates) */
static const VMStateDescription r300_vmstate = {
    .name = TYPE_R300_3D,
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = r300_post_load,
    .fields = (VMStateField[]) {
        VMSTATE_PCI_DEVICE(parent_obj, R300State),
        G3D_VMSTATE_WORKER(worker, R300State),
        VMSTATE_TIMER_PTR(vblank_timer, R300State),
        VMSTATE_INT64(next_vblank, R300State),
        VMSTATE_UINT64(frame_ns, R300State),
        VMSTATE_END_OF_LIST()
    },
};

static G3DProperty r300_properties[] = {
    DEFINE_PROP_UINT32("vram-size", R300State, vram_size,
                       R300_VRAM_SIZE_DEFAULT),
    DEFINE_PROP_UINT32("render-threads", R300State, render_threads, 0),
    G3D_PROP_END_OF_LIST
};

static void r300_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    k->realize = r300_realize;
    k->exit = r300_exit;
    k->vendor_id = R300_PCI_VENDOR_ID;
    k->device_id = R300_PCI_DEVICE_ID;
    /*
     * a display controller like the real card; the legacy VGA ranges are
     * not decoded (no option ROM), so firmware and Linux just see no VGA
     */
    k->class_id = PCI_CLASS_DISPLAY_VGA;
    rc->phases.hold = r300_reset_hold;
    dc->desc = "ATI Radeon R300 3D engine";
    dc->vmsd = &r300_vmstate;
    device_class_set_props(dc, r300_properties);
    set_bit(DEVICE_CATEGORY_DISPLAY, dc->categories);
}

static const TypeInfo r300_info = {
    .name = TYPE_R300_3D,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(R300State),
    .class_init = r300_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_CONVENTIONAL_PCI_DEVICE },
        { },
    },
};

static void r300_register_types(void)
{
    type_register_static(&r300_info);
}

type_init(r300_register_types)
