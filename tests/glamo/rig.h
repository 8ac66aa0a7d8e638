/*
 * A glamo-3d core on a flat 8 MiB VRAM, programmed the way the Linux glamo
 * driver programs the chip: register writes over the 16-bit bus, and a
 * command-queue ring in VRAM. Shared by the unit tests, the benchmark, the
 * fuzzer and the tools.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GLAMO_TEST_RIG_H
#define GLAMO_TEST_RIG_H

#include <stdbool.h>
#include <stdint.h>

#include "glamo/glamo.h"
#include "gpu3d/glamo-regs.h"

typedef struct GlamoRig {
    uint8_t *vram;
    G3DFlatMem flat;
    GlamoCore *core;
    uint32_t ring_base, ring_size, wptr;
    uint16_t *cmd;          /* packets being built */
    unsigned ncmd, cmd_cap;
} GlamoRig;

void rig_init(GlamoRig *r, int threads);
void rig_free(GlamoRig *r);

/* direct register access (16-bit bus) */
void rig_w16(GlamoRig *r, uint32_t off, uint16_t v);
uint16_t rig_r16(GlamoRig *r, uint32_t off);
void rig_w32(GlamoRig *r, uint32_t off, uint32_t v);   /* L then H */
uint32_t rig_r32(GlamoRig *r, uint32_t off);
uint32_t rig_fbits(float f);

/* 3D clocks on and both engine resets pulsed */
void rig_enable_3d(GlamoRig *r);

/* command queue: glamo_cmdq_init() of the driver, then packets */
void rig_cmdq_init(GlamoRig *r, uint32_t base, uint32_t size);
void rig_cmd_reg(GlamoRig *r, uint32_t reg, uint16_t val);
void rig_cmd_reg32(GlamoRig *r, uint32_t reg, uint32_t val);
void rig_cmd_burst(GlamoRig *r, uint32_t reg, const uint16_t *vals, unsigned n);
/* copy the packets into the ring (wrapping) and move the write pointer */
void rig_cmd_submit(GlamoRig *r);

/* call glamo_core_work until nothing is pending; returns the calls made */
unsigned rig_run(GlamoRig *r);

/* A register writer: direct (rig_w32) or into the command queue. */
typedef void RigWrite32(GlamoRig *r, uint32_t reg, uint32_t val);
void rig_direct32(GlamoRig *r, uint32_t reg, uint32_t val);
void rig_cmd32(GlamoRig *r, uint32_t reg, uint32_t val);   /* queued */

/*
 * Common state for an RGB565 target: destination at `fb`, pitch in bytes,
 * clip 0..w x 0..h, Gouraud shading, no culling, solid fill, screen-space
 * vertices (T&L off), optional Z16 buffer at `zb` (0: no depth test) with
 * LESS.
 */
void rig_target(GlamoRig *r, RigWrite32 *wr, uint32_t fb, uint32_t pitch,
                int w, int h, uint32_t zb);

/* LCD: RGB565 at `fb`, w x h, pitch bytes, pixel clock on */
void rig_lcd(GlamoRig *r, uint32_t fb, uint32_t pitch, int w, int h);

/* RGB565 -> 0xAARRGGBB, by bit replication (the test's own conversion) */
uint32_t rig_565_to_argb(uint16_t p);

#endif

/*
 * The reference scene of scene.h: writes the vertex buffer (float xyz
 * stream + ubyte colour stream) and the 16-bit index buffer into VRAM at
 * `vb`, clears the colour buffer at `fb` and the Z buffer at `zb` (CPU
 * writes, as a guest would), programs T1 = projection * modelview (row
 * vectors, D3D clip Z), the viewport and the stream table with `wr`, and
 * fires the parser in stream-index mode, then EGEND.
 */
void rig_scene(GlamoRig *r, RigWrite32 *wr, uint32_t fb, uint32_t zb,
               uint32_t vb);
/* textured: quad A only, texture 0 bilinear/wrap modulated by white */
void rig_scene_ex(GlamoRig *r, RigWrite32 *wr, uint32_t fb, uint32_t zb,
                  uint32_t vb, bool textured);
