"""Writing the files the user asked for (`-o`, `--html`, `--emit`) without losing data.

- No output may be the BASIC source, however it is named: a path that is the same file
  (the same path, a symbolic link to it or a hard link of it) is refused.
- A regular file is replaced atomically: the text goes to a temporary file in the same
  folder, which is then renamed over it, so a failure never leaves half a file.  A
  symbolic link is followed (the file it names is replaced, the link stays).
- A special file (a character device such as /dev/null or /dev/stdout, a named pipe) is
  written in place: renaming over it would replace the device node by a regular file.
- A folder, or a path in a folder that does not exist, is a clear error.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from ..errors import BasicError, Coord


def cannot_write(path: str | Path, reason: str) -> BasicError:
    return BasicError(f"cannot write: {reason}", Coord(str(path), 0, 0))


def same_file(a: str | Path, b: str | Path) -> bool:
    """Whether two paths name one file (following symbolic links; hard links too)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def check_output(path: str | Path, protected: list[str | Path]) -> None:
    """Refuse an output path that names one of the `protected` files or a folder."""
    for other in protected:
        if same_file(path, other):
            raise cannot_write(path, f"it is {other}, which basic2tile must not overwrite")
    if os.path.isdir(path):
        raise cannot_write(path, "it is a folder")


def write_output(path: str | Path, data: str | bytes, protected: list[str | Path] = ()) -> None:
    """Write `data` (text as UTF-8 with \\n line ends) to `path`; see the module docstring."""
    check_output(path, protected)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise cannot_write(path, exc.strerror or str(exc)) from None
    try:
        folder = Path(path).parent
        if not folder.is_dir():
            raise FileNotFoundError(0, f"the folder {folder} does not exist")
        if mode is not None and not stat.S_ISREG(mode):
            with open(path, "wb") as f:
                f.write(raw)
        else:
            _replace_atomically(Path(os.path.realpath(path)), raw, mode)
    except OSError as exc:
        raise cannot_write(path, exc.strerror or str(exc)) from None


def _replace_atomically(path: Path, raw: bytes, mode: int | None) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
        os.chmod(tmp, _new_file_mode() if mode is None else stat.S_IMODE(mode))
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _new_file_mode() -> int:
    """The usual mode of a new file: 0666 minus the umask."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


# ---------------------------------------------------------------------- a .cu's headers
# `-o prog.cu` writes the basic2tile headers prog.cu includes beside it, so that the
# build command of its header comment works in a folder holding nothing else.  A header
# already there is left alone when it is the same, replaced with a note when it is another
# version of basic2tile's, and any other file of that name is an error (written nothing).


def _headers_folder(cu_path: str | Path) -> Path | None:
    """Where the headers go: beside a regular .cu file; None for /dev/null, a pipe..."""
    try:
        if not stat.S_ISREG(os.stat(cu_path).st_mode):
            return None
    except FileNotFoundError:
        pass
    except OSError:
        return None
    return Path(cu_path).parent


def check_headers_beside(cu_path: str | Path, protected: list[str | Path] = ()) -> None:
    """Refuse, before anything is written, a header name beside `cu_path` taken by a
    file that is not one of basic2tile's headers."""
    from ..backends.cuda.build import SUPPORT_HEADERS, is_ours

    folder = _headers_folder(cu_path)
    if folder is None:
        return
    for name in SUPPORT_HEADERS:
        header = folder / name
        check_output(header, protected)
        try:
            text = header.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise cannot_write(header, exc.strerror or str(exc)) from None
        if not is_ours(text, name):
            raise cannot_write(
                header,
                f"the generated program includes a {name} written beside it, and this file "
                "is not basic2tile's; move it, or write the program to another folder",
            )


def write_headers_beside(
    cu_path: str | Path, code: str, protected: list[str | Path] = ()
) -> list[str]:
    """Write the basic2tile headers `code` includes beside `cu_path`; returns notes about
    headers of another version that were replaced."""
    from ..backends.cuda.build import header_text, included_headers

    folder = _headers_folder(cu_path)
    if folder is None:
        return []
    notes = []
    for name in included_headers(code):
        header, text = folder / name, header_text(name)
        try:
            old = header.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            old = None
        if old == text:
            continue
        write_output(header, text, protected)
        if old is not None:
            notes.append(f"replaced {header} (another version of basic2tile's {name})")
    return notes


def write_cuda_program(code: str, path: str | Path) -> list[Path]:
    """Write a generated program and its headers, unchecked (the tests' scratch folders;
    the CLI's `-o` goes through `write_output` and `write_headers_beside`); returns the
    files written."""
    from ..backends.cuda.build import header_text, included_headers

    path = Path(path)
    written = [path]
    path.write_text(code, encoding="utf-8")
    for name in included_headers(code):
        header = path.parent / name
        header.write_text(header_text(name), encoding="utf-8")
        written.append(header)
    return written
