/*
 * gpu3d: the QEMU API differences between the versions the devices build
 * against (7.2 and 10.0), so one source serves both. QEMU_VERSION_MAJOR
 * comes from config-host.h through qemu/osdep.h. Each entry says what
 * changed between the two (see QEMU's include/ of each version).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_QEMU_COMPAT_H
#define GPU3D_QEMU_COMPAT_H

#include "qapi/error.h"
#include "hw/qdev-properties.h"
#include "hw/resettable.h"

#if QEMU_VERSION_MAJOR >= 10

/* include/sysemu/ became include/system/ */
#include "system/runstate.h"

/* PCIDevice and PCIDeviceClass moved out of hw/pci/pci.h */
#include "hw/pci/pci_device.h"

/*
 * Property lists are const arrays that device_class_set_props() sizes
 * with ARRAY_SIZE; the DEFINE_PROP_END_OF_LIST() terminator is gone.
 */
typedef const Property G3DProperty;
#define G3D_PROP_END_OF_LIST

/* the Resettable phases are told the reset type */
#define G3D_RESET_HOLD_ARGS Object *obj, ResetType type

/* a NotifierWithReturn is also given an Error ** */
#define G3D_PRECOPY_NOTIFY_ARGS NotifierWithReturn *n, void *data, Error **errp

/* the iothread mutex is the BQL (qemu/main-loop.h) */
#define g3d_bql_locked() bql_locked()

#else /* QEMU 7.2 */

#include "sysemu/runstate.h"

typedef Property G3DProperty;
#define G3D_PROP_END_OF_LIST DEFINE_PROP_END_OF_LIST(),

#define G3D_RESET_HOLD_ARGS Object *obj

#define G3D_PRECOPY_NOTIFY_ARGS NotifierWithReturn *n, void *data

#define g3d_bql_locked() qemu_mutex_iothread_locked()

#endif

#endif
