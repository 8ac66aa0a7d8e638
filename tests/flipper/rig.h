/*
 * A flipper-gx core on a plain MEM1 buffer, driven the way a guest drives
 * the device: register accesses at BAR0 offsets, the command stream through
 * the write-gather pipe into a linked FIFO, the picture through the VI.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef FLIPPER_RIG_H
#define FLIPPER_RIG_H

#include "flipper/flipper.h"
#include "image.h"
#include "scenes.h"

#define RIG_FIFO_BASE 0x00100000u
#define RIG_FIFO_SIZE 0x00010000u

typedef struct FlipperRig {
    uint8_t *mem1;
    G3DFlatMem flat;
    G3DMem mem;
    FlipperCore *core;
    int64_t clock_ns;           /* the fake clock the core reads */
    uint32_t *surface;          /* rig_scanout_argb's picture */
    size_t surface_len;
} FlipperRig;

FlipperRig *rig_new(int threads);
/* another core on the rig's MEM1 and clock (a migration's destination) */
FlipperCore *rig_core_new(FlipperRig *r, int threads);
void rig_free(FlipperRig *r);

uint32_t rig_r16(FlipperRig *r, uint32_t off);
uint32_t rig_r32(FlipperRig *r, uint32_t off);
void rig_w16(FlipperRig *r, uint32_t off, uint32_t v);
void rig_w32(FlipperRig *r, uint32_t off, uint32_t v);

/* a FIFO ring linked to the gather pipe, as libogc's GX_Init sets it up */
void rig_fifo_init(FlipperRig *r, uint32_t base, uint32_t size);
/* CP FIFO register pair (lo at off, hi at off + 2) */
uint32_t rig_cp32(FlipperRig *r, uint32_t off);
void rig_set_cp32(FlipperRig *r, uint32_t off, uint32_t v);
/* stream bytes through the gather pipe, waiting for the GP when the ring
 * fills, then pad to 32 bytes and run until the GP is idle */
/* bytes through the gather pipe as words (the tail as bytes), no work */
void rig_wgp_write(FlipperRig *r, const uint8_t *p, size_t n);
void rig_submit(FlipperRig *r, const uint8_t *p, size_t len);
void rig_run(FlipperRig *r);
/* one BP register load executed directly (flipper_gx_exec) */
void rig_bp(FlipperRig *r, uint8_t reg, uint32_t val);
/* memory blobs, the state prologue and the frame through the FIFO */
void rig_run_scene(FlipperRig *r, const FlipperScene *s);
/* the VI: 640x480 NTSC interlaced, double-field XFB at xfb */
void rig_vi_init(FlipperRig *r, uint32_t xfb);
/*
 * the VI scanout as ARGB words (width a row), as the glue converts it into
 * its console surface: the rig's buffer, valid until the next call; NULL
 * if the VI shows nothing
 */
const uint32_t *rig_scanout_argb(FlipperRig *r, uint32_t *width,
                                 uint32_t *height);
/* the VI scanout as an image; false if the VI shows nothing */
bool rig_scanout(FlipperRig *r, G3DImage *img);

/* Path of a file in tests/flipper (GPU3D_SRCDIR or the source tree). */
char *rig_src_path(const char *rel);

#endif
