/*
 * The independent reference for the demo scene (guest/scene-cube.h): the
 * same vertices and matrices drawn by Mesa's llvmpipe through OSMesa and
 * OpenGL 1.x with the equivalent state (smooth shading, depth test LESS,
 * depth range 0..1, clear colour), written as PNG with row 0 at the top.
 *
 *   scene-gl-ref OUT.png [WIDTH HEIGHT [FRAME]]
 *   scene-gl-ref --rgb565 OUT.png [WIDTH HEIGHT [FRAME]]
 *   scene-gl-ref --bench [WIDTH HEIGHT]
 *
 * --rgb565 is the reference for 16-bit chips whose setup engine snaps
 * vertices to 1/16 pixel and interpolates colour linearly in screen space
 * (glamo-3d: Glamo3365 3D spec, setup shifts s9.4 and colour d/dx, d/dy
 * gradients): this tool transforms and clips each triangle itself
 * (the textbook Sutherland-Hodgman clip against -w <= x, y, z <= w,
 * attributes lerped in clip space), divides, applies the viewport, rounds
 * x and y to 1/16 pixel, and hands llvmpipe the screen-space polygons
 * with w = 1, so llvmpipe rasterises, interpolates screen-linearly and
 * depth-tests (16-bit depth buffer, LESS) into a float RGBA buffer, which
 * this tool rounds to the nearest RGB565 step as the chip's back end does
 * with dithering off (llvmpipe's own RGB565 buffers round differently).
 * Colours are the vertices' 8-bit bytes, as the guests send them.
 *
 * --bench times the turning scene's frames (clear + draw + glFinish) for
 * about a second and prints frames/s: the llvmpipe peer of the devices'
 * demo frame rates (LP_NUM_THREADS sets llvmpipe's threads).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <GL/gl.h>
#include <GL/osmesa.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "image.h"
#include "scene-cube.h"

/* the state both renderings share, and the clear to (r, g, b) */
static void begin_frame(int w, int h, float r, float g, float b)
{
    /* row 0 of the buffer is the top of the picture, as in the chips */
    OSMesaPixelStore(OSMESA_Y_UP, 0);
    glViewport(0, 0, w, h);
    glDepthRange(0.0, 1.0);
    glClearColor(r, g, b, 1.0f);
    glClearDepth(1.0);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glShadeModel(GL_SMOOTH);
    glDisable(GL_CULL_FACE);
}

/* Frame `frame` of the scene into the current OSMesa buffer (w x h). */
static void draw_frame(int frame, int w, int h)
{
    static float v[SCENE_VERTS * 8];
    float m[16], gl_m[16];
    int i, k;

    begin_frame(w, h, SCENE_CLEAR_R, SCENE_CLEAR_G, SCENE_CLEAR_B);
    /* the scene's row-major clip transform as GL's column-major matrix */
    scene_matrix(frame, (float)w / h, m);
    for (i = 0; i < 4; i++) {
        for (k = 0; k < 4; k++) {
            gl_m[k * 4 + i] = m[i * 4 + k];
        }
    }
    glMatrixMode(GL_PROJECTION);
    glLoadIdentity();
    glMatrixMode(GL_MODELVIEW);
    glLoadMatrixf(gl_m);
    scene_vertices(v);
    glBegin(GL_TRIANGLES);
    for (i = 0; i < SCENE_VERTS; i++) {
        glColor4f(v[i * 8 + 4], v[i * 8 + 5], v[i * 8 + 6], v[i * 8 + 7]);
        glVertex4f(v[i * 8], v[i * 8 + 1], v[i * 8 + 2], v[i * 8 + 3]);
    }
    glEnd();
    glFinish();
}

/* ---- --rgb565: the 16-bit screen-space model ----------------------------- */

typedef struct RefVert {
    float c[4];          /* clip x y z w */
    float rgba[4];       /* the vertex colour bytes / 255 */
} RefVert;

/* keep the part of polygon in[n] where p . c >= 0; returns the count */
static int clip_poly(const RefVert *in, int n, const float p[4], RefVert *out)
{
    int i, k, m = 0;

    for (i = 0; i < n; i++) {
        const RefVert *a = &in[i], *b = &in[(i + 1) % n];
        float da = 0, db = 0;

        for (k = 0; k < 4; k++) {
            da += p[k] * a->c[k];
            db += p[k] * b->c[k];
        }
        if (da >= 0) {
            out[m++] = *a;
        }
        if ((da >= 0) != (db >= 0)) {
            float t = da / (da - db);
            RefVert *v = &out[m++];
            for (k = 0; k < 4; k++) {
                v->c[k] = a->c[k] + t * (b->c[k] - a->c[k]);
            }
            for (k = 0; k < 4; k++) {
                v->rgba[k] = a->rgba[k] + t * (b->rgba[k] - a->rgba[k]);
            }
        }
    }
    return m;
}

static void draw_frame_rgb565(int frame, int w, int h)
{
    static const float planes[6][4] = {
        { 1, 0, 0, 1 }, { -1, 0, 0, 1 }, { 0, 1, 0, 1 }, { 0, -1, 0, 1 },
        { 0, 0, 1, 1 }, { 0, 0, -1, 1 },
    };
    static float v[SCENE_VERTS * 8];
    float m[16];
    int t, i, k, r, c;

    glDisable(GL_DITHER);
    /* the clear as the chips' guests send it: 8-bit bytes */
    begin_frame(w, h, (uint8_t)(SCENE_CLEAR_R * 255 + 0.5f) / 255.0f,
                (uint8_t)(SCENE_CLEAR_G * 255 + 0.5f) / 255.0f,
                (uint8_t)(SCENE_CLEAR_B * 255 + 0.5f) / 255.0f);
    glMatrixMode(GL_PROJECTION);
    glLoadIdentity();
    glMatrixMode(GL_MODELVIEW);
    glLoadIdentity();
    scene_matrix(frame, (float)w / h, m);
    scene_vertices(v);
    for (t = 0; t < SCENE_VERTS / 3; t++) {
        RefVert poly[2][12];
        int n = 3, cur = 0;

        for (i = 0; i < 3; i++) {
            const float *src = &v[(t * 3 + i) * 8];
            for (r = 0; r < 4; r++) {
                float s = 0;
                for (c = 0; c < 4; c++) {
                    s += m[r * 4 + c] * src[c];
                }
                poly[0][i].c[r] = s;
            }
            for (k = 0; k < 4; k++) {
                poly[0][i].rgba[k] =
                    (uint8_t)(src[4 + k] * 255.0f + 0.5f) / 255.0f;
            }
        }
        for (i = 0; i < 6 && n > 0; i++) {
            n = clip_poly(poly[cur], n, planes[i], poly[cur ^ 1]);
            cur ^= 1;
        }
        if (n < 3) {
            continue;
        }
        glBegin(GL_POLYGON);
        for (i = 0; i < n; i++) {
            const RefVert *p = &poly[cur][i];
            float iw = 1.0f / p->c[3];
            /* viewport x right, y down from the top row, 1/16 pixel grid */
            float sx = rintf((p->c[0] * iw * w / 2 + w / 2.0f) * 16) / 16;
            float sy = rintf((-p->c[1] * iw * h / 2 + h / 2.0f) * 16) / 16;
            float z = p->c[2] * iw;        /* NDC; depth = z / 2 + 1 / 2 */

            glColor4fv(p->rgba);
            /* OSMesa row 0 at the top: GL window y = h - sy */
            glVertex3f(2 * sx / w - 1, 2 * (h - sy) / h - 1, z);
        }
        glEnd();
    }
    glFinish();
}

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* the 16-bit buffer as 8-bit RGB, rows top to bottom, 565 expanded by bit
 * replication as the devices' scan-out expands it */
static void rgb565_to_image(const uint16_t *buf, int w, int h, G3DImage *img)
{
    int i;

    for (i = 0; i < w * h; i++) {
        unsigned p = buf[i], r = p >> 11, g = (p >> 5) & 63, b = p & 31;
        uint8_t *o = img->rgb + 3 * i;

        o[0] = (uint8_t)(r << 3 | r >> 2);
        o[1] = (uint8_t)(g << 2 | g >> 4);
        o[2] = (uint8_t)(b << 3 | b >> 2);
    }
}

int main(int argc, char **argv)
{
    bool bench = argc > 1 && !strcmp(argv[1], "--bench");
    bool rgb565 = argc > 1 && !strcmp(argv[1], "--rgb565");
    int w, h, frame;
    void *buf;
    G3DImage img;
    OSMesaContext ctx;
    int i;

    if (rgb565) {
        argc--;
        argv++;
    }
    w = argc > 3 ? atoi(argv[2]) : 640;
    h = argc > 3 ? atoi(argv[3]) : 480;
    frame = argc > 4 ? atoi(argv[4]) : SCENE_FRAMES - 1;
    if (argc < 2 || w <= 0 || h <= 0 || w > 4096 || h > 4096) {
        fprintf(stderr, "usage: %s [--rgb565] OUT.png [WIDTH HEIGHT [FRAME]]\n"
                "       %s --bench [WIDTH HEIGHT]\n", argv[0], argv[0]);
        return 2;
    }
    /* --rgb565: float RGBA, quantised here; otherwise RGBA8888 */
    buf = calloc((size_t)w * h, rgb565 ? 4 * sizeof(float) : 4);
    if (rgb565) {
        ctx = OSMesaCreateContextExt(OSMESA_RGBA, 16, 0, 0, NULL);
        if (!ctx || !OSMesaMakeCurrent(ctx, buf, GL_FLOAT, w, h)) {
            fprintf(stderr, "scene-gl-ref: no OSMesa context\n");
            return 1;
        }
        OSMesaPixelStore(OSMESA_Y_UP, 0);
    } else {
        ctx = OSMesaCreateContextExt(OSMESA_RGBA, 24, 0, 0, NULL);
        if (!ctx || !OSMesaMakeCurrent(ctx, buf, GL_UNSIGNED_BYTE, w, h)) {
            fprintf(stderr, "scene-gl-ref: no OSMesa context\n");
            return 1;
        }
    }
    if (bench) {
        double t0 = now(), t;
        int n = 0;

        do {
            draw_frame(n++ % SCENE_FRAMES, w, h);
            t = now() - t0;
        } while (t < 1.0);
        printf("scene-gl-ref: %s draws the scene at %dx%d: %.1f frames/s\n",
               (const char *)glGetString(GL_RENDERER), w, h, n / t);
        OSMesaDestroyContext(ctx);
        free(buf);
        return 0;
    }

    g3d_image_alloc(&img, w, h);
    if (rgb565) {
        uint16_t *q = calloc((size_t)w * h, 2);

        draw_frame_rgb565(frame, w, h);
        /* the chip's rounding to the nearest 5/6-bit step */
        for (i = 0; i < w * h; i++) {
            const float *p = (float *)buf + 4 * i;
            q[i] = (uint16_t)((unsigned)(p[0] * 31 + 0.5f) << 11 |
                              (unsigned)(p[1] * 63 + 0.5f) << 5 |
                              (unsigned)(p[2] * 31 + 0.5f));
        }
        rgb565_to_image(q, w, h, &img);
        free(q);
    } else {
        draw_frame(frame, w, h);
        for (i = 0; i < w * h; i++) {
            memcpy(img.rgb + 3 * i, (uint8_t *)buf + 4 * i, 3);
        }
    }
    if (!g3d_image_save(&img, argv[1])) {
        fprintf(stderr, "scene-gl-ref: cannot write %s\n", argv[1]);
        return 1;
    }
    printf("scene-gl-ref: frame %d, %dx%d%s, renderer %s -> %s\n", frame, w, h,
           rgb565 ? " RGB565 screen-space" : "",
           (const char *)glGetString(GL_RENDERER), argv[1]);
    OSMesaDestroyContext(ctx);
    g3d_image_free(&img);
    free(buf);
    return 0;
}
