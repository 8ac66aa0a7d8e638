/*
 * The P3D command-list processor (reference "Overview", "Command Header",
 * GPUREG_CMDBUF_SIZE/ADDR/JUMP; 3dbrew GPU/Internal Registers, command lists).
 *
 * A command is a parameter word, a header word (ID b0-15, byte mask
 * b16-19, N extra parameters b20-27, consecutive b31), N more parameters,
 * and a pad word to an 8-byte boundary. Buffers are (SIZE << 3) & ~0xF bytes
 * at ADDR << 3 (reference defect PICA-3, docs/references.md). A write to
 * CMDBUF_JUMPn replaces the running list with channel n's buffer; the IRQ
 * request registers (FINALIZE) stop it when AUTOSTOP is set and the request
 * matches (regs.c; the jump and the stop are in core-services.c, below
 * both, since this file writes registers through regs.c).
 *
 * Work is bounded: one parameter write is one budget unit, a draw started by
 * a parameter runs in its own bounded steps (pipeline.c) and the list resumes
 * after it, so a list that jumps to itself only ever costs its budget.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "pica200-int.h"

bool pica_p3d_busy(Pica200Core *c)
{
    return c->cp.active || c->draw.active || c->queue_head < c->queue->len;
}

static bool fetch(Pica200Core *c, uint64_t addr, uint32_t *word)
{
    if (!g3d_mem_read32le(&c->phys, addr, word)) {
        g3d_guest_error("pica200: command list word at 0x%" G_GINT64_MODIFIER
                        "x is outside memory; list stopped", addr);
        pica_cmdlist_stop(c);
        return false;
    }
    return true;
}

/* run list commands until the budget is spent, the list ends or a draw starts */
bool pica_cmdlist_step(Pica200Core *c, unsigned budget)
{
    PicaCmdProc *cp = &c->cp;

    while (cp->active && !c->draw.active && c->budget_used < budget &&
           !g3d_step_end()) {
        uint32_t param, header, id;

        if (cp->in_cmd) {
            if (cp->k > cp->nparams) {
                cp->in_cmd = false;
                continue;
            }
            if (!fetch(c, cp->param_addr, &param)) {
                break;
            }
            id = cp->consecutive ? cp->id + cp->k : cp->id;
            cp->param_addr += 4;
            cp->k++;
            c->budget_used++;
            c->stats.commands++;
            pica_reg_write(c, id, param, cp->mask);
            continue;
        }
        if (cp->pc + 8 > cp->end) {
            if (!cp->finalized) {
                /* the reference says the GPU hangs; this model just stops */
                g3d_guest_error("pica200: command list ended without FINALIZE");
            }
            pica_cmdlist_stop(c);
            break;
        }
        if (!fetch(c, cp->pc, &param) || !fetch(c, cp->pc + 4, &header)) {
            break;
        }
        cp->id = header & 0xFFFF;
        cp->mask = pica_byte_mask((header >> 16) & 0xF);
        cp->nparams = (header >> 20) & 0xFF;
        cp->consecutive = header >> 31;
        cp->param_addr = cp->pc + 8;
        /* the next command, captured before side effects: 2 + N words, even */
        cp->pc += ((cp->nparams + 3) * 4) & ~7u;
        if (cp->pc > cp->end) {
            g3d_guest_error("pica200: command 0x%08x runs past the end of its "
                            "buffer; list stopped", header);
            pica_cmdlist_stop(c);
            break;
        }
        cp->in_cmd = true;
        cp->k = 1;
        c->budget_used++;
        c->stats.commands++;
        pica_reg_write(c, cp->id, param, cp->mask);
    }
    return cp->active;
}
