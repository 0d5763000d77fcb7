"""Which digest gave an answer: the part of a cache key that tells digests apart.

A cached answer may only be reused for the digest that gave it, so no two digests that can
answer differently may share an identity. A digest is known by, in this order:

- its `cache_key` attribute, when it has one (the SDK adapters set `openai:MODEL`);
- its name, `module.qualname`, when that name leads back to this very object (a function or
  class defined at the top of a module); a name holds across processes, so a cache kept on
  disk serves the next run too;
- for a bound method, its function's identity on its object's, so `client.summarise` is the
  same digest however often the attribute is read;
- otherwise (a lambda, a closure, a `functools.partial`, a callable object), the object itself:
  a token no other object gets, in this process or another, even one that later reuses its
  `id`. Its answers are reused for as long as it lives.

An object that cannot be tracked (it takes no weak references) has no identity, and its
answers are not cached.
"""

from __future__ import annotations

import functools
import inspect
import itertools
import os
import sys
import weakref
from typing import Any

# Tokens start with this process's own prefix, so a cache shared between processes never
# mistakes one process's object for another's.
_PROCESS = os.urandom(16).hex()  # as random as a uuid4, without importing uuid
_counter = itertools.count()
# id() of a tracked object -> (a weak reference to it, its token); dropped when it dies.
_tokens: dict[int, tuple[weakref.ref[Any], int]] = {}


def identity(digest: object) -> str | None:
    """What tells `digest` apart from every other digest, or None if nothing can."""
    explicit = getattr(digest, "cache_key", None)
    if isinstance(explicit, str) and explicit:
        return f"key {explicit}"
    if inspect.ismethod(digest):
        function, owner = identity(digest.__func__), _token(digest.__self__)
        return None if function is None or owner is None else f"{function} on {owner}"
    if _named(digest):
        return f"name {digest.__module__}.{digest.__qualname__}"  # type: ignore[attr-defined]
    token = _token(digest)
    return None if token is None else f"object {token}"


def _named(digest: object) -> bool:
    module = sys.modules.get(getattr(digest, "__module__", None) or "")
    qualname = getattr(digest, "__qualname__", None)
    if module is None or not isinstance(qualname, str):
        return False
    found: object = module
    for part in qualname.split("."):
        found = getattr(found, part, None)
    return found is digest


def _token(obj: object) -> str | None:
    key = id(obj)
    entry = _tokens.get(key)
    if entry is None or entry[0]() is not obj:
        try:
            ref = weakref.ref(obj, functools.partial(_forget, key))
        except TypeError:
            return None
        # Two threads may both get here for one new object: one token wins, and the other
        # thread's answer is stored under a token nobody asks for again, which is only a miss.
        entry = (ref, next(_counter))
        _tokens[key] = entry
    return f"{_PROCESS}-{entry[1]}"


def _forget(key: int, ref: weakref.ref[Any]) -> None:
    entry = _tokens.get(key)
    if entry is not None and entry[0] is ref:
        _tokens.pop(key, None)
