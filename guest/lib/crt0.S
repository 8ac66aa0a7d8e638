/*
 * Multiboot (v1) entry of the gpu3d guest programs: QEMU's -kernel loads
 * the ELF, jumps here in 32-bit protected mode with paging off.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define MB_MAGIC    0x1BADB002
#define MB_FLAGS    0x00000003      /* page-align modules, memory info */

    .section .multiboot, "a"
    .align 4
    .long MB_MAGIC
    .long MB_FLAGS
    .long -(MB_MAGIC + MB_FLAGS)

    .section .text
    .globl _start
_start:
    cli
    movl $stack_top, %esp
    xorl %ebp, %ebp
    pushl %ebx                      /* multiboot info */
    pushl %eax                      /* multiboot magic */
    call guest_guest_start
1:  hlt
    jmp 1b

    .section .bss
    .align 16
stack:
    .skip 256 * 1024
stack_top:
