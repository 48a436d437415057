"""The `basic2tile` command line.

Every diagnostic about the user's program is printed as `file:line:col: error: ...`
with the source line and a caret, exit status 1.  A bug in basic2tile is printed as
`internal error` with the location being processed, exit status 2.  Never a traceback
(set BASIC2TILE_TRACEBACK=1 to see one when debugging basic2tile itself).

Option values are checked when the arguments are parsed (argparse: the usage line, exit
status 2).  As a Unix tool: `-` reads the program from stdin and `-o -` writes to
stdout; a reader that goes away (`| head`) ends the command silently with status 141,
as SIGPIPE ends a C tool; Ctrl-C and SIGTERM stop the generated program of --run or
--check too, remove the temporary files and end with one line and status 130 or 143;
a closed or full standard output is an error (process.py).
"""

from __future__ import annotations

import argparse
import math
import os
import re
import signal
import sys
from pathlib import Path

from . import __version__
from .errors import (
    STDIN_PATH,
    BasicError,
    CompileErrors,
    Coord,
    InternalError,
    SourceFile,
    current_coord,
)
from .options import DIALECTS, Options, parse_size

# cuTile rejects tiles of more than 2**24 elements.
MAX_TILE_ELEMENTS = 1 << 24
# Exit statuses of a command ended by these signals, as a shell reports them.
INTERRUPTED, BROKEN_PIPE, TERMINATED = 128 + 2, 128 + 13, 128 + 15


class _Parser(argparse.ArgumentParser):
    """A usage error is the one line that says what is wrong, and where to read more:
    the whole usage would push that line out of sight."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message}\ntry '{self.prog} --help'\n")


def build_arg_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="basic2tile",
        description="Translate BASIC to cuTile Python (.py) or CUDA C++ (.cu), or run it.",
    )
    p.add_argument("--version", action="version", version=f"basic2tile {__version__}")
    p.add_argument(
        "--include-dir",
        action=_PrintIncludeDir,
        help="print the folder of basic2tile's CUDA headers (for g++/nvcc -I) and exit",
    )
    p.add_argument("source", metavar="PROG.bas", help="the BASIC program (- reads stdin)")
    p.add_argument(
        "-o", "--output", metavar="OUT", help="write generated code (.py or .cu; - for stdout)"
    )
    p.add_argument(
        "--target",
        choices=("cutile", "cuda"),
        help="code to generate (default: from the -o suffix, else cutile)",
    )
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--interpret", action="store_true", help="run with the reference interpreter")
    mode.add_argument(
        "--run", action="store_true", help="translate, then run the generated program"
    )
    mode.add_argument(
        "--check",
        action="store_true",
        help="run the generated program and the interpreter; exit 1 with a diff if they differ",
    )
    mode.add_argument("--explain", action="store_true", help="show the offload decision per loop")
    mode.add_argument(
        "--dump-tokens", action="store_true", help="print the tokens, with their locations"
    )
    mode.add_argument(
        "--dump-ast", action="store_true", help="print the syntax tree, with locations"
    )
    mode.add_argument(
        "--dump-analyzed",
        action="store_true",
        help="print the typed kernel IR (legacy programs: variable types, offloaded kernels)",
    )
    mode.add_argument(
        "--emit",
        choices=("tileir", "cubin", "ptx"),
        help="compile the generated kernels with NVIDIA's compiler (needs the [nvidia] extra)",
    )
    p.add_argument("--html", metavar="REPORT.html", help="write a side-by-side review page")
    p.add_argument("--device", choices=("cpu", "gpu"), help="where --run/--check execute kernels")
    p.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help="--run a kernel program's grid split across a local Dask cluster of N workers "
        "(needs basic2tile[distributed]; manual: docs/beyond-one-gpu.md)",
    )
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="--run a kernel program's grid split across the Dask cluster at ADDRESS",
    )
    p.add_argument(
        "--arch",
        type=_arch,
        default="sm_90",
        help="GPU architecture for --emit, sm_80 or later (default sm_90)",
    )
    p.add_argument(
        "--dialect",
        "--std",
        dest="std",
        choices=DIALECTS,
        help="the BASIC dialect: extended (the default, unless a construct of one dialect "
        "pins it), ecma55 (strict ECMA-55 Minimal BASIC), ms (GW-BASIC, MBASIC), dartmouth, "
        "qbasic (QuickBASIC, QBasic), applesoft, commodore (Commodore BASIC V2), msx: ms with "
        "that machine's numbers and two-character names",
    )
    p.add_argument(
        "--name-chars",
        type=_positive_int,
        metavar="N",
        help="only the first N characters of a variable's name count (2: Applesoft and "
        "Commodore BASIC, where SCORE and SC are one variable)",
    )
    p.add_argument(
        "--precision",
        choices=("f32", "f64", "tf32"),
        help="numeric element type (tf32: f32, with matrix products on the tensor cores' "
        "TensorFloat-32 operands)",
    )
    p.add_argument(
        "--max-steps",
        type=_positive_int,
        metavar="N",
        help="stop the interpreter after N statements (--interpret, --check)",
    )
    p.add_argument(
        "--timeout",
        type=_seconds,
        metavar="SECONDS",
        help="stop the generated program of --run or --check after SECONDS",
    )
    p.add_argument(
        "--tile",
        type=_tile,
        metavar="T|TxT|TxTxT",
        help="tile shape for offloaded loops (powers of two), e.g. 256, 32x32 or 8x8x8",
    )
    p.add_argument(
        "--no-offload", action="store_true", help="keep every loop on the host (no kernels)"
    )
    p.add_argument(
        "--size",
        type=_size,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="INPUT scalar of a cuTile BASIC kernel program for --interpret/--run/--check",
    )
    return p


class _PrintIncludeDir(argparse.Action):
    """--include-dir: print the headers' folder and exit, as --version prints the version."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        from .verify.cuda_headers import b2t_include_dir

        print(b2t_include_dir())
        parser.exit()


# ---------------------------------------------------------------------- option values


def _arch(text: str) -> str:
    match = re.fullmatch(r"sm_(\d{2,3})[af]?", text)
    if not match or int(match.group(1)) < 80:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a GPU architecture of compute capability 8.0 or later "
            "(e.g. sm_80, sm_90, sm_90a, sm_100)"
        )
    return text


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of 1 or more")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds above 0")
    return value


def _tile(text: str) -> tuple[int, ...]:
    try:
        shape = tuple(int(part) for part in text.lower().split("x"))
    except ValueError:
        shape = ()
    if not shape or len(shape) > 3 or any(n < 1 or n & (n - 1) for n in shape):
        raise argparse.ArgumentTypeError(
            f"{text!r}: expected a power of two, or two or three of them, e.g. 256, 32x32 or 8x8x8"
        )
    if math.prod(shape) > MAX_TILE_ELEMENTS:
        raise argparse.ArgumentTypeError(
            f"{text!r}: a tile has at most {MAX_TILE_ELEMENTS} (2**24) elements"
        )
    return shape


def _size(text: str) -> tuple[str, int | float]:
    try:
        return parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _target(args: argparse.Namespace) -> str:
    if args.target:
        return args.target
    return "cuda" if args.output and args.output.endswith(".cu") else "cutile"


def _check_combinations(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Options that make no sense together: a usage error rather than one ignored."""
    if args.max_steps is not None and args.run:
        parser.error(
            "--max-steps counts the interpreter's statements (--interpret, --check); "
            "limit --run with --timeout SECONDS"
        )
    suffix = Path(args.output).suffix if args.output and args.output != STDIN_PATH else ""
    written = {".py": "cutile", ".cu": "cuda"}.get(suffix)
    if args.target and written and written != args.target:
        parser.error(
            f"-o {args.output} is a {suffix} file; --target {args.target} writes "
            f"{'.cu' if args.target == 'cuda' else '.py'}"
        )
    if args.timeout is not None and not (args.run or args.check):
        parser.error("--timeout limits the generated program of --run or --check")
    if args.emit:
        wanted = "cuda" if args.emit == "ptx" else "cutile" if args.emit == "tileir" else None
        if wanted and _target(args) != wanted:
            parser.error(f"--emit {args.emit} is for --target {wanted}")
        if args.output == STDIN_PATH:
            parser.error("--emit writes its files beside -o, which cannot be - (stdout)")
    if args.html == STDIN_PATH:
        parser.error("--html needs a file name")
    if args.workers is not None or args.scheduler:
        if not args.run or _target(args) != "cutile":
            parser.error(
                "--workers and --scheduler split the kernel program of --run --target cutile"
            )
        if args.workers is not None and args.workers < 1:
            parser.error(f"--workers needs 1 or more, not {args.workers}")
    if args.output and args.html and os.path.realpath(args.output) == os.path.realpath(args.html):
        parser.error("-o and --html name the same file")


# ---------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    from .run.process import reopen_closed_standard_streams, sigterm_raises

    reopen_closed_standard_streams()
    parser = build_arg_parser()
    args = parser.parse_args(argv)
    _check_combinations(parser, args)
    with sigterm_raises():
        return _main(args)


def _main(args: argparse.Namespace) -> int:
    from .run.process import ChildTimeout, Terminated

    source: SourceFile | None = None
    try:
        try:
            source = SourceFile.read(args.source)
        except OSError as exc:
            print(f"{args.source}: error: cannot read: {exc.strerror}", file=sys.stderr)
            return 1
        options = Options(
            std=args.std,
            precision=args.precision,
            max_steps=args.max_steps,
            name_chars=args.name_chars,
        )
        status = _dispatch(args, source, options)
        sys.stdout.flush()  # a full disk or a closed stdout must fail here, not at exit
        return status
    except CompileErrors as errs:
        print(errs.render(source), file=sys.stderr)
        return 1
    except InternalError as err:
        print(err.render(source), file=sys.stderr)
        return 2
    except BasicError as err:
        print(err.render(source), file=sys.stderr)
        return 1
    except ChildTimeout as exc:
        name = source.name if source else args.source
        print(f"{name}: error: the generated program {exc} (--timeout)", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("basic2tile: interrupted", file=sys.stderr)
        return INTERRUPTED
    except Terminated:
        print("basic2tile: terminated", file=sys.stderr)
        return TERMINATED
    except BrokenPipeError:
        _silence_stdout()
        return BROKEN_PIPE
    except OSError as exc:
        # A stream or file the system would not read or write: not a bug of ours.
        print(f"basic2tile: error: {_os_error_text(exc)}", file=sys.stderr)
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


def _os_error_text(exc: OSError) -> str:
    from .runtime.command import stream_error_text

    if exc.filename:
        return f"{exc.filename}: {exc.strerror}"
    if exc.errno is not None and exc.strerror:
        return stream_error_text(exc)  # only the standard streams have no file name
    return str(exc)


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that flushing it at exit cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - for the rest of the process


def _dispatch(args: argparse.Namespace, source: SourceFile, options: Options) -> int:
    from .passes.check.expression_depth import deep_recursion

    with deep_recursion():  # --explain and --html walk expressions too
        return _modes(args, source, options)


def _modes(args: argparse.Namespace, source: SourceFile, options: Options) -> int:
    from . import driver
    from .run.outfiles import check_headers_beside, check_output, write_headers_beside, write_output

    target = _target(args)
    protected = [] if args.source == STDIN_PATH else [args.source]
    to_file = args.output if args.output not in (None, STDIN_PATH) else None
    for path in (to_file, args.html):
        if path:
            check_output(path, protected)  # before any work, and before writing anything
    if to_file and target == "cuda":
        check_headers_beside(to_file, protected)
    sizes = dict(args.size)
    if args.dump_tokens or args.dump_ast:
        from .reports import dumps

        sys.stdout.write(
            dumps.dump_tokens(source, options)
            if args.dump_tokens
            else dumps.dump_ast(driver.parse_program(source, options))
        )
        return 0
    analysis = driver.front_end(source, options)
    for note in analysis.notes:
        print(note, file=sys.stderr)
    if args.dump_analyzed:
        from .reports.dumps import dump_analyzed

        sys.stdout.write(dump_analyzed(analysis))
        return 0
    if analysis.kind == "kernel":
        # A kernel program states its own tiles (TILE) and is one kernel by definition.
        for flag, given in (("--tile", args.tile), ("--no-offload", args.no_offload)):
            if given:
                print(
                    f"basic2tile: note: {flag} does not apply to a cuTile BASIC kernel "
                    "program (its TILE statement sets the tiles; it is one kernel): ignored",
                    file=sys.stderr,
                )
    if sizes and analysis.kind != "kernel":
        raise BasicError(
            "--size gives INPUT scalars of cuTile BASIC kernel programs; this program reads "
            "its INPUT from stdin",
            Coord(source.name, 0, 0),
        )
    if args.interpret:
        return driver.interpret(analysis, sizes=sizes)
    if args.explain:
        from .reports.explain import explain

        print(explain(analysis, tile=args.tile, offload=not args.no_offload))
        return 0
    file_name = Path(to_file).name if to_file and target == "cuda" else None
    code = driver.generate(analysis, target, args.tile, not args.no_offload, file_name)
    if to_file:
        write_output(to_file, code, protected)
        if target == "cuda":
            for note in write_headers_beside(to_file, code, protected):
                print(f"basic2tile: note: {note}", file=sys.stderr)
        stem = Path(to_file).stem
        if to_file.endswith(".py") and driver.shadows_a_module(stem):
            print(
                f"basic2tile: warning: {to_file} has the name of the Python module "
                f"'{stem}': run as a script it would hide that module; choose another name",
                file=sys.stderr,
            )
    if args.html:
        from .reports.report import write_report

        write_report(
            analysis, args.html, tile=args.tile, protected=protected, offload=not args.no_offload
        )
    if args.emit:
        for path in driver.emit_binaries(
            analysis, code, target, args.emit, args.arch, to_file, protected
        ):
            print(f"wrote {path}", file=sys.stderr)
        return 0
    if args.run:
        sys.stdout.flush()
        result = driver.run(
            analysis, code, target, args.device, sizes=sizes, capture=False, timeout=args.timeout,
            split=_split_args(args, analysis),
        )  # fmt: skip
        # What was captured (a CUDA kernel program's self-test report) is shown here.
        if result.stdout:
            sys.stdout.write(result.stdout)
        if result.stderr:
            sys.stderr.write(result.stderr)
        return _child_status(result.returncode)
    if args.check:
        return driver.check(
            analysis, code, target, args.device, sizes=sizes, out=sys.stdout, timeout=args.timeout
        )
    if args.output == STDIN_PATH or (not args.output and not args.html):
        sys.stdout.write(code)
    return 0


def _split_args(args: argparse.Namespace, analysis) -> list[str]:
    """The self-test's --workers/--scheduler, for a kernel program; a located error for a
    host program (its kernels are launched by host code, one grid at a time)."""
    if args.workers is None and not args.scheduler:
        return []
    if analysis.kind != "kernel":
        raise BasicError(
            "--workers and --scheduler split cuTile BASIC kernel programs (INPUT ... OUTPUT); "
            "this program is a host program",
            Coord(analysis.source.name, 0, 0),
        )
    split = [] if args.workers is None else ["--workers", str(args.workers)]
    return split + (["--scheduler", args.scheduler] if args.scheduler else [])


def _child_status(returncode: int) -> int:
    """The exit status of --run: the program's own, or 128 + N when signal N ended it
    (told on stderr unless the user or a closed pipe sent it)."""
    from .run.process import exit_status

    if returncode < 0 and -returncode not in (signal.SIGINT, signal.SIGPIPE, signal.SIGTERM):
        name = signal.Signals(-returncode).name if -returncode in signal.valid_signals() else ""
        print(
            f"basic2tile: the generated program was killed by signal {name or -returncode}",
            file=sys.stderr,
        )
    return exit_status(returncode)
