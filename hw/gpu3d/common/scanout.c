/*
 * Checked scanout copy (see scanout.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "scanout.h"

#include <glib.h>
#include <string.h>

static uint32_t stored_lines(const G3DScanout *so)
{
    return so->rotate ? so->width : so->height;
}

static uint32_t stored_line_bytes(const G3DScanout *so)
{
    uint32_t px = so->rotate ? so->height : so->width;

    if (so->bytes_per_line) {
        return so->bytes_per_line;
    }
    return px * (uint32_t)g3d_fmt_bpp(so->format);
}

/* bytes of memory the picture covers from addr */
static uint64_t picture_span(const G3DScanout *so)
{
    if (so->fetch) {
        return so->span;
    }
    return (uint64_t)so->pitch * (stored_lines(so) - 1) +
           stored_line_bytes(so);
}

bool g3d_scanout_check(const G3DScanout *so, const G3DMem *mem,
                       const char *who)
{
    uint64_t span;
    uint32_t line_bytes;

    if (!so->enabled) {
        return false;
    }
    if (so->width == 0 || so->height == 0 ||
        so->width > G3D_SCANOUT_MAX_DIM || so->height > G3D_SCANOUT_MAX_DIM) {
        g3d_guest_error("%s: scanout size %ux%u out of range", who,
                        so->width, so->height);
        return false;
    }
    if (!so->convert && g3d_fmt_bpp(so->format) == 0) {
        g3d_guest_error("%s: scanout format %d invalid", who, so->format);
        return false;
    }
    if (so->fetch && so->rotate) {
        g3d_guest_error("%s: rotated gathered scanout not supported", who);
        return false;
    }
    line_bytes = stored_line_bytes(so);
    if (so->pitch < line_bytes) {
        g3d_guest_error("%s: scanout pitch %u below the line's %u bytes", who,
                        so->pitch, line_bytes);
        return false;
    }
    span = picture_span(so);
    if (!span || !g3d_mem_map(mem, so->addr, span, false)) {
        g3d_guest_error("%s: scanout 0x%" G_GINT64_MODIFIER "x + %"
                        G_GINT64_MODIFIER "u bytes outside memory", who,
                        so->addr, span);
        return false;
    }
    return true;
}

/* rows converted a band at a time, by whichever thread claims it */
#define ROW_BAND 16

typedef struct RowJob {
    const G3DScanout *so;
    const uint8_t *base;
    uint32_t *dst;
    uint32_t dst_pitch;
    uint32_t next;              /* the next band, claimed atomically */
} RowJob;

static void copy_rows(const G3DScanout *so, const uint8_t *base,
                      uint32_t *dst, uint32_t dst_pitch, uint32_t y0,
                      uint32_t y1)
{
    uint32_t y;

    for (y = y0; y < y1; y++) {
        const uint8_t *src = base + (size_t)y * so->pitch;
        if (so->convert) {
            so->convert(so, src, dst + (size_t)y * dst_pitch, (int)y);
        } else {
            g3d_fmt_row_to_argb(so->format, src,
                                dst + (size_t)y * dst_pitch, so->width);
        }
    }
}

static void row_job(void *arg, int thread)
{
    RowJob *j = arg;
    uint32_t b;

    while ((b = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED)) * ROW_BAND <
           j->so->height) {
        copy_rows(j->so, j->base, j->dst, j->dst_pitch, b * ROW_BAND,
                  MIN((b + 1) * ROW_BAND, j->so->height));
    }
}

bool g3d_scanout_copy(const G3DScanout *so, const G3DMem *mem,
                      uint32_t *dst, uint32_t dst_pitch, const char *who)
{
    uint32_t line_bytes, y, x;
    const uint8_t *base;

    if (!g3d_scanout_check(so, mem, who)) {
        return false;
    }
    line_bytes = stored_line_bytes(so);
    base = g3d_mem_map(mem, so->addr, picture_span(so), false);

    if (so->fetch && !so->rotate) {
        /* the linear path below stays as it was: no copy per line */
        uint8_t *line = g_malloc(line_bytes);
        for (y = 0; y < so->height; y++) {
            so->fetch(so, base, line, y);
            if (so->convert) {
                so->convert(so, line, dst + (size_t)y * dst_pitch, (int)y);
            } else {
                g3d_fmt_row_to_argb(so->format, line,
                                    dst + (size_t)y * dst_pitch, so->width);
            }
        }
        g_free(line);
        return true;
    }
    if (!so->rotate) {
        RowJob j = { so, base, dst, dst_pitch, 0 };

        if (!so->run || so->height <= ROW_BAND ||
            !so->run(so->run_opaque, row_job, &j)) {
            copy_rows(so, base, dst, dst_pitch, 0, so->height);
        }
        return true;
    }
    /* rotated: stored line x is screen column x, read bottom to top */
    {
        uint32_t *col = g_new(uint32_t, so->height);
        for (x = 0; x < so->width; x++) {
            const uint8_t *src = base + (size_t)x * so->pitch;
            if (so->convert) {
                so->convert(so, src, col, (int)x);
            } else {
                g3d_fmt_row_to_argb(so->format, src, col, so->height);
            }
            for (y = 0; y < so->height; y++) {
                dst[(size_t)(so->height - 1 - y) * dst_pitch + x] = col[y];
            }
        }
        g_free(col);
    }
    return true;
}

void g3d_scanout_cache_reset(G3DScanoutCache *cache)
{
    g_free(cache->bytes);
    memset(cache, 0, sizeof(*cache));
}

static bool same_scanout(const G3DScanout *a, const G3DScanout *b)
{
    /* field by field: a caller's struct may have uninitialised padding */
    return a->enabled == b->enabled && a->addr == b->addr &&
           a->width == b->width && a->height == b->height &&
           a->pitch == b->pitch && a->bytes_per_line == b->bytes_per_line &&
           a->format == b->format && a->convert == b->convert &&
           a->convert_opaque == b->convert_opaque && a->rotate == b->rotate &&
           a->fetch == b->fetch && a->fetch_opaque == b->fetch_opaque &&
           a->span == b->span;
}

bool g3d_scanout_copy_cached(G3DScanoutCache *cache, const G3DScanout *so,
                             const G3DMem *mem, uint32_t *dst,
                             uint32_t dst_pitch, const char *who,
                             bool *changed)
{
    const uint8_t *src;
    G3DFlatMem flat;
    G3DMem snap;
    size_t len;

    *changed = true;
    if (!g3d_scanout_check(so, mem, who)) {
        cache->valid = false;
        return false;
    }
    len = picture_span(so);
    src = g3d_mem_map(mem, so->addr, len, false);
    /* comparing reads the source once at memory speed; converting it
     * again costs a table lookup or more a pixel */
    if (cache->valid && cache->len == len && cache->dst == dst &&
        cache->dst_pitch == dst_pitch && same_scanout(&cache->so, so) &&
        memcmp(cache->bytes, src, len) == 0) {
        *changed = false;
        return true;
    }
    if (cache->len != len) {
        g_free(cache->bytes);
        cache->bytes = g_malloc(len);
        cache->len = len;
    }
    /*
     * Convert the snapshot, not the memory: a renderer may write the
     * memory meanwhile, and the picture shown must be the bytes the next
     * refresh compares with.
     */
    memcpy(cache->bytes, src, len);
    g3d_flat_mem_init(&snap, &flat, cache->bytes, so->addr, len);
    if (!g3d_scanout_copy(so, &snap, dst, dst_pitch, who)) {
        cache->valid = false;
        return false;
    }
    cache->so = *so;
    cache->dst = dst;
    cache->dst_pitch = dst_pitch;
    cache->valid = true;
    return true;
}
