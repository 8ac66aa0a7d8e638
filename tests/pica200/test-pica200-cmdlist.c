/*
 * The P3D command-list processor and the internal register file, through
 * BAR0 as a guest drives them: byte masks, consecutive and repeated writes,
 * extra parameters and padding, the 16-byte buffer size, FINALIZE and the
 * interrupt registers, both jump channels, MMIO writes ordered behind a
 * running list, read-back of all 768 registers, and bad lists (a list that
 * jumps to itself, a list outside memory, IDs past 0x2FF) with recovery by
 * reset.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>

#include "pica-test.h"
#include "common/g3d-core.h"

#define LIST_A 0x10000
#define LIST_B 0x20000

/* a harmless register to write: the stored-only fog colour */
#define SCRATCH GPUREG_FOG_COLOR
#define SCRATCH2 GPUREG_BLEND_COLOR

static void test_single_and_mask(void)
{
    PicaTest t;
    CmdBuf b;

    pt_init(&t, 1);
    cb_init(&b);
    pica_cmd_reg(&b, SCRATCH, 0x11223344);
    /* reference L26: mask 0x1 updates byte 0, mask 0x2 byte 1 */
    pica_cmd_regm(&b, SCRATCH, 0x1, 0xAAAAAAAA);
    pica_cmd_regm(&b, SCRATCH, 0x8, 0xBBBBBBBB);
    pica_cmd_regm(&b, SCRATCH2, 0x0, 0xFFFFFFFF);      /* mask 0: no byte */
    pica_cmd_finalize(&b);
    pt_kick(&t, &b, LIST_A);
    g_assert_true(pt_run(&t, 10));
    g_assert_cmphex(pt_rreg(&t, SCRATCH), ==, 0xBB2233AA);
    g_assert_cmphex(pt_rreg(&t, SCRATCH2), ==, 0);
    cb_free(&b);
    pt_free(&t);
}

static void test_consecutive_example(void)
{
    PicaTest t;
    CmdBuf b;
    static const uint32_t p[3] = { 0xAAAAAAAA, 0xBBBBBBBB, 0xCCCCCCCC };

    pt_init(&t, 1);
    cb_init(&b);
    /* reference L9: 0xAAAAAAAA 0x802F011C 0xBBBBBBBB 0xCCCCCCCC */
    pica_cmd(&b, GPUREG_DEPTHBUFFER_LOC, 0xF, true, p, 3);
    g_assert_cmphex(b.buf[1], ==, 0x802F011C);
    g_assert_cmpuint(b.n, ==, 4);                   /* no pad word */
    /* non-consecutive: three writes to the same register */
    pica_cmd(&b, SCRATCH, 0xF, false, p, 3);
    g_assert_cmpuint(b.n, ==, 8);
    /* N = 1: param, header, one extra, pad -> 16 bytes */
    pica_cmd(&b, SCRATCH2, 0xF, false, p, 2);
    g_assert_cmpuint(b.n, ==, 12);
    pica_cmd_finalize(&b);
    pt_kick(&t, &b, LIST_A);
    g_assert_true(pt_run(&t, 10));
    g_assert_cmphex(pt_rreg(&t, GPUREG_DEPTHBUFFER_LOC), ==, 0xAAAAAAAA);
    g_assert_cmphex(pt_rreg(&t, GPUREG_COLORBUFFER_LOC), ==, 0xBBBBBBBB);
    g_assert_cmphex(pt_rreg(&t, GPUREG_FRAMEBUFFER_DIM), ==, 0xCCCCCCCC);
    g_assert_cmphex(pt_rreg(&t, SCRATCH), ==, 0xCCCCCCCC);
    g_assert_cmphex(pt_rreg(&t, SCRATCH2), ==, 0xBBBBBBBB);
    cb_free(&b);
    pt_free(&t);
}

static void test_masked_consecutive(void)
{
    PicaTest t;
    CmdBuf b;
    static const uint32_t p[2] = { 0x12345678, 0x9ABCDEF0 };

    pt_init(&t, 1);
    pt_wreg(&t, SCRATCH, 0xFFFFFFFF);
    pt_wreg(&t, SCRATCH + 1, 0xFFFFFFFF);
    cb_init(&b);
    /* the same mask applies to every parameter of a command */
    pica_cmd(&b, SCRATCH, 0x5, true, p, 2);
    pica_cmd_finalize(&b);
    pt_kick(&t, &b, LIST_A);
    g_assert_true(pt_run(&t, 10));
    g_assert_cmphex(pt_rreg(&t, SCRATCH), ==, 0xFF34FF78);
    g_assert_cmphex(pt_rreg(&t, SCRATCH + 1), ==, 0xFFBCFFF0);
    cb_free(&b);
    pt_free(&t);
}

static void test_finalize_irq_and_stop(void)
{
    PicaTest t;
    CmdBuf b;

    pt_init(&t, 1);
    g_assert_false(pica200_irq_level(t.core));
    cb_init(&b);
    pica_cmd_reg(&b, SCRATCH, 1);
    pica_cmd_reg(&b, GPUREG_FINALIZE, 0x12345678);
    pica_cmd_reg(&b, SCRATCH, 2);                        /* ignored: after FINALIZE */
    pica_cmd_reg(&b, SCRATCH, 3);
    pt_kick(&t, &b, LIST_A);
    g_assert_true(pt_rreg(&t, 0) == 0);
    g_assert_cmphex(pt_r32(&t, A_GPU_BUSY) & R_GPU_BUSY_P3D_MASK, !=, 0);
    g_assert_true(pt_run(&t, 10));
    g_assert_cmphex(pt_r32(&t, A_GPU_BUSY), ==, 0);
    g_assert_cmphex(pt_rreg(&t, SCRATCH), ==, 1);
    g_assert_true(pica200_irq_level(t.core));
    /* each matching request byte is an interrupt: bytes 0-3 */
    g_assert_cmphex(pt_rreg(&t, GPUREG_IRQ_STAT_LO), ==, 0xF);
    g_assert_cmphex(pt_rreg(&t, GPUREG_IRQ_ACK0), ==, 0x12345678);
    /* the driver acknowledges by writing 0 to IRQ_ACK0 */
    pt_wreg(&t, GPUREG_IRQ_ACK0, 0);
    g_assert_false(pica200_irq_level(t.core));
    g_assert_cmphex(pt_rreg(&t, GPUREG_IRQ_STAT_LO), ==, 0);

    /* another value does not match IRQ_CMP0: no interrupt, no stop */
    cb_free(&b);
    cb_init(&b);
    pica_cmd_reg(&b, GPUREG_FINALIZE, 0x1);
    pica_cmd_reg(&b, SCRATCH, 7);
    pica_cmd_finalize(&b);
    pt_kick(&t, &b, LIST_A);
    g_assert_true(pt_run(&t, 10));
    g_assert_cmphex(pt_rreg(&t, SCRATCH), ==, 7);
    g_assert_true(pica200_irq_level(t.core));      /* from the final FINALIZE */

    /* masked: no interrupt, and without AUTOSTOP the list runs on */
    pt_wreg(&t, GPUREG_IRQ_ACK0, 0);
    pt_wreg(&t, GPUREG_IRQ_MASK_LO, 0xFFFFFFFF);
    pt_wreg(&t, GPUREG_IRQ_AUTOSTOP, 0);
    cb_free(&b);
    cb_init(&b);
    pica_cmd_reg(&b, GPUREG_FINALIZE, 0x12345678);
    pica_cmd_reg(&b, SCRATCH, 9);
    pica_cmd_finalize(&b);
    pt_kick(&t, &b, LIST_A);
    g_assert_true(pt_run(&t, 10));
    g_assert_cmphex(pt_rreg(&t, SCRATCH), ==, 9);
    g_assert_false(pica200_irq_level(t.core));
    cb_free(&b);
    pt_free(&t);
}

static void test_size_16_bytes(void)
{
    PicaTest t;
    CmdBuf b;
    unsigned errors;

    pt_init(&t, 1);
    cb_init(&b);
    pica_cmd_reg(&b, SCRATCH, 5);
    pica_cmd_reg(&b, GPUREG_FINALIZE, 0x12345678);   /* bytes 8..15 */
    pica_cmd_reg(&b, SCRATCH, 6);                    /* bytes 16..23 */
    memcpy(t.ram + LIST_A, b.buf, b.n * 4);
    /*
     * SIZE = 24 bytes >> 3 = 3: the effective size is (3 << 3) & ~0xF = 16,
     * so the third command is not run (reference defect PICA-3,
     * docs/references.md)
     */
    pt_wreg(&t, GPUREG_IRQ_AUTOSTOP, 0);
    pt_wreg(&t, GPUREG_CMDBUF_SIZE0, 3);
    pt_wreg(&t, GPUREG_CMDBUF_ADDR0, (PICA200_PHYS_FCRAM + LIST_A) >> 3);
    pt_wreg(&t, GPUREG_CMDBUF_JUMP0, 1);
    g_assert_true(pt_run(&t, 10));
    g_assert_cmphex(pt_rreg(&t, SCRATCH), ==, 5);
    /* and the doc's pitfall: FINALIZE in the last 8 bytes of a 24-byte list */
    cb_free(&b);
    cb_init(&b);
    pica_cmd_reg(&b, SCRATCH, 1);
    pica_cmd_reg(&b, SCRATCH, 2);
    pica_cmd_reg(&b, GPUREG_FINALIZE, 0x12345678);
    memcpy(t.ram + LIST_A, b.buf, b.n * 4);
    pt_wreg(&t, GPUREG_IRQ_ACK0, 0);
    errors = g3d_log_count(G3D_LOG_GUEST_ERROR);
    pt_wreg(&t, GPUREG_CMDBUF_JUMP0, 1);
    g_assert_true(pt_run(&t, 10));
    g_assert_cmphex(pt_rreg(&t, SCRATCH), ==, 2);
    g_assert_false(pica200_irq_level(t.core));     /* FINALIZE never ran */
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), >, errors);
    cb_free(&b);
    pt_free(&t);
}

static void test_jump_channels(void)
{
    PicaTest t;
    CmdBuf a, b;

    pt_init(&t, 1);
    cb_init(&a);
    cb_init(&b);
    /* list B (channel 1): writes SCRATCH2, finalizes */
    pica_cmd_reg(&b, SCRATCH2, 0xB);
    pica_cmd_finalize(&b);
    memcpy(t.ram + LIST_B, b.buf, b.n * 4);
    /* list A (channel 0): sets channel 1 up and jumps; the rest is dropped */
    pica_cmd_reg(&a, SCRATCH, 0xA);
    pica_cmd_reg(&a, GPUREG_CMDBUF_SIZE1, (uint32_t)(b.n * 4) >> 3);
    pica_cmd_reg(&a, GPUREG_CMDBUF_ADDR1, (PICA200_PHYS_FCRAM + LIST_B) >> 3);
    {
        /* the jump in the middle of a three-parameter command */
        uint32_t p[3] = { 1, 0xDEAD, 0xDEAD };
        pica_cmd(&a, GPUREG_CMDBUF_JUMP1, 0xF, false, p, 3);
    }
    pica_cmd_reg(&a, SCRATCH, 0xDEAD);
    pica_cmd_finalize(&a);
    pt_kick(&t, &a, LIST_A);
    g_assert_true(pt_run(&t, 10));
    g_assert_cmphex(pt_rreg(&t, SCRATCH), ==, 0xA);
    g_assert_cmphex(pt_rreg(&t, SCRATCH2), ==, 0xB);
    g_assert_true(pica200_irq_level(t.core));
    /* channel 1 kicked from BAR0 directly */
    pt_wreg(&t, GPUREG_IRQ_ACK0, 0);
    pt_wreg(&t, SCRATCH2, 0);
    pt_wreg(&t, GPUREG_CMDBUF_JUMP1, 1);
    g_assert_true(pt_run(&t, 10));
    g_assert_cmphex(pt_rreg(&t, SCRATCH2), ==, 0xB);
    cb_free(&a);
    cb_free(&b);
    pt_free(&t);
}

static void test_mmio_order(void)
{
    PicaTest t;
    CmdBuf b;
    unsigned i;

    pt_init(&t, 1);
    cb_init(&b);
    for (i = 0; i < 10000; i++) {
        pica_cmd_reg(&b, SCRATCH, i);
    }
    pica_cmd_finalize(&b);
    pt_kick(&t, &b, LIST_A);
    /* while the list runs, BAR0 writes wait behind it, in order */
    g_assert_true(pica200_core_work(t.core, 100));
    pt_wreg(&t, SCRATCH, 0x55555555);
    pt_wreg(&t, SCRATCH2, 0x66666666);
    g_assert_cmphex(pt_rreg(&t, SCRATCH), <, 9999);  /* what is done so far */
    g_assert_cmphex(pt_rreg(&t, SCRATCH2), ==, 0);
    g_assert_true(pt_run(&t, 100));
    g_assert_cmphex(pt_rreg(&t, SCRATCH), ==, 0x55555555);
    g_assert_cmphex(pt_rreg(&t, SCRATCH2), ==, 0x66666666);
    /* idle: a plain register write takes effect at once */
    pt_wreg(&t, SCRATCH, 1);
    g_assert_cmphex(pt_rreg(&t, SCRATCH), ==, 1);
    /* 8-, 16- and 64-bit BAR0 accesses */
    pica200_reg_write(t.core, PICA_INTERNAL_OFFSET(SCRATCH) + 2, 0xAB, 1);
    g_assert_cmphex(pt_rreg(&t, SCRATCH), ==, 0x00AB0001);
    pica200_reg_write(t.core, PICA_INTERNAL_OFFSET(SCRATCH) + 2, 0xCDEF, 2);
    g_assert_cmphex(pica200_reg_read(t.core, PICA_INTERNAL_OFFSET(SCRATCH) + 3, 1),
                    ==, 0xCD);
    pica200_reg_write(t.core, PICA_INTERNAL_OFFSET(0x120), 0x1111222233334444ull, 8);
    g_assert_cmphex(pica200_reg_read(t.core, PICA_INTERNAL_OFFSET(0x120), 8), ==,
                    0x1111222233334444ull);
    cb_free(&b);
    pt_free(&t);
}

static bool side_effect_register(unsigned id)
{
    switch (id) {
    case GPUREG_FRAMEBUFFER_INVALIDATE:
    case GPUREG_FRAMEBUFFER_FLUSH:
    case GPUREG_DRAWARRAYS:
    case GPUREG_DRAWELEMENTS:
    case GPUREG_VTX_FUNC:
    case GPUREG_CMDBUF_JUMP0:
    case GPUREG_CMDBUF_JUMP1:
    case GPUREG_RESTART_PRIMITIVE:
    case GPUREG_GSH_CODETRANSFER_END:
    case GPUREG_VSH_CODETRANSFER_END:
    case GPUREG_EARLYDEPTH_CLEAR:
        return true;
    }
    return false;
}

static uint32_t pattern(unsigned id)
{
    if (side_effect_register(id)) {
        return 0;
    }
    if (id == GPUREG_VSH_COM_MODE) {
        return 1;          /* no VS -> GS mirroring of the GSH registers */
    }
    return 0x9E3779B9u * (id + 1);
}

static void test_readback_all(void)
{
    PicaTest t;
    unsigned id;

    pt_init(&t, 1);
    pt_wreg(&t, GPUREG_VSH_COM_MODE, 1);
    /* every register 0x040-0x2FF reads back the last word written */
    for (id = 0x040; id < PICA_INTERNAL_COUNT; id++) {
        uint32_t v = pattern(id);
        pt_wreg(&t, id, v);
        g_assert_true(pt_run(&t, 10));
        g_assert_cmphex(pt_rreg(&t, id), ==, v);
    }
    /* and keeps it: nothing written later disturbs an earlier register,
     * except index registers that their data ports advance */
    for (id = 0x040; id < PICA_INTERNAL_COUNT; id++) {
        const Pica200RegInfo *info = pica200_reg_info(id);
        uint32_t v = pattern(id);
        if (id == GPUREG_PROCTEX_LUT || id == GPUREG_FOG_LUT_INDEX ||
            id == GPUREG_GAS_LUT_INDEX || id == GPUREG_LIGHTING_LUT_INDEX) {
            continue;
        }
        g_assert_nonnull(info);
        g_assert_cmphex(pt_rreg(&t, id), ==, v);
    }
    /* interrupt registers: CMP and MASK read back; ACK reads REQ */
    pt_wreg(&t, GPUREG_IRQ_CMP0 + 5, 0xCAFEF00D);
    g_assert_cmphex(pt_rreg(&t, GPUREG_IRQ_CMP0 + 5), ==, 0xCAFEF00D);
    pt_wreg(&t, GPUREG_IRQ_REQ0 + 5, 0x01020304);
    g_assert_cmphex(pt_rreg(&t, GPUREG_IRQ_ACK0 + 5), ==, 0x01020304);
    /* VSH_COM_MODE b0 = 0 (no GS): VS configuration reaches the GS unit */
    pt_wreg(&t, GPUREG_GEOSTAGE_CONFIG, 0);
    pt_wreg(&t, GPUREG_VSH_COM_MODE, 0);
    pt_wreg(&t, GPUREG_VSH_BOOLUNIFORM, 0x7FFF1234);
    g_assert_cmphex(pt_rreg(&t, GPUREG_GSH_BOOLUNIFORM), ==, 0x7FFF1234);
    pt_wreg(&t, GPUREG_VSH_COM_MODE, 1);
    pt_wreg(&t, GPUREG_VSH_BOOLUNIFORM, 0x7FFF0001);
    g_assert_cmphex(pt_rreg(&t, GPUREG_GSH_BOOLUNIFORM), ==, 0x7FFF1234);
    /* named/unnamed bookkeeping covers all 768 IDs */
    g_assert_cmpstr(pica200_reg_info(GPUREG_FINALIZE)->name, ==, "GPUREG_FINALIZE");
    g_assert_cmpint(pica200_reg_info(0x045)->status, ==, PICA200_REG_UNNAMED);
    g_assert_null(pica200_reg_info(0x300));
    pt_free(&t);
}

static void test_irq_bytes(void)
{
    PicaTest t;

    pt_init(&t, 1);
    /* unmask request byte 5 (word 1, byte 1), compare 0x77 */
    pt_wreg(&t, GPUREG_IRQ_MASK_LO, ~(1u << 5));
    pt_wreg(&t, GPUREG_IRQ_CMP0 + 1, 0x00007700);
    pica200_reg_write(t.core, PICA_INTERNAL_OFFSET(GPUREG_IRQ_REQ0 + 1) + 1, 0x76, 1);
    g_assert_true(pt_run(&t, 4));
    g_assert_false(pica200_irq_level(t.core));
    pica200_reg_write(t.core, PICA_INTERNAL_OFFSET(GPUREG_IRQ_REQ0 + 1) + 1, 0x77, 1);
    g_assert_true(pica200_irq_level(t.core));
    g_assert_cmphex(pt_rreg(&t, GPUREG_IRQ_STAT_LO), ==, 1u << 5);
    /* writing STAT is refused */
    pt_wreg(&t, GPUREG_IRQ_STAT_LO, 0);
    g_assert_cmphex(pt_rreg(&t, GPUREG_IRQ_STAT_LO), ==, 1u << 5);
    pica200_reg_write(t.core, PICA_INTERNAL_OFFSET(GPUREG_IRQ_ACK0 + 1) + 1, 0, 1);
    g_assert_false(pica200_irq_level(t.core));
    pt_free(&t);
}

static void test_self_jump_and_reset(void)
{
    PicaTest t;
    CmdBuf b;
    unsigned i, errors;

    pt_init(&t, 1);
    cb_init(&b);
    /* a list that jumps to itself, forever */
    pica_cmd_reg(&b, SCRATCH, 1);
    pica_cmd_reg(&b, GPUREG_CMDBUF_JUMP0, 1);
    memcpy(t.ram + LIST_A, b.buf, b.n * 4);
    errors = g3d_log_count(G3D_LOG_GUEST_ERROR);
    pt_wreg(&t, GPUREG_CMDBUF_SIZE0, (uint32_t)(b.n * 4) >> 3);
    pt_wreg(&t, GPUREG_CMDBUF_ADDR0, (PICA200_PHYS_FCRAM + LIST_A) >> 3);
    pt_wreg(&t, GPUREG_CMDBUF_JUMP0, 1);
    for (i = 0; i < 1000; i++) {
        /* every call returns: bounded work, still pending */
        g_assert_true(pica200_core_work(t.core, 256));
    }
    /* logged once, not once a loop */
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errors + 1);
    g_assert_cmphex(pt_r32(&t, A_GPU_BUSY) & R_GPU_BUSY_P3D_MASK, !=, 0);
    pica200_core_reset(t.core);
    g_assert_cmphex(pt_r32(&t, A_GPU_BUSY), ==, 0);
    g_assert_false(pica200_core_work(t.core, 256));
    /* the device works again */
    cb_free(&b);
    cb_init(&b);
    pica_cmd_reg(&b, SCRATCH, 0x42);
    pica_cmd_finalize(&b);
    pt_kick(&t, &b, LIST_A);
    g_assert_true(pt_run(&t, 10));
    g_assert_cmphex(pt_rreg(&t, SCRATCH), ==, 0x42);
    g_assert_true(pica200_irq_level(t.core));

    /* a list outside memory: logged, stopped */
    errors = g3d_log_count(G3D_LOG_GUEST_ERROR);
    pt_wreg(&t, GPUREG_CMDBUF_SIZE0, 0x100);
    pt_wreg(&t, GPUREG_CMDBUF_ADDR0, 0x10000000 >> 3);   /* I/O space */
    pt_wreg(&t, GPUREG_CMDBUF_JUMP0, 1);
    g_assert_true(pt_run(&t, 10));
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), >, errors);
    /* a list running off the end of guest RAM */
    errors = g3d_log_count(G3D_LOG_GUEST_ERROR);
    memset(t.ram + PT_RAM_SIZE - 16, 0, 16);
    pt_wreg(&t, GPUREG_CMDBUF_SIZE0, 0x1000);
    pt_wreg(&t, GPUREG_CMDBUF_ADDR0, (PICA200_PHYS_FCRAM + PT_RAM_SIZE - 16) >> 3);
    pt_wreg(&t, GPUREG_CMDBUF_JUMP0, 1);
    g_assert_true(pt_run(&t, 10));
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), >, errors);
    /* a command whose extra parameters run past the end of its buffer */
    errors = g3d_log_count(G3D_LOG_GUEST_ERROR);
    t.ram[LIST_A + 0] = 0;
    memcpy(t.ram + LIST_A + 4, (uint32_t[1]){ PICA_CMD_HEADER(SCRATCH, 0xF, 9, 0) }, 4);
    pt_wreg(&t, SCRATCH, 0x77);
    pt_wreg(&t, GPUREG_CMDBUF_SIZE0, 2);               /* 16 bytes */
    pt_wreg(&t, GPUREG_CMDBUF_ADDR0, (PICA200_PHYS_FCRAM + LIST_A) >> 3);
    pt_wreg(&t, GPUREG_CMDBUF_JUMP0, 1);
    g_assert_true(pt_run(&t, 10));
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), >, errors);
    g_assert_cmphex(pt_rreg(&t, SCRATCH), ==, 0x77);   /* not executed */
    /* an empty buffer */
    errors = g3d_log_count(G3D_LOG_GUEST_ERROR);
    pt_wreg(&t, GPUREG_CMDBUF_SIZE0, 1);               /* 8 bytes -> 0 */
    pt_wreg(&t, GPUREG_CMDBUF_JUMP0, 1);
    g_assert_true(pt_run(&t, 10));
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), >, errors);
    cb_free(&b);
    pt_free(&t);
}

static void test_bad_ids(void)
{
    PicaTest t;
    CmdBuf b;
    unsigned errors;
    uint32_t p[4] = { 1, 2, 3, 4 };

    pt_init(&t, 1);
    cb_init(&b);
    /* IDs are 16 bits; 0x300 and up do not exist */
    pica_cmd_reg(&b, 0x1234, 5);
    /* consecutive from 0x2FE runs past the end */
    pica_cmd(&b, 0x2FE, 0xF, true, p, 4);
    pica_cmd_finalize(&b);
    errors = g3d_log_count(G3D_LOG_GUEST_ERROR);
    pt_kick(&t, &b, LIST_A);
    g_assert_true(pt_run(&t, 10));
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), >=, errors + 3);
    g_assert_cmphex(pt_rreg(&t, 0x2FE), ==, 1);
    g_assert_cmphex(pt_rreg(&t, 0x2FF), ==, 2);
    g_assert_true(pica200_irq_level(t.core));     /* the list went on */
    /* BAR0 holes and bad access sizes */
    errors = g3d_log_count(G3D_LOG_GUEST_ERROR);
    pica200_reg_write(t.core, 0x8000, 1, 4);
    pica200_reg_write(t.core, 0x1001, 1, 4);
    g_assert_cmphex(pica200_reg_read(t.core, 0xFFFC, 4), ==, 0);
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errors + 2);
    cb_free(&b);
    pt_free(&t);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/pica200/cmdlist/single-and-mask", test_single_and_mask);
    g_test_add_func("/pica200/cmdlist/consecutive", test_consecutive_example);
    g_test_add_func("/pica200/cmdlist/masked-consecutive", test_masked_consecutive);
    g_test_add_func("/pica200/cmdlist/finalize-irq", test_finalize_irq_and_stop);
    g_test_add_func("/pica200/cmdlist/size-16-bytes", test_size_16_bytes);
    g_test_add_func("/pica200/cmdlist/jump-channels", test_jump_channels);
    g_test_add_func("/pica200/cmdlist/mmio-order", test_mmio_order);
    g_test_add_func("/pica200/cmdlist/readback-all", test_readback_all);
    g_test_add_func("/pica200/cmdlist/irq-bytes", test_irq_bytes);
    g_test_add_func("/pica200/cmdlist/self-jump-reset", test_self_jump_and_reset);
    g_test_add_func("/pica200/cmdlist/bad-ids", test_bad_ids);
    return g_test_run();
}
