/*
 * attila-replay: run an ATTILA AGP trace through the attila-3d core
 * (no QEMU) and write every frame shown as frameNNNN.png.
 *
 *   attila-replay [-t threads] [-o dir] [-f frame] [-c reference] trace.gz
 *
 *   -t N     render threads (default: the host's CPUs)
 *   -o DIR   where to write frameNNNN.png (default: the current directory)
 *   -f N     only write frame N (and stop after it)
 *   -c FILE  compare the written frame with FILE (PNG/PPM): PSNR, pixels
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "attila-run.h"

#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/raster.h"

typedef struct Replay {
    const char *dir;
    long only;
    const char *ref;
    int written;
    bool failed;
} Replay;

static bool on_frame(void *opaque, uint32_t frame, const G3DImage *img)
{
    Replay *rp = opaque;
    char *path;

    if (rp->only >= 0 && frame != (uint32_t)rp->only) {
        return true;
    }
    path = g_strdup_printf("%s/frame%04u.png", rp->dir, frame);
    if (!g3d_image_save(img, path)) {
        fprintf(stderr, "attila-replay: cannot write %s\n", path);
        rp->failed = true;
    } else {
        printf("frame %u: %dx%d -> %s\n", frame, img->width, img->height, path);
        rp->written++;
    }
    g_free(path);
    if (rp->ref) {
        G3DImage ref = { 0 };
        G3DImageDiff d;
        if (!g3d_image_load(&ref, rp->ref) || !g3d_image_compare(img, &ref, &d)) {
            fprintf(stderr, "attila-replay: cannot compare with %s\n", rp->ref);
            rp->failed = true;
        } else {
            printf("  vs %s: PSNR %.2f dB, %ld differing pixels, max delta %d\n",
                   rp->ref, d.psnr, d.differing, d.max_delta);
        }
        g3d_image_free(&ref);
    }
    return rp->only < 0;
}

int main(int argc, char **argv)
{
    Replay rp = { .dir = ".", .only = -1 };
    int threads = g3d_default_threads(), opt;
    const AttilaTraceHeader *h;
    AttilaTrace *tr;
    AttilaRun *run;
    char *err = NULL;
    gint64 t0;
    bool ok;

    while ((opt = getopt(argc, argv, "t:o:f:c:h")) != -1) {
        switch (opt) {
        case 't': threads = atoi(optarg); break;
        case 'o': rp.dir = optarg; break;
        case 'f': rp.only = atol(optarg); break;
        case 'c': rp.ref = optarg; break;
        default:
            fprintf(stderr, "usage: %s [-t threads] [-o dir] [-f frame] "
                    "[-c reference] trace.gz\n", argv[0]);
            return 2;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "usage: %s [-t threads] [-o dir] [-f frame] "
                "[-c reference] trace.gz\n", argv[0]);
        return 2;
    }
    tr = attila_trace_open(argv[optind], &err);
    if (!tr) {
        fprintf(stderr, "attila-replay: %s\n", err);
        return 1;
    }
    h = attila_trace_header(tr);
    printf("%s: start frame %u, %u frame(s), memory %u MB, mapped %u MB\n",
           argv[optind], h->start_frame, h->trace_frames, h->mem_size,
           h->mapped_mem_size);
    if (h->tex_block_dim != ATTILA_TEX_BLOCK_DIM ||
        h->tex_sblock_dim != ATTILA_TEX_SBLOCK_DIM || h->scan_width != 16 ||
        h->scan_height != 16 || h->overscan_width != 4 ||
        h->overscan_height != 4) {
        fprintf(stderr, "attila-replay: warning: the trace was made for other "
                "tiling parameters than this device's\n");
    }
    run = attila_run_for_trace(h, threads);
    if (!run) {
        fprintf(stderr, "attila-replay: out of memory\n");
        return 1;
    }
    t0 = g_get_monotonic_time();
    ok = attila_run_trace(run, tr, on_frame, &rp, &err);
    printf("%" G_GUINT64_FORMAT " records in %.3f s, %u device errors\n",
           run->records, (g_get_monotonic_time() - t0) / 1e6,
           (unsigned)attila_reg_read(run->core, A_ATTILA_ERROR_COUNT, 4));
    if (!ok) {
        fprintf(stderr, "attila-replay: %s\n", err);
    }
    attila_run_free(run);
    attila_trace_close(tr);
    g_free(err);
    return ok && !rp.failed ? 0 : 1;
}
