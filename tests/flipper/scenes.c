/*
 * The GX scenes (see scenes.h). Each starts from a reset device, sets the
 * state a libogc program sets (libogc GX_Init, VIDEO_Init; Dolphin's FIFO
 * player: copy filter, swap tables, a clearing copy first), draws, and ends
 * with the display copy to SCENE_XFB_ADDR that clears the EFB for the next
 * frame.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "scenes.h"

#include <math.h>
#include <string.h>

#include "flipper/flipper.h"
#include "gx-build.h"
#include "tex-build.h"
#include "flipper-scene.h"      /* guest/: the demo's frame */

/* ---- helpers --------------------------------------------------------------- */

void scene_vtx(GByteArray *b, float x, float y, float z, uint32_t rgba)
{
    gx_f32(b, x);
    gx_f32(b, y);
    gx_f32(b, z);
    gx_u32(b, rgba);
}

uint8_t *flipper_scene_add_blob(FlipperScene *s, uint32_t addr, uint32_t len)
{
    SceneBlob blob = { .addr = addr, .data = g_byte_array_sized_new(len) };

    g_byte_array_set_size(blob.data, len);
    memset(blob.data->data, 0, len);
    g_array_append_val(s->mem, blob);
    return blob.data->data;
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = v >> 24;
    p[1] = v >> 16;
    p[2] = v >> 8;
    p[3] = v;
}

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = v >> 8;
    p[1] = v;
}

static uint32_t sat_color(int r, int g, int b, int a)
{
    return (uint32_t)r << 24 | g << 16 | b << 8 | a;
}

static FlipperScene *scene_new(const char *name)
{
    FlipperScene *s = g_new0(FlipperScene, 1);
    static uint8_t dummy[64];
    G3DFlatMem flat;
    FlipperCoreConfig cfg = { 0 };
    FlipperCore *c;

    g_strlcpy(s->name, name, sizeof(s->name));
    s->mem = g_array_new(false, true, sizeof(SceneBlob));
    s->fifo = g_byte_array_new();
    s->width = SCENE_W;
    s->height = SCENE_H;
    /* the starting state is a reset device's */
    g3d_flat_mem_init(&cfg.mem, &flat, dummy, 0, sizeof(dummy));
    cfg.mem1_size = sizeof(dummy);
    c = flipper_core_new(&cfg);
    memcpy(s->bp, flipper_bp_regs(c), sizeof(s->bp));
    memcpy(s->cp, flipper_cp_regs(c), sizeof(s->cp));
    memcpy(s->xfmem, flipper_xf_words(c), sizeof(s->xfmem));
    memcpy(s->xfregs, flipper_xf_words(c) + XF_MEM_WORDS, sizeof(s->xfregs));
    flipper_core_free(c);
    return s;
}

void flipper_scene_free(FlipperScene *s)
{
    guint i;

    if (!s) {
        return;
    }
    for (i = 0; i < s->mem->len; i++) {
        g_byte_array_unref(g_array_index(s->mem, SceneBlob, i).data);
    }
    g_array_free(s->mem, true);
    g_byte_array_unref(s->fifo);
    g_free(s);
}

GByteArray *flipper_scene_prologue(const FlipperScene *s)
{
    GByteArray *b = g_byte_array_new();
    int i;

    for (i = 0; i < 256; i++) {
        switch (i) {
        case BP_SETDRAWDONE: case BP_PE_TOKEN: case BP_PE_TOKEN_INT:
        case BP_TRIGGER_EFB_COPY: case BP_LOADTLUT1: case BP_PERF1:
        case BP_PRELOAD_MODE: case BP_MASK:
            continue;
        default:
            gx_bp(b, i, s->bp[i]);
        }
    }
    gx_cp(b, CPR_MATINDEX_A, s->cp[CPR_MATINDEX_A]);
    gx_cp(b, CPR_MATINDEX_B, s->cp[CPR_MATINDEX_B]);
    gx_cp(b, CPR_VCD_LO, s->cp[CPR_VCD_LO]);
    gx_cp(b, CPR_VCD_HI, s->cp[CPR_VCD_HI]);
    for (i = 0; i < 8; i++) {
        gx_cp(b, CPR_VAT_A + i, s->cp[CPR_VAT_A + i]);
        gx_cp(b, CPR_VAT_B + i, s->cp[CPR_VAT_B + i]);
        gx_cp(b, CPR_VAT_C + i, s->cp[CPR_VAT_C + i]);
    }
    for (i = 0; i < 16; i++) {
        gx_cp(b, CPR_ARRAY_BASE + i, s->cp[CPR_ARRAY_BASE + i]);
        gx_cp(b, CPR_ARRAY_STRIDE + i, s->cp[CPR_ARRAY_STRIDE + i]);
    }
    for (i = 0; i < XF_MEM_WORDS; i += 16) {
        gx_xf(b, i, 16, &s->xfmem[i]);
    }
    for (i = 0; i < XF_REG_COUNT; i++) {
        gx_xf1(b, XF_REG_BASE + i, s->xfregs[i]);
    }
    return b;
}

/* libogc's NTSC-style 640x480 setup, orthographic, one colour channel,
 * and the display copy (gpu3d/flipper-cmd.h) */
static void begin_frame(GByteArray *b, uint32_t clear_rgba)
{
    gx_begin_frame(b, clear_rgba);
}

static void end_frame(GByteArray *b)
{
    gx_copy_to_xfb(b, SCENE_XFB_ADDR);
}

/* ---- scenes --------------------------------------------------------------- */

static void scene_gouraud(FlipperScene *s, GByteArray *b)
{
    begin_frame(b, 0x203040FF);
    gx_draw(b, GX_DRAW_TRIANGLES, 0, 3);
    scene_vtx(b, 0.05f, 0.83f, -0.5f, 0xFF0000FF);
    scene_vtx(b, -0.71f, -0.62f, -0.5f, 0x00FF00FF);
    scene_vtx(b, 0.78f, -0.45f, -0.5f, 0x0000FFFF);
    end_frame(b);
}

/* two triangles whose depths cross: the Z test decides pixel by pixel */
static void scene_depth(FlipperScene *s, GByteArray *b)
{
    begin_frame(b, 0x000000FF);
    gx_draw(b, GX_DRAW_TRIANGLES, 0, 6);
    scene_vtx(b, -0.8f, 0.7f, -0.1f, 0xFF8000FF);
    scene_vtx(b, 0.6f, 0.5f, -0.9f, 0xFFE040FF);
    scene_vtx(b, -0.3f, -0.8f, -0.5f, 0xC04000FF);
    scene_vtx(b, 0.8f, 0.75f, -0.85f, 0x2040FFFF);
    scene_vtx(b, -0.6f, 0.1f, -0.15f, 0x00E0E0FF);
    scene_vtx(b, 0.4f, -0.7f, -0.5f, 0x8020C0FF);
    end_frame(b);
}

/* vertex formats: s16/s8/u16/f32-xy positions, every colour format,
 * strips, fans, quads and a matrix index per vertex */
static void scene_formats(FlipperScene *s, GByteArray *b)
{
    static const float mtx3[12] = {
        1, 0, 0, -1.0f, 0, 1, 0, -0.95f, 0, 0, -1, 0,     /* z' = -z */
    };
    int i;

    begin_frame(b, 0x102010FF);
    gx_xff(b, XF_MEM_POSMTX + 4 * 3, 12, mtx3);

    /* VAT 1: xyz s16 >> 8, RGB565 — a strip */
    gx_cp(b, CPR_VCD_LO, 0x2200);
    gx_cp(b, CPR_VAT_A + 1, 0x40000000 | 8 << 4 | VTX_S16 << 1 | 1 |
                            1 << 13 | VTX_RGB565 << 14);
    gx_cp(b, CPR_VAT_B + 1, 0x80000000);
    gx_draw(b, GX_DRAW_TRIANGLE_STRIP, 1, 6);
    for (i = 0; i < 6; i++) {
        gx_u16(b, (uint16_t)(int16_t)(-230 + 40 * i));      /* x */
        gx_u16(b, (uint16_t)(int16_t)((i & 1) ? 60 : 200)); /* y */
        gx_u16(b, (uint16_t)(int16_t)(-128));               /* z = -0.5 */
        gx_u16(b, (uint16_t)((31 - 5 * i) << 11 | (10 * i) << 5 | (6 * i)));
    }
    /* VAT 2: xyz s8 >> 6 (byte dequant), RGBA4444 — a fan */
    gx_cp(b, CPR_VAT_A + 2, 0x40000000 | 6 << 4 | VTX_S8 << 1 | 1 |
                            1 << 13 | VTX_RGBA4444 << 14);
    gx_cp(b, CPR_VAT_B + 2, 0x80000000);
    gx_draw(b, GX_DRAW_TRIANGLE_FAN, 2, 6);
    {
        static const int8_t fan[6][2] = {
            { 40, 30 }, { 60, 20 }, { 58, 42 }, { 44, 56 }, { 24, 50 },
            { 20, 30 },
        };
        for (i = 0; i < 6; i++) {
            gx_u8(b, (uint8_t)fan[i][0]);
            gx_u8(b, (uint8_t)fan[i][1]);
            gx_u8(b, (uint8_t)(int8_t)-32);
            gx_u16(b, (uint16_t)((0xF - 2 * i) << 12 | (2 * i + 3) << 8 |
                                 (i * 3) << 4 | 0xF));
        }
    }
    /* VAT 3: matrix index + xyz u16 >> 15, RGBA6666 — quads */
    gx_cp(b, CPR_VCD_LO, 0x2201);
    gx_cp(b, CPR_VAT_A + 3, 0x40000000 | 15 << 4 | VTX_U16 << 1 | 1 |
                            1 << 13 | VTX_RGBA6666 << 14);
    gx_cp(b, CPR_VAT_B + 3, 0x80000000);
    gx_draw(b, GX_DRAW_QUADS, 3, 8);
    {
        static const uint16_t q[8][2] = {
            { 4000, 3000 }, { 20000, 3500 }, { 19000, 17000 }, { 5000, 16000 },
            { 22000, 2000 }, { 30000, 6000 }, { 29000, 14000 }, { 21000, 15000 },
        };
        for (i = 0; i < 8; i++) {
            uint32_t c6 = (uint32_t)(63 - 7 * i) << 18 | (7 * i) << 12 |
                          (20 + 5 * i) << 6 | 63;
            gx_u8(b, 3);                       /* PNMTXIDX: matrix 3 */
            gx_u16(b, q[i][0]);
            gx_u16(b, q[i][1]);
            gx_u16(b, 16384);                  /* z = 0.5, -0.5 after matrix 3 */
            gx_u8(b, c6 >> 16);
            gx_u8(b, c6 >> 8);
            gx_u8(b, c6);
        }
    }
    /* VAT 4: xy f32 (z = 0, the near end), RGB888x — triangles */
    gx_cp(b, CPR_VCD_LO, 0x2200);
    gx_cp(b, CPR_VAT_A + 4, 0x40000000 | VTX_F32 << 1 | 0 |
                            1 << 13 | VTX_RGB888X << 14);
    gx_cp(b, CPR_VAT_B + 4, 0x80000000);
    gx_draw(b, GX_DRAW_TRIANGLES, 4, 6);
    {
        static const float t[6][2] = {
            { 0.1f, -0.2f }, { 0.9f, -0.3f }, { 0.5f, -0.9f },
            { -0.2f, -0.5f }, { 0.3f, -0.95f }, { -0.6f, -0.92f },
        };
        for (i = 0; i < 6; i++) {
            gx_f32(b, t[i][0]);
            gx_f32(b, t[i][1]);
            gx_u32(b, (uint32_t)(40 * i) << 24 | (255 - 40 * i) << 16 |
                      (128 + 20 * i) << 8 | 0x5A);
        }
    }
    end_frame(b);
}

/* indexed attributes, an indexed XF matrix load and a display list */
static void scene_indexed(FlipperScene *s, GByteArray *b)
{
    const uint32_t pos = SCENE_DATA_ADDR, col = SCENE_DATA_ADDR + 0x400;
    const uint32_t mtx = SCENE_DATA_ADDR + 0x800, dl = SCENE_DATA_ADDR + 0x1000;
    static const int16_t p[8][3] = {
        { -200, -150, -64 }, { 0, -210, -64 }, { 220, -120, -64 },
        { 180, 160, -64 }, { -60, 200, -64 }, { -230, 90, -64 },
        { 20, 20, -64 }, { 100, -40, -64 },
    };
    static const float m[2][12] = {
        { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0 },
        { 0.5f, 0.12f, 0, 0.02f, -0.09f, 0.52f, 0, -0.03f, 0, 0, 1, 0 },
    };
    uint8_t *d;
    GByteArray *list = g_byte_array_new();
    int i, k;

    d = flipper_scene_add_blob(s, pos, 8 * 6);
    for (i = 0; i < 8; i++) {
        for (k = 0; k < 3; k++) {
            put16(d + 6 * i + 2 * k, (uint16_t)p[i][k]);
        }
    }
    d = flipper_scene_add_blob(s, col, 8 * 4);
    for (i = 0; i < 8; i++) {
        put32(d + 4 * i, sat_color(255 - 30 * i, 30 * i, (i * 97) & 255, 255));
    }
    d = flipper_scene_add_blob(s, mtx, 2 * 48);
    for (i = 0; i < 2; i++) {
        for (k = 0; k < 12; k++) {
            put32(d + 48 * i + 4 * k, gx_fbits(m[i][k]));
        }
    }
    /* the display list: indexed triangles and a quad */
    gx_draw(list, GX_DRAW_TRIANGLE_FAN, 5, 7);
    for (i = 0; i < 7; i++) {
        gx_u8(list, (uint8_t)(i == 6 ? 0 : i));
        gx_u16(list, (uint16_t)((i * 3) % 8));
    }
    gx_draw(list, GX_DRAW_TRIANGLES, 5, 3);
    gx_u8(list, 6);
    gx_u16(list, 7);
    gx_u8(list, 7);
    gx_u16(list, 6);
    gx_u8(list, 3);
    gx_u16(list, 5);
    gx_pad32(list);
    d = flipper_scene_add_blob(s, dl, list->len);
    memcpy(d, list->data, list->len);

    begin_frame(b, 0x000020FF);
    gx_cp(b, CPR_ARRAY_BASE + CP_ARRAY_POS, pos);
    gx_cp(b, CPR_ARRAY_STRIDE + CP_ARRAY_POS, 6);
    gx_cp(b, CPR_ARRAY_BASE + CP_ARRAY_CLR0, col);
    gx_cp(b, CPR_ARRAY_STRIDE + CP_ARRAY_CLR0, 4);
    gx_cp(b, CPR_ARRAY_BASE + CP_ARRAY_XF_A, mtx);
    gx_cp(b, CPR_ARRAY_STRIDE + CP_ARRAY_XF_A, 48);
    gx_xf_indexed(b, 0, 1, 12, XF_MEM_POSMTX);  /* matrix 0 = element 1 */
    gx_cp(b, CPR_VCD_LO, VCD_INDEX8 << 9 | VCD_INDEX16 << 13);
    gx_cp(b, CPR_VAT_A + 5, 0x40000000 | 7 << 4 | VTX_S16 << 1 | 1 |
                            1 << 13 | VTX_RGBA8888 << 14);
    gx_cp(b, CPR_VAT_B + 5, 0x80000000);
    gx_call_dl(b, dl, list->len);
    end_frame(b);
    g_byte_array_unref(list);
}

/* three TEV stages: konstant, colour register with scale 2, compare */
static void scene_tev(FlipperScene *s, GByteArray *b)
{
    begin_frame(b, 0x404040FF);
    gx_bp(b, BP_GENMODE, 0x000010 | 2 << 10);   /* 3 stages */
    gx_bp(b, BP_TREF0, 0);                      /* stages 0, 1: colour 0 */
    gx_bp(b, BP_TREF0 + 1, 0x380000);           /* stage 2: colour 0 */
    gx_bp(b, BP_TEV_KSEL0, (0x018064 & ~0x1F0u) | 12 << 4); /* stage 0: K0 */
    /* K0 = (0xC0, 0x80, 0x40, 0xFF); C1 = (40, -20, 10, 0); C2 = (100, 150, 50) */
    gx_bp(b, BP_TEV_REGISTERL0 + 0, 0x800000 | 0xFF << 12 | 0xC0);
    gx_bp(b, BP_TEV_REGISTERL0 + 1, 0x800000 | 0x80 << 12 | 0x40);
    gx_bp(b, BP_TEV_REGISTERL0 + 4, 0 << 12 | 40);
    gx_bp(b, BP_TEV_REGISTERL0 + 5, 0x7EC << 12 | 10);
    gx_bp(b, BP_TEV_REGISTERL0 + 6, 0 << 12 | 100);
    gx_bp(b, BP_TEV_REGISTERL0 + 7, 150 << 12 | 50);
    gx_bp(b, BP_TEV_COLOR_ENV0 + 0, 0x08FAEF);  /* PREV = RASC * KONST */
    gx_bp(b, BP_TEV_COLOR_ENV0 + 1, 0x08FFD0);
    gx_bp(b, BP_TEV_COLOR_ENV0 + 2, 0x18F4C0);  /* PREV = 2 (PREV + C1) */
    gx_bp(b, BP_TEV_COLOR_ENV0 + 3, 0x08FFD0);
    gx_bp(b, BP_TEV_COLOR_ENV0 + 4, 0x3BAD60);  /* + (RASC > HALF ? C2 : 0) */
    gx_bp(b, BP_TEV_COLOR_ENV0 + 5, 0x08FFD0);
    gx_draw(b, GX_DRAW_TRIANGLE_STRIP, 0, 4);
    scene_vtx(b, -0.9f, 0.9f, -0.5f, 0xFF2000FF);
    scene_vtx(b, 0.9f, 0.85f, -0.5f, 0x20FF40FF);
    scene_vtx(b, -0.85f, -0.9f, -0.5f, 0x4020FFFF);
    scene_vtx(b, 0.8f, -0.8f, -0.5f, 0xFFFFFFFF);
    end_frame(b);
}

/* blending, subtract, logic op, constant destination alpha */
static void scene_blend(FlipperScene *s, GByteArray *b)
{
    begin_frame(b, 0x306090FF);
    gx_draw(b, GX_DRAW_TRIANGLES, 0, 3);
    scene_vtx(b, -0.9f, 0.9f, -0.5f, 0xFFFF00FF);
    scene_vtx(b, 0.2f, 0.8f, -0.5f, 0xFF8000FF);
    scene_vtx(b, -0.5f, -0.6f, -0.5f, 0xFFFFFFFF);
    /* src alpha / inv src alpha, Z test off */
    gx_bp(b, BP_ZMODE, 0);
    gx_bp(b, BP_BLENDMODE, 0x18 | 1 | 5 << 5 | 4 << 8);
    gx_draw(b, GX_DRAW_TRIANGLES, 0, 3);
    scene_vtx(b, -0.6f, 0.5f, -0.5f, 0x0000FF20);
    scene_vtx(b, 0.7f, 0.6f, -0.5f, 0x00FF00C0);
    scene_vtx(b, 0.1f, -0.8f, -0.5f, 0xFF00FF80);
    /* subtract */
    gx_bp(b, BP_BLENDMODE, 0x18 | 1 | 1 << 11);
    gx_draw(b, GX_DRAW_TRIANGLES, 0, 3);
    scene_vtx(b, 0.3f, 0.95f, -0.5f, 0x404040FF);
    scene_vtx(b, 0.95f, 0.9f, -0.5f, 0x804000FF);
    scene_vtx(b, 0.6f, 0.1f, -0.5f, 0x008080FF);
    /* logic op XOR */
    gx_bp(b, BP_BLENDMODE, 0x18 | 2 | 6 << 12);
    gx_draw(b, GX_DRAW_TRIANGLES, 0, 3);
    scene_vtx(b, -0.95f, -0.2f, -0.5f, 0xFFFFFFFF);
    scene_vtx(b, -0.1f, -0.3f, -0.5f, 0x0F0F0FFF);
    scene_vtx(b, -0.7f, -0.95f, -0.5f, 0xF0F0F0FF);
    /* blend factors from the destination: DSTCLR * 1 + SRCALPHA */
    gx_bp(b, BP_BLENDMODE, 0x18 | 1 | 4 << 5 | 2 << 8);
    gx_draw(b, GX_DRAW_TRIANGLES, 0, 3);
    scene_vtx(b, 0.3f, -0.2f, -0.5f, 0x80FF80A0);
    scene_vtx(b, 0.95f, -0.4f, -0.5f, 0xFF8080A0);
    scene_vtx(b, 0.5f, -0.95f, -0.5f, 0x8080FFA0);
    gx_bp(b, BP_BLENDMODE, 0x18);
    gx_bp(b, BP_ZMODE, 0x17);
    end_frame(b);
}

/* lines (width 4 px), a line strip (2 px) and points (6 px) */
static void scene_lines(FlipperScene *s, GByteArray *b)
{
    int i;

    begin_frame(b, 0x000000FF);
    gx_bp(b, BP_LINEPTWIDTH, 24 | 36 << 8);
    gx_draw(b, GX_DRAW_LINES, 0, 6);
    scene_vtx(b, -0.9f, 0.8f, -0.5f, 0xFF0000FF);
    scene_vtx(b, 0.8f, 0.6f, -0.5f, 0x00FF00FF);
    scene_vtx(b, -0.8f, -0.7f, -0.5f, 0x0000FFFF);
    scene_vtx(b, -0.6f, 0.7f, -0.5f, 0xFFFF00FF);
    scene_vtx(b, 0.1f, 0.4f, -0.5f, 0xFFFFFFFF);
    scene_vtx(b, 0.9f, -0.9f, -0.5f, 0xFF00FFFF);
    gx_bp(b, BP_LINEPTWIDTH, 12 | 36 << 8);
    gx_draw(b, GX_DRAW_LINE_STRIP, 0, 5);
    for (i = 0; i < 5; i++) {
        scene_vtx(b, -0.8f + 0.35f * i, (i & 1) ? -0.2f : 0.1f, -0.5f,
                  0x80FF80FF - 0x30000000u * i);
    }
    gx_draw(b, GX_DRAW_POINTS, 0, 4);
    for (i = 0; i < 4; i++) {
        scene_vtx(b, 0.2f + 0.17f * i, -0.5f + 0.05f * i, -0.5f,
                  0xFFC000FF - 0x00300000u * i);
    }
    end_frame(b);
}

/* a perspective view: a floor going into the distance and a triangle
 * crossing the near plane (clipped) */
static void scene_perspective(FlipperScene *s, GByteArray *b)
{
    float n = 0.1f, f = 100.0f, t = 1.0f / tanf(30.0f * (float)M_PI / 180.0f);
    float proj[6] = { t / (4.0f / 3.0f), 0.0f, t, 0.0f, -n / (f - n),
                      -(f * n) / (f - n) };
    uint32_t w[7];
    int i;

    for (i = 0; i < 6; i++) {
        w[i] = gx_fbits(proj[i]);
    }
    w[6] = 0;
    begin_frame(b, 0x101828FF);
    gx_xf(b, XF_REG_PROJECTION, 7, w);
    gx_draw(b, GX_DRAW_TRIANGLE_STRIP, 0, 4);
    scene_vtx(b, -2.0f, -1.0f, -1.0f, 0xE0E0E0FF);
    scene_vtx(b, 2.0f, -1.0f, -1.0f, 0xE08080FF);
    scene_vtx(b, -2.0f, -1.0f, -30.0f, 0x202020FF);
    scene_vtx(b, 2.0f, -1.0f, -30.0f, 0x2020A0FF);
    gx_draw(b, GX_DRAW_TRIANGLES, 0, 3);
    scene_vtx(b, -0.5f, -0.5f, 0.5f, 0xFF0000FF);
    scene_vtx(b, 0.8f, 0.2f, -4.0f, 0x00FF00FF);
    scene_vtx(b, -1.2f, 0.9f, -6.0f, 0x0000FFFF);
    end_frame(b);
}

/* RGBA6 EFB with dithering */
static void scene_rgba6(FlipperScene *s, GByteArray *b)
{
    begin_frame(b, 0x000000FF);
    gx_bp(b, BP_ZCOMPARE, 0x000041);
    gx_bp(b, BP_BLENDMODE, 0x1C);                /* dither on */
    gx_draw(b, GX_DRAW_QUADS, 0, 4);
    scene_vtx(b, -0.9f, 0.9f, -0.5f, 0x000000FF);
    scene_vtx(b, 0.9f, 0.9f, -0.5f, 0xFF0000FF);
    scene_vtx(b, 0.9f, -0.9f, -0.5f, 0xFFFFFFFF);
    scene_vtx(b, -0.9f, -0.9f, -0.5f, 0x0000FFFF);
    end_frame(b);
}

/* the guest demo's final frame: the shared cube scene in perspective */
static void scene_cube(FlipperScene *s, GByteArray *b)
{
    static uint8_t buf[4096];
    FlipperGX g = { buf, 0, sizeof(buf) };

    flipper_cube_frame(&g, FLIPPER_CUBE_FINAL_FRAME);
    g_assert(g.len <= g.cap);
    g_byte_array_append(b, buf, g.len);
}


/* ---- textured scenes --------------------------------------------------- */


/* a deterministic hash for texel values */
static uint32_t tex_hash(uint32_t x, uint32_t y, uint32_t salt)
{
    uint32_t h = x * 0x9E3779B1u ^ y * 0x85EBCA77u ^ salt * 0xC2B2AE3Du;

    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    return h;
}

void scene_tex_begin(GByteArray *b, int ntex, int nstages)
{
    static const float ident[12] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0 };

    gx_xff(b, 0xF0, 12, ident);
    gx_cp(b, CPR_MATINDEX_A, 60 << 6);
    gx_xf1(b, XF_REG_MATINDEX_A, 60 << 6);
    gx_cp(b, CPR_VCD_LO, 0x2200);
    gx_cp(b, CPR_VCD_HI, VCD_DIRECT);             /* TEX0 direct */
    gx_cp(b, CPR_VAT_A + 6, 0x40016009 | 1u << 21 | VTX_F32 << 22);
    gx_cp(b, CPR_VAT_B + 6, 0x80000000);
    gx_xf1(b, XF_REG_INVTXSPEC, 1 | 1 << 4);
    gx_xf1(b, XF_REG_NUMTEX, (uint32_t)ntex);
    gx_xf1(b, XF_REG_TEXGEN0, 5 << 7);            /* source row TEX0 */
    gx_xf1(b, XF_REG_DUALTEX, 0);                 /* no post matrices */
    gx_bp(b, BP_GENMODE, (uint32_t)ntex | 1 << 4 | (uint32_t)(nstages - 1) << 10);
}

void scene_tex_vtx(GByteArray *b, float x, float y, float z, uint32_t rgba,
                   float s, float t)
{
    scene_vtx(b, x, y, z, rgba);
    gx_f32(b, s);
    gx_f32(b, t);
}

static void tex_vtx(GByteArray *b, float x, float y, uint32_t rgba, float s,
                    float t)
{
    scene_tex_vtx(b, x, y, -0.5f, rgba, s, t);
}

/* an axis-aligned quad with (s, t) from (s0, t0) to (s1, t1) */
static void tex_quad(GByteArray *b, float x0, float y0, float x1, float y1,
                     float s0, float t0, float s1, float t1)
{
    gx_draw(b, GX_DRAW_QUADS, 6, 4);
    tex_vtx(b, x0, y0, 0xFF4020FF, s0, t0);
    tex_vtx(b, x1, y0, 0x20FF40C0, s1, t0);
    tex_vtx(b, x1, y1, 0x2040FF80, s1, t1);
    tex_vtx(b, x0, y1, 0xFFFFFF40, s0, t1);
}

/* texture coordinate n spans w x h texels */
static void tex_scale(GByteArray *b, int n, int w, int h)
{
    gx_bp(b, (uint8_t)(BP_SU_SSIZE0 + 2 * n), (uint32_t)(w - 1));
    gx_bp(b, (uint8_t)(BP_SU_SSIZE0 + 2 * n + 1), (uint32_t)(h - 1));
}

/* a texture of random raw texels (CMPR: random blocks), mip levels too */
static uint32_t tex_random(FlipperScene *s, uint32_t addr, unsigned fmt,
                           int w, int h, int levels, uint32_t salt)
{
    uint32_t size = tex_level_offset(fmt, w, h, levels);
    uint8_t *d = flipper_scene_add_blob(s, addr, size);
    int l, x, y;

    for (l = 0; l < levels; l++) {
        int lw = MAX(w >> l, 1), lh = MAX(h >> l, 1);
        uint8_t *p = d + tex_level_offset(fmt, w, h, l);
        if (fmt == TX_FMT_CMPR) {
            for (y = 0; y < (lh + 3) / 4; y++) {
                for (x = 0; x < (lw + 3) / 4; x++) {
                    uint32_t r = tex_hash(x, y, salt + l);
                    tex_put_cmpr(p, lw, x, y, (uint16_t)r, (uint16_t)(r >> 16),
                                 tex_hash(y, x, salt ^ 0x55));
                }
            }
            continue;
        }
        for (y = 0; y < lh; y++) {
            for (x = 0; x < lw; x++) {
                /* a smooth ramp with noise: visible structure per level */
                uint32_t r = tex_hash(x, y, salt + l);
                if (fmt == TX_FMT_RGBA8) {
                    r = (r & 0xFF000000) | ((uint32_t)(x * 255 / lw)) << 16 |
                        ((uint32_t)(y * 255 / lh)) << 8 | ((r >> 8) & 0xFF);
                }
                tex_put(fmt, p, lw, x, y, r);
            }
        }
    }
    return size;
}

/* stage 0: colour = lerp(RASC, TEXC, TEXA), alpha = TEXA */
static void tex_stage0(GByteArray *b, int map)
{
    gx_bp(b, BP_TREF0, 0x380000 | 1 << 6 | (uint32_t)map);
    gx_bp(b, BP_TEV_COLOR_ENV0, 0x08A89F);
    gx_bp(b, BP_TEV_COLOR_ENV0 + 1, 0x08FFC0);
}

/* every direct format on its own map (0-7), nearest, with each wrap mode */
static void scene_tex_formats(FlipperScene *s, GByteArray *b)
{
    static const struct {
        unsigned fmt;
        int w, h;
        uint32_t mode0;
        float s0, t0, s1, t1;
    } q[8] = {
        { TX_FMT_I4, 32, 32, 0x05, -0.5f, -0.5f, 1.5f, 1.5f },  /* repeat */
        { TX_FMT_I8, 16, 16, 0x0A, -0.5f, -0.25f, 1.5f, 1.25f }, /* mirror */
        { TX_FMT_IA4, 16, 8, 0x00, -0.25f, -0.25f, 1.25f, 1.25f }, /* clamp */
        { TX_FMT_IA8, 8, 8, 0x09, 0.0f, 0.0f, 2.0f, 1.0f },
        { TX_FMT_RGB565, 16, 16, 0x06, 0.0f, -1.0f, 1.0f, 1.0f },
        { TX_FMT_RGB5A3, 16, 16, 0x00, 0.0f, 0.0f, 1.0f, 1.0f },
        { TX_FMT_RGBA8, 8, 8, 0x05, 0.0f, 0.0f, 1.0f, 1.0f },
        { TX_FMT_CMPR, 16, 16, 0x05, 0.0f, 0.0f, 1.0f, 1.0f },
    };
    uint32_t addr = SCENE_TEX_ADDR;
    int i;

    begin_frame(b, 0x606060FF);
    scene_tex_begin(b, 1, 1);
    for (i = 0; i < 8; i++) {
        float x0 = -0.95f + 0.48f * (i % 4), y0 = 0.9f - 0.92f * (i / 4);

        gx_tex_map(b, i, q[i].fmt, q[i].w, q[i].h, addr, q[i].mode0, 0, 0);
        addr += (tex_random(s, addr, q[i].fmt, q[i].w, q[i].h, 1, 7 * i) + 31) &
                ~31u;
        tex_scale(b, 0, q[i].w, q[i].h);
        tex_stage0(b, i);
        tex_quad(b, x0, y0, x0 + 0.44f, y0 - 0.84f, q[i].s0, q[i].t0,
                 q[i].s1, q[i].t1);
    }
    end_frame(b);
}

/* C4, C8 and C14X2 through TLUTs in IA8, RGB565 and RGB5A3 loaded with
 * LOADTLUT0/1; the C8 texture again bilinear and mirrored */
static void scene_tex_tlut(FlipperScene *s, GByteArray *b)
{
    static const struct {
        uint32_t tmem;      /* TLUT offset in the high bank, 512-byte units */
        int entries;
        unsigned tlut_fmt;
    } tl[3] = {
        { 0x200, 16, TLUT_FMT_IA8 },        /* libogc's 0xC0000 */
        { 0x208, 256, TLUT_FMT_RGB565 },
        { 0x300, 1024, TLUT_FMT_RGB5A3 },   /* libogc's 0xE0000 */
    };
    static const unsigned fmt[3] = { TX_FMT_C4, TX_FMT_C8, TX_FMT_C14X2 };
    uint32_t addr = SCENE_TEX_ADDR, tex[3];
    int i, k, x, y;

    begin_frame(b, 0x204060FF);
    scene_tex_begin(b, 1, 1);
    for (i = 0; i < 3; i++) {
        uint8_t *d = flipper_scene_add_blob(s, addr, 2 * tl[i].entries);
        for (k = 0; k < tl[i].entries; k++) {
            uint32_t r = tex_hash(k, i, 99);
            d[2 * k] = (uint8_t)(r >> 8);
            d[2 * k + 1] = (uint8_t)r;
        }
        gx_bp(b, BP_LOADTLUT0, addr >> 5);
        gx_bp(b, BP_LOADTLUT1, tl[i].tmem | (uint32_t)(tl[i].entries / 16) << 10);
        addr += 2 * tl[i].entries;
    }
    for (i = 0; i < 3; i++) {
        uint8_t *d;
        tex[i] = addr;
        d = flipper_scene_add_blob(s, addr, tex_size(fmt[i], 16, 16));
        for (y = 0; y < 16; y++) {
            for (x = 0; x < 16; x++) {
                uint32_t r = tex_hash(x, y, 17 + i);
                /* C14X2: indices below the TLUT's 1024 entries, top bits set */
                tex_put(fmt[i], d, 16, x, y,
                        fmt[i] == TX_FMT_C14X2 ? (r & 0xC3FF) : r);
            }
        }
        addr += tex_size(fmt[i], 16, 16);
        gx_tex_map(b, i, fmt[i], 16, 16, tex[i], 0x05, 0,
                tl[i].tmem | tl[i].tlut_fmt << 10);
    }
    /* map 3: the C8 texture, bilinear, mirrored, RGB5A3 TLUT (reads the
     * first 256 entries of the C14X2 TLUT) */
    gx_tex_map(b, 3, TX_FMT_C8, 16, 16, tex[1], 0x0A | 1 << 4 | 4 << 5, 0,
            tl[2].tmem | TLUT_FMT_RGB5A3 << 10);
    tex_scale(b, 0, 16, 16);
    for (i = 0; i < 4; i++) {
        float x0 = -0.95f + 0.96f * (i % 2), y0 = 0.95f - 0.96f * (i / 2);
        tex_stage0(b, i);
        tex_quad(b, x0, y0, x0 + 0.9f, y0 - 0.9f, i == 3 ? -0.3f : 0.0f,
                 i == 3 ? -0.2f : 0.0f, i == 3 ? 1.7f : 1.0f, 1.0f);
    }
    end_frame(b);
}

/* bilinear magnification; mipmaps on a perspective floor (trilinear with
 * a LOD bias, nearest-mip with diagonal LOD and LOD clamps) */
static void scene_tex_filter(FlipperScene *s, GByteArray *b)
{
    float n = 0.1f, f = 100.0f, t = 1.0f / tanf(30.0f * (float)M_PI / 180.0f);
    float proj[6] = { t / (4.0f / 3.0f), 0.0f, t, 0.0f, -n / (f - n),
                      -(f * n) / (f - n) };
    static const uint32_t ortho[7] = {
        0x3F800000, 0, 0x3F800000, 0, 0xBF800000, 0xBF800000, 1,
    };
    uint32_t w[7], addr = SCENE_TEX_ADDR;
    int i;

    for (i = 0; i < 6; i++) {
        w[i] = gx_fbits(proj[i]);
    }
    w[6] = 0;
    begin_frame(b, 0x000000FF);
    scene_tex_begin(b, 1, 1);
    /* map 0: RGB565 8x8, bilinear magnification, repeat */
    gx_tex_map(b, 0, TX_FMT_RGB565, 8, 8, addr, 0x05 | 1 << 4 | 4 << 5, 0, 0);
    addr += tex_random(s, addr, TX_FMT_RGB565, 8, 8, 1, 3);
    /* map 1: RGBA8 64x64 with 7 levels: linear-mip-linear, bias +0.5 */
    gx_tex_map(b, 1, TX_FMT_RGBA8, 64, 64, addr,
            0x05 | 1 << 4 | 6 << 5 | 16u << 9, 6 << 12, 0);
    addr += tex_random(s, addr, TX_FMT_RGBA8, 64, 64, 7, 11);
    /* map 2: I8 32x32 with 6 levels: nearest-mip-nearest, diagonal LOD,
     * LOD clamped to [0.5, 3], bias -1 */
    gx_tex_map(b, 2, TX_FMT_I8, 32, 32, addr,
            0x05 | 1 << 5 | 1 << 8 | (uint32_t)(uint8_t)-32 << 9,
            8 | 48 << 8, 0);
    addr += tex_random(s, addr, TX_FMT_I8, 32, 32, 6, 13);

    tex_scale(b, 0, 8, 8);
    tex_stage0(b, 0);
    tex_quad(b, -0.95f, 0.95f, -0.35f, 0.15f, -0.3f, -0.3f, 1.7f, 1.2f);

    /* the floor: two strips in perspective, one per mipmapped map */
    gx_xf(b, XF_REG_PROJECTION, 7, w);
    for (i = 0; i < 2; i++) {
        float x0 = i ? 0.1f : -3.0f, x1 = i ? 3.0f : -0.1f;
        tex_scale(b, 0, i ? 32 : 64, i ? 32 : 64);
        tex_stage0(b, 1 + i);
        gx_draw(b, GX_DRAW_QUADS, 6, 4);
        scene_tex_vtx(b, x0, -1.0f, -1.5f, 0xFFFFFFFF, 0.0f, 0.0f);
        scene_tex_vtx(b, x1, -1.0f, -1.5f, 0xFFFFFFFF, 3.0f, 0.0f);
        scene_tex_vtx(b, x1, -1.0f, -40.0f, 0xFFFFFFFF, 3.0f, 24.0f);
        scene_tex_vtx(b, x0, -1.0f, -40.0f, 0xFFFFFFFF, 0.0f, 24.0f);
    }
    gx_xf(b, XF_REG_PROJECTION, 7, ortho);
    /* map 1 again, minified on an orthographic quad (trilinear) */
    tex_scale(b, 0, 64, 64);
    tex_stage0(b, 1);
    tex_quad(b, 0.35f, 0.95f, 0.95f, 0.35f, 0.0f, 0.0f, 5.0f, 3.0f);
    end_frame(b);
}

/*
 * Four TEV stages over two textures and two texgens: texgen 1 is the
 * position through a 3x4 texture matrix (STQ, ABC1: projective), both go
 * through post matrices (coordinate 1 normalised first). Stage 0 TEXC *
 * RASC; stage 1 + TEXC * K1 with the texture through swap table 1 (RRRA)
 * and alpha * TEXA; stage 2 compare modes (GR16 on colour, A8 on alpha)
 * sampling map 0 with coordinate 1; stage 3 no texture (TEXC/TEXA kept),
 * ras colour through swap table 2, subtract with scale 2, alpha + TEXA *
 * K0.a; alpha test 0x30 < a < 0xF0 discards pixels. tex-tev-alpha shows
 * the alpha instead (stage 3 colour = APREV, no alpha test): the copy to
 * the XFB has no alpha.
 */
static void tex_tev(FlipperScene *s, GByteArray *b, bool show_alpha)
{
    static const float mtx1[12] = {            /* XF 120: texture matrix 30 */
        0.6f, 0.1f, 0, 0.5f, -0.05f, -0.6f, 0, 0.5f, 0.4f, 0, 0, 1.0f,
    };
    static const float post[2][12] = {         /* XF 0x5F4 and 0x504 */
        { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0 },
        { 1.5f, 0, 0, 0.1f, 0, 1.25f, 0, 0, 0, 0, 1, 0 },
    };
    uint32_t addr = SCENE_TEX_ADDR;

    begin_frame(b, 0x203020FF);
    scene_tex_begin(b, 2, 4);
    gx_xff(b, 120, 12, mtx1);
    gx_xff(b, XF_MEM_POSTMTX + 4 * 61, 12, post[0]);
    gx_xff(b, XF_MEM_POSTMTX + 4 * 1, 12, post[1]);
    gx_cp(b, CPR_MATINDEX_A, 60 << 6 | 30 << 12);
    gx_xf1(b, XF_REG_MATINDEX_A, 60 << 6 | 30 << 12);
    gx_xf1(b, XF_REG_TEXGEN0 + 1, 0 << 7 | 1 << 2 | 1 << 1);  /* GEOM, ABC1, STQ */
    gx_xf1(b, XF_REG_DUALTEX, 1);
    gx_xf1(b, XF_REG_DUALTEX0, 61);
    gx_xf1(b, XF_REG_DUALTEX0 + 1, 1 | 1 << 8);               /* normalised */
    tex_scale(b, 0, 16, 16);
    tex_scale(b, 1, 16, 16);

    gx_tex_map(b, 0, TX_FMT_RGB5A3, 16, 16, addr, 0x05 | 1 << 4 | 4 << 5, 0, 0);
    addr += tex_random(s, addr, TX_FMT_RGB5A3, 16, 16, 1, 21);
    gx_tex_map(b, 1, TX_FMT_IA8, 16, 16, addr, 0x05, 0, 0);
    addr += tex_random(s, addr, TX_FMT_IA8, 16, 16, 1, 23);

    /* stages 0/1: map 0 coord 0, map 1 coord 1; 2: map 0 coord 1; 3: none */
    gx_bp(b, BP_TREF0, 0x40 | (1 | 1 << 3 | 1 << 6) << 12);
    gx_bp(b, BP_TREF0 + 1, 0x48);
    gx_bp(b, BP_TEV_COLOR_ENV0 + 0, 0x08F8AF);  /* TEXC * RASC */
    gx_bp(b, BP_TEV_COLOR_ENV0 + 1, 0x08F2F0);  /* TEXA * RASA */
    gx_bp(b, BP_TEV_COLOR_ENV0 + 2, 0x08F8E0);  /* CPREV + TEXC * KONST */
    gx_bp(b, BP_TEV_COLOR_ENV0 + 3, 0x08E274);  /* APREV * TEXA, tswap 1 */
    gx_bp(b, BP_TEV_COLOR_ENV0 + 4, 0x1B8240);  /* CPREV + (TEXC.gr > C0.gr ? C1) */
    gx_bp(b, BP_TEV_COLOR_ENV0 + 5, 0x3B8580);  /* APREV + (TEXA > A0 ? A2) per A8 */
    /* 2 (CPREV - lerp(RASC, 0, 1/2)), or APREV to show the alpha path */
    gx_bp(b, BP_TEV_COLOR_ENV0 + 6, show_alpha ? 0x08FFF1 : 0x1CAFD0);
    gx_bp(b, BP_TEV_COLOR_ENV0 + 7, 0x08F302);  /* APREV + TEXA * K0.a, rswap 2 */
    gx_bp(b, BP_TEV_KSEL0, 0x4 | 13 << 14);     /* stage 1 colour: K1 */
    gx_bp(b, BP_TEV_KSEL0 + 1, 0xE | 28 << 19); /* stage 3 alpha: K0.a */
    /* K0 = (0, 0, 0, 0x80), K1 = (0x40, 0x80, 0xC0); C0 = (128, 64, 0, 100),
     * C1 = (200, 30, 90, 0), C2 = (0, 0, 0, 60) */
    gx_bp(b, BP_TEV_REGISTERL0 + 0, 0x800000 | 0x80 << 12);
    gx_bp(b, BP_TEV_REGISTERL0 + 1, 0x800000);
    gx_bp(b, BP_TEV_REGISTERL0 + 2, 0x800000 | 0x40);
    gx_bp(b, BP_TEV_REGISTERL0 + 3, 0x800000 | 0x80 << 12 | 0xC0);
    gx_bp(b, BP_TEV_REGISTERL0 + 2, 100 << 12 | 128);
    gx_bp(b, BP_TEV_REGISTERL0 + 3, 64 << 12 | 0);
    gx_bp(b, BP_TEV_REGISTERL0 + 4, 200);
    gx_bp(b, BP_TEV_REGISTERL0 + 5, 30 << 12 | 90);
    gx_bp(b, BP_TEV_REGISTERL0 + 6, 60 << 12);
    gx_bp(b, BP_TEV_REGISTERL0 + 7, 0);
    if (show_alpha) {
        gx_bp(b, BP_ALPHACOMPARE, 0x3F0000);    /* always */
    } else {
        gx_bp(b, BP_ALPHACOMPARE, 0x30 | 0xF0 << 8 | 4 << 16 | 1 << 19);
    }
    gx_draw(b, GX_DRAW_QUADS, 6, 4);
    tex_vtx(b, -0.9f, 0.9f, 0xFF8040FF, 0.0f, 0.0f);
    tex_vtx(b, 0.9f, 0.8f, 0x40FF80E0, 1.0f, 0.0f);
    tex_vtx(b, 0.85f, -0.9f, 0x8040FFA0, 1.0f, 1.0f);
    tex_vtx(b, -0.8f, -0.85f, 0xFFFFFFFF, 0.0f, 1.0f);
    end_frame(b);
}

static void scene_tex_tev(FlipperScene *s, GByteArray *b)
{
    tex_tev(s, b, false);
}

static void scene_tex_tev_alpha(FlipperScene *s, GByteArray *b)
{
    tex_tev(s, b, true);
}

/*
 * The other texgens: coordinate 0 from the normal (ABC1 through texture
 * matrix 33: a sphere-map style lookup), 1 from colour 0's red and green,
 * 2 emboss (coordinate 0 moved by the light direction dotted with the
 * binormal and tangent); stage 3 names coordinate 5, which is not below
 * NTEX and so reads coordinate 0. Then a textured stage with NTEX = 0:
 * texels read 0.
 */
static void scene_tex_texgen(FlipperScene *s, GByteArray *b)
{
    static const float nmtx[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
    static const float mtx33[12] = {
        0.5f, 0, 0, 0.5f, 0, -0.5f, 0, 0.5f, 0, 0, 1, 0,
    };
    static const float v[4][3] = {
        { -0.9f, 0.9f, -0.5f }, { 0.9f, 0.85f, -0.5f },
        { 0.8f, -0.9f, -0.5f }, { -0.85f, -0.8f, -0.5f },
    };
    static const float nbt[4][9] = {
        { -0.6f, 0.6f, 0.53f, 1, 0, 0, 0, 1, 0 },
        { 0.7f, 0.5f, 0.51f, 0.8f, 0.6f, 0, 0, 1, 0 },
        { 0.6f, -0.7f, 0.39f, 1, 0, 0, 0.6f, 0.8f, 0 },
        { -0.5f, -0.6f, 0.62f, 0, 1, 0, 1, 0, 0 },
    };
    static const uint32_t col[4] = { 0x10F080FF, 0xF0F040FF, 0xF01080FF,
                                     0x101080FF };
    static const float light[3] = { 0.3f, 0.8f, 2.0f };
    uint32_t addr = SCENE_TEX_ADDR;
    int i, k;

    begin_frame(b, 0x182838FF);
    scene_tex_begin(b, 3, 4);
    gx_xff(b, XF_MEM_NRMMTX, 9, nmtx);
    gx_xff(b, 4 * 33, 12, mtx33);
    gx_xff(b, XF_MEM_LIGHTS + 10, 3, light);
    gx_cp(b, CPR_MATINDEX_A, 33 << 6 | 60 << 12 | 60 << 18);
    gx_xf1(b, XF_REG_MATINDEX_A, 33 << 6 | 60 << 12 | 60 << 18);
    /* VAT 7: xyz, NBT f32, RGBA8888, st f32 */
    gx_cp(b, CPR_VCD_LO, 1 << 9 | 1 << 11 | 1 << 13);
    gx_cp(b, CPR_VAT_A + 7, 0x40000000 | VTX_F32 << 1 | 1 | 1 << 9 |
                            VTX_F32 << 10 | 1 << 13 | VTX_RGBA8888 << 14 |
                            1u << 21 | VTX_F32 << 22);
    gx_cp(b, CPR_VAT_B + 7, 0x80000000);
    gx_xf1(b, XF_REG_INVTXSPEC, 1 | 2 << 2 | 1 << 4);
    gx_xf1(b, XF_REG_TEXGEN0, 1 << 7 | 1 << 2);          /* NORMAL, ABC1 */
    gx_xf1(b, XF_REG_TEXGEN0 + 1, 2 << 4 | 2 << 7);      /* colour 0 */
    gx_xf1(b, XF_REG_TEXGEN0 + 2, 1 << 4 | 0 << 12 | 0 << 15); /* emboss */
    for (i = 0; i < 3; i++) {
        static const unsigned f[3] = { TX_FMT_RGB565, TX_FMT_IA8, TX_FMT_I8 };
        tex_scale(b, i, 16, 16);
        gx_tex_map(b, i, f[i], 16, 16, addr, 0x05 | 1 << 4 | 4 << 5, 0, 0);
        addr += tex_random(s, addr, f[i], 16, 16, 1, 31 + i);
    }
    /* stages: map i with coordinate i; stage 3: map 1, coordinate 5 */
    gx_bp(b, BP_TREF0, 0x40 | (1 | 1 << 3 | 1 << 6) << 12);
    gx_bp(b, BP_TREF0 + 1, (2 | 2 << 3 | 1 << 6) | (1 | 5 << 3 | 1 << 6) << 12);
    gx_bp(b, BP_TEV_COLOR_ENV0 + 0, 0x08F8AF);  /* TEXC * RASC */
    gx_bp(b, BP_TEV_COLOR_ENV0 + 1, 0x08FFC0);
    gx_bp(b, BP_TEV_COLOR_ENV0 + 2, 0x08F8D0);  /* CPREV + TEXC / 2 */
    gx_bp(b, BP_TEV_COLOR_ENV0 + 3, 0x08FFC0);
    gx_bp(b, BP_TEV_COLOR_ENV0 + 4, 0x08F8E0);  /* CPREV + TEXC * 1/4 (konst) */
    gx_bp(b, BP_TEV_COLOR_ENV0 + 5, 0x08FFC0);
    gx_bp(b, BP_TEV_COLOR_ENV0 + 6, 0x0CF8E0);  /* (CPREV + TEXC / 4) - 1/2 */
    gx_bp(b, BP_TEV_COLOR_ENV0 + 7, 0x08FFC0);
    gx_bp(b, BP_TEV_KSEL0 + 1, 0x4 | 6 << 4 | 6 << 14);
    gx_draw(b, GX_DRAW_QUADS, 7, 4);
    for (i = 0; i < 4; i++) {
        for (k = 0; k < 3; k++) {
            gx_f32(b, v[i][k]);
        }
        for (k = 0; k < 9; k++) {
            gx_f32(b, nbt[i][k]);
        }
        gx_u32(b, col[i]);
        gx_f32(b, 0.0f);
        gx_f32(b, 0.0f);
    }
    /* no texture coordinates: a textured stage reads 0 */
    gx_bp(b, BP_GENMODE, 1 << 4);
    gx_xf1(b, XF_REG_NUMTEX, 0);
    gx_cp(b, CPR_VCD_LO, 0x2200);
    gx_bp(b, BP_TEV_COLOR_ENV0 + 0, 0x08FFF8);  /* TEXC */
    tex_quad(b, -0.3f, 0.3f, 0.3f, -0.3f, 0, 0, 1, 1);
    end_frame(b);
}

/* textured lines (4 px) and points (8 px) with the texture coordinate
 * offsets for lines and points left off, and the same with them on */
static void scene_tex_lines(FlipperScene *s, GByteArray *b)
{
    int i, pass;

    begin_frame(b, 0x000000FF);
    scene_tex_begin(b, 1, 1);
    gx_tex_map(b, 0, TX_FMT_RGB565, 16, 16, SCENE_TEX_ADDR, 0x05, 0, 0);
    tex_random(s, SCENE_TEX_ADDR, TX_FMT_RGB565, 16, 16, 1, 41);
    tex_stage0(b, 0);
    for (pass = 0; pass < 2; pass++) {
        float y0 = pass ? -0.1f : 0.9f;
        /* offsets 1/2 (lines) and 1 (points) */
        gx_bp(b, BP_LINEPTWIDTH, 24 | 48 << 8 | (pass ? 4u << 16 | 5u << 19 : 0));
        gx_bp(b, BP_SU_SSIZE0, 15 | (pass ? 3u << 18 : 0));
        gx_bp(b, BP_SU_SSIZE0 + 1, 15);
        gx_draw(b, GX_DRAW_LINES, 6, 6);
        for (i = 0; i < 3; i++) {
            tex_vtx(b, -0.9f + 0.1f * i, y0 - 0.2f * i, 0xFFFFFFFF, 0, 0);
            tex_vtx(b, 0.2f + 0.1f * i, y0 - 0.1f - 0.2f * i, 0xFFFFFFFF,
                    1.0f, 0.3f * i);
        }
        gx_draw(b, GX_DRAW_POINTS, 6, 5);
        for (i = 0; i < 5; i++) {
            tex_vtx(b, 0.4f + 0.1f * i, y0 - 0.1f * i, 0xFFFFFFFF, 0.2f * i,
                    0.13f * i);
        }
    }
    end_frame(b);
}

/* TMEM preloads: an RGB565 texture copied line by line, an RGBA8 one split
 * into its AR (even) and GB (odd) halves; maps 0 and 1 read TMEM */
static void scene_tex_preload(FlipperScene *s, GByteArray *b)
{
    uint32_t a565 = SCENE_TEX_ADDR, a8888 = SCENE_TEX_ADDR + 0x1000;

    begin_frame(b, 0x402010FF);
    scene_tex_begin(b, 1, 1);
    tex_random(s, a565, TX_FMT_RGB565, 16, 16, 1, 51);
    tex_random(s, a8888, TX_FMT_RGBA8, 16, 16, 1, 53);
    gx_bp(b, BP_PRELOAD_ADDR, a565 >> 5);
    gx_bp(b, BP_PRELOAD_TMEMEVEN, 0x100);
    gx_bp(b, BP_PRELOAD_MODE, 16);                    /* 16 lines */
    gx_bp(b, BP_PRELOAD_ADDR, a8888 >> 5);
    gx_bp(b, BP_PRELOAD_TMEMEVEN, 0x800);
    gx_bp(b, BP_PRELOAD_TMEMODD, 0x2000);
    gx_bp(b, BP_PRELOAD_MODE, 16 | 3 << 15);          /* 16 AR/GB tiles */
    gx_bp(b, BP_PRELOAD_MODE, 0);
    gx_tex_map(b, 0, TX_FMT_RGB565, 16, 16, 0, 0x05, 0, 0);
    gx_bp(b, BP_TX_REG(BP_TX_SETIMAGE1, 0), 1 << 21 | 0x100);
    gx_tex_map(b, 1, TX_FMT_RGBA8, 16, 16, 0, 0x05 | 1 << 4 | 4 << 5, 0, 0);
    gx_bp(b, BP_TX_REG(BP_TX_SETIMAGE1, 1), 1 << 21 | 0x800);
    gx_bp(b, BP_TX_REG(BP_TX_SETIMAGE2, 1), 0x2000);
    tex_scale(b, 0, 16, 16);
    tex_stage0(b, 0);
    tex_quad(b, -0.95f, 0.9f, -0.05f, -0.9f, 0.0f, 0.0f, 1.0f, 2.0f);
    tex_stage0(b, 1);
    tex_quad(b, 0.05f, 0.9f, 0.95f, -0.9f, -0.2f, 0.0f, 1.3f, 1.5f);
    end_frame(b);
}

/* Z textures: a Gouraud quad, then textured quads whose Z is the texel
 * (u8 replace; u16 add with a negative bias) against it, LEQUAL after the
 * TEV; then the same once more with Z compared before the TEV (the Z
 * texture only changes what is written) */
static void scene_tex_ztex(FlipperScene *s, GByteArray *b)
{
    const uint32_t zmid = 8388608;      /* window Z of the z = -0.5 plane */

    begin_frame(b, 0x000000FF);
    gx_draw(b, GX_DRAW_QUADS, 0, 4);
    scene_vtx(b, -0.9f, 0.9f, -0.5f, 0xFF0000FF);
    scene_vtx(b, 0.9f, 0.9f, -0.5f, 0x00FF00FF);
    scene_vtx(b, 0.9f, -0.9f, -0.5f, 0x0000FFFF);
    scene_vtx(b, -0.9f, -0.9f, -0.5f, 0xFFFFFFFF);
    scene_tex_begin(b, 1, 1);
    gx_tex_map(b, 0, TX_FMT_I8, 16, 16, SCENE_TEX_ADDR, 0x05, 0, 0);
    tex_random(s, SCENE_TEX_ADDR, TX_FMT_I8, 16, 16, 1, 61);
    gx_tex_map(b, 1, TX_FMT_IA8, 16, 16, SCENE_TEX_ADDR + 0x400, 0x05, 0, 0);
    tex_random(s, SCENE_TEX_ADDR + 0x400, TX_FMT_IA8, 16, 16, 1, 63);
    tex_scale(b, 0, 16, 16);
    gx_bp(b, BP_ZCOMPARE, 0x000000);            /* Z test after the TEV */
    /* u8, replace: Z = bias + A */
    tex_stage0(b, 0);
    gx_bp(b, BP_BIAS, zmid - 128);
    gx_bp(b, BP_ZTEX2, 0 | 2 << 2);
    tex_quad(b, -0.8f, 0.8f, 0.0f, -0.8f, 0.0f, 0.0f, 1.0f, 2.0f);
    /* u16, add: Z = Z + bias + (A << 8 | R), bias = -0x8000 */
    tex_stage0(b, 1);
    gx_bp(b, BP_BIAS, 0xFF8000);
    gx_bp(b, BP_ZTEX2, 1 | 1 << 2);
    tex_quad(b, 0.1f, 0.8f, 0.8f, -0.8f, 0.0f, 0.0f, 1.0f, 2.0f);
    /* early Z: the test sees the plane, the Z texture only the write */
    gx_bp(b, BP_ZCOMPARE, 0x000040);
    gx_bp(b, BP_ZTEX2, 0 | 2 << 2);
    gx_bp(b, BP_BIAS, 0);
    tex_stage0(b, 0);
    tex_quad(b, -0.3f, 0.3f, 0.3f, -0.3f, 0.0f, 0.0f, 1.0f, 1.0f);
    gx_bp(b, BP_ZTEX2, 0);
    end_frame(b);
}

/*
 * Indirect texturing: indirect stage 0 samples map 0 (RGBA8 offsets) with
 * coordinate 1 at half scale (RAS1_SS0); stage 0 moves its coordinate by a
 * static matrix (8-bit offsets, biased, scale 2^-4) and takes the S bump
 * alpha; stage 1 a dynamic S matrix on 5-bit offsets, s wrapped at 64
 * texels, added to the previous coordinate (FB); stage 2 has no texture
 * and shows the normalised U bump alpha (4-bit) as its colour channel.
 */
static void scene_tex_indirect(FlipperScene *s, GByteArray *b)
{
    uint32_t ind_tex = SCENE_TEX_ADDR, tex = SCENE_TEX_ADDR + 0x1000;

    begin_frame(b, 0x101010FF);
    scene_tex_begin(b, 2, 3);
    gx_xf1(b, XF_REG_TEXGEN0 + 1, 5 << 7);            /* TEX0 again */
    gx_cp(b, CPR_MATINDEX_A, 60 << 6 | 60 << 12);
    gx_xf1(b, XF_REG_MATINDEX_A, 60 << 6 | 60 << 12);
    gx_bp(b, BP_GENMODE, 2 | 1 << 4 | 2 << 10 | 1 << 16);  /* 1 indirect stage */
    tex_scale(b, 0, 32, 32);
    tex_scale(b, 1, 16, 16);
    gx_tex_map(b, 0, TX_FMT_RGBA8, 16, 16, ind_tex, 0x05 | 1 << 4 | 4 << 5,
               0, 0);
    tex_random(s, ind_tex, TX_FMT_RGBA8, 16, 16, 1, 71);
    gx_tex_map(b, 1, TX_FMT_RGB565, 32, 32, tex, 0x05, 0, 0);
    tex_random(s, tex, TX_FMT_RGB565, 32, 32, 1, 73);
    gx_bp(b, BP_IREF, 0 | 1 << 3);                    /* map 0, coordinate 1 */
    gx_bp(b, BP_RAS1_SS0, 1 | 1 << 4);                /* s, t / 2 */
    /* matrix 0: (0.5, 0; 0, 0.5; 0.1, -0.1), scale 13 (2^-4) */
    gx_bp(b, BP_IND_MTXA0, 512 | 0 << 11 | 1u << 22);
    gx_bp(b, BP_IND_MTXA0 + 1, 0 | 512 << 11 | 3u << 22);
    gx_bp(b, BP_IND_MTXA0 + 2, 102 | (uint32_t)(2048 - 102) << 11 | 0u << 22);
    /* matrix 1: scale 17 (dynamic matrices use only the scale) */
    gx_bp(b, BP_IND_MTXA0 + 3, 1u << 22);
    gx_bp(b, BP_IND_MTXA0 + 4, 0);
    gx_bp(b, BP_IND_MTXA0 + 5, 1u << 22);
    /* stage 0: BT 0, ITF_8, bias S+T, bump S, ITM_0 */
    gx_bp(b, BP_IND_CMD0, 0 | 0 << 2 | 3 << 4 | 1 << 7 | 1 << 9);
    /* stage 1: ITF_5, bias S+T, ITM_S1, SW 64, FB */
    gx_bp(b, BP_IND_CMD0 + 1, 1 << 2 | 3 << 4 | 6 << 9 | 3 << 13 | 1 << 20);
    /* stage 2: ITF_4, bump U */
    gx_bp(b, BP_IND_CMD0 + 2, 2 << 2 | 3 << 7);
    gx_bp(b, BP_TREF0, (1 | 0 << 3 | 1 << 6) | (1 | 0 << 3 | 1 << 6) << 12);
    gx_bp(b, BP_TREF0 + 1, 6 << 7 | 7 << 19);         /* stage 2: bump (norm.) */
    gx_bp(b, BP_TEV_COLOR_ENV0 + 0, 0x08FFF8);        /* TEXC */
    gx_bp(b, BP_TEV_COLOR_ENV0 + 1, 0x08FFC0);
    gx_bp(b, BP_TEV_COLOR_ENV0 + 2, 0x0808DF);        /* lerp(CPREV, TEXC, 1/2) */
    gx_bp(b, BP_TEV_COLOR_ENV0 + 3, 0x08FFC0);
    gx_bp(b, BP_TEV_COLOR_ENV0 + 4, 0x08FAD0);        /* CPREV + RASC / 2 */
    gx_bp(b, BP_TEV_COLOR_ENV0 + 5, 0x08FFC0);
    tex_quad(b, -0.9f, 0.9f, 0.9f, -0.9f, 0.0f, 0.0f, 1.5f, 1.2f);
    end_frame(b);
}

/*
 * EFB copies to texture formats: a 128x128 picture (a gouraud triangle
 * with sloped Z over a textured quad) at pixel (32, 24) is copied with
 * BP 0x49-0x4D / 0x52 into textures of several copy formats (RGB565,
 * RGBA8, RGB5A3, intensity I8/IA4/I4, R8-style G8 and RG8, the 2:1 box
 * filter, and with the pixel format switched to Z24 the Z as Z24X8 and
 * Z8), each then drawn 1:1 on a quad as the texture unit reads it.
 */
static void efb_copy_to(GByteArray *b, uint32_t addr, int fmt, bool intens,
                        bool half, int tile_w, int tile_bytes)
{
    int tw = half ? 64 : 128;
    uint32_t v = (uint32_t)((fmt & 7) << 1 | fmt >> 3);

    gx_bp(b, BP_EFB_TL, 24 << 10 | 32);
    gx_bp(b, BP_EFB_WH, 127 << 10 | 127);
    gx_bp(b, BP_EFB_ADDR, addr >> 5);
    gx_bp(b, BP_MIPMAP_STRIDE, (uint32_t)(tw / tile_w * tile_bytes) >> 5);
    gx_bp(b, BP_TRIGGER_EFB_COPY, v << 3 | (uint32_t)half << 9 |
                                  (uint32_t)intens << 15 |
                                  (uint32_t)intens << 16);
}

/* the texture at addr drawn 1:1 with its top-left at pixel (x, y), its
 * colour or (show_alpha) its alpha as the colour */
static void efb_copy_show(GByteArray *b, int map, unsigned fmt, int size,
                          uint32_t addr, int x, int y, bool show_alpha)
{
    float x0 = x / 320.0f - 1.0f, y0 = 1.0f - y / 240.0f;

    gx_tex_map(b, map, fmt, size, size, addr, 0x00, 0, 0);
    tex_scale(b, 0, size, size);
    gx_bp(b, BP_TREF0, 0x380000 | 1 << 6 | (uint32_t)map);
    /* TEXC or TEXA as the colour, TEXA as the alpha */
    gx_bp(b, BP_TEV_COLOR_ENV0, show_alpha ? 0x08FFF9 : 0x08FFF8);
    gx_bp(b, BP_TEV_COLOR_ENV0 + 1, 0x08FFC0);
    tex_quad(b, x0, y0, x0 + size / 320.0f, y0 - size / 240.0f, 0.0f, 0.0f,
             1.0f, 1.0f);
}

typedef struct EfbCopyCase {
    int fmt;                /* copy format */
    bool intens, half;
    int tile_w, tile_bytes;
    unsigned tex;           /* the texture format it is read as */
    int x, y;               /* where it is shown */
    bool show_alpha;
} EfbCopyCase;

/*
 * The source picture at pixel (32, 24), 128x128: a gouraud triangle with
 * sloped Z and alpha, then a textured quad (random RGBA8 texels) Z-tested
 * against it; copied by each case (the last nz with the pixel format
 * switched to Z24) and shown. `zcompare` is BP 0x43 (the pixel format).
 */
static void efb_copy_source(FlipperScene *s, GByteArray *b, uint32_t zcompare)
{
    begin_frame(b, 0x304050FF);
    gx_bp(b, BP_ZCOMPARE, zcompare);
    gx_draw(b, GX_DRAW_TRIANGLES, 0, 3);
    scene_vtx(b, -0.88f, 0.88f, -0.1f, 0xFF200020);
    scene_vtx(b, -0.52f, 0.7f, -0.9f, 0x20FF80FF);
    scene_vtx(b, -0.75f, 0.38f, -0.7f, 0x1040FF90);
    scene_tex_begin(b, 1, 1);
    gx_tex_map(b, 0, TX_FMT_RGBA8, 32, 32, SCENE_TEX_ADDR, 0x05, 0, 0);
    tex_random(s, SCENE_TEX_ADDR, TX_FMT_RGBA8, 32, 32, 1, 91);
    tex_scale(b, 0, 32, 32);
    tex_stage0(b, 0);
    tex_quad(b, -0.85f, 0.85f, -0.6f, 0.45f, 0.0f, 0.0f, 2.0f, 2.0f);
}

static void efb_copy_scene(FlipperScene *s, GByteArray *b, uint32_t zcompare,
                           const EfbCopyCase *c, int n, int nz)
{
    const uint32_t base = SCENE_TEX_ADDR + 0x10000;
    int i;

    efb_copy_source(s, b, zcompare);
    for (i = 0; i < n; i++) {
        if (i == n - nz) {
            gx_bp(b, BP_ZCOMPARE, 0x000043);    /* Z24: copies read Z */
        }
        efb_copy_to(b, base + 0x10000 * (uint32_t)i, c[i].fmt, c[i].intens,
                    c[i].half, c[i].tile_w, c[i].tile_bytes);
    }
    gx_bp(b, BP_ZCOMPARE, zcompare);
    for (i = 0; i < n; i++) {
        efb_copy_show(b, i & 7, c[i].tex, c[i].half ? 64 : 128,
                      base + 0x10000 * (uint32_t)i, c[i].x, c[i].y,
                      c[i].show_alpha);
    }
    end_frame(b);
}

static void scene_efb_copy(FlipperScene *s, GByteArray *b)
{
    static const EfbCopyCase c[] = {
        { 4, false, false, 4, 32, TX_FMT_RGB565, 192, 24, false },
        { 6, false, false, 4, 64, TX_FMT_RGBA8, 352, 24, false },
        { 1, true, false, 8, 32, TX_FMT_I8, 512, 24, false },
        { 5, false, false, 4, 32, TX_FMT_RGB5A3, 32, 176, false },
        { 4, false, true, 4, 32, TX_FMT_RGB565, 192, 176, false },
        { 6, false, true, 4, 64, TX_FMT_RGBA8, 272, 176, false },
        { 2, true, false, 8, 32, TX_FMT_IA4, 352, 176, false },
        { 9, false, false, 8, 32, TX_FMT_I8, 32, 328, false },
        { 11, false, false, 4, 32, TX_FMT_IA8, 192, 328, false },
        { 0, true, false, 8, 32, TX_FMT_I4, 352, 328, false },
        /* Z copies */
        { 6, false, false, 4, 64, TX_FMT_RGBA8, 512, 176, false },
        { 1, false, false, 8, 32, TX_FMT_I8, 512, 328, false },
    };

    efb_copy_scene(s, b, 0x000040, c, G_N_ELEMENTS(c), 2);
}

/* the same from an RGBA6 EFB: alpha in the copies, 6-bit box filter */
static void scene_efb_copy_rgba6(FlipperScene *s, GByteArray *b)
{
    static const EfbCopyCase c[] = {
        { 6, false, false, 4, 64, TX_FMT_RGBA8, 192, 24, true },
        { 5, false, false, 4, 32, TX_FMT_RGB5A3, 352, 24, false },
        { 7, false, false, 8, 32, TX_FMT_I8, 512, 24, false },
        { 3, true, false, 4, 32, TX_FMT_IA8, 32, 176, true },
        { 6, false, true, 4, 64, TX_FMT_RGBA8, 192, 176, false },
        { 5, false, true, 4, 32, TX_FMT_RGB5A3, 272, 176, false },
        { 2, false, false, 8, 32, TX_FMT_IA4, 352, 176, true },
        { 0, false, false, 8, 32, TX_FMT_I4, 512, 176, false },
        { 10, false, false, 8, 32, TX_FMT_I8, 32, 328, false },
        { 12, false, false, 4, 32, TX_FMT_IA8, 192, 328, true },
        { 8, false, true, 8, 32, TX_FMT_I8, 352, 328, false },
        /* Z copy: the middle byte */
        { 9, false, false, 8, 32, TX_FMT_I8, 512, 328, false },
    };

    efb_copy_scene(s, b, 0x000041, c, G_N_ELEMENTS(c), 1);
}

/*
 * Render to a mipmapped texture: the picture copied as RGB565 level 0
 * (128x128) and, with the 2:1 box filter, level 1 right after it; then
 * sampled trilinear (linear-mip-linear, max LOD 1) on a perspective floor
 * and on a minifying orthographic quad.
 */
/* the qtest's textured frame (gpu3d/flipper-cmd.h fgx_tex_frame) */
static void scene_tex_bars(FlipperScene *s, GByteArray *b)
{
    static uint8_t buf[4096];
    FlipperGX g = { buf, 0, sizeof(buf) };

    fgx_tex_fill(flipper_scene_add_blob(s, FGX_TEX_ADDR, FGX_TEX_BYTES));
    fgx_tex_frame(&g, FGX_TEX_ADDR);
    g_assert(g.len <= g.cap);
    g_byte_array_append(b, buf, g.len);
}

static void scene_efb_copy_mip(FlipperScene *s, GByteArray *b)
{
    const uint32_t addr = SCENE_TEX_ADDR + 0x10000;
    float n = 0.1f, f = 100.0f, t = 1.0f / tanf(30.0f * (float)M_PI / 180.0f);
    float proj[6] = { t / (4.0f / 3.0f), 0.0f, t, 0.0f, -n / (f - n),
                      -(f * n) / (f - n) };
    static const uint32_t ortho[7] = {
        0x3F800000, 0, 0x3F800000, 0, 0xBF800000, 0xBF800000, 1,
    };
    uint32_t w[7];
    int i;

    for (i = 0; i < 6; i++) {
        w[i] = gx_fbits(proj[i]);
    }
    w[6] = 0;
    efb_copy_source(s, b, 0x000040);
    efb_copy_to(b, addr, 4, false, false, 4, 32);
    efb_copy_to(b, addr + 128 * 128 * 2, 4, false, true, 4, 32);
    gx_tex_map(b, 1, TX_FMT_RGB565, 128, 128, addr,
               0x05 | 1 << 4 | 6 << 5, 16 << 8, 0);
    tex_scale(b, 0, 128, 128);
    tex_stage0(b, 1);
    gx_xf(b, XF_REG_PROJECTION, 7, w);
    gx_draw(b, GX_DRAW_QUADS, 6, 4);
    scene_tex_vtx(b, -3.0f, -1.0f, -1.5f, 0xFFFFFFFF, 0.0f, 0.0f);
    scene_tex_vtx(b, 3.0f, -1.0f, -1.5f, 0xFFFFFFFF, 3.0f, 0.0f);
    scene_tex_vtx(b, 3.0f, -1.0f, -40.0f, 0xFFFFFFFF, 3.0f, 12.0f);
    scene_tex_vtx(b, -3.0f, -1.0f, -40.0f, 0xFFFFFFFF, 0.0f, 12.0f);
    gx_xf(b, XF_REG_PROJECTION, 7, ortho);
    tex_quad(b, 0.0f, 0.95f, 0.95f, 0.2f, 0.0f, 0.0f, 3.0f, 2.5f);
    end_frame(b);
}

typedef struct SceneDef {
    const char *name;
    void (*build)(FlipperScene *s, GByteArray *b);
} SceneDef;

static const SceneDef scenes[] = {
    { "gouraud", scene_gouraud },
    { "depth", scene_depth },
    { "formats", scene_formats },
    { "indexed", scene_indexed },
    { "tev", scene_tev },
    { "blend", scene_blend },
    { "lines", scene_lines },
    { "perspective", scene_perspective },
    { "rgba6", scene_rgba6 },
    { "cube", scene_cube },
    { "tex-formats", scene_tex_formats },
    { "tex-tlut", scene_tex_tlut },
    { "tex-filter", scene_tex_filter },
    { "tex-tev", scene_tex_tev },
    { "tex-tev-alpha", scene_tex_tev_alpha },
    { "tex-texgen", scene_tex_texgen },
    { "tex-lines", scene_tex_lines },
    { "tex-preload", scene_tex_preload },
    { "tex-ztex", scene_tex_ztex },
    { "tex-indirect", scene_tex_indirect },
    { "efb-copy", scene_efb_copy },
    { "efb-copy-rgba6", scene_efb_copy_rgba6 },
    { "efb-copy-mip", scene_efb_copy_mip },
    { "tex-bars", scene_tex_bars },
};

const char *const *flipper_scene_names(void)
{
    static const char *names[G_N_ELEMENTS(scenes) + 1];
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(scenes); i++) {
        names[i] = scenes[i].name;
    }
    return names;
}

FlipperScene *flipper_scene_build(const char *name)
{
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(scenes); i++) {
        if (!strcmp(scenes[i].name, name)) {
            FlipperScene *s = scene_new(name);
            scenes[i].build(s, s->fifo);
            return s;
        }
    }
    return NULL;
}
