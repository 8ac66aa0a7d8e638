/*
 * qtests of attila-3d through its PCI BARs: identity and BARs, reset values
 * and masks of the BAR0 registers and the GPU register window, every
 * corpus trace replayed through the ring and its frame compared with the
 * ATTILA simulator's, fences and interrupts seen in PCI status, bad input
 * (unknown record kind, register id and sub-index out of range, a WRITE
 * past GPU memory, a draw with no program, ring pointers out of range)
 * logged, flagged and skipped, recovery by reset, VM stop/cont and hot-plug.
 *
 * The corpus (tests/attila/corpus, README there) is found through
 * $GPU3D_ROOT, the project's source tree (scripts/test.sh sets it). The
 * references are the simulator's own frames, frameNNNN.sim.ppm as shipped
 * upstream (stored gzip-compressed; the SHA-256 of every decompressed file
 * is checked against the corpus README): the independent renderer of
 * docs/architecture.md for this chip. Traces and frames are decompressed by
 * gzip(1): the qtests link glib only.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "libqtest.h"
#include <math.h>
#include "gpu3d-qtest-util.h"
#include "gpu3d/attila-regs.h"
#include "gpu3d/attila-cmd.h"

#define REGS ATTILA_REGS_BAR
#define MEM  ATTILA_MEM_BAR

/*
 * Guest physical layout (-m 256): the ATTILA system-memory window opens at
 * SYS_GPA (ATTILA 0x80000000 + x = guest physical SYS_GPA + x). The traces
 * use its first 16 MiB (their header's mappedMemSize); the ring sits above.
 */
#define SYS_GPA      0x04000000u
#define SYS_SIZE     0x02000000u
#define RING_OFF     0x01000000u        /* ring offset in the window */
#define RING_SIZE    0x00080000u        /* 512 KiB: above every corpus record */
#define RING_MEM_OFF 0x0ff00000u        /* ring in BAR2: the last MiB */
#define SYSMEM(x)    (0x80000000u | (x))

typedef struct Dev {
    G3DQDev *q;
} Dev;

static Dev open_dev_args(const char *extra)
{
    g_autofree char *args = g_strdup_printf(
        "-m 256 -device attila-3d,id=gpu,render-threads=2%s", extra);
    Dev d = { g3dq_open(args, ATTILA_PCI_VENDOR_ID, ATTILA_PCI_DEVICE_ID) };

    return d;
}

static Dev open_dev(void)
{
    return open_dev_args("");
}

static void close_dev(Dev *d)
{
    g3dq_close(d->q);
}

static bool logged(Dev *d, const char *needle)
{
    return g3dq_logged(d->q, needle);
}

static uint32_t rd(Dev *d, uint32_t off)
{
    return g3dq_rd32(d->q, REGS, off);
}

static void wr(Dev *d, uint32_t off, uint32_t v)
{
    g3dq_wr32(d->q, REGS, off, v);
}

/* word k of element `index` of GPU register `id`, through REGFILE_SELECT */
static uint32_t gpu_reg(Dev *d, uint32_t id, uint32_t index, int k)
{
    wr(d, A_ATTILA_REGFILE_SELECT, id | index << 8);
    return rd(d, A_ATTILA_REGFILE_DATA0 + 4 * k);
}

/* ---- waiting ------------------------------------------------------------ */

static void wait_bits(Dev *d, uint32_t off, uint32_t mask, uint32_t want)
{
    g3dq_wait_bits(d->q, REGS, off, mask, want);
}

static void wait_intx(Dev *d, bool level)
{
    g3dq_wait_intx(d->q, level);
}

/* ---- the ring ------------------------------------------------------------ */

typedef struct Ring {
    Dev *d;
    bool in_bar2;               /* else guest RAM (system memory window) */
    AttilaRingIo io;
} Ring;

static uint32_t io_rd(void *opaque, uint32_t off)
{
    return rd(((Ring *)opaque)->d, off);
}

static void io_wr(void *opaque, uint32_t off, uint32_t v)
{
    wr(((Ring *)opaque)->d, off, v);
}

static void io_copy(void *opaque, uint32_t at, const uint8_t *p, uint32_t n)
{
    Ring *r = opaque;

    if (r->in_bar2) {
        g3dq_write(r->d->q, MEM, RING_MEM_OFF + at, p, n);
    } else {
        qtest_bufwrite(r->d->q->qts, SYS_GPA + RING_OFF + at, p, n);
    }
}

static void io_pause(void *opaque)
{
    g_usleep(200);
}

static void ring_setup(Dev *d, Ring *r, bool in_bar2)
{
    r->d = d;
    r->in_bar2 = in_bar2;
    r->io = (AttilaRingIo){ r, io_rd, io_wr, io_copy, io_pause, RING_SIZE, 0 };
    wr(d, A_ATTILA_SYSMEM_BASE_LO, SYS_GPA);
    wr(d, A_ATTILA_SYSMEM_BASE_HI, 0);
    wr(d, A_ATTILA_SYSMEM_SIZE, SYS_SIZE);
    wr(d, A_ATTILA_RING_BASE, in_bar2 ? RING_MEM_OFF : SYSMEM(RING_OFF));
    wr(d, A_ATTILA_RING_SIZE, RING_SIZE);
    wr(d, A_ATTILA_RING_CONTROL, R_ATTILA_RING_CONTROL_ENABLE_MASK);
}

/* append n bytes (n < RING_SIZE), waiting for room (the device drains) */
static void ring_push(Dev *d, Ring *r, const uint8_t *p, uint32_t n)
{
    g_assert_cmpint(attila_ring_push(&r->io, p, n, 100000), ==, 0);
}

static void ring_push_buf(Dev *d, Ring *r, const AttilaRecBuf *b)
{
    g_assert_false(b->overflow);
    ring_push(d, r, b->buf, b->n);
}

/* the device read everything written and is idle */
static void ring_wait_idle(Dev *d, Ring *r)
{
    wait_bits(d, A_ATTILA_RING_READ, ~0u, r->io.wp);
    wait_bits(d, A_ATTILA_STATUS, R_ATTILA_STATUS_IDLE_MASK,
              R_ATTILA_STATUS_IDLE_MASK);
}

/* ---- files of the corpus ------------------------------------------------- */

static char *corpus_path(const char *name, const char *file)
{
    const char *root = g_getenv("GPU3D_ROOT");

    if (!root) {
        g_printerr("GPU3D_ROOT must name the gpu3d source tree (the corpus "
                   "is tests/attila/corpus there)\n");
        g_assert_not_reached();
    }
    return g_build_filename(root, "tests", "attila", "corpus", name, file,
                            NULL);
}

/* the whole decompressed contents of a .gz file, through gzip(1) */
static GByteArray *gunzip(const char *path)
{
    g_autofree char *quoted = g_shell_quote(path);
    g_autofree char *cmd = g_strdup_printf("gzip -dc %s", quoted);
    GByteArray *out = g_byte_array_new();
    uint8_t buf[65536];
    size_t n;
    FILE *f = popen(cmd, "r");

    g_assert_nonnull(f);
    while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
        g_byte_array_append(out, buf, n);
    }
    g_assert_cmpint(pclose(f), ==, 0);
    return out;
}

/* a binary PPM (P6, maxval 255) in memory */
static void parse_ppm(const GByteArray *a, G3DQImage *img)
{
    unsigned w, h, max;
    int used = 0;

    g_assert_cmpint(sscanf((const char *)a->data, "P6 %u %u %u%n", &w, &h,
                           &max, &used), ==, 3);
    g_assert_cmpuint(max, ==, 255);
    used++;                             /* the one white space after maxval */
    g_assert_cmpuint(a->len, ==, used + (size_t)w * h * 3);
    img->width = w;
    img->height = h;
    img->rgb = g_memdup2(a->data + used, (size_t)w * h * 3);
}

/* the frame is the shipped one: its SHA-256 as the corpus README lists it */
static void check_shipped(const char *name, const char *file,
                          const GByteArray *a)
{
    g_autofree char *readme = corpus_path("", "README.md");
    g_autofree char *text = NULL;
    g_autofree char *line = NULL;
    g_autofree char *sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256,
                                                       a->data, a->len);

    g_assert_true(g_file_get_contents(readme, &text, NULL, NULL));
    line = g_strdup_printf("%s  %s/%s", sum, name, file);
    g_assert_nonnull(strstr(text, line));
}

/* ---- identity, BARs, registers ------------------------------------------ */

static void test_identity(void)
{
    Dev d = open_dev();

    g_assert_cmphex(d.q->vendor << 16 | d.q->device, ==, 0x12343D02);
    g3dq_check_identity(d.q, REGS, 64 * 1024, MEM, 256 * 1024 * 1024);
    g_assert_cmphex(rd(&d, A_ATTILA_ID), ==, ATTILA_ID_VALUE);
    g_assert_cmphex(rd(&d, A_ATTILA_VERSION), ==, ATTILA_VERSION_VALUE);
    g_assert_cmphex(rd(&d, A_ATTILA_MEM_SIZE), ==, 256 * 1024 * 1024);
    close_dev(&d);

    /* mem-size sizes BAR2, MEM_SIZE and the GPU's MEMORY register (MB) */
    d = open_dev_args(",mem-size=33554432");
    g_assert_cmpuint(d.q->bar_size[MEM], ==, 32 * 1024 * 1024);
    g_assert_cmphex(rd(&d, A_ATTILA_MEM_SIZE), ==, 32 * 1024 * 1024);
    g_assert_cmpuint(gpu_reg(&d, ATTILA_REG_MEMORY, 0, 0), ==, 32);
    close_dev(&d);
}

/* one BAR0 register: reset value, a write, what reads back */
typedef struct CtlReg {
    uint32_t off, reset, write, readback;
} CtlReg;

static void test_registers(void)
{
    static const CtlReg ctl[] = {
        /* read-only: writes are logged and change nothing */
        { A_ATTILA_ID, ATTILA_ID_VALUE, 0, ATTILA_ID_VALUE },
        { A_ATTILA_TILING, 0x04108242, 0, 0x04108242 },
        { A_ATTILA_FRAME, 0, 5, 0 },
        { A_ATTILA_ERROR_COUNT, 0, 5, 0 },
        { A_ATTILA_RING_READ, 0, 0x40, 0 },
        { A_ATTILA_FENCE, 0, 7, 0 },
        /* ring: base stored whole, size 64 .. 2^30, enable is bit 0 */
        { A_ATTILA_RING_BASE, 0, 0x81234560, 0x81234560 },
        { A_ATTILA_RING_SIZE, 0, 0x10000, 0x10000 },
        { A_ATTILA_RING_WRITE, 0, 0x1230, 0x1230 },
        { A_ATTILA_RING_CONTROL, 0, 0xFFFFFFFE, 0 },
        /* system memory window */
        { A_ATTILA_SYSMEM_BASE_LO, 0, 0x12345000, 0x12345000 },
        { A_ATTILA_SYSMEM_BASE_HI, 0, 0x1, 0x1 },
        { A_ATTILA_SYSMEM_SIZE, 0, 0x01000000, 0x01000000 },
        /* interrupts: five sources */
        { A_ATTILA_INT_MASK, 0, 0xFFFFFFFF, 0x1F },
        { A_ATTILA_INT_STATUS, 0, 0xFFFFFFFF, 0 },
        /* nothing on screen yet */
        { A_ATTILA_SCANOUT_ADDR, 0, 0, 0 },
        { A_ATTILA_SCANOUT_SIZE, 0, 0, 0 },
    };
    /* GPU registers of every block: id, index, word 0 at reset */
    static const uint32_t gpu[][3] = {
        { ATTILA_REG_STATUS, 0, ATTILA_ST_RESET },
        { ATTILA_REG_MEMORY, 0, 256 },
        { ATTILA_REG_VERTEX_ATTRIBUTE_MAP, 15, ATTILA_ST_INACTIVE_ATTRIBUTE },
        { ATTILA_REG_STREAM_DATA, 31, ATTILA_SD_UNORM32 },
        { ATTILA_REG_PRIMITIVE, 0, ATTILA_PRIM_TRIANGLE },
        { ATTILA_REG_FRONTBUFFER_ADDR, 0, 0x00200000 },
        { ATTILA_REG_BACKBUFFER_ADDR, 0, 0x00400000 },
        { ATTILA_REG_DISPLAY_X_RES, 0, 400 },
        { ATTILA_REG_Z_BUFFER_BIT_PRECISSION, 0, 24 },
        { ATTILA_REG_TEXTURE_FORMAT, 15, ATTILA_FMT_RGBA8888 },
        { ATTILA_REG_DEPTH_FUNCTION, 0, ATTILA_CMP_LESS },
        { ATTILA_REG_Z_BUFFER_CLEAR, 0, 0x00ffffff },
        { ATTILA_REG_RENDER_TARGET_ADDRESS, 0, 0x00400000 },
        { ATTILA_REG_COLOR_MASK_A, 7, 1 },
        { ATTILA_REG_BLIT_DST_ADDRESS, 0, 0x08000000 },
    };
    Dev d = open_dev();
    unsigned i;

    g_assert_cmphex(rd(&d, A_ATTILA_STATUS), ==, R_ATTILA_STATUS_IDLE_MASK);
    for (i = 0; i < G_N_ELEMENTS(ctl); i++) {
        g_assert_cmphex(rd(&d, ctl[i].off), ==, ctl[i].reset);
        wr(&d, ctl[i].off, ctl[i].write);
        g_assert_cmphex(rd(&d, ctl[i].off), ==, ctl[i].readback);
    }
    g_assert_true(logged(&d, "read-only or unknown BAR0 offset 0x0"));
    g_assert_cmphex(rd(&d, A_ATTILA_MAX_RECORD), ==, 0xFFFF);  /* RING_SIZE - 1 */
    /* setting the base or size resets both pointers */
    wr(&d, A_ATTILA_RING_BASE, SYSMEM(0x1000));
    g_assert_cmphex(rd(&d, A_ATTILA_RING_WRITE), ==, 0);
    /* only 32-bit accesses: a byte read is 0, a byte write is logged */
    g_assert_cmphex(qpci_io_readb(d.q->dev, d.q->bar[REGS], A_ATTILA_ID), ==, 0);
    qpci_io_writeb(d.q->dev, d.q->bar[REGS], A_ATTILA_INT_MASK, 0);
    g_assert_cmphex(rd(&d, A_ATTILA_INT_MASK), ==, 0x1F);
    g_assert_true(logged(&d, "BAR0 write of 1 bytes at 0x94"));

    for (i = 0; i < G_N_ELEMENTS(gpu); i++) {
        g_assert_cmphex(gpu_reg(&d, gpu[i][0], gpu[i][1], 0), ==, gpu[i][2]);
    }
    /* the direct window: element 0, word k at 0x1000 + 16 id + 4 k */
    g_assert_cmphex(rd(&d, ATTILA_REGFILE + 16 * ATTILA_REG_DISPLAY_Y_RES), ==,
                    400);
    g_assert_cmphex(rd(&d, ATTILA_REGFILE + 16 * ATTILA_REG_DEPTH_RANGE_FAR),
                    ==, 0x3f800000);    /* 1.0f */
    /* the window is read-only */
    wr(&d, ATTILA_REGFILE + 16 * ATTILA_REG_DISPLAY_Y_RES, 7);
    g_assert_cmphex(rd(&d, ATTILA_REGFILE + 16 * ATTILA_REG_DISPLAY_Y_RES), ==,
                    400);
    g_assert_cmphex(rd(&d, A_ATTILA_STATUS) & R_ATTILA_STATUS_ERROR_MASK, ==, 0);

    /* CONTROL.RESET: everything back to power-on values */
    wr(&d, A_ATTILA_CONTROL, R_ATTILA_CONTROL_RESET_MASK);
    for (i = 0; i < G_N_ELEMENTS(ctl); i++) {
        g_assert_cmphex(rd(&d, ctl[i].off), ==, ctl[i].reset);
    }
    close_dev(&d);
}

/* ---- the corpus through the ring ----------------------------------------- */

typedef struct CorpusCase {
    const char *name;
    uint32_t frame;             /* the frame the simulator's picture shows */
    double bar;                 /* PSNR bar of the corpus README (dB) */
    bool ring_in_bar2;
} CorpusCase;

static const CorpusCase corpus[] = {
    { "triangle",     0,  90, false },
    { "d3d-triangle", 0,  90, true },
    { "spaceship",    0,  90, false },
    { "torus",        0,  90, true },
    { "8lights",      0,  90, false },
    { "spheremap",    0,  70, true },
    { "simplefog",    0,  90, false },
    { "blendedcubes", 70, 90, false },
    { "copyteximage", 0,  10, true },
};

/*
 * Replay a trace through the ring up to the swap that shows `frame`: the
 * records exactly as in the file, in batches as large as the ring has room
 * for. Returns the time it took in seconds.
 */
static double replay(Dev *d, const char *name, uint32_t frame, bool in_bar2)
{
    g_autofree char *path = corpus_path(name, "attila.tracefile.gz");
    GByteArray *tr = gunzip(path);
    const uint8_t *p = tr->data + ATTILA_TRACE_HDR_SIZE;
    const uint8_t *end = tr->data + tr->len;
    uint32_t start, mem_mb, mapped_mb, swaps = 0, want;
    Ring r;
    gint64 t0;

    /* the header (ATTILA ref. AGP Transactions; attila-sim AGPTransaction.cpp):
     * what the trace assumes of the machine */
    g_assert_cmpuint(tr->len, >, ATTILA_TRACE_HDR_SIZE);
    g_assert_cmpmem(tr->data, 6, ATTILA_TRACE_SIGNATURE, 6);
    start = attila_get_le32(tr->data + 12);
    mem_mb = attila_get_le32(tr->data + 20);
    mapped_mb = attila_get_le32(tr->data + 24);
    g_assert_cmpuint(mem_mb << 20, <=, rd(d, A_ATTILA_MEM_SIZE));
    g_assert_cmpuint(mapped_mb << 20, <=, RING_OFF);
    g_assert_cmpuint(frame, >=, start);
    want = frame - start + 1;

    t0 = g_get_monotonic_time();
    ring_setup(d, &r, in_bar2);
    wr(d, A_ATTILA_INT_MASK, R_ATTILA_INT_SWAP_MASK);
    while (p < end && swaps < want) {
        const uint8_t *q = p;
        uint32_t room = RING_SIZE / 2;

        /* whole records, at most half the ring, up to the wanted swap */
        while (q < end && swaps < want) {
            int64_t len = attila_rec_length(q, end - q);
            g_assert_cmpint(len, >, 0);
            g_assert_cmpint(len, <=, end - q);
            if (q > p && q - p + len > room) {
                break;
            }
            if (attila_get_le32(q) == ATTILA_AGP_COMMAND &&
                attila_get_le32(q + 4) == ATTILA_CMD_SWAPBUFFERS) {
                swaps++;
            }
            q += len;
        }
        ring_push(d, &r, p, q - p);
        p = q;
    }
    g_assert_cmpuint(swaps, ==, want);
    ring_wait_idle(d, &r);
    g_byte_array_unref(tr);
    return (g_get_monotonic_time() - t0) / 1e6;
}

/* with $GPU3D_QTEST_OUT set, keep the frame there as <name>.ppm */
static void keep_frame(const char *name, const G3DQImage *img)
{
    const char *dir = g_getenv("GPU3D_QTEST_OUT");
    g_autofree char *path = NULL;
    FILE *f;

    if (!dir) {
        return;
    }
    path = g_strdup_printf("%s/attila-%s.ppm", dir, name);
    f = fopen(path, "wb");
    g_assert_nonnull(f);
    fprintf(f, "P6\n%d %d\n255\n", img->width, img->height);
    fwrite(img->rgb, 3, (size_t)img->width * img->height, f);
    fclose(f);
}

static void compare(const G3DQImage *img, const G3DQImage *ref, double *psnr,
                    long *differing)
{
    double se = 0;
    size_t i, n = (size_t)ref->width * ref->height;

    g_assert_cmpint(img->width, ==, ref->width);
    g_assert_cmpint(img->height, ==, ref->height);
    *differing = 0;
    for (i = 0; i < n; i++) {
        int c, any = 0;
        for (c = 0; c < 3; c++) {
            int e = img->rgb[3 * i + c] - ref->rgb[3 * i + c];
            se += (double)e * e;
            any |= e != 0;
        }
        *differing += any;
    }
    se /= 3.0 * n;
    *psnr = se ? 10 * log10(255.0 * 255.0 / se) : INFINITY;
}

/*
 * The screen against the simulator's frame `frame` of trace `name` (the
 * shipped PPM, its SHA-256 checked): PSNR and differing pixels.
 */
static void screen_vs_simulator(Dev *d, const char *name, uint32_t frame,
                                double *psnr, long *differing)
{
    char file[32];
    g_autofree char *gz = NULL;
    g_autofree char *refpath = NULL;
    GByteArray *ppm;
    G3DQImage img, ref;

    g_snprintf(file, sizeof(file), "frame%04u.sim.ppm", frame);
    gz = g_strconcat(file, ".gz", NULL);
    refpath = corpus_path(name, gz);
    ppm = gunzip(refpath);
    check_shipped(name, file, ppm);
    parse_ppm(ppm, &ref);
    g_byte_array_unref(ppm);

    g_assert_true(g3dq_screendump(d->q, "gpu", 0, &img));
    g_assert_cmphex(rd(d, A_ATTILA_SCANOUT_SIZE), ==,
                    (uint32_t)(img.width | img.height << 16));
    keep_frame(name, &img);
    compare(&img, &ref, psnr, differing);
    g3dq_image_free(&img);
    g3dq_image_free(&ref);
}

static void test_corpus(gconstpointer data)
{
    const CorpusCase *cc = data;
    Dev d = open_dev();
    double secs, psnr;
    long differing;
    uint32_t records;

    secs = replay(&d, cc->name, cc->frame, cc->ring_in_bar2);
    records = rd(&d, A_ATTILA_RECORDS);
    g_assert_cmpuint(rd(&d, A_ATTILA_ERROR_COUNT), ==, 0);
    g_assert_cmphex(rd(&d, A_ATTILA_STATUS) & R_ATTILA_STATUS_ERROR_MASK, ==, 0);
    g_assert_cmpuint(rd(&d, A_ATTILA_FRAME), ==, 1);
    /* the swap interrupt, in PCI status, cleared by writing 1 */
    wait_intx(&d, true);
    g_assert_cmphex(rd(&d, A_ATTILA_INT_STATUS) & R_ATTILA_INT_SWAP_MASK, !=, 0);
    wr(&d, A_ATTILA_INT_STATUS, R_ATTILA_INT_SWAP_MASK);
    wait_intx(&d, false);

    screen_vs_simulator(&d, cc->name, cc->frame, &psnr, &differing);
    printf("# %s (ring in %s): PSNR %.2f dB vs the simulator, %ld differing "
           "pixels (bar %.0f dB); %u records in %.3f s through the device\n",
           cc->name, cc->ring_in_bar2 ? "BAR2" : "guest RAM", psnr, differing,
           cc->bar, records, secs);
    g_assert_cmpfloat(psnr, >=, cc->bar);
    close_dev(&d);
}

/* ---- fences and interrupts ----------------------------------------------- */

static void test_fence(void)
{
    Dev d = open_dev();
    uint8_t buf[256];
    AttilaRecBuf b = { buf, 0, sizeof(buf), 0 };
    Ring r;

    ring_setup(&d, &r, false);
    wr(&d, A_ATTILA_INT_MASK, R_ATTILA_INT_FENCE_MASK);
    attila_rec_reg_u32(&b, ATTILA_REG_DISPLAY_X_RES, 0, 320);
    attila_rec_fence(&b, 0x1234);
    ring_push_buf(&d, &r, &b);
    ring_wait_idle(&d, &r);
    /* the fence says what is done: the register write before it */
    g_assert_cmphex(rd(&d, A_ATTILA_FENCE), ==, 0x1234);
    g_assert_cmpuint(gpu_reg(&d, ATTILA_REG_DISPLAY_X_RES, 0, 0), ==, 320);
    g_assert_cmpuint(rd(&d, A_ATTILA_EVENT_COUNT), ==, 1);
    g_assert_cmpuint(rd(&d, A_ATTILA_LAST_EVENT), ==, ATTILA_EVENT_UNNAMED);
    g_assert_cmpuint(rd(&d, A_ATTILA_RECORDS), ==, 2);
    wait_intx(&d, true);
    g_assert_cmphex(rd(&d, A_ATTILA_INT_STATUS), ==,
                    R_ATTILA_INT_FENCE_MASK | R_ATTILA_INT_EVENT_MASK |
                    R_ATTILA_INT_IDLE_MASK);
    wr(&d, A_ATTILA_INT_STATUS, R_ATTILA_INT_FENCE_MASK);
    wait_intx(&d, false);
    /* a masked source does not raise INTx; unmasking an active one does */
    b.n = 0;
    attila_rec_event(&b, ATTILA_EVENT_UNNAMED, "Frame rendered.", 15);
    ring_push_buf(&d, &r, &b);
    ring_wait_idle(&d, &r);
    g_assert_cmphex(rd(&d, A_ATTILA_FENCE), ==, 0x1234);
    g_assert_cmpuint(rd(&d, A_ATTILA_EVENT_COUNT), ==, 2);
    g_assert_false(g3dq_intx(d.q));
    wr(&d, A_ATTILA_INT_MASK, R_ATTILA_INT_EVENT_MASK);
    wait_intx(&d, true);
    wr(&d, A_ATTILA_INT_MASK, 0);
    wait_intx(&d, false);
    close_dev(&d);
}

/* ---- bad input, then recovery --------------------------------------------- */

/* push b, wait until done; an error with `code` must be flagged and logged */
static void expect_error(Dev *d, Ring *r, AttilaRecBuf *b, uint32_t code,
                         uint32_t info, const char *msg)
{
    uint32_t count = rd(d, A_ATTILA_ERROR_COUNT);

    ring_push_buf(d, r, b);
    ring_wait_idle(d, r);
    g_assert_cmpuint(rd(d, A_ATTILA_ERROR_COUNT), ==, count + 1);
    g_assert_cmphex(rd(d, A_ATTILA_STATUS) & R_ATTILA_STATUS_ERROR_MASK, !=, 0);
    g_assert_cmpuint(rd(d, A_ATTILA_ERROR_CODE), ==, code);
    g_assert_cmphex(rd(d, A_ATTILA_ERROR_INFO), ==, info);
    g_assert_true(logged(d, msg));
    /* the error interrupt, then ERROR_CLEAR */
    wait_intx(d, true);
    wr(d, A_ATTILA_INT_STATUS, 0x1F);
    wait_intx(d, false);
    wr(d, A_ATTILA_CONTROL, R_ATTILA_CONTROL_ERROR_CLEAR_MASK);
    g_assert_cmphex(rd(d, A_ATTILA_STATUS) & R_ATTILA_STATUS_ERROR_MASK, ==, 0);
    g_assert_cmpuint(rd(d, A_ATTILA_ERROR_CODE), ==, 0);
    b->n = 0;
}

static void check_corpus_frame(Dev *d, const char *name)
{
    double psnr;
    long differing;

    screen_vs_simulator(d, name, 0, &psnr, &differing);
    printf("# %s after recovery: PSNR %.2f dB, %ld differing pixels\n", name,
           psnr, differing);
    g_assert_cmpint(differing, ==, 0);
}

static void test_bad_input(void)
{
    Dev d = open_dev();
    static uint8_t buf[4096];
    AttilaRecBuf b = { buf, 0, sizeof(buf), 0 };
    uint8_t junk[64] = { 0 };
    Ring r;

    ring_setup(&d, &r, false);
    wr(&d, A_ATTILA_INT_MASK, R_ATTILA_INT_ERROR_MASK);

    /* an unknown transaction kind: the pending bytes are dropped */
    attila_put_le32(buf, 9);
    b.n = 8;
    attila_rec_reg_u32(&b, ATTILA_REG_DISPLAY_X_RES, 0, 123);
    expect_error(&d, &r, &b, ATTILA_ERR_RECORD_KIND, 9, "unknown record kind");
    g_assert_cmpuint(gpu_reg(&d, ATTILA_REG_DISPLAY_X_RES, 0, 0), ==, 400);
    /* kinds that never occur in a trace (AGP_READ) are refused too */
    attila_put_le32(buf, ATTILA_AGP_READ);
    b.n = 8;
    expect_error(&d, &r, &b, ATTILA_ERR_RECORD_KIND, ATTILA_AGP_READ,
                 "unknown record kind");

    /* register id out of range; the record after it still runs */
    attila_rec_reg_u32(&b, 200, 0, 1);
    attila_rec_reg_u32(&b, ATTILA_REG_DISPLAY_X_RES, 0, 320);
    expect_error(&d, &r, &b, ATTILA_ERR_REGISTER, 200,
                 "REG_WRITE to register id 200 out of range");
    g_assert_cmpuint(gpu_reg(&d, ATTILA_REG_DISPLAY_X_RES, 0, 0), ==, 320);

    /* sub-index out of range: 512 vertex constants */
    attila_rec_reg_vec4(&b, ATTILA_REG_VERTEX_CONSTANT, 512, 1, 2, 3, 4);
    expect_error(&d, &r, &b, ATTILA_ERR_SUBINDEX,
                 ATTILA_REG_VERTEX_CONSTANT | 512 << 8,
                 "VERTEX_CONSTANT[512]: sub-index out of range");

    /* a WRITE past GPU memory: nothing written */
    attila_rec_write(&b, 256 * 1024 * 1024 - 32, junk, sizeof(junk));
    expect_error(&d, &r, &b, ATTILA_ERR_ADDRESS, 256 * 1024 * 1024 - 32,
                 "AGP_WRITE of 64 bytes at 0x0fffffe0 outside memory");
    g_assert_cmphex(g3dq_rd32(d.q, MEM, 256 * 1024 * 1024 - 32), ==, 0);

    /* a draw with no program */
    attila_rec_reg_u32(&b, ATTILA_REG_STREAM_COUNT, 0, 3);
    attila_rec_cmd(&b, ATTILA_CMD_DRAW);
    expect_error(&d, &r, &b, ATTILA_ERR_DRAW, ATTILA_REG_VERTEX_PROGRAM_PC,
                 "draw: no vertex program");

    /* ring pointers out of range: RING_WRITE outside the ring is refused */
    wr(&d, A_ATTILA_RING_WRITE, RING_SIZE);
    g_assert_cmpuint(rd(&d, A_ATTILA_ERROR_CODE), ==, ATTILA_ERR_RING);
    g_assert_true(logged(&d, "RING_WRITE 524288 outside the 524288-byte ring"));
    g_assert_cmpuint(rd(&d, A_ATTILA_RING_WRITE), ==, r.io.wp);
    wr(&d, A_ATTILA_CONTROL, R_ATTILA_CONTROL_ERROR_CLEAR_MASK);
    /*
     * A ring past the end of GPU memory: disabled when enabled. (The ring
     * is checked whenever the device looks at it: a driver moves a ring
     * with RING_CONTROL.ENABLE clear.)
     */
    wr(&d, A_ATTILA_RING_CONTROL, 0);
    wr(&d, A_ATTILA_RING_BASE, 256 * 1024 * 1024 - 0x1000);
    wr(&d, A_ATTILA_RING_SIZE, 0x2000);
    wr(&d, A_ATTILA_RING_WRITE, 0x100);
    wr(&d, A_ATTILA_RING_CONTROL, R_ATTILA_RING_CONTROL_ENABLE_MASK);
    wr(&d, A_ATTILA_DOORBELL, 1);
    wait_bits(&d, A_ATTILA_RING_CONTROL, 1, 0);
    g_assert_cmpuint(rd(&d, A_ATTILA_ERROR_CODE), ==, ATTILA_ERR_RING);
    g_assert_true(logged(&d, "ring at 0x0ffff000 size 8192 unusable (read 0 write 256)"));
    g_assert_cmpuint(rd(&d, A_ATTILA_RING_READ), ==, 0);

    /* CONTROL.RESET recovers: the triangle trace is drawn exactly */
    wr(&d, A_ATTILA_CONTROL, R_ATTILA_CONTROL_RESET_MASK);
    g_assert_cmphex(rd(&d, A_ATTILA_STATUS), ==, R_ATTILA_STATUS_IDLE_MASK);
    g_assert_cmpuint(rd(&d, A_ATTILA_ERROR_COUNT), ==, 0);
    wait_intx(&d, false);
    replay(&d, "triangle", 0, false);
    g_assert_cmpuint(rd(&d, A_ATTILA_ERROR_COUNT), ==, 0);
    check_corpus_frame(&d, "triangle");

    /* and a system reset: the screen is blank, then the device draws again */
    g3dq_system_reset(d.q);
    g_assert_cmphex(rd(&d, A_ATTILA_SCANOUT_SIZE), ==, 0);
    g_assert_cmpuint(rd(&d, A_ATTILA_FRAME), ==, 0);
    replay(&d, "d3d-triangle", 0, true);
    check_corpus_frame(&d, "d3d-triangle");
    close_dev(&d);
}

/* VM stop with records pushed: nothing runs until cont */
static void test_stop_cont(void)
{
    Dev d = open_dev();
    uint8_t buf[256];
    AttilaRecBuf b = { buf, 0, sizeof(buf), 0 };
    Ring r;

    ring_setup(&d, &r, false);
    attila_rec_reg_u32(&b, ATTILA_REG_DISPLAY_X_RES, 0, 640);
    attila_rec_fence(&b, 77);
    qtest_qmp_assert_success(d.q->qts, "{'execute': 'stop'}");
    ring_push_buf(&d, &r, &b);
    /* the pointers are applied for the read; the stopped worker runs nothing */
    g_assert_cmpuint(rd(&d, A_ATTILA_RING_WRITE), ==, b.n);
    g_assert_cmpuint(rd(&d, A_ATTILA_RING_READ), ==, 0);
    g_assert_cmphex(rd(&d, A_ATTILA_STATUS) & R_ATTILA_STATUS_IDLE_MASK, ==, 0);
    g_assert_cmpuint(rd(&d, A_ATTILA_FENCE), ==, 0);
    qtest_qmp_assert_success(d.q->qts, "{'execute': 'cont'}");
    ring_wait_idle(&d, &r);
    g_assert_cmpuint(rd(&d, A_ATTILA_FENCE), ==, 77);
    g_assert_cmpuint(gpu_reg(&d, ATTILA_REG_DISPLAY_X_RES, 0, 0), ==, 640);
    close_dev(&d);
}

/* Hot-plug and unplug: threads join, the console goes, QEMU lives. */
static void test_hotplug(void)
{
    g3dq_hotplug_cycles("attila-3d", "'render-threads': 3, 'mem-size': 16777216",
                        3);
}

int main(int argc, char **argv)
{
    unsigned i;

    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/attila/identity", test_identity);
    qtest_add_func("/attila/registers", test_registers);
    for (i = 0; i < G_N_ELEMENTS(corpus); i++) {
        g_autofree char *name = g_strdup_printf("/attila/corpus/%s",
                                                corpus[i].name);
        qtest_add_data_func(name, &corpus[i], test_corpus);
    }
    qtest_add_func("/attila/fence", test_fence);
    qtest_add_func("/attila/bad-input", test_bad_input);
    qtest_add_func("/attila/stop-cont", test_stop_cont);
    qtest_add_func("/attila/hotplug", test_hotplug);
    return g_test_run();
}
