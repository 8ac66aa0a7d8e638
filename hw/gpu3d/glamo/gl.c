/*
 * The G/L engine ("Geometry & Lighting", TnL): transform by the T1 matrix,
 * vertex lighting, frustum and user-plane clipping, the divide by W and the
 * viewport (2678h-268Fh). Input s[8].23 is rounded to the internal s[7].16
 * precision (L15-L16); the matrices are s[7].16 registers.
 *
 * Conventions the reference leaves open (docs/glamo-3d.md): row vectors
 * (clip = [x y z w] . T1, the 4x3 world*view with its translation row
 * implies it), clip volume -w <= x, y <= w and 0 <= z <= w (D3D), the user
 * plane keeps Va x + Vb y + Vc z + Vd w >= 0.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "glamo-int.h"

#include <math.h>
#include <string.h>

#define MAX_POLY 10

static bool screen_space(GlamoCore *c)
{
    return GLAMO_FIELD(c, RGXFEN0, RGXScrCoor);
}

static float clamp01(float v)
{
    return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;
}

/* a material colour register: "S[8].23 -> 6 (HW format transfer)" */
static float mat(GlamoCore *c, uint32_t off)
{
    return glamo_f24_round(glamo_rf32(c, off));
}

static void v3_normalise(float v[3])
{
    float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);

    if (l > 0.0f) {
        v[0] /= l;
        v[1] /= l;
        v[2] /= l;
    }
}

static float dot3(const float a[3], const float b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* eye-space position: [x y z 1] . world*view (4x3 at 26E0h) */
static void eye_position(GlamoCore *c, const GlamoVertex *in, float p[3])
{
    int i, j;

    for (j = 0; j < 3; j++) {
        p[j] = glamo_rf24(c, GLAMO_RGXR0MWV(3, j));
        for (i = 0; i < 3; i++) {
            p[j] += glamo_f24_round(in->pos[i]) *
                    glamo_rf24(c, GLAMO_RGXR0MWV(i, j));
        }
    }
}

/* material source: 00 vertex diffuse, 01 vertex specular, 10 register */
static void material(GlamoCore *c, int src, uint32_t reg, bool has_alpha,
                     const GlamoVertex *in, float out[4])
{
    int i;

    switch (src) {
    case GLAMO_MATSRC_VCD:
        memcpy(out, in->diff, 4 * sizeof(float));
        break;
    case GLAMO_MATSRC_VCS:
        memcpy(out, in->spec, 4 * sizeof(float));
        break;
    default:
        for (i = 0; i < 3; i++) {
            out[i] = mat(c, reg + 4 * i);
        }
        out[3] = has_alpha ? mat(c, reg + 12) :
                 (glamo_r32(c, reg + 12) & 0xff) / 255.0f;
        break;
    }
}

/*
 * Vertex lighting, D3D fixed-function model (the register set is D3D's:
 * range, Att0-2, falloff, theta/phi, L1561-L1582): eye-space position from
 * the world*view matrix, normal from its inverse transpose. The variants
 * of 2604h (L1265-L1292):
 * - RGXenOpenGLLight: the spot factor is OpenGL's, (cos of the angle to
 *   the spot axis)^falloff inside the cone RGXLnTheta = cos(cutoff) and 0
 *   outside (OpenGL 1.5 section 2.14.1; the register's OpenGL values
 *   Phi = 0, ThetaSubPhi = 1 leave no penumbra);
 * - RGXSingleColor: the specular sum is added to the primary colour and
 *   the secondary colour is 0 (GL_SINGLE_COLOR of
 *   GL_LIGHT_MODEL_COLOR_CONTROL);
 * - RGXenDX7Light: with specular lighting off, a vertex specular colour
 *   (RGXSpecPresent) is dropped (DX7: "specular color = 0"); DX8/DX9 pass
 *   it on as the specular output;
 * - turbo specular (RGXDisSpecTurbo D[3:0] = 0, the default): specular is
 *   skipped where N.L < 0 (D), past the range (R), outside the cone (S)
 *   and where N.H < RGSCWSDTh / RGSCCWSDTh (T). R and S only skip terms
 *   that are 0 anyway; with D disabled, a light behind the surface still
 *   gives the D3D specular term (N.H)^P; with T disabled the threshold is
 *   ignored.
 */
static void light_vertex(GlamoCore *c, const GlamoVertex *in, bool ccw,
                         float diff[4], float spec[4])
{
    uint32_t ms = glamo_r32(c, A_RGXMATSRC);
    uint32_t types = glamo_r32(c, A_RGXLTYPE);
    uint32_t en = GLAMO_FIELD(c, RGXFEN1, RXLighEnable);
    bool do_spec = GLAMO_FIELD(c, RGXFEN1, RGXenSpecLight);
    bool gl_light = GLAMO_FIELD(c, RGXFEN1, RGXenOpenGLLight);
    uint32_t turbo_off = GLAMO_FIELD(c, RGXFEN1, RGXDisSpecTurbo);
    float sthresh = glamo_rf24(c, ccw ? A_RGSCCWSDTh : A_RGSCWSDTh);
    bool local = ms & R_RGXMATSRC_RGXLocalViewer_MASK;
    float md[4], ma[4], msp[4], me[4], p[3], n[3], power;
    float acc_d[3], acc_s[3] = { 0, 0, 0 };
    int i, j, l;

    /* CW faces: material set 2B10h, sources 2B00h D[31:20]; CCW faces
     * (two-sided lighting): set 2B60h, sources 2B04h D[9:0] */
    uint32_t ms2 = glamo_r32(c, A_RGXLTYPE);
    uint32_t set = ccw ? GLAMO_MAT_CCW : GLAMO_MAT_CW;
    int src_d = ccw ? (ms2 >> 8) & 3 : (ms >> 30) & 3;
    int src_s = ccw ? (ms2 >> 6) & 3 : (ms >> 28) & 3;
    int src_e = ccw ? (ms2 >> 4) & 3 : (ms >> 26) & 3;
    int src_a = ccw ? (ms2 >> 2) & 3 : (ms >> 24) & 3;
    int src_al = ccw ? ms2 & 3 : (ms >> 20) & 3;
    bool neg = GLAMO_FIELD(c, RGXFEN1, RGXenNegNormal) &&
               GLAMO_FIELD(c, RGXFEN1, RGXNegCWNORMAL) == !ccw;

    material(c, src_d, set + GLAMO_MAT_DIFF, true, in, md);
    material(c, src_s, set + GLAMO_MAT_SPEC, true, in, msp);
    material(c, src_e, set + GLAMO_MAT_EMIS, false, in, me);
    material(c, src_a, set + GLAMO_MAT_AMB, false, in, ma);
    power = glamo_rf24(c, ccw ? A_RGXCCWMP : A_RGXCWMP);

    eye_position(c, in, p);
    for (j = 0; j < 3; j++) {
        n[j] = 0.0f;
        for (i = 0; i < 3; i++) {
            n[j] += glamo_f24_round(in->nrm[i]) * glamo_rf24(c, GLAMO_RGXR0INVMVW(i, j));
        }
    }
    if (GLAMO_FIELD(c, RGXFEN1, RGXenScaleNormal)) {
        float f = glamo_rf24(c, A_RGXNormalFactor);
        if (f != 0.0f) {
            for (j = 0; j < 3; j++) {
                n[j] /= f;
            }
        }
    }
    if (ms & R_RGXMATSRC_RGXNormNormal_MASK) {
        v3_normalise(n);
    }
    if (neg) {
        /* RGXenNegNormal: this side sees the normal reversed */
        for (j = 0; j < 3; j++) {
            n[j] = -n[j];
        }
    }
    for (j = 0; j < 3; j++) {
        acc_d[j] = me[j] + ma[j] * glamo_rf24(c, A_RGXLaR + 4 * j);
    }
    for (l = 0; l < 8; l++) {
        uint32_t lb = GLAMO_LIGHT(l);
        int type = (types >> (30 - 2 * l)) & 3;
        float ldir[3], att = 1.0f, spot = 1.0f, ndl;

        if (!(en & (1u << l))) {
            continue;
        }
        if (type == GLAMO_LIGHT_DIRECTIONAL) {
            for (j = 0; j < 3; j++) {
                ldir[j] = -glamo_rf24(c, lb + GLAMO_L_DIR + 4 * j);
            }
            v3_normalise(ldir);
        } else {
            float d2, d;
            for (j = 0; j < 3; j++) {
                ldir[j] = glamo_rf24(c, lb + GLAMO_L_POS + 4 * j) - p[j];
            }
            d2 = dot3(ldir, ldir);
            if (d2 > glamo_rf24(c, lb + GLAMO_L_RANGE)) {
                continue;   /* beyond range^2 */
            }
            d = sqrtf(d2);
            v3_normalise(ldir);
            att = glamo_rf24(c, lb + GLAMO_L_ATT0) +
                  glamo_rf24(c, lb + GLAMO_L_ATT1) * d +
                  glamo_rf24(c, lb + GLAMO_L_ATT2) * d2;
            att = att > 0.0f ? 1.0f / att : 1.0f;
            if (type == GLAMO_LIGHT_SPOT) {
                float sd[3], rho;
                float theta = glamo_rf24(c, lb + GLAMO_L_THETA);
                float phi = glamo_rf24(c, lb + GLAMO_L_PHI);
                for (j = 0; j < 3; j++) {
                    sd[j] = -glamo_rf24(c, lb + GLAMO_L_DIR + 4 * j);
                }
                v3_normalise(sd);
                rho = dot3(sd, ldir);
                if (gl_light) {
                    spot = rho >= theta ?
                           powf(fmaxf(rho, 0.0f),
                                glamo_rf24(c, lb + GLAMO_L_FALLOFF)) : 0.0f;
                } else if (rho <= phi) {
                    spot = 0.0f;
                } else if (rho <= theta) {
                    float t = (rho - phi) *
                              glamo_rf24(c, lb + GLAMO_L_THETASUBPHI);
                    spot = powf(clamp01(t), glamo_rf24(c, lb + GLAMO_L_FALLOFF));
                }
            } else if (type != GLAMO_LIGHT_POINT) {
                continue;   /* 11: reserved */
            }
        }
        ndl = dot3(n, ldir);
        for (j = 0; j < 3; j++) {
            acc_d[j] += att * spot *
                        (ma[j] * glamo_rf24(c, lb + GLAMO_L_AMB + 4 * j) +
                         (ndl > 0.0f ? ndl : 0.0f) * md[j] *
                         glamo_rf24(c, lb + GLAMO_L_DIFF + 4 * j));
        }
        if (do_spec && (ndl > 0.0f ||
                        (turbo_off & GLAMO_TURBO_OFF_ND))) {
            float h[3], v[3] = { 0.0f, 0.0f, 1.0f }, nh;
            if (local) {
                for (j = 0; j < 3; j++) {
                    v[j] = -p[j];
                }
                v3_normalise(v);
            }
            for (j = 0; j < 3; j++) {
                h[j] = ldir[j] + v[j];
            }
            v3_normalise(h);
            nh = dot3(n, h);
            if (nh > 0.0f &&
                (nh >= sthresh || (turbo_off & GLAMO_TURBO_OFF_NH))) {
                float s = att * spot * powf(nh, power);
                for (j = 0; j < 3; j++) {
                    acc_s[j] += s * msp[j] *
                                glamo_rf24(c, lb + GLAMO_L_SPEC + 4 * j);
                }
            }
        }
    }
    if (!do_spec && (ms & R_RGXMATSRC_RGXSpecPresent_MASK) &&
        !GLAMO_FIELD(c, RGXFEN1, RGXenDX7Light)) {
        memcpy(acc_s, in->spec, sizeof(acc_s));     /* DX8/DX9 */
    }
    if (GLAMO_FIELD(c, RGXFEN1, RGXSingleColor)) {
        for (j = 0; j < 3; j++) {
            acc_d[j] += acc_s[j];
            acc_s[j] = 0.0f;
        }
    }
    for (j = 0; j < 3; j++) {
        diff[j] = clamp01(acc_d[j]);
        spec[j] = clamp01(acc_s[j]);
    }
    {
        float a[4];
        material(c, src_al, set + GLAMO_MAT_DIFF, true, in, a);
        diff[3] = clamp01(a[3]);
    }
}

/* vertex fog factor (2B00h D[19:18], 2B54h-2B5Ch), from eye-space depth */
static float vertex_fog(GlamoCore *c, const GlamoVertex *in)
{
    int mode = GLAMO_FIELD(c, RGXMATSRC, RGXFogMode);
    float z = glamo_rf24(c, GLAMO_RGXR0MWV(3, 2)), f;
    int i;

    for (i = 0; i < 3; i++) {
        z += glamo_f24_round(in->pos[i]) * glamo_rf24(c, GLAMO_RGXR0MWV(i, 2));
    }
    z = fabsf(z);
    switch (mode) {
    case 1:   /* EXP: density register holds -(density * log2 e) */
        f = exp2f(glamo_rf24(c, A_RGXFogDensity) * z);
        break;
    case 2:   /* EXP2: -(density^2 * log2 e) */
        f = exp2f(glamo_rf24(c, A_RGXFogDensity) * z * z);
        break;
    case 3:
        f = (glamo_rf24(c, A_RGXFogEnd) - z) * glamo_rf24(c, A_RGXFogRatio);
        break;
    default:
        return in->spec[3];
    }
    return clamp01(f);
}

/*
 * Texture coordinate sets A and B (2600h D[3:1], 2610h): generation from
 * camera-space normal, position or reflection vector; transform by the
 * texture-0 or texture-1 matrix (2A00h / 2A50h, row vector (u v m n) with
 * the parser's defaults m = 0, n = 1); projection divides by the last
 * coordinate of the output dimension (RGPVDTexACoor/BCoor: 3D by m, 4D by n).
 */
static void tex_coords(GlamoCore *c, const GlamoVertex *in,
                       float out[GLAMO_TEX_SETS][4])
{
    uint32_t f0 = glamo_r32(c, A_RGXFEN0), f4 = glamo_r32(c, A_RGXFEN4);
    int set, i, j;

    for (set = 0; set < 2; set++) {
        float t[4], p[3], n[3];
        memcpy(t, in->tex[set], sizeof(t));
        if ((f0 & R_RGXFEN0_RGPenTexGen_MASK) && (f4 >> (12 + set) & 1)) {
            int mode = (f4 >> (16 + 2 * set)) & 3;
            for (j = 0; j < 3; j++) {
                p[j] = glamo_rf24(c, GLAMO_RGXR0MWV(3, j));
                n[j] = 0.0f;
                for (i = 0; i < 3; i++) {
                    p[j] += in->pos[i] * glamo_rf24(c, GLAMO_RGXR0MWV(i, j));
                    n[j] += in->nrm[i] * glamo_rf24(c, GLAMO_RGXR0INVMVW(i, j));
                }
            }
            switch (mode) {
            case 1:
                memcpy(t, n, sizeof(n));
                break;
            case 2:
                memcpy(t, p, sizeof(p));
                break;
            case 3: {
                float d;
                v3_normalise(p);
                v3_normalise(n);
                d = 2.0f * dot3(n, p);
                for (j = 0; j < 3; j++) {
                    t[j] = p[j] - d * n[j];
                }
                break;
            }
            default:
                g3d_guest_error("glamo G/L: reserved texture generation "
                                "mode 0 for set %c", 'A' + set);
                glamo_error(c);
                break;
            }
            if (mode) {
                t[3] = 1.0f;
            }
        }
        if ((f0 & R_RGXFEN0_RGPenTexTransform_MASK) && (f4 >> (8 + set) & 1)) {
            int m = (f4 >> (10 + set)) & 1;
            float r[4];
            for (j = 0; j < 4; j++) {
                r[j] = 0.0f;
                for (i = 0; i < 4; i++) {
                    r[j] += glamo_f24_round(t[i]) *
                            glamo_rf24(c, GLAMO_RGXTXMAT(m, i, j));
                }
            }
            memcpy(t, r, sizeof(t));
        }
        if ((f0 & R_RGXFEN0_RGPenXformProjTX_MASK) && (f4 >> (4 + set) & 1)) {
            int dim = (f4 >> (24 + 2 * set)) & 3;    /* 00 2D 01 3D 10 4D */
            float q = dim == 1 ? t[2] : dim == 2 ? t[3] : 1.0f;
            if (q != 0.0f) {
                t[0] /= q;
                t[1] /= q;
            }
        }
        memcpy(out[set], t, sizeof(t));
    }
    if (f4 & R_RGXFEN4_RGenDuplTxCoord_MASK) {
        memcpy(out[1], out[0], 4 * sizeof(float));
    }
}

/*
 * Point-size scaling (2604h D[5:4], 2630h-264Ch) with the eye distance d of
 * the vertex: D3D9 ("Point Sprites (Direct3D 9)") size = RGXVPHeight * size
 * * sqrt(1 / (A + B d + C d^2)); OpenGL (RGXenOPenGLPtScale, the
 * GL_POINT_DISTANCE_ATTENUATION of OpenGL 1.4 section 3.3) the same without
 * the viewport height. Both clamp to RGXPtSizeMin..Max. OpenGL then fades:
 * below RGXPtThreshold (GL_POINT_FADE_THRESHOLD_SIZE) the point is drawn
 * threshold-sized and its alpha scaled by (size / threshold)^2.
 */
static void point_scale(GlamoCore *c, const GlamoVertex *in,
                        GlamoClipVertex *out)
{
    bool gl = GLAMO_FIELD(c, RGXFEN1, RGXenOPenGLPtScale);
    float p[3], d, q, size, th;

    eye_position(c, in, p);
    d = sqrtf(dot3(p, p));
    q = glamo_rf24(c, A_RGXPtScaleA) + glamo_rf24(c, A_RGXPtScaleB) * d +
        glamo_rf24(c, A_RGXPtScaleC) * d * d;
    if (!(q > 0.0f)) {
        g3d_guest_error("glamo G/L: point scaling A + B d + C d^2 = %g is "
                        "not positive, point size left unscaled", q);
        glamo_error(c);
        return;
    }
    size = out->psize * sqrtf(1.0f / q);
    if (!gl) {
        size *= glamo_rf24(c, A_RGXVPHeight);
    }
    size = fminf(fmaxf(size, glamo_rf24(c, A_RGXPtSizeMin)),
                 glamo_rf24(c, A_RGXPtSizeMax));
    th = glamo_rf24(c, A_RGXPtThreshold);
    if (gl && size < th) {
        float fade = (size / th) * (size / th);
        out->diff[3] *= fade;
        out->diff2[3] *= fade;
        size = th;
    }
    out->psize = size;
}

void glamo_gl_vertex(GlamoCore *c, const GlamoVertex *in, GlamoClipVertex *out)
{
    int i, j;

    memcpy(out->diff, in->diff, sizeof(out->diff));
    memcpy(out->spec, in->spec, sizeof(out->spec));
    memcpy(out->diff2, in->diff, sizeof(out->diff2));
    memcpy(out->spec2, in->spec, sizeof(out->spec2));
    memcpy(out->tex, in->tex, sizeof(out->tex));
    out->psize = GLAMO_FIELD(c, RGXFEN0, RGPPtSizeSel) ?
                 in->psize : glamo_rf24(c, A_RGXPtsize);
    if (screen_space(c)) {
        /* "Disable TnL": the vertex is already in screen space */
        memcpy(out->clip, in->pos, sizeof(out->clip));
        return;
    }
    for (j = 0; j < 4; j++) {
        float s = 0.0f;
        for (i = 0; i < 4; i++) {
            s += glamo_f24_round(in->pos[i]) *
                 glamo_rf24(c, GLAMO_RGXR0T1MAT(i, j));
        }
        out->clip[j] = glamo_f24_round(s);
    }
    tex_coords(c, in, out->tex);
    if (GLAMO_FIELD(c, RGXFEN1, RGXenLighting)) {
        light_vertex(c, in, false, out->diff, out->spec);
        if (GLAMO_FIELD(c, RGXFEN0, RGXEnableTwoSide)) {
            light_vertex(c, in, true, out->diff2, out->spec2);
        } else {
            memcpy(out->diff2, out->diff, sizeof(out->diff2));
            memcpy(out->spec2, out->spec, sizeof(out->spec2));
        }
    }
    if (GLAMO_FIELD(c, RGXFEN1, RGXenVertexFog)) {
        out->spec[3] = vertex_fog(c, in);
    }
    if (GLAMO_FIELD(c, RGXFEN1, RGXenVertexFog)) {
        out->spec2[3] = out->spec[3];
    }
    if (GLAMO_FIELD(c, RGXFEN1, RGXenPtScale) ||
        GLAMO_FIELD(c, RGXFEN1, RGXenOPenGLPtScale)) {
        point_scale(c, in, out);
    }
    for (i = 0; i < 4; i++) {
        out->diff[i] = clamp01(out->diff[i]);
        out->spec[i] = clamp01(out->spec[i]);
        out->diff2[i] = clamp01(out->diff2[i]);
        out->spec2[i] = clamp01(out->spec2[i]);
    }
}

/* ---- clipping ----------------------------------------------------------- */

typedef struct Planes {
    float p[7][4];
    int n;
} Planes;

static void clip_planes(GlamoCore *c, Planes *pl)
{
    /* RGXDisableClip D[31..26]: top, bottom, right, left, far, near */
    static const float std[6][4] = {
        { 0, -1, 0, 1 }, { 0, 1, 0, 1 }, { -1, 0, 0, 1 },
        { 1, 0, 0, 1 }, { 0, 0, -1, 1 }, { 0, 0, 1, 0 },
    };
    uint32_t dis = GLAMO_FIELD(c, RGXFEN2, RGXDisableClip);
    int i;

    pl->n = 0;
    for (i = 0; i < 6; i++) {
        if (!(dis & (0x20 >> i))) {
            memcpy(pl->p[pl->n++], std[i], sizeof(std[i]));
        }
    }
    if (GLAMO_FIELD(c, RGXFEN2, RGXenUserClipPlan)) {
        for (i = 0; i < 4; i++) {
            pl->p[pl->n][i] = glamo_rf24(c, A_RGPUUserClipPlanVa + 4 * i);
        }
        pl->n++;
    }
}

static float plane_dist(const float p[4], const GlamoClipVertex *v)
{
    return p[0] * v->clip[0] + p[1] * v->clip[1] + p[2] * v->clip[2] +
           p[3] * v->clip[3];
}

static void lerp_vertex(GlamoClipVertex *o, const GlamoClipVertex *a,
                        const GlamoClipVertex *b, float t)
{
    const float *pa = (const float *)a, *pb = (const float *)b;
    float *po = (float *)o;
    size_t i, n = sizeof(*o) / sizeof(float);

    for (i = 0; i < n; i++) {
        po[i] = pa[i] + (pb[i] - pa[i]) * t;
    }
}

static bool to_screen(GlamoCore *c, const GlamoClipVertex *v,
                      GlamoScreenVertex *s)
{
    float w = v->clip[3], iw;

    memcpy(s->diff, v->diff, sizeof(s->diff));
    memcpy(s->spec, v->spec, sizeof(s->spec));
    memcpy(s->diff2, v->diff2, sizeof(s->diff2));
    memcpy(s->spec2, v->spec2, sizeof(s->spec2));
    memcpy(s->tex, v->tex, sizeof(s->tex));
    s->psize = v->psize;
    if (screen_space(c)) {
        s->x = v->clip[0];
        s->y = v->clip[1];
        s->z = v->clip[2];
        s->inv_w = (w != 0.0f && isfinite(w)) ? 1.0f / w : 1.0f;
        return true;
    }
    if (!(w > 1e-20f) || !isfinite(w)) {
        return false;
    }
    iw = 1.0f / w;
    s->x = v->clip[0] * iw * glamo_rf24(c, A_RGXScaleX) +
           glamo_rf24(c, A_RGXOffsetX);
    s->y = v->clip[1] * iw * glamo_rf24(c, A_RGXScaleY) +
           glamo_rf24(c, A_RGXOffsetY);
    s->z = v->clip[2] * iw * glamo_rf24(c, A_RGXScaleZ) +
           glamo_rf24(c, A_RGXOffsetZ);
    s->inv_w = iw;
    return true;
}

static void behind_eye(GlamoCore *c)
{
    g3d_guest_error("glamo: primitive with W <= 0 and near clipping "
                    "disabled, skipped");
    glamo_error(c);
}

void glamo_gl_triangle(GlamoCore *c, const GlamoClipVertex *a,
                       const GlamoClipVertex *b, const GlamoClipVertex *cc)
{
    GlamoClipVertex buf[2][MAX_POLY];
    GlamoScreenVertex sv[MAX_POLY];
    const GlamoScreenVertex *tri[3];
    int n = 3, k, i, cur = 0;
    Planes pl;

    buf[0][0] = *a;
    buf[0][1] = *b;
    buf[0][2] = *cc;
    if (!screen_space(c)) {
        clip_planes(c, &pl);
        for (k = 0; k < pl.n; k++) {
            float d[3] = { plane_dist(pl.p[k], a), plane_dist(pl.p[k], b),
                           plane_dist(pl.p[k], cc) };
            if (d[0] < 0 && d[1] < 0 && d[2] < 0) {
                c->stats.culled++;     /* trivial reject */
                return;
            }
        }
        for (k = 0; k < pl.n && n >= 3; k++) {
            const GlamoClipVertex *in = buf[cur];
            GlamoClipVertex *out = buf[cur ^ 1];
            int m = 0;
            for (i = 0; i < n; i++) {
                const GlamoClipVertex *p0 = &in[i], *p1 = &in[(i + 1) % n];
                float d0 = plane_dist(pl.p[k], p0), d1 = plane_dist(pl.p[k], p1);
                if (d0 >= 0 && m < MAX_POLY) {
                    out[m++] = *p0;
                }
                if ((d0 >= 0) != (d1 >= 0) && m < MAX_POLY) {
                    lerp_vertex(&out[m++], p0, p1, d0 / (d0 - d1));
                }
            }
            n = m;
            cur ^= 1;
        }
        if (n < 3) {
            c->stats.culled++;
            return;
        }
    }
    for (i = 0; i < n; i++) {
        if (!to_screen(c, &buf[cur][i], &sv[i])) {
            behind_eye(c);
            return;
        }
    }
    for (i = 1; i + 1 < n; i++) {
        tri[0] = &sv[0];
        tri[1] = &sv[i];
        tri[2] = &sv[i + 1];
        glamo_setup_triangle(c, tri, true);
    }
}

void glamo_gl_line(GlamoCore *c, const GlamoClipVertex *a,
                   const GlamoClipVertex *b)
{
    GlamoClipVertex p[2] = { *a, *b };
    GlamoScreenVertex s[2];
    Planes pl;
    int k;

    if (!screen_space(c)) {
        float t0 = 0.0f, t1 = 1.0f;
        clip_planes(c, &pl);
        for (k = 0; k < pl.n; k++) {
            float d0 = plane_dist(pl.p[k], a), d1 = plane_dist(pl.p[k], b);
            if (d0 < 0 && d1 < 0) {
                c->stats.culled++;
                return;
            }
            if (d0 < 0) {
                t0 = fmaxf(t0, d0 / (d0 - d1));
            } else if (d1 < 0) {
                t1 = fminf(t1, d0 / (d0 - d1));
            }
        }
        if (t0 > t1) {
            c->stats.culled++;
            return;
        }
        lerp_vertex(&p[0], a, b, t0);
        lerp_vertex(&p[1], a, b, t1);
    }
    if (!to_screen(c, &p[0], &s[0]) || !to_screen(c, &p[1], &s[1])) {
        behind_eye(c);
        return;
    }
    glamo_setup_line(c, &s[0], &s[1]);
}

void glamo_gl_point(GlamoCore *c, const GlamoClipVertex *a)
{
    GlamoScreenVertex s;
    Planes pl;
    int k;

    if (!screen_space(c)) {
        clip_planes(c, &pl);
        for (k = 0; k < pl.n; k++) {
            if (plane_dist(pl.p[k], a) < 0) {
                c->stats.culled++;
                return;
            }
        }
    }
    if (!to_screen(c, a, &s)) {
        behind_eye(c);
        return;
    }
    glamo_setup_point(c, &s);
}
