/*
 * Every gpu3d device's realize either succeeds or fails without a trace,
 * and plug/unplug cycles under load leave nothing behind:
 *
 * - under -only-migratable every device (each one's state migrates) goes
 *   in and answers on its BARs;
 * - each bad property value fails, then the same device with good values
 *   goes into the same slot and answers on its BARs;
 * - where the RAM size is a property (r300, attila), RAM that QEMU's
 *   address-space limit refuses fails realize the same way;
 * - 20 device_add / device_del (ACPI eject) cycles, each with the device
 *   chasing garbage commands when it is pulled, keep QEMU's thread count
 *   and RSS where they were after the first cycle (read from /proc).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include <sys/resource.h>
#include "gpu3d-qtest-util.h"
#include "gpu3d/r300-regs.h"
#include "gpu3d/pica200-regs.h"
#include "gpu3d/attila-regs.h"
#include "gpu3d/glamo-regs.h"
#include "gpu3d/flipper-regs.h"

typedef struct LifeDev {
    const char *driver;
    const char *props;          /* good properties, QMP dict members */
    const char *bad[3];         /* bad ones, each must fail realize */
    const char *big_ram;        /* RAM a small address-space limit refuses */
    uint16_t vendor, device;
    int regs, mem;              /* BAR numbers */
} LifeDev;

static const LifeDev devs[] = {
    { "r300-3d", "'render-threads': 2",
      { "'vram-size': 3", "'vram-size': 536870912", "'render-threads': 65" },
      "'render-threads': 2, 'vram-size': 268435456", R300_PCI_VENDOR_ID, R300_PCI_DEVICE_ID, R300_MMIO_BAR, R300_VRAM_BAR },
    { "pica200-3d", "'render-threads': 2", { "'render-threads': 65" }, NULL,
      PICA200_PCI_VENDOR_ID, PICA200_PCI_DEVICE_ID,
      PICA200_REGS_BAR, PICA200_VRAM_BAR },
    { "attila-3d", "'render-threads': 2, 'mem-size': 16777216",
      { "'mem-size': 1000000", "'mem-size': 2147483648",
        "'render-threads': 65" },
      "'render-threads': 2, 'mem-size': 1073741824", ATTILA_PCI_VENDOR_ID, ATTILA_PCI_DEVICE_ID,
      ATTILA_REGS_BAR, ATTILA_MEM_BAR },
    { "glamo-3d", "'render-threads': 2", { "'render-threads': 65" }, NULL,
      GLAMO_PCI_VENDOR_ID, GLAMO_PCI_DEVICE_ID,
      GLAMO_REGS_BAR, GLAMO_VRAM_BAR },
    { "flipper-gx", "'render-threads': 2", { "'render-threads': 65" }, NULL,
      FLIPPER_PCI_VENDOR, FLIPPER_PCI_DEVICE,
      FLIPPER_REGS_BAR, FLIPPER_MEM1_BAR },
};

#define SLOT        5
#define CYCLES      20
#define LOAD_WRITES 300
#define LOAD_FILL   (512 * 1024)

/*
 * A pc machine whose pid we know (libqtest 7.2 does not tell: -pidfile),
 * with libqos's PCI bus and where its BAR allocator started.
 */
typedef struct Qemu {
    QTestState *qts;
    char *pidfile;
    int pid;
    QPCIBus *bus;
    uint64_t pio0, mmio0;
} Qemu;

static void qemu_start(Qemu *q, const char *args)
{
    int fd = g_file_open_tmp("gpu3d-qtest-XXXXXX.pid", &q->pidfile, NULL);
    g_autofree char *text = NULL;

    g_assert_cmpint(fd, >=, 0);
    close(fd);
    q->qts = qtest_initf("%s -pidfile %s", args, q->pidfile);
    g_assert_true(g_file_get_contents(q->pidfile, &text, NULL, NULL));
    q->pid = atoi(text);
    g_assert_cmpint(q->pid, >, 0);
    q->bus = qpci_new_pc(q->qts, NULL);
    q->pio0 = q->bus->pio_alloc_ptr;
    q->mmio0 = q->bus->mmio_alloc_ptr;
}

static void qemu_stop(Qemu *q)
{
    qpci_free_pc(q->bus);
    qtest_quit(q->qts);
    unlink(q->pidfile);
    g_free(q->pidfile);
}

static int qemu_threads(Qemu *q)
{
    g_autofree char *path = g_strdup_printf("/proc/%d/task", q->pid);
    GDir *dir = g_dir_open(path, 0, NULL);
    int n = 0;

    g_assert_nonnull(dir);
    while (g_dir_read_name(dir)) {
        n++;
    }
    g_dir_close(dir);
    return n;
}

/* a "Vm...:" line of /proc/<pid>/status, in KiB */
static long qemu_status_kib(Qemu *q, const char *field)
{
    g_autofree char *path = g_strdup_printf("/proc/%d/status", q->pid);
    g_autofree char *text = NULL;
    const char *p;

    g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
    p = strstr(text, field);
    g_assert_nonnull(p);
    return atol(p + strlen(field));
}

/* device_add driver {id, addr, props}; NULL on success, else the error */
static char *try_add(QTestState *qts, const LifeDev *ld, const char *props)
{
    g_autofree char *args = g_strdup_printf("{'addr': '%#x'%s%s}", SLOT,
                                            *props ? ", " : "", props);
    QDict *dict = qobject_to(QDict, qobject_from_json(args, &error_abort));
    QDict *resp;
    char *err = NULL;

    qdict_put_str(dict, "driver", ld->driver);
    qdict_put_str(dict, "id", "gpu");
    resp = qtest_qmp(qts, "{'execute': 'device_add', 'arguments': %p}", dict);
    g_assert_nonnull(resp);
    if (qdict_haskey(resp, "error")) {
        QDict *e = qdict_get_qdict(resp, "error");
        err = g_strdup(qdict_get_str(e, "desc"));
    }
    qobject_unref(resp);
    return err;
}

static void assert_alive(QTestState *qts)
{
    QDict *resp = qtest_qmp(qts, "{'execute': 'query-status'}");

    g_assert_nonnull(resp);
    g_assert_true(qdict_haskey(resp, "return"));
    qobject_unref(resp);
}

/* the device in SLOT, its BARs mapped from a fresh allocator */
static QPCIDevice *map_slot(Qemu *q, const LifeDev *ld, QPCIBar *regs,
                            uint64_t *regs_size, QPCIBar *mem,
                            uint64_t *mem_size)
{
    QPCIDevice *dev = qpci_device_find(q->bus, QPCI_DEVFN(SLOT, 0));

    g_assert_nonnull(dev);
    g_assert_cmphex(qpci_config_readw(dev, PCI_VENDOR_ID), ==, ld->vendor);
    g_assert_cmphex(qpci_config_readw(dev, PCI_DEVICE_ID), ==, ld->device);
    /* each cycle's BARs go where the last ones were */
    q->bus->pio_alloc_ptr = q->pio0;
    q->bus->mmio_alloc_ptr = q->mmio0;
    qpci_device_enable(dev);
    *regs = qpci_iomap(dev, ld->regs, regs_size);
    *mem = qpci_iomap(dev, ld->mem, mem_size);
    return dev;
}

/* after failures: the good device into the same slot, its memory works */
static void good_into_slot(Qemu *q, const LifeDev *ld)
{
    QPCIBar regs, mem;
    uint64_t regs_size, mem_size;
    QPCIDevice *dev;

    g_assert_null(try_add(q->qts, ld, ld->props));
    dev = map_slot(q, ld, &regs, &regs_size, &mem, &mem_size);
    qpci_io_writel(dev, mem, mem_size - 4, 0x600dcafe);
    g_assert_cmphex(qpci_io_readl(dev, mem, mem_size - 4), ==, 0x600dcafe);
    g_free(dev);
}

static void only_migratable(gconstpointer data)
{
    const LifeDev *ld = data;
    Qemu q;

    qemu_start(&q, "-machine pc -only-migratable");
    good_into_slot(&q, ld);
    qemu_stop(&q);
}

static void bad_properties(gconstpointer data)
{
    const LifeDev *ld = data;
    Qemu q;
    int i;

    qemu_start(&q, "-machine pc");
    for (i = 0; i < G_N_ELEMENTS(ld->bad) && ld->bad[i]; i++) {
        g_autofree char *err = try_add(q.qts, ld, ld->bad[i]);

        g_assert_nonnull(err);
        assert_alive(q.qts);
        g_assert_null(qpci_device_find(q.bus, QPCI_DEVFN(SLOT, 0)));
    }
    good_into_slot(&q, ld);
    qemu_stop(&q);
}

/*
 * The device's RAM cannot be had: QEMU's address space is limited to what
 * it uses now plus 128 MiB, below the RAM asked for. The realize fails
 * cleanly, and the device with its smallest RAM goes into the same slot.
 */
static void ram_failure(gconstpointer data)
{
    const LifeDev *ld = data;
    Qemu q;
    struct rlimit lim;
    g_autofree char *err = NULL;
    int threads;

    qemu_start(&q, "-machine pc");
    threads = qemu_threads(&q);
    lim.rlim_cur = lim.rlim_max =
        (qemu_status_kib(&q, "VmSize:") + 128 * 1024) * 1024;
    g_assert_cmpint(prlimit(q.pid, RLIMIT_AS, &lim, NULL), ==, 0);
    err = try_add(q.qts, ld, ld->big_ram);
    g_assert_nonnull(err);
    g_assert_nonnull(strstr(err, "Cannot allocate memory"));
    assert_alive(q.qts);
    g_assert_cmpint(qemu_threads(&q), ==, threads);
    good_into_slot(&q, ld);
    qemu_stop(&q);
}

static void plug_cycles(gconstpointer data)
{
    const LifeDev *ld = data;
    Qemu q;
    GRand *r = g_rand_new_with_seed(0x11fe0000u + ld->device);
    g_autofree uint8_t *junk = g_malloc(LOAD_FILL);
    int threads0 = 0, cycle, i;
    long rss0 = 0, rss;

    for (i = 0; i < LOAD_FILL; i++) {
        junk[i] = g_rand_int(r);
    }
    qemu_start(&q, "-machine pc");
    for (cycle = 0; cycle <= CYCLES; cycle++) {
        QPCIBar regs, mem;
        uint64_t mem_size, regs_size = 0;
        QPCIDevice *dev;

        g_assert_null(try_add(q.qts, ld, ld->props));
        dev = map_slot(&q, ld, &regs, &regs_size, &mem, &mem_size);
        /* load: garbage memory and garbage commands, still running */
        qpci_memwrite(dev, mem, 0, junk, MIN(LOAD_FILL, mem_size));
        for (i = 0; i < LOAD_WRITES; i++) {
            uint64_t off = g_rand_int_range(r, 0, regs_size / 4) * 4;
            uint32_t v = g_rand_boolean(r) ? g_rand_int(r) :
                         g_rand_int_range(r, 0, LOAD_FILL) & ~3u;

            qpci_io_writel(dev, regs, off, v);
        }
        g_free(dev);
        qpci_unplug_acpi_device_test(q.qts, "gpu", SLOT);
        g_assert_null(qpci_device_find(q.bus, QPCI_DEVFN(SLOT, 0)));
        if (cycle == 1) {
            /* after one whole cycle: glib's and QEMU's caches are warm */
            threads0 = qemu_threads(&q);
            rss0 = qemu_status_kib(&q, "VmRSS:");
        }
    }
    rss = qemu_status_kib(&q, "VmRSS:");
    g_test_message("%s: %d threads; RSS %ld KiB after cycle 1, %ld KiB after "
                   "cycle %d", ld->driver, threads0, rss0, rss, CYCLES);
    g_assert_cmpint(qemu_threads(&q), ==, threads0);
    /*
     * Every cycle touches LOAD_FILL bytes of fresh device memory and the
     * device's own buffers (several MiB): a leaked device would add that
     * each time. 6 MiB over 19 cycles is allocator noise, not a device.
     */
    g_assert_cmpint(rss - rss0, <, 6 * 1024);
    g_rand_free(r);
    qemu_stop(&q);
}

int main(int argc, char **argv)
{
    int i;

    g_test_init(&argc, &argv, NULL);
    for (i = 0; i < G_N_ELEMENTS(devs); i++) {
        g_autofree char *a = g_strdup_printf("/gpu3d/lifecycle/%s/only-migratable",
                                             devs[i].driver);
        g_autofree char *b = g_strdup_printf("/gpu3d/lifecycle/%s/bad-properties",
                                             devs[i].driver);
        g_autofree char *c = g_strdup_printf("/gpu3d/lifecycle/%s/plug-cycles",
                                             devs[i].driver);

        qtest_add_data_func(a, &devs[i], only_migratable);
        qtest_add_data_func(b, &devs[i], bad_properties);
        qtest_add_data_func(c, &devs[i], plug_cycles);
        if (devs[i].big_ram) {
            g_autofree char *r = g_strdup_printf(
                "/gpu3d/lifecycle/%s/ram-failure", devs[i].driver);

            qtest_add_data_func(r, &devs[i], ram_failure);
        }
    }
    return g_test_run();
}
