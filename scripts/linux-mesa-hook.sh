# The init hook of scripts/linux-mesa.sh's guest (sourced by /init, busybox
# sh): Mesa on r300-3d. linux-mesa.sh puts /tmp/kmscap and
# /tmp/piglit-run.txt in place before this part; the kernel command line
# says what runs:
#   gpu3d.mesa=kmscube,kmscap,glmark2,piglit   gpu3d.drivers=hw,sw
#   gpu3d.piglit=all|N,M,...   (line numbers of /tmp/piglit-run.txt)
#   gpu3d.env=VAR=VAL,...      exported for every program (RADEON_HYPERZ=1)
#   gpu3d.mesa=...,gpureset    radeon's debugfs radeon_gpu_reset, then kmscube
#                              (its fence wait runs the kernel's GPU reset),
#                              then kmscube again on the reset device
echo "$P: mesa: begin"
mesa_run=kmscube,kmscap,glmark2; mesa_drivers=hw,sw; mesa_piglit=all
frames=60
for a in $(cat /proc/cmdline); do
    case $a in
        gpu3d.mesa=*) mesa_run=${a#*=} ;;
        gpu3d.drivers=*) mesa_drivers=${a#*=} ;;
        gpu3d.piglit=*) mesa_piglit=${a#*=} ;;
        gpu3d.frames=*) frames=${a#*=} ;;
        gpu3d.env=*)
            for e in $(echo "${a#gpu3d.env=}" | tr ',' ' '); do
                export "$e"
                echo "$P: env: $e"
            done ;;
    esac
done
wants() { case ",$1," in *",$2,"*) return 0 ;; esac; return 1; }
driver() {  # hw|sw: r300 or llvmpipe for what runs next. On GBM over the
            # radeon card Mesa's loader picks the DRI driver from the card
            # (loader.c loader_get_driver_for_fd) unless
            # MESA_LOADER_DRIVER_OVERRIDE names another: kms_swrast is
            # llvmpipe drawing into the card's KMS dumb buffers, so both
            # drivers run on the same platform (gbm), display and windows
    if [ "$1" = sw ]; then
        export LIBGL_ALWAYS_SOFTWARE=1 GBM_ALWAYS_SOFTWARE=1 \
               MESA_LOADER_DRIVER_OVERRIDE=kms_swrast
    else
        unset LIBGL_ALWAYS_SOFTWARE GBM_ALWAYS_SOFTWARE \
              MESA_LOADER_DRIVER_OVERRIDE
    fi
}
uptime_s() { cut -d' ' -f1 /proc/uptime; }
export HOME=/tmp XDG_RUNTIME_DIR=/tmp MESA_SHADER_CACHE_DISABLE=true
chmod +x /tmp/kmscap

if wants $mesa_run kmscube; then
    # every -M mode of this kmscube (kmscube.c); the nv12 ones import
    # NV12 planes through EGL_EXT_image_dma_buf_import
    for m in smooth rgba nv12-2img nv12-1img; do
        t0=$(uptime_s)
        timeout $((300 + frames)) kmscube -M $m -c $frames >/tmp/k-$m 2>&1
        rc=$?
        sed "s/^/$P: kmscube-$m: /" /tmp/k-$m | head -12
        echo "$P: kmscube-$m: rc $rc, $frames frames from $t0 s to $(uptime_s) s"
    done
fi

# one kmscube frame by r300 and by llvmpipe, printed for the host to
# compare (linux-mesa.sh): the smooth and textured cubes on both; the
# imported frames (-M rgba, nv12-2img, nv12-1img) on r300, and the same
# bytes uploaded (MODE-upload) on both
if wants $mesa_run kmscap; then
    for c in smooth:hw smooth:sw tex:hw tex:sw \
             rgba:hw rgba-upload:hw rgba-upload:sw \
             nv12-2img:hw nv12-2img-upload:hw nv12-2img-upload:sw \
             nv12-1img:hw nv12-1img-upload:hw nv12-1img-upload:sw; do
        m=${c%:*}; r=${c#*:}
        driver $r
        timeout 300 /tmp/kmscap 0 $m /tmp/$m-$r.ppm >/tmp/cap-$m-$r 2>&1
        echo "$P: kmscap-$m-$r: rc $? $(grep -v '^DRM_SHIM' /tmp/cap-$m-$r | head -2 | tr '\n' ' ')"
        echo "$P: ppm-begin $m-$r"
        base64 /tmp/$m-$r.ppm
        echo "$P: ppm-end $m-$r"
    done
fi

# glmark2's default scenes, 1 s each (a full run takes too long under TCG)
if wants $mesa_run glmark2; then
    for r in hw sw; do
        wants $mesa_drivers $r || continue
        driver $r
        t0=$(uptime_s)
        timeout 1800 glmark2-es2-drm -b :duration=1 >/tmp/glmark2-$r 2>&1
        rc=$?
        sed "s/^/$P: glmark2-$r: /" /tmp/glmark2-$r
        echo "$P: glmark2-$r: rc $rc from $t0 s to $(uptime_s) s"
    done
fi

# piglit's binaries run directly, as piglit's runner runs them: -auto, and
# -fbo for the tests it runs concurrently (flag c); the last "result" line
# a test prints is its result
if wants $mesa_run piglit; then
    export PIGLIT_PLATFORM=gbm PIGLIT_SOURCE_DIR=/usr/lib/x86_64-linux-gnu/piglit
    for r in hw sw; do
        wants $mesa_drivers $r || continue
        driver $r
        t0=$(uptime_s)
        i=0
        while IFS='|' read -r name flags cmd; do
            i=$((i + 1))
            [ "$mesa_piglit" = all ] || wants $mesa_piglit $i || continue
            eval "set -- $cmd"
            bin=$1; shift
            fbo=; [ "$flags" = c ] && fbo=-fbo
            (cd /usr/lib/x86_64-linux-gnu/piglit &&
             exec timeout 120 ./bin/$bin "$@" -auto $fbo) >/tmp/pig.out 2>&1 </dev/null
            rc=$?
            res=$(grep -o '"result": *"[a-z]*"' /tmp/pig.out | tail -1 |
                  sed 's/.*"\([a-z]*\)"$/\1/')
            if [ -z "$res" ]; then
                if [ $rc = 124 ] || [ $rc = 143 ]; then res=timeout
                elif [ $rc -gt 128 ]; then res=crash; else res=fail; fi
            fi
            echo "$P: piglit-$r: $res $name"
            if [ $res != pass ] && [ $res != skip ]; then
                grep -v '^PIGLIT' /tmp/pig.out | head -6 | sed "s/^/$P: piglit-$r-log: /"
            fi
        done </tmp/piglit-run.txt
        echo "$P: piglit-$r: from $t0 s to $(uptime_s) s"
    done
fi
# the kernel's GPU reset (radeon_device.c radeon_gpu_reset, r300.c
# r300_asic_reset) asked for through debugfs, run at kmscube's next fence
# wait; the device must come back: the ring and IB tests pass again and
# kmscube runs to its end
if wants $mesa_run gpureset; then
    mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
    dmesg -c >/dev/null
    cat /sys/kernel/debug/dri/0/radeon_gpu_reset >/dev/null
    timeout 300 kmscube -M smooth -c 30 >/tmp/k-reset1 2>&1
    echo "$P: gpureset-kmscube1: rc $?"
    timeout 300 kmscube -M smooth -c 30 >/tmp/k-reset2 2>&1
    rc=$?
    dmesg >/tmp/dmesg-reset
    grep -i -E "reset|ring test|ib test|lockup|fail" /tmp/dmesg-reset | head -20 |
        sed "s/^/$P: gpureset-dmesg: /"
    if [ $rc = 0 ] && grep -q "GPU reset succeeded" /tmp/dmesg-reset &&
       grep -q "ring test succeeded" /tmp/dmesg-reset &&
       ! grep -q -i "ring test.*fail\|ib test.*fail\|GPU reset failed" /tmp/dmesg-reset; then
        result gpu-reset PASS
    else
        result gpu-reset FAIL "kmscube rc $rc"
    fi
fi
dmesg | grep -i -E "lockup|WARNING|Oops|BUG|ring test|ib test|accel|scratch" | head -20 |
    sed "s/^/$P: dmesg-after: /"
echo "$P: mesa: end"
