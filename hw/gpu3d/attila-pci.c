/*
 * attila-3d: the ATTILA unified-shader GPU as a PCI device.
 *
 *   BAR0  64 KiB control registers (include/gpu3d/attila-regs.h): the
 *         command ring of AGP transaction records, doorbell, SYSMEM_BASE,
 *         status, fence, interrupts, a read-only window of the GPU
 *         register file
 *   BAR2  GPU memory, `mem-size` (default 256 MiB, what the ATTILA traces
 *         assume), 64-bit prefetchable: ATTILA addresses below 2^31
 *
 * ATTILA addresses with bit 31 set are guest physical SYSMEM_BASE + offset
 * (the guest's RAM plays the AGP aperture). One console head: the front
 * buffer the DAC took at the last GPU_SWAPBUFFERS, de-tiled, at
 * DISPLAY_X_RES x DISPLAY_Y_RES. The engine core (hw/gpu3d/attila/) runs on
 * the shared worker thread (gpu3d-worker.c); this file is PCI, BARs,
 * properties and console wiring. docs/attila-3d.md says what is modelled.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/module.h"
#include "qemu/units.h"
#include "qapi/error.h"
#include "hw/pci/pci.h"
#include "hw/qdev-properties.h"
#include "qom/object.h"
#include "gpu3d-worker.h"
#include "attila/attila.h"
#include "gpu3d/attila-regs.h"

#define TYPE_ATTILA_3D "attila-3d"
OBJECT_DECLARE_SIMPLE_TYPE(AttilaState, ATTILA_3D)

/* what the console shows before the first swap (the traces' usual size) */
#define ATTILA_BLANK_W  640
#define ATTILA_BLANK_H  480

struct AttilaState {
    PCIDevice parent_obj;

    MemoryRegion mem;
    MemoryRegion mmio;
    G3DRamMem gpu_mem;
    AttilaCore *core;
    G3DWorker worker;

    uint32_t mem_size;          /* property */
    uint32_t render_threads;    /* property; 0 = host CPUs */
};

/* ---- the core behind the worker -------------------------------------- */

G3D_CORE_THUNKS(attila)
G3D_CORE_STATE_THUNKS(attila)

static const G3DMem *op_scanout_mem(void *core, int head)
{
    /* the DAC's de-tiled picture, not GPU memory */
    return attila_scanout_mem(core);
}

static const G3DCoreOps attila_core_ops = {
    G3D_CORE_OPS_FIELDS(attila),
    G3D_CORE_STATE_OPS_FIELDS(attila),
    .scanout_mem = op_scanout_mem,
    /*
     * The unit is one ring record. Most records are register writes of a
     * few hundred nanoseconds; a draw is one record, bounded by the core's
     * per-draw work limit. 0 keeps the glue's default of 32 records a step.
     */
    .work_budget = 0,
};

/* ---- PCI ---------------------------------------------------------------- */

static void attila_realize(PCIDevice *pdev, Error **errp)
{
    AttilaState *s = ATTILA_3D(pdev);
    AttilaCoreConfig cfg = { 0 };
    static const uint32_t blank_w[1] = { ATTILA_BLANK_W };
    static const uint32_t blank_h[1] = { ATTILA_BLANK_H };
    Error *err = NULL;

    /* a PCI BAR is a power of 2; GPU addresses stop at 2^31 (attila-sim
     * MemorySpace.h) */
    if (s->mem_size < 16 * MiB || s->mem_size > 1 * GiB ||
        !is_power_of_2(s->mem_size)) {
        error_setg(errp, "mem-size must be a power of 2 from 16 MiB to 1 GiB");
        return;
    }
    if (!g3d_render_threads(s->render_threads, &cfg.hooks.threads, errp)) {
        return;
    }
    g3d_install_qemu_log();
    memory_region_init_ram(&s->mem, OBJECT(s), "attila-3d.mem", s->mem_size,
                           &err);
    if (err) {
        error_propagate(errp, err);
        return;
    }
    /* the core takes 32-bit accesses and logs every other size */
    g3d_worker_init_mmio(&s->worker, OBJECT(s), &s->mmio, ATTILA_BAR0_SIZE,
                         G3D_MMIO_8_SPLIT);
    pci_register_bar(pdev, ATTILA_REGS_BAR, PCI_BASE_ADDRESS_SPACE_MEMORY,
                     &s->mmio);
    pci_register_bar(pdev, ATTILA_MEM_BAR,
                     PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_TYPE_64 |
                     PCI_BASE_ADDRESS_MEM_PREFETCH, &s->mem);
    pci_config_set_interrupt_pin(pdev->config, 1);

    g3d_ram_mem_init(&cfg.vram, &s->gpu_mem, &s->mem);
    cfg.vram_size = s->mem_size;
    g3d_guest_mem_init(&cfg.sys, &s->worker, pdev);
    cfg.hooks.irq_update = g3d_worker_irq_cb;
    cfg.hooks.opaque = &s->worker;
    s->core = attila_core_new(&cfg);
    g3d_worker_start(&s->worker, pdev, TYPE_ATTILA_3D, s->core,
                     &attila_core_ops, 1, blank_w, blank_h);
}

static void attila_exit(PCIDevice *pdev)
{
    AttilaState *s = ATTILA_3D(pdev);

    g3d_worker_stop(&s->worker);
    attila_core_free(s->core);
}

static void attila_reset_hold(G3D_RESET_HOLD_ARGS)
{
    AttilaState *s = ATTILA_3D(obj);

    g3d_worker_reset(&s->worker);
}

G3D_VMSTATE_DEVICE(attila_vmstate, TYPE_ATTILA_3D, AttilaState, parent_obj,
                   worker);

static G3DProperty attila_properties[] = {
    DEFINE_PROP_UINT32("mem-size", AttilaState, mem_size,
                       ATTILA_MEM_SIZE_DEFAULT),
    DEFINE_PROP_UINT32("render-threads", AttilaState, render_threads, 0),
    G3D_PROP_END_OF_LIST
};

static void attila_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    k->realize = attila_realize;
    k->exit = attila_exit;
    k->vendor_id = ATTILA_PCI_VENDOR_ID;
    k->device_id = ATTILA_PCI_DEVICE_ID;
    k->class_id = PCI_CLASS_DISPLAY_OTHER;
    rc->phases.hold = attila_reset_hold;
    dc->desc = "ATTILA unified-shader GPU";
    dc->vmsd = &attila_vmstate;
    device_class_set_props(dc, attila_properties);
    set_bit(DEVICE_CATEGORY_DISPLAY, dc->categories);
}

static const TypeInfo attila_info = {
    .name = TYPE_ATTILA_3D,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(AttilaState),
    .class_init = attila_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_CONVENTIONAL_PCI_DEVICE },
        { },
    },
};

static void attila_register_types(void)
{
    type_register_static(&attila_info);
}

type_init(attila_register_types)
