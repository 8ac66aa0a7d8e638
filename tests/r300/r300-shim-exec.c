/*
 * The core behind Mesa's radeon DRM shim (tools/mesa-capture): a shared
 * library the patched shim loads (SHIM_R300_EXEC=path) and hands every
 * command stream Mesa submits, so that Mesa's r300 driver, and piglit on
 * top of it, run on the host against the device model itself: the buffers
 * a CS names are copied to VRAM addresses, the IB's relocations applied as
 * the radeon kernel's command checker applies them (r300.c
 * r300_packet0_check, r100.c r100_packet3_load_vbpntr: an address register
 * or packet field gets the buffer's address added), the IB run through the
 * CP, and the buffers copied back for Mesa to map.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "r300-rig.h"

#define VRAM_SIZE   (256u << 20)
#define IB_ADDR     (VRAM_SIZE - (1u << 20))
#define BO_BASE     0x00100000u

static R300Rig *rig;

/* the registers whose value is an address: colour, depth, textures,
 * ZMASK/HiZ (RB3D_COLOROFFSET0-3, ZB_DEPTHOFFSET, ZB_ZMASK_OFFSET,
 * TX_OFFSET_0-15) */
static bool addr_reg(uint32_t reg)
{
    return (reg >= 0x4E28 && reg <= 0x4E34) || reg == 0x4F20 ||
           reg == 0x4E80 || (reg >= 0x4540 && reg < 0x4580);
}

static void patch(uint32_t *ib, uint32_t n, const uint32_t *relocs,
                  uint32_t nrelocs, const uint32_t *addr)
{
    uint32_t pending[64], npending = 0, i = 0;

    while (i < n) {
        uint32_t h = ib[i], t = h >> 30, cnt = ((h >> 16) & 0x3FFF) + 1;

        if (t == 0) {
            uint32_t reg = (h & 0x1FFF) << 2, k;
            /* each address register of the packet takes the next NOP's
             * relocation (r100.c r100_cs_parse_packet0 checks register by
             * register), e.g. Mesa's RB3D_AARESOLVE_OFFSET/PITCH/CTL */
            npending = 0;
            for (k = 0; k < cnt && npending < 64; k++) {
                if (addr_reg((h & 0x8000) ? reg : reg + 4 * k)) {
                    pending[npending++] = i + 1 + k;
                }
            }
            i += 1 + cnt;
        } else if (t == 3) {
            uint32_t op = (h >> 8) & 0xFF;
            if (op == 0x10 && cnt == 1 && i + 1 < n) {   /* NOP: a relocation */
                uint32_t r = ib[i + 1] / 4;
                if (npending && r < nrelocs) {
                    uint32_t at = pending[0];
                    memmove(pending, pending + 1, --npending * 4);
                    if (at < n) {
                        ib[at] += addr[r];
                    }
                }
            } else if (op == 0x2F && i + 1 < n) {        /* 3D_LOAD_VBPNTR */
                uint32_t arrays = ib[i + 1] & 0x1F, k, p = i + 2;
                npending = 0;
                for (k = 0; k < arrays && npending + 2 <= 64; k += 2, p += 3) {
                    pending[npending++] = p + 1;
                    if (k + 1 < arrays) {
                        pending[npending++] = p + 2;
                    }
                }
            } else if (op == 0x33) {                     /* INDX_BUFFER */
                npending = 0;
                pending[npending++] = i + 2;
            }
            i += 1 + cnt;
        } else {
            i++;
        }
    }
}

/*
 * Run one CS: `ib` (ndw dwords), relocations of 4 dwords each (handle,
 * read domains, write domain, flags), the contents of each relocation's
 * buffer in data[k] (size[k] bytes), written back in place. 0, or -1 if
 * the buffers do not fit.
 */
int r300_shim_exec(const uint32_t *ib, uint32_t ndw, const uint32_t *relocs,
                   uint32_t nrelocs, uint8_t **data, const uint32_t *size);

int r300_shim_exec(const uint32_t *ib, uint32_t ndw, const uint32_t *relocs,
                   uint32_t nrelocs, uint8_t **data, const uint32_t *size)
{
    static uint32_t ring[16];
    g_autofree uint32_t *addr = g_new0(uint32_t, nrelocs + 1);
    uint32_t next = BO_BASE, k, j;
    R300Cmd c;

    if (!rig) {
        /* SHIM_R300_REGS="REG=VALUE,...": registers to set first, for
         * experiments (the kernel's own set-up is the reset state here) */
        const char *regs = g_getenv("SHIM_R300_REGS");
        g_auto(GStrv) w = g_strsplit(regs ? regs : "", ",", -1);
        rig = r300_rig_new(1, VRAM_SIZE, 14);
        for (k = 0; w[k]; k++) {
            char *eq = strchr(w[k], '=');
            if (eq) {
                r300_rig_wr(rig, strtoul(w[k], NULL, 0),
                            strtoul(eq + 1, NULL, 0));
            }
        }
        r300_rig_ring_init(rig);
    }
    if (4ull * ndw > VRAM_SIZE - IB_ADDR) {
        return -1;
    }
    for (k = 0; k < nrelocs; k++) {
        for (j = 0; j < k && relocs[4 * j] != relocs[4 * k]; j++) {
        }
        if (j < k) {                    /* the same buffer named twice */
            addr[k] = addr[j];
            continue;
        }
        if (next + (uint64_t)size[k] > IB_ADDR) {
            return -1;
        }
        addr[k] = next;
        memcpy(rig->vram + next, data[k], size[k]);
        next += (size[k] + 0xFFFF) & ~0xFFFFu;
    }
    memcpy(rig->vram + IB_ADDR, ib, 4 * ndw);
    patch((uint32_t *)(rig->vram + IB_ADDR), ndw, relocs, nrelocs, addr);
    r300_rig_cmd_begin(&c, ring, G_N_ELEMENTS(ring));
    r300_cmd_reg(&c, A_CP_IB_BASE, IB_ADDR);
    r300_cmd_reg(&c, A_CP_IB_BUFSZ, ndw);
    r300_rig_ring_run(rig, ring, c.n);
    for (k = 0; k < nrelocs; k++) {
        memcpy(data[k], rig->vram + addr[k], size[k]);
    }
    return 0;
}
