/*
 * gpu3d engine cores: diagnostics and the flat memory helper.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "g3d-core.h"

#include <glib.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool g3d_general_path;
bool g3d_no_avx;
G3DSimdLevel g3d_simd_max = G3D_SIMD_AVX512;

G3DSimdLevel g3d_simd_level(void)
{
    G3DSimdLevel l = G3D_SIMD_SSE2;

#if defined(__x86_64__) && defined(__GNUC__)
    /* libgcc's CPU model also checks that the OS saves the wide registers */
    if (__builtin_cpu_supports("avx512f") &&
        __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("avx2")) {
        l = G3D_SIMD_AVX512;
    } else if (__builtin_cpu_supports("avx2")) {
        l = G3D_SIMD_AVX2;
    } else if (__builtin_cpu_supports("avx")) {
        l = G3D_SIMD_AVX;
    }
#endif
    if (g3d_no_avx) {
        return G3D_SIMD_SSE2;
    }
    return l < g3d_simd_max ? l : g3d_simd_max;
}

int g3d_simd_textured_max = -1;
int g3d_simd_textured_zmm = -1;

G3DSimdLevel g3d_simd_level_textured(void)
{
    G3DSimdLevel l = g3d_simd_level();
    int cap = g3d_simd_textured_max;

    return cap >= 0 && (int)l > cap ? (G3DSimdLevel)cap : l;
}

bool g3d_simd_textured_wide(void)
{
    if (g3d_simd_textured_zmm >= 0) {
        return g3d_simd_textured_zmm;
    }
#if defined(__x86_64__) && defined(__GNUC__)
    return !__builtin_cpu_is("intel");
#else
    return true;
#endif
}

bool g3d_use_avx(void)
{
    return g3d_simd_level() >= G3D_SIMD_AVX;
}

bool g3d_use_avx2(void)
{
    return g3d_simd_level() >= G3D_SIMD_AVX2;
}

static G3DLogFn *log_sink;
static unsigned log_counts[2];
static __thread unsigned *log_held;

void g3d_log_hold(unsigned *held)
{
    log_held = held;
}

void g3d_set_log_sink(G3DLogFn *fn)
{
    log_sink = fn;
}

unsigned g3d_log_count(G3DLogKind kind)
{
    return g_atomic_int_get(&log_counts[kind]);
}

void g3d_log(G3DLogKind kind, const char *fmt, ...)
{
    char buf[512];
    va_list ap;

    if (log_held) {
        (*log_held)++;
        return;
    }
    g_atomic_int_inc(&log_counts[kind]);
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    if (log_sink) {
        log_sink(kind, buf);
    } else if (getenv("GPU3D_LOG")) {
        fprintf(stderr, "gpu3d %s: %s\n",
                kind == G3D_LOG_GUEST_ERROR ? "guest error" : "unimplemented",
                buf);
    }
}

bool g3d_mem_read32le(const G3DMem *m, uint64_t addr, uint32_t *val)
{
    uint8_t b[4];

    if (!g3d_mem_read(m, addr, b, 4)) {
        return false;
    }
    *val = b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
    return true;
}

bool g3d_mem_write32le(const G3DMem *m, uint64_t addr, uint32_t val)
{
    uint8_t b[4] = { val, val >> 8, val >> 16, val >> 24 };

    return g3d_mem_write(m, addr, b, 4);
}

static void *flat_map(void *opaque, uint64_t addr, uint64_t len, bool is_write)
{
    G3DFlatMem *f = opaque;

    if (!g3d_range_ok(addr, len, f->base, f->size)) {
        return NULL;
    }
    return f->ptr + (addr - f->base);
}

static bool flat_read(void *opaque, uint64_t addr, void *buf, uint64_t len)
{
    void *p = flat_map(opaque, addr, len, false);

    if (!p) {
        return false;
    }
    memcpy(buf, p, len);
    return true;
}

static bool flat_write(void *opaque, uint64_t addr, const void *buf,
                       uint64_t len)
{
    void *p = flat_map(opaque, addr, len, true);

    if (!p) {
        return false;
    }
    memcpy(p, buf, len);
    return true;
}

void g3d_flat_mem_init(G3DMem *m, G3DFlatMem *flat, uint8_t *ptr,
                       uint64_t base, uint64_t size)
{
    flat->ptr = ptr;
    flat->base = base;
    flat->size = size;
    m->opaque = flat;
    m->map = flat_map;
    m->read = flat_read;
    m->write = flat_write;
}

/* ---- preemption ---------------------------------------------------------- */

__thread G3DPreempt *g3d_preempt_current;
__thread G3DPreempt *g3d_preempt_helping;

void g3d_preempt_init(G3DPreempt *p, bool (*yield)(G3DPreempt *p))
{
    p->flags = 0;
    p->active = false;
    p->yield = yield;
    g_mutex_init(&p->park_lock);
    g_cond_init(&p->park_cond);
}

void g3d_preempt_destroy(G3DPreempt *p)
{
    g_mutex_clear(&p->park_lock);
    g_cond_clear(&p->park_cond);
}

void g3d_preempt_set(G3DPreempt *p, unsigned bits)
{
    g_mutex_lock(&p->park_lock);
    __atomic_fetch_or(&p->flags, bits, __ATOMIC_SEQ_CST);
    g_cond_broadcast(&p->park_cond);
    g_mutex_unlock(&p->park_lock);
}

void g3d_preempt_clear(G3DPreempt *p, unsigned bits)
{
    g_mutex_lock(&p->park_lock);
    __atomic_fetch_and(&p->flags, ~bits, __ATOMIC_SEQ_CST);
    g_cond_broadcast(&p->park_cond);
    g_mutex_unlock(&p->park_lock);
}

bool g3d_preempt_park(G3DPreempt *p)
{
    unsigned f = __atomic_load_n(&p->flags, __ATOMIC_ACQUIRE);

    if (!(f & (G3D_PREEMPT_PAUSE | G3D_PREEMPT_CANCEL))) {
        return false;       /* waiters want the core lock, which helpers never hold */
    }
    g_mutex_lock(&p->park_lock);
    while ((f = __atomic_load_n(&p->flags, __ATOMIC_ACQUIRE)) &
           G3D_PREEMPT_PAUSE && !(f & G3D_PREEMPT_CANCEL)) {
        g_cond_wait(&p->park_cond, &p->park_lock);
    }
    g_mutex_unlock(&p->park_lock);
    return f & G3D_PREEMPT_CANCEL;
}
