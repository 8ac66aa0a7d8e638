/*
 * Equal float words for the attila-3d tests that compare a chosen path with
 * the general one: equal bytes, except that two NaNs are equal whatever
 * their payloads: C does not say which operand's payload an operation
 * passes on, and the compiler may swap the operands of a commutative one,
 * so that is not a property of either path (a NaN reaches a pixel only
 * through a clamp).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_TESTS_ATTILA_SAME_WORDS_H
#define GPU3D_TESTS_ATTILA_SAME_WORDS_H

#include <glib.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

static inline bool attila_same_words(const void *a, const void *b, size_t size)
{
    size_t i;

    for (i = 0; i + 4 <= size; i += 4) {
        uint32_t x, y;
        float fx, fy;
        memcpy(&x, (const uint8_t *)a + i, 4);
        memcpy(&y, (const uint8_t *)b + i, 4);
        memcpy(&fx, &x, 4);
        memcpy(&fy, &y, 4);
        if (x != y && !(isnan(fx) && isnan(fy))) {
            g_test_message("word at byte %zu: %08x vs %08x", i, x, y);
            return false;
        }
    }
    return true;
}

#endif
