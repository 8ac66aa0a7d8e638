/*
 * Primitive assembly (GPUREG_PRIMITIVE_CONFIG b8-9, GPUREG_RESTART_PRIMITIVE;
 * 3dbrew GPU/Internal Registers 0x25E; Citra): triangle lists, strips (every
 * other triangle's first two vertices swapped so all keep their winding), fans,
 * and geometry-shader primitives (a list whose next triangle the GS may ask to
 * reverse). Mode 3 without a geometry shader is a list, as citro3d uses it for
 * indexed lists. A strip or fan carries over between draws until restarted
 * (Citra).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "pica200-int.h"

void pica_pa_restart(Pica200Core *c)
{
    c->pa.n = 0;
    c->pa.index = 0;
    c->pa.strip_ready = false;
    c->pa.winding = false;
}

void pica_pa_set_winding(Pica200Core *c)
{
    c->pa.winding = true;
}

void pica_pa_vertex(PicaFront *f, const PicaVertex *v)
{
    PicaPrimAsm *pa = f->pa;
    unsigned topo = G3D_FIELD_EX32(f->c->regs[GPUREG_PRIMITIVE_CONFIG],
                                   GPUREG_PRIMITIVE_CONFIG, TOPOLOGY);

    switch (topo) {
    case PICA_TOPOLOGY_STRIP:
    case PICA_TOPOLOGY_FAN:
        /* warm: a chunk refills the buffer its predecessor left */
        if (pa->strip_ready && !f->warm) {
            pica_rasterize_triangle(f, &pa->buf[0], &pa->buf[1], v);
        }
        pa->buf[pa->index] = *v;
        pa->strip_ready |= pa->index == 1;
        /* strip: replace the older vertex; fan: keep the centre */
        pa->index = topo == PICA_TOPOLOGY_STRIP ? !pa->index : 1;
        return;
    default:
        if (pa->n < 2) {
            pa->buf[pa->n++] = *v;
            return;
        }
        pa->n = 0;
        if (topo == PICA_TOPOLOGY_GEOMETRY && pa->winding) {
            pa->winding = false;
            pica_rasterize_triangle(f, &pa->buf[1], &pa->buf[0], v);
        } else {
            pica_rasterize_triangle(f, &pa->buf[0], &pa->buf[1], v);
        }
        return;
    }
}
