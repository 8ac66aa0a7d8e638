/*
 * CP vertex loader: VCD + VAT decoding and the conversion of every
 * component format to floats / 8-bit colours (doc 5.11.2 and 5.11.5.2,
 * YAGCD §5.11.5.2, §5.11.2 CP registers).
 *
 * Attribute order in the stream: PNMTXIDX, TEX0-7MTXIDX, POS, NRM, CLR0,
 * CLR1, TEX0-7. Direct data is big-endian; an indexed attribute reads the
 * same bytes from ARRAY_BASE + index * ARRAY_STRIDE in MEM1.
 *
 * Decisions (YAGCD §5.11.5.2 drawing commands; docs/flipper-gx.md decisions):
 * - Fixed point = integer / 2^shift; u8/s8 positions and texture
 *   coordinates are shifted only when VAT_A.BYTEDEQUANT is set.
 * - Normals have fixed shifts: 6 for 8-bit, 14 for 16-bit components; the
 *   unsigned formats (not allowed by the doc) are logged and decoded alike.
 * - NBT3 (VAT_A bit 31, indexed NBT): three indices; vector k is read at
 *   its own index + k * 3 components ("biased by 0, 1, 2").
 * - Colour size comes from the colour format alone; formats without alpha
 *   give alpha 255. Formats 6-7 (all attributes) are logged and take no
 *   bytes.
 * - An index past MEM1 is logged and its attribute reads as zero.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "flipper-int.h"

#include "common/formats.h"

enum {
    ATTR_PNMTX = 0, ATTR_TEXMTX0 = 1, ATTR_POS = 9, ATTR_NRM = 10,
    ATTR_CLR0 = 11, ATTR_TEX0 = 13, ATTR_COUNT = 21,
};

static const uint8_t comp_bytes[8] = { 1, 1, 2, 2, 4, 0, 0, 0 };
static const uint8_t color_bytes[8] = { 2, 3, 4, 2, 3, 4, 0, 0 };

static void set_coord(GXAttrFormat *a, bool cnt, int fmt, int shift,
                      int comps0, int comps1, bool dequant)
{
    a->fmt = fmt;
    a->comps = cnt ? comps1 : comps0;
    a->csize = comp_bytes[fmt];
    if (fmt >= VTX_U16 || dequant) {
        a->scale = 1.0f / (float)(1u << shift);
    } else {
        a->scale = 1.0f;
    }
    if (fmt == VTX_F32) {
        a->scale = 1.0f;
    }
}

void flipper_vtx_format(FlipperCore *c, int vat, GXVertexFormat *f)
{
    uint32_t lo = c->cpr[CPR_VCD_LO], hi = c->cpr[CPR_VCD_HI];
    uint32_t va = c->cpr[CPR_VAT_A + vat];
    uint32_t vb = c->cpr[CPR_VAT_B + vat];
    uint32_t vc = c->cpr[CPR_VAT_C + vat];
    bool dq = (va >> 30) & 1;
    bool bad = false;
    int i;

    memset(f, 0, sizeof(*f));
    for (i = 0; i < 9; i++) {
        f->a[ATTR_PNMTX + i].mode = (lo >> i) & 1;
    }
    f->a[ATTR_POS].mode = (lo >> 9) & 3;
    f->a[ATTR_NRM].mode = (lo >> 11) & 3;
    f->a[ATTR_CLR0].mode = (lo >> 13) & 3;
    f->a[ATTR_CLR0 + 1].mode = (lo >> 15) & 3;
    for (i = 0; i < 8; i++) {
        f->a[ATTR_TEX0 + i].mode = (hi >> (2 * i)) & 3;
    }

    set_coord(&f->a[ATTR_POS], va & 1, (va >> 1) & 7, (va >> 4) & 31, 2, 3, dq);
    /* normals: fixed shifts; NBT has 9 components */
    {
        GXAttrFormat *n = &f->a[ATTR_NRM];
        int fmt = (va >> 10) & 7;
        n->fmt = fmt;
        n->comps = (va >> 9) & 1 ? 9 : 3;
        n->csize = comp_bytes[fmt];
        n->scale = fmt == VTX_F32 ? 1.0f :
                   1.0f / (float)(1u << (n->csize == 1 ? 6 : 14));
        n->nbt3 = n->comps == 9 && ((va >> 31) & 1) && n->mode >= VCD_INDEX8;
        if (n->mode && (fmt == VTX_U8 || fmt == VTX_U16)) {
            g3d_guest_error("flipper: CP: VAT %d: unsigned normal format %d",
                            vat, fmt);
        }
    }
    f->a[ATTR_CLR0].fmt = (va >> 14) & 7;
    f->a[ATTR_CLR0 + 1].fmt = (va >> 18) & 7;
    for (i = 0; i < 2; i++) {
        GXAttrFormat *a = &f->a[ATTR_CLR0 + i];
        a->csize = color_bytes[a->fmt];
        a->comps = 1;
    }
    set_coord(&f->a[ATTR_TEX0 + 0], (va >> 21) & 1, (va >> 22) & 7,
              (va >> 25) & 31, 1, 2, dq);
    set_coord(&f->a[ATTR_TEX0 + 1], vb & 1, (vb >> 1) & 7, (vb >> 4) & 31,
              1, 2, dq);
    set_coord(&f->a[ATTR_TEX0 + 2], (vb >> 9) & 1, (vb >> 10) & 7,
              (vb >> 13) & 31, 1, 2, dq);
    set_coord(&f->a[ATTR_TEX0 + 3], (vb >> 18) & 1, (vb >> 19) & 7,
              (vb >> 22) & 31, 1, 2, dq);
    set_coord(&f->a[ATTR_TEX0 + 4], (vb >> 27) & 1, (vb >> 28) & 7,
              vc & 31, 1, 2, dq);
    set_coord(&f->a[ATTR_TEX0 + 5], (vc >> 5) & 1, (vc >> 6) & 7,
              (vc >> 9) & 31, 1, 2, dq);
    set_coord(&f->a[ATTR_TEX0 + 6], (vc >> 14) & 1, (vc >> 15) & 7,
              (vc >> 18) & 31, 1, 2, dq);
    set_coord(&f->a[ATTR_TEX0 + 7], (vc >> 23) & 1, (vc >> 24) & 7,
              (vc >> 27) & 31, 1, 2, dq);

    /* stream size */
    for (i = 0; i < ATTR_COUNT; i++) {
        GXAttrFormat *a = &f->a[i];
        uint32_t direct;

        if (!a->mode) {
            continue;
        }
        if (i < ATTR_POS) {
            a->offset = f->size;
            f->size += 1;           /* matrix indices: one direct byte */
            continue;
        }
        direct = a->csize * a->comps;
        if (direct == 0) {
            bad = true;
        }
        a->offset = f->size;
        if (a->mode == VCD_DIRECT) {
            f->size += direct;
        } else {
            f->size += (a->mode == VCD_INDEX8 ? 1 : 2) * (a->nbt3 ? 3 : 1);
        }
    }
    if (bad) {
        g3d_guest_error("flipper: CP: VAT %d: invalid component format "
                        "(VCD 0x%x/0x%x VAT 0x%08x/0x%08x/0x%08x)",
                        vat, lo, hi, va, vb, vc);
    }
}

static float read_comp(const uint8_t *p, int fmt)
{
    switch (fmt) {
    case VTX_U8:  return (float)p[0];
    case VTX_S8:  return (float)(int8_t)p[0];
    case VTX_U16: return (float)be16(p);
    case VTX_S16: return (float)(int16_t)be16(p);
    case VTX_F32: return u2f(be32(p));
    default:      return 0.0f;
    }
}

static void read_vec(const GXAttrFormat *a, const uint8_t *p, float *out,
                     int n)
{
    int k;

    for (k = 0; k < n; k++) {
        float v = read_comp(p + k * a->csize, a->fmt);
        out[k] = a->fmt == VTX_F32 ? v : v * a->scale;
    }
}

static void read_color(int fmt, const uint8_t *p, uint8_t rgba[4])
{
    uint32_t v;

    switch (fmt) {
    case VTX_RGB565:
        v = be16(p);
        rgba[0] = g3d_expand_bits(v >> 11, 5);
        rgba[1] = g3d_expand_bits((v >> 5) & 63, 6);
        rgba[2] = g3d_expand_bits(v & 31, 5);
        rgba[3] = 255;
        break;
    case VTX_RGB888:
    case VTX_RGB888X:
        rgba[0] = p[0];
        rgba[1] = p[1];
        rgba[2] = p[2];
        rgba[3] = 255;
        break;
    case VTX_RGBA4444:
        rgba[0] = g3d_expand_bits(p[0] >> 4, 4);
        rgba[1] = g3d_expand_bits(p[0] & 15, 4);
        rgba[2] = g3d_expand_bits(p[1] >> 4, 4);
        rgba[3] = g3d_expand_bits(p[1] & 15, 4);
        break;
    case VTX_RGBA6666:
        v = (uint32_t)p[0] << 16 | p[1] << 8 | p[2];
        rgba[0] = g3d_expand_bits((v >> 18) & 63, 6);
        rgba[1] = g3d_expand_bits((v >> 12) & 63, 6);
        rgba[2] = g3d_expand_bits((v >> 6) & 63, 6);
        rgba[3] = g3d_expand_bits(v & 63, 6);
        break;
    case VTX_RGBA8888:
        memcpy(rgba, p, 4);
        break;
    default:
        memset(rgba, 0, 4);
        break;
    }
}

/*
 * Bytes of attribute `a` (its direct layout, `bytes` long) for index `idx`
 * of array `arr`, or NULL (logged) when they lie outside MEM1.
 */
static const uint8_t *fetch_indexed(FlipperCore *c, int arr, uint32_t idx,
                                    uint32_t skip, uint32_t bytes,
                                    uint8_t *buf)
{
    uint64_t base = c->cpr[CPR_ARRAY_BASE + arr] & 0x03FFFFFF;
    uint64_t stride = c->cpr[CPR_ARRAY_STRIDE + arr] & 0xFF;
    uint64_t addr = base + idx * stride + skip;

    if (!flipper_mem1_ok(c, addr, bytes) ||
        !g3d_mem_read(&c->cfg.vram, addr, buf, bytes)) {
        g3d_guest_error("flipper: CP: array %d index %u: 0x%08"
                        G_GINT64_MODIFIER "x outside MEM1", arr, idx, addr);
        return NULL;
    }
    return buf;
}

static uint32_t read_index(const GXAttrFormat *a, const uint8_t *p, int k)
{
    return a->mode == VCD_INDEX8 ? p[k] : be16(p + 2 * k);
}

/* the data of attribute i (direct or fetched), NULL if unavailable */
static const uint8_t *attr_data(FlipperCore *c, const GXAttrFormat *a, int i,
                                const uint8_t *src, uint8_t *buf)
{
    uint32_t bytes = a->csize * a->comps;

    if (a->mode == VCD_DIRECT) {
        return src + a->offset;
    }
    return fetch_indexed(c, i - ATTR_POS, read_index(a, src + a->offset, 0),
                         0, bytes, buf);
}

void flipper_vtx_load(FlipperCore *c, const GXVertexFormat *f,
                      const uint8_t *src, GXInVertex *out)
{
    uint32_t mia = xf_reg(c, XF_REG_MATINDEX_A);
    uint32_t mib = xf_reg(c, XF_REG_MATINDEX_B);
    uint8_t buf[64];
    const uint8_t *p;
    int i;

    memset(out, 0, sizeof(*out));
    /*
     * Matrix indices default to the XF copies of MATINDEX (what Dolphin's
     * software renderer uses); a vertex can carry its own.
     */
    out->posmtx = mia & 63;
    for (i = 0; i < 4; i++) {
        out->texmtx[i] = (mia >> (6 + 6 * i)) & 63;
        out->texmtx[4 + i] = (mib >> (6 * i)) & 63;
    }
    if (f->a[ATTR_PNMTX].mode) {
        out->posmtx = src[f->a[ATTR_PNMTX].offset] & 63;
    }
    for (i = 0; i < 8; i++) {
        if (f->a[ATTR_TEXMTX0 + i].mode) {
            out->texmtx[i] = src[f->a[ATTR_TEXMTX0 + i].offset] & 63;
        }
    }

    if (f->a[ATTR_POS].mode) {
        const GXAttrFormat *a = &f->a[ATTR_POS];
        if ((p = attr_data(c, a, ATTR_POS, src, buf))) {
            read_vec(a, p, out->pos, a->comps);
        }
    }
    if (f->a[ATTR_NRM].mode) {
        const GXAttrFormat *a = &f->a[ATTR_NRM];
        out->has_nrm = true;
        if (a->nbt3) {
            int k;
            for (k = 0; k < 3; k++) {
                uint32_t bytes = a->csize * 3;
                p = fetch_indexed(c, CP_ARRAY_NRM,
                                  read_index(a, src + a->offset, k),
                                  k * bytes, bytes, buf);
                if (p) {
                    read_vec(a, p, out->nrm[k], 3);
                }
            }
        } else if ((p = attr_data(c, a, ATTR_NRM, src, buf))) {
            read_vec(a, p, &out->nrm[0][0], a->comps);
        }
    }
    for (i = 0; i < 2; i++) {
        const GXAttrFormat *a = &f->a[ATTR_CLR0 + i];
        if (a->mode) {
            out->has_col[i] = true;
            if (a->csize && (p = attr_data(c, a, ATTR_CLR0 + i, src, buf))) {
                read_color(a->fmt, p, out->col[i]);
            }
        }
    }
    for (i = 0; i < 8; i++) {
        const GXAttrFormat *a = &f->a[ATTR_TEX0 + i];
        if (a->mode && (p = attr_data(c, a, ATTR_TEX0 + i, src, buf))) {
            read_vec(a, p, out->tex[i], a->comps);
        }
    }
}
