/*
 * Fuzz harness over the glamo-3d command queue: an input is
 *   u8 n, then n direct register writes (u16 offset, u16 value), then the
 *   words of a command-queue ring,
 * run on a core whose 3D clocks and command queue are set up as the Linux
 * driver sets them, for a bounded number of work steps. The seeds are
 * well-formed rings (Gouraud triangles; the reference scene, plain and
 * textured, through the parser) that the driver damages.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <string.h>

#include "rig.h"
#include "scene.h"

#define RING    0x200000
#define RINGSZ  0x10000

static GlamoRig rig;

static void setup(void)
{
    if (!rig.core) {
        rig_init(&rig, 2);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t gpu3d_fuzz_seed(unsigned index, uint8_t *buf, size_t max);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t pos = 0, n, i;
    unsigned steps;

    setup();
    glamo_core_reset(rig.core);
    memset(rig.vram, 0, 0x300000);
    rig_enable_3d(&rig);
    rig_cmdq_init(&rig, RING, RINGSZ);
    if (size < 1) {
        return 0;
    }
    n = data[pos++] % 32;
    for (i = 0; i < n && pos + 4 <= size; i++, pos += 4) {
        uint16_t off = data[pos] | data[pos + 1] << 8;
        uint16_t val = data[pos + 2] | data[pos + 3] << 8;
        /* the rig's buffers stay where they are */
        glamo_reg_write(rig.core, off & 0x3ffe, val, 2);
    }
    for (; pos + 2 <= size && rig.ncmd < RINGSZ / 2 - 2; pos += 2) {
        rig_cmd_reg(&rig, data[pos] | data[pos + 1] << 8, 0);
        rig.ncmd--;                 /* one word, not a packet */
    }
    rig_cmd_submit(&rig);
    for (steps = 0; steps < 400 && glamo_core_work(rig.core, 64); steps++) {
    }
    /* whatever happened, reset brings the engine back */
    glamo_core_reset(rig.core);
    g_assert(glamo_reg_read(rig.core, A_EGSTATUSA, 2) ==
             GLAMO_EGSTATUSA_ALL_IDLE);
    return 0;
}

size_t gpu3d_fuzz_seed(unsigned index, uint8_t *buf, size_t max)
{
    static GlamoRig b;
    size_t len = 0;
    unsigned i;

    if (!b.vram) {
        b.vram = g_malloc0(GLAMO_VRAM_SIZE);     /* packet builder only */
    }
    b.ncmd = 0;
    buf[len++] = 0;                             /* no direct writes */
    if (index % 3 == 0) {
        rig_target(&b, rig_cmd32, 0, 512, 256, 192, 0x40000);
        rig_cmd_reg(&b, A_EGPrim1, GLAMO_PRIM_TRIANGLE_STRIP);
        for (i = 0; i < 6; i++) {
            rig_cmd_reg32(&b, A_RGPXa, rig_fbits((float)(i * 37 % 200)));
            rig_cmd_reg32(&b, A_RGPYa, rig_fbits((float)(i * 53 % 150)));
            rig_cmd_reg32(&b, A_RGPZa, rig_fbits(0.1f * i));
            rig_cmd_reg32(&b, A_RGPWa, rig_fbits(1.0f));
            rig_cmd_reg32(&b, A_RGPDIFFa, 0xff000000u | i * 0x2a3b4c);
            rig_cmd_reg(&b, A_EGFIRE, 0);
        }
        rig_cmd_reg(&b, A_EGEND, 0);
    } else {
        rig_scene_ex(&b, rig_cmd32, 0, 0x40000, 0x100000, index % 3 == 2);
    }
    for (i = 0; i < b.ncmd && len + 2 <= max; i++) {
        buf[len++] = (uint8_t)b.cmd[i];
        buf[len++] = (uint8_t)(b.cmd[i] >> 8);
    }
    return len;
}
