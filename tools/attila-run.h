/*
 * Running ATTILA traces through the attila-3d core on the host: flat GPU
 * and system memory, the trace's records executed in order, a picture of
 * the screen after every GPU_SWAPBUFFERS. Shared by attila-replay, the
 * tests and the benchmark.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_TOOLS_ATTILA_RUN_H
#define GPU3D_TOOLS_ATTILA_RUN_H

#include "attila/attila.h"
#include "image.h"

typedef struct AttilaRun {
    AttilaCore *core;
    uint8_t *gpu, *sys;
    uint64_t gpu_size, sys_size;
    G3DFlatMem gpu_flat, sys_flat;
    uint32_t frame;             /* the number of the next frame shown */
    uint64_t records;
} AttilaRun;

/*
 * GPU memory of gpu_size bytes, system memory of sys_size bytes opened at
 * SYSMEM_BASE 0 (the trace's "mapped memory"), `threads` render threads.
 */
AttilaRun *attila_run_new(uint64_t gpu_size, uint64_t sys_size, int threads);
/* sized by a trace's header: its GPU memory and mapped system memory */
AttilaRun *attila_run_for_trace(const AttilaTraceHeader *h, int threads);
void attila_run_free(AttilaRun *r);

/* the picture on screen (false: nothing shown yet) */
bool attila_run_capture(AttilaRun *r, G3DImage *img);

/* called after each GPU_SWAPBUFFERS; return false to stop the trace */
typedef bool AttilaFrameFn(void *opaque, uint32_t frame, const G3DImage *img);

/*
 * Execute a whole trace (its start frame numbers the frames). False with
 * *err on a reader error; frames before the error were delivered.
 */
bool attila_run_trace(AttilaRun *r, AttilaTrace *tr, AttilaFrameFn *fn,
                      void *opaque, char **err);

/*
 * Execute n bytes of records built in memory (attila-cmd.h), in order.
 * False at the first record that does not parse.
 */
bool attila_run_records(AttilaRun *r, const uint8_t *p, size_t n);

#endif
