/*
 * LCD framebuffer setup "PDC0" (top screen) and "PDC1" (bottom screen)
 * (3dbrew GPU/External Registers; 3Beans pdc.cpp): the head shows the
 * framebuffer selected by FRAMEBUF_SELECT b0 in FRAMEBUF_FORMAT's pixel
 * format. The 3DS panels are mounted rotated: each stored line (STRIDE bytes
 * apart) is one screen column from the left, and its first pixel is the
 * bottom row; the heads show 400x240 and 320x240.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "pica200-int.h"

#include <string.h>

bool pica_pdc_scanout(Pica200Core *c, int head, G3DScanout *out)
{
    const uint32_t *r;
    unsigned fmt;

    memset(out, 0, sizeof(*out));
    if (head < 0 || head > 1) {
        return false;
    }
    r = &c->ext[PICA_PDC_BASE(head) / 4];
    fmt = r[PICA_PDC_FRAMEBUF_FORMAT / 4] & 7;
    out->enabled = r[PICA_PDC_CONTROL / 4] & 1;
    out->addr = r[(r[PICA_PDC_FRAMEBUF_SELECT / 4] & 1 ? PICA_PDC_FRAMEBUF_A2
                                                       : PICA_PDC_FRAMEBUF_A1) / 4];
    out->width = head ? PICA200_BOTTOM_WIDTH : PICA200_TOP_WIDTH;
    out->height = PICA200_SCREEN_HEIGHT;
    out->pitch = r[PICA_PDC_FRAMEBUF_STRIDE / 4];
    /* an undefined format is G3D_FMT_INVALID: the checked copy refuses it */
    out->format = pica_pixfmt_to_g3d(fmt);
    out->rotate = 90;
    return out->enabled;
}
