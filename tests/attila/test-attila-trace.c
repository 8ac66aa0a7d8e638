/*
 * Unit tests of the ATTILA trace reader (hw/gpu3d/attila/tracefile.c,
 * agp-transaction.c): the header and every record kind of the real corpus
 * files, the record encoder against the file bytes, and bad files:
 * truncated and corrupt gzip streams, wrong signature or version, records
 * running past the end, unknown kinds, out-of-range register ids. Every bad
 * file is an error reported with its offset, never a crash.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "attila-corpus.h"

/* ---- helpers ------------------------------------------------------------- */

/* the decompressed bytes of a corpus trace, with the test's own zlib reader */
static GByteArray *inflate_corpus(const char *name)
{
    char *path = attila_corpus_path(name, "attila.tracefile.gz");
    gchar *gz;
    gsize gzlen;
    GByteArray *out = g_byte_array_new();
    z_stream zs = { 0 };
    uint8_t buf[1 << 16];
    int r;

    g_assert_true(g_file_get_contents(path, &gz, &gzlen, NULL));
    g_assert_cmpint(inflateInit2(&zs, 16 + MAX_WBITS), ==, Z_OK);
    zs.next_in = (Bytef *)gz;
    zs.avail_in = gzlen;
    do {
        zs.next_out = buf;
        zs.avail_out = sizeof(buf);
        r = inflate(&zs, Z_NO_FLUSH);
        g_assert_true(r == Z_OK || r == Z_STREAM_END);
        g_byte_array_append(out, buf, sizeof(buf) - zs.avail_out);
    } while (r != Z_STREAM_END);
    inflateEnd(&zs);
    g_free(gz);
    g_free(path);
    return out;
}

static void put32(GByteArray *b, uint32_t v)
{
    uint8_t p[4] = { v, v >> 8, v >> 16, v >> 24 };
    g_byte_array_append(b, p, 4);
}

/* a header as the corpus files have it */
static GByteArray *synthetic_trace(void)
{
    GByteArray *b = g_byte_array_new();
    static const uint8_t sig[8] = "ATILAt";
    uint8_t pad[ATTILA_TRACE_HDR_SIZE];

    g_byte_array_append(b, sig, 8);
    put32(b, 0x0100);                   /* version */
    put32(b, 0);                        /* startFrame */
    put32(b, 1);                        /* traceFrames */
    put32(b, 256);                      /* memSize MB */
    put32(b, 16);                       /* mappedMemSize MB */
    put32(b, 2);
    put32(b, 4);
    put32(b, 16);
    put32(b, 16);
    put32(b, 4);
    put32(b, 4);
    memset(pad, 0, sizeof(pad));
    g_byte_array_append(b, pad, ATTILA_TRACE_HDR_SIZE - b->len);
    return b;
}

static void add_record(GByteArray *b, const AttilaTransaction *t)
{
    uint8_t rec[256];

    g_assert_cmpuint(attila_agp_size(t), <=, sizeof(rec));
    g_byte_array_append(b, rec, attila_agp_encode(t, rec));
}

/* read all records; the count read, -1 for an error (message in *err) */
static int read_all(AttilaTrace *tr, char **err)
{
    AttilaTransaction t;
    int n = 0, r;

    while ((r = attila_trace_next(tr, &t, err)) > 0) {
        n++;
    }
    return r < 0 ? -1 : n;
}

/* ---- the corpus ------------------------------------------------------------ */

static void test_corpus_headers(void)
{
    size_t i;

    for (i = 0; i < ATTILA_CORPUS_COUNT; i++) {
        char *path = attila_corpus_path(attila_corpus[i].name,
                                        "attila.tracefile.gz");
        char *err = NULL;
        AttilaTrace *tr = attila_trace_open(path, &err);
        const AttilaTraceHeader *h;
        int n;

        g_assert_nonnull(tr);
        h = attila_trace_header(tr);
        /* the configuration of ATTILA ref. Texture Tiling, Render Buffer Tiling
         * in every corpus file */
        g_assert_cmpuint(h->version, ==, 0x0100);
        g_assert_cmpuint(h->start_frame, ==, attila_corpus[i].frame);
        g_assert_cmpuint(h->trace_frames, >=, 1);
        g_assert_cmpuint(h->mem_size, ==, 256);
        g_assert_cmpuint(h->mapped_mem_size, ==, 16);
        g_assert_cmpuint(h->tex_block_dim, ==, ATTILA_TEX_BLOCK_DIM);
        g_assert_cmpuint(h->tex_sblock_dim, ==, ATTILA_TEX_SBLOCK_DIM);
        g_assert_cmpuint(h->scan_width, ==, 16);
        g_assert_cmpuint(h->scan_height, ==, 16);
        g_assert_cmpuint(h->overscan_width, ==, 4);
        g_assert_cmpuint(h->overscan_height, ==, 4);
        n = read_all(tr, &err);
        g_assert_cmpint(n, >, 0);
        g_test_message("%-13s %d records, %u frame(s) from frame %u",
                       attila_corpus[i].name, n, h->trace_frames,
                       h->start_frame);
        attila_trace_close(tr);
        g_free(path);
    }
}

/* every record re-encodes to its exact bytes; all kinds occur */
static void test_corpus_records(void)
{
    size_t i;
    unsigned kinds = 0;

    for (i = 0; i < ATTILA_CORPUS_COUNT; i++) {
        GByteArray *raw = inflate_corpus(attila_corpus[i].name);
        AttilaTrace *tr = attila_trace_from_bytes(raw->data, raw->len, NULL);
        AttilaTransaction t;
        uint8_t *enc = g_malloc(raw->len);
        size_t pos = ATTILA_TRACE_HDR_SIZE;
        char *err = NULL;

        g_assert_nonnull(tr);
        while (attila_trace_next(tr, &t, &err) > 0) {
            size_t n = attila_agp_encode(&t, enc);
            g_assert_cmpuint(n, ==, attila_agp_size(&t));
            g_assert_cmpuint(pos + n, ==, attila_trace_offset(tr));
            g_assert_cmpmem(enc, n, raw->data + pos, n);
            kinds |= 1u << t.kind;
            if (t.kind == ATTILA_AGP_REG_WRITE) {
                g_assert_cmpuint(t.reg, <, ATTILA_REG_LAST_REGISTER);
            }
            pos += n;
        }
        g_assert_null(err);
        g_assert_cmpuint(pos, ==, raw->len);
        attila_trace_close(tr);
        g_free(enc);
        g_byte_array_free(raw, TRUE);
    }
    g_assert_cmphex(kinds, ==, 1u << ATTILA_AGP_WRITE | 1u << ATTILA_AGP_PRELOAD |
                    1u << ATTILA_AGP_REG_WRITE | 1u << ATTILA_AGP_COMMAND |
                    1u << ATTILA_AGP_EVENT);
}

/* ---- bad files ------------------------------------------------------------- */

static char *write_temp(const void *p, size_t len)
{
    char *path = NULL;
    GError *e = NULL;
    int fd = g_file_open_tmp("attila-trace-XXXXXX.gz", &path, &e);

    g_assert_no_error(e);
    close(fd);
    g_assert_true(g_file_set_contents(path, p, len, NULL));
    return path;
}

/* open + read a file; true if an error was reported (open or a record) */
static bool reports_error(const char *path)
{
    char *err = NULL;
    AttilaTrace *tr = attila_trace_open(path, &err);
    bool bad;

    if (!tr) {
        g_assert_nonnull(err);
        g_free(err);
        return true;
    }
    bad = read_all(tr, &err) < 0;
    if (bad) {
        g_assert_nonnull(err);
        g_assert_nonnull(strstr(err, "offset"));
    }
    g_free(err);
    attila_trace_close(tr);
    return bad;
}

static void test_truncated_gzip(void)
{
    char *path = attila_corpus_path("8lights", "attila.tracefile.gz");
    gchar *gz;
    gsize len, cut;

    g_assert_true(g_file_get_contents(path, &gz, &len, NULL));
    /* cut inside the gzip header, the trace header, the records, the trailer */
    for (cut = 0; cut < len; cut += cut < 64 ? 7 : 997) {
        char *tmp = write_temp(gz, cut);
        if (!reports_error(tmp)) {
            g_test_message("cut at %zu of %zu not reported", cut, len);
            g_assert_not_reached();
        }
        g_unlink(tmp);
        g_free(tmp);
    }
    {
        char *tmp = write_temp(gz, len - 1);     /* one trailer byte short */
        g_assert_true(reports_error(tmp));
        g_unlink(tmp);
        g_free(tmp);
    }
    g_free(gz);
    g_free(path);
}

static void test_corrupt_gzip(void)
{
    char *path = attila_corpus_path("triangle", "attila.tracefile.gz");
    gchar *gz;
    gsize len, k;
    int reported = 0, tries = 0;

    g_assert_true(g_file_get_contents(path, &gz, &len, NULL));
    /* flip bytes in the deflate data: the stream or its CRC must break */
    for (k = 20; k < len - 8; k += len / 23) {
        char *tmp;
        gz[k] ^= 0x55;
        tmp = write_temp(gz, len);
        reported += reports_error(tmp);
        tries++;
        g_unlink(tmp);
        g_free(tmp);
        gz[k] ^= 0x55;
    }
    g_test_message("%d of %d corruptions reported", reported, tries);
    g_assert_cmpint(reported, ==, tries);
    g_free(gz);
    g_free(path);
}

static void test_bad_header(void)
{
    GByteArray *b = synthetic_trace();
    char *err = NULL;
    AttilaTrace *tr;

    tr = attila_trace_from_bytes(b->data, b->len, &err);
    g_assert_nonnull(tr);
    g_assert_cmpint(read_all(tr, &err), ==, 0);    /* no records: clean end */
    attila_trace_close(tr);

    g_assert_null(attila_trace_from_bytes(b->data, b->len - 1, &err));
    g_assert_nonnull(strstr(err, "truncated"));
    b->data[0] = 'X';
    g_assert_null(attila_trace_from_bytes(b->data, b->len, &err));
    g_assert_nonnull(strstr(err, "signature"));
    b->data[0] = 'A';
    b->data[8] = 0x02;
    g_assert_null(attila_trace_from_bytes(b->data, b->len, &err));
    g_assert_nonnull(strstr(err, "version"));
    g_free(err);
    g_byte_array_free(b, TRUE);

    /* not gzip and not a trace */
    {
        static const char text[] = "hello, this is not a trace\n";
        char *tmp = write_temp(text, sizeof(text));
        g_assert_true(reports_error(tmp));
        g_unlink(tmp);
        g_free(tmp);
    }
    g_assert_true(reports_error("/nonexistent/attila.tracefile.gz"));
}

static void test_bad_records(void)
{
    static const uint8_t data[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    AttilaTransaction good[] = {
        { .kind = ATTILA_AGP_WRITE, .address = 0x1000, .size = 8, .data = data },
        { .kind = ATTILA_AGP_PRELOAD, .address = 0x2000, .size = 8, .data = data },
        { .kind = ATTILA_AGP_REG_WRITE, .reg = ATTILA_REG_VIEWPORT_WIDTH,
          .value = { 64 } },
        { .kind = ATTILA_AGP_COMMAND, .command = ATTILA_CMD_DRAW },
        { .kind = ATTILA_AGP_EVENT, .event = 0, .size = 4, .data = data },
    };
    size_t i, len;
    uint8_t rec[64];
    AttilaTransaction t;
    size_t used;

    /* every prefix of every record is "truncated", the whole record is OK */
    for (i = 0; i < G_N_ELEMENTS(good); i++) {
        len = attila_agp_encode(&good[i], rec);
        for (used = 0; used < len; used++) {
            size_t u = 0;
            g_assert_cmpint(attila_agp_parse(rec, used, &t, &u), ==,
                            ATTILA_PARSE_TRUNCATED);
        }
        g_assert_cmpint(attila_agp_parse(rec, len, &t, &used), ==,
                        ATTILA_PARSE_OK);
        g_assert_cmpuint(used, ==, len);
        g_assert_cmpuint(t.kind, ==, good[i].kind);
    }
    /* kinds 1, 4, 6 (never in a file) and others are unknown */
    {
        static const uint32_t bad_kinds[] = { 1, 4, 6, 8, 0xffffffffu };
        for (i = 0; i < G_N_ELEMENTS(bad_kinds); i++) {
            uint8_t p[32] = { 0 };
            memcpy(p, &bad_kinds[i], 4);
            g_assert_cmpint(attila_agp_parse(p, sizeof(p), &t, &used), ==,
                            ATTILA_PARSE_BAD_KIND);
        }
    }
    /* a register id past the last register */
    {
        AttilaTransaction r = good[2];
        r.reg = ATTILA_REG_LAST_REGISTER;
        len = attila_agp_encode(&r, rec);
        g_assert_cmpint(attila_agp_parse(rec, len, &t, &used), ==,
                        ATTILA_PARSE_BAD_REGISTER);
        r.reg = 0xffffffffu;
        len = attila_agp_encode(&r, rec);
        g_assert_cmpint(attila_agp_parse(rec, len, &t, &used), ==,
                        ATTILA_PARSE_BAD_REGISTER);
    }
    /* a WRITE whose size runs past the end: huge sizes do not wrap */
    {
        AttilaTransaction w = good[0];
        len = attila_agp_encode(&w, rec);
        rec[13] = rec[14] = rec[15] = rec[16] = 0xff;
        g_assert_cmpint(attila_agp_parse(rec, len, &t, &used), ==,
                        ATTILA_PARSE_TRUNCATED);
    }
}

/* a trace file with a bad record in the middle: the good ones, then -1 */
static void test_bad_record_in_file(void)
{
    static const uint8_t data[4] = { 1, 2, 3, 4 };
    AttilaTransaction cmd = { .kind = ATTILA_AGP_COMMAND,
                              .command = ATTILA_CMD_SWAPBUFFERS };
    AttilaTransaction ev = { .kind = ATTILA_AGP_EVENT, .size = 4, .data = data };
    int variant;

    for (variant = 0; variant < 3; variant++) {
        GByteArray *b = synthetic_trace();
        AttilaTrace *tr;
        AttilaTransaction t;
        char *err = NULL;
        size_t bad_at;

        add_record(b, &cmd);
        add_record(b, &ev);
        bad_at = b->len;
        switch (variant) {
        case 0:                 /* unknown kind */
            put32(b, 4);
            put32(b, 0);
            break;
        case 1: {               /* register id out of range */
            AttilaTransaction r = { .kind = ATTILA_AGP_REG_WRITE, .reg = 152 };
            add_record(b, &r);
            break;
        }
        default:                /* EVENT whose message runs past the end */
            add_record(b, &ev);
            b->len -= 2;
            break;
        }
        tr = attila_trace_from_bytes(b->data, b->len, &err);
        g_assert_nonnull(tr);
        g_assert_cmpint(attila_trace_next(tr, &t, &err), ==, 1);
        g_assert_cmpint(attila_trace_next(tr, &t, &err), ==, 1);
        g_assert_cmpint(attila_trace_next(tr, &t, &err), ==, -1);
        g_assert_nonnull(err);
        g_test_message("variant %d: %s", variant, err);
        {
            char *at = g_strdup_printf("offset %zu", bad_at);
            g_assert_nonnull(strstr(err, at));
            g_free(at);
        }
        /* the reader stays at the bad record */
        g_assert_cmpint(attila_trace_next(tr, &t, &err), ==, -1);
        g_free(err);
        attila_trace_close(tr);
        g_byte_array_free(b, TRUE);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/attila/trace/corpus-headers", test_corpus_headers);
    g_test_add_func("/attila/trace/corpus-records", test_corpus_records);
    g_test_add_func("/attila/trace/truncated-gzip", test_truncated_gzip);
    g_test_add_func("/attila/trace/corrupt-gzip", test_corrupt_gzip);
    g_test_add_func("/attila/trace/bad-header", test_bad_header);
    g_test_add_func("/attila/trace/bad-records", test_bad_records);
    g_test_add_func("/attila/trace/bad-record-in-file", test_bad_record_in_file);
    return g_test_run();
}
