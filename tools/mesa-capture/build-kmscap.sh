# build_kmscap KMSCUBE_SRC HERE: build kmscap (HERE/kmscap.c) in the current
# directory against kmscube's source: kmscube's geometry and shaders are cut out of its
# own files into cube.h and cube-tex.h, and its 512x512 frame
# (frame-512x512-*.c) is linked in. Sourced by capture.sh and
# scripts/linux-mesa.sh.
# shellcheck shell=sh
build_kmscap() {
    _k=$1
    _here=$2
    (sed -n '/static const GLfloat vVertices/,/^};/p;/static const GLfloat vColors/,/^};/p;/static const GLfloat vNormals/,/^};/p' "$_k/cube-smooth.c"
     sed -n '/static const char \*vertex_shader_source/,/;$/p;/static const char \*fragment_shader_source/,/;$/p' "$_k/cube-smooth.c") > cube.h &&
    # cube-tex.c's texture coordinates and shaders: the 1img shader with an
    # ordinary sampler2D (tex_), both as they are (ext1_, ext2_), and the
    # 2img one with sampler2D (tex2_)
    (sed -n '/GLfloat vTexCoords/,/^};/p' "$_k/cube-tex.c"
     sed -n '/static const char \*vertex_shader_source/,/;$/p;/static const char \*fragment_shader_source_1img/,/;$/p' "$_k/cube-tex.c" |
     sed 's/vertex_shader_source/tex_vertex_shader_source/;
          s/fragment_shader_source_1img/tex_fragment_shader_source/;
          /GL_OES_EGL_image_external/d; s/samplerExternalOES/sampler2D/'
     sed -n '/static const char \*fragment_shader_source_[12]img/,/;$/p' "$_k/cube-tex.c" |
     sed 's/fragment_shader_source_\([12]\)img/ext\1_fragment_shader_source/'
     sed -n '/static const char \*fragment_shader_source_2img/,/;$/p' "$_k/cube-tex.c" |
     sed 's/fragment_shader_source_2img/tex2_fragment_shader_source/;
          /GL_OES_EGL_image_external/d; s/samplerExternalOES/sampler2D/') > cube-tex.h &&
    gcc -O1 -I. -I"$_k" -o kmscap "$_here/kmscap.c" "$_k/esTransform.c" \
        "$_k/frame-512x512-NV12.c" "$_k/frame-512x512-RGBA.c" \
        -lEGL -lGLESv2 -l:libgbm.so.1 -lm
}
