/*
 * The ATTILA Command Processor: executes AGP transactions (memory writes,
 * register writes, commands, events) in order, from the device's command
 * ring or from a host tool, and owns the device's BAR0 registers.
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
#include "attila-internal.h"

#include <glib.h>
#include <stdarg.h>
#include <stdio.h>

#define RING_MIN_SIZE 64u
#define RING_MAX_SIZE (1u << 30)

/* ---- errors ------------------------------------------------------------ */

/* The latch's raise hook: the first error sets STATUS.ERROR and INT.ERROR. */
static void error_raise(void *opaque, bool first)
{
    if (first) {
        attila_irq_raise(opaque, R_ATTILA_INT_ERROR_MASK);
    }
}

void attila_irq_raise(AttilaCore *c, uint32_t bits)
{
    uint32_t old = c->int_status & c->int_mask;

    c->int_status |= bits;
    if ((c->int_status & c->int_mask) != old && c->cfg.irq_update) {
        c->cfg.irq_update(c->cfg.opaque);
    }
}

bool attila_irq_level(AttilaCore *c)
{
    return (c->int_status & c->int_mask) != 0;
}

/* ---- memory (attila-sim MemorySpace.h: bit 31 selects the space) --------- */

#define SPACE_SYSTEM 0x80000000u
#define SPACE_OFFSET 0x7fffffffu

/* Translate an ATTILA range to (memory, host-side address); false if out. */
static bool translate(AttilaCore *c, uint32_t addr, uint64_t len,
                      const G3DMem **mem, uint64_t *out)
{
    uint64_t off = addr & SPACE_OFFSET;

    if (addr & SPACE_SYSTEM) {
        if (!g3d_range_ok(off, len, 0, c->sysmem_size)) {
            return false;
        }
        *mem = &c->cfg.sys_mem;
        *out = c->sysmem_base + off;
        return *out >= c->sysmem_base;      /* no wrap of the 64-bit sum */
    }
    if (!g3d_range_ok(off, len, 0, c->cfg.mem_size)) {
        return false;
    }
    *mem = &c->cfg.gpu_mem;
    *out = off;
    return true;
}

void *attila_mem_map(AttilaCore *c, uint32_t addr, uint64_t len,
                     bool is_write)
{
    const G3DMem *m;
    uint64_t a;

    if (len == 0 || !translate(c, addr, len, &m, &a)) {
        return NULL;
    }
    return g3d_mem_map(m, a, len, is_write);
}

bool attila_mem_read(AttilaCore *c, uint32_t addr, void *buf, uint32_t len)
{
    const G3DMem *m;
    uint64_t a;

    if (!translate(c, addr, len, &m, &a)) {
        return false;
    }
    return g3d_mem_read(m, a, buf, len);
}

bool attila_mem_write(AttilaCore *c, uint32_t addr, const void *buf,
                      uint32_t len)
{
    const G3DMem *m;
    uint64_t a;

    if (!translate(c, addr, len, &m, &a)) {
        return false;
    }
    return g3d_mem_write(m, a, buf, len);
}

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

/* draw limits (docs/attila-3d.md, "Bad input") */
#define MAX_DRAW_COUNT (1u << 18)   /* shaded vertices are kept: 64 MiB */
#define MAX_DRAW_WORK (1u << 24)
/* a program longer than this without an end flag is refused at draw time */
#define MAX_PROGRAM_SCAN 4096

/*
 * Is there a program at pc: valid instructions up to one that ends it?
 * *kills tells whether it can kill (early z is then not used).
 */
static bool program_ok(AttilaCore *c, uint32_t pc, bool *kills)
{
    uint32_t n;

    *kills = false;
    for (n = 0; n < MAX_PROGRAM_SCAN && pc + n < ATTILA_INSTRUCTION_MEMORY; n++) {
        const AttilaShInstr *in = &c->imem[pc + n];
        if (!in->valid) {
            return false;
        }
        if (in->opcode == ATTILA_SH_KIL || in->opcode == ATTILA_SH_KLS ||
            in->opcode == ATTILA_SH_CMPKIL) {
            *kills = true;
        }
        if (in->end || in->opcode == ATTILA_SH_END) {
            return true;
        }
    }
    return false;
}

static uint64_t texture_level_bytes(const AttilaTexState *ts, uint32_t w,
                                    uint32_t h, uint32_t d)
{
    uint64_t plane;

    if (ts->mode == ATTILA_TEX_1D) {
        return (uint64_t)w * ts->bytes;
    }
    if (ts->blocking == ATTILA_TXBLOCK_FRAMEBUFFER) {
        AttilaPixelMapper pm;
        if (!attila_pixel_mapper_init(&pm, w, h, 1, 4)) {
            return 0;
        }
        plane = pm.surface / 4;
    } else {
        plane = attila_texel_offset(w - 1, h - 1, ATTILA_TEX_BLOCK_DIM,
                                    ATTILA_TEX_SBLOCK_DIM,
                                    attila_log2_ceil(w)) + 1ull;
    }
    if (ts->mode == ATTILA_TEX_3D) {
        plane += (uint64_t)(d - 1) * w * h;
    }
    return plane * ts->bytes;
}

static void build_texture(AttilaCore *c, uint32_t u, AttilaTexState *ts)
{
    uint32_t l, f, faces;

    memset(ts, 0, sizeof(*ts));
    ts->enabled = attila_rf_bool(c, ATTILA_REG_TEXTURE_ENABLE, u);
    if (!ts->enabled) {
        return;
    }
    ts->mode = attila_rf_u32(c, ATTILA_REG_TEXTURE_MODE, u);
    ts->format = attila_rf_u32(c, ATTILA_REG_TEXTURE_FORMAT, u);
    ts->compression = attila_rf_u32(c, ATTILA_REG_TEXTURE_COMPRESSION, u);
    ts->blocking = attila_rf_u32(c, ATTILA_REG_TEXTURE_BLOCKING, u);
    ts->width = attila_rf_u32(c, ATTILA_REG_TEXTURE_WIDTH, u);
    ts->height = attila_rf_u32(c, ATTILA_REG_TEXTURE_HEIGHT, u);
    ts->depth = attila_rf_u32(c, ATTILA_REG_TEXTURE_DEPTH, u);
    ts->width2 = attila_rf_u32(c, ATTILA_REG_TEXTURE_WIDTH2, u);
    ts->height2 = attila_rf_u32(c, ATTILA_REG_TEXTURE_HEIGHT2, u);
    ts->depth2 = attila_rf_u32(c, ATTILA_REG_TEXTURE_DEPTH2, u);
    ts->wrap[0] = attila_rf_u32(c, ATTILA_REG_TEXTURE_WRAP_S, u);
    ts->wrap[1] = attila_rf_u32(c, ATTILA_REG_TEXTURE_WRAP_T, u);
    ts->wrap[2] = attila_rf_u32(c, ATTILA_REG_TEXTURE_WRAP_R, u);
    ts->min_filter = attila_rf_u32(c, ATTILA_REG_TEXTURE_MIN_FILTER, u);
    ts->mag_filter = attila_rf_u32(c, ATTILA_REG_TEXTURE_MAG_FILTER, u);
    ts->reverse = attila_rf_bool(c, ATTILA_REG_TEXTURE_REVERSE, u);
    ts->d3d9_conv = attila_rf_bool(c, ATTILA_REG_TEXTURE_D3D9_COLOR_CONV, u);
    ts->v_invert = attila_rf_bool(c, ATTILA_REG_TEXTURE_D3D9_V_INV, u);
    ts->non_normalized = attila_rf_bool(c, ATTILA_REG_TEXTURE_NON_NORMALIZED, u);
    ts->srgb = attila_rf_bool(c, ATTILA_REG_TEXTURE_SRGB, u);
    ts->compare = attila_rf_bool(c, ATTILA_REG_TEXTURE_ENABLE_COMPARISON, u);
    ts->compare_func = attila_rf_u32(c, ATTILA_REG_TEXTURE_COMPARISON_FUNCTION, u);
    ts->min_lod = attila_rf_f32(c, ATTILA_REG_TEXTURE_MIN_LOD, u);
    ts->max_lod = attila_rf_f32(c, ATTILA_REG_TEXTURE_MAX_LOD, u);
    ts->lod_bias = attila_rf_f32(c, ATTILA_REG_TEXTURE_LOD_BIAS, u);
    ts->unit_lod_bias = attila_rf_f32(c, ATTILA_REG_TEXT_UNIT_LOD_BIAS, u);
    ts->min_level = attila_rf_u32(c, ATTILA_REG_TEXTURE_MIN_LEVEL, u);
    ts->max_level = attila_rf_u32(c, ATTILA_REG_TEXTURE_MAX_LEVEL, u);
    ts->max_aniso = attila_rf_u32(c, ATTILA_REG_TEXTURE_MAX_ANISOTROPY, u);
    ts->bytes = attila_texture_bytes(ts->format);
    ts->nlevels = ATTILA_MAX_TEXTURE_SIZE;
    if (ts->mode != ATTILA_TEX_3D) {
        ts->depth = 1;
    }
    if (ts->mode == ATTILA_TEX_1D) {
        ts->height = 1;
    }
    if (ts->compression != ATTILA_TC_NONE) {
        static const uint32_t fmt[] = {
            [ATTILA_TC_DXT1_RGB] = ATTILA_FMT_RGBA8888,
            [ATTILA_TC_DXT1_RGBA] = ATTILA_FMT_RGBA8888,
            [ATTILA_TC_DXT3_RGBA] = ATTILA_FMT_RGBA8888,
            [ATTILA_TC_DXT5_RGBA] = ATTILA_FMT_RGBA8888,
            [ATTILA_TC_LATC1] = ATTILA_FMT_LUMINANCE8,
            [ATTILA_TC_LATC1_SIGNED] = ATTILA_FMT_LUMINANCE8_SIGNED,
            [ATTILA_TC_LATC2] = ATTILA_FMT_LUMINANCE8_ALPHA8,
            [ATTILA_TC_LATC2_SIGNED] = ATTILA_FMT_LUMINANCE8_ALPHA8_SIGNED,
        };

        if (ts->mode == ATTILA_TEX_1D || ts->mode == ATTILA_TEX_3D) {
            /* TextureEmulator applies compression to 2D images only: 1D
             * and 3D textures read their data as uncompressed texels */
            g3d_guest_error("attila-3d: texture unit %u: compression %u on "
                            "a 1D/3D texture is ignored", u, ts->compression);
        } else if (ts->blocking == ATTILA_TXBLOCK_FRAMEBUFFER) {
            /* decoded blocks are Morton tiles, not render-buffer tiles */
            g3d_error(&c->errors, ATTILA_ERR_DRAW, ATTILA_REG_TEXTURE_COMPRESSION,
                      "texture unit %u: compression %u with framebuffer "
                      "blocking (reads black)", u, ts->compression);
            return;
        } else {
            ts->tc_block = attila_tc_block_bytes(ts->compression);
            ts->tc_texel = attila_tc_texel_bytes(ts->compression);
            /* ATTILA ref. Texture Registers, TextureCompression: each
             * compression has its format; another one reads the decoded bytes
             * as that format, as the simulator */
            if (ts->compression < G_N_ELEMENTS(fmt) &&
                ts->format != fmt[ts->compression]) {
                g3d_guest_error("attila-3d: texture unit %u: compression %u "
                                "with format %u (expected %u)", u,
                                ts->compression, ts->format,
                                fmt[ts->compression]);
            }
        }
    }
    faces = ts->mode == ATTILA_TEX_CUBEMAP ? ATTILA_CUBEMAP_IMAGES : 1;
    for (l = ts->min_level; l < ATTILA_MAX_TEXTURE_SIZE && l <= ts->max_level;
         l++) {
        uint32_t w = MAX(ts->width >> l, 1u), h = MAX(ts->height >> l, 1u);
        uint32_t d = MAX(ts->depth >> l, 1u);
        uint64_t bytes;

        if (ts->width == 0 || ts->height == 0 || ts->depth == 0) {
            break;      /* an empty texture reads black */
        }
        bytes = texture_level_bytes(ts, w, h, d);
        for (f = 0; f < faces; f++) {
            uint32_t addr = attila_rf_u32(c, ATTILA_REG_TEXTURE_ADDRESS,
                                          (u * ATTILA_MAX_TEXTURE_SIZE + l) *
                                          ATTILA_CUBEMAP_IMAGES + f);
            AttilaTexLevel *lv = &ts->level[l][f];

            lv->width = w;
            lv->height = h;
            lv->depth = d;
            if (ts->tc_block) {
                /* blocks of 16 decoded texels, 2^shift = decoded /
                 * compressed bytes: the level spans the blocks holding
                 * decoded bytes [skew, skew + bytes) from the rounded base */
                uint32_t dec = 16 * ts->tc_texel, mis = addr % ts->tc_block;
                lv->skew = mis * (dec / ts->tc_block);
                bytes = (lv->skew + bytes + dec - 1) / dec * ts->tc_block;
                addr -= mis;
            }
            lv->ptr = bytes ? attila_mem_map(c, addr, bytes, false) : NULL;
            if (!lv->ptr) {
                g3d_error(&c->errors, ATTILA_ERR_ADDRESS, addr,
                          "texture unit %u level %u: 0x%08x + %" G_GUINT64_FORMAT
                          " bytes outside memory (reads black)", u, l, addr,
                          bytes);
            }
        }
    }
}

/* the surface of a render target / z buffer; NULL (reported) if unusable */
uint32_t attila_samples(const AttilaCore *c)
{
    return attila_rf_bool(c, ATTILA_REG_MULTISAMPLING, 0) ?
           attila_rf_u32(c, ATTILA_REG_MSAA_SAMPLES, 0) : 1;
}

uint8_t *attila_map_render_buffer(AttilaCore *c, AttilaPixelMapper *pm,
                                  uint32_t addr, uint32_t bytes, bool write,
                                  const char *what)
{
    uint32_t w = attila_rf_u32(c, ATTILA_REG_DISPLAY_X_RES, 0);
    uint32_t h = attila_rf_u32(c, ATTILA_REG_DISPLAY_Y_RES, 0);
    uint8_t *p;

    if (!attila_pixel_mapper_init(pm, w, h, attila_samples(c), bytes)) {
        g3d_error(&c->errors, ATTILA_ERR_DRAW, ATTILA_REG_DISPLAY_X_RES,
                  "%s: display %ux%u, %u samples, %u-byte pixels unusable",
                  what, w, h, attila_samples(c), bytes);
        return NULL;
    }
    p = attila_mem_map(c, addr, pm->surface, write);
    if (!p) {
        g3d_error(&c->errors, ATTILA_ERR_ADDRESS, addr,
                  "%s 0x%08x + %" G_GUINT64_FORMAT " bytes outside memory",
                  what, addr, pm->surface);
    }
    return p;
}

static bool build_draw_state(AttilaCore *c, AttilaDrawState *ds)
{
    uint32_t i;
    bool vs_kills;

    memset(ds, 0, sizeof(*ds));
    for (i = 0; i < ATTILA_MAX_STREAM_BUFFERS; i++) {
        AttilaStream *s = &ds->stream[i];
        s->address = attila_rf_u32(c, ATTILA_REG_STREAM_ADDRESS, i);
        s->stride = attila_rf_u32(c, ATTILA_REG_STREAM_STRIDE, i);
        s->data = attila_rf_u32(c, ATTILA_REG_STREAM_DATA, i);
        s->elements = attila_rf_u32(c, ATTILA_REG_STREAM_ELEMENTS, i);
        s->frequency = attila_rf_u32(c, ATTILA_REG_STREAM_FREQUENCY, i);
        s->d3d9_color = attila_rf_bool(c, ATTILA_REG_D3D9_COLOR_STREAM, i);
    }
    for (i = 0; i < ATTILA_MAX_VERTEX_ATTRIBUTES; i++) {
        ds->attr_map[i] = attila_rf_u32(c, ATTILA_REG_VERTEX_ATTRIBUTE_MAP, i);
        memcpy(ds->attr_default[i],
               attila_rf_qf(c, ATTILA_REG_VERTEX_ATTRIBUTE_DEFAULT_VALUE, i), 16);
    }
    ds->start = attila_rf_u32(c, ATTILA_REG_STREAM_START, 0);
    ds->count = attila_rf_u32(c, ATTILA_REG_STREAM_COUNT, 0);
    ds->instances = attila_rf_u32(c, ATTILA_REG_STREAM_INSTANCES, 0);
    ds->indexed = attila_rf_bool(c, ATTILA_REG_INDEX_MODE, 0);
    ds->index_stream = attila_rf_u32(c, ATTILA_REG_INDEX_STREAM, 0);
    ds->load_bypass = attila_rf_bool(c, ATTILA_REG_ATTRIBUTE_LOAD_BYPASS, 0);
    ds->primitive = attila_rf_u32(c, ATTILA_REG_PRIMITIVE, 0);
    ds->vs_pc = attila_rf_u32(c, ATTILA_REG_VERTEX_PROGRAM_PC, 0);
    ds->fs_pc = attila_rf_u32(c, ATTILA_REG_FRAGMENT_PROGRAM_PC, 0);
    ds->frustum_clip = attila_rf_bool(c, ATTILA_REG_FRUSTUM_CLIPPING, 0);
    ds->d3d9_pixel = attila_rf_bool(c, ATTILA_REG_D3D9_PIXEL_COORDINATES, 0);
    ds->d3d9_depth = attila_rf_bool(c, ATTILA_REG_D3D9_DEPTH_RANGE, 0);
    ds->d3d9_rules = attila_rf_bool(c, ATTILA_REG_D3D9_RASTERIZATION_RULES, 0);
    ds->two_sided = attila_rf_bool(c, ATTILA_REG_TWOSIDED_LIGHTING, 0);
    ds->face_mode = attila_rf_u32(c, ATTILA_REG_FACEMODE, 0);
    ds->cull = attila_rf_u32(c, ATTILA_REG_CULLING, 0);
    ds->vp_x = attila_rf_s32(c, ATTILA_REG_VIEWPORT_INI_X, 0);
    ds->vp_y = attila_rf_s32(c, ATTILA_REG_VIEWPORT_INI_Y, 0);
    ds->vp_w = attila_rf_u32(c, ATTILA_REG_VIEWPORT_WIDTH, 0);
    ds->vp_h = attila_rf_u32(c, ATTILA_REG_VIEWPORT_HEIGHT, 0);
    ds->disp_w = attila_rf_u32(c, ATTILA_REG_DISPLAY_X_RES, 0);
    ds->disp_h = attila_rf_u32(c, ATTILA_REG_DISPLAY_Y_RES, 0);
    ds->scissor = attila_rf_bool(c, ATTILA_REG_SCISSOR_TEST, 0);
    ds->sc_x = attila_rf_s32(c, ATTILA_REG_SCISSOR_INI_X, 0);
    ds->sc_y = attila_rf_s32(c, ATTILA_REG_SCISSOR_INI_Y, 0);
    ds->sc_w = attila_rf_u32(c, ATTILA_REG_SCISSOR_WIDTH, 0);
    ds->sc_h = attila_rf_u32(c, ATTILA_REG_SCISSOR_HEIGHT, 0);
    ds->near = attila_rf_f32(c, ATTILA_REG_DEPTH_RANGE_NEAR, 0);
    ds->far = attila_rf_f32(c, ATTILA_REG_DEPTH_RANGE_FAR, 0);
    ds->msaa = attila_rf_bool(c, ATTILA_REG_MULTISAMPLING, 0);
    ds->samples = attila_samples(c);
    if (ds->msaa && ds->samples == 1) {
        ds->msaa = false;       /* one sample: the plain path */
    }
    for (i = 0; i < ATTILA_MAX_FRAGMENT_ATTRIBUTES; i++) {
        ds->interpolate[i] = attila_rf_bool(c, ATTILA_REG_INTERPOLATION, i);
        ds->fs_input[i] = attila_rf_bool(c, ATTILA_REG_FRAGMENT_INPUT_ATTRIBUTES, i);
    }
    ds->early_z = attila_rf_bool(c, ATTILA_REG_EARLYZ, 0);
    ds->modify_depth = attila_rf_bool(c, ATTILA_REG_MODIFY_FRAGMENT_DEPTH, 0);
    ds->depth_test = attila_rf_bool(c, ATTILA_REG_DEPTH_TEST, 0);
    ds->depth_mask = attila_rf_bool(c, ATTILA_REG_DEPTH_MASK, 0);
    ds->stencil_test = attila_rf_bool(c, ATTILA_REG_STENCIL_TEST, 0);
    ds->depth_func = attila_rf_u32(c, ATTILA_REG_DEPTH_FUNCTION, 0);
    ds->stencil_func = attila_rf_u32(c, ATTILA_REG_STENCIL_FUNCTION, 0);
    ds->stencil_fail = attila_rf_u32(c, ATTILA_REG_STENCIL_FAIL_UPDATE, 0);
    ds->depth_fail = attila_rf_u32(c, ATTILA_REG_DEPTH_FAIL_UPDATE, 0);
    ds->depth_pass = attila_rf_u32(c, ATTILA_REG_DEPTH_PASS_UPDATE, 0);
    ds->stencil_ref = attila_rf_u32(c, ATTILA_REG_STENCIL_REFERENCE, 0);
    ds->stencil_mask = attila_rf_u32(c, ATTILA_REG_STENCIL_COMPARE_MASK, 0);
    ds->stencil_wmask = attila_rf_u32(c, ATTILA_REG_STENCIL_UPDATE_MASK, 0);
    ds->srgb_write = attila_rf_bool(c, ATTILA_REG_COLOR_SRGB_WRITE, 0);
    ds->logic_op = attila_rf_bool(c, ATTILA_REG_LOGICAL_OPERATION, 0);
    ds->logic_func = attila_rf_u32(c, ATTILA_REG_LOGICOP_FUNCTION, 0);

    /* what cannot be drawn is refused as a whole */
    if (ds->disp_w == 0 || ds->disp_h == 0 || ds->vp_w == 0 || ds->vp_h == 0) {
        g3d_error(&c->errors, ATTILA_ERR_DRAW, ATTILA_REG_VIEWPORT_WIDTH,
                  "draw: display %ux%u / viewport %ux%u empty", ds->disp_w,
                  ds->disp_h, ds->vp_w, ds->vp_h);
        return false;
    }
    if (ds->vp_w > ATTILA_MAX_DISPLAY_RES || ds->vp_h > ATTILA_MAX_DISPLAY_RES ||
        ds->vp_x < -ATTILA_MAX_DISPLAY_RES || ds->vp_x > ATTILA_MAX_DISPLAY_RES ||
        ds->vp_y < -ATTILA_MAX_DISPLAY_RES || ds->vp_y > ATTILA_MAX_DISPLAY_RES) {
        g3d_error(&c->errors, ATTILA_ERR_DRAW, ATTILA_REG_VIEWPORT_WIDTH,
                  "draw: viewport (%d, %d) %ux%u out of range", ds->vp_x,
                  ds->vp_y, ds->vp_w, ds->vp_h);
        return false;
    }
    if (ds->primitive >= ATTILA_PRIM_LINE) {
        g3d_unimp("attila-3d: draw: primitive %u (lines, points) is not "
                  "implemented by ATTILA", ds->primitive);
        return false;
    }
    if (ds->count > MAX_DRAW_COUNT ||
        (uint64_t)ds->count * ds->instances > MAX_DRAW_WORK) {
        g3d_error(&c->errors, ATTILA_ERR_DRAW, ATTILA_REG_STREAM_COUNT,
                  "draw: %u vertices x %u instances beyond the device's "
                  "limit", ds->count, ds->instances);
        return false;
    }
    if (ds->indexed) {
        uint32_t d = ds->stream[ds->index_stream].data;
        if (d != ATTILA_SD_UINT8 && d != ATTILA_SD_UINT16 && d != ATTILA_SD_UINT32 &&
            d != ATTILA_SD_UNORM8 && d != ATTILA_SD_UNORM16 && d != ATTILA_SD_UNORM32) {
            g3d_error(&c->errors, ATTILA_ERR_DRAW, ATTILA_REG_STREAM_DATA,
                      "draw: index stream %u format %u is not an index "
                      "format", ds->index_stream, d);
            return false;
        }
    }
    if (!program_ok(c, ds->vs_pc, &vs_kills)) {
        g3d_error(&c->errors, ATTILA_ERR_DRAW, ATTILA_REG_VERTEX_PROGRAM_PC,
                  "draw: no vertex program at pc %u", ds->vs_pc);
        return false;
    }
    if (!program_ok(c, ds->fs_pc, &ds->fs_kills)) {
        g3d_error(&c->errors, ATTILA_ERR_DRAW, ATTILA_REG_FRAGMENT_PROGRAM_PC,
                  "draw: no fragment program at pc %u", ds->fs_pc);
        return false;
    }
    for (i = 0; i < ATTILA_MAX_RENDER_TARGETS; i++) {
        AttilaRenderTarget *rt = &ds->rt[i];
        rt->enabled = attila_rf_bool(c, ATTILA_REG_RENDER_TARGET_ENABLE, i);
        rt->format = attila_rf_u32(c, ATTILA_REG_RENDER_TARGET_FORMAT, i);
        rt->bytes = attila_rt_bytes(rt->format);
        rt->blend = attila_rf_bool(c, ATTILA_REG_COLOR_BLEND, i);
        rt->equation = attila_rf_u32(c, ATTILA_REG_BLEND_EQUATION, i);
        rt->src_rgb = attila_rf_u32(c, ATTILA_REG_BLEND_SRC_RGB, i);
        rt->dst_rgb = attila_rf_u32(c, ATTILA_REG_BLEND_DST_RGB, i);
        rt->src_a = attila_rf_u32(c, ATTILA_REG_BLEND_SRC_ALPHA, i);
        rt->dst_a = attila_rf_u32(c, ATTILA_REG_BLEND_DST_ALPHA, i);
        memcpy(rt->blend_color, attila_rf_qf(c, ATTILA_REG_BLEND_COLOR, i), 16);
        rt->mask[0] = attila_rf_bool(c, ATTILA_REG_COLOR_MASK_R, i);
        rt->mask[1] = attila_rf_bool(c, ATTILA_REG_COLOR_MASK_G, i);
        rt->mask[2] = attila_rf_bool(c, ATTILA_REG_COLOR_MASK_B, i);
        rt->mask[3] = attila_rf_bool(c, ATTILA_REG_COLOR_MASK_A, i);
        if (!rt->enabled || !(rt->mask[0] || rt->mask[1] || rt->mask[2] ||
                              rt->mask[3])) {
            continue;
        }
        rt->ptr = attila_map_render_buffer(c, &rt->pm,
                                           attila_rf_u32(c, ATTILA_REG_RENDER_TARGET_ADDRESS, i),
                                           rt->bytes, true, "draw: render target");
        if (!rt->ptr) {
            return false;
        }
    }
    if (ds->depth_test || ds->stencil_test) {
        ds->zptr = attila_map_render_buffer(c, &ds->zpm,
                                            attila_rf_u32(c, ATTILA_REG_ZSTENCILBUFFER_ADDR, 0),
                                            4, true, "draw: z/stencil buffer");
        if (!ds->zptr) {
            return false;
        }
    }
    for (i = 0; i < ATTILA_MAX_TEXTURES; i++) {
        build_texture(c, i, &ds->tex[i]);
    }
    return true;
}

void attila_draw(AttilaCore *c)
{
    AttilaDrawState *ds = c->ds;

    if (!build_draw_state(c, ds)) {
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
    if (c->cfg.display_update) {
        c->cfg.display_update(c->cfg.opaque);
    }
}

static void command(AttilaCore *c, uint32_t cmd)
{
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

void attila_core_execute(AttilaCore *c, const AttilaTransaction *t)
{
    c->records++;
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
    if (c->ring_size < RING_MIN_SIZE || c->ring_size > RING_MAX_SIZE ||
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

bool attila_core_work(AttilaCore *c, unsigned budget)
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
                attila_irq_raise(c, R_ATTILA_INT_IDLE_MASK);
            }
            return false;
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
            attila_core_execute(c, &t);
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

/* ---- BAR0 ---------------------------------------------------------------- */

static uint32_t regfile_word(AttilaCore *c, uint32_t id, uint32_t idx,
                             unsigned k)
{
    const AttilaRegInfo *ri;

    if (id >= ATTILA_REG_LAST_REGISTER || k > 3) {
        return 0;
    }
    ri = &attila_reg_info[id];
    if (ri->type == ATTILA_RT_MARKER || idx >= ri->count) {
        return 0;
    }
    if (id == ATTILA_REG_STATUS) {
        return k == 0 ? c->gpu_status : 0;
    }
    return c->rf[id][ri->stored == 1 ? 0 : idx].u[k];
}

uint64_t attila_reg_read(AttilaCore *c, uint32_t offset, unsigned size)
{
    if (size != 4 || (offset & 3) || offset >= ATTILA_BAR0_SIZE) {
        g3d_guest_error("attila-3d: BAR0 read of %u bytes at 0x%x", size,
                        offset);
        return 0;
    }
    if (offset >= ATTILA_REGFILE) {
        uint32_t rel = offset - ATTILA_REGFILE;
        return regfile_word(c, rel / 16, 0, (rel % 16) / 4);
    }
    switch (offset) {
    case A_ATTILA_ID:
        return ATTILA_ID_VALUE;
    case A_ATTILA_VERSION:
        return ATTILA_VERSION_VALUE;
    case A_ATTILA_MEM_SIZE:
        return (uint32_t)MIN(c->cfg.mem_size, 0xffffffffu);
    case A_ATTILA_TILING:
        return ATTILA_TEX_BLOCK_DIM << R_ATTILA_TILING_TEX_BLOCK_SHIFT |
               ATTILA_TEX_SBLOCK_DIM << R_ATTILA_TILING_TEX_SBLOCK_SHIFT |
               2 << R_ATTILA_TILING_STAMP_SHIFT |
               8 << R_ATTILA_TILING_GEN_SHIFT |
               16 << R_ATTILA_TILING_SCAN_SHIFT |
               4u << R_ATTILA_TILING_OVERSCAN_SHIFT;
    case A_ATTILA_MAX_RECORD:
        return c->ring_size ? c->ring_size - 1 : 0;
    case A_ATTILA_STATUS: {
        bool idle = !c->ring_enable || c->ring_size == 0 ||
                    c->ring_read == c->ring_write;
        return (idle ? R_ATTILA_STATUS_IDLE_MASK : 0) |
               (c->errors.latched ? R_ATTILA_STATUS_ERROR_MASK : 0) |
               (c->ring_enable ? R_ATTILA_STATUS_RING_ON_MASK : 0) |
               c->gpu_status << R_ATTILA_STATUS_GPU_STATE_SHIFT;
    }
    case A_ATTILA_ERROR_COUNT:      return c->errors.count;
    case A_ATTILA_ERROR_CODE:       return c->errors.code;
    case A_ATTILA_ERROR_INFO:       return c->errors.info;
    case A_ATTILA_FRAME:            return c->frame;
    case A_ATTILA_RECORDS:          return c->records;
    case A_ATTILA_RING_BASE:        return c->ring_base;
    case A_ATTILA_RING_SIZE:        return c->ring_size;
    case A_ATTILA_RING_READ:        return c->ring_read;
    case A_ATTILA_RING_WRITE:       return c->ring_write;
    case A_ATTILA_RING_CONTROL:     return c->ring_enable;
    case A_ATTILA_SYSMEM_BASE_LO:   return (uint32_t)c->sysmem_base;
    case A_ATTILA_SYSMEM_BASE_HI:   return (uint32_t)(c->sysmem_base >> 32);
    case A_ATTILA_SYSMEM_SIZE:      return c->sysmem_size;
    case A_ATTILA_EVENT_COUNT:      return c->event_count;
    case A_ATTILA_LAST_EVENT:       return c->last_event;
    case A_ATTILA_FENCE:            return c->fence;
    case A_ATTILA_INT_STATUS:       return c->int_status;
    case A_ATTILA_INT_MASK:         return c->int_mask;
    case A_ATTILA_SCANOUT_ADDR:     return c->display.valid ? c->display.address : 0;
    case A_ATTILA_SCANOUT_SIZE:
        return c->display.valid ?
               (c->display.width | c->display.height << 16) : 0;
    case A_ATTILA_REGFILE_SELECT:   return c->regfile_select;
    case A_ATTILA_REGFILE_DATA0:
    case A_ATTILA_REGFILE_DATA1:
    case A_ATTILA_REGFILE_DATA2:
    case A_ATTILA_REGFILE_DATA3:
        return regfile_word(c,
                            G3D_FIELD_EX32(c->regfile_select, ATTILA_REGFILE_SELECT, ID),
                            G3D_FIELD_EX32(c->regfile_select, ATTILA_REGFILE_SELECT, INDEX),
                            (offset - A_ATTILA_REGFILE_DATA0) / 4);
    default:
        return 0;
    }
}

static void regfile_select(AttilaCore *c, uint32_t v)
{
    uint32_t id = G3D_FIELD_EX32(v, ATTILA_REGFILE_SELECT, ID);
    uint32_t idx = G3D_FIELD_EX32(v, ATTILA_REGFILE_SELECT, INDEX);

    c->regfile_select = v;
    if (id >= ATTILA_REG_LAST_REGISTER ||
        attila_reg_info[id].type == ATTILA_RT_MARKER ||
        idx >= attila_reg_info[id].count) {
        g3d_error(&c->errors, ATTILA_ERR_SUBINDEX, v,
                  "REGFILE_SELECT id %u index %u out of range", id, idx);
    }
}

void attila_reg_write(AttilaCore *c, uint32_t offset, uint64_t val64,
                      unsigned size)
{
    uint32_t val = (uint32_t)val64;

    if (size != 4 || (offset & 3) || offset >= ATTILA_BAR0_SIZE) {
        g3d_guest_error("attila-3d: BAR0 write of %u bytes at 0x%x", size,
                        offset);
        return;
    }
    switch (offset) {
    case A_ATTILA_CONTROL:
        if (val & R_ATTILA_CONTROL_RESET_MASK) {
            attila_core_reset(c);
            return;
        }
        if (val & R_ATTILA_CONTROL_ERROR_CLEAR_MASK) {
            g3d_error_clear(&c->errors);
        }
        break;
    case A_ATTILA_RING_BASE:
        c->ring_base = val;
        c->ring_read = c->ring_write = 0;
        break;
    case A_ATTILA_RING_SIZE:
        if (val != 0 && (val < RING_MIN_SIZE || val > RING_MAX_SIZE)) {
            g3d_error(&c->errors, ATTILA_ERR_RING, offset,
                      "RING_SIZE %u out of range (%u .. %u)", val,
                      RING_MIN_SIZE, RING_MAX_SIZE);
            break;
        }
        c->ring_size = val;
        c->ring_read = c->ring_write = 0;
        break;
    case A_ATTILA_RING_WRITE:
        if (val >= c->ring_size) {
            g3d_error(&c->errors, ATTILA_ERR_RING, offset,
                      "RING_WRITE %u outside the %u-byte ring", val,
                      c->ring_size);
            break;
        }
        c->ring_write = val;
        break;
    case A_ATTILA_RING_CONTROL:
        c->ring_enable = val & R_ATTILA_RING_CONTROL_ENABLE_MASK;
        break;
    case A_ATTILA_DOORBELL:
        /* the glue's worker calls attila_core_work(); nothing to latch */
        break;
    case A_ATTILA_SYSMEM_BASE_LO:
        c->sysmem_base = (c->sysmem_base & ~0xffffffffull) | val;
        break;
    case A_ATTILA_SYSMEM_BASE_HI:
        c->sysmem_base = (c->sysmem_base & 0xffffffffull) |
                         (uint64_t)val << 32;
        break;
    case A_ATTILA_SYSMEM_SIZE:
        if (val > 0x80000000u) {
            g3d_error(&c->errors, ATTILA_ERR_VALUE, offset,
                      "SYSMEM_SIZE 0x%x beyond the 2 GiB window", val);
            break;
        }
        c->sysmem_size = val;
        break;
    case A_ATTILA_INT_STATUS: {
        bool old = attila_irq_level(c);
        c->int_status &= ~val;
        if (old != attila_irq_level(c) && c->cfg.irq_update) {
            c->cfg.irq_update(c->cfg.opaque);
        }
        break;
    }
    case A_ATTILA_INT_MASK: {
        bool old = attila_irq_level(c);
        c->int_mask = val & 0x1f;
        if (old != attila_irq_level(c) && c->cfg.irq_update) {
            c->cfg.irq_update(c->cfg.opaque);
        }
        break;
    }
    case A_ATTILA_REGFILE_SELECT:
        regfile_select(c, val);
        break;
    default:
        g3d_guest_error("attila-3d: write 0x%x to read-only or unknown BAR0 "
                        "offset 0x%x", val, offset);
        break;
    }
}

/* ---- lifecycle ------------------------------------------------------------ */

AttilaCore *attila_core_new(const AttilaCoreConfig *cfg)
{
    AttilaCore *c = g_new0(AttilaCore, 1);

    c->cfg = *cfg;
    g3d_error_init(&c->errors, "attila-3d: ", error_raise, c);
    if (c->cfg.threads < 1) {
        c->cfg.threads = 1;
    }
    attila_regfile_init(c);
    c->ds = g_new0(AttilaDrawState, 1);
    c->raster = attila_raster_new(c, c->cfg.threads);
    attila_core_reset(c);
    return c;
}

void attila_core_free(AttilaCore *c)
{
    if (!c) {
        return;
    }
    attila_raster_free(c->raster);
    g_free(c->rf_store);
    g_free(c->stage);
    g_free(c->ds);
    g_free(c->vcache);
    g_free(c->tris);
    g_free(c->screen);
    g_free(c);
}

void attila_core_reset(AttilaCore *c)
{
    bool irq = attila_irq_level(c);
    int i;

    g3d_error_reset(&c->errors);
    c->frame = c->records = 0;
    c->ring_base = c->ring_size = c->ring_read = c->ring_write = 0;
    c->ring_enable = false;
    c->sysmem_base = 0;
    c->sysmem_size = 0;
    c->event_count = c->last_event = c->fence = 0;
    c->int_status = c->int_mask = 0;
    c->regfile_select = 0;
    memset(&c->display, 0, sizeof(c->display));
    memset(c->imem_raw, 0, sizeof(c->imem_raw));
    for (i = 0; i < ATTILA_INSTRUCTION_MEMORY; i++) {
        attila_shader_decode(c->imem_raw[i], &c->imem[i]);
    }
    attila_gpu_reset_state(c);
    if (irq && c->cfg.irq_update) {
        c->cfg.irq_update(c->cfg.opaque);
    }
    if (c->cfg.display_update) {
        c->cfg.display_update(c->cfg.opaque);
    }
}

bool attila_scanout(AttilaCore *c, int head, G3DScanout *out)
{
    memset(out, 0, sizeof(*out));
    if (head != 0) {
        return false;
    }
    return attila_dac_scanout(c, out);
}

const G3DMem *attila_scanout_mem(AttilaCore *c)
{
    return &c->screen_mem;
}
