/* kmscube's smooth (or tex) cube, one frame, on a GBM surface, as kmscube does */
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
struct gbm_device *gbm_create_device(int fd);
struct gbm_surface *gbm_surface_create(struct gbm_device *, uint32_t, uint32_t, uint32_t, uint32_t);
#define XRGB 0x34325258
#define W 160
#define H 120
#include "cube.h"
#include "esUtil.h"
static GLuint sh(GLenum t, const char *s) { GLuint x = glCreateShader(t); GLint ok; char log[1000];
  glShaderSource(x, 1, &s, NULL); glCompileShader(x); glGetShaderiv(x, GL_COMPILE_STATUS, &ok);
  if (!ok) { glGetShaderInfoLog(x, 1000, NULL, log); printf("%s\n", log); exit(1);} return x; }
int main(int argc, char **argv) {
  int fd = open("/dev/dri/renderD128", O_RDWR);
  struct gbm_device *gbm = gbm_create_device(fd);
  PFNEGLGETPLATFORMDISPLAYEXTPROC gpd = (void *)eglGetProcAddress("eglGetPlatformDisplayEXT");
  EGLDisplay d = gpd(EGL_PLATFORM_GBM_KHR, gbm, NULL);
  EGLint maj, min, n; EGLConfig cfgs[64], cfg = 0; int i;
  if (!eglInitialize(d, &maj, &min)) { printf("no egl\n"); return 1; }
  printf("%s\n", eglQueryString(d, EGL_VENDOR));
  eglBindAPI(EGL_OPENGL_ES_API);
  static const EGLint ca[] = { EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_RED_SIZE, 1, EGL_GREEN_SIZE, 1, EGL_BLUE_SIZE, 1, EGL_ALPHA_SIZE, 0, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_SAMPLES, 0, EGL_NONE };
  eglChooseConfig(d, ca, cfgs, 64, &n);
  for (i = 0; i < n; i++) { EGLint id; eglGetConfigAttrib(d, cfgs[i], EGL_NATIVE_VISUAL_ID, &id); if (id == XRGB) { cfg = cfgs[i]; break; } }
  static const EGLint ctxa[] = { EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE };
  EGLContext ctx = eglCreateContext(d, cfg, EGL_NO_CONTEXT, ctxa);
  struct gbm_surface *gs = gbm_surface_create(gbm, W, H, XRGB, 1 | 4);
  EGLSurface s = eglCreateWindowSurface(d, cfg, (EGLNativeWindowType)gs, NULL);
  eglMakeCurrent(d, s, s, ctx);
  printf("%s\n", glGetString(GL_RENDERER));
  GLuint p = glCreateProgram();
  glAttachShader(p, sh(GL_VERTEX_SHADER, vertex_shader_source));
  glAttachShader(p, sh(GL_FRAGMENT_SHADER, fragment_shader_source));
  glBindAttribLocation(p, 0, "in_position");
  glBindAttribLocation(p, 1, "in_normal");
  glBindAttribLocation(p, 2, "in_color");
  glLinkProgram(p); glUseProgram(p);
  GLint mv = glGetUniformLocation(p, "modelviewMatrix"), mvp = glGetUniformLocation(p, "modelviewprojectionMatrix"), nm = glGetUniformLocation(p, "normalMatrix");
  glViewport(0, 0, W, H);
  glEnable(GL_CULL_FACE);
  GLuint vbo; glGenBuffers(1, &vbo); glBindBuffer(GL_ARRAY_BUFFER, vbo);
  int po = 0, co = sizeof(vVertices), no = co + sizeof(vColors);
  glBufferData(GL_ARRAY_BUFFER, sizeof(vVertices) + sizeof(vColors) + sizeof(vNormals), 0, GL_STATIC_DRAW);
  glBufferSubData(GL_ARRAY_BUFFER, po, sizeof(vVertices), vVertices);
  glBufferSubData(GL_ARRAY_BUFFER, co, sizeof(vColors), vColors);
  glBufferSubData(GL_ARRAY_BUFFER, no, sizeof(vNormals), vNormals);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, (void *)(intptr_t)po); glEnableVertexAttribArray(0);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 0, (void *)(intptr_t)no); glEnableVertexAttribArray(1);
  glVertexAttribPointer(2, 3, GL_FLOAT, GL_FALSE, 0, (void *)(intptr_t)co); glEnableVertexAttribArray(2);
  glClearColor(0.5, 0.5, 0.5, 1.0);
  glClear(GL_COLOR_BUFFER_BIT);
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
  eglSwapBuffers(d, s);
  glFinish();
  printf("done\n");
  return 0;
}
