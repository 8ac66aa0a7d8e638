/*
 * attila-3d engine core: the ATTILA unified-shader GPU without QEMU.
 *
 * The core API every gpu3d chip offers (docs/architecture.md), plus the two
 * entry points the host tools and tests use: the strict transaction-record
 * reader and the command processor's execute call, which is the same code
 * path the ring feeds.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_ATTILA_CORE_H
#define GPU3D_ATTILA_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/g3d-core.h"
#include "common/scanout.h"
#include "common/g3d-state.h"
#include "gpu3d/attila-regs.h"

typedef struct AttilaCore AttilaCore;

typedef struct AttilaCoreConfig {
    /* GPU memory (BAR2): ATTILA addresses 0 .. mem_size - 1 */
    G3DMem vram;
    uint64_t vram_size;
    /* guest physical memory, for addresses with bit 31 set (SYSMEM_BASE) */
    G3DMem sys;
    G3DCoreHooks hooks;   /* render threads, IRQ and display callbacks */
} AttilaCoreConfig;

AttilaCore *attila_core_new(const AttilaCoreConfig *cfg);
void attila_core_free(AttilaCore *c);
/* power-on state: BAR0 registers, GPU registers, ring; memory is kept */
void attila_core_reset(AttilaCore *c);

/*
 * The core's saved state (docs/attila-3d.md, Migration), taken between
 * work() calls: the BAR0 registers and the ring's position, the GPU
 * register file, shader instruction memory and constants, the display
 * registers and the DAC's picture. A load that fails (in->error) leaves the
 * core reset.
 */
void attila_state_save(AttilaCore *c, G3DStateOut *o);
bool attila_state_load(AttilaCore *c, G3DStateIn *in);

/* BAR0, 32-bit accesses (other sizes read 0 / are ignored, logged) */
uint64_t attila_reg_read(AttilaCore *c, uint32_t offset, unsigned size);
void attila_reg_write(AttilaCore *c, uint32_t offset, uint64_t val,
                      unsigned size);

/*
 * Execute at most `budget` ring records. Returns true if more are pending
 * (the glue calls again), false when the ring is empty or stopped.
 */
bool attila_core_work(AttilaCore *c, unsigned budget);
bool attila_irq_level(AttilaCore *c);
/*
 * Head 0: the picture the DAC took of the front buffer at the last
 * GPU_SWAPBUFFERS (de-tiled, resolved, XRGB8888); false before any swap.
 */
bool attila_scanout(AttilaCore *c, int head, G3DScanout *out);
/* the memory attila_scanout() addresses refer to: the DAC's picture */
const G3DMem *attila_scanout_mem(AttilaCore *c);

/* ---- transaction records ----------------------------------------------- */

typedef struct AttilaTransaction {
    uint32_t kind;            /* ATTILA_AGP_* */
    uint32_t address;         /* WRITE / PRELOAD */
    uint32_t md;              /* WRITE / PRELOAD / REG_WRITE: debug id */
    uint8_t locked;           /* WRITE / PRELOAD */
    uint32_t size;            /* WRITE / PRELOAD data, EVENT message bytes */
    const uint8_t *data;      /* points into the parsed buffer */
    uint32_t reg, index;      /* REG_WRITE */
    uint8_t value[16];        /* REG_WRITE */
    uint32_t command;         /* COMMAND */
    uint32_t event;           /* EVENT */
} AttilaTransaction;

typedef enum AttilaParse {
    ATTILA_PARSE_OK = 0,
    ATTILA_PARSE_TRUNCATED,   /* the record runs past the end of the buffer */
    ATTILA_PARSE_BAD_KIND,    /* kind is not WRITE/PRELOAD/REG_WRITE/COMMAND/EVENT */
    ATTILA_PARSE_BAD_REGISTER,/* REG_WRITE register id is not a register */
} AttilaParse;

/*
 * Parse one record at p[0..len). On OK, *used is the record's byte length
 * and t->data points into p. Never reads outside p[0..len).
 */
AttilaParse attila_agp_parse(const uint8_t *p, size_t len,
                             AttilaTransaction *t, size_t *used);
/* Encode a record into buf (which must hold attila_agp_size(t) bytes). */
size_t attila_agp_size(const AttilaTransaction *t);
size_t attila_agp_encode(const AttilaTransaction *t, uint8_t *buf);
const char *attila_parse_error(AttilaParse r);

/*
 * The command processor: execute one transaction (tools, ring). With
 * several render threads a draw's last raster batch may still be drawn by
 * the helpers when this returns (the pipeline); a record that needs its
 * pixels waits for it, and so does attila_core_idle: call it before
 * reading the memory the draws write (attila_core_work, the BAR0
 * registers' writes, reset and the saved state do).
 */
void attila_core_execute(AttilaCore *c, const AttilaTransaction *t);
void attila_core_idle(AttilaCore *c);

/* ---- trace files (gzip, ATTILA ref. AGP Transactions; attila-sim
 * AGPTransaction.cpp) */

typedef struct AttilaTraceHeader {
    uint32_t version;
    uint32_t start_frame, trace_frames;
    uint32_t mem_size, mapped_mem_size;        /* MB */
    uint32_t tex_block_dim, tex_sblock_dim;
    uint32_t scan_width, scan_height;
    uint32_t overscan_width, overscan_height;
    bool double_buffer;
    uint32_t fetch_rate;
    bool mc_v2, v2_second_interleaving;
} AttilaTraceHeader;

typedef struct AttilaTrace AttilaTrace;

/*
 * Open a trace: decompress it, check the header. NULL with *err set on
 * failure (file missing, not gzip, bad signature/version, short header).
 */
AttilaTrace *attila_trace_open(const char *path, char **err);
/* The same from bytes already decompressed (tests, fuzzers). */
AttilaTrace *attila_trace_from_bytes(const uint8_t *p, size_t len, char **err);
void attila_trace_close(AttilaTrace *tr);
const AttilaTraceHeader *attila_trace_header(const AttilaTrace *tr);
/*
 * Next record: 1 = one parsed into *t (valid until the trace is closed),
 * 0 = clean end of file, -1 = error (*err: what and at which offset).
 */
int attila_trace_next(AttilaTrace *tr, AttilaTransaction *t, char **err);
size_t attila_trace_offset(const AttilaTrace *tr);
/* Parse the 16,396-byte header block; false if it is not a trace header. */
bool attila_trace_parse_header(const uint8_t *p, size_t len,
                               AttilaTraceHeader *h, char **err);

/* ---- names (tools, logs) ----------------------------------------------- */

/* a GPU register id's name after "GPU_" (attila-sim GPU.h); "?" if none */
const char *attila_reg_name(uint32_t id);
const char *attila_command_name(uint32_t cmd);

#endif
