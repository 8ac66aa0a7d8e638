/*
 * R300 command processor: the ring buffer, indirect buffers and the PM4
 * packets of types 0, 1, 2 and 3 [Linux radeon r100.c, radeon_reg.h, r300-core.c;
 * Mesa r300_reg.h, r300_cs.h]. The ATI microcode the driver loads through
 * CP_ME_RAM_* is stored and not run: the packets are executed directly.
 *
 * Every packet is read whole before it runs; a packet that can never be
 * complete (longer than the ring, or crossing the end of its indirect buffer)
 * is a guest error (counted in the core's error latch) that stops the
 * stream, so a bad ring can neither hang nor crash the device.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "r300-int.h"

static void write_back_rptr(R300Core *c)
{
    uint32_t addr;

    if (R300_REG(c, A_CP_RB_CNTL) & R_CP_RB_CNTL_RB_NO_UPDATE_MASK) {
        return;
    }
    addr = R300_REG(c, A_CP_RB_RPTR_ADDR) & ~3u;
    if (!g3d_mem_write32le(&c->gpu, addr, c->cp.rptr)) {
        g3d_error(&c->errors, 0, 0,
                  "r300: CP_RB_RPTR_ADDR 0x%08x outside memory", addr);
        /* stop trying until the driver fixes it */
        R300_REG(c, A_CP_RB_CNTL) |= R_CP_RB_CNTL_RB_NO_UPDATE_MASK;
    }
}

/* dwords a packet occupies, from its header */
static uint32_t packet_dwords(uint32_t h)
{
    switch (R300_PM4_TYPE(h)) {
    case 0:
    case 3:
        return R300_PM4_COUNT(h) + 2;
    case 1:
        return 3;
    default:
        return 1;
    }
}

/* ---- type 3 ---------------------------------------------------------- */

static bool need_body(R300Core *c, const char *what, uint32_t have,
                      uint32_t need)
{
    if (have < need) {
        g3d_error(&c->errors, 0, 0,
                  "r300: %s packet with %u body dwords, needs %u", what,
                  have, need);
        return false;
    }
    return true;
}

static void load_vbpntr(R300Core *c, const uint32_t *b, uint32_t n)
{
    uint32_t arrays, k, need;

    if (!need_body(c, "3D_LOAD_VBPNTR", n, 1)) {
        return;
    }
    arrays = G3D_FIELD_EX32(b[0], VAP_VTX_NUM_ARRAYS, VTX_NUM_ARRAYS);
    if (arrays > 16) {
        g3d_error(&c->errors, 0, 0,
                  "r300: 3D_LOAD_VBPNTR with %u arrays (max 16)", arrays);
        return;
    }
    need = 1 + 3 * (arrays / 2) + 2 * (arrays & 1);
    if (!need_body(c, "3D_LOAD_VBPNTR", n, need)) {
        return;
    }
    /* the body is the VAP_VTX_NUM_ARRAYS / AOS register layout */
    r300_write_reg(c, A_VAP_VTX_NUM_ARRAYS, b[0]);
    for (k = 0; k < arrays; k += 2) {
        const uint32_t *p = b + 1 + 3 * (k / 2);
        r300_write_reg(c, R300_VAP_VTX_AOS_ATTR(k / 2), p[0]);
        r300_write_reg(c, R300_VAP_VTX_AOS_ADDR(k), p[1]);
        if (k + 1 < arrays) {
            r300_write_reg(c, R300_VAP_VTX_AOS_ADDR(k + 1), p[2]);
        }
    }
}

static void indx_buffer(R300Core *c, const uint32_t *b, uint32_t n)
{
    uint32_t reg, skip, addr, size, i;

    if (!need_body(c, "INDX_BUFFER", n, 3)) {
        return;
    }
    /* dw0: ONE_REG_WR | skip << 16 | destination register >> 2 [§4.2] */
    reg = (b[0] & 0x1FFF) << 2;
    skip = (b[0] >> 16) & 0x7FFF;
    addr = b[1] & ~3u;
    size = b[2] & 0xFFFFFF;
    if (reg != A_VAP_PORT_IDX_0) {
        g3d_error(&c->errors, 0, 0,
                  "r300: INDX_BUFFER to register 0x%x (expected "
                  "VAP_PORT_IDX0)", reg);
        return;
    }
    if (!c->port_need) {
        g3d_error(&c->errors, 0, 0,
                  "r300: INDX_BUFFER without a pending indexed draw");
        return;
    }
    for (i = skip; i < size && c->port_need; i++) {
        uint32_t v;
        if (!g3d_mem_read32le(&c->gpu, addr + 4ull * i, &v)) {
            g3d_error(&c->errors, 0, 0,
                      "r300: index buffer 0x%08x+%u outside memory",
                      addr, size);
            c->port_need = 0;
            return;
        }
        r300_vap_port_write(c, A_VAP_PORT_IDX_0, v);
    }
    if (i < size) {
        g3d_error(&c->errors, 0, 0,
                  "r300: INDX_BUFFER holds %u dwords more than the draw "
                  "uses", size - i);
    }
}

static void draw(R300Core *c, uint32_t vf_cntl, R300VtxSource kind,
                 const uint32_t *data, uint32_t n)
{
    R300DrawSrc src = { .kind = kind, .data = data, .ndwords = n };

    /* the body's first word is the VAP_VF_CNTL value [R3xx 3D ref. §1.10
     * VAP] */
    R300_REG(c, A_VAP_VF_CNTL) = vf_cntl;
    r300_vap_draw(c, vf_cntl, &src);
}

static void packet3(R300Core *c, uint32_t h, const uint32_t *b, uint32_t n)
{
    uint32_t op = R300_PM4_PKT3_OPCODE(h);

    switch (op) {
    case R300_PKT3_NOP:
        break;
    case R300_PKT3_3D_DRAW_IMMD_2:
        if (need_body(c, "3D_DRAW_IMMD_2", n, 1)) {
            draw(c, b[0], R300_SRC_IMMD, b + 1, n - 1);
        }
        break;
    case R300_PKT3_3D_DRAW_IMMD:
        /* the older form has a VAP_VTX_FMT word first, not used */
        if (need_body(c, "3D_DRAW_IMMD", n, 2)) {
            draw(c, b[1], R300_SRC_IMMD, b + 2, n - 2);
        }
        break;
    case R300_PKT3_3D_DRAW_VBUF_2:
        if (need_body(c, "3D_DRAW_VBUF_2", n, 1)) {
            draw(c, b[0], R300_SRC_VBUF, NULL, 0);
        }
        break;
    case R300_PKT3_3D_DRAW_VBUF:
        if (need_body(c, "3D_DRAW_VBUF", n, 2)) {
            draw(c, b[1], R300_SRC_VBUF, NULL, 0);
        }
        break;
    case R300_PKT3_3D_DRAW_INDX_2:
    case R300_PKT3_3D_DRAW_INDX: {
        uint32_t first = op == R300_PKT3_3D_DRAW_INDX ? 1 : 0;
        if (!need_body(c, "3D_DRAW_INDX", n, first + 1)) {
            break;
        }
        if (n > first + 1) {
            draw(c, b[first], R300_SRC_INDX_INLINE, b + first + 1,
                 n - first - 1);
        } else {
            /* indices follow in an INDX_BUFFER packet, through the port */
            r300_write_reg(c, A_VAP_VF_CNTL, b[first]);
        }
        break;
    }
    case R300_PKT3_INDX_BUFFER:
        indx_buffer(c, b, n);
        break;
    case R300_PKT3_3D_LOAD_VBPNTR:
        load_vbpntr(c, b, n);
        break;
    case R300_PKT3_3D_CLEAR_HIZ:
    case R300_PKT3_3D_CLEAR_ZMASK:
    case R300_PKT3_3D_CLEAR_CMASK:
        if (need_body(c, "3D_CLEAR_HIZ/ZMASK/CMASK", n, 3)) {
            r300_zb_clear_ram(c, op == R300_PKT3_3D_CLEAR_HIZ ? R300_RAM_HIZ :
                                 op == R300_PKT3_3D_CLEAR_ZMASK ? R300_RAM_ZMASK
                                                                : R300_RAM_CMASK,
                              b);
        }
        break;
    case R300_PKT3_PAINT_MULTI:
    case R300_PKT3_BITBLT_MULTI:
        r300_2d_packet(c, op, b, n);
        break;
    case R300_PKT3_3D_DRAW_128:
        g3d_unimp("r300: 3D_DRAW_128");
        break;
    default:
        g3d_error(&c->errors, 0, 0,
                  "r300: unknown PACKET3 opcode 0x%02x (%u dwords)", op,
                  n);
        break;
    }
}

static void execute(R300Core *c, uint32_t h, const uint32_t *b, uint32_t n)
{
    uint32_t i;

    switch (R300_PM4_TYPE(h)) {
    case 0: {
        uint32_t reg = R300_PM4_PKT0_REG(h);
        bool one = h & R300_PM4_PKT0_ONE_REG_WR;
        for (i = 0; i < n; i++) {
            uint32_t r = one ? reg : reg + 4 * i;
            if (r >= R300_MMIO_SIZE) {
                g3d_error(&c->errors, 0, 0,
                          "r300: PACKET0 beyond the registers (0x%x)", r);
                break;
            }
            r300_write_reg(c, r, b[i]);
        }
        break;
    }
    case 1:
        /* two registers: 10:0 and 21:11, dword indices */
        r300_write_reg(c, (h & 0x7FF) << 2, b[0]);
        r300_write_reg(c, ((h >> 11) & 0x7FF) << 2, b[1]);
        break;
    case 2:
        break;
    default:
        packet3(c, h, b, n);
        break;
    }
}

/* One packet from the current indirect buffer; false when it ends. */
static bool ib_step(R300Core *c, uint32_t *buf)
{
    R300CP *cp = &c->cp;
    uint32_t h, len;

    if (cp->ib_pos >= cp->ib_size) {
        cp->ib_active = false;
        return false;
    }
    if (!g3d_mem_read32le(&c->gpu, cp->ib_base + 4ull * cp->ib_pos, &h)) {
        g3d_error(&c->errors, 0, 0,
                  "r300: indirect buffer 0x%08x outside memory",
                  cp->ib_base);
        cp->ib_active = false;
        return false;
    }
    len = packet_dwords(h);
    if (len > cp->ib_size - cp->ib_pos) {
        g3d_error(&c->errors, 0, 0,
                  "r300: packet of %u dwords crosses the end of the "
                  "indirect buffer", len);
        cp->ib_active = false;
        return false;
    }
    if (!g3d_mem_read(&c->gpu, cp->ib_base + 4ull * (cp->ib_pos + 1), buf,
                      4ull * (len - 1))) {
        g3d_error(&c->errors, 0, 0,
                  "r300: indirect buffer 0x%08x outside memory",
                  cp->ib_base);
        cp->ib_active = false;
        return false;
    }
    cp->ib_pos += len;
    execute(c, h, buf, len - 1);
    return true;
}

/*
 * n little-endian dwords of the ring from dword `pos` on, wrapping at its
 * end: at most two reads instead of one per dword (the per-dword memory
 * path cost more than decoding a vertex, docs/performance.md)
 */
static bool ring_read(R300Core *c, uint64_t base, uint32_t size, uint32_t pos,
                      uint32_t *buf, uint32_t n)
{
    uint32_t first = MIN(n, size - pos), k;

    if (!g3d_mem_read(&c->gpu, base + 4ull * pos, buf, 4ull * first) ||
        (n > first &&
         !g3d_mem_read(&c->gpu, base, buf + first, 4ull * (n - first)))) {
        return false;
    }
    for (k = 0; k < n; k++) {
        const uint8_t *b = (const uint8_t *)&buf[k];
        buf[k] = b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
    }
    return true;
}

/* One packet from the ring; false when there is nothing (complete) to run. */
static bool ring_step(R300Core *c, uint32_t *buf)
{
    R300CP *cp = &c->cp;
    uint32_t size = r300_cp_ring_dwords(c), avail, h, len;
    uint64_t base = R300_REG(c, A_CP_RB_BASE) & ~3u;

    if (!r300_cp_ring_enabled(c)) {
        return false;
    }
    if (!size) {
        g3d_error(&c->errors, 0, 0,
                  "r300: CP_RB_CNTL ring size 2^%u out of range",
                  G3D_FIELD_EX32(R300_REG(c, A_CP_RB_CNTL), CP_RB_CNTL,
                                 RB_BUFSZ) + 3);
        return false;
    }
    cp->rptr &= size - 1;
    avail = r300_cp_ring_avail(c, size);
    if (!avail) {
        return false;
    }
    if (!g3d_mem_read32le(&c->gpu, base + 4ull * cp->rptr, &h)) {
        g3d_error(&c->errors, 0, 0,
                  "r300: ring 0x%08" G_GINT64_MODIFIER "x outside memory",
                  base);
        cp->rptr = R300_REG(c, A_CP_RB_WPTR) & (size - 1);
        return false;
    }
    len = packet_dwords(h);
    if (len >= size) {
        g3d_error(&c->errors, 0, 0,
                  "r300: packet of %u dwords cannot fit the %u-dword "
                  "ring; ring dropped", len, size);
        cp->rptr = R300_REG(c, A_CP_RB_WPTR) & (size - 1);
        write_back_rptr(c);
        return false;
    }
    if (len > avail) {
        return false;               /* the host has not written it all yet */
    }
    if (len > 1 &&
        !ring_read(c, base, size, (cp->rptr + 1) & (size - 1), buf, len - 1)) {
        g3d_error(&c->errors, 0, 0,
                  "r300: ring 0x%08" G_GINT64_MODIFIER "x outside "
                  "memory", base);
        cp->rptr = R300_REG(c, A_CP_RB_WPTR) & (size - 1);
        return false;
    }
    execute(c, h, buf, len - 1);
    cp->rptr = (cp->rptr + len) & (size - 1);
    write_back_rptr(c);
    return true;
}

/*
 * Run up to `budget` packets. True when it stopped on the budget with more
 * packets ready; false when it ran out of complete packets (the CP may still
 * be busy waiting for the host to finish writing one).
 */
bool r300_cp_work(R300Core *c, unsigned budget)
{
    bool more = true;

    while (budget--) {
        if (g3d_yield()) {
            return false;       /* reset or unplug */
        }
        if (g3d_step_end()) {
            break;              /* the state is being saved: go on later */
        }
        if (c->cp.ib_active) {
            ib_step(c, c->cp_buf);
            continue;
        }
        if (!ring_step(c, c->cp_buf)) {
            more = false;
            break;
        }
    }
    /*
     * The queued draws are finished whenever the CP stops (idle, a save,
     * the budget spent), so that nothing is queued while the worker does
     * anything else
     */
    r300_flush_render(c);
    return more && (c->cp.ib_active || r300_cp_busy(c));
}
