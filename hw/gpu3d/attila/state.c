/*
 * attila-3d: the saved state (attila.h, attila_state_save/_load) for
 * savevm and migration. The decoded instruction memory is decoded again
 * from the raw one; the per-draw state is rebuilt by the next draw.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "attila-int.h"

#define ATTILA_STATE_MAGIC      0x414c5441u     /* "ATLA" */
#define ATTILA_STATE_VERSION    1
#define RING_MIN_SIZE 64u           /* command-processor.c's bounds */
#define RING_MAX_SIZE (1u << 30)

static size_t rf_total(void)
{
    size_t total = 0;
    int id;

    for (id = 0; id < ATTILA_REG_LAST_REGISTER; id++) {
        total += attila_reg_info[id].stored;
    }
    return total;
}

void attila_state_save(AttilaCore *c, G3DStateOut *o)
{
    const AttilaDisplay *d = &c->display;
    size_t total = rf_total(), i;

    attila_core_idle(c);        /* a tool's save right after a draw */
    g3d_state_begin(o, ATTILA_STATE_MAGIC, ATTILA_STATE_VERSION);
    /* BAR0 */
    g3d_error_save(&c->errors, o);
    g3d_state_put_u32(o, c->frame);
    g3d_state_put_u32(o, c->records);
    g3d_state_put_u32(o, c->ring_base);
    g3d_state_put_u32(o, c->ring_size);
    g3d_state_put_u32(o, c->ring_read);
    g3d_state_put_u32(o, c->ring_write);
    g3d_state_put_u8(o, c->ring_enable);
    g3d_state_put_u64(o, c->sysmem_base);
    g3d_state_put_u32(o, c->sysmem_size);
    g3d_state_put_u32(o, c->event_count);
    g3d_state_put_u32(o, c->last_event);
    g3d_state_put_u32(o, c->fence);
    g3d_state_put_u32(o, c->int_status);
    g3d_state_put_u32(o, c->int_mask);
    g3d_state_put_u32(o, c->regfile_select);

    /* GPU: status, register file, shader memories */
    g3d_state_put_u32(o, c->gpu_status);
    g3d_state_put_u32(o, total);
    for (i = 0; i < total; i++) {
        g3d_state_put_bytes(o, c->rf_store[i].b, 16);
    }
    g3d_state_put_bytes(o, c->imem_raw, sizeof(c->imem_raw));
    for (i = 0; i < ATTILA_SH_CONSTS; i++) {
        g3d_state_put_u32s(o, c->vconst[i].u, 4);
        g3d_state_put_u32s(o, c->fconst[i].u, 4);
    }

    /* the display and the DAC's picture of the last swap */
    g3d_state_put_u8(o, d->valid);
    g3d_state_put_u32(o, d->address);
    g3d_state_put_u32(o, d->width);
    g3d_state_put_u32(o, d->height);
    g3d_state_put_u32(o, d->format);
    g3d_state_put_u32(o, d->samples);
    g3d_state_put_u8(o, d->d3d9_pixel);
    g3d_state_put_u8(o, d->shown);
    if (d->shown) {
        g3d_state_put_u32s(o, c->screen, (size_t)d->width * d->height);
    }
}

/* a reset that also clears what CONTROL.RESET keeps (the constants) */
static void load_reset(AttilaCore *c)
{
    attila_core_reset(c);
    memset(c->vconst, 0, sizeof(c->vconst));
    memset(c->fconst, 0, sizeof(c->fconst));
}

bool attila_state_load(AttilaCore *c, G3DStateIn *in)
{
    AttilaDisplay *d = &c->display;
    size_t total = rf_total(), i, at;
    int id;

    attila_core_idle(c);
    load_reset(c);
    if (!g3d_state_expect(in, ATTILA_STATE_MAGIC, ATTILA_STATE_VERSION,
                          "attila")) {
        goto fail;
    }
    g3d_error_load(&c->errors, in);
    c->frame = g3d_state_get_u32(in);
    c->records = g3d_state_get_u32(in);
    c->ring_base = g3d_state_get_u32(in);
    c->ring_size = g3d_state_get_u32(in);
    c->ring_read = g3d_state_get_u32(in);
    c->ring_write = g3d_state_get_u32(in);
    c->ring_enable = g3d_state_get_bool(in);
    /* the ring's size as RING_SIZE accepts it, both pointers inside it */
    if (in->ok && c->ring_size != 0 &&
        (c->ring_size < RING_MIN_SIZE || c->ring_size > RING_MAX_SIZE)) {
        g3d_state_fail(in, "saved attila ring size %u is out of range",
                       c->ring_size);
    }
    if (in->ok && (c->ring_size ? c->ring_read >= c->ring_size ||
                                  c->ring_write >= c->ring_size
                                : c->ring_read || c->ring_write)) {
        g3d_state_fail(in, "saved attila ring pointers %u/%u are past the "
                       "%u-byte ring", c->ring_read, c->ring_write,
                       c->ring_size);
    }
    c->sysmem_base = g3d_state_get_u64(in);
    c->sysmem_size = g3d_state_get_u32(in);
    c->event_count = g3d_state_get_u32(in);
    c->last_event = g3d_state_get_u32(in);
    c->fence = g3d_state_get_u32(in);
    c->int_status = g3d_state_get_u32(in);
    c->int_mask = g3d_state_get_u32(in);
    c->regfile_select = g3d_state_get_u32(in);

    c->gpu_status = g3d_state_get_u32(in);
    if (g3d_state_get_u32(in) != total && in->ok) {
        g3d_state_fail(in, "saved attila register file is not this build's "
                       "(%zu values)", total);
    }
    for (i = 0; i < total && in->ok; i++) {
        g3d_state_get_bytes(in, c->rf_store[i].b, 16);
    }
    /* every value one REG_WRITE could have stored */
    for (id = 0, at = 0; id < ATTILA_REG_LAST_REGISTER && in->ok; id++) {
        for (i = 0; i < attila_reg_info[id].stored && in->ok; i++, at++) {
            if (!attila_register_value_valid(id, i, &c->rf_store[at])) {
                g3d_state_fail(in, "saved attila register GPU_%s[%zu] = 0x%x is "
                               "not a valid value", attila_reg_info[id].name,
                               i, c->rf_store[at].u[0]);
            }
        }
    }
    g3d_state_get_bytes(in, c->imem_raw, sizeof(c->imem_raw));
    for (i = 0; i < ATTILA_SH_CONSTS; i++) {
        g3d_state_get_u32s(in, c->vconst[i].u, 4);
        g3d_state_get_u32s(in, c->fconst[i].u, 4);
    }

    d->valid = g3d_state_get_bool(in);
    d->address = g3d_state_get_u32(in);
    d->width = g3d_state_get_u32(in);
    d->height = g3d_state_get_u32(in);
    d->format = g3d_state_get_u32(in);
    d->samples = g3d_state_get_u32(in);
    d->d3d9_pixel = g3d_state_get_bool(in);
    d->shown = g3d_state_get_bool(in);
    if (in->ok && d->shown) {
        /* a picture the DAC could have taken, all of it in the stream */
        if (d->width == 0 || d->height == 0 ||
            d->width > G3D_SCANOUT_MAX_DIM || d->height > G3D_SCANOUT_MAX_DIM) {
            g3d_state_fail(in, "saved attila picture is %ux%u", d->width,
                           d->height);
        } else if ((uint64_t)d->width * d->height * 4 > in->len - in->pos) {
            g3d_state_fail(in, "saved state ends inside the attila picture");
        } else {
            attila_dac_screen_alloc(c, d->width, d->height);
            g3d_state_get_u32s(in, c->screen, (size_t)d->width * d->height);
        }
    }
    if (!g3d_state_end(in)) {
        goto fail;
    }
    for (i = 0; i < ATTILA_INSTRUCTION_MEMORY; i++) {
        attila_shader_decode(c->imem_raw[i], &c->imem[i]);
    }
    if (c->cfg.hooks.irq_update) {
        c->cfg.hooks.irq_update(c->cfg.hooks.opaque);
    }
    if (c->cfg.hooks.display_update) {
        c->cfg.hooks.display_update(c->cfg.hooks.opaque);
    }
    return true;

fail:
    load_reset(c);
    return false;
}
