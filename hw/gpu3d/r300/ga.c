/*
 * R300 geometry path after the VAP: flat/solid colour selection (GA), clip
 * against the view volume, guard band and user planes (VAP clipper), the
 * viewport transform (VTE), point and line expansion and polygon mode (GA),
 * face, cull, depth scale and polygon offset (SU), fixed-point snapping and
 * the scissor/edge rules (SC), then the common rasteriser.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "r300-int.h"

#include <math.h>
#include <string.h>

#include "common/clip.h"

#define MAX_CLIP_VERTS 16           /* 3 + one per plane (6 view + 6 user) */

/* ---- GA: colour shading mode ----------------------------------------- */

static float s312(uint32_t v)
{
    /* GA_SOLID_*: S3.12 fixed point [R3xx 3D ref. §1.3 GA] */
    return (float)(int16_t)v / 4096.0f;
}

/* Replace flat/solid colours per GA_COLOR_CONTROL before anything else. */
static void shade_colours(R300Core *c, R300Vertex *v, const R300Vertex *pv)
{
    uint32_t cc = R300_REG(c, A_GA_COLOR_CONTROL);
    uint32_t rg = R300_REG(c, A_GA_SOLID_RG), ba = R300_REG(c, A_GA_SOLID_BA);
    float solid[4] = { s312(rg >> 16), s312(rg), s312(ba >> 16), s312(ba) };
    int n, k;

    for (n = 0; n < 4; n++) {
        unsigned rgb = R300_GA_RGB_SHADING(cc, n);
        unsigned a = R300_GA_ALPHA_SHADING(cc, n);
        for (k = 0; k < 3; k++) {
            if (rgb == R300_GA_SHADING_SOLID) {
                v->col[n][k] = solid[k];
            } else if (rgb == R300_GA_SHADING_FLAT) {
                v->col[n][k] = pv->col[n][k];
            }
        }
        if (a == R300_GA_SHADING_SOLID) {
            v->col[n][3] = solid[3];
        } else if (a == R300_GA_SHADING_FLAT) {
            v->col[n][3] = pv->col[n][3];
        }
    }
}

/* ---- clipping in clip space ----------------------------------------- */

typedef struct ClipPlanes {
    float p[12][4];             /* inside: dot(p, pos) >= 0 */
    int n;
} ClipPlanes;

static void add_plane(ClipPlanes *cp, float a, float b, float c, float d)
{
    float *q = cp->p[cp->n++];

    q[0] = a;
    q[1] = b;
    q[2] = c;
    q[3] = d;
}

static void clip_planes(R300Core *c, ClipPlanes *cp)
{
    uint32_t cntl = R300_REG(c, A_VAP_CLIP_CNTL);
    float gx = g3d_u2f(R300_REG(c, A_VAP_GB_HORZ_CLIP_ADJ));
    float gy = g3d_u2f(R300_REG(c, A_VAP_GB_VERT_CLIP_ADJ));
    bool dx = R300_REG(c, A_VAP_CNTL) & R_VAP_CNTL_DX_CLIP_SPACE_DEF_MASK;
    unsigned i;

    /* the guard band widens the x/y planes; 1.0 means none [§3.1.6] */
    if (!(gx >= 1.0f) || !isfinite(gx)) {
        gx = 1.0f;
    }
    if (!(gy >= 1.0f) || !isfinite(gy)) {
        gy = 1.0f;
    }
    /* keep window coordinates inside what the rasteriser takes */
    gx = fminf(gx, 256.0f);
    gy = fminf(gy, 256.0f);
    cp->n = 0;
    add_plane(cp, 1, 0, 0, gx);         /* x >= -gx w */
    add_plane(cp, -1, 0, 0, gx);        /* x <=  gx w */
    add_plane(cp, 0, 1, 0, gy);
    add_plane(cp, 0, -1, 0, gy);
    add_plane(cp, 0, 0, 1, dx ? 0 : 1); /* z >= 0 (D3D) or z >= -w (GL) */
    add_plane(cp, 0, 0, -1, 1);         /* z <= w */
    /* user clip planes live in PVS vector memory from octword 1024 [EXT] */
    for (i = 0; i < 6; i++) {
        if (G3D_FIELD_EX32(cntl, VAP_CLIP_CNTL, UCP_ENA) & (1u << i)) {
            const uint32_t *u = c->pvs_vmem[R300_PVS_UCP_START + i];
            add_plane(cp, g3d_u2f(u[0]), g3d_u2f(u[1]), g3d_u2f(u[2]),
                      g3d_u2f(u[3]));
        }
    }
}

static float plane_dist(const float *p, const R300Vertex *v)
{
    return g3d_plane_dist(p, v->pos);
}

/* every attribute of the vertex is a float */
static void lerp_vertex(R300Vertex *o, const R300Vertex *a,
                        const R300Vertex *b, float t)
{
    g3d_lerp((float *)o, (const float *)a, (const float *)b,
             sizeof(R300Vertex) / sizeof(float), t);
}

/* Sutherland-Hodgman against all planes; returns the vertex count (0..) */
static int clip_polygon(const ClipPlanes *cp, R300Vertex *poly, int n,
                        R300Vertex *tmp)
{
    int p;

    for (p = 0; p < cp->n && n >= 3; p++) {
        int i, m = 0;
        for (i = 0; i < n && m < MAX_CLIP_VERTS - 1; i++) {
            const R300Vertex *a = &poly[i], *b = &poly[(i + 1) % n];
            float da = plane_dist(cp->p[p], a), db = plane_dist(cp->p[p], b);
            if (da >= 0) {
                tmp[m++] = *a;
            }
            if ((da >= 0) != (db >= 0)) {
                lerp_vertex(&tmp[m++], a, b, da / (da - db));
            }
        }
        memcpy(poly, tmp, sizeof(R300Vertex) * m);
        n = m;
    }
    return n >= 3 ? n : 0;
}

static bool inside_all(const ClipPlanes *cp, const R300Vertex *v)
{
    int p;

    for (p = 0; p < cp->n; p++) {
        if (!(plane_dist(cp->p[p], v) >= 0)) {
            return false;
        }
    }
    return true;
}

static bool clipping_on(R300Core *c)
{
    return !(R300_REG(c, A_VAP_CLIP_CNTL) & R_VAP_CLIP_CNTL_CLIP_DISABLE_MASK);
}

/* ---- VTE ------------------------------------------------------------- */

typedef struct WinVertex {
    float x, y, z;              /* window */
    float inv_w;
    const R300Vertex *v;
} WinVertex;

static float vport(R300Core *c, uint32_t cntl, uint32_t mask, uint32_t reg,
                   float identity)
{
    return (cntl & mask) ? g3d_u2f(R300_REG(c, reg)) : identity;
}

static bool vte(R300Core *c, const R300Vertex *v, WinVertex *o)
{
    uint32_t cntl = R300_REG(c, A_VAP_VTE_CNTL);
    float w = v->pos[3], inv_w, x = v->pos[0], y = v->pos[1], z = v->pos[2];

    /* W0 is w (and needs a reciprocal) or already 1/w [§3.1.7] */
    inv_w = (cntl & R_VAP_VTE_CNTL_VTX_W0_FMT_MASK) ? 1.0f / w : w;
    if (!(cntl & R_VAP_VTE_CNTL_VTX_XY_FMT_MASK)) {
        x *= inv_w;
        y *= inv_w;
    }
    if (!(cntl & R_VAP_VTE_CNTL_VTX_Z_FMT_MASK)) {
        z *= inv_w;
    }
    /* divide, then scale and offset [reference defect R300-61,
     * docs/references.md: the order is assumed] */
    o->x = x * vport(c, cntl, R_VAP_VTE_CNTL_VPORT_X_SCALE_ENA_MASK,
                     A_VAP_VPORT_XSCALE, 1.0f) +
           vport(c, cntl, R_VAP_VTE_CNTL_VPORT_X_OFFSET_ENA_MASK,
                 A_VAP_VPORT_XOFFSET, 0.0f);
    o->y = y * vport(c, cntl, R_VAP_VTE_CNTL_VPORT_Y_SCALE_ENA_MASK,
                     A_VAP_VPORT_YSCALE, 1.0f) +
           vport(c, cntl, R_VAP_VTE_CNTL_VPORT_Y_OFFSET_ENA_MASK,
                 A_VAP_VPORT_YOFFSET, 0.0f);
    o->z = z * vport(c, cntl, R_VAP_VTE_CNTL_VPORT_Z_SCALE_ENA_MASK,
                     A_VAP_VPORT_ZSCALE, 1.0f) +
           vport(c, cntl, R_VAP_VTE_CNTL_VPORT_Z_OFFSET_ENA_MASK,
                 A_VAP_VPORT_ZOFFSET, 0.0f);
    /* GB_SELECT.W_SELECT = 1: colours and texcoords are not perspective */
    o->inv_w = (R300_REG(c, A_GB_SELECT) & R_GB_SELECT_W_SELECT_MASK) ? 1.0f
                                                                       : inv_w;
    o->v = v;
    /* anything the rasteriser cannot take (w = 0, NaN, far off) is dropped */
    return isfinite(o->x) && isfinite(o->y) && isfinite(o->z) &&
           isfinite(o->inv_w) && fabsf(o->x) < 65536.0f &&
           fabsf(o->y) < 65536.0f;
}

/* ---- SC / RS: hand a window triangle to the rasteriser --------------- */

static unsigned subpixels(R300Core *c)
{
    return G3D_FIELD_EX32(R300_REG(c, A_GB_TILE_CONFIG), GB_TILE_CONFIG,
                          SUBPIXEL) ? 16 : 12;
}

static int32_t snap(R300Core *c, float v, int32_t offset)
{
    float f = v * (float)subpixels(c);

    /* GA_ROUND_MODE.GEOMETRY_ROUND: 0 truncate, 1 round to nearest */
    if (G3D_FIELD_EX32(R300_REG(c, A_GA_ROUND_MODE), GA_ROUND_MODE,
                       GEOMETRY_ROUND)) {
        f = floorf(f + 0.5f);
    } else {
        f = truncf(f);
    }
    return (int32_t)f + offset;
}

/*
 * The vector routed to RS vec `src` for one vertex [R3xx 3D ref. §1.5 RS]: even
 * `src` is RS instruction src/2's texture address, odd its colour.
 *
 * Two-sided colour: when the VAP output holds colour 2 (3), a back-facing
 * triangle rasterises it in place of colour 0 (1). Mesa's r300 driver
 * relies on this ("The rasterizer will do the color selection
 * automatically", r300_state_derived.c r300_update_rs_block), and routes
 * the back colours as texcoords instead when two-sided lighting is off
 * "to prevent from the two-sided color selection".
 */
static void rs_vector(R300Core *c, const R300Vertex *v, unsigned src,
                      bool back, float *o)
{
    uint32_t inst = R300_REG(c, R300_RS_INST(src / 2));
    bool is_tex = !(src & 1);
    uint32_t ip = R300_REG(c, R300_RS_IP(is_tex
        ? G3D_FIELD_EX32(inst, RS_INST_0, TEX_ID)
        : G3D_FIELD_EX32(inst, RS_INST_0, COL_ID)));
    uint32_t fmt0 = R300_REG(c, A_VAP_OUT_VTX_FMT_0);
    uint32_t fmt1 = R300_REG(c, A_VAP_OUT_VTX_FMT_1);
    bool bypass = R300_REG(c, A_VAP_CNTL_STATUS) &
                  R_VAP_CNTL_STATUS_PVS_BYPASS_MASK;
    static const float zero[4];
    int n, i;

    if (is_tex) {
        /* texture scalars: the present texcoords' components, in order */
        float scal[32];
        unsigned ns = 0, ptr = G3D_FIELD_EX32(ip, RS_IP_0, TEX_PTR);
        for (n = 0; n < 8; n++) {
            unsigned cnt = bypass ? 4 : R300_OUT_VTX_FMT_1_TEX_COMP_CNT(fmt1, n);
            if (!cnt) {
                cnt = v->stuffed[n];
            }
            for (i = 0; i < (int)cnt && i < 4 && ns < 32; i++) {
                scal[ns++] = v->tex[n][i];
            }
        }
        for (i = 0; i < 4; i++) {
            unsigned sel = (ip >> (13 + 3 * i)) & 7;   /* SEL_S..SEL_Q */
            if (sel == R300_RS_SEL_K1) {
                o[i] = 1.0f;
            } else if (sel < 4 && ptr + sel < ns) {
                o[i] = scal[ptr + sel];
            } else {
                o[i] = 0.0f;
            }
        }
    } else {
        /* colour COL_PTR is the COL_PTR-th present colour */
        unsigned ptr = G3D_FIELD_EX32(ip, RS_IP_0, COL_PTR), seen = 0;
        const float *col = zero;
        for (n = 0; n < 4; n++) {
            if ((bypass || (fmt0 & (2u << n))) && seen++ == ptr) {
                col = v->col[back && n < 2 && (fmt0 & (2u << (n + 2)))
                             ? n + 2 : n];
                break;
            }
        }
        /* COL_FMT: RGBA, RGB0, RGB1, -, 000A, 0000, 0001, -, 111A, 1110, 1111 */
        switch (G3D_FIELD_EX32(ip, RS_IP_0, COL_FMT)) {
        case 0: memcpy(o, col, 16); break;
        case 1: memcpy(o, col, 12); o[3] = 0.0f; break;
        case 2: memcpy(o, col, 12); o[3] = 1.0f; break;
        case 4: o[0] = o[1] = o[2] = 0.0f; o[3] = col[3]; break;
        case 6: o[0] = o[1] = o[2] = 0.0f; o[3] = 1.0f; break;
        case 8: o[0] = o[1] = o[2] = 1.0f; o[3] = col[3]; break;
        case 9: o[0] = o[1] = o[2] = 1.0f; o[3] = 0.0f; break;
        case 10: o[0] = o[1] = o[2] = o[3] = 1.0f; break;
        default: o[0] = o[1] = o[2] = o[3] = 0.0f; break;
        }
    }
}

static float depth_of(R300Core *c, float z)
{
    /* "applied to depth before conversion to FXP" [R3xx 3D ref. §1.7 SU] */
    return z * g3d_u2f(R300_REG(c, A_SU_DEPTH_SCALE)) +
           g3d_u2f(R300_REG(c, A_SU_DEPTH_OFFSET));
}

/* The fog value GB_SELECT.FOG_SELECT picks, through GA_FOG_SCALE/OFFSET. */
static float fog_value(R300Core *c, const WinVertex *w)
{
    unsigned sel = G3D_FIELD_EX32(R300_REG(c, A_GB_SELECT), GB_SELECT,
                                  FOG_SELECT);
    float v;

    if (sel < 4) {
        v = w->v->col[sel][3];              /* alpha of colour 0..3 */
    } else if (sel == 4) {
        v = w->inv_w != 0.0f ? 1.0f / w->inv_w : 0.0f;   /* 1/(1/W) */
    } else {
        v = w->z;
    }
    return v * g3d_u2f(R300_REG(c, A_GA_FOG_SCALE)) +
           g3d_u2f(R300_REG(c, A_GA_FOG_OFFSET));
}

/* Rasterise three window vertices; `offset` is the polygon offset. */
static void emit_sample(R300Core *c, const WinVertex *w,
                        const G3DRasterRules *rules, float offset, bool back,
                        unsigned sample)
{
    R300DrawState *ds = c->draw;
    R300Tri *t = g3d_raster_alloc(c->raster, sizeof(R300Tri));
    uint32_t off = R300_REG(c, A_GA_OFFSET);
    int32_t ox = (int16_t)(off & 0xFFFF), oy = (int16_t)(off >> 16);
    G3DTriangle tri = {
        .clip = ds->scissor, .rules = rules, .shade = ds->shade, .user = t,
    };
    unsigned k, i;

    t->ds = ds;
    t->back = back;
    t->sample = sample;
    for (i = 0; i < 3; i++) {
        /* GA_OFFSET: sub-pixel offsets after the conversion [§3.3] */
        tri.v[i].x = snap(c, w[i].x, ox);
        tri.v[i].y = snap(c, w[i].y, oy);
        tri.v[i].inv_w = w[i].inv_w;
        t->z[i] = depth_of(c, w[i].z) + offset;
        t->fog[i] = fog_value(c, &w[i]);
        for (k = 0; k < ds->nvec; k++) {
            rs_vector(c, w[i].v, ds->vec_src[k], back, t->vec[i][k]);
        }
    }
    tri.fill = r300_lanes_fill_choose(t, &tri);
    /*
     * every fill takes any rectangle (fill.c fill32; quad-lanes.c's spans
     * address each group of a row by itself): rows of several tiles
     */
    tri.fill_wide = tri.fill != NULL;
    /* a staged triangle (vap.c front_job) is counted when committed */
    if (g3d_raster_triangle(c->raster, &tri) && !g3d_raster_staging()) {
        c->draw_pending = true;
        if (ds->serial_tiles) {
            g3d_raster_serial(c->raster);
        }
    }
}

/*
 * Multisampled: one pass per sample, each covering and interpolating at its
 * GB_MSPOS position, so coverage, Z and stencil are per sample (the shader
 * runs per sample too: the chip's per-pixel shading is not observable for
 * attributes constant over the pixel).
 */
static void emit(R300Core *c, const WinVertex *w, const G3DRasterRules *rules,
                 float offset, bool back)
{
    R300DrawState *ds = c->draw;
    unsigned kind, s;

    if (ds->samples <= 1 || ds->resolving) {
        /* a resolve draw covers pixels: once, at the single-sample point */
        emit_sample(c, w, rules, offset, back, 0);
        return;
    }
    kind = rules == &ds->rules_tri ? 0 : rules == &ds->rules_point ? 1 : 2;
    for (s = 0; s < ds->samples; s++) {
        emit_sample(c, w, &ds->ms_rules[kind][s], offset, back, s);
    }
}

static float poly_offset(R300Core *c, const WinVertex *w, bool back)
{
    uint32_t en = R300_REG(c, A_SU_POLY_OFFSET_ENABLE);
    float z0, z1, z2, dzdx, dzdy, area, slope, scale, bias;

    if (!(en & (back ? R_SU_POLY_OFFSET_ENABLE_BACK_ENABLE_MASK
                     : R_SU_POLY_OFFSET_ENABLE_FRONT_ENABLE_MASK))) {
        return 0.0f;
    }
    area = (w[1].x - w[0].x) * (w[2].y - w[0].y) -
           (w[1].y - w[0].y) * (w[2].x - w[0].x);
    if (area == 0.0f) {
        return 0.0f;
    }
    z0 = depth_of(c, w[0].z);
    z1 = depth_of(c, w[1].z) - z0;
    z2 = depth_of(c, w[2].z) - z0;
    dzdx = (z1 * (w[2].y - w[0].y) - z2 * (w[1].y - w[0].y)) / area;
    dzdy = (z2 * (w[1].x - w[0].x) - z1 * (w[2].x - w[0].x)) / area;
    /* the slope is per sub-pixel step [R3xx 3D ref. §1.7 SU] */
    slope = fmaxf(fabsf(dzdx), fabsf(dzdy)) / (float)subpixels(c);
    scale = g3d_u2f(R300_REG(c, back ? A_SU_POLY_OFFSET_BACK_SCALE
                                     : A_SU_POLY_OFFSET_FRONT_SCALE));
    bias = g3d_u2f(R300_REG(c, back ? A_SU_POLY_OFFSET_BACK_OFFSET
                                    : A_SU_POLY_OFFSET_FRONT_OFFSET));
    return slope * scale + bias;
}

/* ---- points and lines: quads of two triangles ------------------------- */

typedef struct Corner {
    R300Vertex v;
    WinVertex w;
} Corner;

static void stuff_tex(R300Core *c, R300Vertex *v, bool point, float s, float t)
{
    uint32_t en = R300_REG(c, A_GB_ENABLE);
    int n;

    if (!(en & (point ? R_GB_ENABLE_POINT_STUFF_ENABLE_MASK
                      : R_GB_ENABLE_LINE_STUFF_ENABLE_MASK))) {
        return;
    }
    /*
     * A texture coordinate the VAP outputs wins over a stuffed one; one it
     * does not output is stuffed and takes 2 (S,T) or 3 (S,T,R) of the RS
     * texture components. That is how Mesa feeds gl_PointCoord and its
     * blits (r300_state_derived.c r300_update_rs_block: "VAP outputs have
     * precedence over GA", tex_ptr += 2 for a sprite coordinate;
     * r300_render.c r300_blitter_draw_rectangle).
     */
    for (n = 0; n < 8; n++) {
        unsigned src = R300_GB_TEX_SOURCE(en, n);  /* 1: (S,T), 2: (S,T,R) */
        if ((src == 1 || src == 2) &&
            !R300_OUT_VTX_FMT_1_TEX_COMP_CNT(R300_REG(c, A_VAP_OUT_VTX_FMT_1),
                                             n)) {
            v->tex[n][0] = s;
            v->tex[n][1] = t;
            v->tex[n][2] = 0.0f;
            v->tex[n][3] = 1.0f;
            v->stuffed[n] = src == 2 ? 3 : 2;
        }
    }
}

static void quad(R300Core *c, Corner *k, const G3DRasterRules *rules)
{
    /* corners in order around the quad: (0, 1, 2) and (0, 2, 3) */
    WinVertex a[3] = { k[0].w, k[1].w, k[2].w };
    WinVertex b[3] = { k[0].w, k[2].w, k[3].w };

    a[0].v = b[0].v = &k[0].v;
    a[1].v = &k[1].v;
    a[2].v = b[1].v = &k[2].v;
    b[2].v = &k[3].v;
    emit(c, a, rules, 0.0f, false);
    emit(c, b, rules, 0.0f, false);
}

static void point_window(R300Core *c, const WinVertex *p)
{
    uint32_t sz = R300_REG(c, A_GA_POINT_SIZE);
    float sub = (float)subpixels(c);
    /* half height/width in sub-pixels [R3xx 3D ref. §1.3 GA] */
    float hw = (float)G3D_FIELD_EX32(sz, GA_POINT_SIZE, WIDTH) / sub;
    float hh = (float)G3D_FIELD_EX32(sz, GA_POINT_SIZE, HEIGHT) / sub;
    float s0 = g3d_u2f(R300_REG(c, A_GA_POINT_S0));
    float t0 = g3d_u2f(R300_REG(c, A_GA_POINT_T0));
    float s1 = g3d_u2f(R300_REG(c, A_GA_POINT_S1));
    float t1 = g3d_u2f(R300_REG(c, A_GA_POINT_T1));
    Corner k[4];
    int i;

    if (R300_REG(c, A_VAP_OUT_VTX_FMT_0) &
        R_VAP_OUT_VTX_FMT_0_VTX_PT_SIZE_PRESENT_MASK) {
        /* a vertex size (pixels) is clamped to GA_POINT_MINMAX (sub-pixels) */
        uint32_t mm = R300_REG(c, A_GA_POINT_MINMAX);
        float r = p->v->psize * 0.5f * sub;
        r = fmaxf(r, (float)G3D_FIELD_EX32(mm, GA_POINT_MINMAX, MIN_SIZE));
        r = fminf(r, (float)G3D_FIELD_EX32(mm, GA_POINT_MINMAX, MAX_SIZE));
        hw = hh = r / sub;
    }
    if (!(hw > 0.0f) || !(hh > 0.0f)) {
        return;
    }
    /* lower-left (S0, T0) to upper-right (S1, T1) [R3xx 3D ref. §1.3 GA;
     * reference defect R300-19, docs/references.md] */
    for (i = 0; i < 4; i++) {
        bool right = i == 1 || i == 2, top = i >= 2;
        k[i].v = *p->v;
        k[i].w = *p;
        k[i].w.x = p->x + (right ? hw : -hw);
        k[i].w.y = p->y + (top ? -hh : hh);
        stuff_tex(c, &k[i].v, true, right ? s1 : s0, top ? t1 : t0);
    }
    quad(c, k, &c->draw->rules_point);
}

static void line_window(R300Core *c, const WinVertex *a, const WinVertex *b)
{
    uint32_t cntl = R300_REG(c, A_GA_LINE_CNTL);
    float hw = (float)G3D_FIELD_EX32(cntl, GA_LINE_CNTL, WIDTH) /
               (float)subpixels(c);
    float dx = b->x - a->x, dy = b->y - a->y, len, ox = 0, oy = 0;
    float s0 = g3d_u2f(R300_REG(c, A_GA_LINE_S0));
    float s1 = g3d_u2f(R300_REG(c, A_GA_LINE_S1));
    Corner k[4];
    int i;

    if (hw <= 0.0f || (dx == 0.0f && dy == 0.0f)) {
        return;
    }
    /* END_TYPE: 0 horizontal, 1 vertical, 2 by slope, 3 perpendicular */
    switch (G3D_FIELD_EX32(cntl, GA_LINE_CNTL, END_TYPE)) {
    case 0:
        oy = hw;
        break;
    case 1:
        ox = hw;
        break;
    case 2:
        if (fabsf(dx) >= fabsf(dy)) {
            oy = hw;
        } else {
            ox = hw;
        }
        break;
    default:
        len = sqrtf(dx * dx + dy * dy);
        ox = -dy / len * hw;
        oy = dx / len * hw;
        break;
    }
    for (i = 0; i < 4; i++) {
        const WinVertex *e = i < 2 ? a : b;
        float side = (i == 0 || i == 3) ? -1.0f : 1.0f;
        k[i].v = *e->v;
        k[i].w = *e;
        k[i].w.x = e->x + side * ox;
        k[i].w.y = e->y + side * oy;
        stuff_tex(c, &k[i].v, false, i < 2 ? s0 : s1, 0.0f);
    }
    quad(c, k, &c->draw->rules_line);
}

/* ---- triangles -------------------------------------------------------- */

/* A clipped, transformed triangle: face, cull, polygon mode, setup. */
static void setup_triangle(R300Core *c, WinVertex *w)
{
    uint32_t cull = R300_REG(c, A_SU_CULL_MODE);
    uint32_t pm = R300_REG(c, A_GA_POLY_MODE);
    float area = (w[1].x - w[0].x) * (w[2].y - w[0].y) -
                 (w[1].y - w[0].y) * (w[2].x - w[0].x);
    bool front;
    int i;

    if (area == 0.0f) {
        return;
    }
    /*
     * FACE is XORed with the sign of the cross product [ref. SU_CULL_MODE].
     * The sign is that of a y-up frame: with FACE = 0 a triangle that is
     * counter-clockwise on the screen is front, as Mesa's r300 driver
     * relies on (r300_state.c: front_ccw -> R300_FRONT_FACE_CCW = 0, with
     * gallium's "det < 0 is counter-clockwise" in y-down window space,
     * draw_pipe_cull.c). Window y grows downwards here, so a negative
     * `area` is counter-clockwise.
     */
    front = (area < 0.0f) != !!(cull & R_SU_CULL_MODE_FACE_MASK);
    if ((front && (cull & R_SU_CULL_MODE_CULL_FRONT_MASK)) ||
        (!front && (cull & R_SU_CULL_MODE_CULL_BACK_MASK))) {
        return;
    }
    if (G3D_FIELD_EX32(pm, GA_POLY_MODE, POLY_MODE)) {
        /* glPolygonMode: 0 points, 1 lines, 2 triangles per face */
        unsigned type = front ? G3D_FIELD_EX32(pm, GA_POLY_MODE, FRONT_PTYPE)
                              : G3D_FIELD_EX32(pm, GA_POLY_MODE, BACK_PTYPE);
        if (type == 0) {
            for (i = 0; i < 3; i++) {
                point_window(c, &w[i]);
            }
            return;
        }
        if (type == 1) {
            for (i = 0; i < 3; i++) {
                line_window(c, &w[i], &w[(i + 1) % 3]);
            }
            return;
        }
    }
    emit(c, w, &c->draw->rules_tri, poly_offset(c, w, !front), !front);
}

void r300_ga_triangle(R300Core *c, const R300Vertex *v0, const R300Vertex *v1,
                      const R300Vertex *v2, const R300Vertex *pv)
{
    R300Vertex poly[MAX_CLIP_VERTS], tmp[MAX_CLIP_VERTS];
    WinVertex w[MAX_CLIP_VERTS];
    ClipPlanes cp;
    int n = 3, i;

    poly[0] = *v0;
    poly[1] = *v1;
    poly[2] = *v2;
    for (i = 0; i < 3; i++) {
        shade_colours(c, &poly[i], pv);
    }
    if (clipping_on(c)) {
        clip_planes(c, &cp);
        if (!inside_all(&cp, &poly[0]) || !inside_all(&cp, &poly[1]) ||
            !inside_all(&cp, &poly[2])) {
            n = clip_polygon(&cp, poly, 3, tmp);
        }
    }
    for (i = 0; i < n; i++) {
        if (!vte(c, &poly[i], &w[i])) {
            return;
        }
    }
    /* the clipped polygon is convex: a fan keeps its winding */
    for (i = 1; i + 1 < n; i++) {
        WinVertex t[3] = { w[0], w[i], w[i + 1] };
        setup_triangle(c, t);
    }
}

void r300_ga_point(R300Core *c, const R300Vertex *v)
{
    R300Vertex copy = *v;
    WinVertex w;
    ClipPlanes cp;

    shade_colours(c, &copy, v);
    if (clipping_on(c)) {
        clip_planes(c, &cp);
        if (!inside_all(&cp, &copy)) {
            return;
        }
    }
    if (vte(c, &copy, &w)) {
        point_window(c, &w);
    }
}

void r300_ga_line(R300Core *c, const R300Vertex *v0, const R300Vertex *v1,
                  const R300Vertex *pv)
{
    R300Vertex seg[2] = { *v0, *v1 };
    WinVertex w[2];
    ClipPlanes cp;
    int i, p;

    shade_colours(c, &seg[0], pv);
    shade_colours(c, &seg[1], pv);
    if (clipping_on(c)) {
        clip_planes(c, &cp);
        for (p = 0; p < cp.n; p++) {
            float da = plane_dist(cp.p[p], &seg[0]);
            float db = plane_dist(cp.p[p], &seg[1]);
            if (!(da >= 0) && !(db >= 0)) {
                return;
            }
            if (!(da >= 0)) {
                lerp_vertex(&seg[0], &seg[0], &seg[1], da / (da - db));
            } else if (!(db >= 0)) {
                lerp_vertex(&seg[1], &seg[0], &seg[1], da / (da - db));
            }
        }
    }
    for (i = 0; i < 2; i++) {
        if (!vte(c, &seg[i], &w[i])) {
            return;
        }
    }
    line_window(c, &w[0], &w[1]);
}
