/*
 * attila-3d speed: every corpus trace replayed through the core, frames per
 * second, beside the time the ATTILA cycle-level simulator took for the same
 * frame (corpus README) and a baseline measured in the same run (memcpy
 * bandwidth), so numbers from different machines can be compared; the
 * guest demo's frame (guest/attila-scene.h) through the core alone; and the
 * compressed-texture scene (attila-dxt-records.h: DXT/LATC quads), in
 * textured Mpixels/s.
 *
 *   bench-attila [-t threads] [-s seconds-per-trace] [-n trace]
 *
 * -n runs that corpus trace only (and not the demo and DXT scenes); with
 * -s 0 it replays it 3 times, so that callgrind can count one replay's
 * instructions: valgrind --tool=callgrind --toggle-collect=replay_trace
 * build-rel/bench-attila -t 1 -s 0 -n spaceship (divide by 3).
 *
 * Each trace is decompressed and parsed once; a replay executes all its
 * records (uploads, state, draws, swaps: the whole frame as a guest would
 * submit it) on a device reset between replays.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "attila-corpus.h"
#include "attila-scene-run.h"
#include "attila-dxt-records.h"
#include "common/raster.h"
#include "../bench-row.h"
#include "../bench-env.h"

static double now(void)
{
    return g_get_monotonic_time() / 1e6;
}

/* GB/s of a 64 MiB memcpy, best of 5 */
static double memcpy_bandwidth(void)
{
    size_t n = 64u << 20;
    uint8_t *a = g_malloc(n), *b = g_malloc(n);
    double best = 0;
    int i;

    memset(a, 1, n);
    memset(b, 2, n);
    for (i = 0; i < 5; i++) {
        double t0 = now(), dt;
        memcpy(b, a, n);
        dt = now() - t0;
        a[i] = b[n - 1 - i];        /* keep the copy observable */
        if (dt > 0 && n / dt / 1e9 > best) {
            best = n / dt / 1e9;
        }
    }
    g_free(a);
    g_free(b);
    return best;
}

/* one replay of a parsed trace on a reset device */
static void __attribute__((noinline)) replay_trace(AttilaRun *run,
                                                   GArray *recs)
{
    guint k;

    attila_reg_write(run->core, A_ATTILA_CONTROL, R_ATTILA_CONTROL_RESET_MASK,
                     4);
    attila_reg_write(run->core, A_ATTILA_SYSMEM_SIZE, (uint32_t)run->sys_size,
                     4);
    for (k = 0; k < recs->len; k++) {
        attila_core_execute(run->core,
                            &g_array_index(recs, AttilaTransaction, k));
    }
    attila_core_idle(run->core);    /* the replay's last pixels drawn */
}

int main(int argc, char **argv)
{
    const char *only = NULL;
    int threads = g3d_default_threads(), opt;
    double budget = 1.0, bw;
    size_t i;

    /* GPU3D_BENCH_SIMD, GPU3D_BENCH_SPIN_US (bench-env.h) */
    bench_simd_from_env();

    while ((opt = getopt(argc, argv, "t:s:n:")) != -1) {
        switch (opt) {
        case 't': threads = atoi(optarg); break;
        case 's': budget = atof(optarg); break;
        case 'n': only = optarg; break;
        default:
            fprintf(stderr, "usage: %s [-t threads] [-s seconds-per-trace] "
                    "[-n trace]\n",
                    argv[0]);
            return 2;
        }
    }
    bw = memcpy_bandwidth();
    printf("baseline: memcpy %.2f GB/s (64 MiB, best of 5)\n", bw);
    printf("render threads: %d\n\n", threads);
    printf("%-13s %8s %7s %10s %10s %12s %10s\n", "trace", "records", "frames",
           "ms/replay", "frames/s", "simulator s", "speed-up");

    for (i = 0; i < ATTILA_CORPUS_COUNT; i++) {
        const AttilaCorpusTrace *ct = &attila_corpus[i];
        char *path;
        char *err = NULL;
        AttilaTrace *tr;
        GArray *recs;
        AttilaTransaction t;
        AttilaRun *run;
        uint32_t frames = 0;
        int reps = 0;
        double t0, dt;

        if (only && strcmp(only, ct->name)) {
            continue;
        }
        path = attila_corpus_path(ct->name, "attila.tracefile.gz");
        tr = attila_trace_open(path, &err);
        recs = g_array_new(FALSE, FALSE, sizeof(AttilaTransaction));

        if (!tr) {
            fprintf(stderr, "%s: %s\n", path, err);
            return 1;
        }
        while (attila_trace_next(tr, &t, &err) > 0) {
            g_array_append_val(recs, t);
            frames += t.kind == ATTILA_AGP_COMMAND &&
                      t.command == ATTILA_CMD_SWAPBUFFERS;
        }
        run = attila_run_for_trace(attila_trace_header(tr), threads);
        t0 = now();
        do {
            replay_trace(run, recs);
            reps++;
            dt = now() - t0;
        } while (dt < budget || reps < 3);
        if (attila_reg_read(run->core, A_ATTILA_ERROR_COUNT, 4) != 0) {
            fprintf(stderr, "%s: device errors\n", ct->name);
            return 1;
        }
        printf("%-13s %8u %7u %10.2f %10.1f ", ct->name, recs->len, frames,
               1e3 * dt / reps, frames * reps / dt);
        if (ct->sim_seconds > 0) {
            /* the simulator's time is for the reference frame alone */
            printf("%12.1f %9.0fx\n", ct->sim_seconds,
                   ct->sim_seconds / (dt / reps));
        } else {
            printf("%12s %10s\n", "-", "-");
        }
        /* a whole replay (blendedcubes has two frames) */
        bench_row("attila-3d", ct->name, threads, 1e3 * dt / reps,
                  "ms/trace");
        if (ct->sim_seconds > 0) {
            bench_row("attila-sim", ct->name, 1, 1e3 * ct->sim_seconds,
                      "ms/trace");
        }
        attila_run_free(run);
        attila_trace_close(tr);
        g_array_free(recs, TRUE);
        g_free(path);
    }

    /*
     * The guest demo's frame (guest/attila-scene.h, 640x480: clears, the
     * cube scene, swap) through the core alone: the figure to hold against
     * the demo's end-to-end frames/s through QEMU.
     */
    if (only) {
        return 0;
    }
    {
        AttilaRun *run = attila_scene_run_new(640, 480, threads);
        int frames = 0;
        double t0 = now(), dt;

        do {
            attila_scene_run_frame(run, frames % SCENE_FRAMES, 640, 480);
            frames++;
            dt = now() - t0;
        } while (dt < budget || frames < 3);
        if (attila_reg_read(run->core, A_ATTILA_ERROR_COUNT, 4) != 0) {
            fprintf(stderr, "demo scene: device errors\n");
            return 1;
        }
        printf("\n%-13s %8s %7d %10.2f %10.1f   (the guest demo's frame, "
               "640x480)\n", "demo-scene", "-", frames, 1e3 * dt / frames,
               frames / dt);
        bench_row("attila-3d", "frame demo scene", threads, frames / dt,
                  "frames/s");
        attila_run_free(run);
    }

    /* the compressed-texture scene: 8 quads of 64x64 texels decoded */
    {
        AttilaRun *run = attila_run_new(ATTILA_MEM_SIZE_DEFAULT, 1u << 20,
                                        threads);
        AttilaRecBuf b = { g_malloc(65536), 0, 65536, 0 };
        int frames = 0;
        double t0, dt;

        dxt_scene_records(&b, NULL, 0.0f, false);
        if (b.overflow) {
            return 1;
        }
        t0 = now();
        do {
            attila_run_records(run, b.buf, b.n);
            frames++;
            dt = now() - t0;
        } while (dt < budget || frames < 3);
        if (attila_reg_read(run->core, A_ATTILA_ERROR_COUNT, 4) != 0) {
            fprintf(stderr, "dxt scene: device errors\n");
            return 1;
        }
        printf("%-13s %8s %7d %10.2f %10.1f   (%.1f textured Mpixels/s, "
               "DXT1/3/5 + LATC, uploads included)\n", "dxt-scene", "-",
               frames, 1e3 * dt / frames, frames / dt,
               frames * (double)DXT_QUADS * DXT_QUAD_PX * DXT_QUAD_PX / dt / 1e6);
        bench_row("attila-3d", "DXT scene, textured", threads,
                  frames * (double)DXT_QUADS * DXT_QUAD_PX * DXT_QUAD_PX /
                  dt / 1e6, "Mpix/s");
        g_free(b.buf);
        attila_run_free(run);
    }
    return 0;
}
