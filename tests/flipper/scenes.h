/*
 * GX scenes shared by the image tests, the Dolphin FIFO log writer
 * (flipper-dff), the benchmark and the fuzz seeds. A scene is what a Dolphin
 * FIFO log holds: the GX register state at the start, memory contents, and
 * one frame's command stream ending with its EFB -> XFB copy.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef FLIPPER_SCENES_H
#define FLIPPER_SCENES_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "gpu3d/flipper-regs.h"

#define SCENE_XFB_ADDR      0x00200000u    /* the display copy's target */
#define SCENE_SCRATCH_ADDR  0x00800000u    /* the clearing texture copy's */
#define SCENE_DATA_ADDR     0x00400000u    /* arrays and display lists */
#define SCENE_TEX_ADDR      0x00500000u    /* textures and TLUTs */
#define SCENE_W 640
#define SCENE_H 480

typedef struct SceneBlob {
    uint32_t addr;
    GByteArray *data;
} SceneBlob;

typedef struct FlipperScene {
    char name[32];
    /* state at the start (index = register address), as a reset core has it */
    uint32_t bp[256];
    uint32_t cp[256];
    uint32_t xfmem[XF_MEM_WORDS];
    uint32_t xfregs[XF_REG_COUNT];
    GArray *mem;            /* SceneBlob: MEM1 contents loaded first */
    GByteArray *fifo;       /* the frame: ends with the EFB -> XFB copy */
    int width, height;      /* the copy's size */
} FlipperScene;

/* NULL-terminated list of the scene names */
const char *const *flipper_scene_names(void);
/* NULL if there is no such scene */
FlipperScene *flipper_scene_build(const char *name);
void flipper_scene_free(FlipperScene *s);

/* A blob of `len` bytes at `addr` (copied); returns the copy to fill in. */
uint8_t *flipper_scene_add_blob(FlipperScene *s, uint32_t addr, uint32_t len);

/*
 * The commands that load the scene's starting state, as Dolphin's FIFO
 * player loads it from the log (every BP register but the ones that act:
 * draw done, tokens, copy, TLUT load, metrics; the CP vertex registers and
 * arrays; all XF memory and registers).
 */
GByteArray *flipper_scene_prologue(const FlipperScene *s);

/* vertex helpers: position as f32 xyz, colour as RGBA8888 */
void scene_vtx(GByteArray *b, float x, float y, float z, uint32_t rgba);

/*
 * Texturing: VAT 6 = xyz f32, RGBA8888 and (s, t) f32 for TEX0; `ntex`
 * texgens, texgen 0 = TEX0 through the identity texture matrix (XF 0xF0,
 * GX_IDENTITY = index 60), regular, ST, AB11, no dual transform (a reset
 * device has it on with zero post matrices). GEN_MODE: ntex coordinates,
 * one colour channel, `nstages` TEV stages.
 */
void scene_tex_begin(GByteArray *b, int ntex, int nstages);
/* a VAT 6 vertex */
void scene_tex_vtx(GByteArray *b, float x, float y, float z, uint32_t rgba,
                   float s, float t);

#endif
