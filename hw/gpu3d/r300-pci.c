/*
 * r300-3d: the ATI Radeon R300 3D engine as a PCI device.
 *
 *   BAR0  VRAM (vram-size, default 64 MiB), 64-bit prefetchable
 *   BAR2  64 KiB of registers: the R3xx 3D registers at the reference's
 *         offsets and the CP, RBBM, interrupt, scratch, memory-controller,
 *         PCI GART and CRTC registers at their real Radeon offsets
 *
 * The engine core (hw/gpu3d/r300/) runs on the shared worker thread
 * (gpu3d-worker.c); this file is PCI, BARs, properties and console wiring.
 * docs/r300-3d.md says what is modelled.
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
#include "r300/r300.h"
#include "gpu3d/r300-regs.h"

#define TYPE_R300_3D "r300-3d"
OBJECT_DECLARE_SIMPLE_TYPE(R300State, R300_3D)

struct R300State {
    PCIDevice parent_obj;

    MemoryRegion vram;
    MemoryRegion mmio;
    G3DRamMem vram_mem;
    R300Core *core;
    G3DWorker worker;

    uint32_t vram_size;         /* property */
    uint32_t render_threads;    /* property; 0 = host CPUs */
};

/* ---- the core behind the worker -------------------------------------- */

G3D_CORE_THUNKS(r300)

static const G3DMem *op_scanout_mem(void *core, int head)
{
    /* CRTC_OFFSET is a VRAM offset */
    return r300_vram_mem(core);
}

static const G3DCoreOps r300_core_ops = {
    G3D_CORE_OPS_FIELDS(r300),
    .scanout_mem = op_scanout_mem,
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
    if (!g3d_render_threads(s->render_threads, &cfg.threads, errp)) {
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
    pci_register_bar(pdev, R300_VRAM_BAR,
                     PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_TYPE_64 |
                     PCI_BASE_ADDRESS_MEM_PREFETCH, &s->vram);
    pci_register_bar(pdev, R300_MMIO_BAR, PCI_BASE_ADDRESS_SPACE_MEMORY,
                     &s->mmio);
    pci_config_set_interrupt_pin(pdev->config, 1);

    g3d_ram_mem_init(&cfg.vram, &s->vram_mem, &s->vram);
    cfg.vram_size = s->vram_size;
    g3d_guest_mem_init(&cfg.sys, pdev);
    cfg.irq_update = g3d_worker_irq_cb;
    cfg.opaque = &s->worker;
    s->core = r300_core_new(&cfg);
    /*
     * The one step that can fail after the RAM (migration's blocker, e.g.
     * under -only-migratable): undo the core; the RAM goes with the device.
     */
    if (!g3d_worker_start(&s->worker, pdev, "r300-3d", s->core,
                          &r300_core_ops, 1, blank_w, blank_h, errp)) {
        r300_core_free(s->core);
        s->core = NULL;
        return;
    }
}

static void r300_exit(PCIDevice *pdev)
{
    R300State *s = R300_3D(pdev);

    g3d_worker_stop(&s->worker);
    r300_core_free(s->core);
}

static void r300_reset_hold(G3D_RESET_HOLD_ARGS)
{
    R300State *s = R300_3D(obj);

    g3d_worker_reset(&s->worker);
}

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
    k->class_id = PCI_CLASS_DISPLAY_OTHER;
    rc->phases.hold = r300_reset_hold;
    dc->desc = "ATI Radeon R300 3D engine";
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
