/*
 * The attila-3d device as a guest sees it (hw/gpu3d/attila/
 * command-processor.c): the BAR0 registers, the register-file window,
 * events, fences and interrupts, and bad input. Every bad transaction
 * (unknown kind, register id or sub-index out of range, bad value, WRITE
 * past GPU memory, unknown command, a draw with no program) and every bad
 * ring setting is logged (g3d_log_count), sets STATUS.ERROR with a code,
 * is skipped without touching anything else, and the device recovers with
 * CONTROL.RESET: a real trace then renders exactly as on a fresh device.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <string.h>

#include "attila-corpus.h"

typedef struct Dev {
    AttilaRun *run;
    AttilaCore *c;
    int irq_updates;
} Dev;

static uint32_t rd(Dev *d, uint32_t off)
{
    return (uint32_t)attila_reg_read(d->c, off, 4);
}

static void wr(Dev *d, uint32_t off, uint32_t v)
{
    attila_reg_write(d->c, off, v, 4);
}

static Dev *dev_new(void)
{
    Dev *d = g_new0(Dev, 1);

    /* the corpus sizes: 256 MiB of GPU memory, 16 MiB of system memory */
    d->run = attila_run_new(256u << 20, 16u << 20, 1);
    g_assert_nonnull(d->run);
    d->c = d->run->core;
    return d;
}

static void dev_free(Dev *d)
{
    attila_run_free(d->run);
    g_free(d);
}

static void exec(Dev *d, const AttilaTransaction *t)
{
    attila_core_execute(d->c, t);
}

static void reg_write(Dev *d, uint32_t id, uint32_t idx, uint32_t v)
{
    AttilaTransaction t = { .kind = ATTILA_AGP_REG_WRITE, .reg = id,
                            .index = idx };

    memcpy(t.value, &v, 4);
    exec(d, &t);
}

static void command(Dev *d, uint32_t cmd)
{
    AttilaTransaction t = { .kind = ATTILA_AGP_COMMAND, .command = cmd };

    exec(d, &t);
}

/* the transaction just executed was refused with `code` / `info` */
static void expect_error(Dev *d, unsigned *errors, unsigned *logs,
                         uint32_t code, uint32_t info)
{
    g_assert_cmpuint(rd(d, A_ATTILA_STATUS) & R_ATTILA_STATUS_ERROR_MASK, !=, 0);
    g_assert_cmpuint(rd(d, A_ATTILA_ERROR_CODE), ==, code);
    g_assert_cmphex(rd(d, A_ATTILA_ERROR_INFO), ==, info);
    g_assert_cmpuint(rd(d, A_ATTILA_ERROR_COUNT), ==, ++*errors);
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), >, *logs);
    *logs = g3d_log_count(G3D_LOG_GUEST_ERROR);
    /* ERROR_CLEAR: the bit and the code go, the count stays */
    wr(d, A_ATTILA_CONTROL, R_ATTILA_CONTROL_ERROR_CLEAR_MASK);
    g_assert_cmpuint(rd(d, A_ATTILA_STATUS) & R_ATTILA_STATUS_ERROR_MASK, ==, 0);
    g_assert_cmpuint(rd(d, A_ATTILA_ERROR_CODE), ==, ATTILA_ERR_NONE);
    g_assert_cmpuint(rd(d, A_ATTILA_ERROR_COUNT), ==, *errors);
}

/* ---- BAR0 ------------------------------------------------------------------ */

static void test_bar0(void)
{
    Dev *d = dev_new();
    unsigned logs = g3d_log_count(G3D_LOG_GUEST_ERROR);
    uint32_t tiling;

    g_assert_cmphex(rd(d, A_ATTILA_ID), ==, ATTILA_ID_VALUE);
    g_assert_cmphex(rd(d, A_ATTILA_VERSION), ==, ATTILA_VERSION_VALUE);
    g_assert_cmpuint(rd(d, A_ATTILA_MEM_SIZE), ==, 256u << 20);
    tiling = rd(d, A_ATTILA_TILING);
    g_assert_cmpuint(G3D_FIELD_EX32(tiling, ATTILA_TILING, TEX_BLOCK), ==, 2);
    g_assert_cmpuint(G3D_FIELD_EX32(tiling, ATTILA_TILING, TEX_SBLOCK), ==, 4);
    g_assert_cmpuint(G3D_FIELD_EX32(tiling, ATTILA_TILING, SCAN), ==, 16);
    g_assert_cmpuint(rd(d, A_ATTILA_STATUS) &
                     (R_ATTILA_STATUS_IDLE_MASK | R_ATTILA_STATUS_ERROR_MASK), ==,
                     R_ATTILA_STATUS_IDLE_MASK);
    g_assert_false(attila_irq_level(d->c));
    /* accesses that are not 32-bit aligned words are logged and ignored */
    g_assert_cmpuint(attila_reg_read(d->c, A_ATTILA_ID, 2), ==, 0);
    g_assert_cmpuint(attila_reg_read(d->c, A_ATTILA_ID + 1, 4), ==, 0);
    g_assert_cmpuint(attila_reg_read(d->c, ATTILA_BAR0_SIZE, 4), ==, 0);
    attila_reg_write(d->c, A_ATTILA_RING_BASE, 0x1234, 1);
    g_assert_cmpuint(rd(d, A_ATTILA_RING_BASE), ==, 0);
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, logs + 4);
    /* an unassigned offset reads 0 */
    g_assert_cmpuint(rd(d, 0x0ffc), ==, 0);
    dev_free(d);
}

static void test_regfile_window(void)
{
    Dev *d = dev_new();
    unsigned errors = 0, logs = g3d_log_count(G3D_LOG_GUEST_ERROR);
    AttilaTransaction t = { .kind = ATTILA_AGP_REG_WRITE,
                            .reg = ATTILA_REG_VERTEX_CONSTANT, .index = 300 };
    float f[4] = { 1.5f, -2, 3, 4 };

    reg_write(d, ATTILA_REG_VIEWPORT_WIDTH, 0, 321);
    g_assert_cmpuint(rd(d, ATTILA_REGFILE + 16 * ATTILA_REG_VIEWPORT_WIDTH), ==,
                     321);
    /* indirect: element 5 of the stream addresses, a 16-byte constant */
    reg_write(d, ATTILA_REG_STREAM_ADDRESS, 5, 0xabcd00);
    wr(d, A_ATTILA_REGFILE_SELECT, ATTILA_REG_STREAM_ADDRESS | 5 << 8);
    g_assert_cmphex(rd(d, A_ATTILA_REGFILE_DATA0), ==, 0xabcd00);
    memcpy(t.value, f, 16);
    exec(d, &t);
    wr(d, A_ATTILA_REGFILE_SELECT, ATTILA_REG_VERTEX_CONSTANT | 300 << 8);
    g_assert_cmphex(rd(d, A_ATTILA_REGFILE_DATA1), ==, 0xc0000000u);   /* -2.0f */
    g_assert_cmphex(rd(d, A_ATTILA_REGFILE_DATA3), ==, 0x40800000u);   /* 4.0f */
    /* a selection out of range reads 0 and is an error */
    wr(d, A_ATTILA_REGFILE_SELECT, ATTILA_REG_STREAM_ADDRESS | 40 << 8);
    expect_error(d, &errors, &logs, ATTILA_ERR_SUBINDEX,
                 ATTILA_REG_STREAM_ADDRESS | 40 << 8);
    g_assert_cmpuint(rd(d, A_ATTILA_REGFILE_DATA0), ==, 0);
    dev_free(d);
}

/* ---- bad transactions ------------------------------------------------------ */

/*
 * The register table (gpu-registers.c) has a row for every GPURegister id
 * of attila-regs.h, each at the index of the symbol it names.
 */
static void test_register_names(void)
{
    static const struct { uint32_t id; const char *name; } some[] = {
        { ATTILA_REG_STATUS, "STATUS" },
        { ATTILA_REG_USER_CLIP_PLANE, "USER_CLIP_PLANE" },
        { ATTILA_REG_LAST_GEOMETRY_REGISTER, "LAST_GEOMETRY_REGISTER" },
        { ATTILA_REG_FRAGMENT_CONSTANT, "FRAGMENT_CONSTANT" },
        { ATTILA_REG_SHADER_PROGRAM_LOAD_PC, "SHADER_PROGRAM_LOAD_PC" },
        { ATTILA_REG_TEXTURE_ADDRESS, "TEXTURE_ADDRESS" },
        { ATTILA_REG_BLIT_DST_TX_BLOCK, "BLIT_DST_TX_BLOCK" },
    };
    uint32_t id;
    unsigned i;

    for (id = 0; id < ATTILA_REG_LAST_REGISTER; id++) {
        g_assert_cmpstr(attila_reg_name(id), !=, "?");
        g_assert_cmpuint(strlen(attila_reg_name(id)), >, 0);
    }
    g_assert_cmpstr(attila_reg_name(ATTILA_REG_LAST_REGISTER), ==, "?");
    for (i = 0; i < G_N_ELEMENTS(some); i++) {
        g_assert_cmpstr(attila_reg_name(some[i].id), ==, some[i].name);
    }
}

static void test_bad_transactions(void)
{
    Dev *d = dev_new();
    unsigned errors = 0, logs = g3d_log_count(G3D_LOG_GUEST_ERROR);
    static const uint8_t data[16] = { 0xAA, 0xBB, 0xCC, 0xDD };
    uint8_t *end = d->run->gpu + d->run->gpu_size - 16;
    AttilaTransaction t;
    uint32_t vpw = 77;

    reg_write(d, ATTILA_REG_VIEWPORT_WIDTH, 0, vpw);
    g_assert_cmpuint(rd(d, A_ATTILA_ERROR_COUNT), ==, 0);

    /* an unknown transaction kind */
    t = (AttilaTransaction){ .kind = 4 };
    exec(d, &t);
    expect_error(d, &errors, &logs, ATTILA_ERR_RECORD_KIND, 4);

    /* register id out of range, and a read-only / marker register */
    reg_write(d, 200, 0, 5);
    expect_error(d, &errors, &logs, ATTILA_ERR_REGISTER, 200);
    reg_write(d, ATTILA_REG_LAST_REGISTER, 0, 5);
    expect_error(d, &errors, &logs, ATTILA_ERR_REGISTER, ATTILA_REG_LAST_REGISTER);

    /* sub-index out of range: 32 streams, 16 textures, 512 constants */
    reg_write(d, ATTILA_REG_STREAM_ADDRESS, ATTILA_MAX_STREAM_BUFFERS, 0x1000);
    expect_error(d, &errors, &logs, ATTILA_ERR_SUBINDEX,
                 ATTILA_REG_STREAM_ADDRESS | ATTILA_MAX_STREAM_BUFFERS << 8);
    reg_write(d, ATTILA_REG_VIEWPORT_WIDTH, 1, 10);
    expect_error(d, &errors, &logs, ATTILA_ERR_SUBINDEX,
                 ATTILA_REG_VIEWPORT_WIDTH | 1 << 8);
    reg_write(d, ATTILA_REG_VERTEX_CONSTANT, 512, 10);
    expect_error(d, &errors, &logs, ATTILA_ERR_SUBINDEX,
                 ATTILA_REG_VERTEX_CONSTANT | 512 << 8);

    /* values out of range: an enum, the sample count, a program pc */
    reg_write(d, ATTILA_REG_PRIMITIVE, 0, 99);
    expect_error(d, &errors, &logs, ATTILA_ERR_VALUE, ATTILA_REG_PRIMITIVE);
    reg_write(d, ATTILA_REG_MSAA_SAMPLES, 0, 3);
    expect_error(d, &errors, &logs, ATTILA_ERR_VALUE, ATTILA_REG_MSAA_SAMPLES);
    reg_write(d, ATTILA_REG_VERTEX_PROGRAM_PC, 0, ATTILA_INSTRUCTION_MEMORY);
    expect_error(d, &errors, &logs, ATTILA_ERR_VALUE,
                 ATTILA_REG_VERTEX_PROGRAM_PC);
    /* nothing refused was stored */
    g_assert_cmpuint(rd(d, ATTILA_REGFILE + 16 * ATTILA_REG_VIEWPORT_WIDTH), ==,
                     vpw);
    g_assert_cmpuint(rd(d, ATTILA_REGFILE + 16 * ATTILA_REG_MSAA_SAMPLES), ==, 1);

    /* a WRITE running past the end of GPU memory: nothing written */
    t = (AttilaTransaction){ .kind = ATTILA_AGP_WRITE,
                             .address = (uint32_t)d->run->gpu_size - 8,
                             .size = 16, .data = data };
    exec(d, &t);
    expect_error(d, &errors, &logs, ATTILA_ERR_ADDRESS, t.address);
    g_assert_cmpuint(end[8], ==, 0);
    /* beyond GPU memory altogether, and a PRELOAD whose size wraps */
    t.address = 0x7ffffff0u;
    exec(d, &t);
    expect_error(d, &errors, &logs, ATTILA_ERR_ADDRESS, t.address);
    t.kind = ATTILA_AGP_PRELOAD;
    t.address = 0x10;
    t.size = 0xfffffff8u;
    exec(d, &t);
    expect_error(d, &errors, &logs, ATTILA_ERR_ADDRESS, 0x10);
    /* system memory (bit 31) with the window closed */
    wr(d, A_ATTILA_SYSMEM_SIZE, 0);
    t = (AttilaTransaction){ .kind = ATTILA_AGP_WRITE, .address = 0x80000000u,
                             .size = 4, .data = data };
    exec(d, &t);
    expect_error(d, &errors, &logs, ATTILA_ERR_ADDRESS, 0x80000000u);
    g_assert_cmpuint(d->run->sys[0], ==, 0);
    /* the same write inside the open window lands */
    wr(d, A_ATTILA_SYSMEM_SIZE, 16u << 20);
    exec(d, &t);
    g_assert_cmpuint(d->run->sys[0], ==, 0xAA);

    /* unknown commands and events */
    command(d, ATTILA_CMD_COUNT);
    expect_error(d, &errors, &logs, ATTILA_ERR_COMMAND, ATTILA_CMD_COUNT);
    command(d, 0xffffffffu);
    expect_error(d, &errors, &logs, ATTILA_ERR_COMMAND, 0xffffffffu);
    t = (AttilaTransaction){ .kind = ATTILA_AGP_EVENT, .event = 99 };
    exec(d, &t);
    expect_error(d, &errors, &logs, ATTILA_ERR_VALUE, 99);

    /* a program load from outside memory */
    reg_write(d, ATTILA_REG_VERTEX_PROGRAM, 0, 0x7fffff00u);
    reg_write(d, ATTILA_REG_VERTEX_PROGRAM_SIZE, 0, 0x1000);
    command(d, ATTILA_CMD_LOAD_VERTEX_PROGRAM);
    g_assert_cmpuint(rd(d, A_ATTILA_STATUS) & R_ATTILA_STATUS_ERROR_MASK, !=, 0);
    g_assert_cmpuint(rd(d, A_ATTILA_ERROR_COUNT), ==, ++errors);

    /* the device is still usable: a good register write works */
    wr(d, A_ATTILA_CONTROL, R_ATTILA_CONTROL_ERROR_CLEAR_MASK);
    reg_write(d, ATTILA_REG_VIEWPORT_WIDTH, 0, 99);
    g_assert_cmpuint(rd(d, ATTILA_REGFILE + 16 * ATTILA_REG_VIEWPORT_WIDTH), ==, 99);
    g_assert_cmpuint(rd(d, A_ATTILA_STATUS) & R_ATTILA_STATUS_ERROR_MASK, ==, 0);
    dev_free(d);
}

/* ---- a draw with no program, then recovery by reset ----------------------- */

static bool skip_programs(const AttilaTransaction *t)
{
    return t->kind == ATTILA_AGP_COMMAND &&
           (t->command == ATTILA_CMD_LOAD_VERTEX_PROGRAM ||
            t->command == ATTILA_CMD_LOAD_FRAGMENT_PROGRAM);
}

/* run the triangle trace, optionally without its program loads */
static void run_triangle(Dev *d, bool without_programs, G3DImage *img)
{
    char *path = attila_corpus_path("triangle", "attila.tracefile.gz");
    AttilaTrace *tr = attila_trace_open(path, NULL);
    AttilaTransaction t;

    g_assert_nonnull(tr);
    while (attila_trace_next(tr, &t, NULL) > 0) {
        if (without_programs && skip_programs(&t)) {
            continue;
        }
        attila_core_execute(d->c, &t);
    }
    g_assert_true(attila_run_capture(d->run, img));
    attila_trace_close(tr);
    g_free(path);
}

static void test_draw_without_program(void)
{
    Dev *d = dev_new();
    unsigned logs = g3d_log_count(G3D_LOG_GUEST_ERROR);
    char *refpath = attila_corpus_reference(&attila_corpus[0]);
    G3DImage img = { 0 }, ref = { 0 };
    G3DImageDiff diff;
    long i, n, clear = 0;

    run_triangle(d, true, &img);
    g_assert_cmpuint(rd(d, A_ATTILA_STATUS) & R_ATTILA_STATUS_ERROR_MASK, !=, 0);
    g_assert_cmpuint(rd(d, A_ATTILA_ERROR_CODE), ==, ATTILA_ERR_DRAW);
    g_assert_cmpuint(rd(d, A_ATTILA_ERROR_INFO), ==, ATTILA_REG_VERTEX_PROGRAM_PC);
    g_assert_cmpuint(rd(d, A_ATTILA_ERROR_COUNT), ==, 1);
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, logs + 1);
    /* the draw was skipped, the rest of the trace ran: the clear colour */
    g_assert_cmpuint(rd(d, A_ATTILA_FRAME), ==, 1);
    n = (long)img.width * img.height;
    for (i = 0; i < n; i++) {
        clear += !memcmp(img.rgb + 3 * i, img.rgb, 3);
    }
    g_assert_cmpint(clear, ==, n);
    g3d_image_free(&img);

    /* CONTROL.RESET: a clean device, and the full trace renders exactly */
    wr(d, A_ATTILA_CONTROL, R_ATTILA_CONTROL_RESET_MASK);
    g_assert_cmpuint(rd(d, A_ATTILA_STATUS) & R_ATTILA_STATUS_ERROR_MASK, ==, 0);
    g_assert_cmpuint(rd(d, A_ATTILA_ERROR_COUNT), ==, 0);
    g_assert_cmpuint(rd(d, A_ATTILA_FRAME), ==, 0);
    g_assert_false(attila_run_capture(d->run, &img));   /* nothing shown */
    wr(d, A_ATTILA_SYSMEM_SIZE, 16u << 20);
    run_triangle(d, false, &img);
    g_assert_cmpuint(rd(d, A_ATTILA_ERROR_COUNT), ==, 0);
    g_assert_true(g3d_image_load(&ref, refpath));
    g_assert_true(g3d_image_compare(&img, &ref, &diff));
    g_test_message("triangle after reset: PSNR %.2f dB, %ld differing pixels",
                   diff.psnr, diff.differing);
    g_assert_cmpint(diff.differing, ==, 0);
    g3d_image_free(&img);
    g3d_image_free(&ref);
    g_free(refpath);
    dev_free(d);
}

/* ---- a draw that would run too long ---------------------------------------- */

static void load_program(Dev *d, uint32_t at, uint32_t n, uint32_t pc,
                         bool vertex)
{
    uint8_t *code = g_malloc0(16 * n);
    AttilaTransaction w = { .kind = ATTILA_AGP_WRITE, .address = at,
                            .size = 16 * n, .data = code };

    /* n - 1 NOPs, then END with the end flag (attila-sim
     * ShaderInstruction.cpp) */
    code[16 * (n - 1)] = ATTILA_SH_END;
    code[16 * (n - 1) + 1] = 1;
    exec(d, &w);
    reg_write(d, vertex ? ATTILA_REG_VERTEX_PROGRAM : ATTILA_REG_FRAGMENT_PROGRAM,
              0, at);
    reg_write(d, vertex ? ATTILA_REG_VERTEX_PROGRAM_SIZE :
              ATTILA_REG_FRAGMENT_PROGRAM_SIZE, 0, 16 * n);
    reg_write(d, vertex ? ATTILA_REG_VERTEX_PROGRAM_PC :
              ATTILA_REG_FRAGMENT_PROGRAM_PC, 0, pc);
    command(d, vertex ? ATTILA_CMD_LOAD_VERTEX_PROGRAM :
            ATTILA_CMD_LOAD_FRAGMENT_PROGRAM);
    g_free(code);
}

static void test_draw_work_limit(void)
{
    Dev *d = dev_new();
    gint64 t0;

    /* 4,001 instructions per vertex: 70,000 vertices is over 2^28 */
    load_program(d, 0x10000, 4001, 0, true);
    load_program(d, 0x30000, 1, 4090, false);
    g_assert_cmpuint(rd(d, A_ATTILA_ERROR_COUNT), ==, 0);
    reg_write(d, ATTILA_REG_INDEX_MODE, 0, 0);     /* every vertex shaded */
    reg_write(d, ATTILA_REG_STREAM_COUNT, 0, 70000);
    t0 = g_get_monotonic_time();
    command(d, ATTILA_CMD_DRAW);
    g_test_message("stopped after %.2f s",
                   (g_get_monotonic_time() - t0) / 1e6);
    g_assert_cmpuint(rd(d, A_ATTILA_ERROR_CODE), ==, ATTILA_ERR_DRAW);
    g_assert_cmpuint(rd(d, A_ATTILA_ERROR_INFO), ==, ATTILA_REG_STREAM_COUNT);
    g_assert_cmpuint(rd(d, A_ATTILA_ERROR_COUNT), ==, 1);
    /* a draw of 60,000 of them is within the limit */
    wr(d, A_ATTILA_CONTROL, R_ATTILA_CONTROL_ERROR_CLEAR_MASK);
    reg_write(d, ATTILA_REG_STREAM_COUNT, 0, 60000);
    command(d, ATTILA_CMD_DRAW);
    g_assert_cmpuint(rd(d, A_ATTILA_ERROR_COUNT), ==, 1);
    dev_free(d);
}

/* ---- the ring ---------------------------------------------------------------- */

#define RING_AT 0x00100000u     /* in GPU memory */
#define RING_SIZE 4096u

typedef struct Ring {
    Dev *d;
    uint32_t wp;
} Ring;

static void ring_start(Ring *r, Dev *d)
{
    r->d = d;
    r->wp = 0;
    wr(d, A_ATTILA_RING_BASE, RING_AT);
    wr(d, A_ATTILA_RING_SIZE, RING_SIZE);
    wr(d, A_ATTILA_RING_CONTROL, R_ATTILA_RING_CONTROL_ENABLE_MASK);
}

static void ring_put_bytes(Ring *r, const uint8_t *p, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        r->d->run->gpu[RING_AT + r->wp] = p[i];
        r->wp = (r->wp + 1) % RING_SIZE;
    }
}

static void ring_put(Ring *r, const AttilaTransaction *t)
{
    uint8_t rec[256];

    ring_put_bytes(r, rec, attila_agp_encode(t, rec));
}

static void ring_kick(Ring *r)
{
    int guard = 0;

    wr(r->d, A_ATTILA_RING_WRITE, r->wp);
    wr(r->d, A_ATTILA_DOORBELL, 1);
    while (attila_core_work(r->d->c, 3)) {
        g_assert_cmpint(++guard, <, 10000);
    }
}

static void test_ring_errors(void)
{
    Dev *d = dev_new();
    unsigned errors = 0, logs = g3d_log_count(G3D_LOG_GUEST_ERROR);
    AttilaTransaction vp = { .kind = ATTILA_AGP_REG_WRITE,
                             .reg = ATTILA_REG_VIEWPORT_WIDTH, .value = { 42 } };
    AttilaTransaction bad = { .kind = ATTILA_AGP_REG_WRITE, .reg = 250 };
    uint8_t junk[8] = { 6, 0, 0, 0, 1, 2, 3, 4 };   /* kind 6 */
    uint8_t rec[64];
    uint32_t records;
    Ring r;
    size_t n;

    /* ring registers out of range */
    wr(d, A_ATTILA_RING_SIZE, 10);
    expect_error(d, &errors, &logs, ATTILA_ERR_RING, A_ATTILA_RING_SIZE);
    wr(d, A_ATTILA_RING_SIZE, RING_SIZE);
    wr(d, A_ATTILA_RING_WRITE, RING_SIZE);
    expect_error(d, &errors, &logs, ATTILA_ERR_RING, A_ATTILA_RING_WRITE);

    /* a register id out of range in the ring: that record is skipped */
    ring_start(&r, d);
    ring_put(&r, &bad);
    ring_put(&r, &vp);
    ring_kick(&r);
    expect_error(d, &errors, &logs, ATTILA_ERR_REGISTER, 250);
    g_assert_cmpuint(rd(d, ATTILA_REGFILE + 16 * ATTILA_REG_VIEWPORT_WIDTH), ==, 42);

    /* an unknown kind: the rest of the ring cannot be framed, it is dropped */
    vp.value[0] = 43;
    ring_put_bytes(&r, junk, sizeof(junk));
    ring_put(&r, &vp);
    ring_kick(&r);
    expect_error(d, &errors, &logs, ATTILA_ERR_RECORD_KIND, 6);
    g_assert_cmpuint(rd(d, A_ATTILA_RING_READ), ==, rd(d, A_ATTILA_RING_WRITE));
    g_assert_cmpuint(rd(d, ATTILA_REGFILE + 16 * ATTILA_REG_VIEWPORT_WIDTH), ==, 42);
    /* ... and the ring goes on with what the guest writes next */
    ring_put(&r, &vp);
    ring_kick(&r);
    g_assert_cmpuint(rd(d, ATTILA_REGFILE + 16 * ATTILA_REG_VIEWPORT_WIDTH), ==, 43);

    /* a record published in two halves runs only once complete */
    vp.value[0] = 44;
    n = attila_agp_encode(&vp, rec);
    records = rd(d, A_ATTILA_RECORDS);
    ring_put_bytes(&r, rec, 10);
    ring_kick(&r);
    g_assert_cmpuint(rd(d, A_ATTILA_RECORDS), ==, records);
    g_assert_cmpuint(rd(d, A_ATTILA_STATUS) & R_ATTILA_STATUS_IDLE_MASK, ==, 0);
    ring_put_bytes(&r, rec + 10, n - 10);
    ring_kick(&r);
    g_assert_cmpuint(rd(d, A_ATTILA_RECORDS), ==, records + 1);
    g_assert_cmpuint(rd(d, ATTILA_REGFILE + 16 * ATTILA_REG_VIEWPORT_WIDTH), ==, 44);
    g_assert_cmpuint(rd(d, A_ATTILA_STATUS) & R_ATTILA_STATUS_IDLE_MASK, !=, 0);

    /* a WRITE larger than the ring can ever hold */
    {
        AttilaTransaction w = { .kind = ATTILA_AGP_WRITE, .address = 0,
                                .size = 1u << 20, .data = NULL };
        uint8_t hdr[ATTILA_REC_WRITE_HDR];
        static const uint8_t zero = 0;
        w.size = 0;
        w.data = &zero;
        attila_agp_encode(&w, hdr);
        hdr[13] = 0;
        hdr[14] = 0;
        hdr[15] = 0x10;                 /* 1 MiB of data */
        ring_put_bytes(&r, hdr, sizeof(hdr));
        ring_kick(&r);
        expect_error(d, &errors, &logs, ATTILA_ERR_RECORD_SIZE,
                     ATTILA_REC_WRITE_HDR + (1u << 20));
    }

    /* a ring outside memory is refused when the device looks at it */
    wr(d, A_ATTILA_RING_BASE, (uint32_t)d->run->gpu_size - 100);
    wr(d, A_ATTILA_RING_CONTROL, R_ATTILA_RING_CONTROL_ENABLE_MASK);
    wr(d, A_ATTILA_RING_WRITE, 8);
    g_assert_false(attila_core_work(d->c, 16));
    expect_error(d, &errors, &logs, ATTILA_ERR_RING, (uint32_t)d->run->gpu_size - 100);
    g_assert_cmpuint(rd(d, A_ATTILA_RING_CONTROL), ==, 0);
    dev_free(d);
}

/* ---- events, fences, interrupts -------------------------------------------- */

static void irq_changed(void *opaque)
{
    ((Dev *)opaque)->irq_updates++;
}

static void test_fence_irq(void)
{
    Dev *d = g_new0(Dev, 1);
    static uint8_t gpu[1 << 20], sys[4096];
    G3DFlatMem gf, sf;
    AttilaCoreConfig cfg = { .vram_size = sizeof(gpu), .hooks.threads = 1,
                             .hooks.irq_update = irq_changed };
    static const uint8_t fence[4] = { 0x78, 0x56, 0x34, 0x12 };
    AttilaTransaction ev = { .kind = ATTILA_AGP_EVENT,
                             .event = ATTILA_EVENT_UNNAMED, .size = 4,
                             .data = fence };
    AttilaTransaction eof = { .kind = ATTILA_AGP_EVENT,
                              .event = ATTILA_EVENT_END_OF_FRAME };

    cfg.hooks.opaque = d;
    g3d_flat_mem_init(&cfg.vram, &gf, gpu, 0, sizeof(gpu));
    g3d_flat_mem_init(&cfg.sys, &sf, sys, 0, sizeof(sys));
    d->c = attila_core_new(&cfg);

    exec(d, &eof);
    g_assert_cmpuint(rd(d, A_ATTILA_EVENT_COUNT), ==, 1);
    g_assert_cmpuint(rd(d, A_ATTILA_FENCE), ==, 0);
    g_assert_cmpuint(rd(d, A_ATTILA_INT_STATUS), ==, R_ATTILA_INT_EVENT_MASK);
    g_assert_false(attila_irq_level(d->c));         /* masked */
    wr(d, A_ATTILA_INT_MASK, R_ATTILA_INT_FENCE_MASK);
    g_assert_false(attila_irq_level(d->c));

    exec(d, &ev);
    g_assert_cmphex(rd(d, A_ATTILA_FENCE), ==, 0x12345678);
    g_assert_cmpuint(rd(d, A_ATTILA_LAST_EVENT), ==, ATTILA_EVENT_UNNAMED);
    g_assert_cmpuint(rd(d, A_ATTILA_EVENT_COUNT), ==, 2);
    g_assert_true(attila_irq_level(d->c));
    g_assert_cmpint(d->irq_updates, >=, 1);
    /* write-1-to-clear */
    wr(d, A_ATTILA_INT_STATUS, R_ATTILA_INT_FENCE_MASK);
    g_assert_false(attila_irq_level(d->c));
    g_assert_cmpuint(rd(d, A_ATTILA_INT_STATUS), ==, R_ATTILA_INT_EVENT_MASK);

    /* errors can interrupt too */
    wr(d, A_ATTILA_INT_MASK, R_ATTILA_INT_ERROR_MASK);
    command(d, 77);
    g_assert_true(attila_irq_level(d->c));
    wr(d, A_ATTILA_CONTROL, R_ATTILA_CONTROL_RESET_MASK);
    g_assert_false(attila_irq_level(d->c));
    g_assert_cmpuint(rd(d, A_ATTILA_INT_MASK), ==, 0);
    attila_core_free(d->c);
    g_free(d);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/attila/device/bar0", test_bar0);
    g_test_add_func("/attila/device/regfile-window", test_regfile_window);
    g_test_add_func("/attila/device/register-names", test_register_names);
    g_test_add_func("/attila/device/bad-transactions", test_bad_transactions);
    g_test_add_func("/attila/device/draw-without-program",
                    test_draw_without_program);
    g_test_add_func("/attila/device/draw-work-limit", test_draw_work_limit);
    g_test_add_func("/attila/device/ring-errors", test_ring_errors);
    g_test_add_func("/attila/device/fence-irq", test_fence_irq);
    return g_test_run();
}
