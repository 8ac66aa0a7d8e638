/*
 * A guest must never freeze QEMU. Each device gets work that would keep it
 * busy for far longer than the test (r300: 200 triangles that each cover a
 * 2048x2048 target, blended, in one 3D_DRAW_IMMD_2; a ring that jumps into
 * itself); while that frame is in flight, QMP query-status, a status
 * register read, screendump, stop, system_reset and quit must each return
 * within 1 s (a liveness bound against the 10-130 s stalls this work had,
 * not a speed claim), and the device must work normally after the reset.
 * Stop and cont in the middle of a frame must give the same picture as the
 * frame run without a stop. Hot-unplug on q35 through a pcie-root-port
 * while the device renders must complete within the same bound. Stopped
 * in the middle of that work, a device migrates to a file and goes on
 * with the work in a fresh QEMU; where one unit of the work outlasts what a
 * save waits for (r300's single packet of huge triangles, glamo's flushes
 * of 4096 queued full-target triangles) the migration fails instead,
 * cleanly.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "libqtest.h"
#include "qemu/bswap.h"
#include "gpu3d-qtest-util.h"
#include "gpu3d/r300-regs.h"
#include "gpu3d/r300-cmd.h"
#include "gpu3d/pica200-regs.h"
#include "gpu3d/pica200-cmd.h"
#include "gpu3d/glamo-regs.h"
#include "gpu3d/glamo-cmd.h"
#include "gpu3d/attila-regs.h"
#include "gpu3d/attila-cmd.h"
#include "gpu3d/flipper-regs.h"
#include "gpu3d/flipper-cmd.h"

#define BOUND_US    (1 * G_USEC_PER_SEC)

static int64_t t0;

static void tick(void)
{
    t0 = g_get_monotonic_time();
}

/* the time since tick() is within the liveness bound */
static void within_bound(const char *what)
{
    int64_t us = g_get_monotonic_time() - t0;

    g_test_message("%s: %.1f ms", what, us / 1000.0);
    g_assert_cmpint(us, <, BOUND_US);
}

/* a QMP command without arguments succeeds within the bound */
static void qmp_ok(QTestState *qts, const char *cmd, const char *what)
{
    QDict *resp;

    tick();
    resp = qtest_qmp(qts, "{'execute': %s}", cmd);
    within_bound(what);
    g_assert_nonnull(resp);
    g_assert_true(qdict_haskey(resp, "return"));
    qobject_unref(resp);
}


/* ---- every device: a frame in flight, then QMP, MMIO, reset, quit ------- */

/*
 * What a device gives the common sequence: start work that outlasts the
 * test, tell from one status-register read whether it is busy, and show
 * after a reset that it works (a small job completes).
 */
typedef struct FreezeDev {
    const char *name;
    const char *args;           /* -device ... */
    uint16_t vendor, device;
    void (*start)(G3DQDev *d);
    bool (*busy)(G3DQDev *d);
    void (*works)(G3DQDev *d);
    /* migration while busy: MIG_OK, or MIG_LONG_UNIT (one unit of the
     * work outlasts what a save waits) */
    int migrate;
    /* the benchmark's register write that changes nothing drawn, or NULL */
    void (*poke)(G3DQDev *d);
    /* where a busy check fails: print the registers that say why, or NULL */
    void (*diag)(G3DQDev *d);
} FreezeDev;

enum { MIG_OK, MIG_LONG_UNIT };

/*
 * Started work shows as busy once the worker has applied the start (a
 * loaded host may take a while to run it): poll for up to 10 s.
 */
/* a busy check failed: the device's registers and QEMU's log, for the
 * record (the failure is rare and not reproduced on demand) */
static void diagnose(const FreezeDev *fd, G3DQDev *d)
{
    g_autofree char *text = NULL;
    gsize len = 0;

    if (fd->diag) {
        fd->diag(d);
    }
    if (g_file_get_contents(d->log, &text, &len, NULL)) {
        fprintf(stderr, "%s: QEMU's log (%zu bytes): %.4096s\n", fd->name,
                (size_t)len, text);
    }
}

static bool became_busy(const FreezeDev *fd, G3DQDev *d)
{
    int i;

    for (i = 0; i < 1000; i++) {
        if (fd->busy(d)) {
            return true;
        }
        g_usleep(10 * 1000);
    }
    diagnose(fd, d);
    return false;
}

/* a busy read that must say busy, with the registers printed if not */
static void assert_busy(const FreezeDev *fd, G3DQDev *d, bool busy)
{
    if (!busy) {
        diagnose(fd, d);
    }
    g_assert_true(busy);
}

static void in_flight(gconstpointer data)
{
    const FreezeDev *fd = data;
    G3DQDev *d = g3dq_open(fd->args, fd->vendor, fd->device);
    G3DQImage img;
    g_autofree char *what = NULL;
    bool busy;

#define STEP(x) (g_free(what), what = g_strdup_printf("%s %s", fd->name, x))
    fd->start(d);
    g_assert_true(became_busy(fd, d));
    g_usleep(200 * 1000);

    qmp_ok(d->qts, "query-status", STEP("query-status"));
    tick();
    busy = fd->busy(d);
    within_bound(STEP("status register read"));
    /* still in flight: else this test proves nothing */
    assert_busy(fd, d, busy);

    tick();
    g_assert_true(g3dq_screendump(d, "gpu", 0, &img));
    within_bound(STEP("screendump"));
    g3dq_image_free(&img);

    qmp_ok(d->qts, "stop", STEP("stop"));
    tick();
    busy = fd->busy(d);
    within_bound(STEP("status read while stopped"));
    assert_busy(fd, d, busy);
    qmp_ok(d->qts, "cont", STEP("cont"));

    tick();
    g3dq_system_reset(d);
    within_bound(STEP("system_reset"));
    fd->works(d);

    fd->start(d);
    g_assert_true(became_busy(fd, d));
    tick();
    g3dq_close(d);
    within_bound(STEP("quit"));
#undef STEP
}

/* ---- r300-3d ------------------------------------------------------------- */

#define R3_VRAM     R300_VRAM_BAR
#define R3_MMIO     R300_MMIO_BAR
#define R3_RING     0x00000000u
#define R3_RING_SZ  13              /* 2 << 13 dwords: 64 KiB */
#define R3_WB       0x00020000u
#define R3_CB       0x00100000u     /* the big target */
#define R3_CB2      0x01100000u     /* a second one, for stop/cont */
#define R3_BIG      2048
#define R3_SHOW_W   640
#define R3_SHOW_H   480

static void r3_wr(G3DQDev *d, uint32_t reg, uint32_t v)
{
    g3dq_wr32(d, R3_MMIO, reg, v);
}

static uint32_t r3_rd(G3DQDev *d, uint32_t reg)
{
    return g3dq_rd32(d, R3_MMIO, reg);
}

static void r3_ring_init(G3DQDev *d)
{
    uint32_t seq[R300_RING_START_WRITES][2];
    unsigned i;

    r300_ring_start(seq, R3_RING, R3_RING_SZ, R3_WB);
    for (i = 0; i < R300_RING_START_WRITES; i++) {
        r3_wr(d, seq[i][0], seq[i][1]);
    }
}

/* the first R3_SHOW_W x R3_SHOW_H pixels of a R3_BIG-wide target */
static void r3_show(G3DQDev *d, uint32_t addr)
{
    r3_wr(d, A_CRTC_H_TOTAL_DISP, (R3_SHOW_W / 8 - 1) << 16);
    r3_wr(d, A_CRTC_V_TOTAL_DISP, (R3_SHOW_H - 1) << 16);
    r3_wr(d, A_CRTC_PITCH, R3_BIG / 8);
    r3_wr(d, A_CRTC_OFFSET, addr);
    r3_wr(d, A_CRTC_GEN_CNTL, R300_CRTC_PIX_WIDTH_32BPP << 8 |
                              R_CRTC_GEN_CNTL_EXT_DISP_EN_MASK |
                              R_CRTC_GEN_CNTL_EN_MASK);
}

static bool r3_idle(G3DQDev *d, void *opaque)
{
    return r3_rd(d, A_CP_RB_RPTR) == r3_rd(d, A_CP_RB_WPTR);
}

/* wait for the CP to finish however slow the host (a liveness bound only) */
static void r3_wait_idle(G3DQDev *d)
{
    gint64 deadline = g_get_monotonic_time() + 120 * G_USEC_PER_SEC;

    while (!r3_idle(d, NULL)) {
        g_assert_cmpint(g_get_monotonic_time(), <, deadline);
        g_usleep(10 * 1000);
    }
}

/*
 * `ntris` triangles that each cover the whole R3_BIG target (one large
 * triangle whose inner part is the target), blended ONE + ONE so each adds
 * 1/255 of red and the count of what was drawn shows, in one
 * 3D_DRAW_IMMD_2. Returns the dwords written into buf (a whole ring).
 */
static uint32_t r3_build(uint32_t *buf, uint32_t cb, unsigned ntris)
{
    static const float identity[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0,
                                        0, 0, 0, 1 };
    static const float xy[3][2] = { { -1, -1 }, { 3, -1 }, { -1, 3 } };
    g_autofree float *v = g_new(float, ntris * 3 * 8);
    R300Cmd c = { buf, 0, (2u << R3_RING_SZ) - 64, 0 };
    R300Surface s = { cb, R3_BIG, R300_COLOR_FORMAT_ARGB8888 };
    unsigned i;

    r300_cmd_pipeline(&c, &s, NULL, R3_BIG, R3_BIG);
    r300_cmd_matrix(&c, identity);
    r300_cmd_reg(&c, A_RB3D_BLENDCNTL,
                 R_RB3D_BLENDCNTL_ALPHA_BLEND_ENABLE_MASK |
                 R300_BLEND_GL_ONE << R_RB3D_BLENDCNTL_SRCBLEND_SHIFT |
                 R300_BLEND_GL_ONE << R_RB3D_BLENDCNTL_DESTBLEND_SHIFT);
    for (i = 0; i < ntris * 3; i++) {
        float *p = &v[i * 8];

        p[0] = xy[i % 3][0];
        p[1] = xy[i % 3][1];
        p[2] = 0.5f;
        p[3] = 1;
        p[4] = 1.0f / 255.0f;
        p[5] = p[6] = 0;
        p[7] = 1;
    }
    r300_cmd_draw(&c, R300_PRIM_TRIANGLES, v, ntris * 3);
    r300_cmd_finish(&c);
    g_assert_false(c.overflow);
    return c.n;
}

/* the frame above at the ring's write pointer (no wrap), started */
static void r3_heavy(G3DQDev *d, uint32_t cb, unsigned ntris)
{
    g_autofree uint32_t *buf = g_new0(uint32_t, 2u << R3_RING_SZ);
    uint32_t n = r3_build(buf, cb, ntris);
    uint32_t wptr = r3_rd(d, A_CP_RB_WPTR);

    g_assert_cmpuint(wptr + n, <, 2u << R3_RING_SZ);
    g3dq_write(d, R3_VRAM, R3_RING + 4 * wptr, buf, n * 4);
    r3_wr(d, A_CP_RB_WPTR, wptr + n);
}

#define R3_ARGS "-device r300-3d,id=gpu,render-threads=2"

static G3DQDev *r3_open(void)
{
    G3DQDev *d = g3dq_open(R3_ARGS, R300_PCI_VENDOR_ID, R300_PCI_DEVICE_ID);

    r3_ring_init(d);
    r3_show(d, R3_CB);
    return d;
}

/* the device draws after a reset: a small frame completes, pixels right */
static void r3_works(G3DQDev *d)
{
    G3DQImage img;
    const uint8_t *p;

    r3_ring_init(d);
    r3_show(d, R3_CB2);
    r3_heavy(d, R3_CB2, 3);
    r3_wait_idle(d);
    g_assert_true(g3dq_screendump(d, "gpu", 0, &img));
    p = g3dq_px(&img, R3_SHOW_W / 2, R3_SHOW_H / 2);
    /* three times ONE + ONE of red 1/255, nothing else */
    g_assert_cmpuint(p[0], ==, 3);
    g_assert_cmpuint(p[2], ==, 0);
    g3dq_image_free(&img);
}

static bool r3_busy(G3DQDev *d)
{
    return r3_rd(d, A_RBBM_STATUS) & R_RBBM_STATUS_GUI_ACTIVE_MASK;
}

static void r3_diag(G3DQDev *d)
{
    fprintf(stderr, "r300-3d: RBBM_STATUS 0x%08x CP_RB_RPTR %u CP_RB_WPTR %u "
            "CP_RB_CNTL 0x%08x\n", r3_rd(d, A_RBBM_STATUS),
            r3_rd(d, A_CP_RB_RPTR), r3_rd(d, A_CP_RB_WPTR),
            r3_rd(d, A_CP_RB_CNTL));
}

/* 200 full-target triangles at 2048x2048 in one 3D_DRAW_IMMD_2 */
static void r3_start_draw(G3DQDev *d)
{
    r3_ring_init(d);
    r3_show(d, R3_CB);
    r3_heavy(d, R3_CB, 200);
}

/*
 * The R300's CP cannot jump, so its nearest thing to an endless loop: a ring
 * full of calls of a large indirect buffer (16 MiB) over zeroed VRAM, each
 * of them millions of packets that draw nothing. Queued at once, it keeps
 * the CP busy for many minutes.
 */
#define R3_IB_ZERO  0x02200000u     /* 16 MiB of zeros past the targets */
#define R3_IB_DW    0x3FFFFFu       /* dwords of each call */

static void r3_start_self_jump(G3DQDev *d)
{
    enum { CALLS = (2u << R3_RING_SZ) / 3 - 1 };
    uint32_t *ring = g_new(uint32_t, 3 * CALLS);
    unsigned i;

    for (i = 0; i < CALLS; i++) {
        ring[3 * i] = R300_PACKET0(A_CP_IB_BASE, 1);
        ring[3 * i + 1] = R3_IB_ZERO;
        ring[3 * i + 2] = R3_IB_DW;
    }
    r3_ring_init(d);
    g3dq_write(d, R3_VRAM, R3_RING, ring, 3 * CALLS * 4);
    r3_wr(d, A_CP_RB_WPTR, 3 * CALLS);
    g_free(ring);
}

/*
 * Stop in the middle of a frame, wait, cont: the picture equals the same
 * frame drawn without a stop (into another target of the same device).
 */
static void test_r300_stop_cont_image(void)
{
    G3DQDev *d = r3_open();
    G3DQImage a, b;
    unsigned ntris = 6;

    r3_heavy(d, R3_CB, ntris);
    r3_wait_idle(d);

    r3_heavy(d, R3_CB2, ntris);
    g_usleep(50 * 1000);
    qmp_ok(d->qts, "stop", "r300 stop mid-frame");
    g_assert_false(r3_idle(d, NULL));       /* stopped inside the frame */
    g_usleep(300 * 1000);
    g_assert_false(r3_idle(d, NULL));       /* ... and it stays stopped */
    qmp_ok(d->qts, "cont", "r300 cont mid-frame");
    r3_wait_idle(d);

    r3_show(d, R3_CB);
    g_assert_true(g3dq_screendump(d, "gpu", 0, &a));
    r3_show(d, R3_CB2);
    g_assert_true(g3dq_screendump(d, "gpu", 0, &b));
    g_assert_cmpint(a.width, ==, b.width);
    g_assert_cmpint(a.height, ==, b.height);
    /* every triangle drawn exactly once in both */
    g_assert_cmpuint(g3dq_px(&a, 1, 1)[0], ==, ntris);
    g_assert_cmpmem(a.rgb, a.width * a.height * 3, b.rgb,
                    b.width * b.height * 3);
    g3dq_image_free(&a);
    g3dq_image_free(&b);
    g3dq_close(d);
}

/*
 * An interrupt acknowledge takes effect at once while a frame is in flight:
 * radeon's r100_irq_process() (Linux drivers/gpu/drm/radeon/r100.c) writes
 * the set GEN_INT_STATUS bits back to clear them and re-reads the register,
 * looping while any stays set, so an ack held behind the draw kept a guest
 * in its interrupt handler for the whole frame. The software interrupt is
 * raised first (write 1 to SW_INT_FIRE sets SW_INT_TEST, radeon_reg.h),
 * then the frame starts, then the guest acks.
 */
static void test_r300_irq_ack_in_flight(void)
{
    G3DQDev *d = r3_open();

    r3_wr(d, A_GEN_INT_CNTL, R_GEN_INT_CNTL_SW_INT_ENABLE_MASK);
    r3_wr(d, A_GEN_INT_STATUS, R_GEN_INT_STATUS_SW_INT_FIRE_MASK);
    g_assert_true(r3_rd(d, A_GEN_INT_STATUS) &
                  R_GEN_INT_STATUS_SW_INT_TEST_MASK);
    r3_start_draw(d);
    g_usleep(200 * 1000);
    g_assert_true(r3_busy(d));
    r3_wr(d, A_GEN_INT_STATUS, R_GEN_INT_STATUS_SW_INT_TEST_MASK);
    g_assert_false(r3_rd(d, A_GEN_INT_STATUS) &
                   R_GEN_INT_STATUS_SW_INT_TEST_MASK);
    /* the frame is still in flight: the ack did not wait for it */
    g_assert_true(r3_busy(d));
    g3dq_close(d);
}

/* ---- pica200-3d ---------------------------------------------------------- */

#define PI_REGS     PICA200_REGS_BAR
#define PI_LIST_GPA 0x00400000u
#define PI_RAM(gpa) (PICA200_PHYS_FCRAM + (gpa))

static void pi_seq(G3DQDev *d, const PicaRegWrite *w, unsigned n)
{
    unsigned i;

    for (i = 0; i < n; i++) {
        g3dq_wr32(d, PI_REGS, w[i].off, w[i].val);
    }
}

/* a command list that jumps to itself: endless */
static void pi_start(G3DQDev *d)
{
    uint32_t words[16];
    PicaCmd c = { words, 0, G_N_ELEMENTS(words), 0, NULL };
    PicaRegWrite w[4];

    pica_cmd_reg(&c, GPUREG_CMDBUF_JUMP0, 1);
    pica_cmd_reg(&c, GPUREG_CMDBUF_JUMP0, 1);
    g_assert_false(c.overflow);
    qtest_memwrite(d->qts, PI_LIST_GPA, c.buf, c.n * 4);
    pi_seq(d, w, pica_seq_kick(w, PI_RAM(PI_LIST_GPA), c.n * 4));
}

static bool pi_busy(G3DQDev *d)
{
    return g3dq_rd32(d, PI_REGS, A_GPU_BUSY) & R_GPU_BUSY_P3D_MASK;
}

/* after a reset: idle, and a memory fill of VRAM completes */
static void pi_works(G3DQDev *d)
{
    PicaRegWrite w[4];
    uint32_t px;

    g_assert_false(pi_busy(d));
    pi_seq(d, w, pica_seq_fill(w, 0, PICA200_PHYS_VRAM,
                               PICA200_PHYS_VRAM + 0x10000, 0x11223344, 2));
    g3dq_wait_bits(d, PI_REGS, A_PSC0_CONTROL, 0xFFFF, 0x202);
    g3dq_read(d, PICA200_VRAM_BAR, 0x100, &px, 4);
    g_assert_cmphex(le32_to_cpu(px), ==, 0x11223344);
}

/* ---- glamo-3d ------------------------------------------------------------ */

#define GL_REGS     GLAMO_REGS_BAR
#define GL_VRAM     GLAMO_VRAM_BAR
#define GL_FB       0x000000u
#define GL_SIZE     511
#define GL_PITCH    1024
#define GL_RING     0x100000u
#define GL_RINGSZ   0x80000u

static void gl_seq(G3DQDev *d, const GlamoRegWrite *w, unsigned n)
{
    unsigned i;

    for (i = 0; i < n; i++) {
        qpci_io_writew(d->dev, d->bar[GL_REGS], w[i].off, w[i].val);
    }
}

static uint16_t gl_rd(G3DQDev *d, uint32_t off)
{
    return qpci_io_readw(d->dev, d->bar[GL_REGS], off);
}

/* packets at the start of the ring, then its write pointer */
static void gl_submit(G3DQDev *d, GlamoCmd *c)
{
    uint32_t wptr = 2 * c->n;

    g_assert_false(c->overflow);
    g_assert_cmpuint(wptr, <, GL_RINGSZ);
    g3dq_write(d, GL_VRAM, GL_RING, c->buf, wptr);
    qpci_io_writew(d->dev, d->bar[GL_REGS], A_GLAMO_CMDQ_WRITE_ADDRH,
                   wptr >> 16);
    qpci_io_writew(d->dev, d->bar[GL_REGS], A_GLAMO_CMDQ_WRITE_ADDRL,
                   (uint16_t)wptr);
}

static void gl_setup(G3DQDev *d)
{
    GlamoRegWrite w[10];

    gl_seq(d, w, glamo_seq_enable_3d(w));
    gl_seq(d, w, glamo_seq_cmdq_init(w, GL_RING, GL_RINGSZ, 5));
    gl_seq(d, w, glamo_seq_lcd(w, GL_FB, GL_PITCH, GL_SIZE, GL_SIZE));
}

/*
 * As many triangles as the ring holds, pairs covering the 511x511 target,
 * in one primitive list that never gets its EGEND.
 */
static void gl_start(G3DQDev *d)
{
    uint32_t cap = GL_RINGSZ / 2 - 64;
    g_autofree uint16_t *buf = g_new0(uint16_t, cap);
    GlamoCmd c = { buf, 0, cap, 0 };
    const float s = GL_SIZE;

    gl_setup(d);
    glamo_cmd_target(&c, GL_FB, GL_PITCH, GL_SIZE, GL_SIZE, 0, 0);
    glamo_cmd_wr(&c, A_EGPrim1, GLAMO_PRIM_TRIANGLES);
    /* two triangles per cover: setup takes -512..511 */
    while (c.n + 128 < cap) {
        glamo_cmd_vertex(&c, 0, 0, 0.5f, 1, 0xff102030);
        glamo_cmd_vertex(&c, s, 0, 0.5f, 1, 0xff203040);
        glamo_cmd_vertex(&c, s, s, 0.5f, 1, 0xff304050);
        glamo_cmd_vertex(&c, 0, 0, 0.5f, 1, 0xff102030);
        glamo_cmd_vertex(&c, s, s, 0.5f, 1, 0xff304050);
        glamo_cmd_vertex(&c, 0, s, 0.5f, 1, 0xff405060);
    }
    gl_submit(d, &c);
}

#define GL_POS      0x200000u       /* vertex streams and indices */
#define GL_COL      0x200100u
#define GL_IDX      0x201000u
#define GL_NIDX     0x30000u        /* 65536 triangles */

/*
 * The same covers drawn from vertex streams through an index buffer of
 * GL_NIDX indices, again without EGEND.
 */
static void gl_start_indexed(G3DQDev *d)
{
    static const float pos[4][3] = {
        { 0, 0, 0.5f }, { GL_SIZE, 0, 0.5f }, { GL_SIZE, GL_SIZE, 0.5f },
        { 0, GL_SIZE, 0.5f },
    };
    static const uint8_t col[4][4] = {
        { 0x10, 0x20, 0x30, 0xff }, { 0x20, 0x30, 0x40, 0xff },
        { 0x30, 0x40, 0x50, 0xff }, { 0x40, 0x50, 0x60, 0xff },
    };
    static const uint16_t quad[6] = { 0, 1, 2, 0, 2, 3 };
    g_autofree uint16_t *idx = g_new(uint16_t, GL_NIDX);
    uint16_t buf[512];
    GlamoCmd c = { buf, 0, G_N_ELEMENTS(buf), 0 };
    float le_pos[4][3];
    int i;

    for (i = 0; i < 12; i++) {
        uint32_t v = glamo_fbits(pos[i / 3][i % 3]);
        memcpy(&le_pos[i / 3][i % 3], &(uint32_t){ cpu_to_le32(v) }, 4);
    }
    for (i = 0; i < GL_NIDX; i++) {
        idx[i] = cpu_to_le16(quad[i % 6]);
    }
    gl_setup(d);
    g3dq_write(d, GL_VRAM, GL_POS, le_pos, sizeof(le_pos));
    g3dq_write(d, GL_VRAM, GL_COL, col, sizeof(col));
    g3dq_write(d, GL_VRAM, GL_IDX, idx, GL_NIDX * 2);
    glamo_cmd_target(&c, GL_FB, GL_PITCH, GL_SIZE, GL_SIZE, 0, 0);
    glamo_cmd_wr(&c, A_MGVStreamActive, 0x03);
    glamo_cmd_wr(&c, A_MGVStrmCtl, 1 << 8 | R_MGVStrmCtl_MGVtxColorfmt_MASK);
    glamo_cmd_wr(&c, GLAMO_MGVSTRM_DESC(0), 12 << 16 | 2 << 8 |
                 GLAMO_VTYPE_FLOAT << 4 | GLAMO_VARRAY_POSITION);
    glamo_cmd_wr(&c, GLAMO_MGVSTRM_BAS(0), GL_POS);
    glamo_cmd_wr(&c, GLAMO_MGVSTRM_DESC(1), 4 << 16 | 3 << 8 |
                 GLAMO_VTYPE_UBYTE << 4 | GLAMO_VARRAY_DIFFUSE);
    glamo_cmd_wr(&c, GLAMO_MGVSTRM_BAS(1), GL_COL);
    glamo_cmd_wr(&c, A_MGStrmIndexMDBAS, GL_IDX);
    glamo_cmd_wr(&c, A_RGPDV, 16 << 20 | GL_NIDX);
    glamo_cmd_wr(&c, A_EGPrim1, GLAMO_PRIM_TRIANGLES);
    glamo_cmd_wr(&c, A_MGBufCMSFire, GLAMO_CMS_STREAM_INDEX);
    glamo_cmd_wr(&c, A_MGBufCBMFire, GLAMO_CBM_STREAM_INDEX);
    gl_submit(d, &c);
}

static bool gl_busy(G3DQDev *d)
{
    return !glamo_cmdq_idle(gl_rd(d, A_GLAMO_CMDQ_STATUS));
}

/* after a reset: a clear through the queue completes and shows */
static void gl_works(G3DQDev *d)
{
    uint16_t buf[256];
    GlamoCmd c = { buf, 0, G_N_ELEMENTS(buf), 0 };
    uint16_t px;

    gl_setup(d);
    glamo_cmd_clear(&c, GL_FB, GL_PITCH, 64, 64, 0, 0, 0xff00ff00);
    glamo_cmd_wr(&c, A_EGEND, 0);
    gl_submit(d, &c);
    g3dq_wait_bits16(d, GL_REGS, A_GLAMO_CMDQ_STATUS,
                     GLAMO_CMDQ_STATUS_EMPTY | GLAMO_CMDQ_STATUS_IDLE |
                     GLAMO_CMDQ_STATUS_3D_BUSY,
                     GLAMO_CMDQ_STATUS_EMPTY | GLAMO_CMDQ_STATUS_IDLE);
    g3dq_wait_bits16(d, GL_REGS, A_EGSTATUSA, 3, 3);
    g3dq_read(d, GL_VRAM, GL_FB + 10 * GL_PITCH + 20, &px, 2);
    g_assert_cmphex(le16_to_cpu(px), ==, 0x07E0);       /* green in 565 */
}

/* ---- attila-3d ------------------------------------------------------------ */

#define AT_REGS     ATTILA_REGS_BAR
#define AT_MEM      ATTILA_MEM_BAR
#define AT_RING     0x0ff00000u     /* the ring: the last MiB of BAR2 */
#define AT_RINGSZ   0x00080000u
#define AT_RES      4096

static uint32_t at_io_rd(void *opaque, uint32_t off)
{
    return g3dq_rd32(opaque, AT_REGS, off);
}

static void at_io_wr(void *opaque, uint32_t off, uint32_t v)
{
    g3dq_wr32(opaque, AT_REGS, off, v);
}

static void at_io_copy(void *opaque, uint32_t at, const uint8_t *p,
                       uint32_t n)
{
    g3dq_write(opaque, AT_MEM, AT_RING + at, p, n);
}

static void at_io_pause(void *opaque)
{
    g_usleep(200);
}

/* the ring, empty, in BAR2; records go to its start */
static void at_push(G3DQDev *d, const AttilaRecBuf *b)
{
    AttilaRingIo io = { d, at_io_rd, at_io_wr, at_io_copy, at_io_pause,
                        AT_RINGSZ, 0 };

    g_assert_false(b->overflow);
    g3dq_wr32(d, AT_REGS, A_ATTILA_RING_BASE, AT_RING);
    g3dq_wr32(d, AT_REGS, A_ATTILA_RING_SIZE, AT_RINGSZ);
    g3dq_wr32(d, AT_REGS, A_ATTILA_RING_CONTROL,
              R_ATTILA_RING_CONTROL_ENABLE_MASK);
    g_assert_cmpint(attila_ring_push(&io, b->buf, b->n, 1000), ==, 0);
}

/* a 4096x4096 RGBA8 target, then `clears` colour clears of all of it */
static void at_clears(G3DQDev *d, uint32_t res, unsigned clears)
{
    uint32_t cap = AT_RINGSZ - 4096;
    g_autofree uint8_t *buf = g_malloc(cap);
    AttilaRecBuf b = { buf, 0, cap, 0 };
    unsigned i;

    attila_rec_reg_u32(&b, ATTILA_REG_DISPLAY_X_RES, 0, res);
    attila_rec_reg_u32(&b, ATTILA_REG_DISPLAY_Y_RES, 0, res);
    attila_rec_reg_u32(&b, ATTILA_REG_RENDER_TARGET_FORMAT, 0,
                       ATTILA_FMT_RGBA8888);
    attila_rec_reg_u32(&b, ATTILA_REG_RENDER_TARGET_ADDRESS, 0, 0);
    attila_rec_reg_vec4(&b, ATTILA_REG_COLOR_BUFFER_CLEAR, 0, 0.25f, 0.5f,
                        0.75f, 1.0f);
    for (i = 0; i < clears; i++) {
        attila_rec_cmd(&b, ATTILA_CMD_CLEARCOLORBUFFER);
    }
    attila_rec_fence(&b, 0xF00D);
    at_push(d, &b);
}

static void at_start(G3DQDev *d)
{
    at_clears(d, AT_RES, 20000);
}

static bool at_busy(G3DQDev *d)
{
    return !(g3dq_rd32(d, AT_REGS, A_ATTILA_STATUS) &
             R_ATTILA_STATUS_IDLE_MASK);
}

/* the records run (20006 for at_clears' 20000) tell a ring read wrong
 * from work that ended */
static void at_diag(G3DQDev *d)
{
    static const struct { uint32_t off; const char *name; } r[] = {
        { A_ATTILA_STATUS, "STATUS" }, { A_ATTILA_RECORDS, "RECORDS" },
        { A_ATTILA_RING_READ, "RING_READ" },
        { A_ATTILA_RING_WRITE, "RING_WRITE" },
        { A_ATTILA_RING_CONTROL, "RING_CONTROL" },
        { A_ATTILA_ERROR_COUNT, "ERROR_COUNT" },
        { A_ATTILA_ERROR_CODE, "ERROR_CODE" },
        { A_ATTILA_ERROR_INFO, "ERROR_INFO" },
        { A_ATTILA_FRAME, "FRAME" }, { A_ATTILA_FENCE, "FENCE" },
    };
    unsigned i;

    for (i = 0; i < G_N_ELEMENTS(r); i++) {
        fprintf(stderr, "attila-3d: %s 0x%08x\n", r[i].name,
                g3dq_rd32(d, AT_REGS, r[i].off));
    }
}

/* after a reset: a small clear runs to its fence */
static void at_works(G3DQDev *d)
{
    g_assert_false(at_busy(d));
    at_clears(d, 64, 1);
    g3dq_wait_bits(d, AT_REGS, A_ATTILA_FENCE, ~0u, 0xF00D);
    g_assert_cmphex(g3dq_rd32(d, AT_REGS, A_ATTILA_STATUS) &
                    R_ATTILA_STATUS_ERROR_MASK, ==, 0);
}

/* ---- flipper-gx ------------------------------------------------------------ */

#define FL_REGS     FLIPPER_REGS_BAR
#define FL_MEM1     FLIPPER_MEM1_BAR
#define FL_DL       0x00400000u
#define FL_TOKEN    0x1234          /* the end of the long FIFO */

static void fl_seq(G3DQDev *d, const FlipperRegWrite *w, unsigned n)
{
    unsigned i;

    for (i = 0; i < n; i++) {
        if (w[i].size == 2) {
            qpci_io_writew(d->dev, d->bar[FL_REGS], w[i].off, w[i].val);
        } else {
            g3dq_wr32(d, FL_REGS, w[i].off, w[i].val);
        }
    }
}

/* the stream through the write-gather pipe, 32 bits at a time */
static void fl_gather(G3DQDev *d, FlipperGX *g)
{
    uint32_t i;

    fgx_pad32(g);
    g_assert_cmpuint(g->len, <=, g->cap);
    for (i = 0; i < g->len; i += 4) {
        g3dq_wr32(d, FL_REGS, FLIPPER_WGP_BASE,
                  (uint32_t)g->buf[i] << 24 | g->buf[i + 1] << 16 |
                  g->buf[i + 2] << 8 | g->buf[i + 3]);
    }
}

static void fl_setup(G3DQDev *d)
{
    FlipperRegWrite w[FGX_FIFO_INIT_WRITES];

    fl_seq(d, fgx_vi_ntsc640, G_N_ELEMENTS(fgx_vi_ntsc640));
    fl_seq(d, w, fgx_fifo_init(w, FGX_FIFO_BASE, FGX_FIFO_SIZE));
    qpci_io_writew(d->dev, d->bar[FL_REGS], A_PE_ISR, 0x000F);
}

/*
 * A display list of 64 triangles that cover the whole EFB, called again
 * and again from the FIFO: a display-list loop that outlasts the test.
 */
static void fl_start(G3DQDev *d)
{
    static uint8_t dl[8192], fifo[16384];
    FlipperGX l = { dl, 0, sizeof(dl) }, g = { fifo, 0, sizeof(fifo) };
    int i;

    fl_setup(d);
    fgx_draw(&l, GX_DRAW_TRIANGLES, 0, 3 * 64);
    for (i = 0; i < 64; i++) {
        fgx_vtx(&l, -1, -1, -0.5f, 0x10203040);
        fgx_vtx(&l, 3, -1, -0.5f, 0x10203040);
        fgx_vtx(&l, -1, 3, -0.5f, 0x10203040);
    }
    fgx_pad32(&l);
    g_assert_cmpuint(l.len, <=, l.cap);
    g3dq_write(d, FL_MEM1, FL_DL, dl, l.len);
    fgx_begin_frame(&g, 0x000000FF);
    while (g.len + 128 < g.cap) {
        fgx_call_dl(&g, FL_DL, l.len);
    }
    fgx_draw_done(&g, FL_TOKEN);
    fl_gather(d, &g);
}

/*
 * A FIFO whose contents draw endlessly as the GP reads around its wrap: the
 * whole ring is a frame (its state, a clear, one draw of 1,300 small
 * triangles) padded with NOPs to its last byte, so the stream goes on at
 * the base, and the guest sets the read/write distance (writable, YAGCD
 * §5.1 CP; Dolphin CommandProcessor.cpp) to its largest value without ever
 * writing through the gather pipe: 1,023 laps of the ring (the GP laps it
 * several times in the first 200 ms).
 */
#define FL_DIST_MAX 0x03FFFFE0u

static void fl_start_wrap(G3DQDev *d)
{
    g_autofree uint8_t *ring = g_malloc(FGX_FIFO_SIZE);
    FlipperGX g = { ring, 0, FGX_FIFO_SIZE };
    unsigned tris, i;

    fl_setup(d);
    fgx_begin_frame(&g, 0x000000FF);
    tris = (FGX_FIFO_SIZE - g.len - 3) / (3 * 16);
    fgx_draw(&g, GX_DRAW_TRIANGLES, 0, 3 * tris);
    for (i = 0; i < tris; i++) {
        fgx_vtx(&g, -1, -1, -0.5f, 0x10203040);
        fgx_vtx(&g, -0.75f, -1, -0.5f, 0x10203040);
        fgx_vtx(&g, -1, -0.75f, -0.5f, 0x10203040);
    }
    while (g.len < FGX_FIFO_SIZE) {
        fgx_u8(&g, GX_NOP);
    }
    g_assert_cmpuint(g.len, ==, FGX_FIFO_SIZE);
    g3dq_write(d, FL_MEM1, FGX_FIFO_BASE, ring, FGX_FIFO_SIZE);
    qpci_io_writew(d->dev, d->bar[FL_REGS], A_CP_FIFO_DIST_HI,
                   FL_DIST_MAX >> 16);
    qpci_io_writew(d->dev, d->bar[FL_REGS], A_CP_FIFO_DIST_LO,
                   FL_DIST_MAX & 0xFFFF);
}

/* the GP has FIFO data left to read */
static bool fl_wrap_busy(G3DQDev *d)
{
    uint32_t dist = qpci_io_readw(d->dev, d->bar[FL_REGS], A_CP_FIFO_DIST_LO) |
                    (uint32_t)qpci_io_readw(d->dev, d->bar[FL_REGS],
                                            A_CP_FIFO_DIST_HI) << 16;

    return dist >= 32;
}

static bool fl_busy(G3DQDev *d)
{
    /* the token at the end of the FIFO has not been reached */
    return qpci_io_readw(d->dev, d->bar[FL_REGS], A_PE_TOKEN) != FL_TOKEN;
}

/* after a reset: a frame with draw done and a token finishes */
static void fl_works(G3DQDev *d)
{
    static uint8_t buf[4096];
    FlipperGX g = { buf, 0, sizeof(buf) };

    fl_setup(d);
    fgx_begin_frame(&g, 0x203040FF);
    fgx_draw(&g, GX_DRAW_TRIANGLES, 0, 3);
    fgx_vtx(&g, 0.05f, 0.83f, -0.5f, 0xFF0000FF);
    fgx_vtx(&g, -0.71f, -0.62f, -0.5f, 0x00FF00FF);
    fgx_vtx(&g, 0.78f, -0.45f, -0.5f, 0x0000FFFF);
    fgx_copy_to_xfb(&g, FGX_XFB_ADDR);
    fgx_draw_done(&g, 0x600D);
    fl_gather(d, &g);
    g3dq_wait_bits16(d, FL_REGS, A_PE_TOKEN, 0xFFFF, 0x600D);
}

/* a word of GX_NOPs into the gather pipe, behind the FIFO's draw-done */
static void fl_poke(G3DQDev *d)
{
    g3dq_wr32(d, FL_REGS, FLIPPER_WGP_BASE, 0);
}

/* a scratch register, with no write-back enabled */
static void r3_poke(G3DQDev *d)
{
    g3dq_wr32(d, R3_MMIO, A_SCRATCH_REG0, 0x5C5C5C5C);
}

static const FreezeDev freeze_devs[] = {
    { "r300-3d draw", R3_ARGS, R300_PCI_VENDOR_ID, R300_PCI_DEVICE_ID,
      r3_start_draw, r3_busy, r3_works, MIG_LONG_UNIT, r3_poke, r3_diag },
    { "r300-3d self-jump", R3_ARGS, R300_PCI_VENDOR_ID, R300_PCI_DEVICE_ID,
      r3_start_self_jump, r3_busy, r3_works, MIG_OK, r3_poke, r3_diag },
    { "pica200-3d self-jump", "-device pica200-3d,id=gpu,render-threads=2",
      PICA200_PCI_VENDOR_ID, PICA200_PCI_DEVICE_ID,
      pi_start, pi_busy, pi_works, MIG_OK },
    { "glamo-3d draw", "-device glamo-3d,id=gpu,render-threads=2",
      GLAMO_PCI_VENDOR_ID, GLAMO_PCI_DEVICE_ID, gl_start, gl_busy, gl_works,
      MIG_LONG_UNIT },
    { "glamo-3d index buffer", "-device glamo-3d,id=gpu,render-threads=2",
      GLAMO_PCI_VENDOR_ID, GLAMO_PCI_DEVICE_ID, gl_start_indexed, gl_busy,
      gl_works, MIG_LONG_UNIT },
    { "attila-3d clears", "-device attila-3d,id=gpu,render-threads=2",
      ATTILA_PCI_VENDOR_ID, ATTILA_PCI_DEVICE_ID, at_start, at_busy,
      at_works, MIG_OK, NULL, at_diag },
    { "flipper-gx display lists", "-device flipper-gx,id=gpu,render-threads=2",
      FLIPPER_PCI_VENDOR, FLIPPER_PCI_DEVICE, fl_start, fl_busy, fl_works,
      MIG_OK, fl_poke },
    { "flipper-gx FIFO wrap loop",
      "-device flipper-gx,id=gpu,render-threads=2",
      FLIPPER_PCI_VENDOR, FLIPPER_PCI_DEVICE, fl_start_wrap, fl_wrap_busy,
      fl_works, MIG_OK, fl_poke },
};

/* ---- migration while the command processor is busy ---------------------- */

/* the migration's end state: "completed" or "failed" (bounded) */
static char *migrate_wait(QTestState *qts)
{
    int64_t deadline = g_get_monotonic_time() + 60 * G_USEC_PER_SEC;

    for (;;) {
        QDict *resp = qtest_qmp(qts, "{'execute': 'query-migrate'}");
        QDict *ret = qdict_get_qdict(resp, "return");
        const char *st = ret ? qdict_get_try_str(ret, "status") : NULL;
        char *out = st && (!strcmp(st, "completed") || !strcmp(st, "failed"))
                    ? g_strdup(st) : NULL;

        qobject_unref(resp);
        if (out) {
            return out;
        }
        g_assert_cmpint(g_get_monotonic_time(), <, deadline);
        g_usleep(20 * 1000);
    }
}

/*
 * The state is saved at a step boundary (docs/architecture.md, Migration):
 * with work that outlasts the test made of short units, the VM stopped in
 * the middle of it migrates to a file; a fresh QEMU loads it, is still
 * busy with the same work when it goes on, and works after a reset. When
 * one unit outlasts what a save waits for (r300: 200 full-target triangles
 * in one packet; glamo: one flush of 4096 queued full-target triangles),
 * the migration fails, the source goes on and works; or, on a host fast
 * enough to end the unit inside the wait, it completes.
 */
static void migrate_busy(gconstpointer data)
{
    const FreezeDev *fd = data;
    G3DQDev *d = g3dq_open(fd->args, fd->vendor, fd->device);
    g_autofree char *file = NULL, *uri = NULL, *args = NULL, *st = NULL;
    int tmp = g_file_open_tmp("gpu3d-migrate-XXXXXX", &file, NULL);

    g_assert_cmpint(tmp, >=, 0);
    close(tmp);
    fd->start(d);
    g_usleep(200 * 1000);
    g_assert_true(fd->busy(d));
    qmp_ok(d->qts, "stop", "stop before migrate");
    uri = g_strdup_printf("exec:cat > %s", file);
    qtest_qmp_assert_success(d->qts, "{'execute': 'migrate', 'arguments': "
                             "{'uri': %s}}", uri);
    st = migrate_wait(d->qts);
    g_test_message("%s: migration %s", fd->name, st);
    /*
     * A long unit fails the save when it outlasts the wait; on a fast,
     * idle host it may end inside it, and the save completes: both are
     * right, a hang or a crash is not.
     */
    if (fd->migrate == MIG_LONG_UNIT && !g_str_equal(st, "completed")) {
        g_assert_cmpstr(st, ==, "failed");
        qmp_ok(d->qts, "cont", "cont after the failed migration");
        g_assert_true(fd->busy(d));
        g3dq_system_reset(d);
        fd->works(d);
        g3dq_close(d);
        unlink(file);
        return;
    }
    g_assert_cmpstr(st, ==, "completed");
    g3dq_close(d);

    args = g_strdup_printf("%s -incoming 'exec:cat %s'", fd->args, file);
    d = g3dq_open_incoming(args, fd->vendor, fd->device);
    if (fd->migrate != MIG_LONG_UNIT) {
        /* the work goes on where it was */
        g_assert_true(fd->busy(d));
    }
    qmp_ok(d->qts, "cont", "cont after the migration");
    g_usleep(200 * 1000);
    if (fd->migrate != MIG_LONG_UNIT) {
        g_assert_true(fd->busy(d));
    }
    g3dq_system_reset(d);
    fd->works(d);
    g3dq_close(d);
    unlink(file);
}

/* ---- q35: hot-unplug through a pcie-root-port while rendering ----------- */

#define RP_DEVFN    QPCI_DEVFN(4, 0)
#define RP_BUS      1
#define WIN_MEM     0xC0000000u     /* non-prefetchable window: registers */
#define WIN_PREF    0xD0000000u     /* prefetchable window: VRAM */

static uint32_t cfg_addr(int bus, int devfn, int reg)
{
    return 0x80000000u | bus << 16 | devfn << 8 | (reg & 0xFC);
}

static uint32_t cfg_rd(QTestState *qts, int bus, int devfn, int reg, int size)
{
    qtest_outl(qts, 0xCF8, cfg_addr(bus, devfn, reg));
    switch (size) {
    case 1:
        return qtest_inb(qts, 0xCFC + (reg & 3));
    case 2:
        return qtest_inw(qts, 0xCFC + (reg & 2));
    default:
        return qtest_inl(qts, 0xCFC);
    }
}

static void cfg_wr(QTestState *qts, int bus, int devfn, int reg, int size,
                   uint32_t v)
{
    qtest_outl(qts, 0xCF8, cfg_addr(bus, devfn, reg));
    switch (size) {
    case 1:
        qtest_outb(qts, 0xCFC + (reg & 3), v);
        break;
    case 2:
        qtest_outw(qts, 0xCFC + (reg & 2), v);
        break;
    default:
        qtest_outl(qts, 0xCFC, v);
        break;
    }
}

static int find_cap(QTestState *qts, int bus, int devfn, int id)
{
    int pos = cfg_rd(qts, bus, devfn, PCI_CAPABILITY_LIST, 1) & ~3;

    while (pos) {
        if (cfg_rd(qts, bus, devfn, pos, 1) == id) {
            return pos;
        }
        pos = cfg_rd(qts, bus, devfn, pos + 1, 1) & ~3;
    }
    return 0;
}

static void test_q35_unplug(void)
{
    /* native PCIe hot-plug: the slot's power control does the unplug */
    QTestState *qts = qtest_init(
        "-machine q35 -global ICH9-LPC.acpi-pci-hotplug-with-bridge-support=off"
        " -device pcie-root-port,id=rp,bus=pcie.0,addr=0x4,chassis=1,slot=1");
    uint64_t mmio = WIN_MEM, vram = WIN_PREF;
    g_autofree uint32_t *buf = g_new0(uint32_t, 2u << R3_RING_SZ);
    uint32_t n;
    int cap;
    uint16_t ctl;
    QDict *ev;

    qtest_qmp_device_add(qts, "r300-3d", "gpu",
                         "{'bus': 'rp', 'render-threads': 2}");
    /* the root port: bus 1 behind it, both windows, memory decode */
    cfg_wr(qts, 0, RP_DEVFN, PCI_PRIMARY_BUS, 4, RP_BUS << 16 | RP_BUS << 8);
    cfg_wr(qts, 0, RP_DEVFN, PCI_MEMORY_BASE, 4,
           (WIN_MEM >> 16) | ((WIN_MEM + 0x00F00000u) & 0xFFF00000u));
    cfg_wr(qts, 0, RP_DEVFN, PCI_PREF_MEMORY_BASE, 4,
           (WIN_PREF >> 16) | ((WIN_PREF + 0x0FF00000u) & 0xFFF00000u));
    cfg_wr(qts, 0, RP_DEVFN, PCI_PREF_BASE_UPPER32, 4, 0);
    cfg_wr(qts, 0, RP_DEVFN, PCI_PREF_LIMIT_UPPER32, 4, 0);
    cfg_wr(qts, 0, RP_DEVFN, PCI_COMMAND, 2,
           PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
    /* the slot was empty, so powered off: power it on, as an OS does */
    cap = find_cap(qts, 0, RP_DEVFN, PCI_CAP_ID_EXP);
    g_assert_cmpint(cap, >, 0);
    ctl = cfg_rd(qts, 0, RP_DEVFN, cap + PCI_EXP_SLTCTL, 2);
    ctl = (ctl & ~(PCI_EXP_SLTCTL_PIC | PCI_EXP_SLTCTL_PCC)) |
          PCI_EXP_SLTCTL_PWR_IND_ON;
    cfg_wr(qts, 0, RP_DEVFN, cap + PCI_EXP_SLTCTL, 2, ctl);
    /* the device: VRAM (64-bit) and registers in the windows */
    g_assert_cmphex(cfg_rd(qts, RP_BUS, 0, PCI_VENDOR_ID, 2), ==,
                    R300_PCI_VENDOR_ID);
    cfg_wr(qts, RP_BUS, 0, PCI_BASE_ADDRESS_0 + 4 * R3_VRAM, 4, vram);
    cfg_wr(qts, RP_BUS, 0, PCI_BASE_ADDRESS_0 + 4 * R3_VRAM + 4, 4, 0);
    cfg_wr(qts, RP_BUS, 0, PCI_BASE_ADDRESS_0 + 4 * R3_MMIO, 4, mmio);
    cfg_wr(qts, RP_BUS, 0, PCI_COMMAND, 2,
           PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
    g_assert_cmphex(qtest_readl(qts, mmio + A_CONFIG_MEMSIZE), ==,
                    R300_VRAM_SIZE_DEFAULT);

    /* the long frame, through the BARs at their addresses */
    qtest_writel(qts, mmio + A_CP_CSQ_CNTL,
                 (uint32_t)R300_CSQ_PRIBM_INDBM << 28);
    qtest_writel(qts, mmio + A_CP_RB_BASE, R3_RING);
    qtest_writel(qts, mmio + A_CP_RB_CNTL, R3_RING_SZ);
    qtest_writel(qts, mmio + A_CP_RB_WPTR, 0);
    n = r3_build(buf, R3_CB, 200);
    qtest_memwrite(qts, vram + R3_RING, buf, n * 4);
    qtest_writel(qts, mmio + A_CP_RB_WPTR, n);
    g_usleep(200 * 1000);
    g_assert_true(qtest_readl(qts, mmio + A_RBBM_STATUS) &
                  R_RBBM_STATUS_GUI_ACTIVE_MASK);

    /* device_del presses the attention button; the "OS" powers the slot off */
    tick();
    qtest_qmp_device_del_send(qts, "gpu");
    ctl = cfg_rd(qts, 0, RP_DEVFN, cap + PCI_EXP_SLTCTL, 2);
    ctl = (ctl & ~PCI_EXP_SLTCTL_PIC) | PCI_EXP_SLTCTL_PWR_IND_OFF |
          PCI_EXP_SLTCTL_PCC;
    cfg_wr(qts, 0, RP_DEVFN, cap + PCI_EXP_SLTCTL, 2, ctl);
    ev = qtest_qmp_eventwait_ref(qts, "DEVICE_DELETED");
    within_bound("r300 q35 hot-unplug");
    qobject_unref(ev);
    g_assert_cmphex(cfg_rd(qts, RP_BUS, 0, PCI_VENDOR_ID, 2), ==, 0xFFFF);
    tick();
    qtest_quit(qts);
    within_bound("q35 quit after unplug");
}

/* ---- latency benchmark (GPU3D_FREEZE_BENCH=1; not part of the gate) ------ */

#define BENCH_READS     2000
#define BENCH_WRITES    2000
#define BENCH_RESETS    20

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

    return x < y ? -1 : x > y;
}

static void report(const char *dev, const char *what, int64_t *us, int n)
{
    qsort(us, n, sizeof(*us), cmp_i64);
    printf("# latency %-26s %-14s n %4d  p50 %8.3f ms  p99 %8.3f ms  "
           "max %8.3f ms\n", dev, what, n, us[n / 2] / 1000.0,
           us[(n * 99) / 100] / 1000.0, us[n - 1] / 1000.0);
}

static void bench(gconstpointer data)
{
    const FreezeDev *fd = data;
    G3DQDev *d = g3dq_open(fd->args, fd->vendor, fd->device);
    int64_t reads[BENCH_READS], writes[BENCH_WRITES], resets[BENCH_RESETS];
    int64_t start;
    int i;

    start = g_get_monotonic_time();
    fd->start(d);
    start = g_get_monotonic_time() - start;
    g_usleep(200 * 1000);
    for (i = 0; i < BENCH_READS; i++) {
        tick();
        g_assert_true(fd->busy(d));
        reads[i] = g_get_monotonic_time() - t0;
    }
    for (i = 0; fd->poke && i < BENCH_WRITES; i++) {
        tick();
        fd->poke(d);
        writes[i] = g_get_monotonic_time() - t0;
    }
    /* the writes went behind the work: the device is still busy */
    g_assert_true(fd->busy(d));
    for (i = 0; i < BENCH_RESETS; i++) {
        /* the QMP command alone; the BARs are mapped again after it */
        g_usleep(50 * 1000);
        tick();
        qtest_qmp_assert_success(d->qts, "{'execute': 'system_reset'}");
        resets[i] = g_get_monotonic_time() - t0;
        d->bus->pio_alloc_ptr = d->pio_alloc_start;
        d->bus->mmio_alloc_ptr = d->mmio_alloc_start;
        g3dq_remap(d);
        fd->start(d);
    }
    printf("# latency %-26s %-14s %8.3f ms\n", fd->name, "start",
           start / 1000.0);
    report(fd->name, "register read", reads, BENCH_READS);
    if (fd->poke) {
        report(fd->name, "register write", writes, BENCH_WRITES);
    }
    report(fd->name, "system_reset", resets, BENCH_RESETS);
    g3dq_close(d);
}

int main(int argc, char **argv)
{
    int i;

    g_test_init(&argc, &argv, NULL);
    for (i = 0; i < G_N_ELEMENTS(freeze_devs); i++) {
        g_autofree char *path = g_strdup_printf("/gpu3d/freeze/in-flight/%s",
                                                freeze_devs[i].name);
        g_autofree char *m = g_strdup_printf("/gpu3d/freeze/migrate/%s",
                                             freeze_devs[i].name);

        g_strdelimit(path, " ", '-');
        qtest_add_data_func(path, &freeze_devs[i], in_flight);
        g_strdelimit(m, " ", '-');
        qtest_add_data_func(m, &freeze_devs[i], migrate_busy);
        if (getenv("GPU3D_FREEZE_BENCH")) {
            g_autofree char *b = g_strdup_printf("/gpu3d/freeze/bench/%s",
                                                 freeze_devs[i].name);

            g_strdelimit(b, " ", '-');
            qtest_add_data_func(b, &freeze_devs[i], bench);
        }
    }
    qtest_add_func("/gpu3d/freeze/r300/stop-cont-image",
                   test_r300_stop_cont_image);
    qtest_add_func("/gpu3d/freeze/r300/q35-unplug", test_q35_unplug);
    qtest_add_func("/gpu3d/freeze/r300/irq-ack-in-flight",
                   test_r300_irq_ack_in_flight);
    return g_test_run();
}
