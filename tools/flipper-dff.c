/*
 * flipper-dff: GX scenes as Dolphin FIFO logs, and logs through the core.
 *
 *   flipper-dff list                       the built-in scenes
 *   flipper-dff write SCENE OUT.dff        a built-in scene as a log
 *   flipper-dff raw FIFO.bin OUT.dff [ADDR=FILE ...]
 *                                          a command stream (one frame, ending
 *                                          with its EFB -> XFB copy) with
 *                                          memory contents, from a reset state
 *   flipper-dff render IN.dff OUT.png      play a log's first frame through
 *                                          the core (write-gather pipe, FIFO,
 *                                          VI) and save the VI scanout
 *
 * The log layout is Dolphin's (Dolphin FifoPlayer/FifoDataFile.cpp);
 * scripts/flipper-dolphin- ref.sh renders a log with Dolphin's software
 * renderer.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/raster.h"
#include "dff.h"
#include "image.h"
#include "rig.h"

static int usage(void)
{
    fprintf(stderr, "usage: flipper-dff list | write SCENE OUT.dff | "
            "raw FIFO.bin OUT.dff [ADDR=FILE...] | render IN.dff OUT.png\n");
    return 2;
}

static int cmd_raw(int argc, char **argv)
{
    FlipperScene *s = flipper_scene_build("gouraud");   /* for its state */
    gchar *data;
    gsize len;
    int i;

    g_byte_array_set_size(s->fifo, 0);
    if (!g_file_get_contents(argv[2], &data, &len, NULL)) {
        fprintf(stderr, "%s: cannot read\n", argv[2]);
        return 1;
    }
    g_byte_array_append(s->fifo, (uint8_t *)data, len);
    g_free(data);
    for (i = 4; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        uint32_t addr;
        if (!eq) {
            return usage();
        }
        addr = (uint32_t)strtoul(argv[i], NULL, 0);
        if (!g_file_get_contents(eq + 1, &data, &len, NULL)) {
            fprintf(stderr, "%s: cannot read\n", eq + 1);
            return 1;
        }
        memcpy(flipper_scene_add_blob(s, addr, len), data, len);
        g_free(data);
    }
    if (!flipper_dff_write(s, argv[3])) {
        fprintf(stderr, "%s: cannot write\n", argv[3]);
        return 1;
    }
    flipper_scene_free(s);
    return 0;
}

static int cmd_render(const char *in, const char *out)
{
    FlipperScene *s = flipper_dff_read(in);
    FlipperRig *r;
    G3DImage img;
    int ret = 0;

    if (!s) {
        return 1;
    }
    r = rig_new(g3d_default_threads());
    rig_fifo_init(r, RIG_FIFO_BASE, RIG_FIFO_SIZE);
    rig_vi_init(r, SCENE_XFB_ADDR);
    rig_run_scene(r, s);
    if (!rig_scanout(r, &img)) {
        fprintf(stderr, "%s: the VI shows nothing\n", in);
        ret = 1;
    } else {
        if (!g3d_image_save(&img, out)) {
            fprintf(stderr, "%s: cannot write\n", out);
            ret = 1;
        }
        g3d_image_free(&img);
    }
    rig_free(r);
    flipper_scene_free(s);
    return ret;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "list")) {
        const char *const *n;
        for (n = flipper_scene_names(); *n; n++) {
            printf("%s\n", *n);
        }
        return 0;
    }
    if (argc == 4 && !strcmp(argv[1], "write")) {
        FlipperScene *s = flipper_scene_build(argv[2]);
        bool ok;
        if (!s) {
            fprintf(stderr, "no scene '%s' (see flipper-dff list)\n", argv[2]);
            return 1;
        }
        ok = flipper_dff_write(s, argv[3]);
        flipper_scene_free(s);
        if (!ok) {
            fprintf(stderr, "%s: cannot write\n", argv[3]);
        }
        return ok ? 0 : 1;
    }
    if (argc >= 4 && !strcmp(argv[1], "raw")) {
        return cmd_raw(argc, argv);
    }
    if (argc == 4 && !strcmp(argv[1], "render")) {
        return cmd_render(argv[2], argv[3]);
    }
    return usage();
}
