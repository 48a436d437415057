"""Run the examples in cuTile's own API documentation through the simulator.

Each `.. testcode::` block in the installed `cuda/tile/_stub.py` comes with the output NVIDIA
recorded when running it on a GPU (`.. testoutput::`).  Those outputs are an independent
oracle: the simulator must print the same thing.  Array examples use torch on the GPU; a
tiny stand-in maps the few torch calls they make onto NumPy.
"""

from __future__ import annotations

import contextlib
import inspect
import io
import re
import textwrap

import cuda.tile._stub as stub
import numpy as np
import pytest

from transpiler import tilesim

# Documented features the simulator does not provide (the generated code never uses them).
NOT_SIMULATED = {
    "load_advanced_indexing#1",
    "store_advanced_indexing#1",
    "pack_to_bytes#1",
    "unpack_from_bytes#1",
    "Array.tiled_view#1",
    "Array.foreign_pointer#1",
    "Array.from_foreign#1",
}
# Examples whose expected output is an exception or needs a newer GPU.
_SKIP_OPTIONS = ("ELLIPSIS", "IGNORE_EXCEPTION_DETAIL")


def _documented_objects():
    for name, obj in vars(stub).items():
        yield name, obj
    for cls in (stub.Tile, stub.Array):
        for name, obj in vars(cls).items():
            yield f"{cls.__name__}.{name}", obj


def _directive(lines, i, name):
    """Options and body of the `.. name::` directive starting at line i; the next line index."""
    indent = len(lines[i]) - len(lines[i].lstrip())
    i += 1
    options = {}
    while i < len(lines) and (m := re.match(r"\s*:(\w+):\s*(.*)", lines[i])):
        options[m.group(1)] = m.group(2)
        i += 1
    body = []
    while i < len(lines) and (
        not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > indent
    ):
        body.append(lines[i])
        i += 1
    return options, textwrap.dedent("\n".join(body)).strip("\n"), i


def doc_examples():
    """(id, template, code, expected output) for every runnable documented example."""
    for name, obj in _documented_objects():
        doc = getattr(obj, "__doc__", None)
        if not isinstance(doc, str):
            continue
        lines = inspect.cleandoc(doc).splitlines()
        i, count = 0, 0
        while i < len(lines):
            if not re.match(r"\s*\.\. testcode::", lines[i]):
                i += 1
                continue
            options, code, i = _directive(lines, i, "testcode")
            count += 1
            while i < len(lines) and not re.match(r"\s*\.\. test(output|code)::", lines[i]):
                i += 1
            if i == len(lines) or not re.match(r"\s*\.\. testoutput::", lines[i]):
                continue
            out_options, expected, i = _directive(lines, i, "testoutput")
            skipped = "skipif" in options or any(
                flag in out_options.get("options", "") for flag in _SKIP_OPTIONS
            )
            if not skipped:
                yield f"{name}#{count}", options.get("template"), code, expected


class _TorchStandIn:
    """The torch calls the documentation makes, on NumPy (the device argument is ignored)."""

    int32, int64, float32, float16, float64 = np.int32, np.int64, np.float32, np.float16, np.float64

    @staticmethod
    def arange(n, device=None, dtype=np.int64):
        return np.arange(n, dtype=dtype)

    @staticmethod
    def zeros(*shape, dtype=np.float32, device=None):
        return np.zeros(shape, dtype=dtype)

    @staticmethod
    def ones(*shape, dtype=np.float32, device=None):
        return np.ones(shape, dtype=dtype)

    @staticmethod
    def empty(*shape, dtype=np.float32, device=None):
        # Filled with NaN so that an example reading it would show.
        return np.full(shape, np.nan, dtype=dtype)

    @staticmethod
    def tensor(values, device=None, dtype=None):
        array = np.array(values, dtype=dtype)
        return array.astype(np.float32) if dtype is None and array.dtype.kind == "f" else array


def _run(template, code) -> str:
    namespace = {"ct": tilesim, "torch": _TorchStandIn, "stream": None}
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        if template == "kernel_wrapper.py":
            source = "def kernel():\n" + textwrap.indent(code, "    ") + "\n"
            exec(compile(source, "<doc example>", "exec"), namespace)  # noqa: S102 (docs)
            tilesim.launch(None, (1,), namespace["kernel"], ())
        else:
            example = compile(code.replace("@ct.kernel\n", ""), "<doc example>", "exec")
            exec(example, namespace)  # noqa: S102 (NVIDIA's documented example)
    return output.getvalue()


EXAMPLES = list(doc_examples())


def test_documentation_has_many_examples():
    # Guards the parser: if it silently found nothing, every test below would vanish.
    assert len(EXAMPLES) > 100


@pytest.mark.parametrize(
    "key,template,code,expected",
    [e for e in EXAMPLES if e[0] not in NOT_SIMULATED],
    ids=[e[0] for e in EXAMPLES if e[0] not in NOT_SIMULATED],
)
def test_documented_example_prints_the_recorded_output(key, template, code, expected):
    assert " ".join(_run(template, code).split()) == " ".join(expected.split())


@pytest.mark.parametrize("key", sorted(NOT_SIMULATED))
def test_unsimulated_features_fail_loudly(key):
    [(template, code)] = [(t, c) for k, t, c, _ in EXAMPLES if k == key]
    with pytest.raises(AttributeError):
        _run(template, code)
