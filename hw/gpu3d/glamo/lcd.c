/*
 * The LCD controller (1100h) as far as scan-out needs it ([EXT] Linux
 * glamo-fb.c): A_BASE1/2 (VRAM address A22..A0), PITCH (bytes, D[10:1]),
 * WIDTH/HEIGHT (D[9:0]), the source format in MODE3 D[15:14] (RGB565,
 * ARGB1555, ARGB4444) and the pixel clock enable EN_DCLK in CLOCK_LCD.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "glamo-int.h"

bool glamo_lcd_scanout(GlamoCore *c, G3DScanout *so)
{
    uint16_t mode3 = c->regs[A_GLAMO_LCD_MODE3 >> 1];
    uint16_t wreg = c->regs[A_GLAMO_LCD_WIDTH >> 1];
    bool report = c->lcd_dirty;

    c->lcd_dirty = false;
    if (!(c->regs[A_GLAMO_CLOCK_LCD >> 1] & GLAMO_CLOCK_LCD_EN_DCLK)) {
        return false;           /* pixel clock off: blank */
    }
    so->width = wreg & GLAMO_LCD_DIM_MASK;
    so->height = c->regs[A_GLAMO_LCD_HEIGHT >> 1] & GLAMO_LCD_DIM_MASK;
    so->pitch = c->regs[A_GLAMO_LCD_PITCH >> 1] & GLAMO_LCD_PITCH_MASK;
    so->addr = (uint32_t)(c->regs[A_GLAMO_LCD_A_BASE2 >> 1] &
                          GLAMO_LCD_BASE2_MASK) << 16 |
               c->regs[A_GLAMO_LCD_A_BASE1 >> 1];
    switch (mode3 & GLAMO_LCD_SRC_MASK) {
    case GLAMO_LCD_SRC_RGB565:
        so->format = G3D_FMT_RGB565;
        break;
    case GLAMO_LCD_SRC_ARGB1555:
        so->format = G3D_FMT_ARGB1555;
        break;
    case GLAMO_LCD_SRC_ARGB4444:
        so->format = G3D_FMT_ARGB4444;
        break;
    default:
        if (report) {
            g3d_guest_error("glamo lcd: reserved source format in MODE3 "
                            "0x%04x, screen blank", mode3);
        }
        return false;
    }
    if ((c->regs[A_GLAMO_LCD_MODE1 >> 1] & GLAMO_LCD_MODE1_ROTATE_EN) &&
        (wreg & GLAMO_LCD_ROT_MODE_MASK) && report) {
        g3d_unimp("glamo lcd: rotated scan-out (WIDTH 0x%04x) shown "
                  "unrotated", wreg);
    }
    if (so->width == 0 || so->height == 0) {
        return false;
    }
    if (so->pitch < so->width * 2 ||
        so->addr + (uint64_t)so->pitch * (so->height - 1) + so->width * 2 >
        c->vram_size) {
        if (report) {
            g3d_guest_error("glamo lcd: %ux%u picture at 0x%x pitch %u does "
                            "not fit VRAM, screen blank", so->width,
                            so->height, (unsigned)so->addr, so->pitch);
        }
        return false;
    }
    so->enabled = true;
    return true;
}
