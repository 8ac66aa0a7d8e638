/*
 * The GPU register file: every GPURegister of attila-sim GPU.h (ids 0-150) with
 * its sub-index range, value type and reset value, and the checked write
 * the command processor performs for an AGP_REG_WRITE.
 *
 * Values are kept in their 16-byte GPURegData form (attila-sim GPU.h
 * GPURegData): a bool is byte 0, a u32/s32/f32/enum bytes 0-3, a quadfloat
 * bytes 0-15. Reset values are those of attila-sim GPUEmulator::resetState.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "attila-int.h"

#include <glib.h>

/* rows by shape; each names its attila-regs.h symbol (ATTILA_REG_ROW) */
#define SCALAR(reg, ty) ATTILA_REG_ROW(reg, 1, 1, ATTILA_RT_##ty, 0)
#define ARRAY(reg, n, ty) ATTILA_REG_ROW(reg, n, n, ATTILA_RT_##ty, 0)
#define ENUM(reg, n, lim) ATTILA_REG_ROW(reg, n, n, ATTILA_RT_ENUM, lim)
/* n sub-indices accepted, one value stored: the index is ignored */
#define ONE_OF(reg, n, ty) ATTILA_REG_ROW(reg, n, 1, ATTILA_RT_##ty, 0)

enum { TEX = ATTILA_MAX_TEXTURES, RT = ATTILA_MAX_RENDER_TARGETS,
       STR = ATTILA_MAX_STREAM_BUFFERS, ATT = ATTILA_MAX_VERTEX_ATTRIBUTES };

const AttilaRegInfo attila_reg_info[ATTILA_REG_LAST_REGISTER] = {
    SCALAR(ATTILA_REG_STATUS, RO),
    SCALAR(ATTILA_REG_MEMORY, RO),
    SCALAR(ATTILA_REG_VERTEX_PROGRAM, U32),
    SCALAR(ATTILA_REG_VERTEX_PROGRAM_PC, U32),
    SCALAR(ATTILA_REG_VERTEX_PROGRAM_SIZE, U32),
    SCALAR(ATTILA_REG_VERTEX_THREAD_RESOURCES, U32),
    ARRAY(ATTILA_REG_VERTEX_CONSTANT, ATTILA_MAX_VERTEX_CONSTANTS, QF),
    ARRAY(ATTILA_REG_VERTEX_OUTPUT_ATTRIBUTE, ATT, BOOL),
    ARRAY(ATTILA_REG_VERTEX_ATTRIBUTE_MAP, ATT, U32),
    ARRAY(ATTILA_REG_VERTEX_ATTRIBUTE_DEFAULT_VALUE, ATT, QF),
    ARRAY(ATTILA_REG_STREAM_ADDRESS, STR, U32),
    ARRAY(ATTILA_REG_STREAM_STRIDE, STR, U32),
    ENUM(ATTILA_REG_STREAM_DATA, STR, ATTILA_SD_COUNT),
    ARRAY(ATTILA_REG_STREAM_ELEMENTS, STR, U32),
    ARRAY(ATTILA_REG_STREAM_FREQUENCY, STR, U32),
    SCALAR(ATTILA_REG_STREAM_START, U32),
    SCALAR(ATTILA_REG_STREAM_COUNT, U32),
    SCALAR(ATTILA_REG_STREAM_INSTANCES, U32),
    SCALAR(ATTILA_REG_INDEX_MODE, BOOL),
    SCALAR(ATTILA_REG_INDEX_STREAM, S32),
    ARRAY(ATTILA_REG_D3D9_COLOR_STREAM, STR, BOOL),
    SCALAR(ATTILA_REG_ATTRIBUTE_LOAD_BYPASS, BOOL),
    ENUM(ATTILA_REG_PRIMITIVE, 1, ATTILA_PRIM_COUNT),
    SCALAR(ATTILA_REG_FRUSTUM_CLIPPING, BOOL),
    ARRAY(ATTILA_REG_USER_CLIP, ATTILA_MAX_USER_CLIP_PLANES, QF),
    /* [EXT] one scalar bool: the index is ignored (ATTILA ref. Registers) */
    ONE_OF(ATTILA_REG_USER_CLIP_PLANE, ATTILA_MAX_USER_CLIP_PLANES, BOOL),
    ATTILA_REG_ROW(ATTILA_REG_LAST_GEOMETRY_REGISTER, 0, 0, ATTILA_RT_MARKER, 0),
    SCALAR(ATTILA_REG_FRONTBUFFER_ADDR, U32),
    SCALAR(ATTILA_REG_BACKBUFFER_ADDR, U32),
    SCALAR(ATTILA_REG_ZSTENCILBUFFER_ADDR, U32),
    SCALAR(ATTILA_REG_TEXTURE_MEM_ADDR, U32),
    SCALAR(ATTILA_REG_PROGRAM_MEM_ADDR, U32),
    ENUM(ATTILA_REG_FACEMODE, 1, 2),
    ENUM(ATTILA_REG_CULLING, 1, 4),
    SCALAR(ATTILA_REG_HIERARCHICALZ, BOOL),
    SCALAR(ATTILA_REG_EARLYZ, BOOL),
    SCALAR(ATTILA_REG_DISPLAY_X_RES, U32),
    SCALAR(ATTILA_REG_DISPLAY_Y_RES, U32),
    SCALAR(ATTILA_REG_D3D9_PIXEL_COORDINATES, BOOL),
    SCALAR(ATTILA_REG_VIEWPORT_INI_X, S32),
    SCALAR(ATTILA_REG_VIEWPORT_INI_Y, S32),
    SCALAR(ATTILA_REG_VIEWPORT_WIDTH, U32),
    SCALAR(ATTILA_REG_VIEWPORT_HEIGHT, U32),
    SCALAR(ATTILA_REG_SCISSOR_TEST, BOOL),
    SCALAR(ATTILA_REG_SCISSOR_INI_X, S32),
    SCALAR(ATTILA_REG_SCISSOR_INI_Y, S32),
    SCALAR(ATTILA_REG_SCISSOR_WIDTH, U32),
    SCALAR(ATTILA_REG_SCISSOR_HEIGHT, U32),
    SCALAR(ATTILA_REG_DEPTH_RANGE_NEAR, F32),
    SCALAR(ATTILA_REG_DEPTH_RANGE_FAR, F32),
    SCALAR(ATTILA_REG_DEPTH_SLOPE_FACTOR, F32),
    SCALAR(ATTILA_REG_DEPTH_UNIT_OFFSET, F32),
    SCALAR(ATTILA_REG_Z_BUFFER_BIT_PRECISSION, U32),
    SCALAR(ATTILA_REG_D3D9_DEPTH_RANGE, BOOL),
    SCALAR(ATTILA_REG_D3D9_RASTERIZATION_RULES, BOOL),
    SCALAR(ATTILA_REG_TWOSIDED_LIGHTING, BOOL),
    SCALAR(ATTILA_REG_MULTISAMPLING, BOOL),
    SCALAR(ATTILA_REG_MSAA_SAMPLES, U32),
    ARRAY(ATTILA_REG_INTERPOLATION, ATTILA_MAX_FRAGMENT_ATTRIBUTES, BOOL),
    ARRAY(ATTILA_REG_FRAGMENT_INPUT_ATTRIBUTES, ATTILA_MAX_FRAGMENT_ATTRIBUTES, BOOL),
    SCALAR(ATTILA_REG_FRAGMENT_PROGRAM, U32),
    SCALAR(ATTILA_REG_FRAGMENT_PROGRAM_PC, U32),
    SCALAR(ATTILA_REG_FRAGMENT_PROGRAM_SIZE, U32),
    SCALAR(ATTILA_REG_FRAGMENT_THREAD_RESOURCES, U32),
    ARRAY(ATTILA_REG_FRAGMENT_CONSTANT, ATTILA_MAX_FRAGMENT_CONSTANTS, QF),
    SCALAR(ATTILA_REG_MODIFY_FRAGMENT_DEPTH, BOOL),
    /* [EXT] scalars; the doc types them [SHADER_TARGETS] (reference defect
     * ATTILA-5, docs/references.md) */
    ONE_OF(ATTILA_REG_SHADER_PROGRAM_ADDRESS, ATTILA_SHADER_TARGETS, U32),
    ONE_OF(ATTILA_REG_SHADER_PROGRAM_SIZE, ATTILA_SHADER_TARGETS, U32),
    ONE_OF(ATTILA_REG_SHADER_PROGRAM_LOAD_PC, ATTILA_SHADER_TARGETS, U32),
    ARRAY(ATTILA_REG_SHADER_PROGRAM_PC, ATTILA_SHADER_TARGETS, U32),
    ARRAY(ATTILA_REG_SHADER_THREAD_RESOURCES, ATTILA_SHADER_TARGETS, U32),
    ARRAY(ATTILA_REG_TEXTURE_ENABLE, TEX, BOOL),
    ENUM(ATTILA_REG_TEXTURE_MODE, TEX, 4),
    ARRAY(ATTILA_REG_TEXTURE_ADDRESS,
          TEX * ATTILA_MAX_TEXTURE_SIZE * ATTILA_CUBEMAP_IMAGES, U32),
    ARRAY(ATTILA_REG_TEXTURE_WIDTH, TEX, U32),
    ARRAY(ATTILA_REG_TEXTURE_HEIGHT, TEX, U32),
    ARRAY(ATTILA_REG_TEXTURE_DEPTH, TEX, U32),
    ARRAY(ATTILA_REG_TEXTURE_WIDTH2, TEX, U32),
    ARRAY(ATTILA_REG_TEXTURE_HEIGHT2, TEX, U32),
    ARRAY(ATTILA_REG_TEXTURE_DEPTH2, TEX, U32),
    ARRAY(ATTILA_REG_TEXTURE_BORDER, TEX, U32),
    ENUM(ATTILA_REG_TEXTURE_FORMAT, TEX, ATTILA_FMT_COUNT),
    ARRAY(ATTILA_REG_TEXTURE_REVERSE, TEX, BOOL),
    ARRAY(ATTILA_REG_TEXTURE_D3D9_COLOR_CONV, TEX, BOOL),
    ARRAY(ATTILA_REG_TEXTURE_D3D9_V_INV, TEX, BOOL),
    ENUM(ATTILA_REG_TEXTURE_COMPRESSION, TEX, 9),
    ENUM(ATTILA_REG_TEXTURE_BLOCKING, TEX, 2),
    ARRAY(ATTILA_REG_TEXTURE_BORDER_COLOR, TEX, QF),
    ENUM(ATTILA_REG_TEXTURE_WRAP_S, TEX, 5),
    ENUM(ATTILA_REG_TEXTURE_WRAP_T, TEX, 5),
    ENUM(ATTILA_REG_TEXTURE_WRAP_R, TEX, 5),
    ARRAY(ATTILA_REG_TEXTURE_NON_NORMALIZED, TEX, BOOL),
    ENUM(ATTILA_REG_TEXTURE_MIN_FILTER, TEX, 6),
    ENUM(ATTILA_REG_TEXTURE_MAG_FILTER, TEX, 2),
    ARRAY(ATTILA_REG_TEXTURE_ENABLE_COMPARISON, TEX, BOOL),
    ENUM(ATTILA_REG_TEXTURE_COMPARISON_FUNCTION, TEX, 8),
    ARRAY(ATTILA_REG_TEXTURE_SRGB, TEX, BOOL),
    ARRAY(ATTILA_REG_TEXTURE_MIN_LOD, TEX, F32),
    ARRAY(ATTILA_REG_TEXTURE_MAX_LOD, TEX, F32),
    ARRAY(ATTILA_REG_TEXTURE_LOD_BIAS, TEX, F32),
    ARRAY(ATTILA_REG_TEXTURE_MIN_LEVEL, TEX, U32),
    ARRAY(ATTILA_REG_TEXTURE_MAX_LEVEL, TEX, U32),
    ARRAY(ATTILA_REG_TEXT_UNIT_LOD_BIAS, TEX, F32),
    ARRAY(ATTILA_REG_TEXTURE_MAX_ANISOTROPY, TEX, U32),
    SCALAR(ATTILA_REG_Z_BUFFER_CLEAR, U32),
    SCALAR(ATTILA_REG_STENCIL_BUFFER_CLEAR, U32),
    SCALAR(ATTILA_REG_ZSTENCIL_STATE_BUFFER_MEM_ADDR, U32),
    SCALAR(ATTILA_REG_STENCIL_TEST, BOOL),
    ENUM(ATTILA_REG_STENCIL_FUNCTION, 1, 8),
    SCALAR(ATTILA_REG_STENCIL_REFERENCE, U32),
    SCALAR(ATTILA_REG_STENCIL_COMPARE_MASK, U32),
    SCALAR(ATTILA_REG_STENCIL_UPDATE_MASK, U32),
    ENUM(ATTILA_REG_STENCIL_FAIL_UPDATE, 1, 8),
    ENUM(ATTILA_REG_DEPTH_FAIL_UPDATE, 1, 8),
    ENUM(ATTILA_REG_DEPTH_PASS_UPDATE, 1, 8),
    SCALAR(ATTILA_REG_DEPTH_TEST, BOOL),
    ENUM(ATTILA_REG_DEPTH_FUNCTION, 1, 8),
    SCALAR(ATTILA_REG_DEPTH_MASK, BOOL),
    SCALAR(ATTILA_REG_ZSTENCIL_COMPRESSION, BOOL),
    ENUM(ATTILA_REG_COLOR_BUFFER_FORMAT, 1, ATTILA_FMT_COUNT),
    SCALAR(ATTILA_REG_COLOR_COMPRESSION, BOOL),
    SCALAR(ATTILA_REG_COLOR_SRGB_WRITE, BOOL),
    ARRAY(ATTILA_REG_RENDER_TARGET_ENABLE, RT, BOOL),
    ENUM(ATTILA_REG_RENDER_TARGET_FORMAT, RT, ATTILA_FMT_COUNT),
    ARRAY(ATTILA_REG_RENDER_TARGET_ADDRESS, RT, U32),
    SCALAR(ATTILA_REG_COLOR_BUFFER_CLEAR, QF),
    SCALAR(ATTILA_REG_COLOR_STATE_BUFFER_MEM_ADDR, U32),
    ARRAY(ATTILA_REG_COLOR_BLEND, RT, BOOL),
    ENUM(ATTILA_REG_BLEND_EQUATION, RT, 5),
    ENUM(ATTILA_REG_BLEND_SRC_RGB, RT, 15),
    ENUM(ATTILA_REG_BLEND_DST_RGB, RT, 15),
    ENUM(ATTILA_REG_BLEND_SRC_ALPHA, RT, 15),
    ENUM(ATTILA_REG_BLEND_DST_ALPHA, RT, 15),
    ARRAY(ATTILA_REG_BLEND_COLOR, RT, QF),
    ARRAY(ATTILA_REG_COLOR_MASK_R, RT, BOOL),
    ARRAY(ATTILA_REG_COLOR_MASK_G, RT, BOOL),
    ARRAY(ATTILA_REG_COLOR_MASK_B, RT, BOOL),
    ARRAY(ATTILA_REG_COLOR_MASK_A, RT, BOOL),
    SCALAR(ATTILA_REG_LOGICAL_OPERATION, BOOL),
    ENUM(ATTILA_REG_LOGICOP_FUNCTION, 1, 16),
    SCALAR(ATTILA_REG_MCV2_2ND_INTERLEAVING_START_ADDR, U32),
    SCALAR(ATTILA_REG_BLIT_INI_X, U32),
    SCALAR(ATTILA_REG_BLIT_INI_Y, U32),
    SCALAR(ATTILA_REG_BLIT_X_OFFSET, U32),
    SCALAR(ATTILA_REG_BLIT_Y_OFFSET, U32),
    SCALAR(ATTILA_REG_BLIT_WIDTH, U32),
    SCALAR(ATTILA_REG_BLIT_HEIGHT, U32),
    SCALAR(ATTILA_REG_BLIT_DST_ADDRESS, U32),
    SCALAR(ATTILA_REG_BLIT_DST_TX_WIDTH2, U32),
    ENUM(ATTILA_REG_BLIT_DST_TX_FORMAT, 1, ATTILA_FMT_COUNT),
    ENUM(ATTILA_REG_BLIT_DST_TX_BLOCK, 1, 2),
};

const char *attila_reg_name(uint32_t id)
{
    if (id >= ATTILA_REG_LAST_REGISTER || !attila_reg_info[id].name) {
        return "?";
    }
    return attila_reg_info[id].name;
}

/* ---- reset values (attila-sim GPUEmulator.cpp resetState) ---------------- */

static void set_u32(AttilaCore *c, int id, int idx, uint32_t v)
{
    memset(&c->rf[id][idx], 0, sizeof(AttilaRegValue));
    c->rf[id][idx].u[0] = v;
}

static void set_f32(AttilaCore *c, int id, int idx, float v)
{
    memset(&c->rf[id][idx], 0, sizeof(AttilaRegValue));
    c->rf[id][idx].f[0] = v;
}

static void set_qf(AttilaCore *c, int id, int idx, float x, float y, float z,
                   float w)
{
    c->rf[id][idx].f[0] = x;
    c->rf[id][idx].f[1] = y;
    c->rf[id][idx].f[2] = z;
    c->rf[id][idx].f[3] = w;
}

static void fill_u32(AttilaCore *c, int id, uint32_t v)
{
    int i;

    for (i = 0; i < attila_reg_info[id].stored; i++) {
        set_u32(c, id, i, v);
    }
}

static void fill_f32(AttilaCore *c, int id, float v)
{
    int i;

    for (i = 0; i < attila_reg_info[id].stored; i++) {
        set_f32(c, id, i, v);
    }
}

void attila_gpu_reset_state(AttilaCore *c)
{
    int id, i;

    /* everything not listed below resets to 0 / FALSE */
    for (id = 0; id < ATTILA_REG_LAST_REGISTER; id++) {
        if (c->rf[id]) {
            memset(c->rf[id], 0,
                   attila_reg_info[id].stored * sizeof(AttilaRegValue));
        }
    }
    c->gpu_status = ATTILA_ST_RESET;
    set_u32(c, ATTILA_REG_MEMORY, 0, (uint32_t)(c->cfg.vram_size >> 20));
    set_u32(c, ATTILA_REG_DISPLAY_X_RES, 0, 400);
    set_u32(c, ATTILA_REG_DISPLAY_Y_RES, 0, 400);
    set_u32(c, ATTILA_REG_FRONTBUFFER_ADDR, 0, 0x00200000);
    set_u32(c, ATTILA_REG_BACKBUFFER_ADDR, 0, 0x00400000);
    fill_u32(c, ATTILA_REG_VERTEX_ATTRIBUTE_MAP, ATTILA_ST_INACTIVE_ATTRIBUTE);
    for (i = 0; i < ATT; i++) {
        set_qf(c, ATTILA_REG_VERTEX_ATTRIBUTE_DEFAULT_VALUE, i, 0, 0, 0, 1);
    }
    fill_u32(c, ATTILA_REG_STREAM_DATA, ATTILA_SD_UNORM32);
    set_u32(c, ATTILA_REG_STREAM_INSTANCES, 0, 1);
    set_u32(c, ATTILA_REG_INDEX_MODE, 0, 1);
    set_u32(c, ATTILA_REG_PRIMITIVE, 0, ATTILA_PRIM_TRIANGLE);
    set_u32(c, ATTILA_REG_FACEMODE, 0, ATTILA_FACE_CCW);
    set_u32(c, ATTILA_REG_EARLYZ, 0, 1);
    set_u32(c, ATTILA_REG_VIEWPORT_WIDTH, 0, 400);
    set_u32(c, ATTILA_REG_VIEWPORT_HEIGHT, 0, 400);
    set_f32(c, ATTILA_REG_DEPTH_RANGE_FAR, 0, 1.0f);
    set_u32(c, ATTILA_REG_Z_BUFFER_BIT_PRECISSION, 0, 24);
    set_u32(c, ATTILA_REG_MSAA_SAMPLES, 0, 1);
    fill_u32(c, ATTILA_REG_INTERPOLATION, 1);
    fill_u32(c, ATTILA_REG_TEXTURE_MODE, ATTILA_TEX_2D);
    fill_u32(c, ATTILA_REG_TEXTURE_FORMAT, ATTILA_FMT_RGBA8888);
    for (i = 0; i < TEX; i++) {
        set_qf(c, ATTILA_REG_TEXTURE_BORDER_COLOR, i, 0, 0, 0, 1);
    }
    fill_u32(c, ATTILA_REG_TEXTURE_COMPARISON_FUNCTION, ATTILA_CMP_LEQUAL);
    fill_f32(c, ATTILA_REG_TEXTURE_MAX_LOD, 12.0f);
    fill_u32(c, ATTILA_REG_TEXTURE_MAX_LEVEL, 12);
    fill_u32(c, ATTILA_REG_TEXTURE_MAX_ANISOTROPY, 1);
    set_u32(c, ATTILA_REG_Z_BUFFER_CLEAR, 0, 0x00ffffff);
    set_u32(c, ATTILA_REG_STENCIL_FUNCTION, 0, ATTILA_CMP_ALWAYS);
    set_u32(c, ATTILA_REG_STENCIL_COMPARE_MASK, 0, 0xff);
    set_u32(c, ATTILA_REG_STENCIL_UPDATE_MASK, 0, 0xff);
    set_u32(c, ATTILA_REG_DEPTH_FUNCTION, 0, ATTILA_CMP_LESS);
    set_u32(c, ATTILA_REG_DEPTH_MASK, 0, 1);
    set_u32(c, ATTILA_REG_ZSTENCIL_COMPRESSION, 0, 1);
    set_u32(c, ATTILA_REG_COLOR_BUFFER_FORMAT, 0, ATTILA_FMT_RGBA8888);
    set_u32(c, ATTILA_REG_COLOR_COMPRESSION, 0, 1);
    for (i = 0; i < RT; i++) {
        set_u32(c, ATTILA_REG_RENDER_TARGET_FORMAT, i, ATTILA_FMT_R32F);
        set_u32(c, ATTILA_REG_RENDER_TARGET_ADDRESS, i, 0x600000 + 0x100000 * i);
        set_u32(c, ATTILA_REG_BLEND_SRC_RGB, i, ATTILA_BF_ONE);
        set_u32(c, ATTILA_REG_BLEND_SRC_ALPHA, i, ATTILA_BF_ONE);
        set_qf(c, ATTILA_REG_BLEND_COLOR, i, 0, 0, 0, 1);
        set_u32(c, ATTILA_REG_COLOR_MASK_R, i, 1);
        set_u32(c, ATTILA_REG_COLOR_MASK_G, i, 1);
        set_u32(c, ATTILA_REG_COLOR_MASK_B, i, 1);
        set_u32(c, ATTILA_REG_COLOR_MASK_A, i, 1);
    }
    /* the back buffer is render target 0 (ATTILA ref. Registers,
     * Color/Blend) */
    set_u32(c, ATTILA_REG_RENDER_TARGET_ENABLE, 0, 1);
    set_u32(c, ATTILA_REG_RENDER_TARGET_FORMAT, 0, ATTILA_FMT_RGBA8888);
    set_u32(c, ATTILA_REG_RENDER_TARGET_ADDRESS, 0, 0x00400000);
    set_qf(c, ATTILA_REG_COLOR_BUFFER_CLEAR, 0, 0, 0, 0, 1);
    set_u32(c, ATTILA_REG_LOGICOP_FUNCTION, 0, ATTILA_LOGICOP_COPY);
    set_u32(c, ATTILA_REG_BLIT_WIDTH, 0, 400);
    set_u32(c, ATTILA_REG_BLIT_HEIGHT, 0, 400);
    set_u32(c, ATTILA_REG_BLIT_DST_ADDRESS, 0, 0x08000000);
    set_u32(c, ATTILA_REG_BLIT_DST_TX_WIDTH2, 0, 9);
    set_u32(c, ATTILA_REG_BLIT_DST_TX_FORMAT, 0, ATTILA_FMT_RGBA8888);
    memset(c->vconst, 0, sizeof(c->vconst));
    memset(c->fconst, 0, sizeof(c->fconst));
}

/* ---- writes ----------------------------------------------------------- */

static bool rt_format_ok(uint32_t f)
{
    return attila_rt_bytes(f) != 0;
}

/*
 * Register-specific value checks beyond the enum limit: what a draw or a
 * clear would otherwise misuse. A bad value is refused (the register keeps
 * its value) and reported.
 */
static bool value_ok(uint32_t id, uint32_t idx, const AttilaRegValue *v)
{
    uint32_t u = v->u[0];

    switch (id) {
    case ATTILA_REG_DISPLAY_X_RES:
    case ATTILA_REG_DISPLAY_Y_RES:
        return u <= ATTILA_MAX_DISPLAY_RES;
    case ATTILA_REG_VERTEX_PROGRAM_PC:
    case ATTILA_REG_FRAGMENT_PROGRAM_PC:
    case ATTILA_REG_SHADER_PROGRAM_LOAD_PC:
    case ATTILA_REG_SHADER_PROGRAM_PC:
        return u < ATTILA_INSTRUCTION_MEMORY;
    case ATTILA_REG_VERTEX_ATTRIBUTE_MAP:
        return u < ATTILA_MAX_STREAM_BUFFERS || u == ATTILA_ST_INACTIVE_ATTRIBUTE;
    case ATTILA_REG_STREAM_ELEMENTS:
        return u <= 4;
    case ATTILA_REG_INDEX_STREAM:
        return u < ATTILA_MAX_STREAM_BUFFERS;
    case ATTILA_REG_MSAA_SAMPLES:
        return u == 1 || u == 2 || u == 4 || u == 8;
    case ATTILA_REG_Z_BUFFER_BIT_PRECISSION:
        return u == 24;     /* "only valid value: 24" (doc L932) */
    case ATTILA_REG_COLOR_BUFFER_FORMAT:
    case ATTILA_REG_RENDER_TARGET_FORMAT:
        return rt_format_ok(u);
    case ATTILA_REG_TEXTURE_MIN_LEVEL:
    case ATTILA_REG_TEXTURE_MAX_LEVEL:
        return u < ATTILA_MAX_TEXTURE_SIZE;
    case ATTILA_REG_TEXTURE_WIDTH2:
    case ATTILA_REG_TEXTURE_HEIGHT2:
    case ATTILA_REG_TEXTURE_DEPTH2:
    case ATTILA_REG_BLIT_DST_TX_WIDTH2:
        /* reference defect ATTILA-12, docs/references.md */
        return u < ATTILA_MAX_TEXTURE_SIZE;
    case ATTILA_REG_TEXTURE_WIDTH:
    case ATTILA_REG_TEXTURE_HEIGHT:
    case ATTILA_REG_TEXTURE_DEPTH:
        return u < (1u << ATTILA_MAX_TEXTURE_SIZE);
    default:
        return true;
    }
}

bool attila_register_write(AttilaCore *c, uint32_t id, uint32_t idx,
                           const uint8_t value[16])
{
    const AttilaRegInfo *ri;
    AttilaRegValue v;
    uint32_t slot;

    if (id >= ATTILA_REG_LAST_REGISTER ||
        attila_reg_info[id].type == ATTILA_RT_MARKER) {
        g3d_error(&c->errors, ATTILA_ERR_REGISTER, id,
                  "REG_WRITE to unknown register %u", id);
        return false;
    }
    ri = &attila_reg_info[id];
    if (ri->type == ATTILA_RT_RO) {
        g3d_error(&c->errors, ATTILA_ERR_REGISTER, id,
                  "REG_WRITE to read-only register GPU_%s", ri->name);
        return false;
    }
    if (idx >= ri->count) {
        g3d_error(&c->errors, ATTILA_ERR_SUBINDEX, id | (idx & 0xffffff) << 8,
                  "REG_WRITE GPU_%s[%u]: sub-index out of range (0..%u)",
                  ri->name, idx, ri->count - 1);
        return false;
    }
    memcpy(v.b, value, 16);
    if (ri->type == ATTILA_RT_ENUM && v.u[0] >= ri->limit) {
        g3d_error(&c->errors, ATTILA_ERR_VALUE, id,
                  "REG_WRITE GPU_%s[%u] = %u: not a valid value", ri->name,
                  idx, v.u[0]);
        return false;
    }
    if (!value_ok(id, idx, &v)) {
        g3d_error(&c->errors, ATTILA_ERR_VALUE, id,
                  "REG_WRITE GPU_%s[%u] = 0x%x: out of range", ri->name, idx,
                  v.u[0]);
        return false;
    }
    slot = ri->stored == 1 ? 0 : idx;
    /* store the bytes the type uses, the rest reads as 0 */
    memset(&c->rf[id][slot], 0, sizeof(AttilaRegValue));
    switch (ri->type) {
    case ATTILA_RT_BOOL:
        c->rf[id][slot].b[0] = v.b[0];
        break;
    case ATTILA_RT_QF:
        c->rf[id][slot] = v;
        break;
    default:
        c->rf[id][slot].u[0] = v.u[0];
        break;
    }

    /* side effects and aliases */
    switch (id) {
    case ATTILA_REG_VERTEX_CONSTANT:
        memcpy(c->vconst[idx].f, v.f, 16);
        break;
    case ATTILA_REG_FRAGMENT_CONSTANT:
        /* the fragment partition of the unified bank holds 512 (attila-sim
         * ShaderEmulator.cpp) */
        if (idx < ATTILA_SH_CONSTS) {
            memcpy(c->fconst[idx].f, v.f, 16);
        }
        break;
    case ATTILA_REG_BACKBUFFER_ADDR:
        c->rf[ATTILA_REG_RENDER_TARGET_ADDRESS][0] = c->rf[id][0];
        break;
    case ATTILA_REG_RENDER_TARGET_ADDRESS:
        if (idx == 0) {
            c->rf[ATTILA_REG_BACKBUFFER_ADDR][0] = c->rf[id][0];
        }
        break;
    case ATTILA_REG_COLOR_BUFFER_FORMAT:
        c->rf[ATTILA_REG_RENDER_TARGET_FORMAT][0] = c->rf[id][0];
        break;
    case ATTILA_REG_RENDER_TARGET_FORMAT:
        if (idx == 0) {
            c->rf[ATTILA_REG_COLOR_BUFFER_FORMAT][0] = c->rf[id][0];
        }
        break;
    default:
        break;
    }
    return true;
}

/* a stored value REG_WRITE could have stored (a saved state's check) */
bool attila_register_value_valid(uint32_t id, uint32_t idx,
                                 const AttilaRegValue *v)
{
    const AttilaRegInfo *ri = &attila_reg_info[id];

    if (ri->type == ATTILA_RT_ENUM && v->u[0] >= ri->limit) {
        return false;
    }
    return ri->type == ATTILA_RT_RO || value_ok(id, idx, v);
}

/* allocate the register file storage */
void attila_regfile_init(AttilaCore *c)
{
    size_t total = 0, off = 0;
    int id;

    for (id = 0; id < ATTILA_REG_LAST_REGISTER; id++) {
        total += attila_reg_info[id].stored;
    }
    c->rf_store = g_new0(AttilaRegValue, total);
    for (id = 0; id < ATTILA_REG_LAST_REGISTER; id++) {
        if (attila_reg_info[id].stored) {
            c->rf[id] = &c->rf_store[off];
            off += attila_reg_info[id].stored;
        } else {
            c->rf[id] = NULL;
        }
    }
}
