"""A per-user on-disk cache whose entries are verified before anything reads them.

Cached entries hold marshalled data, and marshalled code runs when it is loaded, so an entry
is only trusted when all of these hold:

- the cache folder belongs to the user and nobody else may write to it (checked as ssh and
  pip do; a folder that fails the check turns caching off with a warning);
- the entry is a regular file owned by the user, read without following links or blocking
  (a FIFO or a folder in its place is skipped);
- its HMAC-SHA256 tag, made with a random per-user key kept 0600 in the folder, matches.

Entries are written atomically under unique temporary names. Anything that fails a check is
skipped with a warning on the `cardsmith.cache` logger (`warn`) and rebuilt by the caller.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import stat
from collections.abc import Callable
from pathlib import Path

from platformdirs import user_cache_dir

_show_warnings: Callable[[], None] | None = None
_said: set[str] = set()  # the warnings given with `once`

KEY_FILE = "key"
KEY_BYTES = 32
TAG_BYTES = 32
MAX_ENTRY_BYTES = 64 * 1024 * 1024


def show_warnings_with(setup: Callable[[], None]) -> None:
    """How a front end shows warnings (a handler on the `cardsmith` logger, say): `setup` runs
    before the first warning, so a run that has nothing to say never imports `logging`."""
    global _show_warnings
    _show_warnings = setup


def warn(message: str, *args: object, once: bool = False) -> None:
    """A warning on the `cardsmith.cache` logger (an entry skipped, the cache turned off, …);
    with `once`, a warning already given in this process is not given again."""
    global _show_warnings
    if once:
        said = message % args
        if said in _said:
            return
        _said.add(said)
    import logging  # here: most runs warn of nothing, and the import is a tenth of a start-up
    if _show_warnings is not None:
        setup, _show_warnings = _show_warnings, None
        setup()
    logging.getLogger("cardsmith.cache").warning(message, *args)


def cache_root() -> Path:
    """`$CARDSMITH_CACHE`, or the platform's per-user cache folder for cardsmith."""
    override = os.environ.get("CARDSMITH_CACHE")
    return Path(override) if override else Path(user_cache_dir("cardsmith", appauthor=False))


def _private_folder(path: Path) -> bool:
    """Create the folder 0700 if needed; True when it is a folder only this user can write."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.stat(path)
    except OSError as err:
        warn("cache disabled: cannot use %s (%s)", path, err.strerror or err, once=True)
        return False
    if not stat.S_ISDIR(info.st_mode):
        warn("cache disabled: %s is not a folder", path, once=True)
        return False
    if info.st_uid != os.getuid():
        warn("cache disabled: %s belongs to another user", path, once=True)
        return False
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        warn("cache disabled: %s can be written by other users (chmod 700 it)", path, once=True)
        return False
    return True


def _read_private(path: Path, limit: int) -> bytes | None:
    """The bytes of a regular file owned by this user, read without following links or
    blocking; None (and a warning) for anything else."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return None
    except OSError as err:
        warn("cache entry %s skipped: %s", path.name, err.strerror or err)
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            warn("cache entry %s skipped: not a regular file", path.name)
            return None
        if info.st_uid != os.getuid():
            warn("cache entry %s skipped: it belongs to another user", path.name)
            return None
        if info.st_size > limit:
            warn("cache entry %s skipped: larger than %d bytes", path.name, limit)
            return None
        chunks = []  # one read of the whole file, unless it grows meanwhile
        while chunk := os.read(fd, info.st_size + 1):
            chunks.append(chunk)
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)
    except OSError as err:
        warn("cache entry %s skipped: %s", path.name, err.strerror or err)
        return None
    finally:
        os.close(fd)


class Cache:
    """A verified cache in one private folder; `open_cache()` makes one or returns None."""

    def __init__(self, folder: Path, key: bytes) -> None:
        self.folder = folder
        self._key = key

    def _tag(self, name: str, payload: bytes | memoryview) -> bytes:
        tag = hmac.new(self._key, name.encode() + b"\0", hashlib.sha256)
        tag.update(payload)  # not joined to the name first: an entry is megabytes
        return tag.digest()

    def read(self, name: str) -> bytes | None:
        """The payload stored under `name`, if present and verified."""
        data = _read_private(self.folder / name, MAX_ENTRY_BYTES)
        if data is None:
            return None
        tag = data[:TAG_BYTES]
        if len(tag) != TAG_BYTES or not hmac.compare_digest(tag, self._tag(name, memoryview(data)[TAG_BYTES:])):
            warn("cache entry %s skipped: it was not written by this user's cardsmith", name)
            return None
        return data[TAG_BYTES:]

    def write(self, name: str, payload: bytes) -> None:
        """Store a payload atomically; a failure only loses the cache."""
        import tempfile  # here: only a write needs it
        try:
            fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=".tmp-", suffix=".part")
        except OSError as err:
            warn("cache entry %s not written: %s", name, err.strerror or err)
            return
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(self._tag(name, payload))
                out.write(payload)
            os.replace(tmp, self.folder / name)
        except OSError as err:
            warn("cache entry %s not written: %s", name, err.strerror or err)
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _load_key(folder: Path) -> bytes | None:
    """The per-user key (made on first use, 0600); None when it cannot be trusted."""
    path = folder / KEY_FILE
    data = _read_private(path, KEY_BYTES)
    if data is None and not path.exists() and not path.is_symlink():
        import secrets  # here: only a new key needs it
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
            with os.fdopen(fd, "wb") as out:
                out.write(secrets.token_bytes(KEY_BYTES))
        except FileExistsError:
            pass  # another process made it first
        except OSError as err:
            warn("cache disabled: cannot create its key (%s)", err.strerror or err, once=True)
            return None
        data = _read_private(path, KEY_BYTES)
    if data is None or len(data) != KEY_BYTES:
        warn("cache disabled: its key file %s is damaged or not this user's", path, once=True)
        return None
    if os.stat(path, follow_symlinks=False).st_mode & 0o077:
        warn("cache disabled: its key file %s can be read by other users", path, once=True)
        return None
    return data


def open_cache(folder: Path | None = None) -> Cache | None:
    """A cache in `folder` (default `cache_root()`), or None when the folder is not private."""
    folder = folder or cache_root()
    if not _private_folder(folder):
        return None
    key = _load_key(folder)
    return Cache(folder, key) if key is not None else None
