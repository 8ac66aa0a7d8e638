/*
 * The common checks of a core's saved state (state-test.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <string.h>

#include "state-test.h"

uint8_t *g3d_state_test_save(const G3DStateTestOps *ops, void *core,
                             size_t *len)
{
    G3DStateOut o;

    g3d_state_out_init(&o);
    ops->save(core, &o);
    *len = o.len;
    return o.buf;
}

void g3d_state_test_roundtrip(const G3DStateTestOps *ops, void *core,
                              const uint8_t *buf, size_t len)
{
    G3DStateIn in;
    uint8_t *again;
    size_t n;

    g3d_state_in_init(&in, buf, len);
    if (!ops->load(core, &in)) {
        g_test_message("load failed: %s", in.error);
    }
    g_assert_true(in.ok);
    again = g3d_state_test_save(ops, core, &n);
    g_assert_cmpuint(n, ==, len);
    g_assert_true(memcmp(again, buf, len) == 0);
    g_free(again);
}

/* a failed load: a message, and the core left as a reset one */
static void check_failed(const G3DStateTestOps *ops, void *core,
                         const G3DStateIn *in, const uint8_t *reset,
                         size_t reset_len)
{
    uint8_t *now;
    size_t n;

    g_assert_false(in->ok);
    g_assert_cmpuint(strlen(in->error), >, 10);
    now = g3d_state_test_save(ops, core, &n);
    g_assert_cmpuint(n, ==, reset_len);
    g_assert_true(memcmp(now, reset, n) == 0);
    g_free(now);
}

void g3d_state_test_fails(const G3DStateTestOps *ops, void *core,
                          const uint8_t *buf, size_t len, const char *what)
{
    G3DStateIn in;

    g3d_state_in_init(&in, buf, len);
    g_assert_false(ops->load(core, &in));
    g_test_message("rejected: %s", in.error);
    if (!strstr(in.error, what)) {
        g_test_message("expected a message about \"%s\"", what);
        g_assert_nonnull(strstr(in.error, what));
    }
}

void g3d_state_test_bad(const G3DStateTestOps *ops, void *core,
                        const uint8_t *buf, size_t len,
                        const uint8_t *reset, size_t reset_len,
                        unsigned mutations)
{
    uint8_t *copy = g_malloc(len + 1);
    GRand *rng = g_rand_new_with_seed(0x5a7e);
    unsigned i, accepted = 0;
    G3DStateIn in;
    size_t cut;

    /* truncated anywhere: the first 64 cuts, then 256 spread over it */
    for (i = 0; i < 64 + 256; i++) {
        cut = i < 64 ? i : (size_t)(i - 64) * len / 256;
        if (cut >= len) {
            continue;
        }
        g3d_state_in_init(&in, buf, cut);
        ops->load(core, &in);
        check_failed(ops, core, &in, reset, reset_len);
        g_assert_nonnull(strstr(in.error, cut < 8 ? "ends" : ""));
    }
    /* magic, version, a byte past the end */
    memcpy(copy, buf, len);
    copy[0] ^= 0x55;
    g3d_state_test_fails(ops, core, copy, len, "magic");
    memcpy(copy, buf, len);
    copy[4]++;
    g3d_state_test_fails(ops, core, copy, len, "version");
    memcpy(copy, buf, len);
    copy[len] = 0;
    g3d_state_test_fails(ops, core, copy, len + 1, "past its end");

    /* random damage, as the fuzz driver does it: most fail, none crash */
    for (i = 0; i < mutations; i++) {
        unsigned flips = 1 + g_rand_int_range(rng, 0, 16), k;
        size_t n = len;

        memcpy(copy, buf, len);
        while (flips--) {
            /* the validated fields are spread thin: aim at 8..len */
            k = g_rand_int_range(rng, 8, (gint32)len);
            switch (g_rand_int_range(rng, 0, 4)) {
            case 0: copy[k] ^= 1u << g_rand_int_range(rng, 0, 8); break;
            case 1: copy[k] = g_rand_int(rng); break;
            case 2: copy[k] = 0xff; break;
            default: copy[k] = 0; break;
            }
        }
        if (g_rand_int_range(rng, 0, 8) == 0) {
            n = g_rand_int_range(rng, 0, (gint32)len);
        }
        g3d_state_in_init(&in, copy, n);
        if (ops->load(core, &in)) {
            accepted++;
            ops->exercise(core);
        } else {
            check_failed(ops, core, &in, reset, reset_len);
        }
    }
    g_test_message("%u of %u mutated streams accepted (and run)", accepted,
                   mutations);
    g_rand_free(rng);
    g_free(copy);
}
