/*
 * BP registers: storage with the BP mask, and the registers whose write
 * does something (YAGCD §5.11.1 BP registers, §5.1.1 token register,
 * §5.2 PE interrupts).
 *
 * Every BP write first rasterises the queued triangles: they were set up
 * under the state the write is about to change.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "flipper-int.h"

void flipper_bp_write(FlipperCore *c, uint32_t word)
{
    uint8_t addr = word >> 24;
    uint32_t val = word & 0xFFFFFF;
    uint32_t newval;

    flipper_flush(c);
    if (addr == BP_MASK) {
        /* limits which bits the next BP write changes, then resets */
        c->bp_mask = val;
        c->bp[BP_MASK] = val;
        return;
    }
    newval = (c->bp[addr] & ~c->bp_mask) | (val & c->bp_mask);
    c->bp_mask = 0xFFFFFF;
    c->bp[addr] = newval;
    c->tev_fast_dirty = true;

    switch (addr) {
    case BP_SETDRAWDONE:
        if ((newval & 0xFF) == 0x02) {
            flipper_pe_draw_done(c);
        } else {
            g3d_guest_error("flipper: BP: PE_DONE value 0x%06x", newval);
        }
        break;
    case BP_PE_TOKEN:
        flipper_pe_token(c, newval & 0xFFFF, false);
        break;
    case BP_PE_TOKEN_INT:
        flipper_pe_token(c, newval & 0xFFFF, true);
        break;
    case BP_LOADTLUT1:
        flipper_tx_load_tlut(c);
        break;
    case BP_PRELOAD_MODE:
        if (newval) {
            flipper_tx_preload(c);
        }
        break;
    case BP_TRIGGER_EFB_COPY:
        flipper_pe_copy(c, newval);
        break;
    case BP_CLEARBBOX1:
        c->pe.bbox[0] = newval & 0x3FF;
        c->pe.bbox[1] = (newval >> 10) & 0x3FF;
        break;
    case BP_CLEARBBOX2:
        c->pe.bbox[2] = newval & 0x3FF;
        c->pe.bbox[3] = (newval >> 10) & 0x3FF;
        break;
    case BP_ZCOMPARE:
        if ((newval & 7) == PE_FMT_RGB565_Z16 && ((newval >> 3) & 7) > 3) {
            g3d_guest_error("flipper: BP: RGB565_Z16 Z format %u (4-7 are "
                            "not documented), taken as %u",
                            (newval >> 3) & 7, (newval >> 3) & 3);
        }
        if ((newval & 7) == PE_FMT_RGB565_Z16 && !c->logged_unimp_z16) {
            g3d_unimp("flipper: BP: RGB565_Z16: multisampling is not "
                      "modelled (one sample a pixel)");
            c->logged_unimp_z16 = true;
        } else if ((newval & 7) > PE_FMT_Z24) {
            g3d_unimp("flipper: BP: EFB pixel format %u (YUV) not modelled",
                      newval & 7);
        }
        break;
    default:
        if (addr >= BP_TEV_REGISTERL0 && addr < BP_TEV_REGISTERL0 + 8) {
            flipper_tev_reg_write(c, addr);
        }
        break;
    }
}
