"""--dump-tokens, --dump-ast and --dump-analyzed: the compiler's stages as text."""

from __future__ import annotations

from transpiler.cli import main

KERNEL = """10 INPUT N, A()
20 DIM A(N), C(N)
30 TILE A(16), C(16)
40 LET C(BID) = A(BID) * 2
50 OUTPUT C
"""


def _dump(tmp_path, capsys, text: str, flag: str) -> str:
    path = tmp_path / "prog.bas"
    path.write_text(text)
    assert main([str(path), flag]) == 0
    return capsys.readouterr().out


def test_tokens_carry_their_locations(tmp_path, capsys):
    out = _dump(tmp_path, capsys, KERNEL, "--dump-tokens").splitlines()
    name = str(tmp_path / "prog.bas")
    assert out[0] == f"{name}:1:1 LINE_NUMBER 10"
    assert f"{name}:4:8 NAME 'C'" in out
    assert f"{name}:4:24 TIMES '*'" in out and f"{name}:4:26 NUMBER '2'" in out


def test_the_ast_is_a_tree_with_locations(tmp_path, capsys):
    out = _dump(tmp_path, capsys, KERNEL, "--dump-ast")
    assert "    statements: Let @4:4\n      target: Index name='C' @4:8\n        indices: Bid axis=0 @4:10\n" in out


def test_analyzed_shows_the_typed_kernel_ir(tmp_path, capsys):
    out = _dump(tmp_path, capsys, KERNEL, "--dump-analyzed")
    # N only sizes the grid (run() keeps it), so the kernel's parameters are the arrays
    assert out.startswith(
        "kernel prog (tile), grid 1-D\n"
        "  param ArrayParam name='A' dtype='f32' ndim=1 reads=True writes=False\n"
        "  param ArrayParam name='C' dtype='f32' ndim=1 reads=False writes=True\n"
    )
    assert "    value: Binary op='mul' : f32[16]\n" in out


def test_analyzed_legacy_program_lists_types_and_offloaded_kernels(tmp_path, capsys):
    text = "10 DIM A(100)\n20 FOR I = 1 TO 100\n30 LET A(I) = I * 2\n40 NEXT I\n50 PRINT A(7)\n"
    out = _dump(tmp_path, capsys, text, "--dump-analyzed")
    assert "variable I: num\narray A(0 TO 100): num\nkernel map_20 (map)" in out


def test_a_lexical_error_while_dumping_tokens_is_located(tmp_path, capsys):
    path = tmp_path / "bad.bas"
    path.write_text("10 PRINT @\n")  # (a string left open is no error: it ends the line)
    assert main([str(path), "--dump-tokens"]) == 1
    assert "bad.bas:1:10: error: unexpected character '@'" in capsys.readouterr().err
