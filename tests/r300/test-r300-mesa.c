/*
 * R300 driven the way Mesa's gallium r300 driver (Mesa 22.3) drives it:
 * kmscube's smooth-shaded cube (kmscube cube-smooth.c) drawn with the
 * register and PM4 sequence Mesa's emit code produces for it
 * (src/gallium/drivers/r300/r300_emit.c, r300_render.c,
 * r300_state_derived.c), its vertex program encoded the way
 * compiler/r3xx_vertprog.c encodes kmscube's vertex shader, and the
 * fragment program r300_fragprog_emit.c makes of "gl_FragColor = v".
 *
 * Expected colours are computed here in double precision from kmscube's
 * shader and geometry (the GLSL, not the device's code): lighting per
 * vertex, then perspective-correct interpolation of the varying.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/g3d-core.h"
#include "r300/r300-int.h"
#include "r300-rig.h"
#include "image.h"

#define VRAM_SIZE   (8u << 20)
#define RING_BUFSZ  14
#define VBO_ADDR    0x00040000u
#define CB_ADDR     0x00100000u
#define W 160
#define H 120

/* ---- Mesa's encodings (r300_reg.h), written out ------------------------ */

/* PVS_OP_DST_OPERAND(opcode, math, macro, index, writemask, class, sat) */
static uint32_t pvs_dst(unsigned op, unsigned math, unsigned idx,
                        unsigned we, unsigned cls)
{
    return op | math << 6 | idx << 13 | we << 20 | cls << 8;
}

/* PVS_SRC_OPERAND(index, x, y, z, w, class, negate) */
static uint32_t pvs_src(unsigned idx, unsigned x, unsigned y, unsigned z,
                        unsigned w, unsigned cls, unsigned neg)
{
    return idx << 5 | x << 13 | y << 16 | z << 19 | w << 22 | neg << 25 | cls;
}

enum { T = 0, IN = 1, C = 2 };             /* PVS_SRC_REG_* */
enum { DT = 0, DOUT = 2 };                 /* PVS_DST_REG_* */
enum { X, Y, Z, WW, ZERO, ONE, U = 7 };    /* swizzle selects; 7 = unused */
enum { VE_DOT = 1, VE_MUL, VE_ADD, VE_MAD, VE_MAX = 7 };
enum { ME_RCP = 6, ME_RSQ = 8 };

/* the 0 operand ei_vector2 / ei_math1 put in unused slots: __CONST(x, ZERO) */
static uint32_t zero_of(uint32_t src)
{
    return (src & 0x1FFF) | pvs_src(0, ZERO, ZERO, ZERO, ZERO, 0, 0);
}

typedef struct Prog {
    uint32_t dw[64][4];
    unsigned n;
} Prog;

static void vec2(Prog *p, unsigned op, uint32_t dst, uint32_t a, uint32_t b)
{
    uint32_t *i = p->dw[p->n++];
    i[0] = pvs_dst(op, 0, 0, 0, 0) | dst;
    i[1] = a;
    i[2] = b;
    i[3] = zero_of(b);
}

static void mad(Prog *p, uint32_t dst, uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t *i = p->dw[p->n++];
    i[0] = VE_MAD | dst;
    i[1] = a;
    i[2] = b;
    i[3] = c;
}

/* ei_math1: the scalar source replicated, then two zero operands */
static void math1(Prog *p, unsigned op, uint32_t dst, uint32_t a)
{
    uint32_t *i = p->dw[p->n++];
    i[0] = pvs_dst(op, 1, 0, 0, 0) | dst;
    i[1] = a;
    i[2] = zero_of(a);
    i[3] = zero_of(a);
}

#define DST(cls, idx, we)  pvs_dst(0, 0, idx, we, cls)
#define S4(cls, idx, s)    pvs_src(idx, s, s, s, s, cls, 0)
#define SXYZ(cls, idx)     pvs_src(idx, X, Y, Z, U, cls, 0)

/*
 * kmscube's cube-smooth vertex shader as Mesa's compiler lowers it: the
 * matrix products as MUL + MAD chains over the columns (constants 0-3
 * modelviewMatrix, 4-7 modelviewprojectionMatrix, 8-10 normalMatrix, 11 the
 * immediate lightSource), the division by w as RCP, normalize as DP3 (DP4
 * with w forced to 0, radeon_program_alu.c) + RSQ + MUL, max(0, x) as MAX
 * with a forced-0 operand, and the constant 1.0 of the varying as a
 * forced-1 swizzle. Inputs 0 position, 1 normal, 2 colour; outputs 0
 * position, 1 the varying (texture coordinate 0).
 */
/* dst = (constants c..c+3 as columns) * input 0: MUL, then three MADs
 * accumulating in temporary t */
static void mat4_times_position(Prog *p, uint32_t dst, unsigned c, unsigned t)
{
    static const unsigned lane[4] = { X, Y, Z, WW };
    unsigned k;

    vec2(p, VE_MUL, DST(DT, t, 0xF), pvs_src(c, X, Y, Z, WW, C, 0),
         S4(IN, 0, X));
    for (k = 1; k < 4; k++) {
        mad(p, k == 3 ? dst : DST(DT, t, 0xF),
            pvs_src(c + k, X, Y, Z, WW, C, 0), S4(IN, 0, lane[k]),
            pvs_src(t, X, Y, Z, WW, T, 0));
    }
}

static void kmscube_vs(Prog *p, unsigned *last_pos, unsigned *last_in)
{
    p->n = 0;
    /* gl_Position = mvp * in_position */
    mat4_times_position(p, DST(DOUT, 0, 0xF), 4, 0);
    *last_pos = p->n - 1;
    /* vEyeNormal = normalMatrix * in_normal */
    vec2(p, VE_MUL, DST(DT, 1, 0x7), SXYZ(C, 8), pvs_src(1, X, X, X, U, IN, 0));
    mad(p, DST(DT, 1, 0x7), SXYZ(C, 9), pvs_src(1, Y, Y, Y, U, IN, 0),
        SXYZ(T, 1));
    mad(p, DST(DT, 1, 0x7), SXYZ(C, 10), pvs_src(1, Z, Z, Z, U, IN, 0),
        SXYZ(T, 1));
    /* vPosition4 = modelviewMatrix * in_position */
    mat4_times_position(p, DST(DT, 2, 0xF), 0, 2);
    *last_in = p->n - 1;
    /* vPosition3 = xyz / w: RCP of w, then lightSource.xyz - xyz * (1/w) */
    math1(p, ME_RCP, DST(DT, 3, 0x1), S4(T, 2, WW));
    mad(p, DST(DT, 4, 0x7), pvs_src(2, X, Y, Z, U, T, 0x7),
        pvs_src(3, X, X, X, U, T, 0), SXYZ(C, 11));
    /* normalize: DP3 as DP4 with w forced to 0, RSQ, MUL */
    vec2(p, VE_DOT, DST(DT, 5, 0x1), pvs_src(4, X, Y, Z, ZERO, T, 0),
         pvs_src(4, X, Y, Z, ZERO, T, 0));
    math1(p, ME_RSQ, DST(DT, 5, 0x1), S4(T, 5, X));
    vec2(p, VE_MUL, DST(DT, 4, 0x7), SXYZ(T, 4), pvs_src(5, X, X, X, U, T, 0));
    /* diff = max(0.0, dot(vEyeNormal, vLightDir)) */
    vec2(p, VE_DOT, DST(DT, 6, 0x1), pvs_src(1, X, Y, Z, ZERO, T, 0),
         pvs_src(4, X, Y, Z, ZERO, T, 0));
    vec2(p, VE_MAX, DST(DT, 6, 0x1), pvs_src(6, X, U, U, U, T, 0),
         pvs_src(0, ZERO, U, U, U, T, 0));
    /* vVaryingColor = vec4(diff * in_color.rgb, 1.0) */
    vec2(p, VE_MUL, DST(DOUT, 1, 0x7), pvs_src(6, X, X, X, U, T, 0),
         pvs_src(2, X, Y, Z, U, IN, 0));
    vec2(p, VE_ADD, DST(DOUT, 1, 0x8), pvs_src(0, U, U, U, ONE, T, 0),
         pvs_src(0, ZERO, ZERO, ZERO, ZERO, T, 0));
}

/* ---- kmscube's geometry and matrices (cube-smooth.c, esTransform.c) ---- */

static const float cube_pos[24 * 3] = {
    -1, -1, +1,  +1, -1, +1,  -1, +1, +1,  +1, +1, +1,
    +1, -1, -1,  -1, -1, -1,  +1, +1, -1,  -1, +1, -1,
    +1, -1, +1,  +1, -1, -1,  +1, +1, +1,  +1, +1, -1,
    -1, -1, -1,  -1, -1, +1,  -1, +1, -1,  -1, +1, +1,
    -1, +1, +1,  +1, +1, +1,  -1, +1, -1,  +1, +1, -1,
    -1, -1, -1,  +1, -1, -1,  -1, -1, +1,  +1, -1, +1,
};
static const float cube_col[24 * 3] = {
    0, 0, 1,  1, 0, 1,  0, 1, 1,  1, 1, 1,
    1, 0, 0,  0, 0, 0,  1, 1, 0,  0, 1, 0,
    1, 0, 1,  1, 0, 0,  1, 1, 1,  1, 1, 0,
    0, 0, 0,  0, 0, 1,  0, 1, 0,  0, 1, 1,
    0, 1, 1,  1, 1, 1,  0, 1, 0,  1, 1, 0,
    0, 0, 0,  1, 0, 0,  0, 0, 1,  1, 0, 1,
};
/* cube-tex.c's texture coordinates: the same (1,1) (0,1) (1,0) (0,0) on
 * every face but the last, which has (1,0) (0,0) (1,1) (0,1) */
static const float cube_tex[24 * 2] = {
    1, 1, 0, 1, 1, 0, 0, 0,  1, 1, 0, 1, 1, 0, 0, 0,
    1, 1, 0, 1, 1, 0, 0, 0,  1, 1, 0, 1, 1, 0, 0, 0,
    1, 1, 0, 1, 1, 0, 0, 0,  1, 0, 0, 0, 1, 1, 0, 1,
};
static const float cube_nrm[6][3] = {
    { 0, 0, 1 }, { 0, 0, -1 }, { 1, 0, 0 }, { -1, 0, 0 }, { 0, 1, 0 },
    { 0, -1, 0 },
};

/* column-major 4x4 (m[col][row]), as glUniformMatrix4fv uploads them */
typedef struct Mat { double m[4][4]; } Mat;

static Mat mat_mul(const Mat *a, const Mat *b)      /* a * b */
{
    Mat r;
    int i, j, k;

    for (i = 0; i < 4; i++) {
        for (j = 0; j < 4; j++) {
            r.m[i][j] = 0;
            for (k = 0; k < 4; k++) {
                r.m[i][j] += a->m[k][j] * b->m[i][k];
            }
        }
    }
    return r;
}

static Mat mat_identity(void)
{
    Mat r = { { { 1, 0, 0, 0 }, { 0, 1, 0, 0 }, { 0, 0, 1, 0 },
                { 0, 0, 0, 1 } } };
    return r;
}

/*
 * kmscube's esRotate (esTransform.c): angle in degrees about the unit axis
 * (x, y, z); stored as glUniformMatrix4fv reads it, m[column][row].
 */
static Mat mat_rotate(double deg, double x, double y, double z)
{
    double a = deg * M_PI / 180.0, c = cos(a), s = sin(a), t = 1 - c;
    Mat r = mat_identity();

    r.m[0][0] = t * x * x + c;     r.m[0][1] = t * x * y - s * z;
    r.m[0][2] = t * x * z + s * y; r.m[1][0] = t * x * y + s * z;
    r.m[1][1] = t * y * y + c;     r.m[1][2] = t * y * z - s * x;
    r.m[2][0] = t * x * z - s * y; r.m[2][1] = t * y * z + s * x;
    r.m[2][2] = t * z * z + c;
    return r;
}

static Mat mat_frustum(double l, double r, double b, double t, double n,
                       double f)
{
    Mat m = { { { 0 } } };

    m.m[0][0] = 2 * n / (r - l);
    m.m[1][1] = 2 * n / (t - b);
    m.m[2][0] = (r + l) / (r - l);
    m.m[2][1] = (t + b) / (t - b);
    m.m[2][2] = -(f + n) / (f - n);
    m.m[2][3] = -1;
    m.m[3][2] = -2 * f * n / (f - n);
    return m;
}

typedef struct Frame {
    Mat mv, mvp;
    double nm[3][3];            /* normalMatrix columns */
} Frame;

/* kmscube's draw_cube_smooth(i) */
static void kmscube_frame(unsigned i, Frame *f)
{
    Mat t = mat_identity(), r;
    double aspect = (double)H / W;
    int c, k;

    t.m[3][2] = -8.0;
    f->mv = t;
    r = mat_rotate(45.0 + 0.25 * i, 1, 0, 0);
    f->mv = mat_mul(&f->mv, &r);
    r = mat_rotate(45.0 - 0.5 * i, 0, 1, 0);
    f->mv = mat_mul(&f->mv, &r);
    r = mat_rotate(10.0 + 0.15 * i, 0, 0, 1);
    f->mv = mat_mul(&f->mv, &r);
    r = mat_frustum(-2.8, 2.8, -2.8 * aspect, 2.8 * aspect, 6.0, 10.0);
    f->mvp = mat_mul(&r, &f->mv);
    for (c = 0; c < 3; c++) {
        for (k = 0; k < 3; k++) {
            f->nm[c][k] = f->mv.m[c][k];
        }
    }
}

static bool check_tex;          /* cube-tex.c's shaders, not cube-smooth.c's */

/*
 * The GLSL of cube-smooth.c's vertex shader for vertex v, in doubles; with
 * check_tex, cube-tex.c's: col = (diff, s, t, 1) for the fragment side.
 */
static void vs_ref(const Frame *f, unsigned v, double clip[4], double col[4])
{
    const float *p = cube_pos + 3 * v, *n = cube_nrm[v / 4];
    double pos[4] = { p[0], p[1], p[2], 1 }, e[4] = { 0 }, en[3] = { 0 };
    double l[3], len = 0, diff = 0;
    int c, k;

    for (k = 0; k < 4; k++) {
        clip[k] = 0;
        for (c = 0; c < 4; c++) {
            clip[k] += f->mvp.m[c][k] * pos[c];
            e[k] += f->mv.m[c][k] * pos[c];
        }
    }
    for (k = 0; k < 3; k++) {
        for (c = 0; c < 3; c++) {
            en[k] += f->nm[c][k] * n[c];
        }
    }
    for (k = 0; k < 3; k++) {
        static const double light[3] = { 2.0, 2.0, 20.0 };
        l[k] = light[k] - e[k] / e[3];
        len += l[k] * l[k];
    }
    for (k = 0; k < 3; k++) {
        diff += en[k] * l[k] / sqrt(len);
    }
    diff = MAX(diff, 0.0);
    for (k = 0; k < 3; k++) {
        col[k] = diff * cube_col[3 * v + k];
    }
    col[3] = 1.0;
    if (check_tex) {
        col[0] = diff;
        col[1] = cube_tex[2 * v];
        col[2] = cube_tex[2 * v + 1];
    }
}

/* ---- Mesa's command stream ---------------------------------------------- */

static void seq(R300Cmd *c, uint32_t reg, unsigned n, const uint32_t *v)
{
    unsigned i;

    r300_cmd_dw(c, R300_PACKET0(reg, n - 1));
    for (i = 0; i < n; i++) {
        r300_cmd_dw(c, v[i]);
    }
}

/* r300_emit_vs_state + r300_emit_vs_constants for kmscube's program */
static void emit_vs(R300Cmd *c, const Frame *f)
{
    Prog p;
    unsigned last_pos, last_in, i, k;
    float consts[12][4];

    kmscube_vs(&p, &last_pos, &last_in);
    r300_cmd_reg(c, A_VAP_PVS_STATE_FLUSH_REG, 0);
    r300_cmd_reg(c, A_VAP_PVS_CODE_CNTL_0, 0 | last_pos << 10 |
                 (p.n - 1) << 20);
    r300_cmd_reg(c, A_VAP_PVS_CODE_CNTL_1, last_in);
    r300_cmd_reg(c, A_VAP_PVS_VECTOR_INDX_REG, 0);
    r300_cmd_dw(c, R300_PACKET0_ONE(A_VAP_PVS_VECTOR_DATA_REG_128,
                                    p.n * 4 - 1));
    for (i = 0; i < p.n * 4; i++) {
        r300_cmd_dw(c, p.dw[i / 4][i % 4]);
    }
    /* slots = min(72 / inputs, 72 / outputs, 10), controllers =
     * min(72 / temps, 5), 4 FPUs on R300, VF_MAX_VTX_NUM 12 */
    r300_cmd_reg(c, A_VAP_CNTL, 10 | 5 << 4 | 4 << 8 | 12 << 18);
    r300_cmd_reg(c, A_VAP_PVS_FLOW_CNTL_OPC, 0);

    for (k = 0; k < 4; k++) {
        for (i = 0; i < 4; i++) {
            consts[k][i] = f->mv.m[k][i];
            consts[4 + k][i] = f->mvp.m[k][i];
        }
    }
    for (k = 0; k < 3; k++) {
        for (i = 0; i < 3; i++) {
            consts[8 + k][i] = f->nm[k][i];
        }
        consts[8 + k][3] = 0;
    }
    consts[11][0] = 2;
    consts[11][1] = 2;
    consts[11][2] = 20;
    consts[11][3] = 0;
    r300_cmd_reg(c, A_VAP_PVS_CONST_CNTL, 11u << 16);
    r300_cmd_reg(c, A_VAP_PVS_VECTOR_INDX_REG, R300_PVS_CONST_START);
    r300_cmd_dw(c, R300_PACKET0_ONE(A_VAP_PVS_VECTOR_DATA_REG_128, 12 * 4 - 1));
    for (k = 0; k < 12; k++) {
        for (i = 0; i < 4; i++) {
            r300_cmd_dw(c, r300_f2u(consts[k][i]));
        }
    }
}

/* r300_vertex_psc for three R32G32B32_FLOAT elements + rs block state */
static void emit_vertex_format(R300Cmd *c)
{
    static const uint32_t psc[2] = { 0x01020002, 0x00002202 };
    static const uint32_t psc_ext[2] = { 0xfa88fa88, 0x0000fa88 };
    static const uint32_t vtx_state[2] = { 0x5555, 1 | 1u << 16 };
    static const uint32_t out_fmt[2] = { 1, 4 };
    /* r300_rs_tex(rs, 0, 0, SWIZ_XYZW) + r300_rs_tex_write(rs, 0, 0) */
    static const uint32_t rs_count[2] = { 4 | 0 << 7 | 1u << 18, 0 };

    seq(c, A_VAP_PROG_STREAM_CNTL_0, 2, psc);
    seq(c, A_VAP_PROG_STREAM_CNTL_EXT_0, 2, psc_ext);
    seq(c, A_VAP_VTX_STATE_CNTL, 2, vtx_state);
    seq(c, A_VAP_OUT_VTX_FMT_0, 2, out_fmt);
    r300_cmd_reg(c, A_GB_ENABLE, 0);
    r300_cmd_reg(c, A_RS_IP_0, 0 | 1u << 16 | 2u << 19 | 3u << 22);
    seq(c, A_RS_COUNT, 2, rs_count);
    r300_cmd_reg(c, A_RS_INST_0, 0 | 1u << 3 | 0 << 6);
}

/* r300_create_rs_state: no swap, clip as trifan, round to nearest with
 * colour clamping (R3xx), cull back faces, front counter-clockwise */
static void emit_rs_state(R300Cmd *c, uint32_t cull)
{
    r300_cmd_reg(c, A_VAP_CNTL_STATUS, 0);
    r300_cmd_reg(c, A_VAP_CLIP_CNTL, 3u << 14);
    r300_cmd_reg(c, A_GA_ROUND_MODE, 1);
    r300_cmd_reg(c, A_SU_CULL_MODE, cull);
    r300_cmd_reg(c, A_SC_CLIP_RULE, 0xFFFF);
}

/*
 * glDrawArrays(GL_TRIANGLE_STRIP, start, 4): r300_emit_vertex_arrays with
 * `start` folded into the addresses, the relocations as the NOP packets
 * the kernel leaves after it, then r300_emit_draw_init + 3D_DRAW_VBUF_2.
 */
static void emit_draw(R300Cmd *c, unsigned start, unsigned count)
{
    static const uint32_t minmax[2] = { 0, 0 };
    uint32_t maxi[2] = { count - 1, 0 };
    unsigned k;

    (void)minmax;
    r300_cmd_dw(c, R300_PACKET3(R300_PKT3_3D_LOAD_VBPNTR, 5));
    r300_cmd_dw(c, 3 | 1u << 5);                    /* VC_FORCE_PREFETCH */
    r300_cmd_dw(c, 3 | 3 << 8 | 3 << 16 | 3u << 24);
    r300_cmd_dw(c, VBO_ADDR + 12 * start);                  /* position */
    r300_cmd_dw(c, VBO_ADDR + 2 * sizeof(cube_pos) + 12 * start);  /* normal */
    r300_cmd_dw(c, 3 | 3 << 8);
    r300_cmd_dw(c, VBO_ADDR + sizeof(cube_pos) + 12 * start);  /* colour */
    for (k = 0; k < 3; k++) {
        r300_cmd_dw(c, R300_PACKET3(R300_PKT3_NOP, 0));
        r300_cmd_dw(c, k * 4);
    }
    r300_cmd_reg(c, A_GA_COLOR_CONTROL, 0x3AAAA);
    seq(c, A_VAP_VF_MAX_VTX_INDX, 2, maxi);
    r300_cmd_dw(c, R300_PACKET3(R300_PKT3_3D_DRAW_VBUF_2, 0));
    r300_cmd_dw(c, R300_PRIM_WALK_LIST << 4 | count << 16 |
                   R300_PRIM_TRIANGLE_STRIP);
}


/* ---- replay of the command stream Mesa itself produced ------------------ */

#define IB_ADDR     0x00700000u

typedef struct Replay {
    uint32_t cb_addr;           /* the last RB3D_COLOROFFSET0: the window */
    unsigned nib;
    uint32_t ib_len[16];
    uint32_t *ib[16];
} Replay;

/*
 * Load a replay file of tools/mesa-capture (buffers at their GPU
 * addresses, relocated indirect buffers) into the rig's VRAM.
 */
static void replay_load(R300Rig *d, const char *name, Replay *r)
{
    g_autofree char *path = g_build_filename(g_getenv("GPU3D_SRCDIR") ?
                                             g_getenv("GPU3D_SRCDIR") : ".",
                                             "tests", "r300", "data", name,
                                             NULL);
    g_autofree char *text = NULL;
    g_auto(GStrv) lines = NULL;
    unsigned i = 0;

    memset(r, 0, sizeof(*r));
    g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
    lines = g_strsplit(text, "\n", -1);
    while (lines[i]) {
        char **w = g_strsplit(lines[i++], " ", -1);
        if (w[0] && !strcmp(w[0], "BUFFER")) {
            uint32_t addr = strtoul(w[2], NULL, 0), size = strtoul(w[3], NULL, 0);
            g_assert_cmpuint(addr + size, <=, IB_ADDR);
        } else if (w[0] && (!strcmp(w[0], "MEM") || !strcmp(w[0], "IB"))) {
            bool ib = !strcmp(w[0], "IB");
            uint32_t addr = ib ? 0 : strtoul(w[1], NULL, 0);
            uint32_t n = strtoul(w[ib ? 1 : 2], NULL, 0), k = 0;
            uint32_t *dst;

            if (ib) {
                g_assert_cmpuint(r->nib, <, G_N_ELEMENTS(r->ib));
                r->ib_len[r->nib] = n;
                dst = r->ib[r->nib++] = g_new(uint32_t, n);
            } else {
                g_assert_cmpuint(addr + 4 * n, <=, IB_ADDR);
                dst = (uint32_t *)(d->vram + addr);
            }
            while (k < n && lines[i]) {
                char **v = g_strsplit(lines[i++], " ", -1);
                unsigned j;
                for (j = 0; v[j] && k < n; j++) {
                    dst[k++] = strtoul(v[j], NULL, 16);
                }
                g_strfreev(v);
            }
            g_assert_cmpuint(k, ==, n);
            for (k = 0; ib && k + 1 < n; k++) {
                if (dst[k] == R300_PACKET0(R300_RB3D_COLOROFFSET(0), 0)) {
                    r->cb_addr = dst[k + 1];
                }
            }
        }
        g_strfreev(w);
    }
    g_assert_cmpuint(r->nib, >, 0);
}

/* Run the indirect buffers one after the other, as the kernel does. */
static void replay_run(R300Rig *d, Replay *r)
{
    static uint32_t buf[64];
    unsigned k;

    r300_rig_ring_init(d);
    for (k = 0; k < r->nib; k++) {
        R300Cmd c;
        memcpy(d->vram + IB_ADDR, r->ib[k], 4 * r->ib_len[k]);
        r300_rig_cmd_begin(&c, buf, G_N_ELEMENTS(buf));
        r300_cmd_reg(&c, A_CP_IB_BASE, IB_ADDR);
        r300_cmd_reg(&c, A_CP_IB_BUFSZ, r->ib_len[k]);
        r300_rig_ring_run(d, buf, c.n);
        g_free(r->ib[k]);
    }
}

/* ---- the check ------------------------------------------------------------ */

typedef struct WinV { double x, y, inv_w, col[4]; } WinV;

static void to_win(const double clip[4], const double col[4], WinV *v)
{
    v->inv_w = 1.0 / clip[3];
    v->x = (clip[0] * v->inv_w + 1.0) * W / 2.0;
    v->y = (1.0 - clip[1] * v->inv_w) * H / 2.0;
    memcpy(v->col, col, sizeof(v->col));
}

static uint32_t check_cb = CB_ADDR;    /* the colour buffer checked */
static int tolerance = 2;               /* per channel, of 255 */

/*
 * kmscap's 64x64 texture (tools/mesa-capture/kmscap.c): texel i of a row
 * holds i * 255 / 63 (integer division) in red, texel j of a column the
 * same in green. GL_LINEAR with CLAMP_TO_EDGE along one axis.
 */
static double tex_ref(double s)
{
    double u = s * 64.0 - 0.5, f;
    int i0 = (int)floor(u), i1 = i0 + 1;

    f = u - i0;
    i0 = MAX(0, MIN(63, i0));
    i1 = MAX(0, MIN(63, i1));
    return ((i0 * 255 / 63) * (1.0 - f) + (i1 * 255 / 63) * f) / 255.0;
}
static int check_channels = 4;          /* 3: an XRGB surface */

static uint32_t px(R300Rig *d, int x, int y)
{
    uint32_t v;
    memcpy(&v, d->vram + check_cb + 4 * (y * W + x), 4);
    return v;
}

/*
 * Every pixel centre at least a pixel inside a front-facing triangle has
 * the perspective-correct interpolation of the vertex colours; returns the
 * count of pixels checked and of those with a non-zero colour.
 */
static void check_tri(R300Rig *d, const WinV *a, const WinV *b,
                      const WinV *cc, int *checked, int *lit)
{
    const WinV *v[3] = { a, b, cc };
    double area = (b->x - a->x) * (cc->y - a->y) -
                  (b->y - a->y) * (cc->x - a->x);
    int x, y, k, ch;

    /*
     * GL's front faces are counter-clockwise on the screen (kmscube's
     * default glFrontFace), i.e. a negative cross product with y down;
     * Mesa culls the others with SU_CULL_MODE = CULL_BACK, FACE 0.
     */
    if (area >= 0) {
        return;
    }
    for (y = 0; y < H; y++) {
        for (x = 0; x < W; x++) {
            double sx = x + 0.5, sy = y + 0.5, l[3], den = 0, a[4];
            uint32_t p;
            bool inside = true;

            for (k = 0; k < 3; k++) {
                const WinV *i = v[(k + 1) % 3], *j = v[(k + 2) % 3];
                double e = (j->x - i->x) * (sy - i->y) -
                           (j->y - i->y) * (sx - i->x);
                l[k] = e / area;
                inside &= l[k] * fabs(area) / hypot(j->x - i->x,
                                                    j->y - i->y) >= 1.0;
            }
            if (!inside) {
                continue;
            }
            for (k = 0; k < 3; k++) {
                den += l[k] * v[k]->inv_w;
            }
            p = px(d, x, y);
            for (ch = 0; ch < 4; ch++) {
                a[ch] = 0;
                for (k = 0; k < 3; k++) {
                    a[ch] += l[k] * v[k]->inv_w * v[k]->col[ch] / den;
                }
            }
            if (check_tex) {
                /* vVaryingColor * texture2D(uTex, vTexCoord) */
                double diff = a[0];
                a[0] = diff * tex_ref(a[1]);
                a[1] = diff * tex_ref(a[2]);
                a[2] = diff * 128.0 / 255.0;
                a[3] = 1.0;
            }
            for (ch = 0; ch < check_channels; ch++) {
                int got, want = (int)floor(a[ch] * 255.0 + 0.5);
                got = (p >> (ch == 3 ? 24 : 16 - 8 * ch)) & 0xFF;
                if (abs(got - want) > tolerance) {
                    g_test_message("pixel %d,%d channel %d: %d, expected %d",
                                   x, y, ch, got, want);
                    g_assert_cmpint(abs(got - want), <=, tolerance);
                }
            }
            (*checked)++;
            *lit += (p & 0xFFFFFF) != 0;
        }
    }
}

static void check_cube(R300Rig *d, unsigned frame);

static void draw_kmscube(unsigned frame)
{
    static uint32_t buf[8192];
    R300Rig *d = r300_rig_new(1, VRAM_SIZE, RING_BUFSZ);
    R300Surface cb = { CB_ADDR, W, R300_COLOR_FORMAT_ARGB8888 };
    R300Surface zb = { 0, 0, 0 };
    R300Cmd c;
    Frame f;
    unsigned face, k;
    /* r300_create_rs_state for glEnable(GL_CULL_FACE): back faces,
     * front counter-clockwise (FACE 0) */
    const uint32_t cull = R_SU_CULL_MODE_CULL_BACK_MASK;

    kmscube_frame(frame, &f);
    /* glBufferSubData: positions, colours, normals (normals per vertex) */
    memcpy(d->vram + VBO_ADDR, cube_pos, sizeof(cube_pos));
    memcpy(d->vram + VBO_ADDR + sizeof(cube_pos), cube_col, sizeof(cube_col));
    for (k = 0; k < 24; k++) {
        memcpy(d->vram + VBO_ADDR + 2 * sizeof(cube_pos) + 12 * k,
               cube_nrm[k / 4], 12);
    }

    r300_rig_ring_init(d);
    r300_rig_cmd_begin(&c, buf, G_N_ELEMENTS(buf));
    /* the generic pipeline for what Mesa sets the same way (viewport
     * y down, VTE W0 = 1/W, scissor, US out = temporary 0, ARGB8888) */
    r300_cmd_pipeline(&c, &cb, &zb, W, H);
    emit_rs_state(&c, cull);
    emit_vertex_format(&c);
    emit_vs(&c, &f);
    for (face = 0; face < 6; face++) {
        emit_draw(&c, 4 * face, 4);
    }
    r300_cmd_finish(&c);
    g_assert_false(c.overflow);
    r300_rig_ring_run(d, buf, c.n);
    check_cb = CB_ADDR;
    check_channels = 4;
    check_cube(d, frame);
    r300_rig_free(d);
}

/*
 * A rig that has run replay `name` through its CP; Mesa's streams are valid,
 * so nothing in them may be logged as the guest's error. check_cb is the
 * replay's window surface.
 */
static R300Rig *replay(const char *name, Replay *r)
{
    R300Rig *d = r300_rig_new(1, VRAM_SIZE, RING_BUFSZ);
    unsigned errors = g3d_log_count(G3D_LOG_GUEST_ERROR);

    replay_load(d, name, r);
    replay_run(d, r);
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errors);
    check_cb = r->cb_addr;
    return d;
}

/* With R300_MESA_DUMP=DIR, the checked colour buffer as DIR/NAME.ppm */
static void maybe_dump(R300Rig *d, const char *name)
{
    const char *dir = g_getenv("R300_MESA_DUMP");
    g_autofree char *path = NULL;
    GString *img;
    int x, y;

    if (!dir) {
        return;
    }
    img = g_string_new(NULL);
    g_string_printf(img, "P6 %d %d 255\n", W, H);
    for (y = 0; y < H; y++) {
        for (x = 0; x < W; x++) {
            uint32_t p = px(d, x, y);
            g_string_append_c(img, p >> 16 & 0xFF);
            g_string_append_c(img, p >> 8 & 0xFF);
            g_string_append_c(img, p & 0xFF);
        }
    }
    path = g_strdup_printf("%s/%s.ppm", dir, name);
    g_file_set_contents(path, img->str, img->len, NULL);
    g_string_free(img, TRUE);
}

/*
 * The picture against the same kmscube frame drawn by Mesa's llvmpipe
 * (tools/mesa-capture/kmscap.c with LIBGL_ALWAYS_SOFTWARE=1, golden
 * tests/r300/ref/NAME-llvmpipe.png): the bar is a PSNR of 45 dB and at
 * most 8 pixels off by more than 2 (edge pixels where the two fill
 * conventions differ).
 */
static void compare_llvmpipe(R300Rig *d, const char *name)
{
    g_autofree char *path = g_strdup_printf("%s/tests/r300/ref/%s-llvmpipe.png",
                                            g_getenv("GPU3D_SRCDIR") ?
                                            g_getenv("GPU3D_SRCDIR") : ".",
                                            name);
    G3DImage ref, got;
    G3DImageDiff diff = { .tolerance = 2 };

    g_assert_true(g3d_image_load(&ref, path));
    g_assert_true(g3d_image_alloc(&got, W, H));
    g3d_image_from_argb(&got, (const uint32_t *)(d->vram + check_cb), W);
    g_assert_true(g3d_image_compare(&got, &ref, &diff));
    g_test_message("%s vs llvmpipe: %.2f dB, %ld pixels differ, %ld by more "
                   "than 2", name, diff.psnr, diff.differing, diff.beyond);
    g_assert_cmpfloat(diff.psnr, >=, 45.0);
    g_assert_cmpint(diff.beyond, <=, 8);
    g3d_image_free(&ref);
    g3d_image_free(&got);
}

/* the cube of kmscube's frame `frame` against the GLSL in doubles */
static void check_cube(R300Rig *d, unsigned frame)
{
    Frame f;
    unsigned face, k;
    int checked = 0, lit = 0;

    kmscube_frame(frame, &f);
    for (face = 0; face < 6; face++) {
        WinV v[4];
        for (k = 0; k < 4; k++) {
            double clip[4], col[4];
            vs_ref(&f, 4 * face + k, clip, col);
            to_win(clip, col, &v[k]);
        }
        /* strip: (0 1 2), (2 1 3) keeps the winding */
        check_tri(d, &v[0], &v[1], &v[2], &checked, &lit);
        check_tri(d, &v[2], &v[1], &v[3], &checked, &lit);
    }
    g_test_message("frame %u: %d pixels checked, %d lit", frame, checked, lit);
    g_assert_cmpint(checked, >, W * H / 10);
    g_assert_cmpint(lit, >, checked / 2);
}

/*
 * The command stream Mesa 22.3's r300 driver produced for kmscube's first
 * smooth frame (captured through the radeon DRM shim, tools/mesa-capture):
 * the grey clear around the cube, the cube lit as the GLSL says.
 */
static void test_kmscube_smooth_replay(void)
{
    Replay r;
    R300Rig *d = replay("kmscube-smooth.replay", &r);
    int x, y, grey = 0;

    check_channels = 3;
    maybe_dump(d, "kmscube-smooth");
    check_cube(d, 0);
    compare_llvmpipe(d, "kmscube-smooth");
    /* glClearColor(0.5, 0.5, 0.5): the corners are background */
    for (y = 0; y < H; y += H - 1) {
        for (x = 0; x < W; x += W - 1) {
            uint32_t p = px(d, x, y) & 0xFFFFFF;
            grey += p == 0x7F7F7F || p == 0x808080;
        }
    }
    g_assert_cmpint(grey, ==, 4);
    r300_rig_free(d);
}

/*
 * kmscube's textured cube (cube-tex.c's shaders) with an ordinary 64x64
 * texture, a depth buffer, the depth test on and culling off, as Mesa
 * 22.3's r300 driver drew it (tools/mesa-capture): Mesa tiles the texture
 * (macro + micro) and the depth buffer and uploads the texels with a blit
 * from a linear staging texture, so the picture is right only if RB3D
 * writes and TX reads the tiled texture the same way and ZB keeps the back
 * faces (drawn after the front ones) hidden.
 */
static void test_kmscube_tex_replay(void)
{
    Replay r;
    R300Rig *d = replay("kmscube-tex.replay", &r);

    check_channels = 3;
    check_tex = true;
    tolerance = 3;
    maybe_dump(d, "kmscube-tex");
    check_cube(d, 0);
    compare_llvmpipe(d, "kmscube-tex");
    check_tex = false;
    tolerance = 2;
    r300_rig_free(d);
}

static void test_kmscube_smooth(void)
{
    draw_kmscube(0);
    draw_kmscube(100);
    draw_kmscube(777);
}


/* ---- vertex fetch: every format Mesa's r300 driver gives the PSC -------- */

/*
 * The formats r300_translate_vertex_data_type / _swizzle
 * (r300_state_inlines.h) accept, with their PSC type word and swizzle, the
 * raw element and what GL says it reads as. Mesa's PSC_SGN_NORM_CNTL is
 * SGN_NORM_NO_ZERO everywhere (r300_context.c), GL ES 2.0's signed
 * normalisation: (2c + 1) / (2^b - 1).
 */
typedef struct FetchCase {
    const char *format;
    uint16_t type;              /* DATA_TYPE | SIGNED | NORMALIZE */
    uint16_t swizzle;           /* PROG_STREAM_CNTL_EXT without WRITE_ENA */
    uint32_t dw[4];
    unsigned ndw;
    double want[4];
} FetchCase;

#define SWZ(x, y, z, w) ((x) | (y) << 3 | (z) << 6 | (w) << 9)
#define SN8(c)  ((2.0 * (c) + 1.0) / 255.0)
#define SN16(c) ((2.0 * (c) + 1.0) / 65535.0)

static const FetchCase fetch_cases[] = {
    { "R32_FLOAT", 0, SWZ(0, 4, 4, 5), { 0x3e800000 }, 1,
      { 0.25, 0, 0, 1 } },
    { "R32G32_FLOAT", 1, SWZ(0, 1, 4, 5), { 0xbf000000, 0x3f400000 }, 2,
      { -0.5, 0.75, 0, 1 } },
    { "R32G32B32_FLOAT", 2, SWZ(0, 1, 2, 5),
      { 0x3f800000, 0xbf800000, 0x3e000000 }, 3, { 1, -1, 0.125, 1 } },
    { "R32G32B32A32_FLOAT", 3, SWZ(0, 1, 2, 3),
      { 0x3f000000, 0x3e800000, 0xbe800000, 0x00000000 }, 4,
      { 0.5, 0.25, -0.25, 0 } },
    { "R8G8B8A8_UNORM", 4 | 0x8000, SWZ(0, 1, 2, 3), { 0x40c08000 }, 1,
      { 0 / 255.0, 128 / 255.0, 192 / 255.0, 64 / 255.0 } },
    { "B8G8R8A8_UNORM", 4 | 0x8000, SWZ(2, 1, 0, 3), { 0xff20a040 }, 1,
      { 32 / 255.0, 160 / 255.0, 64 / 255.0, 1 } },
    { "R8G8B8A8_SNORM", 4 | 0x4000 | 0x8000, SWZ(0, 1, 2, 3), { 0x7f80c040 }, 1,
      { SN8(64), SN8(-64), SN8(-128), SN8(127) } },
    { "R8G8B8A8_USCALED", 4, SWZ(0, 1, 2, 3), { 0x00010001 }, 1,
      { 1, 0, 1, 0 } },
    { "R8G8B8A8_SSCALED", 4 | 0x4000, SWZ(0, 1, 2, 3), { 0x00ff01ff }, 1,
      { -1, 1, -1, 0 } },
    { "R16G16_UNORM", 6 | 0x8000, SWZ(0, 1, 4, 5), { 0x4000c000 }, 1,
      { 0xc000 / 65535.0, 0x4000 / 65535.0, 0, 1 } },
    { "R16G16_SNORM", 6 | 0x4000 | 0x8000, SWZ(0, 1, 4, 5), { 0x8000e000 }, 1,
      { SN16(-0x2000), SN16(-0x8000), 0, 1 } },
    { "R16G16_SSCALED", 6 | 0x4000, SWZ(0, 1, 4, 5), { 0x0001ffff }, 1,
      { -1, 1, 0, 1 } },
    { "R16G16B16A16_UNORM", 7 | 0x8000, SWZ(0, 1, 2, 3),
      { 0xffff0000, 0x80004000 }, 2,
      { 0, 1, 0x4000 / 65535.0, 0x8000 / 65535.0 } },
    { "R16G16B16A16_SNORM", 7 | 0x4000 | 0x8000, SWZ(0, 1, 2, 3),
      { 0x7fff2000, 0xc0000000 }, 2,
      { SN16(0x2000), SN16(0x7fff), SN16(0), SN16(-0x4000) } },
    { "R16G16B16A16_USCALED", 7, SWZ(0, 1, 2, 3), { 0x00000001, 0x00010000 },
      2, { 1, 0, 0, 1 } },
};

/*
 * A screen-covering triangle whose vertices all carry the element: the VS
 * (as Mesa's compiler writes MOV + MAD) maps it by x * 0.5 + 0.5 into
 * texture coordinate 0, the fragment program writes it out.
 */
static void test_fetch_formats(void)
{
    static uint32_t buf[1024];
    unsigned i, k;

    for (i = 0; i < G_N_ELEMENTS(fetch_cases); i++) {
        const FetchCase *fc = &fetch_cases[i];
        R300Rig *d = r300_rig_new(1, VRAM_SIZE, RING_BUFSZ);
        R300Surface cb = { CB_ADDR, W, R300_COLOR_FORMAT_ARGB8888 };
        R300Surface zb = { 0, 0, 0 };
        static const float pos[3][4] = {
            { -1, -1, 0, 1 }, { 3, -1, 0, 1 }, { -1, 3, 0, 1 },
        };
        uint32_t psc[2], ext[2] = { 0 };
        uint32_t p, vtx = 4 + fc->ndw;
        R300Cmd c;
        Prog prog;

        /* e0: position FLOAT_4 -> in0; e1: the case -> in1, LAST_VEC */
        psc[0] = 3 | (uint32_t)(fc->type | 1u << 8 | 1u << 13) << 16;
        ext[0] = SWZ(0, 1, 2, 3) | 0xF000 |
                 (uint32_t)(fc->swizzle | 0xF000) << 16;
        prog.n = 0;
        vec2(&prog, VE_ADD, DST(DOUT, 0, 0xF), pvs_src(0, X, Y, Z, WW, IN, 0),
             pvs_src(0, ZERO, ZERO, ZERO, ZERO, IN, 0));
        mad(&prog, DST(DOUT, 1, 0xF), pvs_src(1, X, Y, Z, WW, IN, 0),
            pvs_src(0, X, Y, Z, WW, C, 0), pvs_src(0, X, Y, Z, WW, C, 0));

        r300_rig_ring_init(d);
        r300_rig_cmd_begin(&c, buf, G_N_ELEMENTS(buf));
        r300_cmd_pipeline(&c, &cb, &zb, W, H);
        emit_vertex_format(&c);
        seq(&c, A_VAP_PROG_STREAM_CNTL_0, 1, psc);
        seq(&c, A_VAP_PROG_STREAM_CNTL_EXT_0, 1, ext);
        r300_cmd_reg(&c, A_VAP_PSC_SGN_NORM_CNTL, 0xAAAAAAAA);
        r300_cmd_reg(&c, A_VAP_VTX_SIZE, vtx);
        r300_cmd_reg(&c, A_VAP_PVS_CODE_CNTL_0, 1u << 20 | 0 << 10);
        r300_cmd_reg(&c, A_VAP_PVS_CODE_CNTL_1, 1);
        r300_cmd_reg(&c, A_VAP_PVS_VECTOR_INDX_REG, 0);
        r300_cmd_dw(&c, R300_PACKET0_ONE(A_VAP_PVS_VECTOR_DATA_REG_128, 7));
        for (k = 0; k < 8; k++) {
            r300_cmd_dw(&c, prog.dw[k / 4][k % 4]);
        }
        r300_cmd_reg(&c, A_VAP_PVS_CONST_CNTL, 0);
        r300_cmd_reg(&c, A_VAP_PVS_VECTOR_INDX_REG, R300_PVS_CONST_START);
        r300_cmd_dw(&c, R300_PACKET0_ONE(A_VAP_PVS_VECTOR_DATA_REG_128, 3));
        for (k = 0; k < 4; k++) {
            r300_cmd_dw(&c, r300_f2u(0.5f));
        }
        r300_cmd_reg(&c, A_VAP_VF_MAX_VTX_INDX, 2);
        r300_cmd_reg(&c, A_VAP_VF_MIN_VTX_INDX, 0);
        r300_cmd_dw(&c, R300_PACKET3(R300_PKT3_3D_DRAW_IMMD_2, 3 * vtx));
        r300_cmd_dw(&c, R300_PRIM_TRIANGLES | R300_PRIM_WALK_RING << 4 |
                        3u << 16);
        for (k = 0; k < 3; k++) {
            unsigned j;
            for (j = 0; j < 4; j++) {
                r300_cmd_dw(&c, r300_f2u(pos[k][j]));
            }
            for (j = 0; j < fc->ndw; j++) {
                r300_cmd_dw(&c, fc->dw[j]);
            }
        }
        r300_cmd_finish(&c);
        g_assert_false(c.overflow);
        r300_rig_ring_run(d, buf, c.n);

        check_cb = CB_ADDR;
        p = px(d, W / 2, H / 2);
        for (k = 0; k < 4; k++) {
            int want = (int)floor(CLAMP(fc->want[k] * 0.5 + 0.5, 0, 1) *
                                  255.0 + 0.5);
            int got = (p >> (k == 3 ? 24 : 16 - 8 * k)) & 0xFF;
            if (abs(got - want) > 1) {
                g_test_message("%s component %u: %d, expected %d", fc->format,
                               k, got, want);
                g_assert_cmpint(abs(got - want), <=, 1);
            }
        }
        r300_rig_free(d);
    }
}

/* ---- the PVS running the vertex program Mesa compiled ------------------- */

/* tools/mesa-capture/kmscap.c's ops_vs, in doubles: output k + 1 is v<k> */
static void ops_ref(const double a[4], double v[8][4])
{
    double x = a[0], y = a[1], z = a[2], w = a[3];
    double t1[4], t2[4], t3[4], len = sqrt(x * x + y * y + z * z);
    int k, i;

    v[0][0] = pow(fabs(x) + 0.5, y);
    v[0][1] = exp2(z);
    v[0][2] = log2(fabs(w) + 1.0);
    v[0][3] = 1.0 / sqrt(fabs(x) + 0.25);
    v[1][0] = sin(x);
    v[1][1] = cos(y);
    v[1][2] = z - floor(z);
    v[1][3] = floor(w);
    v[2][0] = MIN(x, y);
    v[2][1] = MAX(z, w);
    v[2][2] = y < x ? 0.0 : 1.0;
    v[2][3] = z > 0 ? 1.0 : z < 0 ? -1.0 : 0.0;
    v[3][0] = x * y + y * z + z * w;
    v[3][1] = 1.0 / (w + 3.0);
    v[3][2] = CLAMP(x, -0.5, 0.5);
    v[3][3] = fabs(y);
    for (k = 0; k < 4; k++) {
        t1[k] = a[k] * 1.5 + 0.25;
        t2[k] = a[3 - k] * 0.5 - 1.0;
        t3[k] = a[k ^ 1] + 2.0;
        v[4][k] = t1[k] * t2[k] + t3[k];
    }
    i = (int)CLAMP(x * 2.0 + 2.0, 0.0, 3.0);
    for (k = 0; k < 4; k++) {
        v[5][k] = 4 * i + k + 1;            /* u[i], uploaded as 1..16 */
    }
    v[6][0] = x * z + y * w;
    v[6][1] = y - 0.75 * floor(y / 0.75);
    v[6][2] = x < y ? 1.0 : 0.0;
    v[6][3] = z >= w ? 1.0 : 0.0;
    v[7][0] = len;
    v[7][1] = x / len;
    v[7][2] = ceil(z);
    v[7][3] = x * y - z;
}

/* tools/mesa-capture/kmscap.c's arbvp program (ARB_vertex_program), in
 * doubles: texcoord k is output k + 1 */
static void arbvp_ref(const double a[4], double v[8][4])
{
    double x = a[0], y = a[1], z = a[2], w = a[3], e = floor(x);
    double l = floor(log2(fabs(y)));
    int i = (int)floor(z) + 1, k;

    /* LIT */
    v[0][0] = 1.0;
    v[0][1] = MAX(x, 0.0);
    v[0][2] = x > 0 ? pow(MAX(y, 0.0), CLAMP(w, -128.0, 128.0)) : 0.0;
    v[0][3] = 1.0;
    /* EXP a.x */
    v[1][0] = exp2(e);
    v[1][1] = x - e;
    v[1][2] = exp2(x);
    v[1][3] = 1.0;
    /* LOG a.y */
    v[2][0] = l;
    v[2][1] = fabs(y) / exp2(l);
    v[2][2] = log2(fabs(y));
    v[2][3] = 1.0;
    /* DST a, a.wzyx */
    v[3][0] = 1.0;
    v[3][1] = y * z;
    v[3][2] = z;
    v[3][3] = x;
    /* ARL A0.x, a.z; u[A0.x + 1], program.local[k] = 4k+1 .. 4k+4 */
    for (k = 0; k < 4; k++) {
        v[4][k] = 4 * i + k + 1;
    }
}

/*
 * A vertex program Mesa 22.3's r300 compiler encoded (a replay of
 * tools/mesa-capture), run by the PVS on inputs chosen here and checked
 * against `ref` in doubles for outputs 1 .. nout.
 */
static void run_captured_vp(const char *name, const double (*inputs)[4],
                            unsigned ninputs, unsigned nout,
                            void (*ref)(const double a[4], double v[8][4]),
                            int approx_out, double approx_tol,
                            const char *llvmpipe_ref)
{
    R300PVSProgram *prog = g_new0(R300PVSProgram, 1);
    Replay r;
    R300Rig *d = replay(name, &r);
    unsigned n, k, ch;

    if (llvmpipe_ref) {
        compare_llvmpipe(d, llvmpipe_ref);
    }
    g_assert_true(r300_pvs_load(prog, d->core->regs,
                                (const uint32_t (*)[4])d->core->pvs_vmem));
    for (n = 0; n < ninputs; n++) {
        float in[R300_PVS_MAX_INPUTS][4] = { { 0 } };
        float out[R300_PVS_MAX_OUTPUTS][4] = { { 0 } };
        double want[8][4];

        for (ch = 0; ch < 4; ch++) {
            in[0][ch] = ch == 3;
            in[1][ch] = inputs[n][ch];
        }
        r300_pvs_exec(prog, (const float (*)[4])in, out);
        ref(inputs[n], want);
        for (k = 0; k < nout; k++) {
            for (ch = 0; ch < 4; ch++) {
                double tol = (int)k == approx_out && ch < 2 ? approx_tol
                             : 1e-5 * MAX(1.0, fabs(want[k][ch]));
                if (fabs(out[k + 1][ch] - want[k][ch]) > tol) {
                    g_test_message("%s input %u: output %u.%c = %.7g, "
                                   "expected %.7g", name, n, k + 1,
                                   "xyzw"[ch], out[k + 1][ch], want[k][ch]);
                    g_assert_cmpfloat(fabs(out[k + 1][ch] - want[k][ch]), <=,
                                      tol);
                }
            }
        }
    }
    g_free(prog);
    r300_rig_free(d);
}

/*
 * kmscap's ops shader as Mesa 22.3's r300 compiler encodes it
 * (pvs-ops.replay); the frame, whose fragment shader weighs all eight
 * varyings (eight texture coordinates through the RS), against llvmpipe's.
 * Every PVS instruction that compiler emits for GLSL ES
 * (ME_POWER_FUNC_FF, EX2, LG2, RCP, RSQ, FLT2FIX_DX with relative constant
 * addressing, FRACTION, MIN, MAX, SGE, SLT, DOT_PRODUCT with forced lanes,
 * the 2-clock MADD macro with three temporaries, sin/cos as polynomials).
 */
static void test_pvs_ops_replay(void)
{
    static const double inputs[][4] = {
        { 0.3, -0.7, 1.2, -2.5 }, { -1.1, 0.45, -0.3, 0.8 },
        { 0.9, 1.6, 2.7, 0.35 }, { -0.3, -0.05, -1.6, -1.7 },
    };

    /* v1.xy: sin and cos are Mesa's polynomial approximations */
    run_captured_vp("pvs-ops.replay", inputs, G_N_ELEMENTS(inputs), 8,
                    ops_ref, 1, 2e-3, "pvs-ops");
}

/*
 * kmscap's ARB_vertex_program (pvs-arbvp.replay). Mesa 22.3 lowers LIT,
 * EXP, LOG and DST before the r300 compiler sees them (so ME_LIGHT_COEFF_DX,
 * EXP/LOG_BASE2_DX and DISTANCE_VECTOR never reach the chip from it); what
 * it sends (POWER_FUNC_FF, SGE, FRACTION, EX2, LG2, ARL) must still give
 * the ARB results.
 */
static void test_pvs_arbvp_replay(void)
{
    static const double inputs[][4] = {
        { 0.6, 0.8, 1.2, 2.5 }, { -0.4, 0.5, -0.7, 1.0 },
        { 1.5, -3.0, 2.2, 0.5 }, { 2.25, 5.0, 0.1, -1.25 },
    };

    run_captured_vp("pvs-arbvp.replay", inputs, G_N_ELEMENTS(inputs), 5,
                    arbvp_ref, -1, 0, NULL);
}

/* tools/mesa-capture/kmscap.c's mip_texel and mip_rects */
static uint32_t mip_texel(int k, int i, int j)
{
    return ((i * 7 + k * 29) & 255) | ((j * 5 + k * 61) & 255) << 8 |
           (((i ^ j) * 3 + k) & 255) << 16 | 0xffu << 24;
}

static const int mip_rects[8][4] = {
    { 0, 64, 128, 56 }, { 0, 0, 64, 64 }, { 66, 0, 32, 32 },
    { 100, 0, 16, 16 }, { 118, 0, 8, 8 }, { 128, 0, 4, 4 }, { 134, 0, 2, 2 },
    { 138, 0, 1, 1 },
};

/*
 * A 128x128 texture with all eight levels given by glTexImage2D, each drawn
 * 1:1 with GL_NEAREST_MIPMAP_NEAREST, as Mesa 22.3's r300 driver did it
 * (mip-levels.replay): Mesa macro+micro tiles the chain, reallocates it
 * when levels arrive and blits every level from a linear staging texture
 * into its place. Levels 0 and 1 are macro tiled, the rest only micro tiled
 * (the R300 switch); every pixel must be its texel exactly.
 */
static void test_mip_levels_replay(void)
{
    Replay r;
    R300Rig *d = replay("mip-levels.replay", &r);
    int k, i, j, bad = 0;

    maybe_dump(d, "mip-levels");
    for (k = 0; k < 8; k++) {
        const int *rc = mip_rects[k];
        for (j = 0; j < rc[3]; j++) {
            for (i = 0; i < rc[2]; i++) {
                uint32_t t = mip_texel(k, i, j);
                uint32_t want = (t & 0xFF) << 16 | (t & 0xFF00) |
                                (t >> 16 & 0xFF);
                uint32_t got = px(d, rc[0] + i, rc[1] + j) & 0xFFFFFF;
                if (got != want && bad++ < 5) {
                    g_test_message("level %d texel %d,%d: %06x, expected "
                                   "%06x", k, i, j, got, want);
                }
            }
        }
    }
    g_assert_cmpint(bad, ==, 0);
    compare_llvmpipe(d, "mip-levels");
    r300_rig_free(d);
}

/*
 * kmscap's misc frame as Mesa 22.3's r300 driver drew it (misc.replay): an
 * opaque quad, an alpha-blended one over it, a stencil-only triangle and a
 * quad drawn where the stencil is 1, a quad with a discarded checker
 * (gl_FragCoord, KIL) and three point sprites (gl_PointCoord, discard
 * outside a disc), against llvmpipe's picture of the same frame.
 */
static void test_misc_replay(void)
{
    Replay r;
    R300Rig *d = replay("misc.replay", &r);

    maybe_dump(d, "misc");
    compare_llvmpipe(d, "misc");
    r300_rig_free(d);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/r300/mesa/kmscube-smooth", test_kmscube_smooth);
    g_test_add_func("/r300/mesa/kmscube-smooth-replay",
                    test_kmscube_smooth_replay);
    g_test_add_func("/r300/mesa/kmscube-tex-replay", test_kmscube_tex_replay);
    g_test_add_func("/r300/mesa/mip-levels-replay", test_mip_levels_replay);
    g_test_add_func("/r300/mesa/misc-replay", test_misc_replay);
    g_test_add_func("/r300/mesa/fetch-formats", test_fetch_formats);
    g_test_add_func("/r300/mesa/pvs-ops-replay", test_pvs_ops_replay);
    g_test_add_func("/r300/mesa/pvs-arbvp-replay", test_pvs_arbvp_replay);
    return g_test_run();
}
