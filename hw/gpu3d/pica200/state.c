/*
 * pica200-3d saved state (savevm, migration): the whole core as a checked
 * stream (common/g3d-state.h), written and read field by field in one order.
 *
 * What is saved: BAR0's external registers with the memory fill (PSC) and
 * transfer (PPF) engines' progress, the internal register file and IRQ
 * status, the command-list processor's position inside its list and
 * command, register writes queued behind it, the procedural texture, fog,
 * gas and lighting LUTs, both shader units' code, operand descriptors,
 * float uniforms and upload pointers, fixed attributes and the immediate
 * vertex being built, a draw in progress (its attribute sources, position
 * and post-vertex cache), primitive assembly, the geometry shader's input
 * collection and emitter, and the counters. The LCD (PDC) registers are
 * part of the external registers. Not saved: the render-state snapshot
 * (rebuilt on the next triangle) and the rasteriser's queue, which is empty
 * whenever the core is quiescent (pica200_core_work flushes it).
 *
 * The loader trusts no value: every index, count, upload pointer and engine
 * position is checked against what the hardware could hold, so a damaged
 * stream fails with a message and leaves the core reset.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "pica200-int.h"

#include <string.h>

#define PICA200_STATE_MAGIC 0x41434950u     /* "PICA" in stream order */
#define PICA200_STATE_VERSION 1

/* ---- pieces used by both directions ------------------------------------ */

static void put_vec4s(G3DStateOut *o, const float (*v)[4], size_t n)
{
    g3d_state_put_f32s(o, &v[0][0], n * 4);
}

static void get_vec4s(G3DStateIn *in, float (*v)[4], size_t n)
{
    g3d_state_get_f32s(in, &v[0][0], n * 4);
}

static void put_vertex(G3DStateOut *o, const PicaVertex *v)
{
    g3d_state_put_f32s(o, v->s, PICA_SEM_COUNT);
}

static void get_vertex(G3DStateIn *in, PicaVertex *v)
{
    g3d_state_get_f32s(in, v->s, PICA_SEM_COUNT);
}

/* ---- save --------------------------------------------------------------- */

static void save_engines(Pica200Core *c, G3DStateOut *o)
{
    const PicaPpf *p = &c->ppf;
    unsigned n;

    g3d_state_put_u32s(o, c->ext, G_N_ELEMENTS(c->ext));
    for (n = 0; n < 2; n++) {
        const PicaPsc *f = &c->psc[n];
        g3d_state_put_u32(o, f->start);
        g3d_state_put_u32(o, f->end);
        g3d_state_put_u32(o, f->value);
        g3d_state_put_u32(o, f->control);
        g3d_state_put_u8(o, f->busy);
        g3d_state_put_u64(o, f->pos);
        g3d_state_put_u64(o, f->stop);
    }
    g3d_state_put_u32(o, c->ppf_control);
    g3d_state_put_u8(o, p->busy);
    g3d_state_put_u8(o, p->texcopy);
    g3d_state_put_u64(o, p->in_addr);
    g3d_state_put_u64(o, p->out_addr);
    g3d_state_put_u32(o, p->in_w);
    g3d_state_put_u32(o, p->in_h);
    g3d_state_put_u32(o, p->out_w);
    g3d_state_put_u32(o, p->out_h);
    g3d_state_put_u8(o, p->in_fmt);
    g3d_state_put_u8(o, p->out_fmt);
    g3d_state_put_u8(o, p->hs);
    g3d_state_put_u8(o, p->vs);
    g3d_state_put_u8(o, p->in_tiled);
    g3d_state_put_u8(o, p->out_tiled);
    g3d_state_put_u8(o, p->flip);
    g3d_state_put_u32(o, p->row);
    g3d_state_put_u64(o, p->remaining);
    g3d_state_put_u32(o, p->in_width);
    g3d_state_put_u32(o, p->in_gap);
    g3d_state_put_u32(o, p->out_width);
    g3d_state_put_u32(o, p->out_gap);
    g3d_state_put_u32(o, p->in_pos);
    g3d_state_put_u32(o, p->out_pos);
}

static void save_cmdlist(Pica200Core *c, G3DStateOut *o)
{
    const PicaCmdProc *cp = &c->cp;
    unsigned i, n = c->queue->len - c->queue_head;

    g3d_state_put_u8(o, cp->active);
    g3d_state_put_u64(o, cp->pc);
    g3d_state_put_u64(o, cp->end);
    g3d_state_put_u64(o, cp->start);
    g3d_state_put_u8(o, cp->self_jump_logged);
    g3d_state_put_u8(o, cp->in_cmd);
    g3d_state_put_u32(o, cp->id);
    g3d_state_put_u32(o, cp->mask);
    g3d_state_put_u32(o, cp->nparams);
    g3d_state_put_u32(o, cp->k);
    g3d_state_put_u8(o, cp->consecutive);
    g3d_state_put_u64(o, cp->param_addr);
    g3d_state_put_u8(o, cp->finalized);
    /* the writes still waiting, oldest first */
    g3d_state_put_u32(o, n);
    for (i = 0; i < n; i++) {
        const PicaQueuedWrite *w =
            &g_array_index(c->queue, PicaQueuedWrite, c->queue_head + i);
        g3d_state_put_u16(o, w->id);
        g3d_state_put_u32(o, w->value);
        g3d_state_put_u32(o, w->mask);
    }
}

static void save_shaders(Pica200Core *c, G3DStateOut *o)
{
    unsigned u;

    for (u = 0; u < 2; u++) {
        const PicaShaderSetup *s = &c->sh[u];
        g3d_state_put_u32s(o, s->code, s->code_words);
        g3d_state_put_u32s(o, s->opdesc, PICA_OPDESC_COUNT);
        put_vec4s(o, s->f, PICA_FLOAT_UNIFORMS);
        g3d_state_put_u32(o, s->code_index);
        g3d_state_put_u32(o, s->opdesc_index);
        g3d_state_put_u32(o, s->float_index);
        g3d_state_put_u8(o, s->float_f32);
        g3d_state_put_u32s(o, s->float_words, 4);
        g3d_state_put_u32(o, s->float_nwords);
    }
}

static void save_pipeline(Pica200Core *c, G3DStateOut *o)
{
    const PicaDraw *d = &c->draw;
    const PicaEmitter *e = &c->emitter;
    unsigned i;

    put_vec4s(o, c->fixed_attr, 12);
    g3d_state_put_u32s(o, c->fixed_words, 3);
    g3d_state_put_u32(o, c->fixed_nwords);
    g3d_state_put_u32(o, c->fixed_index);
    put_vec4s(o, c->imm_attr, 16);
    g3d_state_put_u32(o, c->imm_n);

    g3d_state_put_u8(o, d->active);
    g3d_state_put_u8(o, d->indexed);
    g3d_state_put_u32(o, d->next);
    g3d_state_put_u32(o, d->count);
    g3d_state_put_u32(o, d->first);
    g3d_state_put_u64(o, d->index_addr);
    g3d_state_put_u8(o, d->index_u16);
    g3d_state_put_u32(o, d->nattrs);
    for (i = 0; i < 12; i++) {
        g3d_state_put_u8(o, d->attr[i].fixed);
        g3d_state_put_u32(o, d->attr[i].type);
        g3d_state_put_u32(o, d->attr[i].comps);
        g3d_state_put_u64(o, d->attr[i].addr);
        g3d_state_put_u32(o, d->attr[i].stride);
    }
    for (i = 0; i < 64; i++) {
        g3d_state_put_u8(o, d->cache.valid[i]);
        g3d_state_put_u32(o, d->cache.tag[i]);
        put_vertex(o, &d->cache.vtx[i]);
    }

    put_vertex(o, &c->pa.buf[0]);
    put_vertex(o, &c->pa.buf[1]);
    g3d_state_put_u32(o, c->pa.n);
    g3d_state_put_u32(o, c->pa.index);
    g3d_state_put_u8(o, c->pa.strip_ready);
    g3d_state_put_u8(o, c->pa.winding);

    put_vec4s(o, c->gs_in.attr, 16);
    g3d_state_put_u32(o, c->gs_in.n);
    g3d_state_put_u32(o, c->gs_in.uniform);
    g3d_state_put_u32(o, c->gs_in.left);
    g3d_state_put_u32(o, c->gs_in.main_left);
    g3d_state_put_u8(o, c->gs_in.need_count);

    g3d_state_put_u32(o, e->vertex_id);
    g3d_state_put_u8(o, e->prim_emit);
    g3d_state_put_u8(o, e->winding);
    put_vec4s(o, &e->buffer[0][0], 3 * 16);
    g3d_state_put_u32(o, c->gs_prims);
    g3d_state_put_u8(o, c->fault_logged);
}

void pica200_state_save(Pica200Core *c, G3DStateOut *o)
{
    Pica200Stats st;

    /* quiescent means nothing queued, but a caller may not have worked */
    pica_raster_flush(c);
    g3d_state_begin(o, PICA200_STATE_MAGIC, PICA200_STATE_VERSION);
    save_engines(c, o);
    g3d_state_put_u32s(o, c->regs, PICA_NREGS);
    g3d_state_put_u64(o, c->irq_stat);
    save_cmdlist(c, o);
    g3d_state_put_u32s(o, &c->proctex_lut[0][0], 6 * 256);
    g3d_state_put_u32s(o, c->fog_lut, 128);
    g3d_state_put_u32s(o, c->gas_lut, 16);
    g3d_state_put_u32s(o, &c->light_lut[0][0], 24 * 256);
    save_shaders(c, o);
    save_pipeline(c, o);
    g3d_error_save(&c->errors, o);
    pica200_stats(c, &st);
    g3d_state_put_u64(o, st.lists);
    g3d_state_put_u64(o, st.commands);
    g3d_state_put_u64(o, st.vertices);
    g3d_state_put_u64(o, st.triangles);
    g3d_state_put_u64(o, st.fragments);
    g3d_state_put_u64(o, st.shader_faults);
}

/* ---- load --------------------------------------------------------------- */

/* an address the engines can hold: 3DS physical, below 4 GiB */
static uint64_t get_addr(G3DStateIn *in, const char *what)
{
    uint64_t v = g3d_state_get_u64(in);

    if (in->ok && v > 0xFFFFFFFFull) {
        g3d_state_fail(in, "saved %s 0x%" G_GINT64_MODIFIER "x is past 4 GiB",
                       what, v);
        return 0;
    }
    return v;
}

static void load_engines(Pica200Core *c, G3DStateIn *in)
{
    PicaPpf *p = &c->ppf;
    unsigned n;

    g3d_state_get_u32s(in, c->ext, G_N_ELEMENTS(c->ext));
    for (n = 0; n < 2; n++) {
        PicaPsc *f = &c->psc[n];
        f->start = g3d_state_get_u32(in);
        f->end = g3d_state_get_u32(in);
        f->value = g3d_state_get_u32(in);
        f->control = g3d_state_get_u32(in);
        f->busy = g3d_state_get_bool(in);
        f->pos = get_addr(in, "memory fill position");
        f->stop = get_addr(in, "memory fill end");
        /* a fill runs from start << 3 up to stop (pica_psc_start) */
        g3d_state_check(in, !f->busy || ((uint64_t)f->start << 3 <= f->pos &&
                                         f->pos <= f->stop),
                        "saved memory fill position is outside its range");
    }
    c->ppf_control = g3d_state_get_u32(in);
    p->busy = g3d_state_get_bool(in);
    p->texcopy = g3d_state_get_bool(in);
    p->in_addr = get_addr(in, "transfer input address");
    p->out_addr = get_addr(in, "transfer output address");
    p->in_w = g3d_state_get_u32(in);
    p->in_h = g3d_state_get_u32(in);
    p->out_w = g3d_state_get_u32(in);
    p->out_h = g3d_state_get_u32(in);
    p->in_fmt = g3d_state_get_u8(in);
    p->out_fmt = g3d_state_get_u8(in);
    p->hs = g3d_state_get_u8(in);
    p->vs = g3d_state_get_u8(in);
    p->in_tiled = g3d_state_get_bool(in);
    p->out_tiled = g3d_state_get_bool(in);
    p->flip = g3d_state_get_bool(in);
    p->row = g3d_state_get_u32(in);
    p->remaining = g3d_state_get_u64(in);
    p->in_width = g3d_state_get_u32(in);
    p->in_gap = g3d_state_get_u32(in);
    p->out_width = g3d_state_get_u32(in);
    p->out_gap = g3d_state_get_u32(in);
    p->in_pos = g3d_state_get_u32(in);
    p->out_pos = g3d_state_get_u32(in);
    if (!in->ok || !p->busy) {
        return;
    }
    /* what pica_ppf_start checked before it set the engine going */
    if (p->texcopy) {
        g3d_state_check(in, !p->remaining ||
                        (p->in_pos < p->in_width && p->out_pos < p->out_width),
                        "saved texture copy line position is past its width");
        return;
    }
    g3d_state_check(in, pica_pixfmt_bpp(p->in_fmt) &&
                    pica_pixfmt_bpp(p->out_fmt),
                    "saved display transfer has an undefined pixel format");
    g3d_state_check(in, (p->hs == 1 || p->hs == 2) && (p->vs == 1 || p->vs == 2)
                    && (uint64_t)p->out_w * p->hs <= p->in_w &&
                    (uint64_t)p->out_h * p->vs <= p->in_h,
                    "saved display transfer reads past its input");
    g3d_state_check(in, !(p->in_tiled && ((p->in_w | p->in_h) & 7)) &&
                    !(p->out_tiled && ((p->out_w | p->out_h) & 7)),
                    "saved tiled display transfer is not whole tiles");
    g3d_state_check(in, p->row <= p->out_h,
                    "saved display transfer row is past its height");
}

static void load_cmdlist(Pica200Core *c, G3DStateIn *in)
{
    PicaCmdProc *cp = &c->cp;
    uint32_t i, n;

    cp->active = g3d_state_get_bool(in);
    cp->pc = get_addr(in, "command list position");
    cp->end = get_addr(in, "command list end");
    cp->start = get_addr(in, "command list start");
    cp->self_jump_logged = g3d_state_get_bool(in);
    cp->in_cmd = g3d_state_get_bool(in);
    cp->id = g3d_state_get_index(in, 0x10000, "command register ID");
    cp->mask = g3d_state_get_u32(in);
    cp->nparams = g3d_state_get_index(in, 0x100, "command parameter count");
    /* parameter k of 1 + nparams; left over from the last command when
     * none is in progress */
    cp->k = g3d_state_get_index(in, (cp->in_cmd ? cp->nparams : 0xFF) + 2,
                                "command parameter");
    cp->consecutive = g3d_state_get_bool(in);
    cp->param_addr = get_addr(in, "command parameter address");
    cp->finalized = g3d_state_get_bool(in);
    g3d_state_check(in, !cp->active || (cp->start <= cp->pc &&
                                        cp->pc <= cp->end),
                    "saved command list position is outside its buffer");

    n = g3d_state_get_index(in, PICA_QUEUE_MAX + 1, "queued write count");
    g_array_set_size(c->queue, 0);
    c->queue_head = 0;
    for (i = 0; i < n && in->ok; i++) {
        PicaQueuedWrite w;
        w.id = g3d_state_get_u16(in);
        w.value = g3d_state_get_u32(in);
        w.mask = g3d_state_get_u32(in);
        if (g3d_state_check(in, w.id < PICA_NREGS,
                            "saved queued write names no register")) {
            g_array_append_val(c->queue, w);
        }
    }
}

static void load_shaders(Pica200Core *c, G3DStateIn *in)
{
    unsigned u;

    for (u = 0; u < 2; u++) {
        PicaShaderSetup *s = &c->sh[u];
        g3d_state_get_u32s(in, s->code, s->code_words);
        g3d_state_get_u32s(in, s->opdesc, PICA_OPDESC_COUNT);
        get_vec4s(in, s->f, PICA_FLOAT_UNIFORMS);
        /* the upload pointers' register widths (shader.c) */
        s->code_index = g3d_state_get_index(in, 0x1000, "shader code index");
        s->opdesc_index = g3d_state_get_index(in, 0x1000,
                                              "operand descriptor index");
        s->float_index = g3d_state_get_index(in, 0x100, "float uniform index");
        s->float_f32 = g3d_state_get_bool(in);
        g3d_state_get_u32s(in, s->float_words, 4);
        s->float_nwords = g3d_state_get_index(in, s->float_f32 ? 4 : 3,
                                              "float uniform word count");
    }
}

static void load_pipeline(Pica200Core *c, G3DStateIn *in)
{
    PicaDraw *d = &c->draw;
    PicaEmitter *e = &c->emitter;
    unsigned i;

    get_vec4s(in, c->fixed_attr, 12);
    g3d_state_get_u32s(in, c->fixed_words, 3);
    c->fixed_nwords = g3d_state_get_index(in, 3, "fixed attribute word count");
    c->fixed_index = g3d_state_get_index(in, 16, "fixed attribute index");
    get_vec4s(in, c->imm_attr, 16);
    c->imm_n = g3d_state_get_index(in, 16, "immediate attribute count");

    d->active = g3d_state_get_bool(in);
    d->indexed = g3d_state_get_bool(in);
    d->next = g3d_state_get_u32(in);
    d->count = g3d_state_get_u32(in);
    d->first = g3d_state_get_u32(in);
    d->index_addr = get_addr(in, "index buffer address");
    d->index_u16 = g3d_state_get_bool(in);
    d->nattrs = g3d_state_get_index(in, 13, "vertex attribute count");
    g3d_state_check(in, d->next <= d->count,
                    "saved draw position is past its vertex count");
    for (i = 0; i < 12; i++) {
        PicaAttribSource *a = &d->attr[i];
        a->fixed = g3d_state_get_bool(in);
        a->type = g3d_state_get_index(in, 4, "attribute type");
        a->comps = g3d_state_get_index(in, 5, "attribute components");
        a->addr = get_addr(in, "attribute address");
        a->stride = g3d_state_get_u32(in);
    }
    for (i = 0; i < 64; i++) {
        d->cache.valid[i] = g3d_state_get_bool(in);
        d->cache.tag[i] = g3d_state_get_u32(in);
        get_vertex(in, &d->cache.vtx[i]);
    }

    get_vertex(in, &c->pa.buf[0]);
    get_vertex(in, &c->pa.buf[1]);
    c->pa.n = g3d_state_get_index(in, 3, "primitive vertex count");
    c->pa.index = g3d_state_get_index(in, 2, "strip slot");
    c->pa.strip_ready = g3d_state_get_bool(in);
    c->pa.winding = g3d_state_get_bool(in);

    get_vec4s(in, c->gs_in.attr, 16);
    c->gs_in.n = g3d_state_get_index(in, 16, "geometry shader input count");
    c->gs_in.uniform = g3d_state_get_index(in, PICA_FLOAT_UNIFORMS + 1,
                                           "geometry shader input uniform");
    c->gs_in.left = g3d_state_get_u32(in);
    c->gs_in.main_left = g3d_state_get_u32(in);
    c->gs_in.need_count = g3d_state_get_bool(in);

    e->vertex_id = g3d_state_get_index(in, 3, "emitter vertex");
    e->prim_emit = g3d_state_get_bool(in);
    e->winding = g3d_state_get_bool(in);
    get_vec4s(in, &e->buffer[0][0], 3 * 16);
    c->gs_prims = g3d_state_get_u32(in);
    c->fault_logged = g3d_state_get_bool(in);
}

bool pica200_state_load(Pica200Core *c, G3DStateIn *in)
{
    Pica200Stats st = { 0 };
    G3DRasterStats rs;

    pica200_core_reset(c);
    if (g3d_state_expect(in, PICA200_STATE_MAGIC, PICA200_STATE_VERSION,
                         "pica200-3d")) {
        load_engines(c, in);
        g3d_state_get_u32s(in, c->regs, PICA_NREGS);
        c->irq_stat = g3d_state_get_u64(in);
        load_cmdlist(c, in);
        g3d_state_get_u32s(in, &c->proctex_lut[0][0], 6 * 256);
        g3d_state_get_u32s(in, c->fog_lut, 128);
        g3d_state_get_u32s(in, c->gas_lut, 16);
        g3d_state_get_u32s(in, &c->light_lut[0][0], 24 * 256);
        load_shaders(c, in);
        load_pipeline(c, in);
        g3d_error_load(&c->errors, in);
        st.lists = g3d_state_get_u64(in);
        st.commands = g3d_state_get_u64(in);
        st.vertices = g3d_state_get_u64(in);
        st.triangles = g3d_state_get_u64(in);
        st.fragments = g3d_state_get_u64(in);
        st.shader_faults = g3d_state_get_u64(in);
    }
    if (!g3d_state_end(in)) {
        pica200_core_reset(c);
        return false;
    }
    c->stats = st;
    g3d_raster_stats(c->raster, &rs);
    c->samples_at_reset = rs.samples - st.fragments;
    c->filled_at_reset = rs.filled;     /* a statistic, not saved */
    /* derived: the render state is rebuilt on the next triangle */
    c->rs = NULL;
    c->rs_dirty = true;
    /* the line follows the restored status; the glue reads it after load */
    c->irq_level = pica_irq_wanted(c);
    return true;
}
