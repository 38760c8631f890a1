"""Where a value was written: file, line and column, carried by the values the loader builds.

Why in model/: every stage names a value's place in its diagnostics, and the pack's data
object (model.packdata) holds them; load/source.py is the YAML loader that makes them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)  # one per YAML value: 100 000 for a 1040-card deck
class Mark:
    file: str
    line: int  # 1-based
    col: int  # 1-based

    def __reduce__(self):  # a kept file (load_yaml) loads 5x faster made than set field-wise
        return (Mark, (self.file, self.line, self.col))


class MarkedDict(dict):
    """A mapping that knows its own position and the positions of its keys and values."""

    mark: Mark
    key_marks: dict[str, Mark]
    value_marks: dict[str, Mark]


class MarkedList(list):
    mark: Mark
    item_marks: list[Mark]


class MarkedStr(str):
    mark: Mark


def mark_at(node, *path) -> "Mark":
    """Position of the value at path (keys and list indexes), or of the nearest one above it."""
    mark = node.mark
    for key in path:
        if isinstance(node, dict) and key in node:
            mark, node = node.value_marks[key], node[key]
        elif isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node):
            mark, node = node.item_marks[key], node[key]
        else:
            break
    return mark
