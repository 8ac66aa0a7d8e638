/*
 * The gpu3d guest runtime: what every homebrew demo shares. Freestanding
 * 32-bit x86, booted by multiboot, no paging: physical addresses are
 * pointers. Serial output on COM1, exit status through isa-debug-exit.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_GUEST_H
#define GPU3D_GUEST_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* the demo's entry point */
int main(void);

/* ---- port I/O ---- */
static inline void outb(uint16_t p, uint8_t v)
{
    __asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(p));
}
static inline uint8_t inb(uint16_t p)
{
    uint8_t v;
    __asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(p));
    return v;
}
static inline void outl(uint16_t p, uint32_t v)
{
    __asm__ volatile("outl %0, %1" : : "a"(v), "Nd"(p));
}
static inline uint32_t inl(uint16_t p)
{
    uint32_t v;
    __asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(p));
    return v;
}

/* ---- MMIO ---- */
static inline uint32_t mmio_rd32(volatile void *base, uint32_t off)
{
    return *(volatile uint32_t *)((volatile uint8_t *)base + off);
}
static inline void mmio_wr32(volatile void *base, uint32_t off, uint32_t v)
{
    *(volatile uint32_t *)((volatile uint8_t *)base + off) = v;
}

/* ---- console and exit ---- */
void guest_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void guest_vprintf(const char *fmt, va_list ap);
/* leave QEMU with `status` (needs -device isa-debug-exit,iobase=0x501) */
void guest_exit(int status) __attribute__((noreturn));
/* stop here, leaving the picture on the screen */
void guest_halt(void) __attribute__((noreturn));

/* ---- PCI ---- */
typedef struct G3DPciDev {
    uint8_t bus, slot, func;
    uint16_t vendor, device;
    uint32_t bar[6];            /* physical addresses (memory BARs) */
    uint32_t bar_size[6];
} G3DPciDev;

uint32_t guest_pci_read32(const G3DPciDev *d, uint8_t reg);
void guest_pci_write32(const G3DPciDev *d, uint8_t reg, uint32_t v);
/* find vendor:device, read its BARs, enable memory and bus mastering */
int guest_pci_find(uint16_t vendor, uint16_t device, G3DPciDev *out);

#include "guest-math.h"

/* ---- libc subset ---- */
void *memcpy(void *d, const void *s, size_t n);
void *memset(void *d, int c, size_t n);
size_t strlen(const char *s);

/* ---- time ---- */
uint64_t guest_rdtsc(void);
/* TSC ticks in 10 ms (PIT channel 2); 0 if the PIT does not answer */
uint64_t guest_tsc_per_10ms(void);
/* "WHO: N frames in X ms (Y frames/s)" for the frames since TSC t0 (nothing
 * if the PIT does not answer) */
void guest_print_frame_rate(const char *who, int frames, uint64_t t0);

#endif
