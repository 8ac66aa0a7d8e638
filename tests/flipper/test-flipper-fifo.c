/*
 * flipper-gx: the GX FIFO (PI write-gather pipe, CP pointers, distance,
 * watermarks, breakpoint, link), the PE token and draw-done interrupts, a
 * whole frame from gather-pipe writes to the VI scanout with its
 * interrupts, and the command processor's work budget counted by cost. Expected values come from the reference and libogc/Dolphin
 * (§2.1, §2.2, §2.3, §5, §8), not from the code.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "flipper/flipper-int.h"
#include "gx-build.h"
#include "rig.h"

#define BASE 0x00100000u
#define SIZE 0x1000u            /* a 4 KiB ring: 128 blocks */

static void wgp_bytes(FlipperRig *r, unsigned n)
{
    unsigned i;

    for (i = 0; i < n; i += 4) {
        flipper_reg_write(r->core, FLIPPER_WGP_BASE, 0, 4);   /* NOPs */
    }
}

static uint32_t intsr(FlipperRig *r)
{
    return rig_r32(r, A_PI_INTSR);
}

static void test_pointers_and_watermarks(void)
{
    FlipperRig *r = rig_new(1);
    uint32_t sr;

    rig_fifo_init(r, BASE, SIZE);
    rig_set_cp32(r, A_CP_FIFO_HIWM_LO, 2048);
    rig_set_cp32(r, A_CP_FIFO_LOWM_LO, 512);
    /* linked, not reading: the distance grows with every burst */
    rig_w16(r, A_CP_CR, R_CP_CR_GP_LINK_ENABLE_MASK);
    rig_w32(r, A_PI_INTMR, PI_INT_CP);

    wgp_bytes(r, 124);                          /* 3 bursts and a bit */
    g_assert_cmphex(rig_r32(r, A_PI_FIFO_WPTR), ==, BASE + 96);
    g_assert_cmphex(rig_cp32(r, A_CP_FIFO_WPTR_LO), ==, BASE + 96);
    g_assert_cmpuint(rig_cp32(r, A_CP_FIFO_DIST_LO), ==, 96);
    g_assert_cmphex(rig_cp32(r, A_CP_FIFO_RPTR_LO), ==, BASE);
    wgp_bytes(r, 4);                            /* completes burst 4 */
    g_assert_cmpuint(rig_cp32(r, A_CP_FIFO_DIST_LO), ==, 128);
    /* below the low watermark: underflow level, no interrupt (disabled) */
    sr = rig_r16(r, A_CP_SR);
    g_assert_true(sr & R_CP_SR_UNDERFLOW_MASK);
    g_assert_false(sr & R_CP_SR_OVERFLOW_MASK);
    g_assert_false(intsr(r) & PI_INT_CP);

    /* fill the ring: the write pointer wraps at END to BASE */
    wgp_bytes(r, SIZE - 128);
    g_assert_cmphex(rig_r32(r, A_PI_FIFO_WPTR), ==,
                    BASE | R_PI_FIFO_WPTR_WRAP_MASK);
    g_assert_cmphex(rig_cp32(r, A_CP_FIFO_WPTR_LO), ==, BASE);
    g_assert_cmpuint(rig_cp32(r, A_CP_FIFO_DIST_LO), ==, SIZE);
    sr = rig_r16(r, A_CP_SR);
    g_assert_true(sr & R_CP_SR_OVERFLOW_MASK);
    g_assert_false(sr & R_CP_SR_UNDERFLOW_MASK);
    /* overflow interrupt: CR bit 2 -> PI INTSR bit 11 -> the line */
    g_assert_false(flipper_irq_level(r->core));
    rig_w16(r, A_CP_CR, R_CP_CR_GP_LINK_ENABLE_MASK |
                        R_CP_CR_OVF_INT_ENABLE_MASK);
    g_assert_true(intsr(r) & PI_INT_CP);
    g_assert_true(flipper_irq_level(r->core));
    /* masked in INTMR: cause stays, line drops */
    rig_w32(r, A_PI_INTMR, 0);
    g_assert_true(intsr(r) & PI_INT_CP);
    g_assert_false(flipper_irq_level(r->core));
    rig_w32(r, A_PI_INTMR, PI_INT_CP);

    /* the GP reads: the distance drains to 0, the read pointer follows */
    rig_w16(r, A_CP_CR, R_CP_CR_GP_LINK_ENABLE_MASK |
                        R_CP_CR_GP_READ_ENABLE_MASK |
                        R_CP_CR_OVF_INT_ENABLE_MASK);
    rig_run(r);
    g_assert_cmpuint(rig_cp32(r, A_CP_FIFO_DIST_LO), ==, 0);
    g_assert_cmphex(rig_cp32(r, A_CP_FIFO_RPTR_LO), ==, BASE);
    sr = rig_r16(r, A_CP_SR);
    g_assert_false(sr & R_CP_SR_OVERFLOW_MASK);
    g_assert_true(sr & R_CP_SR_UNDERFLOW_MASK);
    g_assert_true(sr & R_CP_SR_READ_IDLE_MASK);
    g_assert_true(sr & R_CP_SR_CMD_IDLE_MASK);
    g_assert_false(flipper_irq_level(r->core));
    /* underflow interrupt, as libogc enables it to resume the CPU */
    rig_w16(r, A_CP_CR, R_CP_CR_GP_LINK_ENABLE_MASK |
                        R_CP_CR_GP_READ_ENABLE_MASK |
                        R_CP_CR_UNF_INT_ENABLE_MASK);
    g_assert_true(flipper_irq_level(r->core));
    rig_w16(r, A_CP_CR, R_CP_CR_GP_LINK_ENABLE_MASK |
                        R_CP_CR_GP_READ_ENABLE_MASK);
    g_assert_false(flipper_irq_level(r->core));
    g_assert_cmpuint(intsr(r) & PI_INT_CP, ==, 0);

    /*
     * the CPU's bursts alone raise the overflow interrupt as the distance
     * passes the high watermark (libogc's overflow handler stalls the CPU
     * on it), and the underflow one as they lift it over the low one
     */
    rig_w16(r, A_CP_CR, R_CP_CR_GP_LINK_ENABLE_MASK |
                        R_CP_CR_OVF_INT_ENABLE_MASK);
    wgp_bytes(r, 2048);
    g_assert_cmpuint(rig_cp32(r, A_CP_FIFO_DIST_LO), ==, 2048);
    g_assert_false(flipper_irq_level(r->core));
    wgp_bytes(r, 32);
    g_assert_true(flipper_irq_level(r->core));
    rig_w16(r, A_CP_CR, R_CP_CR_GP_LINK_ENABLE_MASK |
                        R_CP_CR_GP_READ_ENABLE_MASK);
    rig_run(r);
    rig_w16(r, A_CP_CR, R_CP_CR_GP_LINK_ENABLE_MASK |
                        R_CP_CR_UNF_INT_ENABLE_MASK);
    g_assert_true(flipper_irq_level(r->core));
    wgp_bytes(r, 512);
    g_assert_false(flipper_irq_level(r->core));
    rig_free(r);
}

static void test_breakpoint(void)
{
    FlipperRig *r = rig_new(1);
    uint32_t cr = R_CP_CR_GP_LINK_ENABLE_MASK | R_CP_CR_GP_READ_ENABLE_MASK;

    rig_fifo_init(r, BASE, SIZE);
    rig_w32(r, A_PI_INTMR, PI_INT_CP);
    rig_set_cp32(r, A_CP_FIFO_BP_LO, BASE + 64);
    rig_w16(r, A_CP_CR, cr | R_CP_CR_BP_ENABLE_MASK |
                        R_CP_CR_BP_INT_ENABLE_MASK);
    wgp_bytes(r, 128);
    rig_run(r);
    /* the GP stops with the read pointer at the breakpoint */
    g_assert_cmphex(rig_cp32(r, A_CP_FIFO_RPTR_LO), ==, BASE + 64);
    g_assert_cmpuint(rig_cp32(r, A_CP_FIFO_DIST_LO), ==, 64);
    g_assert_true(rig_r16(r, A_CP_SR) & R_CP_SR_BREAKPOINT_MASK);
    g_assert_true(flipper_irq_level(r->core));
    /* libogc's handler clears CR bit 5: status and line drop, still stopped */
    rig_w16(r, A_CP_CR, cr | R_CP_CR_BP_ENABLE_MASK);
    g_assert_false(rig_r16(r, A_CP_SR) & R_CP_SR_BREAKPOINT_MASK);
    g_assert_false(flipper_irq_level(r->core));
    rig_run(r);
    g_assert_cmpuint(rig_cp32(r, A_CP_FIFO_DIST_LO), ==, 64);
    /* disabling the breakpoint lets the GP go on */
    rig_w16(r, A_CP_CR, cr);
    rig_run(r);
    g_assert_cmpuint(rig_cp32(r, A_CP_FIFO_DIST_LO), ==, 0);
    g_assert_cmphex(rig_cp32(r, A_CP_FIFO_RPTR_LO), ==, BASE + 128);
    rig_free(r);
}

/* the unlinked FIFO: the CPU moves the write pointer and distance itself */
static void test_unlinked(void)
{
    FlipperRig *r = rig_new(1);
    GByteArray *b = g_byte_array_new();

    rig_fifo_init(r, BASE, SIZE);
    rig_w16(r, A_CP_CR, R_CP_CR_GP_READ_ENABLE_MASK);   /* no link */
    gx_bp(b, BP_PE_TOKEN, 0xBEEF);
    gx_pad32(b);
    memcpy(r->mem1 + BASE, b->data, b->len);
    /* the gather pipe writes elsewhere; unlinked, the CP does not see it */
    rig_w32(r, A_PI_FIFO_WPTR, BASE + 0x800);
    wgp_bytes(r, 32);
    g_assert_cmphex(rig_r32(r, A_PI_FIFO_WPTR), ==, BASE + 0x820);
    rig_run(r);
    g_assert_cmpuint(rig_r16(r, A_PE_TOKEN), ==, 0);
    g_assert_cmpuint(rig_cp32(r, A_CP_FIFO_DIST_LO), ==, 0);
    rig_set_cp32(r, A_CP_FIFO_WPTR_LO, BASE + 32);
    rig_set_cp32(r, A_CP_FIFO_DIST_LO, 32);
    rig_run(r);
    g_assert_cmphex(rig_r16(r, A_PE_TOKEN), ==, 0xBEEF);
    g_assert_cmphex(rig_cp32(r, A_CP_FIFO_RPTR_LO), ==, BASE + 32);
    g_byte_array_unref(b);
    rig_free(r);
}

static void test_token_and_draw_done(void)
{
    FlipperRig *r = rig_new(1);
    GByteArray *b = g_byte_array_new();

    rig_fifo_init(r, RIG_FIFO_BASE, RIG_FIFO_SIZE);
    rig_w32(r, A_PI_INTMR, PI_INT_PE_TOKEN | PI_INT_PE_FINISH);
    rig_w16(r, A_PE_ISR, 0x000F);               /* enable both, ack stale */

    gx_bp(b, BP_SETDRAWDONE, 0x000002);
    rig_submit(r, b->data, b->len);
    g_assert_true(rig_r16(r, A_PE_ISR) & R_PE_ISR_FINISH_MASK);
    g_assert_true(intsr(r) & PI_INT_PE_FINISH);
    g_assert_true(flipper_irq_level(r->core));
    rig_w16(r, A_PE_ISR, 0x0003 | R_PE_ISR_FINISH_MASK);   /* ack */
    g_assert_false(rig_r16(r, A_PE_ISR) & R_PE_ISR_FINISH_MASK);
    g_assert_false(flipper_irq_level(r->core));

    /* token with interrupt (0x48), then token only (0x47) — libogc order */
    g_byte_array_set_size(b, 0);
    gx_bp(b, BP_PE_TOKEN_INT, 0x1234);
    rig_submit(r, b->data, b->len);
    g_assert_cmphex(rig_r16(r, A_PE_TOKEN), ==, 0x1234);
    g_assert_cmphex(rig_r16(r, A_CP_TOKEN), ==, 0x1234);
    g_assert_true(rig_r16(r, A_PE_ISR) & R_PE_ISR_TOKEN_MASK);
    g_assert_true(intsr(r) & PI_INT_PE_TOKEN);
    g_assert_false(intsr(r) & PI_INT_PE_FINISH);
    rig_w16(r, A_PE_ISR, 0x0003 | R_PE_ISR_TOKEN_MASK);
    g_assert_false(flipper_irq_level(r->core));
    g_byte_array_set_size(b, 0);
    gx_bp(b, BP_PE_TOKEN, 0x5678);
    rig_submit(r, b->data, b->len);
    g_assert_cmphex(rig_r16(r, A_PE_TOKEN), ==, 0x5678);
    g_assert_false(rig_r16(r, A_PE_ISR) & R_PE_ISR_TOKEN_MASK);
    g_assert_false(flipper_irq_level(r->core));

    /* with the enable off the status is latched but not signalled */
    rig_w16(r, A_PE_ISR, R_PE_ISR_FINISH_ENABLE_MASK);
    g_byte_array_set_size(b, 0);
    gx_bp(b, BP_PE_TOKEN_INT, 0x0042);
    rig_submit(r, b->data, b->len);
    g_assert_true(rig_r16(r, A_PE_ISR) & R_PE_ISR_TOKEN_MASK);
    g_assert_false(intsr(r) & PI_INT_PE_TOKEN);
    rig_w16(r, A_PE_ISR, 0x0003);
    g_assert_true(flipper_irq_level(r->core));  /* enabled: pending fires */

    /* a draw-done value other than 0x02 does nothing (logged) */
    rig_w16(r, A_PE_ISR, 0x0003 | R_PE_ISR_TOKEN_MASK);
    {
        unsigned errs = g3d_log_count(G3D_LOG_GUEST_ERROR);
        g_byte_array_set_size(b, 0);
        gx_bp(b, BP_SETDRAWDONE, 0x000001);
        rig_submit(r, b->data, b->len);
        g_assert_false(rig_r16(r, A_PE_ISR) & R_PE_ISR_FINISH_MASK);
        g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), >, errs);
    }
    g_byte_array_unref(b);
    rig_free(r);
}

/* BT.601 studio range, in floating point (independent of the encoder) */
static void bt601(const uint8_t rgb[3], double ycc[3])
{
    double r = rgb[0], g = rgb[1], b = rgb[2];

    ycc[0] = 16 + (65.738 * r + 129.057 * g + 25.064 * b) / 256;
    ycc[1] = 128 + (-37.945 * r - 74.494 * g + 112.439 * b) / 256;
    ycc[2] = 128 + (112.439 * r - 94.154 * g - 18.285 * b) / 256;
}

/*
 * A whole frame the way a program makes one (libogc GX_Init, VIDEO_Init): FIFO
 * and VI set up through registers, clear, a flat quad, the EFB -> XFB copy,
 * draw done and a token, all through the gather pipe; then the display
 * interrupts as the beam moves, and the scanout.
 */
static void test_full_frame(void)
{
    static const uint8_t bg[3] = { 16, 32, 48 }, fg[3] = { 200, 100, 50 };
    FlipperScene *s = flipper_scene_build("gouraud");   /* the setup only */
    FlipperRig *r = rig_new(2);
    GByteArray *b = g_byte_array_new();
    G3DImage img;
    const uint8_t *xfb;
    double ycc[3];
    int k;
    uint32_t dpv;

    rig_fifo_init(r, RIG_FIFO_BASE, RIG_FIFO_SIZE);
    rig_vi_init(r, SCENE_XFB_ADDR);
    rig_w32(r, A_PI_INTMR, PI_INT_PE_TOKEN | PI_INT_PE_FINISH | PI_INT_VI);
    rig_w16(r, A_PE_ISR, 0x000F);
    g_assert_false(flipper_irq_level(r->core));

    /* state as in the gouraud scene, up to its draw */
    {
        GByteArray *pro = flipper_scene_prologue(s);
        g_byte_array_append(b, pro->data, pro->len);
        g_byte_array_unref(pro);
    }
    /* frame state and clear (gpu3d/flipper-cmd.h), background bg */
    gx_begin_frame(b, (uint32_t)bg[0] << 24 | bg[1] << 16 | bg[2] << 8 | 0xFF);
    /* a flat quad over the middle */
    gx_draw(b, GX_DRAW_QUADS, 0, 4);
    for (k = 0; k < 4; k++) {
        static const float q[4][2] = { { -0.5f, 0.5f }, { 0.5f, 0.5f },
                                       { 0.5f, -0.5f }, { -0.5f, -0.5f } };
        scene_vtx(b, q[k][0], q[k][1], -0.5f,
                  (uint32_t)fg[0] << 24 | fg[1] << 16 | fg[2] << 8 | 0xFF);
    }
    /* the EFB is what was drawn before the copy */
    gx_copy_to_xfb(b, SCENE_XFB_ADDR);
    gx_bp(b, BP_SETDRAWDONE, 0x000002);
    gx_bp(b, BP_PE_TOKEN_INT, 0x00AB);
    gx_bp(b, BP_PE_TOKEN, 0x00AB);
    rig_submit(r, b->data, b->len);

    g_assert_true(rig_r32(r, A_PI_INTSR) & PI_INT_PE_FINISH);
    g_assert_true(rig_r32(r, A_PI_INTSR) & PI_INT_PE_TOKEN);
    g_assert_cmphex(rig_r16(r, A_PE_TOKEN), ==, 0xAB);
    rig_w16(r, A_PE_ISR, 0x000F);
    g_assert_false(flipper_irq_level(r->core));

    /* the copy cleared the EFB after copying: background everywhere */
    g_assert_cmphex(flipper_efb_color(r->core, 320, 240), ==,
                    (uint32_t)bg[0] << 24 | bg[1] << 16 | bg[2] << 8 | 0xFF);

    /* the XFB: a quad pixel in BT.601 within 1 code (8-bit rounding) */
    xfb = r->mem1 + SCENE_XFB_ADDR + 240 * 1280 + 320 * 2;
    bt601(fg, ycc);
    g_assert_cmpfloat(fabs(xfb[0] - ycc[0]), <=, 1.0);
    g_assert_cmpfloat(fabs(xfb[1] - ycc[1]), <=, 1.0);
    g_assert_cmpfloat(fabs(xfb[3] - ycc[2]), <=, 1.0);

    /* the scanout: flat colours come back within 2 of what was drawn */
    g_assert_true(rig_scanout(r, &img));
    g_assert_cmpint(img.width, ==, 640);
    g_assert_cmpint(img.height, ==, 480);
    for (k = 0; k < 3; k++) {
        g_assert_cmpint(abs(img.rgb[(240 * 640 + 320) * 3 + k] - fg[k]), <=, 2);
        g_assert_cmpint(abs(img.rgb[(10 * 640 + 10) * 3 + k] - bg[k]), <=, 2);
    }
    /*
     * Edges of the quad, x = 160..479 and y = 120..359: chroma is shared by
     * pixel pairs and filtered 1-2-1, so check the edges on luma (Y bytes).
     */
    {
        double yf[3], yb[3];
        const uint8_t *line = r->mem1 + SCENE_XFB_ADDR;
        bt601(fg, yf);
        bt601(bg, yb);
        g_assert_cmpfloat(fabs(line[200 * 1280 + 2 * 160] - yf[0]), <=, 1.0);
        g_assert_cmpfloat(fabs(line[200 * 1280 + 2 * 159] - yb[0]), <=, 1.0);
        g_assert_cmpfloat(fabs(line[200 * 1280 + 2 * 479] - yf[0]), <=, 1.0);
        g_assert_cmpfloat(fabs(line[200 * 1280 + 2 * 480] - yb[0]), <=, 1.0);
        g_assert_cmpfloat(fabs(line[120 * 1280 + 2 * 300] - yf[0]), <=, 1.0);
        g_assert_cmpfloat(fabs(line[119 * 1280 + 2 * 300] - yb[0]), <=, 1.0);
        g_assert_cmpfloat(fabs(line[359 * 1280 + 2 * 300] - yf[0]), <=, 1.0);
        g_assert_cmpfloat(fabs(line[360 * 1280 + 2 * 300] - yb[0]), <=, 1.0);
    }
    g3d_image_free(&img);

    /*
     * VI: NTSC, 858 samples per line at 13.5 MHz, 525 lines. DI0 fires at
     * line 263, sample 430 (pre-retrace); DI1 at line 1 (post-retrace).
     */
    dpv = rig_r16(r, A_VI_DPV);
    g_assert_cmpuint(dpv, ==, 1);
    r->clock_ns += (int64_t)(262 * 858 + 428) * 1000000000 / 13500000;
    g_assert_false(flipper_irq_level(r->core));
    g_assert_cmpuint(rig_r16(r, A_VI_DPV), ==, 263);
    r->clock_ns += 1000;                        /* passes sample 430 */
    g_assert_true(flipper_irq_level(r->core));
    g_assert_true(rig_r32(r, A_VI_DI0) & R_VI_DI_INT_MASK);
    g_assert_false(rig_r32(r, A_VI_DI1) & R_VI_DI_INT_MASK);
    g_assert_true(rig_r32(r, A_PI_INTSR) & PI_INT_VI);
    /* writing INT = 1 keeps it; writing 0 clears it (libogc's way) */
    rig_w16(r, A_VI_DI0, rig_r16(r, A_VI_DI0));
    g_assert_true(flipper_irq_level(r->core));
    rig_w16(r, A_VI_DI0, rig_r16(r, A_VI_DI0) & 0x7FFF);
    g_assert_false(flipper_irq_level(r->core));
    /* the next event the glue would arm a timer for: line 1 of frame 2 */
    {
        int64_t next = flipper_next_event_ns(r->core);
        int64_t frame_ns = (int64_t)858 * 525 * 1000000000 / 13500000;
        g_assert_cmpint(next, >, r->clock_ns);
        g_assert_cmpint(next, <=, frame_ns + 1000);
        r->clock_ns = next;
    }
    g_assert_true(rig_r32(r, A_VI_DI1) & R_VI_DI_INT_MASK);
    g_assert_true(flipper_irq_level(r->core));
    g_assert_cmpuint(rig_r16(r, A_VI_DPV), ==, 1);

    g_byte_array_unref(b);
    flipper_scene_free(s);
    rig_free(r);
}

/* n triangles of a list: large (two thirds of the screen) or small */
static GByteArray *triangles(int n, bool large)
{
    GByteArray *b = g_byte_array_new();
    float s = large ? 0.9f : 0.02f;
    int i;

    gx_begin_frame(b, 0x102030FF);
    gx_cp(b, CPR_VCD_LO, VCD_DIRECT << 9 | VCD_DIRECT << 13);
    gx_draw(b, GX_DRAW_TRIANGLES, 0, (uint16_t)(3 * n));
    for (i = 0; i < n; i++) {
        float x = large ? 0.0f : -0.9f + 0.05f * (float)(i % 36);
        float y = large ? 0.0f : -0.9f + 0.05f * (float)(i / 36);

        gx_f32(b, x - s);
        gx_f32(b, y - s);
        gx_f32(b, -0.5f);
        gx_u32(b, 0xFF0000FF);
        gx_f32(b, x + s);
        gx_f32(b, y - s);
        gx_f32(b, -0.5f);
        gx_u32(b, 0x00FF00FF);
        gx_f32(b, x);
        gx_f32(b, y + s);
        gx_f32(b, -0.5f);
        gx_u32(b, 0x0000FFFF);
    }
    return b;
}

/*
 * A budget unit is a command, a vertex or 2048 pixels of a triangle's box
 * (flipper.h): FLIPPER_WORK_BUDGET units, the device's step, hold the
 * commands and vertices of 300 large triangles but not the pixels of 30
 * (30 x about 580 x 430 / 2048 = about 3700 units), at one thread or in
 * the front end's chunks at two, and do hold 200 small
 * triangles (600 vertices, boxes of about 13 x 10 pixels) after the
 * frame's clearing copy (640 x 528 pixels, 165 units). At two threads
 * the small ones run through the front end on the render threads
 * (front.c) within the step.
 */
static void test_budget_by_cost(void)
{
    int threads;

    for (threads = 1; threads <= 2; threads++) {
        GByteArray *large = triangles(300, true), *small = triangles(200, false);
        FlipperRig *r = rig_new(threads);
        FlipperStats st;

        g_assert_false(flipper_gx_exec_budget(r->core, large->data, large->len,
                                              FLIPPER_WORK_BUDGET));
        flipper_core_stats(r->core, &st);
        g_assert_cmpuint(st.triangles, >, 0);
        g_assert_cmpuint(st.triangles, <, 30);
        rig_free(r);

        r = rig_new(threads);
        g_assert_true(flipper_gx_exec_budget(r->core, small->data, small->len,
                                             FLIPPER_WORK_BUDGET));
        flipper_core_stats(r->core, &st);
        g_assert_cmpuint(st.triangles, ==, 200);
        if (threads > 1) {
            g_assert_cmpuint(flipper_front_runs(r->core), >, 0);
        } else {
            g_assert_cmpuint(flipper_front_runs(r->core), ==, 0);
        }
        rig_free(r);
        g_byte_array_unref(large);
        g_byte_array_unref(small);
    }
}

/*
 * A draw of 6000 vertices (96 KiB) through the FIFO. fetch() stages 2 KiB
 * a call and the stage holds 4 KiB (256 of these vertices), so without
 * cp.c's draw window no front-end run could take more than 256 vertices;
 * with it a run takes what a step's budget pays for. The image is the
 * same at one and two threads and through a 16 KiB ring that wraps
 * inside the window; a breakpoint in the middle of the draw stops the
 * read pointer on it exactly, and the draw then goes on to the same image.
 */
#define WIN_TRIS 2000

static uint32_t *window_image(int threads, uint32_t ring, uint32_t bp,
                              uint64_t *runs, uint64_t *windows)
{
    GByteArray *b = triangles(WIN_TRIS, false);
    FlipperRig *r = rig_new(threads);
    uint32_t cr = R_CP_CR_GP_LINK_ENABLE_MASK | R_CP_CR_GP_READ_ENABLE_MASK;
    uint32_t *img;
    FlipperStats st;

    rig_fifo_init(r, BASE, ring);
    if (bp) {
        /* the whole stream in the ring before the GP reads it */
        g_assert_cmpuint(b->len + 32, <, ring);
        rig_w16(r, A_CP_CR, R_CP_CR_GP_LINK_ENABLE_MASK);
        static const uint8_t nops[32];

        rig_wgp_write(r, b->data, b->len);
        rig_wgp_write(r, nops, (32 - b->len % 32) % 32);
        rig_set_cp32(r, A_CP_FIFO_BP_LO, BASE + bp);
        rig_w16(r, A_CP_CR, cr | R_CP_CR_BP_ENABLE_MASK);
        rig_run(r);
        g_assert_cmphex(rig_cp32(r, A_CP_FIFO_RPTR_LO), ==, BASE + bp);
        g_assert_true(rig_r16(r, A_CP_SR) & R_CP_SR_BREAKPOINT_MASK);
        g_assert_false(rig_r16(r, A_CP_SR) & R_CP_SR_CMD_IDLE_MASK);
        flipper_core_stats(r->core, &st);
        /* no vertex past the breakpoint was read */
        g_assert_cmpuint(st.vertices, >, 0);
        g_assert_cmpuint(st.vertices * 16, <=, bp);
        rig_w16(r, A_CP_CR, cr);
        rig_run(r);
    } else {
        rig_submit(r, b->data, b->len);
    }
    g_assert_cmpuint(rig_cp32(r, A_CP_FIFO_DIST_LO), ==, 0);
    g_assert_true(rig_r16(r, A_CP_SR) & R_CP_SR_CMD_IDLE_MASK);
    flipper_core_stats(r->core, &st);
    /* the rows above the screen are clipped away, the same in each run */
    g_assert_cmpuint(st.triangles, >, WIN_TRIS / 2);
    g_assert_cmpuint(st.vertices, ==, 3 * WIN_TRIS);
    *runs = flipper_front_runs(r->core);
    *windows = flipper_cp_window_draws(r->core);
    img = g_memdup2(r->core->efb_color, sizeof(uint32_t) * EFB_W * EFB_H);
    rig_free(r);
    g_byte_array_unref(b);
    return img;
}

static void test_draw_window(void)
{
    uint64_t runs, windows;
    uint32_t *ref = window_image(1, 0x40000, 0, &runs, &windows);
    size_t px = sizeof(uint32_t) * EFB_W * EFB_H;
    int threads;

    g_assert_cmpuint(runs, ==, 0);
    g_assert_cmpuint(windows, >, 0);
    for (threads = 1; threads <= 2; threads++) {
        static const uint32_t rings[] = { 0x40000, 0x4000 };
        size_t i;

        for (i = 0; i < G_N_ELEMENTS(rings); i++) {
            g_autofree uint32_t *img = window_image(threads, rings[i], 0,
                                                    &runs, &windows);

            g_assert_true(memcmp(img, ref, px) == 0);
            g_assert_cmpuint(windows, >, 0);
            if (threads > 1) {
                /* runs longer than a stage's 256 vertices */
                g_assert_cmpuint(runs, >, 0);
                g_assert_cmpuint(runs * 256, <, 3 * WIN_TRIS);
            }
        }
        {
            /* the breakpoint in the draw, 40 KiB in, on a block */
            g_autofree uint32_t *img = window_image(threads, 0x40000, 0xA000,
                                                    &runs, &windows);

            g_assert_true(memcmp(img, ref, px) == 0);
        }
    }
    g_free(ref);
}

/* the PE's bounding box (left, right, top, bottom) as the CPU reads it */
static void read_bbox(FlipperRig *r, uint32_t box[4])
{
    int i;

    for (i = 0; i < 4; i++) {
        box[i] = rig_r16(r, A_PE_BBOX_LEFT + 2 * i);
    }
}

/*
 * At two threads a step that ends inside a long draw leaves its raster
 * batch queued (flipper-core.c flipper_defer_flush), so the next steps'
 * triangles join it; reading the PE's bounding box draws it first: the
 * box is that of the triangles whose vertices the steps read, as one
 * thread draws them with nothing deferred.
 */
static void test_deferred_raster(void)
{
    GByteArray *b = triangles(WIN_TRIS, false);
    FlipperRig *r = rig_new(2);
    static const uint8_t nops[32];
    uint32_t box[4], want[4];
    size_t tris;
    uint64_t px, v;
    int steps = 0;

    rig_fifo_init(r, BASE, 0x40000);
    rig_w16(r, A_CP_CR, R_CP_CR_GP_LINK_ENABLE_MASK);
    rig_wgp_write(r, b->data, b->len);
    rig_wgp_write(r, nops, (32 - b->len % 32) % 32);
    rig_w16(r, A_CP_CR, R_CP_CR_GP_LINK_ENABLE_MASK |
                        R_CP_CR_GP_READ_ENABLE_MASK);
    /* steps until a batch is left queued after the frame's first copy */
    do {
        g_assert_true(flipper_core_work(r->core, FLIPPER_WORK_BUDGET));
        g3d_raster_queued(r->core->raster, &tris, &px);
        g_assert_cmpint(++steps, <, 8);
    } while (!tris);
    v = r->core->stats.vertices;
    g_assert_cmpuint(v, <, 3 * WIN_TRIS);
    read_bbox(r, box);
    g3d_raster_queued(r->core->raster, &tris, &px);
    g_assert_cmpuint(tris, ==, 0);
    rig_free(r);
    g_byte_array_unref(b);

    /* one thread, the whole triangles among those vertices */
    b = triangles((int)(v / 3), false);
    r = rig_new(1);
    flipper_gx_exec(r->core, b->data, b->len);
    read_bbox(r, want);
    g_assert_cmpmem(box, sizeof(box), want, sizeof(want));
    g_assert_cmpuint(want[0], <=, want[1]);
    rig_free(r);
    g_byte_array_unref(b);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/flipper/fifo/pointers-watermarks",
                    test_pointers_and_watermarks);
    g_test_add_func("/flipper/fifo/breakpoint", test_breakpoint);
    g_test_add_func("/flipper/fifo/unlinked", test_unlinked);
    g_test_add_func("/flipper/pe/token-draw-done", test_token_and_draw_done);
    g_test_add_func("/flipper/frame/wgp-to-scanout", test_full_frame);
    g_test_add_func("/flipper/cp/budget-by-cost", test_budget_by_cost);
    g_test_add_func("/flipper/cp/draw-window", test_draw_window);
    g_test_add_func("/flipper/cp/deferred-raster", test_deferred_raster);
    return g_test_run();
}
