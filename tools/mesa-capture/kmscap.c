/*
 * One kmscube frame on a GBM surface, drawn as kmscube draws it:
 *   kmscap FRAME smooth   cube-smooth.c
 *   kmscap FRAME tex      cube-tex.c's shaders and texture coordinates with
 *                         an ordinary 64x64 RGBA texture (Mesa tiles it) of
 *                         texel (i, j) = (i * 255 / 63, j * 255 / 63, 128,
 *                         255), a depth buffer, depth test on, culling off
 *   kmscap FRAME MODE OUT.ppm   the same on a pbuffer of whatever EGL device
 *                         the surfaceless platform gives (llvmpipe with
 *                         LIBGL_ALWAYS_SOFTWARE=1), read back into OUT.ppm
 *   kmscap FRAME rgba|nv12-2img|nv12-1img OUT.ppm
 *                         kmscube's textured cube exactly as `kmscube -M
 *                         MODE` draws it (cube-tex.c): its 512x512 frame
 *                         (frame-512x512-*.c) written into linear GBM
 *                         buffers on /dev/dri/card0, imported through
 *                         EGL_EXT_image_dma_buf_import as an external
 *                         image (ABGR8888; R8 and GR88 sampled by
 *                         kmscube's own YUV shader; one NV12 image that
 *                         Mesa samples and converts itself), culling on,
 *                         no depth buffer. Always on the GBM platform (the
 *                         image needs a card: r300, or llvmpipe as
 *                         kms_swrast); the window's back buffer is read
 *                         back into OUT.ppm before the swap
 *   kmscap FRAME rgba-upload|nv12-2img-upload|nv12-1img-upload OUT.ppm
 *                         the same draws with the same frame's bytes in
 *                         ordinary textures (glTexImage2D: RGBA; R8 and RG8
 *                         of GL_EXT_texture_rg) and kmscube's shader with
 *                         sampler2D: on the same driver and device, the
 *                         frame the import must give. nv12-1img-upload
 *                         runs the program Mesa 22.3's r300 driver builds
 *                         for kmscube's NV12 image (upload1_fs below)
 *   kmscap 0 arbvp        one triangle through an ARB_vertex_program
 *                         (desktop GL) with LIT, EXP, LOG, DST and ARL,
 *                         which GLSL never produces (arbvp below)
 *   kmscap 0 mip          a 128x128 RGBA texture with all 8 levels uploaded
 *                         by glTexImage2D (Mesa tiles it and blits each
 *                         level), each level drawn 1:1 with
 *                         GL_NEAREST_MIPMAP_NEAREST (mip_texel, mip_rects)
 *   kmscap 0 misc         blending, stencil, discard and point sprites in
 *                         one frame (misc_* below), for the llvmpipe
 *                         comparison
 *   kmscap 0 ops          one triangle through a vertex shader that uses
 *                         every GLSL ES operation Mesa's r300 compiler
 *                         turns into a different PVS instruction sequence
 *                         (ops_vs below); tests/r300 runs the program
 */
static const char *ops_vs =
    "attribute vec4 in_position;\n"
    "attribute vec4 in_a;\n"
    "uniform vec4 u[4];\n"
    "varying vec4 v0, v1, v2, v3, v4, v5, v6, v7;\n"
    "void main() {\n"
    "  vec4 a = in_a;\n"
    "  gl_Position = in_position;\n"
    "  v0 = vec4(pow(abs(a.x) + 0.5, a.y), exp2(a.z), log2(abs(a.w) + 1.0),\n"
    "            inversesqrt(abs(a.x) + 0.25));\n"
    "  v1 = vec4(sin(a.x), cos(a.y), fract(a.z), floor(a.w));\n"
    "  v2 = vec4(min(a.x, a.y), max(a.z, a.w), step(a.x, a.y), sign(a.z));\n"
    "  v3 = vec4(dot(a.xyz, a.yzw), 1.0 / (a.w + 3.0), clamp(a.x, -0.5, 0.5),\n"
    "            abs(a.y));\n"
    "  vec4 t1 = a * 1.5 + 0.25, t2 = a.wzyx * 0.5 - 1.0, t3 = a.yxwz + 2.0;\n"
    "  v4 = t1 * t2 + t3;\n"
    "  v5 = u[int(clamp(a.x * 2.0 + 2.0, 0.0, 3.0))];\n"
    "  v6 = vec4(dot(a.xy, a.zw), mod(a.y, 0.75), a.x < a.y ? 1.0 : 0.0,\n"
    "            a.z >= a.w ? 1.0 : 0.0);\n"
    "  v7 = vec4(length(a.xyz), normalize(a.xyz).x, ceil(a.z), a.x * a.y - a.z);\n"
    "}\n";
static const char *arbvp =
    "!!ARBvp1.0\n"
    "ATTRIB a = vertex.attrib[1];\n"
    "PARAM u[4] = { program.local[0..3] };\n"
    "ADDRESS A0;\n"
    "MOV result.position, vertex.attrib[0];\n"
    "LIT result.texcoord[0], a;\n"
    "EXP result.texcoord[1], a.x;\n"
    "LOG result.texcoord[2], a.y;\n"
    "DST result.texcoord[3], a, a.wzyx;\n"
    "ARL A0.x, a.z;\n"
    "MOV result.texcoord[4], u[A0.x + 1];\n"
    "END\n";
/* What Mesa 22.3's r300 driver draws for kmscube -M nv12-1img, written
 * out so that an ordinary R8 texture of the Y plane runs it: r300 claims
 * sampling of PIPE_FORMAT_R8_G8B8_420_UNORM (its format translation,
 * r300_texture.c r300_translate_texformat, takes any one-channel 8-bit
 * format as TX_FMT_8), so the frontend (st_cb_eglimage.c
 * is_nv12_as_r8_g8b8_supported) binds the NV12 image as one texture and
 * lowers the sample to nir_lower_tex.c's BT.601 limited-range conversion of
 * (Y, U, V) = (x, y, z); TX_FORMAT1 selects X001, so U = V = 0 and the cube
 * is green on the chip. The multiply-adds are those of the driver's program
 * (RADEON_DEBUG=fp), in its order. */
static const char *upload1_fs =
    "precision mediump float;\n"
    "uniform sampler2D uTex;\n"
    "varying vec4 vVaryingColor;\n"
    "varying vec2 vTexCoord;\n"
    "void main() {\n"
    "  vec4 t = vec4(texture2D(uTex, vTexCoord).x, 0.0, 0.0, 1.0);\n"
    "  vec4 c = t.zzzz * vec4(1.59602678, -0.81296764, 0.0, 0.0) +\n"
    "           vec4(-0.874202214, 0.531667820, -1.085630787, 1.0);\n"
    "  c = t.yyyy * vec4(0.0, -0.39176229, 2.01723214, 0.0) + c;\n"
    "  c = t.xxxx * vec4(1.16438356, 1.16438356, 1.16438356, 0.0) + c;\n"
    "  gl_FragColor = vVaryingColor * c;\n"
    "}\n";
typedef void (*ProgStrFn)(unsigned, unsigned, int, const void *);
typedef void (*BindProgFn)(unsigned, unsigned);
typedef void (*GenProgFn)(int, unsigned *);
typedef void (*LocalFn)(unsigned, unsigned, const float *);
typedef void (*EnableFn)(unsigned);
typedef void (*AttribPtrFn)(unsigned, int, unsigned, unsigned char, int, const void *);
typedef void (*DrawFn)(unsigned, int, int);
#include <stdint.h>
/* level k, texel (i, j): shared with tests/r300/test-r300-mesa.c */
static uint32_t mip_texel(int k, int i, int j)
{
    return ((i * 7 + k * 29) & 255) | ((j * 5 + k * 61) & 255) << 8 |
           (((i ^ j) * 3 + k) & 255) << 16 | 0xffu << 24;
}
/* where level k is drawn: x, y (top-left, window pixels), w, h */
static const int mip_rects[8][4] = {
    { 0, 64, 128, 56 }, { 0, 0, 64, 64 }, { 66, 0, 32, 32 }, { 100, 0, 16, 16 },
    { 118, 0, 8, 8 }, { 128, 0, 4, 4 }, { 134, 0, 2, 2 }, { 138, 0, 1, 1 },
};
static const char *mip_vs =
    "attribute vec4 in_position;\n"
    "attribute vec2 in_tc;\n"
    "varying vec2 tc;\n"
    "void main() { gl_Position = in_position; tc = in_tc; }\n";
static const char *mip_fs =
    "precision mediump float;\n"
    "uniform sampler2D t;\n"
    "varying vec2 tc;\n"
    "void main() { gl_FragColor = texture2D(t, tc); }\n";
static const char *misc_vs =
    "attribute vec4 in_position;\n"
    "attribute vec4 in_color;\n"
    "varying vec4 c;\n"
    "void main() { gl_Position = in_position; c = in_color; gl_PointSize = 24.0; }\n";
/* mode 0: the colour; 1: discard a checker of 8x8-pixel squares; 2: a
 * point sprite's disc with gl_PointCoord */
static const char *misc_fs =
    "precision mediump float;\n"
    "uniform int mode;\n"
    "varying vec4 c;\n"
    "void main() {\n"
    "  if (mode == 1 && mod(floor(gl_FragCoord.x / 8.0) + floor(gl_FragCoord.y / 8.0), 2.0) > 0.5)\n"
    "    discard;\n"
    "  if (mode == 2) {\n"
    "    vec2 d = gl_PointCoord - vec2(0.5);\n"
    "    if (dot(d, d) > 0.25) discard;\n"
    "    gl_FragColor = vec4(gl_PointCoord, c.b, 1.0);\n"
    "  } else\n"
    "    gl_FragColor = c;\n"
    "}\n";
static const char *ops_fs =
    "precision mediump float;\n"
    "varying vec4 v0, v1, v2, v3, v4, v5, v6, v7;\n"
    "void main() {\n"
    "  gl_FragColor = vec4(0.5) + 0.004 * (v0 + 2.0 * v1 + 3.0 * v2 + 4.0 * v3 +\n"
    "                 5.0 * v4 + 6.0 * v5 + 7.0 * v6 + 8.0 * v7);\n"
    "}\n";
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
struct gbm_device; struct gbm_surface;
#include <GLES2/gl2ext.h>
#include <unistd.h>
struct gbm_device; struct gbm_bo;
struct gbm_device *gbm_create_device(int fd);
struct gbm_surface *gbm_surface_create(struct gbm_device *, uint32_t, uint32_t, uint32_t, uint32_t);
struct gbm_bo *gbm_bo_create(struct gbm_device *, uint32_t, uint32_t, uint32_t, uint32_t);
void *gbm_bo_map(struct gbm_bo *, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t *, void **);
void gbm_bo_unmap(struct gbm_bo *, void *);
int gbm_bo_get_fd(struct gbm_bo *);
uint64_t gbm_bo_get_modifier(struct gbm_bo *);
void gbm_bo_destroy(struct gbm_bo *);
#define FOURCC(a, b, c, d) ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)
#define XRGB FOURCC('X', 'R', '2', '4')
#define GBM_BO_USE_LINEAR (1 << 4)      /* gbm.h */
#define GBM_BO_TRANSFER_WRITE (1 << 1)
#define MOD_INVALID 0x00ffffffffffffffull
extern const uint32_t raw_512x512_nv12[], raw_512x512_rgba[];
#define W 160
#define H 120
#include "cube.h"
#include "cube-tex.h"
#include "esUtil.h"
static GLuint sh(GLenum t, const char *s) { GLuint x = glCreateShader(t); GLint ok; char log[1000];
  glShaderSource(x, 1, &s, NULL); glCompileShader(x); glGetShaderiv(x, GL_COMPILE_STATUS, &ok);
  if (!ok) { glGetShaderInfoLog(x, 1000, NULL, log); printf("%s\n", log); exit(1);} return x; }
/* the pbuffer, top row first */
static void write_ppm(const char *path) {
  static uint8_t px[W * H * 4];
  FILE *f = fopen(path, "wb");
  int y, x;
  glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
  fprintf(f, "P6 %d %d 255\n", W, H);
  for (y = H - 1; y >= 0; y--)
    for (x = 0; x < W; x++)
      fwrite(px + 4 * (y * W + x), 1, 3, f);
  fclose(f);
}
/* kmscube's sampler state (cube-tex.c) on the bound texture of target */
static void linear_clamp(GLenum target) {
  glTexParameteri(target, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(target, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(target, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(target, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
}
/* one plane of kmscube's frame in a linear GBM buffer (cube-tex.c
 * get_fd_*): w x h texels of bpp bytes from rows src_pitch bytes apart;
 * returns the buffer's dma-buf fd, its pitch and modifier */
static int plane_fd(struct gbm_device *gbm, uint32_t fourcc, int w, int h,
                    int bpp, const uint8_t *src, int src_pitch,
                    EGLint *pitch, uint64_t *mod) {
  struct gbm_bo *bo = gbm_bo_create(gbm, w, h, fourcc, GBM_BO_USE_LINEAR);
  void *md = NULL;
  uint32_t stride;
  uint8_t *map = bo ? gbm_bo_map(bo, 0, 0, w, h, GBM_BO_TRANSFER_WRITE, &stride, &md) : NULL;
  int y, fd;
  if (!map) { printf("gbm buffer %08x %dx%d failed\n", fourcc, w, h); exit(1); }
  for (y = 0; y < h; y++)
    memcpy(map + (size_t)stride * y, src + (size_t)src_pitch * y, (size_t)w * bpp);
  gbm_bo_unmap(bo, md);
  fd = gbm_bo_get_fd(bo);
  *mod = gbm_bo_get_modifier(bo);
  gbm_bo_destroy(bo);
  *pitch = stride;
  return fd;
}
/* planes n of fourcc imported as one external image, bound to the
 * current texture unit with kmscube's sampler state */
static void import_external(EGLDisplay d, uint32_t fourcc, int w, int h, int n,
                            const int *fd, const EGLint *pitch, const uint64_t *mod) {
  static const EGLint key[2][5] = {
    { EGL_DMA_BUF_PLANE0_FD_EXT, EGL_DMA_BUF_PLANE0_OFFSET_EXT, EGL_DMA_BUF_PLANE0_PITCH_EXT,
      EGL_DMA_BUF_PLANE0_MODIFIER_LO_EXT, EGL_DMA_BUF_PLANE0_MODIFIER_HI_EXT },
    { EGL_DMA_BUF_PLANE1_FD_EXT, EGL_DMA_BUF_PLANE1_OFFSET_EXT, EGL_DMA_BUF_PLANE1_PITCH_EXT,
      EGL_DMA_BUF_PLANE1_MODIFIER_LO_EXT, EGL_DMA_BUF_PLANE1_MODIFIER_HI_EXT },
  };
  /* kmscube passes modifiers only when EGL takes them and GBM knows them */
  const char *ext = eglQueryString(d, EGL_EXTENSIONS);
  int use_mod = strstr(ext, "EGL_EXT_image_dma_buf_import_modifiers") != NULL;
  EGLint a[40];
  int k = 0, i;
  PFNEGLCREATEIMAGEKHRPROC create = (void *)eglGetProcAddress("eglCreateImageKHR");
  PFNEGLDESTROYIMAGEKHRPROC destroy = (void *)eglGetProcAddress("eglDestroyImageKHR");
  PFNGLEGLIMAGETARGETTEXTURE2DOESPROC target =
    (void *)eglGetProcAddress("glEGLImageTargetTexture2DOES");
  EGLImageKHR img;
  GLuint t;
  for (i = 0; i < n; i++)
    use_mod = use_mod && mod[i] != MOD_INVALID;
  a[k++] = EGL_WIDTH; a[k++] = w; a[k++] = EGL_HEIGHT; a[k++] = h;
  a[k++] = EGL_LINUX_DRM_FOURCC_EXT; a[k++] = fourcc;
  for (i = 0; i < n; i++) {
    a[k++] = key[i][0]; a[k++] = fd[i];
    a[k++] = key[i][1]; a[k++] = 0;
    a[k++] = key[i][2]; a[k++] = pitch[i];
    if (use_mod) {
      a[k++] = key[i][3]; a[k++] = (EGLint)(mod[i] & 0xffffffff);
      a[k++] = key[i][4]; a[k++] = (EGLint)(mod[i] >> 32);
    }
  }
  a[k] = EGL_NONE;
  img = create(d, EGL_NO_CONTEXT, EGL_LINUX_DMA_BUF_EXT, NULL, a);
  if (img == EGL_NO_IMAGE_KHR) { printf("dma-buf import of %08x failed: %#x\n", fourcc, eglGetError()); exit(1); }
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_EXTERNAL_OES, t);
  linear_clamp(GL_TEXTURE_EXTERNAL_OES);
  target(GL_TEXTURE_EXTERNAL_OES, img);
  destroy(d, img);
  for (i = 0; i < n; i++)
    close(fd[i]);
}
/* kmscube's textures for -M rgba, nv12-2img, nv12-1img (cube-tex.c
 * init_tex_*): units 0 (and 1), uniforms set for program p */
static void kmscube_textures(EGLDisplay d, struct gbm_device *gbm, const char *mode, GLuint p) {
  const uint8_t *nv12 = (const uint8_t *)raw_512x512_nv12;
  int fd[2];
  EGLint pitch[2];
  uint64_t mod[2];
  glActiveTexture(GL_TEXTURE0);
  if (!strcmp(mode, "rgba")) {
    fd[0] = plane_fd(gbm, FOURCC('A', 'B', '2', '4'), 512, 512, 4,
                     (const uint8_t *)raw_512x512_rgba, 512 * 4, &pitch[0], &mod[0]);
    import_external(d, FOURCC('A', 'B', '2', '4'), 512, 512, 1, fd, pitch, mod);
    glUniform1i(glGetUniformLocation(p, "uTex"), 0);
    return;
  }
  /* Y: 512x512 bytes; UV: 256x256 pairs after it, rows 512 bytes */
  fd[0] = plane_fd(gbm, FOURCC('R', '8', ' ', ' '), 512, 512, 1, nv12, 512, &pitch[0], &mod[0]);
  fd[1] = plane_fd(gbm, FOURCC('G', 'R', '8', '8'), 256, 256, 2, nv12 + 512 * 512, 512,
                   &pitch[1], &mod[1]);
  if (!strcmp(mode, "nv12-1img")) {
    import_external(d, FOURCC('N', 'V', '1', '2'), 512, 512, 2, fd, pitch, mod);
    glUniform1i(glGetUniformLocation(p, "uTex"), 0);
    return;
  }
  import_external(d, FOURCC('R', '8', ' ', ' '), 512, 512, 1, &fd[0], &pitch[0], &mod[0]);
  glActiveTexture(GL_TEXTURE1);
  import_external(d, FOURCC('G', 'R', '8', '8'), 256, 256, 1, &fd[1], &pitch[1], &mod[1]);
  glUniform1i(glGetUniformLocation(p, "uTexY"), 0);
  glUniform1i(glGetUniformLocation(p, "uTexUV"), 1);
}
/* the same bytes as kmscube_textures in ordinary textures (the -upload
 * modes): units 0 (and 1), uniforms set for program p */
static void upload_textures(const char *mode, GLuint p) {
  const uint8_t *nv12 = (const uint8_t *)raw_512x512_nv12;
  GLuint t[2];
  int i;
  glGenTextures(2, t);
  for (i = 0; i < 2; i++) {
    glActiveTexture(GL_TEXTURE0 + i);
    glBindTexture(GL_TEXTURE_2D, t[i]);
    linear_clamp(GL_TEXTURE_2D);
  }
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, t[0]);
  if (!strncmp(mode, "rgba", 4)) {
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 512, 512, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 raw_512x512_rgba);
    glUniform1i(glGetUniformLocation(p, "uTex"), 0);
  } else {
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RED_EXT, 512, 512, 0, GL_RED_EXT, GL_UNSIGNED_BYTE, nv12);
    glUniform1i(glGetUniformLocation(p, !strncmp(mode, "nv12-2img", 9) ? "uTexY" : "uTex"), 0);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, t[1]);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RG_EXT, 256, 256, 0, GL_RG_EXT, GL_UNSIGNED_BYTE,
                 nv12 + 512 * 512);
    glUniform1i(glGetUniformLocation(p, "uTexUV"), 1);
  }
  if (glGetError() != GL_NO_ERROR) { printf("texture upload failed\n"); exit(1); }
}
/* program p of two shaders, attributes 0 and 1 named, in use */
static void link2(GLuint p, const char *vs, const char *fs, const char *a0,
                  const char *a1) {
  glAttachShader(p, sh(GL_VERTEX_SHADER, vs));
  glAttachShader(p, sh(GL_FRAGMENT_SHADER, fs));
  glBindAttribLocation(p, 0, a0);
  glBindAttribLocation(p, 1, a1);
  glLinkProgram(p); glUseProgram(p);
}
/* the frame read back (pbuffer) or shown (window), then flushed */
static int finish(EGLDisplay d, EGLSurface s, const char *ppm) {
  if (ppm)
    write_ppm(ppm);
  eglSwapBuffers(d, s);
  glFinish();
  printf("done\n");
  return 0;
}
int main(int argc, char **argv) {
  const char *ppm = argc > 3 ? argv[3] : NULL;
  const char *mode = argc > 2 ? argv[2] : "smooth";
  /* kmscube's imported textures (kmscube_textures), or the same bytes
   * uploaded (upload_textures) */
  int upload = strstr(mode, "-upload") != NULL;
  int ext = !strncmp(mode, "rgba", 4) || !strncmp(mode, "nv12-", 5);
  int yuv2 = !strncmp(mode, "nv12-2img", 9);
  int pbuf = ppm && !ext;
  /* the card node, as kmscube opens it: kms_swrast's dumb buffers need it
   * ($KMSCAP_NODE instead: the radeon DRM shim has a render node only) */
  const char *node = getenv("KMSCAP_NODE") ? getenv("KMSCAP_NODE") :
                     ext ? "/dev/dri/card0" : "/dev/dri/renderD128";
  int fd = pbuf ? -1 : open(node, O_RDWR);
  struct gbm_device *gbm = pbuf ? NULL : gbm_create_device(fd);
  PFNEGLGETPLATFORMDISPLAYEXTPROC gpd = (void *)eglGetProcAddress("eglGetPlatformDisplayEXT");
  EGLDisplay d = pbuf ? gpd(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL)
                      : gpd(EGL_PLATFORM_GBM_KHR, gbm, NULL);
  EGLint maj, min, n; EGLConfig cfgs[64], cfg = 0; int i;
  if (!eglInitialize(d, &maj, &min)) { printf("no egl\n"); return 1; }
  printf("%s\n", eglQueryString(d, EGL_VENDOR));
  eglBindAPI(argc > 2 && !strcmp(argv[2], "arbvp") ? EGL_OPENGL_API : EGL_OPENGL_ES_API);
  int tex = argc > 2 && !strcmp(argv[2], "tex");
  int ops = argc > 2 && !strcmp(argv[2], "ops");
  int arb = argc > 2 && !strcmp(argv[2], "arbvp");
  int mip = argc > 2 && !strcmp(argv[2], "mip");
  int misc = argc > 2 && !strcmp(argv[2], "misc");
  static const EGLint ca[] = { EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_RED_SIZE, 1, EGL_GREEN_SIZE, 1, EGL_BLUE_SIZE, 1, EGL_ALPHA_SIZE, 0, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_SAMPLES, 0, EGL_NONE };
  static const EGLint cagl[] = { EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_RED_SIZE, 1, EGL_GREEN_SIZE, 1, EGL_BLUE_SIZE, 1, EGL_ALPHA_SIZE, 0, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SAMPLES, 0, EGL_NONE };
  static const EGLint cad[] = { EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_RED_SIZE, 1, EGL_GREEN_SIZE, 1, EGL_BLUE_SIZE, 1, EGL_ALPHA_SIZE, 0, EGL_DEPTH_SIZE, 24, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_SAMPLES, 0, EGL_NONE };
  static const EGLint cap[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_DEPTH_SIZE, 24, EGL_STENCIL_SIZE, 8, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_NONE };
  static const EGLint cas[] = { EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_RED_SIZE, 1, EGL_GREEN_SIZE, 1, EGL_BLUE_SIZE, 1, EGL_ALPHA_SIZE, 0, EGL_DEPTH_SIZE, 24, EGL_STENCIL_SIZE, 8, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_SAMPLES, 0, EGL_NONE };
  eglChooseConfig(d, pbuf ? cap : arb ? cagl : misc ? cas : tex ? cad : ca, cfgs, 64, &n);
  for (i = 0; i < n; i++) { EGLint id; eglGetConfigAttrib(d, cfgs[i], EGL_NATIVE_VISUAL_ID, &id); if (pbuf || id == XRGB) { cfg = cfgs[i]; break; } }
  static const EGLint ctxa[] = { EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE };
  EGLContext ctx = eglCreateContext(d, cfg, EGL_NO_CONTEXT, arb ? NULL : ctxa);
  static const EGLint pba[] = { EGL_WIDTH, W, EGL_HEIGHT, H, EGL_NONE };
  EGLSurface s = pbuf ? eglCreatePbufferSurface(d, cfg, pba)
                     : eglCreateWindowSurface(d, cfg, (EGLNativeWindowType)gbm_surface_create(gbm, W, H, XRGB, 1 | 4), NULL);
  eglMakeCurrent(d, s, s, ctx);
  printf("%s\n", glGetString(GL_RENDERER));
  if (arb) {
    /* GL_VERTEX_PROGRAM_ARB 0x8620, GL_PROGRAM_FORMAT_ASCII_ARB 0x8875 */
    static const float tri[3][8] = {
      { -1, -1, 0, 1, 0.6, 0.8, 1.2, 2.5 }, { 1, -1, 0, 1, 0.6, 0.8, 1.2, 2.5 },
      { 0, 1, 0, 1, 0.6, 0.8, 1.2, 2.5 },
    };
    unsigned prog, k;
    ((GenProgFn)eglGetProcAddress("glGenProgramsARB"))(1, &prog);
    ((BindProgFn)eglGetProcAddress("glBindProgramARB"))(0x8620, prog);
    ((ProgStrFn)eglGetProcAddress("glProgramStringARB"))(0x8620, 0x8875, strlen(arbvp), arbvp);
    for (k = 0; k < 4; k++) {
      float v[4] = { 4 * k + 1, 4 * k + 2, 4 * k + 3, 4 * k + 4 };
      ((LocalFn)eglGetProcAddress("glProgramLocalParameter4fvARB"))(0x8620, k, v);
    }
    ((EnableFn)eglGetProcAddress("glEnable"))(0x8620);
    ((AttribPtrFn)eglGetProcAddress("glVertexAttribPointerARB"))(0, 4, GL_FLOAT, 0, 32, tri[0]);
    ((AttribPtrFn)eglGetProcAddress("glVertexAttribPointerARB"))(1, 4, GL_FLOAT, 0, 32, tri[0] + 4);
    ((EnableFn)eglGetProcAddress("glEnableVertexAttribArrayARB"))(0);
    ((EnableFn)eglGetProcAddress("glEnableVertexAttribArrayARB"))(1);
    ((DrawFn)eglGetProcAddress("glDrawArrays"))(GL_TRIANGLES, 0, 3);
    return finish(d, s, NULL);
  }
  GLuint p = glCreateProgram();
  if (mip) {
    static uint32_t texels[128 * 128];
    static float v[8][6][4];
    GLuint t;
    int k, n;
    link2(p, mip_vs, mip_fs, "in_position", "in_tc");
    glGenTextures(1, &t); glBindTexture(GL_TEXTURE_2D, t);
    for (k = 0; k < 8; k++) {
      int sz = 128 >> k, i, j;
      for (j = 0; j < sz; j++)
        for (i = 0; i < sz; i++)
          texels[j * sz + i] = mip_texel(k, i, j);
      glTexImage2D(GL_TEXTURE_2D, k, GL_RGBA, sz, sz, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    }
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glViewport(0, 0, W, H);
    /* each rectangle: (x, y) window pixels top-left, texcoords from (0, 0)
     * at its top-left, one texel of level k per pixel */
    for (k = 0; k < 8; k++) {
      const int *r = mip_rects[k];
      float x0 = 2.0f * r[0] / W - 1, x1 = 2.0f * (r[0] + r[2]) / W - 1;
      float y0 = 1 - 2.0f * r[1] / H, y1 = 1 - 2.0f * (r[1] + r[3]) / H;
      float s1 = (float)r[2] / (128 >> k), t1 = (float)r[3] / (128 >> k);
      float q[6][4] = { { x0, y0, 0, 0 }, { x1, y0, s1, 0 }, { x0, y1, 0, t1 },
                        { x1, y0, s1, 0 }, { x1, y1, s1, t1 }, { x0, y1, 0, t1 } };
      memcpy(v[k], q, sizeof(q));
    }
    n = 8 * 6;
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 16, &v[0][0][0]); glEnableVertexAttribArray(0);
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 16, &v[0][0][2]); glEnableVertexAttribArray(1);
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glDrawArrays(GL_TRIANGLES, 0, n);
    return finish(d, s, ppm);
  }
  if (misc) {
    /* x y, r g b a per vertex */
    static const float v[][6] = {
      /* 0-5: an opaque quad */
      { -0.9, -0.9, 0.8, 0.2, 0.1, 1 }, { 0.1, -0.9, 0.8, 0.2, 0.1, 1 }, { -0.9, 0.1, 0.8, 0.2, 0.1, 1 },
      { 0.1, -0.9, 0.1, 0.7, 0.3, 1 }, { 0.1, 0.1, 0.1, 0.7, 0.3, 1 }, { -0.9, 0.1, 0.1, 0.7, 0.3, 1 },
      /* 6-11: a translucent quad over it, alpha blended */
      { -0.5, -0.5, 0.2, 0.3, 0.9, 0.5 }, { 0.5, -0.5, 0.2, 0.3, 0.9, 0.5 }, { -0.5, 0.5, 0.2, 0.3, 0.9, 0.25 },
      { 0.5, -0.5, 0.2, 0.3, 0.9, 0.5 }, { 0.5, 0.5, 0.9, 0.9, 0.2, 0.75 }, { -0.5, 0.5, 0.2, 0.3, 0.9, 0.25 },
      /* 12-14: a triangle that only writes stencil 1 */
      { 0.2, -0.95, 0, 0, 0, 1 }, { 0.95, -0.95, 0, 0, 0, 1 }, { 0.95, 0.3, 0, 0, 0, 1 },
      /* 15-20: a quad drawn where stencil == 1 */
      { 0.2, -0.95, 1, 1, 0, 1 }, { 0.95, -0.95, 1, 1, 0, 1 }, { 0.2, 0.3, 1, 0.5, 0, 1 },
      { 0.95, -0.95, 1, 1, 0, 1 }, { 0.95, 0.3, 1, 0.5, 0, 1 }, { 0.2, 0.3, 1, 0.5, 0, 1 },
      /* 21-26: a quad with a discarded checker */
      { -0.95, 0.35, 0.6, 0.1, 0.6, 1 }, { -0.1, 0.35, 0.6, 0.1, 0.6, 1 }, { -0.95, 0.95, 0.1, 0.6, 0.6, 1 },
      { -0.1, 0.35, 0.6, 0.1, 0.6, 1 }, { -0.1, 0.95, 0.1, 0.6, 0.6, 1 }, { -0.95, 0.95, 0.1, 0.6, 0.6, 1 },
      /* 27-29: point sprites */
      { 0.3, 0.6, 0, 0, 0.2, 1 }, { 0.55, 0.7, 0, 0, 0.6, 1 }, { 0.8, 0.55, 0, 0, 1.0, 1 },
    };
    GLint mode;
    link2(p, misc_vs, misc_fs, "in_position", "in_color");
    mode = glGetUniformLocation(p, "mode");
    glViewport(0, 0, W, H);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 24, &v[0][0]); glEnableVertexAttribArray(0);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 24, &v[0][2]); glEnableVertexAttribArray(1);
    glClearColor(0.25, 0.25, 0.25, 1); glClearStencil(0);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
    glUniform1i(mode, 0);
    glDrawArrays(GL_TRIANGLES, 0, 6);
    glEnable(GL_BLEND); glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDrawArrays(GL_TRIANGLES, 6, 6);
    glDisable(GL_BLEND);
    glEnable(GL_STENCIL_TEST);
    glStencilFunc(GL_ALWAYS, 1, 0xff); glStencilOp(GL_KEEP, GL_KEEP, GL_REPLACE);
    glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
    glDrawArrays(GL_TRIANGLES, 12, 3);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glStencilFunc(GL_EQUAL, 1, 0xff); glStencilOp(GL_KEEP, GL_KEEP, GL_KEEP);
    glDrawArrays(GL_TRIANGLES, 15, 6);
    glDisable(GL_STENCIL_TEST);
    glUniform1i(mode, 1);
    glDrawArrays(GL_TRIANGLES, 21, 6);
    glUniform1i(mode, 2);
    glDrawArrays(GL_POINTS, 27, 3);
    return finish(d, s, ppm);
  }
  if (ops) {
    static const float tri[3][8] = {
      { -1, -1, 0, 1, 0.3, -0.7, 1.2, -2.5 }, { 1, -1, 0, 1, 0.3, -0.7, 1.2, -2.5 },
      { 0, 1, 0, 1, 0.3, -0.7, 1.2, -2.5 },
    };
    static const float uv[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
    GLuint vbo;
    link2(p, ops_vs, ops_fs, "in_position", "in_a");
    glUniform4fv(glGetUniformLocation(p, "u"), 4, uv);
    glViewport(0, 0, W, H);
    glGenBuffers(1, &vbo); glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof(tri), tri, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 32, (void *)0); glEnableVertexAttribArray(0);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 32, (void *)16); glEnableVertexAttribArray(1);
    glClear(GL_COLOR_BUFFER_BIT);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    return finish(d, s, ppm);
  }
  glAttachShader(p, sh(GL_VERTEX_SHADER, tex || ext ? tex_vertex_shader_source : vertex_shader_source));
  glAttachShader(p, sh(GL_FRAGMENT_SHADER,
                       yuv2 ? (upload ? tex2_fragment_shader_source : ext2_fragment_shader_source) :
                       !strcmp(mode, "nv12-1img-upload") ? upload1_fs :
                       upload ? tex_fragment_shader_source :
                       ext ? ext1_fragment_shader_source :
                       tex ? tex_fragment_shader_source : fragment_shader_source));
  glBindAttribLocation(p, 0, "in_position");
  glBindAttribLocation(p, 1, "in_normal");
  glBindAttribLocation(p, 2, tex || ext ? "in_TexCoord" : "in_color");
  glLinkProgram(p); glUseProgram(p);
  GLint mv = glGetUniformLocation(p, "modelviewMatrix"), mvp = glGetUniformLocation(p, "modelviewprojectionMatrix"), nm = glGetUniformLocation(p, "normalMatrix");
  glViewport(0, 0, W, H);
  if (tex) {
    static uint8_t texels[64 * 64 * 4];
    GLuint t;
    for (i = 0; i < 64 * 64; i++) {
      texels[4 * i] = (i % 64) * 255 / 63; texels[4 * i + 1] = (i / 64) * 255 / 63;
      texels[4 * i + 2] = 128; texels[4 * i + 3] = 255;
    }
    glGenTextures(1, &t); glActiveTexture(GL_TEXTURE0); glBindTexture(GL_TEXTURE_2D, t);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 64, 64, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    linear_clamp(GL_TEXTURE_2D);
    glUniform1i(glGetUniformLocation(p, "uTex"), 0);
    glEnable(GL_DEPTH_TEST);
  } else {
    if (upload)
      upload_textures(mode, p);
    else if (ext)
      kmscube_textures(d, gbm, mode, p);
    glEnable(GL_CULL_FACE);
  }
  GLuint vbo; glGenBuffers(1, &vbo); glBindBuffer(GL_ARRAY_BUFFER, vbo);
  /* cube-smooth.c: positions, colours, normals; cube-tex.c: positions,
   * texture coordinates, normals */
  const void *third = tex || ext ? (const void *)vTexCoords : (const void *)vColors;
  int third_size = tex || ext ? sizeof(vTexCoords) : sizeof(vColors);
  int po = 0, co = sizeof(vVertices), no = co + third_size;
  glBufferData(GL_ARRAY_BUFFER, sizeof(vVertices) + third_size + sizeof(vNormals), 0, GL_STATIC_DRAW);
  glBufferSubData(GL_ARRAY_BUFFER, po, sizeof(vVertices), vVertices);
  glBufferSubData(GL_ARRAY_BUFFER, co, third_size, third);
  glBufferSubData(GL_ARRAY_BUFFER, no, sizeof(vNormals), vNormals);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, (void *)(intptr_t)po); glEnableVertexAttribArray(0);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 0, (void *)(intptr_t)no); glEnableVertexAttribArray(1);
  glVertexAttribPointer(2, tex || ext ? 2 : 3, GL_FLOAT, GL_FALSE, 0, (void *)(intptr_t)co); glEnableVertexAttribArray(2);
  glClearColor(0.5, 0.5, 0.5, 1.0);
  glClear(GL_COLOR_BUFFER_BIT | (tex ? GL_DEPTH_BUFFER_BIT : 0));
  float m[3][16]; ESMatrix modelview, projection, modelviewprojection; int fi = argc > 1 ? atoi(argv[1]) : 0;
  float aspect = (float)H / W;
  esMatrixLoadIdentity(&modelview);
  esTranslate(&modelview, 0.0f, 0.0f, -8.0f);
  esRotate(&modelview, 45.0f + (0.25f * fi), 1.0f, 0.0f, 0.0f);
  esRotate(&modelview, 45.0f - (0.5f * fi), 0.0f, 1.0f, 0.0f);
  esRotate(&modelview, 10.0f + (0.15f * fi), 0.0f, 0.0f, 1.0f);
  esMatrixLoadIdentity(&projection);
  esFrustum(&projection, -2.8f, +2.8f, -2.8f * aspect, +2.8f * aspect, 6.0f, 10.0f);
  esMatrixLoadIdentity(&modelviewprojection);
  esMatrixMultiply(&modelviewprojection, &modelview, &projection);
  memcpy(m[0], &modelview.m[0][0], 64); memcpy(m[1], &modelviewprojection.m[0][0], 64);
  glUniformMatrix4fv(mv, 1, GL_FALSE, m[0]);
  glUniformMatrix4fv(mvp, 1, GL_FALSE, m[1]);
  float nmat[9] = { m[0][0], m[0][1], m[0][2], m[0][4], m[0][5], m[0][6], m[0][8], m[0][9], m[0][10] };
  glUniformMatrix3fv(nm, 1, GL_FALSE, nmat);
  for (i = 0; i < 6; i++) glDrawArrays(GL_TRIANGLE_STRIP, 4 * i, 4);
  return finish(d, s, ppm);
}
