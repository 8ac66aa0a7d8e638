/*
 * The vendored ATTILA trace corpus (tests/attila/corpus, README there):
 * which frame of each trace has a reference, its PSNR bar, the bar this
 * core is held to, and what the ATTILA simulator took to render it.
 * Shared by the corpus test and the benchmark.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_TESTS_ATTILA_CORPUS_H
#define GPU3D_TESTS_ATTILA_CORPUS_H

#include <glib.h>
#include <math.h>
#include <stdlib.h>

#include "attila-run.h"

typedef struct AttilaCorpusTrace {
    const char *name;
    uint32_t frame;         /* the frame the reference shows */
    double bar;             /* PSNR bar of the corpus README (dB) */
    /*
     * What this core is held to (a regression bar): INFINITY = bit-exact,
     * 0 differing pixels; otherwise the PSNR reached when it was set.
     */
    double held;
    double sim_seconds;     /* the simulator's time for the frame, 0 = n/a */
} AttilaCorpusTrace;

static const AttilaCorpusTrace attila_corpus[] = {
    { "triangle",     0,  90, INFINITY, 0 },
    { "d3d-triangle", 0,  90, INFINITY, 0 },
    { "spaceship",    0,  90, INFINITY, 10.4 },
    /* one edge pixel of the 4x MSAA resolve differs by 3: 98.23 dB */
    { "torus",        0,  90, 98.0, 14.7 },
    { "8lights",      0,  90, INFINITY, 6.1 },
    { "spheremap",    0,  70, INFINITY, 6.7 },
    { "simplefog",    0,  90, INFINITY, 5.3 },
    { "blendedcubes", 70, 90, INFINITY, 2.4 },
    { "copyteximage", 0,  10, INFINITY, 5.0 },
};

#define ATTILA_CORPUS_COUNT (sizeof(attila_corpus) / sizeof(attila_corpus[0]))

/* tests/attila/corpus/<name>/<file>, from $GPU3D_SRCDIR or the build's root */
static inline char *attila_corpus_path(const char *name, const char *file)
{
    const char *root = getenv("GPU3D_SRCDIR");

    if (!root || !*root) {
        root = GPU3D_SOURCE_ROOT;
    }
    return g_build_filename(root, "tests", "attila", "corpus", name, file,
                            NULL);
}

static inline char *attila_corpus_reference(const AttilaCorpusTrace *ct)
{
    char file[32];

    g_snprintf(file, sizeof(file), "frame%04u.sim.png", ct->frame);
    return attila_corpus_path(ct->name, file);
}

#endif
