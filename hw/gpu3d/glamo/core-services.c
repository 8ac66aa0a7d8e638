/*
 * Services of the Glamo core that every block may use: the 3D queue's
 * state and the rasteriser flush. They sit below the blocks and call none
 * of them, so the blocks' calls point one way (docs/architecture.md, "One
 * house").
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "glamo-int.h"

bool glamo_3d_idle(const GlamoCore *c)
{
    return c->q_count == 0 && !c->parser.active && c->raster_pending == 0;
}

bool glamo_3d_queue_full(const GlamoCore *c)
{
    return c->q_count == GLAMO_QUEUE_SIZE;
}

void glamo_flush(GlamoCore *c)
{
    if (c->raster_pending) {
        g3d_raster_flush(c->raster);
        c->raster_pending = 0;
        /* the decoded state lived in the rasteriser's arena */
        c->rs = NULL;
    }
}
