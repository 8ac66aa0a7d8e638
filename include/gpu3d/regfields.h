/*
 * Register and field declarations for the chips' register headers
 * (include/gpu3d/<chip>-regs.h), shared by devices, cores, tests and
 * freestanding guests: plain enums, no dependencies.
 *
 * The names follow QEMU's hw/registerfields.h, so QEMU code can use its own
 * FIELD_EX32/FIELD_DP32 on them:
 *   G3D_REG32(NAME, offset)          -> A_NAME (byte offset), R_NAME (index)
 *   G3D_FIELD(NAME, F, shift, len)   -> R_NAME_F_SHIFT, _LENGTH, _MASK
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_REGFIELDS_H
#define GPU3D_REGFIELDS_H

#define G3D_REG32(reg, addr)                                    \
    enum { A_ ## reg = (addr) };                                \
    enum { R_ ## reg = (addr) / 4 };

#define G3D_FIELD(reg, field, shift, length)                    \
    enum { R_ ## reg ## _ ## field ## _SHIFT = (shift) };       \
    enum { R_ ## reg ## _ ## field ## _LENGTH = (length) };     \
    enum { R_ ## reg ## _ ## field ## _MASK =                   \
           (int)((0xffffffffu >> (32 - (length))) << (shift)) };

#define G3D_FIELD_EX32(val, reg, field)                         \
    (((uint32_t)(val) >> R_ ## reg ## _ ## field ## _SHIFT) &   \
     (0xffffffffu >> (32 - R_ ## reg ## _ ## field ## _LENGTH)))

#define G3D_FIELD_DP32(val, reg, field, v)                      \
    (((uint32_t)(val) & ~(uint32_t)R_ ## reg ## _ ## field ## _MASK) | \
     (((uint32_t)(v) << R_ ## reg ## _ ## field ## _SHIFT) &    \
      (uint32_t)R_ ## reg ## _ ## field ## _MASK))

#endif
