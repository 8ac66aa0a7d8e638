/*
 * glamo-3d: the SMedia Glamo336x 3D engine as a PCI device.
 *
 *   BAR0  16 KiB: the Glamo register space, 16-bit registers at the chip's
 *         addresses: generic block (id, interrupts, clocks/resets) at
 *         0x0000, host bus 0x0200, LCD controller 0x1100, command queue
 *         0x1600, 3D engine 0x1B00-0x2EFF (include/gpu3d/glamo-regs.h).
 *         Byte and 16-bit accesses are the chip's; a 32-bit access is the
 *         two 16-bit halves, low half first (an 8-byte one, two of those).
 *   BAR2  VRAM, 8 MiB, 64-bit prefetchable; every address the chip uses
 *         (command queue ring, vertex streams, surfaces, textures, LCD
 *         frame) is a VRAM offset.
 *
 * One console head: the LCD controller (RGB565, ARGB1555, ARGB4444). The
 * engine core (hw/gpu3d/glamo/) runs on the shared worker thread
 * (gpu3d-worker.c); this file is PCI, BARs, properties and console wiring.
 * docs/glamo-3d.md says what is modelled.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/module.h"
#include "qapi/error.h"
#include "hw/pci/pci.h"
#include "hw/qdev-properties.h"
#include "qom/object.h"
#include "gpu3d-worker.h"
#include "glamo/glamo.h"
#include "gpu3d/glamo-regs.h"

#define TYPE_GLAMO_3D "glamo-3d"
OBJECT_DECLARE_SIMPLE_TYPE(GlamoState, GLAMO_3D)

struct GlamoState {
    PCIDevice parent_obj;

    MemoryRegion vram;
    MemoryRegion mmio;
    G3DRamMem vram_mem;
    GlamoCore *core;
    G3DWorker worker;

    uint32_t render_threads;    /* property; 0 = host CPUs */
};

/* ---- the core behind the worker -------------------------------------- */

G3D_CORE_THUNKS(glamo)
G3D_CORE_STATE_THUNKS(glamo)

static const G3DMem *op_scanout_mem(void *core, int head)
{
    return glamo_scanout_mem(core);
}

static const G3DCoreOps glamo_core_ops = {
    G3D_CORE_OPS_FIELDS(glamo),
    G3D_CORE_STATE_OPS_FIELDS(glamo),
    .scanout_mem = op_scanout_mem,
    /*
     * A unit is one queue entry, one ring packet (64 words of a burst), 64
     * parser vertices or one rasteriser flush (a flush can be a whole
     * frame's pixels); 256 of them are one locked step.
     */
    .work_budget = 256,
};

/* ---- PCI ---------------------------------------------------------------- */

static void glamo_realize(PCIDevice *pdev, Error **errp)
{
    GlamoState *s = GLAMO_3D(pdev);
    GlamoCoreConfig cfg = { 0 };
    static const uint32_t blank_w[1] = { GLAMO_LCD_BLANK_WIDTH };
    static const uint32_t blank_h[1] = { GLAMO_LCD_BLANK_HEIGHT };
    Error *err = NULL;

    if (!g3d_render_threads(s->render_threads, &cfg.hooks.threads, errp)) {
        return;
    }
    g3d_install_qemu_log();
    memory_region_init_ram(&s->vram, OBJECT(s), "glamo-3d.vram",
                           GLAMO_VRAM_SIZE, &err);
    if (err) {
        error_propagate(errp, err);
        return;
    }
    /* 1, 2 or 4 bytes; QEMU splits an 8-byte access into two 4-byte ones */
    g3d_worker_init_mmio(&s->worker, OBJECT(s), &s->mmio, GLAMO_REG_SIZE,
                         G3D_MMIO_8_SPLIT);
    pci_register_bar(pdev, GLAMO_REGS_BAR, PCI_BASE_ADDRESS_SPACE_MEMORY,
                     &s->mmio);
    pci_register_bar(pdev, GLAMO_VRAM_BAR,
                     PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_TYPE_64 |
                     PCI_BASE_ADDRESS_MEM_PREFETCH, &s->vram);
    pci_config_set_interrupt_pin(pdev->config, 1);

    g3d_ram_mem_init(&cfg.vram, &s->vram_mem, &s->vram);
    cfg.vram_size = GLAMO_VRAM_SIZE;
    cfg.hooks.irq_update = g3d_worker_irq_cb;
    cfg.hooks.opaque = &s->worker;
    s->core = glamo_core_new(&cfg);
    g3d_worker_start(&s->worker, pdev, TYPE_GLAMO_3D, s->core,
                     &glamo_core_ops, 1, blank_w, blank_h);
}

static void glamo_exit(PCIDevice *pdev)
{
    GlamoState *s = GLAMO_3D(pdev);

    g3d_worker_stop(&s->worker);
    glamo_core_free(s->core);
}

static void glamo_reset_hold(G3D_RESET_HOLD_ARGS)
{
    GlamoState *s = GLAMO_3D(obj);

    g3d_worker_reset(&s->worker);
}

G3D_VMSTATE_DEVICE(glamo_vmstate, TYPE_GLAMO_3D, GlamoState, parent_obj,
                   worker);

static G3DProperty glamo_properties[] = {
    DEFINE_PROP_UINT32("render-threads", GlamoState, render_threads, 0),
    G3D_PROP_END_OF_LIST
};

static void glamo_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    k->realize = glamo_realize;
    k->exit = glamo_exit;
    k->vendor_id = GLAMO_PCI_VENDOR_ID;
    k->device_id = GLAMO_PCI_DEVICE_ID;
    k->class_id = PCI_CLASS_DISPLAY_OTHER;
    rc->phases.hold = glamo_reset_hold;
    dc->desc = "SMedia Glamo336x 3D engine";
    dc->vmsd = &glamo_vmstate;
    device_class_set_props(dc, glamo_properties);
    set_bit(DEVICE_CATEGORY_DISPLAY, dc->categories);
}

static const TypeInfo glamo_info = {
    .name = TYPE_GLAMO_3D,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(GlamoState),
    .class_init = glamo_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_CONVENTIONAL_PCI_DEVICE },
        { },
    },
};

static void glamo_register_types(void)
{
    type_register_static(&glamo_info);
}

type_init(glamo_register_types)
