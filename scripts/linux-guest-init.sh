#!/bin/busybox sh
# /init of the Linux guest (scripts/linux-guest.sh): load Debian's radeon
# KMS driver on r300-3d, check what it reports, print one line per check on
# the serial console and power off. Runs under busybox-static's sh.
/bin/busybox mkdir -p /proc /sys /dev /tmp /run
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t sysfs sysfs /sys
/bin/busybox mount -t devtmpfs devtmpfs /dev
/bin/busybox --install -s
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu

P=gpu3d-linux
fails=0
result() {  # name PASS|FAIL detail...
    n=$1; r=$2; shift 2
    echo "$P: $n: $r $*"
    [ "$r" = PASS ] || fails=$((fails + 1))
}
check() {  # name command...: PASS when the command succeeds
    n=$1; shift
    if "$@"; then result "$n" PASS; else result "$n" FAIL; fi
}
skipped() {
    case ",$skip," in *",$1,"*) echo "$P: $1: SKIP"; return 0 ;; esac
    return 1
}

# radeon.OPT=VAL on the kernel command line -> modprobe radeon OPT=VAL;
# gpu3d.skip=a,b skips checks
opts=""; skip=""
for w in $(cat /proc/cmdline); do
    case $w in
        radeon.*) opts="$opts ${w#radeon.}" ;;
        gpu3d.skip=*) skip=${w#gpu3d.skip=} ;;
    esac
done
echo "$P: kernel $(uname -r), radeon options:${opts:- none}"
dmesg -n 1

radeon_up() {
    # shellcheck disable=SC2086
    modprobe radeon $opts || return 1
    i=0
    while [ ! -e /dev/dri/card0 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    [ -e /dev/dri/card0 ] && [ -d /sys/module/radeon ]
}

check bind radeon_up
dmesg >/tmp/dmesg1
# the driver's own report, without the per-copy lines of radeon.test
grep -i 'radeon\|drm\|test\|fbcon\|WARN\|BUG\|Oops' /tmp/dmesg1 |
    grep -v 'Tested GTT->VRAM' | sed "s/^/$P: dmesg: /" | head -60
check ring-test grep -q 'ring test succeeded' /tmp/dmesg1
check ib-test grep -q 'ib test succeeded' /tmp/dmesg1
case " $opts " in
    *" test=1 "*)
        n=$(grep -c 'Tested GTT->VRAM and VRAM->GTT copy' /tmp/dmesg1)
        if [ "$n" -gt 0 ] && ! grep -q 'Incorrect\|Failed' /tmp/dmesg1; then
            result buffer-moves PASS "$n copies"
        else
            grep 'Incorrect\|Failed' /tmp/dmesg1 | head -5 | sed "s/^/$P: dmesg: /"
            result buffer-moves FAIL "$n copies"
        fi ;;
esac

# the highest of the "freq: N Hz" samples in $1 after the first (which
# includes the start). The tools count one event per request they renew
# after each vblank, so a guest whose vCPU the host starves misses vblanks
# and undercounts (seconds of 26-55 Hz were seen on a busy host); a second
# in which it kept up shows the device's rate, too slow or too fast alike.
best_hz() {
    sed -n 's/.*freq: *\([0-9.]*\)Hz.*/\1/p' "$1" | sed 1d | sort -n | tail -1
}
# $1 within 5% of $2
near() {
    [ -n "$1" ] && [ -n "$2" ] &&
        awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.05 * b) }'
}

hz_want=""
if ! skipped modetest; then
    modetest -M radeon -c >/tmp/modetest 2>&1
    grep -v '^	\|^		\|props:' /tmp/modetest | sed "s/^/$P: modetest: /" | head -40
    # "id encoder connected VGA-1 size modes encoders", then its mode list
    line=$(grep -E '[[:space:]]connected[[:space:]]+VGA-1' /tmp/modetest)
    nmodes=$(echo "$line" | awk '{ print $6 }')
    if [ -n "$line" ] && [ "${nmodes:-0}" -gt 0 ]; then
        result vga-connected PASS "$nmodes modes"
    else
        result vga-connected FAIL
    fi
    # the preferred mode's refresh rate, which fbcon set
    hz_want=$(sed -n '/connected[[:space:]]*VGA-1/,$p' /tmp/modetest |
              grep -m1 'preferred' | awk '{ print $3 }')
fi

if ! skipped vbltest; then
    timeout 15 vbltest -M radeon >/tmp/vbl 2>&1
    sed "s/^/$P: vbltest: /" /tmp/vbl | head -20
    hz=$(best_hz /tmp/vbl)
    if near "$hz" "$hz_want"; then
        result vblank PASS "${hz}Hz (mode ${hz_want}Hz)"
    else
        result vblank FAIL "${hz:-no}Hz (mode ${hz_want:-?}Hz)"
    fi
fi

if ! skipped flip; then
    # modetest's vsynced page flipping (drmModePageFlip -> r100_page_flip,
    # completed by the vblank interrupt); it stops on input, so feed it a
    # pipe that stays quiet
    conn=$(grep -E '[[:space:]]connected[[:space:]]+VGA-1' /tmp/modetest | awk '{ print $1 }')
    sleep 12 | timeout 10 modetest -M radeon -s "${conn:-0}:1024x768" -v >/tmp/flip 2>&1
    sed "s/^/$P: flip: /" /tmp/flip | head -12
    fhz=$(best_hz /tmp/flip)
    if near "$fhz" "$hz_want"; then
        result page-flip PASS "${fhz} flips/s"
    else
        result page-flip FAIL "${fhz:-no} flips/s"
    fi
fi

if ! skipped fbcon; then
    # text on the console the framebuffer shows (tty1), then the guest's own
    # view of its first character row as '#' (lit) and '.' pixels, for the
    # host to compare with a screendump of the CRTC
    printf '\033[2J\033[H\033[?25lGPU3D FBCON 0123' >/dev/tty1
    sleep 1
    stride=$(cat /sys/class/graphics/fb0/stride 2>/dev/null)
    bpp=$(cat /sys/class/graphics/fb0/bits_per_pixel 2>/dev/null)
    echo "$P: fbcon: text GPU3D FBCON 0123, stride ${stride:-?}, bpp ${bpp:-?}"
    if [ "$bpp" = 32 ]; then
        echo "$P: fbcon-glyphs-begin"
        dd if=/dev/fb0 bs="$stride" count=16 2>/dev/null |
            od -An -v -tx4 -w"$stride" |
            awk '{ s = ""; for (i = 1; i <= 128; i++)
                     s = s (substr($i, 3) ~ /^0+$/ ? "." : "#");
                   print "gpu3d-linux: glyphs: " s }'
        echo "$P: fbcon-glyphs-end"
        # the host takes its screendump now
        sleep 3
    else
        result fbcon FAIL "bpp ${bpp:-none}"
    fi
fi

if [ -f /init-hook.sh ]; then
    . /init-hook.sh
fi

if ! skipped reload; then
    # fbcon holds the driver's framebuffer: let go of it first
    for v in /sys/class/vtconsole/vtcon*; do
        grep -q 'frame buffer' "$v/name" 2>/dev/null && echo 0 >"$v/bind"
    done
    check rmmod rmmod radeon
    check reload radeon_up
    dmesg >/tmp/dmesg3
    n=$(grep -c 'ring test succeeded' /tmp/dmesg3)
    if [ "$n" -ge 2 ]; then result reload-ring-test PASS; else result reload-ring-test FAIL; fi
fi

dmesg >/tmp/dmesg2
if grep -q 'Oops\|WARNING:\|BUG:\|GPU lockup\|Call Trace' /tmp/dmesg2; then
    grep -B8 -A14 'Oops\|WARNING:\|BUG:\|GPU lockup\|Call Trace' /tmp/dmesg2 | sed "s/^/$P: dmesg: /" | head -60
    result clean-dmesg FAIL
else
    result clean-dmesg PASS
fi
echo "$P: done, $fails failed"
sync
poweroff -f
