/*
 * GPU_DRAW's snapshot of the ATTILA register file (ATTILA ref. GPU
 * Registers): everything the units of one draw read, checked once, with the
 * render targets, z/stencil buffer and textures mapped, so that a draw the
 * units cannot do is refused as a whole before it starts.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "attila-int.h"

#include <glib.h>

/* draw limits (docs/attila-3d.md, "Bad input") */
#define MAX_DRAW_COUNT (1u << 18)   /* shaded vertices are kept: 64 MiB */
#define MAX_DRAW_WORK (1u << 24)
/* a program longer than this without an end flag is refused at draw time */
#define MAX_PROGRAM_SCAN 4096

/* what a program can touch, for the fragment thread's reset and inputs */
typedef struct ProgramUse {
    bool kills;             /* can kill (early z is then not used) */
    /* can read the vertex streams (LDA), or any instruction (a jump) */
    bool fetches;
    /* no instruction looks across lanes or stops early for one lane (JMP,
     * DDX/DDY, texture reads, kills): four threads run it together as each
     * alone */
    bool lanes_apart;
    uint32_t temps, outs;   /* 1 + the highest temporary, output it names */
    uint32_t inputs;        /* input registers it can read (bit i: in[i]) */
    /*
     * For a fragment stamp's reset (AttilaDrawState.fs_reset_*): the
     * temporaries and outputs (bit i: register i) it writes whose reset
     * value can be seen, and whether it writes the thread's address,
     * predicate, kill, sample or z export state
     */
    uint32_t temps_seen, outs_seen;
    bool tail_written;
} ProgramUse;

/*
 * Does the instruction write its whole result register in every lane
 * and nothing else: exec_alu's and exec_texture's write_vec/write_ivec
 * operations, unpredicated with all four components (shader.c
 * write_result). Other opcodes write the address, predicate, kill,
 * sample or z export state, or an accumulator (FX*), or nothing.
 */
static bool writes_whole_result(const AttilaShInstr *in)
{
#define OP(o) (1ull << ATTILA_SH_##o)
    /* the opcodes below ATTILA_SH_OPCODES (0x38) as a set */
    static const uint64_t result_only =
        OP(ADD) | OP(MUL) | OP(MAX) | OP(MIN) | OP(SLT) | OP(SGE) | OP(DP3) |
        OP(DP4) | OP(DPH) | OP(DST) | OP(MAD) | OP(CMP) | OP(MOV) | OP(FRC) |
        OP(FLR) | OP(LIT) | OP(RCP) | OP(RSQ) | OP(EX2) | OP(LG2) | OP(SIN) |
        OP(COS) | OP(EXP) | OP(LOG) | OP(ADDI) | OP(MULI) | OP(TEX) |
        OP(TXB) | OP(TXL) | OP(TXP) | OP(DDX) | OP(DDY);
#undef OP

    return in->opcode < 64 && (result_only >> in->opcode & 1) &&
           in->has_result && !in->predicated && in->mask == 15;
}

/*
 * The registers a fragment stamp's reset must zero for the program to
 * see what the whole reset gives it, the program being straight (no
 * JMP: all) and without kills (a killed lane stops writing). A register
 * the program never writes keeps the batch's whole reset (zero); one it
 * writes is seen when an operand reads it before a whole write, or, an
 * output, when the depth and colour writes read it (below outs) and no
 * whole write sets it. temps, outs: the whole reset's bounds.
 */
static void program_resets(const AttilaCore *c, uint32_t pc, uint32_t n,
                           uint32_t temps, uint32_t outs, ProgramUse *use)
{
    uint32_t tw = 0, ow = 0, tfull = 0, ofull = 0, tread = 0, oread = 0;
    uint32_t i, k;

    for (i = 0; i <= n; i++) {
        const AttilaShInstr *in = &c->imem[pc + i];
        uint32_t bit;

        for (k = 0; k < in->nops; k++) {
            bit = 1u << (in->op[k].reg & 31);
            if (in->op[k].bank == ATTILA_BANK_TEMP) {
                tread |= bit & ~tfull;
            } else if (in->op[k].bank == ATTILA_BANK_OUT) {
                oread |= bit & ~ofull;
            }
        }
        use->tail_written = use->tail_written ||
                            !(writes_whole_result(in) ||
                              in->opcode == ATTILA_SH_NOP ||
                              in->opcode == ATTILA_SH_END) ||
                            (in->has_result &&
                             in->res_bank == ATTILA_BANK_ADDR);
        if (!in->has_result || in->res_bank == ATTILA_BANK_ADDR) {
            continue;
        }
        /* shader.c result_reg: any bank but OUT and ADDR is a temporary */
        bit = 1u << (in->res_reg & 31);
        if (in->res_bank == ATTILA_BANK_OUT) {
            ow |= bit;
            ofull |= writes_whole_result(in) ? bit : 0;
        } else {
            tw |= bit;
            tfull |= writes_whole_result(in) ? bit : 0;
        }
    }
    use->temps_seen = tw & tread;
    use->outs_seen = ow & (oread | ~ofull);
    if (use->kills) {
        use->temps_seen = use->outs_seen = ~0u;
        use->tail_written = true;
    }
    use->temps_seen &= temps >= 32 ? ~0u : (1u << temps) - 1;
    use->outs_seen &= outs >= 32 ? ~0u : (1u << outs) - 1;
}


/*
 * Is there a program at pc: valid instructions up to one that ends it?
 * *use says what it can touch; all of it when it jumps (it may leave the
 * instructions seen here) or when g3d_general_path asks for the general
 * path.
 */
static bool program_ok(AttilaCore *c, uint32_t pc, bool fragment,
                       ProgramUse *use)
{
    uint32_t n, k;
    bool all = g3d_general_path, apart = true;

    memset(use, 0, sizeof(*use));
    for (n = 0; n < MAX_PROGRAM_SCAN && pc + n < ATTILA_INSTRUCTION_MEMORY; n++) {
        const AttilaShInstr *in = &c->imem[pc + n];
        if (!in->valid) {
            return false;
        }
        if (in->opcode == ATTILA_SH_KIL || in->opcode == ATTILA_SH_KLS ||
            in->opcode == ATTILA_SH_CMPKIL) {
            use->kills = true;
        }
        use->fetches = use->fetches || in->opcode == ATTILA_SH_LDA;
        all = all || in->opcode == ATTILA_SH_JMP;
        switch (in->opcode) {
        case ATTILA_SH_JMP: case ATTILA_SH_DDX: case ATTILA_SH_DDY:
        case ATTILA_SH_TEX: case ATTILA_SH_TXB: case ATTILA_SH_TXL:
        case ATTILA_SH_TXP: case ATTILA_SH_LDA: case ATTILA_SH_KIL:
        case ATTILA_SH_KLS: case ATTILA_SH_CMPKIL:
            apart = false;
            break;
        default:
            break;
        }
        for (k = 0; k < in->nops; k++) {
            if (in->op[k].bank == ATTILA_BANK_TEMP) {
                use->temps = MAX(use->temps, in->op[k].reg + 1u);
            } else if (in->op[k].bank == ATTILA_BANK_OUT) {
                use->outs = MAX(use->outs, in->op[k].reg + 1u);
            } else if (in->op[k].bank == ATTILA_BANK_IN) {
                use->inputs |= 1u << in->op[k].reg;
            }
        }
        if (in->has_result && in->res_bank == ATTILA_BANK_TEMP) {
            use->temps = MAX(use->temps, in->res_reg + 1u);
        } else if (in->has_result && in->res_bank == ATTILA_BANK_OUT) {
            use->outs = MAX(use->outs, in->res_reg + 1u);
        }
        if (in->end || in->opcode == ATTILA_SH_END) {
            use->lanes_apart = apart && !g3d_general_path;
            if (all) {
                use->fetches = true;
                use->temps = ATTILA_SH_TEMPS;
                use->outs = ATTILA_SH_IO;
                use->inputs = ~0u;
                use->temps_seen = use->outs_seen = ~0u;
                use->tail_written = true;
            } else if (fragment) {
                /* the vertex threads' reset is the streamer's */
                program_resets(c, pc, n, use->temps, ATTILA_SH_IO, use);
            }
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

/*
 * The unit's state from its registers. Its mip levels (about 2.5 KB a
 * unit) are cleared only when the previous draw's build had the unit
 * enabled: a disabled unit's build writes none, so its levels are still
 * zero from the build that cleared them (or from the draw state's
 * allocation, g_new0), as a whole clear would leave them.
 */
static void build_texture(AttilaCore *c, uint32_t u, AttilaTexState *ts)
{
    const size_t lv_end = offsetof(AttilaTexState, level) + sizeof(ts->level);
    uint32_t l, f, faces;

    if (ts->enabled) {
        memset(ts->level, 0, sizeof(ts->level));
    }
    memset(ts, 0, offsetof(AttilaTexState, level));
    /* the quad read's state (about 300 bytes) is only marked unused here:
     * attila_texture_prepare_quad fills it where a read may use it */
    memset((uint8_t *)ts + lv_end, 0, offsetof(AttilaTexState, quad) - lv_end);
    ts->quad.path = ATTILA_TEXQ_NONE;
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
    /* the Texture Unit's specialised texel path (texture-unit.c) */
    ts->rgba8_morton = !g3d_general_path &&
                       ts->format == ATTILA_FMT_RGBA8888 &&
                       (ts->mode == ATTILA_TEX_2D ||
                        ts->mode == ATTILA_TEX_CUBEMAP) &&
                       ts->blocking != ATTILA_TXBLOCK_FRAMEBUFFER &&
                       !ts->tc_block && !ts->compare && !ts->srgb;
    ts->filter_avx2 = ts->rgba8_morton && g3d_use_avx2();
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
            lv->bytes = bytes;
            if (!lv->ptr) {
                g3d_error(&c->errors, ATTILA_ERR_ADDRESS, addr,
                          "texture unit %u level %u: 0x%08x + %" G_GUINT64_FORMAT
                          " bytes outside memory (reads black)", u, l, addr,
                          bytes);
            }
        }
    }
    attila_texture_prepare_quad(ts);
}

/* vertex input: streams, attributes, the draw's range, the programs */
static void draw_streams(AttilaCore *c, AttilaDrawState *ds)
{
    uint32_t i;

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
}

/* viewport, scissor, depth range, sampling and interpolation */
static void draw_scissor(AttilaCore *c, AttilaDrawState *ds)
{
    uint32_t i;

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
    /* RasterizerEmulator::convertZ's window z = z * scale + offset */
    if (ds->d3d9_depth) {
        ds->z_scale = (double)(ds->far - ds->near);
        ds->z_offset = (double)ds->near;
    } else {
        ds->z_scale = (double)((ds->far - ds->near) / 2.0f);
        ds->z_offset = (double)((ds->near + ds->far) / 2.0f);
    }
    ds->msaa = attila_rf_bool(c, ATTILA_REG_MULTISAMPLING, 0);
    ds->samples = attila_samples(c);
    if (ds->msaa && ds->samples == 1) {
        ds->msaa = false;       /* one sample: the plain path */
    }
    for (i = 0; i < ATTILA_MAX_FRAGMENT_ATTRIBUTES; i++) {
        ds->interpolate[i] = attila_rf_bool(c, ATTILA_REG_INTERPOLATION, i);
        ds->fs_input[i] = attila_rf_bool(c, ATTILA_REG_FRAGMENT_INPUT_ATTRIBUTES, i);
    }
}

/* early z, depth and stencil tests */
static void draw_depth(AttilaCore *c, AttilaDrawState *ds)
{
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
    ds->depth_only = !g3d_general_path && ds->depth_test && !ds->stencil_test;
    /* bit 0: zin < stored passes, bit 1: equal, bit 2: greater */
    ds->depth_table = g3d_compare_u(attila_cmp_map[ds->depth_func & 7], 0, 1) |
                      g3d_compare_u(attila_cmp_map[ds->depth_func & 7], 1, 1) << 1 |
                      g3d_compare_u(attila_cmp_map[ds->depth_func & 7], 2, 1) << 2;
}

/* what the colour write does besides per-target blending */
static void draw_blend(AttilaCore *c, AttilaDrawState *ds)
{
    ds->srgb_write = attila_rf_bool(c, ATTILA_REG_COLOR_SRGB_WRITE, 0);
    ds->logic_op = attila_rf_bool(c, ATTILA_REG_LOGICAL_OPERATION, 0);
    ds->logic_func = attila_rf_u32(c, ATTILA_REG_LOGICOP_FUNCTION, 0);
}

/* what cannot be drawn is refused as a whole, reported */
static bool draw_ok(AttilaCore *c, AttilaDrawState *ds)
{
    ProgramUse vs_use, fs_use;
    uint32_t i;

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
    if (!program_ok(c, ds->vs_pc, false, &vs_use)) {
        g3d_error(&c->errors, ATTILA_ERR_DRAW, ATTILA_REG_VERTEX_PROGRAM_PC,
                  "draw: no vertex program at pc %u", ds->vs_pc);
        return false;
    }
    if (!program_ok(c, ds->fs_pc, true, &fs_use)) {
        g3d_error(&c->errors, ATTILA_ERR_DRAW, ATTILA_REG_FRAGMENT_PROGRAM_PC,
                  "draw: no fragment program at pc %u", ds->fs_pc);
        return false;
    }
    ds->vs_lanes = vs_use.lanes_apart ? 4 : 1;
    ds->fs_kills = fs_use.kills;
    ds->fs_fetches = fs_use.fetches;
    ds->fs_temps = fs_use.temps;
    ds->fs_inputs = fs_use.inputs;
    ds->setup_avx = !g3d_general_path && g3d_use_avx();
    if (g3d_general_path) {
        ds->setup_attrs = ds->vertex_outs = (1u << ATTILA_SH_IO) - 1;
    } else {
        for (i = 1; i < ATTILA_MAX_FRAGMENT_ATTRIBUTES; i++) {
            if ((ds->fs_inputs >> i & 1) && ds->fs_input[i]) {
                ds->setup_attrs |= 1u << i;
            }
        }
        /* TWOSIDED: a back triangle's inputs 1 and 2 are outputs 3 and 4
         * (attila_triangle_setup) */
        ds->vertex_outs = 1 | ds->setup_attrs |
                          (ds->two_sided ? (ds->setup_attrs & 6) << 2 : 0);
    }
    /* what an unwritten register reads (0) matters only where the program
     * or vertex_store reads it */
    ds->vs_temps = vs_use.temps;
    ds->vs_outs = MAX(vs_use.outs, 32u - __builtin_clz(ds->vertex_outs));
    {
        const AttilaShInstr *in = &c->imem[ds->fs_pc];
        ds->fs_copy = !g3d_general_path && in->fast && in->end &&
                      in->opcode == ATTILA_SH_MOV && !in->predicated &&
                      !in->sat && in->mask == 15 &&
                      in->op[0].bank == ATTILA_BANK_IN && in->op[0].plain &&
                      in->op[0].reg < ATTILA_SH_IO &&
                      in->res_bank == ATTILA_BANK_OUT &&
                      in->res_reg < ATTILA_SH_IO;
        ds->fs_copy_in = in->op[0].reg;
        ds->fs_copy_out = in->res_reg;
    }
    /* and the outputs the depth (o0) and color writes (o1 + rt) read */
    ds->fs_outs = MAX(fs_use.outs, 1);
    ds->fs_reset_temps = fs_use.temps_seen;
    ds->fs_reset_outs = fs_use.outs_seen;   /* below fs_outs: the build */
    ds->fs_reset_tail = fs_use.tail_written;
    return true;
}

/* does [p, p + len) meet [q, q + n)? */
static bool meets(const uint8_t *p, uint64_t len, const uint8_t *q, uint64_t n)
{
    return q && (uintptr_t)p < (uintptr_t)q + n &&
           (uintptr_t)q < (uintptr_t)p + len;
}

bool attila_draw_state_reaches(const AttilaDrawState *ds, const uint8_t *p,
                               uint64_t len)
{
    uint32_t u, l, f;

    if (ds->fs_fetches) {
        return true;    /* LDA reads the streams: any memory */
    }
    for (u = 0; u < ATTILA_MAX_RENDER_TARGETS; u++) {
        if (meets(p, len, ds->rt[u].ptr, ds->rt[u].pm.surface)) {
            return true;
        }
    }
    if (meets(p, len, ds->zptr, ds->zpm.surface)) {
        return true;
    }
    for (u = 0; u < ATTILA_MAX_TEXTURES; u++) {
        const AttilaTexState *t = &ds->tex[u];

        for (l = 0; t->enabled && l < t->nlevels; l++) {
            for (f = 0; f < ATTILA_CUBEMAP_IMAGES; f++) {
                if (meets(p, len, t->level[l][f].ptr, t->level[l][f].bytes)) {
                    return true;
                }
            }
        }
    }
    return false;
}

/* render targets with their blending, and the z/stencil buffer, mapped */
static bool draw_targets(AttilaCore *c, AttilaDrawState *ds)
{
    uint32_t i;

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
        attila_color_choose(ds, rt, i);
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
        ds->fs_outs = MAX(ds->fs_outs, i + 2);
    }
    if (ds->depth_test || ds->stencil_test) {
        ds->zptr = attila_map_render_buffer(c, &ds->zpm,
                                            attila_rf_u32(c, ATTILA_REG_ZSTENCILBUFFER_ADDR, 0),
                                            4, true, "draw: z/stencil buffer");
        if (!ds->zptr) {
            return false;
        }
    }
    return true;
}

static bool bytes_meet(const uint8_t *a, uint64_t an, const uint8_t *b,
                       uint64_t bn)
{
    return a && b && a < b + bn && b < a + an;
}

/*
 * Whether a pixel's value can depend on the order in which the tiles are
 * drawn: a texture level that shares bytes with a render target or the
 * z/stencil buffer (a texel may be a pixel another tile writes), or two of
 * those buffers that share bytes other than each pixel's own (the same
 * surface at the same geometry). Every thread owns its own tiles
 * (rasterizer.c), so with several threads such a draw's image would change
 * from run to run: its stamps are drawn by one thread.
 */
static bool tile_order_shows(const AttilaDrawState *ds)
{
    const uint8_t *buf[ATTILA_MAX_RENDER_TARGETS + 1];
    const AttilaPixelMapper *pm[ATTILA_MAX_RENDER_TARGETS + 1];
    unsigned n = 0, i, j, u, l, f;

    for (i = 0; i < ATTILA_MAX_RENDER_TARGETS; i++) {
        if (ds->rt[i].ptr) {
            buf[n] = ds->rt[i].ptr;
            pm[n++] = &ds->rt[i].pm;
        }
    }
    if (ds->zptr) {
        buf[n] = ds->zptr;
        pm[n++] = &ds->zpm;
    }
    for (i = 0; i < n; i++) {
        for (j = i + 1; j < n; j++) {
            if (bytes_meet(buf[i], pm[i]->surface, buf[j], pm[j]->surface) &&
                (buf[i] != buf[j] || pm[i]->width != pm[j]->width ||
                 pm[i]->height != pm[j]->height ||
                 pm[i]->samples != pm[j]->samples ||
                 pm[i]->bytes != pm[j]->bytes)) {
                return true;
            }
        }
    }
    for (u = 0; u < ATTILA_MAX_TEXTURES; u++) {
        const AttilaTexState *ts = &ds->tex[u];

        for (l = 0; ts->enabled && l < ATTILA_MAX_TEXTURE_SIZE; l++) {
            for (f = 0; f < ATTILA_CUBEMAP_IMAGES; f++) {
                const AttilaTexLevel *lv = &ts->level[l][f];

                for (i = 0; i < n; i++) {
                    if (bytes_meet(lv->ptr, lv->bytes, buf[i],
                                   pm[i]->surface)) {
                        return true;
                    }
                }
            }
        }
    }
    return false;
}

bool attila_draw_state_build(AttilaCore *c, AttilaDrawState *ds)
{
    const size_t tex_end = offsetof(AttilaDrawState, tex) + sizeof(ds->tex);
    uint32_t i;

    /* the textures' states are cleared by build_texture, each as far as
     * it needs (a whole clear was about 45 KB a draw) */
    memset(ds, 0, offsetof(AttilaDrawState, tex));
    memset((uint8_t *)ds + tex_end, 0, sizeof(*ds) - tex_end);
    draw_streams(c, ds);
    draw_scissor(c, ds);
    draw_depth(c, ds);
    draw_blend(c, ds);
    if (!draw_ok(c, ds) || !draw_targets(c, ds)) {
        return false;
    }
    for (i = 0; i < ATTILA_MAX_TEXTURES; i++) {
        build_texture(c, i, &ds->tex[i]);
    }
    ds->serial_tiles = tile_order_shows(ds);
    /* the whole reset's outputs, known now that the targets are */
    ds->fs_reset_outs &= ds->fs_outs >= 32 ? ~0u : (1u << ds->fs_outs) - 1;
    /* every stamp's threads reset whole (attila_shader_reset_bounded) */
    ds->fs_reset_whole = g3d_general_path;
    /* the copy's threads are not reset a stamp (rasterizer.c) */
    ds->fs_reset_any = !ds->fs_copy &&
                       (ds->fs_reset_whole || ds->fs_reset_temps ||
                        ds->fs_reset_outs || ds->fs_reset_tail);
    return true;
}
