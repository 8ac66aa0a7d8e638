/*
 * The independent reference of the attila-3d compressed-texture image test
 * (tests/attila/attila-dxt-scene.h): the same compressed blocks uploaded to
 * Mesa's llvmpipe through OSMesa (GL_EXT_texture_compression_s3tc), the
 * same quads drawn with GL_REPLACE texturing (GL_EXT_texture_compression_latc
 * for the LATC quads), written as PNG with row 0 at
 * the top. Regenerates tests/attila/ref/dxt.png:
 *
 *   attila-dxtref tests/attila/ref/dxt.png
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <GL/gl.h>
#include <GL/glext.h>
#include <GL/osmesa.h>
#include <stdio.h>
#include <string.h>

#include "attila-dxt-scene.h"
#include "image.h"

int main(int argc, char **argv)
{
    static const GLenum internal[] = {
        [DXT_KIND_DXT1] = GL_COMPRESSED_RGBA_S3TC_DXT1_EXT,
        [DXT_KIND_DXT3] = GL_COMPRESSED_RGBA_S3TC_DXT3_EXT,
        [DXT_KIND_DXT5] = GL_COMPRESSED_RGBA_S3TC_DXT5_EXT,
        [DXT_KIND_LATC1] = GL_COMPRESSED_LUMINANCE_LATC1_EXT,
        [DXT_KIND_LATC1_SIGNED] = GL_COMPRESSED_SIGNED_LUMINANCE_LATC1_EXT,
        [DXT_KIND_LATC2] = GL_COMPRESSED_LUMINANCE_ALPHA_LATC2_EXT,
        [DXT_KIND_LATC2_SIGNED] = GL_COMPRESSED_SIGNED_LUMINANCE_ALPHA_LATC2_EXT,
    };
    static uint8_t rgba[DXT_SCENE_W * DXT_SCENE_H * 4];
    static uint8_t blocks[DXT_BLOCKS * DXT_BLOCKS * 16];
    float v[6 * 8];
    OSMesaContext ctx;
    G3DImage img;
    GLuint name[DXT_QUADS];
    int q, i;

    if (argc != 2) {
        fprintf(stderr, "usage: %s OUT.png\n", argv[0]);
        return 2;
    }
    ctx = OSMesaCreateContextExt(OSMESA_RGBA, 0, 0, 0, NULL);
    if (!ctx || !OSMesaMakeCurrent(ctx, rgba, GL_UNSIGNED_BYTE, DXT_SCENE_W,
                                   DXT_SCENE_H)) {
        fprintf(stderr, "attila-dxtref: no OSMesa context\n");
        return 1;
    }
    if (!strstr((const char *)glGetString(GL_EXTENSIONS),
                "GL_EXT_texture_compression_s3tc") ||
        !strstr((const char *)glGetString(GL_EXTENSIONS),
                "GL_EXT_texture_compression_latc")) {
        fprintf(stderr, "attila-dxtref: no GL_EXT_texture_compression_s3tc "
                "or _latc\n");
        return 1;
    }
    OSMesaPixelStore(OSMESA_Y_UP, 0);
    glViewport(0, 0, DXT_SCENE_W, DXT_SCENE_H);
    glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glMatrixMode(GL_PROJECTION);
    glLoadIdentity();
    glMatrixMode(GL_MODELVIEW);
    glLoadIdentity();
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
    glEnable(GL_TEXTURE_2D);
    glGenTextures(DXT_QUADS, name);
    for (q = 0; q < DXT_QUADS; q++) {
        const DxtQuad *dq = &dxt_quads[q];
        GLint f = dq->linear ? GL_LINEAR : GL_NEAREST;

        dxt_texture(dq->kind, blocks);
        glBindTexture(GL_TEXTURE_2D, name[q]);
        glCompressedTexImage2D(GL_TEXTURE_2D, 0, internal[dq->kind], DXT_TEX,
                               DXT_TEX, 0,
                               DXT_BLOCKS * DXT_BLOCKS * dxt_block_bytes(dq->kind),
                               blocks);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, f);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, f);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        if (glGetError() != GL_NO_ERROR) {
            fprintf(stderr, "attila-dxtref: texture %d refused\n", q);
            return 1;
        }
        dxt_quad_vertices(dq, v);
        glBegin(GL_TRIANGLES);
        for (i = 0; i < 6; i++) {
            glTexCoord2f(v[8 * i + 4], v[8 * i + 5]);
            glVertex4f(v[8 * i], v[8 * i + 1], v[8 * i + 2], v[8 * i + 3]);
        }
        glEnd();
    }
    glFinish();

    g3d_image_alloc(&img, DXT_SCENE_W, DXT_SCENE_H);
    for (i = 0; i < DXT_SCENE_W * DXT_SCENE_H; i++) {
        memcpy(img.rgb + 3 * i, rgba + 4 * i, 3);
    }
    if (!g3d_image_save(&img, argv[1])) {
        fprintf(stderr, "attila-dxtref: cannot write %s\n", argv[1]);
        return 1;
    }
    printf("attila-dxtref: renderer %s -> %s\n",
           (const char *)glGetString(GL_RENDERER), argv[1]);
    OSMesaDestroyContext(ctx);
    g3d_image_free(&img);
    return 0;
}
