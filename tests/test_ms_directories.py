"""GW-BASIC 3's MKDIR, RMDIR and CHDIR: make a folder, remove an empty one, find names
from another.

Oracle: PC-BASIC 2.0.8 (GW-BASIC 3.23, tests/pcbasic_oracle.py) runs each program when it
is installed, in a folder holding the same files; the texts below are what it printed
(PC-BASIC's paths take `\\` where ours take `/`, so its programs are the same with the
separator swapped), and they stay in the test so that it keeps its teeth without it.
Errors, as GW-BASIC's manual and PC-BASIC have them: MKDIR of a name that is a file or
folder already is "Path/File access error" (75), of a folder in a missing folder "Path not
found" (76); RMDIR of a missing folder (a file too) "Path not found", of a folder that is
not empty "Path/File access error"; CHDIR to a missing folder (a file too) "Path not
found"; an empty name is "Bad file name" (64).  Every program
runs through the interpreter and both generated programs (cuTile Python and CUDA C++ on
the CPU), which must agree exactly (`interpreted_and_checked`; --check runs them in
scratch folders, so the folders here are changed only by the interpreter's run).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from basic2tile_runtime import change_directory, reset_files

from tests import pcbasic_oracle
from tests.checking import basic2tile, checked_run, interpreted_and_checked

requires_pcbasic = pytest.mark.skipif(
    not pcbasic_oracle.AVAILABLE, reason=pcbasic_oracle.SKIP_REASON
)


def oracle_run(folder: Path, text: str) -> str:
    """PC-BASIC's run of `text` in `folder`, with DOS's path separator."""
    return pcbasic_oracle.run(text.replace("/", "\\"), folder=folder)


# Each error trapped by ON ERROR GOTO, with its code and line.
ERRORS = """\
10 ON ERROR GOTO 1000
20 MKDIR "SUB"
30 PRINT "made"
40 MKDIR "SUB"
50 MKDIR "NOPE/X"
60 RMDIR "NOPE"
70 OPEN "SUB/A.TXT" FOR OUTPUT AS #1: PRINT #1, "HI": CLOSE
80 RMDIR "SUB"
90 KILL "SUB/A.TXT": RMDIR "SUB": PRINT "removed"
100 RMDIR "FILE.TXT"
110 MKDIR "FILE.TXT"
120 MKDIR ""
130 RMDIR ""
140 MKDIR "sub2": RMDIR "SUB2": PRINT "case"
150 X$ = "D": MKDIR X$ + "1": RMDIR X$ + "1": PRINT "expression"
160 END
1000 PRINT "error"; ERR; "in"; ERL: RESUME NEXT
"""
ERRORS_OUTPUT = """\
made
error 75 in 40 
error 76 in 50 
error 76 in 60 
error 75 in 80 
removed
error 76 in 100 
error 75 in 110 
error 64 in 120 
error 64 in 130 
case
expression
"""


@pytest.mark.parametrize("oracle", [False, pytest.param(True, marks=requires_pcbasic)])
def test_errors_are_gw_basic_s_and_trappable(tmp_path, oracle):
    (tmp_path / "FILE.TXT").write_bytes(b"")
    if oracle:
        assert oracle_run(tmp_path, ERRORS) == ERRORS_OUTPUT
    else:
        assert interpreted_and_checked(tmp_path, ERRORS) == ERRORS_OUTPUT
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "prog.bas") == ["FILE.TXT"]


# A file in a new folder, read back; the folder stays.
IN_A_FOLDER = """\
10 MKDIR "DATA"
20 OPEN "DATA/NUMS.TXT" FOR OUTPUT AS #1: PRINT #1, 1; 2: CLOSE #1
30 OPEN "data/nums.txt" FOR INPUT AS #1: INPUT #1, A, B: CLOSE #1
40 PRINT A + B
"""


@pytest.mark.parametrize("oracle", [False, pytest.param(True, marks=requires_pcbasic)])
def test_a_file_in_a_new_folder(tmp_path, oracle):
    run = oracle_run if oracle else interpreted_and_checked
    assert run(tmp_path, IN_A_FOLDER) == " 3 \n"
    folder = next(p for p in tmp_path.iterdir() if p.is_dir())
    assert folder.name.upper() == "DATA"  # PC-BASIC: DATA; here: the name as written
    assert [p.name.upper() for p in folder.iterdir()] == ["NUMS.TXT"]


def test_an_error_that_is_not_trapped_names_the_folder(tmp_path):
    text = '10 PRINT "A"\n20 RMDIR "GONE"\n30 PRINT "B"\n'
    done = checked_run(tmp_path, text)
    assert done.returncode == 1 and done.stdout == "A\nPath not found in 20\n"
    assert "prog.bas:2:" in done.stderr and "Path not found (GONE)" in done.stderr
    if pcbasic_oracle.AVAILABLE:
        assert oracle_run(tmp_path, text) == done.stdout


def test_check_changes_no_real_folder(tmp_path):
    """--check runs each program in a scratch folder: RMDIR of a real folder only hides
    it there (a file written into it then is "Path not found"), MKDIR makes its folder
    there; the interpreter's own run changes the real ones."""
    (tmp_path / "OLD").mkdir()
    text = (
        '10 ON ERROR GOTO 100\n20 RMDIR "OLD": MKDIR "NEW"\n'
        '30 OPEN "OLD/X.TXT" FOR OUTPUT AS #1\n40 RMDIR "NEW": MKDIR "OLD": PRINT "OK"\n'
        '50 RMDIR "OLD"\n60 END\n100 PRINT "error"; ERR; "in"; ERL: RESUME NEXT\n'
    )
    expected = "error 76 in 30 \nOK\n"
    for target in ("cutile", "cuda"):
        check = basic2tile(tmp_path, text, "--check", "--device", "cpu", "--target", target)
        assert check.returncode == 0, check.stdout + check.stderr
        assert (tmp_path / "OLD").is_dir() and not (tmp_path / "NEW").exists()
    done = basic2tile(tmp_path, text, "--interpret")
    assert done.stdout == expected
    assert not (tmp_path / "OLD").exists()
    if pcbasic_oracle.AVAILABLE:
        (tmp_path / "OLD").mkdir()
        assert oracle_run(tmp_path, text) == expected


# CHDIR: names are found from the new folder, ".." included.
CHDIR = """\
10 ON ERROR GOTO 1000
20 MKDIR "SUB": CHDIR "SUB"
30 OPEN "A.TXT" FOR OUTPUT AS #1: PRINT #1, "HI": CLOSE
40 MKDIR "INNER": CHDIR "INNER": CHDIR ".."
50 CHDIR "..": OPEN "SUB/A.TXT" FOR INPUT AS #1: LINE INPUT #1, L$: PRINT L$: CLOSE
60 CHDIR "NOPE"
70 CHDIR "FILE.TXT"
80 CHDIR ""
90 CHDIR "sub/inner": OPEN "B.TXT" FOR OUTPUT AS #1: CLOSE: CHDIR "../..": PRINT "back"
100 KILL "SUB/INNER/B.TXT": RMDIR "SUB/INNER": KILL "SUB/A.TXT": RMDIR "SUB"
110 CHDIR ".": PRINT "done"
120 END
1000 PRINT "error"; ERR; "in"; ERL: RESUME NEXT
"""
CHDIR_OUTPUT = """\
HI
error 76 in 60 
error 76 in 70 
error 64 in 80 
back
done
"""


@pytest.mark.parametrize("oracle", [False, pytest.param(True, marks=requires_pcbasic)])
def test_chdir(tmp_path, oracle):
    (tmp_path / "FILE.TXT").write_bytes(b"")
    run = oracle_run if oracle else interpreted_and_checked
    assert run(tmp_path, CHDIR) == CHDIR_OUTPUT
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "prog.bas") == ["FILE.TXT"]


def test_a_name_is_found_from_chdir_s_folder(tmp_path):
    (tmp_path / "SUB").mkdir()
    (tmp_path / "SUB" / "X.TXT").write_bytes(b"sub\r\n")
    (tmp_path / "X.TXT").write_bytes(b"top\r\n")
    text = '10 OPEN "X.TXT" FOR INPUT AS #1: LINE INPUT #1, L$: PRINT L$: CLOSE\n20 CHDIR "SUB"\n'
    text += '30 OPEN "X.TXT" FOR INPUT AS #1: LINE INPUT #1, L$: PRINT L$: CLOSE\n'
    assert interpreted_and_checked(tmp_path, text) == "top\nsub\n"


def test_chdir_leaves_the_process_where_it_was(tmp_path, monkeypatch):
    """The folder is the running program's table of files, not the process's: the
    interpreter runs in the compiler's process, and the next run starts afresh."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "SUB").mkdir()
    reset_files()
    change_directory("SUB")
    assert Path.cwd() == tmp_path
    reset_files()


def test_a_loop_with_mkdir_stays_on_the_host_and_says_why(tmp_path):
    program = (
        '10 DIM A(9)\n20 FOR I = 1 TO 3\n30 A(I) = I\n40 MKDIR "D" + STR$(I)\n50 NEXT I\n60 END\n'
    )
    explained = basic2tile(tmp_path, program, "--explain")
    assert "MKDIR inside the loop runs on the host" in explained.stdout


@pytest.mark.parametrize("word", ["MKDIR", "RMDIR", "CHDIR"])
def test_not_in_a_kernel_program(tmp_path, word):
    program = (
        "10 INPUT N, A()\n20 DIM A(N), C(N)\n30 TILE A(128), C(128)\n"
        f'40 {word} "X"\n50 LET C(BID) = A(BID)\n60 OUTPUT C\n'
    )
    done = basic2tile(tmp_path, program, "-o", "out.py", dialect=None)
    assert done.returncode != 0
    assert f"prog.bas:4:4: error: {word} is not supported inside a kernel program" in done.stderr


def test_not_ecma_55(tmp_path):
    done = basic2tile(tmp_path, '10 MKDIR "X"\n20 END\n', "--interpret", dialect="ecma55")
    assert done.returncode != 0
    assert "MKDIR is not ECMA-55 Minimal BASIC" in done.stderr


def test_a_name_that_is_a_number_is_a_type_mismatch(tmp_path):
    """As KILL 5: a compile-time error here (GW-BASIC: "Type mismatch" when it runs)."""
    done = basic2tile(tmp_path, "10 RMDIR 5\n", "--interpret")
    assert done.returncode != 0
    assert "prog.bas:1:" in done.stderr and "string expression expected" in done.stderr


def test_a_trailing_slash_names_the_same_folder(tmp_path):
    """`SUB/` is SUB on every target (C++ kept the empty last part: its MKDIR looked for
    the folder SUB/ in SUB, "Path not found").  GW-BASIC differs here: PC-BASIC gives
    "Path not found" for MKDIR "A\\" (docs: not implemented)."""
    text = (
        '10 MKDIR "SUB/": PRINT "made"\n20 CHDIR "SUB/": PRINT "in"\n'
        '30 CHDIR "../": RMDIR "SUB/": PRINT "gone"\n'
    )
    assert interpreted_and_checked(tmp_path, text) == "made\nin\ngone\n"
    assert not (tmp_path / "SUB").exists()
