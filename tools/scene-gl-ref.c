/*
 * The independent reference for the demo scene (guest/scene-cube.h): the
 * same vertices and matrices drawn by Mesa's llvmpipe through OSMesa and
 * OpenGL 1.x with the equivalent state (smooth shading, depth test LESS,
 * depth range 0..1, clear colour), written as PNG with row 0 at the top.
 *
 *   scene-gl-ref OUT.png [WIDTH HEIGHT [FRAME]]
 *   scene-gl-ref --bench [WIDTH HEIGHT]
 *
 * --bench times the turning scene's frames (clear + draw + glFinish) for
 * about a second and prints frames/s: the llvmpipe peer of the devices'
 * demo frame rates (LP_NUM_THREADS sets llvmpipe's threads).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <GL/gl.h>
#include <GL/osmesa.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "image.h"
#include "scene-cube.h"

/* Frame `frame` of the scene into the current OSMesa buffer (w x h). */
static void draw_frame(int frame, int w, int h)
{
    static float v[SCENE_VERTS * 8];
    float m[16], gl_m[16];
    int i, k;

    /* row 0 of the buffer is the top of the picture, as in the chips */
    OSMesaPixelStore(OSMESA_Y_UP, 0);
    glViewport(0, 0, w, h);
    glDepthRange(0.0, 1.0);
    glClearColor(SCENE_CLEAR_R, SCENE_CLEAR_G, SCENE_CLEAR_B, 1.0f);
    glClearDepth(1.0);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glShadeModel(GL_SMOOTH);
    glDisable(GL_CULL_FACE);
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

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    bool bench = argc > 1 && !strcmp(argv[1], "--bench");
    int w = argc > 3 ? atoi(argv[2]) : 640, h = argc > 3 ? atoi(argv[3]) : 480;
    int frame = argc > 4 ? atoi(argv[4]) : SCENE_FRAMES - 1;
    uint8_t *rgba;
    G3DImage img;
    OSMesaContext ctx;
    int i;

    if (argc < 2 || w <= 0 || h <= 0 || w > 4096 || h > 4096) {
        fprintf(stderr, "usage: %s OUT.png [WIDTH HEIGHT [FRAME]]\n"
                "       %s --bench [WIDTH HEIGHT]\n", argv[0], argv[0]);
        return 2;
    }
    rgba = calloc((size_t)w * h, 4);
    ctx = OSMesaCreateContextExt(OSMESA_RGBA, 24, 0, 0, NULL);
    if (!ctx || !OSMesaMakeCurrent(ctx, rgba, GL_UNSIGNED_BYTE, w, h)) {
        fprintf(stderr, "scene-gl-ref: no OSMesa context\n");
        return 1;
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
        free(rgba);
        return 0;
    }
    draw_frame(frame, w, h);

    g3d_image_alloc(&img, w, h);
    for (i = 0; i < w * h; i++) {
        memcpy(img.rgb + 3 * i, rgba + 4 * i, 3);
    }
    if (!g3d_image_save(&img, argv[1])) {
        fprintf(stderr, "scene-gl-ref: cannot write %s\n", argv[1]);
        return 1;
    }
    printf("scene-gl-ref: frame %d, %dx%d, renderer %s -> %s\n", frame, w, h,
           (const char *)glGetString(GL_RENDERER), argv[1]);
    OSMesaDestroyContext(ctx);
    g3d_image_free(&img);
    free(rgba);
    return 0;
}
