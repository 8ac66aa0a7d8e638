/*
 * CP command decoder: the GX packets of the FIFO and display lists
 * (YAGCD §5.11.5 GP packets), the CP-internal registers (YAGCD §5.11.2 CP
 * registers) and indexed XF loads.
 *
 * Decisions where the reference is silent or wrong (YAGCD §5.11.5 GP packets;
 * docs/flipper-gx.md decisions):
 * - XF load (0x10) takes ((w >> 16) & 15) + 1 words, as Dolphin: at most 16.
 * - CALL_DL sizes are bytes (libogc). A CALL_DL inside a display list is
 *   ignored and logged (Dolphin does not nest lists), so a list calling
 *   itself ends.
 * - 0x44 (metrics) and 0x48 (invalidate vertex cache) are one-byte no-ops;
 *   0x88 draws quads. Any other unknown byte is a GP error (PI INTSR bit 0)
 *   and is skipped.
 * - CP-internal registers are decoded by their high nibble, as Dolphin does:
 *   one VCD (0x50/0x60), VATs by the low 3 bits, arrays by the low 4 bits.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "flipper-int.h"

/* XF power-on values (doc 5.11.4: Error, InVertexSpec, materials, channels,
 * DualTexTrans) */
static void xf_defaults(FlipperCore *c)
{
    c->xf[XF_REG_ERROR] = 0x3F;
    c->xf[XF_REG_INVTXSPEC] = 0x01;
    c->xf[XF_REG_MATERIAL0] = 0xFFFFFFFF;
    c->xf[XF_REG_MATERIAL0 + 1] = 0xFFFFFFFF;
    c->xf[XF_REG_COLOR0CNTRL] = 0x0401;
    c->xf[XF_REG_COLOR0CNTRL + 1] = 0x0401;
    c->xf[XF_REG_COLOR0CNTRL + 2] = 0x0401;
    c->xf[XF_REG_COLOR0CNTRL + 3] = 0x0401;
    c->xf[XF_REG_DUALTEX] = 0x01;
}

void flipper_gx_reset_regs(FlipperCore *c)
{
    memset(c->bp, 0, sizeof(c->bp));
    memset(c->cpr, 0, sizeof(c->cpr));
    memset(c->xf, 0, sizeof(c->xf));
    c->bp_mask = 0xFFFFFF;
    c->tev_fast_dirty = true;
    xf_defaults(c);
    flipper_tev_reg_write(c, 0xFF);   /* TEV register copies from BP */
}

void flipper_cpr_write(FlipperCore *c, uint8_t reg, uint32_t val)
{
    uint8_t idx;

    switch (reg & 0xF0) {
    case 0x20:
        idx = reg;          /* perf/metric select: kept */
        break;
    case CPR_MATINDEX_A:
    case CPR_MATINDEX_B:
    case CPR_VCD_LO:
    case CPR_VCD_HI:
        idx = reg & 0xF0;
        break;
    case CPR_VAT_A:
    case CPR_VAT_B:
    case CPR_VAT_C:
        idx = reg & 0xF7;
        break;
    case CPR_ARRAY_BASE:
    case CPR_ARRAY_STRIDE:
        idx = reg;
        break;
    default:
        g3d_error(&c->errors, FLIPPER_ERR_GP, 0,
                  "flipper: CP: load of unknown CP register 0x%02x", reg);
        return;
    }
    c->cpr[idx] = val;
}

/* Indexed XF load A-D: XF[addr..] = MEM1[ARRAY_BASE + index * STRIDE]. */
static void xf_indexed_load(FlipperCore *c, int n, uint32_t w)
{
    uint32_t index = w >> 16;
    uint32_t count = ((w >> 12) & 15) + 1;
    uint32_t addr = w & 0xFFF;
    uint32_t base = c->cpr[CPR_ARRAY_BASE + CP_ARRAY_XF_A + n] & 0x03FFFFFF;
    uint32_t stride = c->cpr[CPR_ARRAY_STRIDE + CP_ARRAY_XF_A + n] & 0xFF;
    uint64_t src = (uint64_t)base + (uint64_t)index * stride;
    uint8_t buf[16 * 4];
    uint32_t i;

    if (!flipper_mem1_ok(c, src, count * 4) ||
        !g3d_mem_read(&c->cfg.vram, src, buf, count * 4)) {
        g3d_guest_error("flipper: CP: indexed XF load %c: 0x%08" G_GINT64_MODIFIER
                        "x + %u words outside MEM1", 'A' + n, src, count);
        return;
    }
    for (i = 0; i < count; i++) {
        flipper_xf_write(c, addr + i, be32(buf + 4 * i));
    }
}

static void call_dl(FlipperCore *c, uint32_t addr, uint32_t size, bool in_dl)
{
    FlipperCP *cp = &c->cp;

    if (in_dl) {
        g3d_guest_error("flipper: CP: CALL_DL 0x%08x inside a display list "
                        "ignored (lists do not nest)", addr);
        return;
    }
    if (size == 0) {
        return;
    }
    if (!flipper_mem1_ok(c, addr, size)) {
        g3d_error(&c->errors, FLIPPER_ERR_GP, 0,
                  "flipper: CP: display list 0x%08x + 0x%x outside MEM1",
                  addr, size);
        return;
    }
    cp->dl_active = true;
    cp->dl_addr = addr;
    cp->dl_size = size;
    cp->dl_pos = 0;
    memset(&cp->dl_dec, 0, sizeof(cp->dl_dec));
}

/* bytes of the command starting at buf[0]; 0 if unknown; -1 if the length
 * is not known yet (need more bytes) */
static long command_size(const uint8_t *buf, size_t len)
{
    uint8_t op = buf[0];

    if (GX_OPCODE_IS_DRAW(op)) {
        return 3;
    }
    switch (op) {
    case GX_NOP:
    case GX_UNKNOWN_METRICS:
    case GX_INVL_VC:
        return 1;
    case GX_LOAD_CP_REG:
        return 6;
    case GX_LOAD_XF_REG:
        if (len < 5) {
            return -1;
        }
        return 5 + 4 * (((be32(buf + 1) >> 16) & 15) + 1);
    case GX_LOAD_INDX_A:
    case GX_LOAD_INDX_B:
    case GX_LOAD_INDX_C:
    case GX_LOAD_INDX_D:
    case GX_LOAD_BP_REG:
        return 5;
    case GX_CALL_DL:
        return 9;
    default:
        return 0;
    }
}

static void begin_draw(FlipperCore *c, GXDecoder *d, uint8_t op, uint16_t n)
{
    if (n == 0) {
        return;
    }
    d->in_draw = true;
    d->prim = GX_DRAW_PRIM(op);
    d->vat = GX_DRAW_VAT(op);
    d->left = n;
    d->cost16 = 0;
    flipper_vtx_format(c, d->vat, &d->fmt);
    flipper_su_begin(c, d->prim);
}

size_t flipper_gx_decode(FlipperCore *c, GXDecoder *d, const uint8_t *buf,
                         size_t len, unsigned *budget, bool final, bool in_dl)
{
    size_t pos = 0;

    while (*budget) {
        if (d->in_draw) {
            uint32_t vsize = d->fmt.size, serial = 0;

            while (d->left && *budget && len - pos >= vsize) {
                GXInVertex in;
                GXVertex out;

                /*
                 * A draw holds up to 65535 vertices (4,000 took 5 ms of CPU
                 * without a yield): give way per vertex; a cancel (reset,
                 * unplug) ends the call as a spent budget does.
                 */
                if (g3d_yield() || g3d_step_end()) {
                    *budget = 0;
                    return pos;
                }
                if (!serial && vsize) {
                    /* the vertices the budget pays for, on every thread */
                    uint32_t n = MIN(d->left, (len - pos) / vsize);
                    uint32_t done = flipper_front_run(c, d, buf + pos, n,
                                                      budget, &serial);

                    pos += (size_t)done * vsize;
                    d->left -= done;
                    c->stats.vertices += done;
                    if (done) {
                        continue;
                    }
                }
                if (serial) {
                    serial--;
                }
                flipper_vtx_load(c, &d->fmt, buf + pos, &in);
                flipper_xf_transform(c, &in, &out);
                flipper_su_vertex(c, &c->su, &out);
                pos += vsize;
                d->left--;
                flipper_charge(c, budget, 1);
                c->stats.vertices++;
            }
            if (d->left == 0) {
                d->in_draw = false;
                continue;
            }
            if (*budget && final) {
                g3d_guest_error("flipper: CP: draw cut short: %u vertices "
                                "missing at the end of the stream", d->left);
                d->in_draw = false;
                return len;
            }
            return pos;
        }
        if (pos >= len) {
            break;
        }
        {
            const uint8_t *p = buf + pos;
            long size = command_size(p, len - pos);

            if (size == 0) {
                g3d_error(&c->errors, FLIPPER_ERR_GP, 0,
                          "flipper: CP: unknown GX opcode 0x%02x", p[0]);
                pos++;
                (*budget)--;
                continue;
            }
            if (size < 0 || (size_t)size > len - pos) {
                if (final) {
                    g3d_guest_error("flipper: CP: GX command 0x%02x cut short "
                                    "at the end of the stream", p[0]);
                    return len;
                }
                return pos;
            }
            (*budget)--;
            c->stats.commands++;
            pos += size;
            if (GX_OPCODE_IS_DRAW(p[0])) {
                begin_draw(c, d, p[0], be16(p + 1));
                continue;
            }
            switch (p[0]) {
            case GX_LOAD_CP_REG:
                flipper_cpr_write(c, p[1], be32(p + 2));
                break;
            case GX_LOAD_XF_REG: {
                uint32_t w = be32(p + 1);
                uint32_t n = ((w >> 16) & 15) + 1, addr = w & 0xFFFF, i;
                for (i = 0; i < n; i++) {
                    flipper_xf_write(c, addr + i, be32(p + 5 + 4 * i));
                }
                break;
            }
            case GX_LOAD_INDX_A:
            case GX_LOAD_INDX_B:
            case GX_LOAD_INDX_C:
            case GX_LOAD_INDX_D:
                xf_indexed_load(c, (p[0] >> 3) & 3, be32(p + 1));
                break;
            case GX_LOAD_BP_REG:
                flipper_bp_write(c, be32(p + 1));
                break;
            case GX_CALL_DL:
                call_dl(c, be32(p + 1), be32(p + 5), in_dl);
                if (c->cp.dl_active && !in_dl) {
                    return pos;     /* the caller runs the list first */
                }
                break;
            default:            /* NOP, metrics, vertex cache: nothing */
                break;
            }
            flipper_charge(c, budget, 0);   /* an EFB copy's pixels */
        }
    }
    return pos;
}
