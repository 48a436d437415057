#!/usr/bin/env bash
# Download, HERE (a machine with PyPI), what the GPU machine lacks, into .whl/ at the
# repository root, for bench/gpu_check.sh to install there without a network.
#
#     bash bench/gpu_wheels.sh          # what gpu_check.sh needs (about 63 MiB)
#     bash bench/gpu_wheels.sh --all    # also pygments (only for --html) and black (tests)
#     WITH_NUMPY=1 bash bench/gpu_wheels.sh   # also numpy (the GPU image has its own)
#
# The GPU image (one H200) has python3 3.12 with torch, cupy-cuda13x, numpy, cuda-bindings,
# nvidia-cuda-nvrtc, nvcc 13 and pytest; it lacks the rest of basic2tile's run-time
# dependencies and NVIDIA's Tile IR compiler.  What is fetched:
#
#  * the run-time dependencies of pyproject.toml ([project] dependencies, markers evaluated
#    for CPython 3.12 on Linux x86_64), numpy excepted, with their own dependencies; versions:
#    those of constraints.txt (the versions CI tests).  Python 3.12 manylinux x86_64 wheels;
#  * the [distributed] extra (dask, distributed and their dependencies) for the multi-GPU step;
#  * cuda-tile's [tileiras] extra.  As NVIDIA ships it, that is three wheels of 154 MiB
#    (nvidia-cuda-tileiras, nvidia-cuda-nvcc and nvidia-nvvm carry a whole compiler driver),
#    more than the 64 MiB that a device run can carry.  cuda.tile JIT-compiles each kernel
#    at its first launch by running nvidia/cu13/bin/tileiras (after checking that those three
#    distributions are installed, of one major.minor version), and tileiras needs only ptxas
#    and libnvvm beside it: checked here, every example kernel compiles to an sm_90 cubin
#    with just these files, and it fails with CUDA 13.0's ptxas (the image's nvcc may be
#    that old).  The version is constraints.txt's nvidia-cuda-runtime pin.
#
# The wheels whose payload is one large native binary (ruff, clang-format) and the tileiras
# files go into one archive, .whl/tools-kit.tar.xz (xz with the x86 filter: 25% smaller than
# the wheels' zip), as the tree that `pip install --target` makes; gpu_check.sh unpacks it
# into its --target folder after installing the remaining .whl/*.whl.  The kit holds:
#   ruff and clang-format as installed by pip, nvidia/cu13/bin/{tileiras,ptxas},
#   nvidia/cu13/lib/libnvvm.so.4, nvidia/cu13/nvvm/libdevice/, the three NVIDIA packages'
#   dist-info (METADATA, WHEEL, license), and the CUDA headers of nvidia-cuda-runtime and
#   nvidia-cuda-crt (for NVRTC when the GPU image has none).
# It is rebuilt only when its list of versions (.whl/tools-kit.txt) changes: xz takes minutes.
#
# .whl/ is kept out of git through .git/info/exclude (added below if missing).
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python3}
DEST=.whl
EXCLUDE=$(git rev-parse --git-path info/exclude 2>/dev/null || echo .git/info/exclude)
if ! grep -qxF '/.whl/' "$EXCLUDE" 2>/dev/null; then
    mkdir -p "$(dirname "$EXCLUDE")"
    echo /.whl/ >>"$EXCLUDE"
fi

WITH_ALL=0
for arg in "$@"; do
    case "$arg" in
    --all) WITH_ALL=1 ;;
    *) echo "usage: $0 [--all]" >&2; exit 2 ;;
    esac
done

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# The requirement lists, from pyproject.toml: $scratch/reqs (wheels and the kit's Python
# packages), $scratch/kit-reqs (the NVIDIA wheels the kit is cut from).
WITH_ALL=$WITH_ALL WITH_NUMPY=${WITH_NUMPY:-0} "$PY" - "$scratch" <<'PYEOF'
import os, sys, tomllib
from pathlib import Path
from pip._vendor.packaging.requirements import Requirement
from pip._vendor.packaging.specifiers import SpecifierSet

scratch = Path(sys.argv[1])
project = tomllib.loads(Path("pyproject.toml").read_text())["project"]
env = {"python_version": "3.12", "python_full_version": "3.12.0", "sys_platform": "linux",
       "platform_system": "Linux", "platform_machine": "x86_64", "os_name": "posix",
       "implementation_name": "cpython", "platform_python_implementation": "CPython", "extra": ""}
IMAGE_HAS = {"numpy"} if os.environ["WITH_NUMPY"] != "1" else set()
OPTIONAL = {"pygments"}  # only for --html; pytest (in the image) depends on it anyway
FROM_REPO = {"basic2tile-runtime"}  # runtime/, on gpu_check.sh's PYTHONPATH

def applicable(reqs):
    for text in reqs:
        req = Requirement(text)
        if req.marker is None or req.marker.evaluate(env):
            yield req

wanted = []
for req in applicable(project["dependencies"]):
    name = req.name.lower()
    if name in FROM_REPO:
        print(f"  leaving out {req} (this repository's runtime/ folder)")
        continue
    if name in IMAGE_HAS or (name in OPTIONAL and os.environ["WITH_ALL"] != "1"):
        print(f"  leaving out {req} (the GPU image has it, or gpu_check.sh does not need it)")
        continue
    wanted.append(f"{req.name}{req.specifier}")
if os.environ["WITH_ALL"] == "1":
    wanted += [str(r) for r in applicable(project["optional-dependencies"]["test"]) if r.name == "black"]
# The [distributed] extra (Dask, a few MiB): gpu_check.sh's multi-GPU step (c).
wanted += [f"{r.name}{r.specifier}" for r in applicable(project["optional-dependencies"]["distributed"])]

# The tileiras kit: constraints.txt's nvidia-cuda-runtime version, which must
# satisfy cuda-tile[tileiras]'s cuda-toolkit range (checked by pip when it resolves below).
nvidia = {r.name: r for r in applicable(project["optional-dependencies"]["nvidia"])}
pins = dict(line.split(";")[0].strip().split("==") for line in Path("constraints.txt").read_text().splitlines()
            if "==" in line and not line.startswith("#"))
version = pins["nvidia-cuda-runtime"]
kit = [f"{n}=={version}" for n in ("nvidia-cuda-tileiras", "nvidia-cuda-nvcc", "nvidia-nvvm",
                                    "nvidia-cuda-runtime", "nvidia-cuda-crt")]
tile = nvidia["cuda-tile"]
(scratch / "reqs").write_text("\n".join(wanted) + "\n")
(scratch / "kit-reqs").write_text("\n".join(kit) + "\n")
print("  wheels:", " ".join(wanted))
print("  tileiras kit from:", " ".join(kit), f"(for {tile})")
PYEOF

# The versions CI tests (constraints.txt), for the 3.12 image.
grep -v 'python_version < "3.11"' constraints.txt | sed 's/; python_version >= "3.11"//' >"$scratch/constraints"
constraints=(-c "$scratch/constraints")

download() {  # download DEST [--no-deps] REQUIREMENT...
    local dest=$1
    shift
    # pure-Python (py3-none-any) wheels are accepted under these --platform options too.
    "$PY" -m pip download -q --disable-pip-version-check --only-binary=:all: \
        --python-version 3.12 --implementation cp --abi cp312 --abi abi3 --abi none \
        --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 \
        --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
        --platform manylinux_2_12_x86_64 --platform manylinux2010_x86_64 \
        --platform manylinux_2_5_x86_64 --platform manylinux1_x86_64 \
        -d "$dest" "$@" 2> >(grep -v "is ignored: it is neither a file nor a directory" >&2)
}

mapfile -t REQS <"$scratch/reqs"
mapfile -t KIT_REQS <"$scratch/kit-reqs"
download "$scratch/wheels" "${constraints[@]}" "${REQS[@]}"
# numpy must not come in through a dependency either (the image's numpy is the one torch
# and cupy were built against).
[ "${WITH_NUMPY:-0}" = 1 ] || rm -f "$scratch"/wheels/numpy-*.whl

# Native-binary wheels go into the kit; the rest stay wheels.
mkdir -p "$scratch/kit-wheels" "$scratch/tree"
for big in ruff clang_format; do
    mv "$scratch"/wheels/"$big"-*.whl "$scratch/kit-wheels/" 2>/dev/null || true
done
"$PY" -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: \
    --python-version 3.12 --implementation cp --platform manylinux2014_x86_64 \
    --platform manylinux_2_17_x86_64 --platform manylinux2010_x86_64 --platform manylinux_2_12_x86_64 \
    -d "$scratch/nvidia" "${KIT_REQS[@]}" \
    2> >(grep -v "is ignored: it is neither a file nor a directory" >&2)
# cuda-tile[tileiras] must accept that version of the toolkit.
"$PY" - "$scratch" <<'PYEOF'
import sys, zipfile
from pathlib import Path
from pip._vendor.packaging.requirements import Requirement
scratch = Path(sys.argv[1])
(tile,) = (scratch / "wheels").glob("cuda_tile-*.whl")
kit = next((scratch / "nvidia").glob("nvidia_cuda_tileiras-*.whl")).name.split("-")[1]
with zipfile.ZipFile(tile) as z:
    meta = z.read(next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))).decode()
for line in meta.splitlines():
    if line.startswith("Requires-Dist:") and "tileiras" in line and "extra" in line:
        req = Requirement(line.split(":", 1)[1].strip())
        if req.name == "cuda-toolkit" and kit not in req.specifier:
            sys.exit(f"{tile.name} wants {req}, the kit would be {kit}")
        print(f"  {tile.name}: {req} accepts the kit's {kit}")
PYEOF

manifest=$( (cd "$scratch" && ls kit-wheels nvidia) | grep '\.whl$' | sort)
mkdir -p "$DEST"
if [ -s "$DEST/tools-kit.tar.xz" ] && [ "$(cat "$DEST/tools-kit.txt" 2>/dev/null)" = "$manifest" ]; then
    echo "kept $DEST/tools-kit.tar.xz (same versions)"
else
    echo "packing $DEST/tools-kit.tar.xz (xz -9 with the x86 filter: a few minutes)"
    "$PY" -m pip install -q --disable-pip-version-check --root-user-action=ignore --no-deps --no-compile --no-index \
        --only-binary=:all: --python-version 3.12 --implementation cp --platform manylinux_2_28_x86_64 \
        --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
        --target "$scratch/tree" "$scratch"/kit-wheels/*.whl
    "$PY" - "$scratch/nvidia" "$scratch/tree" <<'PYEOF'
import sys, zipfile
from pathlib import Path
wheels, tree = Path(sys.argv[1]), Path(sys.argv[2])
KEEP = {"nvidia/cu13/bin/tileiras", "nvidia/cu13/bin/ptxas", "nvidia/cu13/lib/libnvvm.so.4",
        "nvidia/cu13/nvvm/libdevice/libdevice.10.bc"}
METADATA_OF = ("nvidia_cuda_tileiras", "nvidia_cuda_nvcc", "nvidia_nvvm")
HEADERS_OF = ("nvidia_cuda_runtime", "nvidia_cuda_crt")
for whl in sorted(wheels.glob("*.whl")):
    with zipfile.ZipFile(whl) as z:
        for info in z.infolist():
            name, top = info.filename, info.filename.split("/")[0]
            keep = (name in KEEP
                    or (name.startswith("nvidia/cu13/include/") and whl.name.startswith(HEADERS_OF))
                    or (top.endswith(".dist-info") and top.startswith(METADATA_OF)
                        and name.split("/", 1)[1] in ("METADATA", "WHEEL", "licenses/License.txt")))
            if keep and not info.is_dir():
                z.extract(info, tree)
                if name.startswith("nvidia/cu13/bin/"):
                    (tree / name).chmod(0o755)
missing = sorted(f for f in KEEP if not (tree / f).is_file())
if missing:
    sys.exit(f"missing from the NVIDIA wheels: {missing}")
PYEOF
    tar -C "$scratch/tree" --owner=0 --group=0 -cf - . | xz --x86 --lzma2=preset=9 -T0 >"$DEST/tools-kit.tar.xz.tmp"
    mv "$DEST/tools-kit.tar.xz.tmp" "$DEST/tools-kit.tar.xz"
    echo "$manifest" >"$DEST/tools-kit.txt"
fi

# The wheels: exactly this run's (an earlier run's other versions are dropped).
rm -f "$DEST"/*.whl
cp "$scratch"/wheels/*.whl "$DEST/"

echo "in $DEST/ (tools-kit.tar.xz made from: $(echo $manifest))"
ls -l "$DEST" | awk 'NR > 1 { printf "  %8.2f MiB  %s\n", $5 / 1048576, $9; total += $5 }
    END { printf "total: %.2f MiB (a device run carries at most 64 MiB)\n", total / 1048576
          if (total > 64 * 1048576) print "WARNING: over 64 MiB" }'
