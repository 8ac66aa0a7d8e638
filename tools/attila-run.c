/*
 * Running ATTILA traces through the attila-3d core on the host (see
 * attila-run.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "attila-run.h"

#include <glib.h>
#include <stdlib.h>
#include <string.h>

AttilaRun *attila_run_new(uint64_t gpu_size, uint64_t sys_size, int threads)
{
    AttilaRun *r = g_new0(AttilaRun, 1);
    AttilaCoreConfig cfg = { 0 };

    r->gpu_size = gpu_size;
    r->sys_size = sys_size;
    /* calloc: pages stay untouched (and free) until a trace writes them */
    r->gpu = calloc(1, gpu_size);
    r->sys = calloc(1, sys_size ? sys_size : 1);
    if (!r->gpu || !r->sys) {
        free(r->gpu);
        free(r->sys);
        g_free(r);
        return NULL;
    }
    g3d_flat_mem_init(&cfg.vram, &r->gpu_flat, r->gpu, 0, gpu_size);
    g3d_flat_mem_init(&cfg.sys, &r->sys_flat, r->sys, 0, sys_size);
    cfg.vram_size = gpu_size;
    cfg.hooks.threads = threads;
    r->core = attila_core_new(&cfg);
    attila_reg_write(r->core, A_ATTILA_SYSMEM_BASE_LO, 0, 4);
    attila_reg_write(r->core, A_ATTILA_SYSMEM_SIZE, (uint32_t)sys_size, 4);
    return r;
}

AttilaRun *attila_run_for_trace(const AttilaTraceHeader *h, int threads)
{
    return attila_run_new(h->mem_size ? (uint64_t)h->mem_size << 20 :
                          ATTILA_MEM_SIZE_DEFAULT,
                          (uint64_t)(h->mapped_mem_size ? h->mapped_mem_size :
                                     16) << 20, threads);
}

void attila_run_free(AttilaRun *r)
{
    if (!r) {
        return;
    }
    attila_core_free(r->core);
    free(r->gpu);
    free(r->sys);
    g_free(r);
}

bool attila_run_capture(AttilaRun *r, G3DImage *img)
{
    G3DScanout so;
    uint32_t *px;
    bool ok;

    attila_core_idle(r->core);
    if (!attila_scanout(r->core, 0, &so)) {
        return false;
    }
    px = g_new(uint32_t, (size_t)so.width * so.height);
    ok = g3d_scanout_copy(&so, attila_scanout_mem(r->core), px, so.width,
                          "attila-run");
    if (ok) {
        ok = g3d_image_alloc(img, so.width, so.height);
        if (ok) {
            g3d_image_from_argb(img, px, so.width);
        }
    }
    g_free(px);
    return ok;
}

bool attila_run_trace(AttilaRun *r, AttilaTrace *tr, AttilaFrameFn *fn,
                      void *opaque, char **err)
{
    AttilaTransaction t;
    int n;

    r->frame = attila_trace_header(tr)->start_frame;
    while ((n = attila_trace_next(tr, &t, err)) > 0) {
        attila_core_execute(r->core, &t);
        r->records++;
        if (t.kind == ATTILA_AGP_COMMAND && t.command == ATTILA_CMD_SWAPBUFFERS) {
            G3DImage img = { 0 };
            bool go = true;

            if (fn && attila_run_capture(r, &img)) {
                go = fn(opaque, r->frame, &img);
            }
            g3d_image_free(&img);
            r->frame++;
            if (!go) {
                attila_core_idle(r->core);
                return true;
            }
        }
    }
    attila_core_idle(r->core);  /* the last draw's pixels, for the caller */
    return n == 0;
}

bool attila_run_records(AttilaRun *r, const uint8_t *p, size_t n)
{
    AttilaTransaction t;
    size_t used;

    while (n) {
        if (attila_agp_parse(p, n, &t, &used) != ATTILA_PARSE_OK) {
            attila_core_idle(r->core);
            return false;
        }
        attila_core_execute(r->core, &t);
        r->records++;
        p += used;
        n -= used;
    }
    attila_core_idle(r->core);  /* the last draw's pixels, for the caller */
    return true;
}
