/*
 * What every core's saved state (common/g3d-state.h) must do, checked the
 * same way for each chip: save -> load -> save gives the same stream, and a
 * damaged stream (empty, truncated, wrong magic or version, bytes past its
 * end, random mutations) fails with a message, leaves the core reset, and
 * never crashes; a mutated stream the loader accepts must run.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TESTS_STATE_TEST_H
#define TESTS_STATE_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common/g3d-state.h"

typedef struct G3DStateTestOps {
    void (*save)(void *core, G3DStateOut *o);
    bool (*load)(void *core, G3DStateIn *in);
    /* after a load that succeeded: run the core a bounded while */
    void (*exercise)(void *core);
    /* one unit of work (x_core_work with a budget of 1) */
    bool (*step)(void *core);
} G3DStateTestOps;

/* up to `steps` units of work; the units run (fewer: nothing left) */
unsigned g3d_state_test_run(const G3DStateTestOps *ops, void *core,
                            unsigned steps);

/*
 * A migration: `from`'s stream is taken, then its memory copied into
 * `to`'s (in this order, as QEMU saves RAM after the stream is taken: a
 * save may draw queued work), then `to` loads the stream, which it saves
 * back unchanged.
 */
void g3d_state_test_move(const G3DStateTestOps *ops, void *from, void *to,
                         const void *from_mem, void *to_mem, size_t len);

/* Two cores in the same state over memories with the same bytes. */
void g3d_state_test_same(const G3DStateTestOps *ops, void *a, void *b,
                         const void *mem_a, const void *mem_b, size_t len);

/* the core's stream (g_free it) */
uint8_t *g3d_state_test_save(const G3DStateTestOps *ops, void *core,
                             size_t *len);

/* load, save again: the same bytes; the core holds the loaded state */
void g3d_state_test_roundtrip(const G3DStateTestOps *ops, void *core,
                              const uint8_t *buf, size_t len);

/*
 * `core` (any state) loads damaged copies of the valid stream buf/len;
 * `reset` is the stream of a freshly reset core of the same configuration.
 * `mutations` random damages (seeded) follow the systematic ones.
 */
void g3d_state_test_bad(const G3DStateTestOps *ops, void *core,
                        const uint8_t *buf, size_t len,
                        const uint8_t *reset, size_t reset_len,
                        unsigned mutations);

/* the load of buf/len fails, its message contains `what` */
void g3d_state_test_fails(const G3DStateTestOps *ops, void *core,
                          const uint8_t *buf, size_t len, const char *what);

#endif
