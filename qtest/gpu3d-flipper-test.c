/*
 * qtests of flipper-gx through its PCI BARs: identity and BARs, reset
 * values and masks of registers from every block (16- and 32-bit accesses
 * on the big-endian bus), the GX FIFO pointers and the watermark interrupt,
 * PE draw-done and token interrupts, the VI display interrupts on the
 * virtual clock, a full frame from the write-gather pipe to a VI screendump
 * compared with Dolphin's frame of the same stream, bad input (FIFO
 * pointers outside MEM1, a display list calling itself, an array index past
 * MEM1, an XFB past MEM1) logged, skipped and recovered by reset, VM
 * stop/cont and hot-plug; the CPU's EFB window (BAR4); a textured frame
 * through all three BARs (texture in MEM1 by BAR2, the stream by the
 * gather pipe, the EFB read back by BAR4) against the closed form and
 * Dolphin's frame (tests/flipper/ref/tex-bars.png).
 *
 * The reference frame is tests/flipper/ref/gouraud.png, rendered by Debian's
 * dolphin-emu software renderer from the same GX stream (the unit tests'
 * "gouraud" scene, built here with the same gpu3d/flipper-cmd.h calls). Its
 * FNV-1a hash over the 640x480 RGB bytes and a few of its pixels are below;
 * they were read from the PNG with tools/image.c (g3d_image_load).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "libqtest.h"
#include "gpu3d-qtest-util.h"
#include "gpu3d/flipper-regs.h"
#include "gpu3d/flipper-cmd.h"

#define REGS FLIPPER_REGS_BAR
#define MEM1 FLIPPER_MEM1_BAR
#define EFB FLIPPER_EFB_BAR

typedef struct RefPixel {
    int x, y;
    uint8_t r, g, b;
} RefPixel;

/* Dolphin's frame of the gouraud stream */
#define REF_FNV 0xb94e7f0eu
static const struct RefPixel ref_px[] = {
    { 10, 10, 0x20, 0x30, 0x3F },       /* clear colour after the XFB */
    { 336, 50, 0xF7, 0x03, 0x04 },      /* near the red vertex */
    { 110, 380, 0x05, 0xF1, 0x07 },     /* near the green vertex */
    { 550, 345, 0x03, 0x08, 0xF1 },     /* near the blue vertex */
    { 330, 250, 0x5B, 0x52, 0x4E },
    { 200, 300, 0x3D, 0xA6, 0x19 },
    { 450, 200, 0x79, 0x02, 0x7F },
    { 639, 479, 0x20, 0x30, 0x3F },
};

typedef struct Dev {
    G3DQDev *q;
} Dev;

static Dev open_dev(void)
{
    Dev d;

    d.q = g3dq_open("-device flipper-gx,id=gpu,render-threads=2",
                    FLIPPER_PCI_VENDOR, FLIPPER_PCI_DEVICE);
    return d;
}

static void close_dev(Dev *d)
{
    g3dq_close(d->q);
}

/* does the guest-error log hold `needle`? */
static bool logged(Dev *d, const char *needle)
{
    return g3dq_logged(d->q, needle);
}

static uint32_t r16(Dev *d, uint32_t off)
{
    return qpci_io_readw(d->q->dev, d->q->bar[REGS], off);
}

static void w16(Dev *d, uint32_t off, uint32_t v)
{
    qpci_io_writew(d->q->dev, d->q->bar[REGS], off, (uint16_t)v);
}

static uint32_t r32(Dev *d, uint32_t off)
{
    return g3dq_rd32(d->q, REGS, off);
}

static void w32(Dev *d, uint32_t off, uint32_t v)
{
    g3dq_wr32(d->q, REGS, off, v);
}

static void seq(Dev *d, const FlipperRegWrite *w, unsigned n)
{
    unsigned i;

    for (i = 0; i < n; i++) {
        if (w[i].size == 2) {
            w16(d, w[i].off, w[i].val);
        } else {
            w32(d, w[i].off, w[i].val);
        }
    }
}

/* a CP FIFO register pair: lo half at off, hi half at off + 2 */
static uint32_t cp32(Dev *d, uint32_t off)
{
    return r16(d, off) | r16(d, off + 2) << 16;
}

static void set_cp32(Dev *d, uint32_t off, uint32_t v)
{
    w16(d, off, v & 0xFFFF);
    w16(d, off + 2, v >> 16);
}

static void fifo_init(Dev *d)
{
    FlipperRegWrite w[FGX_FIFO_INIT_WRITES];

    seq(d, w, fgx_fifo_init(w, FGX_FIFO_BASE, FGX_FIFO_SIZE));
}

/* the stream through the gather pipe as 32-bit stores, padded to a burst */
static void gather(Dev *d, FlipperGX *g)
{
    uint32_t i;

    fgx_pad32(g);
    g_assert_cmpuint(g->len, <=, g->cap);
    for (i = 0; i < g->len; i += 4) {
        w32(d, FLIPPER_WGP_BASE, (uint32_t)g->buf[i] << 24 |
                                 g->buf[i + 1] << 16 | g->buf[i + 2] << 8 |
                                 g->buf[i + 3]);
    }
}

/* the unit tests' "gouraud" scene: Dolphin's reference frame */
static void gouraud_frame(FlipperGX *g)
{
    fgx_begin_frame(g, 0x203040FF);
    fgx_draw(g, GX_DRAW_TRIANGLES, 0, 3);
    fgx_vtx(g, 0.05f, 0.83f, -0.5f, 0xFF0000FF);
    fgx_vtx(g, -0.71f, -0.62f, -0.5f, 0x00FF00FF);
    fgx_vtx(g, 0.78f, -0.45f, -0.5f, 0x0000FFFF);
    fgx_copy_to_xfb(g, FGX_XFB_ADDR);
}

/* ---- waiting ------------------------------------------------------------ */

static void wait_bits(Dev *d, uint32_t off, uint32_t size, uint32_t mask,
                      uint32_t want)
{
    if (size == 2) {
        g3dq_wait_bits16(d->q, REGS, off, mask, want);
    } else {
        g3dq_wait_bits(d->q, REGS, off, mask, want);
    }
}

static void wait_intx(Dev *d, bool level)
{
    g3dq_wait_intx(d->q, level);
}

/* draw one frame with draw done + token and wait for PE FINISH */
static void draw_and_wait(Dev *d, void (*build)(FlipperGX *g), uint16_t tok)
{
    static uint8_t buf[8192];
    FlipperGX g = { buf, 0, sizeof(buf) };

    build(&g);
    fgx_draw_done(&g, tok);
    gather(d, &g);
    /* the token comes after draw done in the stream: once it is there,
     * FINISH must be too (FINISH alone may be seen before the token) */
    wait_bits(d, A_PE_TOKEN, 2, 0xFFFF, tok);
    g_assert_true(r16(d, A_PE_ISR) & R_PE_ISR_FINISH_MASK);
    w16(d, A_PE_ISR, 0x000F);           /* ack both, keep them enabled */
}

/* screendump of the VI head; exact against a Dolphin frame: its FNV-1a
 * over the 640x480 RGB bytes and sample pixels */
static void check_dolphin_frame(Dev *d, uint32_t want_fnv,
                                const RefPixel *px, size_t npx)
{
    G3DQImage img;
    uint32_t h = 2166136261u;
    size_t i, n;

    g_assert_true(g3dq_screendump(d->q, "gpu", 0, &img));
    g_assert_cmpint(img.width, ==, 640);
    g_assert_cmpint(img.height, ==, 480);
    for (i = 0; i < npx; i++) {
        const uint8_t *p = g3dq_px(&img, px[i].x, px[i].y);
        g_assert_cmphex(p[0], ==, px[i].r);
        g_assert_cmphex(p[1], ==, px[i].g);
        g_assert_cmphex(p[2], ==, px[i].b);
    }
    n = (size_t)img.width * img.height * 3;
    for (i = 0; i < n; i++) {
        h ^= img.rgb[i];
        h *= 16777619u;
    }
    g_test_message("screendump vs Dolphin: FNV 0x%08x (want 0x%08x)", h,
                   want_fnv);
    g_assert_cmphex(h, ==, want_fnv);
    g3dq_image_free(&img);
}

static void check_reference_frame(Dev *d)
{
    check_dolphin_frame(d, REF_FNV, ref_px, G_N_ELEMENTS(ref_px));
}

static void setup_display(Dev *d)
{
    seq(d, fgx_vi_ntsc640, G_N_ELEMENTS(fgx_vi_ntsc640));
    fifo_init(d);
    w16(d, A_PE_ISR, 0x000F);
}

/* ---- identity, BARs, registers -------------------------------------------- */

static void test_identity(void)
{
    Dev d = open_dev();
    QPCIDevice *p = d.q->dev;

    g_assert_cmphex(qpci_config_readw(p, PCI_VENDOR_ID), ==, 0x1234);
    g_assert_cmphex(qpci_config_readw(p, PCI_DEVICE_ID), ==, 0x3D04);
    g_assert_cmphex(qpci_config_readw(p, PCI_CLASS_DEVICE), ==, 0x0380);
    g_assert_cmpuint(qpci_config_readb(p, PCI_INTERRUPT_PIN), ==, 1);
    g_assert_cmpuint(d.q->bar_size[REGS], ==, 64 * 1024);
    g_assert_cmpuint(d.q->bar_size[MEM1], ==, 32 * 1024 * 1024);
    g_assert_cmpuint(d.q->bar_size[EFB], ==, 8 * 1024 * 1024);
    /* BAR0 32-bit MMIO; BAR2 64-bit prefetchable memory */
    g_assert_cmphex(qpci_config_readl(p, PCI_BASE_ADDRESS_0) & 0xF, ==, 0);
    g_assert_cmphex(qpci_config_readl(p, PCI_BASE_ADDRESS_2) & 0xF, ==,
                    PCI_BASE_ADDRESS_MEM_TYPE_64 |
                    PCI_BASE_ADDRESS_MEM_PREFETCH);
    /* BAR4 (the EFB window) 32-bit MMIO */
    g_assert_cmphex(qpci_config_readl(p, PCI_BASE_ADDRESS_4) & 0xF, ==, 0);
    /* MEM1 is plain memory through BAR2, byte order as written */
    g3dq_wr32(d.q, MEM1, 0x17FFFFC, 0x11223344);
    g_assert_cmphex(g3dq_rd32(d.q, MEM1, 0x17FFFFC), ==, 0x11223344);
    close_dev(&d);
}

typedef struct RegCheck {
    uint16_t off;
    uint8_t size;
    uint32_t reset;             /* value after reset */
    bool write;                 /* then write `val`, read back `back` */
    uint32_t val, back;
} RegCheck;

/*
 * Reset values and masks of a sample of every block (doc chapter 5 and
 * YAGCD §5.1-5.4, §5.5-5.10): CP FIFO pointers are 26-bit 32-byte blocks, CR
 * has 6 bits, SR reads idle; VI keeps the doc's snapshot for HSR and the scaler
 * width, DI INT cannot be set by a write; PI INTSR reads "reset switch not
 * pressed", INTMR has 14 bits, the revision is C; AI volume has 16 bits;
 * MI counters reset on a write.
 */
static const RegCheck reg_checks[] = {
    { A_CP_SR, 2, 0x000C, false },
    { A_CP_CR, 2, 0, true, 0xFFC2, 0x0002 },
    { A_CP_FIFO_BASE_LO, 2, 0, true, 0xFFFF, 0xFFE0 },
    { A_CP_FIFO_BASE_HI, 2, 0, true, 0xFFFF, 0x03FF },
    { A_CP_FIFO_HIWM_LO, 2, 0, true, 0x1234, 0x1220 },
    { A_CP_TOKEN, 2, 0, false },
    { A_PE_ISR, 2, 0, true, 0x0003, 0x0003 },
    { A_PE_TOKEN, 2, 0, false },
    { A_PE_ZCONF, 2, 0, false },
    { A_VI_DCR, 2, 0, false },
    { A_VI_HSR, 2, 0x0100, false },
    { A_VI_FBWIDTH, 2, 0x0280, false },
    { A_VI_TFBL, 4, 0, true, 0x10012345, 0x10012345 },
    { A_VI_DI2, 4, 0, true, 0x90010001, 0x10010001 },
    { A_PI_INTSR, 4, PI_INTSR_RSWST, false },
    { A_PI_INTMR, 4, 0, true, 0xFFFFFFFF, 0x3FFF },
    { A_PI_FIFO_BASE, 4, 0, true, 0x0012345F, 0x00123440 },
    { A_PI_FLIPPER_REV, 4, 0x246500B1, false },
    { A_MI_INT_MASK, 2, 0, true, 0x001F, 0x001F },
    { A_MI_TIMER_FIRST, 2, 0, true, 0x0055, 0 },
    { A_DSP_MAILBOX_HI, 2, 0, true, 0x9234, 0x9234 },
    { A_DI_SR, 4, 0, false },
    { A_SI_SR, 4, 0, false },
    { A_EXI_CSR, 4, 0, false },
    { A_AI_CR, 4, 0, false },
    { A_AI_VR, 4, 0, true, 0x1234FFFF, 0xFFFF },
};

static uint32_t rd_sized(Dev *d, uint32_t off, unsigned size)
{
    return size == 2 ? r16(d, off) : r32(d, off);
}

static void check_regs(Dev *d, bool writes)
{
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(reg_checks); i++) {
        const RegCheck *c = &reg_checks[i];
        g_test_message("register 0x%04x", c->off);
        g_assert_cmphex(rd_sized(d, c->off, c->size), ==, c->reset);
        if (writes && c->write) {
            if (c->size == 2) {
                w16(d, c->off, c->val);
            } else {
                w32(d, c->off, c->val);
            }
            g_assert_cmphex(rd_sized(d, c->off, c->size), ==, c->back);
        }
    }
}

static void test_registers(void)
{
    Dev d = open_dev();

    check_regs(&d, true);
    /* 16-bit halves of a 32-bit register, 32-bit access to a 16-bit pair */
    w16(&d, A_VI_TFBL, 0x0020);
    w16(&d, A_VI_TFBL + 2, 0x0400);
    g_assert_cmphex(r32(&d, A_VI_TFBL), ==, 0x00200400);
    w32(&d, A_CP_FIFO_END_LO, 0x0040ABC0);
    g_assert_cmphex(cp32(&d, A_CP_FIFO_END_LO), ==, 0x03C00040);
    /* read-only and unknown registers are logged, values kept */
    w16(&d, A_VI_DPV, 5);
    w32(&d, A_PI_FLIPPER_REV, 0);
    g_assert_cmphex(r32(&d, A_PI_FLIPPER_REV), ==, 0x246500B1);
    r32(&d, 0x7000);
    g_assert_true(logged(&d, "read-only VI_DPV"));
    g_assert_true(logged(&d, "read-only PI_FLIPPER_REV"));
    g_assert_true(logged(&d, "unmapped BAR0 offset 0x7000"));
    /* a system reset brings every register back */
    g3dq_system_reset(d.q);
    g3dq_remap(d.q);
    check_regs(&d, false);
    close_dev(&d);
}

/* ---- FIFO, interrupts ------------------------------------------------------ */

static void test_fifo_watermarks(void)
{
    Dev d = open_dev();
    static uint8_t buf[0x200];
    FlipperGX g = { buf, 0, sizeof(buf) };

    fifo_init(&d);
    /* the GP linked but not reading: bursts pile up in the ring */
    w16(&d, A_CP_CR, R_CP_CR_GP_LINK_ENABLE_MASK);
    set_cp32(&d, A_CP_FIFO_HIWM_LO, 0x100);
    set_cp32(&d, A_CP_FIFO_LOWM_LO, 0x40);
    w32(&d, A_PI_INTMR, PI_INT_CP);
    while (g.len < sizeof(buf)) {
        fgx_u8(&g, GX_NOP);
    }
    gather(&d, &g);                     /* 16 bursts of NOPs */
    g_assert_cmphex(cp32(&d, A_CP_FIFO_WPTR_LO), ==, FGX_FIFO_BASE + 0x200);
    g_assert_cmphex(r32(&d, A_PI_FIFO_WPTR) & 0x03FFFFE0, ==,
                    FGX_FIFO_BASE + 0x200);
    g_assert_cmphex(cp32(&d, A_CP_FIFO_DIST_LO), ==, 0x200);
    g_assert_cmphex(cp32(&d, A_CP_FIFO_RPTR_LO), ==, FGX_FIFO_BASE);
    /* distance over the high watermark: SR overflow, CP interrupt */
    g_assert_true(r16(&d, A_CP_SR) & R_CP_SR_OVERFLOW_MASK);
    g_assert_false(g3dq_intx(d.q));
    w16(&d, A_CP_CR, R_CP_CR_GP_LINK_ENABLE_MASK |
                     R_CP_CR_OVF_INT_ENABLE_MASK);
    wait_intx(&d, true);
    g_assert_true(r32(&d, A_PI_INTSR) & PI_INT_CP);
    /* reading on, overflow interrupt off, underflow on: the GP drains the
     * ring below the low watermark */
    w16(&d, A_CP_CR, R_CP_CR_GP_READ_ENABLE_MASK |
                     R_CP_CR_GP_LINK_ENABLE_MASK |
                     R_CP_CR_UNF_INT_ENABLE_MASK);
    wait_bits(&d, A_CP_FIFO_DIST_LO, 2, 0xFFFF, 0);
    g_assert_cmphex(cp32(&d, A_CP_FIFO_RPTR_LO), ==, FGX_FIFO_BASE + 0x200);
    /* the staged NOPs take a few work steps to decode: then idle */
    wait_bits(&d, A_CP_SR, 2, 0x1F, R_CP_SR_UNDERFLOW_MASK |
                                    R_CP_SR_READ_IDLE_MASK |
                                    R_CP_SR_CMD_IDLE_MASK);
    wait_intx(&d, true);
    /* acknowledged by turning the enable off, as libogc does */
    w16(&d, A_CP_CR, R_CP_CR_GP_READ_ENABLE_MASK |
                     R_CP_CR_GP_LINK_ENABLE_MASK);
    wait_intx(&d, false);
    g_assert_false(r32(&d, A_PI_INTSR) & PI_INT_CP);
    close_dev(&d);
}

static void empty_frame(FlipperGX *g)
{
}

static void test_token_finish(void)
{
    Dev d = open_dev();
    static uint8_t buf[64];
    FlipperGX g = { buf, 0, sizeof(buf) };

    fifo_init(&d);
    w32(&d, A_PI_INTMR, PI_INT_PE_TOKEN | PI_INT_PE_FINISH);
    w16(&d, A_PE_ISR, R_PE_ISR_TOKEN_ENABLE_MASK |
                      R_PE_ISR_FINISH_ENABLE_MASK);
    fgx_draw_done(&g, 0xBEEF);
    gather(&d, &g);
    wait_bits(&d, A_PE_TOKEN, 2, 0xFFFF, 0xBEEF);
    wait_intx(&d, true);
    g_assert_cmphex(r16(&d, A_PE_ISR), ==, 0x000F);
    g_assert_cmphex(r32(&d, A_PI_INTSR) & (PI_INT_PE_TOKEN | PI_INT_PE_FINISH),
                    ==, PI_INT_PE_TOKEN | PI_INT_PE_FINISH);
    /* acknowledge the token: FINISH still holds the line */
    w16(&d, A_PE_ISR, 0x0003 | R_PE_ISR_TOKEN_MASK);
    g_assert_cmphex(r32(&d, A_PI_INTSR) & (PI_INT_PE_TOKEN | PI_INT_PE_FINISH),
                    ==, PI_INT_PE_FINISH);
    g_assert_true(g3dq_intx(d.q));
    w16(&d, A_PE_ISR, 0x0003 | R_PE_ISR_FINISH_MASK);
    wait_intx(&d, false);
    /* a token without interrupt (BP 0x47) is latched quietly */
    g.len = 0;
    fgx_bp(&g, BP_PE_TOKEN, 0x1234);
    gather(&d, &g);
    wait_bits(&d, A_PE_TOKEN, 2, 0xFFFF, 0x1234);
    g_assert_false(g3dq_intx(d.q));
    /* the gather pipe takes 8- and 1-byte stores whole, big-endian: BP
     * 0x47 token 0x2345 as 61 47 00 23 45, then NOPs to a burst */
    qpci_io_writeq(d.q->dev, d.q->bar[REGS], FLIPPER_WGP_BASE,
                   0x6147002345000000ull);
    qpci_io_writeb(d.q->dev, d.q->bar[REGS], FLIPPER_WGP_BASE, 0);
    qpci_io_writeb(d.q->dev, d.q->bar[REGS], FLIPPER_WGP_BASE + 1, 0);
    qpci_io_writew(d.q->dev, d.q->bar[REGS], FLIPPER_WGP_BASE, 0);
    qpci_io_writel(d.q->dev, d.q->bar[REGS], FLIPPER_WGP_BASE, 0);
    qpci_io_writeq(d.q->dev, d.q->bar[REGS], FLIPPER_WGP_BASE, 0);
    qpci_io_writeq(d.q->dev, d.q->bar[REGS], FLIPPER_WGP_BASE, 0);
    wait_bits(&d, A_PE_TOKEN, 2, 0xFFFF, 0x2345);
    /* registers take 16 and 32 bits only: other widths are logged */
    qpci_io_writeb(d.q->dev, d.q->bar[REGS], A_PE_TOKEN, 0x55);
    g_assert_cmphex(qpci_io_readq(d.q->dev, d.q->bar[REGS], A_PE_ALPHAREAD),
                    ==, 0);
    g_assert_cmphex(r16(&d, A_PE_TOKEN), ==, 0x2345);
    g_assert_true(logged(&d, "1-byte write at 0x100e not supported"));
    g_assert_true(logged(&d, "8-byte read at 0x1008 not supported"));
    /* again through the common helper */
    draw_and_wait(&d, empty_frame, 0x4321);
    close_dev(&d);
}

static void test_vi_interrupts(void)
{
    Dev d = open_dev();

    setup_display(&d);
    w32(&d, A_PI_INTMR, PI_INT_VI);
    /* the beam reaches DI0 or DI1 within a frame of virtual time */
    wait_intx(&d, true);
    g_assert_true(r32(&d, A_PI_INTSR) & PI_INT_VI);
    g_assert_true((r32(&d, A_VI_DI0) | r32(&d, A_VI_DI1)) & R_VI_DI_INT_MASK);
    /* the beam moves */
    g_assert_cmpuint(r16(&d, A_VI_DPV), >=, 1);
    g_assert_cmpuint(r16(&d, A_VI_DPV), <=, 525);
    /* write 0 to INT (and turn both off): the line drops */
    w32(&d, A_VI_DI0, 0x010701AE);
    w32(&d, A_VI_DI1, 0x00010001);
    wait_intx(&d, false);
    g_assert_false(r32(&d, A_PI_INTSR) & PI_INT_VI);
    close_dev(&d);
}

/* ---- a frame: gather pipe -> FIFO -> GP -> EFB copy -> VI ----------------- */

static void test_frame(void)
{
    Dev d = open_dev();
    int64_t t0;
    int i;

    setup_display(&d);
    draw_and_wait(&d, gouraud_frame, 1);
    check_reference_frame(&d);
    g_assert_false(r32(&d, A_PI_INTSR) & PI_INT_ERROR);
    /* end to end through qtest MMIO, for the record */
    t0 = g_get_monotonic_time();
    for (i = 0; i < 10; i++) {
        draw_and_wait(&d, gouraud_frame, 2 + i);
    }
    g_test_message("gouraud frame through the gather pipe: %.1f frames/s",
                   10 / ((g_get_monotonic_time() - t0) / 1e6));
    check_reference_frame(&d);
    close_dev(&d);
}

/* ---- the EFB window (BAR4) ---------------------------------------------- */

static uint32_t peek(Dev *d, int x, int y, int type)
{
    return g3dq_rd32(d->q, EFB, FLIPPER_EFB_CPU_ADDR(x, y, type));
}

static void poke(Dev *d, int x, int y, int type, uint32_t v)
{
    g3dq_wr32(d->q, EFB, FLIPPER_EFB_CPU_ADDR(x, y, type), v);
}

/*
 * Writes queue behind work the GP is doing (as in the chip's FIFO), so a
 * read issued meanwhile answers from the state so far: wait until a peek
 * shows `want`. A refused poke is checked after a later accepted one has
 * arrived, since the queue keeps their order.
 */
static void wait_peek(Dev *d, int x, int y, int type, uint32_t mask,
                      uint32_t want)
{
    g3dq_wait_bits(d->q, EFB, FLIPPER_EFB_CPU_ADDR(x, y, type), mask, want);
}

static void set_pe(Dev *d, uint32_t off, uint16_t v)
{
    w16(d, off, v);
    g3dq_wait_bits16(d->q, REGS, off, 0xFFFF, v);
}

/* only the copy to the XFB (the EFB as the pokes left it) */
static void xfb_copy_frame(FlipperGX *g)
{
    fgx_copy_to_xfb(g, FGX_XFB_ADDR);
}

/*
 * The window of physical 0x08000000 (libogc GX_PeekARGB/PokeARGB/PeekZ/
 * PokeZ; Dolphin's EFB access encoding): after a frame the EFB holds the
 * display copy's clear colour 0x203040 and Z 0xFFFFFF; PE_ALPHAREAD picks
 * the alpha peeks return; pokes pass PE_ALPHAMODE/PE_ALPHACONF and
 * PE_ZCONF; poked pixels reach the screen through a later display copy
 * (in order with the FIFO). Bad accesses are logged and ignored.
 */
static void test_efb_window(void)
{
    Dev d = open_dev();
    const uint32_t poked = 0xFFC08040;
    const uint8_t *p;
    G3DQImage img;
    int x, y;

    setup_display(&d);
    draw_and_wait(&d, gouraud_frame, 1);
    set_pe(&d, A_PE_ALPHAREAD, 1);              /* alpha reads 0xFF */
    g_assert_cmphex(peek(&d, 10, 10, 0), ==, 0xFF203040);
    set_pe(&d, A_PE_ALPHAREAD, 0);              /* alpha reads 0x00 */
    g_assert_cmphex(peek(&d, 639, 479, 0), ==, 0x00203040);
    g_assert_cmphex(peek(&d, 320, 240, 1), ==, 0xFFFFFF);

    /* colour pokes: compare ALWAYS, colour + alpha update */
    set_pe(&d, A_PE_ALPHAMODE, 7 << 8);
    set_pe(&d, A_PE_ALPHACONF, 0x18);
    for (y = 100; y < 116; y++) {
        for (x = 200; x < 216; x++) {
            poke(&d, x, y, 0, poked);
        }
    }
    wait_peek(&d, 215, 115, 0, 0xFFFFFF, poked & 0xFFFFFF);
    g_assert_cmphex(peek(&d, 207, 107, 0) & 0xFFFFFF, ==, poked & 0xFFFFFF);
    /* alpha compare GREATER 0x80 refuses alpha 0x10, takes alpha 0x90 */
    set_pe(&d, A_PE_ALPHAMODE, 4 << 8 | 0x80);
    poke(&d, 200, 100, 0, 0x10FFFFFF);
    poke(&d, 300, 100, 0, 0x90123456);
    wait_peek(&d, 300, 100, 0, 0xFFFFFF, 0x123456);
    g_assert_cmphex(peek(&d, 200, 100, 0) & 0xFFFFFF, ==, poked & 0xFFFFFF);
    /* Z pokes: compare LESS with update: a farther Z is refused */
    set_pe(&d, A_PE_ZCONF, 1 | 1 << 1 | 1 << 4);
    poke(&d, 320, 240, 1, 0x123456);
    poke(&d, 320, 240, 1, 0x200000);
    poke(&d, 321, 240, 1, 0x000100);
    wait_peek(&d, 321, 240, 1, 0xFFFFFF, 0x000100);
    g_assert_cmphex(peek(&d, 320, 240, 1), ==, 0x123456);

    /* bad accesses: 16-bit, Z type 2, past the EFB's 528 lines */
    qpci_io_writew(d.q->dev, d.q->bar[EFB], FLIPPER_EFB_CPU_ADDR(1, 1, 0), 7);
    g_assert_true(logged(&d, "32-bit words only"));
    g_assert_cmphex(peek(&d, 1, 600, 0), ==, 0);
    poke(&d, 1, 600, 0, 0xFFFFFFFF);
    g_assert_cmphex(peek(&d, 1, 1, 2), ==, 0);
    wait_peek(&d, 1, 1, 0, 0xFFFFFF, 0x203040);

    /* the poked square through a display copy: the XFB's 4:2:2 YUV
     * round trip of a flat colour is within 3 of it (Y, Cb, Cr 8-bit) */
    draw_and_wait(&d, xfb_copy_frame, 2);
    g_assert_true(g3dq_screendump(d.q, "gpu", 0, &img));
    p = g3dq_px(&img, 207, 107);
    g_assert_cmpint(abs(p[0] - 0xC0), <=, 3);
    g_assert_cmpint(abs(p[1] - 0x80), <=, 3);
    g_assert_cmpint(abs(p[2] - 0x40), <=, 3);
    p = g3dq_px(&img, 10, 10);
    g_assert_cmphex(p[0] << 16 | p[1] << 8 | p[2], ==, 0x20303F);
    g3dq_image_free(&img);
    g_assert_false(r32(&d, A_PI_INTSR) & PI_INT_ERROR);
    close_dev(&d);
}

/* ---- a textured frame through the BARs ----------------------------------- */

/*
 * Dolphin's frame of the fgx_tex_frame stream (tests/flipper/ref/
 * tex-bars.png, the unit tests' "tex-bars" scene): FNV-1a of its RGB bytes
 * and sample pixels, read from the PNG with tools/image.c.
 */
#define TEX_REF_FNV 0x9de383cdu
static const struct RefPixel tex_ref_px[] = {
    { 10, 10, 0x2F, 0x3F, 0x4E },       /* clear colour */
    { 42, 32, 0x00, 0x00, 0x1F },       /* texel (0, 0) */
    { 117, 92, 0x7A, 0x81, 0x21 },
    { 197, 147, 0xFE, 0xFE, 0x21 },     /* texel (31, 23) */
    { 400, 250, 0x71, 0x13, 0x33 },     /* the turned bilinear quad */
    { 300, 350, 0x23, 0x09, 0xD4 },
    { 500, 150, 0x40, 0xD3, 0x78 },
    { 639, 479, 0x2F, 0x3F, 0x4E },
};

static void tex_draw(FlipperGX *g)
{
    fgx_tex_draw(g, FGX_TEX_ADDR);
}

/*
 * The texture stored into MEM1 through BAR2, the GX stream through the
 * gather pipe: the EFB (read through BAR4) shows each texel of the nearest
 * 5x quad as the RGB8 expansion of its RGB565 value, computed here; the
 * display copy's screendump is Dolphin's frame of the same stream.
 */
static void test_tex_frame(void)
{
    Dev d = open_dev();
    uint8_t tex[FGX_TEX_BYTES];
    int x, y;

    setup_display(&d);
    fgx_tex_fill(tex);
    g3dq_write(d.q, MEM1, FGX_TEX_ADDR, tex, sizeof(tex));
    draw_and_wait(&d, tex_draw, 1);
    set_pe(&d, A_PE_ALPHAREAD, 1);
    for (y = FGX_TEX_Y0 - 1; y <= FGX_TEX_Y0 + FGX_TEX_H * FGX_TEX_SCALE;
         y++) {
        for (x = FGX_TEX_X0 - 1;
             x <= FGX_TEX_X0 + FGX_TEX_W * FGX_TEX_SCALE; x++) {
            int s = (x - FGX_TEX_X0) / FGX_TEX_SCALE;
            int t = (y - FGX_TEX_Y0) / FGX_TEX_SCALE;
            uint32_t want = 0xFF304050;     /* outside: the clear colour */

            if (x >= FGX_TEX_X0 && y >= FGX_TEX_Y0 && s < FGX_TEX_W &&
                t < FGX_TEX_H) {
                uint16_t v = fgx_tex_texel(s, t);
                uint32_t r = v >> 11, g = (v >> 5) & 63, b = v & 31;

                want = 0xFF000000 | (r << 3 | r >> 2) << 16 |
                       (g << 2 | g >> 4) << 8 | (b << 3 | b >> 2);
            }
            if (peek(&d, x, y, 0) != want) {
                g_test_message("EFB (%d, %d): 0x%08x, expected 0x%08x", x, y,
                               peek(&d, x, y, 0), want);
            }
            g_assert_cmphex(peek(&d, x, y, 0), ==, want);
        }
    }
    draw_and_wait(&d, xfb_copy_frame, 2);
    check_dolphin_frame(&d, TEX_REF_FNV, tex_ref_px,
                        G_N_ELEMENTS(tex_ref_px));
    g_assert_false(r32(&d, A_PI_INTSR) & PI_INT_ERROR);
    close_dev(&d);
}

/* ---- bad input -------------------------------------------------------------- */

#define DL_ADDR 0x00400000u
#define BAD_TOKEN 0x0BAD

static void test_bad_input(void)
{
    Dev d = open_dev();
    static uint8_t buf[256];
    FlipperGX g = { buf, 0, sizeof(buf) };
    uint8_t dl[32];
    FlipperGX l = { dl, 0, sizeof(dl) };
    G3DQImage img;

    setup_display(&d);
    w32(&d, A_PI_INTMR, PI_INT_ERROR);

    /* a display list that calls itself: the inner call is ignored */
    fgx_call_dl(&l, DL_ADDR, sizeof(dl));
    fgx_pad32(&l);
    g3dq_write(d.q, MEM1, DL_ADDR, dl, sizeof(dl));
    fgx_call_dl(&g, DL_ADDR, sizeof(dl));
    /* an array index past MEM1: POS indexed (16-bit), base near the end */
    fgx_cp(&g, CPR_VCD_LO, 3 << 9);
    fgx_cp(&g, CPR_VAT_A, 0x40016009);
    fgx_cp(&g, CPR_ARRAY_BASE, FLIPPER_MEM1_SIZE - 0x100);
    fgx_cp(&g, CPR_ARRAY_STRIDE, 0xFF);
    fgx_draw(&g, GX_DRAW_POINTS, 0, 1);
    fgx_u16(&g, 0xFFFF);
    fgx_draw_done(&g, BAD_TOKEN);
    gather(&d, &g);
    wait_bits(&d, A_PE_TOKEN, 2, 0xFFFF, BAD_TOKEN);
    g_assert_true(logged(&d, "inside a display list ignored"));
    g_assert_true(logged(&d, "outside MEM1"));

    /* an XFB past MEM1: the screen is blank, nothing is read */
    w32(&d, A_VI_TFBL, R_VI_TFBL_POFF_MASK | 0x01F00000 >> 5);
    /* a read: the write is applied before the display looks (the console
     * refresh does not wait for queued writes) */
    g_assert_cmphex(r32(&d, A_VI_TFBL), ==, R_VI_TFBL_POFF_MASK | 0xF8000);
    g_assert_true(g3dq_screendump(d.q, "gpu", 0, &img));
    g_assert_cmpint(img.width, ==, 640);
    g_assert_cmphex(g3dq_px(&img, 320, 240)[0] | g3dq_px(&img, 320, 240)[1] |
                    g3dq_px(&img, 320, 240)[2], ==, 0);
    g3dq_image_free(&img);
    g_assert_true(logged(&d, "XFB 0x01f00000"));

    /* FIFO write pointer outside MEM1: the burst is dropped, GP error */
    g_assert_false(r32(&d, A_PI_INTSR) & PI_INT_ERROR);
    w32(&d, A_PI_FIFO_WPTR, FLIPPER_MEM1_SIZE);
    g.len = 0;
    fgx_draw_done(&g, 1);
    gather(&d, &g);
    g_assert_true(r32(&d, A_PI_INTSR) & PI_INT_ERROR);
    wait_intx(&d, true);
    g_assert_true(logged(&d, "FIFO write pointer 0x01800000 outside MEM1"));
    /* the GP told to read past MEM1: reading halts, no hang */
    w32(&d, A_PI_INTSR, PI_INT_ERROR);                 /* w1c */
    set_cp32(&d, A_CP_FIFO_RPTR_LO, 0x01F00000);
    set_cp32(&d, A_CP_FIFO_DIST_LO, 0x1000);
    wait_bits(&d, A_PI_INTSR, 4, PI_INT_ERROR, PI_INT_ERROR);
    g_assert_true(logged(&d, "FIFO read pointer 0x01f00000 outside MEM1"));

    /* a system reset recovers everything: the reference frame again */
    g3dq_system_reset(d.q);
    g3dq_remap(d.q);
    g_assert_false(g3dq_intx(d.q));
    g_assert_false(r32(&d, A_PI_INTSR) & PI_INT_ERROR);
    setup_display(&d);
    draw_and_wait(&d, gouraud_frame, 7);
    check_reference_frame(&d);
    close_dev(&d);
}

/* ---- VM stop/cont, hot-plug ----------------------------------------------- */

static void test_stop_cont(void)
{
    Dev d = open_dev();
    static uint8_t buf[8192];
    FlipperGX g = { buf, 0, sizeof(buf) };

    setup_display(&d);
    qtest_qmp_assert_success(d.q->qts, "{'execute': 'stop'}");
    gouraud_frame(&g);
    fgx_draw_done(&g, 0x5A5A);
    gather(&d, &g);
    /* the writes are applied for the read; the stopped worker draws nothing */
    g_assert_cmpuint(cp32(&d, A_CP_FIFO_DIST_LO), >, 0);
    g_assert_false(r16(&d, A_PE_ISR) & R_PE_ISR_FINISH_MASK);
    qtest_qmp_assert_success(d.q->qts, "{'execute': 'cont'}");
    wait_bits(&d, A_PE_TOKEN, 2, 0xFFFF, 0x5A5A);
    g_assert_true(r16(&d, A_PE_ISR) & R_PE_ISR_FINISH_MASK);
    check_reference_frame(&d);
    close_dev(&d);
}

static void test_hotplug(void)
{
    g3dq_hotplug_cycles("flipper-gx", "'render-threads': 3", 3);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/flipper/identity", test_identity);
    qtest_add_func("/flipper/registers", test_registers);
    qtest_add_func("/flipper/fifo-watermarks", test_fifo_watermarks);
    qtest_add_func("/flipper/token-finish", test_token_finish);
    qtest_add_func("/flipper/vi-interrupts", test_vi_interrupts);
    qtest_add_func("/flipper/frame", test_frame);
    qtest_add_func("/flipper/efb-window", test_efb_window);
    qtest_add_func("/flipper/tex-frame", test_tex_frame);
    qtest_add_func("/flipper/bad-input", test_bad_input);
    qtest_add_func("/flipper/stop-cont", test_stop_cont);
    qtest_add_func("/flipper/hotplug", test_hotplug);
    return g_test_run();
}
