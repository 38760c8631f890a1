"""incremental.memo: results kept by the identity of the objects they are made of."""

from __future__ import annotations

from cardgen.incremental import memo


def test_kept_for_the_same_objects_made_again_for_equal_ones():
    kept: dict = {}
    made = []
    first, equal = [1, 2], [1, 2]

    def make():
        made.append(1)
        return len(made)
    assert memo.by_identity(kept, (first,), "a", make) == 1
    assert memo.by_identity(kept, (first,), "a", make) == 1  # the same object: kept
    assert memo.by_identity(kept, (equal,), "a", make) == 2  # equal, not the same: made
    assert memo.by_identity(kept, (first,), "b", make) == 3  # the same, made of more


def test_none_is_not_kept_and_a_full_memo_starts_again(monkeypatch):
    kept: dict = {}
    calls = []
    key = object()
    assert memo.by_identity(kept, (key,), 0, lambda: calls.append(1)) is None
    assert memo.by_identity(kept, (key,), 0, lambda: calls.append(1)) is None
    assert len(calls) == 2 and kept == {}
    monkeypatch.setattr(memo, "LIMIT", 3)
    objects = [object() for _ in range(4)]
    for n, thing in enumerate(objects):
        memo.by_identity(kept, (thing,), 0, lambda n=n: n)
    assert len(kept) == 1  # emptied when full, then the fourth kept
    assert memo.by_identity(kept, (objects[3],), 0, lambda: "again") == 3
