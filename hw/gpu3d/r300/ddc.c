/*
 * The monitor on the VGA connector's DDC pins (GPIO_VGA_DDC): an I2C
 * device at address 0x50 that answers EDID reads (VESA E-DDC: write the
 * offset, repeated start, read), bit-banged by the driver through the GPIO
 * register (Linux radeon_i2c.c pre_xfer/set_clock/get_data). The EDID bytes
 * come from the glue (cfg.edid: QEMU's EDID generator); the bus protocol is
 * here so that it runs, and is tested, without QEMU, and so that no QOM
 * device hangs off the PCI device (hot-unplug).
 *
 * Anything that is not a well-formed transfer to 0x50 is ignored: the
 * device releases SDA and waits for the next START.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "r300-int.h"

#define DDC_ADDR    0x50

enum { DDC_IDLE, DDC_RX, DDC_RX_ACK, DDC_TX, DDC_TX_ACK };

void r300_ddc_reset(R300Ddc *d)
{
    memset(d, 0, sizeof(*d));   /* no byte half shifted in survives */
    d->state = DDC_IDLE;
    d->scl = d->sda = true;
    d->out = true;
    d->ptr = 0;
}

static void load_byte(R300Core *c, R300Ddc *d)
{
    d->shift = c->cfg.edid[d->ptr++ % R300_EDID_SIZE];
    d->bits = 0;
    d->out = d->shift & 0x80;
    d->state = DDC_TX;
}

bool r300_ddc_step(R300Core *c, bool scl, bool sda)
{
    R300Ddc *d = &c->ddc;

    if (!c->cfg.edid) {
        return sda;                         /* nothing attached */
    }
    if (scl && d->scl && sda != d->sda) {
        /* SDA moving while SCL is high: START (falling) or STOP (rising) */
        d->state = sda ? DDC_IDLE : DDC_RX;
        d->first = true;
        d->bits = 0;
        d->shift = 0;
        d->out = true;
    } else if (scl && !d->scl) {
        /* rising SCL: the receiver samples */
        if (d->state == DDC_RX) {
            d->shift = d->shift << 1 | sda;
            d->bits++;
        } else if (d->state == DDC_TX_ACK) {
            d->master_ack = !sda;
        }
    } else if (!scl && d->scl) {
        /* falling SCL: the transmitter changes SDA */
        switch (d->state) {
        case DDC_RX:
            if (d->bits < 8) {
                break;
            }
            if (d->first) {
                d->first = false;
                if ((d->shift >> 1) != DDC_ADDR) {
                    d->state = DDC_IDLE;    /* not us: no acknowledge */
                    break;
                }
                d->reading = d->shift & 1;
            } else {
                d->ptr = d->shift;          /* the EDID offset */
            }
            d->out = false;                 /* acknowledge */
            d->state = DDC_RX_ACK;
            break;
        case DDC_RX_ACK:
            d->out = true;
            if (d->reading) {
                load_byte(c, d);
            } else {
                d->state = DDC_RX;
                d->bits = 0;
                d->shift = 0;
            }
            break;
        case DDC_TX:
            if (++d->bits == 8) {
                d->out = true;              /* the master acknowledges */
                d->state = DDC_TX_ACK;
            } else {
                d->out = (d->shift << d->bits) & 0x80;
            }
            break;
        case DDC_TX_ACK:
            if (d->master_ack) {
                load_byte(c, d);
            } else {
                d->out = true;
                d->state = DDC_IDLE;
            }
            break;
        default:
            break;
        }
    }
    d->scl = scl;
    d->sda = sda;
    return sda && d->out;
}
