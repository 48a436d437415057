"""The `basic2tile` command line.

Every diagnostic about the user's program is printed as `file:line:col: error: ...`
with the source line and a caret, exit status 1.  A bug in basic2tile is printed as
`internal error` with the location being processed, exit status 2.  Never a traceback
(set BASIC2TILE_TRACEBACK=1 to see one when debugging basic2tile itself).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from . import __version__
from .errors import BasicError, CompileErrors, Coord, InternalError, SourceFile, current_coord
from .options import Options


def build_arg_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="basic2tile",
        description="Translate BASIC to cuTile Python (.py) or CUDA C++ (.cu), or run it.",
    )
    p.add_argument("--version", action="version", version=f"basic2tile {__version__}")
    p.add_argument("source", metavar="PROG.bas", help="the BASIC program")
    p.add_argument("-o", "--output", metavar="OUT", help="write generated code (.py or .cu)")
    p.add_argument(
        "--target",
        choices=("cutile", "cuda"),
        help="code to generate (default: from the -o suffix, else cutile)",
    )
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--interpret", action="store_true", help="run with the reference interpreter")
    mode.add_argument("--run", action="store_true", help="translate, then run the generated program")
    mode.add_argument(
        "--check",
        action="store_true",
        help="run the generated program and the interpreter; exit 1 with a diff if they differ",
    )
    mode.add_argument("--explain", action="store_true", help="show the offload decision per loop")
    mode.add_argument(
        "--emit",
        choices=("tileir", "cubin", "ptx"),
        help="compile the generated kernels with NVIDIA's compiler (needs the [nvidia] extra)",
    )
    p.add_argument("--html", metavar="REPORT.html", help="write a side-by-side review page")
    p.add_argument("--device", choices=("cpu", "gpu"), help="where --run/--check execute kernels")
    p.add_argument("--arch", default="sm_90", help="GPU architecture for --emit (default sm_90)")
    p.add_argument(
        "--std",
        choices=("extended", "ecma55"),
        default="extended",
        help="language level: extended (default) or strict ECMA-55 Minimal BASIC",
    )
    p.add_argument("--precision", choices=("f32", "f64"), help="numeric element type")
    p.add_argument("--max-steps", type=int, metavar="N", help="stop the interpreter after N statements")
    p.add_argument(
        "--tile",
        metavar="T|TxT",
        help="tile shape for offloaded loops (powers of two), e.g. 256 or 32x32",
    )
    p.add_argument(
        "--no-offload", action="store_true", help="keep every loop on the host (no kernels)"
    )
    p.add_argument(
        "--size",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="INPUT scalar of a cuTile BASIC kernel program for --interpret/--run/--check",
    )
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_arg_parser().parse_args(argv)
    source: SourceFile | None = None
    try:
        try:
            source = SourceFile.read(args.source)
        except OSError as exc:
            print(f"{args.source}: error: cannot read: {exc.strerror}", file=sys.stderr)
            return 1
        options = Options(std=args.std, precision=args.precision, max_steps=args.max_steps)
        return _dispatch(args, source, options)
    except CompileErrors as errs:
        print(errs.render(source), file=sys.stderr)
        return 1
    except InternalError as err:
        print(err.render(source), file=sys.stderr)
        return 2
    except BasicError as err:
        print(err.render(source), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("basic2tile: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # `basic2tile prog.bas --interpret | head` must not print a traceback.
        _silence_stdout()
        return 1
    except Exception as exc:  # noqa: BLE001 - the CLI must never show a traceback
        if os.environ.get("BASIC2TILE_TRACEBACK"):
            raise
        coord = current_coord()
        if coord.line == 0 and source is not None:
            coord = Coord(source.name, 0, 0)
        err = InternalError(f"{type(exc).__name__}: {exc}", coord)
        print(err.render(source), file=sys.stderr)
        print("  note: this is a bug in basic2tile; please report it", file=sys.stderr)
        return 2


def _silence_stdout() -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def _dispatch(args: argparse.Namespace, source: SourceFile, options: Options) -> int:
    from . import driver

    if args.output and Path(args.output).resolve() == Path(args.source).resolve():
        raise BasicError(
            "refusing to overwrite the input file (-o names the source)", Coord(args.source, 0, 0)
        )
    target = args.target or ("cuda" if args.output and args.output.endswith(".cu") else "cutile")
    tile = _parse_tile(args.tile, source) if args.tile else None
    sizes = _parse_sizes(args.size, source)
    analysis = driver.front_end(source, options)
    if args.interpret:
        return driver.interpret(analysis, sizes=sizes)
    if args.explain:
        from .explain import explain

        print(explain(analysis, tile=tile, offload=not args.no_offload))
        return 0
    code = driver.generate(analysis, target, tile, offload=not args.no_offload)
    if args.output:
        try:
            driver.write_atomically(args.output, code)
        except OSError as exc:
            raise BasicError(f"cannot write {args.output}: {exc.strerror}", Coord(args.output, 0, 0)) from None
        stem = Path(args.output).stem
        if args.output.endswith(".py") and driver.shadows_a_module(stem):
            print(
                f"basic2tile: warning: {args.output} has the name of the Python module "
                f"'{stem}': run as a script it would hide that module; choose another name",
                file=sys.stderr,
            )
    if args.html:
        from .report import write_report

        write_report(analysis, args.html, tile=tile)
    if args.emit:
        for path in driver.emit_binaries(analysis, code, target, args.emit, args.arch, args.output):
            print(f"wrote {path}", file=sys.stderr)
        return 0
    if args.run:
        sys.stdout.flush()
        return driver.run(analysis, code, target, args.device, sizes=sizes, capture=False).returncode
    if args.check:
        return driver.check(analysis, code, target, args.device, sizes=sizes, out=sys.stdout)
    if not args.output and not args.html:
        sys.stdout.write(code)
    return 0


def _parse_tile(text: str, source: SourceFile) -> tuple[int, ...]:
    try:
        shape = tuple(int(part) for part in text.lower().split("x"))
    except ValueError:
        shape = ()
    if not shape or len(shape) > 2 or any(n < 1 or n & (n - 1) for n in shape):
        raise BasicError(
            f"--tile {text}: expected a power of two or two of them, e.g. 256 or 32x32",
            Coord(source.name, 0, 0),
        )
    return shape


def _parse_sizes(items: list[str], source: SourceFile) -> dict[str, float]:
    sizes: dict[str, float] = {}
    for item in items:
        name, sep, value = item.partition("=")
        try:
            number = float(value)
        except ValueError:
            sep = ""
        if not sep or not name.strip():
            raise BasicError(f"--size {item}: expected NAME=VALUE", Coord(source.name, 0, 0))
        sizes[name.strip().upper()] = int(number) if number == int(number) else number
    return sizes
