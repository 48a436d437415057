#!/usr/bin/env bash
# The GPU check: one prepared script for a machine with a real GPU (one H200), run from the
# repository root after `bash bench/gpu_wheels.sh` filled .whl/ on a machine with PyPI:
#
#     bash bench/gpu_check.sh [--quick] [--golden-only | --bench-only]
#
# Written against the documented APIs; NOT yet run on a GPU (none was available while it was
# written).  What could be run without one was: the install step with Python 3.12 into a
# scratch folder, `bench/gpu_bench.py --dry-run`, and the golden loop with --device cpu.
#
#  1. installs the wheels of .whl/ into /tmp/site (no network there) and unpacks the kit beside
#     them (ruff, clang-format, tileiras with ptxas and libnvvm, CUDA headers: gpu_wheels.sh);
#  2. (a) every examples/*.bas and examples/kernels/*.bas on the GPU, both targets:
#         python3 -m transpiler X --check --device gpu                 (cuTile, JIT by tileiras)
#         python3 -m transpiler X --check --target cuda --device gpu   (CUDA, built by nvcc)
#     pass/fail per program and target;
#  3. (b) bench/gpu_bench.py: SAXPY bandwidth vs a device copy, generated vs hand-written cuTile
#     matmul, generated CUDA vs cuTile (goals 0.85, 0.9x, 1.2x);
#  4. (c) where `nvidia-smi -L` lists several GPUs: a Dask scheduler and one worker per GPU
#     (CUDA_VISIBLE_DEVICES), every examples/kernels/*.bas run by its self-test with the grid
#     split across them (--run --scheduler), and bench/distributed.py when dask-cuda is there;
#  5. prints a short table.  Time budget: about 8 minutes in all ($GPU_CHECK_BUDGET seconds,
#     default 480); logs go to $OUT (the device runner's output folder) or /tmp/gpu_check.
# Exit status: 0 when every check passed (benchmark goals are reported, not enforced), 1 if not.
# GPU_CHECK_DEVICE=cpu runs the same steps with --device cpu and gpu_bench.py --dry-run: that
# is how this script itself was tested on a machine without a GPU; GPU_CHECK_WORKERS=2 with it
# runs step (c) on two CPU workers (how that step was tested).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site:$PWD:$PWD/runtime
installed=$?
set -uo pipefail
START=$SECONDS
BUDGET=${GPU_CHECK_BUDGET:-480}
LOG=${OUT:-/tmp/gpu_check}
mkdir -p "$LOG/golden"
QUICK=""
DO_GOLDEN=1
DO_BENCH=1
for arg in "$@"; do
    case "$arg" in
    --quick) QUICK=--quick ;;
    --golden-only) DO_BENCH=0 ;;
    --bench-only) DO_GOLDEN=0 ;;
    *) echo "usage: $0 [--quick] [--golden-only | --bench-only]" >&2; exit 2 ;;
    esac
done
DEVICE=${GPU_CHECK_DEVICE:-gpu}
left() { echo $((BUDGET - (SECONDS - START))); }

if [ "$installed" != 0 ]; then  # a system Python marked EXTERNALLY-MANAGED may want this flag
    python3 -m pip install -q --no-index --no-deps --no-compile --break-system-packages \
        --target /tmp/site .whl/*.whl && installed=0
fi
if [ "$installed" != 0 ]; then
    echo "gpu_check: installing .whl/*.whl failed (run bench/gpu_wheels.sh on a machine with PyPI first)"
    exit 1
fi
export PYTHONPATH=/tmp/site:$PWD:$PWD/runtime
# The kit (gpu_wheels.sh): ruff and clang-format as pip installs them, and tileiras with ptxas,
# libnvvm and the CUDA headers, laid out as the NVIDIA wheels do (nvidia/cu13/...).
for kit in .whl/*.tar.xz; do
    [ -e "$kit" ] || { echo "gpu_check: no kit in .whl/ (cuTile kernels need a tileiras on PATH then)"; continue; }
    tar -xJf "$kit" -C /tmp/site && echo "unpacked $kit into /tmp/site"
done
export CUDA_TILE_CACHE_DIR=${CUDA_TILE_CACHE_DIR:-/tmp/gpu_check_cutile_cache}
export CUDA_TILE_TEMP_DIR=${CUDA_TILE_TEMP_DIR:-/tmp/gpu_check_cutile_tmp}
mkdir -p "$CUDA_TILE_CACHE_DIR" "$CUDA_TILE_TEMP_DIR"

echo "== environment"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -2
nvcc --version 2>&1 | tail -1
python3 - <<'EOF'
import sys
print("python", sys.version.split()[0])
for mod in ("numpy", "cupy", "cuda.tile", "cuda.bindings"):
    try:
        m = __import__(mod, fromlist=["_"])
        print(f"{mod} {getattr(m, '__version__', '?')} from {m.__file__.rsplit('/', 2)[0]}")
    except Exception as exc:
        print(f"{mod}: NOT importable ({type(exc).__name__}: {exc})")
try:
    from cuda.tile._compile import _find_compiler_bin  # cuda.tile's own search (private API)
    print("tileiras:", _find_compiler_bin().path)
except Exception as exc:
    print(f"tileiras: NOT found ({exc})")
from basic2tile_runtime.device import gpu_unavailable_reason
print("GPU usable by basic2tile:", gpu_unavailable_reason() or "yes")
EOF
# NVRTC (gpu_bench.py) compiles against CUDA headers: prefer the toolkit beside nvcc (it
# matches the image's NVRTC), else the headers the kit brought.
if ! python3 -c "from transpiler.verify.cuda_headers import cuda_include_dir as f; f()" 2>/dev/null; then
    nvcc_root=$(dirname "$(dirname "$(readlink -f "$(command -v nvcc)")")" 2>/dev/null || true)
    if [ -n "$nvcc_root" ] && [ -f "$nvcc_root/include/mma.h" ]; then
        export CUDA_HOME=$nvcc_root
    elif [ -f /tmp/site/nvidia/cu13/include/mma.h ]; then
        export CUDA_HOME=/tmp/site/nvidia/cu13
    fi
    echo "CUDA headers for NVRTC: CUDA_HOME=${CUDA_HOME:-none found}"
fi

# ----------------------------------------------------------------------------------------------
# (a) golden programs on the GPU
golden_one() {  # golden_one PROGRAM TARGET: one line "PROGRAM TARGET STATUS SECONDS"
    local prog=$1 target=$2 t0=$SECONDS rc
    local log=$LOG/golden/$(basename "$(dirname "$prog")")_$(basename "$prog" .bas).$target.log
    local extra=()
    [ "$target" = cuda ] && extra=(--target cuda)
    timeout 240 python3 -m transpiler "$prog" --check --device "$DEVICE" "${extra[@]}" </dev/null >"$log" 2>&1
    rc=$?
    local status=PASS
    [ $rc = 0 ] || status=FAIL
    [ $rc = 124 ] && status=TIMEOUT
    echo "$prog $target $status $((SECONDS - t0))"
}
export -f golden_one
export LOG DEVICE

if [ "$DO_GOLDEN" = 1 ]; then
    echo "== (a) golden programs: --check --device $DEVICE, cuTile and CUDA  [$(left) s left]"
    ls examples/*.bas examples/kernels/*.bas | while read -r p; do echo "$p cutile"; echo "$p cuda"; done |
        xargs -P 8 -n 2 bash -c 'golden_one "$0" "$1"' >"$LOG/golden/results.txt"
    sort -o "$LOG/golden/results.txt" "$LOG/golden/results.txt"
fi

# ----------------------------------------------------------------------------------------------
# (b) GPU benchmarks
bench_rc=0
if [ "$DO_BENCH" = 1 ]; then
    budget=$(($(left) - 20))
    [ "$budget" -lt 60 ] && budget=60
    mode=$QUICK
    [ "$DEVICE" = cpu ] && mode=--dry-run
    echo "== (b) bench/gpu_bench.py $mode --budget $budget"
    timeout $((budget + 60)) python3 bench/gpu_bench.py $mode --budget "$budget" \
        --json "$LOG/gpu_bench.json" 2>"$LOG/gpu_bench.stderr" | tee "$LOG/gpu_bench.txt"
    bench_rc=${PIPESTATUS[0]}
    [ "$bench_rc" = 0 ] || { echo "gpu_bench.py exited $bench_rc; its stderr (tail):"; tail -25 "$LOG/gpu_bench.stderr"; }
fi

# ----------------------------------------------------------------------------------------------
# (c) several GPUs: every kernel example split across one Dask worker per GPU
multi_rc=0
GPUS=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)
[ -n "${GPU_CHECK_WORKERS:-}" ] && GPUS=$GPU_CHECK_WORKERS  # GPU_CHECK_DEVICE=cpu tests this step
if [ "$DO_GOLDEN" = 1 ] && [ "${GPUS:-0}" -ge 2 ]; then
    multi_rc=1
    echo "== (c) $GPUS GPUs: kernel examples split across $GPUS Dask workers, one per GPU  [$(left) s left]"
    if python3 -c "import dask.distributed" 2>/dev/null; then
        multi_rc=0
        port=$((8786 + RANDOM % 1000))
        python3 -m distributed.cli.dask_scheduler --host 127.0.0.1 --port "$port" \
            --no-dashboard >"$LOG/dask_scheduler.log" 2>&1 &
        pids=($!)
        sleep 3
        # What dask-cuda's LocalCUDACluster does, without it: one worker per GPU, each seeing
        # only its own through CUDA_VISIBLE_DEVICES.
        for ((g = 0; g < GPUS; g++)); do
            CUDA_VISIBLE_DEVICES=$([ "$DEVICE" = gpu ] && echo $g || echo "") \
                python3 -m distributed.cli.dask_worker "tcp://127.0.0.1:$port" --nthreads 1 \
                --no-dashboard --name "gpu$g" >"$LOG/dask_worker$g.log" 2>&1 &
            pids+=($!)
        done
        sleep 5
        for prog in examples/kernels/*.bas; do
            grep -q OUTPUT "$prog" || continue
            log=$LOG/multi_$(basename "$prog" .bas).log
            if timeout 240 python3 -m transpiler "$prog" --run --device "$DEVICE" \
                --scheduler "tcp://127.0.0.1:$port" </dev/null >"$log" 2>&1 &&
                grep -q "verification: PASSED" "$log"; then
                echo "$prog split across $GPUS workers: PASS"
            else
                echo "$prog split across $GPUS workers: FAIL (log $log)"
                tail -5 "$log"
                multi_rc=1
            fi
        done
        for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
        wait "${pids[@]}" 2>/dev/null
        if [ "$DO_BENCH" = 1 ] && python3 -c "import dask_cuda" 2>/dev/null; then
            echo "== (c) bench/distributed.py --device $DEVICE --cuda --workers $GPUS"
            timeout 300 python3 bench/distributed.py --device "$DEVICE" --cuda --workers "$GPUS" $QUICK
        fi
    else
        echo "Dask is not installed (.whl/ lacks the [distributed] extra: rerun bench/gpu_wheels.sh)"
    fi
elif [ "$DO_GOLDEN" = 1 ]; then
    echo "== (c) multi-GPU step skipped: nvidia-smi -L lists ${GPUS:-0} GPU(s)"
fi

# ----------------------------------------------------------------------------------------------
echo
echo "== summary ($((SECONDS - START)) s; logs in $LOG)"
golden_failed=0
if [ "$DO_GOLDEN" = 1 ]; then
    printf '%-36s %-16s %-16s\n' program cuTile CUDA
    awk '{ st[$1, $2] = $3 " (" $4 " s)"; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
         END { for (i = 1; i <= n; i++) printf "%-36s %-16s %-16s\n", order[i], st[order[i], "cutile"], st[order[i], "cuda"] }' \
        "$LOG/golden/results.txt"
    pass=$(grep -c ' PASS ' "$LOG/golden/results.txt")
    total=$(wc -l <"$LOG/golden/results.txt")
    echo "golden: $pass of $total passed"
    [ "$pass" = "$total" ] || golden_failed=1
    for f in $(awk '$3 != "PASS" { print $1 "|" $2 }' "$LOG/golden/results.txt" | head -6); do
        prog=${f%|*} target=${f#*|}
        log=$LOG/golden/$(basename "$(dirname "$prog")")_$(basename "$prog" .bas).$target.log
        echo "--- $prog ($target), last lines of $log:"
        tail -8 "$log"
    done
fi
if [ "$DO_BENCH" = 1 ]; then
    echo "benchmarks: see the table above (bench/gpu_bench.py exit status $bench_rc)"
fi
[ "$multi_rc" = 0 ] || echo "multi-GPU step (c): FAILED (see above)"
[ "$golden_failed" = 0 ] && [ "$bench_rc" = 0 ] && [ "$multi_rc" = 0 ]
