/*
 * The gpu3d guest runtime (see guest.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "guest.h"

#define COM1            0x3F8
#define DEBUG_EXIT_PORT 0x501
#define PCI_ADDR        0xCF8
#define PCI_DATA        0xCFC

/* ---- serial ---- */

static void serial_init(void)
{
    outb(COM1 + 1, 0x00);       /* no interrupts */
    outb(COM1 + 3, 0x80);       /* DLAB */
    outb(COM1 + 0, 0x01);       /* 115200 baud */
    outb(COM1 + 1, 0x00);
    outb(COM1 + 3, 0x03);       /* 8N1 */
    outb(COM1 + 2, 0xC7);       /* FIFO */
}

static void serial_putc(char c)
{
    int spin = 100000;

    if (c == '\n') {
        serial_putc('\r');
    }
    while (!(inb(COM1 + 5) & 0x20) && spin--) {
    }
    outb(COM1, (uint8_t)c);
}

static void put_uint(uint32_t v, unsigned base, int width, char pad)
{
    char buf[12];
    int n = 0;

    do {
        unsigned d = v % base;
        buf[n++] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
        v /= base;
    } while (v && n < 11);
    while (n < width) {
        buf[n++] = pad;
    }
    while (n) {
        serial_putc(buf[--n]);
    }
}

void guest_vprintf(const char *fmt, va_list ap)
{
    for (; *fmt; fmt++) {
        int width = 0;
        char pad = ' ';

        if (*fmt != '%') {
            serial_putc(*fmt);
            continue;
        }
        fmt++;
        if (*fmt == '0') {
            pad = '0';
            fmt++;
        }
        while (*fmt >= '0' && *fmt <= '9') {
            width = width * 10 + (*fmt++ - '0');
        }
        switch (*fmt) {
        case 'd': {
            int v = va_arg(ap, int);
            if (v < 0) {
                serial_putc('-');
                v = -v;
            }
            put_uint((uint32_t)v, 10, width, pad);
            break;
        }
        case 'u':
            put_uint(va_arg(ap, uint32_t), 10, width, pad);
            break;
        case 'x':
            put_uint(va_arg(ap, uint32_t), 16, width, pad);
            break;
        case 'p':
            serial_putc('0');
            serial_putc('x');
            put_uint((uint32_t)(uintptr_t)va_arg(ap, void *), 16, 8, '0');
            break;
        case 's': {
            const char *s = va_arg(ap, const char *);
            while (*s) {
                serial_putc(*s++);
            }
            break;
        }
        case 'c':
            serial_putc((char)va_arg(ap, int));
            break;
        case '%':
            serial_putc('%');
            break;
        default:
            serial_putc('?');
            break;
        }
    }
}

void guest_printf(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    guest_vprintf(fmt, ap);
    va_end(ap);
}

void guest_exit(int status)
{
    /* isa-debug-exit: QEMU exits with (status << 1) | 1 */
    outb(DEBUG_EXIT_PORT, (uint8_t)status);
    guest_halt();
}

void guest_halt(void)
{
    for (;;) {
        __asm__ volatile("cli; hlt");
    }
}

/* ---- PCI configuration mechanism #1 ---- */

static uint32_t cfg_addr(uint8_t bus, uint8_t slot, uint8_t func, uint8_t reg)
{
    return 0x80000000u | (uint32_t)bus << 16 | (uint32_t)slot << 11 |
           (uint32_t)func << 8 | (reg & 0xFC);
}

uint32_t guest_pci_read32(const G3DPciDev *d, uint8_t reg)
{
    outl(PCI_ADDR, cfg_addr(d->bus, d->slot, d->func, reg));
    return inl(PCI_DATA);
}

void guest_pci_write32(const G3DPciDev *d, uint8_t reg, uint32_t v)
{
    outl(PCI_ADDR, cfg_addr(d->bus, d->slot, d->func, reg));
    outl(PCI_DATA, v);
}

int guest_pci_find(uint16_t vendor, uint16_t device, G3DPciDev *out)
{
    unsigned bus, slot, func, i;

    for (bus = 0; bus < 256; bus++) {
        for (slot = 0; slot < 32; slot++) {
            for (func = 0; func < 8; func++) {
                G3DPciDev d = { .bus = (uint8_t)bus, .slot = (uint8_t)slot,
                                .func = (uint8_t)func };
                uint32_t id = guest_pci_read32(&d, 0);
                if ((id & 0xFFFF) == 0xFFFF) {
                    if (func == 0) {
                        break;
                    }
                    continue;
                }
                if ((id & 0xFFFF) != vendor || (id >> 16) != device) {
                    continue;
                }
                d.vendor = vendor;
                d.device = device;
                for (i = 0; i < 6; i++) {
                    uint32_t bar = guest_pci_read32(&d, 0x10 + 4 * i), sz;
                    if (bar & 1) {
                        continue;           /* I/O BAR */
                    }
                    /* size: write all ones, read back the mask */
                    guest_pci_write32(&d, 0x10 + 4 * i, 0xFFFFFFFF);
                    sz = guest_pci_read32(&d, 0x10 + 4 * i) & ~0xFu;
                    guest_pci_write32(&d, 0x10 + 4 * i, bar);
                    d.bar[i] = bar & ~0xFu;
                    d.bar_size[i] = sz ? ~sz + 1 : 0;
                    if ((bar & 6) == 4) {
                        /* 64-bit: this program reaches only the low 4 GiB */
                        if (guest_pci_read32(&d, 0x14 + 4 * i) != 0) {
                            guest_printf("gpu3d: BAR%u above 4 GiB\n", i);
                            return -1;
                        }
                        i++;
                    }
                }
                /* memory space + bus master */
                guest_pci_write32(&d, 0x04, guest_pci_read32(&d, 0x04) | 0x6);
                *out = d;
                return 0;
            }
        }
    }
    return -1;
}

/* ---- libc subset ---- */

void *memcpy(void *d, const void *s, size_t n)
{
    uint8_t *dp = d;
    const uint8_t *sp = s;

    while (n--) {
        *dp++ = *sp++;
    }
    return d;
}

void *memset(void *d, int c, size_t n)
{
    uint8_t *dp = d;

    while (n--) {
        *dp++ = (uint8_t)c;
    }
    return d;
}

size_t strlen(const char *s)
{
    size_t n = 0;

    while (s[n]) {
        n++;
    }
    return n;
}

uint64_t guest_rdtsc(void)
{
    uint32_t lo, hi;

    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return (uint64_t)hi << 32 | lo;
}

/*
 * TSC ticks in 10 ms, timed by PIT channel 2 (gate and output through port
 * 0x61); 0 if the PIT does not answer.
 */
uint64_t guest_tsc_per_10ms(void)
{
    const uint16_t count = 11932;           /* 10 ms at 1.193182 MHz */
    uint64_t t0, spin;

    outb(0x61, (inb(0x61) & ~0x02) | 0x01); /* gate on, speaker off */
    outb(0x43, 0xB0);                       /* channel 2, lo/hi, mode 0 */
    outb(0x42, count & 0xFF);
    outb(0x42, count >> 8);
    t0 = guest_rdtsc();
    for (spin = 0; spin < 100000000ull; spin++) {
        if (inb(0x61) & 0x20) {
            return guest_rdtsc() - t0;
        }
    }
    return 0;
}

/* called from crt0.S */
void guest_guest_start(uint32_t magic, uint32_t info);

void guest_guest_start(uint32_t magic, uint32_t info)
{
    int status;

    serial_init();
    if (magic != 0x2BADB002) {
        guest_printf("gpu3d: not started by multiboot (0x%x)\n", magic);
    }
    status = main();
    guest_exit(status);
}

void guest_print_frame_rate(const char *who, int frames, uint64_t t0)
{
    uint64_t ticks = guest_rdtsc() - t0, per10ms = guest_tsc_per_10ms();
    uint32_t ms;

    if (!per10ms) {
        return;
    }
    ms = (uint32_t)(ticks * 10 / per10ms);
    guest_printf("%s: %d frames in %u ms (%u.%u frames/s)\n", who, frames,
               ms, ms ? frames * 1000 / ms : 0,
               ms ? frames * 10000 / ms % 10 : 0);
}
