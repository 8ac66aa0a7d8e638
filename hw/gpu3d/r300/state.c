/*
 * R300 engine core: the saved state (r300.h, r300_state_save/_load) for
 * savevm and migration. Only what the chip holds between two work() calls
 * is saved; what is decoded per draw (the PVS program, the draw-state
 * snapshot, texture units) is rebuilt by the next draw, and the cursor
 * image by the next scanout.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "r300-int.h"

#include <string.h>

#define R300_STATE_MAGIC    0x30303352u     /* "R300" */
#define R300_STATE_VERSION  2   /* 2: ZMASK, CMASK, HiZ of 2 pipes */

void r300_state_save(R300Core *c, G3DStateOut *o)
{
    const R300Crtc *cr = &c->crtc;
    const R300Ddc *d = &c->ddc;

    g3d_state_begin(o, R300_STATE_MAGIC, R300_STATE_VERSION);
    g3d_state_put_u32(o, c->cfg.vram_size);
    g3d_state_put_u32s(o, c->regs, R300_NUM_REGS);
    g3d_state_put_u32s(o, c->pll, R300_PLL_COUNT);

    /* CRTC: the page flip in progress, the frame counter, the palette */
    g3d_state_put_u32(o, cr->offset);
    g3d_state_put_u32(o, cr->offset_next);
    g3d_state_put_u8(o, cr->flip_locked);
    g3d_state_put_u8(o, cr->flip_pending);
    g3d_state_put_u32(o, cr->frame);
    g3d_state_put_u64(o, cr->vblank_ns);
    g3d_state_put_u32s(o, cr->palette, 256);

    /* the monitor's I2C state machine */
    g3d_state_put_u32(o, d->state);
    g3d_state_put_u8(o, d->scl);
    g3d_state_put_u8(o, d->sda);
    g3d_state_put_u8(o, d->out);
    g3d_state_put_u8(o, d->first);
    g3d_state_put_u8(o, d->reading);
    g3d_state_put_u8(o, d->master_ack);
    g3d_state_put_u8(o, d->shift);
    g3d_state_put_u8(o, d->ptr);
    g3d_state_put_u32(o, d->bits);

    /* CP: ring read pointer, indirect buffer in progress */
    g3d_state_put_u32(o, c->cp.rptr);
    g3d_state_put_u8(o, c->cp.ib_active);
    g3d_state_put_u32(o, c->cp.ib_base);
    g3d_state_put_u32(o, c->cp.ib_size);
    g3d_state_put_u32(o, c->cp.ib_pos);
    g3d_error_save(&c->errors, o);

    /* VAP: vector memory, upload pointer, a port draw being fed */
    g3d_state_put_u32s(o, &c->pvs_vmem[0][0], R300_PVS_VECTOR_OCTWORDS * 4);
    g3d_state_put_bytes(o, c->pvs_loaded, sizeof(c->pvs_loaded));
    g3d_state_put_u32(o, c->pvs_upload);
    g3d_state_put_u32(o, c->port_vf_cntl);
    g3d_state_put_u32(o, c->port_need);
    g3d_state_put_u32(o, c->port_count);
    g3d_state_put_u32s(o, c->port_data, c->port_need ? c->port_count : 0);

    g3d_state_put_u32s(o, c->zpass, 2);
    g3d_state_put_u32s(o, c->hiz_ram, G_N_ELEMENTS(c->hiz_ram));
    g3d_state_put_u32s(o, c->zmask_ram, G_N_ELEMENTS(c->zmask_ram));
    g3d_state_put_u32s(o, c->cmask_ram, G_N_ELEMENTS(c->cmask_ram));
}

/* The DDC state machine's states (ddc.c) */
#define R300_DDC_STATES     5

bool r300_state_load(R300Core *c, G3DStateIn *in)
{
    R300Crtc *cr = &c->crtc;
    R300Ddc *d = &c->ddc;
    uint32_t vram, ring;

    /* nothing in flight survives: from here the stream decides everything */
    r300_core_reset(c);
    if (!g3d_state_expect(in, R300_STATE_MAGIC, R300_STATE_VERSION, "r300")) {
        goto fail;
    }
    vram = g3d_state_get_u32(in);
    if (in->ok && vram != c->cfg.vram_size) {
        g3d_state_fail(in, "saved r300 state is for %u bytes of VRAM, this "
                       "device has %u", vram, (unsigned)c->cfg.vram_size);
    }
    g3d_state_get_u32s(in, c->regs, R300_NUM_REGS);
    g3d_state_get_u32s(in, c->pll, R300_PLL_COUNT);

    cr->offset = g3d_state_get_u32(in);
    cr->offset_next = g3d_state_get_u32(in);
    cr->flip_locked = g3d_state_get_bool(in);
    cr->flip_pending = g3d_state_get_bool(in);
    cr->frame = g3d_state_get_u32(in);
    cr->vblank_ns = (int64_t)g3d_state_get_u64(in);
    g3d_state_get_u32s(in, cr->palette, 256);

    d->state = g3d_state_get_index(in, R300_DDC_STATES, "r300 DDC state");
    d->scl = g3d_state_get_bool(in);
    d->sda = g3d_state_get_bool(in);
    d->out = g3d_state_get_bool(in);
    d->first = g3d_state_get_bool(in);
    d->reading = g3d_state_get_bool(in);
    d->master_ack = g3d_state_get_bool(in);
    d->shift = g3d_state_get_u8(in);
    d->ptr = g3d_state_get_u8(in);
    d->bits = g3d_state_get_u32(in);

    /*
     * The ring pointer must lie in the ring CP_RB_CNTL sizes (a bad size is
     * the guest's error, which the CP reports on its next step), and the
     * position in an indirect buffer inside that buffer.
     */
    ring = r300_cp_ring_dwords(c);
    c->cp.rptr = g3d_state_get_index(in, ring ? ring : 1,
                                     "r300 ring read pointer");
    c->cp.ib_active = g3d_state_get_bool(in);
    c->cp.ib_base = g3d_state_get_u32(in);
    c->cp.ib_size = g3d_state_get_index(in, 0x800000,
                                        "r300 indirect buffer size");
    c->cp.ib_pos = g3d_state_get_index(in, c->cp.ib_size + 1,
                                       "r300 indirect buffer position");
    g3d_error_load(&c->errors, in);
    if (in->ok && (c->cp.ib_base & 3)) {
        g3d_state_fail(in, "saved r300 indirect buffer base 0x%x is not "
                       "dword aligned", c->cp.ib_base);
    }

    g3d_state_get_u32s(in, &c->pvs_vmem[0][0], R300_PVS_VECTOR_OCTWORDS * 4);
    g3d_state_get_bytes(in, c->pvs_loaded, sizeof(c->pvs_loaded));
    c->pvs_upload = g3d_state_get_index(in, R300_PVS_VECTOR_OCTWORDS * 4,
                                        "r300 PVS upload pointer");
    c->port_vf_cntl = g3d_state_get_u32(in);
    c->port_need = g3d_state_get_index(in, R300_PORT_MAX_DWORDS + 1,
                                       "r300 VAP port draw size");
    c->port_count = g3d_state_get_index(in, c->port_need ? c->port_need : 1,
                                        "r300 VAP port dword count");
    if (in->ok && c->port_need) {
        /* no allocation past what the stream still holds */
        if ((size_t)c->port_count * 4 > in->len - in->pos) {
            g3d_state_fail(in, "saved state ends inside the r300 VAP port "
                           "data");
        } else if (c->port_need > c->port_cap) {
            c->port_data = g_renew(uint32_t, c->port_data, c->port_need);
            c->port_cap = c->port_need;
        }
        g3d_state_get_u32s(in, c->port_data, in->ok ? c->port_count : 0);
    }

    g3d_state_get_u32s(in, c->zpass, 2);
    g3d_state_get_u32s(in, c->hiz_ram, G_N_ELEMENTS(c->hiz_ram));
    g3d_state_get_u32s(in, c->zmask_ram, G_N_ELEMENTS(c->zmask_ram));
    g3d_state_get_u32s(in, c->cmask_ram, G_N_ELEMENTS(c->cmask_ram));
    if (!g3d_state_end(in)) {
        goto fail;
    }
    /* derived: the interrupt line from the restored status and enables */
    r300_update_irq(c);
    return true;

fail:
    r300_core_reset(c);
    return false;
}
