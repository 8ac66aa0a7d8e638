/*
 * CP: command processor. Its MMIO registers, the GP side of the GX FIFO in
 * MEM1 and display-list execution (YAGCD §5.1 CP; Dolphin CommandProcessor.cpp,
 * Fifo.cpp).
 *
 * The GP reads the FIFO in whole 32-byte blocks while reading is enabled
 * and the read/write distance is at least one block, copying them into a
 * staging buffer that the command decoder (cp-decode.c) consumes; a command
 * that is not complete yet waits there for the next block. A CALL_DL runs
 * the list from MEM1 the same way before the FIFO is read again.
 *
 * Decisions (the reference is silent, YAGCD §5.1 CP):
 * - SR overflow/underflow are levels: distance > high watermark and
 *   distance < low watermark, as libogc's interrupt handler (which writes
 *   Clear and then reads SR) expects. Clear is accepted; software acknowledges
 *   by toggling the CR enables, as libogc does.
 * - The breakpoint stops reading when the read pointer equals it while
 *   CR.BPEnable is set; SR bit 4 is cleared by writing CR with bit 1 or 5
 *   clear.
 * - Pointers outside MEM1 halt reading (GP runtime error, PI INTSR bit 0)
 *   until a FIFO pointer or CR is written again, or reset.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "flipper-int.h"

#define FETCH_BLOCKS_MAX 64      /* blocks fetched per call of fetch() */

void flipper_cp_reset(FlipperCore *c)
{
    memset(&c->cp, 0, sizeof(c->cp));
}

static uint32_t ring_next(const FlipperCP *cp, uint32_t p)
{
    return p >= cp->end ? cp->base : p + 32;
}

static bool ovf_level(const FlipperCP *cp)
{
    return cp->dist > cp->hiwm;
}

static bool unf_level(const FlipperCP *cp)
{
    return cp->dist < cp->lowm;
}

static uint32_t cp_intsr(FlipperCore *c)
{
    const FlipperCP *cp = &c->cp;

    return (ovf_level(cp) && (cp->cr & R_CP_CR_OVF_INT_ENABLE_MASK)) ||
           (unf_level(cp) && (cp->cr & R_CP_CR_UNF_INT_ENABLE_MASK)) ||
           (cp->bp_hit && (cp->cr & R_CP_CR_BP_INT_ENABLE_MASK)) ?
           PI_INT_CP : 0;
}

bool flipper_cp_busy(FlipperCore *c)
{
    const FlipperCP *cp = &c->cp;

    return cp->stage_len || cp->dec.in_draw || cp->dl_active;
}

/* PI: one 32-byte burst reached the FIFO with the GP linked. */
void flipper_cp_burst(FlipperCore *c)
{
    FlipperCP *cp = &c->cp;
    uint32_t ring = cp->end >= cp->base ? cp->end - cp->base + 32 : 32;
    bool ovf = ovf_level(cp), unf = unf_level(cp);

    cp->wptr = ring_next(cp, cp->wptr);
    if (cp->dist + 32 > ring) {
        g3d_guest_error("flipper: CP: FIFO overrun (distance 0x%x, ring 0x%x):"
                        " the CPU overwrote unread commands", cp->dist, ring);
    }
    cp->dist += 32;
    if (ovf != ovf_level(cp) || unf != unf_level(cp)) {
        flipper_irq_changed(c);     /* a watermark crossed: SR, INTSR */
    }
}

/* whether the GP stops reading at block p: the enabled breakpoint */
static bool at_breakpoint(const FlipperCP *cp, uint32_t p)
{
    return (cp->cr & R_CP_CR_BP_ENABLE_MASK) && p == cp->bp;
}

static bool can_fetch(const FlipperCP *cp)
{
    if (!(cp->cr & R_CP_CR_GP_READ_ENABLE_MASK) || cp->fault ||
        cp->dist < 32) {
        return false;
    }
    return !at_breakpoint(cp, cp->rptr);
}

/* Copy FIFO blocks into the staging buffer; false if none could be read. */
static bool fetch(FlipperCore *c)
{
    FlipperCP *cp = &c->cp;
    unsigned n = 0;

    while (n < FETCH_BLOCKS_MAX && cp->stage_len + 32 <= CP_STAGE_SIZE &&
           (cp->cr & R_CP_CR_GP_READ_ENABLE_MASK) && !cp->fault &&
           cp->dist >= 32) {
        if (at_breakpoint(cp, cp->rptr)) {
            if (!cp->bp_hit) {
                cp->bp_hit = true;
                flipper_irq_changed(c);
            }
            break;
        }
        if (!flipper_mem1_ok(c, cp->rptr, 32) ||
            !g3d_mem_read(&c->cfg.vram, cp->rptr, cp->stage + cp->stage_len,
                          32)) {
            cp->fault = true;
            g3d_error(&c->errors, FLIPPER_ERR_GP, 0,
                      "flipper: CP: FIFO read pointer 0x%08x outside "
                      "MEM1: reading halted", cp->rptr);
            break;
        }
        cp->stage_len += 32;
        cp->rptr = ring_next(cp, cp->rptr);
        cp->dist -= 32;
        n++;
    }
    if (n) {
        flipper_irq_changed(c);     /* the distance moved */
    }
    return n > 0;
}

/* Take n blocks that draw_window() read ahead, as fetch() takes them. */
static void take_blocks(FlipperCore *c, uint32_t n)
{
    FlipperCP *cp = &c->cp;

    while (n--) {
        cp->rptr = ring_next(cp, cp->rptr);
        cp->dist -= 32;
    }
    flipper_irq_changed(c);         /* the distance moved */
}

/*
 * A draw whose vertices run past the staged bytes is decoded from a window:
 * the stage, then the FIFO blocks after it read without moving the read
 * pointer (as many as the step's budget pays vertices for, at most
 * CP_WINDOW_AHEAD bytes); the blocks the decoder consumed are then taken as
 * fetch() takes them and the rest stay in the FIFO. fetch()'s 2 KiB a call
 * would cut a draw into runs of about 128 vertices, each a hand-over to the
 * render threads (front.c); the window gives a run what the budget pays for.
 * The guest sees the read pointer, the distance and the watermark levels
 * move as fetch() moves them, by whole blocks of the draw; a breakpoint,
 * a pointer outside MEM1 or an empty FIFO ends the window, and fetch()
 * meets and reports it as before. False when nothing was decoded.
 */
static bool draw_window(FlipperCore *c, unsigned *budget)
{
    FlipperCP *cp = &c->cp;
    GXDecoder *d = &cp->dec;
    uint8_t *win = c->cp_window;
    uint64_t want;
    uint32_t len, end, p, dist;
    size_t used;

    if (!d->in_draw || d->fmt.size == 0) {
        return false;
    }
    want = (uint64_t)MIN(d->left, flipper_front_paid(d, *budget)) *
           d->fmt.size;
    if (want <= cp->stage_len || cp->fault ||
        !(cp->cr & R_CP_CR_GP_READ_ENABLE_MASK)) {
        return false;
    }
    end = cp->stage_len + (uint32_t)MIN(want - cp->stage_len + 31,
                                        CP_WINDOW_AHEAD) / 32 * 32;
    memcpy(win, cp->stage, cp->stage_len);
    len = cp->stage_len;
    p = cp->rptr;
    dist = cp->dist;
    while (len < end && dist >= 32 &&
           !at_breakpoint(cp, p) &&
           flipper_mem1_ok(c, p, 32) &&
           g3d_mem_read(&c->cfg.vram, p, win + len, 32)) {
        len += 32;
        dist -= 32;
        p = ring_next(cp, p);
    }
    if (len == cp->stage_len) {
        return false;
    }
    used = flipper_gx_decode(c, d, win, len, budget, false, false);
    if (used == 0) {
        return false;
    }
    c->window_draws++;
    if (used > cp->stage_len) {
        uint32_t n = (uint32_t)(used - cp->stage_len + 31) / 32;

        take_blocks(c, n);
        cp->stage_len += n * 32;
    }
    cp->stage_len -= used;
    memmove(cp->stage, win + used, cp->stage_len);
    return true;
}

uint64_t flipper_cp_window_draws(FlipperCore *c)
{
    return c->window_draws;
}

/* Run the current display list; false when it is done. */
bool flipper_cp_dl_work(FlipperCore *c, unsigned *budget)
{
    FlipperCP *cp = &c->cp;
    /* room for a front-end run (front.c: 96 vertices and more) */
    uint8_t buf[8192];

    while (cp->dl_active && *budget && !g3d_yield()) {
        uint32_t left = cp->dl_size - cp->dl_pos;
        uint32_t n = MIN(left, sizeof(buf));
        size_t used;

        /* the list was checked against MEM1 when it was called */
        if (!g3d_mem_read(&c->cfg.vram, cp->dl_addr + cp->dl_pos, buf, n)) {
            g3d_guest_error("flipper: CP: display list at 0x%08x unreadable",
                            cp->dl_addr);
            cp->dl_active = false;
            break;
        }
        used = flipper_gx_decode(c, &cp->dl_dec, buf, n, budget,
                                 n == left, true);
        if (used == 0 && n < left && *budget) {
            /* one command longer than the buffer cannot exist */
            g3d_guest_error("flipper: CP: undecodable display list data");
            cp->dl_active = false;
            break;
        }
        cp->dl_pos += used;
        if (cp->dl_pos >= cp->dl_size) {
            cp->dl_active = false;
        }
    }
    return cp->dl_active;
}

bool flipper_cp_work(FlipperCore *c, unsigned *budget)
{
    FlipperCP *cp = &c->cp;

    while (*budget && !g3d_yield()) {
        if (g3d_step_end()) {
            *budget = 0;        /* the state is being saved: go on later */
            break;
        }
        if (cp->dl_active) {
            flipper_cp_dl_work(c, budget);
            continue;
        }
        if (draw_window(c, budget)) {
            continue;
        }
        if (cp->stage_len) {
            size_t used = flipper_gx_decode(c, &cp->dec, cp->stage,
                                            cp->stage_len, budget, false,
                                            false);
            if (used) {
                cp->stage_len -= used;
                memmove(cp->stage, cp->stage + used, cp->stage_len);
                continue;
            }
            if (cp->dl_active) {
                continue;
            }
        }
        if (!fetch(c)) {
            break;
        }
    }
    return cp->dl_active || (cp->stage_len && *budget == 0) || can_fetch(cp);
}

/* ---- MMIO ---------------------------------------------------------------- */

static uint16_t cp_read16(FlipperCore *c, uint32_t off)
{
    FlipperCP *cp = &c->cp;

    switch (off) {
    case A_CP_SR:
        return (ovf_level(cp) ? R_CP_SR_OVERFLOW_MASK : 0) |
               (unf_level(cp) ? R_CP_SR_UNDERFLOW_MASK : 0) |
               (can_fetch(cp) ? 0 : R_CP_SR_READ_IDLE_MASK) |
               (flipper_cp_busy(c) ? 0 : R_CP_SR_CMD_IDLE_MASK) |
               (cp->bp_hit ? R_CP_SR_BREAKPOINT_MASK : 0);
    case A_CP_CR:
        return cp->cr;
    case A_CP_PERF_SELECT:
        return cp->perf_sel;
    case A_CP_TOKEN:
        return cp->token;
    case A_CP_BBOX_LEFT:
    case A_CP_BBOX_RIGHT:
    case A_CP_BBOX_TOP:
    case A_CP_BBOX_BOTTOM:
        /* the doc's bounding box registers: the PE's, mirrored */
        return (uint16_t)flipper_pe_block.read16(
            c, off - A_CP_BBOX_LEFT + A_PE_BBOX_LEFT - FLIPPER_PE_BASE);
    case A_CP_FIFO_BASE_LO: return cp->base;
    case A_CP_FIFO_BASE_HI: return cp->base >> 16;
    case A_CP_FIFO_END_LO: return cp->end;
    case A_CP_FIFO_END_HI: return cp->end >> 16;
    case A_CP_FIFO_HIWM_LO: return cp->hiwm;
    case A_CP_FIFO_HIWM_HI: return cp->hiwm >> 16;
    case A_CP_FIFO_LOWM_LO: return cp->lowm;
    case A_CP_FIFO_LOWM_HI: return cp->lowm >> 16;
    case A_CP_FIFO_DIST_LO: return cp->dist;
    case A_CP_FIFO_DIST_HI: return cp->dist >> 16;
    case A_CP_FIFO_WPTR_LO: return cp->wptr;
    case A_CP_FIFO_WPTR_HI: return cp->wptr >> 16;
    case A_CP_FIFO_RPTR_LO: return cp->rptr;
    case A_CP_FIFO_RPTR_HI: return cp->rptr >> 16;
    case A_CP_FIFO_BP_LO: return cp->bp;
    case A_CP_FIFO_BP_HI: return cp->bp >> 16;
    default:
        /* perf counters (0x40-0x64) are not modelled: they read 0 */
        return 0;
    }
}

static void set_half(uint32_t *reg, uint32_t off, uint16_t val)
{
    if (off & 2) {
        *reg = (*reg & 0x0000FFFF) | (uint32_t)val << 16;
    } else {
        *reg = (*reg & 0xFFFF0000) | val;
    }
    *reg &= FLIPPER_FIFO_PTR_MASK;
}

static void cp_write16(FlipperCore *c, uint32_t off, uint16_t val)
{
    FlipperCP *cp = &c->cp;

    switch (off) {
    case A_CP_CR:
        cp->cr = val & 0x3F;
        if (!(val & R_CP_CR_BP_ENABLE_MASK) ||
            !(val & R_CP_CR_BP_INT_ENABLE_MASK)) {
            cp->bp_hit = false;
        }
        cp->fault = false;
        return;
    case A_CP_CLEAR:
        /* status bits are levels (see above); metrics are not modelled */
        return;
    case A_CP_PERF_SELECT:
        cp->perf_sel = val;
        return;
    case A_CP_TOKEN:
        cp->token = val;
        return;
    case A_CP_FIFO_BASE_LO: case A_CP_FIFO_BASE_HI:
        set_half(&cp->base, off, val);
        break;
    case A_CP_FIFO_END_LO: case A_CP_FIFO_END_HI:
        set_half(&cp->end, off, val);
        break;
    case A_CP_FIFO_HIWM_LO: case A_CP_FIFO_HIWM_HI:
        set_half(&cp->hiwm, off, val);
        return;
    case A_CP_FIFO_LOWM_LO: case A_CP_FIFO_LOWM_HI:
        set_half(&cp->lowm, off, val);
        return;
    case A_CP_FIFO_DIST_LO: case A_CP_FIFO_DIST_HI:
        set_half(&cp->dist, off, val);
        return;
    case A_CP_FIFO_WPTR_LO: case A_CP_FIFO_WPTR_HI:
        set_half(&cp->wptr, off, val);
        return;
    case A_CP_FIFO_RPTR_LO: case A_CP_FIFO_RPTR_HI:
        set_half(&cp->rptr, off, val);
        /* a new read position: what was staged from the old one is void */
        cp->stage_len = 0;
        cp->dec.in_draw = false;
        break;
    case A_CP_FIFO_BP_LO: case A_CP_FIFO_BP_HI:
        set_half(&cp->bp, off, val);
        return;
    default:
        if (off >= A_CP_XF_PERF_FIRST && off <= A_CP_PERF_LAST) {
            return;     /* counters: writes ignored */
        }
        g3d_guest_error("flipper: CP: write 0x%04x to unknown register 0x%02x",
                        val, off);
        return;
    }
    cp->fault = false;
}

static const FlipperRegRow cp_regs[] = {
    FLIPPER_REG_ROW(CP_SR, 2, FLIPPER_REG_RO),
    FLIPPER_REG_ROW(CP_CR, 2, FLIPPER_REG_RW),
    FLIPPER_REG_ROW(CP_CLEAR, 2, FLIPPER_REG_RW),
    FLIPPER_REG_ROW(CP_PERF_SELECT, 2, FLIPPER_REG_RW),
    FLIPPER_REG_ROW(CP_TOKEN, 2, FLIPPER_REG_RW),
    FLIPPER_REG_RANGE(CP_BBOX_LEFT, CP_BBOX_BOTTOM, 2, FLIPPER_REG_RO),
    FLIPPER_REG_RANGE(CP_FIFO_BASE_LO, CP_FIFO_BP_HI, 2, FLIPPER_REG_RW),
    FLIPPER_REG_RANGE(CP_XF_PERF_FIRST, CP_PERF_LAST, 2, FLIPPER_REG_COUNTER),
};

const FlipperBlock flipper_cp_block = {
    .name = "CP", .base = FLIPPER_CP_BASE, .span = CP_REG_SPAN,
    FLIPPER_BLOCK_REGS(cp_regs),
    .intsr = cp_intsr,
    .read16 = cp_read16, .write16 = cp_write16,
};
