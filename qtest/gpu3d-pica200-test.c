/*
 * qtests of pica200-3d through its PCI BARs: identity and BARs, reset values
 * and masks of registers from every block (memory fill, LCD, transfer, GPU
 * busy, P3D internal registers), a Gouraud picture drawn by a command list in
 * guest RAM, transferred to the top-screen (RGB8) and bottom-screen (RGB565)
 * framebuffers and checked pixel by pixel in the screendumps of both heads,
 * the FINALIZE and memory-fill interrupts seen in PCI status, bad input
 * (a list that jumps to itself, a framebuffer past VRAM, a colour buffer
 * past VRAM, an attribute buffer past memory) logged and skipped, recovery
 * by reset, VM stop/cont and hot-plug.
 *
 * The expected pictures are computed here in closed form: two triangles
 * make a rectangle whose corners lie on pixel corners (so no pixel centre is
 * on an edge, and the fill rule does not enter), Gouraud red -> green along
 * the screen's x, through the 3DS's rotated LCD layout.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "libqtest.h"
#include <math.h>
#include "gpu3d-qtest-util.h"
#include "gpu3d/pica200-regs.h"
#include "gpu3d/pica200-cmd.h"

#define REGS    PICA200_REGS_BAR
#define VRAM    PICA200_VRAM_BAR
#define FBW 240                         /* the render target: a rotated top screen */
#define FBH 400
#define COLOR_VRAM  0x000000u
#define TOP_VRAM    0x100000u
#define BOT_VRAM    0x180000u
#define LIST_GPA    0x00400000u         /* guest physical */
#define VB_GPA      0x00410000u
#define FB_GPA      0x00500000u         /* an LCD framebuffer in guest RAM */
#define PA(vram)    (PICA200_PHYS_VRAM + (vram))
#define RAM_PA(gpa) (PICA200_PHYS_FCRAM + (gpa))
#define CLEAR       0x203040FFu         /* RGBA8: R 0x20, G 0x30, B 0x40 */

typedef struct Dev {
    G3DQDev *q;
} Dev;

static Dev open_dev(void)
{
    Dev d = { g3dq_open("-device pica200-3d,id=gpu,render-threads=2",
                        PICA200_PCI_VENDOR_ID, PICA200_PCI_DEVICE_ID) };

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

static uint32_t rd(Dev *d, uint32_t off)
{
    return g3dq_rd32(d->q, REGS, off);
}

static void wr(Dev *d, uint32_t off, uint32_t v)
{
    g3dq_wr32(d->q, REGS, off, v);
}

static uint32_t rdreg(Dev *d, uint32_t id)
{
    return rd(d, PICA_INTERNAL_OFFSET(id));
}

static void seq(Dev *d, const PicaRegWrite *w, unsigned n)
{
    unsigned i;

    for (i = 0; i < n; i++) {
        wr(d, w[i].off, w[i].val);
    }
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

/* ---- identity, BARs, registers -------------------------------------------- */

static void test_identity(void)
{
    Dev d = open_dev();

    g_assert_cmphex(d.q->vendor << 16 | d.q->device, ==, 0x12343D01);
    g3dq_check_identity(d.q, REGS, 64 * 1024, VRAM, 8 * 1024 * 1024);
    close_dev(&d);
}

/* one external register: reset value, a write, what reads back */
typedef struct ExtReg {
    uint32_t off, reset, write, readback;
} ExtReg;

static void test_registers(void)
{
    static const ExtReg ext[] = {
        /* ID and busy: read-only (busy: idle) */
        { A_PICA_HW_ID, 0, 0x1234, 0 },
        { A_GPU_BUSY, 0, 0xFFFFFFFF, 0 },
        /* memory fill: 16-byte aligned addresses; control keeps the width
         * and b16-20, "finished" cannot be set, b0 = 0 starts nothing */
        { PICA_PSC_BASE(0) + PICA_PSC_ADDR_START, 0, 0xFFFFFFFF, 0x1FFFFFFE },
        { PICA_PSC_BASE(1) + PICA_PSC_ADDR_END, 0, 0x12345677, 0x12345676 },
        { PICA_PSC_BASE(1) + PICA_PSC_VALUE, 0, 0xDEADBEEF, 0xDEADBEEF },
        { A_PSC0_CONTROL, 0, 0xFFFFFFFE, 0x001F0300 },
        /* LCD: off, addresses and strides stored */
        { A_PDC0_CONTROL, 0, 0, 0 },
        { A_PDC1_FRAMEBUF_A1, 0, 0x18012340, 0x18012340 },
        { A_PDC1_FRAMEBUF_STRIDE, 0, 0x2D0, 0x2D0 },
        /* transfer engine: idle, registers stored */
        { A_PPF_CONTROL, 0, 0, 0 },
        { A_PPF_FLAGS, 0, 0x01001101, 0x01001101 },
        { A_VRAM_BANK_CONTROL, 0, 0x300, 0x300 },
    };
    Dev d = open_dev();
    QPCIDevice *p = d.q->dev;
    unsigned i;

    for (i = 0; i < G_N_ELEMENTS(ext); i++) {
        g_assert_cmphex(rd(&d, ext[i].off), ==, ext[i].reset);
        wr(&d, ext[i].off, ext[i].write);
        g_assert_cmphex(rd(&d, ext[i].off), ==, ext[i].readback);
    }
    g_assert_true(logged(&d, "read-only register 0x34"));
    wr(&d, A_PSC0_CONTROL, 0);
    /* an 8-byte write is two words */
    qpci_io_writeq(p, d.q->bar[REGS], A_PDC0_FRAMEBUF_A1,
                   0x18046500ull << 32 | 0x18000000u);
    g_assert_cmphex(rd(&d, A_PDC0_FRAMEBUF_A1), ==, 0x18000000);
    g_assert_cmphex(rd(&d, A_PDC0_FRAMEBUF_A2), ==, 0x18046500);

    /* P3D interrupt registers: what the GSP programs at init */
    g_assert_cmphex(rdreg(&d, GPUREG_IRQ_CMP0), ==, 0x12345678);
    g_assert_cmphex(rdreg(&d, GPUREG_IRQ_MASK_LO), ==, 0xFFFFFFF0);
    g_assert_cmphex(rdreg(&d, GPUREG_IRQ_MASK_HI), ==, 0xFFFFFFFF);
    g_assert_cmphex(rdreg(&d, GPUREG_IRQ_AUTOSTOP), ==, 1);
    g_assert_cmphex(rdreg(&d, GPUREG_IRQ_STAT_LO), ==, 0);
    wr(&d, PICA_INTERNAL_OFFSET(GPUREG_IRQ_STAT_LO), 0xFFFFFFFF);
    g_assert_cmphex(rdreg(&d, GPUREG_IRQ_STAT_LO), ==, 0);
    g_assert_true(logged(&d, "IRQ_STAT is read-only"));
    /* internal registers of every block reset to 0 and store all 32 bits */
    {
        static const uint32_t ids[] = {
            GPUREG_FACECULLING_CONFIG, GPUREG_SCISSORTEST_POS,   /* rasteriser */
            GPUREG_TEXUNIT_CONFIG, PICA_TEXENV_BASE(0),          /* texturing, TEV */
            GPUREG_FOG_COLOR, GPUREG_LIGHTING_AMBIENT,           /* fog, lighting */
            GPUREG_COLOR_OPERATION, GPUREG_COLORBUFFER_LOC,      /* framebuffer */
            GPUREG_ATTRIBBUFFERS_LOC, GPUREG_NUMVERTICES,        /* geometry */
            GPUREG_GSH_MISC0, GPUREG_VSH_ENTRYPOINT,             /* shaders */
        };
        for (i = 0; i < G_N_ELEMENTS(ids); i++) {
            g_assert_cmphex(rdreg(&d, ids[i]), ==, 0);
            wr(&d, PICA_INTERNAL_OFFSET(ids[i]), 0xA5C3F00F ^ i);
            g_assert_cmphex(rdreg(&d, ids[i]), ==, 0xA5C3F00F ^ i);
        }
    }
    /* a byte write is a write with that byte mask */
    wr(&d, PICA_INTERNAL_OFFSET(GPUREG_FACECULLING_CONFIG), 0x11223344);
    qpci_io_writeb(p, d.q->bar[REGS],
                   PICA_INTERNAL_OFFSET(GPUREG_FACECULLING_CONFIG) + 2, 0xEE);
    g_assert_cmphex(rdreg(&d, GPUREG_FACECULLING_CONFIG), ==, 0x11EE3344);
    g_assert_cmphex(qpci_io_readw(p, d.q->bar[REGS],
                    PICA_INTERNAL_OFFSET(GPUREG_FACECULLING_CONFIG) + 2), ==, 0x11EE);
    /* past the internal registers: reads 0, writes logged */
    wr(&d, 0x1C00, 0x55);
    g_assert_cmphex(rd(&d, 0x1C00), ==, 0);
    g_assert_true(logged(&d, "unassigned BAR0 offset 0x1c00"));
    close_dev(&d);
}

/* ---- a Gouraud picture on both screens ---------------------------------- */

/*
 * Window rectangle x 60..180, y 150..300 in the 240x400 target (y up): on
 * the top screen (X = 399 - y, Y = 239 - x) columns 100..249, rows 60..179.
 * Red at window y 300 (the screen's left), green at y 150 (its right).
 * Corners on pixel corners; 120 and 150 have different powers of two, so no
 * pixel centre lies on the diagonal either.
 */
#define RX0 100
#define RX1 250
#define RY0 60
#define RY1 180

static void put_rectangle(Dev *d)
{
    /* window (x, y) -> NDC: x / 120 - 1, y / 200 - 1 (exact in float24) */
    const float x0 = -0.5f, x1 = 0.5f, y0 = -0.25f, y1 = 0.5f;
    const float v[6][8] = {
        { x0, y0, -0.5f, 1, 0, 1, 0, 1 }, { x1, y0, -0.5f, 1, 0, 1, 0, 1 },
        { x1, y1, -0.5f, 1, 1, 0, 0, 1 }, { x0, y0, -0.5f, 1, 0, 1, 0, 1 },
        { x1, y1, -0.5f, 1, 1, 0, 0, 1 }, { x0, y1, -0.5f, 1, 1, 0, 0, 1 },
    };

    qtest_memwrite(d->q->qts, VB_GPA, v, sizeof(v));
}

/* write the list into guest RAM and run it on channel 0 */
static void kick(Dev *d, PicaCmd *c)
{
    PicaRegWrite w[4];

    g_assert_false(c->overflow);
    qtest_memwrite(d->q->qts, LIST_GPA, c->buf, c->n * 4);
    seq(d, w, pica_seq_kick(w, RAM_PA(LIST_GPA), c->n * 4));
}

static void clear_target(Dev *d)
{
    PicaRegWrite w[4];

    /* PSC0 fills the colour buffer; its "finished" bit raises INTx */
    seq(d, w, pica_seq_fill(w, 0, PA(COLOR_VRAM), PA(COLOR_VRAM) + FBW * FBH * 4,
                            CLEAR, 2));
    wait_bits(d, A_PSC0_CONTROL, 0xFFFF, 0x202);
    wait_intx(d, true);
    wr(d, A_PSC0_CONTROL, 0x200);
    wait_intx(d, false);
}

/* the rectangle through a command list; FINALIZE raises the P3D interrupt */
static void draw_rectangle(Dev *d, uint32_t color_pa)
{
    static uint32_t words[4096];
    PicaCmd c = { words, 0, G_N_ELEMENTS(words), 0, NULL };

    put_rectangle(d);
    pica_cmd_basic_scene(&c, FBW, FBH, color_pa, PICA_COLORFMT_RGBA8,
                         RAM_PA(VB_GPA));
    pica_cmd_draw(&c, PICA_TOPOLOGY_TRIANGLES, 6, 0, 0, 0);
    pica_cmd_finalize(&c);
    kick(d, &c);
    /* FINALIZE = IRQ_REQ0 bytes equal to IRQ_CMP0: interrupts 0-3 */
    wait_bits(d, PICA_INTERNAL_OFFSET(GPUREG_IRQ_STAT_LO), 0xFFFFFFFF, 0xF);
    g_assert_cmphex(rd(d, A_GPU_BUSY), ==, 0);
    wait_intx(d, true);
    wr(d, PICA_INTERNAL_OFFSET(GPUREG_IRQ_ACK0), 0);
    g_assert_cmphex(rdreg(d, GPUREG_IRQ_STAT_LO), ==, 0);
    wait_intx(d, false);
}

/* the colour buffer to 3DS physical out_pa, out_h lines, format fmt */
static void transfer(Dev *d, uint32_t out_pa, unsigned out_h, unsigned fmt)
{
    PicaRegWrite w[6];

    seq(d, w, pica_seq_transfer(w, PA(COLOR_VRAM), out_pa,
                                FBW | FBH << 16, FBW | out_h << 16,
                                PICA_PIXFMT_RGBA8 << 8 | fmt << 12));
    wait_bits(d, A_PPF_CONTROL, 0xFFFF, R_PPF_CONTROL_FINISHED_MASK);
    wait_intx(d, true);
    wr(d, A_PPF_CONTROL, 0);
    wait_intx(d, false);
}

/* top: RGB8 at TOP_VRAM; bottom: the first 320 lines as RGB565 at BOT_VRAM */
static void show(Dev *d)
{
    PicaRegWrite w[5];

    transfer(d, PA(TOP_VRAM), FBH, PICA_PIXFMT_RGB8);
    transfer(d, PA(BOT_VRAM), 320, PICA_PIXFMT_RGB565);
    seq(d, w, pica_seq_lcd(w, 0, 0, PA(TOP_VRAM), PICA_PIXFMT_RGB8, FBW * 3));
    seq(d, w, pica_seq_lcd(w, 1, 1, PA(BOT_VRAM), PICA_PIXFMT_RGB565, FBW * 2));
}

/* the expected 8-bit colour of screen pixel (X, Y), both heads */
static void expect(int X, int Y, int rgb[3])
{
    if (X >= RX0 && X < RX1 && Y >= RY0 && Y < RY1) {
        double t = (X + 0.5 - RX0) / (RX1 - RX0);
        rgb[0] = (int)floor((1 - t) * 255 + 0.5);
        rgb[1] = (int)floor(t * 255 + 0.5);
        rgb[2] = 0;
    } else {
        rgb[0] = CLEAR >> 24;
        rgb[1] = CLEAR >> 16 & 0xFF;
        rgb[2] = CLEAR >> 8 & 0xFF;
    }
}

/* 8 bits -> n bits by truncation -> 8 bits by replication (RGB565) */
static int quant(int v, int bits)
{
    v = MIN(MAX(v, 0), 255) >> (8 - bits);
    return (v << (8 - bits) | v >> (2 * bits - 8)) & 0xFF;
}

/* screendump of `head`: every pixel within 1 step of the expected colour */
static void check_head(Dev *d, int head)
{
    static const int bits[2][3] = { { 8, 8, 8 }, { 5, 6, 5 } };
    G3DQImage img;
    int X, Y, c, dd, w = head ? 320 : 400;
    long bad = 0, differ = 0;
    double se = 0;

    g_assert_true(g3dq_screendump(d->q, "gpu", head, &img));
    g_assert_cmpint(img.width, ==, w);
    g_assert_cmpint(img.height, ==, 240);
    for (Y = 0; Y < 240; Y++) {
        for (X = 0; X < w; X++) {
            const uint8_t *p = g3dq_px(&img, X, Y);
            int e[3], ok = 1, any = 0;
            expect(X, Y, e);
            for (c = 0; c < 3; c++) {
                int hit = 0, want = quant(e[c], bits[head][c]);
                for (dd = -1; dd <= 1; dd++) {
                    hit |= p[c] == quant(e[c] + dd, bits[head][c]);
                }
                ok &= hit;
                any |= p[c] != want;
                se += (double)(p[c] - want) * (p[c] - want);
            }
            bad += !ok;
            differ += any;
        }
    }
    se /= 3.0 * w * 240;
    printf("# head %d: PSNR %.2f dB, %ld differing pixels, %ld beyond one step\n",
           head, se ? 10 * log10(255.0 * 255.0 / se) : INFINITY, differ, bad);
    g_assert_cmpint(bad, ==, 0);
    g3dq_image_free(&img);
}

/* the whole path: clear, draw, transfer, show, check both screendumps */
static void draw_and_check(Dev *d)
{
    clear_target(d);
    draw_rectangle(d, PA(COLOR_VRAM));
    show(d);
    check_head(d, 0);
    check_head(d, 1);
}

static void test_triangle(void)
{
    Dev d = open_dev();
    PicaRegWrite w[5];

    draw_and_check(&d);
    /* an LCD framebuffer in guest RAM (the 3DS's FCRAM) shows the same */
    transfer(&d, RAM_PA(FB_GPA), FBH, PICA_PIXFMT_RGB8);
    seq(&d, w, pica_seq_lcd(w, 0, 1, RAM_PA(FB_GPA), PICA_PIXFMT_RGB8, FBW * 3));
    wr(&d, A_PDC0_FRAMEBUF_A1, 0);      /* the VRAM copy is no longer shown */
    check_head(&d, 0);
    close_dev(&d);
}

/* ---- bad input, then recovery -------------------------------------------- */

static bool all_black(Dev *d, int head)
{
    G3DQImage img;
    int i;
    bool black = true;

    g_assert_true(g3dq_screendump(d->q, "gpu", head, &img));
    for (i = 0; i < img.width * img.height * 3; i++) {
        black &= img.rgb[i] == 0;
    }
    g3dq_image_free(&img);
    return black;
}

static void test_bad_input(void)
{
    Dev d = open_dev();
    static uint32_t words[4096];
    PicaCmd c = { words, 0, G_N_ELEMENTS(words), 0, NULL };
    PicaRegWrite w[5];
    uint8_t px[4];

    /* a framebuffer past VRAM: the head is blank, the other one still shows */
    clear_target(&d);
    draw_rectangle(&d, PA(COLOR_VRAM));
    show(&d);
    seq(&d, w, pica_seq_lcd(w, 0, 0, PA(PICA200_VRAM_SIZE - 0x1000),
                            PICA_PIXFMT_RGB8, FBW * 3));
    g_assert_true(all_black(&d, 0));
    g_assert_true(logged(&d, "scanout 0x185ff000"));
    check_head(&d, 1);

    /* a colour buffer past VRAM: drawing skipped, the list still finishes */
    draw_rectangle(&d, PA(PICA200_VRAM_SIZE - 0x8000));
    g_assert_true(logged(&d, "colour buffer 0x185f8000"));
    g3dq_read(d.q, VRAM, PICA200_VRAM_SIZE - 0x8000, px, 4);
    g_assert_cmphex(px[0] | px[1] | px[2] | px[3], ==, 0);

    /* an attribute buffer past guest RAM (128 MiB): the draw is skipped */
    clear_target(&d);
    pica_cmd_basic_scene(&c, FBW, FBH, PA(COLOR_VRAM), PICA_COLORFMT_RGBA8,
                         RAM_PA(0x0FF00000));
    pica_cmd_draw(&c, PICA_TOPOLOGY_TRIANGLES, 6, 0, 0, 0);
    pica_cmd_finalize(&c);
    kick(&d, &c);
    wait_bits(&d, PICA_INTERNAL_OFFSET(GPUREG_IRQ_STAT_LO), 0xF, 0xF);
    g_assert_true(logged(&d, "attribute 0 of vertex 0 is outside memory"));
    g3dq_read(d.q, VRAM, COLOR_VRAM, px, 4);            /* still the clear colour */
    g_assert_cmphex(px[3] << 24 | px[2] << 16 | px[1] << 8 | px[0], ==, CLEAR);

    /* a list that jumps to itself: logged, runs on, BAR0 stays usable */
    c.n = 0;
    pica_cmd_reg(&c, GPUREG_CMDBUF_JUMP0, 1);
    pica_cmd_reg(&c, GPUREG_CMDBUF_JUMP0, 1);
    kick(&d, &c);
    wait_bits(&d, A_GPU_BUSY, R_GPU_BUSY_P3D_MASK, R_GPU_BUSY_P3D_MASK);
    qtest_clock_step(d.q->qts, 100000000);
    g_assert_cmphex(rd(&d, A_GPU_BUSY), ==, (uint32_t)R_GPU_BUSY_P3D_MASK);
    g_assert_true(logged(&d, "jumps to itself"));
    g_assert_cmphex(rdreg(&d, GPUREG_IRQ_CMP0), ==, 0x12345678);

    /* a system reset stops it; then the device draws again */
    g3dq_system_reset(d.q);
    g_assert_cmphex(rd(&d, A_GPU_BUSY), ==, 0);
    g_assert_cmphex(rd(&d, A_PDC0_CONTROL), ==, 0);
    g_assert_true(all_black(&d, 0) && all_black(&d, 1));
    draw_and_check(&d);
    close_dev(&d);
}

/* VM stop with a list kicked: registers readable, the list runs on cont */
static void test_stop_cont(void)
{
    Dev d = open_dev();
    static uint32_t words[64];
    PicaCmd c = { words, 0, G_N_ELEMENTS(words), 0, NULL };

    pica_cmd_reg(&c, GPUREG_COLOR_OPERATION, 0xE40100);
    pica_cmd_finalize(&c);
    qtest_qmp_assert_success(d.q->qts, "{'execute': 'stop'}");
    kick(&d, &c);
    /* the kick is applied for the read; the stopped worker runs nothing */
    g_assert_cmphex(rdreg(&d, GPUREG_CMDBUF_SIZE0), ==, c.n * 4 / 8);
    g_assert_cmphex(rdreg(&d, GPUREG_COLOR_OPERATION), ==, 0);
    g_assert_cmphex(rd(&d, A_GPU_BUSY), ==, (uint32_t)R_GPU_BUSY_P3D_MASK);
    qtest_qmp_assert_success(d.q->qts, "{'execute': 'cont'}");
    wait_bits(&d, PICA_INTERNAL_OFFSET(GPUREG_IRQ_STAT_LO), 0xF, 0xF);
    g_assert_cmphex(rdreg(&d, GPUREG_COLOR_OPERATION), ==, 0xE40100);
    close_dev(&d);
}

/* Hot-plug and unplug: threads join, consoles go, QEMU lives. */
static void test_hotplug(void)
{
    g3dq_hotplug_cycles("pica200-3d", "'render-threads': 3", 3);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/pica200/identity", test_identity);
    qtest_add_func("/pica200/registers", test_registers);
    qtest_add_func("/pica200/triangle", test_triangle);
    qtest_add_func("/pica200/bad-input", test_bad_input);
    qtest_add_func("/pica200/stop-cont", test_stop_cont);
    qtest_add_func("/pica200/hotplug", test_hotplug);
    return g_test_run();
}
