/*
 * attila demo: a homebrew guest that finds the attila-3d device and drives
 * it the way an ATTILA driver does: it builds AGP transaction records (the
 * trace-file format) into a ring in its own RAM (the system-memory half of
 * the ATTILA address space), uploads a vertex and a fragment program into
 * GPU memory, and draws the shared cube scene (guest/scene-cube.h) with
 * depth test, double-buffered through GPU_SWAPBUFFERS. The vertices stay in
 * guest RAM: the streamer fetches them through bit-31 addresses. A fence
 * after every frame tells the guest the frame is on screen.
 *
 * Serial log on COM1; "attila-demo: done" after the last frame, which stays
 * on the screen for the screenshot.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "guest.h"
#include "scene-cube.h"
#include "gpu3d/attila-regs.h"
#include "gpu3d/attila-cmd.h"

#define W 640
#define H 480
#define RING_BYTES   (64 * 1024)
#define SYSMEM_BYTES 0x08000000u            /* the guest's first 128 MiB */
/* GPU memory (BAR2) layout */
#define VPROG_ADDR   0x00010000u
#define FPROG_ADDR   0x00011000u
#define FB_ADDR(i)   (0x01000000u + (i) * 0x00400000u)
#define ZB_ADDR      0x01800000u
#define FPROG_PC     8                      /* fragment program after the vertex one */
#define FRAMES_TIMED 48                     /* extra frames for the speed figure */

static volatile uint8_t *regs;
static uint8_t ring[RING_BYTES] __attribute__((aligned(64)));
static uint8_t recs[16384];
static float verts[SCENE_VERTS * 8] __attribute__((aligned(16)));

/* guest RAM seen by the GPU: ATTILA address 0x80000000 + physical */
static uint32_t sysmem(const void *p)
{
    return 0x80000000u | (uint32_t)(uintptr_t)p;
}

static uint32_t io_rd(void *opaque, uint32_t off)
{
    return mmio_rd32(regs, off);
}

static void io_wr(void *opaque, uint32_t off, uint32_t v)
{
    mmio_wr32(regs, off, v);
}

static void io_copy(void *opaque, uint32_t at, const uint8_t *p, uint32_t n)
{
    memcpy(ring + at, p, n);
}

static void io_pause(void *opaque)
{
}

static AttilaRingIo rio = { 0, io_rd, io_wr, io_copy, io_pause, RING_BYTES, 0 };

/* push the records, wait until the device has run them all */
static int submit(AttilaRecBuf *b, uint32_t fence)
{
    uint64_t spin;

    attila_rec_fence(b, fence);
    if (b->overflow || attila_ring_push(&rio, b->buf, b->n, 100000000u) < 0) {
        return -1;
    }
    b->n = 0;
    for (spin = 0; spin < 2000000000ull; spin++) {
        if (mmio_rd32(regs, A_ATTILA_FENCE) == fence) {
            return 0;
        }
    }
    return -1;
}

static void ins(AttilaShIns *p, int n, uint8_t out[][16])
{
    int i;

    for (i = 0; i < n; i++) {
        attila_sh_encode(&p[i], out[i]);
    }
}

/*
 * The programs: position = the frame's matrix (rows in constants 0..3)
 * times input 0; colour output 1 = input 3 (the triangle trace's
 * attribute layout). The fragment program passes the colour on.
 */
static void load_programs(AttilaRecBuf *b)
{
    static uint8_t vp[5][16], fp[1][16];
    const AttilaShSrc in0 = ATTILA_SRC(ATTILA_BANK_IN, 0);
    AttilaShIns v[5] = {
        { .opc = ATTILA_SH_DP4, .rbank = ATTILA_BANK_OUT, .rreg = 0, .mask = 8,
          .s = { ATTILA_SRC(ATTILA_BANK_PARAM, 0), in0 } },
        { .opc = ATTILA_SH_DP4, .rbank = ATTILA_BANK_OUT, .rreg = 0, .mask = 4,
          .s = { ATTILA_SRC(ATTILA_BANK_PARAM, 1), in0 } },
        { .opc = ATTILA_SH_DP4, .rbank = ATTILA_BANK_OUT, .rreg = 0, .mask = 2,
          .s = { ATTILA_SRC(ATTILA_BANK_PARAM, 2), in0 } },
        { .opc = ATTILA_SH_DP4, .rbank = ATTILA_BANK_OUT, .rreg = 0, .mask = 1,
          .s = { ATTILA_SRC(ATTILA_BANK_PARAM, 3), in0 } },
        { .opc = ATTILA_SH_MOV, .end = true, .rbank = ATTILA_BANK_OUT,
          .rreg = 1, .mask = 15, .s = { ATTILA_SRC(ATTILA_BANK_IN, 3) } },
    };
    AttilaShIns f[1] = {
        { .opc = ATTILA_SH_MOV, .end = true, .rbank = ATTILA_BANK_OUT,
          .rreg = 1, .mask = 15, .s = { ATTILA_SRC(ATTILA_BANK_IN, 1) } },
    };

    ins(v, 5, vp);
    ins(f, 1, fp);
    attila_rec_write(b, VPROG_ADDR, vp, sizeof(vp));
    attila_rec_reg_u32(b, ATTILA_REG_VERTEX_PROGRAM, 0, VPROG_ADDR);
    attila_rec_reg_u32(b, ATTILA_REG_VERTEX_PROGRAM_PC, 0, 0);
    attila_rec_reg_u32(b, ATTILA_REG_VERTEX_PROGRAM_SIZE, 0, sizeof(vp));
    attila_rec_reg_u32(b, ATTILA_REG_VERTEX_THREAD_RESOURCES, 0, 1);
    attila_rec_cmd(b, ATTILA_CMD_LOAD_VERTEX_PROGRAM);
    attila_rec_write(b, FPROG_ADDR, fp, sizeof(fp));
    attila_rec_reg_u32(b, ATTILA_REG_FRAGMENT_PROGRAM, 0, FPROG_ADDR);
    attila_rec_reg_u32(b, ATTILA_REG_FRAGMENT_PROGRAM_PC, 0, FPROG_PC);
    attila_rec_reg_u32(b, ATTILA_REG_FRAGMENT_PROGRAM_SIZE, 0, sizeof(fp));
    attila_rec_cmd(b, ATTILA_CMD_LOAD_FRAGMENT_PROGRAM);
}

/* everything that stays the same from frame to frame */
static void setup(AttilaRecBuf *b)
{
    int i;

    attila_rec_reg_u32(b, ATTILA_REG_DISPLAY_X_RES, 0, W);
    attila_rec_reg_u32(b, ATTILA_REG_DISPLAY_Y_RES, 0, H);
    attila_rec_reg_u32(b, ATTILA_REG_VIEWPORT_WIDTH, 0, W);
    attila_rec_reg_u32(b, ATTILA_REG_VIEWPORT_HEIGHT, 0, H);
    attila_rec_reg_u32(b, ATTILA_REG_FRONTBUFFER_ADDR, 0, FB_ADDR(1));
    attila_rec_reg_u32(b, ATTILA_REG_BACKBUFFER_ADDR, 0, FB_ADDR(0));
    attila_rec_reg_u32(b, ATTILA_REG_ZSTENCILBUFFER_ADDR, 0, ZB_ADDR);
    attila_rec_reg_vec4(b, ATTILA_REG_COLOR_BUFFER_CLEAR, 0, SCENE_CLEAR_R,
                        SCENE_CLEAR_G, SCENE_CLEAR_B, 1);
    /* depth test LESS, depth range 0..1, 24-bit z cleared to 1.0 */
    attila_rec_reg_u32(b, ATTILA_REG_DEPTH_TEST, 0, 1);
    attila_rec_reg_u32(b, ATTILA_REG_DEPTH_FUNCTION, 0, ATTILA_CMP_LESS);
    attila_rec_reg_u32(b, ATTILA_REG_Z_BUFFER_CLEAR, 0, 0x00ffffff);
    attila_rec_reg_u32(b, ATTILA_REG_CULLING, 0, ATTILA_CULL_NONE);
    load_programs(b);
    /* two streams over the vertices in guest RAM: position, colour */
    for (i = 0; i < ATTILA_MAX_VERTEX_ATTRIBUTES; i++) {
        attila_rec_reg_u32(b, ATTILA_REG_VERTEX_OUTPUT_ATTRIBUTE, i, i < 2);
        attila_rec_reg_u32(b, ATTILA_REG_VERTEX_ATTRIBUTE_MAP, i,
                           i == 0 ? 0 : i == 3 ? 1 : ATTILA_ST_INACTIVE_ATTRIBUTE);
    }
    for (i = 0; i < 2; i++) {
        attila_rec_reg_u32(b, ATTILA_REG_STREAM_ADDRESS, i, sysmem(verts + 4 * i));
        attila_rec_reg_u32(b, ATTILA_REG_STREAM_STRIDE, i, 32);
        attila_rec_reg_u32(b, ATTILA_REG_STREAM_DATA, i, ATTILA_SD_FLOAT32);
        attila_rec_reg_u32(b, ATTILA_REG_STREAM_ELEMENTS, i, 4);
    }
    attila_rec_reg_u32(b, ATTILA_REG_STREAM_START, 0, 0);
    attila_rec_reg_u32(b, ATTILA_REG_STREAM_COUNT, 0, SCENE_VERTS);
    attila_rec_reg_u32(b, ATTILA_REG_INDEX_MODE, 0, 0);
    attila_rec_reg_u32(b, ATTILA_REG_PRIMITIVE, 0, ATTILA_PRIM_TRIANGLE);
    attila_rec_reg_u32(b, ATTILA_REG_FRAGMENT_INPUT_ATTRIBUTES, 1, 1);
}

/* one frame: clear, the frame's matrix, draw, swap */
static void frame(AttilaRecBuf *b, int f)
{
    float m[16];
    int r;

    scene_matrix(f, (float)W / H, m);
    for (r = 0; r < 4; r++) {
        attila_rec_reg_vec4(b, ATTILA_REG_VERTEX_CONSTANT, r, m[4 * r],
                            m[4 * r + 1], m[4 * r + 2], m[4 * r + 3]);
    }
    attila_rec_cmd(b, ATTILA_CMD_CLEARCOLORBUFFER);
    attila_rec_cmd(b, ATTILA_CMD_CLEARZSTENCILBUFFER);
    attila_rec_cmd(b, ATTILA_CMD_DRAW);
    attila_rec_cmd(b, ATTILA_CMD_SWAPBUFFERS);
}

/*
 * TSC ticks in 10 ms, timed by PIT channel 2 (gate and output through port
 * 0x61); 0 if the PIT does not answer.
 */
static uint64_t tsc_per_10ms(void)
{
    const uint16_t count = 11932;           /* 10 ms at 1.193182 MHz */
    uint64_t t0, spin;

    outb(0x61, (inb(0x61) & ~0x02) | 0x01); /* gate on, speaker off */
    outb(0x43, 0xB0);                       /* channel 2, lo/hi, mode 0 */
    outb(0x42, count & 0xFF);
    outb(0x42, count >> 8);
    t0 = g3d_rdtsc();
    for (spin = 0; spin < 100000000ull; spin++) {
        if (inb(0x61) & 0x20) {
            return g3d_rdtsc() - t0;
        }
    }
    return 0;
}

int main(void)
{
    G3DPciDev dev;
    AttilaRecBuf b = { recs, 0, sizeof(recs), 0 };
    uint32_t fence = 0;
    uint64_t t0, ticks, per10ms;
    int f;

    g3d_printf("attila-demo: looking for 1234:3d02\n");
    if (g3d_pci_find(ATTILA_PCI_VENDOR_ID, ATTILA_PCI_DEVICE_ID, &dev) < 0) {
        g3d_printf("attila-demo: no attila-3d device\n");
        return 1;
    }
    regs = (volatile uint8_t *)(uintptr_t)dev.bar[ATTILA_REGS_BAR];
    g3d_printf("attila-demo: %02x:%02x.%x regs %p, GPU memory %u MiB\n",
               dev.bus, dev.slot, dev.func, (void *)regs,
               mmio_rd32(regs, A_ATTILA_MEM_SIZE) >> 20);
    if (mmio_rd32(regs, A_ATTILA_ID) != ATTILA_ID_VALUE ||
        dev.bar_size[ATTILA_REGS_BAR] != ATTILA_BAR0_SIZE ||
        mmio_rd32(regs, A_ATTILA_MEM_SIZE) < 32u << 20) {
        g3d_printf("attila-demo: unexpected identity or BAR sizes\n");
        return 2;
    }

    /* system memory = guest physical 0.., the ring in it */
    mmio_wr32(regs, A_ATTILA_SYSMEM_BASE_LO, 0);
    mmio_wr32(regs, A_ATTILA_SYSMEM_BASE_HI, 0);
    mmio_wr32(regs, A_ATTILA_SYSMEM_SIZE, SYSMEM_BYTES);
    mmio_wr32(regs, A_ATTILA_RING_BASE, sysmem(ring));
    mmio_wr32(regs, A_ATTILA_RING_SIZE, RING_BYTES);
    mmio_wr32(regs, A_ATTILA_RING_CONTROL, R_ATTILA_RING_CONTROL_ENABLE_MASK);

    scene_vertices(verts);
    setup(&b);
    if (submit(&b, ++fence) < 0) {
        g3d_printf("attila-demo: setup failed\n");
        return 3;
    }
    /* the turning cube */
    for (f = 0; f < SCENE_FRAMES; f++) {
        frame(&b, f);
        if (submit(&b, ++fence) < 0) {
            g3d_printf("attila-demo: frame %d failed\n", f);
            return 4;
        }
    }
    /* the same frames again, timed, ending on the same last frame */
    t0 = g3d_rdtsc();
    for (f = 0; f < FRAMES_TIMED; f++) {
        frame(&b, (f + SCENE_FRAMES * 1000 - FRAMES_TIMED) % SCENE_FRAMES);
        if (submit(&b, ++fence) < 0) {
            g3d_printf("attila-demo: timed frame %d failed\n", f);
            return 4;
        }
    }
    ticks = g3d_rdtsc() - t0;
    per10ms = tsc_per_10ms();
    if (per10ms) {
        uint32_t ms = (uint32_t)(ticks * 10 / per10ms);
        g3d_printf("attila-demo: %d frames in %u ms (%u.%u frames/s end to "
                   "end), %u records so far\n", FRAMES_TIMED, ms,
                   ms ? FRAMES_TIMED * 1000 / ms : 0,
                   ms ? FRAMES_TIMED * 10000 / ms % 10 : 0,
                   mmio_rd32(regs, A_ATTILA_RECORDS));
    }
    if (mmio_rd32(regs, A_ATTILA_ERROR_COUNT) != 0 ||
        mmio_rd32(regs, A_ATTILA_FRAME) != SCENE_FRAMES + FRAMES_TIMED) {
        g3d_printf("attila-demo: %u device errors (code %u, info 0x%x), "
                   "%u frames\n", mmio_rd32(regs, A_ATTILA_ERROR_COUNT),
                   mmio_rd32(regs, A_ATTILA_ERROR_CODE),
                   mmio_rd32(regs, A_ATTILA_ERROR_INFO),
                   mmio_rd32(regs, A_ATTILA_FRAME));
        return 5;
    }
    g3d_printf("attila-demo: done, %d frames\n", SCENE_FRAMES + FRAMES_TIMED);
    g3d_halt();
}
