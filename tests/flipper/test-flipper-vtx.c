/*
 * flipper-gx vertex loader: every component format, count, shift and
 * ByteDequant setting, every colour format, normals (NRM, NBT, NBT3),
 * texture coordinates, matrix indices, direct and 8/16-bit indexed data,
 * and the stream size of each format (a draw followed by a token: the
 * token is only seen if the draw consumed exactly its bytes). The expected
 * numbers are worked out by hand from doc 5.11.2 and YAGCD §5.11.5.2 drawing
 * commands.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <string.h>

#include "flipper/flipper-int.h"
#include "gx-build.h"
#include "rig.h"

static FlipperRig *rig;

static void set_cp(uint8_t reg, uint32_t val)
{
    GByteArray *b = g_byte_array_new();

    gx_cp(b, reg, val);
    flipper_gx_exec(rig->core, b->data, b->len);
    g_byte_array_unref(b);
}

static void load(uint32_t vcd_lo, uint32_t vcd_hi, uint32_t va, uint32_t vb,
                 uint32_t vc, const uint8_t *bytes, uint32_t size,
                 GXInVertex *out)
{
    GXVertexFormat f;
    GByteArray *b = g_byte_array_new();
    unsigned k;

    set_cp(CPR_VCD_LO, vcd_lo);
    set_cp(CPR_VCD_HI, vcd_hi);
    set_cp(CPR_VAT_A + 6, va);
    set_cp(CPR_VAT_B + 6, vb);
    set_cp(CPR_VAT_C + 6, vc);
    flipper_vtx_format(rig->core, 6, &f);
    g_assert_cmpuint(f.size, ==, size);
    flipper_vtx_load(rig->core, &f, bytes, out);

    /* the decoder consumes exactly `size` bytes per vertex */
    gx_bp(b, BP_PE_TOKEN, 0);
    gx_draw(b, GX_DRAW_POINTS, 6, 3);
    for (k = 0; k < 3; k++) {
        g_byte_array_append(b, bytes, size);
    }
    gx_bp(b, BP_PE_TOKEN, 0x7777);
    flipper_gx_exec(rig->core, b->data, b->len);
    g_assert_cmphex(rig_r16(rig, A_PE_TOKEN), ==, 0x7777);
    g_byte_array_unref(b);
}

#define POS_DIRECT (VCD_DIRECT << 9)
#define VAT_POS(cnt, fmt, shift) ((cnt) | (fmt) << 1 | (shift) << 4)
#define DQ (1u << 30)

static void check_pos(const GXInVertex *v, float x, float y, float z)
{
    g_assert_cmpfloat(v->pos[0], ==, x);
    g_assert_cmpfloat(v->pos[1], ==, y);
    g_assert_cmpfloat(v->pos[2], ==, z);
}

static void test_positions(void)
{
    GXInVertex v;
    static const uint8_t u8v[] = { 0x10, 0xFF, 0x08 };
    static const uint8_t s8v[] = { 0xC0, 0x40 };
    static const uint8_t u16v[] = { 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x80 };
    static const uint8_t s16v[] = { 0x80, 0x00, 0x40, 0x00, 0xFF, 0xFF };
    uint8_t f32v[12];

    /* u8 xyz >> 4 with ByteDequant; the same without it: not shifted */
    load(POS_DIRECT, 0, VAT_POS(1, VTX_U8, 4) | DQ, 0, 0, u8v, 3, &v);
    check_pos(&v, 1.0f, 15.9375f, 0.5f);
    load(POS_DIRECT, 0, VAT_POS(1, VTX_U8, 4), 0, 0, u8v, 3, &v);
    check_pos(&v, 16.0f, 255.0f, 8.0f);
    /* s8 xy >> 6: z is 0 */
    load(POS_DIRECT, 0, VAT_POS(0, VTX_S8, 6) | DQ, 0, 0, s8v, 2, &v);
    check_pos(&v, -1.0f, 1.0f, 0.0f);
    /* 16-bit components are shifted whatever ByteDequant says */
    load(POS_DIRECT, 0, VAT_POS(1, VTX_U16, 8), 0, 0, u16v, 6, &v);
    check_pos(&v, 1.0f, 255.99609375f, 0.5f);
    load(POS_DIRECT, 0, VAT_POS(1, VTX_S16, 15) | DQ, 0, 0, s16v, 6, &v);
    check_pos(&v, -1.0f, 0.5f, -1.0f / 32768.0f);
    /* f32: the shift does not apply */
    {
        float fv[3] = { 1.5f, -2.25f, 1e10f };
        int k;
        for (k = 0; k < 3; k++) {
            uint32_t u = gx_fbits(fv[k]);
            f32v[4 * k] = u >> 24;
            f32v[4 * k + 1] = u >> 16;
            f32v[4 * k + 2] = u >> 8;
            f32v[4 * k + 3] = u;
        }
    }
    load(POS_DIRECT, 0, VAT_POS(1, VTX_F32, 31) | DQ, 0, 0, f32v, 12, &v);
    check_pos(&v, 1.5f, -2.25f, 1e10f);
}

static void check_col(const GXInVertex *v, int ch, uint8_t r, uint8_t g,
                      uint8_t b, uint8_t a)
{
    g_assert_cmpuint(v->col[ch][0], ==, r);
    g_assert_cmpuint(v->col[ch][1], ==, g);
    g_assert_cmpuint(v->col[ch][2], ==, b);
    g_assert_cmpuint(v->col[ch][3], ==, a);
}

static void test_colors(void)
{
    /* position u8 x y (2 bytes) then the colour */
    const uint32_t vcd = POS_DIRECT | VCD_DIRECT << 13;
    const uint32_t va = VAT_POS(0, VTX_U8, 0);
    GXInVertex v;
    uint8_t d[8] = { 1, 2 };

    d[2] = 0xF8; d[3] = 0x1F;                       /* RGB565 magenta */
    load(vcd, 0, va | VTX_RGB565 << 14, 0, 0, d, 4, &v);
    check_col(&v, 0, 255, 0, 255, 255);
    d[2] = 0x84; d[3] = 0x10;                       /* 16, 32, 16 */
    load(vcd, 0, va | VTX_RGB565 << 14, 0, 0, d, 4, &v);
    check_col(&v, 0, 0x84, 0x82, 0x84, 255);
    d[2] = 1; d[3] = 2; d[4] = 3;
    load(vcd, 0, va | VTX_RGB888 << 14, 0, 0, d, 5, &v);
    check_col(&v, 0, 1, 2, 3, 255);
    d[5] = 4;                                       /* x byte: ignored */
    load(vcd, 0, va | VTX_RGB888X << 14 | 1 << 13, 0, 0, d, 6, &v);
    check_col(&v, 0, 1, 2, 3, 255);
    d[2] = 0x12; d[3] = 0x3F;
    load(vcd, 0, va | VTX_RGBA4444 << 14 | 1 << 13, 0, 0, d, 4, &v);
    check_col(&v, 0, 0x11, 0x22, 0x33, 0xFF);
    d[2] = 0xFC; d[3] = 0x08; d[4] = 0x01;          /* 63, 0, 32, 1 */
    load(vcd, 0, va | VTX_RGBA6666 << 14 | 1 << 13, 0, 0, d, 5, &v);
    check_col(&v, 0, 0xFF, 0x00, 0x82, 0x04);
    d[2] = 9; d[3] = 8; d[4] = 7; d[5] = 6;
    load(vcd, 0, va | VTX_RGBA8888 << 14 | 1 << 13, 0, 0, d, 6, &v);
    check_col(&v, 0, 9, 8, 7, 6);
    /* colour 1 uses its own format (VAT_A bits 18-20) */
    d[2] = 0xF8; d[3] = 0x00; d[4] = 5; d[5] = 6; d[6] = 7; d[7] = 8;
    load(vcd | VCD_DIRECT << 15, 0,
         va | VTX_RGB565 << 14 | VTX_RGBA8888 << 18 | 1 << 17, 0, 0, d, 8, &v);
    check_col(&v, 0, 255, 0, 0, 255);
    check_col(&v, 1, 5, 6, 7, 8);
}

static void test_normals_tex_mtx(void)
{
    GXInVertex v;
    /* PNMTX, TEX0MTX, POS u8 xy, NRM s8, TEX0 s16 st >> 5, TEX7 u8 s >> 2 */
    static const uint8_t d[] = {
        0x07, 0x45, 3, 4, 0x40, 0xC0, 0x20, 0x00, 0x20, 0xFF, 0xE0, 0x0A,
    };
    const uint32_t vcd = 1 | 1 << 1 | POS_DIRECT | VCD_DIRECT << 11;
    const uint32_t hi = VCD_DIRECT << 0 | VCD_DIRECT << 14;
    const uint32_t va = VAT_POS(0, VTX_U8, 0) | VTX_S8 << 10 |
                        1 << 21 | VTX_S16 << 22 | 5 << 25 | DQ;
    const uint32_t vc = 0 << 23 | VTX_U8 << 24 | 2u << 27;

    load(vcd, hi, va, 0, vc, d, sizeof(d), &v);
    g_assert_cmpuint(v.posmtx, ==, 7);
    g_assert_cmpuint(v.texmtx[0], ==, 5);
    check_pos(&v, 3, 4, 0);
    g_assert_cmpfloat(v.nrm[0][0], ==, 1.0f);       /* s8 >> 6 */
    g_assert_cmpfloat(v.nrm[0][1], ==, -1.0f);
    g_assert_cmpfloat(v.nrm[0][2], ==, 0.5f);
    g_assert_cmpfloat(v.tex[0][0], ==, 1.0f);       /* s16 >> 5 */
    g_assert_cmpfloat(v.tex[0][1], ==, -1.0f);
    g_assert_cmpfloat(v.tex[7][0], ==, 2.5f);       /* u8 >> 2 (dequant) */

    /* NBT direct: 9 s16 components >> 14 */
    {
        uint8_t nbt[2 + 18];
        int k;
        nbt[0] = nbt[1] = 0;
        for (k = 0; k < 9; k++) {
            int16_t val = (int16_t)(0x4000 - 0x1000 * k);
            nbt[2 + 2 * k] = (uint16_t)val >> 8;
            nbt[3 + 2 * k] = (uint8_t)val;
        }
        load(POS_DIRECT | VCD_DIRECT << 11, 0,
             VAT_POS(0, VTX_U8, 0) | 1 << 9 | VTX_S16 << 10, 0, 0, nbt,
             sizeof(nbt), &v);
        g_assert_cmpfloat(v.nrm[0][0], ==, 1.0f);
        g_assert_cmpfloat(v.nrm[1][0], ==, 0.25f);      /* k = 3 */
        g_assert_cmpfloat(v.nrm[2][2], ==, -1.0f);      /* k = 8 */
    }
}

static void test_indexed(void)
{
    const uint32_t pos = 0x00300000, nrm = 0x00310000;
    GXInVertex v;
    uint8_t d[8];
    int k;

    /* positions s16 xyz, stride 8 (2 bytes of padding), element 0x0102 */
    memset(rig->mem1 + pos, 0, 0x1000);
    rig->mem1[pos + 0x102 * 8 + 0] = 0x01;
    rig->mem1[pos + 0x102 * 8 + 3] = 0x80;
    rig->mem1[pos + 0x102 * 8 + 4] = 0xFF;
    rig->mem1[pos + 0x102 * 8 + 5] = 0xFE;
    set_cp(CPR_ARRAY_BASE + CP_ARRAY_POS, pos);
    set_cp(CPR_ARRAY_STRIDE + CP_ARRAY_POS, 8);
    d[0] = 0x01;
    d[1] = 0x02;
    load(VCD_INDEX16 << 9, 0, VAT_POS(1, VTX_S16, 1), 0, 0, d, 2, &v);
    check_pos(&v, 128.0f, 64.0f, -1.0f);

    /* NBT3: three 8-bit indices; vector k at its index + 3k components */
    for (k = 0; k < 3; k++) {
        /* element 2k+1 holds, for vector k, s8 (k+1) * 16 >> 6 */
        rig->mem1[nrm + (2 * k + 1) * 9 + 3 * k] = (uint8_t)(16 * (k + 1));
    }
    set_cp(CPR_ARRAY_BASE + CP_ARRAY_NRM, nrm);
    set_cp(CPR_ARRAY_STRIDE + CP_ARRAY_NRM, 9);
    d[0] = 0;
    d[1] = 1;
    d[2] = 3;
    d[3] = 5;
    load(VCD_INDEX8 << 9 | VCD_INDEX8 << 11, 0,
         VAT_POS(0, VTX_U8, 0) | 1 << 9 | VTX_S8 << 10 | 1u << 31, 0, 0, d, 4,
         &v);
    g_assert_cmpfloat(v.nrm[0][0], ==, 0.25f);
    g_assert_cmpfloat(v.nrm[1][0], ==, 0.5f);
    g_assert_cmpfloat(v.nrm[2][0], ==, 0.75f);

    /* an index past MEM1 is logged and reads as zero */
    {
        unsigned errs = g3d_log_count(G3D_LOG_GUEST_ERROR);
        set_cp(CPR_ARRAY_BASE + CP_ARRAY_POS, FLIPPER_MEM1_SIZE - 0x100);
        set_cp(CPR_ARRAY_STRIDE + CP_ARRAY_POS, 0xFF);
        d[0] = 0xFF;
        d[1] = 0xFF;
        load(VCD_INDEX16 << 9, 0, VAT_POS(1, VTX_S16, 0), 0, 0, d, 2, &v);
        check_pos(&v, 0, 0, 0);
        g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), >, errs);
    }
}

/* the matrix index from XF MATINDEX when the vertex has none */
static void test_default_matrix(void)
{
    GByteArray *b = g_byte_array_new();
    GXInVertex v;
    static const uint8_t d[2] = { 0, 0 };

    gx_xf1(b, XF_REG_MATINDEX_A, 9 | 33 << 6);
    flipper_gx_exec(rig->core, b->data, b->len);
    load(POS_DIRECT, 0, VAT_POS(0, VTX_U8, 0), 0, 0, d, 2, &v);
    g_assert_cmpuint(v.posmtx, ==, 9);
    g_assert_cmpuint(v.texmtx[0], ==, 33);
    g_byte_array_unref(b);
}

int main(int argc, char **argv)
{
    int ret;

    g_test_init(&argc, &argv, NULL);
    rig = rig_new(1);
    g_test_add_func("/flipper/vtx/positions", test_positions);
    g_test_add_func("/flipper/vtx/colors", test_colors);
    g_test_add_func("/flipper/vtx/normals-tex-matrix", test_normals_tex_mtx);
    g_test_add_func("/flipper/vtx/indexed", test_indexed);
    g_test_add_func("/flipper/vtx/default-matrix", test_default_matrix);
    ret = g_test_run();
    rig_free(rig);
    return ret;
}
