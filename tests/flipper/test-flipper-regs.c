/*
 * flipper-gx register behaviour of every block: access widths on the
 * big-endian bus, read-only, write-1-to-clear and write-0-to-clear bits,
 * interrupts through PI INTSR/INTMR, the AI sample counter, ARAM DMA, the
 * BP mask, reset values. Expected values from the reference (doc chapter 5)
 * and YAGCD §5.1-5.11 (CP, PE, VI, PI, BP registers, interrupts, the
 * other interfaces).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "flipper/flipper-int.h"
#include "gx-build.h"
#include "rig.h"

static FlipperRig *fresh(void)
{
    return rig_new(1);
}

static void test_access_widths(void)
{
    FlipperRig *r = fresh();

    /* a 32-bit write to a pair of 16-bit registers: high half first */
    rig_w32(r, A_CP_FIFO_BASE_LO, 0x0040ABC0);
    g_assert_cmphex(rig_r16(r, A_CP_FIFO_BASE_LO), ==, 0x0040);
    g_assert_cmphex(rig_r16(r, A_CP_FIFO_BASE_HI), ==, 0xABC0 & 0x03FF);
    g_assert_cmphex(rig_r32(r, A_CP_FIFO_BASE_LO), ==, 0x004003C0);
    /* the value the pair holds: hi << 16 | lo, 26-bit, 32-byte blocks */
    g_assert_cmphex(rig_cp32(r, A_CP_FIFO_BASE_LO), ==, 0x03C00040);
    /* 16-bit halves of a 32-bit register: +0 is bits 31-16 */
    rig_w16(r, A_VI_TFBL, 0x1001);
    rig_w16(r, A_VI_TFBL + 2, 0x2345);
    g_assert_cmphex(rig_r32(r, A_VI_TFBL), ==, 0x10012345);
    rig_w16(r, A_PI_INTMR + 2, 0x0900);
    g_assert_cmphex(rig_r32(r, A_PI_INTMR), ==, 0x0900);
    g_assert_cmphex(rig_r16(r, A_PI_INTMR), ==, 0);
    g_assert_cmphex(rig_r16(r, A_PI_INTMR + 2), ==, 0x0900);
    /* PI: reset switch not pressed, Flipper revision C, INTMR bits 0-13 */
    g_assert_cmphex(rig_r32(r, A_PI_INTSR), ==, PI_INTSR_RSWST);
    g_assert_cmphex(rig_r32(r, A_PI_FLIPPER_REV), ==, 0x246500B1);
    rig_w32(r, A_PI_INTMR, 0xFFFFFFFF);
    g_assert_cmphex(rig_r32(r, A_PI_INTMR), ==, 0x3FFF);
    /* FIFO registers keep 32-byte blocks */
    rig_w32(r, A_PI_FIFO_BASE, 0x0012345F);
    g_assert_cmphex(rig_r32(r, A_PI_FIFO_BASE), ==, 0x00123440);
    rig_free(r);
}

static void test_bp_mask_and_regs(void)
{
    FlipperRig *r = fresh();
    GByteArray *b = g_byte_array_new();
    const uint32_t *bp = flipper_bp_regs(r->core);

    gx_bp(b, BP_ZMODE, 0x17);
    gx_bp(b, BP_MASK, 0x000010);            /* only bit 4 changes next */
    gx_bp(b, BP_ZMODE, 0x000000);
    gx_bp(b, BP_BLENDMODE, 0x123456);       /* mask gone again */
    gx_cp(b, 0x57, 0xAAAA);                 /* VCD decoded by nibble */
    gx_cp(b, 0x7F, 0x5555);                 /* VAT 7 */
    gx_xf1(b, 0x1057, 0xCAFE);              /* last XF register */
    flipper_gx_exec(r->core, b->data, b->len);
    g_assert_cmphex(bp[BP_ZMODE], ==, 0x07);
    g_assert_cmphex(bp[BP_BLENDMODE], ==, 0x123456);
    g_assert_cmphex(flipper_cp_regs(r->core)[CPR_VCD_LO], ==, 0xAAAA);
    g_assert_cmphex(flipper_cp_regs(r->core)[CPR_VAT_A + 7], ==, 0x5555);
    g_assert_cmphex(flipper_xf_words(r->core)[0x1057], ==, 0xCAFE);
    /* XF power-on values (doc 5.11.4) */
    flipper_core_reset(r->core);
    g_assert_cmphex(flipper_xf_words(r->core)[0x1000], ==, 0x3F);
    g_assert_cmphex(flipper_xf_words(r->core)[0x100C], ==, 0xFFFFFFFF);
    g_assert_cmphex(flipper_xf_words(r->core)[0x100E], ==, 0x0401);
    g_assert_cmphex(bp[BP_ZMODE], ==, 0);
    g_byte_array_unref(b);
    rig_free(r);
}

static void test_pe_bbox(void)
{
    FlipperRig *r = fresh();
    FlipperScene *s = flipper_scene_build("gouraud");
    GByteArray *b = g_byte_array_new();

    /* empty box as libogc clears it */
    gx_bp(b, BP_CLEARBBOX1, 0x0003FF);
    gx_bp(b, BP_CLEARBBOX2, 0x0003FF);
    flipper_gx_exec(r->core, b->data, b->len);
    g_assert_cmpuint(rig_r16(r, A_PE_BBOX_LEFT), ==, 0x3FF);
    g_assert_cmpuint(rig_r16(r, A_PE_BBOX_RIGHT), ==, 0);
    /* the gouraud triangle spans x 93..568, y 40..388 (its ref image) */
    flipper_gx_exec(r->core, s->fifo->data, s->fifo->len);
    g_assert_cmpuint(rig_r16(r, A_PE_BBOX_LEFT), ==, 92);    /* 2x2 rounded */
    g_assert_cmpuint(rig_r16(r, A_PE_BBOX_RIGHT), ==, 569);
    g_assert_cmpuint(rig_r16(r, A_PE_BBOX_TOP), ==, 40);
    g_assert_cmpuint(rig_r16(r, A_PE_BBOX_BOTTOM), ==, 389);
    g_assert_cmpuint(rig_r16(r, A_CP_BBOX_LEFT), ==, 92);    /* mirrored */
    g_byte_array_unref(b);
    flipper_scene_free(s);
    rig_free(r);
}

static void test_vi_registers(void)
{
    FlipperRig *r = fresh();

    rig_vi_init(r, SCENE_XFB_ADDR);
    /* DI INT cannot be set by a write */
    rig_w32(r, A_VI_DI2, 0x90010001);
    g_assert_cmphex(rig_r32(r, A_VI_DI2), ==, 0x10010001);
    /* the beam: 2 * 429 samples a line at 13.5 MHz; position from 1 */
    r->clock_ns += 1000000;     /* 13500 samples: line 16, sample 631 */
    g_assert_cmpuint(rig_r16(r, A_VI_DPV), ==, 13500 / 858 + 1);
    g_assert_cmpuint(rig_r16(r, A_VI_DPH), ==, 13500 % 858 + 1);
    /* DI2 at line 1 pixel 1 fires once per frame: 525 lines */
    rig_w32(r, A_PI_INTMR, PI_INT_VI);
    g_assert_false(flipper_irq_level(r->core));
    r->clock_ns += 40000000;    /* more than a frame */
    g_assert_true(rig_r32(r, A_VI_DI2) & R_VI_DI_INT_MASK);
    g_assert_true(flipper_irq_level(r->core));
    /* disabling the interrupt (ENB) lowers the line */
    rig_w32(r, A_VI_DI0, 0);
    rig_w32(r, A_VI_DI1, 0);
    rig_w32(r, A_VI_DI2, rig_r32(r, A_VI_DI2) & ~R_VI_DI_ENB_MASK);
    g_assert_false(flipper_irq_level(r->core));
    /* read-only beam position */
    rig_w16(r, A_VI_DPV, 5);
    /* DCR reset stops the beam */
    rig_w16(r, A_VI_DCR, 0x0002);
    {
        G3DScanout so;
        g_assert_false(flipper_scanout(r->core, 0, &so));
    }
    g_assert_cmpint(flipper_next_event_ns(r->core), ==, INT64_MAX);
    rig_free(r);
}

static void test_ai(void)
{
    FlipperRig *r = fresh();

    rig_w32(r, A_PI_INTMR, PI_INT_AI);
    rig_w32(r, A_AI_IT, 4800);
    rig_w32(r, A_AI_CR, R_AI_CR_PSTAT_MASK | R_AI_CR_AIINTMSK_MASK);
    g_assert_cmpint(flipper_next_event_ns(r->core), ==, 100000000);
    r->clock_ns = 50000000;                          /* 50 ms at 48 kHz */
    g_assert_cmpuint(rig_r32(r, A_AI_SCNT), ==, 2400);
    g_assert_false(flipper_irq_level(r->core));
    r->clock_ns = 100000000;
    g_assert_cmpuint(rig_r32(r, A_AI_SCNT), ==, 4800);
    g_assert_true(rig_r32(r, A_AI_CR) & R_AI_CR_AIINT_MASK);
    g_assert_true(flipper_irq_level(r->core));
    /* w1c AIINT; SCRESET; 32 kHz */
    rig_w32(r, A_AI_CR, R_AI_CR_PSTAT_MASK | R_AI_CR_AIINTMSK_MASK |
                        R_AI_CR_AIINT_MASK | R_AI_CR_SCRESET_MASK |
                        R_AI_CR_AFR_MASK);
    g_assert_false(flipper_irq_level(r->core));
    g_assert_cmpuint(rig_r32(r, A_AI_SCNT), ==, 0);
    r->clock_ns += 1000000000;
    g_assert_cmpuint(rig_r32(r, A_AI_SCNT), ==, 32000);
    /* stopped: the counter stands */
    rig_w32(r, A_AI_CR, 0);
    r->clock_ns += 1000000000;
    g_assert_cmpuint(rig_r32(r, A_AI_SCNT), ==, 32000);
    rig_w32(r, A_AI_VR, 0x1234FFFF);
    g_assert_cmphex(rig_r32(r, A_AI_VR), ==, 0xFFFF);
    rig_free(r);
}

static void test_dsp(void)
{
    FlipperRig *r = fresh();
    int i;

    rig_w32(r, A_PI_INTMR, PI_INT_DSP);
    /* mail to the DSP stays pending: no DSP takes it */
    rig_w16(r, A_DSP_MAILBOX_HI, 0x8000 | 0x1234);
    rig_w16(r, A_DSP_MAILBOX_LO, 0x5678);
    g_assert_cmphex(rig_r32(r, A_DSP_MAILBOX_HI), ==, 0x92345678);
    g_assert_cmphex(rig_r32(r, A_DSP_CPU_MAILBOX_HI), ==, 0);
    /* ARAM DMA: MEM1 -> ARAM -> MEM1 */
    for (i = 0; i < 64; i++) {
        r->mem1[0x1000 + i] = (uint8_t)(i * 7);
    }
    rig_w16(r, A_DSP_CSR, R_DSP_CSR_ARINTMASK_MASK);
    rig_w32(r, A_AR_DMA_MMADDR_H, 0x00001000);
    rig_w32(r, A_AR_DMA_ARADDR_H, 0x00000400);
    rig_w32(r, A_AR_DMA_CNT_H, 64);                 /* MEM1 -> ARAM, go */
    g_assert_true(rig_r16(r, A_DSP_CSR) & R_DSP_CSR_ARINT_MASK);
    g_assert_true(flipper_irq_level(r->core));
    g_assert_cmpuint(rig_r16(r, A_AR_DMA_CNT_L), ==, 0);
    rig_w16(r, A_DSP_CSR, R_DSP_CSR_ARINTMASK_MASK | R_DSP_CSR_ARINT_MASK);
    g_assert_false(flipper_irq_level(r->core));
    rig_w32(r, A_AR_DMA_MMADDR_H, 0x00002000);
    rig_w32(r, A_AR_DMA_CNT_H, 0x80000000 | 64);    /* ARAM -> MEM1 */
    g_assert_cmpmem(r->mem1 + 0x2000, 64, r->mem1 + 0x1000, 64);
    /* masked: status set, no interrupt */
    rig_w16(r, A_DSP_CSR, R_DSP_CSR_ARINT_MASK);
    rig_w32(r, A_AR_DMA_CNT_H, 32);
    g_assert_true(rig_r16(r, A_DSP_CSR) & R_DSP_CSR_ARINT_MASK);
    g_assert_false(flipper_irq_level(r->core));
    /* a DMA outside ARAM is logged and not done */
    {
        unsigned e = g3d_log_count(G3D_LOG_GUEST_ERROR);
        rig_w32(r, A_AR_DMA_ARADDR_H, 0x00FFFFE0);
        rig_w32(r, A_AR_DMA_CNT_H, 64);
        g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, e + 1);
    }
    rig_free(r);
}

static void test_di_si_exi_mi(void)
{
    FlipperRig *r = fresh();

    rig_w32(r, A_PI_INTMR, PI_INT_DI | PI_INT_SI | PI_INT_EXI | PI_INT_MEM);
    /* DI: the error-status command answers "no disc" */
    rig_w32(r, A_DI_SR, R_DI_SR_TCINTMASK_MASK | R_DI_SR_DEINTMASK_MASK);
    rig_w32(r, A_DI_CMDBUF0, 0xE0000000);
    rig_w32(r, A_DI_CR, R_DI_CR_TSTART_MASK);
    g_assert_cmphex(rig_r32(r, A_DI_IMMBUF), ==, 0x03023A00);
    g_assert_false(rig_r32(r, A_DI_CR) & R_DI_CR_TSTART_MASK);
    g_assert_true(rig_r32(r, A_DI_SR) & R_DI_SR_TCINT_MASK);
    g_assert_true(rig_r32(r, A_PI_INTSR) & PI_INT_DI);
    rig_w32(r, A_DI_SR, R_DI_SR_TCINTMASK_MASK | R_DI_SR_DEINTMASK_MASK |
                        R_DI_SR_TCINT_MASK);
    g_assert_false(rig_r32(r, A_PI_INTSR) & PI_INT_DI);
    /* a read fails: no disc */
    rig_w32(r, A_DI_CMDBUF0, 0xA8000000);
    rig_w32(r, A_DI_CR, R_DI_CR_TSTART_MASK | R_DI_CR_DMA_MASK);
    g_assert_true(rig_r32(r, A_DI_SR) & R_DI_SR_DEINT_MASK);
    g_assert_true(rig_r32(r, A_PI_INTSR) & PI_INT_DI);
    rig_w16(r, A_DI_SR + 2, R_DI_SR_TCINTMASK_MASK | R_DI_SR_DEINTMASK_MASK |
                            R_DI_SR_DEINT_MASK);     /* a 16-bit w1c */
    g_assert_false(rig_r32(r, A_PI_INTSR) & PI_INT_DI);
    /* inquiry DMAs the drive info */
    rig_w32(r, A_DI_CMDBUF0, 0x12000000);
    rig_w32(r, A_DI_MAR, 0x3000);
    rig_w32(r, A_DI_LENGTH, 0x20);
    rig_w32(r, A_DI_CR, R_DI_CR_TSTART_MASK | R_DI_CR_DMA_MASK);
    g_assert_cmpuint(r->mem1[0x3001], ==, 0x02);
    g_assert_cmpuint(rig_r32(r, A_DI_LENGTH), ==, 0);
    rig_w32(r, A_DI_SR, R_DI_SR_TCINT_MASK);         /* ack, masks off */
    g_assert_false(rig_r32(r, A_PI_INTSR) & PI_INT_DI);

    /* SI: no controller answers; TCINT w1c */
    rig_w32(r, A_SI_COMCSR, R_SI_COMCSR_TCINTMSK_MASK | 2 << 1 |
                            R_SI_COMCSR_TSTART_MASK);
    g_assert_true(rig_r32(r, A_SI_COMCSR) & R_SI_COMCSR_TCINT_MASK);
    g_assert_true(rig_r32(r, A_SI_SR) & (SI_SR_NOREP << 8));   /* chan 2 */
    g_assert_true(rig_r32(r, A_PI_INTSR) & PI_INT_SI);
    rig_w32(r, A_SI_SR, SI_SR_NOREP << 8);
    g_assert_false(rig_r32(r, A_SI_SR) & (SI_SR_NOREP << 8));
    rig_w32(r, A_SI_COMCSR, R_SI_COMCSR_TCINTMSK_MASK | R_SI_COMCSR_TCINT_MASK);
    g_assert_false(rig_r32(r, A_PI_INTSR) & PI_INT_SI);
    rig_w32(r, A_SI_IOBUF + 8, 0x11223344);
    g_assert_cmphex(rig_r16(r, A_SI_IOBUF + 10), ==, 0x3344);

    /* EXI: transfers complete at once, TCINT w1c, ROMDIS sticks */
    rig_w32(r, A_EXI_CSR + 0x14, R_EXI_CSR_TCINTMASK_MASK | 1 << 7);
    rig_w32(r, A_EXI_DATA + 0x14, 0xDEADBEEF);
    rig_w32(r, A_EXI_CR + 0x14, R_EXI_CR_TSTART_MASK | 1 << 2 | 3 << 4);
    g_assert_false(rig_r32(r, A_EXI_CR + 0x14) & R_EXI_CR_TSTART_MASK);
    g_assert_true(rig_r32(r, A_EXI_CSR + 0x14) & R_EXI_CSR_TCINT_MASK);
    g_assert_true(rig_r32(r, A_PI_INTSR) & PI_INT_EXI);
    rig_w32(r, A_EXI_CSR + 0x14, R_EXI_CSR_TCINT_MASK);
    g_assert_false(rig_r32(r, A_PI_INTSR) & PI_INT_EXI);
    g_assert_cmphex(rig_r32(r, A_EXI_DATA + 0x14), ==, 0xDEADBEEF);
    rig_w32(r, A_EXI_CSR, R_EXI_CSR_ROMDIS_MASK);
    rig_w32(r, A_EXI_CSR, 0);
    g_assert_true(rig_r32(r, A_EXI_CSR) & R_EXI_CSR_ROMDIS_MASK);
    g_assert_false(rig_r32(r, A_EXI_CSR) & R_EXI_CSR_EXT_MASK);

    /* MI: cause w1c, counters reset by a write */
    rig_w16(r, A_MI_INT_MASK, 0x1F);
    g_assert_cmphex(rig_r16(r, A_MI_INT_MASK), ==, 0x1F);
    g_assert_false(rig_r32(r, A_PI_INTSR) & PI_INT_MEM);
    rig_w16(r, A_MI_TIMER_FIRST, 0x55);
    g_assert_cmphex(rig_r16(r, A_MI_TIMER_FIRST), ==, 0);
    g_assert_false(flipper_irq_level(r->core));
    rig_free(r);
}

/*
 * The register tables (FlipperRegRow, one per block): every row lies in
 * its block, is aligned to its size, and no BAR0 offset is claimed by two
 * rows; flipper_reg_row finds each register of each row, by the header's
 * symbol; a write to a read-only register is refused (the value reads back
 * unchanged) and logged once, by the core, for every block.
 */
static void test_tables(void)
{
    static const FlipperBlock *const blocks[] = {
        &flipper_cp_block, &flipper_pe_block, &flipper_vi_block,
        &flipper_pi_block, &flipper_mi_block, &flipper_dsp_block,
        &flipper_di_block, &flipper_si_block, &flipper_exi_block,
        &flipper_ai_block,
    };
    static uint8_t claimed[0x7000];
    FlipperRig *r = fresh();
    const FlipperBlock *b;
    unsigned i, j, k, rows = 0, ro = 0;

    memset(claimed, 0, sizeof(claimed));
    for (i = 0; i < G_N_ELEMENTS(blocks); i++) {
        g_assert_nonnull(blocks[i]->regs);
        for (j = 0; j < blocks[i]->n_regs; j++) {
            const FlipperRegRow *row = &blocks[i]->regs[j];

            g_assert_true(row->size == 2 || row->size == 4);
            g_assert_cmpuint(row->addr % row->size, ==, 0);
            g_assert_cmpuint(row->count, >=, 1);
            g_assert_cmpuint(row->stride, >=, row->size);
            g_assert_cmpuint(row->addr, >=, blocks[i]->base);
            g_assert_cmpuint(row->addr + (row->count - 1) * row->stride +
                             row->size, <=, blocks[i]->base + blocks[i]->span);
            for (k = 0; k < row->count; k++) {
                uint32_t a = row->addr + k * row->stride, n;

                for (n = 0; n < row->size; n++) {
                    g_assert_cmpuint(claimed[a + n], ==, 0);
                    claimed[a + n] = 1;
                    g_assert_true(flipper_reg_row(a + n, &b) == row);
                    g_assert_true(b == blocks[i]);
                }
                if (row->flags & FLIPPER_REG_RO) {
                    unsigned errs = g3d_log_count(G3D_LOG_GUEST_ERROR);
                    uint32_t old = row->size == 2 ? rig_r16(r, a)
                                                  : rig_r32(r, a);

                    if (row->size == 2) {
                        rig_w16(r, a, ~old & 0xFFFF);
                        g_assert_cmphex(rig_r16(r, a), ==, old);
                    } else {
                        rig_w32(r, a, ~old);
                        g_assert_cmphex(rig_r32(r, a), ==, old);
                    }
                    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==,
                                     errs + 1);
                    ro++;
                }
            }
            rows++;
        }
    }
    /* rows name the header's symbols; a gap has no row */
    g_assert_cmpstr(flipper_reg_row(A_PE_TOKEN, NULL)->name, ==, "PE_TOKEN");
    g_assert_cmpstr(flipper_reg_row(A_VI_HTR0 + 2, NULL)->name, ==,
                    "VI_HTR0");
    g_assert_cmpstr(flipper_reg_row(A_EXI_CR + 2 * EXI_CHANNEL_STRIDE,
                                    NULL)->name, ==, "EXI_CR");
    g_assert_null(flipper_reg_row(A_PE_ISR + 2, NULL));
    g_assert_null(flipper_reg_row(FLIPPER_WGP_BASE, NULL));
    printf("# %u rows, %u read-only registers refused\n", rows, ro);
    g_assert_cmpuint(ro, >=, 20);
    rig_free(r);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/flipper/regs/access-widths", test_access_widths);
    g_test_add_func("/flipper/regs/tables", test_tables);
    g_test_add_func("/flipper/regs/bp-mask", test_bp_mask_and_regs);
    g_test_add_func("/flipper/regs/pe-bbox", test_pe_bbox);
    g_test_add_func("/flipper/regs/vi", test_vi_registers);
    g_test_add_func("/flipper/regs/ai", test_ai);
    g_test_add_func("/flipper/regs/dsp", test_dsp);
    g_test_add_func("/flipper/regs/di-si-exi-mi", test_di_si_exi_mi);
    return g_test_run();
}
