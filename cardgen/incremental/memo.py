"""Results kept by the objects they are made of, for a resident process (`cardgen serve`,
`cardgen watch`): it keeps the parses and models of what an edit left as it was (load.source,
load.pack), so a result made of those same objects need not be made again after the edit.

Why by identity: the models are read, never changed, after loading; the same object is the
same input, and asking is cheaper than any digest of it. Each entry holds its objects, so
their id()s stay theirs while it is kept. (load.source.kept asks whether the process is
resident and keeps the result only then.)
"""

from __future__ import annotations

from typing import Callable, TypeVar

T = TypeVar("T")

LIMIT = 20_000  # entries a memo holds; a full one is emptied (what it held is made again)


def by_identity(memo: dict, objects: tuple, also, make: Callable[[], T]) -> T:
    """make()'s result, kept in `memo` under the identity of `objects` and the value `also`
    (what else it is made of); a None result is not kept (a problem said again next time)."""
    key = (*map(id, objects), also)
    held = memo.get(key)
    if held is not None and all(a is b for a, b in zip(held[0], objects)):
        return held[1]
    made = make()
    if made is not None:
        if len(memo) >= LIMIT:
            memo.clear()
        memo[key] = (objects, made)
    return made
