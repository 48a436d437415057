"""User text in generated C++: string literals, `//` comments and number literals.

BASIC text reaches C++ source in two places, and neither may change the program:

- a string literal must give exactly the bytes of the BASIC string (UTF-8): quotes and
  backslashes are escaped, `?` after `?` is escaped so no `??x` trigraph can form,
  control characters and other non-printable characters become three-digit octal
  escapes (an octal escape never takes more than three digits, so it cannot merge with
  a digit that follows, as a `\\x` escape would); printable non-ASCII characters stay
  as they are (the source is UTF-8, and so are GCC's and nvcc's execution character sets);
- a `//` comment must stay one comment: no line break, no `*/`, no `??` (trigraphs),
  and no backslash at its end (a line splice would swallow the next line).
"""

from __future__ import annotations

import math

_SIMPLE_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def cpp_string(text: str) -> str:
    """A C++ string literal whose bytes are the UTF-8 encoding of `text`."""
    out = ['"']
    previous = ""
    for ch in text:
        if ch in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[ch])
        elif ch == "?" and previous == "?":
            out.append("\\?")
        elif ch.isprintable() and ch != "\x7f":
            out.append(ch)
        else:
            out.extend(f"\\{byte:03o}" for byte in ch.encode("utf-8"))
        previous = ch
    out.append('"')
    return "".join(out)


def cpp_std_string(text: str) -> str:
    """`text` for a `std::string` parameter or member: the literal, or for text with a
    NUL `std::string(literal, length)` (built from a `const char*` it would end there)."""
    if "\0" not in text:
        return cpp_string(text)
    return f"std::string({cpp_string(text)}, {len(text.encode('utf-8'))})"


def comment_text(text: str) -> str:
    """`text` made safe for the inside of a `//` comment (one line)."""
    safe = text if text.isprintable() else "".join(ch if ch.isprintable() else "?" for ch in text)
    while "*/" in safe:
        safe = safe.replace("*/", "* /")
    while "??" in safe:
        safe = safe.replace("??", "? ?")
    safe = safe.rstrip()
    if safe.endswith("\\"):
        safe += "[end]"  # a final backslash would splice the next line into the comment
    return safe


def line_comment(text: str) -> str:
    return "// " + comment_text(text)


def origin_comment(label: int | None, text: str) -> str:
    """`// 40 FOR I = 1 TO N` above the code of a BASIC statement."""
    where = f"{label} " if label is not None else ""
    return line_comment(where + text)


def cpp_number(value: float) -> str:
    """A C++ double literal with exactly `value` (Python's shortest round-trip text)."""
    if math.isinf(value):
        return "b2t::INF" if value > 0 else "-b2t::INF"
    return repr(float(value))  # "2.0", "0.1", "1e+30": double literals in C++ too
