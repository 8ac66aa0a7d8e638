/*
 * Run a replay file of tools/mesa-capture (Mesa's command streams with
 * their buffers) on the core and print what the last draw's surfaces hold:
 * the tool for reproducing a piglit failure on the host.
 *
 *   r300-replay FILE.replay [--ibs N] [--cb ADDR PITCH|--z|--stencil] [X Y]...
 *
 * --ibs N runs the first N indirect buffers only; --cb reads the colour
 * surface at ADDR with COLORPITCH value PITCH instead of the last draw's
 * (a resolve target, a blit's destination). With points, prints the
 * colour buffer 0 (ARGB8888 dword), the depth or the stencil value at each
 * (window coordinates of the surface, y down); without, a coarse map of the
 * whole surface (every 8th pixel).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "r300-rig.h"
#include "r300/tile.h"

#define VRAM_SIZE   (64u << 20)
#define IB_ADDR     (VRAM_SIZE - (4u << 20))

typedef struct Surf {
    uint32_t offset, pitch;     /* *_OFFSET, *_PITCH as the last draw had them */
} Surf;

static uint32_t rd32(const R300Rig *d, uint32_t a)
{
    uint32_t v = 0;
    if (a + 4 <= d->vram_size) {
        memcpy(&v, d->vram + a, 4);
    }
    return v;
}

/* The surfaces the IB's draws used: registers seen before a 3D_DRAW_*. */
static void scan_surfaces(const uint32_t *ib, uint32_t n, Surf *cb, Surf *zb)
{
    uint32_t cur[4] = { cb->offset, cb->pitch, zb->offset, zb->pitch };
    uint32_t i = 0;

    while (i < n) {
        uint32_t h = ib[i], t = h >> 30, cnt = ((h >> 16) & 0x3FFF) + 1, j;
        if (t == 0) {
            uint32_t reg = (h & 0x1FFF) << 2;
            for (j = 0; j < cnt && i + 1 + j < n; j++) {
                uint32_t r = (h & 0x8000) ? reg : reg + 4 * j;
                uint32_t v = ib[i + 1 + j];
                if (r == 0x4E28) {
                    cur[0] = v;
                } else if (r == 0x4E38) {
                    cur[1] = v;
                } else if (r == 0x4F20) {
                    cur[2] = v;
                } else if (r == 0x4F24) {
                    cur[3] = v;
                }
            }
            i += 1 + cnt;
        } else if (t == 3) {
            uint32_t op = (h >> 8) & 0xFF;
            /* 3D_DRAW_VBUF, _IMMD, _INDX and their _2 forms */
            if (op == 0x28 || op == 0x29 || op == 0x2A || op == 0x34 ||
                op == 0x35 || op == 0x36) {
                cb->offset = cur[0];
                cb->pitch = cur[1];
                zb->offset = cur[2];
                zb->pitch = cur[3];
            }
            i += 1 + cnt;
        } else {
            i++;
        }
    }
}

int main(int argc, char **argv)
{
    g_autofree char *text = NULL;
    g_auto(GStrv) lines = NULL;
    R300Rig *d;
    Surf cb = { 0, 0 }, zb = { 0, 0 }, cb_at = { 0, 0 };
    unsigned max_ibs = ~0u, nib = 0, i = 0, what = 0;
    int a = 2;
    static uint32_t buf[64];
    R300Tiling ct, zt;

    if (argc < 2 || !g_file_get_contents(argv[1], &text, NULL, NULL)) {
        fprintf(stderr, "usage: r300-replay FILE.replay [--ibs N] "
                "[--cb ADDR PITCH|--z|--stencil] [X Y]...\n");
        return 2;
    }
    for (; a < argc && argv[a][0] == '-'; a++) {
        if (!strcmp(argv[a], "--ibs") && a + 1 < argc) {
            max_ibs = strtoul(argv[++a], NULL, 0);
        } else if (!strcmp(argv[a], "--cb") && a + 2 < argc) {
            cb_at.offset = strtoul(argv[++a], NULL, 0);
            cb_at.pitch = strtoul(argv[++a], NULL, 0);
        } else if (!strcmp(argv[a], "--z")) {
            what = 1;
        } else if (!strcmp(argv[a], "--stencil")) {
            what = 2;
        }
    }
    d = r300_rig_new(1, VRAM_SIZE, 14);
    r300_rig_ring_init(d);
    lines = g_strsplit(text, "\n", -1);
    while (lines[i]) {
        g_auto(GStrv) w = g_strsplit(lines[i++], " ", -1);
        bool ib;
        uint32_t addr, n, k = 0;
        uint8_t *dst;

        if (!w[0] || (strcmp(w[0], "MEM") && strcmp(w[0], "IB"))) {
            continue;
        }
        ib = !strcmp(w[0], "IB");
        addr = ib ? IB_ADDR : strtoul(w[1], NULL, 0);
        n = strtoul(w[ib ? 1 : 2], NULL, 0);
        if (addr + 4ull * n > VRAM_SIZE || (!ib && addr + 4ull * n > IB_ADDR)) {
            fprintf(stderr, "r300-replay: block beyond VRAM\n");
            return 1;
        }
        dst = d->vram + addr;
        while (k < n && lines[i]) {
            g_auto(GStrv) v = g_strsplit(lines[i++], " ", -1);
            unsigned j;
            for (j = 0; v[j] && k < n; j++, k++) {
                uint32_t x = strtoul(v[j], NULL, 16);
                memcpy(dst + 4 * k, &x, 4);
            }
        }
        if (ib && nib < max_ibs) {
            R300Cmd c;
            scan_surfaces((uint32_t *)dst, n, &cb, &zb);
            r300_rig_cmd_begin(&c, buf, G_N_ELEMENTS(buf));
            r300_cmd_reg(&c, A_CP_IB_BASE, IB_ADDR);
            r300_cmd_reg(&c, A_CP_IB_BUFSZ, n);
            r300_rig_ring_run(d, buf, c.n);
            nib++;
        }
    }
    if (cb_at.pitch) {
        cb = cb_at;
    }
    /* COLORPITCH: pitch 13:1, tile 16, microtile 18:17, format 24:21;
     * DEPTHPITCH: pitch 13:2, tile 16, microtile 18:17 (Mesa r300_reg.h) */
    r300_tile_setup(&ct, 4, cb.pitch & 0x3FFE, cb.pitch & (1u << 16),
                    (cb.pitch >> 17) & 3);
    r300_tile_setup(&zt, 4, zb.pitch & 0x3FFC, zb.pitch & (1u << 16),
                    (zb.pitch >> 17) & 3);
    printf("%u IBs; colour 0x%08x pitch 0x%08x, depth 0x%08x pitch 0x%08x\n",
           nib, cb.offset, cb.pitch, zb.offset, zb.pitch);
    if (a >= argc) {
        uint32_t w = what ? zt.pitch : ct.pitch, x, y;
        for (y = 0; y < w; y += 8) {
            for (x = 0; x < w; x += 8) {
                uint32_t v = what ? rd32(d, zb.offset +
                                         r300_tile_offset(&zt, x, y))
                                  : rd32(d, cb.offset +
                                         r300_tile_offset(&ct, x, y));
                printf(" %02x", what == 2 ? v & 0xFF : what ? v >> 24
                                                           : (v >> 16) & 0xFF);
            }
            printf("\n");
        }
    }
    for (; a + 1 < argc; a += 2) {
        uint32_t x = strtoul(argv[a], NULL, 0), y = strtoul(argv[a + 1], NULL, 0);
        uint32_t c = rd32(d, cb.offset + r300_tile_offset(&ct, x, y));
        uint32_t z = rd32(d, zb.offset + r300_tile_offset(&zt, x, y));
        printf("%u,%u: colour %08x depth %06x stencil %u\n", x, y, c, z >> 8,
               z & 0xFF);
    }
    r300_rig_free(d);
    return 0;
}
