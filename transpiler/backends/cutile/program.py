"""The cuTile Python backend: kernel IR (+ host program) -> a module, before Ruff's
formatter lays it out in Black's style (the formatting stage: formatting/python.py)."""

from __future__ import annotations

from dataclasses import dataclass

from ... import __version__
from ...errors import SourceFile
from ...ir import kernel as ir
from ...ir.naming import Namer, generated_name, kernel_namer
from ..basic_origin import kernel_origin_comments
from ..render import render
from .expr import NP_DTYPES, CutileExprPrinter
from .helpers import helpers_text, helpers_used


def runtime_requirement(kernels: bool) -> str:
    """What `pip install` needs to run a generated module: basic2tile-runtime of this
    release (`~=` allows its later patch releases, as `version.require_runtime` does), with
    cuda-tile when the module has kernels."""
    extra = "[kernels]" if kernels else ""
    return f"basic2tile-runtime{extra}~={__version__}"


def docstring_safe(text: str) -> str:
    """Text that can sit inside a triple-quoted docstring without ending it or escaping."""
    if text.isprintable() and "\\" not in text and '"' not in text:
        return text
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif not ch.isprintable():
            out.append(f"\\x{ord(ch):02x}" if ord(ch) < 256 else f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "".join(out)


def origin_comments(kernel: ir.Kernel):
    """The kernel_def macro's `comment(s)`: the `# 50 ...` comment above IR statement
    `s` (basic_origin.kernel_origin_comments), or "".
    """
    comments = kernel_origin_comments(kernel.body)
    return lambda stmt: comments.get(id(stmt), "")


# Names of a kernel program's module (templates/cutile/library.py.jinja) beside those
# every generated module uses (naming._PYTHON_MODULE_NAMES).
_LIBRARY_NAMES = {"b2t_device", "self_test", "BASIC_SOURCE", "BASIC_PRECISION"}


@dataclass
class KernelInterface:
    """How one IR kernel appears in cuTile Python: its parameter list, the statements
    that unpack boxed parameters, and what the host passes for each IR parameter."""

    params: list[str]  # the `def` parameter list
    prologue: list[str]
    # For each IR parameter, in order: ("array", name) | ("scalar", name) |
    # ("box", name) (an f64 scalar passed in a 1-element array) | ("const", value).
    passing: list[tuple[str, object]]


BOX_COMMENT = "# f64 scalars arrive in one-element arrays: cuTile passes a Python float as f32"


def box_unpacking(var: str, box: str, first: bool) -> list[str]:
    """The kernel's first lines for a boxed f64 scalar; the first box says why."""
    return ([BOX_COMMENT] if first else []) + [f"{var} = ct.load({box}, index=(0,), shape=())"]


def kernel_interface(kernel: ir.Kernel, namer: Namer) -> KernelInterface:
    """`namer`: the kernel's (naming.kernel_namer), which names the boxes too."""
    params, prologue, passing = [], [], []
    for p in kernel.params:
        if isinstance(p, ir.ArrayParam):
            params.append(namer.ident(p.name, "array"))
            passing.append(("array", p.name))
        elif isinstance(p, ir.ScalarParam) and p.dtype == "f64":
            # cuTile passes Python floats as f32, so f64 scalars travel in 1-element arrays.
            var = namer.ident(p.name)
            box = box_name(namer, p.name)
            params.append(box)
            prologue += box_unpacking(var, box, first=not prologue)
            passing.append(("box", p.name))
        elif isinstance(p, ir.ScalarParam):
            params.append(namer.ident(p.name))
            passing.append(("scalar", p.name))
        else:
            params.append(f"{namer.ident(p.name)}: ct.Constant[int]")
            passing.append(("const", p.value))
    return KernelInterface(params, prologue, passing)


def box_name(namer: Namer, param: str) -> str:
    """The parameter of a boxed f64 scalar (`a_box` for A), the same on every use."""
    return namer.ident(generated_name(param, "box"), "box")


def render_library(lib: ir.KernelLibrary, source: SourceFile) -> str:
    """The module for a cuTile BASIC program, before the formatter: the kernel, run(), and
    a self-test."""
    kernel = lib.kernel
    namer = library_namer(kernel)
    array_names = {a.name: namer.name(a.name, "array") for a in lib.arrays}
    printer = CutileExprPrinter(namer)
    iface = kernel_interface(kernel, namer)
    launch_args, boxes = [], []
    for how, what in iface.passing:
        if how == "array":
            launch_args.append(array_names[what])
        elif how == "box":
            box = box_name(namer, what)
            launch_args.append(box)
            boxes.append({"name": namer.name(what), "box": box, "basic": what})
        elif how == "scalar":
            launch_args.append(namer.name(what))
        else:
            launch_args.append(str(what))
    scalars = [
        {"name": namer.name(s.name), "value": _scalar_argument(namer.name(s.name), s)}
        for s in lib.scalars
    ]
    arrays = []
    for a in lib.arrays:
        arrays.append(
            {
                "name": array_names[a.name],
                "basic": a.name,
                "role": a.role,
                "np_dtype": NP_DTYPES[a.dtype],
                "shape": _host_shape(printer, a.extents),
                # run() never writes into its arguments: a written INPUT array is copied.
                "written": a.role in ("input", "inout") and kernel.param(a.name).writes,
            }
        )
    run_params = [namer.name(n) if n not in array_names else array_names[n] for n in lib.inputs]
    outputs = [array_names[o] for o in lib.outputs]
    return render(
        "cutile/library.py.jinja",
        title=f"{kernel.name}: cuTile kernel translated from BASIC",
        version=__version__,
        runtime_requirement=runtime_requirement(kernels=True),
        source_name=docstring_safe(source.name),
        basic_lines=[docstring_safe(line) for line in source.lines],
        basic_source_literal=repr(source.text),
        precision=lib.precision,
        helpers=helpers_text(helpers_used([kernel])),
        kernel=kernel,
        kernel_params=iface.params,
        kernel_prologue=iface.prologue,
        expr=printer,
        name=printer.name,
        comment=origin_comments(kernel),
        view=printer.view,
        index=printer.index,
        run_params=run_params,
        returns_doc=_returns_doc(lib),
        inputs_doc=", ".join(n + ("()" if n in array_names else "") for n in lib.inputs)
        or "nothing",
        outputs_doc=", ".join(lib.outputs),
        scalars=scalars,
        arrays=arrays,
        boxes=boxes,
        grid=_grid_text(printer, kernel.grid),
        kernel_name=namer.ident(kernel.name),
        launch_args=launch_args,
        outputs=outputs,
    )


def library_namer(kernel: ir.Kernel) -> Namer:
    """The namer of a kernel program's module: one scope for the kernel and run(), whose
    parameters are the kernel's INPUT names; the kernel's own name comes right after the
    names in the kernel."""
    namer = kernel_namer(kernel, "python", taken=_LIBRARY_NAMES)
    namer.ident(kernel.name)
    return namer


def _host_shape(printer: CutileExprPrinter, extents: tuple[ir.KExpr, ...]) -> str:
    parts = [printer(e) for e in extents]
    return "(" + parts[0] + ",)" if len(parts) == 1 else "(" + ", ".join(parts) + ")"


def _grid_text(printer: CutileExprPrinter, grid: tuple[ir.KExpr, ...]) -> str:
    parts = [printer(g) for g in grid] + ["1"] * (3 - len(grid))
    return "(" + ", ".join(parts) + ")"


def _returns_doc(lib: ir.KernelLibrary) -> str:
    if len(lib.outputs) == 1:
        return f"the OUTPUT array {lib.outputs[0]}"
    return "the OUTPUT arrays " + ", ".join(lib.outputs) + " as a tuple"


def _scalar_argument(name: str, scalar) -> str:
    """run()'s INPUT scalar as the kernel takes it: an integer scalar must be a whole
    number (the device refuses 2.5 rather than truncating it), a real one a float."""
    if scalar.dtype in ("i32", "i64"):
        return f'dev.integer({name}, "{scalar.name}")'
    return f"float({name})"
