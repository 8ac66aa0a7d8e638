/*
 * pica200-3d: the Nintendo 3DS PICA200 GPU as a PCI device.
 *
 *   BAR0  64 KiB: the GPU register block of 3DS physical 0x10400000 with its
 *         offsets (memory fill PSC0/1, LCD framebuffer setup PDC0/1,
 *         display transfer PPF, GPU busy), P3D internal register N at
 *         0x1000 + 4 * N (command lists, interrupts, the 3D pipeline)
 *   BAR2  VRAM: 8 MiB, 64-bit prefetchable; the first 6 MiB are the 3DS's
 *         VRAM at 3DS physical 0x18000000
 *
 * 3DS physical 0x20000000 + x is guest physical x (the guest's RAM plays
 * FCRAM). Console heads: 0 = top screen 400x240, 1 = bottom screen 320x240.
 * The engine core (hw/gpu3d/pica200/) runs on the shared worker thread
 * (gpu3d-worker.c); this file is PCI, BARs, properties and console wiring.
 * docs/pica200-3d.md says what is modelled.
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
#include "pica200/pica200.h"
#include "gpu3d/pica200-regs.h"

#define TYPE_PICA200_3D "pica200-3d"
OBJECT_DECLARE_SIMPLE_TYPE(Pica200State, PICA200_3D)

struct Pica200State {
    PCIDevice parent_obj;

    MemoryRegion vram;
    MemoryRegion mmio;
    G3DRamMem vram_mem;
    Pica200Core *core;
    G3DWorker worker;

    uint32_t render_threads;    /* property; 0 = host CPUs */
};

/* ---- the core behind the worker -------------------------------------- */

G3D_CORE_THUNKS(pica200)
G3D_CORE_STATE_THUNKS(pica200)

static const G3DMem *op_scanout_mem(void *core, int head)
{
    /* the LCD framebuffer addresses are 3DS physical (VRAM or FCRAM) */
    return pica200_scanout_mem(core);
}

static const G3DCoreOps pica200_core_ops = {
    G3D_CORE_OPS_FIELDS(pica200),
    G3D_CORE_STATE_OPS_FIELDS(pica200),
    .scanout_mem = op_scanout_mem,
    /*
     * The core's units are small (one command, vertex, 4 KiB of fill, row
     * of a transfer, 1024 pixels of a triangle's box): 512 of them take at
     * most about 10 ms, and a frame of the demo needs few such steps
     * (measured: 32 units a step give 150-270 frames/s end to end, 256 give
     * 160-190, 512 and 1024 give 300-350; the core alone 366).
     */
    .work_budget = 512,
};

/* ---- PCI ---------------------------------------------------------------- */

static void pica200_realize(PCIDevice *pdev, Error **errp)
{
    Pica200State *s = PICA200_3D(pdev);
    Pica200CoreConfig cfg = { 0 };
    static const uint32_t blank_w[2] = { PICA200_TOP_WIDTH,
                                         PICA200_BOTTOM_WIDTH };
    static const uint32_t blank_h[2] = { PICA200_SCREEN_HEIGHT,
                                         PICA200_SCREEN_HEIGHT };
    Error *err = NULL;

    if (!g3d_render_threads(s->render_threads, &cfg.hooks.threads, errp)) {
        return;
    }
    g3d_install_qemu_log();
    memory_region_init_ram(&s->vram, OBJECT(s), "pica200-3d.vram",
                           PICA200_VRAM_BAR_SIZE, &err);
    if (err) {
        error_propagate(errp, err);
        return;
    }
    /* 1, 2 or 4 bytes; QEMU splits an 8-byte access into two 4-byte ones */
    g3d_worker_init_mmio(&s->worker, OBJECT(s), &s->mmio, PICA200_BAR0_SIZE,
                         G3D_MMIO_8_SPLIT);
    pci_register_bar(pdev, PICA200_REGS_BAR, PCI_BASE_ADDRESS_SPACE_MEMORY,
                     &s->mmio);
    pci_register_bar(pdev, PICA200_VRAM_BAR,
                     PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_TYPE_64 |
                     PCI_BASE_ADDRESS_MEM_PREFETCH, &s->vram);
    pci_config_set_interrupt_pin(pdev->config, 1);

    /* the GPU sees the first 6 MiB of the BAR; the rest is guest-only */
    g3d_ram_mem_init(&cfg.vram, &s->vram_mem, &s->vram);
    cfg.vram_size = PICA200_VRAM_SIZE;
    g3d_guest_mem_init(&cfg.sys, &s->worker, pdev);
    cfg.hooks.irq_update = g3d_worker_irq_cb;
    cfg.hooks.opaque = &s->worker;
    s->core = pica200_core_new(&cfg);
    g3d_worker_start(&s->worker, pdev, TYPE_PICA200_3D, s->core,
                     &pica200_core_ops, 2, blank_w, blank_h);
}

static void pica200_exit(PCIDevice *pdev)
{
    Pica200State *s = PICA200_3D(pdev);

    g3d_worker_stop(&s->worker);
    pica200_core_free(s->core);
}

static void pica200_reset_hold(G3D_RESET_HOLD_ARGS)
{
    Pica200State *s = PICA200_3D(obj);

    g3d_worker_reset(&s->worker);
}

/* VRAM migrates as RAM; FCRAM is the guest's RAM */
G3D_VMSTATE_DEVICE(pica200_vmstate, TYPE_PICA200_3D, Pica200State, parent_obj,
                   worker);

static G3DProperty pica200_properties[] = {
    DEFINE_PROP_UINT32("render-threads", Pica200State, render_threads, 0),
    G3D_PROP_END_OF_LIST
};

static void pica200_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    k->realize = pica200_realize;
    k->exit = pica200_exit;
    k->vendor_id = PICA200_PCI_VENDOR_ID;
    k->device_id = PICA200_PCI_DEVICE_ID;
    k->class_id = PCI_CLASS_DISPLAY_OTHER;
    rc->phases.hold = pica200_reset_hold;
    dc->desc = "Nintendo 3DS PICA200 GPU";
    dc->vmsd = &pica200_vmstate;
    device_class_set_props(dc, pica200_properties);
    set_bit(DEVICE_CATEGORY_DISPLAY, dc->categories);
}

static const TypeInfo pica200_info = {
    .name = TYPE_PICA200_3D,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(Pica200State),
    .class_init = pica200_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_CONVENTIONAL_PCI_DEVICE },
        { },
    },
};

static void pica200_register_types(void)
{
    type_register_static(&pica200_info);
}

type_init(pica200_register_types)
