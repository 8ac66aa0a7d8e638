/*
 * One benchmark result as a machine-readable row, for scripts/bench.sh.
 * Printed only when GPU3D_BENCH_ROWS is set in the environment, beside the
 * bench's own human-readable lines:
 *
 *   row <TAB> chip <TAB> case <TAB> threads <TAB> value <TAB> unit
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_TESTS_BENCH_ROW_H
#define GPU3D_TESTS_BENCH_ROW_H

#include <stdio.h>
#include <stdlib.h>

static inline void bench_row(const char *chip, const char *what, int threads,
                             double value, const char *unit)
{
    if (getenv("GPU3D_BENCH_ROWS")) {
        printf("row\t%s\t%s\t%d\t%.3f\t%s\n", chip, what, threads, value,
               unit);
        fflush(stdout);
    }
}

#endif
