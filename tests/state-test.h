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
} G3DStateTestOps;

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
