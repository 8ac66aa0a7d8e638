/*
 * The attila-3d core against the real ATTILA trace corpus
 * (tests/attila/corpus): every trace replayed through the core, its frame
 * compared with the frame the ATTILA cycle-level simulator rendered from
 * the same trace (the independent reference, docs/architecture.md
 * "Correctness"), the PSNR and differing pixels printed. Then the same traces
 * fed through the device's command ring (records copied into ring memory,
 * RING_WRITE, doorbell, attila_core_work until idle) must give the identical
 * frames, and the image must not depend on the render thread count.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "attila-corpus.h"
#include "attila/attila-int.h"
#include "common/g3d-core.h"
#include "common/raster.h"

/* ---- direct replay -------------------------------------------------------- */

typedef struct Frames {
    GPtrArray *images;      /* G3DImage *, in order */
    GArray *numbers;        /* uint32_t frame numbers */
} Frames;

static void frames_init(Frames *f)
{
    f->images = g_ptr_array_new();
    f->numbers = g_array_new(FALSE, FALSE, sizeof(uint32_t));
}

static void frames_free(Frames *f)
{
    guint i;

    for (i = 0; i < f->images->len; i++) {
        G3DImage *img = g_ptr_array_index(f->images, i);
        g3d_image_free(img);
        g_free(img);
    }
    g_ptr_array_free(f->images, TRUE);
    g_array_free(f->numbers, TRUE);
}

static void frames_add(Frames *f, uint32_t frame, const G3DImage *img)
{
    G3DImage *copy = g_new0(G3DImage, 1);

    g_assert_true(g3d_image_alloc(copy, img->width, img->height));
    memcpy(copy->rgb, img->rgb, (size_t)img->width * img->height * 3);
    g_ptr_array_add(f->images, copy);
    g_array_append_val(f->numbers, frame);
}

static const G3DImage *frames_find(const Frames *f, uint32_t frame)
{
    guint i;

    for (i = 0; i < f->numbers->len; i++) {
        if (g_array_index(f->numbers, uint32_t, i) == frame) {
            return g_ptr_array_index(f->images, i);
        }
    }
    return NULL;
}

static bool keep_frame(void *opaque, uint32_t frame, const G3DImage *img)
{
    frames_add(opaque, frame, img);
    return true;
}

static AttilaTrace *open_corpus(const AttilaCorpusTrace *ct)
{
    char *path = attila_corpus_path(ct->name, "attila.tracefile.gz");
    char *err = NULL;
    AttilaTrace *tr = attila_trace_open(path, &err);

    if (!tr) {
        g_test_message("%s: %s", path, err);
    }
    g_assert_nonnull(tr);
    g_free(path);
    return tr;
}

/* replay a whole trace directly; every frame shown into *f */
static void replay(const AttilaCorpusTrace *ct, int threads, Frames *f)
{
    AttilaTrace *tr = open_corpus(ct);
    AttilaRun *run = attila_run_for_trace(attila_trace_header(tr), threads);
    char *err = NULL;

    g_assert_nonnull(run);
    frames_init(f);
    if (!attila_run_trace(run, tr, keep_frame, f, &err)) {
        g_test_message("%s: %s", ct->name, err);
        g_assert_not_reached();
    }
    /* a real trace is good input: the device must not have complained */
    g_assert_cmpuint(attila_reg_read(run->core, A_ATTILA_ERROR_COUNT, 4), ==, 0);
    attila_run_free(run);
    attila_trace_close(tr);
}

static void test_corpus_trace(gconstpointer data)
{
    const AttilaCorpusTrace *ct = data;
    char *refpath = attila_corpus_reference(ct);
    G3DImage ref = { 0 };
    const G3DImage *img;
    G3DImageDiff d;
    Frames f;

    replay(ct, g3d_default_threads(), &f);
    img = frames_find(&f, ct->frame);
    g_assert_nonnull(img);
    g_assert_true(g3d_image_load(&ref, refpath));
    g_assert_true(g3d_image_compare(img, &ref, &d));
    g_test_message("%-13s %dx%d frame %u vs simulator: PSNR %.2f dB, %ld "
                   "differing pixels, max delta %d (corpus bar %.0f dB)",
                   ct->name, img->width, img->height, ct->frame, d.psnr,
                   d.differing, d.max_delta, ct->bar);
    g_assert_cmpfloat(d.psnr, >=, ct->bar);
    if (isinf(ct->held)) {
        /* reached bit-exact: hold it there */
        g_assert_cmpint(d.differing, ==, 0);
    } else {
        g_assert_cmpfloat(d.psnr, >=, ct->held);
    }
    g3d_image_free(&ref);
    g_free(refpath);
    frames_free(&f);
}

/* ---- the image does not depend on the thread count ------------------------ */

static void assert_same_frames(const Frames *a, const Frames *b)
{
    guint i;

    g_assert_cmpuint(a->images->len, ==, b->images->len);
    g_assert_cmpuint(a->images->len, >, 0);
    for (i = 0; i < a->images->len; i++) {
        const G3DImage *x = g_ptr_array_index(a->images, i);
        const G3DImage *y = g_ptr_array_index(b->images, i);
        g_assert_cmpuint(g_array_index(a->numbers, uint32_t, i), ==,
                         g_array_index(b->numbers, uint32_t, i));
        g_assert_cmpint(x->width, ==, y->width);
        g_assert_cmpint(x->height, ==, y->height);
        g_assert_cmpmem(x->rgb, (size_t)x->width * x->height * 3,
                        y->rgb, (size_t)y->width * y->height * 3);
    }
}

/*
 * The frames at 2 and 3 render threads against one: the vertex chunks,
 * the triangles' set-up, the raster batches (simplefog's and 8lights's
 * small ones of long fragment programs too) and the DAC's bands on the
 * helpers; a raster batch's tile classes taken by any thread; a small
 * draw's shading, set-up and raster batch in one job (streamer.c
 * draw_job: this failed when the thread that began a batch not worth the
 * helpers did not walk it, and when the other threads took raster units
 * before the batch was begun).
 */
static void test_thread_invariance(gconstpointer data)
{
    const AttilaCorpusTrace *ct = data;
    Frames one, many;
    int threads, tries;
    uint64_t links;
    unsigned spin;
    bool chained;

    replay(ct, 1, &one);
    for (threads = 2; threads <= 3; threads++) {
        replay(ct, threads, &many);
        assert_same_frames(&one, &many);
        frames_free(&many);
        /* every raster batch's tile classes taken by the caller, the
         * helpers' runs too (as when they come late) */
        attila_raster_caller_only = true;
        replay(ct, threads, &many);
        attila_raster_caller_only = false;
        assert_same_frames(&one, &many);
        frames_free(&many);
    }
    /*
     * the helpers waiting long in the chain (branch thr19), so that
     * consecutive small draws are handed over in one pool job on a busy
     * host too (simplefog and 8lights: 80 and 50 small draws a replay, few
     * records between them); and none handed over in it
     */
    chained = !strcmp(ct->name, "simplefog") || !strcmp(ct->name, "8lights");
    spin = g3d_pool_spin_us;
    g3d_pool_spin_us = 50000;
    for (tries = 0; tries < (chained ? 10 : 1); tries++) {
        links = attila_raster_chain_links;
        replay(ct, 2, &many);
        links = attila_raster_chain_links - links;
        assert_same_frames(&one, &many);
        frames_free(&many);
        /* a helper the host gave no core for 50 ms hands nothing over:
         * on a loaded host another replay */
        if (links > 0) {
            break;
        }
    }
    g3d_pool_spin_us = spin;
    if (chained) {
        g_assert_cmpuint(links, >, 0);
    }
    attila_raster_chain_off = true;
    replay(ct, 2, &many);
    attila_raster_chain_off = false;
    assert_same_frames(&one, &many);
    frames_free(&many);
    g_test_message("%s: 1, 2 and 3 render threads give identical frames, "
                   "also with the raster batches' tiles all taken by the "
                   "caller; %" G_GUINT64_FORMAT " draws handed over in the "
                   "chain", ct->name, links);
    frames_free(&one);
}

/*
 * The paths chosen per draw (the shader's all-lanes operations, the color
 * write's RGBA8888 paths, the skipped inputs, temporaries and boxes) against
 * the general ones (g3d_general_path): the same frames, byte for byte.
 */
static void test_general_path(gconstpointer data)
{
    const AttilaCorpusTrace *ct = data;
    Frames chosen, general;

    replay(ct, 1, &chosen);
    g3d_general_path = true;
    replay(ct, 1, &general);
    g3d_general_path = false;
    assert_same_frames(&chosen, &general);
    g_test_message("%s: the general paths give identical frames", ct->name);
    frames_free(&chosen);
    frames_free(&general);
}

/* ---- the ring path ------------------------------------------------------- */

/*
 * Play the driver: the ring lives in system memory right after the trace's
 * mapped memory (ATTILA address bit 31 set), the records go in back to back
 * and wrap at the end, RING_WRITE and the doorbell follow, and the device
 * is given small, varying budgets of attila_core_work, as the QEMU glue's
 * worker would.
 */
static void ring_replay(const AttilaCorpusTrace *ct, uint32_t ring_size,
                        Frames *f)
{
    AttilaTrace *tr = open_corpus(ct);
    const AttilaTraceHeader *h = attila_trace_header(tr);
    uint64_t mapped = (uint64_t)h->mapped_mem_size << 20;
    AttilaRun *run = attila_run_new((uint64_t)h->mem_size << 20,
                                    mapped + ring_size, 1);
    AttilaCore *c = run->core;
    uint8_t *ring = run->sys + mapped, *rec = g_malloc(ring_size);
    uint32_t wp = 0, frames_seen = 0, frame_no = h->start_frame;
    uint32_t budget_seed = 1;
    AttilaTransaction t;
    char *err = NULL;
    int n;
    bool more;

    frames_init(f);
    attila_reg_write(c, A_ATTILA_RING_BASE, 0x80000000u | (uint32_t)mapped, 4);
    attila_reg_write(c, A_ATTILA_RING_SIZE, ring_size, 4);
    attila_reg_write(c, A_ATTILA_RING_CONTROL, R_ATTILA_RING_CONTROL_ENABLE_MASK, 4);
    attila_reg_write(c, A_ATTILA_INT_MASK, R_ATTILA_INT_SWAP_MASK, 4);
    g_assert_cmpuint(attila_reg_read(c, A_ATTILA_STATUS, 4) &
                     R_ATTILA_STATUS_IDLE_MASK, !=, 0);

    for (;;) {
        size_t len = 0;

        n = attila_trace_next(tr, &t, &err);
        g_assert_cmpint(n, >=, 0);
        if (n > 0) {
            len = attila_agp_encode(&t, rec);
            g_assert_cmpuint(len, <, ring_size);
        }
        /* let the device work while the record does not fit (or at the end) */
        for (;;) {
            uint32_t rp = attila_reg_read(c, A_ATTILA_RING_READ, 4);
            uint32_t used = (wp + ring_size - rp) % ring_size;
            uint32_t frame;

            if (n > 0 && used + len <= ring_size - 1) {
                break;
            }
            if (n == 0 && used == 0) {
                break;
            }
            budget_seed = budget_seed * 1103515245u + 12345u;
            more = attila_core_work(c, 1 + (budget_seed >> 16) % 4);
            frame = attila_reg_read(c, A_ATTILA_FRAME, 4);
            if (frame != frames_seen) {
                G3DImage img = { 0 };
                /* budgets are small: one swap at a time, caught at once */
                g_assert_cmpuint(frame, ==, frames_seen + 1);
                g_assert_true(attila_irq_level(c));
                attila_reg_write(c, A_ATTILA_INT_STATUS, R_ATTILA_INT_SWAP_MASK, 4);
                g_assert_false(attila_irq_level(c));
                g_assert_true(attila_run_capture(run, &img));
                frames_add(f, frame_no++, &img);
                g3d_image_free(&img);
                frames_seen = frame;
            }
            if (!more) {
                g_assert_cmpuint(attila_reg_read(c, A_ATTILA_RING_READ, 4), ==,
                                 attila_reg_read(c, A_ATTILA_RING_WRITE, 4));
            }
        }
        if (n == 0) {
            break;
        }
        /* copy the record in, wrapping at the end of the ring */
        {
            size_t first = MIN(len, (size_t)(ring_size - wp));
            memcpy(ring + wp, rec, first);
            memcpy(ring, rec + first, len - first);
            wp = (uint32_t)((wp + len) % ring_size);
        }
        attila_reg_write(c, A_ATTILA_RING_WRITE, wp, 4);
        attila_reg_write(c, A_ATTILA_DOORBELL, 1, 4);
    }
    g_assert_cmpuint(attila_reg_read(c, A_ATTILA_STATUS, 4) &
                     (R_ATTILA_STATUS_IDLE_MASK | R_ATTILA_STATUS_ERROR_MASK), ==,
                     R_ATTILA_STATUS_IDLE_MASK);
    g_assert_cmpuint(attila_reg_read(c, A_ATTILA_ERROR_COUNT, 4), ==, 0);
    g_assert_cmpuint(attila_reg_read(c, A_ATTILA_RECORDS, 4), >, 0);
    g_free(rec);
    attila_run_free(run);
    attila_trace_close(tr);
}

typedef struct RingCase {
    const char *name;
    uint32_t ring_size;
} RingCase;

static const AttilaCorpusTrace *corpus_find(const char *name)
{
    size_t i;

    for (i = 0; i < ATTILA_CORPUS_COUNT; i++) {
        if (!strcmp(attila_corpus[i].name, name)) {
            return &attila_corpus[i];
        }
    }
    g_assert_not_reached();
}

static void test_ring(gconstpointer data)
{
    const RingCase *rc = data;
    const AttilaCorpusTrace *ct = corpus_find(rc->name);
    Frames direct, ring;

    replay(ct, 1, &direct);
    ring_replay(ct, rc->ring_size, &ring);
    assert_same_frames(&direct, &ring);
    g_test_message("%s through a %u-byte ring: %u frame(s) identical to the "
                   "direct replay", ct->name, rc->ring_size,
                   direct.images->len);
    frames_free(&direct);
    frames_free(&ring);
}

/* spaceship's largest record is 416,945 bytes: this ring wraps */
static const RingCase ring_cases[] = {
    { "spaceship", 448 * 1024 },
    { "blendedcubes", 64 * 1024 },
    { "torus", 4096 },
};

int main(int argc, char **argv)
{
    /* the traces replayed at 1, 2 and 3 render threads */
    static const char *const thread_traces[] = {
        "torus", "spaceship", "simplefog", "8lights", "spheremap",
        "blendedcubes", "copyteximage",
    };
    size_t i;

    g_test_init(&argc, &argv, NULL);
    for (i = 0; i < ATTILA_CORPUS_COUNT; i++) {
        char *name = g_strdup_printf("/attila/corpus/%s", attila_corpus[i].name);
        g_test_add_data_func(name, &attila_corpus[i], test_corpus_trace);
        g_free(name);
    }
    for (i = 0; i < G_N_ELEMENTS(thread_traces); i++) {
        char *name = g_strdup_printf("/attila/threads/%s", thread_traces[i]);
        g_test_add_data_func(name, corpus_find(thread_traces[i]),
                             test_thread_invariance);
        g_free(name);
    }
    g_test_add_data_func("/attila/general/torus", corpus_find("torus"),
                         test_general_path);
    g_test_add_data_func("/attila/general/spaceship", corpus_find("spaceship"),
                         test_general_path);
    g_test_add_data_func("/attila/general/blendedcubes",
                         corpus_find("blendedcubes"), test_general_path);
    for (i = 0; i < G_N_ELEMENTS(ring_cases); i++) {
        char *name = g_strdup_printf("/attila/ring/%s", ring_cases[i].name);
        g_test_add_data_func(name, &ring_cases[i], test_ring);
        g_free(name);
    }
    return g_test_run();
}
