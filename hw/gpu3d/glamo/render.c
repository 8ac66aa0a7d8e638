/*
 * The back end ("Render", 2100h-25FFh): per pixel, colour (Gouraud or
 * flat) and specular, texture blending, fog, alpha test, stencil test,
 * 16-bit or float Z test, alpha blending, dither, raster operation and the
 * colour write mask, into a 16 bpp destination (2120h-212Bh). Order as in
 * Glamo3365 3D spec, functional description. Pixels are bounded by the clip
 * rectangle (2164h/2168h, s9, right and bottom exclusive) and by the
 * destination pitch.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "glamo-int.h"

#include <glib.h>
#include <math.h>
#include <string.h>

#include "common/fill.h"
#include "common/fragment.h"
#include "common/fpformat.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* "[5].11 floating point" Z: unsigned, 5-bit exponent (docs: bias 31) */
static const G3DFloatFmt zf_fmt = { 5, 11, 31, G3D_FP_ROUND };

/* ---- destination formats (EGDST0CFM, L2694-L2740) ----------------------- */

typedef GlamoDstLayout DstLayout;

static bool dst_layout(uint8_t cfm, DstLayout *l)
{
    static const DstLayout base[4] = {
        { 5, 5, 5, 0, 10, 5, 0, 0 },     /* RGB555 */
        { 5, 6, 5, 0, 11, 5, 0, 0 },     /* RGB565 */
        { 5, 5, 5, 1, 10, 5, 0, 15 },    /* ARGB1555 */
        { 4, 4, 4, 4, 8, 4, 0, 12 },     /* ARGB4444 */
    };
    uint8_t t;

    if ((cfm & 0x3c) != 0x10) {
        return false;
    }
    *l = base[cfm & 3];
    if (cfm & 0x40) {           /* BGR order: red and blue swap places */
        t = l->rs;
        l->rs = l->bs;
        l->bs = t;
    }
    return true;
}

static const uint8_t bayer4[4][4] = {
    { 0, 8, 2, 10 }, { 12, 4, 14, 6 }, { 3, 11, 1, 9 }, { 15, 7, 13, 5 },
};

static inline uint32_t to_bits(float v, int bits, float bias)
{
    uint32_t max = (1u << bits) - 1;
    /* non-negative after the clamp: truncation is floor */
    uint32_t u = (uint32_t)(g3d_clampf(v, 0.0f, 1.0f) * (float)max + bias);
    return u > max ? max : u;
}

static inline __attribute__((always_inline))
uint16_t pack_dst(const DstLayout *l, const float c[4], float bias)
{
    uint16_t p = (uint16_t)(to_bits(c[0], l->rb, bias) << l->rs |
                            to_bits(c[1], l->gb, bias) << l->gs |
                            to_bits(c[2], l->bb, bias) << l->bs);
    if (l->ab) {
        p |= (uint16_t)(to_bits(c[3], l->ab, bias) << l->as);
    }
    return p;
}

static void unpack_dst(const DstLayout *l, uint16_t p, float dst_alpha,
                       float c[4])
{
    c[0] = g3d_unorm2f((p >> l->rs) & ((1u << l->rb) - 1), l->rb);
    c[1] = g3d_unorm2f((p >> l->gs) & ((1u << l->gb) - 1), l->gb);
    c[2] = g3d_unorm2f((p >> l->bs) & ((1u << l->bb) - 1), l->bb);
    c[3] = l->ab ? g3d_unorm2f((p >> l->as) & ((1u << l->ab) - 1), l->ab)
                 : dst_alpha;
}

/* ---- decoding the state ------------------------------------------------- */

static G3DQuadFn *choose_quad(GlamoRenderState *rs);
static bool tile_order_shows(const GlamoRenderState *rs);

static bool surface_fits(GlamoRenderState *rs, uint32_t base, uint32_t pitch,
                         uint64_t line_bytes, const char *what)
{
    const G3DRect *r = &rs->clip;
    uint64_t end;

    if (r->x1 <= r->x0 || r->y1 <= r->y0) {
        return true;
    }
    end = base + (uint64_t)pitch * (r->y1 - 1) + line_bytes;
    if (end > rs->vram_size) {
        g3d_guest_error("glamo render: %s at 0x%x pitch %u needs %llu bytes, "
                        "past VRAM; primitives skipped", what, base, pitch,
                        (unsigned long long)end);
        return false;
    }
    return true;
}

static int bl_factor_src(int code, bool *both, bool *inv)
{
    static const int8_t map[17] = {
        G3D_BF_ZERO, G3D_BF_ONE, G3D_BF_SRC_COLOR, G3D_BF_INV_SRC_COLOR,
        G3D_BF_SRC_ALPHA, G3D_BF_INV_SRC_ALPHA, G3D_BF_DST_ALPHA,
        G3D_BF_INV_DST_ALPHA, G3D_BF_DST_COLOR, G3D_BF_INV_DST_COLOR,
        G3D_BF_SRC_ALPHA_SAT, G3D_BF_SRC_ALPHA, G3D_BF_INV_SRC_ALPHA,
        G3D_BF_CONST_COLOR, G3D_BF_INV_CONST_COLOR, G3D_BF_CONST_ALPHA,
        G3D_BF_INV_CONST_ALPHA,
    };
    *both = code == 11 || code == 12;
    *inv = code == 12;
    if (code > 16) {
        g3d_guest_error("glamo render: reserved source blend factor %d, "
                        "ONE used", code);
        return G3D_BF_ONE;
    }
    return map[code];
}

static int bl_factor_dst(int code)
{
    static const int8_t map[15] = {
        G3D_BF_ZERO, G3D_BF_ONE, G3D_BF_SRC_COLOR, G3D_BF_INV_SRC_COLOR,
        G3D_BF_SRC_ALPHA, G3D_BF_INV_SRC_ALPHA, G3D_BF_DST_ALPHA,
        G3D_BF_INV_DST_ALPHA, G3D_BF_DST_COLOR, G3D_BF_INV_DST_COLOR,
        G3D_BF_SRC_ALPHA_SAT, G3D_BF_CONST_COLOR, G3D_BF_INV_CONST_COLOR,
        G3D_BF_CONST_ALPHA, G3D_BF_INV_CONST_ALPHA,
    };
    if (code > 14) {
        g3d_guest_error("glamo render: reserved destination blend factor %d, "
                        "ZERO used", code);
        return G3D_BF_ZERO;
    }
    return map[code];
}

static int bl_equation(int code)
{
    switch (code) {
    case GLAMO_BLEQ_ADD: return G3D_BEQ_ADD;
    case GLAMO_BLEQ_SUB: return G3D_BEQ_SUB;
    case GLAMO_BLEQ_MAX: return G3D_BEQ_MAX;
    case GLAMO_BLEQ_MIN: return G3D_BEQ_MIN;
    case GLAMO_BLEQ_REVSUB: return G3D_BEQ_REV_SUB;
    default:
        g3d_guest_error("glamo render: reserved blend equation %d, ADD used",
                        code);
        return G3D_BEQ_ADD;
    }
}

/* the A6 R5 G6 B5 colours of 2160h, 21ACh-21B4h, 220Ch-2214h */
void glamo_render_decode(GlamoCore *c, GlamoRenderState *rs)
{
    uint32_t en0 = glamo_r32(c, A_EGEN0), en1 = glamo_r32(c, A_EGEN1);
    uint32_t dst = glamo_r32(c, A_EGDST0SET), zset = glamo_r32(c, A_EGZSET);
    uint32_t cltb = glamo_r32(c, A_EGCLTB), cllr = glamo_r32(c, A_EGCLLR);
    uint32_t bl = glamo_r32(c, A_EGBLSET), fog = glamo_r32(c, A_EGFOGSET);
    uint32_t st = glamo_r32(c, A_EGSTSET), sop = glamo_r32(c, A_EGSTOP);
    uint32_t f3 = glamo_r32(c, A_RGXFEN3);
    DstLayout l;
    int left, right, top, bot, shmd;
    bool both, inv;

    memset(rs, 0, sizeof(*rs));
    rs->vram = c->vram;
    rs->vram_size = c->vram_size;
    rs->valid = c->vram != NULL;

    /* destination 0 */
    rs->dst_base = glamo_r32(c, A_EGDST0BAS) & 0x7ffffe;
    rs->dst_pitch = (dst & 0x3ff) * 2;
    rs->dst_fmt = (dst >> 16) & 0x7f;
    rs->rop = (dst >> 24) & 0xf;
    rs->cmask = (en1 & R_EGEN1_EGenCWrMask_MASK) ?
                (uint16_t)glamo_r32(c, A_EGD0CWrMASK) : 0xffff;
    if (!dst_layout(rs->dst_fmt, &l)) {
        g3d_guest_error("glamo render: destination format 0x%02x is "
                        "reserved, primitives skipped", rs->dst_fmt);
        rs->valid = false;
    }
    if (rs->dst_pitch == 0) {
        g3d_guest_error("glamo render: destination pitch 0, primitives "
                        "skipped");
        rs->valid = false;
    }

    /* clip rectangle: s9, left/top inclusive, right/bottom exclusive */
    top = g3d_sextract32(cltb, 16, 10);
    bot = g3d_sextract32(cltb, 0, 10);
    left = g3d_sextract32(cllr, 16, 10);
    right = g3d_sextract32(cllr, 0, 10);
    rs->clip.x0 = MAX(left, 0);
    rs->clip.y0 = MAX(top, 0);
    rs->clip.x1 = MIN(right, (int)(rs->dst_pitch / 2));
    rs->clip.y1 = bot;
    if (rs->valid && !surface_fits(rs, rs->dst_base, rs->dst_pitch,
                                   (uint64_t)rs->clip.x1 * 2, "destination")) {
        rs->valid = false;
    }

    /* depth */
    rs->z_test = en0 & R_EGEN0_EGenZT_MASK;
    rs->z_write = en0 & R_EGEN0_EGenZW_MASK;
    rs->z_func = rs->z_test ? (zset >> 16) & 7 : G3D_CMP_ALWAYS;
    rs->z_fmt = (zset >> 20) & 0x7f;
    rs->z_base = glamo_r32(c, A_EGZBAS) & 0x7ffffe;
    rs->z_pitch = (zset & 0x3ff) * 2;
    rs->zmask = (en1 & R_EGEN1_EGenZWrMask_MASK) ?
                c->regs[A_EGZWrMASK >> 1] : 0xffff;
    rs->z_scale = (f3 & R_RGXFEN3_RGPenZscale_MASK) ?
                  glamo_rf24(c, A_RGPdvRWfar) : 1.0f;
    if (rs->z_test || rs->z_write) {
        if ((rs->z_fmt & 0x7c) == GLAMO_ZFMT_F1Z15 ||
            (rs->z_fmt & 0x7c) == GLAMO_ZFMT_F2Z14) {
            g3d_unimp("glamo render: Z format F1Z15/F2Z14 (0x%02x) not "
                      "modelled, Z16 used", rs->z_fmt);
            rs->z_fmt = GLAMO_ZFMT_Z16;
        } else if (rs->z_fmt != GLAMO_ZFMT_Z16 &&
                   rs->z_fmt != GLAMO_ZFMT_FLOAT511) {
            g3d_guest_error("glamo render: reserved Z format 0x%02x, "
                            "primitives skipped", rs->z_fmt);
            rs->valid = false;
        }
        if (rs->z_pitch == 0 ||
            !surface_fits(rs, rs->z_base, rs->z_pitch,
                          (uint64_t)rs->clip.x1 * 2, "Z buffer")) {
            if (rs->z_pitch == 0) {
                g3d_guest_error("glamo render: Z pitch 0 with Z enabled, "
                                "primitives skipped");
            }
            rs->valid = false;
        }
    }

    /* stencil */
    rs->st_test = en0 & R_EGEN0_EGenStT_MASK;
    if (rs->st_test) {
        static const uint8_t bits[4] = { 1, 2, 4, 8 };
        rs->st_bits = bits[(st >> 28) & 3];
        rs->st_func = (st >> 24) & 7;
        rs->st_ref = (st >> 8) & 0xff;
        rs->st_mask = st & 0xff;
        rs->st_wmask = (en1 & R_EGEN1_EGenStWrMask_MASK) ? sop >> 24 : 0xff;
        rs->st_wmask &= (1u << rs->st_bits) - 1;
        rs->st_fail = (sop >> 20) & 7;
        rs->st_zfail = (sop >> 16) & 7;
        rs->st_zpass = (sop >> 12) & 7;
        rs->st_base = glamo_r32(c, A_EGStBAS) & 0x7ffffe;
        rs->st_pitch = (sop & 0x3ff) * 2;
        rs->st_write = rs->st_wmask != 0;
        if (rs->st_pitch == 0 ||
            !surface_fits(rs, rs->st_base, rs->st_pitch,
                          ((uint64_t)rs->clip.x1 * rs->st_bits + 7) / 8,
                          "stencil buffer")) {
            if (rs->st_pitch == 0) {
                g3d_guest_error("glamo render: stencil pitch 0 with the "
                                "stencil test on, primitives skipped");
            }
            rs->valid = false;
        }
    }

    /* alpha test: 6-bit precision, "use [A7:A2]" (L2628) */
    rs->a_test = en0 & R_EGEN0_EGenAT_MASK;
    rs->a_func = (glamo_r32(c, A_EGATEST) >> 8) & 7;
    rs->a_ref = glamo_r32(c, A_EGATEST) & 0xff;

    /* blending */
    rs->blend = en0 & R_EGEN0_EGenBLEND_MASK;
    if (rs->blend) {
        uint32_t af = glamo_r32(c, A_EGABLFACT);
        rs->eq_c = bl_equation((bl >> 24) & 7);
        rs->src_c = bl_factor_src((bl >> 4) & 0x1f, &both, &inv);
        rs->dst_c = both ? (inv ? G3D_BF_SRC_ALPHA : G3D_BF_INV_SRC_ALPHA)
                         : bl_factor_dst(bl & 0xf);
        if (bl & R_EGBLSET_EGenABLSepSet_MASK) {
            rs->eq_a = bl_equation((bl >> 27) & 7);
            rs->src_a = bl_factor_src((af >> 4) & 0x1f, &both, &inv);
            rs->dst_a = both ? (inv ? G3D_BF_SRC_ALPHA : G3D_BF_INV_SRC_ALPHA)
                             : bl_factor_dst(af & 0xf);
        } else {
            rs->eq_a = rs->eq_c;
            rs->src_a = rs->src_c;
            rs->dst_a = rs->dst_c;
        }
        glamo_argb6565(glamo_r32(c, A_EGBLCst), rs->blend_const);
    }
    /* EGDDstAl, 9 bits: 256 = 1.0 (docs) */
    rs->dst_alpha = MIN(((bl >> 12) & 0x1ff) / 256.0f, 1.0f);
    rs->dither = en0 & R_EGEN0_EGenDITH_MASK;

    /* shading (260Ch D[13:11]) */
    shmd = (f3 >> 11) & 7;
    rs->gouraud = shmd == GLAMO_SHADE_GOURAUD;
    rs->flat_vertex = shmd >= 1 && shmd <= 3 ? shmd - 1 : 0;
    if (shmd == 0 || shmd > GLAMO_SHADE_GOURAUD) {
        g3d_guest_error("glamo render: reserved shading mode %d, Gouraud "
                        "used", shmd);
        rs->gouraud = true;
    }
    rs->specular = en0 & R_EGEN0_EGenSPEC_MASK;

    /* fog (213Ch-214Bh) */
    rs->fog = en0 & R_EGEN0_EGenFOG_MASK;
    if (rs->fog) {
        rs->fog_mode = (fog >> 24) & 7;
        rs->fog_z = fog & R_EGFOGSET_EGFOGZT_MASK;
        rs->fog_color[0] = ((fog >> 16) & 0xff) / 255.0f;
        rs->fog_color[1] = ((fog >> 8) & 0xff) / 255.0f;
        rs->fog_color[2] = (fog & 0xff) / 255.0f;
        rs->fog_end = glamo_f18_to_float(glamo_r32(c, A_EGFLEND));
        rs->fog_invd = glamo_f18_to_float(glamo_r32(c, A_EGFLINVD));
        rs->fog_density = glamo_f18_to_float(glamo_r32(c, A_EGFDENST));
        if (rs->fog_mode != GLAMO_FOG_CONSTANT && rs->fog_mode < GLAMO_FOG_NORMAL) {
            g3d_guest_error("glamo render: reserved fog mode %d, fog off",
                            rs->fog_mode);
            rs->fog = false;
        }
    }
    /*
     * Stipple (2104h D[15], D[11]; 2138h; L323, L2751-L2766): the pattern
     * is a texture read through unit EGStippleTxSel. Polygons step it
     * 1/32 per pixel in u and +1/32 (EGPolyStippleTxDir 0) or -1/32 (1)
     * per row in v: a 32x32 pattern repeats as GL's polygon stipple does.
     * Lines step u by RGPLnRepeat = 1/(16 R) per pixel along the major
     * axis: a 16-texel pattern, each texel R pixels long, as GL's line
     * stipple. A pattern texel with alpha 0 removes the pixel.
     */
    rs->poly_stipple = en1 & R_EGEN1_EGenPolyStipple_MASK;
    rs->line_stipple = en1 & R_EGEN1_EGenLineStipple_MASK;
    rs->stipple_unit = GLAMO_FIELD(c, EGSTIPSEL, EGStippleTxSel);
    rs->stipple_vneg = GLAMO_FIELD(c, EGSTIPSEL, EGPolyStippleTxDir);
    rs->line_repeat = glamo_rf24(c, A_RGPLnRepeat);
    /*
     * AA lines and points (2100h D[2], 2104h D[14:13], 2138h D[4], D[0],
     * 2668h): the coverage is a texture too, read at u = distance from the
     * line's centre line times RGRCpHalf (1 / half the width) or distance
     * from the point's centre over half its size, so u runs from 0 in the
     * middle to 1 at the edge; the texel's alpha scales the fragment's
     * alpha. With EGenAALineAT a coverage of 0 removes the fragment.
     */
    rs->aa_line = en0 & R_EGEN0_EGenAALine_MASK;
    rs->aa_point = en1 & R_EGEN1_EGenAAPoint_MASK;
    rs->aa_test = en1 & R_EGEN1_EGenAALineAT_MASK;
    rs->aa_line_unit = GLAMO_FIELD(c, EGSTIPSEL, EGAALineTxSel);
    rs->aa_point_unit = GLAMO_FIELD(c, EGSTIPSEL, EGAAPointTxSel);
    rs->aa_inv_half = glamo_rf24(c, A_RGRCpHalf);
    glamo_tex_decode(c, rs);
    rs->shade = choose_quad(rs);
    rs->serial_tiles = tile_order_shows(rs);
}

/* the AA coverage of the quad's pixels (1 where AA is off) */
static void aa_coverage(const GlamoTri *t, const G3DQuad *q, float cov[4])
{
    const GlamoRenderState *rs = t->rs;
    const GlamoLineInfo *l = &t->line;
    bool line = t->kind == GLAMO_KIND_LINE && rs->aa_line;
    bool point = t->kind == GLAMO_KIND_POINT && rs->aa_point;
    int unit = line ? rs->aa_line_unit : rs->aa_point_unit;
    const GlamoTexUnit *u = &rs->tex[unit];
    float uv[4][2], texel[4][4];
    int i;

    if (!line && !point) {
        cov[0] = cov[1] = cov[2] = cov[3] = 1.0f;
        return;
    }
    for (i = 0; i < 4; i++) {
        float dx = q->x + (i & 1) + 0.5f - l->x0;
        float dy = q->y + (i >> 1) + 0.5f - l->y0;
        uv[i][0] = line ? fabsf(dx * l->nx + dy * l->ny) * rs->aa_inv_half
                        : sqrtf(dx * dx + dy * dy) * l->inv_r;
        uv[i][1] = u->h ? 0.5f / u->h : 0.0f;
    }
    glamo_tex_sample(rs, unit, uv, q->mask, texel);
    for (i = 0; i < 4; i++) {
        cov[i] = texel[i][3];
    }
}

/* the pixels of the quad the stipple pattern removes */
static uint32_t stipple_kill(const GlamoTri *t, const G3DQuad *q)
{
    const GlamoRenderState *rs = t->rs;
    const GlamoTexUnit *u = &rs->tex[rs->stipple_unit];
    float uv[4][2], texel[4][4];
    uint32_t kill = 0;
    int i;

    if (t->kind == GLAMO_KIND_TRIANGLE ? !rs->poly_stipple :
        t->kind == GLAMO_KIND_LINE ? !rs->line_stipple : true) {
        return 0;
    }
    for (i = 0; i < 4; i++) {
        float x = q->x + (i & 1), y = q->y + (i >> 1);
        if (t->kind == GLAMO_KIND_TRIANGLE) {
            uv[i][0] = (x + 0.5f) / 32.0f;
            uv[i][1] = (rs->stipple_vneg ? -(y + 0.5f) : y + 0.5f) / 32.0f;
        } else {
            /* the pixel's number along the major axis, from 0 */
            float d = t->line.xmajor ? x + 0.5f - t->line.x0
                                     : y + 0.5f - t->line.y0;
            float n = t->line.count + floorf(fabsf(d));
            uv[i][0] = (n + 0.5f) * rs->line_repeat;
            uv[i][1] = u->h ? 0.5f / u->h : 0.0f;
        }
    }
    glamo_tex_sample(rs, rs->stipple_unit, uv, q->mask, texel);
    for (i = 0; i < 4; i++) {
        if ((q->mask & (1u << i)) && texel[i][3] <= 0.0f) {
            kill |= 1u << i;
        }
    }
    return kill;
}

/* ---- the pixel pipeline ------------------------------------------------- */

static uint8_t st_read(const GlamoRenderState *rs, int x, int y)
{
    uint32_t bit = (uint32_t)x * rs->st_bits;
    const uint8_t *p = rs->vram + rs->st_base + (size_t)y * rs->st_pitch +
                       bit / 8;
    return (*p >> (bit % 8)) & ((1u << rs->st_bits) - 1);
}

static void st_write(const GlamoRenderState *rs, int x, int y, uint8_t v)
{
    uint32_t bit = (uint32_t)x * rs->st_bits;
    uint8_t *p = rs->vram + rs->st_base + (size_t)y * rs->st_pitch + bit / 8;
    uint8_t m = (uint8_t)(rs->st_wmask << (bit % 8));

    *p = (*p & ~m) | ((uint8_t)(v << (bit % 8)) & m);
}

static uint8_t st_op(const GlamoRenderState *rs, int op, uint8_t s)
{
    uint8_t max = (uint8_t)((1u << rs->st_bits) - 1);

    switch (op) {
    case G3D_SOP_INCR_SAT:
        return s == max ? s : s + 1;
    case G3D_SOP_DECR_SAT:   /* Stmin (L265); the register pages say Stmax */
        return s == 0 ? s : s - 1;
    default:
        return g3d_stencil_op(op, s, rs->st_ref) & max;
    }
}

/* the chip's ROP codes are the Windows R2_ codes minus one (L386-L405) */
static const uint8_t rop_to_logic[16] = {
    0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15,
};

static float fog_factor(const GlamoRenderState *rs, float fvert, float depth)
{
    float f;

    switch (rs->fog_mode) {
    case GLAMO_FOG_NORMAL:
        return fvert;
    case GLAMO_FOG_LINEAR:
        f = (rs->fog_end - depth) * rs->fog_invd;
        break;
    case GLAMO_FOG_EXP:
        f = expf(-rs->fog_density * depth);
        break;
    case GLAMO_FOG_EXP2:
        f = rs->fog_density * depth;
        f = expf(-f * f);
        break;
    default:
        return 1.0f;
    }
    return g3d_clampf(f, 0.0f, 1.0f);
}

/* texture unit k's coordinates at the centre of pixel (x, y) */
static inline void pixel_uv(const GlamoTri *t, int k, int x, int y,
                            float uv[2])
{
    const GlamoRenderState *rs = t->rs;
    float sx = x + 0.5f, sy = y + 0.5f;
    float iw = rs->tex_persp ? glamo_plane(t->pl[GLAMO_PL_IW], sx, sy) : 1.0f;
    float w = iw != 0.0f ? 1.0f / iw : 0.0f;

    uv[0] = glamo_plane(t->pl[GLAMO_PL_TEX + 2 * k], sx, sy) * w;
    uv[1] = glamo_plane(t->pl[GLAMO_PL_TEX + 2 * k + 1], sx, sy) * w;
}

/* texture unit k's coordinates at the quad's pixel centres */
static inline void quad_uv(const GlamoTri *t, const G3DQuad *q, int k,
                           float uv[4][2])
{
    int i;

    for (i = 0; i < 4; i++) {
        pixel_uv(t, k, q->x + (i & 1), q->y + (i >> 1), uv[i]);
    }
}

static float dither_bias(const GlamoRenderState *rs, int x, int y)
{
    return rs->dither ? (bayer4[y & 3][x & 3] + 0.5f) / 16.0f : 0.5f;
}

void glamo_render_quad(void *user, const G3DQuad *q, int thread)
{
    const GlamoTri *t = user;
    const GlamoRenderState *rs = t->rs;
    DstLayout l;
    float tex[2][4][4], cov[4];
    uint32_t kill = 0;
    int i, k;

    if (!dst_layout(rs->dst_fmt, &l)) {
        return;
    }
    kill = stipple_kill(t, q);
    aa_coverage(t, q, cov);
    if (rs->tex_enable) {
        for (k = 0; k < rs->ntex; k++) {
            float uv[4][2];
            quad_uv(t, q, k, uv);
            kill |= glamo_tex_sample(rs, k, uv, q->mask, tex[k]);
        }
    }

    for (i = 0; i < 4; i++) {
        int x = q->x + (i & 1), y = q->y + (i >> 1);
        float sx = x + 0.5f, sy = y + 0.5f;
        float col[4], spec[4], z, out[4], dstc[4];
        uint16_t *pd, zval = 0, *pz = NULL, pen, d;
        bool st_pass = true, z_pass = true;
        uint8_t sval = 0;

        if (!(q->mask & ~kill & (1u << i))) {
            continue;
        }
        for (k = 0; k < 4; k++) {
            col[k] = glamo_plane(t->pl[GLAMO_PL_COL + k], sx, sy);
        }
        if (rs->specular || rs->fog || rs->tex_enable) {
            /* the specular planes feed only these */
            for (k = 0; k < 4; k++) {
                spec[k] = glamo_plane(t->pl[GLAMO_PL_SPEC + k], sx, sy);
            }
        }
        if (rs->tex_enable) {
            float r[4];
            glamo_combine(rs, col, spec, tex[0][i], tex[1][i], r);
            memcpy(col, r, sizeof(col));
            if (glamo_tex_blend_keyed(rs, col)) {
                continue;
            }
        }
        if (rs->specular) {
            for (k = 0; k < 3; k++) {
                col[k] = g3d_clampf(col[k] + spec[k], 0.0f, 1.0f);
            }
        }
        z = glamo_plane(t->pl[GLAMO_PL_Z], sx, sy);
        if (rs->fog) {
            if (rs->fog_mode == GLAMO_FOG_CONSTANT) {
                for (k = 0; k < 3; k++) {
                    col[k] = g3d_clampf(col[k] + rs->fog_color[k], 0.0f, 1.0f);
                }
            } else {
                /* distance: 1 / (interpolated 1/W), or Z (EGFOGZT) */
                float iw = glamo_plane(t->pl[GLAMO_PL_IW], sx, sy), depth, f;
                depth = rs->fog_z ? z : (iw != 0.0f ? 1.0f / iw : 0.0f);
                f = fog_factor(rs, spec[3], depth);
                for (k = 0; k < 3; k++) {
                    col[k] = f * col[k] + (1.0f - f) * rs->fog_color[k];
                }
            }
        }
        if (cov[i] < 1.0f) {
            if (rs->aa_test && cov[i] <= 0.0f) {
                continue;
            }
            col[3] *= cov[i];
        }
        if (rs->a_test &&
            !g3d_compare_u(rs->a_func, g3d_f2unorm(col[3], 8) >> 2,
                           rs->a_ref >> 2)) {
            continue;
        }
        if (rs->st_test) {
            sval = st_read(rs, x, y);
            st_pass = g3d_compare_u(rs->st_func, rs->st_ref & rs->st_mask,
                                    sval & rs->st_mask);
            if (!st_pass) {
                if (rs->st_write) {
                    st_write(rs, x, y, st_op(rs, rs->st_fail, sval));
                }
                continue;
            }
        }
        if (rs->z_test || rs->z_write) {
            float zc = g3d_clampf(z, 0.0f, 1.0f);
            pz = (uint16_t *)(rs->vram + rs->z_base + (size_t)y * rs->z_pitch) + x;
            zval = rs->z_fmt == GLAMO_ZFMT_FLOAT511 ?
                   (uint16_t)g3d_float_pack(zc, &zf_fmt) :
                   (uint16_t)g3d_f2unorm(zc, 16);
            /* both encodings are monotonic: compare them as integers */
            z_pass = g3d_compare_u(rs->z_func, zval, *pz);
        }
        if (rs->st_test && rs->st_write) {
            st_write(rs, x, y, st_op(rs, z_pass ? rs->st_zpass : rs->st_zfail,
                                     sval));
        }
        if (!z_pass) {
            continue;
        }
        if (rs->z_write && pz) {
            *pz = (*pz & ~rs->zmask) | (zval & rs->zmask);
        }

        pd = (uint16_t *)(rs->vram + rs->dst_base + (size_t)y * rs->dst_pitch) + x;
        d = *pd;
        if (rs->blend) {
            unpack_dst(&l, d, rs->dst_alpha, dstc);
            g3d_blend_float(out, col, dstc, rs->blend_const, rs->eq_c,
                            rs->src_c, rs->dst_c, rs->eq_a, rs->src_a,
                            rs->dst_a);
        } else {
            memcpy(out, col, sizeof(out));
        }
        pen = pack_dst(&l, out, dither_bias(rs, x, y));
        if (rs->rop != GLAMO_ROP_COPY_PEN) {
            pen = (uint16_t)g3d_logic_op(rop_to_logic[rs->rop], pen, d);
        }
        *pd = (pen & rs->cmask) | (d & ~rs->cmask);
    }
}

/* ---- fast paths, chosen per draw ---------------------------------------- */

/*
 * Issue 11: when the state is latched, a draw that leaves most of the
 * pipeline idle gets a quad function without it. The fast paths do the
 * same operations as glamo_render_quad above, in the same order, for what
 * they keep, so each pixel is bit-identical (tests/glamo/test-glamo-fast.c
 * compares them with g3d_general_path set): no stipple or AA coverage
 * texture, no specular, fog, alpha test or stencil, no blending, ROP
 * COPY_PEN and every colour bit written (so the destination is not read);
 * Z off or a Z16 test/write; no texture, or texture 0 alone modulating the
 * diffuse colour (texture blending off) through a per-format fetch.
 */
static const DstLayout rgb565 = { 5, 6, 5, 0, 11, 5, 0, 0 };

#ifdef __SSE2__
/*
 * The colour planes of the quad's triangle as vectors of r g b a, and the
 * colour at (sx, sy) as glamo_plane computes it, one lane a channel:
 * (pl[0] + pl[1] * x) + pl[2] * y, one IEEE single operation at a time.
 */
typedef struct ColPlanes {
    __m128 p0, p1, p2;
} ColPlanes;

static inline ColPlanes col_planes(const GlamoTri *t)
{
    const float (*pl)[3] = &t->pl[GLAMO_PL_COL];

    return (ColPlanes) {
        _mm_setr_ps(pl[0][0], pl[1][0], pl[2][0], pl[3][0]),
        _mm_setr_ps(pl[0][1], pl[1][1], pl[2][1], pl[3][1]),
        _mm_setr_ps(pl[0][2], pl[1][2], pl[2][2], pl[3][2]),
    };
}

static inline __m128 col_at(const ColPlanes *cp, float sx, float sy)
{
    return _mm_add_ps(_mm_add_ps(cp->p0, _mm_mul_ps(cp->p1, _mm_set1_ps(sx))),
                      _mm_mul_ps(cp->p2, _mm_set1_ps(sy)));
}

/*
 * pack_dst for RGB565, the channels in lanes: MAXPS/MINPS are "a > b ? a :
 * b" / "a < b ? a : b", i.e. g3d_clampf's clamp with NaN to 0; then the
 * same product, sum and truncation as to_bits, its limit (PMINSW), and the
 * three fields shifted into place by one multiply-add (they do not
 * overlap, so the sum is the OR).
 */
static inline uint16_t pack_565_sse2(__m128 c, float bias)
{
    __m128 v = _mm_min_ps(_mm_max_ps(c, _mm_setzero_ps()), _mm_set1_ps(1.0f));
    __m128i u;

    v = _mm_add_ps(_mm_mul_ps(v, _mm_setr_ps(31.0f, 63.0f, 31.0f, 0.0f)),
                   _mm_set1_ps(bias));
    u = _mm_cvttps_epi32(v);
    u = _mm_packs_epi32(u, u);
    u = _mm_min_epi16(u, _mm_setr_epi16(31, 63, 31, 0, 31, 63, 31, 0));
    u = _mm_madd_epi16(u, _mm_setr_epi16(1 << 11, 1 << 5, 1, 0, 0, 0, 0, 0));
    return (uint16_t)(_mm_cvtsi128_si32(u) +
                      _mm_cvtsi128_si32(_mm_srli_si128(u, 4)));
}
#endif


#ifndef __SSE2__
typedef struct ColPlanes {
    int unused;
} ColPlanes;

static inline ColPlanes col_planes(const GlamoTri *t)
{
    return (ColPlanes) { 0 };
}
#endif

/* the Z16 test and write of pixel (x, y): does the pixel pass? */
static inline __attribute__((always_inline))
bool fast_z16(const GlamoTri *t, int x, int y)
{
    const GlamoRenderState *rs = t->rs;
    float zc = g3d_clampf(glamo_plane(t->pl[GLAMO_PL_Z], x + 0.5f, y + 0.5f),
                          0.0f, 1.0f);
    uint16_t *pz = (uint16_t *)(rs->vram + rs->z_base +
                                (size_t)y * rs->z_pitch) + x;
    uint16_t zval = (uint16_t)g3d_f2unorm(zc, 16);

    if (!g3d_compare_u(rs->z_func, zval, *pz)) {
        return false;
    }
    if (rs->z_write) {
        *pz = (*pz & ~rs->zmask) | (zval & rs->zmask);
    }
    return true;
}

/*
 * The pen of pixel (x, y): the diffuse planes, times texture 0's sample
 * `texel` as the texture blend's product (glamo_tex_fast_combine). Left
 * out of it: the blend's "* 1.0f" and clamp, which change no number but a
 * NaN, and the pack clamps a NaN to 0 either way.
 */
static inline __attribute__((always_inline))
uint16_t fast_pen(const GlamoTri *t, int x, int y, const DstLayout *l,
                  bool tex, const float texel[4], const ColPlanes *cp)
{
    const GlamoRenderState *rs = t->rs;
    float sx = x + 0.5f, sy = y + 0.5f;
    float col[4];
    int k;
    static const float one[4] = { 1.0f, 1.0f, 1.0f, 1.0f };

#ifdef __SSE2__
    if (l == &rgb565) {
        __m128 c = col_at(cp, sx, sy);

        if (tex && rs->comb_modulate) {
            c = _mm_mul_ps(c, _mm_loadu_ps(texel));
        } else if (tex) {
            /* each operand picked per lane: texel, diffuse or one */
            __m128 tx = _mm_loadu_ps(texel), ab[2];
            for (k = 0; k < 2; k++) {
                const uint32_t (*m)[4] = rs->comb_lanes[k];
                ab[k] = _mm_or_ps(
                    _mm_or_ps(_mm_and_ps(_mm_loadu_ps((const float *)m[0]), tx),
                              _mm_and_ps(_mm_loadu_ps((const float *)m[1]), c)),
                    _mm_and_ps(_mm_loadu_ps((const float *)m[2]),
                               _mm_set1_ps(1.0f)));
            }
            c = _mm_mul_ps(ab[0], ab[1]);
        }
        return pack_565_sse2(c, dither_bias(rs, x, y));
    }
#endif
    for (k = 0; k < 4; k++) {
        col[k] = glamo_plane(t->pl[GLAMO_PL_COL + k], sx, sy);
    }
    if (tex) {
        const float *opnd[3] = { texel, NULL, one };
        float dif[4];

        memcpy(dif, col, sizeof(dif));
        opnd[GLAMO_COMB_DIFFUSE] = dif;
        for (k = 0; k < 4; k++) {
            col[k] = opnd[rs->comb[0][k]][k] * opnd[rs->comb[1][k]][k];
        }
    }
    return pack_dst(l, col, dither_bias(rs, x, y));
}

static inline __attribute__((always_inline))
void fast_pixel(const GlamoTri *t, int x, int y, const DstLayout *l,
                bool z16, bool tex, const float texel[4], const ColPlanes *cp)
{
    const GlamoRenderState *rs = t->rs;

    if (z16 && !fast_z16(t, x, y)) {
        return;
    }
    *((uint16_t *)(rs->vram + rs->dst_base + (size_t)y * rs->dst_pitch) + x) =
        fast_pen(t, x, y, l, tex, texel, cp);
}

static inline __attribute__((always_inline))
void fast_quad(const GlamoTri *t, const G3DQuad *q, const DstLayout *l,
               bool z16, bool tex)
{
    const GlamoRenderState *rs = t->rs;
    ColPlanes cp = col_planes(t);
    float texel[4][4];
    int i;

    if (tex) {
        float uv[4][2];
        quad_uv(t, q, 0, uv);
        rs->fetch0(rs, &rs->tex[0], uv, q->mask, texel);
    }
    for (i = 0; i < 4; i++) {
        if (q->mask & (1u << i)) {
            fast_pixel(t, q->x + (i & 1), q->y + (i >> 1), l, z16, tex,
                       texel[i], &cp);
        }
    }
}

/*
 * Spans: a fast draw's covered pixels given by the rasteriser as
 * rectangles (G3DBlockFn) instead of quads. A fast draw's pixel depends on
 * its own position only (no derivatives, no LOD, no helper pixels), so a
 * span computes each pixel as fast_pixel does; what changes is the order
 * of the pixels' memory accesses, which choose_fill allows only where
 * colour, Z and texture do not share bytes.
 */
#ifdef __SSE2__
/*
 * Eight RGB565 pixels of row y from x on, untextured: each channel of
 * each pixel with the operations of col_at and pack_565_sse2, the pixels
 * in lanes: (p0 + p1 * sx) + (p2 * sy), MAXPS/MINPS against 0 and 1, times
 * the field's maximum plus the dither bias, truncated, packed to 16 bits
 * (the values are 0..32 or 0..64) and limited (PMINSW). Z16 likewise as
 * fast_z16: clamp, * 65535 + 0.5, truncation; the unsigned 16-bit compare
 * with both sides offset by 0x8000 as signed, the function's bits
 * (LESS 1, EQUAL 2, GREATER 4) choosing among <, ==, >. Returns the first
 * pixel not done.
 */
enum { SPAN_PLANES = 7 };

/* RGB565's fields: each one's maximum and its shift */
static const float span_max[3] = { 31.0f, 63.0f, 31.0f };
static const int span_shift[3] = { 11, 5, 0 };

/* r, g, b, Z, 1/w, u, v: the planes a span in lanes evaluates */
static const uint8_t span_planes[SPAN_PLANES] = {
    GLAMO_PL_COL, GLAMO_PL_COL + 1, GLAMO_PL_COL + 2, GLAMO_PL_Z,
    GLAMO_PL_IW, GLAMO_PL_TEX, GLAMO_PL_TEX + 1,
};

/*
 * The part of each plane that is the same down a column, pl[0] + pl[1] *
 * sx, for four columns a vector: computed once for a rectangle's rows,
 * the same operations (and so the same numbers) as per pixel.
 */
typedef struct SpanCols {
    __m128 a[G3D_TILE_SIZE / 4][SPAN_PLANES];
} SpanCols;

/* the Z16 test's state as lane masks (span_z16) */
typedef struct SpanZ {
    __m128i lt_on, eq_on, gt_on, zmask;
} SpanZ;

static inline SpanZ span_z_init(const GlamoRenderState *rs)
{
    SpanZ z = {
        .lt_on = _mm_set1_epi16(rs->z_func & 1 ? -1 : 0),
        .eq_on = _mm_set1_epi16(rs->z_func & 2 ? -1 : 0),
        .gt_on = _mm_set1_epi16(rs->z_func & 4 ? -1 : 0),
        .zmask = _mm_set1_epi16(rs->z_write ? (int16_t)rs->zmask : 0),
    };
    return z;
}

/*
 * Eight pixels' Z16 test and masked write at pz: zv their Z offset by
 * -0x8000 (signed 16-bit lanes). Returns the lanes that pass.
 */
static inline __m128i span_z16(const SpanZ *zc, __m128i zv, uint16_t *pz)
{
    const __m128i flip = _mm_set1_epi16(-0x8000);
    __m128i old = _mm_xor_si128(_mm_loadu_si128((const __m128i *)pz), flip);
    __m128i pass = _mm_or_si128(
        _mm_or_si128(_mm_and_si128(_mm_cmplt_epi16(zv, old), zc->lt_on),
                     _mm_and_si128(_mm_cmpeq_epi16(zv, old), zc->eq_on)),
        _mm_and_si128(_mm_cmpgt_epi16(zv, old), zc->gt_on));

    if (_mm_movemask_epi8(pass) == 0) {
        return pass;
    }
    /* (old & ~zmask) | (new & zmask) where the pixel passes */
    zv = _mm_xor_si128(zv, flip);
    old = _mm_xor_si128(old, flip);
    zv = _mm_or_si128(_mm_andnot_si128(zc->zmask, old),
                      _mm_and_si128(zc->zmask, zv));
    _mm_storeu_si128((__m128i *)pz, _mm_or_si128(_mm_and_si128(pass, zv),
                                                 _mm_andnot_si128(pass, old)));
    return pass;
}

/* pixel x of row y of a 16-bit buffer at base, pitch bytes a row */
static inline uint16_t *span_row(const GlamoRenderState *rs, uint32_t base,
                                 uint32_t pitch, int x, int y)
{
    return (uint16_t *)(rs->vram + base + (size_t)y * pitch) + x;
}

/* eight RGB565 pens to pd, where `pass` (span_z16) */
static inline void span_store565(uint16_t *pd, __m128i pen, __m128i pass)
{
    if (_mm_movemask_epi8(pass) != 0xffff) {
        __m128i d = _mm_loadu_si128((const __m128i *)pd);
        pen = _mm_or_si128(_mm_and_si128(pass, pen),
                           _mm_andnot_si128(pass, d));
    }
    _mm_storeu_si128((__m128i *)pd, pen);
}

/* the columns of [x, x1)'s whole groups of eight pixels */
static inline __attribute__((always_inline))
void span_cols(const GlamoTri *t, int x, int x1, bool tex, SpanCols *sc)
{
    int g, k;

    for (g = 0; g < (x1 - x) / 8 * 2; g++) {
        __m128 sx = _mm_add_ps(_mm_cvtepi32_ps(_mm_setr_epi32(
                                   x + 4 * g, x + 4 * g + 1, x + 4 * g + 2,
                                   x + 4 * g + 3)), _mm_set1_ps(0.5f));
        for (k = 0; k < (tex ? SPAN_PLANES : 4); k++) {
            const float *pl = t->pl[span_planes[k]];
            sc->a[g][k] = _mm_add_ps(_mm_set1_ps(pl[0]),
                                     _mm_mul_ps(_mm_set1_ps(pl[1]), sx));
        }
    }
}

static inline __attribute__((always_inline))
int span_565_sse2(const GlamoTri *t, int x, int x1, int y, bool z16,
                  bool tex, const SpanCols *sc)
{
    const GlamoRenderState *rs = t->rs;
    const float sy = y + 0.5f;
    const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f);
    const __m128 half = _mm_set1_ps(0.5f);
    __m128 p2y[SPAN_PLANES], bias;
    const __m128 (*col)[SPAN_PLANES] = sc->a;
    const SpanZ zc = span_z_init(rs);
    uint16_t *pd = span_row(rs, rs->dst_base, rs->dst_pitch, x, y);
    uint16_t *pz = span_row(rs, rs->z_base, rs->z_pitch, x, y);
    int k;

    /* the plane terms that are the same along the row */
    for (k = 0; k < (tex ? SPAN_PLANES : 4); k++) {
        p2y[k] = _mm_set1_ps(t->pl[span_planes[k]][2] * sy);
    }
    /* the dither bias repeats every four pixels */
    bias = _mm_setr_ps(dither_bias(rs, x, y), dither_bias(rs, x + 1, y),
                       dither_bias(rs, x + 2, y), dither_bias(rs, x + 3, y));

    for (; x + 8 <= x1; x += 8, pd += 8, pz += 8, col += 2) {
        __m128i pen = _mm_setzero_si128(), pass = _mm_set1_epi16(-1);
        __m128 texel[2][3];
        int h;

        /* pixel_uv and texture 0's fetch, eight pixels at a time */
        if (tex) {
            __m128 uv[2][2];
            for (h = 0; h < 2; h++) {
                __m128 w = one;
                if (rs->tex_persp) {
                    __m128 iw = _mm_add_ps(col[h][4], p2y[4]);
                    w = _mm_and_ps(_mm_cmpneq_ps(iw, zero),
                                   _mm_div_ps(one, iw));
                }
                for (k = 0; k < 2; k++) {
                    uv[k][h] = _mm_mul_ps(_mm_add_ps(col[h][5 + k],
                                                     p2y[5 + k]), w);
                }
            }
            rs->fetch8(rs, &rs->tex[0], uv[0], uv[1], texel);
        }
        if (z16) {
            __m128i zi[2];
            for (h = 0; h < 2; h++) {
                __m128 z = _mm_add_ps(col[h][3], p2y[3]);
                z = _mm_min_ps(_mm_max_ps(z, zero), one);
                zi[h] = _mm_sub_epi32(
                    _mm_cvttps_epi32(_mm_add_ps(
                        _mm_mul_ps(z, _mm_set1_ps(65535.0f)), half)),
                    _mm_set1_epi32(0x8000));
            }
            /* offset by 0x8000 */
            pass = span_z16(&zc, _mm_packs_epi32(zi[0], zi[1]), pz);
            if (_mm_movemask_epi8(pass) == 0) {
                continue;
            }
        }
        for (k = 0; k < 3; k++) {
            __m128i u[2], v;
            for (h = 0; h < 2; h++) {
                __m128 c = _mm_add_ps(col[h][k], p2y[k]);
                if (tex) {
                    /* the texture blend's product (fast_pen) */
                    const __m128 opnd[3] = { texel[h][k], c, one };
                    c = _mm_mul_ps(opnd[rs->comb[0][k]], opnd[rs->comb[1][k]]);
                }
                c = _mm_min_ps(_mm_max_ps(c, zero), one);
                c = _mm_add_ps(_mm_mul_ps(c, _mm_set1_ps(span_max[k])), bias);
                u[h] = _mm_cvttps_epi32(c);
            }
            v = _mm_min_epi16(_mm_packs_epi32(u[0], u[1]),
                              _mm_set1_epi16((int16_t)span_max[k]));
            pen = _mm_or_si128(pen, _mm_slli_epi16(v, span_shift[k]));
        }
        span_store565(pd, pen, pass);
    }
    return x;
}
#endif

#ifdef GLAMO_HAVE_AVX2
bool glamo_lanes_avx2, glamo_lanes_avx512;

void glamo_lanes_init(void)
{
    /* once: cores made on several threads must not race on the flag */
    static gsize done;

    if (g_once_init_enter(&done)) {
        __builtin_cpu_init();
        glamo_lanes_avx2 = __builtin_cpu_supports("avx2");
        glamo_lanes_avx512 = glamo_lanes_avx2 &&
                             __builtin_cpu_supports("avx512f") &&
                             __builtin_cpu_supports("avx512bw") &&
                             __builtin_cpu_supports("avx512vl");
        g_once_init_leave(&done, 1);
    }
}

/*
 * span_565_sse2 for a textured draw with the eight pixels in one vector
 * (AVX2, with texture 0's fetch8_avx2): each lane's operations are the
 * SSE2 lanes' in their order (VMAXPS/VMINPS, VCVTTPS2DQ, the unordered
 * not-equal of 1/w's test), the eight results packed to 16 bits as there;
 * no FMA is enabled, so no product and sum are contracted.
 */
static inline __attribute__((always_inline, target("avx2")))
int span_565_tex_avx2(const GlamoTri *t, int x, int x1, int y, bool z16,
                      const SpanCols *sc)
{
    const GlamoRenderState *rs = t->rs;
    const float sy = y + 0.5f;
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
    const __m256 half = _mm256_set1_ps(0.5f);
    __m256 p2y[SPAN_PLANES], bias;
    __m128 bias4;
    const __m128 (*col)[SPAN_PLANES] = sc->a;
    const SpanZ zc = span_z_init(rs);
    uint16_t *pd = span_row(rs, rs->dst_base, rs->dst_pitch, x, y);
    uint16_t *pz = span_row(rs, rs->z_base, rs->z_pitch, x, y);
    int k;

    for (k = 0; k < SPAN_PLANES; k++) {
        p2y[k] = _mm256_set1_ps(t->pl[span_planes[k]][2] * sy);
    }
    bias4 = _mm_setr_ps(dither_bias(rs, x, y), dither_bias(rs, x + 1, y),
                        dither_bias(rs, x + 2, y), dither_bias(rs, x + 3, y));
    bias = _mm256_set_m128(bias4, bias4);

    for (; x + 8 <= x1; x += 8, pd += 8, pz += 8, col += 2) {
        __m128i pen = _mm_setzero_si128(), pass = _mm_set1_epi16(-1);
        __m256 texel[3], a[SPAN_PLANES], uv[2], w = one;

        /* the column terms of the eight pixels plus the row's */
        for (k = 0; k < SPAN_PLANES; k++) {
            a[k] = _mm256_add_ps(_mm256_set_m128(col[1][k], col[0][k]),
                                 p2y[k]);
        }
        if (rs->tex_persp) {
            w = _mm256_and_ps(_mm256_cmp_ps(a[4], zero, _CMP_NEQ_UQ),
                              _mm256_div_ps(one, a[4]));
        }
        uv[0] = _mm256_mul_ps(a[5], w);
        uv[1] = _mm256_mul_ps(a[6], w);
        rs->fetch8_avx2(rs, &rs->tex[0], &uv[0], &uv[1], texel);
        if (z16) {
            __m256 z = _mm256_min_ps(_mm256_max_ps(a[3], zero), one);
            __m256i zi = _mm256_sub_epi32(
                _mm256_cvttps_epi32(_mm256_add_ps(
                    _mm256_mul_ps(z, _mm256_set1_ps(65535.0f)), half)),
                _mm256_set1_epi32(0x8000));

            /* offset by 0x8000 */
            pass = span_z16(&zc, _mm_packs_epi32(
                                _mm256_castsi256_si128(zi),
                                _mm256_extracti128_si256(zi, 1)), pz);
            if (_mm_movemask_epi8(pass) == 0) {
                continue;
            }
        }
        for (k = 0; k < 3; k++) {
            /* the texture blend's product (fast_pen) */
            const __m256 opnd[3] = { texel[k], a[k], one };
            __m256 c = _mm256_mul_ps(opnd[rs->comb[0][k]],
                                     opnd[rs->comb[1][k]]);
            __m256i u;
            __m128i v;

            c = _mm256_min_ps(_mm256_max_ps(c, zero), one);
            c = _mm256_add_ps(_mm256_mul_ps(c, _mm256_set1_ps(span_max[k])),
                              bias);
            u = _mm256_cvttps_epi32(c);
            v = _mm_min_epi16(_mm_packs_epi32(_mm256_castsi256_si128(u),
                                              _mm256_extracti128_si256(u, 1)),
                              _mm_set1_epi16((int16_t)span_max[k]));
            pen = _mm_or_si128(pen, _mm_slli_epi16(v, span_shift[k]));
        }
        span_store565(pd, pen, pass);
    }
    return x;
}

#define GLAMO_AVX512 "avx2,avx512f,avx512bw,avx512vl"

/* span_z16 of the pixels of `live` (bit i: pixel i) alone, the others
 * neither read nor written (masked moves); returns those that pass */
static inline __attribute__((always_inline, target(GLAMO_AVX512)))
__mmask8 span_z16_part(const SpanZ *zc, __m128i zv, uint16_t *pz,
                       __mmask8 live)
{
    const __m128i flip = _mm_set1_epi16(-0x8000);
    __m128i old = _mm_xor_si128(_mm_maskz_loadu_epi16(live, pz), flip);
    __m128i pass = _mm_or_si128(
        _mm_or_si128(_mm_and_si128(_mm_cmplt_epi16(zv, old), zc->lt_on),
                     _mm_and_si128(_mm_cmpeq_epi16(zv, old), zc->eq_on)),
        _mm_and_si128(_mm_cmpgt_epi16(zv, old), zc->gt_on));
    __mmask8 m = _mm_movepi16_mask(pass) & live;

    if (m) {
        zv = _mm_xor_si128(zv, flip);
        old = _mm_xor_si128(old, flip);
        _mm_mask_storeu_epi16(pz, m, _mm_or_si128(
                                  _mm_andnot_si128(zc->zmask, old),
                                  _mm_and_si128(zc->zmask, zv)));
    }
    return m;
}

/*
 * span_565_tex_avx2 with sixteen pixels a vector (AVX-512, texture 0's
 * fetch16), for every pixel of [x, x1): a last group of fewer than
 * sixteen by masked moves (span_z16_part; its other lanes' texels are
 * read, inside the texture, and dropped), where the AVX2 span leaves a
 * row's last pixels to fast_pixel. Each plane's column term pl[0] + pl[1] * sx is
 * computed here as span_cols computes it, then the row's term added: the
 * same operations in the same order; the rest is each lane's AVX2
 * operations, the 32-bit results narrowed with signed saturation (VPMOVSDW,
 * VPACKSSDW's) in pixel order; no FMA (G3D_NO_CONTRACT).
 */
static inline __attribute__((always_inline, target(GLAMO_AVX512)))
G3D_NO_CONTRACT int span_565_tex_avx512(const GlamoTri *t, int x, int x1, int y, bool z16)
{
    const GlamoRenderState *rs = t->rs;
    const float sy = y + 0.5f;
    const __m512 zero = _mm512_setzero_ps(), one = _mm512_set1_ps(1.0f);
    const __m512 half = _mm512_set1_ps(0.5f);
    __m512 p2y[SPAN_PLANES], p0[SPAN_PLANES], p1[SPAN_PLANES], bias;
    const SpanZ zc = span_z_init(rs);
    uint16_t *pd = span_row(rs, rs->dst_base, rs->dst_pitch, x, y);
    uint16_t *pz = span_row(rs, rs->z_base, rs->z_pitch, x, y);
    int k;

    for (k = 0; k < SPAN_PLANES; k++) {
        const float *pl = t->pl[span_planes[k]];

        p0[k] = _mm512_set1_ps(pl[0]);
        p1[k] = _mm512_set1_ps(pl[1]);
        p2y[k] = _mm512_set1_ps(pl[2] * sy);
    }
    bias = _mm512_broadcast_f32x4(_mm_setr_ps(
        dither_bias(rs, x, y), dither_bias(rs, x + 1, y),
        dither_bias(rs, x + 2, y), dither_bias(rs, x + 3, y)));

    for (; x < x1; x += 16, pd += 16, pz += 16) {
        const int n = MIN(x1 - x, 16);
        const __mmask8 part[2] = { n >= 8 ? 0xFF : (1u << n) - 1,
                                   n >= 16 ? 0xFF : (1u << MAX(n - 8, 0)) - 1 };
        __m128i pass[2] = { _mm_set1_epi16(-1), _mm_set1_epi16(-1) };
        __mmask8 live[2] = { part[0], part[1] };
        __m256i pen = _mm256_setzero_si256();
        __m512 texel[3], a[SPAN_PLANES], uv[2], w = one;
        __m512 sx = _mm512_add_ps(_mm512_cvtepi32_ps(_mm512_add_epi32(
                        _mm512_set1_epi32(x), _mm512_setr_epi32(
                            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
                            14, 15))), _mm512_set1_ps(0.5f));
        int h;

        for (k = 0; k < SPAN_PLANES; k++) {
            a[k] = _mm512_add_ps(_mm512_add_ps(p0[k],
                                               _mm512_mul_ps(p1[k], sx)),
                                 p2y[k]);
        }
        if (rs->tex_persp) {
            w = _mm512_maskz_div_ps(_mm512_cmp_ps_mask(a[4], zero,
                                                       _CMP_NEQ_UQ),
                                    one, a[4]);
        }
        uv[0] = _mm512_mul_ps(a[5], w);
        uv[1] = _mm512_mul_ps(a[6], w);
        rs->fetch16(rs, &rs->tex[0], &uv[0], &uv[1], texel);
        if (z16) {
            __m512 z = _mm512_min_ps(_mm512_max_ps(a[3], zero), one);
            __m256i zi = _mm512_cvtsepi32_epi16(_mm512_sub_epi32(
                _mm512_cvttps_epi32(_mm512_add_ps(
                    _mm512_mul_ps(z, _mm512_set1_ps(65535.0f)), half)),
                _mm512_set1_epi32(0x8000)));
            int any = 0;

            /* offset by 0x8000 */
            for (h = 0; h < 2 && part[h]; h++) {
                __m128i zh = h ? _mm256_extracti128_si256(zi, 1)
                               : _mm256_castsi256_si128(zi);

                if (part[h] == 0xFF) {
                    pass[h] = span_z16(&zc, zh, pz + 8 * h);
                    live[h] = _mm_movepi16_mask(pass[h]);
                } else {
                    live[h] = span_z16_part(&zc, zh, pz + 8 * h, part[h]);
                }
                any |= live[h];
            }
            if (!any) {
                continue;
            }
        }
        for (k = 0; k < 3; k++) {
            const __m512 opnd[3] = { texel[k], a[k], one };
            __m512 c = _mm512_mul_ps(opnd[rs->comb[0][k]],
                                     opnd[rs->comb[1][k]]);
            __m256i v;

            c = _mm512_min_ps(_mm512_max_ps(c, zero), one);
            c = _mm512_add_ps(_mm512_mul_ps(c, _mm512_set1_ps(span_max[k])),
                              bias);
            v = _mm256_min_epi16(_mm512_cvtsepi32_epi16(
                                     _mm512_cvttps_epi32(c)),
                                 _mm256_set1_epi16((int16_t)span_max[k]));
            pen = _mm256_or_si256(pen, _mm256_slli_epi16(v, span_shift[k]));
        }
        for (h = 0; h < 2 && part[h]; h++) {
            __m128i ph = h ? _mm256_extracti128_si256(pen, 1)
                           : _mm256_castsi256_si128(pen);

            if (part[h] == 0xFF) {
                span_store565(pd + 8 * h, ph, pass[h]);
            } else {
                _mm_mask_storeu_epi16(pd + 8 * h, live[h], ph);
            }
        }
    }
    return x1;
}

__attribute__((target(GLAMO_AVX512))) G3D_NO_CONTRACT
static int span_565_tex_avx512_noz(const GlamoTri *t, int x, int x1, int y)
{
    return span_565_tex_avx512(t, x, x1, y, false);
}

__attribute__((target(GLAMO_AVX512))) G3D_NO_CONTRACT
static int span_565_tex_avx512_z16(const GlamoTri *t, int x, int x1, int y)
{
    return span_565_tex_avx512(t, x, x1, y, true);
}

/* span_565_tex_avx2 compiled without and with the Z16 test */
__attribute__((target("avx2")))
static int span_565_tex_avx2_noz(const GlamoTri *t, int x, int x1, int y,
                                 const SpanCols *sc)
{
    return span_565_tex_avx2(t, x, x1, y, false, sc);
}

__attribute__((target("avx2")))
static int span_565_tex_avx2_z16(const GlamoTri *t, int x, int x1, int y,
                                 const SpanCols *sc)
{
    return span_565_tex_avx2(t, x, x1, y, true, sc);
}
#endif

/*
 * Pixels [x0, x1) x [y0, y1), all covered: RGB565, untextured or with a
 * four-lane fetch, eight pixels at a time in lanes; the rest of each row
 * (and every other draw) pixel by pixel as fast_pixel.
 */
static inline __attribute__((always_inline))
void fast_rect(const GlamoTri *t, int x0, int y0, int x1, int y1,
               const DstLayout *l, bool z16, bool tex)
{
    const GlamoRenderState *rs = t->rs;
    ColPlanes cp = col_planes(t);
    float texel[4][4];
    int x, y, n, i;
#ifdef __SSE2__
    bool lanes = l == &rgb565 && (!tex || rs->fetch8);
    SpanCols sc;

    if (lanes) {
        span_cols(t, x0, x1, tex, &sc);
    }
#endif

    for (y = y0; y < y1; y++) {
        x = x0;
#ifdef GLAMO_HAVE_AVX2
        if (lanes && tex && rs->fetch16) {
            x = z16 ? span_565_tex_avx512_z16(t, x, x1, y)
                    : span_565_tex_avx512_noz(t, x, x1, y);
        } else if (lanes && tex && rs->fetch8_avx2) {
            x = z16 ? span_565_tex_avx2_z16(t, x, x1, y, &sc)
                    : span_565_tex_avx2_noz(t, x, x1, y, &sc);
        }
#endif
#ifdef __SSE2__
        if (lanes) {
            x = span_565_sse2(t, x, x1, y, z16, tex, &sc);
        }
#endif
        for (; x < x1; x += n) {
            n = MIN(x1 - x, 4);
            if (tex) {
                float uv[4][2];
                for (i = 0; i < n; i++) {
                    pixel_uv(t, 0, x + i, y, uv[i]);
                }
                rs->fetch0(rs, &rs->tex[0], uv, (1u << n) - 1, texel);
            }
            for (i = 0; i < n; i++) {
                fast_pixel(t, x + i, y, l, z16, tex, texel[i], &cp);
            }
        }
    }
}

#define FAST_QUAD(name, layout, z16, tex)                                   \
static void name(void *user, const G3DQuad *q, int thread)                  \
{                                                                           \
    const GlamoTri *t = user;                                               \
    fast_quad(t, q, layout, z16, tex);                                      \
}                                                                           \
static void name##_fill(void *user, int x0, int y0, int x1, int y1,         \
                        int thread)                                         \
{                                                                           \
    const GlamoTri *t = user;                                               \
    fast_rect(t, x0, y0, x1, y1, layout, z16, tex);                         \
}

FAST_QUAD(fast_565, &rgb565, false, false)
FAST_QUAD(fast_565_z16, &rgb565, true, false)
FAST_QUAD(fast_565_tex, &rgb565, false, true)
FAST_QUAD(fast_565_z16_tex, &rgb565, true, true)
FAST_QUAD(fast_any, &t->rs->dst_layout, false, false)
FAST_QUAD(fast_any_z16, &t->rs->dst_layout, true, false)
FAST_QUAD(fast_any_tex, &t->rs->dst_layout, false, true)
FAST_QUAD(fast_any_z16_tex, &t->rs->dst_layout, true, true)

/*
 * Flat: an untextured fast draw without Z whose colour planes have zero
 * gradients (glamo_render_fill checks each triangle). Then every pixel's
 * colour is the same number: pl[0] + 0 * sx + 0 * sy is pl[0] for any
 * finite sx, sy (but a zero's sign, which the clamp removes), so the pen
 * of (x, y) depends only on the dither bias, i.e. on x & 3 and y & 3:
 * flat_pens computes those sixteen pens with fast_pen once per triangle,
 * and the fill repeats them.
 */
static void flat_pens(GlamoTri *t, const DstLayout *l)
{
    ColPlanes cp = col_planes(t);
    uint64_t pen = fast_pen(t, 0, 0, l, false, NULL, &cp);
    int i, j;

    for (j = 0; j < 4; j++) {
        t->pens[j] = 0;
        for (i = 0; i < 4; i++) {
            t->pens[j] |= (t->rs->dither ? fast_pen(t, i, j, l, false, NULL,
                                                    &cp) : pen) << (16 * i);
        }
    }
}

static void flat_fill(void *user, int x0, int y0, int x1, int y1,
                      int thread)
{
    const GlamoTri *t = user;
    const GlamoRenderState *rs = t->rs;
    uint64_t pat[4];
    uint8_t *row;
    int j, y;

    /* row y & 3's pens from pixel x0 on: the four lanes rotated */
    for (j = 0; j < 4; j++) {
        pat[j] = g3d_fill_rotate(t->pens[j], 2 * (x0 & 3));
    }
    row = rs->vram + rs->dst_base + (size_t)y0 * rs->dst_pitch + 2 * x0;
    for (y = y0; y < y1; y++, row += rs->dst_pitch) {
        g3d_fill16x4(row, x1 - x0, pat[y & 3]);
    }
}

/* the bytes [lo, hi) that a surface's rows y0 .. y1 - 1 may touch */
static void surface_bytes(uint32_t base, uint32_t pitch, int y0, int y1,
                          uint64_t row_bytes, uint64_t *lo, uint64_t *hi)
{
    *lo = base + (uint64_t)pitch * y0;
    *hi = base + (uint64_t)pitch * (y1 - 1) + row_bytes;
}

static bool bytes_apart(uint64_t alo, uint64_t ahi, uint64_t blo,
                        uint64_t bhi)
{
    return ahi <= alo || bhi <= blo || ahi <= blo || bhi <= alo;
}

/*
 * Whether the draw's fast quad function may be given spans: its colour,
 * Z and texture bytes are apart, so that the order in which a span reads
 * and writes its pixels cannot change what it reads.
 */
static bool spans_allowed(const GlamoRenderState *rs, bool z_used, bool tex)
{
    const G3DRect *c = &rs->clip;
    uint64_t dlo, dhi, zlo = 0, zhi = 0, tlo, thi;

    if (c->x1 <= c->x0 || c->y1 <= c->y0) {
        return true;
    }
    surface_bytes(rs->dst_base, rs->dst_pitch, c->y0, c->y1,
                  (uint64_t)c->x1 * 2, &dlo, &dhi);
    if (z_used) {
        surface_bytes(rs->z_base, rs->z_pitch, c->y0, c->y1,
                      (uint64_t)c->x1 * 2, &zlo, &zhi);
        if (!bytes_apart(dlo, dhi, zlo, zhi)) {
            return false;
        }
    }
    if (tex) {
        const GlamoTexUnit *u = &rs->tex[0];
        surface_bytes(u->base[0], u->pitch[0], 0, MAX(u->h, 1u),
                      ((uint64_t)u->w * u->bpp + 7) / 8 + 1, &tlo, &thi);
        if (!bytes_apart(dlo, dhi, tlo, thi) ||
            !bytes_apart(zlo, zhi, tlo, thi)) {
            return false;
        }
    }
    return true;
}

/* a surface the draw reads or writes: its bytes and where its pixels lie */
typedef struct Surface {
    uint64_t lo, hi;
    uint32_t base, pitch;
    unsigned bits;              /* per pixel */
} Surface;

/*
 * Whether a pixel's value can depend on the order in which the tiles are
 * drawn: a texture level that shares bytes with the colour, Z or stencil
 * buffer (a texel may be a pixel another tile writes), or two of those
 * buffers that share bytes other than each pixel's own (the same base,
 * pitch and pixel size). With several render threads that order changes
 * from run to run, so such a draw's batches run on one thread
 * (g3d_raster_serial, setup.c).
 */
static bool tile_order_shows(const GlamoRenderState *rs)
{
    const G3DRect *c = &rs->clip;
    Surface s[3];
    int n = 0, i, j, l;

    if (c->x1 <= c->x0 || c->y1 <= c->y0) {
        return false;
    }
    s[n] = (Surface){ .base = rs->dst_base, .pitch = rs->dst_pitch,
                      .bits = 16 };
    surface_bytes(rs->dst_base, rs->dst_pitch, c->y0, c->y1,
                  (uint64_t)c->x1 * 2, &s[n].lo, &s[n].hi);
    n++;
    if (rs->z_test || rs->z_write) {
        s[n] = (Surface){ .base = rs->z_base, .pitch = rs->z_pitch,
                          .bits = 16 };
        surface_bytes(rs->z_base, rs->z_pitch, c->y0, c->y1,
                      (uint64_t)c->x1 * 2, &s[n].lo, &s[n].hi);
        n++;
    }
    if (rs->st_test) {
        s[n] = (Surface){ .base = rs->st_base, .pitch = rs->st_pitch,
                          .bits = rs->st_bits };
        surface_bytes(rs->st_base, rs->st_pitch, c->y0, c->y1,
                      ((uint64_t)c->x1 * rs->st_bits + 7) / 8,
                      &s[n].lo, &s[n].hi);
        n++;
    }
    for (i = 0; i < n; i++) {
        for (j = i + 1; j < n; j++) {
            if (!bytes_apart(s[i].lo, s[i].hi, s[j].lo, s[j].hi) &&
                (s[i].base != s[j].base || s[i].pitch != s[j].pitch ||
                 s[i].bits != s[j].bits)) {
                return true;
            }
        }
    }
    for (i = 0; i < (int)G_N_ELEMENTS(rs->tex); i++) {
        const GlamoTexUnit *u = &rs->tex[i];

        for (l = 0; u->enabled && l < u->levels; l++) {
            uint64_t lo = u->base[l];
            uint64_t hi = lo + (uint64_t)u->pitch[l] * MAX(u->h >> l, 1u);

            for (j = 0; j < n; j++) {
                if (!bytes_apart(lo, hi, s[j].lo, s[j].hi)) {
                    return true;
                }
            }
        }
    }
    return false;
}

static G3DQuadFn *choose_quad(GlamoRenderState *rs)
{
    static G3DQuadFn *const fns[2][2][2] = {   /* [565][z16][tex] */
        { { fast_any, fast_any_tex }, { fast_any_z16, fast_any_z16_tex } },
        { { fast_565, fast_565_tex }, { fast_565_z16, fast_565_z16_tex } },
    };
    static G3DBlockFn *const fills[2][2][2] = {
        { { fast_any_fill, fast_any_tex_fill },
          { fast_any_z16_fill, fast_any_z16_tex_fill } },
        { { fast_565_fill, fast_565_tex_fill },
          { fast_565_z16_fill, fast_565_z16_tex_fill } },
    };
    bool z_used = rs->z_test || rs->z_write, tex = rs->tex_enable, is565;

    rs->fill = rs->fill_flat = NULL;
    if (g3d_general_path || !dst_layout(rs->dst_fmt, &rs->dst_layout) ||
        rs->poly_stipple || rs->line_stipple || rs->aa_line ||
        rs->aa_point || rs->specular || rs->fog || rs->a_test ||
        rs->st_test || rs->blend || rs->rop != GLAMO_ROP_COPY_PEN ||
        rs->cmask != 0xffff || (z_used && rs->z_fmt != GLAMO_ZFMT_Z16)) {
        return glamo_render_quad;
    }
    if (tex) {
        if (rs->ntex != 1 || !glamo_tex_fast_combine(rs) ||
            !(rs->fetch0 = glamo_tex_fast(rs, 0))) {
            return glamo_render_quad;
        }
    }
    is565 = memcmp(&rs->dst_layout, &rgb565, sizeof(rgb565)) == 0;
#ifdef __SSE2__
    rs->fetch8 = tex && is565 ? glamo_tex_fast8(rs, 0) : NULL;
#endif
#ifdef GLAMO_HAVE_AVX2
    glamo_lanes_init();
    rs->fetch8_avx2 = rs->fetch8 ? glamo_tex_fast8_avx2(rs, 0) : NULL;
    rs->fetch16 = rs->fetch8 ? glamo_tex_fast16(rs, 0) : NULL;
#endif
    if (spans_allowed(rs, z_used, tex)) {
        rs->fill = fills[is565][z_used][tex];
        if (!z_used && !tex) {
            rs->fill_flat = flat_fill;
        }
    }
    return fns[is565][z_used][tex];
}

/*
 * Triangles less than 16 pixels wide keep their quads: the rasteriser
 * would call the fill function once per row's run of a few pixels, which
 * costs more than the quads (bench-glamo's 4x4 and 8x8 triangles).
 */
#define FILL_MIN_WIDTH 16

G3DBlockFn *glamo_render_fill(GlamoTri *t, int width)
{
    const GlamoRenderState *rs = t->rs;
    int k;

    if (width < FILL_MIN_WIDTH) {
        return NULL;
    }
    if (rs->fill_flat) {
        for (k = 0; k < 4; k++) {
            if (t->pl[GLAMO_PL_COL + k][1] != 0.0f ||
                t->pl[GLAMO_PL_COL + k][2] != 0.0f) {
                return rs->fill;
            }
        }
        flat_pens(t, rs->shade == fast_565 ? &rgb565 : &rs->dst_layout);
        return rs->fill_flat;
    }
    return rs->fill;
}
