/*
 * A core's saved state: a flat little-endian byte stream that the core
 * writes field by field and reads back with every value checked.
 *
 * The cores stay free of QEMU (g3d-core.h): the glue wraps the stream in a
 * VMState buffer for savevm/migration, unit tests round-trip it directly.
 * A core's stream starts with g3d_state_begin(magic, version); its loader
 * reads the fields in the same order and rejects what the chip could never
 * hold (a ring pointer past the ring, a FIFO count past its buffer, an
 * index past a table) with g3d_state_fail(), never trusting a length.
 * Reading past the end fails the same way. The first failure is kept in
 * `error`; later reads return zeros and change nothing, so a loader may
 * read on and check `ok` once at the end before it commits anything.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_COMMON_STATE_H
#define GPU3D_COMMON_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct G3DStateOut {
    uint8_t *buf;       /* g_realloc'd; the caller g_free()s it */
    size_t len, cap;
} G3DStateOut;

typedef struct G3DStateIn {
    const uint8_t *buf;
    size_t len, pos;
    bool ok;
    char error[160];    /* the first failure, for the load's error message */
} G3DStateIn;

void g3d_state_out_init(G3DStateOut *o);
void g3d_state_in_init(G3DStateIn *in, const void *buf, size_t len);

/* ---- writing ------------------------------------------------------------ */
void g3d_state_put_bytes(G3DStateOut *o, const void *p, size_t n);
void g3d_state_put_u8(G3DStateOut *o, uint8_t v);
void g3d_state_put_u16(G3DStateOut *o, uint16_t v);
void g3d_state_put_u32(G3DStateOut *o, uint32_t v);
void g3d_state_put_u64(G3DStateOut *o, uint64_t v);
void g3d_state_put_f32(G3DStateOut *o, float v);     /* bit pattern */
void g3d_state_put_u32s(G3DStateOut *o, const uint32_t *v, size_t n);
void g3d_state_put_f32s(G3DStateOut *o, const float *v, size_t n);
/* a magic naming the core's stream and its layout version */
void g3d_state_begin(G3DStateOut *o, uint32_t magic, uint32_t version);

/* ---- reading (zeros after the first failure) ---------------------------- */
bool g3d_state_get_bytes(G3DStateIn *in, void *p, size_t n);
uint8_t g3d_state_get_u8(G3DStateIn *in);
uint16_t g3d_state_get_u16(G3DStateIn *in);
uint32_t g3d_state_get_u32(G3DStateIn *in);
uint64_t g3d_state_get_u64(G3DStateIn *in);
float g3d_state_get_f32(G3DStateIn *in);
bool g3d_state_get_bool(G3DStateIn *in);   /* fails unless 0 or 1 */
void g3d_state_get_u32s(G3DStateIn *in, uint32_t *v, size_t n);
void g3d_state_get_f32s(G3DStateIn *in, float *v, size_t n);
/* a u32 that must be below `limit` (an index, a count, a pointer) */
uint32_t g3d_state_get_index(G3DStateIn *in, uint32_t limit,
                             const char *what);
/* fails unless the stream starts with this magic and version */
bool g3d_state_expect(G3DStateIn *in, uint32_t magic, uint32_t version,
                      const char *chip);
/* true when the whole stream was read without failure and nothing is left */
bool g3d_state_end(G3DStateIn *in);

/* record a failure (the first one is kept); returns false */
bool g3d_state_fail(G3DStateIn *in, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* g3d_state_fail unless cond; returns cond */
static inline bool g3d_state_check(G3DStateIn *in, bool cond,
                                   const char *what)
{
    return cond || g3d_state_fail(in, "%s", what);
}

#endif
