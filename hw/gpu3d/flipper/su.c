/*
 * SU: setup unit, primitive assembly (doc 5.11.5.2.x, YAGCD §5.11.5 GP
 * packets).
 *
 * Vertex order per triangle, as the doc lists it and as Dolphin assembles
 * them (the first vertex is the reference vertex for attribute slopes, so
 * the order matters for bit-exact results):
 *   quads      (v0 v1 v2) (v0 v2 v3) per four vertices
 *   triangles  (v0 v1 v2) per three
 *   strip      (v0 v1 v2) (v1 v3 v2) (v2 v3 v4) ...
 *   fan        (v0 v1 v2) (v0 v2 v3) ...
 *   lines      (v0 v1) (v2 v3) ...; line strip (v0 v1) (v1 v2) ...
 *   points     one per vertex
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "flipper-int.h"

enum {
    PRIM_QUADS = 0, PRIM_QUADS_2 = 1, PRIM_TRIANGLES = 2, PRIM_STRIP = 3,
    PRIM_FAN = 4, PRIM_LINES = 5, PRIM_LINE_STRIP = 6, PRIM_POINTS = 7,
};

void flipper_su_begin(FlipperCore *c, int prim)
{
    c->su.prim = prim;
    c->su.count = 0;
}

void flipper_su_vertex(FlipperCore *c, FlipperSU *su, const GXVertex *v)
{
    unsigned n = su->count++;
    GXVertex *s = su->v;

    switch (su->prim) {
    case PRIM_QUADS:
    case PRIM_QUADS_2:
        s[n & 3] = *v;
        if ((n & 3) == 3) {
            flipper_clip_triangle(c, &s[0], &s[1], &s[2]);
            flipper_clip_triangle(c, &s[0], &s[2], &s[3]);
        }
        break;
    case PRIM_TRIANGLES:
        s[n % 3] = *v;
        if (n % 3 == 2) {
            flipper_clip_triangle(c, &s[0], &s[1], &s[2]);
        }
        break;
    case PRIM_STRIP:
        /* s[] holds the last three vertices by index mod 3 */
        s[n % 3] = *v;
        if (n >= 2) {
            const GXVertex *a = &s[(n - 2) % 3], *b = &s[(n - 1) % 3];
            if (n & 1) {
                flipper_clip_triangle(c, a, v, b);
            } else {
                flipper_clip_triangle(c, a, b, v);
            }
        }
        break;
    case PRIM_FAN:
        if (n == 0) {
            s[0] = *v;
        } else {
            if (n >= 2) {
                flipper_clip_triangle(c, &s[0], &s[1], v);
            }
            s[1] = *v;
        }
        break;
    case PRIM_LINES:
        s[n & 1] = *v;
        if (n & 1) {
            flipper_clip_line(c, &s[0], &s[1]);
        }
        break;
    case PRIM_LINE_STRIP:
        if (n >= 1) {
            flipper_clip_line(c, &s[0], v);
        }
        s[0] = *v;
        break;
    default:
        flipper_clip_point(c, v);
        break;
    }
}
