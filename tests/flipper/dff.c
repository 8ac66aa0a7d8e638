/*
 * Dolphin FIFO log writer and reader (see dff.h). Layout (Dolphin
 * FifoPlayer/FifoDataFile.cpp, little-endian, packed): a 128-byte header; the
 * frame list (64 bytes a frame); BP (256 words), CP (256), XF memory (4096) and
 * XF registers (88) as loaded; the 1 MiB TMEM image (the loader requires it);
 * then each frame's FIFO bytes and its memory updates (24 bytes each) with
 * their data.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "dff.h"

#include <stdio.h>
#include <string.h>

#define DFF_FILE_ID     0x0D01F1F0u
#define DFF_VERSION     4
#define DFF_TMEM_SIZE   (1u << 20)
#define DFF_FIFO_START  0x00100000u     /* a plausible 64 KiB ring */
#define DFF_FIFO_END    0x00110000u
#define MEMUPDATE_VERTEX_STREAM 4

static void le32(GByteArray *b, uint32_t v)
{
    uint8_t p[4] = { v, v >> 8, v >> 16, v >> 24 };
    g_byte_array_append(b, p, 4);
}

static void set_le32(GByteArray *b, size_t off, uint32_t v)
{
    b->data[off] = v;
    b->data[off + 1] = v >> 8;
    b->data[off + 2] = v >> 16;
    b->data[off + 3] = v >> 24;
}

static void set_le64(GByteArray *b, size_t off, uint64_t v)
{
    set_le32(b, off, (uint32_t)v);
    set_le32(b, off + 4, (uint32_t)(v >> 32));
}

static void words(GByteArray *b, const uint32_t *w, unsigned n)
{
    unsigned i;

    for (i = 0; i < n; i++) {
        le32(b, w[i]);
    }
}

bool flipper_dff_write(const FlipperScene *s, const char *path)
{
    GByteArray *b = g_byte_array_new();
    size_t frame_off, bp_off, cp_off, xf_off, xfr_off, tmem_off, fifo_off;
    size_t upd_off;
    guint i;
    bool ok;
    FILE *f;

    g_byte_array_set_size(b, 128);
    memset(b->data, 0, 128);
    frame_off = b->len;
    g_byte_array_set_size(b, b->len + 64);
    memset(b->data + frame_off, 0, 64);
    bp_off = b->len;
    words(b, s->bp, 256);
    cp_off = b->len;
    words(b, s->cp, 256);
    xf_off = b->len;
    words(b, s->xfmem, XF_MEM_WORDS);
    xfr_off = b->len;
    words(b, s->xfregs, XF_REG_COUNT);
    tmem_off = b->len;
    g_byte_array_set_size(b, b->len + DFF_TMEM_SIZE);
    memset(b->data + tmem_off, 0, DFF_TMEM_SIZE);
    fifo_off = b->len;
    g_byte_array_append(b, s->fifo->data, s->fifo->len);
    upd_off = b->len;
    g_byte_array_set_size(b, b->len + 24 * s->mem->len);
    memset(b->data + upd_off, 0, 24 * s->mem->len);
    for (i = 0; i < s->mem->len; i++) {
        const SceneBlob *blob = &g_array_index(s->mem, SceneBlob, i);
        size_t u = upd_off + 24 * i, data_off = b->len;

        g_byte_array_append(b, blob->data->data, blob->data->len);
        set_le32(b, u + 0, 0);                  /* at FIFO position 0 */
        set_le32(b, u + 4, blob->addr);
        set_le64(b, u + 8, data_off);
        set_le32(b, u + 16, blob->data->len);
        b->data[u + 20] = MEMUPDATE_VERTEX_STREAM;
    }

    set_le32(b, 0, DFF_FILE_ID);
    set_le32(b, 4, DFF_VERSION);
    set_le32(b, 8, 1);                          /* minimum loader version */
    set_le64(b, 12, bp_off);
    set_le32(b, 20, 256);
    set_le64(b, 24, cp_off);
    set_le32(b, 32, 256);
    set_le64(b, 36, xf_off);
    set_le32(b, 44, XF_MEM_WORDS);
    set_le64(b, 48, xfr_off);
    set_le32(b, 56, XF_REG_COUNT);
    set_le64(b, 60, frame_off);
    set_le32(b, 68, 1);                         /* frames */
    set_le32(b, 72, 0);                         /* flags: GameCube */
    set_le64(b, 76, tmem_off);
    set_le32(b, 84, DFF_TMEM_SIZE);

    set_le64(b, frame_off + 0, fifo_off);
    set_le32(b, frame_off + 8, s->fifo->len);
    set_le32(b, frame_off + 12, DFF_FIFO_START);
    set_le32(b, frame_off + 16, DFF_FIFO_END);
    set_le64(b, frame_off + 20, upd_off);
    set_le32(b, frame_off + 28, s->mem->len);

    f = fopen(path, "wb");
    ok = f && fwrite(b->data, 1, b->len, f) == b->len;
    if (f) {
        ok &= fclose(f) == 0;
    }
    g_byte_array_unref(b);
    return ok;
}

/* ---- reading -------------------------------------------------------------- */

static uint32_t get32(const uint8_t *p)
{
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
    return get32(p) | (uint64_t)get32(p + 4) << 32;
}

static bool range(gsize len, uint64_t off, uint64_t size)
{
    return off <= len && size <= len - off;
}

static bool read_words(const uint8_t *d, gsize len, const uint8_t *hdr,
                       uint32_t *out, unsigned max)
{
    uint64_t off = get64(hdr);
    uint32_t n = MIN(get32(hdr + 8), max), i;

    if (!range(len, off, 4ull * n)) {
        return false;
    }
    for (i = 0; i < n; i++) {
        out[i] = get32(d + off + 4 * i);
    }
    return true;
}

FlipperScene *flipper_dff_read(const char *path)
{
    gchar *d;
    gsize len;
    FlipperScene *s = NULL;
    GError *err = NULL;
    uint64_t fr, fifo, upd;
    uint32_t fifo_len, nupd, i;

    if (!g_file_get_contents(path, &d, &len, &err)) {
        fprintf(stderr, "%s: %s\n", path, err->message);
        g_error_free(err);
        return NULL;
    }
    if (len < 128 || get32((uint8_t *)d) != DFF_FILE_ID ||
        get32((uint8_t *)d + 68) < 1) {
        fprintf(stderr, "%s: not a Dolphin FIFO log with a frame\n", path);
        goto out;
    }
    s = g_new0(FlipperScene, 1);
    g_strlcpy(s->name, path, sizeof(s->name));
    s->mem = g_array_new(false, true, sizeof(SceneBlob));
    s->fifo = g_byte_array_new();
    s->width = SCENE_W;
    s->height = SCENE_H;
    fr = get64((uint8_t *)d + 60);
    if (!read_words((uint8_t *)d, len, (uint8_t *)d + 12, s->bp, 256) ||
        !read_words((uint8_t *)d, len, (uint8_t *)d + 24, s->cp, 256) ||
        !read_words((uint8_t *)d, len, (uint8_t *)d + 36, s->xfmem,
                    XF_MEM_WORDS) ||
        !read_words((uint8_t *)d, len, (uint8_t *)d + 48, s->xfregs,
                    XF_REG_COUNT) ||
        !range(len, fr, 64)) {
        goto bad;
    }
    fifo = get64((uint8_t *)d + fr);
    fifo_len = get32((uint8_t *)d + fr + 8);
    upd = get64((uint8_t *)d + fr + 20);
    nupd = get32((uint8_t *)d + fr + 28);
    if (!range(len, fifo, fifo_len) || !range(len, upd, 24ull * nupd)) {
        goto bad;
    }
    g_byte_array_append(s->fifo, (uint8_t *)d + fifo, fifo_len);
    for (i = 0; i < nupd; i++) {
        const uint8_t *u = (uint8_t *)d + upd + 24 * i;
        uint64_t off = get64(u + 8);
        uint32_t size = get32(u + 16);
        if (!range(len, off, size)) {
            goto bad;
        }
        if (get32(u) != 0) {
            fprintf(stderr, "%s: memory update at FIFO position %u applied "
                    "at the start\n", path, get32(u));
        }
        memcpy(flipper_scene_add_blob(s, get32(u + 4), size), d + off, size);
    }
    goto out;
bad:
    fprintf(stderr, "%s: truncated or damaged log\n", path);
    flipper_scene_free(s);
    s = NULL;
out:
    g_free(d);
    return s;
}
