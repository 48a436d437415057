"""The one table of built-in functions: what every engine knows about each of them.

Each `Builtin` says, once, for one name:

- its forms: the parameter lists it accepts (`MID$(s, i[, n])` would have two) and its
  result type; a function without forms is reserved but not implemented yet;
- the dialects that have it: ECMA-55 Minimal BASIC, our extended BASIC, Microsoft BASIC
  (GW-BASIC), QBasic, Dartmouth BASIC, cuTile BASIC kernel programs.  Its name is a
  reserved word in every dialect but Microsoft BASIC, whose reserved words are GW-BASIC's
  (`reserved_in`): there `SUM`, `MAX` and `UCASE$` are variables, as in GW-BASIC;
- what host code evaluating it can do besides giving its value (`effect`): nothing, warn
  (overflow, the program goes on), fail (a fatal domain error) or draw a random number;
- its name in the Python runtime (`basic2tile_runtime`, or a Python built-in) and in
  `b2t_runtime.h` (namespace `b2t`);
- whether an offloaded loop kernel can evaluate it, as which kernel IR operation
  (`tile_op`), and how a cuTile BASIC kernel program evaluates it (`kernel_program`).

The lexer reads every name of the table as a function (never as an implicit array; a
name without forms is a located "unsupported function" error), the type checker reads
the forms, the interpreter and both host printers the runtime names and effects, the
vectorizer, the kernel lowering and the kernel interpreter the kernel facts.
`tests/test_builtins_table.py` runs every entry through every engine it claims.

This module sits below the lexer in the import order: it imports nothing of the package.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# The type of a BASIC value: a number, a `%` integer, a string, a Microsoft double (`#`),
# a QuickBASIC LONG (`&`, a 32-bit integer).
ValueType = Literal["num", "int", "str", "dbl", "lng"]
Dialect = Literal["ecma55", "extended", "ms", "qbasic", "dartmouth", "kernel"]
# What evaluating the function on the host can do besides giving its value: "io" reads
# the state of the program's files (and fails on a file number that is not open); reading
# standard input (INKEY$, "input") is an effect on the program's order like drawing a
# number.
Effect = Literal["none", "warns", "fails", "random", "io", "input"]
# How a cuTile BASIC kernel program evaluates it: `tile_op` on each element, NVIDIA's INT
# (truncation toward zero to I32; an exact integer division for INT(a / b) of integers),
# a reduction of a tile (or MAX and MIN of two values), a matrix multiply-add, the block
# index.
KernelForm = Literal["elementwise", "to_int", "reduce", "mma", "block_index"]
# How it is written: a function call in an expression, a keyword with its own grammar
# rule (TAB in PRINT, BID), a word of the MAT assignment (`MAT C = TRN(A)`), or a call
# that only the compiler writes (the FIELD variables' `_FIELD$`: no program can name it).
Syntax = Literal["call", "keyword", "mat", "internal"]
# The arguments for which a function that `fails` stops the program with a domain error:
# below zero (SQR), zero or below (LOG), an infinity (SIN, COS, TAN), one that does not
# round into 16 bits (Microsoft's CINT: "Overflow"); "checked": the runtime function
# checks its arguments itself (the string functions: "Illegal function call",
# "Overflow"), never in a kernel.
Domain = Literal["any", "nonnegative", "positive", "finite", "int16", "checked"]
# The type of the result in Microsoft BASIC (GW-BASIC's, as PC-BASIC has it): a single,
# the argument's type (INT, FIX), the argument's floating type (ABS: an integer gives a
# single), an integer, a double.
MicrosoftResult = Literal["single", "same", "float", "int", "double", "long"]
# A parameter type: a value type, or "any" (a number or a string: STRING$'s second).
ParamType = Literal["num", "int", "str", "any"]

DIALECT_NAMES: dict[str, str] = {
    "ecma55": "ECMA-55 Minimal BASIC",
    "extended": "extended BASIC",
    "ms": "Microsoft BASIC",
    "qbasic": "QBasic",
    "dartmouth": "Dartmouth BASIC",
    "kernel": "cuTile BASIC",
    "qbasic": "QuickBASIC",
}
# The dialects whose functions a legacy program may call, by language level.
STRICT_DIALECTS = frozenset(("ecma55",))
EXTENDED_DIALECTS = frozenset(("ecma55", "extended", "ms", "dartmouth", "qbasic"))
# The functions only QuickBASIC has (a call pins --dialect qbasic; a name in GW-BASIC).
QUICKBASIC_ONLY = frozenset(("qbasic",))


@dataclass(frozen=True, slots=True)
class Builtin:
    name: str
    dialects: frozenset[Dialect]
    forms: tuple[tuple[ParamType, ...], ...] = ()
    result: ValueType | None = "num"  # None: no value (TAB is a PRINT item)
    effect: Effect = "none"
    python: str | None = None  # a name `basic2tile_runtime` exports, or a Python built-in
    cpp: str | None = None  # a function in namespace b2t of b2t_runtime.h (TAB: of Console)
    tile_op: str | None = None  # the kernel IR operation (unary or binary by arity)
    kernel: bool = False  # an offloaded loop kernel can evaluate it (as `tile_op`)
    kernel_program: KernelForm | None = None
    # In a kernel program, an integer operand gives an integer result (ABS, SGN, the
    # reductions); the other functions compute in floating point.
    keeps_kind: bool = False
    domain: Domain = "any"
    # Its value is finite for every argument (ATN, SGN): an infinite argument, which is
    # how a kernel sees an overflow, leaves no trace in the result.
    bounded: bool = False
    # Its value is at most 2 in magnitude whenever it has one (SIN, COS, ATN, SGN, RND):
    # a sum with it never overflows (passes/exprutil.sum_may_overflow).
    small: bool = False
    syntax: Syntax = "call"
    ms_result: MicrosoftResult = "single"
    # GW-BASIC computes it in single precision: the argument is rounded to a single, the
    # result converted to one (runtime/msnumbers.single_result), even for a double.
    single_precision: bool = False
    # Its value is always an integer, whatever the argument (INT, SGN, LEN...): a
    # variable set from it holds an integer (passes/parallel/integrality.py).
    integer_valued: bool = False
    # Extended BASIC has it too, but only a program written for Microsoft BASIC calls it
    # (INKEY$): it pins --dialect ms when no dialect was chosen.
    microsoft_evidence: bool = False

    @property
    def implemented(self) -> bool:
        # MAT words have no forms: the MAT grammar checks their operands (matrices).
        return bool(self.forms) or self.syntax == "mat"

    @property
    def numeric_domain(self) -> bool:
        """It fails only outside a domain of numbers (SQR, LOG...): a positive constant
        argument is inside it."""
        return self.domain in ("nonnegative", "positive", "finite")

    def accepts(self, count: int) -> tuple[ParamType, ...] | None:
        """The parameter types for `count` arguments, or None if no form has that many."""
        for form in self.forms:
            if len(form) == count:
                return form
        return None

    def arity_text(self) -> str:
        """'1 argument', '2 or 3 arguments'."""
        counts = sorted({len(form) for form in self.forms})
        text = " or ".join(str(n) for n in counts)
        return f"{text} argument{'' if counts == [1] else 's'}"

    def reserved_in(self, dialect: str | None) -> bool:
        """Whether the name is a reserved word of `dialect` (None: not chosen yet, read as
        extended BASIC).  Microsoft BASIC reserves GW-BASIC's words only (the functions
        whose dialects have "ms"): a GW-BASIC program may call a variable SUM or MAX.  The
        other dialects reserve every function name we know, so that a program of another
        dialect gets a located error rather than an array it did not mean.  An internal
        function's name is no word at all."""
        if self.syntax == "internal":
            return False
        return dialect != "ms" or "ms" in self.dialects

    def dialect_name(self) -> str:
        """The dialect to name in a message about this function (the first that has it)."""
        for dialect in ("ecma55", "extended", "ms", "qbasic", "dartmouth", "kernel"):
            if dialect in self.dialects:
                return DIALECT_NAMES[dialect]
        raise AssertionError(self.name)


# The internal functions of FIELD variables (see below).
FIELD_VALUE, LSET, RSET, FIELD_STORE = "_FIELD$", "_LSET$", "_RSET$", "_FIELD_STORE$"

# fmt: off
_LEGACY = frozenset(("ecma55", "extended", "ms", "dartmouth"))
_MS = frozenset(("ms",))
# Microsoft BASIC's functions that extended BASIC has too: a call of one does not pin
# --dialect ms (docs/dialects.md).
_MS_EXTENDED = frozenset(("extended", "ms"))
_NUM = (("num",),)


def _ecma55(name: str, effect: Effect = "none", tile_op: str | None = None,
            kernel_program: KernelForm | None = "elementwise", keeps_kind: bool = False,
            domain: Domain = "any", bounded: bool = False, small: bool = False,
            ms_result: MicrosoftResult = "single", single_precision: bool = True,
            integer_valued: bool = False) -> Builtin:
    """A numeric function of one number from ECMA-55 (every legacy dialect has it)."""
    return Builtin(
        name, _LEGACY | {"kernel"}, _NUM, effect=effect, python=name, cpp=name,
        tile_op=tile_op, kernel=True, kernel_program=kernel_program, keeps_kind=keeps_kind,
        domain=domain, bounded=bounded, small=small, ms_result=ms_result,
        single_precision=single_precision, integer_valued=integer_valued,
    )


def _ms_string(name: str, forms: tuple, result: ValueType, runtime: str,
               checked: bool = True, dialects: frozenset = _MS_EXTENDED,
               integer_valued: bool = False) -> Builtin:
    """A Microsoft string function, the same name in both runtimes; `checked`: it fails
    on arguments out of range."""
    return Builtin(name, dialects, forms, result=result, python=runtime, cpp=runtime,
                   effect="fails" if checked else "none",
                   domain="checked" if checked else "any", integer_valued=integer_valued)


_STR, _STR_NUM = (("str",),), (("str", "num"),)
_MS_STRING_FUNCTIONS = (
    _ms_string("LEFT$", _STR_NUM, "str", "LEFTS"),
    _ms_string("RIGHT$", _STR_NUM, "str", "RIGHTS"),
    _ms_string("MID$", (("str", "num"), ("str", "num", "num")), "str", "MIDS"),
    _ms_string("LEN", _STR, "num", "LEN", checked=False, integer_valued=True),
    _ms_string("VAL", _STR, "num", "VAL"),  # "Overflow"
    _ms_string("STR$", _NUM, "str", "STRS", checked=False),
    _ms_string("CHR$", _NUM, "str", "CHRS"),
    _ms_string("ASC", _STR, "num", "ASC", integer_valued=True),
    _ms_string("INSTR", (("str", "str"), ("num", "str", "str")), "num", "INSTR",
               integer_valued=True),
    _ms_string("STRING$", (("num", "any"),), "str", "STRINGS"),
    _ms_string("SPACE$", _NUM, "str", "SPACES"),
    _ms_string("HEX$", _NUM, "str", "HEXS"),
    _ms_string("OCT$", _NUM, "str", "OCTS"),
    # QBasic's; GW-BASIC lacks them (they are names there).
    *(_ms_string(name, _STR, "str", name[:-1] + "S", checked=False,
                 dialects=frozenset(("extended", "qbasic")))
      for name in ("UCASE$", "LCASE$", "LTRIM$", "RTRIM$")),
    # A key from the keyboard without waiting (Console.inkey: see its docstring).
    Builtin("INKEY$", _MS_EXTENDED, ((),), result="str", effect="input",
            python="INKEYS", cpp="INKEYS", microsoft_evidence=True),
)

_IMPLEMENTED = (
    # ECMA-55 7.4: ABS is Python's own abs (exact for floats); the others are runtime
    # functions that report bas55's warnings and domain errors.
    Builtin("ABS", _LEGACY | {"kernel"}, _NUM, python="abs", cpp="ABS", tile_op="abs",
            kernel=True, kernel_program="elementwise", keeps_kind=True, ms_result="float"),
    _ecma55("ATN", tile_op="atan", bounded=True, small=True),
    _ecma55("COS", "fails", "cos", domain="finite", small=True),
    _ecma55("EXP", "warns", "exp"),
    _ecma55("INT", tile_op="floor", kernel_program="to_int", ms_result="same",
            single_precision=False, integer_valued=True),
    _ecma55("LOG", "fails", "log", domain="positive"),
    _ecma55("SGN", tile_op="sign", keeps_kind=True, bounded=True, small=True,
            ms_result="int", single_precision=False, integer_valued=True),
    _ecma55("SIN", "fails", "sin", domain="finite", small=True),
    _ecma55("SQR", "fails", "sqrt", domain="nonnegative"),
    _ecma55("TAN", "fails", "tan", domain="finite"),
    # RND's sequence is sequential: it stays on the host.  RND(x) takes Microsoft's
    # argument (ECMA-55 has none): runtime/rnd.py.
    Builtin("RND", _LEGACY, ((), ("num",)), effect="random", python="RND", cpp="RND",
            small=True),
    # Microsoft BASIC's conversions and clock (they pin --dialect ms; their result types
    # are the type checker's: FIX keeps its argument's, CINT gives an integer...).
    Builtin("FIX", _MS, _NUM, python="FIX", cpp="FIX", ms_result="same",
            integer_valued=True),
    Builtin("CINT", _MS, _NUM, effect="fails", python="CINT", cpp="CINT", domain="int16",
            ms_result="int", integer_valued=True),
    Builtin("CSNG", _MS, _NUM, effect="warns", python="CSNG", cpp="CSNG"),
    # QuickBASIC's LONG (`&`): x rounded to a 32-bit integer, "Overflow" beyond.
    Builtin("CLNG", QUICKBASIC_ONLY, _NUM, effect="fails", python="CLNG", cpp="CLNG",
            domain="checked", ms_result="long", integer_valued=True),
    Builtin("CDBL", _MS, _NUM, python="CDBL", cpp="CDBL", ms_result="double"),
    Builtin("TIMER", _MS, ((),), python="TIMER", cpp="TIMER"),
    # Error trapping (runtime/trap.py): the number of the error being handled (GW-BASIC's
    # table: runtime/gwerrors.py) and the line it happened in (a single: up to 65535).
    Builtin("ERR", _MS, ((),), python="ERR", cpp="ERR", ms_result="int", integer_valued=True),
    Builtin("ERL", _MS, ((),), python="ERL", cpp="ERL", integer_valued=True),
    # Extended BASIC; in kernel programs also reductions of one tile.
    Builtin("MAX", frozenset(("extended", "kernel")), (("num", "num"),), python="MAX",
            cpp="MAX", tile_op="max", kernel=True, kernel_program="reduce", keeps_kind=True),
    Builtin("MIN", frozenset(("extended", "kernel")), (("num", "num"),), python="MIN",
            cpp="MIN", tile_op="min", kernel=True, kernel_program="reduce", keeps_kind=True),
    # Extended BASIC's hyperbolic functions, in double as EXP; SINH and COSH warn where
    # they overflow, as EXP does.  Kernels evaluate them too.
    *(Builtin(name, frozenset(("extended", "kernel")), _NUM, effect=effect, python=name,
              cpp=name, tile_op=name.lower(), kernel=True, kernel_program="elementwise",
              bounded=name == "TANH", small=name == "TANH")
      for name, effect in (("SINH", "warns"), ("COSH", "warns"), ("TANH", "none"))),
    # cuTile BASIC kernel programs only.
    Builtin("SUM", frozenset(("kernel",)), (("num",), ("num", "num")), kernel_program="reduce",
            keeps_kind=True),
    Builtin("MMA", frozenset(("kernel",)), (("num", "num", "num"),), kernel_program="mma"),
    Builtin("BID", frozenset(("kernel",)), ((), ("num",)), result="int",
            kernel_program="block_index", syntax="keyword"),
    # Microsoft BASIC's sequential files (runtime/files.py): the end of an input file
    # (-1 there), the size in bytes.
    Builtin("EOF", _MS_EXTENDED, _NUM, effect="io", python="EOF", cpp="file_eof"),
    Builtin("LOF", _MS_EXTENDED, _NUM, effect="io", python="LOF", cpp="file_lof"),
    # The number of the last record a GET or PUT read or wrote (of a random-access file),
    # the number of 128-byte blocks written so far (of a sequential output file; of an
    # input file it is not supported: a run-time error).
    Builtin("LOC", _MS_EXTENDED, _NUM, effect="io", python="LOC", cpp="file_loc",
            integer_valued=True),
    # Numbers as the bytes of Microsoft Binary Format and back (runtime/mbf.py): for the
    # records of random-access files.
    Builtin("MKI$", _MS_EXTENDED, _NUM, result="str", effect="fails", python="MKIS",
            cpp="MKIS", domain="checked"),
    Builtin("MKS$", _MS_EXTENDED, _NUM, result="str", effect="warns", python="MKSS",
            cpp="MKSS"),
    Builtin("MKD$", _MS_EXTENDED, _NUM, result="str", python="MKDS", cpp="MKDS"),
    Builtin("CVI", _MS_EXTENDED, _STR, effect="fails", python="CVI", cpp="CVI",
            domain="checked", ms_result="int", integer_valued=True),
    Builtin("CVS", _MS_EXTENDED, _STR, effect="fails", python="CVS", cpp="CVS",
            domain="checked"),
    Builtin("CVD", _MS_EXTENDED, _STR, effect="fails", python="CVD", cpp="CVD",
            domain="checked", ms_result="double"),
    # Internal (no program can name them: `_` is no letter of a BASIC name): the value of
    # a string variable that may be a FIELD variable, LSET and RSET (a variable's name,
    # its value, the new text), a FIELD variable's new text into its record buffer
    # (after a MID$ statement).  passes/check/flatten.py writes them.
    *(Builtin(name, _MS_EXTENDED, forms, result="str", effect="io", python=runtime,
              cpp=runtime, syntax="internal")
      for name, forms, runtime in (
          (FIELD_VALUE, (("str", "str"),), "field_value"),
          (LSET, (("str", "str", "str"),), "lset"),
          (RSET, (("str", "str", "str"),), "rset"),
          (FIELD_STORE, (("str", "str"),), "field_store"),
      )),
    # The column of the screen's cursor (1 at the start of a line; the argument is a dummy).
    Builtin("POS", _MS_EXTENDED, _NUM, effect="io", python="POS", cpp="POS"),
    # The free memory in bytes (the argument, a number or a string, is a dummy): a constant,
    # what PC-BASIC prints for the program `10 PRINT FRE(0)` (runtime/console.py).
    Builtin("FRE", frozenset(("ms",)), (("any",),), python="FRE", cpp="FRE",
            integer_valued=True),
    # Microsoft BASIC's string functions (runtime/stringfns.py: GW-BASIC's rules).
    *_MS_STRING_FUNCTIONS,
    # TAB(n) is a PRINT item of every legacy dialect, SPC(n) of Microsoft's.
    Builtin("TAB", _LEGACY, _NUM, result=None, python="tab", cpp="tab", syntax="keyword"),
    Builtin("SPC", frozenset(("ms",)), _NUM, result=None, python="spc", cpp="spc",
            syntax="keyword"),
    # The MAT assignment's functions (Dartmouth): `MAT C = ZER`, `ZER(3, 4)`, `TRN(A)`.
    # They are names everywhere else; the MAT grammar checks their operands.
    *(Builtin(name, frozenset(("dartmouth", "extended")), syntax="mat")
      for name in ("ZER", "CON", "IDN", "TRN", "INV")),
    # Dartmouth BASIC (4th edition): the determinant of the matrix the last MAT INV
    # inverted, 0 before any.
    Builtin("DET", frozenset(("dartmouth", "extended")), ((),), python="DET", cpp="DET"),
)

# Reserved function names of the supported dialects that are not implemented yet: a
# program that calls one gets a located error instead of an implicit array.
_MICROSOFT = (
    # GW-BASIC 3.23 (its manual's function list)
    "ASC", "CHR$", "CSRLIN", "CVD", "CVI", "CVS", "DATE$", "ENVIRON$", "ERDEV", "ERDEV$",
    "ERL", "ERR", "EXTERR", "FRE", "HEX$", "INKEY$", "INP", "INPUT$", "INSTR", "IOCTL$",
    "LEFT$", "LEN", "LOC", "LPOS", "MID$", "MKD$", "MKI$", "MKS$", "OCT$", "PEEK", "PEN",
    "PLAY", "PMAP", "POINT",
    "RIGHT$", "SCREEN", "SPACE$", "SPC", "STICK", "STR$", "STRIG", "STRING$", "TIME$",
    "USR", "VAL", "VARPTR", "VARPTR$",
)
# QBasic / QuickBASIC (GW-BASIC lacks them: names under --dialect ms)
# (LBOUND and UBOUND take an array: grammar/records.py.)
_QBASIC = ("CLNG", "CVL", "LCASE$", "LTRIM$", "MKL$", "RTRIM$", "UCASE$")
_DARTMOUTH = (
    "DET",  # the determinant of the last MAT INV
    "NUM",  # the number of values the last MAT INPUT read
)
# fmt: on

# (A name of these lists that `_IMPLEMENTED` has is implemented: the lists name what the
# dialects have, the table what we do.)
_DONE = frozenset(entry.name for entry in _IMPLEMENTED)
_UNIMPLEMENTED = (
    tuple(Builtin(name, frozenset(("ms",))) for name in _MICROSOFT if name not in _DONE)
    + tuple(Builtin(name, frozenset(("qbasic",))) for name in _QBASIC if name not in _DONE)
    + tuple(Builtin(name, frozenset(("dartmouth",))) for name in _DARTMOUTH if name not in _DONE)
)

BUILTINS: dict[str, Builtin] = {entry.name: entry for entry in _IMPLEMENTED + _UNIMPLEMENTED}

# The names the lexer reads as function names (token FUNC; an unimplemented one is an
# error there).  Keyword entries have tokens of their own; MAT words are names.
FUNCTION_NAMES = frozenset(name for name, b in BUILTINS.items() if b.syntax == "call")

# The kernel IR's operations computed in floating point (an integer operand is converted
# first): each is the C math function and the `ct.` function of its name, so a new one
# needs only its row.
FLOAT_TILE_OPS = tuple(
    b.tile_op for b in BUILTINS.values()
    if b.tile_op and b.kernel_program == "elementwise" and not b.keeps_kind
)


def lookup(name: str) -> Builtin | None:
    return BUILTINS.get(name)


def effect_of(name: str) -> Effect | None:
    """What host code calling built-in `name` can do besides giving its value (None: not
    a built-in, e.g. a DEF FN, whose body decides)."""
    entry = BUILTINS.get(name)
    return entry.effect if entry is not None else None


def microsoft_only(entry: Builtin) -> bool:
    """Whether only Microsoft BASIC, of the legacy dialects, has this function (a call of
    it pins --dialect ms)."""
    return "ms" in entry.dialects and not entry.dialects & {"ecma55", "extended", "dartmouth"}


def legacy_builtin(name: str, strict: bool) -> Builtin | None:
    """The implemented function `name` as a legacy program of that level may call it."""
    entry = BUILTINS.get(name)
    dialects = STRICT_DIALECTS if strict else EXTENDED_DIALECTS
    if entry is None or not entry.implemented or entry.syntax not in ("call", "internal"):
        return None
    return entry if entry.dialects & dialects else None
