/*
 * Shared helpers of the gpu3d qtests (see gpu3d-qtest-util.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "libqtest.h"
#include "qapi/error.h"
#include "gpu3d-qtest-util.h"

typedef struct Find {
    QPCIDevice *dev;
} Find;

static void found(QPCIDevice *dev, int devfn, void *opaque)
{
    Find *f = opaque;

    if (!f->dev) {
        f->dev = dev;
    } else {
        g_free(dev);
    }
}

void g3dq_remap(G3DQDev *d)
{
    int i;

    qpci_device_enable(d->dev);
    for (i = 0; i < 6; i++) {
        uint32_t addr = qpci_config_readl(d->dev, PCI_BASE_ADDRESS_0 + 4 * i);
        d->bar_size[i] = 0;
        if (i > 0 && (qpci_config_readl(d->dev, PCI_BASE_ADDRESS_0 + 4 * (i - 1)) &
                      PCI_BASE_ADDRESS_MEM_TYPE_64)) {
            continue;           /* upper half of a 64-bit BAR */
        }
        (void)addr;
        qpci_config_writel(d->dev, PCI_BASE_ADDRESS_0 + 4 * i, 0xffffffff);
        if (qpci_config_readl(d->dev, PCI_BASE_ADDRESS_0 + 4 * i) == 0) {
            continue;
        }
        d->bar[i] = qpci_iomap(d->dev, i, &d->bar_size[i]);
    }
}

void g3dq_wait_status(QTestState *qts, const char *want)
{
    int64_t deadline = g_get_monotonic_time() + 60 * G_USEC_PER_SEC;

    for (;;) {
        QDict *resp = qtest_qmp(qts, "{'execute': 'query-status'}");
        bool done = !strcmp(qdict_get_str(qdict_get_qdict(resp, "return"),
                                          "status"), want);

        qobject_unref(resp);
        if (done) {
            return;
        }
        g_assert_cmpint(g_get_monotonic_time(), <, deadline);
        g_usleep(20 * 1000);
    }
}

static G3DQDev *open_dev(const char *args, uint16_t vendor, uint16_t device,
                         bool incoming)
{
    G3DQDev *d = g_new0(G3DQDev, 1);
    Find f = { NULL };
    int fd = g_file_open_tmp("gpu3d-qtest-XXXXXX.log", &d->log, NULL);

    g_assert_cmpint(fd, >=, 0);
    close(fd);
    d->qts = qtest_initf("-machine pc %s -d guest_errors,unimp -D %s", args,
                         d->log);
    if (incoming) {
        /*
         * The incoming state loads in the main loop, beside the qtest
         * commands: scanning the bus before it is in may read a config
         * space that is being loaded and miss the device
         */
        g3dq_wait_status(d->qts, "paused");
    }
    d->bus = qpci_new_pc(d->qts, NULL);
    d->pio_alloc_start = d->bus->pio_alloc_ptr;
    d->mmio_alloc_start = d->bus->mmio_alloc_ptr;
    qpci_device_foreach(d->bus, vendor, device, found, &f);
    g_assert_nonnull(f.dev);
    d->dev = f.dev;
    d->vendor = vendor;
    d->device = device;
    g3dq_remap(d);
    return d;
}

G3DQDev *g3dq_open(const char *args, uint16_t vendor, uint16_t device)
{
    return open_dev(args, vendor, device, false);
}

G3DQDev *g3dq_open_incoming(const char *args, uint16_t vendor,
                            uint16_t device)
{
    return open_dev(args, vendor, device, true);
}

void g3dq_close(G3DQDev *d)
{
    g_free(d->dev);
    qpci_free_pc(d->bus);
    qtest_quit(d->qts);
    unlink(d->log);
    g_free(d->log);
    g_free(d);
}

void g3dq_system_reset(G3DQDev *d)
{
    qtest_qmp_assert_success(d->qts, "{'execute': 'system_reset'}");
    /*
     * Every BAR is unassigned now: hand out the same addresses again
     * rather than new ones (large BARs would exhaust the 32-bit window).
     */
    d->bus->pio_alloc_ptr = d->pio_alloc_start;
    d->bus->mmio_alloc_ptr = d->mmio_alloc_start;
    g3dq_remap(d);
}

uint32_t g3dq_rd32(G3DQDev *d, int bar, uint64_t off)
{
    return qpci_io_readl(d->dev, d->bar[bar], off);
}

void g3dq_wr32(G3DQDev *d, int bar, uint64_t off, uint32_t v)
{
    qpci_io_writel(d->dev, d->bar[bar], off, v);
}

void g3dq_write(G3DQDev *d, int bar, uint64_t off, const void *buf, size_t n)
{
    qpci_memwrite(d->dev, d->bar[bar], off, buf, n);
}

void g3dq_read(G3DQDev *d, int bar, uint64_t off, void *buf, size_t n)
{
    qpci_memread(d->dev, d->bar[bar], off, buf, n);
}

void g3dq_check_identity(G3DQDev *d, int regs, uint64_t regs_size, int mem,
                         uint64_t mem_size)
{
    QPCIDevice *p = d->dev;
    uint32_t bar_mem = qpci_config_readl(p, PCI_BASE_ADDRESS_0 + 4 * mem);

    g_assert_cmphex(qpci_config_readw(p, PCI_VENDOR_ID), ==, d->vendor);
    g_assert_cmphex(qpci_config_readw(p, PCI_DEVICE_ID), ==, d->device);
    g_assert_cmphex(qpci_config_readw(p, PCI_CLASS_DEVICE), ==, 0x0380);
    g_assert_cmpuint(qpci_config_readb(p, PCI_INTERRUPT_PIN), ==, 1);
    g_assert_cmpuint(d->bar_size[regs], ==, regs_size);
    g_assert_cmpuint(d->bar_size[mem], ==, mem_size);
    g_assert_cmphex(qpci_config_readl(p, PCI_BASE_ADDRESS_0 + 4 * regs) &
                    (PCI_BASE_ADDRESS_MEM_TYPE_MASK |
                     PCI_BASE_ADDRESS_MEM_PREFETCH), ==, 0);
    g_assert_true(bar_mem & PCI_BASE_ADDRESS_MEM_TYPE_64);
    g_assert_true(bar_mem & PCI_BASE_ADDRESS_MEM_PREFETCH);
    g3dq_wr32(d, mem, 0, 0xCAFEF00D);
    g3dq_wr32(d, mem, mem_size - 4, 0x12345678);
    g_assert_cmphex(g3dq_rd32(d, mem, 0), ==, 0xCAFEF00D);
    g_assert_cmphex(g3dq_rd32(d, mem, mem_size - 4), ==, 0x12345678);
}

bool g3dq_intx(G3DQDev *d)
{
    return qpci_config_readw(d->dev, PCI_STATUS) & PCI_STATUS_INTERRUPT;
}

bool g3dq_wait(G3DQDev *d, bool (*cond)(G3DQDev *d, void *opaque),
               void *opaque)
{
    int i;

    for (i = 0; i < 5000; i++) {
        if (cond(d, opaque)) {
            return true;
        }
        g_usleep(1000);
        qtest_clock_step(d->qts, 1000000);
    }
    return false;
}

typedef struct WaitBits {
    int bar, width;             /* width: 2 or 4 bytes */
    uint64_t off;
    uint32_t mask, want;
} WaitBits;

static bool bits_are(G3DQDev *d, void *opaque)
{
    WaitBits *b = opaque;
    uint32_t v = b->width == 2 ?
                 qpci_io_readw(d->dev, d->bar[b->bar], b->off) :
                 g3dq_rd32(d, b->bar, b->off);

    return (v & b->mask) == b->want;
}

void g3dq_wait_bits(G3DQDev *d, int bar, uint64_t off, uint32_t mask,
                    uint32_t want)
{
    WaitBits b = { bar, 4, off, mask, want };
    g_assert_true(g3dq_wait(d, bits_are, &b));
}

static bool intx_is(G3DQDev *d, void *opaque)
{
    return g3dq_intx(d) == (opaque != NULL);
}

void g3dq_wait_intx(G3DQDev *d, bool level)
{
    g_assert_true(g3dq_wait(d, intx_is, level ? (void *)1 : NULL));
}

void g3dq_wait_bits16(G3DQDev *d, int bar, uint64_t off, uint16_t mask,
                      uint16_t want)
{
    WaitBits b = { bar, 2, off, mask, want };
    g_assert_true(g3dq_wait(d, bits_are, &b));
}

bool g3dq_logged(G3DQDev *d, const char *needle)
{
    /*
     * The device logs from its worker thread, maybe after the MMIO access
     * that caused it has returned: look again for up to 5 s.
     */
    gint64 deadline = g_get_monotonic_time() + 5 * G_USEC_PER_SEC;

    for (;;) {
        g_autofree char *text = NULL;

        g_assert_true(g_file_get_contents(d->log, &text, NULL, NULL));
        if (strstr(text, needle)) {
            return true;
        }
        if (g_get_monotonic_time() > deadline) {
            return false;
        }
        g_usleep(10 * 1000);
    }
}

void g3dq_hotplug_cycles(const char *driver, const char *props, int cycles)
{
    QTestState *qts = qtest_init("-machine pc");
    g_autofree char *args = g_strdup_printf("{'addr': '0x06'%s%s}",
                                            *props ? ", " : "", props);
    int i;

    for (i = 0; i < cycles; i++) {
        QDict *dict = qobject_to(QDict, qobject_from_json(args, &error_abort));
        qdict_put_str(dict, "id", "hp");
        qtest_qmp_device_add_qdict(qts, driver, dict);
        qobject_unref(dict);
        qpci_unplug_acpi_device_test(qts, "hp", 0x06);
    }
    qtest_quit(qts);
}

static bool ppm_int(FILE *f, int *v)
{
    int c;

    do {
        c = fgetc(f);
        if (c == '#') {
            while (c != '\n' && c != EOF) {
                c = fgetc(f);
            }
        }
    } while (c == ' ' || c == '\n' || c == '\r' || c == '\t');
    *v = 0;
    if (c < '0' || c > '9') {
        return false;
    }
    while (c >= '0' && c <= '9') {
        *v = *v * 10 + (c - '0');
        c = fgetc(f);
    }
    return true;
}

bool g3dq_screendump(G3DQDev *d, const char *id, int head, G3DQImage *img)
{
    g_autofree char *path = NULL;
    int fd = g_file_open_tmp("gpu3d-qtest-XXXXXX.ppm", &path, NULL);
    QDict *resp;
    FILE *f;
    int max;
    bool ok;

    memset(img, 0, sizeof(*img));
    g_assert_cmpint(fd, >=, 0);
    close(fd);
    resp = qtest_qmp(d->qts, "{'execute': 'screendump', 'arguments': "
                     "{'filename': %s, 'device': %s, 'head': %d}}",
                     path, id, head);
    ok = resp && !qdict_haskey(resp, "error");
    qobject_unref(resp);
    if (!ok) {
        unlink(path);
        return false;
    }
    f = fopen(path, "rb");
    g_assert_nonnull(f);
    g_assert_cmpint(fgetc(f), ==, 'P');
    g_assert_cmpint(fgetc(f), ==, '6');
    g_assert_true(ppm_int(f, &img->width) && ppm_int(f, &img->height) &&
                  ppm_int(f, &max));
    /*
     * QEMU 7.2's ppm_save writes each row with its pixman line buffer's
     * stride, which is padded to 4 bytes: rows of widths whose 3 * width is
     * not a multiple of 4 carry 1..3 extra bytes. Take the rows either way.
     */
    {
        size_t row = (size_t)img->width * 3, stride = row;
        long start = ftell(f), size;
        int y;

        g_assert_cmpint(fseek(f, 0, SEEK_END), ==, 0);
        size = ftell(f) - start;
        g_assert_cmpint(fseek(f, start, SEEK_SET), ==, 0);
        if ((size_t)size != row * img->height) {
            stride = (row + 3) & ~(size_t)3;
            g_assert_cmpuint(size, ==, stride * img->height);
        }
        img->rgb = g_malloc(row * img->height);
        for (y = 0; y < img->height; y++) {
            g_assert_cmpuint(fread(img->rgb + row * y, 1, row, f), ==, row);
            g_assert_cmpint(fseek(f, (long)(stride - row), SEEK_CUR), ==, 0);
        }
    }
    fclose(f);
    unlink(path);
    return true;
}

void g3dq_image_free(G3DQImage *img)
{
    g_free(img->rgb);
    img->rgb = NULL;
}
