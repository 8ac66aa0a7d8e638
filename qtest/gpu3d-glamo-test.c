/*
 * qtests of glamo-3d through its PCI BARs: identity and BARs, reset values
 * and masks of registers from every block (generic, host bus, LCD, command
 * queue, 3D engine front and back), byte / 16-bit / 32-bit access, a
 * command-queue ring that clears and draws Gouraud, Z16-tested triangles
 * checked in the LCD's screendump (inside, outside, the shared edge, in
 * front of and behind), the command-queue interrupt seen in PCI status,
 * EGSTATUSA and CMDQ_STATUS going busy then idle, bad input (a ring past
 * VRAM, a burst that overruns, a pitch above 2046 bytes, a vertex beyond
 * the setup range) logged and skipped, recovery by reset, VM stop/cont and
 * hot-plug.
 *
 * The expected colours are computed here: barycentric Gouraud at the pixel
 * centre in double, 565 within one step; which triangle owns a pixel whose
 * centre lies on the shared edge follows the top-left rule
 * (docs/glamo-3d.md, decision "pixel centre, fill rule").
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "libqtest.h"
#include <math.h>
#include "gpu3d-qtest-util.h"
#include "gpu3d/glamo-regs.h"
#include "gpu3d/glamo-cmd.h"

#define REGS    GLAMO_REGS_BAR
#define VRAM    GLAMO_VRAM_BAR
#define W       128
#define H       96
#define PITCH   (W * 2)
#define FB      0x000000u
#define ZB      0x010000u
#define RING    0x100000u
#define RINGSZ  0x4000u
#define CLEAR   0xff204080u             /* ARGB: exact in 565 */

typedef struct Dev {
    G3DQDev *q;
    uint32_t wptr;                      /* ring write pointer (bytes) */
} Dev;

static Dev open_dev(void)
{
    Dev d = { 0 };

    d.q = g3dq_open("-device glamo-3d,id=gpu,render-threads=2",
                    GLAMO_PCI_VENDOR_ID, GLAMO_PCI_DEVICE_ID);
    return d;
}

static void close_dev(Dev *d)
{
    g3dq_close(d->q);
}

static bool logged(Dev *d, const char *needle)
{
    return g3dq_logged(d->q, needle);
}

static uint16_t rd(Dev *d, uint32_t off)
{
    return qpci_io_readw(d->q->dev, d->q->bar[REGS], off);
}

static void wr(Dev *d, uint32_t off, uint16_t v)
{
    qpci_io_writew(d->q->dev, d->q->bar[REGS], off, v);
}

static void seq(Dev *d, const GlamoRegWrite *w, unsigned n)
{
    unsigned i;

    for (i = 0; i < n; i++) {
        wr(d, w[i].off, w[i].val);
    }
}

/* the driver's glamo_cmdq_wait(), then EG3DIDLE and EG3dQidle */
static void wait_idle(Dev *d)
{
    g3dq_wait_bits16(d->q, REGS, A_GLAMO_CMDQ_STATUS,
                     GLAMO_CMDQ_STATUS_EMPTY | GLAMO_CMDQ_STATUS_IDLE |
                     GLAMO_CMDQ_STATUS_3D_BUSY,
                     GLAMO_CMDQ_STATUS_EMPTY | GLAMO_CMDQ_STATUS_IDLE);
    g3dq_wait_bits16(d->q, REGS, A_EGSTATUSA, 3, 3);
}

/* ---- the command queue -------------------------------------------------- */

/* clocks, the ring (interrupt when it runs dry unless irq = 5), the LCD */
static void setup(Dev *d, unsigned irq)
{
    GlamoRegWrite w[10];

    seq(d, w, glamo_seq_enable_3d(w));
    seq(d, w, glamo_seq_cmdq_init(w, RING, RINGSZ, irq));
    d->wptr = 0;
    seq(d, w, glamo_seq_lcd(w, FB, PITCH, W, H));
}

/* copy the packets into the ring (wrapping), then WRITE_ADDRH, WRITE_ADDRL */
static void submit(Dev *d, GlamoCmd *c)
{
    uint32_t i;

    g_assert_false(c->overflow);
    g_assert_cmpuint(2 * c->n, <, RINGSZ);
    for (i = 0; i < c->n; i++) {
        uint8_t b[2] = { (uint8_t)c->buf[i], (uint8_t)(c->buf[i] >> 8) };
        g3dq_write(d->q, VRAM, RING + d->wptr, b, 2);
        d->wptr = glamo_ring_advance(d->wptr, 1, RINGSZ);
    }
    wr(d, A_GLAMO_CMDQ_WRITE_ADDRH, (uint16_t)(d->wptr >> 16));
    wr(d, A_GLAMO_CMDQ_WRITE_ADDRL, (uint16_t)d->wptr);
    c->n = 0;
}

/* ---- identity, BARs, registers -------------------------------------------- */

static void test_identity(void)
{
    Dev d = open_dev();
    QPCIDevice *p = d.q->dev;

    g_assert_cmphex(qpci_config_readw(p, PCI_VENDOR_ID), ==, 0x1234);
    g_assert_cmphex(qpci_config_readw(p, PCI_DEVICE_ID), ==, 0x3D03);
    g_assert_cmphex(qpci_config_readw(p, PCI_CLASS_DEVICE), ==, 0x0380);
    g_assert_cmpuint(qpci_config_readb(p, PCI_INTERRUPT_PIN), ==, 1);
    g_assert_cmpuint(d.q->bar_size[REGS], ==, 16 * 1024);
    g_assert_cmpuint(d.q->bar_size[VRAM], ==, 8 * 1024 * 1024);
    g_assert_cmphex(qpci_config_readl(p, PCI_BASE_ADDRESS_0) &
                    (PCI_BASE_ADDRESS_MEM_TYPE_MASK |
                     PCI_BASE_ADDRESS_MEM_PREFETCH), ==, 0);
    g_assert_true(qpci_config_readl(p, PCI_BASE_ADDRESS_2) &
                  PCI_BASE_ADDRESS_MEM_TYPE_64);
    g_assert_true(qpci_config_readl(p, PCI_BASE_ADDRESS_2) &
                  PCI_BASE_ADDRESS_MEM_PREFETCH);
    /* the chip id the Linux driver checks */
    g_assert_cmphex(rd(&d, A_GLAMO_DEVICE_ID), ==, GLAMO_CHIP_ID);
    g_assert_cmphex(rd(&d, A_GLAMO_REVISION_ID), ==, GLAMO_CHIP_REVISION);
    /* VRAM is memory: all 8 MiB store what the guest writes */
    g3dq_wr32(d.q, VRAM, 0, 0xCAFEF00D);
    g3dq_wr32(d.q, VRAM, 8 * 1024 * 1024 - 4, 0x12345678);
    g_assert_cmphex(g3dq_rd32(d.q, VRAM, 0), ==, 0xCAFEF00D);
    g_assert_cmphex(g3dq_rd32(d.q, VRAM, 8 * 1024 * 1024 - 4), ==, 0x12345678);
    close_dev(&d);
}

/* one 16-bit register: reset value, a write, what reads back */
typedef struct Reg16 {
    uint32_t off;
    uint16_t reset, write, readback;
} Reg16;

static void test_registers(void)
{
    static const Reg16 regs[] = {
        /* generic: id read-only, interrupt enable 9 sources, clocks stored */
        { A_GLAMO_DEVICE_ID, GLAMO_CHIP_ID, 0x1234, GLAMO_CHIP_ID },
        { A_GLAMO_IRQ_ENABLE, 0, 0xffff, GLAMO_IRQ_ALL },
        { A_GLAMO_IRQ_STATUS, 0, 0xffff, 0 },
        { A_GLAMO_CLOCK_JPEG, 0, 0x1234, 0x1234 },
        /* host bus, LCD: stored */
        { A_GLAMO_HOSTBUS2, 0, 0x0488, 0x0488 },
        { A_GLAMO_LCD_PITCH, 0, 0x03c0, 0x03c0 },
        { A_GLAMO_LCD_HEIGHT, 0, 0x0140, 0x0140 },
        /* command queue: LEN D[9:0], base high A22..A16, status read-only */
        { A_GLAMO_CMDQ_LEN, 0, 0xffff, GLAMO_CMDQ_LEN_MASK },
        { A_GLAMO_CMDQ_BASE_ADDRH, 0, 0xffff, GLAMO_CMDQ_ADDRH_MASK },
        { A_GLAMO_CMDQ_STATUS, 0x0007, 0, 0x0007 },
        /* 3D front: G/L input, stream base A22..A0, viewport s[7].16,
         * T1 matrix, front-end enables (masks of regfile.c) */
        { A_RGPXa + 2, 0, 0xffff, 0xffff },
        { A_MGVStrm0BAS + 2, 0, 0xffff, 0x007f },
        { A_RGXScaleX + 2, 0, 0xffff, 0x00ff },
        { GLAMO_RGXR0T1MAT(3, 3), 0, 0xffff, 0xffff },
        { A_RGXFEN3, 0, 0xffff, 0xfe00 },
        { A_RGXFEN3 + 2, 0, 0xffff, 0xdfd9 },
        /* 3D fire / status: EGSTATUSA all idle, read-only */
        { A_EGSTATUSA, GLAMO_EGSTATUSA_ALL_IDLE, 0, GLAMO_EGSTATUSA_ALL_IDLE },
        /* 3D back: enables, clip, texture 0 (stated defaults L3071), the
         * combiner, the texture-0 palette */
        { A_EGEN0 + 2, 0, 0xffff, 0xff7f },
        { A_EGCLTB, 0, 0xffff, 0x03ff },
        { A_EGTX0SET + 2, 0x0003, 0x0000, 0x0000 },
        { A_EGTX0SIZE + 2, 0, 0xffff, 0xdf1f },
        { A_EGTXCBS0ARG + 2, 0, 0xffff, 0x7fff },
        { GLAMO_TX0_PALETTE + 0x1fe, 0, 0xbeef, 0xbeef },
        /* lights are Type W: written, read 0; a reserved range reads 0 */
        { GLAMO_LIGHT(7) + GLAMO_L_DIFF, 0, 0x1234, 0 },
        { 0x2800, 0, 0xffff, 0 },
    };
    Dev d = open_dev();
    QPCIDevice *p = d.q->dev;
    unsigned i;

    for (i = 0; i < G_N_ELEMENTS(regs); i++) {
        g_assert_cmphex(rd(&d, regs[i].off), ==, regs[i].reset);
        wr(&d, regs[i].off, regs[i].write);
        g_assert_cmphex(rd(&d, regs[i].off), ==, regs[i].readback);
    }
    /* a 32-bit access is the two 16-bit halves, low half first */
    qpci_io_writel(p, d.q->bar[REGS], A_EGCLLR, 0x00050123);
    g_assert_cmphex(rd(&d, A_EGCLLR), ==, 0x0123);
    g_assert_cmphex(rd(&d, A_EGCLLR + 2), ==, 0x0005);
    g_assert_cmphex(qpci_io_readl(p, d.q->bar[REGS], A_EGCLLR), ==, 0x00050123);
    /* a byte write merges with the stored half (L410) */
    qpci_io_writeb(p, d.q->bar[REGS], A_EGCLLR + 1, 0x02);
    g_assert_cmphex(rd(&d, A_EGCLLR), ==, 0x0223);
    g_assert_cmphex(qpci_io_readb(p, d.q->bar[REGS], A_EGCLLR), ==, 0x23);
    /* an 8-byte write is two 32-bit ones */
    qpci_io_writeq(p, d.q->bar[REGS], A_RGPXa, 0x44332211ull << 32 | 0x88776655u);
    g_assert_cmphex(qpci_io_readl(p, d.q->bar[REGS], A_RGPXa), ==, 0x88776655);
    g_assert_cmphex(qpci_io_readl(p, d.q->bar[REGS], A_RGPYa), ==, 0x44332211);
    /* an unaligned 16-bit access is its two bytes (byte lanes), masked */
    qpci_io_writew(p, d.q->bar[REGS], A_EGCLLR + 1, 0xffff);
    g_assert_cmphex(rd(&d, A_EGCLLR), ==, 0x0323);
    g_assert_cmphex(rd(&d, A_EGCLLR + 2), ==, 0x00ff);
    g_assert_cmphex(qpci_io_readw(p, d.q->bar[REGS], A_EGCLLR + 1), ==, 0xff03);
    /* a CLOCK_3D back reset returns the back end to its reset values only */
    wr(&d, A_GLAMO_CLOCK_3D, GLAMO_CLOCK_3D_BACK_RESET);
    g_assert_cmphex(rd(&d, A_EGCLTB), ==, 0);
    g_assert_cmphex(rd(&d, A_EGTX0SET + 2), ==, 0x0003);
    g_assert_cmphex(rd(&d, A_RGXScaleX + 2), ==, 0x00ff);
    close_dev(&d);
}

/* ---- the triangles ------------------------------------------------------ */

typedef struct Vtx {
    float x, y, z;
    uint32_t argb;
} Vtx;

/*
 * A and B split the square (16,16)-(80,80) along y = x; C, flat white,
 * has z = (x - 56) / 64, so it is in front of A and B (z 0.1) left of
 * x = 62.4 and behind them right of it. Drawn A, B, C.
 */
static const Vtx tris[9] = {
    { 16, 16, 0.1f, 0xffff0000 }, { 80, 16, 0.1f, 0xff00ff00 },
    { 80, 80, 0.1f, 0xff0000ff },
    { 16, 16, 0.1f, 0xffffff00 }, { 80, 80, 0.1f, 0xff00ffff },
    { 16, 80, 0.1f, 0xffff00ff },
    { 56, 24, 0.0f, 0xffffffff }, { 120, 24, 1.0f, 0xffffffff },
    { 56, 90, 0.0f, 0xffffffff },
};

static void queue_triangles(GlamoCmd *c, const Vtx *t, int n)
{
    int i;

    glamo_cmd_wr(c, A_EGPrim1, GLAMO_PRIM_TRIANGLES);
    for (i = 0; i < n; i++) {
        glamo_cmd_vertex(c, t[i].x, t[i].y, t[i].z, 1, t[i].argb);
    }
    glamo_cmd_wr(c, A_EGEND, 0);
}

/* clear, the three triangles, EGEND */
static void queue_scene(GlamoCmd *c)
{
    glamo_cmd_clear(c, FB, PITCH, W, H, ZB, GLAMO_ZT_LESS, CLEAR);
    queue_triangles(c, tris, 9);
}

/* the Gouraud colour of triangle t at the centre of pixel (x, y), 565 */
static void gouraud(const Vtx *t, int x, int y, int rgb[3])
{
    double px = x + 0.5, py = y + 0.5, l[3];
    double area = (t[1].x - t[0].x) * (t[2].y - t[0].y) -
                  (t[1].y - t[0].y) * (t[2].x - t[0].x);
    int k, ch;

    for (k = 0; k < 3; k++) {
        const Vtx *a = &t[(k + 1) % 3], *b = &t[(k + 2) % 3];
        l[k] = ((b->x - a->x) * (py - a->y) - (b->y - a->y) * (px - a->x)) /
               area;
    }
    for (ch = 0; ch < 3; ch++) {
        double v = 0;
        for (k = 0; k < 3; k++) {
            v += l[k] * ((t[k].argb >> (16 - 8 * ch)) & 0xff) / 255.0;
        }
        rgb[ch] = (int)lround(v * (ch == 1 ? 63 : 31));
    }
}

static void flat(uint32_t argb, int rgb[3])
{
    rgb[0] = (int)lround(((argb >> 16) & 0xff) / 255.0 * 31);
    rgb[1] = (int)lround(((argb >> 8) & 0xff) / 255.0 * 63);
    rgb[2] = (int)lround((argb & 0xff) / 255.0 * 31);
}

/* the screendump's pixel, back in 565 units (exact: the LCD replicates) */
static void px565(const G3DQImage *img, int x, int y, int rgb[3])
{
    const uint8_t *p = g3dq_px(img, x, y);

    rgb[0] = p[0] >> 3;
    rgb[1] = p[1] >> 2;
    rgb[2] = p[2] >> 3;
}

static bool near(const int a[3], const int b[3])
{
    return abs(a[0] - b[0]) <= 1 && abs(a[1] - b[1]) <= 1 &&
           abs(a[2] - b[2]) <= 1;
}

enum { OWN_CLEAR, OWN_A, OWN_B, OWN_C };

static void check_screen(Dev *d)
{
    static const struct { int x, y, owner; const char *what; } probe[] = {
        { 5, 5, OWN_CLEAR, "outside" },
        { 120, 90, OWN_CLEAR, "outside, past C's hypotenuse" },
        { 70, 20, OWN_A, "inside A" },
        { 25, 60, OWN_B, "inside B" },
        { 40, 40, OWN_A, "on the shared edge: A's left edge owns it" },
        { 50, 50, OWN_A, "on the shared edge: A's left edge owns it" },
        { 40, 41, OWN_B, "just below the shared edge" },
        { 41, 40, OWN_A, "just above the shared edge" },
        { 58, 30, OWN_C, "C in front of A" },
        { 75, 30, OWN_A, "C behind A" },
        { 100, 30, OWN_C, "C over the background" },
    };
    G3DQImage img;
    unsigned i;
    int bad = 0, clear_px = 0, x, y;
    int clear[3];

    flat(CLEAR, clear);
    g_assert_true(g3dq_screendump(d->q, "gpu", 0, &img));
    g_assert_cmpint(img.width, ==, W);
    g_assert_cmpint(img.height, ==, H);
    for (i = 0; i < G_N_ELEMENTS(probe); i++) {
        int want[3], got[3];
        switch (probe[i].owner) {
        case OWN_CLEAR:
            flat(CLEAR, want);
            break;
        case OWN_A:
            gouraud(&tris[0], probe[i].x, probe[i].y, want);
            break;
        case OWN_B:
            gouraud(&tris[3], probe[i].x, probe[i].y, want);
            break;
        default:
            flat(0xffffffff, want);
            break;
        }
        px565(&img, probe[i].x, probe[i].y, got);
        if (!near(want, got)) {
            printf("# (%d, %d) %s: got %d %d %d, want %d %d %d\n",
                   probe[i].x, probe[i].y, probe[i].what, got[0], got[1],
                   got[2], want[0], want[1], want[2]);
            bad++;
        }
    }
    /* everything outside the triangles' boxes is the clear colour */
    for (y = 0; y < H; y++) {
        for (x = 0; x < W; x++) {
            int got[3];
            if (x >= 16 && x < 120 && y >= 16 && y < 90) {
                continue;
            }
            px565(&img, x, y, got);
            clear_px += got[0] == clear[0] && got[1] == clear[1] &&
                        got[2] == clear[2];
        }
    }
    printf("# screendump: %d of %zu probes wrong, %d of %d pixels outside "
           "the triangles are the clear colour\n", bad, G_N_ELEMENTS(probe),
           clear_px, W * H - 104 * 74);
    g_assert_cmpint(bad, ==, 0);
    g_assert_cmpint(clear_px, ==, W * H - 104 * 74);
    g3dq_image_free(&img);
}

static void draw_and_check(Dev *d)
{
    static uint16_t words[4096];
    GlamoCmd c = { words, 0, G_N_ELEMENTS(words), 0 };

    setup(d, GLAMO_CMDQ_CONTROL_NO_IRQ);
    queue_scene(&c);
    submit(d, &c);
    wait_idle(d);
    g_assert_cmphex(rd(d, A_GLAMO_CMDQ_READ_ADDRL), ==, d->wptr);
    check_screen(d);
}

static void test_triangles(void)
{
    Dev d = open_dev();
    static uint16_t words[4096];
    GlamoCmd c = { words, 0, G_N_ELEMENTS(words), 0 };

    draw_and_check(&d);
    /* the command-queue interrupt: raised when the ring runs dry */
    g_assert_false(g3dq_intx(d.q));
    setup(&d, 0);
    wr(&d, A_GLAMO_IRQ_ENABLE, GLAMO_IRQ_CMDQUEUE);
    queue_scene(&c);
    submit(&d, &c);
    g3dq_wait_intx(d.q, true);
    wait_idle(&d);
    g_assert_cmphex(rd(&d, A_GLAMO_IRQ_STATUS), ==, GLAMO_IRQ_CMDQUEUE);
    wr(&d, A_GLAMO_IRQ_CLEAR, GLAMO_IRQ_CMDQUEUE);
    g3dq_wait_intx(d.q, false);
    g_assert_cmphex(rd(&d, A_GLAMO_IRQ_STATUS), ==, 0);
    check_screen(&d);
    close_dev(&d);
}

/* ---- busy, then idle ---------------------------------------------------- */

static void test_stop_cont(void)
{
    Dev d = open_dev();
    static uint16_t words[4096];
    GlamoCmd c = { words, 0, G_N_ELEMENTS(words), 0 };

    setup(&d, GLAMO_CMDQ_CONTROL_NO_IRQ);
    qtest_qmp_assert_success(d.q->qts, "{'execute': 'stop'}");
    /* a fire by MMIO: queued for the 3D engine, which is stopped */
    wr(&d, A_EGPrim1, GLAMO_PRIM_TRIANGLES);
    wr(&d, A_EGFIRE, 0);
    g_assert_cmphex(rd(&d, A_EGSTATUSA) & 3, ==, 0);
    g_assert_cmphex(rd(&d, A_GLAMO_CMDQ_STATUS) & GLAMO_CMDQ_STATUS_3D_BUSY,
                    ==, GLAMO_CMDQ_STATUS_3D_BUSY);
    /* EGEND drops the lone vertex, so the ring's triangles start afresh */
    wr(&d, A_EGEND, 0);
    /* a ring kicked: not consumed while stopped */
    queue_scene(&c);
    submit(&d, &c);
    g_assert_cmphex(rd(&d, A_GLAMO_CMDQ_STATUS) & 3, ==, 0);
    g_assert_cmphex(rd(&d, A_GLAMO_CMDQ_READ_ADDRL), ==, 0);
    qtest_qmp_assert_success(d.q->qts, "{'execute': 'cont'}");
    wait_idle(&d);
    g_assert_cmphex(rd(&d, A_EGSTATUSA) & 0x2ff, ==, GLAMO_EGSTATUSA_ALL_IDLE);
    g_assert_cmphex(rd(&d, A_GLAMO_CMDQ_STATUS) & 0x8007, ==, 0x0007);
    g_assert_cmphex(rd(&d, A_GLAMO_CMDQ_READ_ADDRL), ==, d.wptr);
    check_screen(&d);
    close_dev(&d);
}

/* ---- bad input, then recovery -------------------------------------------- */

static uint16_t vram16(Dev *d, uint32_t off)
{
    uint8_t b[2];

    g3dq_read(d->q, VRAM, off, b, 2);
    return b[0] | b[1] << 8;
}

static void test_bad_input(void)
{
    Dev d = open_dev();
    static uint16_t words[4096];
    GlamoCmd c = { words, 0, G_N_ELEMENTS(words), 0 };
    static const uint16_t six[6] = { 1, 2, 3, 4, 5, 6 };
    static const Vtx far_tri[6] = {
        { 2, 2, 0.5f, 0xffffffff }, { 600, 2, 0.5f, 0xffffffff },
        { 2, 30, 0.5f, 0xffffffff },
        { 100, 60, 0.5f, 0xff00ff00 }, { 120, 60, 0.5f, 0xff00ff00 },
        { 100, 90, 0.5f, 0xff00ff00 },
    };

    draw_and_check(&d);

    /* a ring of 8 KiB at 8 MiB - 4 KiB: past VRAM, the queue stops */
    wr(&d, A_GLAMO_CMDQ_BASE_ADDRL, 0xf000);
    wr(&d, A_GLAMO_CMDQ_BASE_ADDRH, 0x7f);
    wr(&d, A_GLAMO_CMDQ_LEN, 7);
    wr(&d, A_GLAMO_CMDQ_WRITE_ADDRL, 0x40);
    g_assert_true(logged(&d, "lies outside the 8388608 bytes of VRAM"));
    g_assert_cmphex(rd(&d, A_GLAMO_CMDQ_STATUS) & 0x8003, ==, 0x8003);

    /* a burst that claims 200 words with 6 behind it: the ring is skipped */
    setup(&d, GLAMO_CMDQ_CONTROL_NO_IRQ);
    glamo_cmd_wr(&c, A_EGRerSRegA, 0x1234);
    glamo_cmd_burst(&c, A_RGPXa, six, 6);
    c.buf[c.n - 7] = 200;
    submit(&d, &c);
    wait_idle(&d);
    g_assert_true(logged(&d, "burst count overruns the queued words"));
    g_assert_cmphex(rd(&d, A_EGRerSRegA), ==, 0x1234);    /* before it */
    g_assert_cmphex(rd(&d, A_RGPXa), ==, 0);                /* skipped */
    g_assert_cmphex(rd(&d, A_GLAMO_CMDQ_STATUS) & 0x8003, ==, 0x8003);

    /* a destination pitch of 4096 bytes: refused, the draw skipped */
    setup(&d, GLAMO_CMDQ_CONTROL_NO_IRQ);
    queue_scene(&c);
    glamo_cmd_reg(&c, A_EGDST0SET, 0x0800);
    glamo_cmd_wr(&c, A_EGDST0BAS, 0x200000);
    queue_triangles(&c, tris, 3);
    submit(&d, &c);
    wait_idle(&d);
    g_assert_true(logged(&d, "above the 2046-byte limit"));
    g_assert_true(logged(&d, "destination pitch 0, primitives skipped"));
    g_assert_cmphex(rd(&d, A_EGDST0SET) & 0x3ff, ==, 0);
    g_assert_cmphex(vram16(&d, 0x200000 + 20 * PITCH + 2 * 70), ==, 0);

    /* a vertex beyond the setup range: that triangle alone is skipped */
    queue_scene(&c);
    queue_triangles(&c, far_tri, 6);
    submit(&d, &c);
    wait_idle(&d);
    g_assert_true(logged(&d, "beyond the setup range -512..511"));
    g_assert_cmphex(vram16(&d, FB + 5 * PITCH + 2 * 5), ==,
                    (0x20 >> 3) << 11 | (0x40 >> 2) << 5 | (0x80 >> 3));
    g_assert_cmphex(vram16(&d, FB + 62 * PITCH + 2 * 102), ==, 0x07e0);

    /* a system reset puts everything back; then the device draws again */
    g3dq_system_reset(d.q);
    g_assert_cmphex(rd(&d, A_GLAMO_CMDQ_STATUS), ==, 0x0007);
    g_assert_cmphex(rd(&d, A_EGSTATUSA), ==, GLAMO_EGSTATUSA_ALL_IDLE);
    g_assert_cmphex(rd(&d, A_GLAMO_CLOCK_3D), ==, 0);
    g_assert_cmphex(rd(&d, A_EGTX0SET + 2), ==, 0x0003);
    draw_and_check(&d);
    close_dev(&d);
}

/* Hot-plug and unplug: threads join, the console goes, QEMU lives. */
static void test_hotplug(void)
{
    g3dq_hotplug_cycles("glamo-3d", "'render-threads': 3", 3);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/glamo/identity", test_identity);
    qtest_add_func("/glamo/registers", test_registers);
    qtest_add_func("/glamo/triangles", test_triangles);
    qtest_add_func("/glamo/stop-cont", test_stop_cont);
    qtest_add_func("/glamo/bad-input", test_bad_input);
    qtest_add_func("/glamo/hotplug", test_hotplug);
    return g_test_run();
}
