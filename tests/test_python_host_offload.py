"""Host programs with kernels: the examples with their parallel loops offloaded
(driver.host_program runs the offload pass), printed with `dev.launch(...)`, run on the
CPU device (transpiler.tilesim) and compared with the interpreter.  The kernels compute
reductions in another order, so only programs whose printed digits do not depend on it
(all the examples, by design) can be compared exactly."""

from __future__ import annotations

from pathlib import Path

import black
import pytest

from transpiler import driver
from transpiler.ir import hostir

from .test_python_host import (
    EXAMPLE_FILES,
    EXTENDED,
    analyse,
    assert_ruff_clean,
    interpret,
    run_script,
)

KNOWN: dict[str, str] = {}


def _params():
    return [
        (
            pytest.param(
                p, id=p.stem, marks=[pytest.mark.xfail(reason=KNOWN[p.stem], strict=False)]
            )
            if p.stem in KNOWN
            else pytest.param(p, id=p.stem)
        )
        for p in EXAMPLE_FILES
    ]


@pytest.mark.parametrize("path", _params())
def test_offloaded_example_runs_like_the_interpreter(path: Path, tmp_path: Path) -> None:
    text = path.read_text()
    host = driver.host_program(analyse(text, EXTENDED, path.name))
    code = driver.generate_host(host, "cutile")
    assert black.format_str(code, mode=black.Mode(line_length=100)) == code
    script = tmp_path / f"{path.stem}.py"
    script.write_text(code)
    launches = [n for n in hostir.walk(host.body) if isinstance(n, hostir.Launch)]
    if launches:
        assert "dev.launch(" in code and "b2t_device.select(device)" in code
    got = run_script(script, env={"BASIC2TILE_DEVICE": "cpu"}, timeout=300)
    expected = interpret(text, EXTENDED, name=path.name)
    assert got[0] == expected[0]
    assert got[2] == expected[2] == 0, got[1]
    assert_ruff_clean(tmp_path)
