/*
 * flipper-gx saved state (savevm, migration): the whole core as a checked
 * stream (common/g3d-state.h), written and read field by field in one order.
 *
 * What is saved: every register block (CP, PE, VI, PI, MI, DSP, DI, SI,
 * EXI, AI) with the VI beam and AI sample clock positions and the clock
 * time they were taken at; the CP's FIFO pointers, the FIFO bytes already
 * fetched but not decoded, a draw in progress and a display list in
 * progress (address, size, position, its own draw); the write-gather
 * pipe's partial burst; the GX register files (BP, CP-internal, XF memory
 * with matrices and lights, XF registers), the TEV colour registers and
 * konstants, TMEM (preloaded textures and TLUTs), primitive setup's
 * vertices, the ZFREEZE plane, the EFB's colour and depth, ARAM when a DMA
 * has created it, and the counters.
 *
 * Not saved, rebuilt after a load: a draw's vertex layout (recomputed from
 * the CP registers, which cannot change during a draw), the TEV fast path,
 * the render threads' queue and statistics (flushed at every quiescent
 * point). MEM1 is guest RAM and migrates with it.
 *
 * The loader trusts no value: FIFO pointers must be ones the registers can
 * hold, the staged byte count fits its buffer, a display list in progress
 * lies in MEM1 with its position inside it, opcodes' fields are in range;
 * a damaged stream fails with a message and leaves the core reset.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "flipper-int.h"

#define FLIPPER_STATE_MAGIC 0x50494C46u     /* "FLIP" in stream order */
#define FLIPPER_STATE_VERSION 1

static void put_u16s(G3DStateOut *o, const uint16_t *v, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        g3d_state_put_u16(o, v[i]);
    }
}

static void get_u16s(G3DStateIn *in, uint16_t *v, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        v[i] = g3d_state_get_u16(in);
    }
}

/* ---- save --------------------------------------------------------------- */

static void save_decoder(G3DStateOut *o, const GXDecoder *d)
{
    g3d_state_put_u8(o, d->in_draw);
    g3d_state_put_u8(o, d->prim);
    g3d_state_put_u8(o, d->vat);
    g3d_state_put_u32(o, d->left);
}

static void save_cp(FlipperCore *c, G3DStateOut *o)
{
    const FlipperCP *cp = &c->cp;

    g3d_state_put_u16(o, cp->cr);
    g3d_state_put_u8(o, cp->ovf);
    g3d_state_put_u8(o, cp->unf);
    g3d_state_put_u8(o, cp->bp_hit);
    g3d_state_put_u16(o, cp->token);
    g3d_state_put_u16(o, cp->perf_sel);
    g3d_state_put_u32(o, cp->base);
    g3d_state_put_u32(o, cp->end);
    g3d_state_put_u32(o, cp->hiwm);
    g3d_state_put_u32(o, cp->lowm);
    g3d_state_put_u32(o, cp->dist);
    g3d_state_put_u32(o, cp->wptr);
    g3d_state_put_u32(o, cp->rptr);
    g3d_state_put_u32(o, cp->bp);
    g3d_state_put_u8(o, cp->fault);
    g3d_state_put_u32(o, cp->stage_len);
    g3d_state_put_bytes(o, cp->stage, cp->stage_len);
    save_decoder(o, &cp->dec);
    g3d_state_put_u8(o, cp->dl_active);
    g3d_state_put_u32(o, cp->dl_addr);
    g3d_state_put_u32(o, cp->dl_size);
    g3d_state_put_u32(o, cp->dl_pos);
    save_decoder(o, &cp->dl_dec);
}

static void save_io(FlipperCore *c, G3DStateOut *o)
{
    const FlipperPI *pi = &c->pi;
    const FlipperSI *si = &c->si;
    const FlipperEXI *exi = &c->exi;
    const FlipperAI *ai = &c->ai;

    g3d_state_put_u32(o, pi->intmr);
    g3d_state_put_u32(o, pi->error);
    g3d_state_put_u32(o, pi->fifo_base);
    g3d_state_put_u32(o, pi->fifo_end);
    g3d_state_put_u32(o, pi->fifo_wptr);
    g3d_state_put_u8(o, pi->wrap);
    g3d_state_put_u32(o, pi->gather_len);
    g3d_state_put_bytes(o, pi->gather, pi->gather_len);
    g3d_state_put_u32(o, pi->reset_code);
    g3d_state_put_u32(o, pi->unk30);

    put_u16s(o, c->pe.mmio, G_N_ELEMENTS(c->pe.mmio));
    g3d_state_put_u8(o, c->pe.token_en);
    g3d_state_put_u8(o, c->pe.finish_en);
    g3d_state_put_u8(o, c->pe.token_int);
    g3d_state_put_u8(o, c->pe.finish_int);
    g3d_state_put_u16(o, c->pe.token);
    g3d_state_put_u32s(o, (const uint32_t *)c->pe.bbox, 4);

    put_u16s(o, c->vi.regs, G_N_ELEMENTS(c->vi.regs));
    g3d_state_put_u64(o, c->vi.last_ns);
    g3d_state_put_u64(o, c->vi.sample);
    g3d_state_put_u8(o, c->vi.scaler_logged);
    put_u16s(o, c->mi.regs, G_N_ELEMENTS(c->mi.regs));
    put_u16s(o, c->dsp.regs, G_N_ELEMENTS(c->dsp.regs));
    g3d_state_put_u16(o, c->dsp.csr);
    g3d_state_put_u8(o, c->dsp.aram != NULL);
    if (c->dsp.aram) {
        g3d_state_put_bytes(o, c->dsp.aram, FLIPPER_ARAM_SIZE);
    }
    g3d_state_put_u32s(o, c->di.regs, G_N_ELEMENTS(c->di.regs));
    g3d_state_put_u32s(o, si->outbuf, 4);
    g3d_state_put_u32s(o, si->inbuf_h, 4);
    g3d_state_put_u32s(o, si->inbuf_l, 4);
    g3d_state_put_u32(o, si->poll);
    g3d_state_put_u32(o, si->comcsr);
    g3d_state_put_u32(o, si->sr);
    g3d_state_put_u32(o, si->exilk);
    g3d_state_put_bytes(o, si->iobuf, sizeof(si->iobuf));
    g3d_state_put_u32s(o, exi->csr, EXI_CHANNELS);
    g3d_state_put_u32s(o, exi->mar, EXI_CHANNELS);
    g3d_state_put_u32s(o, exi->len, EXI_CHANNELS);
    g3d_state_put_u32s(o, exi->cr, EXI_CHANNELS);
    g3d_state_put_u32s(o, exi->data, EXI_CHANNELS);
    g3d_state_put_u32(o, ai->cr);
    g3d_state_put_u32(o, ai->vr);
    g3d_state_put_u32(o, ai->scnt);
    g3d_state_put_u32(o, ai->it);
    g3d_state_put_u64(o, ai->last_ns);
    g3d_state_put_u64(o, ai->frac);
}

static void save_vertex(G3DStateOut *o, const GXVertex *v)
{
    g3d_state_put_f32s(o, v->mv, 3);
    g3d_state_put_f32s(o, v->proj, 4);
    g3d_state_put_f32s(o, v->screen, 3);
    g3d_state_put_f32s(o, &v->normal[0][0], 9);
    g3d_state_put_bytes(o, v->col, sizeof(v->col));
    g3d_state_put_f32s(o, &v->tex[0][0], 8 * 3);
}

static void save_gx(FlipperCore *c, G3DStateOut *o)
{
    const GXSlope *z = &c->zfreeze;
    int i, j;

    g3d_state_put_u32s(o, c->bp, 256);
    g3d_state_put_u32(o, c->bp_mask);
    g3d_state_put_u32s(o, c->cpr, 256);
    g3d_state_put_u32s(o, c->xf, XF_MEM_WORDS + XF_REG_COUNT);
    for (i = 0; i < 4; i++) {
        for (j = 0; j < 4; j++) {
            g3d_state_put_u16(o, c->tev_reg[i][j]);
            g3d_state_put_u16(o, c->tev_konst[i][j]);
        }
    }
    g3d_state_put_bytes(o, c->tmem, FLIPPER_TMEM_SIZE);
    g3d_state_put_u32(o, c->su.prim);
    g3d_state_put_u32(o, c->su.count);
    for (i = 0; i < 4; i++) {
        save_vertex(o, &c->su.v[i]);
    }
    g3d_state_put_f32(o, z->f0);
    g3d_state_put_f32(o, z->dfdx);
    g3d_state_put_f32(o, z->dfdy);
    g3d_state_put_u32(o, z->x0);
    g3d_state_put_u32(o, z->y0);
    g3d_state_put_f32(o, z->xoff);
    g3d_state_put_f32(o, z->yoff);
    g3d_state_put_u32s(o, c->efb_color, EFB_W * EFB_H);
    g3d_state_put_u32s(o, c->efb_depth, EFB_W * EFB_H);
    g3d_error_save(&c->errors, o);
}

void flipper_state_save(FlipperCore *c, G3DStateOut *o)
{
    /* quiescent means nothing queued, but a caller may not have worked */
    flipper_flush(c);
    g3d_state_begin(o, FLIPPER_STATE_MAGIC, FLIPPER_STATE_VERSION);
    g3d_state_put_u64(o, c->now_ns);
    save_cp(c, o);
    save_io(c, o);
    save_gx(c, o);
    g3d_state_put_u64(o, c->stats.commands);
    g3d_state_put_u64(o, c->stats.vertices);
    g3d_state_put_u64(o, c->stats.triangles);
    g3d_state_put_u64(o, c->stats.pixels);
    g3d_state_put_u64(o, c->stats.efb_copies);
}

/* ---- load --------------------------------------------------------------- */

static uint32_t get_fifo_ptr(G3DStateIn *in, const char *what)
{
    uint32_t v = g3d_state_get_u32(in);

    if (in->ok && (v & ~FLIPPER_FIFO_PTR_MASK)) {
        g3d_state_fail(in, "saved %s 0x%08x is not a FIFO address", what, v);
        return 0;
    }
    return v;
}

static void load_decoder(G3DStateIn *in, GXDecoder *d)
{
    d->in_draw = g3d_state_get_bool(in);
    d->prim = g3d_state_get_u8(in);
    d->vat = g3d_state_get_u8(in);
    d->left = g3d_state_get_index(in, 0x10000, "vertices left in a draw");
    g3d_state_check(in, d->prim < 8 && d->vat < 8,
                    "saved draw has no such primitive or vertex format");
}

static void load_cp(FlipperCore *c, G3DStateIn *in)
{
    FlipperCP *cp = &c->cp;

    cp->cr = g3d_state_get_u16(in);
    cp->ovf = g3d_state_get_bool(in);
    cp->unf = g3d_state_get_bool(in);
    cp->bp_hit = g3d_state_get_bool(in);
    cp->token = g3d_state_get_u16(in);
    cp->perf_sel = g3d_state_get_u16(in);
    cp->base = get_fifo_ptr(in, "FIFO base");
    cp->end = get_fifo_ptr(in, "FIFO end");
    cp->hiwm = get_fifo_ptr(in, "FIFO high watermark");
    cp->lowm = get_fifo_ptr(in, "FIFO low watermark");
    cp->dist = g3d_state_get_u32(in);
    cp->wptr = get_fifo_ptr(in, "FIFO write pointer");
    cp->rptr = get_fifo_ptr(in, "FIFO read pointer");
    cp->bp = get_fifo_ptr(in, "FIFO breakpoint");
    cp->fault = g3d_state_get_bool(in);
    cp->stage_len = g3d_state_get_index(in, CP_STAGE_SIZE + 1,
                                        "fetched FIFO byte count");
    g3d_state_get_bytes(in, cp->stage, cp->stage_len);
    load_decoder(in, &cp->dec);
    cp->dl_active = g3d_state_get_bool(in);
    cp->dl_addr = g3d_state_get_u32(in);
    cp->dl_size = g3d_state_get_u32(in);
    cp->dl_pos = g3d_state_get_u32(in);
    /* what the CALL_DL checked when the list was called (cp-decode.c) */
    g3d_state_check(in, !cp->dl_active ||
                    (flipper_mem1_ok(c, cp->dl_addr, cp->dl_size) &&
                     cp->dl_pos <= cp->dl_size),
                    "saved display list position is outside MEM1 or its list");
    load_decoder(in, &cp->dl_dec);
}

static void load_io(FlipperCore *c, G3DStateIn *in)
{
    FlipperPI *pi = &c->pi;
    FlipperSI *si = &c->si;
    FlipperEXI *exi = &c->exi;
    FlipperAI *ai = &c->ai;
    bool aram;

    pi->intmr = g3d_state_get_u32(in);
    pi->error = g3d_state_get_u32(in);
    pi->fifo_base = get_fifo_ptr(in, "PI FIFO base");
    pi->fifo_end = get_fifo_ptr(in, "PI FIFO end");
    pi->fifo_wptr = get_fifo_ptr(in, "PI FIFO write pointer");
    pi->wrap = g3d_state_get_bool(in);
    pi->gather_len = g3d_state_get_index(in, FLIPPER_WGP_SIZE,
                                         "gather pipe byte count");
    g3d_state_get_bytes(in, pi->gather, pi->gather_len);
    pi->reset_code = g3d_state_get_u32(in);
    pi->unk30 = g3d_state_get_u32(in);

    get_u16s(in, c->pe.mmio, G_N_ELEMENTS(c->pe.mmio));
    c->pe.token_en = g3d_state_get_bool(in);
    c->pe.finish_en = g3d_state_get_bool(in);
    c->pe.token_int = g3d_state_get_bool(in);
    c->pe.finish_int = g3d_state_get_bool(in);
    c->pe.token = g3d_state_get_u16(in);
    g3d_state_get_u32s(in, (uint32_t *)c->pe.bbox, 4);

    get_u16s(in, c->vi.regs, G_N_ELEMENTS(c->vi.regs));
    c->vi.last_ns = g3d_state_get_u64(in);
    c->vi.sample = g3d_state_get_u64(in);
    c->vi.scaler_logged = g3d_state_get_bool(in);
    get_u16s(in, c->mi.regs, G_N_ELEMENTS(c->mi.regs));
    get_u16s(in, c->dsp.regs, G_N_ELEMENTS(c->dsp.regs));
    c->dsp.csr = g3d_state_get_u16(in);
    aram = g3d_state_get_bool(in);
    if (aram && in->ok) {
        /* the reset core has none: ARAM comes with the first DMA */
        c->dsp.aram = g_malloc(FLIPPER_ARAM_SIZE);
        g3d_state_get_bytes(in, c->dsp.aram, FLIPPER_ARAM_SIZE);
    }
    g3d_state_get_u32s(in, c->di.regs, G_N_ELEMENTS(c->di.regs));
    g3d_state_get_u32s(in, si->outbuf, 4);
    g3d_state_get_u32s(in, si->inbuf_h, 4);
    g3d_state_get_u32s(in, si->inbuf_l, 4);
    si->poll = g3d_state_get_u32(in);
    si->comcsr = g3d_state_get_u32(in);
    si->sr = g3d_state_get_u32(in);
    si->exilk = g3d_state_get_u32(in);
    g3d_state_get_bytes(in, si->iobuf, sizeof(si->iobuf));
    g3d_state_get_u32s(in, exi->csr, EXI_CHANNELS);
    g3d_state_get_u32s(in, exi->mar, EXI_CHANNELS);
    g3d_state_get_u32s(in, exi->len, EXI_CHANNELS);
    g3d_state_get_u32s(in, exi->cr, EXI_CHANNELS);
    g3d_state_get_u32s(in, exi->data, EXI_CHANNELS);
    ai->cr = g3d_state_get_u32(in);
    ai->vr = g3d_state_get_u32(in);
    ai->scnt = g3d_state_get_u32(in);
    ai->it = g3d_state_get_u32(in);
    ai->last_ns = g3d_state_get_u64(in);
    ai->frac = g3d_state_get_u64(in);
    /* a remainder of one second of the sample clock (ai.c) */
    g3d_state_check(in, ai->frac < NS_PER_S,
                    "saved audio sample clock remainder is past a second");
}

static void load_vertex(G3DStateIn *in, GXVertex *v)
{
    g3d_state_get_f32s(in, v->mv, 3);
    g3d_state_get_f32s(in, v->proj, 4);
    g3d_state_get_f32s(in, v->screen, 3);
    g3d_state_get_f32s(in, &v->normal[0][0], 9);
    g3d_state_get_bytes(in, v->col, sizeof(v->col));
    g3d_state_get_f32s(in, &v->tex[0][0], 8 * 3);
}

static void load_gx(FlipperCore *c, G3DStateIn *in)
{
    GXSlope *z = &c->zfreeze;
    int i, j;

    g3d_state_get_u32s(in, c->bp, 256);
    c->bp_mask = g3d_state_get_u32(in);
    g3d_state_get_u32s(in, c->cpr, 256);
    g3d_state_get_u32s(in, c->xf, XF_MEM_WORDS + XF_REG_COUNT);
    for (i = 0; i < 4; i++) {
        for (j = 0; j < 4; j++) {
            c->tev_reg[i][j] = (int16_t)g3d_state_get_u16(in);
            c->tev_konst[i][j] = (int16_t)g3d_state_get_u16(in);
        }
    }
    g3d_state_get_bytes(in, c->tmem, FLIPPER_TMEM_SIZE);
    c->su.prim = g3d_state_get_index(in, 8, "setup primitive");
    c->su.count = g3d_state_get_u32(in);
    for (i = 0; i < 4; i++) {
        load_vertex(in, &c->su.v[i]);
    }
    z->f0 = g3d_state_get_f32(in);
    z->dfdx = g3d_state_get_f32(in);
    z->dfdy = g3d_state_get_f32(in);
    z->x0 = (int32_t)g3d_state_get_u32(in);
    z->y0 = (int32_t)g3d_state_get_u32(in);
    z->xoff = g3d_state_get_f32(in);
    z->yoff = g3d_state_get_f32(in);
    g3d_state_get_u32s(in, c->efb_color, EFB_W * EFB_H);
    g3d_state_get_u32s(in, c->efb_depth, EFB_W * EFB_H);
    g3d_error_load(&c->errors, in);
}

bool flipper_state_load(FlipperCore *c, G3DStateIn *in)
{
    FlipperStats st = { 0 };

    flipper_core_reset(c);
    /* the reset keeps ARAM (zeroed) and the counters: the stream says */
    flipper_dsp_free(c);
    memset(&c->stats, 0, sizeof(c->stats));
    if (g3d_state_expect(in, FLIPPER_STATE_MAGIC, FLIPPER_STATE_VERSION,
                         "flipper-gx")) {
        c->now_ns = (int64_t)g3d_state_get_u64(in);
        load_cp(c, in);
        load_io(c, in);
        load_gx(c, in);
        st.commands = g3d_state_get_u64(in);
        st.vertices = g3d_state_get_u64(in);
        st.triangles = g3d_state_get_u64(in);
        st.pixels = g3d_state_get_u64(in);
        st.efb_copies = g3d_state_get_u64(in);
    }
    if (!g3d_state_end(in)) {
        flipper_dsp_free(c);
        flipper_core_reset(c);
        memset(&c->stats, 0, sizeof(c->stats));
        return false;
    }
    c->stats = st;
    /*
     * A draw's vertex layout, from the CP registers it was taken from: they
     * cannot change during a draw (no command runs until it ends).
     */
    if (c->cp.dec.in_draw) {
        flipper_vtx_format(c, c->cp.dec.vat, &c->cp.dec.fmt);
    }
    if (c->cp.dl_dec.in_draw) {
        flipper_vtx_format(c, c->cp.dl_dec.vat, &c->cp.dl_dec.fmt);
    }
    /* derived state: the TEV fast path is decided again */
    c->tev_fast_dirty = true;
    /* the line follows the restored status; the glue reads it after load */
    c->irq_level = flipper_irq_wanted(c);
    return true;
}
