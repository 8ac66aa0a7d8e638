/*
 * The references every other benchmark figure is held against, measured in
 * the same run (scripts/bench.sh runs this first and last):
 *  - memset of a 1024x768 32-bit frame per thread, in Gpixels/s, at 1 and
 *    2 threads: what the memory allows a fill;
 *  - a pure-CPU control loop (integer work in registers, no memory) at 1
 *    and 2 threads: its 2-thread / 1-thread ratio says how many cores this
 *    run really had, so a renderer's scaling can be read relative to it
 *    (on an idle 2-core machine it is 2.0).
 *
 *   bench-control [seconds-per-case]
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-row.h"

#define FW 1024
#define FH 768

typedef struct Job {
    bool memory;
    double seconds;
    uint64_t units;       /* pixels set or loop iterations */
    double elapsed;
    uint32_t sink;
} Job;

static double now(void)
{
    return g_get_monotonic_time() / 1e6;
}

static gpointer job_main(gpointer opaque)
{
    Job *j = opaque;
    uint32_t *frame = j->memory ? g_new(uint32_t, FW * FH) : NULL;
    double t0 = now(), t;
    uint32_t x = 12345;

    do {
        if (j->memory) {
            memset(frame, (int)j->units, sizeof(uint32_t) * FW * FH);
            j->units += FW * FH;
        } else {
            int i;
            /* xorshift: a dependent chain of ALU ops, nothing in memory */
            for (i = 0; i < 1000000; i++) {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
            }
            j->units += 1000000;
        }
        t = now() - t0;
    } while (t < j->seconds);
    j->elapsed = t;
    j->sink = x + (frame ? frame[j->units % (FW * FH)] : 0);
    g_free(frame);
    return NULL;
}

/* units per second summed over `threads` threads running at once */
static double run(bool memory, int threads, double seconds)
{
    GThread *th[2] = { NULL, NULL };
    Job jobs[2] = { { memory, seconds }, { memory, seconds } };
    double rate = 0;
    int i;

    for (i = 1; i < threads; i++) {
        th[i] = g_thread_new("bench-control", job_main, &jobs[i]);
    }
    job_main(&jobs[0]);
    for (i = 0; i < threads; i++) {
        if (th[i]) {
            g_thread_join(th[i]);
        }
        rate += jobs[i].units / jobs[i].elapsed;
    }
    return rate;
}

int main(int argc, char **argv)
{
    double secs = argc > 1 ? atof(argv[1]) : 0.5;
    double m1, m2, c1, c2;

    if (secs <= 0) {
        secs = 0.5;
    }
    m1 = run(true, 1, secs) / 1e9;
    m2 = run(true, 2, secs) / 1e9;
    c1 = run(false, 1, secs) / 1e6;
    c2 = run(false, 2, secs) / 1e6;
    printf("memset of a %dx%d 32-bit frame: %.2f Gpixels/s at 1 thread, "
           "%.2f at 2 (%.2fx)\n", FW, FH, m1, m2, m2 / m1);
    printf("CPU control loop: %.1f Miterations/s at 1 thread, %.1f at 2 "
           "(%.2fx)\n", c1, c2, c2 / c1);
    bench_row("control", "memset", 1, m1, "Gpix/s");
    bench_row("control", "memset", 2, m2, "Gpix/s");
    bench_row("control", "CPU loop", 1, c1, "Mit/s");
    bench_row("control", "CPU loop", 2, c2, "Mit/s");
    return 0;
}
