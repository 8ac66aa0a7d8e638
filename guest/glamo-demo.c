/*
 * glamo demo: a homebrew guest that finds the glamo-3d device and drives it
 * as the Linux glamo driver drives the chip: clocks and resets through the
 * generic block, the command queue's ring in VRAM, the LCD controller
 * scanning out RGB565. Each frame goes through the ring: a clear (two
 * screen-space triangles, Z test ALWAYS, Z = 1.0), then the shared cube
 * scene (guest/scene-cube.h) fetched by the parser from a vertex buffer in
 * VRAM (buffer mode, float position and ARGB colour streams), transformed by the
 * T1 matrix, clipped and viewport-mapped by the G/L engine, Gouraud shaded
 * and Z16 tested; then EGEND and the LCD base of the finished frame, which
 * the queue holds until the 3D engine is idle (double buffering).
 *
 * Serial log on COM1; "glamo-demo: done" once the last frame is on the LCD.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "guest.h"
#include "scene-cube.h"
#include "gpu3d/glamo-regs.h"
#include "gpu3d/glamo-cmd.h"

#define W       480
#define H       320
#define PITCH   (W * 2)
#define FB(i)   (0x000000u + (i) * 0x080000u)
#define ZB      0x100000u
#define VB      0x180000u
#define RING    0x700000u
#define RINGSZ  0x10000u
#define FRAMES_AGAIN 216    /* the animation nine times more: see main */

static volatile uint8_t *regs, *vram;
static uint16_t words[8192];
static uint32_t wptr;

static uint16_t rd(uint32_t off)
{
    return *(volatile uint16_t *)(regs + off);
}

static void wr(uint32_t off, uint16_t v)
{
    *(volatile uint16_t *)(regs + off) = v;
}

static void seq(const GlamoRegWrite *w, unsigned n)
{
    unsigned i;

    for (i = 0; i < n; i++) {
        wr(w[i].off, w[i].val);
    }
}

/* glamo_cmdq_wait() of the driver, then the 3D engine's idle bits */
static int wait_idle(void)
{
    uint64_t spin;

    for (spin = 0; spin < 2000000000ull; spin++) {
        if (glamo_cmdq_idle(rd(A_GLAMO_CMDQ_STATUS)) &&
            (rd(A_EGSTATUSA) & 3) == 3) {
            return 0;
        }
    }
    return -1;
}

/* copy the packets into the ring, move the write pointer (H, then L) */
static int submit(GlamoCmd *c)
{
    uint32_t i;

    if (c->overflow || 2 * c->n >= RINGSZ) {
        return -1;
    }
    for (i = 0; i < c->n; i++) {
        *(volatile uint16_t *)(vram + RING + wptr) = c->buf[i];
        wptr = glamo_ring_advance(wptr, 1, RINGSZ);
    }
    wr(A_GLAMO_CMDQ_WRITE_ADDRH, (uint16_t)(wptr >> 16));
    wr(A_GLAMO_CMDQ_WRITE_ADDRL, (uint16_t)wptr);
    c->n = 0;
    return 0;
}

/*
 * The vertex buffer, 32 bytes a vertex: float x y z w, then the colour as
 * an ARGB8888 word (MGVtxColorfmt 0; bytes B G R A). A byte colour stream
 * keeps the register path's packed colour (the clear) ARGB too: a float
 * diffuse stream would make RGPDIFFa a float (docs/glamo-3d.md, #20).
 */
static void put_vertices(void)
{
    static float v[SCENE_VERTS * 8];
    unsigned i, k;

    scene_vertices(v);
    for (i = 0; i < SCENE_VERTS; i++) {
        volatile uint32_t *p = (volatile uint32_t *)(vram + VB + 32 * i);
        uint32_t argb = 0;
        for (k = 0; k < 4; k++) {
            p[k] = glamo_fbits(v[i * 8 + k]);
        }
        for (k = 0; k < 4; k++) {       /* r g b a -> ARGB */
            uint32_t b = (uint32_t)(v[i * 8 + 4 + k] * 255.0f + 0.5f);
            argb |= b << (k == 3 ? 24 : 16 - 8 * k);
        }
        p[4] = argb;
    }
}

/* G/L state that does not change between frames */
static void queue_pipeline(GlamoCmd *c)
{
    /* viewport: x right, y down, Z 0..1 (s[7].16) */
    glamo_cmd_wr(c, A_RGXScaleX, glamo_f24(W / 2.0f));
    glamo_cmd_wr(c, A_RGXOffsetX, glamo_f24(W / 2.0f));
    glamo_cmd_wr(c, A_RGXScaleY, glamo_f24(-H / 2.0f));
    glamo_cmd_wr(c, A_RGXOffsetY, glamo_f24(H / 2.0f));
    glamo_cmd_wr(c, A_RGXScaleZ, glamo_f24(1.0f));
    glamo_cmd_wr(c, A_RGXOffsetZ, 0);
    glamo_cmd_wr(c, A_RGXFEN1, 0);          /* no lighting, no vertex fog */
    glamo_cmd_wr(c, A_RGXFEN2, 0);          /* all six clip planes */
    /* streams: 0 = float xyzw position, 1 = ARGB8888 colour */
    glamo_cmd_wr(c, A_MGVStreamActive, 0x03);
    glamo_cmd_wr(c, A_MGVStrmCtl, 1 << 8);
    glamo_cmd_wr(c, GLAMO_MGVSTRM_DESC(0), 32 << 16 | 3 << 8 |
                 GLAMO_VTYPE_FLOAT << 4 | GLAMO_VARRAY_POSITION);
    glamo_cmd_wr(c, GLAMO_MGVSTRM_BAS(0), VB);
    glamo_cmd_wr(c, GLAMO_MGVSTRM_DESC(1), 32 << 16 | 3 << 8 |
                 GLAMO_VTYPE_UBYTE << 4 | GLAMO_VARRAY_DIFFUSE);
    glamo_cmd_wr(c, GLAMO_MGVSTRM_BAS(1), VB + 16);
    glamo_cmd_wr(c, A_RGPDV, 32 << 20 | SCENE_VERTS);
}

/* one frame into FB(buf), then show it */
static void queue_frame(GlamoCmd *c, int f, int buf)
{
    float m[16];
    int i, j;

    glamo_cmd_clear(c, FB(buf), PITCH, W, H, ZB, GLAMO_ZT_LESS,
                    0xff000000u | (uint32_t)(SCENE_CLEAR_R * 255 + 0.5f) << 16 |
                    (uint32_t)(SCENE_CLEAR_G * 255 + 0.5f) << 8 |
                    (uint32_t)(SCENE_CLEAR_B * 255 + 0.5f));
    /* T&L on: clip = [x y z w] . T1 (row vectors); the scene's GL clip Z
     * (-w..w) becomes the chip's D3D range (0..w): z' = z/2 + w/2 */
    scene_matrix(f, (float)W / H, m);
    for (j = 0; j < 4; j++) {
        m[8 + j] = 0.5f * m[8 + j] + 0.5f * m[12 + j];
    }
    for (i = 0; i < 4; i++) {
        for (j = 0; j < 4; j++) {
            glamo_cmd_wr(c, GLAMO_RGXR0T1MAT(i, j), glamo_f24(m[j * 4 + i]));
        }
    }
    glamo_cmd_wr(c, A_RGXFEN0, R_RGXFEN0_RGXDisableCull_MASK);
    glamo_cmd_wr(c, A_EGPrim1, GLAMO_PRIM_TRIANGLES);
    glamo_cmd_wr(c, A_MGBufCMSFire, GLAMO_CMS_BUFFER);
    glamo_cmd_wr(c, A_MGBufCBMFire, GLAMO_CBM_BUFFER);
    glamo_cmd_wr(c, A_EGEND, 0);
    glamo_cmd_lcd_base(c, FB(buf));
}

int main(void)
{
    G3DPciDev dev;
    GlamoCmd c = { words, 0, sizeof(words) / 2, 0 };
    GlamoRegWrite w[10];
    uint64_t t0;
    int f;

    guest_printf("glamo-demo: looking for 1234:3d03\n");
    if (guest_pci_find(GLAMO_PCI_VENDOR_ID, GLAMO_PCI_DEVICE_ID, &dev) < 0) {
        guest_printf("glamo-demo: no glamo-3d device\n");
        return 1;
    }
    regs = (volatile uint8_t *)(uintptr_t)dev.bar[GLAMO_REGS_BAR];
    vram = (volatile uint8_t *)(uintptr_t)dev.bar[GLAMO_VRAM_BAR];
    guest_printf("glamo-demo: %02x:%02x.%x regs %p vram %p (%u MiB), chip %x "
               "rev %x\n", dev.bus, dev.slot, dev.func, (void *)regs,
               (void *)vram, dev.bar_size[GLAMO_VRAM_BAR] >> 20,
               rd(A_GLAMO_DEVICE_ID), rd(A_GLAMO_REVISION_ID));
    if (rd(A_GLAMO_DEVICE_ID) != GLAMO_CHIP_ID ||
        dev.bar_size[GLAMO_REGS_BAR] != GLAMO_REG_SIZE ||
        dev.bar_size[GLAMO_VRAM_BAR] != GLAMO_VRAM_SIZE) {
        guest_printf("glamo-demo: unexpected chip id or BAR sizes\n");
        return 2;
    }

    seq(w, glamo_seq_enable_3d(w));
    seq(w, glamo_seq_cmdq_init(w, RING, RINGSZ, GLAMO_CMDQ_CONTROL_NO_IRQ));
    put_vertices();
    queue_pipeline(&c);

    t0 = guest_rdtsc();
    for (f = 0; f < SCENE_FRAMES; f++) {
        queue_frame(&c, f, f & 1);
        if (submit(&c) < 0 || wait_idle() < 0) {
            guest_printf("glamo-demo: frame %d failed\n", f);
            return 3;
        }
        if (f == 0) {
            /* the LCD on once the first frame is there */
            seq(w, glamo_seq_lcd(w, FB(0), PITCH, W, H));
        }
    }
    /*
     * the same frames again, ending on the same last frame in the same
     * buffer: rendering that lasts long enough for a save or migration to
     * stop it in the middle (scripts/migrate-test.py)
     */
    for (f = 0; f < FRAMES_AGAIN; f++) {
        int k = (f + SCENE_FRAMES * 1000 - FRAMES_AGAIN) % SCENE_FRAMES;

        queue_frame(&c, k, k & 1);
        if (submit(&c) < 0 || wait_idle() < 0) {
            guest_printf("glamo-demo: frame %d again failed\n", k);
            return 3;
        }
    }
    guest_print_frame_rate("glamo-demo", SCENE_FRAMES + FRAMES_AGAIN, t0);
    if (rd(A_GLAMO_CMDQ_STATUS) & GLAMO_CMDQ_STATUS_ERROR) {
        guest_printf("glamo-demo: command queue error\n");
        return 4;
    }
    if (rd(A_GLAMO_CMDQ_READ_ADDRL) != (uint16_t)wptr) {
        guest_printf("glamo-demo: ring not consumed\n");
        return 5;
    }
    guest_printf("glamo-demo: done, %d frames\n", SCENE_FRAMES + FRAMES_AGAIN);
    guest_halt();
}
