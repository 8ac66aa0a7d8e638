/*
 * ATTILA AGP trace files: a gzip stream of a 16,396-byte header
 * (AGPTraceFileHeader, ATTILA ref. AGP Transactions; attila-sim
 * AGPTransaction.cpp) followed by transaction records.
 *
 * Header layout, checked against the corpus files (x86 struct layout, the
 * bools padded to 4 bytes where a u32 follows):
 *   0 char signature[8] = "ATILAt\0\0"   8 u32 version = 0x0100
 *   12 startFrame  16 traceFrames  20 memSize (MB)  24 mappedMemSize (MB)
 *   28 textBlockDim  32 textSBlockDim  36 scanWidth  40 scanHeight
 *   44 overScanWidth  48 overScanHeight  52 bool doubleBuffer
 *   56 fetchRate  60 bool memoryControllerV2  61 bool v2SecondInterleaving
 *   the rest of the 16,384-byte parameter union is padding.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "attila-int.h"

#include <glib.h>
#include <zlib.h>

/* a decompressed trace larger than this is refused */
#define TRACE_MAX_BYTES (1ull << 30)

struct AttilaTrace {
    uint8_t *data;
    size_t len;
    size_t pos;
    bool owned;
    AttilaTraceHeader hdr;
};

static inline uint32_t ld32(const uint8_t *p)
{
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void set_err(char **err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void set_err(char **err, const char *fmt, ...)
{
    va_list ap;

    if (!err) {
        return;
    }
    va_start(ap, fmt);
    g_free(*err);
    *err = g_strdup_vprintf(fmt, ap);
    va_end(ap);
}

bool attila_trace_parse_header(const uint8_t *p, size_t len,
                               AttilaTraceHeader *h, char **err)
{
    if (len < ATTILA_TRACE_HDR_SIZE) {
        set_err(err, "trace header truncated: %zu of %d bytes", len,
                ATTILA_TRACE_HDR_SIZE);
        return false;
    }
    if (memcmp(p, ATTILA_TRACE_SIGNATURE, 6) != 0 || p[6] != 0) {
        set_err(err, "not an ATTILA trace (signature)");
        return false;
    }
    memset(h, 0, sizeof(*h));
    h->version = ld32(p + 8);
    if (h->version != ATTILA_TRACE_VERSION) {
        set_err(err, "trace version 0x%x, expected 0x%x", h->version,
                ATTILA_TRACE_VERSION);
        return false;
    }
    h->start_frame = ld32(p + 12);
    h->trace_frames = ld32(p + 16);
    h->mem_size = ld32(p + 20);
    h->mapped_mem_size = ld32(p + 24);
    h->tex_block_dim = ld32(p + 28);
    h->tex_sblock_dim = ld32(p + 32);
    h->scan_width = ld32(p + 36);
    h->scan_height = ld32(p + 40);
    h->overscan_width = ld32(p + 44);
    h->overscan_height = ld32(p + 48);
    h->double_buffer = p[52] != 0;
    h->fetch_rate = ld32(p + 56);
    h->mc_v2 = p[60] != 0;
    h->v2_second_interleaving = p[61] != 0;
    return true;
}

static AttilaTrace *trace_init(uint8_t *data, size_t len, bool owned,
                               char **err)
{
    AttilaTrace *tr = g_new0(AttilaTrace, 1);

    tr->data = data;
    tr->len = len;
    tr->owned = owned;
    if (!attila_trace_parse_header(data, len, &tr->hdr, err)) {
        attila_trace_close(tr);
        return NULL;
    }
    tr->pos = ATTILA_TRACE_HDR_SIZE;
    return tr;
}

AttilaTrace *attila_trace_from_bytes(const uint8_t *p, size_t len, char **err)
{
    return trace_init((uint8_t *)p, len, false, err);
}

AttilaTrace *attila_trace_open(const char *path, char **err)
{
    gzFile gz = gzopen(path, "rb");
    GByteArray *buf;
    uint8_t chunk[1 << 16];
    int n, zerr;

    if (!gz) {
        set_err(err, "%s: cannot open", path);
        return NULL;
    }
    buf = g_byte_array_new();
    while ((n = gzread(gz, chunk, sizeof(chunk))) > 0) {
        if (buf->len + (uint64_t)n > TRACE_MAX_BYTES) {
            set_err(err, "%s: larger than %llu bytes decompressed", path,
                    (unsigned long long)TRACE_MAX_BYTES);
            gzclose(gz);
            g_byte_array_free(buf, TRUE);
            return NULL;
        }
        g_byte_array_append(buf, chunk, n);
    }
    /* zlib reports a stream cut short (Z_BUF_ERROR) only through gzerror */
    gzerror(gz, &zerr);
    if (n < 0 || zerr != Z_OK || !gzeof(gz)) {
        const char *msg = gzerror(gz, &zerr);
        set_err(err, "%s: gzip stream broken after %u bytes: %s", path,
                buf->len, msg ? msg : "read error");
        gzclose(gz);
        g_byte_array_free(buf, TRUE);
        return NULL;
    }
    gzclose(gz);
    {
        size_t len = buf->len;
        uint8_t *data = g_byte_array_free(buf, FALSE);
        return trace_init(data, len, true, err);
    }
}

void attila_trace_close(AttilaTrace *tr)
{
    if (!tr) {
        return;
    }
    if (tr->owned) {
        g_free(tr->data);
    }
    g_free(tr);
}

const AttilaTraceHeader *attila_trace_header(const AttilaTrace *tr)
{
    return &tr->hdr;
}

size_t attila_trace_offset(const AttilaTrace *tr)
{
    return tr->pos;
}

int attila_trace_next(AttilaTrace *tr, AttilaTransaction *t, char **err)
{
    size_t used = 0;
    AttilaParse r;

    if (tr->pos == tr->len) {
        return 0;
    }
    r = attila_agp_parse(tr->data + tr->pos, tr->len - tr->pos, t, &used);
    if (r != ATTILA_PARSE_OK) {
        set_err(err, "record at offset %zu (kind %u): %s", tr->pos,
                tr->len - tr->pos >= 4 ? ld32(tr->data + tr->pos) : 0u,
                attila_parse_error(r));
        return -1;
    }
    tr->pos += used;
    return 1;
}
