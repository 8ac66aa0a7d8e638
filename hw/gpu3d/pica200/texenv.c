/*
 * Texture combiners TEXENV0-5 and the combiner buffer (reference
 * "GPUREG_TEXENVi_*", "GPUREG_TEXENV_UPDATE_BUFFER"; 3dbrew GPU/Internal
 * Registers 0x0C0-0x0FD; Citra): sources, operands, the ten combine operations
 * in 8-bit integer arithmetic (Citra), scale, and the delayed buffer update of
 * stages 0-3.
 *
 * Textures 0-2 come from texunit.c, texture 3 from proctex.c, the fragment
 * primary/secondary colours from lighting.c (0 while fragment lighting is
 * off, as in Citra). "Previous" in stage 0 is the primary colour and the
 * previous buffer there is 0, as the reference says (L1439).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "pica200-int.h"

#include <string.h>

/* how many of the three sources a combine operation reads */
static unsigned op_inputs(unsigned op)
{
    switch (op) {
    case PICA_TEVOP_REPLACE: return 1;
    case PICA_TEVOP_INTERPOLATE: case PICA_TEVOP_MULTIPLY_ADD:
    case PICA_TEVOP_ADD_MULTIPLY: return 3;
    default: return 2;
    }
}

void pica_texenv_prepare(PicaTevState *t)
{
    int s, i;

    t->passthrough = true;
    t->uses_tex = 0;
    t->uses_frag = 0;
    t->nstages = 0;
    for (s = 0; s < 6; s++) {
        PicaTevStage *st = &t->stage[s];

        /* only the sources the operations read (REPLACE one, ...) */
        st->n_rgb = op_inputs(st->comb_rgb);
        st->n_a = op_inputs(st->comb_a);
        st->copy = st->comb_rgb == PICA_TEVOP_REPLACE && st->op_rgb[0] == 0 &&
                   st->scale_rgb == 1 && st->comb_a == PICA_TEVOP_REPLACE &&
                   st->op_a[0] == 0 && st->scale_a == 1;
        /* a stage that passes "previous" on unchanged can end the chain */
        if (st->src_rgb[0] != PICA_TEVSRC_PREVIOUS ||
            st->src_a[0] != PICA_TEVSRC_PREVIOUS || st->op_rgb[0] != 0 ||
            st->op_a[0] != 0 || st->comb_rgb != PICA_TEVOP_REPLACE ||
            st->comb_a != PICA_TEVOP_REPLACE || st->scale_rgb != 1 ||
            st->scale_a != 1) {
            t->nstages = s + 1;
        }
        for (i = 0; i < 3; i++) {
            uint8_t a = i < st->n_rgb ? st->src_rgb[i] : 0;
            uint8_t b = i < st->n_a ? st->src_a[i] : 0;
            if (a >= PICA_TEVSRC_TEXTURE0 && a <= PICA_TEVSRC_TEXTURE3) {
                t->uses_tex |= 1u << (a - PICA_TEVSRC_TEXTURE0);
            }
            if (b >= PICA_TEVSRC_TEXTURE0 && b <= PICA_TEVSRC_TEXTURE3) {
                t->uses_tex |= 1u << (b - PICA_TEVSRC_TEXTURE0);
            }
            if (a == PICA_TEVSRC_FRAG_PRIMARY || b == PICA_TEVSRC_FRAG_PRIMARY) {
                t->uses_frag |= 1;
            }
            if (a == PICA_TEVSRC_FRAG_SECONDARY || b == PICA_TEVSRC_FRAG_SECONDARY) {
                t->uses_frag |= 2;
            }
        }
        /* the common "stage 0 = primary, the rest pass it on" setup */
        if (s == 0) {
            t->passthrough &= st->src_rgb[0] == PICA_TEVSRC_PRIMARY &&
                              st->src_a[0] == PICA_TEVSRC_PRIMARY;
        } else {
            t->passthrough &= st->src_rgb[0] == PICA_TEVSRC_PREVIOUS &&
                              st->src_a[0] == PICA_TEVSRC_PREVIOUS;
        }
        t->passthrough &= st->op_rgb[0] == 0 && st->op_a[0] == 0 &&
                          st->comb_rgb == PICA_TEVOP_REPLACE &&
                          st->comb_a == PICA_TEVOP_REPLACE &&
                          st->scale_rgb == 1 && st->scale_a == 1;
    }
}

/* one side of stage 0: its combiner, sources and operands (1x, plain ops) */
static unsigned one_side(unsigned comb, const uint8_t *src, const uint8_t *op,
                         unsigned scale)
{
    if (scale != 1 || op[0] != 0) {
        return PICA_TEV1_OTHER;
    }
    if (comb == PICA_TEVOP_REPLACE) {
        return src[0] == PICA_TEVSRC_TEXTURE0 ? PICA_TEV1_TEX0 :
               src[0] == PICA_TEVSRC_PRIMARY ? PICA_TEV1_PRIMARY :
               PICA_TEV1_OTHER;
    }
    /* a * b / 255 is the same either way round */
    if (comb == PICA_TEVOP_MODULATE && op[1] == 0 &&
        ((src[0] == PICA_TEVSRC_PRIMARY && src[1] == PICA_TEVSRC_TEXTURE0) ||
         (src[0] == PICA_TEVSRC_TEXTURE0 && src[1] == PICA_TEVSRC_PRIMARY))) {
        return PICA_TEV1_MODULATE;
    }
    return PICA_TEV1_OTHER;
}

unsigned pica_texenv_one_stage(const PicaTevState *t)
{
    const PicaTevStage *st = &t->stage[0];

    if (t->nstages != 1) {
        return PICA_TEV1_OTHER;
    }
    return one_side(st->comb_rgb, st->src_rgb, st->op_rgb, st->scale_rgb) |
           one_side(st->comb_a, st->src_a, st->op_a, st->scale_a) << 2;
}

void pica_texenv_setup(Pica200Core *c, PicaTevState *t)
{
    const uint32_t *r = c->regs;
    uint32_t upd = r[GPUREG_TEXENV_UPDATE_BUFFER];
    int s, i;

    t->update_rgb = G3D_FIELD_EX32(upd, GPUREG_TEXENV_UPDATE_BUFFER, RGB_UPDATE);
    t->update_a = G3D_FIELD_EX32(upd, GPUREG_TEXENV_UPDATE_BUFFER, ALPHA_UPDATE);
    for (i = 0; i < 4; i++) {
        t->buffer_init[i] = r[GPUREG_TEXENV_BUFFER_COLOR] >> (8 * i);
    }
    for (s = 0; s < 6; s++) {
        unsigned base = PICA_TEXENV_BASE(s);
        uint32_t src = r[base], opd = r[base + 1], comb = r[base + 2];
        uint32_t scale = r[base + 4];
        PicaTevStage *st = &t->stage[s];
        static const uint8_t scales[4] = { 1, 2, 4, 1 };  /* 3: 1x (Citra) */

        for (i = 0; i < 3; i++) {
            st->src_rgb[i] = (src >> (4 * i)) & 0xF;
            st->src_a[i] = (src >> (16 + 4 * i)) & 0xF;
            st->op_rgb[i] = (opd >> (4 * i)) & 0xF;
            st->op_a[i] = (opd >> (12 + 4 * i)) & 0x7;
        }
        st->comb_rgb = comb & 0xF;
        st->comb_a = (comb >> 16) & 0xF;
        st->scale_rgb = scales[scale & 3];
        st->scale_a = scales[(scale >> 16) & 3];
        for (i = 0; i < 4; i++) {
            st->konst[i] = r[base + 3] >> (8 * i);
        }
    }
    pica_texenv_prepare(t);
    if (G3D_FIELD_EX32(upd, GPUREG_TEXENV_UPDATE_BUFFER, FOG_MODE) == PICA_FOG_MODE_GAS) {
        g3d_unimp_once(&c->errors, PICA_UNIMP_GAS,
                       "gas not modelled");
    }
}

typedef struct TevInputs {
    const uint8_t *primary;
    const uint8_t *previous;
    const uint8_t *buffer;
    const uint8_t *konst;
    const uint8_t (*tex)[4];
    const uint8_t (*frag)[4];       /* lighting's primary, secondary or NULL */
} TevInputs;

static const uint8_t zero4[4];

static const uint8_t *source(const TevInputs *in, unsigned src)
{
    switch (src) {
    case PICA_TEVSRC_PRIMARY: return in->primary;
    case PICA_TEVSRC_PREVIOUS_BUFFER: return in->buffer;
    case PICA_TEVSRC_CONSTANT: return in->konst;
    case PICA_TEVSRC_PREVIOUS: return in->previous;
    case PICA_TEVSRC_FRAG_PRIMARY: case PICA_TEVSRC_FRAG_SECONDARY:
        return in->frag ? in->frag[src - PICA_TEVSRC_FRAG_PRIMARY] : zero4;
    case PICA_TEVSRC_TEXTURE0: case PICA_TEVSRC_TEXTURE0 + 1:
    case PICA_TEVSRC_TEXTURE0 + 2: case PICA_TEVSRC_TEXTURE3:
        return in->tex ? in->tex[src - PICA_TEVSRC_TEXTURE0] : zero4;
    default: return zero4;   /* 7-12 undefined */
    }
}

/* RGB operand (reference L1459-1465); undefined codes give 0 */
static void operand_rgb(const uint8_t *c, unsigned op, int out[3])
{
    int i, v;

    switch (op) {
    case 0: case 1:
        for (i = 0; i < 3; i++) {
            out[i] = op ? 255 - c[i] : c[i];
        }
        return;
    case 2: case 3: v = c[3]; break;
    case 4: case 5: v = c[0]; break;
    case 8: case 9: v = c[1]; break;
    case 12: case 13: v = c[2]; break;
    default: out[0] = out[1] = out[2] = 0; return;
    }
    if (op & 1) {
        v = 255 - v;
    }
    out[0] = out[1] = out[2] = v;
}

/* alpha operand: 0 a, 2 r, 4 g, 6 b; odd codes are 1 - x */
static int operand_a(const uint8_t *c, unsigned op)
{
    static const uint8_t chan[4] = { 3, 0, 1, 2 };
    int v = c[chan[(op >> 1) & 3]];

    return op & 1 ? 255 - v : v;
}

static int combine(unsigned op, int a, int b, int c)
{
    int r;

    switch (op) {
    case PICA_TEVOP_REPLACE: return a;
    case PICA_TEVOP_MODULATE: return a * b / 255;
    case PICA_TEVOP_ADD: return MIN(a + b, 255);
    case PICA_TEVOP_ADD_SIGNED:
        r = a + b - 128;
        return r < 0 ? 0 : r > 255 ? 255 : r;
    case PICA_TEVOP_INTERPOLATE: return (a * c + b * (255 - c)) / 255;
    case PICA_TEVOP_SUBTRACT: return MAX(a - b, 0);
    case PICA_TEVOP_MULTIPLY_ADD: return MIN((a * b + 255 * c) / 255, 255);
    case PICA_TEVOP_ADD_MULTIPLY: return MIN(a + b, 255) * c / 255;
    default: return 0;
    }
}

static int dot3(const int a[3], const int b[3])
{
    int r = 0, i;

    for (i = 0; i < 3; i++) {
        r += ((a[i] * 2 - 255) * (b[i] * 2 - 255) + 128) / 256;
    }
    return r < 0 ? 0 : r > 255 ? 255 : r;
}

/* one stage's operands, operations and scale */
static void stage_combine(const PicaTevStage *st, const TevInputs *in,
                          uint8_t res[4])
{
    int a[3][3] = { { 0 } }, aa[3] = { 0 }, rgb[3], alpha;
    int i;

    for (i = 0; i < st->n_rgb; i++) {
        operand_rgb(source(in, st->src_rgb[i]), st->op_rgb[i], a[i]);
    }
    for (i = 0; i < st->n_a; i++) {
        aa[i] = operand_a(source(in, st->src_a[i]), st->op_a[i]);
    }
    if (st->comb_rgb == PICA_TEVOP_DOT3_RGB ||
        st->comb_rgb == PICA_TEVOP_DOT3_RGBA) {
        rgb[0] = rgb[1] = rgb[2] = dot3(a[0], a[1]);
    } else {
        for (i = 0; i < 3; i++) {
            rgb[i] = combine(st->comb_rgb, a[0][i], a[1][i], a[2][i]);
        }
    }
    if (st->comb_rgb == PICA_TEVOP_DOT3_RGBA) {
        alpha = rgb[0];
    } else if (st->comb_a == PICA_TEVOP_DOT3_RGB ||
               st->comb_a == PICA_TEVOP_DOT3_RGBA) {
        /* alpha dot3: dot3 of the replicated alpha operands (decision) */
        int b0[3] = { aa[0], aa[0], aa[0] }, b1[3] = { aa[1], aa[1], aa[1] };
        alpha = dot3(b0, b1);
    } else {
        alpha = combine(st->comb_a, aa[0], aa[1], aa[2]);
    }
    for (i = 0; i < 3; i++) {
        res[i] = MIN(rgb[i] * st->scale_rgb, 255);
    }
    res[3] = MIN(alpha * st->scale_a, 255);
}

void pica_texenv_combine(const PicaTevState *t, const uint8_t primary[4],
                         const uint8_t (*tex)[4], uint8_t out[4])
{
    pica_texenv_combine_lit(t, primary, NULL, tex, out);
}

void pica_texenv_combine_lit(const PicaTevState *t, const uint8_t primary[4],
                             const uint8_t (*frag)[4], const uint8_t (*tex)[4],
                             uint8_t out[4])
{
    uint8_t prev[4], buffer[4], next_buffer[4], res[4];
    TevInputs in;
    int s;

    if (t->passthrough) {
        memcpy(out, primary, 4);
        return;
    }
    memcpy(prev, primary, 4);
    memset(buffer, 0, 4);
    memcpy(next_buffer, t->buffer_init, 4);
    in.primary = primary;
    in.previous = prev;
    in.buffer = buffer;
    in.tex = tex;
    in.frag = frag;
    if (t->nstages == 1 && t->stage[0].copy) {
        /* one plain REPLACE (a texture, say): no buffer bookkeeping */
        const uint8_t *c;

        in.konst = t->stage[0].konst;
        c = source(&in, t->stage[0].src_rgb[0]);
        out[0] = c[0];
        out[1] = c[1];
        out[2] = c[2];
        out[3] = source(&in, t->stage[0].src_a[0])[3];
        return;
    }
    for (s = 0; s < t->nstages; s++) {
        const PicaTevStage *st = &t->stage[s];

        in.konst = st->konst;
        if (st->copy) {
            /* REPLACE of a plain colour at 1x on both sides: the source itself */
            const uint8_t *c = source(&in, st->src_rgb[0]);
            res[0] = c[0];
            res[1] = c[1];
            res[2] = c[2];
            res[3] = source(&in, st->src_a[0])[3];
        } else {
            stage_combine(st, &in, res);
        }
        memcpy(prev, res, 4);
        /* the buffer a stage reads is the one the stage before left */
        memcpy(buffer, next_buffer, 4);
        if (s < 4) {
            if (t->update_rgb & (1u << s)) {
                memcpy(next_buffer, res, 3);
            }
            if (t->update_a & (1u << s)) {
                next_buffer[3] = res[3];
            }
        }
    }
    memcpy(out, prev, 4);
}
