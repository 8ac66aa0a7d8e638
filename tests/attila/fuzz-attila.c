/*
 * Fuzz harness for the attila-3d transaction reader and command processor.
 *
 * Input: one control byte, then transaction records in the trace-file
 * format (no file header). Control bit 0 selects the path: the records are
 * parsed with attila_agp_parse and executed one by one (the replay tool's
 * path), or copied into a command ring in GPU memory and run with
 * attila_core_work in budgets of 1..8 records (the device's path). Bits 4-7
 * pick a ring size. The trace reader also gets the bytes behind a real
 * header. Seeds are the records of the vendored corpus traces and of the
 * compressed-texture scene (attila-dxt-records.h: DXT1/3/5 textures, also
 * with its vertices loaded by LDA under attribute bypass), so mutations
 * reach the draw path, the texture decoder and LDA with real state.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "attila/attila.h"
#include "attila-dxt-records.h"

#define GPU_MEM (4u << 20)
#define SYS_MEM (64u << 10)
#define RING_AT 0x00380000u

static uint8_t *gpu, *sys;
static AttilaCore *core;
static G3DFlatMem gpu_flat, sys_flat;

static void setup(void)
{
    AttilaCoreConfig cfg = { .vram_size = GPU_MEM, .hooks.threads = 1 };

    if (core) {
        return;
    }
    gpu = g_malloc0(GPU_MEM);
    sys = g_malloc0(SYS_MEM);
    g3d_flat_mem_init(&cfg.vram, &gpu_flat, gpu, 0, GPU_MEM);
    g3d_flat_mem_init(&cfg.sys, &sys_flat, sys, 0, SYS_MEM);
    core = attila_core_new(&cfg);
}

/* every input starts from the same device: reset, memory cleared */
static void fresh_device(void)
{
    attila_reg_write(core, A_ATTILA_CONTROL, R_ATTILA_CONTROL_RESET_MASK, 4);
    memset(gpu, 0, GPU_MEM);
    memset(sys, 0, SYS_MEM);
    attila_reg_write(core, A_ATTILA_SYSMEM_SIZE, SYS_MEM, 4);
}

static void run_direct(const uint8_t *p, size_t len)
{
    size_t pos = 0, used;
    AttilaTransaction t;

    while (pos < len && attila_agp_parse(p + pos, len - pos, &t, &used) ==
           ATTILA_PARSE_OK) {
        attila_core_execute(core, &t);
        pos += used;
    }
}

static void run_ring(const uint8_t *p, size_t len, uint8_t ctl)
{
    static const uint32_t sizes[4] = { 64, 4096, 65536, 256 << 10 };
    uint32_t size = sizes[(ctl >> 4) & 3], wp = 0, budget = 1 + ((ctl >> 1) & 7);
    size_t pos = 0;
    int guard = 0;

    attila_reg_write(core, A_ATTILA_RING_BASE, (ctl & 0x40) ?
                     0x80000000u : RING_AT, 4);
    if (ctl & 0x40) {
        size = MIN(size, SYS_MEM);
    }
    attila_reg_write(core, A_ATTILA_RING_SIZE, size, 4);
    attila_reg_write(core, A_ATTILA_RING_CONTROL, 1, 4);
    /* feed what fits, let the device run, repeat */
    while (pos < len && guard++ < 100000) {
        uint32_t rp = (uint32_t)attila_reg_read(core, A_ATTILA_RING_READ, 4);
        uint32_t room = (rp + size - wp - 1) % size;
        size_t n = MIN(room, len - pos);
        uint8_t *ring = (ctl & 0x40) ? sys : gpu + RING_AT;
        size_t k;

        if (!attila_reg_read(core, A_ATTILA_RING_CONTROL, 4)) {
            break;              /* the device refused the ring */
        }
        for (k = 0; k < n; k++) {
            ring[(wp + k) % size] = p[pos + k];
        }
        pos += n;
        wp = (uint32_t)((wp + n) % size);
        attila_reg_write(core, A_ATTILA_RING_WRITE, wp, 4);
        attila_reg_write(core, A_ATTILA_DOORBELL, 1, 4);
        while (attila_core_work(core, budget) && guard++ < 100000) {
        }
        if (n == 0 && rp == (uint32_t)attila_reg_read(core, A_ATTILA_RING_READ, 4)) {
            break;              /* a record bigger than the ring: stuck */
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    G3DScanout so;

    if (size < 1) {
        return 0;
    }
    setup();
    fresh_device();
    if (data[0] & 1) {
        run_ring(data + 1, size - 1, data[0]);
    } else {
        run_direct(data + 1, size - 1);
    }
    /* what a guest reads back must be readable */
    if (attila_scanout(core, 0, &so)) {
        uint32_t *px = g_new(uint32_t, (size_t)so.width * so.height);
        g3d_scanout_copy(&so, attila_scanout_mem(core), px, so.width, "fuzz");
        g_free(px);
    }
    (void)attila_reg_read(core, A_ATTILA_STATUS, 4);

    /* the trace reader over the same bytes behind a valid header */
    {
        uint8_t *buf = g_malloc0(ATTILA_TRACE_HDR_SIZE + size);
        AttilaTrace *tr;
        AttilaTransaction t;
        char *err = NULL;

        memcpy(buf, ATTILA_TRACE_SIGNATURE, 6);
        buf[8] = 0x00;
        buf[9] = 0x01;
        memcpy(buf + ATTILA_TRACE_HDR_SIZE, data, size);
        tr = attila_trace_from_bytes(buf, ATTILA_TRACE_HDR_SIZE + size, &err);
        if (tr) {
            while (attila_trace_next(tr, &t, &err) > 0) {
            }
            attila_trace_close(tr);
        }
        g_free(err);
        g_free(buf);
    }
    return 0;
}

/* ---- seeds: the records of small corpus traces ------------------------------ */

static GByteArray *seed_trace(const char *name)
{
    const char *root = getenv("GPU3D_SRCDIR");
    char *path;
    gzFile gz;
    GByteArray *b = g_byte_array_new();
    uint8_t chunk[16384];
    int n;

    path = g_build_filename(root && *root ? root : GPU3D_SOURCE_ROOT, "tests",
                            "attila", "corpus", name, "attila.tracefile.gz",
                            NULL);
    gz = gzopen(path, "rb");
    g_free(path);
    if (!gz) {
        return b;
    }
    while ((n = gzread(gz, chunk, sizeof(chunk))) > 0) {
        g_byte_array_append(b, chunk, n);
    }
    gzclose(gz);
    if (b->len <= ATTILA_TRACE_HDR_SIZE) {
        g_byte_array_set_size(b, 0);
    } else {
        g_byte_array_remove_range(b, 0, ATTILA_TRACE_HDR_SIZE);
    }
    return b;
}

size_t gpu3d_fuzz_seed(unsigned index, uint8_t *buf, size_t max);
size_t gpu3d_fuzz_seed(unsigned index, uint8_t *buf, size_t max)
{
    static GByteArray *seeds[4];
    static const char *const names[2] = { "triangle", "d3d-triangle" };
    GByteArray *s;
    size_t n;

    if (index % 8 == 7) {
        return 0;               /* some purely random inputs too */
    }
    s = seeds[index % 4];
    if (!s && index % 4 >= 2) {
        /* the DXT scene; its LDA / attribute-bypass variant */
        AttilaRecBuf b = { g_malloc(65536), 0, 65536, 0 };
        dxt_scene_records(&b, NULL, 0.0f, index % 4 == 3);
        s = seeds[index % 4] = g_byte_array_new_take(b.buf,
                                                     b.overflow ? 0 : b.n);
    } else if (!s) {
        s = seeds[index % 4] = seed_trace(names[index % 4]);
    }
    if (s->len == 0 || max < 2) {
        return 0;
    }
    n = MIN(s->len, max - 1);
    buf[0] = (uint8_t)(index * 0x9d);       /* path, budget, ring size */
    memcpy(buf + 1, s->data, n);
    return n + 1;
}
