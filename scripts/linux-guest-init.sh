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
grep -i radeon /tmp/dmesg1 | sed "s/^/$P: dmesg: /" | head -80
check ring-test grep -q 'ring test on 0 succeeded' /tmp/dmesg1
check ib-test grep -q 'ib test on ring 0 succeeded' /tmp/dmesg1
case " $opts " in
    *" test=1 "*)
        n=$(grep -c 'Tested GTT->VRAM and VRAM->GTT copy' /tmp/dmesg1)
        if [ "$n" -gt 0 ] && ! grep -q 'Incorrect\|Failed to' /tmp/dmesg1; then
            result buffer-moves PASS "$n copies"
        else
            result buffer-moves FAIL "$n copies"
        fi ;;
esac

if ! skipped modetest; then
    modetest -M radeon -c >/tmp/modetest 2>&1
    sed "s/^/$P: modetest: /" /tmp/modetest | head -40
    if grep -q 'connected[[:space:]]*VGA-1' /tmp/modetest && \
       grep -A3 'connected[[:space:]]*VGA-1' /tmp/modetest | grep -q '^  modes:' ; then
        result vga-connected PASS "$(grep -c '#[0-9]' /tmp/modetest) modes"
    else
        grep -q '	connected	VGA-1\|[0-9]	connected	' /tmp/modetest &&
            result vga-connected PASS || result vga-connected FAIL
    fi
fi

if ! skipped vbltest; then
    timeout 15 vbltest -M radeon >/tmp/vbl 2>&1
    sed "s/^/$P: vbltest: /" /tmp/vbl | head -5
    hz=$(sed -n 's/.*freq: *\([0-9.]*\)Hz.*/\1/p' /tmp/vbl | tail -1)
    if [ -n "$hz" ]; then result vblank PASS "${hz}Hz"; else result vblank FAIL; fi
fi

if ! skipped fbcon; then
    # text on the console the framebuffer shows (tty1), read by the host
    # from a screendump
    printf '\033[2J\033[HGPU3D FBCON 0123\n' >/dev/tty1
    echo "$P: fbcon: wrote GPU3D FBCON 0123"
fi

if [ -f /init-hook.sh ]; then
    . /init-hook.sh
fi

if ! skipped reload; then
    check rmmod rmmod radeon
    check reload radeon_up
fi

dmesg >/tmp/dmesg2
if grep -q 'Oops\|WARNING:\|BUG:\|GPU lockup\|Call Trace' /tmp/dmesg2; then
    grep -B2 -A20 'Oops\|WARNING:\|BUG:\|GPU lockup' /tmp/dmesg2 | sed "s/^/$P: dmesg: /" | head -60
    result clean-dmesg FAIL
else
    result clean-dmesg PASS
fi
echo "$P: done, $fails failed"
sync
poweroff -f
