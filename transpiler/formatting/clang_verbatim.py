"""`// clang-format off` ... `// clang-format on` regions, set aside while clang-format runs.

clang-format leaves the lines between these two comments as they are, but it still
reads them: the DATA table of a program with 10,000 DATA lines (80,000 items in one
initializer) took it 11 s.  `set_aside` replaces the lines of each region by one
placeholder line, which clang-format leaves as it is too, and `put_back` puts them back
in its output.  A region that does not end, or that holds a line where the file may be
cut (`cpp_pieces.SPLIT`), stays where it is.
"""

from __future__ import annotations

import io

_OFF, _ON = "// clang-format off", "// clang-format on"
_PREFIX, _SUFFIX = "// @@b2t: verbatim lines ", "@@"  # around the number of the region


def set_aside(code: str, keep_with: str) -> tuple[str, list[str]]:
    """`code` with the lines of each region replaced by a placeholder, and those lines
    (a region holding a line equal to `keep_with` stays)."""
    if _PREFIX in code:
        return code, []
    out: list[str] = []
    regions: list[str] = []
    inside: list[str] | None = None
    for line in io.StringIO(code).readlines():
        text = line.strip()
        if inside is None:
            out.append(line)
            inside = [] if text == _OFF else None
        elif text == _ON:
            if inside and keep_with not in (s.rstrip("\n") for s in inside):
                out.append(f"{_PREFIX}{len(regions)}{_SUFFIX}\n")
                regions.append("".join(inside))
            else:
                out.extend(inside)
            out.append(line)
            inside = None
        else:
            inside.append(line)
    if inside is not None:
        out.extend(inside)  # off to the end of the file: left to clang-format
    return "".join(out), regions


def put_back(formatted: str, regions: list[str]) -> str:
    """clang-format's output with each placeholder replaced by its region's lines."""
    if not regions:
        return formatted
    out: list[str] = []
    for line in io.StringIO(formatted).readlines():
        text = line.strip()
        if text.startswith(_PREFIX) and text.endswith(_SUFFIX):
            out.append(regions[int(text[len(_PREFIX) : -len(_SUFFIX)])])
        else:
            out.append(line)
    return "".join(out)
