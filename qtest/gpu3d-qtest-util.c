/*
 * Shared helpers of the gpu3d qtests (see gpu3d-qtest-util.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "libqtest.h"
#include "qapi/error.h"
#include "qapi/qmp/qdict.h"
#include "qapi/qmp/qjson.h"
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

G3DQDev *g3dq_open(const char *args, uint16_t vendor, uint16_t device)
{
    G3DQDev *d = g_new0(G3DQDev, 1);
    Find f = { NULL };

    d->qts = qtest_initf("-machine pc %s", args);
    d->bus = qpci_new_pc(d->qts, NULL);
    qpci_device_foreach(d->bus, vendor, device, found, &f);
    g_assert_nonnull(f.dev);
    d->dev = f.dev;
    d->vendor = vendor;
    d->device = device;
    g3dq_remap(d);
    return d;
}

void g3dq_close(G3DQDev *d)
{
    g_free(d->dev);
    qpci_free_pc(d->bus);
    qtest_quit(d->qts);
    g_free(d);
}

void g3dq_system_reset(G3DQDev *d)
{
    qtest_qmp_assert_success(d->qts, "{'execute': 'system_reset'}");
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
    img->rgb = g_malloc((size_t)img->width * img->height * 3);
    g_assert_cmpuint(fread(img->rgb, 3, (size_t)img->width * img->height, f),
                     ==, (size_t)img->width * img->height);
    fclose(f);
    unlink(path);
    return true;
}

void g3dq_image_free(G3DQImage *img)
{
    g_free(img->rgb);
    img->rgb = NULL;
}

G3DQDev *g3dq_open_logged(const char *args, uint16_t vendor, uint16_t device,
                          char **log)
{
    int fd = g_file_open_tmp("gpu3d-qtest-XXXXXX.log", log, NULL);
    g_autofree char *all = NULL;

    g_assert_cmpint(fd, >=, 0);
    close(fd);
    all = g_strdup_printf("%s -d guest_errors -D %s", args, *log);
    return g3dq_open(all, vendor, device);
}

void g3dq_close_logged(G3DQDev *d, char *log)
{
    g3dq_close(d);
    unlink(log);
    g_free(log);
}

bool g3dq_logged(const char *log, const char *needle)
{
    g_autofree char *text = NULL;

    g_assert_true(g_file_get_contents(log, &text, NULL, NULL));
    return strstr(text, needle) != NULL;
}

static bool intx_is(G3DQDev *d, void *opaque)
{
    return g3dq_intx(d) == !!opaque;
}

bool g3dq_wait_intx(G3DQDev *d, bool level)
{
    return g3dq_wait(d, intx_is, level ? (void *)1 : NULL);
}

typedef struct WaitBits {
    int bar;
    uint64_t off;
    unsigned size;
    uint32_t mask, want;
} WaitBits;

static bool bits_are(G3DQDev *d, void *opaque)
{
    WaitBits *b = opaque;
    uint32_t v = b->size == 2 ? qpci_io_readw(d->dev, d->bar[b->bar], b->off)
                              : qpci_io_readl(d->dev, d->bar[b->bar], b->off);

    return (v & b->mask) == b->want;
}

bool g3dq_wait_bits(G3DQDev *d, int bar, uint64_t off, unsigned size,
                    uint32_t mask, uint32_t want)
{
    WaitBits b = { bar, off, size, mask, want };

    return g3dq_wait(d, bits_are, &b);
}
