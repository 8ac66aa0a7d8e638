/*
 * The engines outside P3D: memory fill (PSC0/PSC1), the transfer engine
 * (PPF: display transfer in every format pair, flip, downscale, linear to
 * tiled, texture copy) and the LCD scanout (PDC0/PDC1 rotation, formats,
 * framebuffer select), with expected values computed here from the
 * documented layouts (3dbrew External Registers, 3dbrew GPU/Internal Registers
 * 0x080-0x0B7, 0x100-0x130; Citra), and their bad input.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>

#include "pica-test.h"
#include "common/g3d-core.h"
#include "common/scanout.h"

#define PA(off) (PICA200_PHYS_VRAM + (off))

static void test_psc(void)
{
    PicaTest t;
    unsigned i, errors;
    static const uint8_t p24[3] = { 0x11, 0x22, 0x33 };

    pt_init(&t, 1);
    memset(t.vram, 0x5A, 0x1000);
    pt_fill(&t, 0, PA(0x10), PA(0x50), 0xABCD1234, 0);        /* 16-bit */
    pt_fill(&t, 1, PA(0x100), PA(0x130), 0x00332211, 1);      /* 24-bit */
    g_assert_cmphex(pt_r32(&t, A_GPU_BUSY), ==,
                    R_GPU_BUSY_PSC0_MASK | R_GPU_BUSY_PSC1_MASK);
    g_assert_cmphex(pt_r32(&t, A_PSC0_CONTROL) & 3, ==, 1);  /* busy */
    g_assert_true(pt_run(&t, 10));
    for (i = 0; i < 0x200; i++) {
        uint8_t want = 0x5A;
        if (i >= 0x10 && i < 0x50) {
            want = i & 1 ? 0x12 : 0x34;
        } else if (i >= 0x100 && i < 0x130) {
            want = p24[(i - 0x100) % 3];
        }
        g_assert_cmphex(t.vram[i], ==, want);
    }
    g_assert_cmphex(pt_r32(&t, A_PSC0_CONTROL), ==, 0x002);
    g_assert_cmphex(pt_r32(&t, A_PSC1_CONTROL), ==, 0x102);
    g_assert_true(pica200_irq_level(t.core));
    pt_w32(&t, A_PSC0_CONTROL, 0);
    g_assert_true(pica200_irq_level(t.core));       /* PSC1 still finished */
    pt_w32(&t, A_PSC1_CONTROL, 0);
    g_assert_false(pica200_irq_level(t.core));
    /* writing 1 to "finished" does not set it */
    pt_w32(&t, A_PSC1_CONTROL, 2);
    g_assert_false(pica200_irq_level(t.core));

    /* 32-bit, and width 3 = 24-bit, in guest RAM */
    pt_fill(&t, 0, PICA200_PHYS_FCRAM + 0x1000, PICA200_PHYS_FCRAM + 0x1010, 0x44332211, 2);
    pt_fill(&t, 1, PICA200_PHYS_FCRAM + 0x2000, PICA200_PHYS_FCRAM + 0x2010, 0x00332211, 3);
    g_assert_true(pt_run(&t, 10));
    for (i = 0; i < 16; i++) {
        g_assert_cmphex(t.ram[0x1000 + i], ==, 0x11 * ((i & 3) + 1));
        g_assert_cmphex(t.ram[0x2000 + i], ==, p24[i % 3]);
    }
    pt_w32(&t, A_PSC0_CONTROL, 0);
    pt_w32(&t, A_PSC1_CONTROL, 0);

    /* 24- and 16-bit patterns stay in phase across the 4 KiB work chunks */
    pt_fill(&t, 0, PA(0x10000), PA(0x13010), 0x00332211, 1);
    pt_fill(&t, 1, PA(0x20000), PA(0x23010), 0xABCD1234, 0);
    g_assert_true(pt_run(&t, 10));
    for (i = 0; i < 0x3010; i++) {
        g_assert_cmphex(t.vram[0x10000 + i], ==, p24[i % 3]);
        g_assert_cmphex(t.vram[0x20000 + i], ==, i & 1 ? 0x12 : 0x34);
    }
    g_assert_cmphex(t.vram[0x13010], ==, 0);
    pt_w32(&t, A_PSC0_CONTROL, 0);
    pt_w32(&t, A_PSC1_CONTROL, 0);

    /* the whole VRAM, in bounded steps */
    pt_fill(&t, 0, PA(0), PA(PICA200_VRAM_SIZE), 0xDEADBEEF, 2);
    for (i = 0; pica200_core_work(t.core, 16); i++) {
        g_assert_cmpuint(i, <, 1000);
    }
    g_assert_cmpuint(i, >, 50);
    g_assert_cmphex(t.vram[PICA200_VRAM_SIZE - 1], ==, 0xDE);
    pt_w32(&t, A_PSC0_CONTROL, 0);

    /* bad ranges: logged, finished at once, nothing written */
    errors = g3d_log_count(G3D_LOG_GUEST_ERROR);
    memset(t.vram, 0, 64);
    pt_fill(&t, 0, PA(0x40), PA(0x20), 0xFFFFFFFF, 2);             /* end < start */
    pt_fill(&t, 1, PA(PICA200_VRAM_SIZE - 16), PA(PICA200_VRAM_SIZE + 16),
         0xFFFFFFFF, 2);                                         /* past VRAM */
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errors + 2);
    g_assert_true(pt_run(&t, 10));
    g_assert_cmphex(pt_r32(&t, A_PSC0_CONTROL) & 3, ==, 2);
    g_assert_cmphex(pt_r32(&t, A_PSC1_CONTROL) & 3, ==, 2);
    for (i = 0; i < 64; i++) {
        g_assert_cmphex(t.vram[i], ==, 0);
    }
    pt_free(&t);
}

/* ---- the transfer engine ------------------------------------------------------ */

static const int fmt_bpp[5] = { 4, 3, 2, 2, 2 };

/* n-bit channel to 8 bits by bit replication (Citra Convert5To8 etc.) */
static int rep(unsigned v, int bits)
{
    return (int)(v << (8 - bits) | v >> (2 * bits - 8));
}

/* decode a pixel of PICA_PIXFMT_* by its documented bit layout */
static void ref_decode(unsigned fmt, const uint8_t *p, int c[4])
{
    unsigned v = p[0] | p[1] << 8;

    switch (fmt) {
    case PICA_PIXFMT_RGBA8:
        c[0] = p[3]; c[1] = p[2]; c[2] = p[1]; c[3] = p[0];
        return;
    case PICA_PIXFMT_RGB8:
        c[0] = p[2]; c[1] = p[1]; c[2] = p[0]; c[3] = 255;
        return;
    case PICA_PIXFMT_RGB565:
        c[0] = rep(v >> 11, 5); c[1] = rep((v >> 5) & 63, 6);
        c[2] = rep(v & 31, 5); c[3] = 255;
        break;
    case PICA_PIXFMT_RGB5A1:
        c[0] = rep(v >> 11, 5); c[1] = rep((v >> 6) & 31, 5);
        c[2] = rep((v >> 1) & 31, 5); c[3] = (v & 1) * 255;
        break;
    default:
        c[0] = (v >> 12) * 17; c[1] = ((v >> 8) & 15) * 17;
        c[2] = ((v >> 4) & 15) * 17; c[3] = (v & 15) * 17;
        break;
    }
}

/* encode by truncation */
static void ref_encode(unsigned fmt, const int c[4], uint8_t *p)
{
    unsigned v;

    switch (fmt) {
    case PICA_PIXFMT_RGBA8:
        p[0] = c[3]; p[1] = c[2]; p[2] = c[1]; p[3] = c[0];
        return;
    case PICA_PIXFMT_RGB8:
        p[0] = c[2]; p[1] = c[1]; p[2] = c[0];
        return;
    case PICA_PIXFMT_RGB565:
        v = (c[0] >> 3) << 11 | (c[1] >> 2) << 5 | c[2] >> 3;
        break;
    case PICA_PIXFMT_RGB5A1:
        v = (c[0] >> 3) << 11 | (c[1] >> 3) << 6 | (c[2] >> 3) << 1 | c[3] >> 7;
        break;
    default:
        v = (c[0] >> 4) << 12 | (c[1] >> 4) << 8 | (c[2] >> 4) << 4 | c[3] >> 4;
        break;
    }
    p[0] = v;
    p[1] = v >> 8;
}

static void transfer(PicaTest *t, uint32_t in_pa, uint32_t out_pa,
                     uint32_t in_size, uint32_t out_size, uint32_t flags)
{
    pt_start_transfer(t, in_pa, out_pa, in_size, out_size, flags);
    g_assert_cmphex(pt_r32(t, A_GPU_BUSY), ==, R_GPU_BUSY_PPF_MASK);
    g_assert_true(pt_run(t, 1000));
    g_assert_cmphex(pt_r32(t, A_PPF_CONTROL), ==, R_PPF_CONTROL_FINISHED_MASK);
    g_assert_true(pica200_irq_level(t->core));
    pt_w32(t, A_PPF_CONTROL, 0);
    g_assert_false(pica200_irq_level(t->core));
}

#define TW 32
#define TH 16
#define IN_OFF 0x10000
#define OUT_OFF 0x40000

static void test_display_transfer_formats(void)
{
    PicaTest t;
    GRand *r = g_rand_new_with_seed(7);
    unsigned fi, fo, x, y, i;

    pt_init(&t, 1);
    for (fi = 0; fi < 5; fi++) {
        for (fo = 0; fo < 5; fo++) {
            for (i = 0; i < TW * TH * 4; i++) {
                t.vram[IN_OFF + i] = g_rand_int(r);
            }
            memset(t.vram + OUT_OFF, 0xCC, TW * TH * 4);
            transfer(&t, PA(IN_OFF), PA(OUT_OFF), TW | TH << 16, TW | TH << 16,
                     fi << 8 | fo << 12);
            for (y = 0; y < TH; y++) {
                for (x = 0; x < TW; x++) {
                    int c[4];
                    uint8_t want[4];
                    ref_decode(fi, t.vram + IN_OFF + pt_tiled_offset(x, y, TW, fmt_bpp[fi]), c);
                    ref_encode(fo, c, want);
                    g_assert_cmpmem(t.vram + OUT_OFF + (y * TW + x) * fmt_bpp[fo],
                                    fmt_bpp[fo], want, fmt_bpp[fo]);
                }
            }
        }
    }
    g_rand_free(r);
    pt_free(&t);
}

static void test_display_transfer_modes(void)
{
    PicaTest t;
    GRand *r = g_rand_new_with_seed(8);
    unsigned x, y, i, k;

    pt_init(&t, 2);
    for (i = 0; i < TW * TH * 4; i++) {
        t.vram[IN_OFF + i] = g_rand_int(r);
    }
    /* vertical flip, RGBA8 -> RGBA8 */
    transfer(&t, PA(IN_OFF), PA(OUT_OFF), TW | TH << 16, TW | TH << 16,
             R_PPF_FLAGS_FLIP_V_MASK);
    for (y = 0; y < TH; y++) {
        for (x = 0; x < TW; x++) {
            g_assert_cmpmem(t.vram + OUT_OFF + ((TH - 1 - y) * TW + x) * 4, 4,
                            t.vram + IN_OFF + pt_tiled_offset(x, y, TW, 4), 4);
        }
    }
    /* linear -> tiled -> linear is the identity */
    transfer(&t, PA(OUT_OFF), PA(0x80000), TW | TH << 16, TW | TH << 16,
             R_PPF_FLAGS_LINEAR_TO_TILED_MASK);
    transfer(&t, PA(0x80000), PA(0xA0000), TW | TH << 16, TW | TH << 16, 0);
    g_assert_cmpmem(t.vram + 0xA0000, TW * TH * 4, t.vram + OUT_OFF, TW * TH * 4);
    /* linear -> linear (b5) keeps the layout */
    transfer(&t, PA(OUT_OFF), PA(0xC0000), TW | TH << 16, TW | TH << 16,
             R_PPF_FLAGS_NO_TILING_MASK);
    g_assert_cmpmem(t.vram + 0xC0000, TW * TH * 4, t.vram + OUT_OFF, TW * TH * 4);
    /* 2x2 downscale: the mean of four, truncated; output size is pre-scale */
    transfer(&t, PA(IN_OFF), PA(OUT_OFF), TW | TH << 16, TW | TH << 16,
             2u << 24);
    for (y = 0; y < TH / 2; y++) {
        for (x = 0; x < TW / 2; x++) {
            int sum[4] = { 0 }, c[4];
            uint8_t want[4];
            for (i = 0; i < 4; i++) {
                ref_decode(0, t.vram + IN_OFF +
                           pt_tiled_offset(2 * x + (i & 1), 2 * y + (i >> 1), TW, 4), c);
                for (k = 0; k < 4; k++) {
                    sum[k] += c[k];
                }
            }
            for (k = 0; k < 4; k++) {
                sum[k] /= 4;
            }
            ref_encode(0, sum, want);
            g_assert_cmpmem(t.vram + OUT_OFF + (y * (TW / 2) + x) * 4, 4, want, 4);
        }
    }
    /* 2x1 downscale */
    transfer(&t, PA(IN_OFF), PA(OUT_OFF), TW | TH << 16, TW | TH << 16,
             1u << 24);
    for (y = 0; y < TH; y++) {
        for (x = 0; x < TW / 2; x++) {
            int a[4], b[4], m[4];
            uint8_t want[4];
            ref_decode(0, t.vram + IN_OFF + pt_tiled_offset(2 * x, y, TW, 4), a);
            ref_decode(0, t.vram + IN_OFF + pt_tiled_offset(2 * x + 1, y, TW, 4), b);
            for (k = 0; k < 4; k++) {
                m[k] = (a[k] + b[k]) / 2;
            }
            ref_encode(0, m, want);
            g_assert_cmpmem(t.vram + OUT_OFF + (y * (TW / 2) + x) * 4, 4, want, 4);
        }
    }
    g_rand_free(r);
    pt_free(&t);
}

static void test_texture_copy(void)
{
    PicaTest t;
    unsigned i;

    pt_init(&t, 1);
    for (i = 0; i < 256; i++) {
        t.vram[IN_OFF + i] = i;
    }
    memset(t.vram + OUT_OFF, 0, 256);
    /* 96 bytes: input lines of 32 with 16-byte gaps, output lines of 48
     * with 8... (units of 16: output gap 1 = 16 bytes) */
    pt_w32(&t, A_PPF_TEXCOPY_SIZE, 96 | 0x7);     /* low 4 bits ignored */
    pt_w32(&t, A_PPF_TEXCOPY_INPUT, 2 | 1 << 16);
    pt_w32(&t, A_PPF_TEXCOPY_OUTPUT, 3 | 1 << 16);
    transfer(&t, PA(IN_OFF), PA(OUT_OFF), 0, 0, R_PPF_FLAGS_TEXTURE_COPY_MASK);
    /* input bytes taken: 0-31, 48-79, 96-127 */
    for (i = 0; i < 96; i++) {
        unsigned src = (i / 32) * 48 + i % 32;
        unsigned dst = (i / 48) * 64 + i % 48;
        g_assert_cmpuint(t.vram[OUT_OFF + dst], ==, src);
    }
    g_assert_cmpuint(t.vram[OUT_OFF + 48], ==, 0);  /* the output gap */
    pt_free(&t);
}

static void test_ppf_bad(void)
{
    PicaTest t;
    unsigned errors;

    pt_init(&t, 1);
    errors = g3d_log_count(G3D_LOG_GUEST_ERROR);
    /* undefined format */
    /* refused at once (or when it leaves memory), finished */
    pt_transfer(&t, PA(IN_OFF), PA(OUT_OFF), TW | TH << 16, TW | TH << 16, 5 << 8);
    /* output larger than the input */
    pt_transfer(&t, PA(IN_OFF), PA(OUT_OFF), TW | TH << 16, TW | 32 << 16, 0);
    /* input past VRAM */
    pt_transfer(&t, PA(PICA200_VRAM_SIZE - 1024), PA(OUT_OFF), TW | TH << 16,
             TW | TH << 16, 0);
    /* tiled surface of partial tiles */
    pt_transfer(&t, PA(IN_OFF), PA(OUT_OFF), 30 | TH << 16, 30 | TH << 16, 0);
    /* texture copy with zero width */
    pt_w32(&t, A_PPF_TEXCOPY_SIZE, 64);
    pt_w32(&t, A_PPF_TEXCOPY_INPUT, 0);
    pt_transfer(&t, PA(IN_OFF), PA(OUT_OFF), 0, 0, R_PPF_FLAGS_TEXTURE_COPY_MASK);
    /* texture copy running off VRAM */
    pt_w32(&t, A_PPF_TEXCOPY_INPUT, 4);
    pt_w32(&t, A_PPF_TEXCOPY_OUTPUT, 4);
    pt_transfer(&t, PA(PICA200_VRAM_SIZE - 32), PA(OUT_OFF), 0, 0,
             R_PPF_FLAGS_TEXTURE_COPY_MASK);
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errors + 6);
    pt_free(&t);
}

/* ---- LCD scanout ------------------------------------------------------------------ */

static void test_pdc(void)
{
    PicaTest t;
    G3DScanout so;
    uint32_t *img = g_new(uint32_t, 400 * 240);
    unsigned line, i, X, Y, errors;
    const uint32_t fb = 0x200000;          /* guest RAM: FCRAM scanout */

    pt_init(&t, 1);
    /* RGBA8, stride 240 * 4 + 64 (padding between stored lines) */
    for (line = 0; line < 400; line++) {
        for (i = 0; i < 240; i++) {
            uint8_t *p = t.ram + fb + line * 1024 + i * 4;
            p[0] = 0xFF;          /* A */
            p[1] = i;             /* B */
            p[2] = line & 0xFF;   /* G */
            p[3] = line >> 8;     /* R */
        }
    }
    g_assert_false(pica200_scanout(t.core, 0, &so));     /* not enabled */
    pt_w32(&t, A_PDC0_FRAMEBUF_A1, 0);
    pt_w32(&t, A_PDC0_FRAMEBUF_A2, PICA200_PHYS_FCRAM + fb);
    pt_w32(&t, A_PDC0_FRAMEBUF_SELECT, 1);
    pt_w32(&t, A_PDC0_FRAMEBUF_FORMAT, PICA_PIXFMT_RGBA8);
    pt_w32(&t, A_PDC0_FRAMEBUF_STRIDE, 1024);
    pt_w32(&t, A_PDC0_CONTROL, 1);
    g_assert_cmpuint(t.display_calls, >, 0);
    g_assert_true(pica200_scanout(t.core, 0, &so));
    g_assert_true(g3d_scanout_copy(&so, pica200_scanout_mem(t.core), img, 400, "test"));
    /* screen column X = stored line X; row Y = pixel 239 - Y of the line */
    for (Y = 0; Y < 240; Y++) {
        for (X = 0; X < 400; X++) {
            uint32_t want = 0xFF000000u | (X >> 8) << 16 | (X & 0xFF) << 8 |
                            (239 - Y);
            g_assert_cmphex(img[Y * 400 + X], ==, want);
        }
    }
    /* RGBA4 on the bottom screen: 0xF00F = red, opaque */
    for (i = 0; i < 320 * 240; i++) {
        t.vram[2 * i] = 0x0F;
        t.vram[2 * i + 1] = 0xF0;
    }
    pt_w32(&t, A_PDC1_FRAMEBUF_A1, PICA200_PHYS_VRAM);
    pt_w32(&t, A_PDC1_FRAMEBUF_FORMAT, PICA_PIXFMT_RGBA4);
    pt_w32(&t, A_PDC1_FRAMEBUF_STRIDE, 480);
    pt_w32(&t, A_PDC1_CONTROL, 1);
    g_assert_true(pica200_scanout(t.core, 1, &so));
    g_assert_true(g3d_scanout_copy(&so, pica200_scanout_mem(t.core), img, 320, "test"));
    g_assert_cmphex(img[0], ==, 0xFFFF0000);
    g_assert_cmphex(img[320 * 240 - 1], ==, 0xFFFF0000);

    /* bad: an undefined format, a framebuffer outside memory, a short stride */
    errors = g3d_log_count(G3D_LOG_GUEST_ERROR);
    pt_w32(&t, A_PDC1_FRAMEBUF_FORMAT, 6);
    g_assert_true(pica200_scanout(t.core, 1, &so));
    g_assert_false(g3d_scanout_copy(&so, pica200_scanout_mem(t.core), img, 320, "test"));
    pt_w32(&t, A_PDC1_FRAMEBUF_FORMAT, PICA_PIXFMT_RGBA4);
    pt_w32(&t, A_PDC1_FRAMEBUF_A1, PICA200_PHYS_VRAM + PICA200_VRAM_SIZE - 4096);
    g_assert_true(pica200_scanout(t.core, 1, &so));
    g_assert_false(g3d_scanout_copy(&so, pica200_scanout_mem(t.core), img, 320, "test"));
    pt_w32(&t, A_PDC1_FRAMEBUF_A1, 0x10000000);                 /* I/O */
    g_assert_true(pica200_scanout(t.core, 1, &so));
    g_assert_false(g3d_scanout_copy(&so, pica200_scanout_mem(t.core), img, 320, "test"));
    pt_w32(&t, A_PDC1_FRAMEBUF_A1, PICA200_PHYS_VRAM);
    pt_w32(&t, A_PDC1_FRAMEBUF_STRIDE, 100);
    g_assert_true(pica200_scanout(t.core, 1, &so));
    g_assert_false(g3d_scanout_copy(&so, pica200_scanout_mem(t.core), img, 320, "test"));
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errors + 4);
    g_assert_false(pica200_scanout(t.core, 2, &so));
    /* the registers themselves read back */
    g_assert_cmphex(pt_r32(&t, A_PDC1_FRAMEBUF_STRIDE), ==, 100);
    g_free(img);
    pt_free(&t);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/pica200/engines/psc", test_psc);
    g_test_add_func("/pica200/engines/ppf-formats", test_display_transfer_formats);
    g_test_add_func("/pica200/engines/ppf-modes", test_display_transfer_modes);
    g_test_add_func("/pica200/engines/ppf-texture-copy", test_texture_copy);
    g_test_add_func("/pica200/engines/ppf-bad", test_ppf_bad);
    g_test_add_func("/pica200/engines/pdc", test_pdc);
    return g_test_run();
}
