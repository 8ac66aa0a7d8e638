/*
 * The ATTILA Command Processor: executes AGP transactions (memory writes,
 * register writes, commands, events) in order, from the device's command
 * ring or from a host tool. The BAR0 registers and the core's life are in
 * attila-core.c, the memory it reaches in core-services.c, the draw-state
 * snapshot in draw-state.c.
 *
 * Commands (ATTILA ref. GPU Commands) and what this core does with them:
 *   RESET                      register file to its reset values (2.4)
 *   DRAW                       the whole pipeline (streamer .. color write)
 *   SWAPBUFFERS                front/back exchange, new picture on screen
 *   DUMPCOLOR/DEPTH/STENCIL    simulator debug file dumps: logged, no effect
 *   BLIT                       back buffer rectangle to a texture
 *   CLEARBUFFERS, CLEARZBUFFER not implemented by the simulator; done here
 *                              as the obvious full clears (docs/attila-3d.md)
 *   CLEARZSTENCILBUFFER, CLEARCOLORBUFFER   full writes of the clear values
 *   LOAD_VERTEX/FRAGMENT/SHADER_PROGRAM     copy + decode into the shader
 *                              instruction memory
 *   FLUSH*, SAVE/RESTORE/RESET_*_STATE      no block compression or caches
 *                              are modelled, so these have nothing to do
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "attila-int.h"

#include <glib.h>

/* ---- shader program loads ---------------------------------------------- */

/* a program load command: registers holding address, size (bytes), pc */
static void load_program(AttilaCore *c, const char *what, int addr_reg,
                         int reg, int pc_reg)
{
    uint32_t addr = attila_rf_u32(c, addr_reg, 0);
    uint32_t size = attila_rf_u32(c, reg, 0);
    uint32_t pc = attila_rf_u32(c, pc_reg, 0);
    uint32_t n, i;
    uint8_t *code;

    if (size % ATTILA_SH_INSTR_SIZE) {
        g3d_error(&c->errors, ATTILA_ERR_VALUE, reg,
                  "%s: size %u is not a multiple of 16", what, size);
        return;
    }
    n = size / ATTILA_SH_INSTR_SIZE;
    if (pc >= ATTILA_INSTRUCTION_MEMORY || n > ATTILA_INSTRUCTION_MEMORY - pc) {
        g3d_error(&c->errors, ATTILA_ERR_VALUE, reg,
                  "%s: %u instructions at pc %u overflow the %u-entry "
                  "instruction memory", what, n, pc,
                  ATTILA_INSTRUCTION_MEMORY);
        return;
    }
    if (n == 0) {
        return;
    }
    code = g_malloc(size);
    if (!attila_mem_read(c, addr, code, size)) {
        g3d_error(&c->errors, ATTILA_ERR_ADDRESS, addr,
                  "%s: program at 0x%08x + %u outside memory", what, addr,
                  size);
        g_free(code);
        return;
    }
    for (i = 0; i < n; i++) {
        memcpy(c->imem_raw[pc + i], code + i * ATTILA_SH_INSTR_SIZE,
               ATTILA_SH_INSTR_SIZE);
        /* an invalid encoding is kept and reported if it is executed */
        attila_shader_decode(c->imem_raw[pc + i], &c->imem[pc + i]);
    }
    g_free(code);
}

/* ---- GPU_DRAW ----------------------------------------------------------- */

void attila_draw(AttilaCore *c)
{
    /* not the draw state a batch in flight reads (the pipeline) */
    AttilaDrawState *ds = c->ds[c->ds[0] == attila_raster_busy(c->raster)];

    if (!attila_draw_state_build(c, ds)) {
        return;
    }
    if (ds->count == 0 || ds->instances == 0) {
        return;
    }
    c->gpu_status = ATTILA_ST_DRAWING;
    attila_streamer_draw(c, ds);
    c->gpu_status = ATTILA_ST_READY;
}

/* ---- commands ----------------------------------------------------------- */

const char *attila_command_name(uint32_t cmd)
{
    static const char *const names[ATTILA_CMD_COUNT] = {
        "GPU_RESET", "GPU_DRAW", "GPU_SWAPBUFFERS", "GPU_DUMPCOLOR",
        "GPU_DUMPDEPTH", "GPU_DUMPSTENCIL", "GPU_BLIT", "GPU_CLEARBUFFERS",
        "GPU_CLEARZBUFFER", "GPU_CLEARZSTENCILBUFFER", "GPU_CLEARCOLORBUFFER",
        "GPU_LOAD_VERTEX_PROGRAM", "GPU_LOAD_FRAGMENT_PROGRAM",
        "GPU_LOAD_SHADER_PROGRAM", "GPU_FLUSHZSTENCIL", "GPU_FLUSHCOLOR",
        "GPU_SAVE_COLOR_STATE", "GPU_RESTORE_COLOR_STATE",
        "GPU_SAVE_ZSTENCIL_STATE", "GPU_RESTORE_ZSTENCIL_STATE",
        "GPU_RESET_COLOR_STATE", "GPU_RESET_ZSTENCIL_STATE",
    };
    return cmd < ATTILA_CMD_COUNT ? names[cmd] : "?";
}

static void swap_buffers(AttilaCore *c)
{
    uint32_t front = attila_rf_u32(c, ATTILA_REG_FRONTBUFFER_ADDR, 0);
    uint32_t back = attila_rf_u32(c, ATTILA_REG_BACKBUFFER_ADDR, 0);

    /*
     * The DAC shows the buffer just rendered (RT0); then the front and back
     * addresses are exchanged and RT0 follows the new back buffer (ATTILA ref.
     * GPU Commands, GPU_SWAPBUFFERS).
     */
    c->display.valid = true;
    c->display.address = attila_rf_u32(c, ATTILA_REG_RENDER_TARGET_ADDRESS, 0);
    c->display.width = attila_rf_u32(c, ATTILA_REG_DISPLAY_X_RES, 0);
    c->display.height = attila_rf_u32(c, ATTILA_REG_DISPLAY_Y_RES, 0);
    c->display.format = attila_rf_u32(c, ATTILA_REG_RENDER_TARGET_FORMAT, 0);
    c->display.samples = attila_samples(c);
    c->display.d3d9_pixel = attila_rf_bool(c, ATTILA_REG_D3D9_PIXEL_COORDINATES,
                                           0);
    attila_dac_latch(c);
    c->rf[ATTILA_REG_FRONTBUFFER_ADDR][0].u[0] = back;
    c->rf[ATTILA_REG_BACKBUFFER_ADDR][0].u[0] = front;
    c->rf[ATTILA_REG_RENDER_TARGET_ADDRESS][0].u[0] = front;
    c->frame++;
    attila_irq_raise(c, R_ATTILA_INT_SWAP_MASK);
    if (c->cfg.hooks.display_update) {
        c->cfg.hooks.display_update(c->cfg.hooks.opaque);
    }
}

static void command(AttilaCore *c, uint32_t cmd)
{
    if (cmd != ATTILA_CMD_DRAW) {
        /*
         * Every other command reads or writes what a batch in flight may
         * use (the targets: clears, blits, the DAC at a swap; the
         * constants and the programs: a reset, a program load), or is
         * rare: after the draw's pixels. A draw waits where it first
         * needs the render threads or the batch's buffers (streamer.c).
         */
        attila_core_idle(c);
    }
    switch (cmd) {
    case ATTILA_CMD_RESET:
        attila_gpu_reset_state(c);
        break;
    case ATTILA_CMD_DRAW:
        attila_draw(c);
        break;
    case ATTILA_CMD_SWAPBUFFERS:
        swap_buffers(c);
        break;
    case ATTILA_CMD_DUMPCOLOR:
    case ATTILA_CMD_DUMPDEPTH:
    case ATTILA_CMD_DUMPSTENCIL:
        g3d_unimp("attila-3d: %s (a simulator debug dump) ignored",
                  attila_command_name(cmd));
        break;
    case ATTILA_CMD_BLIT:
        attila_blit(c);
        break;
    case ATTILA_CMD_CLEARBUFFERS:
        attila_clear_color(c);
        attila_clear_zstencil(c, true, true);
        break;
    case ATTILA_CMD_CLEARZBUFFER:
        attila_clear_zstencil(c, true, false);
        break;
    case ATTILA_CMD_CLEARZSTENCILBUFFER:
        attila_clear_zstencil(c, true, true);
        break;
    case ATTILA_CMD_CLEARCOLORBUFFER:
        attila_clear_color(c);
        break;
    case ATTILA_CMD_LOAD_VERTEX_PROGRAM:
        load_program(c, "GPU_LOAD_VERTEX_PROGRAM", ATTILA_REG_VERTEX_PROGRAM,
                     ATTILA_REG_VERTEX_PROGRAM_SIZE, ATTILA_REG_VERTEX_PROGRAM_PC);
        break;
    case ATTILA_CMD_LOAD_FRAGMENT_PROGRAM:
        load_program(c, "GPU_LOAD_FRAGMENT_PROGRAM", ATTILA_REG_FRAGMENT_PROGRAM,
                     ATTILA_REG_FRAGMENT_PROGRAM_SIZE,
                     ATTILA_REG_FRAGMENT_PROGRAM_PC);
        break;
    case ATTILA_CMD_LOAD_SHADER_PROGRAM:
        load_program(c, "GPU_LOAD_SHADER_PROGRAM",
                     ATTILA_REG_SHADER_PROGRAM_ADDRESS,
                     ATTILA_REG_SHADER_PROGRAM_SIZE,
                     ATTILA_REG_SHADER_PROGRAM_LOAD_PC);
        break;
    case ATTILA_CMD_FLUSHZSTENCIL:
    case ATTILA_CMD_FLUSHCOLOR:
    case ATTILA_CMD_SAVE_COLOR_STATE:
    case ATTILA_CMD_RESTORE_COLOR_STATE:
    case ATTILA_CMD_SAVE_ZSTENCIL_STATE:
    case ATTILA_CMD_RESTORE_ZSTENCIL_STATE:
    case ATTILA_CMD_RESET_COLOR_STATE:
    case ATTILA_CMD_RESET_ZSTENCIL_STATE:
        /* no caches and no block compression state: nothing to do */
        break;
    default:
        g3d_error(&c->errors, ATTILA_ERR_COMMAND, cmd, "unknown command %u", cmd);
        return;
    }
    if (c->gpu_status == ATTILA_ST_RESET) {
        c->gpu_status = ATTILA_ST_READY;
    }
}

static void event(AttilaCore *c, const AttilaTransaction *t)
{
    uint32_t bits = R_ATTILA_INT_EVENT_MASK;

    if (t->event >= ATTILA_EVENT_COUNT) {
        g3d_error(&c->errors, ATTILA_ERR_VALUE, t->event, "unknown event %u",
                  t->event);
        return;
    }
    c->event_count++;
    c->last_event = t->event;
    if (t->event == ATTILA_EVENT_UNNAMED && t->size == 4) {
        /* our fence: an unnamed event with a 4-byte message */
        c->fence = t->data[0] | t->data[1] << 8 | t->data[2] << 16 |
                   (uint32_t)t->data[3] << 24;
        bits |= R_ATTILA_INT_FENCE_MASK;
    }
    attila_irq_raise(c, bits);
}

/*
 * Does a memory write reach what the batch in flight reads or writes? The
 * next draw's vertex and index data, which drivers write right before it,
 * usually do not: the command processor goes on while the helpers draw.
 * A write that is not one mapped block (or outside memory) waits.
 */
static bool agp_write_reaches(AttilaCore *c, const AttilaTransaction *t)
{
    const AttilaDrawState *ds = attila_raster_busy(c->raster);
    const uint8_t *p;

    if (!ds || t->size == 0) {
        return false;
    }
    p = attila_mem_map(c, t->address, t->size, true);
    return !p || attila_draw_state_reaches(ds, p, t->size);
}

void attila_core_execute(AttilaCore *c, const AttilaTransaction *t)
{
    c->records++;
    /*
     * The pipeline's ordering (docs/performance.md, branch thr17): a
     * record that writes what a batch in flight reads waits for it, so
     * its effect lands after every pixel of the draws before it. The
     * batch reads guest memory (textures, targets, z: an AGP write that
     * reaches them waits), the fragment constants and the instruction memory
     * (through the core, not the draw state's snapshot), and an event
     * (a fence) tells the guest that the draws before it are done. Other
     * register writes go to the register file, which only the command
     * processor reads: the draw state is a snapshot of it.
     */
    if (t->kind == ATTILA_AGP_EVENT ||
        (t->kind == ATTILA_AGP_REG_WRITE &&
         t->reg == ATTILA_REG_FRAGMENT_CONSTANT) ||
        ((t->kind == ATTILA_AGP_WRITE || t->kind == ATTILA_AGP_PRELOAD) &&
         agp_write_reaches(c, t))) {
        attila_core_idle(c);
    }
    switch (t->kind) {
    case ATTILA_AGP_WRITE:
    case ATTILA_AGP_PRELOAD:
        if (t->size && !attila_mem_write(c, t->address, t->data, t->size)) {
            g3d_error(&c->errors, ATTILA_ERR_ADDRESS, t->address,
                      "%s of %u bytes at 0x%08x outside memory",
                      t->kind == ATTILA_AGP_WRITE ? "AGP_WRITE" :
                      "AGP_PRELOAD", t->size, t->address);
        }
        break;
    case ATTILA_AGP_REG_WRITE:
        attila_register_write(c, t->reg, t->index, t->value);
        break;
    case ATTILA_AGP_COMMAND:
        command(c, t->command);
        break;
    case ATTILA_AGP_EVENT:
        event(c, t);
        break;
    default:
        g3d_error(&c->errors, ATTILA_ERR_RECORD_KIND, t->kind,
                  "transaction kind %u cannot be executed", t->kind);
        break;
    }
}

/* ---- the ring ----------------------------------------------------------- */

static uint32_t ring_pending(const AttilaCore *c)
{
    return (c->ring_write + c->ring_size - c->ring_read) % c->ring_size;
}

/* copy len ring bytes from offset off, wrapping at the end */
static bool ring_copy(AttilaCore *c, uint32_t off, uint8_t *dst, uint32_t len)
{
    uint32_t first = MIN(len, c->ring_size - off);

    if (!attila_mem_read(c, c->ring_base + off, dst, first)) {
        return false;
    }
    if (len > first && !attila_mem_read(c, c->ring_base, dst + first,
                                        len - first)) {
        return false;
    }
    return true;
}

static void ring_stop(AttilaCore *c, uint32_t code, uint32_t info,
                      const char *what)
{
    /* nothing in the ring can be trusted to find the next record */
    g3d_error(&c->errors, code, info, "ring: %s; %u pending bytes dropped", what,
              ring_pending(c));
    c->ring_read = c->ring_write;
}

static bool ring_usable(AttilaCore *c)
{
    if (!c->ring_enable || c->ring_size == 0) {
        return false;
    }
    if (c->ring_size < ATTILA_RING_MIN_SIZE || c->ring_size > ATTILA_RING_MAX_SIZE ||
        c->ring_read >= c->ring_size || c->ring_write >= c->ring_size ||
        !attila_mem_map(c, c->ring_base, c->ring_size, false)) {
        g3d_error(&c->errors, ATTILA_ERR_RING, c->ring_base,
                  "ring at 0x%08x size %u unusable (read %u write %u)",
                  c->ring_base, c->ring_size, c->ring_read, c->ring_write);
        c->ring_enable = false;
        return false;
    }
    return true;
}

/* the length of the record at the ring's read pointer, 0 if unknown yet */
static uint64_t ring_record_length(AttilaCore *c, uint32_t pending,
                                   uint32_t *kind)
{
    uint8_t hdr[ATTILA_REC_WRITE_HDR];
    uint32_t want;

    *kind = ~0u;
    if (pending < 4) {
        return 0;
    }
    want = MIN(pending, (uint32_t)sizeof(hdr));
    if (!ring_copy(c, c->ring_read, hdr, want)) {
        return 0;
    }
    *kind = hdr[0] | hdr[1] << 8 | hdr[2] << 16 | (uint32_t)hdr[3] << 24;
    switch (*kind) {
    case ATTILA_AGP_WRITE:
    case ATTILA_AGP_PRELOAD:
        if (want < ATTILA_REC_WRITE_HDR) {
            return 0;
        }
        return ATTILA_REC_WRITE_HDR +
               (uint64_t)(hdr[13] | hdr[14] << 8 | hdr[15] << 16 |
                          (uint32_t)hdr[16] << 24);
    case ATTILA_AGP_REG_WRITE:
        return ATTILA_REC_REG_WRITE;
    case ATTILA_AGP_COMMAND:
        return ATTILA_REC_COMMAND;
    case ATTILA_AGP_EVENT:
        if (want < ATTILA_REC_EVENT_HDR) {
            return 0;
        }
        return ATTILA_REC_EVENT_HDR +
               (uint64_t)(hdr[8] | hdr[9] << 8 | hdr[10] << 16 |
                          (uint32_t)hdr[11] << 24);
    default:
        return UINT64_MAX;      /* not a record kind */
    }
}

static bool work_records(AttilaCore *c, unsigned budget)
{
    unsigned done = 0;

    if (!ring_usable(c)) {
        return false;
    }
    while (done < budget) {
        uint32_t pending = ring_pending(c), kind;
        uint64_t need;
        AttilaTransaction t;
        AttilaParse r;
        size_t used;

        if (g3d_yield()) {
            return false;       /* reset or unplug */
        }
        if (pending == 0) {
            if (done) {
                attila_core_idle(c);    /* the draws' pixels first */
                attila_irq_raise(c, R_ATTILA_INT_IDLE_MASK);
            }
            return false;
        }
        if (g3d_step_end()) {
            return true;        /* the state is being saved: go on later */
        }
        need = ring_record_length(c, pending, &kind);
        if (need == UINT64_MAX) {
            ring_stop(c, ATTILA_ERR_RECORD_KIND, kind, "unknown record kind");
            return false;
        }
        if (need > c->ring_size - 1) {
            ring_stop(c, ATTILA_ERR_RECORD_SIZE, (uint32_t)MIN(need, UINT32_MAX),
                      "record larger than the ring");
            return false;
        }
        if (need == 0 || need > pending) {
            return false;   /* the guest has not written all of it yet */
        }
        if (need > c->stage_cap) {
            c->stage_cap = MAX(need, c->stage_cap * 2);
            c->stage = g_realloc(c->stage, c->stage_cap);
        }
        if (!ring_copy(c, c->ring_read, c->stage, (uint32_t)need)) {
            ring_stop(c, ATTILA_ERR_RING, c->ring_base, "ring unreadable");
            return false;
        }
        c->ring_read = (uint32_t)((c->ring_read + need) % c->ring_size);
        r = attila_agp_parse(c->stage, need, &t, &used);
        if (r == ATTILA_PARSE_OK) {
            c->in_record = true;
            attila_core_execute(c, &t);
            c->in_record = false;
        } else {
            c->records++;
            g3d_error(&c->errors, ATTILA_ERR_REGISTER, t.reg,
                      "ring: REG_WRITE to register id %u out of range",
                      t.reg);
        }
        done++;
    }
    return ring_pending(c) != 0;
}

bool attila_core_work(AttilaCore *c, unsigned budget)
{
    bool more = work_records(c, budget);

    /* a step ends idle: the glue then saves, resets, or reads the
     * guest's memory and the registers with the core left alone */
    attila_core_idle(c);
    return more;
}
