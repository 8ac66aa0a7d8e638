/*
 * The QEMU glue every gpu3d device shares: the worker thread that owns the
 * engine core, the in-order queue of MMIO writes, interrupt and display
 * bottom halves, the consoles, and guest memory for the cores.
 *
 * MMIO handlers only queue writes and kick the worker; the worker applies
 * them in order and advances the core's command processor in bounded steps,
 * holding `lock` while it touches the core. It never takes the BQL. MMIO
 * reads wait until earlier writes are applied, then read under `lock`.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPU3D_WORKER_H
#define HW_GPU3D_WORKER_H

#include "qemu/thread.h"
#include "exec/memory.h"
#include "hw/pci/pci.h"
#include "ui/console.h"
#include "common/g3d-core.h"
#include "common/scanout.h"

#define G3D_MAX_HEADS 2

/* What the glue calls on a core (all under the worker's lock). */
typedef struct G3DCoreOps {
    void (*reg_write)(void *core, uint32_t offset, uint64_t val,
                      unsigned size);
    uint64_t (*reg_read)(void *core, uint32_t offset, unsigned size);
    bool (*work)(void *core, unsigned budget);
    void (*reset)(void *core);
    bool (*irq_level)(void *core);
    bool (*scanout)(void *core, int head, G3DScanout *out);
    /* the memory the scanout address refers to */
    const G3DMem *(*scanout_mem)(void *core, int head);
    /* budget of one locked work() step, in the core's units; 0: 32 */
    unsigned work_budget;
} G3DCoreOps;

typedef struct G3DWrite {
    uint32_t offset;
    uint32_t size;
    uint64_t val;
} G3DWrite;

typedef struct G3DWorker {
    PCIDevice *pdev;
    const char *name;
    void *core;
    const G3DCoreOps *ops;

    QemuThread thread;
    QemuMutex lock;             /* the core, the queue, the flags */
    QemuCond wake;              /* for the worker: writes, kicks, quit */
    QemuCond drained;           /* for MMIO: the queue went empty */
    QemuCond idle;              /* for pause: the worker left the core */
    G3DWrite *queue;
    unsigned qhead, qcount;
    bool kick, quit, paused, busy;

    QEMUBH *irq_bh;
    int irq_level;              /* atomic: last level the core reported */
    VMChangeStateEntry *vmstate;
    Error *migration_blocker;

    QemuConsole *con[G3D_MAX_HEADS];
    int heads;
    uint32_t blank_w[G3D_MAX_HEADS], blank_h[G3D_MAX_HEADS];
} G3DWorker;

/* Guest physical memory for a core: RAM only, never MMIO (no BQL needed). */
void g3d_guest_mem_init(G3DMem *mem, PCIDevice *pdev);

/* A G3DMem over a RAM MemoryRegion (a VRAM BAR). */
typedef struct G3DRamMem {
    G3DFlatMem flat;
} G3DRamMem;
void g3d_ram_mem_init(G3DMem *mem, G3DRamMem *ram, MemoryRegion *mr);

/*
 * Start the worker for `core`. `heads` consoles are created (0 for none);
 * blank_w/h is the size shown while a head is off.
 */
void g3d_worker_start(G3DWorker *w, PCIDevice *pdev, const char *name,
                      void *core, const G3DCoreOps *ops, int heads,
                      const uint32_t *blank_w, const uint32_t *blank_h,
                      Error **errp);
void g3d_worker_stop(G3DWorker *w);

/* MMIO entry points */
void g3d_worker_mmio_write(G3DWorker *w, uint32_t offset, uint64_t val,
                           unsigned size);
uint64_t g3d_worker_mmio_read(G3DWorker *w, uint32_t offset, unsigned size);

/* Device reset: drop queued writes, reset the core, keep the thread. */
void g3d_worker_reset(G3DWorker *w);

/*
 * Ask the worker to run the core's work() again (e.g. a timer of the device
 * fired and the core has timed events to catch up on). Any thread; not with
 * the lock held.
 */
void g3d_worker_kick(G3DWorker *w);

/* For the cores' callbacks (called with the lock held, on any thread). */
void g3d_worker_irq_changed(G3DWorker *w);

/* Route the cores' g3d_log() into qemu_log_mask (process-wide). */
void g3d_install_qemu_log(void);

#endif
