#!/usr/bin/env python3
"""Turn command streams captured from Mesa's r300 driver (the radeon DRM
shim's dump: IB dwords, relocations, buffer contents) into a replay file for
tests/r300: every buffer placed at a GPU address and each relocation applied
the way the radeon kernel's command-stream checker applies it
(drivers/gpu/drm/radeon/r300.c r300_packet0_check, r100.c
r100_packet3_load_vbpntr): address registers get the buffer's address
added, pitch registers get the buffer's tiling bits.

usage: cs2replay.py dump.txt out.replay [vram_base]
"""
import sys

ADDR_REGS = set([0x4E28, 0x4E2C, 0x4E30, 0x4E34, 0x4F20, 0x4E80] +
                [0x4540 + 4 * i for i in range(16)])


def parse(path):
    css, cur = [], None
    lines = open(path).read().split('\n')
    i = 0
    while i < len(lines):
        w = lines[i].split()
        i += 1
        if not w:
            continue
        if w[0] == 'CS':
            n = int(w[1])
            cur = {'ib': [int(x, 16) for x in lines[i:i + n]], 'bos': []}
            css.append(cur)
            i += n
        elif w[0] == 'BO':
            handle, rd, wr, flags, size, tiling = (int(w[1]), int(w[2]),
                                                   int(w[3]), int(w[4]),
                                                   int(w[5]), int(w[6], 16))
            words = []
            while len(words) < size // 4:
                words += [int(x, 16) for x in lines[i].split()]
                i += 1
            cur['bos'].append({'handle': handle, 'size': size,
                               'tiling': tiling & 0xFFFF, 'words': words})
    return css


def patch(ib, bos, addr_of):
    out = list(ib)
    pending = []          # (dword index, kind, reg)
    i = 0
    while i < len(ib):
        h = ib[i]
        t = h >> 30
        if t == 0:
            reg = (h & 0x1FFF) << 2
            n = ((h >> 16) & 0x3FFF) + 1
            one = h & 0x8000
            # each address register of the packet takes the next NOP's
            # relocation (r100.c r100_cs_parse_packet0 goes register by
            # register), e.g. RB3D_AARESOLVE_OFFSET/PITCH/CTL in one packet
            pending = [(i + 1 + k, reg if one else reg + 4 * k)
                       for k in range(n)
                       if (reg if one else reg + 4 * k) in ADDR_REGS]
            i += 1 + n
        elif t == 3:
            op = (h >> 8) & 0xFF
            n = ((h >> 16) & 0x3FFF) + 1
            if op == 0x10 and n == 1 and pending:
                bo = bos[ib[i + 1] // 4]
                at, reg = pending.pop(0)
                if reg in ADDR_REGS or reg == 'addr':
                    out[at] = (out[at] + addr_of[bo['handle']]) & 0xFFFFFFFF
            elif op == 0x2F:                      # 3D_LOAD_VBPNTR
                cnt = ib[i + 1] & 0x1F
                pending = []
                k, p = 0, i + 2
                while k < cnt:
                    pending.append((p + 1, 'addr'))
                    if k + 1 < cnt:
                        pending.append((p + 2, 'addr'))
                    p += 3
                    k += 2
            elif op == 0x33:                      # INDX_BUFFER
                pending = [(i + 2, 'addr')]
            i += 1 + n
        else:
            i += 1
    return out


def main():
    css = parse(sys.argv[1])
    base = int(sys.argv[3], 0) if len(sys.argv) > 3 else 0x00200000
    addr_of, mem, nxt = {}, {}, base
    for cs in css:
        for bo in cs['bos']:
            if bo['handle'] not in addr_of:
                addr_of[bo['handle']] = nxt
                nxt += (bo['size'] + 0xFFFF) & ~0xFFFF
                mem[bo['handle']] = bo
    with open(sys.argv[2], 'w') as f:
        f.write('# Mesa r300 command streams for replay (tools/mesa-capture)\n')
        for h, bo in sorted(mem.items(), key=lambda x: addr_of[x[0]]):
            f.write('BUFFER %u 0x%08x %u\n' % (h, addr_of[h], bo['size']))
            w = bo['words']
            k = 0
            while k < len(w):        # runs of non-zero dwords
                if w[k] == 0:
                    k += 1
                    continue
                e = k
                while e < len(w) and (w[e] != 0 or (e + 1 < len(w) and
                                                     w[e + 1] != 0)):
                    e += 1
                f.write('MEM 0x%08x %u\n' % (addr_of[h] + 4 * k, e - k))
                for j in range(k, e, 8):
                    f.write(' '.join('%08x' % x for x in w[j:min(e, j + 8)]) +
                            '\n')
                k = e
        for cs in css:
            ib = patch(cs['ib'], cs['bos'], addr_of)
            f.write('IB %u\n' % len(ib))
            for j in range(0, len(ib), 8):
                f.write(' '.join('%08x' % x for x in ib[j:j + 8]) + '\n')


main()
