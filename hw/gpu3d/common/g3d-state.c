/*
 * Saved core state as a checked little-endian byte stream (g3d-state.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <glib.h>
#include "g3d-state.h"

void g3d_state_out_init(G3DStateOut *o)
{
    memset(o, 0, sizeof(*o));
}

void g3d_state_in_init(G3DStateIn *in, const void *buf, size_t len)
{
    memset(in, 0, sizeof(*in));
    in->buf = buf;
    in->len = buf ? len : 0;
    in->ok = true;
}

void g3d_state_put_bytes(G3DStateOut *o, const void *p, size_t n)
{
    if (o->cap - o->len < n) {
        size_t cap = MAX(o->cap * 2, o->len + n);
        cap = MAX(cap, 4096);
        o->buf = g_realloc(o->buf, cap);
        o->cap = cap;
    }
    if (n) {
        memcpy(o->buf + o->len, p, n);
    }
    o->len += n;
}

static void put_le(G3DStateOut *o, uint64_t v, unsigned bytes)
{
    uint8_t b[8];

    for (unsigned i = 0; i < bytes; i++) {
        b[i] = v >> (8 * i);
    }
    g3d_state_put_bytes(o, b, bytes);
}

void g3d_state_put_u8(G3DStateOut *o, uint8_t v)   { put_le(o, v, 1); }
void g3d_state_put_u16(G3DStateOut *o, uint16_t v) { put_le(o, v, 2); }
void g3d_state_put_u32(G3DStateOut *o, uint32_t v) { put_le(o, v, 4); }
void g3d_state_put_u64(G3DStateOut *o, uint64_t v) { put_le(o, v, 8); }

void g3d_state_put_f32(G3DStateOut *o, float v)
{
    uint32_t u;

    memcpy(&u, &v, 4);
    put_le(o, u, 4);
}

void g3d_state_put_u32s(G3DStateOut *o, const uint32_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        put_le(o, v[i], 4);
    }
}

void g3d_state_put_f32s(G3DStateOut *o, const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        g3d_state_put_f32(o, v[i]);
    }
}

void g3d_state_begin(G3DStateOut *o, uint32_t magic, uint32_t version)
{
    put_le(o, magic, 4);
    put_le(o, version, 4);
}

bool g3d_state_fail(G3DStateIn *in, const char *fmt, ...)
{
    if (in->ok) {
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(in->error, sizeof(in->error), fmt, ap);
        va_end(ap);
        in->ok = false;
    }
    return false;
}

bool g3d_state_get_bytes(G3DStateIn *in, void *p, size_t n)
{
    if (!in->ok || in->len - in->pos < n) {
        g3d_state_fail(in, "saved state ends %zu bytes early",
                       n - (in->len - in->pos));
        memset(p, 0, n);
        return false;
    }
    if (n) {
        memcpy(p, in->buf + in->pos, n);
    }
    in->pos += n;
    return true;
}

static uint64_t get_le(G3DStateIn *in, unsigned bytes)
{
    uint8_t b[8];
    uint64_t v = 0;

    if (!g3d_state_get_bytes(in, b, bytes)) {
        return 0;
    }
    for (unsigned i = 0; i < bytes; i++) {
        v |= (uint64_t)b[i] << (8 * i);
    }
    return v;
}

uint8_t g3d_state_get_u8(G3DStateIn *in)   { return get_le(in, 1); }
uint16_t g3d_state_get_u16(G3DStateIn *in) { return get_le(in, 2); }
uint32_t g3d_state_get_u32(G3DStateIn *in) { return get_le(in, 4); }
uint64_t g3d_state_get_u64(G3DStateIn *in) { return get_le(in, 8); }

float g3d_state_get_f32(G3DStateIn *in)
{
    uint32_t u = get_le(in, 4);
    float f;

    memcpy(&f, &u, 4);
    return f;
}

bool g3d_state_get_bool(G3DStateIn *in)
{
    uint8_t v = get_le(in, 1);

    if (v > 1) {
        g3d_state_fail(in, "saved flag is %u, not 0 or 1", v);
        return false;
    }
    return v;
}

void g3d_state_get_u32s(G3DStateIn *in, uint32_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        v[i] = get_le(in, 4);
    }
}

void g3d_state_get_f32s(G3DStateIn *in, float *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        v[i] = g3d_state_get_f32(in);
    }
}

uint32_t g3d_state_get_index(G3DStateIn *in, uint32_t limit,
                             const char *what)
{
    uint32_t v = get_le(in, 4);

    if (in->ok && v >= limit) {
        g3d_state_fail(in, "saved %s is %u, past its limit %u", what, v,
                       limit);
        return 0;
    }
    return in->ok ? v : 0;
}

bool g3d_state_expect(G3DStateIn *in, uint32_t magic, uint32_t version,
                      const char *chip)
{
    uint32_t m = get_le(in, 4), v = get_le(in, 4);

    if (!in->ok) {
        return false;
    }
    if (m != magic) {
        return g3d_state_fail(in, "saved state is not %s's (magic %08x)",
                              chip, m);
    }
    if (v != version) {
        return g3d_state_fail(in, "saved %s state has version %u; this "
                              "build reads version %u", chip, v, version);
    }
    return true;
}

bool g3d_state_end(G3DStateIn *in)
{
    if (in->ok && in->pos != in->len) {
        g3d_state_fail(in, "saved state has %zu bytes past its end",
                       in->len - in->pos);
    }
    return in->ok;
}
