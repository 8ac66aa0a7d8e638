/*
 * flipper-gx and bad guest input: each case must be logged (the log
 * counters rise), set the GP error bit where the device has one, be
 * skipped without a crash or a hang, and leave a device that reset brings
 * back: after each case the gouraud scene must still match Dolphin exactly.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "gx-build.h"
#include "rig.h"

static unsigned errors(void)
{
    return g3d_log_count(G3D_LOG_GUEST_ERROR);
}

/* after reset the device renders the gouraud scene exactly as Dolphin */
static void check_recovers(FlipperRig *r)
{
    FlipperScene *s = flipper_scene_build("gouraud");
    char *path = rig_src_path("ref/gouraud.png");
    G3DImage ref, img;
    G3DImageDiff d;

    flipper_core_reset(r->core);
    memset(r->mem1, 0, FLIPPER_MEM1_SIZE);
    g_assert_false(flipper_irq_level(r->core));
    rig_fifo_init(r, RIG_FIFO_BASE, RIG_FIFO_SIZE);
    rig_vi_init(r, SCENE_XFB_ADDR);
    rig_run_scene(r, s);
    g_assert_true(rig_scanout(r, &img));
    g_assert_true(g3d_image_load(&ref, path));
    g_assert_true(g3d_image_compare(&img, &ref, &d));
    g_assert_cmpint(d.differing, ==, 0);
    g3d_image_free(&img);
    g3d_image_free(&ref);
    g_free(path);
    flipper_scene_free(s);
}

static void exec(FlipperRig *r, GByteArray *b)
{
    flipper_gx_exec(r->core, b->data, b->len);
}

/* FIFO pointers outside MEM1: the gather pipe and the GP */
static void test_fifo_outside_mem1(void)
{
    FlipperRig *r = rig_new(1);
    unsigned e = errors();
    int i;

    rig_w32(r, A_PI_INTMR, PI_INT_ERROR);
    rig_fifo_init(r, FLIPPER_MEM1_SIZE, 0x10000);      /* just past MEM1 */
    for (i = 0; i < 16; i++) {
        flipper_reg_write(r->core, FLIPPER_WGP_BASE, 0, 4);
    }
    g_assert_cmpuint(errors(), >, e);
    g_assert_true(rig_r32(r, A_PI_INTSR) & PI_INT_ERROR);
    g_assert_true(flipper_irq_level(r->core));
    /* the GP told to read there: logged once, reading halts, no hang */
    rig_set_cp32(r, A_CP_FIFO_DIST_LO, 0x8000);
    rig_w32(r, A_PI_INTSR, PI_INT_ERROR);              /* w1c */
    g_assert_false(rig_r32(r, A_PI_INTSR) & PI_INT_ERROR);
    e = errors();
    g_assert_false(flipper_core_work(r->core, 1000));
    g_assert_cmpuint(errors(), ==, e + 1);
    g_assert_true(rig_r32(r, A_PI_INTSR) & PI_INT_ERROR);
    g_assert_false(flipper_core_work(r->core, 1000));  /* halted: quiet */
    g_assert_cmpuint(errors(), ==, e + 1);
    /* pointers wrapping around the top of the address space */
    rig_set_cp32(r, A_CP_FIFO_BASE_LO, 0x03FFFFE0);
    rig_set_cp32(r, A_CP_FIFO_END_LO, 0x03FFFFE0);
    rig_set_cp32(r, A_CP_FIFO_RPTR_LO, 0x03FFFFE0);
    g_assert_false(flipper_core_work(r->core, 1000));
    check_recovers(r);
    rig_free(r);
}

/* a display list calling itself, and one outside MEM1 */
static void test_display_list_loops(void)
{
    FlipperRig *r = rig_new(1);
    GByteArray *dl = g_byte_array_new(), *b = g_byte_array_new();
    const uint32_t addr = 0x00500000;
    unsigned e;

    gx_bp(dl, BP_PE_TOKEN, 0x1111);
    gx_call_dl(dl, addr, 64);                       /* itself */
    gx_bp(dl, BP_PE_TOKEN, 0x2222);
    gx_pad32(dl);
    g_assert_cmpuint(dl->len, <=, 64);
    memset(r->mem1 + addr, 0, 64);                  /* NOPs after it */
    memcpy(r->mem1 + addr, dl->data, dl->len);

    e = errors();
    gx_call_dl(b, addr, 64);
    gx_bp(b, BP_PE_TOKEN, 0x3333);
    rig_fifo_init(r, RIG_FIFO_BASE, RIG_FIFO_SIZE);
    rig_submit(r, b->data, b->len);                 /* returns: no hang */
    g_assert_cmpuint(errors(), ==, e + 1);          /* the nested call */
    g_assert_cmphex(rig_r16(r, A_PE_TOKEN), ==, 0x3333);

    /* bounded work steps: a long list is not run in one call */
    {
        GByteArray *big = g_byte_array_new();
        int i;
        for (i = 0; i < 4096; i++) {
            gx_bp(big, BP_PE_TOKEN, (uint32_t)i);
        }
        memcpy(r->mem1 + addr, big->data, big->len);
        g_byte_array_set_size(b, 0);
        gx_call_dl(b, addr, big->len);
        gx_pad32(b);
        memcpy(r->mem1 + RIG_FIFO_BASE, b->data, b->len);
        rig_set_cp32(r, A_CP_FIFO_RPTR_LO, RIG_FIFO_BASE);
        rig_set_cp32(r, A_CP_FIFO_WPTR_LO, RIG_FIFO_BASE + 32);
        rig_set_cp32(r, A_CP_FIFO_DIST_LO, 32);
        g_assert_true(flipper_core_work(r->core, 100));
        g_assert_cmpuint(rig_r16(r, A_PE_TOKEN), <, 4095);
        g_assert_false(rig_r16(r, A_CP_SR) & R_CP_SR_CMD_IDLE_MASK);
        rig_run(r);
        g_assert_cmpuint(rig_r16(r, A_PE_TOKEN), ==, 4095);
        g_byte_array_unref(big);
    }

    /* a list outside MEM1 or wrapping the address space */
    g_byte_array_set_size(b, 0);
    gx_call_dl(b, FLIPPER_MEM1_SIZE - 32, 64);
    gx_call_dl(b, 0xFFFFFFE0, 0x40);
    e = errors();
    exec(r, b);
    g_assert_cmpuint(errors(), ==, e + 2);
    g_assert_true(rig_r32(r, A_PI_INTSR) & PI_INT_ERROR);
    check_recovers(r);
    g_byte_array_unref(dl);
    g_byte_array_unref(b);
    rig_free(r);
}

/* opcodes and register addresses that do not exist, cut-short commands */
static void test_bad_commands(void)
{
    FlipperRig *r = rig_new(1);
    GByteArray *b = g_byte_array_new();
    unsigned e = errors();

    gx_u8(b, 0x07);                                  /* unknown opcode */
    gx_u8(b, 0x68);
    gx_cp(b, 0x05, 0x1234);                          /* no such CP register */
    gx_xf1(b, 0x2000, 1);                            /* no such XF address */
    gx_cp(b, CPR_ARRAY_BASE + CP_ARRAY_XF_A + 3, FLIPPER_MEM1_SIZE - 64);
    gx_cp(b, CPR_ARRAY_STRIDE + CP_ARRAY_XF_A + 3, 0xFF);
    gx_xf_indexed(b, 3, 0xFFFF, 16, 0);              /* past MEM1 */
    exec(r, b);
    g_assert_cmpuint(errors(), ==, e + 5);
    g_assert_true(rig_r32(r, A_PI_INTSR) & PI_INT_ERROR);

    /* a draw cut short by the end of a stream */
    g_byte_array_set_size(b, 0);
    gx_cp(b, CPR_VCD_LO, VCD_DIRECT << 9);
    gx_cp(b, CPR_VAT_A, 1 | VTX_F32 << 1);
    gx_draw(b, GX_DRAW_TRIANGLES, 0, 3);
    gx_f32(b, 0.0f);
    e = errors();
    exec(r, b);
    g_assert_cmpuint(errors(), ==, e + 1);
    /* an XF load cut short */
    g_byte_array_set_size(b, 0);
    gx_u8(b, GX_LOAD_XF_REG);
    gx_u32(b, 15 << 16);
    gx_u32(b, 0);
    e = errors();
    exec(r, b);
    g_assert_cmpuint(errors(), ==, e + 1);
    check_recovers(r);
    g_byte_array_unref(b);
    rig_free(r);
}

/* vertices far outside any sensible range, NaNs, huge viewports */
static void test_bad_geometry(void)
{
    static const float vals[] = { 1e30f, -1e30f, NAN, INFINITY, 0.5f };
    FlipperRig *r = rig_new(2);
    FlipperScene *s = flipper_scene_build("gouraud");
    GByteArray *b = g_byte_array_new();
    int i, j;

    g_byte_array_append(b, s->fifo->data, s->fifo->len);
    for (i = 0; i < 5; i++) {
        gx_draw(b, GX_DRAW_TRIANGLES, 0, 3);
        for (j = 0; j < 3; j++) {
            scene_vtx(b, vals[(i + j) % 5], vals[(i + 2 * j) % 5], -0.5f,
                      0xFFFFFFFF);
        }
    }
    /* a viewport scaling everything out of range, and NaN in it */
    {
        float vp[6] = { 1e20f, -1e20f, NAN, 662, 582, 16777215 };
        gx_xff(b, XF_REG_VIEWPORT, 6, vp);
    }
    gx_draw(b, GX_DRAW_TRIANGLE_STRIP, 0, 4);
    for (j = 0; j < 4; j++) {
        scene_vtx(b, j & 1 ? 0.5f : -0.5f, j & 2 ? 0.5f : -0.5f, -0.5f,
                  0xFFFFFFFF);
    }
    gx_draw(b, GX_DRAW_LINES, 0, 2);
    scene_vtx(b, 1e30f, 0, -0.5f, 0xFFFFFFFF);
    scene_vtx(b, -1e30f, 0, -0.5f, 0xFFFFFFFF);
    gx_draw(b, GX_DRAW_POINTS, 0, 1);
    scene_vtx(b, NAN, 0, -0.5f, 0xFFFFFFFF);
    /* an EFB copy beyond the EFB and to an XFB beyond MEM1 */
    gx_bp(b, BP_EFB_TL, 600 | 500 << 10);
    gx_bp(b, BP_EFB_WH, 1023 | 1023 << 10);
    gx_bp(b, BP_EFB_ADDR, 0xFFFFFF);
    gx_bp(b, BP_MIPMAP_STRIDE, 0x3FF);
    gx_bp(b, BP_DISPCOPYYSCALE, 0);
    gx_bp(b, BP_TRIGGER_EFB_COPY, 0x004C03);
    exec(r, b);
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), >, 0);
    check_recovers(r);
    g_byte_array_unref(b);
    flipper_scene_free(s);
    rig_free(r);
}

/* the VI pointed past MEM1, or at nothing */
static void test_vi_outside_mem1(void)
{
    FlipperRig *r = rig_new(1);
    G3DScanout so;
    G3DImage img;
    unsigned e;

    /* 24-bit addresses reach 16 MiB; POFF (address >> 5) reaches all MEM1 */
    rig_vi_init(r, SCENE_XFB_ADDR);
    rig_w32(r, A_VI_TFBL, 1u << 28 | ((FLIPPER_MEM1_SIZE - 0x200) >> 5));
    e = errors();
    g_assert_false(flipper_scanout(r->core, 0, &so));
    g_assert_false(rig_scanout(r, &img));
    g_assert_cmpuint(errors(), >, e);
    /* POFF addressing entirely past MEM1 */
    rig_w32(r, A_VI_TFBL, 1u << 28 | (0x03FFFFE0 >> 5));
    e = errors();
    g_assert_false(flipper_scanout(r->core, 0, &so));
    g_assert_cmpuint(errors(), >, e);
    /* zero sizes */
    rig_w32(r, A_VI_TFBL, SCENE_XFB_ADDR);
    rig_w16(r, A_VI_HSW, 0);
    e = errors();
    g_assert_false(flipper_scanout(r->core, 0, &so));
    g_assert_cmpuint(errors(), >, e);
    g_assert_false(flipper_scanout(r->core, 1, &so));   /* one head only */
    check_recovers(r);
    rig_free(r);
}

/* accesses the register file does not have */
static void test_bad_register_access(void)
{
    FlipperRig *r = rig_new(1);
    unsigned e = errors();

    flipper_reg_write(r->core, A_CP_CR, 1, 1);          /* byte */
    flipper_reg_write(r->core, A_CP_CR + 1, 1, 2);      /* misaligned */
    flipper_reg_write(r->core, 0x7000, 1, 4);           /* unmapped */
    flipper_reg_write(r->core, 0xFFFFFFF0, 1, 4);
    flipper_reg_read(r->core, 0x9000, 4);
    flipper_reg_read(r->core, A_PI_INTSR + 2, 4);
    flipper_reg_write(r->core, A_PI_FLIPPER_REV, 0, 4); /* read-only */
    g_assert_cmpuint(errors(), ==, e + 7);
    g_assert_cmphex(rig_r16(r, A_CP_CR), ==, 0);
    g_assert_cmphex(rig_r32(r, A_PI_FLIPPER_REV), ==, FLIPPER_REV_C);
    check_recovers(r);
    rig_free(r);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/flipper/bad/fifo-outside-mem1", test_fifo_outside_mem1);
    g_test_add_func("/flipper/bad/display-list-loops", test_display_list_loops);
    g_test_add_func("/flipper/bad/commands", test_bad_commands);
    g_test_add_func("/flipper/bad/geometry", test_bad_geometry);
    g_test_add_func("/flipper/bad/vi-outside-mem1", test_vi_outside_mem1);
    g_test_add_func("/flipper/bad/register-access", test_bad_register_access);
    return g_test_run();
}
