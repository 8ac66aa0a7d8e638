/*
 * flipper-gx: the Nintendo GameCube Flipper (GX graphics, VI, PI and the
 * other hardware-register blocks) as a PCI device.
 *
 *   BAR0  64 KiB: the hardware registers of GameCube physical 0x0C000000
 *         with their offsets: CP 0x0000, PE 0x1000, VI 0x2000, PI 0x3000,
 *         MI 0x4000, DSP 0x5000, DI 0x6000, SI 0x6400, EXI 0x6800,
 *         AI 0x6C00, write-gather pipe 0x8000 (each access's value appended
 *         in big-endian byte order, as a GameCube program's stores)
 *   BAR2  MEM1: 32 MiB, 64-bit prefetchable, of which 24 MiB are MEM1;
 *         GameCube physical address x = BAR2 offset x. Data there (FIFO,
 *         display lists, arrays, XFB) is big-endian, as on the console.
 *   BAR4  8 MiB: the CPU's EFB window of GameCube physical 0x08000000
 *         (offset = physical - 0x08000000 = x << 2 | y << 12 | type << 22),
 *         aligned 32-bit accesses, through the PE's CPU-access modes.
 *
 * One console head: the VI's XFB (YUV 4:2:2) converted to RGB at the size
 * the VI registers give. The VI display interrupts follow QEMU's virtual
 * clock: a timer wakes the worker at the next armed beam position. The
 * engine core (hw/gpu3d/flipper/) runs on the shared worker thread
 * (gpu3d-worker.c); this file is PCI, BARs, properties, the timer and
 * console wiring. docs/flipper-gx.md says what is modelled.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "qemu/units.h"
#include "qapi/error.h"
#include "hw/pci/pci.h"
#include "hw/qdev-properties.h"
#include "qom/object.h"
#include "gpu3d-worker.h"
#include "flipper/flipper.h"
#include "gpu3d/flipper-regs.h"

#define TYPE_FLIPPER_GX "flipper-gx"
OBJECT_DECLARE_SIMPLE_TYPE(FlipperState, FLIPPER_GX)

struct FlipperState {
    PCIDevice parent_obj;

    MemoryRegion mem1;
    MemoryRegion mmio;
    MemoryRegion efb;           /* BAR4: the CPU's EFB window */
    G3DRamMem mem1_mem;
    G3DMem mem;
    FlipperCore *core;
    G3DWorker worker;
    QEMUTimer *timer;           /* the next VI / AI event */
    int64_t timer_at;           /* armed for (virtual ns); INT64_MAX: off */

    uint32_t render_threads;    /* property; 0 = host CPUs */
};

static int64_t flipper_clock(void *opaque)
{
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

/* the worker (lock held): arm the timer for the core's next timed event */
static void flipper_arm_timer(FlipperState *s)
{
    int64_t at = flipper_next_event_ns(s->core);

    if (at == s->timer_at) {
        return;
    }
    s->timer_at = at;
    if (at == INT64_MAX) {
        timer_del(s->timer);
    } else {
        timer_mod_ns(s->timer, at);
    }
}

static void flipper_timer_cb(void *opaque)
{
    FlipperState *s = opaque;

    /* the worker's next step syncs the core to the clock and re-arms */
    g3d_worker_kick(&s->worker);
}

/*
 * ---- BAR4: the EFB window ------------------------------------------------
 *
 * Its accesses go through the worker's ordered queue like BAR0's, at core
 * offsets FLIPPER_EFB_CPU_BASE + BAR offset (beyond BAR0's 64 KiB), so a
 * peek or poke comes after the GX commands stored before it and sees (or
 * changes) the EFB they drew.
 */

static bool efb_offset(uint32_t off)
{
    return off >= FLIPPER_EFB_CPU_BASE;
}

/* the worker (lock held): a queued BAR4 store */
static void efb_write(FlipperState *s, uint32_t off, uint64_t val)
{
    flipper_efb_poke(s->core, off - FLIPPER_EFB_CPU_BASE, val);
}

static uint64_t efb_read(FlipperState *s, uint32_t off)
{
    return flipper_efb_peek(s->core, off - FLIPPER_EFB_CPU_BASE);
}

/* the EFB is reached by 32-bit words only (libogc's GX_PokeARGB/PeekARGB) */
static bool efb_access_ok(hwaddr addr, unsigned size, bool write)
{
    if (size == 4 && !(addr & 3)) {
        return true;
    }
    qemu_log_mask(LOG_GUEST_ERROR, "flipper-gx: EFB window: %u-byte %s at "
                  "0x%06" HWADDR_PRIx " (32-bit words only), ignored\n",
                  size, write ? "write" : "read", addr);
    return false;
}

static uint64_t efb_mmio_read(void *opaque, hwaddr addr, unsigned size)
{
    FlipperState *s = opaque;

    if (!efb_access_ok(addr, size, false)) {
        return 0;
    }
    return g3d_worker_mmio_read(&s->worker, FLIPPER_EFB_CPU_BASE + addr, 4);
}

static void efb_mmio_write(void *opaque, hwaddr addr, uint64_t val,
                           unsigned size)
{
    FlipperState *s = opaque;

    if (efb_access_ok(addr, size, true)) {
        g3d_worker_mmio_write(&s->worker, FLIPPER_EFB_CPU_BASE + addr, val, 4);
    }
}

static const MemoryRegionOps efb_mmio_ops = {
    .read = efb_mmio_read,
    .write = efb_mmio_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 4 },
    .impl = { .min_access_size = 1, .max_access_size = 4 },
};

static void efb_bar_init(FlipperState *s)
{
    memory_region_init_io(&s->efb, OBJECT(s), &efb_mmio_ops, s,
                          "flipper-gx.efb", FLIPPER_BAR4_SIZE);
    pci_register_bar(PCI_DEVICE(s), FLIPPER_EFB_BAR,
                     PCI_BASE_ADDRESS_SPACE_MEMORY, &s->efb);
}

/* ---- the core behind the worker -------------------------------------- */

static void op_write(void *opaque, uint32_t off, uint64_t val, unsigned size)
{
    FlipperState *s = opaque;

    if (efb_offset(off)) {
        efb_write(s, off, val);
        return;
    }
    flipper_reg_write(s->core, off, val, size);
    if (off < FLIPPER_WGP_BASE) {
        /* VI, AI: a write may arm or move a timed event */
        flipper_arm_timer(s);
    }
}

static uint64_t op_read(void *opaque, uint32_t off, unsigned size)
{
    FlipperState *s = opaque;

    if (efb_offset(off)) {
        return efb_read(s, off);
    }
    return flipper_reg_read(s->core, off, size);
}

static bool op_work(void *opaque, unsigned budget)
{
    FlipperState *s = opaque;
    bool more = flipper_core_work(s->core, budget);

    flipper_arm_timer(s);
    return more;
}

static void op_reset(void *opaque)
{
    FlipperState *s = opaque;

    flipper_core_reset(s->core);
    flipper_arm_timer(s);
}

static void op_state_save(void *opaque, G3DStateOut *o)
{
    FlipperState *s = opaque;

    flipper_state_save(s->core, o);
}

static bool op_state_load(void *opaque, G3DStateIn *in)
{
    FlipperState *s = opaque;
    bool ok = flipper_state_load(s->core, in);

    /*
     * The VI/AI event of the loaded state (the clock is QEMU's virtual
     * one, which migrates): armed afresh, whatever this QEMU had armed.
     */
    timer_del(s->timer);
    s->timer_at = INT64_MAX;
    flipper_arm_timer(s);
    return ok;
}

static bool op_irq(void *opaque)
{
    FlipperState *s = opaque;

    return flipper_irq_level(s->core);
}

static bool op_scanout(void *opaque, int head, G3DScanout *so)
{
    FlipperState *s = opaque;

    return flipper_scanout(s->core, head, so);
}

static const G3DMem *op_scanout_mem(void *opaque, int head)
{
    FlipperState *s = opaque;

    /* the XFB address is a GameCube physical address: MEM1 */
    return &s->mem;
}

static const G3DCoreOps flipper_core_ops = {
    .reg_write = op_write,
    .reg_read = op_read,
    .work = op_work,
    .reset = op_reset,
    .irq_level = op_irq,
    .scanout = op_scanout,
    .scanout_mem = op_scanout_mem,
    .save_state = op_state_save,
    .load_state = op_state_load,
    /*
     * BAR4's accesses wait in the worker's queue at core offsets
     * FLIPPER_EFB_CPU_BASE + x, past BAR0 (see efb_mmio_write): a saved
     * queue may hold them. (Offsets between BAR0 and BAR4 are never
     * queued; flipper_reg_write logs one as unmapped.)
     */
    .queue_events = FLIPPER_EFB_CPU_BASE + FLIPPER_BAR4_SIZE -
                    FLIPPER_BAR0_SIZE,
    /*
     * One unit is one FIFO command, one vertex, or 2048 pixels of a
     * triangle's box or an EFB copy (flipper.h); the rasteriser runs at
     * the end of each step. A step of 1024 units holds about two
     * full-screen triangles' pixels plus the unit that ends it (at most a
     * full EFB copy or 48 vertices of a front-end chunk, front.c), so it
     * holds the core lock (and a vCPU reading a register) for a fraction
     * of a second at most; a draw of small triangles gets runs of up to
     * 1024 vertices, which the front end spreads over the render threads.
     */
    .work_budget = FLIPPER_WORK_BUDGET,
};

/* ---- PCI ---------------------------------------------------------------- */

static void flipper_realize(PCIDevice *pdev, Error **errp)
{
    FlipperState *s = FLIPPER_GX(pdev);
    FlipperCoreConfig cfg = { 0 };
    static const uint32_t blank_w[1] = { 640 };
    static const uint32_t blank_h[1] = { 480 };
    Error *err = NULL;

    if (!g3d_render_threads(s->render_threads, &cfg.hooks.threads, errp)) {
        return;
    }
    g3d_install_qemu_log();
    memory_region_init_ram(&s->mem1, OBJECT(s), "flipper-gx.mem1",
                           FLIPPER_BAR2_SIZE, &err);
    if (err) {
        error_propagate(errp, err);
        return;
    }
    /*
     * Registers take 16- and 32-bit accesses (the core logs others); the
     * gather pipe takes 1, 2, 4 and 8 bytes, each appended whole.
     */
    g3d_worker_init_mmio(&s->worker, OBJECT(s), &s->mmio, FLIPPER_BAR0_SIZE,
                         G3D_MMIO_8);
    pci_register_bar(pdev, FLIPPER_REGS_BAR, PCI_BASE_ADDRESS_SPACE_MEMORY,
                     &s->mmio);
    pci_register_bar(pdev, FLIPPER_MEM1_BAR,
                     PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_TYPE_64 |
                     PCI_BASE_ADDRESS_MEM_PREFETCH, &s->mem1);
    efb_bar_init(s);
    pci_config_set_interrupt_pin(pdev->config, 1);

    /* the GP sees the first 24 MiB of the BAR (MEM1); the rest is unused */
    g3d_ram_mem_init(&s->mem, &s->mem1_mem, &s->mem1);
    cfg.vram = s->mem;
    cfg.vram_size = FLIPPER_MEM1_SIZE;
    cfg.hooks.irq_update = g3d_worker_irq_cb;
    cfg.clock_ns = flipper_clock;
    cfg.hooks.opaque = &s->worker;
    s->timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, flipper_timer_cb, s);
    s->timer_at = INT64_MAX;
    s->core = flipper_core_new(&cfg);
    g3d_worker_start(&s->worker, pdev, TYPE_FLIPPER_GX, s,
                     &flipper_core_ops, 1, blank_w, blank_h);
}

static void flipper_exit(PCIDevice *pdev)
{
    FlipperState *s = FLIPPER_GX(pdev);

    g3d_worker_stop(&s->worker);
    timer_free(s->timer);
    flipper_core_free(s->core);
}

static void flipper_reset_hold(G3D_RESET_HOLD_ARGS)
{
    FlipperState *s = FLIPPER_GX(obj);

    g3d_worker_reset(&s->worker);
}

/*
 * MEM1 migrates as RAM; the timer is re-armed from the loaded core's next
 * event (op_state_load), so it is not part of the state.
 */
G3D_VMSTATE_DEVICE(flipper_vmstate, TYPE_FLIPPER_GX, FlipperState, parent_obj,
                   worker);

static G3DProperty flipper_properties[] = {
    DEFINE_PROP_UINT32("render-threads", FlipperState, render_threads, 0),
    G3D_PROP_END_OF_LIST
};

static void flipper_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    k->realize = flipper_realize;
    k->exit = flipper_exit;
    k->vendor_id = FLIPPER_PCI_VENDOR;
    k->device_id = FLIPPER_PCI_DEVICE;
    k->class_id = PCI_CLASS_DISPLAY_OTHER;
    rc->phases.hold = flipper_reset_hold;
    dc->desc = "Nintendo GameCube Flipper (GX, VI, PI)";
    dc->vmsd = &flipper_vmstate;
    device_class_set_props(dc, flipper_properties);
    set_bit(DEVICE_CATEGORY_DISPLAY, dc->categories);
}

static const TypeInfo flipper_info = {
    .name = TYPE_FLIPPER_GX,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(FlipperState),
    .class_init = flipper_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_CONVENTIONAL_PCI_DEVICE },
        { },
    },
};

static void flipper_register_types(void)
{
    type_register_static(&flipper_info);
}

type_init(flipper_register_types)
