/*
 * Shared helpers of the gpu3d qtests: start a machine with one device, reach
 * its BARs through libqos, take QMP screendumps and read them back.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_QTEST_UTIL_H
#define GPU3D_QTEST_UTIL_H

#include "libqtest.h"
#if QEMU_VERSION_MAJOR >= 10      /* 10.0 moved include/qapi/qmp/ to qobject/ */
#include "qobject/qdict.h"
#include "qobject/qjson.h"
#else
#include "qapi/qmp/qdict.h"
#include "qapi/qmp/qjson.h"
#endif
#include "standard-headers/linux/pci_regs.h"
#include "libqos/pci.h"
#include "libqos/pci-pc.h"

typedef struct G3DQDev {
    QTestState *qts;
    QPCIBus *bus;
    QPCIDevice *dev;
    QPCIBar bar[6];
    uint64_t bar_size[6];
    uint16_t vendor, device;
    char *log;                  /* the -D file */
    /* libqos's BAR allocator at start: a system reset starts it again */
    uint64_t pio_alloc_start, mmio_alloc_start;
} G3DQDev;

typedef struct G3DQImage {
    int width, height;
    uint8_t *rgb;               /* width * height * 3 */
} G3DQImage;

/*
 * Start `-machine pc <args>` with the device's guest errors and unimplemented
 * accesses logged to a temporary file (`-d guest_errors,unimp -D d->log`),
 * find vendor:device and map every BAR. g3dq_close removes the log.
 */
G3DQDev *g3dq_open(const char *args, uint16_t vendor, uint16_t device);
/* args with -incoming: the PCI bus is scanned once the state is loaded */
G3DQDev *g3dq_open_incoming(const char *args, uint16_t vendor,
                            uint16_t device);
/* wait (at most a minute) until query-status says `want` */
void g3dq_wait_status(QTestState *qts, const char *want);
void g3dq_close(G3DQDev *d);
/* Does the log hold `needle` (waiting up to 5 s for the worker to log)? */
bool g3dq_logged(G3DQDev *d, const char *needle);
/* After a system reset nothing re-enables the device: do it again. */
void g3dq_remap(G3DQDev *d);
void g3dq_system_reset(G3DQDev *d);

uint32_t g3dq_rd32(G3DQDev *d, int bar, uint64_t off);
void g3dq_wr32(G3DQDev *d, int bar, uint64_t off, uint32_t v);
void g3dq_write(G3DQDev *d, int bar, uint64_t off, const void *buf, size_t n);
void g3dq_read(G3DQDev *d, int bar, uint64_t off, void *buf, size_t n);

/*
 * The identity docs/architecture.md gives every device: d->vendor:d->device,
 * class 0x0380, INTx A; the register BAR `regs` 32-bit MMIO of `regs_size`
 * bytes; the memory BAR `mem` 64-bit prefetchable of `mem_size` bytes,
 * storing what is written to its first and last words.
 */
void g3dq_check_identity(G3DQDev *d, int regs, uint64_t regs_size, int mem,
                         uint64_t mem_size);

/* PCI status "interrupt pending" (bit 3), after the main loop has run. */
bool g3dq_intx(G3DQDev *d);
/* Poll `cond` (up to ~5 s of clock steps); true once it holds. */
bool g3dq_wait(G3DQDev *d, bool (*cond)(G3DQDev *d, void *opaque),
               void *opaque);
/* Assert that (32-bit word at `off` of BAR `bar`) & mask becomes `want`. */
void g3dq_wait_bits(G3DQDev *d, int bar, uint64_t off, uint32_t mask,
                    uint32_t want);
/* Wait (asserting) until PCI status shows INTx at `level`. */
void g3dq_wait_intx(G3DQDev *d, bool level);
/* Wait (asserting) until the 16-bit register at BAR `bar` + `off` has
 * (value & mask) == want. */
void g3dq_wait_bits16(G3DQDev *d, int bar, uint64_t off, uint16_t mask,
                      uint16_t want);

/*
 * `cycles` times: device_add `driver` (id "hp", slot 6, extra properties
 * `props`, a JSON fragment like "'render-threads': 3" or "") on a fresh pc
 * machine, then ACPI unplug; the worker threads must join every time.
 */
void g3dq_hotplug_cycles(const char *driver, const char *props, int cycles);

/* screendump of console `head` of device `id`; false if QMP failed */
bool g3dq_screendump(G3DQDev *d, const char *id, int head, G3DQImage *img);
void g3dq_image_free(G3DQImage *img);
static inline const uint8_t *g3dq_px(const G3DQImage *img, int x, int y)
{
    return img->rgb + 3 * ((size_t)y * img->width + x);
}

#endif
