/*
 * flipper demo: a homebrew guest that finds the flipper-gx device and
 * drives it as a GameCube program drives Flipper: the VI shows a 640x480
 * YUV XFB, a GX FIFO ring in MEM1 is linked to the write-gather pipe, and
 * each frame of the shared cube scene (guest/flipper-scene.h: frame set-up,
 * EFB clear, the cube and ground in perspective with depth test, EFB -> XFB
 * copy) is written through the pipe as 32-bit stores, followed by draw
 * done and a token. The demo waits for the token (it follows draw done in
 * the stream) and checks PE FINISH before the next frame.
 *
 * Serial log on COM1; "flipper-demo: done" once the last frame, the one
 * Dolphin's reference shows (tests/flipper/ref/cube.png), is in the XFB.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "guest.h"
#include "flipper-scene.h"

static volatile uint8_t *regs;
static uint8_t stream[4096] __attribute__((aligned(32)));
static uint32_t frame_bytes;

static uint16_t rd16(uint32_t off)
{
    return *(volatile uint16_t *)(regs + off);
}

static void wr16(uint32_t off, uint16_t v)
{
    *(volatile uint16_t *)(regs + off) = v;
}

static void seq(const FlipperRegWrite *w, unsigned n)
{
    unsigned i;

    for (i = 0; i < n; i++) {
        if (w[i].size == 2) {
            wr16(w[i].off, (uint16_t)w[i].val);
        } else {
            mmio_wr32(regs, w[i].off, w[i].val);
        }
    }
}

/* the gather pipe: each 32-bit store appends its value big-endian */
static void gather(const uint8_t *p, uint32_t len)
{
    uint32_t i;

    for (i = 0; i < len; i += 4) {
        mmio_wr32(regs, FLIPPER_WGP_BASE,
                  (uint32_t)p[i] << 24 | p[i + 1] << 16 | p[i + 2] << 8 |
                  p[i + 3]);
    }
}

static int frame(int f)
{
    FlipperGX g = { stream, 0, sizeof(stream) };
    uint32_t spin;
    uint16_t want = (uint16_t)(0x100 + f);

    flipper_cube_frame(&g, f);
    fgx_draw_done(&g, want);
    fgx_pad32(&g);                  /* whole bursts: GX_Flush */
    if (g.len > g.cap) {
        guest_printf("flipper-demo: frame %d: stream of %u bytes too long\n",
                   f, g.len);
        return -1;
    }
    gather(stream, g.len);
    frame_bytes = g.len;
    /* the token follows draw done in the stream: wait for it, then FINISH
     * must be set too */
    for (spin = 0; rd16(A_PE_TOKEN) != want; spin++) {
        if (spin > 50000000u) {
            guest_printf("flipper-demo: frame %d: token 0x%x, want 0x%x "
                       "(CP SR 0x%x)\n", f, rd16(A_PE_TOKEN), want,
                       rd16(A_CP_SR));
            return -1;
        }
    }
    if (!(rd16(A_PE_ISR) & R_PE_ISR_FINISH_MASK)) {
        guest_printf("flipper-demo: frame %d: token without draw done\n", f);
        return -1;
    }
    /* acknowledge FINISH and TOKEN, keep both enabled */
    wr16(A_PE_ISR, R_PE_ISR_TOKEN_ENABLE_MASK |
                   R_PE_ISR_FINISH_ENABLE_MASK |
                   R_PE_ISR_TOKEN_MASK | R_PE_ISR_FINISH_MASK);
    return 0;
}

int main(void)
{
    G3DPciDev dev;
    FlipperRegWrite w[FGX_FIFO_INIT_WRITES];
    uint64_t t0;
    int f;

    guest_printf("flipper-demo: looking for 1234:3d04\n");
    if (guest_pci_find(FLIPPER_PCI_VENDOR, FLIPPER_PCI_DEVICE, &dev) < 0) {
        guest_printf("flipper-demo: no flipper-gx device\n");
        return 1;
    }
    regs = (volatile uint8_t *)(uintptr_t)dev.bar[0];
    guest_printf("flipper-demo: %02x:%02x.%x regs %p mem1 BAR %u MiB\n",
               dev.bus, dev.slot, dev.func, (void *)regs,
               dev.bar_size[2] >> 20);
    if (dev.bar_size[0] != FLIPPER_BAR0_SIZE ||
        dev.bar_size[2] != FLIPPER_BAR2_SIZE) {
        guest_printf("flipper-demo: unexpected BAR sizes\n");
        return 2;
    }
    guest_printf("flipper-demo: Flipper revision 0x%08x\n",
               mmio_rd32(regs, A_PI_FLIPPER_REV));

    seq(fgx_vi_ntsc640, sizeof(fgx_vi_ntsc640) / sizeof(fgx_vi_ntsc640[0]));
    seq(w, fgx_fifo_init(w, FGX_FIFO_BASE, FGX_FIFO_SIZE));
    /* PE: token and finish interrupts on, stale ones acknowledged */
    wr16(A_PE_ISR, 0x000F);

    t0 = guest_rdtsc();
    for (f = 0; f < SCENE_FRAMES; f++) {
        if (frame(f) < 0) {
            return 3;
        }
    }
    guest_print_frame_rate("flipper-demo", SCENE_FRAMES, t0);
    guest_printf("flipper-demo: %u bytes of GX commands a frame\n", frame_bytes);
    if (mmio_rd32(regs, A_PI_INTSR) & PI_INT_ERROR) {
        guest_printf("flipper-demo: GP error\n");
        return 4;
    }
    guest_printf("flipper-demo: done, %d frames\n", SCENE_FRAMES);
    guest_halt();
}
