/*
 * gpu3d engine cores: the error latch every core keeps.
 *
 * Bad guest input is logged (LOG_GUEST_ERROR through g3d_log), counted,
 * and the first error since the guest last cleared it is latched with a
 * chip-defined code and detail, which the chips that have an error status
 * register report. Features a chip has but the core does not model are
 * logged once per kind until reset, so a guest that uses one every frame
 * does not flood the log. How the chip shows an error to the guest (a
 * status bit, an interrupt) is the chip's own: the latch calls its `raise`
 * hook.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_COMMON_ERROR_LATCH_H
#define GPU3D_COMMON_ERROR_LATCH_H

#include <stdbool.h>
#include <stdint.h>

typedef struct G3DErrorLatch {
    /* set by the chip at creation, kept by reset */
    const char *prefix;     /* before every message ("attila-3d: "), or NULL */
    /* the chip raises its status bit; first: nothing was latched before */
    void (*raise)(void *opaque, bool first);
    void *opaque;
    /*
     * Optional, set by the chip after init: called before an error is
     * logged or latched, so that errors of work still running behind the
     * caller (a pipelined draw's) come first, in the order one thread
     * would give.
     */
    void (*settle)(void *opaque);

    /* state, zeroed by g3d_error_reset */
    uint32_t count;         /* guest errors since reset */
    bool latched;           /* an error since reset or g3d_error_clear */
    uint32_t code, info;    /* what the first latched error was */
    uint64_t once;          /* kinds (bit numbers 0..63) logged once already */
} G3DErrorLatch;

void g3d_error_init(G3DErrorLatch *e, const char *prefix,
                    void (*raise)(void *opaque, bool first), void *opaque);

/* Power-on state: no error, nothing logged yet, count 0. */
void g3d_error_reset(G3DErrorLatch *e);

/* The guest acknowledged the error: the next one latches again. */
void g3d_error_clear(G3DErrorLatch *e);

/*
 * A guest error: log the message (with the prefix), count it, latch
 * code/info if nothing is latched, and call raise. True if it latched.
 */
bool g3d_error(G3DErrorLatch *e, uint32_t code, uint32_t info,
               const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* An error whose message was logged where it was found: count and latch. */
bool g3d_error_silent(G3DErrorLatch *e, uint32_t code, uint32_t info);

/* True the first time `kind` (0..63) is asked since reset or rearm. */
bool g3d_error_once(G3DErrorLatch *e, unsigned kind);

/* The condition of `kind` went away: log it again when it comes back. */
void g3d_error_rearm(G3DErrorLatch *e, unsigned kind);

/* A feature the core does not model: logged (LOG_UNIMP) once per kind. */
void g3d_unimp_once(G3DErrorLatch *e, unsigned kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * The latch's state in a core's saved stream (common/g3d-state.h): the
 * count, the first error and the kinds already logged, so a restored
 * device reports and stays quiet as the saved one did.
 */
struct G3DStateOut;
struct G3DStateIn;
void g3d_error_save(const G3DErrorLatch *e, struct G3DStateOut *o);
void g3d_error_load(G3DErrorLatch *e, struct G3DStateIn *in);

#endif
