"""Where the store lives, and how its directory is opened without trusting the path.

The directory is opened once, with `O_NOFOLLOW`, and every later operation is relative to
that descriptor, so swapping the path for a symlink after the checks changes nothing. A
directory that is a symlink, is owned by another user or is writable by others is refused:
anyone who can write there could plant an entry that a marker then sends an agent to read.
Only the store's own directory is checked this way; its parents (a symlinked `~/.cache`,
say) are the user's business.
"""

from __future__ import annotations

import os
import stat

TYPE_CHECKING = False  # as typing's (see shapeclip/__init__.py), without importing typing
if TYPE_CHECKING:
    from pathlib import Path

#: Overrides the default place of the store.
ENV_VAR = "SHAPECLIP_STORE"


class Refused(Exception):
    """The store cannot be used; the message says why, for the result's details."""


def bad_setting(name: str, problem: str, default: str) -> None:
    """Says on the `shapeclip` logger (stderr, unless logging is set up) that the environment
    variable `name` is ignored: a setting never stops a command a hook wraps."""
    import logging  # only when something is logged: `shapeclip -- CMD` starts without it

    logging.getLogger("shapeclip").warning("shapeclip: %s %s; using %s", name, problem, default)


def default_path() -> Path:
    """`$SHAPECLIP_STORE` (`~` expanded) when it is an absolute path, else the XDG cache
    directory's `shapeclip`: `$XDG_CACHE_HOME` when it is set to an absolute path (the XDG
    rule), else `~/.cache`. A relative store would be a different one in every directory."""
    from pathlib import Path

    return Path(default_directory())


def default_directory() -> str:
    """`default_path()` as a string (not normalised), for callers that need no `pathlib`: the
    savings ledger, which a command that stores nothing still writes."""
    override = os.environ.get(ENV_VAR)
    if override:
        if os.path.isabs(os.path.expanduser(override)):
            return os.path.expanduser(override)
        bad_setting(ENV_VAR, f"must be an absolute path, got {override!r}", "the default place")
    cache = os.environ.get("XDG_CACHE_HOME", "")
    base = cache if os.path.isabs(cache) else os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "shapeclip")


def open_root(path: Path, *, create: bool) -> int:
    """A descriptor of the store's directory, created 0700 when `create` and missing.

    Raises `Refused` when it is missing (and not to be created), not a directory, a symlink,
    owned by another user or writable by others. A directory of ours readable by others is
    made private instead, since nothing can have been planted through read access.
    """
    if create:
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            path.mkdir(mode=0o700)
        except FileExistsError:
            pass
        except OSError as exc:
            raise Refused(f"cannot create the store directory {path}: {exc.strerror or exc}") from None
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        raise Refused(f"there is no store at {path}") from None
    except OSError as exc:
        if os.path.islink(path):
            raise Refused(f"the store directory {path} is a symlink; it is never followed") from None
        raise Refused(f"cannot open the store directory {path}: {exc.strerror or exc}") from None
    try:
        _check(fd, path)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _check(fd: int, path: Path) -> None:
    info = os.fstat(fd)
    if info.st_uid != os.getuid():
        raise Refused(f"the store directory {path} belongs to another user")
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise Refused(f"the store directory {path} is writable by other users")
    if info.st_mode & 0o077:
        try:
            os.fchmod(fd, 0o700)
        except OSError as exc:
            raise Refused(f"cannot make the store directory {path} private: {exc.strerror or exc}") from None
