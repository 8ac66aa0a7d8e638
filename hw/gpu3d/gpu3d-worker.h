/*
 * The QEMU glue every gpu3d device shares: the worker thread that owns the
 * engine core, the in-order queue of MMIO writes, interrupt and display
 * bottom halves, the consoles, and guest memory for the cores.
 *
 * MMIO handlers only queue writes and kick the worker; the worker applies
 * them in order and advances the core's command processor in bounded steps,
 * holding `lock` while it touches the core. It never takes the BQL. Inside
 * a step the core calls g3d_yield() at a fine grain: the worker then hands
 * `lock` to whoever waits (MMIO, display, reset, VM stop), parks while the
 * VM is stopped, and abandons the step on reset or unplug. So nothing
 * outside ever waits for rendering (docs/architecture.md, Threads).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_GPU3D_WORKER_H
#define HW_GPU3D_WORKER_H

#include "qemu/thread.h"
#include "qemu/notify.h"
#include "exec/memory.h"
#include "hw/pci/pci.h"
#include "ui/console.h"
#include "qemu-compat.h"
#include "common/g3d-core.h"
#include "common/scanout.h"
#include "common/g3d-state.h"
#include "migration/vmstate.h"

#define G3D_MAX_HEADS 2

/* the worker, which passes itself to write_seen */
struct G3DWorker;

/* What the glue calls on a core (all under the worker's lock). */
typedef struct G3DCoreOps {
    void (*reg_write)(void *core, uint32_t offset, uint64_t val,
                      unsigned size);
    /*
     * Optional, and without the lock (it must not touch the core): true
     * for a write the chip applies at once rather than behind its queued
     * work (a bus-interface register such as an interrupt acknowledge,
     * which an interrupt handler must see take effect before it returns).
     * The glue then applies it through reg_write under the lock; every
     * other write queues.
     */
    bool (*write_now)(uint32_t offset, uint64_t val, unsigned size);
    uint64_t (*reg_read)(void *core, uint32_t offset, unsigned size);
    bool (*work)(void *core, unsigned budget);
    void (*reset)(void *core);
    bool (*irq_level)(void *core);
    bool (*scanout)(void *core, int head, G3DScanout *out);
    /* the memory the scanout address refers to */
    const G3DMem *(*scanout_mem)(void *core, int head);
    /* budget of one locked work() step, in the core's units; 0: 32 */
    unsigned work_budget;
    /*
     * The core's saved state (docs/architecture.md, Migration), which
     * every core has: save with no work() call in progress; load fails
     * (false, in->error says why) and leaves the core reset.
     */
    void (*save_state)(void *core, G3DStateOut *o);
    bool (*load_state)(void *core, G3DStateIn *in);
    /*
     * Pseudo-writes the device queues past the end of its register BAR
     * (offsets size .. size + queue_events - 1): a saved queue may hold them
     */
    uint32_t queue_events;
    /*
     * Optional: a register write as the guest makes it, before it is
     * queued (BQL held, not the lock): for glue state that must follow the
     * guest's writes in order, e.g. memory regions a register remaps.
     */
    void (*write_seen)(struct G3DWorker *w, uint32_t offset, uint64_t val,
                       unsigned size);
} G3DCoreOps;

typedef struct G3DWrite {
    uint32_t offset;
    uint32_t size;
    uint64_t val;
} G3DWrite;

/*
 * Guest RAM a core mapped for writing: it writes there through host
 * pointers, later and from any of its threads, which dirty tracking does
 * not see. A save marks these ranges dirty again once the core is quiet
 * (docs/architecture.md, Migration). Ranges of one region closer than a
 * gap are merged; a full log merges its two closest ranges.
 */
#define G3D_WRITE_LOG_MAX 32

typedef struct G3DWriteLog {
    bool used;                  /* the device maps guest RAM */
    QemuMutex lock;
    unsigned n;
    struct G3DWriteRange {
        MemoryRegion *mr;
        hwaddr lo, hi;          /* [lo, hi) in the region */
    } r[G3D_WRITE_LOG_MAX];
} G3DWriteLog;

typedef struct G3DWorker {
    PCIDevice *pdev;
    const char *name;
    void *core;
    const G3DCoreOps *ops;

    QemuThread thread;
    QemuMutex lock;             /* the core, the queue, the flags */
    QemuCond wake;              /* for the worker: writes, kicks, hand-back */
    QemuCond changed;           /* for clients: drained, parked, left core */
    G3DPreempt preempt;         /* waiters, PAUSE, CANCEL; the core's yield */
    /*
     * The queue has its own lock, taken inside `lock` or alone: a write
     * queues without waiting for the worker to leave the core.
     */
    QemuMutex qlock;
    G3DWrite *queue;            /* ring of qsize (a power of 2) */
    unsigned qhead, qsize;
    unsigned qcount;            /* atomic outside qlock: a peek */
    bool idle;                  /* atomic: the worker waits for work */
    bool kick, quit;
    bool hold;                  /* saving: stay outside the core */
    bool busy;                  /* the worker is inside a core call */
    bool parked;                /* ... and gave way at a g3d_yield() */
    unsigned served;            /* clients that have left the lock */
    int64_t run_since;          /* when the worker last (re)entered the core */

    QEMUBH *irq_bh;
    int irq_level;              /* atomic: last level the core reported */
    VMChangeStateEntry *vmstate;
    NotifierWithReturn precopy;
    uint32_t mmio_size;         /* the register BAR's size */
    G3DWriteLog wlog;           /* system RAM mapped for writing */

    /* the saved streams, between pre_save/post_save and pre/post_load */
    uint8_t *saved_core, *saved_queue;
    uint32_t saved_core_len, saved_queue_len;

    QemuConsole *con[G3D_MAX_HEADS];
    struct G3DHead {            /* a console's opaque: which head */
        struct G3DWorker *w;
        int head;
    } head[G3D_MAX_HEADS];
    int heads;
    uint32_t blank_w[G3D_MAX_HEADS], blank_h[G3D_MAX_HEADS];
    /* what each console shows: a refresh with nothing changed is skipped */
    G3DScanoutCache shown[G3D_MAX_HEADS];
} G3DWorker;

/* Guest physical memory for a core: RAM only, never MMIO (no BQL needed). */
void g3d_guest_mem_init(G3DMem *mem, G3DWorker *w, PCIDevice *pdev);

/* A G3DMem over a RAM MemoryRegion (a VRAM BAR). */
typedef struct G3DRamMem {
    G3DFlatMem flat;
} G3DRamMem;
void g3d_ram_mem_init(G3DMem *mem, G3DRamMem *ram, MemoryRegion *mr);

/*
 * Start the worker for `core`. `heads` consoles are created (0 for none);
 * blank_w/h is the size shown while a head is off. It cannot fail, so a
 * realize calls it after its own fallible steps.
 */
void g3d_worker_start(G3DWorker *w, PCIDevice *pdev, const char *name,
                      void *core, const G3DCoreOps *ops, int heads,
                      const uint32_t *blank_w, const uint32_t *blank_h);
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

/* The same as a core's irq_update callback: its opaque is the worker. */
void g3d_worker_irq_cb(void *worker);

/* What the register BAR accepts, and what reaches the core's reg_write */
typedef enum G3DMmioWidth {
    G3D_MMIO_4,             /* 1, 2 or 4 bytes */
    G3D_MMIO_8_SPLIT,       /* up to 8; QEMU splits 8 into two 4-byte ones */
    G3D_MMIO_8,             /* 1, 2, 4 or 8 bytes, each whole */
} G3DMmioWidth;

/*
 * The register BAR: accesses go through the worker's ordered queue, traced
 * as gpu3d_mmio_read/write with the device's type name.
 */
void g3d_worker_init_mmio(G3DWorker *w, Object *owner, MemoryRegion *mr,
                          uint64_t size, G3DMmioWidth width);

/*
 * The `render-threads` property (0: the host's CPUs) as a thread count;
 * false and errp set when it is out of range.
 */
bool g3d_render_threads(uint32_t prop, int *threads, Error **errp);

/*
 * G3DCoreOps for a core named as docs/architecture.md says
 * (<chip>_reg_write, _reg_read, _core_work, _core_reset, _irq_level,
 * _scanout): G3D_CORE_THUNKS(chip) defines the thunks from void *, and
 * G3D_CORE_OPS_FIELDS(chip) fills those fields of a G3DCoreOps; the device
 * adds scanout_mem and, if it wants, work_budget.
 */
#define G3D_CORE_THUNKS(chip)                                               \
    static void chip##_op_reg_write(void *c, uint32_t off, uint64_t val,   \
                                    unsigned size)                         \
    {                                                                      \
        chip##_reg_write(c, off, val, size);                               \
    }                                                                      \
    static uint64_t chip##_op_reg_read(void *c, uint32_t off, unsigned size) \
    {                                                                      \
        return chip##_reg_read(c, off, size);                              \
    }                                                                      \
    static bool chip##_op_work(void *c, unsigned budget)                   \
    {                                                                      \
        return chip##_core_work(c, budget);                                \
    }                                                                      \
    static void chip##_op_reset(void *c)                                   \
    {                                                                      \
        chip##_core_reset(c);                                              \
    }                                                                      \
    static bool chip##_op_irq_level(void *c)                               \
    {                                                                      \
        return chip##_irq_level(c);                                        \
    }                                                                      \
    static bool chip##_op_scanout(void *c, int head, G3DScanout *so)       \
    {                                                                      \
        return chip##_scanout(c, head, so);                                \
    }

#define G3D_CORE_OPS_FIELDS(chip)                                           \
    .reg_write = chip##_op_reg_write,                                      \
    .reg_read = chip##_op_reg_read,                                        \
    .work = chip##_op_work,                                                \
    .reset = chip##_op_reset,                                              \
    .irq_level = chip##_op_irq_level,                                      \
    .scanout = chip##_op_scanout

/*
 * The same for a core's <chip>_state_save/_state_load:
 * G3D_CORE_STATE_THUNKS(chip) and G3D_CORE_STATE_OPS_FIELDS(chip).
 */
#define G3D_CORE_STATE_THUNKS(chip)                                         \
    static void chip##_op_state_save(void *c, G3DStateOut *o)              \
    {                                                                      \
        chip##_state_save(c, o);                                           \
    }                                                                      \
    static bool chip##_op_state_load(void *c, G3DStateIn *in)              \
    {                                                                      \
        return chip##_state_load(c, in);                                   \
    }

#define G3D_CORE_STATE_OPS_FIELDS(chip)                                     \
    .save_state = chip##_op_state_save,                                    \
    .load_state = chip##_op_state_load

/*
 * The worker's saved state (the core's stream and the queued writes), a
 * field of the device's VMStateDescription:
 *     G3D_VMSTATE_WORKER(worker, MyState),
 * The load fails with an error_report() message when the core rejects its
 * stream. G3D_VMSTATE_DEVICE defines the whole description of a device
 * that has nothing else to save (PCI config space and the worker).
 */
extern const VMStateDescription g3d_vmstate_worker;

#define G3D_VMSTATE_WORKER(_field, _state)                                  \
    VMSTATE_STRUCT(_field, _state, 1, g3d_vmstate_worker, G3DWorker)

#define G3D_VMSTATE_DEVICE(_vmsd, _name, _state, _pci, _worker)             \
    static const VMStateDescription _vmsd = {                              \
        .name = _name,                                                     \
        .version_id = 1,                                                   \
        .minimum_version_id = 1,                                           \
        .fields = (VMStateField[]) {                                       \
            VMSTATE_PCI_DEVICE(_pci, _state),                              \
            G3D_VMSTATE_WORKER(_worker, _state),                           \
            VMSTATE_END_OF_LIST()                                          \
        },                                                                 \
    }

/*
 * Route the cores' g3d_log() into qemu_log_mask, and register their render
 * helper threads with RCU (process-wide).
 */
void g3d_install_qemu_log(void);

#endif
