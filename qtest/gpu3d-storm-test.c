/*
 * Every gpu3d device under a storm of guest writes: random values (random
 * words, small numbers, addresses inside its memory BAR) at random offsets
 * of its register BAR, over memory filled with random bytes, so command
 * processors chase garbage pointers and run garbage commands. The device
 * must stay responsive (register reads come back: its worker is not stuck),
 * its console must keep working (screendump with whatever scanout the storm
 * left), and a system reset must bring it back. A crash, hang or
 * out-of-bounds access fails the test (the gate also runs QEMU under its
 * usual timeout).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "gpu3d-qtest-util.h"
#include "gpu3d/r300-regs.h"
#include "gpu3d/pica200-regs.h"
#include "gpu3d/attila-regs.h"
#include "gpu3d/glamo-regs.h"
#include "gpu3d/flipper-regs.h"

typedef struct StormDev {
    const char *name;           /* -device ...,id=gpu */
    uint16_t vendor, device;
    int regs, mem;              /* BAR numbers */
} StormDev;

static const StormDev devs[] = {
    { "r300-3d", R300_PCI_VENDOR_ID, R300_PCI_DEVICE_ID,
      R300_MMIO_BAR, R300_VRAM_BAR },
    { "pica200-3d", PICA200_PCI_VENDOR_ID, PICA200_PCI_DEVICE_ID,
      PICA200_REGS_BAR, PICA200_VRAM_BAR },
    { "attila-3d,mem-size=0x4000000", ATTILA_PCI_VENDOR_ID,
      ATTILA_PCI_DEVICE_ID, ATTILA_REGS_BAR, ATTILA_MEM_BAR },
    { "glamo-3d", GLAMO_PCI_VENDOR_ID, GLAMO_PCI_DEVICE_ID,
      GLAMO_REGS_BAR, GLAMO_VRAM_BAR },
    { "flipper-gx", FLIPPER_PCI_VENDOR, FLIPPER_PCI_DEVICE,
      FLIPPER_REGS_BAR, FLIPPER_MEM1_BAR },
};

#define WRITES      100000
#define MEM_FILL    (1u << 20)          /* random bytes at the start of memory */

static uint32_t storm_value(GRand *r, uint64_t mem_size)
{
    switch (g_rand_int_range(r, 0, 4)) {
    case 0:
        return g_rand_int(r);
    case 1:
        return g_rand_int_range(r, 0, 256);
    case 2:
        return g_rand_int_range(r, 0, (gint32)MIN(mem_size, 0x7fffffff)) & ~3u;
    default:
        return 1u << g_rand_int_range(r, 0, 32);
    }
}

static void storm(gconstpointer data)
{
    const StormDev *sd = data;
    g_autofree char *args = g_strdup_printf("-device %s,id=gpu,render-threads=2",
                                            sd->name);
    G3DQDev *d = g3dq_open(args, sd->vendor, sd->device);
    uint64_t regs_size = d->bar_size[sd->regs], mem_size = d->bar_size[sd->mem];
    GRand *r = g_rand_new_with_seed(0x5eed0000u + sd->device);
    g_autofree uint8_t *junk = g_malloc(MEM_FILL);
    G3DQImage img = { 0 };
    g_autofree char *log = NULL;
    gsize log_len = 0;
    unsigned i, lines = 0;

    for (i = 0; i < MEM_FILL; i++) {
        junk[i] = g_rand_int(r);
    }
    g3dq_write(d, sd->mem, 0, junk, MIN(MEM_FILL, mem_size));

    for (i = 0; i < WRITES; i++) {
        uint64_t off = g_rand_int_range(r, 0, (gint32)(regs_size / 4)) * 4;

        g3dq_wr32(d, sd->regs, off, storm_value(r, mem_size));
        if (i % 1000 == 999) {
            /* a read waits for every queued write: the worker is alive */
            g3dq_rd32(d, sd->regs, g_rand_int_range(r, 0,
                                                    (gint32)(regs_size / 4)) * 4);
        }
    }
    g3dq_rd32(d, sd->regs, 0);
    g_assert_true(g3dq_screendump(d, "gpu", 0, &img));
    g_assert_true(g_file_get_contents(d->log, &log, &log_len, NULL));
    for (i = 0; i < log_len; i++) {
        lines += log[i] == '\n';
    }
    g_test_message("%s: %u writes, %u lines of guest errors and unmodelled "
                   "features logged, console %dx%d after the storm", sd->name,
                   WRITES, lines, img.width, img.height);
    g3dq_image_free(&img);

    /* a system reset brings the device back: memory BAR works, reads work */
    g3dq_system_reset(d);
    g3dq_wr32(d, sd->mem, 0x100, 0x12345678);
    g_assert_cmphex(g3dq_rd32(d, sd->mem, 0x100), ==, 0x12345678);
    g3dq_rd32(d, sd->regs, 0);
    g_assert_true(g3dq_screendump(d, "gpu", 0, &img));
    g3dq_image_free(&img);

    g_rand_free(r);
    g3dq_close(d);
}

int main(int argc, char **argv)
{
    unsigned i;

    g_test_init(&argc, &argv, NULL);
    for (i = 0; i < G_N_ELEMENTS(devs); i++) {
        g_autofree char *path = g_strdup_printf("/gpu3d/storm/%.*s",
                                                (int)strcspn(devs[i].name, ","),
                                                devs[i].name);
        qtest_add_data_func(path, &devs[i], storm);
    }
    return g_test_run();
}
