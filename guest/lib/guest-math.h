/*
 * sin and cos for guests and the host tools that must compute the same
 * numbers (the reference renderers of the demo scenes): header-only,
 * freestanding, the same float operations everywhere.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_GUEST_MATH_H
#define GPU3D_GUEST_MATH_H

/* sin by range reduction to [-pi/2, pi/2] and a degree-11 odd polynomial */
static inline float guest_sinf(float x)
{
    const float pi = 3.14159265358979f, two_pi = 6.28318530717959f;
    float x2;
    int k = (int)(x / two_pi);

    x -= (float)k * two_pi;
    if (x > pi) {
        x -= two_pi;
    } else if (x < -pi) {
        x += two_pi;
    }
    /* sin(pi - x) = sin(x) */
    if (x > pi / 2) {
        x = pi - x;
    } else if (x < -pi / 2) {
        x = -pi - x;
    }
    x2 = x * x;
    return x * (1 - x2 / 6 * (1 - x2 / 20 * (1 - x2 / 42 * (1 - x2 / 72 *
                                                            (1 - x2 / 110)))));
}

static inline float guest_cosf(float x)
{
    return guest_sinf(x + 1.57079632679490f);
}

#endif
