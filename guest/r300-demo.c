/*
 * r300 demo: a homebrew guest that finds the r300-3d device, brings up its
 * command processor, and draws a turning Gouraud-shaded cube over a ground
 * quad with depth test, double-buffered through the CRTC.
 *
 * Serial log on COM1; "r300-demo: done" after the last frame, which stays
 * on the screen for the screenshot.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "guest.h"
#include "scene-cube.h"
#include "gpu3d/r300-regs.h"
#include "gpu3d/r300-cmd.h"

#define W 640
#define H 480
#define RING_BUFSZ  14                      /* 128 KiB ring */
#define RING_DWORDS (2u << RING_BUFSZ)
#define RING_ADDR   0x00000000u
#define WB_ADDR     0x00040000u
#define CB_ADDR(i)  (0x00100000u + (i) * 0x00200000u)
#define ZB_ADDR     0x00500000u

static volatile uint8_t *vram, *mmio;
static uint32_t cmdbuf[8192];

static uint32_t rd(uint32_t reg)
{
    return mmio_rd32(mmio, reg);
}

static void wr(uint32_t reg, uint32_t v)
{
    mmio_wr32(mmio, reg, v);
}

/* copy a command buffer into the ring, advance WPTR, wait for idle */
static int submit(const uint32_t *dw, uint32_t n)
{
    uint32_t wptr = rd(A_CP_RB_WPTR), i;
    uint64_t spin;

    if (n >= RING_DWORDS) {
        return -1;
    }
    for (i = 0; i < n; i++) {
        mmio_wr32(vram, RING_ADDR + 4 * ((wptr + i) & (RING_DWORDS - 1)), dw[i]);
    }
    wr(A_CP_RB_WPTR, (wptr + n) & (RING_DWORDS - 1));
    for (spin = 0; spin < 2000000000ull; spin++) {
        if (!(rd(A_RBBM_STATUS) & R_RBBM_STATUS_GUI_ACTIVE_MASK)) {
            return 0;
        }
    }
    return -1;
}

int main(void)
{
    G3DPciDev dev;
    static float verts[SCENE_VERTS * 8];
    R300Surface zb = { .addr = ZB_ADDR, .pitch = W,
                       .format = R300_DEPTHFORMAT_24BIT_INT_Z_8BIT_STENCIL };
    uint32_t ring_start[R300_RING_START_WRITES][2];
    uint64_t t0;
    unsigned i;
    int f;

    guest_printf("r300-demo: looking for 1002:4e44\n");
    if (guest_pci_find(R300_PCI_VENDOR_ID, R300_PCI_DEVICE_ID, &dev) < 0) {
        guest_printf("r300-demo: no r300-3d device\n");
        return 1;
    }
    vram = (volatile uint8_t *)(uintptr_t)dev.bar[R300_VRAM_BAR];
    mmio = (volatile uint8_t *)(uintptr_t)dev.bar[R300_MMIO_BAR];
    guest_printf("r300-demo: %02x:%02x.%x vram %p (%u MiB) regs %p\n",
               dev.bus, dev.slot, dev.func, (void *)vram,
               dev.bar_size[R300_VRAM_BAR] >> 20, (void *)mmio);
    if (rd(A_CONFIG_MEMSIZE) != dev.bar_size[R300_VRAM_BAR]) {
        guest_printf("r300-demo: CONFIG_MEMSIZE 0x%x does not match\n",
                   rd(A_CONFIG_MEMSIZE));
        return 2;
    }

    /* the memory controller: VRAM at GPU address 0 */
    wr(A_MC_FB_LOCATION, ((dev.bar_size[R300_VRAM_BAR] - 1) >> 16) << 16);
    /* the CP: a bus-mastered ring in VRAM with read-pointer write-back */
    r300_ring_start(ring_start, RING_ADDR, RING_BUFSZ, WB_ADDR);
    for (i = 0; i < R300_RING_START_WRITES; i++) {
        wr(ring_start[i][0], ring_start[i][1]);
    }
    wr(A_SCRATCH_ADDR, WB_ADDR + 0x100);
    wr(A_SCRATCH_UMSK, 1);
    /* the CRTC: 640x480, 32 bpp */
    wr(A_CRTC_H_TOTAL_DISP, (W / 8 - 1) << 16);
    wr(A_CRTC_V_TOTAL_DISP, (H - 1) << 16);
    wr(A_CRTC_PITCH, W / 8);
    wr(A_CRTC_OFFSET, CB_ADDR(0));
    wr(A_CRTC_GEN_CNTL, R300_CRTC_PIX_WIDTH_32BPP << 8 |
                        R_CRTC_GEN_CNTL_EXT_DISP_EN_MASK |
                        R_CRTC_GEN_CNTL_EN_MASK);

    scene_vertices(verts);
    t0 = guest_rdtsc();
    for (f = 0; f < SCENE_FRAMES; f++) {
        R300Cmd c = { cmdbuf, 0, sizeof(cmdbuf) / 4, 0 };
        R300Surface cb = { .addr = CB_ADDR(f & 1), .pitch = W,
                           .format = R300_COLOR_FORMAT_ARGB8888 };
        float m[16];

        r300_cmd_pipeline(&c, &cb, &zb, W, H);
        r300_cmd_clear(&c, SCENE_CLEAR_R, SCENE_CLEAR_G, SCENE_CLEAR_B, 1);
        scene_matrix(f, (float)W / H, m);
        r300_cmd_matrix(&c, m);
        r300_cmd_draw(&c, R300_PRIM_TRIANGLES, verts, SCENE_VERTS);
        r300_cmd_finish(&c);
        r300_cmd_reg(&c, R300_SCRATCH_REG(0), f + 1);
        if (c.overflow || submit(cmdbuf, c.n) < 0) {
            guest_printf("r300-demo: frame %d failed\n", f);
            return 3;
        }
        if (*(volatile uint32_t *)(vram + WB_ADDR + 0x100) != (uint32_t)f + 1) {
            guest_printf("r300-demo: scratch write-back missing\n");
            return 4;
        }
        wr(A_CRTC_OFFSET, CB_ADDR(f & 1));      /* show the finished frame */
    }
    guest_print_frame_rate("r300-demo", SCENE_FRAMES, t0);
    guest_printf("r300-demo: done, %d frames\n", SCENE_FRAMES);
    guest_halt();
}
