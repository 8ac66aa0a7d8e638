/*
 * pica200 demo: a homebrew guest that finds the pica200-3d device and drives
 * it as a 3DS program drives its GPU: memory fills clear the colour and
 * depth buffers, command lists in guest RAM (the 3DS's FCRAM) draw the
 * shared cube scene with a vertex shader and depth test, FINALIZE raises the
 * P3D interrupt, the display transfer engine copies the tiled picture into
 * an LCD framebuffer, and the LCD registers show it.
 *
 *   top screen (head 0): the turning cube at 400x240, double-buffered
 *   through the LCD's two framebuffer addresses, SCENE_FRAMES frames;
 *   bottom screen (head 1): frame 0 of the cube at 320x240, then the lit
 *   scene (guest/pica200-scene.h: per-fragment lighting of a bump-mapped
 *   surface with a shadow map rendered in a first pass), drawn once.
 *
 * Serial log on COM1; "pica200-demo: done" once both pictures are final.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "guest.h"
#include "pica200-scene.h"

#define LIST_WORDS 4096

static volatile uint8_t *regs;
/* the GPU reads these from guest RAM: 3DS physical 0x20000000 + address */
static uint32_t list_words[LIST_WORDS] __attribute__((aligned(16)));
static float vertices[SCENE_VERTS * 8] __attribute__((aligned(16)));
static PicaLitVertex lit_vertices[4] __attribute__((aligned(16)));
static float lit_occluders[8][8] __attribute__((aligned(16)));

static void bus_wr(void *opaque, uint32_t off, uint32_t val)
{
    mmio_wr32(regs, off, val);
}

static uint32_t bus_rd(void *opaque, uint32_t off)
{
    return mmio_rd32(regs, off);
}

static uint32_t fcram(const void *p)
{
    return PICA200_PHYS_FCRAM + (uint32_t)(uintptr_t)p;
}

static uint32_t vram(uint32_t off)
{
    return PICA200_PHYS_VRAM + off;
}

int main(void)
{
    G3DPciDev dev;
    PicaBus bus = { NULL, bus_wr, bus_rd };
    PicaCmd c = { list_words, 0, LIST_WORDS, 0, NULL };
    PicaRegWrite w[4];
    const uint32_t color = vram(PICA_SCENE_COLOR_VRAM);
    const uint32_t depth = vram(PICA_SCENE_DEPTH_VRAM);
    uint64_t t0;
    int f;

    g3d_printf("pica200-demo: looking for 1234:3d01\n");
    if (g3d_pci_find(PICA200_PCI_VENDOR_ID, PICA200_PCI_DEVICE_ID, &dev) < 0) {
        g3d_printf("pica200-demo: no pica200-3d device\n");
        return 1;
    }
    regs = (volatile uint8_t *)(uintptr_t)dev.bar[PICA200_REGS_BAR];
    g3d_printf("pica200-demo: %02x:%02x.%x regs %p vram %p (%u MiB)\n",
               dev.bus, dev.slot, dev.func, (void *)regs,
               (void *)(uintptr_t)dev.bar[PICA200_VRAM_BAR],
               dev.bar_size[PICA200_VRAM_BAR] >> 20);
    if (dev.bar_size[PICA200_REGS_BAR] != PICA200_BAR0_SIZE ||
        dev.bar_size[PICA200_VRAM_BAR] != PICA200_VRAM_BAR_SIZE) {
        g3d_printf("pica200-demo: unexpected BAR sizes\n");
        return 2;
    }

    /* what the GSP does at GPU init: FINALIZE interrupts and stops lists */
    pica_bus_seq(&bus, w, pica_seq_irq_init(w));
    scene_vertices(vertices);

    /* the bottom screen: frame 0 at 320x240, once */
    if (pica_scene_clear(&bus, 320, 240, color, depth) ||
        pica_scene_draw(&bus, &c, fcram(list_words), 0, 320, 240, color,
                        depth, fcram(vertices)) ||
        pica_scene_show(&bus, 1, 0, 320, 240, color,
                        vram(PICA_SCENE_BOTTOM_VRAM))) {
        g3d_printf("pica200-demo: bottom screen failed\n");
        return 3;
    }

    /* the top screen: each frame into the framebuffer not shown, then flip */
    t0 = g3d_rdtsc();
    for (f = 0; f < SCENE_FRAMES; f++) {
        if (pica_scene_clear(&bus, 400, 240, color, depth) ||
            pica_scene_draw(&bus, &c, fcram(list_words), f, 400, 240, color,
                            depth, fcram(vertices)) ||
            pica_scene_show(&bus, 0, f & 1, 400, 240, color,
                            vram(PICA_SCENE_TOP_VRAM(f & 1)))) {
            g3d_printf("pica200-demo: frame %d failed\n", f);
            return 4;
        }
    }
    g3d_print_frame_rate("pica200-demo", SCENE_FRAMES, t0);

    /* the bottom screen again: the lit, bump-mapped, shadowed scene */
    pica_lit_receiver(lit_vertices);
    pica_lit_occluder_vertices(lit_occluders);
    pica_lit_normal_map((uint8_t *)(uintptr_t)dev.bar[PICA200_VRAM_BAR] +
                        PICA_LIT_NORMAL_VRAM);
    if (pica_lit_draw(&bus, &c, fcram(list_words), color, fcram(lit_vertices),
                      fcram(lit_occluders), vram(PICA_LIT_SHADOW_VRAM),
                      vram(PICA_LIT_NORMAL_VRAM)) ||
        pica_scene_show(&bus, 1, 0, 320, 240, color,
                        vram(PICA_SCENE_BOTTOM_VRAM))) {
        g3d_printf("pica200-demo: lit scene failed\n");
        return 6;
    }
    g3d_printf("pica200-demo: list of %u words\n", c.n);
    if (mmio_rd32(regs, A_GPU_BUSY) != 0) {
        g3d_printf("pica200-demo: GPU still busy\n");
        return 5;
    }
    g3d_printf("pica200-demo: done, %d frames\n", SCENE_FRAMES);
    g3d_halt();
}
