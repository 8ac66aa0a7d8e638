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
#include "attila-scene.h"

#define W 640
#define H 480
#define RING_BYTES   (64 * 1024)
#define SYSMEM_BYTES 0x08000000u            /* the guest's first 128 MiB */
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

int main(void)
{
    G3DPciDev dev;
    AttilaRecBuf b = { recs, 0, sizeof(recs), 0 };
    uint32_t fence = 0;
    uint64_t t0;
    int f;

    guest_printf("attila-demo: looking for 1234:3d02\n");
    if (guest_pci_find(ATTILA_PCI_VENDOR_ID, ATTILA_PCI_DEVICE_ID, &dev) < 0) {
        guest_printf("attila-demo: no attila-3d device\n");
        return 1;
    }
    regs = (volatile uint8_t *)(uintptr_t)dev.bar[ATTILA_REGS_BAR];
    guest_printf("attila-demo: %02x:%02x.%x regs %p, GPU memory %u MiB\n",
               dev.bus, dev.slot, dev.func, (void *)regs,
               mmio_rd32(regs, A_ATTILA_MEM_SIZE) >> 20);
    if (mmio_rd32(regs, A_ATTILA_ID) != ATTILA_ID_VALUE ||
        dev.bar_size[ATTILA_REGS_BAR] != ATTILA_BAR0_SIZE ||
        mmio_rd32(regs, A_ATTILA_MEM_SIZE) < 32u << 20) {
        guest_printf("attila-demo: unexpected identity or BAR sizes\n");
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
    attila_scene_setup(&b, W, H, sysmem(verts));
    if (submit(&b, ++fence) < 0) {
        guest_printf("attila-demo: setup failed\n");
        return 3;
    }
    /* the turning cube */
    for (f = 0; f < SCENE_FRAMES; f++) {
        attila_scene_frame(&b, f, W, H);
        if (submit(&b, ++fence) < 0) {
            guest_printf("attila-demo: frame %d failed\n", f);
            return 4;
        }
    }
    /* the same frames again, timed, ending on the same last frame */
    t0 = guest_rdtsc();
    for (f = 0; f < FRAMES_TIMED; f++) {
        attila_scene_frame(&b, (f + SCENE_FRAMES * 1000 - FRAMES_TIMED) %
                               SCENE_FRAMES, W, H);
        if (submit(&b, ++fence) < 0) {
            guest_printf("attila-demo: timed frame %d failed\n", f);
            return 4;
        }
    }
    guest_print_frame_rate("attila-demo", FRAMES_TIMED, t0);
    guest_printf("attila-demo: %u records so far\n",
               mmio_rd32(regs, A_ATTILA_RECORDS));
    if (mmio_rd32(regs, A_ATTILA_ERROR_COUNT) != 0 ||
        mmio_rd32(regs, A_ATTILA_FRAME) != SCENE_FRAMES + FRAMES_TIMED) {
        guest_printf("attila-demo: %u device errors (code %u, info 0x%x), "
                   "%u frames\n", mmio_rd32(regs, A_ATTILA_ERROR_COUNT),
                   mmio_rd32(regs, A_ATTILA_ERROR_CODE),
                   mmio_rd32(regs, A_ATTILA_ERROR_INFO),
                   mmio_rd32(regs, A_ATTILA_FRAME));
        return 5;
    }
    guest_printf("attila-demo: done, %d frames\n", SCENE_FRAMES + FRAMES_TIMED);
    guest_halt();
}
