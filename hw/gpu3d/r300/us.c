/*
 * R300 US: the fragment shader [R3xx 3D ref. §1.9 US].
 *
 * Program layout: US_CONFIG.NLEVEL + 1 nodes fill the indirection levels
 * backwards, the last node always in US_CODE_ADDR_3 [R3xx 3D ref. §1.9 US, EXT
 * Mesa]; every size field holds count - 1 (reference defect R300-45,
 * docs/references.md). Only the first node's TEX segment is optional
 * (US_CONFIG.FIRST_TEX).
 *
 * Operands: each ALU instruction reads three RGB sources and three alpha
 * sources. Operand selects pick from a pool of
 *   src0.rgb src1.rgb src2.rgb srcp.rgb  src0.a src1.a src2.a srcp.a  0 1 0.5
 * where srcN.rgb come from the RGB source addresses and srcN.a from the
 * alpha source addresses, for both halves: the register file is split
 * into a colour and an alpha half [R3xx 3D ref. §1.9 US, EXT Mesa].
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "r300/us.h"

#include <math.h>
#include <string.h>

#include "common/g3d-core.h"
#include "common/fpformat.h"

/* operand pool indices */
enum {
    POOL_SRC0 = 0, POOL_SRC1 = 3, POOL_SRC2 = 6, POOL_SRCP = 9,
    POOL_SRC0_A = 12, POOL_SRC1_A = 13, POOL_SRC2_A = 14, POOL_SRCP_A = 15,
    POOL_ZERO = 16, POOL_ONE = 17, POOL_HALF = 18,
    POOL_SIZE
};

/* RGB operand selects 0..31 [R3xx 3D ref. §1.9 US] as pool indices per
 * component */
static const uint8_t us_rgb_sel[32][3] = {
#define RGBSEL(b) { b, b + 1, b + 2 }, { b, b, b }, { b + 1, b + 1, b + 1 }, \
                  { b + 2, b + 2, b + 2 }
    RGBSEL(POOL_SRC0), RGBSEL(POOL_SRC1), RGBSEL(POOL_SRC2),      /* 0-11 */
#undef RGBSEL
    { POOL_SRC0_A, POOL_SRC0_A, POOL_SRC0_A },                     /* 12 */
    { POOL_SRC1_A, POOL_SRC1_A, POOL_SRC1_A },
    { POOL_SRC2_A, POOL_SRC2_A, POOL_SRC2_A },
    { POOL_SRCP, POOL_SRCP + 1, POOL_SRCP + 2 },                   /* 15 */
    { POOL_SRCP, POOL_SRCP, POOL_SRCP },
    { POOL_SRCP + 1, POOL_SRCP + 1, POOL_SRCP + 1 },
    { POOL_SRCP + 2, POOL_SRCP + 2, POOL_SRCP + 2 },
    { POOL_SRCP_A, POOL_SRCP_A, POOL_SRCP_A },                     /* 19 */
    { POOL_ZERO, POOL_ZERO, POOL_ZERO },                           /* 20 */
    { POOL_ONE, POOL_ONE, POOL_ONE },
    { POOL_HALF, POOL_HALF, POOL_HALF },
    { POOL_SRC0 + 1, POOL_SRC0 + 2, POOL_SRC0 },                   /* 23 gbr */
    { POOL_SRC1 + 1, POOL_SRC1 + 2, POOL_SRC1 },
    { POOL_SRC2 + 1, POOL_SRC2 + 2, POOL_SRC2 },
    { POOL_SRC0 + 2, POOL_SRC0, POOL_SRC0 + 1 },                   /* 26 brg */
    { POOL_SRC1 + 2, POOL_SRC1, POOL_SRC1 + 1 },
    { POOL_SRC2 + 2, POOL_SRC2, POOL_SRC2 + 1 },
    { POOL_SRC0_A, POOL_SRC0 + 2, POOL_SRC0 + 1 },                 /* 29 abg */
    { POOL_SRC1_A, POOL_SRC1 + 2, POOL_SRC1 + 1 },
    { POOL_SRC2_A, POOL_SRC2 + 2, POOL_SRC2 + 1 },
};

/* alpha operand selects 0..18 [R3xx 3D ref. §1.9 US; reference defect R300-43,
 * docs/references.md] */
static const uint8_t us_alpha_sel[19] = {
    POOL_SRC0, POOL_SRC0 + 1, POOL_SRC0 + 2,
    POOL_SRC1, POOL_SRC1 + 1, POOL_SRC1 + 2,
    POOL_SRC2, POOL_SRC2 + 1, POOL_SRC2 + 2,
    POOL_SRC0_A, POOL_SRC1_A, POOL_SRC2_A,
    POOL_SRCP, POOL_SRCP + 1, POOL_SRCP + 2, POOL_SRCP_A,
    POOL_ZERO, POOL_ONE, POOL_HALF,
};

/* OMOD 0..6: x1 x2 x4 x8 /2 /4 /8; 7 is reserved */
static const float us_omod[8] = { 1, 2, 4, 8, 0.5f, 0.25f, 0.125f, 1 };

#define US_BAD_OP 0xff

static bool us_rgb_op_ok(unsigned op)
{
    return op <= R300_US_RGB_OP_SOP && op != 6;
}

static bool us_alpha_op_ok(unsigned op)
{
    return op <= R300_US_ALPHA_OP_RSQ && op != 4;
}

/* A temporary the program uses: checked against US_PIXSIZE and counted */
static void us_use_temp(R300USProgram *p, unsigned addr, unsigned ip,
                        bool *warned)
{
    if (addr >= R300_US_ADDR_CONST) {
        return;
    }
    if (addr > p->pix_size && !*warned) {
        g3d_guest_error("r300 us: instruction %u uses temporary %u beyond "
                        "US_PIXSIZE %u", ip, addr, p->pix_size);
        *warned = true;
    }
    if (addr + 1 > p->temps_used) {
        p->temps_used = addr + 1;
    }
}

static void us_decode_alu(R300USProgram *p, unsigned ip, bool *warned)
{
    uint32_t ra = p->rgb_addr[ip], aa = p->alpha_addr[ip];
    uint32_t ri = p->rgb_inst[ip], ai = p->alpha_inst[ip];
    R300USAluOp *op = &p->alu[ip];
    static const uint8_t sel_shift[3] = { 0, 7, 14 };
    static const uint8_t mod_shift[3] = { 5, 12, 19 };
    unsigned j, k;

    for (j = 0; j < 3; j++) {
        unsigned rs = (ri >> sel_shift[j]) & 31, as = (ai >> sel_shift[j]) & 31;

        op->rgb_addr[j] = (ra >> (6 * j)) & 63;
        op->alpha_addr[j] = (aa >> (6 * j)) & 63;
        for (k = 0; k < 3; k++) {
            op->rgb_sel[j][k] = us_rgb_sel[rs][k];
        }
        if (as >= sizeof(us_alpha_sel)) {
            g3d_guest_error("r300 us: ALU %u: alpha operand select %u "
                            "undefined, reads 0", ip, as);
            op->alpha_sel[j] = POOL_ZERO;
        } else {
            op->alpha_sel[j] = us_alpha_sel[as];
        }
        op->rgb_mod[j] = (ri >> mod_shift[j]) & 3;
        op->alpha_mod[j] = (ai >> mod_shift[j]) & 3;
        us_use_temp(p, op->rgb_addr[j], ip, warned);
        us_use_temp(p, op->alpha_addr[j], ip, warned);
    }
    op->uses_srcp = 0;
    for (j = 0; j < 3; j++) {
        static const uint32_t and_mask[4] = {
            0xffffffffu, 0xffffffffu, 0x7fffffffu, 0x7fffffffu };
        static const uint32_t xor_mask[4] = { 0, 0x80000000u, 0, 0x80000000u };
        for (k = 0; k < 3; k++) {
            unsigned x = op->rgb_sel[j][k];
            op->uses_srcp |= (x >= POOL_SRCP && x < POOL_SRCP + 3) |
                             (x == POOL_SRCP_A) << 1;
        }
        op->uses_srcp |= (op->alpha_sel[j] >= POOL_SRCP &&
                          op->alpha_sel[j] < POOL_SRCP + 3) |
                         (op->alpha_sel[j] == POOL_SRCP_A) << 1;
        op->rgb_and[j] = and_mask[op->rgb_mod[j]];
        op->rgb_xor[j] = xor_mask[op->rgb_mod[j]];
        op->alpha_and[j] = and_mask[op->alpha_mod[j]];
        op->alpha_xor[j] = xor_mask[op->alpha_mod[j]];
    }
    /* the sources the selects read, directly or through srcp */
    op->loads = (op->uses_srcp & 1 ? 3 : 0) | (op->uses_srcp & 2 ? 3 << 3 : 0);
    for (j = 0; j < 3; j++) {
        for (k = 0; k < 3; k++) {
            unsigned x = op->rgb_sel[j][k];
            op->loads |= x < POOL_SRCP ? 1u << (x / 3)
                       : x >= POOL_SRC0_A && x <= POOL_SRC2_A
                       ? 1u << (3 + x - POOL_SRC0_A) : 0;
        }
        if (op->alpha_sel[j] < POOL_SRCP) {
            op->loads |= 1u << (op->alpha_sel[j] / 3);
        } else if (op->alpha_sel[j] >= POOL_SRC0_A &&
                   op->alpha_sel[j] <= POOL_SRC2_A) {
            op->loads |= 1u << (3 + op->alpha_sel[j] - POOL_SRC0_A);
        }
    }
    op->rgb_srcp = G3D_FIELD_EX32(ri, US_ALU_RGB_INST_0, SRCP_OP);
    op->alpha_srcp = G3D_FIELD_EX32(ai, US_ALU_ALPHA_INST_0, SRCP_OP);
    op->rgb_op = G3D_FIELD_EX32(ri, US_ALU_RGB_INST_0, OP);
    op->alpha_op = G3D_FIELD_EX32(ai, US_ALU_ALPHA_INST_0, OP);
    if (!us_rgb_op_ok(op->rgb_op)) {
        g3d_guest_error("r300 us: ALU %u: RGB op %u undefined, result 0",
                        ip, op->rgb_op);
        op->rgb_op = US_BAD_OP;
    }
    if (!us_alpha_op_ok(op->alpha_op)) {
        g3d_guest_error("r300 us: ALU %u: alpha op %u undefined, result 0",
                        ip, op->alpha_op);
        op->alpha_op = US_BAD_OP;
    }
    j = G3D_FIELD_EX32(ri, US_ALU_RGB_INST_0, OMOD);
    k = G3D_FIELD_EX32(ai, US_ALU_ALPHA_INST_0, OMOD);
    if (j == 7 || k == 7) {
        g3d_guest_error("r300 us: ALU %u: OMOD 7 is reserved; x1 used", ip);
    }
    op->rgb_scale = us_omod[j];
    op->alpha_scale = us_omod[k];
    op->rgb_clamp = G3D_FIELD_EX32(ri, US_ALU_RGB_INST_0, CLAMP);
    op->alpha_clamp = G3D_FIELD_EX32(ai, US_ALU_ALPHA_INST_0, CLAMP);

    op->rgb_dst = G3D_FIELD_EX32(ra, US_ALU_RGB_ADDR_0, ADDRD);
    op->rgb_wmask = G3D_FIELD_EX32(ra, US_ALU_RGB_ADDR_0, WMASK);
    op->rgb_omask = G3D_FIELD_EX32(ra, US_ALU_RGB_ADDR_0, OMASK);
    op->rgb_target = G3D_FIELD_EX32(ra, US_ALU_RGB_ADDR_0, TARGET);
    op->alpha_dst = G3D_FIELD_EX32(aa, US_ALU_ALPHA_ADDR_0, ADDRD);
    op->alpha_wmask = G3D_FIELD_EX32(aa, US_ALU_ALPHA_ADDR_0, WMASK);
    op->alpha_omask = G3D_FIELD_EX32(aa, US_ALU_ALPHA_ADDR_0, OMASK);
    op->alpha_target = G3D_FIELD_EX32(aa, US_ALU_ALPHA_ADDR_0, TARGET);
    op->alpha_omask_w = G3D_FIELD_EX32(aa, US_ALU_ALPHA_ADDR_0, OMASK_W);
    if (op->rgb_wmask) {
        us_use_temp(p, op->rgb_dst, ip, warned);
    }
    if (op->alpha_wmask) {
        us_use_temp(p, op->alpha_dst, ip, warned);
    }
}

static void us_decode_tex(R300USProgram *p, unsigned ip, bool *warned)
{
    uint32_t t = p->tex[ip];
    R300USTexOp *op = &p->tex_op[ip];

    op->src = G3D_FIELD_EX32(t, US_TEX_INST_0, SRC_ADDR);
    op->dst = G3D_FIELD_EX32(t, US_TEX_INST_0, DST_ADDR);
    op->unit = G3D_FIELD_EX32(t, US_TEX_INST_0, TEX_ID);
    op->inst = G3D_FIELD_EX32(t, US_TEX_INST_0, INST);
    if (op->inst > R300_US_TEX_LODBIAS) {
        g3d_guest_error("r300 us: TEX %u: instruction %u undefined, NOP",
                        ip, op->inst);
        op->inst = R300_US_TEX_NOP;
    }
    if (op->inst != R300_US_TEX_NOP) {
        us_use_temp(p, op->src, ip, warned);
    }
    if (op->inst != R300_US_TEX_NOP && op->inst != R300_US_TEX_TEXKILL) {
        us_use_temp(p, op->dst, ip, warned);
        p->units_used |= 1u << op->unit;
    }
}

bool r300_us_load(R300USProgram *p, const uint32_t *regs)
{
    /* [Mesa r300_emit.c pack_float24] */
    static const G3DFloatFmt fp24 = { 7, 16, 63, 0 };
    uint32_t config = regs[R_US_CONFIG];
    uint32_t off = regs[R_US_CODE_OFFSET];
    unsigned nlevel = G3D_FIELD_EX32(config, US_CONFIG, NLEVEL);
    unsigned alu_off = G3D_FIELD_EX32(off, US_CODE_OFFSET, ALU_OFFSET);
    unsigned alu_total = G3D_FIELD_EX32(off, US_CODE_OFFSET, ALU_SIZE);
    unsigned tex_off = G3D_FIELD_EX32(off, US_CODE_OFFSET, TEX_OFFSET);
    unsigned tex_total = G3D_FIELD_EX32(off, US_CODE_OFFSET, TEX_SIZE);
    bool warned = false;
    unsigned i, j;

    if (nlevel > 3) {
        g3d_guest_error("r300 us: US_CONFIG.NLEVEL %u undefined", nlevel);
        return false;
    }
    p->nodes = nlevel + 1;
    p->pix_size = G3D_FIELD_EX32(regs[R_US_PIXSIZE], US_PIXSIZE, PIX_SIZE);
    p->units_used = 0;
    p->temps_used = 0;

    for (i = 0; i < p->nodes; i++) {
        unsigned level = 4 - p->nodes + i;
        uint32_t ca = regs[R300_US_CODE_ADDR(level) / 4];
        R300USNode *n = &p->node[i];
        unsigned start = G3D_FIELD_EX32(ca, US_CODE_ADDR_0, ALU_START);
        unsigned size = G3D_FIELD_EX32(ca, US_CODE_ADDR_0, ALU_SIZE);

        n->alu_start = alu_off + start;
        n->alu_count = size + 1;
        if (start + size > alu_total ||
            n->alu_start + n->alu_count > R300_US_MAX_ALU) {
            g3d_guest_error("r300 us: level %u ALU %u+%u..%u outside the "
                            "code (offset %u, %u instructions)", level,
                            alu_off, start, start + size, alu_off,
                            alu_total + 1);
            return false;
        }
        n->tex_start = 0;
        n->tex_count = 0;
        if (i > 0 || G3D_FIELD_EX32(config, US_CONFIG, FIRST_TEX)) {
            start = G3D_FIELD_EX32(ca, US_CODE_ADDR_0, TEX_START);
            size = G3D_FIELD_EX32(ca, US_CODE_ADDR_0, TEX_SIZE);
            n->tex_start = tex_off + start;
            n->tex_count = size + 1;
            if (start + size > tex_total ||
                n->tex_start + n->tex_count > R300_US_MAX_TEX) {
                g3d_guest_error("r300 us: level %u TEX %u+%u..%u outside "
                                "the code (offset %u, %u instructions)",
                                level, tex_off, start, start + size, tex_off,
                                tex_total + 1);
                return false;
            }
        }
    }

    for (i = 0; i < p->nodes; i++) {
        const R300USNode *n = &p->node[i];
        for (j = n->tex_start; j < n->tex_start + n->tex_count; j++) {
            p->tex[j] = regs[R300_US_TEX_INST(j) / 4];
            us_decode_tex(p, j, &warned);
        }
        for (j = n->alu_start; j < n->alu_start + n->alu_count; j++) {
            p->rgb_addr[j] = regs[R300_US_ALU_RGB_ADDR(j) / 4];
            p->alpha_addr[j] = regs[R300_US_ALU_ALPHA_ADDR(j) / 4];
            p->rgb_inst[j] = regs[R300_US_ALU_RGB_INST(j) / 4];
            p->alpha_inst[j] = regs[R300_US_ALU_ALPHA_INST(j) / 4];
            us_decode_alu(p, j, &warned);
        }
    }

    for (i = 0; i < R300_US_NUM_CONSTS; i++) {
        p->consts[i][0] = g3d_float_unpack(
            regs[R300_US_ALU_CONST_R(i) / 4] & 0xffffff, &fp24);
        p->consts[i][1] = g3d_float_unpack(
            regs[R300_US_ALU_CONST_G(i) / 4] & 0xffffff, &fp24);
        p->consts[i][2] = g3d_float_unpack(
            regs[R300_US_ALU_CONST_B(i) / 4] & 0xffffff, &fp24);
        p->consts[i][3] = g3d_float_unpack(
            regs[R300_US_ALU_CONST_A(i) / 4] & 0xffffff, &fp24);
    }
    for (i = 0; i < 4; i++) {
        uint32_t f = regs[R300_US_OUT_FMT(i) / 4];
        unsigned fmt = G3D_FIELD_EX32(f, US_OUT_FMT_0, OUT_FMT);
        p->out_fmt[i] = f;
        if (fmt == 14 || fmt > 21) {
            g3d_guest_error("r300 us: US_OUT_FMT_%u format %u undefined",
                            i, fmt);
        }
    }
    p->w_fmt = regs[R_US_W_FMT];
    if (G3D_FIELD_EX32(p->w_fmt, US_W_FMT, W_FMT) == 3) {
        g3d_guest_error("r300 us: US_W_FMT 3 is reserved");
    }
    return true;
}

/* ---- exec -------------------------------------------------------------- */

/*
 * The ALU works on the quad lane-wise: every value below is a V4, one float
 * per pixel, so the per-instruction decisions are taken once per quad and
 * the arithmetic vectorises.
 */
typedef float V4[4];

#define LANES(px) for (px = 0; px < 4; px++)

/* a source modifier as bit operations on the sign: NEG ABS NAB */
static inline void us_mod4(V4 out, const V4 in, uint32_t and_m, uint32_t xor_m)
{
    int px;

    LANES(px) {
        uint32_t b;
        memcpy(&b, &in[px], 4);
        b = (b & and_m) ^ xor_m;
        memcpy(&out[px], &b, 4);
    }
}

/* the pre-subtract srcp from source 0 and 1 [R3xx 3D ref. §1.9 US] */
static inline void us_srcp4(V4 out, unsigned op, const V4 s0, const V4 s1)
{
    int px;

    switch (op) {
    case 0:
        LANES(px) {
            out[px] = 1.0f - 2.0f * s0[px];
        }
        break;
    case 1:
        LANES(px) {
            out[px] = s1[px] - s0[px];
        }
        break;
    case 2:
        LANES(px) {
            out[px] = s1[px] + s0[px];
        }
        break;
    default:
        LANES(px) {
            out[px] = 1.0f - s0[px];
        }
        break;
    }
}

/* OMOD, then CLAMP */
static inline void us_finish4(V4 x, float scale, bool clamp)
{
    int px;

    if (scale != 1.0f) {
        LANES(px) {
            x[px] *= scale;
        }
    }
    if (clamp) {
        LANES(px) {
            x[px] = g3d_clampf(x[px], 0.0f, 1.0f);
        }
    }
}

static void us_alu_quad(const R300USProgram *p, const R300USAluOp *op,
                        R300USQuad *q)
{
    V4 pool[POOL_SIZE];
    V4 Am[3][3], am[3], dot3, d2a, ar, rr[3];
    const float *A[3][3], *a[3];    /* the operands, modified or not */
    int j, k, px;

    for (j = 0; j < 3; j++) {
        unsigned ra = op->rgb_addr[j], aa = op->alpha_addr[j];

        if (!(op->loads & (1u << j))) {
            /* not read by this instruction */
        } else if (ra < R300_US_ADDR_CONST) {
            LANES(px) {
                for (k = 0; k < 3; k++) {
                    pool[3 * j + k][px] = q->temp[px][ra][k];
                }
            }
        } else {
            for (k = 0; k < 3; k++) {
                LANES(px) {
                    pool[3 * j + k][px] = p->consts[ra - 32][k];
                }
            }
        }
        if (!(op->loads & (8u << j))) {
            continue;
        }
        LANES(px) {
            pool[POOL_SRC0_A + j][px] = aa < R300_US_ADDR_CONST
                                        ? q->temp[px][aa][3]
                                        : p->consts[aa - 32][3];
        }
    }
    if (op->uses_srcp & 1) {
        for (k = 0; k < 3; k++) {
            us_srcp4(pool[POOL_SRCP + k], op->rgb_srcp, pool[POOL_SRC0 + k],
                     pool[POOL_SRC1 + k]);
        }
    }
    if (op->uses_srcp & 2) {
        us_srcp4(pool[POOL_SRCP_A], op->alpha_srcp, pool[POOL_SRC0_A],
                 pool[POOL_SRC1_A]);
    }
    LANES(px) {
        pool[POOL_ZERO][px] = 0.0f;
        pool[POOL_ONE][px] = 1.0f;
        pool[POOL_HALF][px] = 0.5f;
    }

    /* modifiers: most operands have none and are read in place */
    for (j = 0; j < 3; j++) {
        bool plain = op->rgb_and[j] == 0xffffffffu && !op->rgb_xor[j];
        for (k = 0; k < 3; k++) {
            A[j][k] = pool[op->rgb_sel[j][k]];
            if (!plain) {
                us_mod4(Am[j][k], A[j][k], op->rgb_and[j], op->rgb_xor[j]);
                A[j][k] = Am[j][k];
            }
        }
        a[j] = pool[op->alpha_sel[j]];
        if (op->alpha_and[j] != 0xffffffffu || op->alpha_xor[j]) {
            us_mod4(am[j], a[j], op->alpha_and[j], op->alpha_xor[j]);
            a[j] = am[j];
        }
    }
    if (op->alpha_op == R300_US_ALPHA_OP_DP ||
        op->rgb_op == R300_US_RGB_OP_DP3 || op->rgb_op == R300_US_RGB_OP_DP4 ||
        op->rgb_op == R300_US_RGB_OP_D2A) {
        LANES(px) {
            dot3[px] = A[0][0][px] * A[1][0][px] + A[0][1][px] * A[1][1][px] +
                       A[0][2][px] * A[1][2][px];
            d2a[px] = A[0][0][px] * A[1][0][px] + A[0][1][px] * A[1][1][px] +
                      A[2][2][px];
        }
    }

    /* alpha first: SOP hands its scalar to the RGB half */
    switch (op->alpha_op) {
    case R300_US_ALPHA_OP_MAD:
        LANES(px) {
            ar[px] = a[0][px] * a[1][px] + a[2][px];
        }
        break;
    case R300_US_ALPHA_OP_DP:
        /* the dot product of the paired RGB op: DP3, D2A, else DP4 */
        LANES(px) {
            ar[px] = op->rgb_op == R300_US_RGB_OP_DP3 ? dot3[px]
                   : op->rgb_op == R300_US_RGB_OP_D2A ? d2a[px]
                   : dot3[px] + a[0][px] * a[1][px];
        }
        break;
    case R300_US_ALPHA_OP_MIN:
        LANES(px) {
            ar[px] = a[0][px] < a[1][px] ? a[0][px] : a[1][px];
        }
        break;
    case R300_US_ALPHA_OP_MAX:
        LANES(px) {
            ar[px] = a[0][px] > a[1][px] ? a[0][px] : a[1][px];
        }
        break;
    case R300_US_ALPHA_OP_CND:
        LANES(px) {
            ar[px] = a[2][px] > 0.5f ? a[0][px] : a[1][px];
        }
        break;
    case R300_US_ALPHA_OP_CMP:
        LANES(px) {
            ar[px] = a[2][px] >= 0.0f ? a[0][px] : a[1][px];
        }
        break;
    case R300_US_ALPHA_OP_FRC:
        LANES(px) {
            ar[px] = a[0][px] - floorf(a[0][px]);
        }
        break;
    case R300_US_ALPHA_OP_EX2:
        LANES(px) {
            ar[px] = exp2f(a[0][px]);
        }
        break;
    case R300_US_ALPHA_OP_LN2:
        LANES(px) {
            ar[px] = log2f(a[0][px]);
        }
        break;
    case R300_US_ALPHA_OP_RCP:
        LANES(px) {
            ar[px] = 1.0f / a[0][px];
        }
        break;
    case R300_US_ALPHA_OP_RSQ:
        LANES(px) {
            ar[px] = 1.0f / sqrtf(a[0][px]);
        }
        break;
    default:
        LANES(px) {
            ar[px] = 0.0f;
        }
        break;
    }

    switch (op->rgb_op) {
    case R300_US_RGB_OP_MAD:
        for (k = 0; k < 3; k++) {
            LANES(px) {
                rr[k][px] = A[0][k][px] * A[1][k][px] + A[2][k][px];
            }
        }
        break;
    case R300_US_RGB_OP_DP3:
        memcpy(rr[0], dot3, sizeof(V4));
        break;
    case R300_US_RGB_OP_DP4:
        LANES(px) {
            rr[0][px] = dot3[px] + a[0][px] * a[1][px];
        }
        break;
    case R300_US_RGB_OP_D2A:
        memcpy(rr[0], d2a, sizeof(V4));
        break;
    case R300_US_RGB_OP_MIN:
        for (k = 0; k < 3; k++) {
            LANES(px) {
                rr[k][px] = A[0][k][px] < A[1][k][px] ? A[0][k][px]
                                                      : A[1][k][px];
            }
        }
        break;
    case R300_US_RGB_OP_MAX:
        for (k = 0; k < 3; k++) {
            LANES(px) {
                rr[k][px] = A[0][k][px] > A[1][k][px] ? A[0][k][px]
                                                      : A[1][k][px];
            }
        }
        break;
    case R300_US_RGB_OP_CND:
        for (k = 0; k < 3; k++) {
            LANES(px) {
                rr[k][px] = A[2][k][px] > 0.5f ? A[0][k][px] : A[1][k][px];
            }
        }
        break;
    case R300_US_RGB_OP_CMP:
        for (k = 0; k < 3; k++) {
            LANES(px) {
                rr[k][px] = A[2][k][px] >= 0.0f ? A[0][k][px] : A[1][k][px];
            }
        }
        break;
    case R300_US_RGB_OP_FRC:
        for (k = 0; k < 3; k++) {
            LANES(px) {
                rr[k][px] = A[0][k][px] - floorf(A[0][k][px]);
            }
        }
        break;
    case R300_US_RGB_OP_SOP:
        memcpy(rr[0], ar, sizeof(V4));
        break;
    default:
        memset(rr[0], 0, sizeof(V4));
        break;
    }
    switch (op->rgb_op) {
    case R300_US_RGB_OP_DP3:
    case R300_US_RGB_OP_DP4:
    case R300_US_RGB_OP_D2A:
    case R300_US_RGB_OP_SOP:
    case US_BAD_OP:
        /* scalar results replicate */
        memcpy(rr[1], rr[0], sizeof(V4));
        memcpy(rr[2], rr[0], sizeof(V4));
        break;
    }

    us_finish4(ar, op->alpha_scale, op->alpha_clamp);
    for (k = 0; k < 3; k++) {
        us_finish4(rr[k], op->rgb_scale, op->rgb_clamp);
    }
    /* write-back; the fields are read once (the stores may alias them) */
    {
        const unsigned rgb_dst = op->rgb_dst, rgb_target = op->rgb_target;
        const unsigned wmask = op->rgb_wmask, omask = op->rgb_omask;
        const unsigned alpha_dst = op->alpha_dst;
        const unsigned alpha_target = op->alpha_target;

        for (k = 0; k < 3; k++) {
            if (wmask & (1 << k)) {
                LANES(px) {
                    q->temp[px][rgb_dst][k] = rr[k][px];
                }
            }
            if (omask & (1 << k)) {
                LANES(px) {
                    q->out[px][rgb_target][k] = rr[k][px];
                }
            }
        }
        if (op->alpha_wmask) {
            LANES(px) {
                q->temp[px][alpha_dst][3] = ar[px];
            }
        }
        if (op->alpha_omask) {
            LANES(px) {
                q->out[px][alpha_target][3] = ar[px];
            }
        }
    }
    if (op->alpha_omask_w) {
        LANES(px) {
            q->w[px] = ar[px];
        }
    }
}

static void us_tex(const R300USTexOp *op, R300USQuad *q, R300SampleFn *sample,
                   void *opaque)
{
    float coord[4][4], res[4][4];
    int px, c;

    switch (op->inst) {
    case R300_US_TEX_NOP:
        return;
    case R300_US_TEX_TEXKILL:
        for (px = 0; px < 4; px++) {
            const float *v = q->temp[px][op->src];
            if (v[0] < 0.0f || v[1] < 0.0f || v[2] < 0.0f || v[3] < 0.0f) {
                q->kill |= 1u << px;
            }
        }
        return;
    default:
        for (px = 0; px < 4; px++) {
            memcpy(coord[px], q->temp[px][op->src], sizeof(coord[px]));
        }
        sample(opaque, op->unit, op->inst, (const float (*)[4])coord, res);
        for (px = 0; px < 4; px++) {
            for (c = 0; c < 4; c++) {
                q->temp[px][op->dst][c] = res[px][c];
            }
        }
        return;
    }
}

void r300_us_exec(const R300USProgram *p, R300USQuad *q,
                  R300SampleFn *sample, void *opaque)
{
    unsigned n, i;

    q->kill = 0;
    q->out_written = 0;
    q->w_written = false;
    memset(q->out, 0, sizeof(q->out));
    memset(q->w, 0, sizeof(q->w));

    for (n = 0; n < p->nodes; n++) {
        const R300USNode *node = &p->node[n];

        for (i = node->tex_start; i < node->tex_start + node->tex_count; i++) {
            us_tex(&p->tex_op[i], q, sample, opaque);
        }
        for (i = node->alu_start; i < node->alu_start + node->alu_count; i++) {
            const R300USAluOp *op = &p->alu[i];

            us_alu_quad(p, op, q);
            if (op->rgb_omask) {
                q->out_written |= 1u << op->rgb_target;
            }
            if (op->alpha_omask) {
                q->out_written |= 1u << op->alpha_target;
            }
            if (op->alpha_omask_w) {
                q->w_written = true;
            }
        }
    }
}

bool r300_us_match_move(const R300USProgram *p, R300USMove *m)
{
    const R300USNode *node = &p->node[0];
    const R300USAluOp *op;
    int j;

    if (p->nodes != 1 || node->alu_count != 1 || node->tex_count > 1) {
        return false;
    }
    op = &p->alu[node->alu_start];
    /* RGB = src0.rgb * 1 + 0, alpha = src0.a * 1 + 0, read from one temp */
    if (op->rgb_op != R300_US_RGB_OP_MAD ||
        op->alpha_op != R300_US_ALPHA_OP_MAD ||
        op->rgb_addr[0] >= R300_US_ADDR_CONST ||
        op->alpha_addr[0] != op->rgb_addr[0] ||
        op->rgb_scale != 1.0f || op->alpha_scale != 1.0f ||
        op->rgb_omask != 7 || !op->alpha_omask || op->alpha_omask_w ||
        op->rgb_target != op->alpha_target ||
        op->alpha_sel[0] != POOL_SRC0_A || op->alpha_sel[1] != POOL_ONE ||
        op->alpha_sel[2] != POOL_ZERO) {
        return false;
    }
    for (j = 0; j < 3; j++) {
        if (op->rgb_sel[0][j] != POOL_SRC0 + j ||
            op->rgb_sel[1][j] != POOL_ONE || op->rgb_sel[2][j] != POOL_ZERO ||
            op->rgb_and[j] != 0xffffffffu || op->rgb_xor[j] ||
            op->alpha_and[j] != 0xffffffffu || op->alpha_xor[j]) {
            return false;
        }
    }
    m->tex = false;
    if (node->tex_count) {
        const R300USTexOp *t = &p->tex_op[node->tex_start];
        if (t->inst == R300_US_TEX_TEXKILL) {
            return false;
        }
        m->tex = t->inst != R300_US_TEX_NOP;
        m->tex_op = *t;
    }
    m->src = op->rgb_addr[0];
    m->target = op->rgb_target;
    m->rgb_clamp = op->rgb_clamp;
    m->alpha_clamp = op->alpha_clamp;
    return true;
}
