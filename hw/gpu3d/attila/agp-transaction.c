/*
 * AGP transactions: the records the ATTILA command processor consumes, in
 * the trace-file serialisation (ATTILA ref. AGP Transactions; attila-sim
 * AGPTransaction.cpp: fields written one by one, little-endian, unpadded). The
 * same strict parser reads trace files and the device's command ring.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "attila-int.h"

static inline uint32_t ld32(const uint8_t *p)
{
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void st32(uint8_t *p, uint32_t v)
{
    p[0] = v;
    p[1] = v >> 8;
    p[2] = v >> 16;
    p[3] = v >> 24;
}

static bool is_register(uint32_t id)
{
    return id < ATTILA_REG_LAST_REGISTER &&
           attila_reg_info[id].type != ATTILA_RT_MARKER;
}

AttilaParse attila_agp_parse(const uint8_t *p, size_t len,
                             AttilaTransaction *t, size_t *used)
{
    size_t need;

    memset(t, 0, sizeof(*t));
    if (len < 4) {
        return ATTILA_PARSE_TRUNCATED;
    }
    t->kind = ld32(p);
    switch (t->kind) {
    case ATTILA_AGP_WRITE:
    case ATTILA_AGP_PRELOAD:
        if (len < ATTILA_REC_WRITE_HDR) {
            return ATTILA_PARSE_TRUNCATED;
        }
        t->address = ld32(p + 4);
        t->md = ld32(p + 8);
        t->locked = p[12];
        t->size = ld32(p + 13);
        /* compare without overflow: size can be anything */
        if (t->size > len - ATTILA_REC_WRITE_HDR) {
            return ATTILA_PARSE_TRUNCATED;
        }
        t->data = p + ATTILA_REC_WRITE_HDR;
        need = ATTILA_REC_WRITE_HDR + (size_t)t->size;
        break;
    case ATTILA_AGP_REG_WRITE:
        if (len < ATTILA_REC_REG_WRITE) {
            return ATTILA_PARSE_TRUNCATED;
        }
        t->reg = ld32(p + 4);
        t->index = ld32(p + 8);
        memcpy(t->value, p + 12, 16);
        t->md = ld32(p + 28);
        if (!is_register(t->reg)) {
            return ATTILA_PARSE_BAD_REGISTER;
        }
        need = ATTILA_REC_REG_WRITE;
        break;
    case ATTILA_AGP_COMMAND:
        if (len < ATTILA_REC_COMMAND) {
            return ATTILA_PARSE_TRUNCATED;
        }
        t->command = ld32(p + 4);
        need = ATTILA_REC_COMMAND;
        break;
    case ATTILA_AGP_EVENT:
        if (len < ATTILA_REC_EVENT_HDR) {
            return ATTILA_PARSE_TRUNCATED;
        }
        t->event = ld32(p + 4);
        t->size = ld32(p + 8);
        if (t->size > len - ATTILA_REC_EVENT_HDR) {
            return ATTILA_PARSE_TRUNCATED;
        }
        t->data = p + ATTILA_REC_EVENT_HDR;
        need = ATTILA_REC_EVENT_HDR + (size_t)t->size;
        break;
    default:
        /* READ, REG_READ and INIT_END cannot be serialised (ATTILA ref. AGP
         * Transactions; attila-sim AGPTransaction.cpp) */
        return ATTILA_PARSE_BAD_KIND;
    }
    *used = need;
    return ATTILA_PARSE_OK;
}

size_t attila_agp_size(const AttilaTransaction *t)
{
    switch (t->kind) {
    case ATTILA_AGP_WRITE:
    case ATTILA_AGP_PRELOAD:
        return ATTILA_REC_WRITE_HDR + (size_t)t->size;
    case ATTILA_AGP_REG_WRITE:
        return ATTILA_REC_REG_WRITE;
    case ATTILA_AGP_COMMAND:
        return ATTILA_REC_COMMAND;
    case ATTILA_AGP_EVENT:
        return ATTILA_REC_EVENT_HDR + (size_t)t->size;
    default:
        return 4;
    }
}

size_t attila_agp_encode(const AttilaTransaction *t, uint8_t *buf)
{
    st32(buf, t->kind);
    switch (t->kind) {
    case ATTILA_AGP_WRITE:
    case ATTILA_AGP_PRELOAD:
        st32(buf + 4, t->address);
        st32(buf + 8, t->md);
        buf[12] = t->locked;
        st32(buf + 13, t->size);
        if (t->size) {
            memcpy(buf + ATTILA_REC_WRITE_HDR, t->data, t->size);
        }
        break;
    case ATTILA_AGP_REG_WRITE:
        st32(buf + 4, t->reg);
        st32(buf + 8, t->index);
        memcpy(buf + 12, t->value, 16);
        st32(buf + 28, t->md);
        break;
    case ATTILA_AGP_COMMAND:
        st32(buf + 4, t->command);
        break;
    case ATTILA_AGP_EVENT:
        st32(buf + 4, t->event);
        st32(buf + 8, t->size);
        if (t->size) {
            memcpy(buf + ATTILA_REC_EVENT_HDR, t->data, t->size);
        }
        break;
    default:
        break;
    }
    return attila_agp_size(t);
}

const char *attila_parse_error(AttilaParse r)
{
    switch (r) {
    case ATTILA_PARSE_OK:           return "ok";
    case ATTILA_PARSE_TRUNCATED:    return "record runs past the end";
    case ATTILA_PARSE_BAD_KIND:     return "unknown transaction kind";
    case ATTILA_PARSE_BAD_REGISTER: return "register id out of range";
    default:                        return "?";
    }
}
