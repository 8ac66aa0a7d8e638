/*
 * Dolphin FIFO logs (.dff), the container Dolphin's FIFO player replays
 * (Dolphin FifoPlayer/FifoDataFile.cpp): writing a scene as a log, and reading
 * a log back as a scene, so the same file runs through Dolphin and through the
 * core.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef FLIPPER_DFF_H
#define FLIPPER_DFF_H

#include <stdbool.h>

#include "scenes.h"

/* One frame; memory blobs are updates applied at FIFO position 0. */
bool flipper_dff_write(const FlipperScene *s, const char *path);

/* The first frame of a log; NULL (and a message on stderr) on error. */
FlipperScene *flipper_dff_read(const char *path);

#endif
