/*
 * gpu3d engine cores: the error latch (see error-latch.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "error-latch.h"
#include "g3d-core.h"
#include "g3d-state.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void g3d_error_init(G3DErrorLatch *e, const char *prefix,
                    void (*raise)(void *opaque, bool first), void *opaque)
{
    memset(e, 0, sizeof(*e));
    e->prefix = prefix;
    e->raise = raise;
    e->opaque = opaque;
}

void g3d_error_reset(G3DErrorLatch *e)
{
    e->count = 0;
    e->latched = false;
    e->code = e->info = 0;
    e->once = 0;
}

void g3d_error_save(const G3DErrorLatch *e, G3DStateOut *o)
{
    g3d_state_put_u32(o, e->count);
    g3d_state_put_u8(o, e->latched);
    g3d_state_put_u32(o, e->code);
    g3d_state_put_u32(o, e->info);
    g3d_state_put_u64(o, e->once);
}

void g3d_error_load(G3DErrorLatch *e, G3DStateIn *in)
{
    e->count = g3d_state_get_u32(in);
    e->latched = g3d_state_get_bool(in);
    e->code = g3d_state_get_u32(in);
    e->info = g3d_state_get_u32(in);
    e->once = g3d_state_get_u64(in);
}

void g3d_error_clear(G3DErrorLatch *e)
{
    e->latched = false;
    e->code = e->info = 0;
}

static void log_v(const G3DErrorLatch *e, G3DLogKind kind, const char *fmt,
                  va_list ap)
{
    char buf[400];

    vsnprintf(buf, sizeof(buf), fmt, ap);
    g3d_log(kind, "%s%s", e->prefix ? e->prefix : "", buf);
}

static bool latch(G3DErrorLatch *e, uint32_t code, uint32_t info)
{
    bool first = !e->latched;

    e->count++;
    if (first) {
        e->latched = true;
        e->code = code;
        e->info = info;
    }
    if (e->raise) {
        e->raise(e->opaque, first);
    }
    return first;
}

bool g3d_error(G3DErrorLatch *e, uint32_t code, uint32_t info,
               const char *fmt, ...)
{
    va_list ap;

    if (e->settle) {
        e->settle(e->opaque);
    }
    va_start(ap, fmt);
    log_v(e, G3D_LOG_GUEST_ERROR, fmt, ap);
    va_end(ap);
    return latch(e, code, info);
}

bool g3d_error_silent(G3DErrorLatch *e, uint32_t code, uint32_t info)
{
    if (e->settle) {
        e->settle(e->opaque);
    }
    return latch(e, code, info);
}

bool g3d_error_once(G3DErrorLatch *e, unsigned kind)
{
    uint64_t bit = 1ull << (kind & 63);

    if (e->once & bit) {
        return false;
    }
    e->once |= bit;
    return true;
}

void g3d_error_rearm(G3DErrorLatch *e, unsigned kind)
{
    e->once &= ~(1ull << (kind & 63));
}

void g3d_unimp_once(G3DErrorLatch *e, unsigned kind, const char *fmt, ...)
{
    va_list ap;

    if (g3d_error_once(e, kind)) {
        va_start(ap, fmt);
        log_v(e, G3D_LOG_UNIMP, fmt, ap);
        va_end(ap);
    }
}
