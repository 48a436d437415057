"""The Python runtime's answer to each request of runtime_driver.cpp, in its wire format.

`answer(line)` computes with `transpiler.runtime` (and the interpreter's `BasicArray`)
what the C++ driver computes with b2t_runtime.h, so a test asserts
`driver.ask(line) == answer(line)`.
"""

from __future__ import annotations

import io
import os
import struct

from transpiler.interpreter.arrays import BasicArray
from transpiler.interpreter.mat import to_f32
from transpiler.runtime import (
    NUMBER,
    STRING,
    BasicFault,
    Console,
    DataPool,
    ReplyRejected,
    arith,
    extended,
    files,
    format_number,
    format_number_trimmed,
    msformat,
    msnumbers,
    parse_number,
    parse_reply,
    rnd,
    set_warning_hook,
)
from transpiler.runtime.dialect import running_dialect
from transpiler.runtime import stringfns
from transpiler.runtime.ms_inputs import parse_ms_reply
from transpiler.runtime.numformat import match_number
from transpiler.runtime.strings import check_string
from transpiler.runtime.using import DOUBLE, REAL, SINGLE

from .harness import d, h, s

_UNARY = {
    "ABS": arith.ABS,
    "ATN": arith.ATN,
    "COS": arith.COS,
    "EXP": arith.EXP,
    "INT": arith.INT,
    "LOG": arith.LOG,
    "SGN": arith.SGN,
    "SIN": arith.SIN,
    "SQR": arith.SQR,
    "TAN": arith.TAN,
    "to_integer": extended.to_integer,
    "round_to_int": lambda x: float(arith.round_to_int(x)),
    "f32": to_f32,
}
_BINARY = {
    "add": arith.add,
    "sub": arith.sub,
    "div": arith.div,
    "mul": arith.mul,
    "power": arith.power,
    "MOD": extended.MOD,
    "MAX": extended.MAX,
    "MIN": extended.MIN,
}


_MICROSOFT = {
    name: getattr(msnumbers, name)
    for name in (
        "sng dbl cint fix single_result single_div double_div int_div int_mod bit_and bit_or "
        "bit_xor bit_eqv bit_imp bit_not single_power single_power_int double_power"
    ).split()
}


def to_float(token: str) -> float:
    return struct.unpack("<d", struct.pack("<Q", int(token[1:], 16)))[0]


def to_text(token: str) -> str:
    return bytes.fromhex(token[1:]).decode()


def _kinds(letters: str) -> list[str]:
    return [STRING if c == "S" else NUMBER for c in letters]


def _values(values, kinds) -> str:
    return "".join(" " + (s(v) if k == STRING else d(v)) for v, k in zip(values, kinds))


def answer(line: str) -> str:
    notices: list[str] = []
    previous = set_warning_hook(lambda n: notices.append(f"{n.severity}: {n.message}"))
    try:
        try:
            reply = _run(line.split())
        except BasicFault as fault:
            reply = " F" + h(fault.message)
    finally:
        set_warning_hook(previous)
    return reply + "".join(" W" + h(n) for n in notices)


def _run(t: list[str]) -> str:
    op = t[0]
    if op == "format":
        return s(format_number(to_float(t[1])))
    if op == "trimmed":
        return s(format_number_trimmed(to_float(t[1])))
    if op == "parse":
        value = parse_number(to_text(t[1]))
        return "none" if value is None else d(value)
    if op == "match":
        m = match_number(to_text(t[1]), int(t[2]))
        return "none" if m is None else f"i{m.end()}"
    if op == "arith":
        if t[1] == "check_string":
            return s(check_string(to_text(t[2])))
        if t[1] in _UNARY:
            return d(_UNARY[t[1]](to_float(t[2])))
        return d(_BINARY[t[1]](to_float(t[2]), to_float(t[3])))
    if op in ("rnd", "randomize"):
        if op == "rnd":
            rnd.reset_rnd(int(t[1]))
        else:
            if t[1] == "unset":
                os.environ.pop(rnd.SEED_VARIABLE, None)
            else:
                os.environ[rnd.SEED_VARIABLE] = to_text(t[1])
            rnd.RANDOMIZE()
        return "".join(" " + d(rnd.RND()) for _ in range(int(t[2])))
    if op == "strfn":
        args = [to_text(a) if a[0] == "s" else to_float(a) for a in t[2:]]
        if t[1] == "mid_assign" and len(args) == 3:
            args.insert(2, None)
        result = getattr(stringfns, t[1])(*args)
        return s(result) if isinstance(result, str) else d(result)
    if op == "msreply":
        kinds = _kinds(t[1])
        try:
            return _values(parse_ms_reply(to_text(t[2]), kinds), kinds)
        except ReplyRejected as rejected:
            return "R" + h(f"{rejected.what}|{rejected.detail}")
    if op == "msinput":
        out = io.StringIO()
        kinds = _kinds(t[2])
        prompt = None if t[1] == "none" else to_text(t[1])
        with running_dialect("ms"):
            console = Console(out, io.StringIO(to_text(t[3]), newline=None), False)
            try:
                values = console.input(prompt, kinds, t[4] == "1", t[5] == "1")
                result = _values(values, kinds) + f" i{console.column}"
            except BasicFault as exc:
                result = " F" + h(exc.message)
        return s(out.getvalue()) + result
    if op == "keys":
        out = io.StringIO()
        with running_dialect("ms"):
            console = Console(out, io.StringIO(to_text(t[1]), newline=None), False)
        result = ""
        try:
            for _ in range(int(t[2])):
                result += " " + s(console.inkey())
            prompt = None if t[3] == "none" else to_text(t[3])
            result += " " + s(console.line_input(prompt))
        except BasicFault as exc:
            result += " F" + h(exc.message)
        return s(out.getvalue()) + result
    if op == "ms":
        with running_dialect("ms"):
            function = _MICROSOFT.get(t[1]) or _UNARY.get(t[1]) or _BINARY[t[1]]
            return d(function(*[to_float(x) for x in t[2:]]))
    if op == "msstrfn":
        with running_dialect("ms"):
            return _run(["strfn", *t[1:]])
    if op == "msformat":
        x = to_float(t[2])
        return s(msformat.format_single(x) if t[1] == "single" else msformat.format_double(x))
    if op == "msrnd":
        with running_dialect("ms"):
            if t[2] != "none":
                rnd.RANDOMIZE(to_float(t[1]), t[2])
            draws = [rnd.RND() if a == "-" else rnd.RND(to_float(a)) for a in t[3:]]
        return "".join(" " + d(x) for x in draws)
    if op == "msconsole":
        with running_dialect("ms"):
            return _console(t)
    if op == "console":
        return _console(t)
    if op == "using":
        out = io.StringIO()
        precision = {"single": SINGLE, "double": DOUBLE, "real": REAL}[t[1]]
        fault = ""
        try:
            writer = Console(out, precision=precision).print_using(to_text(t[2]))
            for item in t[3:-1]:
                writer.item(to_float(item) if item[0] == "d" else to_text(item))
            writer.end("\n" if t[-1] == "l" else "")
        except BasicFault as exc:
            fault = " F" + h(exc.message)
        return s(out.getvalue()) + fault
    if op == "msreadfile":
        with running_dialect("ms"):
            return answer(" ".join(["readfile", *t[1:]]))
    if op == "readfile":
        path = os.environ["B2T_TEST_FILE"]
        with open(path, "wb") as handle:
            handle.write(to_text(t[1]).encode("utf-8", "surrogateescape"))
        out = ""
        try:
            files.reset_files()
            files.open_file(path, "I", 1)
            for op in t[2] if len(t) > 2 else "":
                if op == "N":
                    out += " " + d(files.file_input(1, [NUMBER])[0])
                elif op == "S":
                    out += " " + s(files.file_input(1, [STRING])[0])
                elif op == "L":
                    out += " " + s(files.file_line(1))
                elif op == "E":
                    out += " " + d(files.EOF(1))
                else:
                    out += " " + d(files.LOF(1))
        except BasicFault as exc:
            out += " F" + h(exc.message)
        files.close_files()
        return out
    if op == "input":
        out = io.StringIO()
        console = Console(out, io.StringIO(to_text(t[3]), newline=None))  # as sys.stdin
        kinds = _kinds(t[2])
        prompt = None if t[1] == "none" else to_text(t[1])
        try:
            result = _values(console.input(prompt, kinds), kinds)
        except BasicFault as exc:
            result = " F" + h(exc.message)
        return s(out.getvalue()) + result
    if op == "reply":
        kinds = _kinds(t[1])
        try:
            return _values(parse_reply(to_text(t[2]), kinds), kinds)
        except ReplyRejected as rejected:
            return "R" + h(f"{rejected.what}|{rejected.detail}")
    if op == "data":
        split = t.index("--")
        pool = DataPool([(to_text(i[2:]), i[0] == "q") for i in t[1:split]])
        out = f"i{len(pool)}"
        try:
            for item in t[split + 1 :]:
                if item == "n":
                    out += " " + d(pool.read_number())
                elif item == "s":
                    out += " " + s(pool.read_string())
                else:
                    pool.restore(int(item[2:]))
                out += f" i{pool.position}"
        except BasicFault as exc:
            out += " F" + h(exc.message)
        return out
    if op == "array":
        return _array(t)
    raise ValueError(f"unknown request {op}")


def _console(t: list[str]) -> str:
    out = io.StringIO()
    console = Console(out)
    fault = ""
    try:
        for item in t[1:]:
            kind, arg = item[0], item[2:]
            if kind == "s":
                console.write_string(to_text(arg))
            elif kind == "n":
                console.write_number(to_float(arg))
            elif kind == "d":
                console.write_double(to_float(arg))
            elif kind == "z":
                console.next_zone()
            elif kind == "t":
                console.tab(to_float(arg))
            elif kind == "p":
                console.spc(to_float(arg))
            elif kind == "l":
                console.newline()
            elif kind == "f":
                console.finish()
    except BasicFault as exc:
        fault = " F" + h(exc.message)
    return s(out.getvalue()) + f" i{console.column}" + fault


def _array(t: list[str]) -> str:
    split = t.index("--")
    upper = [to_float(x) for x in t[2:split]]
    array = BasicArray("A", int(t[1]), len(upper), 0.0)
    try:
        array.allocate(tuple(upper))
    except BasicFault as exc:
        return "A" + h(exc.message)
    out = f"i{len(array.data)}"
    groups: list[list[float]] = [[]]
    for token in t[split + 1 :]:
        if token == "/":
            groups.append([])
        else:
            groups[-1].append(to_float(token))
    cells = array.index_cells()
    rank = array.rank
    limits, strides, offset = cells[:rank], cells[rank : 2 * rank], cells[-1]
    try:
        for group in groups:
            if not group:
                continue
            shifted = [x + 0.5 for x in group]
            if not all(array.base <= v < limit for v, limit in zip(shifted, limits)):
                raise array.out_of_range(*shifted)
            out += f" i{sum(int(v) * m for v, m in zip(shifted, strides)) - offset}"
    except BasicFault as exc:
        out += " F" + h(exc.message)
    return out
