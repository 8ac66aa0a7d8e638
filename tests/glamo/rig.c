/*
 * The glamo test rig (see rig.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "rig.h"

#define RIG_CMD_WORDS (1u << 20)   /* packets built before a submit */

#include <glib.h>
#include <string.h>

void rig_init(GlamoRig *r, int threads)
{
    GlamoCoreConfig cfg = { 0 };

    memset(r, 0, sizeof(*r));
    r->vram = g_malloc0(GLAMO_VRAM_SIZE);
    r->cmd.cap = RIG_CMD_WORDS;
    r->cmd.buf = g_new(uint16_t, RIG_CMD_WORDS);
    g3d_flat_mem_init(&cfg.vram, &r->flat, r->vram, 0, GLAMO_VRAM_SIZE);
    cfg.vram_size = GLAMO_VRAM_SIZE;
    cfg.hooks.threads = threads;
    r->core = glamo_core_new(&cfg);
}

void rig_free(GlamoRig *r)
{
    glamo_core_free(r->core);
    g_free(r->vram);
    g_free(r->cmd.buf);
    memset(r, 0, sizeof(*r));
}

void rig_w16(GlamoRig *r, uint32_t off, uint16_t v)
{
    glamo_reg_write(r->core, off, v, 2);
}

uint16_t rig_r16(GlamoRig *r, uint32_t off)
{
    return (uint16_t)glamo_reg_read(r->core, off, 2);
}

void rig_w32(GlamoRig *r, uint32_t off, uint32_t v)
{
    rig_w16(r, off, (uint16_t)v);
    rig_w16(r, off + 2, (uint16_t)(v >> 16));
}

uint32_t rig_r32(GlamoRig *r, uint32_t off)
{
    return rig_r16(r, off) | (uint32_t)rig_r16(r, off + 2) << 16;
}

uint32_t rig_fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

void rig_direct32(GlamoRig *r, uint32_t reg, uint32_t val)
{
    if (glamo_reg_is16(reg)) {
        rig_w16(r, reg, (uint16_t)val);
    } else {
        rig_w32(r, reg, val);
    }
}

void rig_cmd32(GlamoRig *r, uint32_t reg, uint32_t val)
{
    glamo_cmd_wr(&r->cmd, reg, val);
}

void rig_enable_3d(GlamoRig *r)
{
    rig_w16(r, A_GLAMO_CLOCK_3D, GLAMO_CLOCK_3D_RUN |
            GLAMO_CLOCK_3D_FRONT_RESET | GLAMO_CLOCK_3D_BACK_RESET);
    rig_w16(r, A_GLAMO_CLOCK_3D, GLAMO_CLOCK_3D_RUN);
    rig_w16(r, A_GLAMO_HOSTBUS2, GLAMO_HOSTBUS2_MMIO_EN_3D |
            GLAMO_HOSTBUS2_MMIO_EN_CQ);
}

void rig_cmdq_init(GlamoRig *r, uint32_t base, uint32_t size)
{
    memset(r->vram + base, 0, size);
    /* glamo_engine_enable(CMDQ) / glamo_engine_reset(CMDQ) */
    rig_w16(r, A_GLAMO_CLOCK_2D, GLAMO_CLOCK_2D_EN_M6CLK |
            GLAMO_CLOCK_2D_CQ_RESET);
    rig_w16(r, A_GLAMO_CLOCK_2D, GLAMO_CLOCK_2D_EN_M6CLK);
    rig_w16(r, A_GLAMO_CMDQ_BASE_ADDRL, base & 0xffff);
    rig_w16(r, A_GLAMO_CMDQ_BASE_ADDRH, (base >> 16) & 0x7f);
    rig_w16(r, A_GLAMO_CMDQ_LEN, (size >> 10) - 1);
    rig_w16(r, A_GLAMO_CMDQ_WRITE_ADDRH, 0);
    rig_w16(r, A_GLAMO_CMDQ_WRITE_ADDRL, 0);
    rig_w16(r, A_GLAMO_CMDQ_READ_ADDRH, 0);
    rig_w16(r, A_GLAMO_CMDQ_READ_ADDRL, 0);
    rig_w16(r, A_GLAMO_CMDQ_CONTROL, 1 << 12 | 5 << 8 | 8 << 4);
    r->ring_base = base;
    r->ring_size = size;
    r->wptr = 0;
}

void rig_cmd_reg(GlamoRig *r, uint32_t reg, uint16_t val)
{
    glamo_cmd_reg(&r->cmd, reg, val);
}

void rig_cmd_reg32(GlamoRig *r, uint32_t reg, uint32_t val)
{
    glamo_cmd_reg(&r->cmd, reg, (uint16_t)val);
    glamo_cmd_reg(&r->cmd, reg + 2, (uint16_t)(val >> 16));
}

void rig_cmd_burst(GlamoRig *r, uint32_t reg, const uint16_t *vals, unsigned n)
{
    glamo_cmd_burst(&r->cmd, reg, vals, n);
}

void rig_cmd_submit(GlamoRig *r)
{
    unsigned i;

    g_assert(!r->cmd.overflow);
    for (i = 0; i < r->cmd.n; i++) {
        uint8_t *p = r->vram + r->ring_base + r->wptr;
        p[0] = (uint8_t)r->cmd.buf[i];
        p[1] = (uint8_t)(r->cmd.buf[i] >> 8);
        r->wptr = glamo_ring_advance(r->wptr, 1, r->ring_size);
    }
    r->cmd.n = 0;
    rig_w16(r, A_GLAMO_CMDQ_WRITE_ADDRH, (r->wptr >> 16) & 0x7f);
    rig_w16(r, A_GLAMO_CMDQ_WRITE_ADDRL, r->wptr & 0xffff);
}

unsigned rig_run(GlamoRig *r)
{
    unsigned n = 0;

    while (glamo_core_work(r->core, 64) && n < 1000000) {
        n++;
    }
    return n + 1;
}

void rig_target(GlamoRig *r, RigWrite32 *wr, uint32_t fb, uint32_t pitch,
                int w, int h, uint32_t zb)
{
    wr(r, A_EGDST0SET, GLAMO_ROP_COPY_PEN << 24 | GLAMO_CFM_RGB565 << 16 |
       (pitch / 2));
    wr(r, A_EGDST0BAS, fb);
    wr(r, A_EGCLTB, 0 << 16 | (uint32_t)h);
    wr(r, A_EGCLLR, 0 << 16 | (uint32_t)w);
    wr(r, A_EGEN1, 0);
    if (zb) {
        wr(r, A_EGZSET, GLAMO_ZFMT_Z16 << 20 | 1 << 16 | (pitch / 2));
        wr(r, A_EGZBAS, zb);
        wr(r, A_EGEN0, R_EGEN0_EGenZT_MASK | R_EGEN0_EGenZW_MASK);
    } else {
        wr(r, A_EGEN0, 0);
    }
    wr(r, A_RGXFEN3, GLAMO_SHADE_GOURAUD << 11);
    wr(r, A_EGPrim0, GLAMO_FILL_SOLID << 12 | GLAMO_FILL_SOLID);
    wr(r, A_RGXFEN0, R_RGXFEN0_RGXScrCoor_MASK |
       R_RGXFEN0_RGXDisableCull_MASK);
}

void rig_lcd(GlamoRig *r, uint32_t fb, uint32_t pitch, int w, int h)
{
    rig_w16(r, A_GLAMO_CLOCK_LCD, GLAMO_CLOCK_LCD_EN_DCLK);
    rig_w16(r, A_GLAMO_LCD_MODE3, GLAMO_LCD_SRC_RGB565 | 0x0b40);
    rig_w16(r, A_GLAMO_LCD_WIDTH, (uint16_t)w);
    rig_w16(r, A_GLAMO_LCD_HEIGHT, (uint16_t)h);
    rig_w16(r, A_GLAMO_LCD_PITCH, (uint16_t)pitch);
    rig_w16(r, A_GLAMO_LCD_A_BASE1, fb & 0xffff);
    rig_w16(r, A_GLAMO_LCD_A_BASE2, (fb >> 16) & 0x7f);
}

uint32_t rig_565_to_argb(uint16_t p)
{
    uint32_t r5 = p >> 11, g6 = (p >> 5) & 63, b5 = p & 31;

    return 0xff000000u | (r5 << 3 | r5 >> 2) << 16 | (g6 << 2 | g6 >> 4) << 8 |
           (b5 << 3 | b5 >> 2);
}

#include <math.h>
#include "scene.h"

typedef double Mat4[4][4];       /* [row][column], column vectors (GL) */

static void mat_mul(Mat4 o, Mat4 a, Mat4 b)
{
    Mat4 t;
    int i, j, k;

    for (i = 0; i < 4; i++) {
        for (j = 0; j < 4; j++) {
            t[i][j] = 0;
            for (k = 0; k < 4; k++) {
                t[i][j] += a[i][k] * b[k][j];
            }
        }
    }
    memcpy(o, t, sizeof(t));
}

static void mat_rot(Mat4 m, double deg, int axis)
{
    double s = sin(deg * G_PI / 180), c = cos(deg * G_PI / 180);
    int a = (axis + 1) % 3, b = (axis + 2) % 3;

    memset(m, 0, sizeof(Mat4));
    m[0][0] = m[1][1] = m[2][2] = m[3][3] = 1;
    m[a][a] = c;
    m[a][b] = -s;
    m[b][a] = s;
    m[b][b] = c;
}

void rig_scene(GlamoRig *r, RigWrite32 *wr, uint32_t fb, uint32_t zb,
               uint32_t vb)
{
    rig_scene_ex(r, wr, fb, zb, vb, false);
}

void rig_scene_ex(GlamoRig *r, RigWrite32 *wr, uint32_t fb, uint32_t zb,
                  uint32_t vb, bool textured)
{
    const double *f = scene_frustum;
    Mat4 p = { { 0 } }, mv, t, ry, rx, m;
    uint32_t pos = vb, col = vb + 0x400, idx = vb + 0x800, uv = vb + 0xc00;
    uint32_t tex = vb + 0x1000;
    unsigned i, j, x, y;

    /* the buffers, as a guest's CPU would fill them */
    for (i = 0; i < SCENE_NVERT; i++) {
        memcpy(r->vram + pos + 12 * i, scene_pos[i], 12);
        /* MGVtxColorfmt 1: GL RGBA byte order */
        memcpy(r->vram + col + 4 * i, scene_col[i], 4);
        if (textured) {
            memset(r->vram + col + 4 * i, 0xff, 4);
            memcpy(r->vram + uv + 8 * i, scene_uv[i % 4], 8);
        }
    }
    for (y = 0; y < SCENE_TEX; y++) {
        for (x = 0; x < SCENE_TEX; x++) {
            uint16_t t = scene_texel(x, y);
            r->vram[tex + y * 2 * SCENE_TEX + 2 * x] = (uint8_t)t;
            r->vram[tex + y * 2 * SCENE_TEX + 2 * x + 1] = (uint8_t)(t >> 8);
        }
    }
    for (i = 0; i < SCENE_NIDX; i++) {
        r->vram[idx + 2 * i] = (uint8_t)scene_idx[i];
        r->vram[idx + 2 * i + 1] = (uint8_t)(scene_idx[i] >> 8);
    }
    for (y = 0; y < SCENE_H; y++) {
        for (x = 0; x < SCENE_W; x++) {
            uint8_t *c = r->vram + fb + (y * SCENE_W + x) * 2;
            uint8_t *z = r->vram + zb + (y * SCENE_W + x) * 2;
            c[0] = SCENE_CLEAR_565 & 0xff;
            c[1] = SCENE_CLEAR_565 >> 8;
            z[0] = z[1] = 0xff;
        }
    }

    /* glFrustum, then D3D's clip Z (z' = z/2 + w/2) */
    p[0][0] = 2 * f[4] / (f[1] - f[0]);
    p[0][2] = (f[1] + f[0]) / (f[1] - f[0]);
    p[1][1] = 2 * f[4] / (f[3] - f[2]);
    p[1][2] = (f[3] + f[2]) / (f[3] - f[2]);
    p[2][2] = -(f[5] + f[4]) / (f[5] - f[4]);
    p[2][3] = -2 * f[5] * f[4] / (f[5] - f[4]);
    p[3][2] = -1;
    for (j = 0; j < 4; j++) {
        p[2][j] = 0.5 * p[2][j] + 0.5 * p[3][j];
    }
    memset(t, 0, sizeof(t));
    t[0][0] = t[1][1] = t[2][2] = t[3][3] = 1;
    t[0][3] = scene_translate[0];
    t[1][3] = scene_translate[1];
    t[2][3] = scene_translate[2];
    mat_rot(ry, scene_rot_y, 1);
    mat_rot(rx, scene_rot_x, 0);
    mat_mul(mv, t, ry);
    mat_mul(mv, mv, rx);
    mat_mul(m, p, mv);
    /* row vectors: T1[i][j] = M[j][i] */
    for (i = 0; i < 4; i++) {
        for (j = 0; j < 4; j++) {
            wr(r, GLAMO_RGXR0T1MAT(i, j), glamo_f24_from_float((float)m[j][i]));
        }
    }
    /* viewport: x right, y down, Z 0..1 */
    wr(r, A_RGXScaleX, glamo_f24_from_float(SCENE_W / 2.0f));
    wr(r, A_RGXOffsetX, glamo_f24_from_float(SCENE_W / 2.0f));
    wr(r, A_RGXScaleY, glamo_f24_from_float(-SCENE_H / 2.0f));
    wr(r, A_RGXOffsetY, glamo_f24_from_float(SCENE_H / 2.0f));
    wr(r, A_RGXScaleZ, glamo_f24_from_float(1.0f));
    wr(r, A_RGXOffsetZ, 0);

    rig_target(r, wr, fb, SCENE_W * 2, SCENE_W, SCENE_H, zb);
    wr(r, A_RGXFEN0, R_RGXFEN0_RGXDisableCull_MASK);
    wr(r, A_RGXFEN1, 0);
    wr(r, A_RGXFEN2, 0);            /* all six clip planes on */

    /* streams: 0 = float xyz position, 1 = ubyte RGBA colour */
    wr(r, A_MGVStreamActive, 0x03);
    wr(r, A_MGVStrmCtl, 1 << 8 | R_MGVStrmCtl_MGVtxColorfmt_MASK);
    wr(r, GLAMO_MGVSTRM_DESC(0), 12 << 16 | 2 << 8 | GLAMO_VTYPE_FLOAT << 4 |
       GLAMO_VARRAY_POSITION);
    wr(r, GLAMO_MGVSTRM_BAS(0), pos);
    wr(r, GLAMO_MGVSTRM_DESC(1), 4 << 16 | 3 << 8 | GLAMO_VTYPE_UBYTE << 4 |
       GLAMO_VARRAY_DIFFUSE);
    wr(r, GLAMO_MGVSTRM_BAS(1), col);
    wr(r, A_MGStrmIndexMDBAS, idx);
    wr(r, A_RGPDV, 16 << 20 | (textured ? 6 : SCENE_NIDX));
    if (textured) {
        uint32_t mul = GLAMO_TXARG_TEX0 << 25 | GLAMO_TXARG_DIFFUSE << 16 |
                       GLAMO_TXOP_MUL << 6;
        uint32_t wrt = GLAMO_TXW_OPA << 13 | GLAMO_TXOMOD_SAT << 8;
        wr(r, A_MGVStreamActive, 0x07);
        wr(r, A_MGVStrmCtl, 2 << 8 | R_MGVStrmCtl_MGVtxColorfmt_MASK);
        wr(r, GLAMO_MGVSTRM_DESC(2), 8 << 16 | 1 << 8 |
           GLAMO_VTYPE_FLOAT << 4 | GLAMO_VARRAY_TEXA);
        wr(r, GLAMO_MGVSTRM_BAS(2), uv);
        wr(r, A_EGTX0SET, 0x61u << 24 | (GLAMO_TXADDR_WRAP << 3 |
           GLAMO_TXADDR_WRAP) << 16);
        wr(r, A_EGTX0FILT, 1 << 18 | 1 << 15);
        wr(r, A_EGTX0SIZE, SCENE_TEX << 12 | SCENE_TEX);
        wr(r, A_EGTX0L0BAS, tex);
        wr(r, A_EGTX0L01PITCH, 2 * SCENE_TEX);
        wr(r, A_EGEN0, R_EGEN0_EGenZT_MASK | R_EGEN0_EGenZW_MASK |
           R_EGEN0_EGenTXMP_MASK | R_EGEN0_EGenTXPP_MASK | 1 << 12);
        wr(r, A_EGEN1, R_EGEN1_EGenTXBl_MASK);
        wr(r, A_EGTXCBS0MOD, wrt);
        wr(r, A_EGTXCBS0ARG, mul);
        wr(r, A_EGTXABS0MOD, wrt);
        wr(r, A_EGTXABS0ARG, mul);
    }
    wr(r, A_EGPrim1, GLAMO_PRIM_TRIANGLES);
    wr(r, A_MGBufCMSFire, GLAMO_CMS_STREAM_INDEX);
    wr(r, A_MGBufCBMFire, GLAMO_CBM_STREAM_INDEX);
    wr(r, A_EGEND, 0);
}
