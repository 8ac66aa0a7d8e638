/*
 * gpu3d engine cores: what every core sees of the world outside it.
 *
 * The cores are plain C11 + glib. They never include QEMU headers: memory is
 * reached through G3DMem, and diagnostics go through g3d_log(). The QEMU glue
 * (hw/gpu3d/<chip>-pci.c) maps both onto VRAM / guest DMA and qemu_log_mask();
 * unit tests, tools and fuzzers map them onto plain buffers and counters.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_COMMON_CORE_H
#define GPU3D_COMMON_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <glib.h>

/* ---- diagnostics ------------------------------------------------------- */

typedef enum G3DLogKind {
    G3D_LOG_GUEST_ERROR,  /* the guest programmed something invalid */
    G3D_LOG_UNIMP,        /* a real chip feature that is not modelled */
} G3DLogKind;

typedef void G3DLogFn(G3DLogKind kind, const char *msg);

/*
 * Install the sink for g3d_log(). NULL restores the default (stderr when
 * GPU3D_LOG is set in the environment, else silence). Process-wide.
 */
void g3d_set_log_sink(G3DLogFn *fn);

/*
 * Called by each render helper thread (common/tiles.c) as it starts and
 * before it ends, when set (before the cores are made): helpers may read
 * guest memory through the QEMU glue's G3DMem (r300-3d's vertex arrays,
 * r300/vap.c), whose translation is an RCU reader, so the glue registers
 * them with RCU there.
 */
extern void (*g3d_helper_thread_begin)(void);
extern void (*g3d_helper_thread_end)(void);

void g3d_log(G3DLogKind kind, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * While `held` is set, the messages the calling thread logs are counted
 * into *held and neither logged nor counted below; NULL ends it. For a
 * front end running a part of a draw ahead on a render thread: a part that
 * would log is run again in order on the driving thread, which logs.
 */
void g3d_log_hold(unsigned *held);

/* How many messages of each kind were logged since start (tests read this). */
unsigned g3d_log_count(G3DLogKind kind);

#define g3d_guest_error(...) g3d_log(G3D_LOG_GUEST_ERROR, __VA_ARGS__)
#define g3d_unimp(...)       g3d_log(G3D_LOG_UNIMP, __VA_ARGS__)

/* ---- what every core's config holds ---------------------------------- */

/*
 * The callbacks and thread count that every <Chip>CoreConfig embeds as
 * `hooks`: how many render threads the rasteriser uses, and how the core
 * tells its driver (the QEMU glue, a test) that its interrupt level or its
 * picture may have changed. Both callbacks may be NULL.
 */
typedef struct G3DCoreHooks {
    int threads;                            /* render threads; < 1: 1 */
    void (*irq_update)(void *opaque);       /* the IRQ level may have changed */
    void (*display_update)(void *opaque);   /* scanout or picture changed */
    void *opaque;                           /* the callbacks' argument */
} G3DCoreHooks;

/* ---- memory ------------------------------------------------------------ */

/*
 * The chip's view of memory, addressed with the chip's own addresses.
 * The glue decides what an address means (VRAM, GART, guest RAM).
 *
 * map():   a host pointer to [addr, addr + len) when that range is backed by
 *          one contiguous host block; NULL otherwise (out of range, split,
 *          or not directly mappable: use read/write then). The pointer stays
 *          valid until the core returns from the command being executed.
 * read():  copy out; false (and nothing copied) if any byte is out of range.
 * write(): copy in; false (and nothing written) if any byte is out of range.
 */
typedef struct G3DMem {
    void *opaque;
    void *(*map)(void *opaque, uint64_t addr, uint64_t len, bool is_write);
    bool (*read)(void *opaque, uint64_t addr, void *buf, uint64_t len);
    bool (*write)(void *opaque, uint64_t addr, const void *buf, uint64_t len);
} G3DMem;

static inline void *g3d_mem_map(const G3DMem *m, uint64_t addr, uint64_t len,
                                bool is_write)
{
    return m->map ? m->map(m->opaque, addr, len, is_write) : NULL;
}

static inline bool g3d_mem_read(const G3DMem *m, uint64_t addr, void *buf,
                                uint64_t len)
{
    return m->read(m->opaque, addr, buf, len);
}

static inline bool g3d_mem_write(const G3DMem *m, uint64_t addr,
                                 const void *buf, uint64_t len)
{
    return m->write(m->opaque, addr, buf, len);
}

bool g3d_mem_read32le(const G3DMem *m, uint64_t addr, uint32_t *val);
bool g3d_mem_write32le(const G3DMem *m, uint64_t addr, uint32_t val);

/*
 * A G3DMem over one flat host buffer at chip address `base`: what unit tests,
 * tools and fuzzers use, and what the glue uses for a RAM BAR.
 */
typedef struct G3DFlatMem {
    uint8_t *ptr;
    uint64_t base;
    uint64_t size;
} G3DFlatMem;

void g3d_flat_mem_init(G3DMem *m, G3DFlatMem *flat, uint8_t *ptr,
                       uint64_t base, uint64_t size);

/* true when [addr, addr+len) lies inside [base, base+size) without overflow */
static inline bool g3d_range_ok(uint64_t addr, uint64_t len, uint64_t base,
                                uint64_t size)
{
    return addr >= base && len <= size && addr - base <= size - len;
}

/* ---- small helpers ----------------------------------------------------- */

static inline uint32_t g3d_extract32(uint32_t v, int start, int len)
{
    return (v >> start) & (len == 32 ? ~0u : ((1u << len) - 1));
}

static inline int32_t g3d_sextract32(uint32_t v, int start, int len)
{
    return (int32_t)(v << (32 - len - start)) >> (32 - len);
}

static inline uint32_t g3d_deposit32(uint32_t v, int start, int len,
                                     uint32_t field)
{
    uint32_t mask = (len == 32 ? ~0u : ((1u << len) - 1)) << start;
    return (v & ~mask) | ((field << start) & mask);
}

static inline int g3d_clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static inline float g3d_clampf(float v, float lo, float hi)
{
    /* NaN clamps to lo, as hardware clamps do */
    return v > lo ? (v < hi ? v : hi) : lo;
}

/* ---- fast paths chosen per draw ----------------------------------------- */

/*
 * The cores choose specialised fragment functions when a draw's state is
 * latched (no destination read without blending, no depth read without a
 * depth test, ...). Setting this makes every draw take its chip's general
 * path instead, so tests can render the same draw both ways and compare the
 * bytes. Read at draw-latch time only.
 */
extern bool g3d_general_path;

/*
 * Fast functions compiled a second time for AVX (the same operations in
 * three-operand form, no FMA, so the same bytes) are chosen, per draw,
 * when this is true: the CPU has AVX and g3d_no_avx, which tests set to
 * run the SSE2 ones on such a CPU, is false.
 */
extern bool g3d_no_avx;
bool g3d_use_avx(void);
/*
 * Eight-pixel functions compiled for AVX2 (the AVX ones' operations on two
 * groups of four at once) are chosen when this is true: g3d_simd_level()
 * (below) is AVX2 or more; tests lower g3d_simd_max to run the AVX ones.
 */
bool g3d_use_avx2(void);

/*
 * The instruction set levels of the fast functions, lowest first: SSE2
 * (every x86-64 CPU), AVX (four doubles a vector), AVX2 (eight pixels a
 * group of 256-bit floats and integers, two vectors of doubles) and
 * AVX-512 (AVX2 with one vector of eight doubles). Each level does the
 * same IEEE operations per lane, without FMA, so the bytes are the same.
 * g3d_simd_level() is the highest the CPU has, at most g3d_simd_max
 * (tests lower it to run each level; g3d_no_avx gives SSE2).
 */
typedef enum G3DSimdLevel {
    G3D_SIMD_SSE2, G3D_SIMD_AVX, G3D_SIMD_AVX2, G3D_SIMD_AVX512,
} G3DSimdLevel;

extern G3DSimdLevel g3d_simd_max;
G3DSimdLevel g3d_simd_level(void);

/*
 * The level for the textured spans (r300-3d, pica200-3d): g3d_simd_level(),
 * at most g3d_simd_textured_max where that names a level (-1: none; tests
 * and GPU3D_BENCH_SIMD set it to run a given level).
 */
extern int g3d_simd_textured_max;
G3DSimdLevel g3d_simd_level_textured(void);

/*
 * Whether the textured spans' AVX-512 instances take their weights' doubles
 * in 512-bit vectors (one division of eight a group), or in two 256-bit
 * halves with every other vector 256 bits wide too, the instance still
 * compiled for AVX-512VL (32 vector registers, EVEX forms). Their work is
 * 256-bit floats, integers and gathers; on Intel cores, while 512-bit uops
 * are in flight, port 1's vector units take no 256-bit work (ports 0 and 1
 * are fused for 512-bit uops: Intel 64 and IA-32 Architectures
 * Optimization Reference Manual, the Skylake Server microarchitecture),
 * so a few 512-bit uops a group cost the rest a third of its ports: on a
 * Sapphire Rapids Xeon the 512-bit weights ran 0.75-0.85x as fast as
 * AVX2, on an AMD EPYC faster (docs/performance.md, branches span10 and
 * bilin11). So: not on an Intel CPU, unless g3d_simd_textured_zmm says
 * otherwise (-1: by the CPU's vendor, 0 no, 1 yes; tests set it to run
 * both). Both give the same bytes, so the choice shows in the time only.
 */
extern int g3d_simd_textured_zmm;
bool g3d_simd_textured_wide(void);

/* ---- preemption of long work ------------------------------------------- */

/*
 * Whoever drives a core (the QEMU glue's worker, a test) may need it back in
 * the middle of a long operation: another thread waits for the core, the VM
 * stops, or the device is reset or unplugged. The driver installs a
 * G3DPreempt on its thread (g3d_preempt_enter); the cores call g3d_yield()
 * in every loop whose length the guest controls (packets, vertices, indices,
 * pixel rows, list entries) and abandon the operation when it returns true.
 * A yield that returns false resumes exactly where the work stopped, so the
 * result equals the uninterrupted one. Without a G3DPreempt (unit tests,
 * tools, fuzzers) g3d_yield() is two thread-local reads.
 */
enum {
    G3D_PREEMPT_CANCEL = 1u << 0,   /* abandon: reset, unplug, quit */
    G3D_PREEMPT_PAUSE  = 1u << 1,   /* park until cleared: VM stopped */
    G3D_PREEMPT_WAITER = 1u << 2,   /* added once per thread waiting */
};

typedef struct G3DPreempt G3DPreempt;
struct G3DPreempt {
    unsigned flags;     /* atomic: G3D_PREEMPT_* bits + waiters * WAITER */
    /*
     * Called by g3d_yield() on the driving thread when flags is nonzero:
     * give the core away (or park) as the driver decides. true: abandon.
     */
    bool (*yield)(G3DPreempt *p);
    bool active;        /* atomic: the driving thread is inside the core */
    bool end_step;      /* atomic: end the work step at the next unit */
    /* render helper threads park here while PAUSE is set */
    GMutex park_lock;
    GCond park_cond;
};

extern __thread G3DPreempt *g3d_preempt_current;

void g3d_preempt_init(G3DPreempt *p, bool (*yield)(G3DPreempt *p));
void g3d_preempt_destroy(G3DPreempt *p);
/* set / clear CANCEL or PAUSE; wakes parked helper threads */
void g3d_preempt_set(G3DPreempt *p, unsigned bits);
void g3d_preempt_clear(G3DPreempt *p, unsigned bits);
/* the calling thread enters / leaves the core, driving it under p */
static inline void g3d_preempt_enter(G3DPreempt *p)
{
    g3d_preempt_current = p;
    __atomic_store_n(&p->active, true, __ATOMIC_RELEASE);
}

static inline void g3d_preempt_leave(G3DPreempt *p)
{
    __atomic_store_n(&p->active, false, __ATOMIC_RELEASE);
    g3d_preempt_current = NULL;
}

/*
 * Is the core in the middle of an operation driven from another thread
 * (which gave way to the caller at a g3d_yield())? Then the caller must not
 * run what that operation owns (e.g. flush its queued triangles).
 */
static inline bool g3d_preempt_foreign(const G3DPreempt *p)
{
    return p && p != g3d_preempt_current &&
           __atomic_load_n(&p->active, __ATOMIC_ACQUIRE);
}

/* ---- waits between threads ------------------------------------------- */

/*
 * A thread polling a word another thread will set: one step between reads,
 * `i` counting from 1. The core is paused (a spinning hyperthread takes
 * less of its sibling), and every 64th step given away, so that on a busy
 * host the thread that will set the word gets to run.
 */
static inline void g3d_spin_pause(unsigned i)
{
    if (i % 64 == 0) {
        g_thread_yield();
    }
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/*
 * A poll bounded in time: g3d_poll_begin(us), then g3d_poll_step() between
 * reads until the word is seen or the step says the time is up (false). The
 * clock is read every 64th step only: a read costs as much as the poll.
 */
typedef struct G3DPoll {
    int64_t end;
    unsigned step;
} G3DPoll;

static inline G3DPoll g3d_poll_begin(unsigned us)
{
    return (G3DPoll){ .end = g_get_monotonic_time() + us };
}

static inline bool g3d_poll_step(G3DPoll *p)
{
    if (++p->step % 64 == 0 && g_get_monotonic_time() >= p->end) {
        return false;
    }
    g3d_spin_pause(p->step);
    return true;
}

/*
 * A render helper thread working for the driving thread (common/tiles.c
 * sets it around each job): its g3d_yield() parks while PAUSE is set and
 * returns true on CANCEL; waiters are the driving thread's business.
 */
extern __thread G3DPreempt *g3d_preempt_helping;
bool g3d_preempt_park(G3DPreempt *p);

/*
 * The check a core's work() makes between two of its units (packets,
 * records, queue entries), where nothing is half done: true when the
 * driver wants the step to end there (to save the core's state), so work()
 * returns at once, reporting the rest as pending.
 */
static inline bool g3d_step_end(void)
{
    G3DPreempt *p = g3d_preempt_current;

    return p && __atomic_load_n(&p->end_step, __ATOMIC_ACQUIRE);
}

/* The check the cores' long loops make; true: abandon the operation. */
static inline bool g3d_yield(void)
{
    G3DPreempt *p = g3d_preempt_current;

    if (p) {
        return __atomic_load_n(&p->flags, __ATOMIC_ACQUIRE) && p->yield(p);
    }
    p = g3d_preempt_helping;
    return p && __atomic_load_n(&p->flags, __ATOMIC_ACQUIRE) &&
           g3d_preempt_park(p);
}

#endif
