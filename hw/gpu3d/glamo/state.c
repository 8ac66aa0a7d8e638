/*
 * Glamo core: the saved state (glamo.h, glamo_state_save/_load) for savevm
 * and migration. What setup and the back end decode from the registers
 * (the render state, texture formats) is rebuilt by the next primitive.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "glamo-int.h"

#include <string.h>

#define GLAMO_STATE_MAGIC   0x4f4d4c47u     /* "GLMO" */
#define GLAMO_STATE_VERSION 1

/* the floats of a kept vertex, in order */
#define CLIPV_FLOATS  (sizeof(GlamoClipVertex) / sizeof(float))

void glamo_state_save(GlamoCore *c, G3DStateOut *o)
{
    const GlamoCmdq *q = &c->cmdq;
    unsigned i;

    /* queued triangles are drawn now: the rasteriser's batch is not saved */
    glamo_flush(c);
    g3d_state_begin(o, GLAMO_STATE_MAGIC, GLAMO_STATE_VERSION);
    g3d_state_put_u32(o, c->vram_size);
    for (i = 0; i < GLAMO_NREGS; i++) {
        g3d_state_put_u16(o, c->regs[i]);
    }
    for (i = 0; i < 256; i++) {
        g3d_state_put_u16(o, c->tx1_palette[i]);
    }
    /* the 3D queue, oldest first */
    g3d_state_put_u32(o, c->q_count);
    for (i = 0; i < c->q_count; i++) {
        const GlamoQueueEntry *e =
            &c->queue[(c->q_head + i) % GLAMO_QUEUE_SIZE];
        g3d_state_put_u16(o, e->off);
        g3d_state_put_u16(o, e->val);
    }
    g3d_error_save(&c->errors, o);
    g3d_state_put_u8(o, c->last_drawdir);

    g3d_state_put_u8(o, q->valid);
    g3d_state_put_u32(o, q->base);
    g3d_state_put_u32(o, q->size);
    g3d_state_put_u32(o, q->rptr);
    g3d_state_put_u32(o, q->wptr);
    g3d_state_put_u32(o, q->burst_reg);
    g3d_state_put_u32(o, q->burst_left);
    g3d_state_put_u8(o, q->burst_pad);
    g3d_state_put_u8(o, q->error);
    g3d_state_put_u8(o, q->was_busy);

    g3d_state_put_u8(o, c->parser.active);
    g3d_state_put_u8(o, c->parser.indexed);
    g3d_state_put_u32(o, c->parser.next);
    g3d_state_put_u32(o, c->parser.total);
    g3d_state_put_u32(o, c->asmb.count);
    for (i = 0; i < 2; i++) {
        g3d_state_put_f32s(o, (const float *)&c->asmb.v[i], CLIPV_FLOATS);
    }
    g3d_state_put_f32(o, c->asmb.stipple_count);
}

bool glamo_state_load(GlamoCore *c, G3DStateIn *in)
{
    GlamoCmdq *q = &c->cmdq;
    uint32_t vram, n;
    unsigned i;

    glamo_core_reset(c);
    if (!g3d_state_expect(in, GLAMO_STATE_MAGIC, GLAMO_STATE_VERSION,
                          "glamo")) {
        goto fail;
    }
    vram = g3d_state_get_u32(in);
    if (in->ok && vram != c->vram_size) {
        g3d_state_fail(in, "saved glamo state is for %u bytes of VRAM, this "
                       "device has %u", vram, c->vram_size);
    }
    for (i = 0; i < GLAMO_NREGS; i++) {
        c->regs[i] = g3d_state_get_u16(in);
    }
    for (i = 0; i < 256; i++) {
        c->tx1_palette[i] = g3d_state_get_u16(in);
    }
    n = g3d_state_get_index(in, GLAMO_QUEUE_SIZE + 1, "glamo 3D queue count");
    for (i = 0; i < n && in->ok; i++) {
        GlamoQueueEntry *e = &c->queue[i];

        e->off = g3d_state_get_u16(in);
        e->val = g3d_state_get_u16(in);
        /* the queue holds writes to the 3D registers only */
        if (in->ok && (!glamo_is_3d(e->off) || (e->off & 1))) {
            g3d_state_fail(in, "saved glamo 3D queue entry writes 0x%x, not "
                           "a 3D register", e->off);
        }
    }
    c->q_head = 0;
    c->q_count = in->ok ? n : 0;
    g3d_error_load(&c->errors, in);
    c->last_drawdir = g3d_state_get_bool(in);

    q->valid = g3d_state_get_bool(in);
    q->base = g3d_state_get_u32(in);
    q->size = g3d_state_get_u32(in);
    q->rptr = g3d_state_get_u32(in);
    q->wptr = g3d_state_get_u32(in);
    q->burst_reg = g3d_state_get_u32(in);
    q->burst_left = g3d_state_get_u32(in);
    q->burst_pad = g3d_state_get_bool(in);
    q->error = g3d_state_get_bool(in);
    q->was_busy = g3d_state_get_bool(in);
    /*
     * The queue reads VRAM at base + rptr directly: a valid ring lies in
     * VRAM, both pointers inside it and even; a burst stays inside the
     * register space (glamo_cmdq_step's own checks).
     */
    if (in->ok && q->valid &&
        (q->size < 2 || !g3d_range_ok(q->base, q->size, 0, c->vram_size))) {
        g3d_state_fail(in, "saved glamo command queue 0x%x+0x%x is outside "
                       "VRAM", q->base, q->size);
    }
    if (in->ok && q->valid && (q->rptr >= q->size || q->wptr >= q->size ||
                               ((q->rptr | q->wptr) & 1))) {
        g3d_state_fail(in, "saved glamo command queue pointers 0x%x/0x%x "
                       "are past the 0x%x-byte queue", q->rptr, q->wptr,
                       q->size);
    }
    if (in->ok && (q->burst_reg & 1 ||
                   (uint64_t)q->burst_reg + 2ull * q->burst_left >
                   GLAMO_REG_SIZE || (q->burst_left && !q->valid))) {
        g3d_state_fail(in, "saved glamo burst of %u words at 0x%x runs past "
                       "the register space", q->burst_left, q->burst_reg);
    }

    c->parser.active = g3d_state_get_bool(in);
    c->parser.indexed = g3d_state_get_bool(in);
    c->parser.next = g3d_state_get_u32(in);
    c->parser.total = g3d_state_get_u32(in);
    if (in->ok && (c->parser.next > c->parser.total ||
                   c->parser.total >= 1u << 20)) {
        g3d_state_fail(in, "saved glamo parser is at vertex %u of %u",
                       c->parser.next, c->parser.total);
    }
    c->asmb.count = g3d_state_get_u32(in);
    for (i = 0; i < 2; i++) {
        g3d_state_get_f32s(in, (float *)&c->asmb.v[i], CLIPV_FLOATS);
    }
    c->asmb.stipple_count = g3d_state_get_f32(in);
    if (!g3d_state_end(in)) {
        goto fail;
    }
    /* derived: decoded again at the next primitive; the LCD redrawn */
    c->rs = NULL;
    c->rs_dirty = true;
    c->lcd_dirty = true;
    if (c->cfg.hooks.irq_update) {
        c->cfg.hooks.irq_update(c->cfg.hooks.opaque);
    }
    return true;

fail:
    /* a reset keeps glamo's error count (GlamoStats); a refused load does
     * not leave the stream's count behind */
    g3d_error_reset(&c->errors);
    glamo_core_reset(c);
    return false;
}
