/*
 * R300 PVS: the programmable vertex shader [R3xx 3D ref. §1.10 VAP_PVS_*; Mesa
 * r300_reg.h, r3xx_vertprog.c].
 *
 * The instruction encoding is Mesa's (r300_reg.h, r3xx_vertprog.c). The
 * numeric conventions of the opcodes are those of the API instructions
 * Mesa's vertex compiler (compiler/r3xx_vertprog.c) translates into them,
 * i.e. the ARB_vertex_program / D3D9 vs instruction that each opcode
 * implements: DOT_PRODUCT = DP4, DISTANCE_VECTOR = DST, FRACTION = FRC,
 * SET_* = SGE/SLT, FLT2FIX_DX = ARL (floor), FLT2FIX_DX_RND = ARR (round),
 * EXP_BASE2_DX = EXP, LOG_BASE2_DX = LOG, *_FULL_DX = EX2/LG2,
 * RECIP_DX = RCP, RECIP_SQRT_DX = RSQ, POWER_FUNC_FF = POW,
 * LIGHT_COEFF_DX = LIT, SIN/COS in radians. "_DX" ops follow the D3D9
 * reference code for special values (rcp(0) = rsq(0) = FLT_MAX,
 * log(0) = -FLT_MAX); "_FF" ops return the IEEE result.
 *
 * Decisions where no public source says more (each is tested):
 * - MULTIPLYX2_ADD = 2ab + c (also the M2X_ADD macro); MULTIPLY_CLAMP =
 *   ab clamped to [0, 1]; ME MULTIPLY = a.w * b.w; EXP_BASEE_FF = e^a;
 *   POWER_FUNC_FF = |a|^c, _CLAMP_B with a >= 0, _CLAMP_B1 with a in
 *   [0, 1], _CLAMP_01 with the result in [0, 1]; RECIP_SQRT_FF =
 *   1/sqrt(|a|).
 * - ABS and the saturate bits work as on R5xx (Mesa emulates them on R3xx).
 * - A0 takes floor() of what is written to it; ADDR_MODE = MODE_1:MODE_0
 *   is 0 absolute, 1 + A0.<ADDR_SEL>, 2 + the loop index aL, 3 reserved.
 * - the alternate temporaries are a file of their own (32 vectors).
 * - LOOP: the counter and aL are set after ACT_ADRS, the body RTN_INST ..
 *   LAST_INST repeats LOOP_CNT times (0 runs once, logged), aL += STEP
 *   each time; JSR returns to RTN_INST after LAST_INST; both nest
 *   R300_PVS_FC_DEPTH deep; a vertex runs at most R300_PVS_MAX_STEPS.
 *
 * Math-engine (ME) operations are scalar: they read the W component of each
 * source. This is the only reading under which Mesa's LIT encoding works:
 * it feeds LIGHT_COEFF_DX the permutations (x,w,0,y), (y,w,0,x), (y,x,0,w),
 * whose W components are N.H, N.L and the exponent; and POW puts the base in
 * the first source and the exponent in the third, as LIT does.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "r300/pvs.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include <glib.h>

#include "common/g3d-core.h"

typedef struct PVSState {
    float temp[R300_PVS_MAX_TEMPS][4];
    float alt[R300_PVS_MAX_TEMPS][4];
    float inputs[R300_PVS_MAX_INPUTS][4];   /* only when writes_inputs */
    const float (*in)[4];
    float (*out)[4];
    int a0[4];
    int al;
} PVSState;

static const float pvs_zero[4];

/* ---- load ------------------------------------------------------------- */

static unsigned pvs_file_size(unsigned file)
{
    switch (file) {
    case R300_PVS_FILE_TEMP:
    case R300_PVS_FILE_ALT_TEMP:
        return R300_PVS_MAX_TEMPS;
    case R300_PVS_FILE_INPUT:
        return R300_PVS_MAX_INPUTS;
    case R300_PVS_FILE_CONST:
        return R300_PVS_MAX_CONSTS;
    case R300_PVS_FILE_OUT:
    case R300_PVS_FILE_OUT_REPL_X:
        return R300_PVS_MAX_OUTPUTS;
    case R300_PVS_FILE_A0:
        return 1;
    default:
        return 0;
    }
}

/* ADDR_MODE is split over two bits: mode = MODE_1 << 1 | MODE_0 */
static uint8_t pvs_addr_mode(bool m1, bool m0, unsigned pc, const char *what)
{
    unsigned mode = (m1 ? 2 : 0) | (m0 ? 1 : 0);

    if (mode == 3) {
        g3d_guest_error("r300 pvs: instruction %u: %s address mode 3 is "
                        "reserved; absolute used", pc, what);
        return R300_PVS_ADDR_ABS;
    }
    return mode;
}

static void pvs_decode_src(R300PVSSrcOp *s, uint32_t dw, unsigned pc, int n)
{
    static const uint8_t files[4] = {
        R300_PVS_FILE_TEMP, R300_PVS_FILE_INPUT, R300_PVS_FILE_CONST,
        R300_PVS_FILE_ALT_TEMP,
    };
    int c;
    bool used = false;

    s->file = files[R300_PVS_SRC_REG_TYPE(dw)];
    s->abs = (dw & R300_PVS_SRC_ABS_XYZW) != 0;
    s->offset = R300_PVS_SRC_OFFSET(dw);
    s->addr_sel = R300_PVS_SRC_ADDR_SEL(dw);
    s->neg = 0;
    for (c = 0; c < 4; c++) {
        s->swz[c] = R300_PVS_SRC_SWIZZLE(dw, c);
        if (s->swz[c] == R300_PVS_SRC_SELECT_UNUSED) {
            /*
             * Mesa's r300 compiler writes 7 (RC_SWIZZLE_UNUSED) in the lanes
             * a write mask drops (src/gallium/drivers/r300/compiler/
             * r3xx_vertprog.c): harmless, so read 0 without a log
             */
            s->swz[c] = R300_PVS_SRC_SELECT_FORCE_0;
        } else if (s->swz[c] > R300_PVS_SRC_SELECT_FORCE_1) {
            g3d_guest_error("r300 pvs: instruction %u source %d: swizzle %u "
                            "undefined, reads 0", pc, n, s->swz[c]);
            s->swz[c] = R300_PVS_SRC_SELECT_FORCE_0;
        }
        used |= s->swz[c] < 4;
        s->neg |= R300_PVS_SRC_NEG(dw, c) << c;
    }
    s->mode = pvs_addr_mode(dw & R300_PVS_SRC_ADDR_MODE_1,
                            dw & R300_PVS_SRC_ADDR_MODE_0, pc, "source");
    s->plain = !s->abs && !s->neg && s->swz[0] == 0 && s->swz[1] == 1 &&
               s->swz[2] == 2 && s->swz[3] == 3;
    /*
     * An absolute index past its file reads zero. Constants are exempt:
     * PVS_MAX_CONST_ADDR defines that case as (0,0,0,0) [R3xx 3D ref. §1.10
     * VAP_PVS_*]. Fully forced swizzles (Mesa's zero operand) read nothing.
     */
    if (used && s->mode == R300_PVS_ADDR_ABS &&
        s->file != R300_PVS_FILE_CONST &&
        s->offset >= pvs_file_size(s->file)) {
        g3d_guest_error("r300 pvs: instruction %u source %d: register %u "
                        "outside its file, reads 0", pc, n, s->offset);
        s->file = R300_PVS_FILE_NONE;
    }
}

/* destination register types 0..5 [Mesa r300_reg.h, r3xx_vertprog.c] */
static const uint8_t pvs_dst_files[] = {
    [R300_PVS_DST_REG_TEMPORARY] = R300_PVS_FILE_TEMP,
    [R300_PVS_DST_REG_A0] = R300_PVS_FILE_A0,
    [R300_PVS_DST_REG_OUT] = R300_PVS_FILE_OUT,
    [R300_PVS_DST_REG_OUT_REPL_X] = R300_PVS_FILE_OUT_REPL_X,
    [R300_PVS_DST_REG_TEMPORARY_ALT] = R300_PVS_FILE_ALT_TEMP,
    [R300_PVS_DST_REG_INPUT] = R300_PVS_FILE_INPUT,
};

/* the sources an operation reads (ME ops: W of each, see the top) */
static uint8_t pvs_reads(const R300PVSOp *op)
{
    switch (op->unit) {
    case R300_PVS_UNIT_MACRO:
        return 7;
    case R300_PVS_UNIT_ME:
        switch (op->opcode) {
        case R300_ME_NO_OP:
            return 0;
        case R300_ME_LIGHT_COEFF_DX:
            return 7;
        case R300_ME_MULTIPLY:
            return 3;
        case R300_ME_POWER_FUNC_FF:
        case R300_ME_POWER_FUNC_FF_CLAMP_B:
        case R300_ME_POWER_FUNC_FF_CLAMP_B1:
        case R300_ME_POWER_FUNC_FF_CLAMP_01:
            return 5;
        default:
            return 1;
        }
    case R300_PVS_UNIT_VE:
        switch (op->opcode) {
        case R300_VE_NO_OP:
            return 0;
        case R300_VE_FRACTION:
        case R300_VE_FLT2FIX_DX:
        case R300_VE_FLT2FIX_DX_RND:
            return 1;
        case R300_VE_MULTIPLY_ADD:
        case R300_VE_MULTIPLYX2_ADD:
            return 7;
        default:
            return 3;
        }
    default:
        return 0;
    }
}

static void pvs_decode(R300PVSProgram *p, unsigned pc)
{
    const uint32_t *dw = p->inst[pc].dw;
    R300PVSOp *op = &p->op[pc];
    unsigned type = R300_PVS_DST_REG_TYPE(dw[0]);
    int i;

    memset(op, 0, sizeof(*op));
    op->opcode = R300_PVS_DST_OPCODE(dw[0]);
    if ((dw[0] & R300_PVS_DST_MATH_INST) && (dw[0] & R300_PVS_DST_MACRO_INST)) {
        g3d_guest_error("r300 pvs: instruction %u is both math and macro",
                        pc);
        op->unit = R300_PVS_UNIT_BAD;
    } else if (dw[0] & R300_PVS_DST_MACRO_INST) {
        op->unit = R300_PVS_UNIT_MACRO;
        op->sat = (dw[0] & R300_PVS_DST_VE_SAT) != 0;
        if (op->opcode > R300_PVS_MACRO_OP_2CLK_M2X_ADD) {
            op->unit = R300_PVS_UNIT_BAD;
        }
    } else if (dw[0] & R300_PVS_DST_MATH_INST) {
        op->unit = R300_PVS_UNIT_ME;
        op->sat = (dw[0] & R300_PVS_DST_ME_SAT) != 0;
        if (op->opcode > R300_ME_COS) {
            op->unit = R300_PVS_UNIT_BAD;
        }
    } else {
        op->unit = R300_PVS_UNIT_VE;
        op->sat = (dw[0] & R300_PVS_DST_VE_SAT) != 0;
        if (op->opcode > R300_VE_FLT2FIX_DX_RND) {
            op->unit = R300_PVS_UNIT_BAD;   /* 15-28 are R5xx only */
        }
    }
    if (op->unit == R300_PVS_UNIT_BAD) {
        g3d_guest_error("r300 pvs: instruction %u: opcode 0x%02x undefined "
                        "on R3xx, not executed", pc, dw[0] & 0xff);
        return;
    }

    if (type < G_N_ELEMENTS(pvs_dst_files)) {
        op->dst_file = pvs_dst_files[type];
        p->writes_inputs |= type == R300_PVS_DST_REG_INPUT;
    } else {
        g3d_guest_error("r300 pvs: instruction %u: destination type %u "
                        "undefined, result dropped", pc, type);
        op->dst_file = R300_PVS_FILE_NONE;
    }
    op->dst_offset = R300_PVS_DST_OFFSET(dw[0]);
    op->dst_sel = R300_PVS_DST_ADDR_SEL(dw[0]);
    op->dst_mode = pvs_addr_mode(dw[0] & R300_PVS_DST_ADDR_MODE_1,
                                 dw[0] & R300_PVS_DST_ADDR_MODE_0, pc,
                                 "destination");
    op->we = R300_PVS_DST_WE(dw[0]);
    if (op->dst_file != R300_PVS_FILE_NONE &&
        op->dst_mode == R300_PVS_ADDR_ABS &&
        op->dst_offset >= pvs_file_size(op->dst_file)) {
        g3d_guest_error("r300 pvs: instruction %u: destination register %u "
                        "outside its file, result dropped", pc,
                        op->dst_offset);
        op->dst_file = R300_PVS_FILE_NONE;
    }
    for (i = 0; i < 3; i++) {
        pvs_decode_src(&op->src[i], dw[1 + i], pc, i);
    }
    op->reads = pvs_reads(op);
    for (i = 0; i < 3; i++) {
        const R300PVSSrcOp *src = &op->src[i];
        unsigned top = src->mode == R300_PVS_ADDR_ABS ? src->offset + 1u
                                                      : R300_PVS_MAX_TEMPS;
        if (!((op->reads >> i) & 1)) {
            continue;
        }
        if (src->file == R300_PVS_FILE_TEMP) {
            p->temps = MAX(p->temps, MIN(top, R300_PVS_MAX_TEMPS));
        } else if (src->file == R300_PVS_FILE_ALT_TEMP) {
            p->alt_temps = MAX(p->alt_temps, MIN(top, R300_PVS_MAX_TEMPS));
        }
    }
}

/* A flow-control address must name an instruction of the program. */
static bool pvs_fc_addr_ok(const R300PVSProgram *p, unsigned a)
{
    return a >= p->first && a <= p->last;
}

static bool pvs_load_flow(R300PVSProgram *p)
{
    unsigned k;

    memset(p->fc_at, -1, sizeof(p->fc_at));
    for (k = 0; k < R300_PVS_FC_SLOTS; k++) {
        unsigned opc = R300_PVS_FC_OPC(p->flow_opc, k);
        uint32_t a = p->flow_addrs[k];
        unsigned act = G3D_FIELD_EX32(a, VAP_PVS_FLOW_CNTL_ADDRS_0,
                                      PVS_FC_ACT_ADRS);
        unsigned tgt = G3D_FIELD_EX32(a, VAP_PVS_FLOW_CNTL_ADDRS_0,
                                      PVS_FC_LOOP_CNT_JMP_INST);
        unsigned last = G3D_FIELD_EX32(a, VAP_PVS_FLOW_CNTL_ADDRS_0,
                                       PVS_FC_LAST_INST);
        unsigned rtn = G3D_FIELD_EX32(a, VAP_PVS_FLOW_CNTL_ADDRS_0,
                                      PVS_FC_RTN_INST);
        bool ok;

        if (opc == R300_PVS_FC_NO_OP) {
            continue;
        }
        ok = pvs_fc_addr_ok(p, act);
        switch (opc) {
        case R300_PVS_FC_JUMP:
            ok = ok && pvs_fc_addr_ok(p, tgt);
            break;
        case R300_PVS_FC_LOOP:
            ok = ok && pvs_fc_addr_ok(p, last) && pvs_fc_addr_ok(p, rtn) &&
                 rtn <= last;
            if (ok && tgt == 0) {
                /* "loop count of 0 must be replaced by a jump" */
                g3d_guest_error("r300 pvs: flow control %u: loop count 0; "
                                "the body runs once", k);
            }
            break;
        case R300_PVS_FC_JSR:
            ok = ok && pvs_fc_addr_ok(p, tgt) && pvs_fc_addr_ok(p, last) &&
                 pvs_fc_addr_ok(p, rtn) && tgt <= last;
            break;
        }
        if (!ok) {
            g3d_guest_error("r300 pvs: flow control %u (opcode %u, addrs "
                            "0x%08x) leaves the program %u..%u", k, opc, a,
                            p->first, p->last);
            return false;
        }
        if (p->fc_at[act] >= 0) {
            g3d_guest_error("r300 pvs: flow control %u and %d both act after "
                            "instruction %u; %d is used", k, p->fc_at[act],
                            act, p->fc_at[act]);
            continue;
        }
        p->fc_at[act] = k;
    }
    return true;
}

bool r300_pvs_load(R300PVSProgram *p, const uint32_t *regs,
                   const uint32_t (*vmem)[4])
{
    uint32_t cntl0 = regs[R_VAP_PVS_CODE_CNTL_0];
    uint32_t cntl1 = regs[R_VAP_PVS_CODE_CNTL_1];
    uint32_t cc = regs[R_VAP_PVS_CONST_CNTL];
    unsigned base, i, k;

    p->first = G3D_FIELD_EX32(cntl0, VAP_PVS_CODE_CNTL_0, PVS_FIRST_INST);
    p->last = G3D_FIELD_EX32(cntl0, VAP_PVS_CODE_CNTL_0, PVS_LAST_INST);
    p->writes_inputs = false;
    p->temps = p->alt_temps = 0;
    p->faults = 0;
    if (p->last >= R300_PVS_MAX_INSTRUCTIONS || p->first > p->last) {
        g3d_guest_error("r300 pvs: instructions %u..%u are not a range of "
                        "the %u-instruction code memory", p->first, p->last,
                        R300_PVS_MAX_INSTRUCTIONS);
        return false;
    }
    /* checked because the reference says they "must be set to valid" */
    k = G3D_FIELD_EX32(cntl0, VAP_PVS_CODE_CNTL_0, PVS_XYZW_VALID_INST);
    if (k < p->first || k > p->last) {
        g3d_guest_error("r300 pvs: PVS_XYZW_VALID_INST %u outside %u..%u",
                        k, p->first, p->last);
    }
    k = G3D_FIELD_EX32(cntl1, VAP_PVS_CODE_CNTL_1, PVS_LAST_VTX_SRC_INST);
    if (k < p->first || k > p->last) {
        g3d_guest_error("r300 pvs: PVS_LAST_VTX_SRC_INST %u outside %u..%u",
                        k, p->first, p->last);
    }

    for (i = p->first; i <= p->last; i++) {
        memcpy(p->inst[i].dw, vmem[R300_PVS_CODE_START + i], 16);
        pvs_decode(p, i);
    }

    /* constant k is vector R300_PVS_CONST_START + BASE + k [R3xx 3D ref. §1.10
     * VAP_PVS_*] */
    base = G3D_FIELD_EX32(cc, VAP_PVS_CONST_CNTL, PVS_CONST_BASE_OFFSET);
    p->max_const = G3D_FIELD_EX32(cc, VAP_PVS_CONST_CNTL, PVS_MAX_CONST_ADDR);
    for (k = 0; k <= p->max_const; k++) {
        memcpy(p->consts[k], vmem[R300_PVS_CONST_START + base + k], 16);
    }

    for (k = 0; k < 6; k++) {
        memcpy(p->ucp[k], vmem[R300_PVS_UCP_START + k], 16);
    }

    p->flow_opc = regs[R_VAP_PVS_FLOW_CNTL_OPC];
    for (k = 0; k < R300_PVS_FC_SLOTS; k++) {
        p->flow_addrs[k] = regs[R300_VAP_PVS_FLOW_CNTL_ADDRS(k) / 4];
        p->flow_loop[k] = regs[R300_VAP_PVS_FLOW_CNTL_LOOP_INDEX(k) / 4];
    }
    return pvs_load_flow(p);
}

/* ---- exec -------------------------------------------------------------- */

static void pvs_fault(const R300PVSProgram *p, int fault, const char *msg)
{
    /* `faults` is the program's log-once memory, shared by the threads */
    int *f = (int *)&p->faults;

    if (!(__atomic_fetch_or(f, fault, __ATOMIC_RELAXED) & fault)) {
        g3d_guest_error("r300 pvs: %s", msg);
    }
}

static int pvs_index(const PVSState *s, unsigned mode, unsigned sel,
                     unsigned offset)
{
    switch (mode) {
    case R300_PVS_ADDR_A0:
        return (int)offset + s->a0[sel];
    case R300_PVS_ADDR_AL:
        return (int)offset + s->al;
    default:
        return offset;
    }
}

static const float *pvs_src_reg(const R300PVSProgram *p, const PVSState *s,
                                const R300PVSSrcOp *src)
{
    int idx = pvs_index(s, src->mode, src->addr_sel, src->offset);

    switch (src->file) {
    case R300_PVS_FILE_CONST:
        /* outside 0..PVS_MAX_CONST_ADDR: (0,0,0,0) [R3xx 3D ref. §1.10
         * VAP_PVS_*] */
        return idx >= 0 && (unsigned)idx <= p->max_const ? p->consts[idx]
                                                        : pvs_zero;
    case R300_PVS_FILE_TEMP:
        if ((unsigned)idx < R300_PVS_MAX_TEMPS) {
            return s->temp[idx];
        }
        break;
    case R300_PVS_FILE_ALT_TEMP:
        if ((unsigned)idx < R300_PVS_MAX_TEMPS) {
            return s->alt[idx];
        }
        break;
    case R300_PVS_FILE_INPUT:
        if ((unsigned)idx < R300_PVS_MAX_INPUTS) {
            return s->in[idx];
        }
        break;
    default:
        return pvs_zero;
    }
    pvs_fault(p, R300_PVS_FAULT_INDEX,
              "relative source address outside its register file reads 0");
    return pvs_zero;
}

static void pvs_read(const R300PVSProgram *p, const PVSState *s,
                     const R300PVSSrcOp *src, float v[4])
{
    const float *r = pvs_src_reg(p, s, src);
    int c;

    if (src->plain) {
        memcpy(v, r, 4 * sizeof(float));
        return;
    }
    for (c = 0; c < 4; c++) {
        unsigned sel = src->swz[c];
        float x = sel < 4 ? r[sel] : sel == R300_PVS_SRC_SELECT_FORCE_1;

        if (src->abs) {
            x = fabsf(x);
        }
        v[c] = (src->neg >> c) & 1 ? -x : x;
    }
}

static float pvs_sat(float x)
{
    return g3d_clampf(x, 0.0f, 1.0f);
}

static void pvs_splat(float r[4], float x)
{
    r[0] = r[1] = r[2] = r[3] = x;
}

/* D3D9 rcp: 1/0 gives FLT_MAX, 1 stays exactly 1 */
static float pvs_rcp_dx(float x)
{
    return x == 0.0f ? FLT_MAX : 1.0f / x;
}

/* D3D9 rsq: 1/sqrt(|x|), 0 gives FLT_MAX */
static float pvs_rsq_dx(float x)
{
    x = fabsf(x);
    return x == 0.0f ? FLT_MAX : 1.0f / sqrtf(x);
}

/* D3D9 log: log2(|x|), 0 gives -FLT_MAX */
static float pvs_log2_dx(float x)
{
    x = fabsf(x);
    return x == 0.0f ? -FLT_MAX : log2f(x);
}

#define PVS_EACH(expr) \
    for (i = 0; i < 4; i++) {   \
        r[i] = (expr);          \
    }

static void pvs_ve(const R300PVSOp *op, const float a[4], const float b[4],
                   const float c[4], float r[4])
{
    int i;

    switch (op->opcode) {
    case R300_VE_DOT_PRODUCT:
        pvs_splat(r, a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]);
        break;
    case R300_VE_DISTANCE_VECTOR:   /* DST: (1, a.y*b.y, a.z, b.w) */
        r[0] = 1.0f;
        r[1] = a[1] * b[1];
        r[2] = a[2];
        r[3] = b[3];
        break;
    case R300_VE_MULTIPLY:
        PVS_EACH(a[i] * b[i]);
        break;
    case R300_VE_ADD:
        PVS_EACH(a[i] + b[i]);
        break;
    case R300_VE_MULTIPLY_ADD:
        PVS_EACH(a[i] * b[i] + c[i]);
        break;
    case R300_VE_FRACTION:
        PVS_EACH(a[i] - floorf(a[i]));
        break;
    case R300_VE_MAXIMUM:
        PVS_EACH(a[i] > b[i] ? a[i] : b[i]);
        break;
    case R300_VE_MINIMUM:
        PVS_EACH(a[i] < b[i] ? a[i] : b[i]);
        break;
    case R300_VE_SET_GREATER_THAN_EQUAL:
        PVS_EACH(a[i] >= b[i] ? 1.0f : 0.0f);
        break;
    case R300_VE_SET_LESS_THAN:
        PVS_EACH(a[i] < b[i] ? 1.0f : 0.0f);
        break;
    case R300_VE_MULTIPLYX2_ADD:        /* decision: 2*a*b + c */
        PVS_EACH(2.0f * (a[i] * b[i]) + c[i]);
        break;
    case R300_VE_MULTIPLY_CLAMP:        /* decision: a*b clamped to [0,1] */
        PVS_EACH(pvs_sat(a[i] * b[i]));
        break;
    case R300_VE_FLT2FIX_DX:            /* ARL */
        PVS_EACH(floorf(a[i]));
        break;
    case R300_VE_FLT2FIX_DX_RND:        /* ARR */
        PVS_EACH(floorf(a[i] + 0.5f));
        break;
    default:                            /* NO_OP */
        PVS_EACH(0.0f);
        break;
    }
}

static void pvs_me(const R300PVSOp *op, const float a4[4], const float b4[4],
                   const float c4[4], float r[4])
{
    float a = a4[3], b = b4[3], c = c4[3], f;

    switch (op->opcode) {
    case R300_ME_EXP_BASE2_DX:      /* EXP / vs_1_1 expp */
        f = floorf(a);
        r[0] = exp2f(f);
        r[1] = a - f;
        r[2] = exp2f(a);
        r[3] = 1.0f;
        return;
    case R300_ME_LOG_BASE2_DX:      /* LOG / vs_1_1 logp */
        a = fabsf(a);
        if (a == 0.0f) {
            r[0] = r[2] = -FLT_MAX;
            r[1] = 1.0f;
        } else {
            f = floorf(log2f(a));
            r[0] = f;
            r[1] = a / exp2f(f);
            r[2] = log2f(a);
        }
        r[3] = 1.0f;
        return;
    case R300_ME_LIGHT_COEFF_DX: {  /* LIT: a = N.H, b = N.L, c = power */
        const float maxpow = 127.9961f;
        c = g3d_clampf(c, -maxpow, maxpow);
        r[0] = r[3] = 1.0f;
        r[1] = b > 0.0f ? b : 0.0f;
        r[2] = b > 0.0f && a > 0.0f ? powf(a, c) : 0.0f;
        return;
    }
    case R300_ME_EXP_BASEE_FF:
        f = expf(a);
        break;
    case R300_ME_POWER_FUNC_FF:     /* POW: base a, exponent c */
        f = powf(fabsf(a), c);
        break;
    case R300_ME_POWER_FUNC_FF_CLAMP_B:
        f = powf(a > 0.0f ? a : 0.0f, c);
        break;
    case R300_ME_POWER_FUNC_FF_CLAMP_B1:
        f = powf(pvs_sat(a), c);
        break;
    case R300_ME_POWER_FUNC_FF_CLAMP_01:
        f = pvs_sat(powf(fabsf(a), c));
        break;
    case R300_ME_RECIP_DX:
        f = pvs_rcp_dx(a);
        break;
    case R300_ME_RECIP_FF:
        f = 1.0f / a;
        break;
    case R300_ME_RECIP_SQRT_DX:
        f = pvs_rsq_dx(a);
        break;
    case R300_ME_RECIP_SQRT_FF:
        f = 1.0f / sqrtf(fabsf(a));
        break;
    case R300_ME_MULTIPLY:
        f = a * b;
        break;
    case R300_ME_EXP_BASE2_FULL_DX:
        f = exp2f(a);
        break;
    case R300_ME_LOG_BASE2_FULL_DX:
        f = pvs_log2_dx(a);
        break;
    case R300_ME_SIN:
        f = sinf(a);
        break;
    case R300_ME_COS:
        f = cosf(a);
        break;
    default:                        /* NO_OP */
        f = 0.0f;
        break;
    }
    pvs_splat(r, f);
}

/* float -> address register: floor, kept in a sane integer range */
static int pvs_to_addr(float x)
{
    x = g3d_clampf(floorf(x), -32768.0f, 32767.0f);
    return (int)x;
}

static void pvs_write(const R300PVSProgram *p, PVSState *s,
                      const R300PVSOp *op, const float r[4])
{
    int idx = pvs_index(s, op->dst_mode, op->dst_sel, op->dst_offset);
    float *d;
    int c;

    if (op->dst_file == R300_PVS_FILE_A0) {
        for (c = 0; c < 4; c++) {
            if (op->we & (1 << c)) {
                s->a0[c] = pvs_to_addr(r[c]);
            }
        }
        return;
    }
    if (op->dst_file == R300_PVS_FILE_NONE) {
        return;
    }
    if ((unsigned)idx >= pvs_file_size(op->dst_file)) {
        pvs_fault(p, R300_PVS_FAULT_INDEX,
                  "relative destination address outside its register "
                  "file; result dropped");
        return;
    }
    switch (op->dst_file) {
    case R300_PVS_FILE_TEMP:
        d = s->temp[idx];
        break;
    case R300_PVS_FILE_ALT_TEMP:
        d = s->alt[idx];
        break;
    case R300_PVS_FILE_INPUT:
        d = s->inputs[idx];
        break;
    default:
        d = s->out[idx];
        break;
    }
    for (c = 0; c < 4; c++) {
        if (op->we & (1 << c)) {
            d[c] = op->dst_file == R300_PVS_FILE_OUT_REPL_X ? r[0] : r[c];
        }
    }
}

static void pvs_step(const R300PVSProgram *p, PVSState *s,
                     const R300PVSOp *op)
{
    float a[4], b[4], c[4], r[4];
    int i;

    if (op->unit == R300_PVS_UNIT_BAD) {
        return;
    }
    /* sources the op does not use read as 0 (they cannot matter) */
    if (op->reads & 1) {
        pvs_read(p, s, &op->src[0], a);
    } else {
        memset(a, 0, sizeof(a));
    }
    if (op->reads & 2) {
        pvs_read(p, s, &op->src[1], b);
    } else {
        memset(b, 0, sizeof(b));
    }
    if (op->reads & 4) {
        pvs_read(p, s, &op->src[2], c);
    } else {
        memset(c, 0, sizeof(c));
    }
    switch (op->unit) {
    case R300_PVS_UNIT_ME:
        pvs_me(op, a, b, c, r);
        break;
    case R300_PVS_UNIT_MACRO:
        /* the 2-clock forms of MULTIPLY_ADD and MULTIPLYX2_ADD [§4.3] */
        for (i = 0; i < 4; i++) {
            r[i] = (op->opcode == R300_PVS_MACRO_OP_2CLK_M2X_ADD ? 2.0f : 1.0f)
                   * (a[i] * b[i]) + c[i];
        }
        break;
    default:
        pvs_ve(op, a, b, c, r);
        break;
    }
    if (op->sat) {
        for (i = 0; i < 4; i++) {
            r[i] = pvs_sat(r[i]);
        }
    }
    pvs_write(p, s, op, r);
}

typedef struct PVSFrame {
    uint8_t opc;                /* LOOP or JSR */
    uint8_t last, rtn;
    int count;                  /* LOOP: iterations left */
    int step, saved_al;         /* LOOP: aL step; aL of the enclosing loop */
} PVSFrame;

void r300_pvs_exec(const R300PVSProgram *p,
                   const float in[R300_PVS_MAX_INPUTS][4],
                   float out[R300_PVS_MAX_OUTPUTS][4])
{
    PVSState s;
    PVSFrame stack[R300_PVS_FC_DEPTH];
    unsigned sp = 0, pc = p->first, steps = 0;

    /* only what the program can read before writing needs clearing */
    memset(s.temp, 0, p->temps * sizeof(s.temp[0]));
    memset(s.alt, 0, p->alt_temps * sizeof(s.alt[0]));
    memset(s.a0, 0, sizeof(s.a0));
    s.al = 0;
    s.out = out;
    s.in = in;
    if (p->writes_inputs) {
        memcpy(s.inputs, in, sizeof(s.inputs));
        s.in = (const float (*)[4])s.inputs;
    }

    while (pc <= p->last) {
        unsigned next = pc + 1;
        bool redirected = false;
        int slot;

        if (++steps > R300_PVS_MAX_STEPS) {
            pvs_fault(p, R300_PVS_FAULT_STEPS, "vertex program ran past its "
                      "instruction budget; vertex cut short");
            break;
        }
        pvs_step(p, &s, &p->op[pc]);

        /*
         * Ends of loops and subroutines come first, innermost first; loops
         * that end on the same instruction finish one after the other.
         */
        while (sp > 0 && pc == stack[sp - 1].last) {
            PVSFrame *f = &stack[sp - 1];
            if (f->opc == R300_PVS_FC_JSR) {
                next = f->rtn;
                sp--;
                redirected = true;
                break;
            }
            if (--f->count > 0) {
                s.al += f->step;
                next = f->rtn;
                redirected = true;
                break;
            }
            s.al = f->saved_al;
            sp--;
        }
        if (redirected) {
            pc = next;
            continue;
        }
        slot = p->fc_at[pc];
        if (slot >= 0) {
            uint32_t a = p->flow_addrs[slot];
            uint32_t li = p->flow_loop[slot];
            unsigned opc = R300_PVS_FC_OPC(p->flow_opc, slot);
            unsigned tgt = G3D_FIELD_EX32(a, VAP_PVS_FLOW_CNTL_ADDRS_0,
                                          PVS_FC_LOOP_CNT_JMP_INST);

            if (opc == R300_PVS_FC_JUMP) {
                next = tgt;
            } else if (sp == R300_PVS_FC_DEPTH) {
                pvs_fault(p, R300_PVS_FAULT_DEPTH, "loops/subroutines nested "
                          "too deep; the inner one is skipped");
            } else {
                PVSFrame *f = &stack[sp++];
                f->opc = opc;
                f->last = G3D_FIELD_EX32(a, VAP_PVS_FLOW_CNTL_ADDRS_0,
                                         PVS_FC_LAST_INST);
                f->rtn = G3D_FIELD_EX32(a, VAP_PVS_FLOW_CNTL_ADDRS_0,
                                        PVS_FC_RTN_INST);
                if (opc == R300_PVS_FC_LOOP) {
                    f->count = tgt;
                    f->saved_al = s.al;
                    f->step = g3d_sextract32(li, 8, 8);
                    s.al = li & 0xff;
                    next = f->rtn;
                } else {
                    next = tgt;
                }
            }
        }
        pc = next;
    }
}
