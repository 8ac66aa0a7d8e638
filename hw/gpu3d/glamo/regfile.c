/*
 * The 3D engine's register table: for every 16-bit register of
 * 1B00h-2EFFh, which bits exist, its reset value and its kind.
 *
 * Masks come from the field layouts of the reference (every field named,
 * "Reserved for" fields included, is storage; plain "Reserved" bits read 0).
 * Reset values: the reference gives "xx" for almost everything; those read
 * 0 after reset (docs/glamo-3d.md), the few it states are used as stated.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "glamo-int.h"

#include <glib.h>

GlamoRegInfo glamo_reginfo[GLAMO_NREGS];

typedef struct Range {
    uint16_t start, end, stride;   /* [start, end) in steps of stride */
    uint32_t mask, reset;          /* for a 32-bit register; 16-bit ones: */
    uint8_t kind;                  /*   stride 2, mask/reset in D[15:0] */
} Range;

#define F24  0x00ffffffu
#define F32  0xffffffffu
#define A22  0x007ffffeu     /* A22..A1 base addresses */
#define ARGB6565 0xfcf8fcf8u /* A6 R5 G6 B5 */

static const Range ranges[] = {
    /* G/L input vertex a (L1626-L1677); 1B1Ch reserved */
    { 0x1b00, 0x1b1c, 4, F32, 0, GLAMO_RK_RW },
    { 0x1b20, 0x1b60, 4, F32, 0, GLAMO_RK_RW },
    { 0x1b80, 0x1b84, 4, F32, 0, GLAMO_RK_RW },
    /* transformed vertices a, b, c (L1679-L1743) */
    { 0x1c00, 0x1c90, 4, F32, 0, GLAMO_RK_RW },
    /* setup outputs (L1745-L1949) */
    { 0x1ca0, 0x1ca4, 4, 0x800fffff, 0, GLAMO_RK_RW },
    { 0x1ca4, 0x1ca8, 4, 0x000fffff, 0, GLAMO_RK_RW },
    { 0x1ca8, 0x1cac, 4, 0x000003ff, 0, GLAMO_RK_RW },
    { 0x1cac, 0x1cb0, 4, 0x01ff01ff, 0, GLAMO_RK_RW },
    { 0x1cb0, 0x1cc0, 4, 0x000fffff, 0, GLAMO_RK_RW },
    { 0x1cc0, 0x1ccc, 4, F24, 0, GLAMO_RK_RW },
    { 0x1ccc, 0x1cd8, 4, 0x00007fff, 0, GLAMO_RK_RW },
    { 0x1cdc, 0x1ce8, 4, 0x00003fff, 0, GLAMO_RK_RW },
    { 0x1ce8, 0x1cf4, 4, 0x00007fff, 0, GLAMO_RK_RW },
    { 0x1cf4, 0x1d00, 4, 0x00003fff, 0, GLAMO_RK_RW },
    { 0x1d00, 0x1d0c, 4, 0x00007fff, 0, GLAMO_RK_RW },
    { 0x1d0c, 0x1d18, 4, 0x00003fff, 0, GLAMO_RK_RW },
    { 0x1d18, 0x1d24, 4, 0x00007fff, 0, GLAMO_RK_RW },
    { 0x1d24, 0x1d30, 4, 0x00003fff, 0, GLAMO_RK_RW },
    { 0x1d30, 0x1d6c, 4, F24, 0, GLAMO_RK_RW },
    { 0x1d6c, 0x1d70, 4, 0x3fff3fff, 0, GLAMO_RK_RW },
    { 0x1d70, 0x1d74, 4, 0x03ff03ff, 0, GLAMO_RK_RW },
    /* vertex defaults (L607-L628) */
    { 0x1e00, 0x1e1c, 4, F32, 0, GLAMO_RK_RW },
    { 0x1e20, 0x1e28, 4, F32, 0, GLAMO_RK_RW },
    { 0x1e30, 0x1e50, 4, F32, 0, GLAMO_RK_RW },
    /* stream table (L630-L713) */
    { 0x1f00, 0x1f04, 4, 0x000000ff, 0, GLAMO_RK_RW },
    { 0x1f0c, 0x1f10, 4, 0x00000707, 0, GLAMO_RK_RW },
    { 0x1f10, 0x1f50, 8, 0x00ff037f, 0, GLAMO_RK_RW },
    { 0x1f14, 0x1f50, 8, 0x007fffff, 0, GLAMO_RK_RW },
    /* command buffer mode, parsing (L717-L741) */
    { 0x2030, 0x2034, 4, A22, 0, GLAMO_RK_RW },
    { 0x2034, 0x2038, 4, 0x0fffffff, 0, GLAMO_RK_RO },
    { 0x2038, 0x203c, 4, F32, 0, GLAMO_RK_RW },
    { 0x203c, 0x2040, 2, 0x0003, 0, GLAMO_RK_TRIGGER },
    { 0x2040, 0x2044, 4, 0xffff30df, 0, GLAMO_RK_RW },
    { 0x2044, 0x2048, 4, 0x8fffffff, 0, GLAMO_RK_RW },
    /* primitive setting, fire, status (L744-L771) */
    { 0x2050, 0x2052, 2, 0x3fff, 0, GLAMO_RK_RW },
    { 0x2052, 0x2054, 2, 0xffff, 0, GLAMO_RK_RW },
    { 0x2054, 0x2056, 2, 0xffff, GLAMO_EGSTATUSA_ALL_IDLE, GLAMO_RK_RO },
    { 0x2056, 0x2058, 2, 0xffff, 0, GLAMO_RK_RO },
    { 0x2058, 0x205a, 2, 0xffff, 0, GLAMO_RK_TRIGGER },
    { 0x205a, 0x205c, 2, 0xffff, 0, GLAMO_RK_RO },
    /* enables (L773-L835; default 00000000h) */
    { 0x2100, 0x2104, 4, 0xff7fffff, 0, GLAMO_RK_RW },
    { 0x2104, 0x2108, 4, 0xf7ffff03, 0, GLAMO_RK_RW },
    /* Z, alpha, destination 0 (L836-L852, L2571-L2750) */
    /* EGZBUFFM is D[26:20] (L2574): F1Z15 / F2Z14 need D[23:22] */
    { 0x2108, 0x210c, 4, 0x07f703ff, 0, GLAMO_RK_RW },
    { 0x210c, 0x2110, 2, 0xffff, 0, GLAMO_RK_RW },
    { 0x2110, 0x2114, 4, A22, 0, GLAMO_RK_RW },
    { 0x2114, 0x2118, 4, 0x380007ff, 0, GLAMO_RK_RW },
    { 0x2120, 0x2124, 4, 0x0fff03ff, 0, GLAMO_RK_RW },
    { 0x2124, 0x2128, 4, 0x0000ffff, 0, GLAMO_RK_RW },
    { 0x2128, 0x212c, 4, A22, 0, GLAMO_RK_RW },
    { 0x2138, 0x213a, 2, 0x8111, 0, GLAMO_RK_RW },
    /* fog, stencil, blending, clip, scratch (L864-L930) */
    { 0x213c, 0x2140, 4, 0x0fffffff, 0, GLAMO_RK_RW },
    { 0x2140, 0x2148, 4, 0x0007ffff, 0, GLAMO_RK_RW },
    { 0x2148, 0x214c, 4, 0xff03ffff, 0, GLAMO_RK_RW },
    { 0x2150, 0x2154, 4, 0x3f00ffff, 0, GLAMO_RK_RW },
    { 0x2154, 0x2158, 4, 0xff7773ff, 0, GLAMO_RK_RW },
    { 0x2158, 0x215c, 4, A22, 0, GLAMO_RK_RW },
    { 0x215c, 0x2160, 4, 0x7f1ff1ff, 0, GLAMO_RK_RW },
    { 0x2160, 0x2164, 4, ARGB6565, 0, GLAMO_RK_RW },
    { 0x2164, 0x216c, 4, 0x03ff03ff, 0, GLAMO_RK_RW },
    { 0x216c, 0x2170, 4, 0x000001ff, 0, GLAMO_RK_RW },
    { 0x2170, 0x2180, 4, F32, 0, GLAMO_RK_RW },
    /* stereo read-back, arbiter (L932-L966) */
    { 0x2180, 0x218c, 4, F32, 0, GLAMO_RK_RW },
    { 0x218c, 0x2190, 4, 0x03ffffff, 0, GLAMO_RK_RW },
    { 0x2190, 0x2194, 4, F32, 0, GLAMO_RK_RW },
    { 0x2194, 0x2198, 4, 0x0000ffff, 0, GLAMO_RK_RW },
    { 0x2198, 0x219c, 4, 0x77777777, 0, GLAMO_RK_RW },
    /* texture 0 (L968-L1034, L3071-L3380) */
    { 0x21a0, 0x21a4, 4, 0xffffff03, 0x00030000, GLAMO_RK_RW },
    { 0x21a4, 0x21a8, 4, 0xffffffef, 0, GLAMO_RK_RW },
    { 0x21a8, 0x21ac, 4, 0xdf1ff1ff, 0, GLAMO_RK_RW },
    { 0x21ac, 0x21b8, 4, ARGB6565, 0, GLAMO_RK_RW },
    { 0x21b8, 0x21dc, 4, A22, 0, GLAMO_RK_RW },
    { 0x21dc, 0x21e8, 4, 0xfffffffe, 0, GLAMO_RK_RW },
    { 0x21e8, 0x21fc, 4, 0x0fff0fff, 0, GLAMO_RK_RW },
    { 0x21fc, 0x2200, 4, 0x00000fff, 0, GLAMO_RK_RW },
    /* texture 1 (L1036-L1133, L3381-L3668) */
    { 0x2200, 0x2204, 4, 0xffffff00, 0x00030000, GLAMO_RK_RW },
    { 0x2204, 0x2208, 4, 0xffffffef, 0, GLAMO_RK_RW },
    { 0x2208, 0x220c, 4, 0xf71ff1ff, 0, GLAMO_RK_RW },
    { 0x220c, 0x2218, 4, ARGB6565, 0, GLAMO_RK_RW },
    { 0x2218, 0x223c, 4, A22, 0, GLAMO_RK_RW },
    { 0x223c, 0x2248, 4, 0xfffffffe, 0, GLAMO_RK_RW },
    { 0x2248, 0x225c, 4, 0x0fff0fff, 0, GLAMO_RK_RW },
    { 0x225c, 0x2260, 4, 0x00000fff, 0, GLAMO_RK_RW },
    /* texture blending (L1135-L1218) */
    { 0x2330, 0x2338, 4, 0xfffcfefc, 0, GLAMO_RK_RW },
    { 0x2350, 0x2360, 8, F32, 0, GLAMO_RK_RW },
    { 0x2354, 0x2360, 8, 0x7fffffff, 0, GLAMO_RK_RW },
    { 0x2390, 0x23a0, 8, F32, 0, GLAMO_RK_RW },
    { 0x2394, 0x23a0, 8, 0x7fffffff, 0, GLAMO_RK_RW },
    /* end-of-list strobes: summary 23E0h/23E2h, long form 23E0h/23E4h */
    { 0x23e0, 0x23e2, 2, 0x0003, 0, GLAMO_RK_TRIGGER },
    { 0x23e2, 0x23e8, 2, 0xffff, 0, GLAMO_RK_TRIGGER },
    /* texture 0 palette (L1227-L1240) */
    { 0x2400, 0x2600, 2, 0xffff, 0, GLAMO_RK_RW },
    /* front end (L1242-L1381) */
    { 0x2600, 0x2604, 4, F32, 0, GLAMO_RK_RW },
    { 0x2604, 0x2608, 4, 0x07ffff7f, 0, GLAMO_RK_RW },
    { 0x2608, 0x260c, 4, 0xfc00003f, 0, GLAMO_RK_RW },
    { 0x260c, 0x2610, 4, 0xdfd9fe00, 0, GLAMO_RK_RW },
    { 0x2610, 0x2614, 4, 0x0f0f7f30, 0, GLAMO_RK_RW },
    { 0x2614, 0x2618, 4, 0x000300ff, 0, GLAMO_RK_RW },
    { 0x2618, 0x261c, 4, F24, 0, GLAMO_RK_RW },
    { 0x261c, 0x2620, 4, 0x0f003fff, 0, GLAMO_RK_RW },
    { 0x2620, 0x262c, 4, F24, 0, GLAMO_RK_RW },
    { 0x2630, 0x2654, 4, F24, 0, GLAMO_RK_RW },
    { 0x2654, 0x265c, 4, 0x07ff07ff, 0, GLAMO_RK_RW },
    { 0x265c, 0x2660, 4, 0x81111fff, 0, GLAMO_RK_RW },
    { 0x2660, 0x266c, 4, F24, 0, GLAMO_RK_RW },
    /* viewport and matrices (L1383-L1439) */
    { 0x2678, 0x2690, 4, F24, 0, GLAMO_RK_RW },
    { 0x26a0, 0x2748, 4, F24, 0, GLAMO_RK_RW },
    /* texture matrices (L1441-L1479) */
    { 0x2a00, 0x2a40, 4, F24, 0, GLAMO_RK_RW },
    { 0x2a50, 0x2a90, 4, F24, 0, GLAMO_RK_RW },
    /* material (L1480-L1556); 2B00h D[10:0] resets to 0 */
    { 0x2b00, 0x2b04, 4, 0xfffcf300, 0, GLAMO_RK_RW },
    { 0x2b04, 0x2b08, 4, 0xffff03ff, 0, GLAMO_RK_RW },
    { 0x2b08, 0x2b10, 4, F24, 0, GLAMO_RK_RW },
    { 0x2b10, 0x2b2c, 4, F32, 0, GLAMO_RK_RW },
    { 0x2b2c, 0x2b30, 4, 0x000000ff, 0, GLAMO_RK_RW },
    { 0x2b30, 0x2b4c, 4, F32, 0, GLAMO_RK_RW },
    { 0x2b4c, 0x2b50, 4, 0x000000ff, 0, GLAMO_RK_RW },
    { 0x2b50, 0x2b60, 4, F24, 0, GLAMO_RK_RW },
    { 0x2b60, 0x2b7c, 4, F32, 0, GLAMO_RK_RW },
    { 0x2b7c, 0x2b80, 4, 0x000000ff, 0, GLAMO_RK_RW },
    { 0x2b80, 0x2b9c, 4, F32, 0, GLAMO_RK_RW },
    { 0x2b9c, 0x2ba0, 4, 0x000000ff, 0, GLAMO_RK_RW },
    { 0x2ba0, 0x2bb0, 4, F24, 0, GLAMO_RK_RW },
    /* lights 0-7, Type W (L1557-L1603) */
    { 0x2c00, 0x2f00, 4, F24, 0, GLAMO_RK_WO },
};

void glamo_regfile_init(void)
{
    static gsize done;
    size_t i;

    if (!g_once_init_enter(&done)) {
        return;
    }
    for (i = 0; i < G_N_ELEMENTS(ranges); i++) {
        const Range *r = &ranges[i];
        uint32_t a;

        for (a = r->start; a < r->end; a += r->stride) {
            GlamoRegInfo *lo = &glamo_reginfo[a >> 1];
            if (r->stride == 2) {
                lo->mask = (uint16_t)r->mask;
                lo->reset = (uint16_t)r->reset;
                lo->kind = r->kind;
            } else {
                GlamoRegInfo *hi = lo + 1;
                lo->mask = (uint16_t)r->mask;
                hi->mask = (uint16_t)(r->mask >> 16);
                lo->reset = (uint16_t)r->reset;
                hi->reset = (uint16_t)(r->reset >> 16);
                lo->kind = hi->kind = r->kind;
            }
        }
    }
    g_once_init_leave(&done, 1);
}

bool glamo_is_3d(uint32_t off)
{
    return off >= GLAMO_REGOFS_3D && off < GLAMO_REGEND_3D;
}

/* the front engine's registers (parser, G/L, setup); the rest is "Render" */
bool glamo_is_front_reg(uint32_t off)
{
    return (off >= 0x1b00 && off < 0x2100) || off >= 0x2600;
}
