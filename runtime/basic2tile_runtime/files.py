"""Sequential files, as Microsoft BASIC (GW-BASIC 3.23) has them.

    OPEN "DATA.TXT" FOR INPUT AS #1          (also OUTPUT, APPEND; or OPEN "I", #1, "DATA.TXT")
    INPUT #1, A, B$ / LINE INPUT #1, L$ / EOF(1) / LOF(1)
    PRINT #2, ... / PRINT #2, USING ... / WRITE #2, ... / CLOSE [#1, #2] / KILL / NAME
    WIDTH #2, 40                             (the line width: console.py's files)

One table of open files per program run (`reset_files` at the start, `close_files` at
the end, whatever ends it), numbers 1 to 255.  A file name is a path relative to the
current directory of the running program; a DOS device (``SCRN:``, ``LPT1:``, ``COM1:``...)
or drive letter is "Bad file name".  Names ignore case, as DOS's do (`dos_path`): an
existing file or folder whose name matches but for the case of ASCII letters is the one
used (the exact name first, else the first in sorted order); a new file gets the name as
written (GW-BASIC would write it in upper case, cut to 8.3).  Text is UTF-8 (other bytes pass through unchanged);
lines are written with "\\n" and read ending in "\\n", "\\r\\n" or "\\r"; a Ctrl-Z ends a file
being read, as in DOS.  An output file is a `Console` without a margin: PRINT # has the
screen's zones and number format, and PRINT # USING the screen's.

Reading (INPUT #), item by item, as GW-BASIC reads a file (PC-BASIC's `input_entry`):
spaces and NULs are skipped; at the end of the file that is "Input past end" (unless a
NUL was skipped: then the item is empty).  A line end is not skipped: an empty line is
an empty item (0 or "").  A string is either quoted (to the next quote, line ends
included, each as CHR$(13); a quote right after a skipped NUL does not quote) or runs to the next comma or
line end, without its trailing spaces.  A number runs to the next space, comma or line
end; its value is VAL's (`&H10` is 16, ``D`` is an exponent too, 0 without a number).  A NUL inside an item is dropped; an item ends after 255
characters (the rest is the next item).  After a closing quote or a trailing space,
spaces and then one comma or line end are skipped.  LINE INPUT # reads the rest of the
line, NULs kept, at most 255 characters: the rest of a longer line (or the line end
after exactly 255) is the next line.  EOF(n) is -1 when nothing is left to read (0 for
an output file); LOF(n) is the size in bytes.

Errors, with GW-BASIC's messages: an open number is "File already open", a closed one
"Bad file number" (CLOSE of a closed number is allowed), reading an output file or
writing an input file "Bad file mode", a missing file "File not found", a missing folder
"Path not found", a file that is open already (twice for output) "File already open",
NAME onto an existing file "File already exists", other system errors "Path/File access
error".

Scratch mode, for `--check`: with $BASIC2TILE_SCRATCH set to a folder, every file the
program writes goes there instead (the absolute path mirrored under it), files it reads
come from there if the program wrote them, else from their real place, and KILL only hides
a real file.  The interpreter and the generated program each get a scratch folder of their
own, so they cannot see each other's files, nothing real is changed, and `--check`
compares what each wrote.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Sequence

from .console import FILE_WIDTH, UNLIMITED, Console
from .faults import BasicFault
from .inputs import NUMBER
from .msnumbers import ILLEGAL_FUNCTION_CALL, cint
from .numformat import format_number_trimmed
from .stringfns import MAX_LENGTH, number_value
from .using import REAL, UsingPrecision

SCRATCH_VARIABLE = "BASIC2TILE_SCRATCH"
MAX_FILE_NUMBER = 255

BAD_FILE_NUMBER = "Bad file number"
BAD_FILE_MODE = "Bad file mode"
BAD_FILE_NAME = "Bad file name"
FILE_NOT_FOUND = "File not found"
FILE_ALREADY_OPEN = "File already open"
FILE_ALREADY_EXISTS = "File already exists"
INPUT_PAST_END = "Input past end"
PATH_NOT_FOUND = "Path not found"
ACCESS_ERROR = "Path/File access error"

_END_OF_FILE = "\x1a"  # Ctrl-Z
_BLANKS = " \0"  # skipped before an INPUT # item
_DEVICE = re.compile(
    r"(KYBD|SCRN|CONS|LPT[0-9]|COM[0-9]|CAS[0-9]):.*|[A-Z]:.*", re.IGNORECASE | re.ASCII | re.DOTALL
)


# --------------------------------------------------------------------------- names


_ASCII_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def dos_path(path: str) -> str:
    """`path` (absolute), or the existing file or folder whose name matches it but for
    the case of ASCII letters, component by component (the exact name first, else the
    first match in sorted order); where nothing matches, the rest as written."""
    if os.path.lexists(path):
        return path
    folder, name = os.path.split(path)
    if not name or folder == path:
        return path
    folder = dos_path(folder)
    try:
        entries = sorted(os.listdir(folder))
    except OSError:
        return os.path.join(folder, name)
    wanted = name.translate(_ASCII_UPPER)
    for entry in entries:
        if entry.translate(_ASCII_UPPER) == wanted:
            return os.path.join(folder, entry)
    return os.path.join(folder, name)


class FileSystem:
    """Where a BASIC file name is read and written: in place, or in a scratch folder."""

    def __init__(self, scratch: str | None = None):
        self.scratch = scratch
        self.hidden: set[str] = set()  # real files KILLed in scratch mode, by `identity`

    @staticmethod
    def key(name: str) -> str:
        """The absolute path of `name`: an existing file whose name matches but for case
        (`dos_path`), else the name as written."""
        if not name or "\0" in name:
            raise BasicFault(BAD_FILE_NAME, "(an empty name)" if not name else "")
        if _DEVICE.fullmatch(name):
            raise BasicFault(
                BAD_FILE_NAME, f"({name}: devices and drive letters are not supported)"
            )
        return dos_path(os.path.abspath(name))

    @classmethod
    def identity(cls, name: str) -> str:
        """One text for every spelling of a file's name: which files are open, KILLed."""
        return cls.key(name).translate(_ASCII_UPPER)

    def _mirror(self, key: str) -> str:
        return dos_path(os.path.join(self.scratch, key.lstrip(os.sep)))

    def reading(self, name: str) -> str | None:
        """The path to read `name` from (it may not exist), None if KILL removed it."""
        key = self.key(name)
        if self.scratch is None:
            return key
        mirror = self._mirror(key)
        if os.path.lexists(mirror):
            return mirror
        return None if self.identity(name) in self.hidden else key

    def writing(self, name: str, append: bool) -> str:
        """The path to write `name` to; for APPEND, a real file is copied there first."""
        key = self.key(name)
        if self.scratch is None:
            return key
        mirror = self._mirror(key)
        if not os.path.isdir(os.path.dirname(key)):
            return key  # fails as the real path would: "Path not found"
        os.makedirs(os.path.dirname(mirror), exist_ok=True)
        hidden = self.identity(name) in self.hidden
        copy = append and not os.path.lexists(mirror) and not hidden
        if copy and os.path.isfile(key):
            shutil.copyfile(key, mirror)
        self.hidden.discard(self.identity(name))
        return mirror

    def exists(self, name: str) -> bool:
        path = self.reading(name)
        return path is not None and os.path.isfile(path)

    def remove(self, name: str) -> None:
        if not self.exists(name):
            raise BasicFault(FILE_NOT_FOUND, f"({name})")
        path = self.reading(name)
        if self.scratch is not None and path == self.key(name):
            self.hidden.add(self.identity(name))
            return
        _system(os.remove, path, name)
        if self.scratch is not None:
            self.hidden.add(self.identity(name))


def _system(action, path: str, name: str):
    """`action(path)` with system errors as BASIC's."""
    try:
        return action(path)
    except OSError:
        raise BasicFault(_missing(path) or ACCESS_ERROR, f"({name})") from None


def _missing(path: str) -> str | None:
    """Why `path` cannot be found, if it cannot."""
    if os.path.lexists(path):
        return None
    return FILE_NOT_FOUND if os.path.isdir(os.path.dirname(path)) else PATH_NOT_FOUND


# --------------------------------------------------------------------------- open files


class _InputFile:
    mode = "I"

    def __init__(self, path: str | None, name: str):
        if path is None:
            raise BasicFault(FILE_NOT_FOUND, f"({name})")
        with _system(lambda p: open(p, "rb"), path, name) as handle:
            data = handle.read()
        self.size = len(data)
        text = data.decode("utf-8", errors="surrogateescape")
        text = text.split(_END_OF_FILE, 1)[0]
        self.text = text.replace("\r\n", "\n").replace("\r", "\n")
        self.pos = 0

    def at_end(self) -> bool:
        return self.pos >= len(self.text)

    def _skip(self, characters: str) -> str:
        """Skip `characters`; the last one skipped ("" if none)."""
        text, pos = self.text, self.pos
        while pos < len(text) and text[pos] in characters:
            pos += 1
        last = text[pos - 1] if pos > self.pos else ""
        self.pos = pos
        return last

    def _next(self) -> str:
        """The next character, consumed; "" at the end."""
        if self.pos >= len(self.text):
            return ""
        self.pos += 1
        return self.text[self.pos - 1]

    def item(self, kind: str) -> float | str:
        word = self._entry(kind == NUMBER)
        if kind != NUMBER:
            return word
        return number_value(word)

    def _entry(self, number: bool) -> str:
        """The text of the next item, its separator consumed (see the module docstring)."""
        last = self._skip(_BLANKS)
        c = self._next()
        quoted = c == '"' and not number and last != "\0"
        if quoted:
            c = self._next()
        if not c and last != "\0":
            raise BasicFault(INPUT_PAST_END)
        word, blanks = "", ""
        while c and not ((number and c == " ") or (c in ",\n" and not quoted)):
            if quoted and c == '"':
                break
            if c == " " and not quoted:
                blanks += c  # kept only inside a string
            elif c != "\0":  # a line end inside quotes is CHR$(13), as DOS wrote it
                word, blanks = word + blanks + ("\r" if c == "\n" else c), ""
            if len(word) + len(blanks) >= MAX_LENGTH:
                break
            c = self._next()
        if c in _BLANKS and c or (quoted and c == '"'):
            self._skip(" ")
            if not self.at_end() and self.text[self.pos] in ",\n":
                self.pos += 1
        return word

    def line(self) -> str:
        if self.at_end():
            raise BasicFault(INPUT_PAST_END)
        end = self.text.find("\n", self.pos)
        end = len(self.text) if end < 0 else end
        if end - self.pos >= MAX_LENGTH:  # the rest, line end included, is the next line
            self.pos += MAX_LENGTH
            return self.text[self.pos - MAX_LENGTH : self.pos]
        line = self.text[self.pos : end]
        self.pos = end + 1
        return line


class _OutputFile:
    def __init__(self, path: str, name: str, append: bool, precision: UsingPrecision):
        self.mode = "A" if append else "O"
        how = "a" if append else "w"

        def open_text(p: str):
            return open(p, how, encoding="utf-8", errors="surrogateescape", newline="")

        self.handle = _system(open_text, path, name)
        self.console = Console(self.handle, None, False, precision, UNLIMITED)

    def size(self) -> int:
        self.handle.flush()
        return os.fstat(self.handle.fileno()).st_size


class FileTable:
    """The files a program has open, by number."""

    def __init__(self, precision: UsingPrecision = REAL, scratch: str | None = None):
        self.precision = precision
        self.system = FileSystem(scratch)
        self.open_files: dict[int, _InputFile | _OutputFile] = {}
        self.paths: dict[int, str] = {}  # number -> the identity of its name

    @staticmethod
    def number(n: float) -> int:
        if not (1 <= n < MAX_FILE_NUMBER + 0.5):
            raise BasicFault(BAD_FILE_NUMBER, f"(#{format_number_trimmed(n)})")
        return int(n + 0.5)

    def open(self, name: str, mode: str, n: float) -> None:
        number = self.number(n)
        if number in self.open_files:
            raise BasicFault(FILE_ALREADY_OPEN, f"(#{number})")
        mode = open_mode(mode)
        key = self.system.identity(name)
        for other, path in self.paths.items():
            if path == key and (mode != "I" or self.open_files[other].mode != "I"):
                raise BasicFault(FILE_ALREADY_OPEN, f"({name} as #{other})")
        if mode == "I":
            channel = _InputFile(self.system.reading(name), name)
        else:
            path = self.system.writing(name, append=mode == "A")
            channel = _OutputFile(path, name, mode == "A", self.precision)
        self.open_files[number] = channel
        self.paths[number] = key

    def _get(self, n: float):
        number = self.number(n)
        channel = self.open_files.get(number)
        if channel is None:
            raise BasicFault(BAD_FILE_NUMBER, f"(#{number} is not open)")
        return channel

    def _input(self, n: float) -> _InputFile:
        channel = self._get(n)
        if channel.mode != "I":
            raise BasicFault(BAD_FILE_MODE, f"(#{self.number(n)} is open for output)")
        return channel

    def output(self, n: float) -> Console:
        channel = self._get(n)
        if channel.mode == "I":
            raise BasicFault(BAD_FILE_MODE, f"(#{self.number(n)} is open for input)")
        return channel.console

    def input(self, n: float, kinds: Sequence[str]) -> list[float | str]:
        channel = self._input(n)
        return [channel.item(kind) for kind in kinds]

    def line(self, n: float) -> str:
        return self._input(n).line()

    def eof(self, n: float) -> float:
        channel = self._get(n)
        return -1.0 if channel.mode == "I" and channel.at_end() else 0.0

    def lof(self, n: float) -> float:
        channel = self._get(n)
        return float(channel.size if channel.mode == "I" else channel.size())

    def close(self, numbers: Sequence[float] = ()) -> None:
        chosen = [self.number(n) for n in numbers] if numbers else list(self.open_files)
        for number in chosen:
            channel = self.open_files.pop(number, None)
            self.paths.pop(number, None)
            if isinstance(channel, _OutputFile):
                channel.handle.close()

    def width(self, n: float, width: float) -> None:
        """`WIDTH #n, width`: 0 to 255 (255: lines are never broken); a file open for
        input keeps it without using it."""
        channel = self._get(n)
        w = int(cint(width))
        if not 0 <= w <= FILE_WIDTH:
            raise BasicFault(ILLEGAL_FUNCTION_CALL, f"(WIDTH #{self.number(n)}, {w})")
        if channel.mode != "I":
            channel.console.set_width(w)

    def kill(self, name: str) -> None:
        if self.system.identity(name) in self.paths.values():
            raise BasicFault(FILE_ALREADY_OPEN, f"({name})")
        self.system.remove(name)

    def rename(self, old: str, new: str) -> None:
        if not self.system.exists(old):
            raise BasicFault(FILE_NOT_FOUND, f"({old})")
        if self.system.exists(new):
            raise BasicFault(FILE_ALREADY_EXISTS, f"({new})")
        if self.system.identity(old) in self.paths.values():
            raise BasicFault(FILE_ALREADY_OPEN, f"({old})")
        source = self.system.reading(old)
        target = self.system.writing(new, append=False)
        if self.system.scratch is None:
            _system(lambda p: os.rename(p, target), source, old)
        else:
            _system(lambda p: shutil.copyfile(p, target), source, old)
            self.system.remove(old)


def open_mode(mode: str) -> str:
    """The mode of OPEN: "I", "O" or "A" (the first letter of the old form's string)."""
    letter = mode[:1].upper()
    if letter == "R":
        raise BasicFault(BAD_FILE_MODE, "(random-access files are not supported)")
    if letter not in ("I", "O", "A"):
        raise BasicFault(BAD_FILE_MODE, f'("{mode}")')
    return letter


# --------------------------------------------------------------------------- the program's table

_table = FileTable()


def reset_files(precision: UsingPrecision = REAL) -> None:
    """At the start of a run: no file open; scratch mode if $BASIC2TILE_SCRATCH is set."""
    global _table
    _table.close()
    _table = FileTable(precision, os.environ.get(SCRATCH_VARIABLE) or None)


def open_file(name: str, mode: str, number: float) -> None:
    _table.open(name, mode, number)


def close_files(*numbers: float) -> None:
    """CLOSE the numbers given, or every file (also at the end of the program)."""
    _table.close(numbers)


def file_output(number: float) -> Console:
    """The channel PRINT #, PRINT # USING and WRITE # write to."""
    return _table.output(number)


def file_input(number: float, kinds: Sequence[str]) -> list[float | str]:
    return _table.input(number, kinds)


def file_line(number: float) -> str:
    return _table.line(number)


def file_width(number: float, width: float) -> None:
    _table.width(number, width)


def kill_file(name: str) -> None:
    _table.kill(name)


def rename_file(old: str, new: str) -> None:
    _table.rename(old, new)


def EOF(number: float) -> float:
    return _table.eof(number)


def LOF(number: float) -> float:
    return _table.lof(number)
