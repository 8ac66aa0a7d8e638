/*
 * The shader units: code, operand-descriptor and float-uniform upload
 * (reference "Shader registers", 3dbrew GPU/Internal Registers 0x2B0-0x2DD) and
 * the interpreter for the whole instruction set (3dbrew "GPU/Shader Instruction
 * Set"; semantics checked against the Citra/Azahar shader test vectors).
 *
 * Numbers: inputs and uniforms are float1.7.16 values; arithmetic is done in
 * binary32 like Citra/Azahar, with the PICA rule that 0 * inf = 0 (MUL, DP*,
 * DST, MAD). MAX/MIN keep the hardware's NaN asymmetry. Relative addressing
 * applies to float uniforms only: index (c + offset) & 0x7F, c96-c127 read
 * (1, 1, 1, 1), and an a0 offset outside -128..127 is ignored (Citra's
 * "Address Register Offset" vectors).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "pica200-int.h"

#include <math.h>
#include <string.h>

/* ---- uploads ---------------------------------------------------------------- */

/* four f24 in three words, W in the first (Citra pica_types.h; reference defect
 * PICA-7, docs/references.md) */
static void unpack_f24x4(const uint32_t w[3], float out[4])
{
    out[0] = pica_f24_to_float(w[2] & 0xFFFFFF);
    out[1] = pica_f24_to_float((w[1] & 0xFFFF) << 8 | w[2] >> 24);
    out[2] = pica_f24_to_float((w[0] & 0xFF) << 16 | w[1] >> 16);
    out[3] = pica_f24_to_float(w[0] >> 8);
}

void pica_unpack_f24x4(const uint32_t w[3], float out[4])
{
    unpack_f24x4(w, out);
}

void pica_shader_reg_write(Pica200Core *c, unsigned unit, unsigned off,
                           uint32_t value)
{
    PicaShaderSetup *s = &c->sh[unit];
    const char *who = unit == PICA_UNIT_VS ? "VSH" : "GSH";

    switch (off) {
    case PICA_SH_FLOATUNIFORM_INDEX:
        s->float_index = value & 0xFF;
        s->float_f32 = value >> 31;
        s->float_nwords = 0;
        return;
    case PICA_SH_FLOATUNIFORM_DATA0 ... PICA_SH_FLOATUNIFORM_DATA0 + 7:
        s->float_words[s->float_nwords++] = value;
        if (s->float_nwords < (s->float_f32 ? 4u : 3u)) {
            return;
        }
        s->float_nwords = 0;
        if (s->float_index >= PICA_FLOAT_UNIFORMS) {
            g3d_guest_error("pica200: %s float uniform c%u does not exist",
                            who, s->float_index);
        } else if (s->float_f32) {
            /* W, Z, Y, X; held as float1.7.16 like every uniform */
            float *f = s->f[s->float_index];
            int i;
            for (i = 0; i < 4; i++) {
                f[3 - i] = pica_quantize_f24(g3d_u2f(s->float_words[i]));
            }
        } else {
            unpack_f24x4(s->float_words, s->f[s->float_index]);
        }
        if (s->float_index < 0xFF) {
            s->float_index++;
        }
        return;
    case PICA_SH_CODETRANSFER_INDEX:
        s->code_index = value & 0xFFF;
        return;
    case PICA_SH_CODETRANSFER_DATA0 ... PICA_SH_CODETRANSFER_DATA0 + 7:
        if (s->code_index < s->code_words) {
            s->code[s->code_index] = value;
        } else if (s->code_index == s->code_words) {
            /* once per upload: the rest of the run is dropped as well */
            g3d_guest_error("pica200: %s code upload beyond its %u words",
                            who, s->code_words);
        }
        s->code_index = (s->code_index + 1) & 0xFFF;
        return;
    case PICA_SH_OPDESCS_INDEX:
        s->opdesc_index = value & 0xFFF;
        return;
    case PICA_SH_OPDESCS_DATA0 ... PICA_SH_OPDESCS_DATA0 + 7:
        if (s->opdesc_index < PICA_OPDESC_COUNT) {
            s->opdesc[s->opdesc_index] = value;
        } else if (s->opdesc_index == PICA_OPDESC_COUNT) {
            g3d_guest_error("pica200: %s operand descriptor upload beyond %u",
                            who, PICA_OPDESC_COUNT);
        }
        s->opdesc_index = (s->opdesc_index + 1) & 0xFFF;
        return;
    }
    /* the rest (uniforms, entry point, maps) is read when a shader runs */
}

void pica_shader_config(Pica200Core *c, unsigned unit, PicaShaderConfig *cfg)
{
    unsigned base = unit == PICA_UNIT_VS ? PICA_VSH_BASE : PICA_GSH_BASE;
    int i, j;

    cfg->setup = &c->sh[unit];
    cfg->bools = c->regs[base + PICA_SH_BOOLUNIFORM] & 0xFFFF;
    for (i = 0; i < 4; i++) {
        for (j = 0; j < 4; j++) {
            cfg->ints[i][j] = c->regs[base + PICA_SH_INTUNIFORM_I0 + i] >> (8 * j);
        }
    }
    cfg->entry = c->regs[base + PICA_SH_ENTRYPOINT] & 0xFFFF;
}

/* ---- arithmetic ---------------------------------------------------------------- */

/* PICA multiplication: a product of non-NaN inputs that is NaN (0 * inf) is 0 */
static inline float pmul(float a, float b)
{
    float r = a * b;

    if (isnan(r) && !isnan(a) && !isnan(b)) {
        return 0.0f;
    }
    return r;
}

static const float ones[4] = { 1.0f, 1.0f, 1.0f, 1.0f };

/* source register `reg` (7-bit number) with relative addressing `idx` */
static const float *src_reg(const PicaShaderSetup *s, const PicaShaderState *st,
                            uint32_t reg, unsigned idx)
{
    int32_t off = 0;
    uint32_t n;

    if (reg < 0x10) {
        return st->in[reg];
    }
    if (reg < 0x20) {
        return st->tmp[reg - 0x10];
    }
    if (idx == PICA_SH_IDX_A0X || idx == PICA_SH_IDX_A0Y) {
        off = st->a0[idx - 1];
        if (off < -128 || off > 127) {
            off = 0;
        }
    } else if (idx == PICA_SH_IDX_AL) {
        off = st->al;
    }
    n = (uint32_t)((int32_t)(reg - 0x20) + off) & 0x7F;
    return n < PICA_FLOAT_UNIFORMS ? s->f[n] : ones;
}

/* swizzle (x's selector in the top pair) and negate */
static inline void swizzle(const float *r, uint32_t swz, bool neg, float out[4])
{
    int i;

    for (i = 0; i < 4; i++) {
        float v = r[(swz >> (6 - 2 * i)) & 3];
        out[i] = neg ? -v : v;
    }
}

static inline void write_dst(PicaShaderState *st, uint32_t dst, uint32_t mask,
                             const float v[4])
{
    float *d = dst < 0x10 ? st->out[dst] : st->tmp[dst & 0xF];
    int i;

    for (i = 0; i < 4; i++) {
        if (mask & (8 >> i)) {
            d[i] = v[i];
        }
    }
}

static bool compare(unsigned op, float a, float b)
{
    switch (op) {
    case PICA_SH_CMP_EQ: return a == b;
    case PICA_SH_CMP_NE: return a != b;
    case PICA_SH_CMP_LT: return a < b;
    case PICA_SH_CMP_LE: return a <= b;
    case PICA_SH_CMP_GT: return a > b;
    case PICA_SH_CMP_GE: return a >= b;
    default: return true;    /* 6, 7: undocumented; Panda3DS sets true */
    }
}

static bool condition(const PicaShaderState *st, uint32_t instr)
{
    bool x = st->cc[0] == ((instr >> 25) & 1);
    bool y = st->cc[1] == ((instr >> 24) & 1);

    switch ((instr >> 22) & 3) {
    case PICA_SH_COND_OR: return x || y;
    case PICA_SH_COND_AND: return x && y;
    case PICA_SH_COND_X: return x;
    default: return y;
    }
}

/* float to address register: truncation; NaN/huge land outside -128..127 */
static int32_t to_addr(float f)
{
    if (!(f > -2147483520.0f && f < 2147483520.0f)) {
        return INT32_MIN;
    }
    return (int32_t)f;
}

/* one arithmetic instruction (formats 1, 1i, 1u, 1c, 5, 5i) */
static unsigned arith(const PicaShaderSetup *s, PicaShaderState *st,
                      uint32_t instr, unsigned op)
{
    uint32_t desc, dst, src1, src2, src3 = 0, idx;
    float a[4], b[4], r[4], d;
    bool inverted = op == PICA_SH_DPHI || op == PICA_SH_DSTI ||
                    op == PICA_SH_SGEI || op == PICA_SH_SLTI;
    int i;

    if (op >= PICA_SH_MADI) {
        float cc[4];
        bool madi = op < PICA_SH_MAD;
        desc = s->opdesc[instr & 0x1F];
        dst = (instr >> 24) & 0x1F;
        idx = (instr >> 22) & 3;
        src1 = (instr >> 17) & 0x1F;
        if (madi) {
            src2 = (instr >> 12) & 0x1F;
            src3 = (instr >> 5) & 0x7F;
        } else {
            src2 = (instr >> 10) & 0x7F;
            src3 = (instr >> 5) & 0x1F;
        }
        swizzle(src_reg(s, st, src1, 0), desc >> 5, desc & (1 << 4), a);
        swizzle(src_reg(s, st, src2, madi ? 0 : idx), desc >> 14,
                desc & (1 << 13), b);
        swizzle(src_reg(s, st, src3, madi ? idx : 0), desc >> 23,
                desc & (1 << 22), cc);
        for (i = 0; i < 4; i++) {
            r[i] = pmul(a[i], b[i]) + cc[i];
        }
        write_dst(st, dst, desc, r);
        return PICA_SHADER_OK;
    }

    desc = s->opdesc[instr & 0x7F];
    dst = (instr >> 21) & 0x1F;
    idx = (instr >> 19) & 3;
    if (inverted) {
        src1 = (instr >> 14) & 0x1F;
        src2 = (instr >> 7) & 0x7F;
    } else {
        src1 = (instr >> 12) & 0x7F;
        src2 = (instr >> 7) & 0x1F;
    }
    swizzle(src_reg(s, st, src1, inverted ? 0 : idx), desc >> 5,
            desc & (1 << 4), a);
    swizzle(src_reg(s, st, src2, inverted ? idx : 0), desc >> 14,
            desc & (1 << 13), b);

    switch (op) {
    case PICA_SH_ADD:
        for (i = 0; i < 4; i++) {
            r[i] = a[i] + b[i];
        }
        break;
    case PICA_SH_MUL:
        for (i = 0; i < 4; i++) {
            r[i] = pmul(a[i], b[i]);
        }
        break;
    case PICA_SH_DP3:
    case PICA_SH_DP4:
    case PICA_SH_DPH:
    case PICA_SH_DPHI:
        if (op == PICA_SH_DPH || op == PICA_SH_DPHI) {
            a[3] = 1.0f;
        }
        d = pmul(a[0], b[0]) + pmul(a[1], b[1]) + pmul(a[2], b[2]);
        if (op != PICA_SH_DP3) {
            d += pmul(a[3], b[3]);
        }
        r[0] = r[1] = r[2] = r[3] = d;
        break;
    case PICA_SH_DST:
    case PICA_SH_DSTI:
        /* distance vector (1, a.y * b.y, a.z, b.w), as D3D's dst */
        r[0] = 1.0f;
        r[1] = pmul(a[1], b[1]);
        r[2] = a[2];
        r[3] = b[3];
        break;
    case PICA_SH_EX2:
        r[0] = r[1] = r[2] = r[3] = exp2f(a[0]);
        break;
    case PICA_SH_LG2:
        r[0] = r[1] = r[2] = r[3] = log2f(a[0]);
        break;
    case PICA_SH_LITP:
        /*
         * Partial lighting: x, w clamped at 0, y to +-(128 - 1/256), z 0;
         * cc.x = (x >= 0), cc.y = (w >= 0) (Panda3DS, from hardware tests).
         */
        st->cc[0] = a[0] >= 0.0f;
        st->cc[1] = a[3] >= 0.0f;
        r[0] = a[0] > 0.0f ? a[0] : 0.0f;
        r[1] = g3d_clampf(a[1], -127.99609375f, 127.99609375f);
        r[2] = 0.0f;
        r[3] = a[3] > 0.0f ? a[3] : 0.0f;
        break;
    case PICA_SH_SGE:
    case PICA_SH_SGEI:
        for (i = 0; i < 4; i++) {
            r[i] = a[i] >= b[i] ? 1.0f : 0.0f;
        }
        break;
    case PICA_SH_SLT:
    case PICA_SH_SLTI:
        for (i = 0; i < 4; i++) {
            r[i] = a[i] < b[i] ? 1.0f : 0.0f;
        }
        break;
    case PICA_SH_FLR:
        for (i = 0; i < 4; i++) {
            r[i] = floorf(a[i]);
        }
        break;
    case PICA_SH_MAX:
        /* max(0, NaN) = NaN, max(NaN, 0) = 0 (Citra hardware vectors) */
        for (i = 0; i < 4; i++) {
            r[i] = a[i] > b[i] ? a[i] : b[i];
        }
        break;
    case PICA_SH_MIN:
        for (i = 0; i < 4; i++) {
            r[i] = a[i] < b[i] ? a[i] : b[i];
        }
        break;
    case PICA_SH_RCP:
        r[0] = r[1] = r[2] = r[3] = 1.0f / a[0];
        break;
    case PICA_SH_RSQ:
        r[0] = r[1] = r[2] = r[3] = 1.0f / sqrtf(a[0]);
        break;
    case PICA_SH_MOVA:
        if (desc & 8) {
            st->a0[0] = to_addr(a[0]);
        }
        if (desc & 4) {
            st->a0[1] = to_addr(a[1]);
        }
        return PICA_SHADER_OK;
    case PICA_SH_MOV:
        memcpy(r, a, sizeof(r));
        break;
    case PICA_SH_CMP:
    case PICA_SH_CMP + 1:
        st->cc[0] = compare((instr >> 24) & 7, a[0], b[0]);
        st->cc[1] = compare((instr >> 21) & 7, a[1], b[1]);
        return PICA_SHADER_OK;
    default:
        return PICA_SHADER_FAULT_OPCODE;
    }
    write_dst(st, dst, desc, r);
    return PICA_SHADER_OK;
}

/* ---- control flow ---------------------------------------------------------------- */

enum { FRAME_CALL, FRAME_IF, FRAME_LOOP };

typedef struct Frame {
    uint8_t kind;
    uint8_t inc;             /* loop: aL increment */
    uint16_t repeat;         /* loop: iterations left after this one */
    uint32_t end;            /* the block ends when pc reaches this */
    uint32_t ret;            /* where execution continues after it */
    uint32_t start;          /* loop: first instruction of the body */
    int32_t saved_al;        /* loop: aL when the loop was entered */
} Frame;

typedef struct Stack {
    Frame f[PICA_SHADER_CALL_DEPTH + PICA_SHADER_IF_DEPTH + PICA_SHADER_LOOP_DEPTH];
    unsigned n;
    unsigned depth[3];
} Stack;

static bool push(Stack *s, unsigned kind, uint32_t end, uint32_t ret)
{
    static const unsigned limit[3] = {
        PICA_SHADER_CALL_DEPTH, PICA_SHADER_IF_DEPTH, PICA_SHADER_LOOP_DEPTH,
    };
    Frame *f;

    if (s->depth[kind] >= limit[kind]) {
        return false;
    }
    s->depth[kind]++;
    f = &s->f[s->n++];
    f->kind = kind;
    f->end = end;
    f->ret = ret;
    f->repeat = 0;
    f->inc = 0;
    f->start = 0;
    return true;
}

static void pop(Stack *s)
{
    s->depth[s->f[--s->n].kind]--;
}

/*
 * Leaving a loop nested in another gives the outer loop its aL back (Citra's
 * "Nested Loop" vector: the outer aL ends at y + (x + 1) * z); the outermost
 * loop leaves its last aL.
 */
static void leave_loop(Stack *s, PicaShaderState *st)
{
    int32_t saved = s->f[s->n - 1].saved_al;

    pop(s);
    if (s->depth[FRAME_LOOP]) {
        st->al = saved;
    }
}

const char *pica_shader_fault_name(unsigned fault)
{
    switch (fault) {
    case PICA_SHADER_FAULT_PC: return "program counter outside code memory";
    case PICA_SHADER_FAULT_STACK: return "call/if/loop nesting too deep (or "
                                         "BREAK outside a loop)";
    case PICA_SHADER_FAULT_STEPS: return "instruction budget exhausted";
    case PICA_SHADER_FAULT_OPCODE: return "undefined instruction";
    default: return "none";
    }
}

static unsigned fail(PicaShaderState *st, unsigned fault, uint32_t pc)
{
    st->fault = fault;
    st->fault_pc = pc;
    return fault;
}

unsigned pica_shader_run(const PicaShaderConfig *cfg, PicaShaderState *st)
{
    const PicaShaderSetup *s = cfg->setup;
    uint32_t pc = cfg->entry, steps = 0;
    Stack stack;

    stack.n = 0;
    stack.depth[0] = stack.depth[1] = stack.depth[2] = 0;
    memset(st->tmp, 0, sizeof(st->tmp));
    memset(st->out, 0, sizeof(st->out));
    st->a0[0] = st->a0[1] = 0;
    st->al = 0;
    st->cc[0] = st->cc[1] = false;
    st->fault = PICA_SHADER_OK;
    st->steps = 0;

    for (;;) {
        uint32_t instr, op, dst, num;
        unsigned r;
        bool taken;

        /* blocks ending here: loops go round, ifs and calls return */
        while (stack.n && pc == stack.f[stack.n - 1].end) {
            Frame *f = &stack.f[stack.n - 1];
            if (f->kind == FRAME_LOOP) {
                st->al += f->inc;
                if (f->repeat) {
                    f->repeat--;
                    pc = f->start;
                    break;
                }
                pc = f->ret;
                leave_loop(&stack, st);
                continue;
            }
            pc = f->ret;
            pop(&stack);
        }
        if (pc >= s->code_words) {
            return fail(st, PICA_SHADER_FAULT_PC, pc);
        }
        st->steps = steps;
        if (++steps > PICA_SHADER_MAX_STEPS) {
            return fail(st, PICA_SHADER_FAULT_STEPS, pc);
        }
        instr = s->code[pc];
        op = instr >> 26;
        dst = (instr >> 10) & 0xFFF;
        num = instr & 0xFF;

        if (op < PICA_SH_BREAK || op >= PICA_SH_CMP) {
            r = arith(s, st, instr, op);
            if (r != PICA_SHADER_OK) {
                return fail(st, r, pc);
            }
            pc++;
            continue;
        }
        switch (op) {
        case PICA_SH_NOP:
            pc++;
            break;
        case PICA_SH_END:
            return PICA_SHADER_OK;
        case PICA_SH_BREAK:
        case PICA_SH_BREAKC:
            if (op == PICA_SH_BREAKC && !condition(st, instr)) {
                pc++;
                break;
            }
            /* leave the innermost loop and everything nested in it */
            while (stack.n && stack.f[stack.n - 1].kind != FRAME_LOOP) {
                pop(&stack);
            }
            if (!stack.n) {
                return fail(st, PICA_SHADER_FAULT_STACK, pc);
            }
            pc = stack.f[stack.n - 1].ret;
            leave_loop(&stack, st);
            break;
        case PICA_SH_CALL:
        case PICA_SH_CALLC:
        case PICA_SH_CALLU:
            taken = op == PICA_SH_CALL ||
                    (op == PICA_SH_CALLC ? condition(st, instr)
                                         : (cfg->bools >> ((instr >> 22) & 0xF)) & 1);
            if (!taken) {
                pc++;
                break;
            }
            if (!push(&stack, FRAME_CALL, dst + num, pc + 1)) {
                return fail(st, PICA_SHADER_FAULT_STACK, pc);
            }
            pc = dst;
            break;
        case PICA_SH_IFU:
        case PICA_SH_IFC:
            taken = op == PICA_SH_IFC ? condition(st, instr)
                                      : (cfg->bools >> ((instr >> 22) & 0xF)) & 1;
            /* true: run to dst, then skip the else part [dst, dst + num) */
            if (!push(&stack, FRAME_IF, taken ? dst : dst + num, dst + num)) {
                return fail(st, PICA_SHADER_FAULT_STACK, pc);
            }
            pc = taken ? pc + 1 : dst;
            break;
        case PICA_SH_LOOP: {
            const uint8_t *i = cfg->ints[(instr >> 22) & 3];
            /* i.x + 1 iterations of [pc + 1, dst], aL = i.y, += i.z */
            if (!push(&stack, FRAME_LOOP, dst + 1, dst + 1)) {
                return fail(st, PICA_SHADER_FAULT_STACK, pc);
            }
            stack.f[stack.n - 1].start = pc + 1;
            stack.f[stack.n - 1].repeat = i[0];
            stack.f[stack.n - 1].inc = i[2];
            stack.f[stack.n - 1].saved_al = st->al;
            st->al = i[1];
            pc++;
            break;
        }
        case PICA_SH_JMPC:
            pc = condition(st, instr) ? dst : pc + 1;
            break;
        case PICA_SH_JMPU:
            taken = (cfg->bools >> ((instr >> 22) & 0xF)) & 1;
            pc = taken == !(num & 1) ? dst : pc + 1;
            break;
        case PICA_SH_SETEMIT:
            if (!st->emitter || ((instr >> 24) & 3) == 3) {
                return fail(st, PICA_SHADER_FAULT_OPCODE, pc);
            }
            st->emitter->vertex_id = (instr >> 24) & 3;
            st->emitter->prim_emit = (instr >> 23) & 1;
            st->emitter->winding = (instr >> 22) & 1;
            pc++;
            break;
        case PICA_SH_EMIT: {
            PicaEmitter *e = st->emitter;
            if (!e) {
                return fail(st, PICA_SHADER_FAULT_OPCODE, pc);
            }
            memcpy(e->buffer[e->vertex_id], st->out, sizeof(st->out));
            if (e->prim_emit && e->emit) {
                float (*v[3])[4] = { e->buffer[0], e->buffer[1], e->buffer[2] };
                e->emit(e->opaque, v, e->winding);
            }
            pc++;
            break;
        }
        default:
            return fail(st, PICA_SHADER_FAULT_OPCODE, pc);
        }
    }
}
