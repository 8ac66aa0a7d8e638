/*
 * Fuzz harness over the pica200 command-list processor and the engines it
 * can reach: the input is a command list (and the data it points at) placed
 * in guest RAM and kicked from BAR0, plus a few BAR0 writes (memory fill,
 * display transfer, LCD setup) chosen by the first bytes. Bounded work per
 * input; the harness only checks that nothing crashes, hangs or touches
 * memory it must not (run it under ASan/UBSan), and that the state each
 * input leaves survives save -> load -> save unchanged.
 *
 * Seeds (gpu3d_fuzz_seed) are well-formed lists that draw, so mutations
 * reach the shader, the vertex loader and the rasteriser; every third one
 * samples a texture from the input (unit, format, size, filters, wrap, mip
 * levels and unit 0's type, cube faces included, chosen by the seed index)
 * through the combiners; every fifth
 * draws the procedural texture from fuzzed registers; every seventh turns
 * fog on.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pica-scene.h"
#include "../state-test.h"
#include "common/scanout.h"

#define FZ_RAM (1u << 20)

static Pica200Core *core, *twin;   /* twin: the saved state's destination */
static uint8_t *vram, *ram;
static G3DFlatMem fv, fr;
static uint32_t scan[400 * 240];

static void setup(void)
{
    Pica200CoreConfig cfg;

    if (core) {
        return;
    }
    vram = g_malloc0(PICA200_VRAM_SIZE);
    ram = g_malloc0(FZ_RAM);
    memset(&cfg, 0, sizeof(cfg));
    g3d_flat_mem_init(&cfg.vram, &fv, vram, 0, PICA200_VRAM_SIZE);
    g3d_flat_mem_init(&cfg.sys, &fr, ram, 0, FZ_RAM);
    cfg.hooks.threads = 2;
    core = pica200_core_new(&cfg);
    twin = pica200_core_new(&cfg);
}

static void state_save(void *c, G3DStateOut *o)
{
    pica200_state_save(c, o);
}

static bool state_load(void *c, G3DStateIn *in)
{
    return pica200_state_load(c, in);
}

static uint32_t rd32(const uint8_t *p)
{
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint32_t ops, n, i;
    G3DScanout so;

    if (size < 16) {
        return 0;
    }
    setup();
    pica200_core_reset(core);
    memset(ram, 0, FZ_RAM);
    memset(vram, 0, PICA200_VRAM_SIZE / 8);
    ops = rd32(data);
    n = MIN(size - 16, FZ_RAM);
    memcpy(ram, data + 16, n);

    if (ops & 1) {
        /* a memory fill somewhere (often partly outside memory) */
        pica200_reg_write(core, A_PSC0_ADDR_START, (rd32(data + 4) & 0x3FFFFFF0) >> 3, 4);
        pica200_reg_write(core, A_PSC0_ADDR_END, (rd32(data + 8) & 0x3FFFFFF0) >> 3, 4);
        pica200_reg_write(core, A_PSC0_VALUE, rd32(data + 12), 4);
        pica200_reg_write(core, A_PSC0_CONTROL, (ops >> 8 & 0x300) | 1, 4);
    }
    if (ops & 2) {
        /* a display transfer or texture copy with fuzzed registers */
        pica200_reg_write(core, A_PPF_INPUT_ADDR, (PICA200_PHYS_VRAM + (rd32(data + 4) & 0x7FFF0)) >> 3, 4);
        pica200_reg_write(core, A_PPF_OUTPUT_ADDR, rd32(data + 8) >> 3, 4);
        pica200_reg_write(core, A_PPF_INPUT_SIZE, rd32(data + 12) & 0x03FF03FF, 4);
        pica200_reg_write(core, A_PPF_OUTPUT_SIZE, rd32(data + 12) & 0x01FF03FF, 4);
        pica200_reg_write(core, A_PPF_FLAGS, rd32(data + 4) ^ ops, 4);
        pica200_reg_write(core, A_PPF_TEXCOPY_SIZE, rd32(data + 8) & 0xFFFF, 4);
        pica200_reg_write(core, A_PPF_TEXCOPY_INPUT, rd32(data + 12), 4);
        pica200_reg_write(core, A_PPF_TEXCOPY_OUTPUT, rd32(data + 4), 4);
        pica200_reg_write(core, A_PPF_CONTROL, 1, 4);
    }
    if (ops & 4) {
        /* LCD setup from the input */
        for (i = 0; i < 2; i++) {
            uint32_t base = PICA_PDC_BASE(i);
            pica200_reg_write(core, base + PICA_PDC_FRAMEBUF_A1, rd32(data + 4 + 4 * i), 4);
            pica200_reg_write(core, base + PICA_PDC_FRAMEBUF_FORMAT, ops >> 16, 4);
            pica200_reg_write(core, base + PICA_PDC_FRAMEBUF_STRIDE, rd32(data + 12) & 0xFFF, 4);
            pica200_reg_write(core, base + PICA_PDC_CONTROL, 1, 4);
        }
    }
    if (ops & 8) {
        /* direct register writes from the input, as a guest might mix in */
        for (i = 0; i + 8 <= n && i < 256; i += 8) {
            uint32_t off = rd32(ram + i) % PICA200_BAR0_SIZE;
            pica200_reg_write(core, off & ~3u, rd32(ram + i + 4), 4);
        }
    }
    /* kick the input as a command list on channel 0 (or 1) */
    pica200_reg_write(core, PICA_INTERNAL_OFFSET(GPUREG_CMDBUF_SIZE0 + ((ops >> 4) & 1)),
                      n >> 3, 4);
    pica200_reg_write(core, PICA_INTERNAL_OFFSET(GPUREG_CMDBUF_ADDR0 + ((ops >> 4) & 1)),
                      PICA200_PHYS_FCRAM >> 3, 4);
    pica200_reg_write(core, PICA_INTERNAL_OFFSET(GPUREG_CMDBUF_JUMP0 + ((ops >> 4) & 1)),
                      1, 4);
    for (i = 0; i < 12; i++) {
        if (!pica200_core_work(core, 512)) {
            break;
        }
        if (i == 6 && (ops & 32)) {
            pica200_core_reset(core);      /* reset in the middle of work */
        }
    }
    /*
     * Whatever state the input left (often work in progress): it saves,
     * loads into another core and saves again to the same bytes.
     */
    {
        static const G3DStateTestOps ops = { state_save, state_load, NULL };
        size_t len;
        uint8_t *st = g3d_state_test_save(&ops, core, &len);

        g3d_state_test_roundtrip(&ops, twin, st, len);
        g_free(st);
    }
    for (i = 0; i < 2; i++) {
        if (pica200_scanout(core, i, &so)) {
            g3d_scanout_copy(&so, pica200_scanout_mem(core), scan, 400, "fuzz");
        }
    }
    for (i = 0; i < 0x40; i++) {
        pica200_reg_read(core, (rd32(data + 4) + i * 4) % PICA200_BAR0_SIZE & ~3u, 4);
    }
    pica200_irq_level(core);
    if (getenv("PICA200_FUZZ_STATS")) {
        Pica200Stats st;
        pica200_stats(core, &st);
        printf("lists %" G_GUINT64_FORMAT " commands %" G_GUINT64_FORMAT
               " vertices %" G_GUINT64_FORMAT " triangles %" G_GUINT64_FORMAT
               " fragments %" G_GUINT64_FORMAT "\n", st.lists, st.commands,
               st.vertices, st.triangles, st.fragments);
    }
    return 0;
}

/* the textured seeds' image: input bytes after the vertices */
#define SEED_TEX_OFF 0x1100u
#define SEED_TEX_BYTES 0x2000u

/* texture unit `index % 3` over the input's image, read by stages 0 and 1 */
static void seed_texture(CmdBuf *b, unsigned index)
{
    unsigned unit = index % 3, fmt = (index / 3) % 15;   /* 14: undefined */
    unsigned size = 8u << (index / 5 % 3);               /* 8, 16, 32 */
    unsigned base = PICA_TEXUNIT_BASE(unit);
    uint32_t param = (index & 6) | (index / 7 % 8) << 8 | (index / 11 % 8) << 12 |
                     (index / 13 % 2) << 24 | (index / 17 % 8) << 28;

    /* o1 = (texcoord0, texcoord2) for unit 0/2, texcoord1 for unit 1 */
    pica_cmd_reg(b, GPUREG_SH_OUTMAP_O1, unit == 1 ? 0x0B0A0F0E : 0x17160D0C);
    pica_cmd_reg(b, base + PICA_TEXUNIT_BORDER, 0x80C04020);
    pica_cmd_reg(b, base + PICA_TEXUNIT_DIM, size | size << 16);
    pica_cmd_reg(b, base + PICA_TEXUNIT_PARAM, param);
    pica_cmd_reg(b, base + PICA_TEXUNIT_LOD, (index % 4) << 16 | (index & 0x30) << 4);
    pica_cmd_reg(b, base + PICA_TEXUNIT_ADDR, (PICA200_PHYS_FCRAM + SEED_TEX_OFF) >> 3);
    if (unit == 0) {
        /* cube faces (used when the type is 1): the same image, one odd */
        uint32_t k;

        for (k = 1; k < 6; k++) {
            pica_cmd_reg(b, GPUREG_TEXUNIT0_ADDR1 + k,
                         ((PICA200_PHYS_FCRAM + SEED_TEX_OFF) >> 3) + (k == 5 ? index : 0));
        }
    }
    pica_cmd_reg(b, PICA_TEXUNIT_TYPE_REG(unit), fmt);
    pica_cmd_regm(b, GPUREG_TEXUNIT_CONFIG, 0xB, 0x1000 | 1u << unit |
                  (index & 8) << 10);
    pica_cmd_reg(b, PICA_TEXENV_BASE(0), (PICA_TEVSRC_TEXTURE0 + unit) * 0x10001u);
    pica_cmd_reg(b, PICA_TEXENV_BASE(1), 0x00E000E0 | PICA_TEVSRC_PREVIOUS * 0x10001u);
    pica_cmd_reg(b, PICA_TEXENV_BASE(1) + 2, 1 + index % 10);
}

/* seeds: the list of the Gouraud triangle test with its vertices after it */
size_t gpu3d_fuzz_seed(unsigned index, uint8_t *buf, size_t max);

size_t gpu3d_fuzz_seed(unsigned index, uint8_t *buf, size_t max)
{
    static const float tri[3][8] = {
        { -0.75f, -0.875f, -0.5f, 1, 1, 0, 0, 1 },
        { 0.875f, -0.625f, -0.5f, 1, 0, 1, 0, 1 },
        { -0.125f, 0.9375f, -0.5f, 1, 0, 0, 1, 1 },
    };
    const uint32_t vb = 0x1000;      /* vertices at RAM offset 0x1000 */
    uint32_t head[4] = { 0, 0x100, 0x200, 0xABCD };
    CmdBuf b;
    size_t len;

    if (index % 4 == 3) {
        return 0;                    /* every fourth input is pure noise */
    }
    head[0] = index & 0x3F;
    cb_init(&b);
    pica_cmd_shader_passthrough(&b);
    pica_cmd_viewport(&b, 64, 64, 0, 0);
    pica_cmd_target(&b, 64, 64, PICA200_PHYS_VRAM, index % 5 == 1 ? PICA_COLORFMT_RGB565
                                                            : PICA_COLORFMT_RGBA8,
              index % 3 == 1 ? PICA200_PHYS_VRAM + 0x10000 : 0, PICA_DEPTH_D24S8);
    pica_cmd_fragment(&b, index % 3 == 1, PICA_CMP_LESS, true);
    if (index % 3 == 2) {
        seed_texture(&b, index);
    }
    if (index % 5 == 4) {
        /* the procedural texture from a few LUT words, with noise on odd seeds */
        uint32_t words[8];
        unsigned k;

        for (k = 0; k < 8; k++) {
            words[k] = (index * 0x9E3779B9u) >> k;
        }
        pica_cmd_reg(&b, GPUREG_TEXUNIT3_PROCTEX0, words[0]);
        pica_cmd(&b, GPUREG_TEXUNIT3_PROCTEX1, 0xF, 1, words + 1, 5);
        pica_cmd_reg(&b, GPUREG_PROCTEX_LUT, (index % 6) << 8 | index);
        pica_cmd(&b, GPUREG_PROCTEX_LUT_DATA0, 0xF, 0, words, 8);
        pica_cmd_regm(&b, GPUREG_TEXUNIT_CONFIG, 0xB, 0x1400 | (index & 3) << 8);
        pica_cmd_reg(&b, PICA_TEXENV_BASE(0), PICA_TEVSRC_TEXTURE3 * 0x10001u);
    }
    if (index % 7 == 3) {
        /* fog: a few LUT entries from the index, Z flip on odd seeds */
        uint32_t lut[8];
        unsigned k;

        for (k = 0; k < 8; k++) {
            lut[k] = (index * 0x9E3779B9u) >> k;
        }
        pica_cmd_reg(&b, GPUREG_FOG_LUT_INDEX, index * 5);
        pica_cmd(&b, GPUREG_FOG_LUT_DATA0, 0xF, 0, lut, 8);
        pica_cmd_reg(&b, GPUREG_FOG_COLOR, 0x203040);
        pica_cmd_regm(&b, GPUREG_TEXENV_UPDATE_BUFFER, 0x5,
                      PICA_FOG_MODE_FOG | (index & 1) << 16);
    }
    if (index % 11 == 5) {
        /* fragment lighting from fuzzed registers 0x140-0x1D9 and LUT words,
         * bump/shadow maps from texture units, both fragment colours read */
        uint32_t regs[0x9A], lut[16];
        unsigned k;

        for (k = 0; k < G_N_ELEMENTS(regs); k++) {
            regs[k] = (index + k) * 0x9E3779B9u ^ (k << 7);
        }
        for (k = 0; k < 16; k++) {
            lut[k] = (index * 0x85EBCA6Bu) >> (k & 7);
        }
        pica_cmd(&b, GPUREG_LIGHT0_SPECULAR0, 0xF, 1, regs, 0x85);
        pica_cmd_reg(&b, GPUREG_LIGHTING_LUT_INDEX, (index % 24) << 8 | index);
        pica_cmd(&b, GPUREG_LIGHTING_LUT_DATA0, 0xF, 0, lut, 16);
        pica_cmd(&b, GPUREG_LIGHTING_LUTINPUT_ABS, 0xF, 1, regs + 0x90, 3);
        pica_cmd_reg(&b, GPUREG_LIGHTING_LIGHT_PERMUTATION, regs[0x99]);
        pica_cmd_reg(&b, GPUREG_LIGHTING_ENABLE0, 1);
        pica_cmd_reg(&b, GPUREG_LIGHTING_ENABLE1, 0);
        pica_cmd_reg(&b, PICA_TEXENV_BASE(0), PICA_TEVSRC_FRAG_PRIMARY |
                     PICA_TEVSRC_FRAG_SECONDARY << 4 | PICA_TEVSRC_FRAG_SECONDARY << 16);
        pica_cmd_reg(&b, PICA_TEXENV_BASE(0) + 2, PICA_TEVOP_ADD);
    }
    if (index % 13 == 6) {
        /* shadow rendering into the target */
        pica_cmd_regm(&b, GPUREG_COLOR_OPERATION, 0x1, 3);
        pica_cmd_reg(&b, GPUREG_FRAGOP_SHADOW, index * 0x9E3779B9u);
    }
    pica_cmd_attribs(&b, PICA200_PHYS_FCRAM + vb, PICA_F32X4, PICA_F32X4, 32);
    pica_cmd_draw(&b, index % 2 ? PICA_TOPOLOGY_STRIP : PICA_TOPOLOGY_TRIANGLES, 3, 0,
            false, 0);
    pica_cmd_finalize(&b);
    len = 16 + SEED_TEX_OFF + SEED_TEX_BYTES;
    if (len > max || b.n * 4 > vb) {
        cb_free(&b);
        return 0;
    }
    memset(buf, 0, len);
    memcpy(buf, head, 16);
    memcpy(buf + 16, b.buf, b.n * 4);
    memcpy(buf + 16 + vb, tri, sizeof(tri));
    for (len = 0; len < SEED_TEX_BYTES; len++) {
        buf[16 + SEED_TEX_OFF + len] = (uint8_t)(len * 37 + index);
    }
    len = 16 + SEED_TEX_OFF + SEED_TEX_BYTES;
    cb_free(&b);
    return len;
}
