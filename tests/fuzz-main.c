/*
 * Driver for the fuzz harnesses when they are not built with libFuzzer:
 * runs the given files, or a fixed number of pseudo-random inputs (seeded,
 * so a failure reproduces), through LLVMFuzzerTestOneInput. CI runs every
 * harness this way; `meson configure -Dfuzz=true` with CC=clang builds the
 * same harnesses with libFuzzer for real fuzzing, and
 * `fuzz-NAME --write-seeds DIR` writes the harness's seeds as its corpus.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* optional: a harness may offer seeds that look like real input */
size_t gpu3d_fuzz_seed(unsigned index, uint8_t *buf, size_t max)
    __attribute__((weak));

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)rng;
}

int main(int argc, char **argv)
{
    enum { MAX = 1 << 16 };
    static uint8_t buf[MAX];
    unsigned iters = 3000, i;
    const char *env = getenv("GPU3D_FUZZ_ITERS");

    if (argc == 3 && !strcmp(argv[1], "--write-seeds")) {
        unsigned written = 0;
        for (i = 0; gpu3d_fuzz_seed && i < 64; i++) {
            size_t n = gpu3d_fuzz_seed(i, buf, MAX);
            char path[4096];
            FILE *f;
            if (!n) {
                continue;
            }
            snprintf(path, sizeof(path), "%s/seed-%02u", argv[2], i);
            f = fopen(path, "wb");
            if (!f || fwrite(buf, 1, n, f) != n) {
                perror(path);
                return 1;
            }
            fclose(f);
            written++;
        }
        printf("%u seeds written to %s\n", written, argv[2]);
        return 0;
    }
    if (argc > 1) {
        for (i = 1; i < (unsigned)argc; i++) {
            FILE *f = fopen(argv[i], "rb");
            size_t n;
            if (!f) {
                perror(argv[i]);
                return 1;
            }
            n = fread(buf, 1, MAX, f);
            fclose(f);
            LLVMFuzzerTestOneInput(buf, n);
        }
        return 0;
    }
    if (env) {
        iters = (unsigned)strtoul(env, NULL, 0);
    }
    for (i = 0; i < iters; i++) {
        size_t n = 0, k;
        if (gpu3d_fuzz_seed) {
            /* start from a well-formed seed and damage it */
            n = gpu3d_fuzz_seed(i, buf, MAX);
        }
        if (n == 0) {
            n = next() % 4096;
            for (k = 0; k < n; k++) {
                buf[k] = next();
            }
        } else {
            unsigned flips = 1 + next() % 16;
            while (flips--) {
                k = next() % n;
                switch (next() % 4) {
                case 0: buf[k] ^= 1u << (next() % 8); break;
                case 1: buf[k] = next(); break;
                case 2: buf[k] = 0xff; break;
                default: buf[k] = 0; break;
                }
            }
            if (next() % 8 == 0) {
                n = next() % (n + 1);      /* truncate */
            }
        }
        LLVMFuzzerTestOneInput(buf, n);
    }
    printf("%u inputs, no crash\n", iters);
    return 0;
}
