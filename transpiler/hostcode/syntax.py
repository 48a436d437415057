"""The two syntax tables of host code (Python, C++) and the walker that lays out the
host-code IR (hostcode/nodes.py) through one of them.

A table says how a construct is written, never whether to write it: the lowering
(hostcode/launch.py) decides, and reads the few capabilities a table declares
(`extremes`: the language has a `max` of values that keeps BASIC's comparison).
"""

from __future__ import annotations

from . import nodes as n


def _atomic(text: str) -> bool:
    """Is `text` one operand (no operator outside brackets)?"""
    depth = 0
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == " " and depth == 0:
            return False
    return True


def _closing_bracket(text: str, start: int) -> int:
    """Where the bracket opened at `start` closes in C++ `text` (literals skipped), or -1."""
    depth, quote, escaped = 0, "", False
    for at in range(start, len(text)):
        ch = text[at]
        if quote:
            if ch == quote and not escaped:
                quote = ""
            escaped = ch == "\\" and not escaped
        elif ch in "\"'":
            quote = ch
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
            if depth == 0:
                return at
    return -1


def grouped(text: str) -> str:
    """`text` as the left operand of `*` (a sum gets parentheses)."""
    return f"({text})" if " + " in text else text


class Syntax:
    comment = ""
    end = ""  # what ends a simple statement
    true = ""
    false = ""
    conjunction = ""
    floor_div = ""
    extremes = False
    scopes = False  # `{ ... }` makes names local
    skips = False  # `if (c) continue;` rather than `if not c:` around the rest

    def and_(self, tests: list[str]) -> str:
        return self.conjunction.join(tests)

    def not_(self, test: str) -> str:
        raise NotImplementedError

    def if_(self, cond: str) -> str:
        raise NotImplementedError

    def else_(self) -> str:
        raise NotImplementedError

    def declare(self, ctype: str, name: str, value: str) -> str:
        raise NotImplementedError

    def for_range(self, var: str, start: str | None, stop: str) -> str:
        raise NotImplementedError

    def for_each(self, index: str, item: str | None, array: str) -> str:
        raise NotImplementedError

    def item(self, array: str, index: str, item: str | None) -> str:
        """The element a ForEach is at."""
        return item if item is not None else f"{array}[{index}]"

    def element(self, array: str, index: str) -> str:
        """Element `index` of a host array of a kernel's results, as a number."""
        return f"{array}[{index}]"

    def all_between(self, flags: str, first: str, stop: str) -> str:
        """Are flags first .. stop - 1 all set?"""
        raise NotImplementedError

    def as_float(self, text: str) -> str:
        """An integer expression as a BASIC number."""
        return text

    # module
    empty_string = ""  # a new string variable's value where it is written
    extent = ""  # a host array's size along an axis: .format(array=, axis=)

    def zero(self, kind: str) -> str:
        """The value a BASIC variable of `kind` starts with."""
        return self.empty_string if kind == "str" else "0" if kind in ("int", "lng") else "0.0"

    def values(self, array: str) -> str:
        """The numbers in a host array of a kernel's results, as the runtime takes them."""
        return array

    # statements
    throw = ""  # the keyword that raises an exception
    no_newline = ""  # the argument of `end(...)` that ends a PRINT without a newline
    adds_in_place = False  # `v += step` (C++ adds in double, then rounds to v's type)
    console = ""  # the type of a name for the console or a file PRINT writes to
    # Each table also writes: spread(items), values as the arguments of a call that takes
    # any number of them; list_(items), tuple_(items), values as one argument;
    # named(name, value), an optional argument (Python names it); discard(value) and
    # evaluate(value), a statement computing `value` for its effects (discard: one a
    # linter accepts whatever it is); choose(cond, yes, no), a conditional expression;
    # negated(comparison), not `comparison` (whose operator binds tighter than `not`);
    # flags(options), the (name, value, default) flags of a call that are not their
    # default (Python names them; C++ passes the ones before them too, each after a
    # comment naming it); reply_field(text),
    # what reads one value of INPUT's reply (C++: a string's `.text` or a number's
    # `.number`); swap(a, b), the statement exchanging two places; switch(value), the
    # head of a choice among numbered cases.
    no_prompt: tuple = ()  # INPUT's and LINE INPUT's prompt when there is none
    absent = ""  # an optional argument left out (Python's runtime takes None)
    binds = False  # an element changed in place is bound once to a reference (C++)

    # control flow.  Each table also writes: while_(test), elif_(test), try_, catch(type,
    # name), the heads of those blocks; counted(var, start, limit, step), the loop over
    # integer constants; stepped(first, test, increment), a loop whose head steps it
    # (C++'s `for`; Python has none: None); dispatch(var, entry), the lines before a
    # dispatch loop and its head; label_map(name, pairs), a table of dispatch labels;
    # fault(type, message, line), the run-time error a `throw` raises; as_label(value),
    # an int (the runtime's) as a dispatch label; in_place(lines, value), C++'s lambda
    # running `lines` where no statement can go before a value (Python needs none).
    progress = ""  # the call each iteration of a loop that may never end makes (C++)
    empty_body = ""  # the statement of a block with none (Python's `pass`)
    no_label = ""  # ON ERROR GOTO 0's handler
    default_case = ""  # the case of a dispatch loop's labels no case names
    # C++'s `switch`: a case runs on into the next one unless it leaves (`break`, which
    # leaves the switch only); Python's `match` leaves after a case (`break` leaves the loop).
    cases_fall_through = False
    keeps_nan = ""  # what an IF that NaN keeps from being a max or min says to the linter
    header_comments = False  # a block's head can end with a comment (Python)
    next_in_counted_body = False  # the NEXT's comment ends a counted loop (C++'s `for`)


class PythonSyntax(Syntax):
    comment = "# "
    true = "True"
    false = "False"
    conjunction = " and "
    floor_div = " // "
    extremes = True  # max(v, x) is `x if x > v else v`, NaN included
    cdiv = "ct.cdiv"

    def not_(self, test):
        return f"not {test}" if _atomic(test) else f"not ({test})"

    def if_(self, cond):
        return f"if {cond}:"

    def else_(self):
        return "else:"

    def declare(self, ctype, name, value):
        return f"{name} = {value}"

    def for_range(self, var, start, stop):
        bounds = stop if start is None else f"{start}, {stop}"
        return f"for {var} in range({bounds}):"

    def for_each(self, index, item, array):
        return f"for {index}, {item} in enumerate({array}.tolist()):"

    def element(self, array, index):
        return f"{array}.item({index})"

    def all_between(self, flags, first, stop):
        return f"{flags}[{first} : {stop}].all()"

    def as_float(self, text):
        return f"float({text})"

    def min_(self, a, b):
        return f"min({a}, {b})"

    def max_(self, a, b):
        return f"max({a}, {b})"

    def extreme(self, kind, var, value):
        return f"{kind}({var}, {value})"

    def extreme_of_all(self, kind, var, array):
        return f"{kind}([{var}, *{array}.tolist()])"

    # module
    empty_string = '""'
    extent = "{array}.data.shape[{axis}]"

    def values(self, array):
        return f"{array}.tolist()"

    # statements
    throw = "raise "
    no_newline = "''"

    def spread(self, items):
        return ", ".join(items)

    def list_(self, items):
        return f"[{', '.join(items)}]"

    def named(self, name, value):
        return f"{name}={value}"

    def discard(self, value):
        return f"_ = {value}"

    def evaluate(self, value):
        return value

    def tuple_(self, items):
        return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"

    def choose(self, cond, yes, no):
        return f"{yes} if {cond} else {no}"

    def negated(self, comparison):
        return f"not {comparison}"

    no_prompt = ("None",)
    absent = "None"

    def flags(self, options):
        return [f"{name}={value}" for name, value, default in options if value != default]

    def reply_field(self, text):
        return ""

    def swap(self, a, b):
        return f"{a}, {b} = {b}, {a}"

    def switch(self, value):
        return f"match {value}:"

    # control flow
    empty_body = "pass"
    no_label = "None"
    default_case = "case _:  # past the last line"
    keeps_nan = "  # noqa: PLR1730 (with NaN, max/min would differ)"
    header_comments = True
    try_ = "try:"

    def while_(self, test):
        return f"while {test}:"

    def elif_(self, test):
        return f"elif {test}:"

    def catch(self, type_, name):
        return f"except {type_} as {name}:"

    def counted(self, var, start, limit, step):
        stop = limit + 1 if step > 0 else limit - 1
        if step != 1:
            return f"for {var} in range({start}, {stop}, {step}):"
        return f"for {var} in range({f'{start}, {stop}' if start else stop}):"

    stepped = None

    def dispatch(self, var, entry):
        return [f"{var} = {entry}"], "while True:"

    def label_map(self, name, pairs):
        return f"{name} = {{{', '.join(f'{k}: {v}' for k, v in pairs)}}}"

    def fault(self, type_, message, line):
        return f"{type_}({message}{'' if line is None else f', line={line}'})"

    def as_label(self, value):
        return value


class CppSyntax(Syntax):
    comment = "// "
    end = ";"
    true = "true"
    false = "false"
    conjunction = " && "
    floor_div = " / "
    cdiv = "b2t_cdiv"
    scopes = True
    skips = True

    # module
    extent = "{array}.extent({axis})"

    def not_(self, test):
        return f"!{test}" if _atomic(test) else f"!({test})"

    def if_(self, cond):
        return f"if ({cond})"

    def else_(self):
        return "else"

    def declare(self, ctype, name, value):
        return f"{ctype} {name} = {value};"

    def for_range(self, var, start, stop):
        return f"for (int {var} = {start or 0}; {var} < {stop}; ++{var})"

    def for_each(self, index, item, array):
        return f"for (int {index} = 0; {index} < {array}.size(); ++{index})"

    def all_between(self, flags, first, stop):
        return f"{flags}.all({first}, {stop})"

    def min_(self, a, b):
        return f"std::min({a}, {b})"

    def max_(self, a, b):
        return f"std::max({a}, {b})"

    # statements
    throw = "throw "
    no_newline = "false"

    def spread(self, items):
        return f"{{{', '.join(items)}}}"

    list_ = tuple_ = spread

    def named(self, name, value):
        return value

    def discard(self, value):
        return f"static_cast<void>({value})"

    evaluate = discard
    adds_in_place = True
    console = "b2t::Console&"

    def choose(self, cond, yes, no):
        return f"{cond} ? {yes} : {no}"

    def negated(self, comparison):
        """`!(test)`; for a test that is itself `!(x)` or `!x`, just x (not `!(!(x))`)."""
        if comparison.startswith("!") and comparison[1:].isidentifier():
            return comparison[1:]
        if comparison.startswith("!(") and _closing_bracket(comparison, 1) == len(comparison) - 1:
            return comparison[2:-1]
        return f"!({comparison})"

    binds = True

    def flags(self, options):
        given = [n for n, (_, value, default) in enumerate(options) if value != default]
        passed = options[: given[-1] + 1] if given else []
        return [f"/*{name}=*/{str(value).lower()}" for name, value, _ in passed]

    def reply_field(self, text):
        return ".text" if text else ".number"

    def swap(self, a, b):
        return f"std::swap({a}, {b})"

    def switch(self, value):
        return f"switch ({value})"

    # control flow
    progress = "b2t::forward_progress()"  # C++ may assume a loop without effects ends
    no_label = "-1"
    default_case = "default:  // DONE, or a block of another loop"
    cases_fall_through = True
    next_in_counted_body = True
    try_ = "try"

    def while_(self, test):
        return f"while ({test})"

    def elif_(self, test):
        return f"else if ({test})"

    def catch(self, type_, name):
        return f"catch (const {type_}& {name})"

    def counted(self, var, start, limit, step):
        test = f"{var} <= {limit}" if step > 0 else f"{var} >= {limit}"
        increment = {1: f"++{var}", -1: f"--{var}"}.get(step, f"{var} += {step}")
        return self.stepped(f"{var} = {start}", test, increment)

    def stepped(self, first, test, increment):
        return f"for ({first}; {test}; {increment})"

    def dispatch(self, var, entry):
        return [], f"for (Label {var} = {entry};;)"

    def label_map(self, name, pairs):
        """The labels indexed by the enumerators (the keys are the first ones, in order)."""
        return f"static constexpr Label {name}[] = {{{', '.join(v for _, v in pairs)}}};"

    def fault(self, type_, message, line):
        return f"{type_}({message}){'' if line is None else f'.in_line({line})'}"

    def as_label(self, value):
        return f"static_cast<Label>({value})"

    def in_place(self, lines, value):
        """`value` after `lines`, where no statement can go before it (a lambda)."""
        return f"[&] {{ {' '.join(lines)} return {value}; }}()"


PYTHON = PythonSyntax()
CPP = CppSyntax()


class Layout:
    """Lays out host-code nodes as a target's `Code` lines (its class: `code(text,
    body)`); `host(nodes, lane)` and `origin(stmt)` are the target's statement printer's
    (BASIC statements, the comment and line of a statement)."""

    def __init__(self, syntax: Syntax, code, host, origin):
        self.syntax = syntax
        self.code = code
        self.host = host
        self.origin = origin

    def lines(self, nodes: list) -> list:
        out: list = []
        for node in nodes:
            out += getattr(self, "n_" + type(node).__name__)(node)
        return out

    def n_Line(self, node: n.Line):
        return [self.code(node.text + self.syntax.end)]

    def n_Raw(self, node: n.Raw):
        return [self.code(node.text)]

    def n_Comment(self, node: n.Comment):
        return [self.code(self.syntax.comment + node.text)]

    def n_Declare(self, node: n.Declare):
        return [self.code(self.syntax.declare(node.ctype, node.name, node.value))]

    def n_If(self, node: n.If):
        out = [self.code(self.syntax.if_(node.cond), self.lines(node.body))]
        if node.orelse is not None:
            out.append(self.code(self.syntax.else_(), self.lines(node.orelse)))
        return out

    def n_Block(self, node: n.Block):
        body = self.lines(node.body)
        return [self.code("", body)] if self.syntax.scopes else body

    def n_ForRange(self, node: n.ForRange):
        header = self.syntax.for_range(node.var, node.start, node.stop)
        return [self.code(header, self.lines(node.body))]

    def n_ForEach(self, node: n.ForEach):
        header = self.syntax.for_each(node.index, node.item, node.array)
        return [self.code(header, self.lines(node.body))]

    def n_Continue(self, node: n.Continue):
        return [self.code("continue" + self.syntax.end)]

    def n_Unless(self, node: n.Unless):
        if self.syntax.skips:
            return self.n_If(n.If(node.cond, [n.Continue()])) + self.lines(node.body)
        return self.n_If(n.If(self.syntax.not_(node.cond), node.body))

    def n_Host(self, node: n.Host):
        return self.host(node.nodes, node.lane)

    def n_Origin(self, node: n.Origin):
        return self.origin(node.stmt)
