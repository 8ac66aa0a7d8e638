/*
 * VI: video interface. Timing registers, the beam position, the four
 * display interrupts and the XFB scanout (YAGCD §5.3 VI; Dolphin
 * VideoInterface.cpp).
 *
 * Beam model: while DCR.ENB is set (and RST clear) the beam advances at the
 * sample clock (13.5 MHz, or 27 MHz with VICLK bit 0) over lines of
 * 2 * HLW samples. A frame has (3 EQU + PRB + 2 ACV + PSB) half-lines per
 * field, from VTO for the odd field and VTE for the even one, one field in
 * non-interlaced mode (NIN). DPV/DPH count from 1 (doc L376). A display
 * interrupt DIn fires when the beam passes (VCT, HCT) with ENB set; INT
 * stays set until software writes 0 to it. Any timing register write
 * restarts the frame at line 1.
 *
 * Scanout: the XFB at TFBL (POFF in TFBL selects address >> 5 for both
 * fields, as libogc and Dolphin use it), WPL * 16 pixels wide, fields STD
 * * 32 bytes apart. Interlaced with BFBL = TFBL + STD * 16 (libogc's
 * double-field XFB) shows the full 2 * ACV-line frame; otherwise the top
 * field's ACV lines (a single-field XFB is line-doubled on a TV; we show
 * it once). YCbCr -> RGB uses the BT.601 studio-range formula Dolphin
 * decodes its XFB with (R = 1.164 (Y - 16) + 1.596 (Cr - 128), ...), so the
 * scanout compares exactly with its frame dumps.
 *
 * Modes: interlaced (NIN = 0) with libogc's double-field XFB shows both
 * fields woven; interlaced with field buffers elsewhere, non-interlaced
 * ("double strike", NIN = 1: the top field at field rate, the bottom one
 * not displayed, YAGCD §5.3 DCR) and progressive (NIN = 1 with VICLK's
 * 54 MHz clock and ACV = 480, libogc's progressive modes) show the top
 * field's ACV lines, STD * 32 bytes apart.
 *
 * The horizontal scaler (HSR.HS_EN, YAGCD §5.3 HSR/HSW): each shown pixel
 * x takes source pixel (x * STP) >> 8 (STP: U1.8 source pixels per shown
 * pixel), of FBWIDTH (0x70) source pixels, libogc's __setScalingRegs
 * (STP = 0x1000 | ceil(256 * source / display), 0x70 = source width).
 * The picture is ceil(256 * FBWIDTH / STP) pixels wide. The hardware
 * filters while it steps (the FCT0-6 taps); their use is not documented,
 * so the step picks the nearest pixel to its left. The 3D mode (DLR, the
 * right picture at TFBR/BFBR) has no documented output format: logged
 * as unimplemented, the left picture shown.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "flipper-int.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define REG(c, a) ((c)->vi.regs[((a) - FLIPPER_VI_BASE) / 2])
#define REG32(c, a) ((uint32_t)REG(c, a) << 16 | REG(c, (a) + 2))

/* the doc's NTSC snapshot, for the registers the VI keeps at power-on */
static void vi_defaults(FlipperCore *c)
{
    REG(c, A_VI_FBWIDTH) = 0x0280;
    REG(c, A_VI_HSR) = 0x0100;
}

void flipper_vi_reset(FlipperCore *c)
{
    memset(&c->vi, 0, sizeof(c->vi));
    vi_defaults(c);
    c->vi.last_ns = c->now_ns;
}

static bool running(FlipperCore *c)
{
    uint16_t dcr = REG(c, A_VI_DCR);

    return (dcr & R_VI_DCR_ENB_MASK) && !(dcr & R_VI_DCR_RST_MASK) &&
           (REG32(c, A_VI_HTR0) & R_VI_HTR0_HLW_MASK);
}

static uint32_t samples_per_line(FlipperCore *c)
{
    return 2 * G3D_FIELD_EX32(REG32(c, A_VI_HTR0), VI_HTR0, HLW);
}

static uint32_t field_halflines(FlipperCore *c, uint32_t vt)
{
    uint32_t vtr = REG(c, A_VI_VTR);

    return 3 * G3D_FIELD_EX32(vtr, VI_VTR, EQU) +
           G3D_FIELD_EX32(vt, VI_VTO, PRB) +
           2 * G3D_FIELD_EX32(vtr, VI_VTR, ACV) +
           G3D_FIELD_EX32(vt, VI_VTO, PSB);
}

static uint32_t lines_per_frame(FlipperCore *c)
{
    uint32_t h = field_halflines(c, REG32(c, A_VI_VTO));

    if (!(REG(c, A_VI_DCR) & R_VI_DCR_NIN_MASK)) {
        h += field_halflines(c, REG32(c, A_VI_VTE));
    }
    return MAX(h / 2, 1);
}

static uint64_t sample_rate(FlipperCore *c)
{
    return (REG(c, A_VI_CLK) & 1) ? 27000000 : 13500000;
}

static uint64_t frame_samples(FlipperCore *c)
{
    return (uint64_t)samples_per_line(c) * lines_per_frame(c);
}

/* position of DIn in the frame, in samples */
static uint64_t di_target(FlipperCore *c, int n)
{
    uint32_t di = REG32(c, A_VI_DI0 + 4 * n);
    uint32_t vct = G3D_FIELD_EX32(di, VI_DI, VCT);
    uint32_t hct = G3D_FIELD_EX32(di, VI_DI, HCT);

    return (uint64_t)(vct ? vct - 1 : 0) * samples_per_line(c) +
           (hct ? hct - 1 : 0);
}

/* crossings of `target` (mod frame) in (from, to] */
static bool crossed(uint64_t from, uint64_t to, uint64_t target, uint64_t frame)
{
    uint64_t base;

    if (to <= from || target >= frame) {
        return false;
    }
    if (to - from >= frame) {
        return true;
    }
    base = from - from % frame;
    return (from < base + target && base + target <= to) ||
           (from < base + frame + target && base + frame + target <= to);
}


void flipper_vi_advance(FlipperCore *c, int64_t now)
{
    FlipperVI *vi = &c->vi;
    uint64_t frame, from, to, el, rate = sample_rate(c);
    int n;

    if (!running(c) || now <= vi->last_ns) {
        vi->last_ns = MAX(vi->last_ns, now);
        return;
    }
    frame = frame_samples(c);
    el = (uint64_t)(now - vi->last_ns);
    from = vi->sample;
    to = from + (el / NS_PER_S) * rate + (el % NS_PER_S) * rate / NS_PER_S;
    if (to == from) {
        return;         /* less than a sample: keep last_ns to accumulate */
    }
    if (el >= NS_PER_S) {
        vi->last_ns = now;
    } else {
        /* advance by exactly the samples taken, keeping the remainder */
        vi->last_ns += (int64_t)((to - from) * NS_PER_S / rate);
    }
    for (n = 0; n < 4; n++) {
        uint32_t a = A_VI_DI0 + 4 * n;
        if ((REG(c, a) & (R_VI_DI_ENB_MASK >> 16)) &&
            crossed(from, to, di_target(c, n), frame)) {
            REG(c, a) |= R_VI_DI_INT_MASK >> 16;
        }
    }
    vi->sample = to % frame;
}

int64_t flipper_vi_next_event(FlipperCore *c)
{
    FlipperVI *vi = &c->vi;
    uint64_t frame, best = UINT64_MAX;
    int n;

    if (!running(c)) {
        return INT64_MAX;
    }
    frame = frame_samples(c);
    for (n = 0; n < 4; n++) {
        uint32_t a = A_VI_DI0 + 4 * n;
        uint64_t t = di_target(c, n), d;
        if (!(REG(c, a) & (R_VI_DI_ENB_MASK >> 16)) ||
            (REG(c, a) & (R_VI_DI_INT_MASK >> 16)) || t >= frame) {
            continue;
        }
        d = t > vi->sample ? t - vi->sample : frame - vi->sample + t;
        best = MIN(best, d);
    }
    if (best == UINT64_MAX) {
        return INT64_MAX;
    }
    return vi->last_ns +
           (int64_t)((best * NS_PER_S + sample_rate(c) - 1) / sample_rate(c));
}

uint32_t flipper_vi_irq(FlipperCore *c)
{
    int n;

    for (n = 0; n < 4; n++) {
        uint16_t hi = REG(c, A_VI_DI0 + 4 * n);
        if ((hi & (R_VI_DI_INT_MASK >> 16)) && (hi & (R_VI_DI_ENB_MASK >> 16))) {
            return PI_INT_VI;
        }
    }
    return 0;
}

/* ---- scanout ------------------------------------------------------------- */

static inline uint32_t clamp_u8(float v)
{
    /*
     * Truncation, as the reference decoder does: int(v) clamped to 0..255.
     * Clamping first in float gives the same byte for every v (the sums
     * below are never NaN), and no out-of-range conversion.
     */
    return (uint32_t)(int)(v < 0.0f ? 0.0f : v > 255.0f ? 255.0f : v);
}

/*
 * BT.601 studio range, as Dolphin decodes its XFB: R = 1.164 y + 1.596 v,
 * G = 1.164 y - 0.392 u - 0.813 v, B = 1.164 y + 2.017 u (y = Y - 16,
 * u = Cb - 128, v = Cr - 128), each product in single precision and summed
 * left to right. The products are taken from tables, computed with the
 * same operations, so the sums are the same floats.
 */
typedef struct YuvTables {
    float y[256], rv[256], gu[256], gv[256], bu[256];
} YuvTables;

static const YuvTables *yuv_tables(void)
{
    static YuvTables t;
    static gsize done;
    int i;

    if (g_once_init_enter(&done)) {
        for (i = 0; i < 256; i++) {
            t.y[i] = 1.164f * (float)(i - 16);
            t.rv[i] = 1.596f * (float)(i - 128);
            t.gu[i] = 0.392f * (float)(i - 128);
            t.gv[i] = 0.813f * (float)(i - 128);
            t.bu[i] = 2.017f * (float)(i - 128);
        }
        g_once_init_leave(&done, 1);
    }
    return &t;
}

static inline uint32_t yuv_px(const YuvTables *t, uint8_t y8, uint8_t u8,
                              uint8_t v8)
{
    float y = t->y[y8];

    return 0xFF000000u | clamp_u8(y + t->rv[v8]) << 16 |
           clamp_u8(y - t->gu[u8] - t->gv[v8]) << 8 | clamp_u8(y + t->bu[u8]);
}

/*
 * How a line is shown, packed into the scanout's convert_opaque so that a
 * change of it is a change of the description (the display cache compares
 * it): XOF in bits 0-3, the scaler's STP in bits 8-16 (0: no scaling) and
 * its source width in bits 20-29.
 */
#define VI_ROW_XOF(o)   ((uint32_t)(o) & 0xF)
#define VI_ROW_STP(o)   (((uint32_t)(o) >> 8) & 0x1FF)
#define VI_ROW_SRCW(o)  (((uint32_t)(o) >> 20) & 0x3FF)
#define VI_ROW(xof, stp, srcw) \
    ((void *)(uintptr_t)((xof) | (uint32_t)(stp) << 8 | (uint32_t)(srcw) << 20))

static void xfb_row_pixels(const uint8_t *src, uint32_t *dst, uint32_t skip,
                           uint32_t width);

/* one XFB line (Y0 Cb Y1 Cr pairs) to ARGB, as convert_opaque says */
static void xfb_row(const G3DScanout *so, const uint8_t *src, uint32_t *dst,
                    int row)
{
    uintptr_t o = (uintptr_t)so->convert_opaque;
    uint32_t stp = VI_ROW_STP(o), srcw = VI_ROW_SRCW(o), x;
    uint32_t line[1024];

    if (!stp) {
        xfb_row_pixels(src, dst, VI_ROW_XOF(o), so->width);
        return;
    }
    xfb_row_pixels(src, line, VI_ROW_XOF(o), srcw);
    for (x = 0; x < so->width; x++) {
        dst[x] = line[(x * stp) >> 8];
    }
}

/* `width` pixels of an XFB line from pixel `skip` on */
static void xfb_row_pixels(const uint8_t *src, uint32_t *dst, uint32_t skip,
                           uint32_t width)
{
    const YuvTables *t = yuv_tables();
    uint32_t x = 0, px = skip;
    const uint8_t *pair;

    if (px & 1) {
        /* an odd first pixel: the second of its pair */
        pair = src + 4 * (px / 2);
        dst[x++] = yuv_px(t, pair[2], pair[1], pair[3]);
        px++;
    }
    /* whole pairs: both pixels share the pair's Cb and Cr */
#ifdef __SSE2__
    {
        /*
         * Lanes B, G, R, A: y + (bu, -gu, rv, 0), then + (0, -gv, 0, 0):
         * yuv_px's single-precision operations in its order (adding a
         * negation is subtracting; adding 0 changes no value that
         * truncates differently), its clamp and truncation, two pixels
         * at a time.
         */
        const __m128 lo = _mm_setzero_ps(), hi = _mm_set1_ps(255.0f);
        const __m128i opaque = _mm_set1_epi32((int)0xFF000000u);

        /*
         * Two pairs, four pixels, a vector: lane i holds pixel i's R, G or
         * B sum, each the scalar yuv_px's operations (y + rv, y - gu - gv
         * left to right, y + bu), clamped and truncated alike.
         */
        for (; x + 3 < width; x += 4, px += 4) {
            const uint8_t *p0 = src + 2 * px, *p1 = p0 + 4;
            __m128 y = _mm_setr_ps(t->y[p0[0]], t->y[p0[2]], t->y[p1[0]],
                                   t->y[p1[2]]);
            __m128 r = _mm_add_ps(y, _mm_setr_ps(t->rv[p0[3]], t->rv[p0[3]],
                                                 t->rv[p1[3]], t->rv[p1[3]]));
            __m128 g = _mm_sub_ps(_mm_sub_ps(y, _mm_setr_ps(t->gu[p0[1]],
                                                            t->gu[p0[1]],
                                                            t->gu[p1[1]],
                                                            t->gu[p1[1]])),
                                  _mm_setr_ps(t->gv[p0[3]], t->gv[p0[3]],
                                              t->gv[p1[3]], t->gv[p1[3]]));
            __m128 b = _mm_add_ps(y, _mm_setr_ps(t->bu[p0[1]], t->bu[p0[1]],
                                                 t->bu[p1[1]], t->bu[p1[1]]));
            __m128i ri = _mm_cvttps_epi32(_mm_min_ps(_mm_max_ps(r, lo), hi));
            __m128i gi = _mm_cvttps_epi32(_mm_min_ps(_mm_max_ps(g, lo), hi));
            __m128i bi = _mm_cvttps_epi32(_mm_min_ps(_mm_max_ps(b, lo), hi));

            _mm_storeu_si128((__m128i *)&dst[x], _mm_or_si128(
                _mm_or_si128(_mm_slli_epi32(ri, 16), _mm_slli_epi32(gi, 8)),
                _mm_or_si128(bi, opaque)));
        }
        for (; x + 1 < width; x += 2, px += 2) {
            __m128 c1, c2, a, b;
            __m128i i16;

            pair = src + 2 * px;
            c1 = _mm_set_ps(0.0f, t->rv[pair[3]], -t->gu[pair[1]],
                            t->bu[pair[1]]);
            c2 = _mm_set_ps(0.0f, 0.0f, -t->gv[pair[3]], 0.0f);
            a = _mm_add_ps(_mm_add_ps(_mm_set1_ps(t->y[pair[0]]), c1), c2);
            b = _mm_add_ps(_mm_add_ps(_mm_set1_ps(t->y[pair[2]]), c1), c2);
            a = _mm_min_ps(_mm_max_ps(a, lo), hi);
            b = _mm_min_ps(_mm_max_ps(b, lo), hi);
            i16 = _mm_packs_epi32(_mm_cvttps_epi32(a), _mm_cvttps_epi32(b));
            _mm_storel_epi64((__m128i *)&dst[x],
                             _mm_or_si128(_mm_packus_epi16(i16, i16), opaque));
        }
    }
#endif
    for (; x + 1 < width; x += 2, px += 2) {
        pair = src + 2 * px;
        dst[x] = yuv_px(t, pair[0], pair[1], pair[3]);
        dst[x + 1] = yuv_px(t, pair[2], pair[1], pair[3]);
    }
    if (x < width) {
        pair = src + 2 * px;
        dst[x] = yuv_px(t, pair[0], pair[1], pair[3]);
    }
}

void flipper_xfb_to_argb(const uint8_t *src, uint32_t *dst, int width)
{
    xfb_row_pixels(src, dst, 0, (uint32_t)width);
}

static uint32_t xfb_addr(FlipperCore *c, uint32_t reg)
{
    uint32_t v = REG32(c, reg);

    if (REG32(c, A_VI_TFBL) & R_VI_TFBL_POFF_MASK) {
        return (v & 0xFFFFFF) << 5;
    }
    return v & 0xFFFFFF;
}

/* the horizontal scaler: FBWIDTH source pixels (from XOF) stepped by STP */
static void vi_scaler(FlipperCore *c, G3DScanout *out, uint32_t xof)
{
    uint32_t stp = G3D_FIELD_EX32(REG(c, A_VI_HSR), VI_HSR, STP);
    uint32_t srcw = REG(c, A_VI_FBWIDTH) & 0x3FF;
    uint32_t width;
    /* each display refresh asks again: log once per register change */
    bool log = !c->vi.scaler_logged;

    if (stp == 0 || srcw == 0 || srcw > out->width) {
        if (log) {
            g3d_guest_error("flipper: VI: horizontal scaler step 0x%x, source "
                            "width %u (line %u pixels): not scaling", stp, srcw,
                            out->width);
        }
        c->vi.scaler_logged = true;
        return;
    }
    width = (srcw * 256 + stp - 1) / stp;
    if (width > 1024) {
        if (log) {
            g3d_guest_error("flipper: VI: scaled line of %u pixels clamped to "
                            "1024", width);
        }
        c->vi.scaler_logged = true;
        width = 1024;
    }
    out->width = width;
    out->convert_opaque = VI_ROW(xof, stp, srcw);
}

/*
 * The scanout's rows in bands on the render threads: the display refresh
 * runs while the command processor waits (the glue holds its lock), so
 * the threads are free unless it is parked in the middle of a job
 */
static bool vi_run(void *opaque, void (*job)(void *arg, int thread),
                   void *arg)
{
    FlipperCore *c = opaque;

    return g3d_raster_try_run_shared(c->raster, job, arg);
}

bool flipper_vi_scanout(FlipperCore *c, G3DScanout *out)
{
    uint16_t dcr = REG(c, A_VI_DCR), hsw = REG(c, A_VI_HSW);
    uint32_t wpl = G3D_FIELD_EX32(hsw, VI_HSW, WPL);
    uint32_t std = G3D_FIELD_EX32(hsw, VI_HSW, STD);
    uint32_t acv = G3D_FIELD_EX32(REG(c, A_VI_VTR), VI_VTR, ACV);
    uint32_t xof = G3D_FIELD_EX32(REG32(c, A_VI_TFBL), VI_TFBL, XOF);
    uint32_t top = xfb_addr(c, A_VI_TFBL), bottom = xfb_addr(c, A_VI_BFBL);
    uint32_t field_pitch = std * 32, line_bytes = wpl * 32;
    uint64_t span;

    if (!(dcr & R_VI_DCR_ENB_MASK) || (dcr & R_VI_DCR_RST_MASK)) {
        return false;
    }
    if (wpl == 0 || acv == 0 || std == 0 || xof >= wpl * 16) {
        g3d_guest_error("flipper: VI: scanout %u words/line, stride %u, %u "
                        "lines, offset %u: nothing to show", wpl, std, acv, xof);
        return false;
    }
    out->enabled = true;
    out->addr = top;
    out->width = wpl * 16 - xof;
    out->bytes_per_line = line_bytes;
    out->convert = xfb_row;
    out->convert_opaque = VI_ROW(xof, 0, 0);
    out->run = vi_run;
    out->run_opaque = c;
    if (REG(c, A_VI_HSR) & R_VI_HSR_HS_EN_MASK) {
        vi_scaler(c, out, xof);
    }
    if (!(dcr & R_VI_DCR_NIN_MASK) && bottom == top + field_pitch / 2 &&
        field_pitch / 2 >= line_bytes) {
        out->height = 2 * acv;
        out->pitch = field_pitch / 2;
    } else {
        out->height = acv;
        out->pitch = field_pitch;
    }
    if (out->pitch < line_bytes) {
        g3d_guest_error("flipper: VI: XFB stride %u below the %u bytes of a "
                        "line", out->pitch, line_bytes);
        return false;
    }
    span = (uint64_t)out->pitch * (out->height - 1) + line_bytes;
    if (!flipper_mem1_ok(c, top, span)) {
        g3d_guest_error("flipper: VI: XFB 0x%08x + 0x%" G_GINT64_MODIFIER
                        "x bytes outside MEM1", top, span);
        return false;
    }
    return true;
}

/* ---- MMIO ---------------------------------------------------------------- */

static uint16_t vi_read16(FlipperCore *c, uint32_t off)
{
    uint32_t spl;

    switch (off + FLIPPER_VI_BASE) {
    case A_VI_DPV:
    case A_VI_DPH:
        spl = samples_per_line(c);
        if (!spl) {
            return 0;
        }
        return off + FLIPPER_VI_BASE == A_VI_DPV ? c->vi.sample / spl + 1
                                                 : c->vi.sample % spl + 1;
    default:
        return c->vi.regs[off / 2];
    }
}

static void vi_write16(FlipperCore *c, uint32_t off, uint16_t val)
{
    uint32_t a = off + FLIPPER_VI_BASE;

    switch (a) {
    case A_VI_DI0: case A_VI_DI1: case A_VI_DI2: case A_VI_DI3:
        /* INT (bit 31) is cleared by writing 0, never set by a write */
        val = (val & ~(R_VI_DI_INT_MASK >> 16)) |
              (c->vi.regs[off / 2] & val & (R_VI_DI_INT_MASK >> 16));
        c->vi.regs[off / 2] = val;
        return;
    default:
        c->vi.regs[off / 2] = val;
        break;
    }
    if (a < A_VI_TFBL || a == A_VI_CLK) {
        /* timing changed: restart the frame */
        c->vi.sample = 0;
        c->vi.last_ns = c->now_ns;
    }
    if (a == A_VI_DCR && (val & R_VI_DCR_DLR_MASK)) {
        g3d_unimp("flipper: VI: 3D display mode not modelled, the left "
                  "picture shown");
    }
    if (a == A_VI_HSW || a == A_VI_HSR || a == A_VI_FBWIDTH) {
        c->vi.scaler_logged = false;
    }
    if (c->cfg.hooks.display_update &&
        (a <= A_VI_BFBR + 2 || a == A_VI_HSW || a == A_VI_HSR ||
         a == A_VI_FBWIDTH)) {
        c->cfg.hooks.display_update(c->cfg.hooks.opaque);
    }
}

static const FlipperRegRow vi_regs[] = {
    FLIPPER_REG_ROW(VI_VTR, 2, FLIPPER_REG_RW),
    FLIPPER_REG_ROW(VI_DCR, 2, FLIPPER_REG_RW),
    FLIPPER_REG_RANGE(VI_HTR0, VI_BFBR, 4, FLIPPER_REG_RW),
    FLIPPER_REG_ROW(VI_DPV, 2, FLIPPER_REG_RO),     /* the beam position */
    FLIPPER_REG_ROW(VI_DPH, 2, FLIPPER_REG_RO),
    FLIPPER_REG_RANGE(VI_DI0, VI_DL1, 4, FLIPPER_REG_RW),
    FLIPPER_REG_ROW(VI_HSW, 2, FLIPPER_REG_RW),
    FLIPPER_REG_ROW(VI_HSR, 2, FLIPPER_REG_RW),
    FLIPPER_REG_RANGE(VI_FCT0, VI_AA, 4, FLIPPER_REG_RW),
    FLIPPER_REG_RANGE(VI_CLK, VI_HBS, 2, FLIPPER_REG_RW),
};

const FlipperBlock flipper_vi_block = {
    .name = "VI", .base = FLIPPER_VI_BASE, .span = VI_REG_SPAN,
    FLIPPER_BLOCK_REGS(vi_regs),
    .intsr = flipper_vi_irq,
    .read16 = vi_read16, .write16 = vi_write16,
};
