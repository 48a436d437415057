"""Sequential and random-access files, as Microsoft BASIC (GW-BASIC 3.23) has them.

    OPEN "DATA.TXT" FOR INPUT AS #1          (also OUTPUT, APPEND; or OPEN "I", #1, "DATA.TXT")
    INPUT #1, A, B$ / LINE INPUT #1, L$ / EOF(1) / LOF(1)
    PRINT #2, ... / PRINT #2, USING ... / WRITE #2, ... / CLOSE [#1, #2] / KILL / NAME
    MKDIR "SUB" / RMDIR "SUB" / CHDIR "SUB"  (folders: `FileSystem.make_folder`...)
    WIDTH #2, 40                             (the line width: console.py's files)
    OPEN "F.DAT" FOR RANDOM AS #3 LEN = 32 / FIELD #3, 20 AS N$ / LSET N$ = X$ / PUT #3, 1
    GET #3 / LOC(3)                          (random files: `_RandomFile`, `_Fields`)

One table of open files per program run (`reset_files` at the start, `close_files` at
the end, whatever ends it), numbers 1 to 255.  A file name is a path relative to the
current directory of the running program (the folder of its last CHDIR, else the
process's); a DOS device (``SCRN:``, ``LPT1:``, ``COM1:``...)
or drive letter is "Bad file name".  Names ignore case, as DOS's do (`dos_path`): an
existing file or folder whose name matches but for the case of ASCII letters is the one
used (the exact name first, else the first in sorted order); a new file gets the name as
written (GW-BASIC would write it in upper case, cut to 8.3).  Text is UTF-8 (other bytes pass through unchanged);
under --dialect ms lines are written with "\\r\\n" and read ending in "\\r\\n" or "\\r", a
lone "\\n" being a character, as GW-BASIC has them (`_InputFile`); in the other dialects
they are written with "\\n" and read ending in any of the three.  A Ctrl-Z ends a file
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
from .dialect import microsoft
from .faults import BasicFault
from .inputs import NUMBER
from .msnumbers import ILLEGAL_FUNCTION_CALL, cint, float32
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
FIELD_OVERFLOW = "FIELD overflow"
BAD_RECORD_NUMBER = "Bad record number"
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
        # real files KILLed and folders RMDIRed in scratch mode, by `identity`
        self.hidden: set[str] = set()
        self.current: str | None = None  # CHDIR's folder (None: the process's)

    def key(self, name: str) -> str:
        """The absolute path of `name` (from CHDIR's folder): an existing file whose
        name matches but for case (`dos_path`), else the name as written."""
        if not name or "\0" in name:
            raise BasicFault(BAD_FILE_NAME, "(an empty name)" if not name else "")
        if _DEVICE.fullmatch(name):
            raise BasicFault(
                BAD_FILE_NAME, f"({name}: devices and drive letters are not supported)"
            )
        return dos_path(os.path.normpath(os.path.join(self.current or os.getcwd(), name)))

    def identity(self, name: str) -> str:
        """One text for every spelling of a file's name: which files are open, KILLed."""
        return self.key(name).translate(_ASCII_UPPER)

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
        folder = os.path.dirname(key)
        if not self.is_folder(folder):
            if os.path.isdir(folder):  # a real folder RMDIR removed
                raise BasicFault(PATH_NOT_FOUND, f"({name})")
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

    # Folders (MKDIR, RMDIR).  In scratch mode a new folder is made in the scratch
    # folder, and RMDIR of a real one only hides it, as KILL hides a real file.

    def is_folder(self, key: str) -> bool:
        """Whether the folder at the absolute path `key` is there for the program."""
        if self.scratch is not None and os.path.isdir(self._mirror(key)):
            return True
        return os.path.isdir(key) and key.translate(_ASCII_UPPER) not in self.hidden

    def make_folder(self, name: str) -> None:
        """MKDIR: a file or folder of that name is "Path/File access error", a missing
        parent folder "Path not found" (GW-BASIC's errors 75 and 76)."""
        key = self.key(name)
        if self.is_folder(key) or self.exists(name):
            raise BasicFault(ACCESS_ERROR, f"({name})")
        if not self.is_folder(os.path.dirname(key)):
            raise BasicFault(PATH_NOT_FOUND, f"({name})")
        if self.scratch is None:
            _system(os.mkdir, key, name)
        else:
            os.makedirs(self._mirror(key), exist_ok=True)

    def remove_folder(self, name: str) -> None:
        """RMDIR: no such folder (a file too) is "Path not found", a folder that is not
        empty "Path/File access error"."""
        key = self.key(name)
        if not self.is_folder(key):
            raise BasicFault(PATH_NOT_FOUND, f"({name})")
        if self._visible_entries(key):
            raise BasicFault(ACCESS_ERROR, f"({name})")
        if self.scratch is None:
            _system(os.rmdir, key, name)
            return
        mirror = self._mirror(key)
        if os.path.isdir(mirror):
            os.rmdir(mirror)
        if os.path.isdir(key):
            self.hidden.add(key.translate(_ASCII_UPPER))

    def change_folder(self, name: str) -> None:
        """CHDIR: the folder names are found from; no such folder is "Path not found".
        (The process's own folder does not change: the interpreter runs in the
        compiler's process.)"""
        key = self.key(name)
        if not self.is_folder(key):
            raise BasicFault(PATH_NOT_FOUND, f"({name})")
        self.current = key

    def _visible_entries(self, key: str) -> set[str]:
        """The names in the folder `key` the program can see."""
        found: set[str] = set()
        if self.scratch is not None and os.path.isdir(self._mirror(key)):
            found.update(os.listdir(self._mirror(key)))
        if os.path.isdir(key):
            for entry in os.listdir(key):
                if os.path.join(key, entry).translate(_ASCII_UPPER) not in self.hidden:
                    found.add(entry)
        return found


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
    """A file open for INPUT, read whole.  Its line end is CR (`_read` reads CR LF as
    one CR).  With `soft_linefeed` (--dialect ms, as GW-BASIC) a lone LF is a character:
    LINE INPUT # keeps it (and a CR right after it), INPUT # drops it (and such a CR)
    outside quotes; without, every LF is a line end, as in PC-BASIC's text files."""

    mode = "I"

    def __init__(self, path: str | None, name: str, soft_linefeed: bool):
        if path is None:
            raise BasicFault(FILE_NOT_FOUND, f"({name})")
        with _system(lambda p: open(p, "rb"), path, name) as handle:
            data = handle.read()
        self.size = len(data)
        text = data.decode("utf-8", errors="surrogateescape")
        text = text.split(_END_OF_FILE, 1)[0]
        if not soft_linefeed:
            text = text.replace("\r\n", "\r").replace("\n", "\r")
        self.text = text
        self.blanks = " \0\n" if soft_linefeed else _BLANKS  # skipped before an item
        self.pos = 0
        self.previous = ""  # the character read last

    def at_end(self) -> bool:
        return self.pos >= len(self.text)

    def _read(self, line_ends: bool = True) -> str:
        """The next character, consumed; "" at the end.  A CR LF is one line end, read as
        CR (`line_ends`; not inside quotes, nor right after an LF: PC-BASIC's
        TextFile.read_one)."""
        text, pos = self.text, self.pos
        if pos >= len(text):
            return ""
        c = text[pos]
        pos += 1
        if line_ends and c == "\r" and self.previous != "\n" and text.startswith("\n", pos):
            pos += 1
        self.pos, self.previous = pos, c
        return c

    def _skip(self, characters: str) -> str:
        """Skip `characters`; the last one skipped ("" if none)."""
        last = ""
        while self.pos < len(self.text) and self.text[self.pos] in characters:
            last = self._read(line_ends=False)
        return last

    def item(self, kind: str) -> float | str:
        word = self._entry(kind == NUMBER)
        if kind != NUMBER:
            return word
        return number_value(word)

    def _entry(self, number: bool) -> str:
        """The text of the next item, its separator consumed (see the module docstring)."""
        last = self._skip(self.blanks)
        escaped = last in ("\0", "\n")  # a quote right after them quotes nothing
        c = self._read()
        quoted = c == '"' and not number and not escaped
        if quoted:
            c = self._read(line_ends=False)
        if not c and not escaped:
            raise BasicFault(INPUT_PAST_END)
        word, blanks = "", ""
        while c and not ((number and c == " ") or (c in ",\r" and not quoted)):
            if quoted and c == '"':
                break
            if c == "\n" and not quoted:  # LF and LF CR are dropped (GW-BASIC)
                c = self._read()
                if c == "\r":
                    c = self._read()
                continue
            if c == " " and not quoted:
                blanks += c  # kept only inside a string
            elif c != "\0":  # inside quotes a line end is kept: CHR$(13)
                word, blanks = word + blanks + c, ""
            if len(word) + len(blanks) >= MAX_LENGTH:
                break
            c = self._read(line_ends=not quoted)
        if c in _BLANKS and c or (quoted and c == '"'):
            self._skip(" ")
            if not self.at_end() and self.text[self.pos] in ",\r":
                self._read()
        return word

    def line(self) -> str:
        """LINE INPUT #: up to a CR (CR LF) that does not follow an LF, at most 255
        characters (the rest is the next line)."""
        if self.at_end():
            raise BasicFault(INPUT_PAST_END)
        characters: list[str] = []
        while len(characters) < MAX_LENGTH:
            before = self.previous
            c = self._read()
            if not c or (c == "\r" and before != "\n"):
                break
            characters.append(c)
        return "".join(characters)


class _OutputFile:
    def __init__(self, path: str, name: str, append: bool, precision: UsingPrecision):
        self.mode = "A" if append else "O"
        how = "a" if append else "w"

        def open_text(p: str):
            return open(p, how, encoding="utf-8", errors="surrogateescape", newline="")

        if append:
            _drop_end_of_file(path)
        self.handle = _system(open_text, path, name)
        self.console = Console(self.handle, None, False, precision, UNLIMITED)

    def size(self) -> int:
        self.handle.flush()
        return os.fstat(self.handle.fileno()).st_size


DEFAULT_RECORD_LENGTH = 128
MAX_RECORD_LENGTH = 32767
MAX_RECORD_NUMBER = 2**25  # PC-BASIC's limit: record - 1 fits a single's mantissa


class _RandomFile:
    """A random-access file: records of `length` bytes, numbered from 1, read into and
    written from the start of `buffer` by GET and PUT; `record` is the last one (LOC).
    The buffer is its number's (`FileTable.buffers`)."""

    mode = "R"

    def __init__(self, path: str, name: str, length: int, buffer: bytearray):
        def open_binary(p: str):
            return open(p, "r+b" if os.path.exists(p) else "w+b")

        self.handle = _system(open_binary, path, name)
        self.length = length
        self.buffer = buffer
        self.record = 0

    def size(self) -> int:
        self.handle.seek(0, os.SEEK_END)
        return self.handle.tell()

    def at_end(self) -> bool:
        """EOF: the last GET went past the end of the file."""
        return self.record * self.length > self.size()

    def get(self, record: int | None) -> None:
        record = self.record + 1 if record is None else record
        self.handle.seek((record - 1) * self.length)
        data = self.handle.read(self.length)
        self.buffer[: self.length] = data.ljust(self.length, b"\0")
        self.record = record

    def put(self, record: int | None) -> None:
        record = self.record + 1 if record is None else record
        self.handle.seek((record - 1) * self.length)  # a gap before it reads as NULs
        self.handle.write(self.buffer[: self.length])
        self.record = record


def _record_number(x: float) -> int:
    """GET's and PUT's record number: a single (as in PC-BASIC: 2^25 + 1 is 2^25),
    rounded, 1 to 2^25, else "Bad record number"."""
    x = float32(x)
    if not 0.5 <= x < MAX_RECORD_NUMBER + 0.5:
        raise BasicFault(BAD_RECORD_NUMBER, f"({format_number_trimmed(x)})")
    return int(x + 0.5)


def record_length(x: float) -> int:
    """The record length of OPEN: 1 to 32767 ("Overflow" beyond 16 bits)."""
    length = int(cint(x))
    if not 1 <= length <= MAX_RECORD_LENGTH:
        raise BasicFault(ILLEGAL_FUNCTION_CALL, f"(a record length of {length})")
    return length


class _Fields:
    """The FIELD variables: each string variable's place in a record buffer, by name.

    A FIELD variable's value is its bytes of the buffer (characters 0 to 255): GET
    changes it, LSET and RSET write the buffer; an assignment of another kind (LET,
    INPUT, READ...) makes it an ordinary variable again; SWAP exchanges places.  The
    generated code keeps the variables' values: after each of those statements it
    assigns every FIELD variable of the program its `value` (passes/check/flatten.py)."""

    def __init__(self) -> None:
        self.places: dict[str, tuple[bytearray, int, int]] = {}

    def bind(self, buffer: bytearray, widths: Sequence[int], names: Sequence[str]) -> None:
        offset = 0
        for width, name in zip(widths, names):
            self.places[name] = (buffer, offset, width)
            offset += width

    def value(self, name: str, current: str) -> str:
        place = self.places.get(name)
        if place is None:
            return current
        buffer, offset, width = place
        return buffer[offset : offset + width].decode("latin-1")

    def store(self, name: str, text: str) -> str:
        """Write `text` into the variable's place (if it has one); returns `text`."""
        place = self.places.get(name)
        if place is not None:
            buffer, offset, width = place
            buffer[offset : offset + width] = _record_bytes(text[:width].ljust(width))
        return text

    def justify(self, name: str, current: str, text: str, right: bool) -> str:
        """LSET or RSET: `text` cut or padded with spaces to the variable's width (a FIELD
        variable's, written into its buffer; an ordinary variable's current length)."""
        place = self.places.get(name)
        width = place[2] if place is not None else len(current)
        text = text[:width].rjust(width) if right else text[:width].ljust(width)
        return self.store(name, text)

    def release(self, names: Sequence[str]) -> None:
        for name in names:
            self.places.pop(name, None)

    def swap(self, first: str, second: str) -> None:
        a, b = self.places.pop(first, None), self.places.pop(second, None)
        if b is not None:
            self.places[first] = b
        if a is not None:
            self.places[second] = a


def _record_bytes(text: str) -> bytes:
    try:
        return text.encode("latin-1")
    except UnicodeEncodeError:
        raise BasicFault(
            ILLEGAL_FUNCTION_CALL, "(a record holds characters up to CHR$(255) only)"
        ) from None


def _drop_end_of_file(path: str) -> None:
    """APPEND writes over a Ctrl-Z that ends a DOS file (GW-BASIC writes one; else what
    is appended would come after the end of the file's text), as PC-BASIC does."""
    try:
        with open(path, "r+b") as handle:
            if handle.seek(0, os.SEEK_END) > 0:
                handle.seek(-1, os.SEEK_END)
                if handle.read(1) == _END_OF_FILE.encode():
                    handle.truncate(handle.seek(-1, os.SEEK_END))
    except OSError:
        pass  # a file that is not there yet, or that cannot be opened: open says why


class FileTable:
    """The files a program has open, by number."""

    def __init__(self, precision: UsingPrecision = REAL, scratch: str | None = None):
        self.precision = precision
        self.system = FileSystem(scratch)
        self.open_files: dict[int, _InputFile | _OutputFile | _RandomFile] = {}
        self.paths: dict[int, str] = {}  # number -> the identity of its name
        self.fields = _Fields()
        # The record buffer of each file number, as GW-BASIC has one: it outlives CLOSE
        # (a FIELD variable still shows it), and the next random file of that number
        # uses it again, contents and all (PC-BASIC).
        self.buffers: dict[int, bytearray] = {}

    @staticmethod
    def number(n: float) -> int:
        if not (1 <= n < MAX_FILE_NUMBER + 0.5):
            raise BasicFault(BAD_FILE_NUMBER, f"(#{format_number_trimmed(n)})")
        return int(n + 0.5)

    def open(self, name: str, mode: str, n: float, length: float | None = None) -> None:
        number = self.number(n)
        if number in self.open_files:
            raise BasicFault(FILE_ALREADY_OPEN, f"(#{number})")
        mode = open_mode(mode)
        size = DEFAULT_RECORD_LENGTH if length is None else record_length(length)
        key = self.system.identity(name)
        for other, path in self.paths.items():
            shared = mode in ("I", "R") and self.open_files[other].mode == mode
            if path == key and not shared:
                raise BasicFault(FILE_ALREADY_OPEN, f"({name} as #{other})")
        if mode == "I":
            channel = _InputFile(self.system.reading(name), name, microsoft())
        elif mode == "R":
            buffer = self.buffers.setdefault(number, bytearray())
            buffer.extend(bytes(max(0, size - len(buffer))))
            channel = _RandomFile(self.system.writing(name, append=True), name, size, buffer)
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
        _not_random(channel, "INPUT # and LINE INPUT #")
        if channel.mode != "I":
            raise BasicFault(BAD_FILE_MODE, f"(#{self.number(n)} is open for output)")
        return channel

    def output(self, n: float) -> Console:
        channel = self._get(n)
        _not_random(channel, "PRINT # and WRITE #")
        if channel.mode == "I":
            raise BasicFault(BAD_FILE_MODE, f"(#{self.number(n)} is open for input)")
        return channel.console

    def _random(self, n: float, not_open: str) -> _RandomFile:
        number = self.number(n)
        channel = self.open_files.get(number)
        if channel is None:
            raise BasicFault(not_open, f"(#{number} is not open)")
        if channel.mode != "R":
            raise BasicFault(BAD_FILE_MODE, f"(#{number} is not a random-access file)")
        return channel

    def field(self, n: float, widths: Sequence[float], names: Sequence[str]) -> None:
        """FIELD #n, widths[0] AS names[0], ...: "FIELD overflow" past the record length
        (GW-BASIC's rule, DSKCOM.ASM and its manual; PC-BASIC allows 128 bytes)."""
        channel = self._random(n, BAD_FILE_NUMBER)
        sizes = []
        for width in widths:
            size = int(cint(width))
            if not 0 <= size <= 255:
                raise BasicFault(ILLEGAL_FUNCTION_CALL, f"(FIELD width {size})")
            sizes.append(size)
        if sum(sizes) > channel.length:
            why = f"({sum(sizes)} bytes in a record of {channel.length})"
            raise BasicFault(FIELD_OVERFLOW, why)
        self.fields.bind(channel.buffer, sizes, names)

    def record(self, n: float, record: float | None, put: bool) -> None:
        """GET (put False) or PUT #n[, record]: a closed file is "Bad file mode", as in
        PC-BASIC."""
        channel = self._random(n, BAD_FILE_MODE)
        number = None if record is None else _record_number(record)
        if put:
            channel.put(number)
        else:
            channel.get(number)

    def loc(self, n: float) -> float:
        channel = self._get(n)
        if channel.mode == "R":
            return float(channel.record)
        if channel.mode == "I":
            raise BasicFault(
                ILLEGAL_FUNCTION_CALL, "(LOC of a sequential input file is not supported)"
            )
        return float(channel.size() // 128)

    def input(self, n: float, kinds: Sequence[str]) -> list[float | str]:
        channel = self._input(n)
        return [channel.item(kind) for kind in kinds]

    def line(self, n: float) -> str:
        return self._input(n).line()

    def eof(self, n: float) -> float:
        channel = self._get(n)
        return -1.0 if channel.mode in ("I", "R") and channel.at_end() else 0.0

    def lof(self, n: float) -> float:
        channel = self._get(n)
        return float(channel.size if channel.mode == "I" else channel.size())

    def close(self, numbers: Sequence[float] = ()) -> None:
        chosen = [self.number(n) for n in numbers] if numbers else list(self.open_files)
        for number in chosen:
            channel = self.open_files.pop(number, None)
            self.paths.pop(number, None)
            if isinstance(channel, (_OutputFile, _RandomFile)):
                channel.handle.close()

    def width(self, n: float, width: float) -> None:
        """`WIDTH #n, width`: 0 to 255 (255: lines are never broken); a file open for
        input keeps it without using it."""
        channel = self._get(n)
        _not_random(channel, "WIDTH #")
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


def _not_random(channel, what: str) -> None:
    """GW-BASIC reads and writes a random-access file's record buffer there; not done
    here: a fatal error of our own, which no ON ERROR traps."""
    if channel.mode == "R":
        raise BasicFault(f"{what} of a random-access file is not supported")


def open_mode(mode: str) -> str:
    """The mode of OPEN: "I", "O", "A" or "R" (the first letter of the old form's
    string)."""
    letter = mode[:1].upper()
    if letter not in ("I", "O", "A", "R"):
        raise BasicFault(BAD_FILE_MODE, f'("{mode}")')
    return letter


# --------------------------------------------------------------------------- the program's table

_table = FileTable()


def reset_files(precision: UsingPrecision = REAL) -> None:
    """At the start of a run: no file open; scratch mode if $BASIC2TILE_SCRATCH is set."""
    global _table
    _table.close()
    _table = FileTable(precision, os.environ.get(SCRATCH_VARIABLE) or None)


def open_file(name: str, mode: str, number: float, length: float | None = None) -> None:
    _table.open(name, mode, number, length)


def field(number: float, widths: Sequence[float], names: Sequence[str]) -> None:
    _table.field(number, widths, names)


def get_record(number: float, record: float | None = None) -> None:
    _table.record(number, record, put=False)


def put_record(number: float, record: float | None = None) -> None:
    _table.record(number, record, put=True)


def field_value(name: str, current: str) -> str:
    """The value of string variable `name`: its bytes of a record buffer if it is a FIELD
    variable, else `current`."""
    return _table.fields.value(name, current)


def field_store(name: str, text: str) -> str:
    return _table.fields.store(name, text)


def lset(name: str, current: str, text: str) -> str:
    return _table.fields.justify(name, current, text, right=False)


def rset(name: str, current: str, text: str) -> str:
    return _table.fields.justify(name, current, text, right=True)


def field_release(*names: str) -> None:
    _table.fields.release(names)


def field_swap(first: str, second: str) -> None:
    _table.fields.swap(first, second)


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


def make_directory(name: str) -> None:
    """MKDIR name."""
    _table.system.make_folder(name)


def remove_directory(name: str) -> None:
    """RMDIR name."""
    _table.system.remove_folder(name)


def change_directory(name: str) -> None:
    """CHDIR name."""
    _table.system.change_folder(name)


def EOF(number: float) -> float:
    return _table.eof(number)


def LOF(number: float) -> float:
    return _table.lof(number)


def LOC(number: float) -> float:
    return _table.loc(number)
