/*
 * What a chip scans out, as its core decodes it from the display registers,
 * and the checked copy of that picture into a host ARGB surface. The QEMU
 * glue turns this into a console surface; tests and tools into a PNG.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_COMMON_SCANOUT_H
#define GPU3D_COMMON_SCANOUT_H

#include "g3d-core.h"
#include "formats.h"

#define G3D_SCANOUT_MAX_DIM 4096

typedef struct G3DScanout G3DScanout;

/* Convert one visible row (width pixels) to 0xAARRGGBB; for chip formats
 * G3DPixFmt lacks (YUV XFB, tiled layouts). `row` is the row index. */
typedef void G3DScanoutRowFn(const G3DScanout *so, const uint8_t *src,
                             uint32_t *dst, int row);

/* Gather stored line `row` (bytes_per_line bytes) into `line` from the
 * picture at `base`, for layouts whose lines are not `pitch` apart (tiled). */
typedef void G3DScanoutFetchFn(const G3DScanout *so, const uint8_t *base,
                               uint8_t *line, uint32_t row);

/*
 * Run job(arg, t) on a chip's render threads, each thread claiming rows
 * until none is left (g3d_raster_try_run_shared); false, having run
 * nothing, when the threads are busy.
 */
typedef bool G3DScanoutRunFn(void *opaque, void (*job)(void *arg, int thread),
                             void *arg);

struct G3DScanout {
    bool enabled;          /* false: the screen is blank */
    uint64_t addr;         /* chip address of the first byte scanned */
    uint32_t width;        /* visible pixels */
    uint32_t height;       /* visible lines */
    uint32_t pitch;        /* bytes from one stored line to the next */
    uint32_t bytes_per_line; /* bytes of memory one stored line occupies
                              * (0: width * bpp of `format`) */
    G3DPixFmt format;      /* with convert == NULL */
    G3DScanoutRowFn *convert;
    void *convert_opaque;
    /*
     * Rotation of the stored picture: 0 = stored as shown. 90: the stored
     * lines are the screen's columns, first stored line = leftmost column,
     * first pixel of a line = bottom row (the 3DS layout, see pica200 doc).
     * width/height are always those of the shown picture.
     */
    int rotate;
    /*
     * Non-linear layouts: fetch gathers each line (then format or convert
     * applies to it) and span is the bytes the picture covers from addr.
     * NULL for rows `pitch` apart, which are converted in place.
     */
    G3DScanoutFetchFn *fetch;
    const void *fetch_opaque;
    uint64_t span;
    /*
     * Optional, for unrotated pictures of rows `pitch` apart: the rows are
     * converted in bands on the threads `run` lends (the picture is the
     * same; `convert` must be safe to call from any thread). Not part of
     * what the picture is: the display cache does not compare it.
     */
    G3DScanoutRunFn *run;
    void *run_opaque;
};

/*
 * Check the description: size within limits, pitch covers a line, the whole
 * picture inside memory (asks mem->map for the full range). Logs
 * LOG_GUEST_ERROR with `who` and returns false when it is unusable.
 */
bool g3d_scanout_check(const G3DScanout *so, const G3DMem *mem,
                       const char *who);

/*
 * Copy the picture into dst (width x height ARGB words, dst_pitch words per
 * row). Returns false (and leaves dst alone) if the check fails.
 */
bool g3d_scanout_copy(const G3DScanout *so, const G3DMem *mem,
                      uint32_t *dst, uint32_t dst_pitch, const char *who);

/*
 * What a head showed last, so that a display refresh with nothing changed
 * converts nothing: the description, the destination, and a copy of every
 * byte of memory the picture was read from. Zero-initialise it; free it
 * with g3d_scanout_cache_reset (which also forces the next copy).
 */
typedef struct G3DScanoutCache {
    G3DScanout so;
    const uint32_t *dst;
    uint32_t dst_pitch;
    uint8_t *bytes;
    size_t len;
    bool valid;
} G3DScanoutCache;

void g3d_scanout_cache_reset(G3DScanoutCache *cache);

/*
 * g3d_scanout_copy through a cache: when the description, dst, dst_pitch
 * and the source bytes all equal the last successful call's, dst is left
 * as it is (it already holds the picture) and *changed is false. The glue
 * must reset the cache when it replaces or writes dst itself.
 */
bool g3d_scanout_copy_cached(G3DScanoutCache *cache, const G3DScanout *so,
                             const G3DMem *mem, uint32_t *dst,
                             uint32_t dst_pitch, const char *who,
                             bool *changed);

#endif
