"""Map pydantic's validation errors back to the YAML positions they came from.

Why: pydantic reports `loc=('cards', 3, 'stats', 'iq')`; a designer needs
`cards/character.yaml:123:7`. The marks kept by cardgen.load.source give that position.
"""

from __future__ import annotations

import types
import typing
from typing import Any

from pydantic import BaseModel, ValidationError

from ..diagnostics import Report, did_you_mean
from ..model.marks import Mark, MarkedDict, MarkedList


def locate(data: Any, loc: tuple, key_position: bool = False) -> Mark | None:
    """The mark of the value (or of its key) that `loc` points at. An element of `loc` that
    the data does not hold (a union's tag, a model's name, a key that is missing) is passed
    over; where the path cannot be followed to its end, the deepest value it reached is named:
    a wrong or missing value deep in a nested file is said at its own line, never at the
    document's first one."""
    node, best = data, getattr(data, "mark", None)
    last = len(loc) - 1
    for index, element in enumerate(loc):
        if isinstance(node, MarkedDict) and isinstance(element, str) and element in node:
            marks = node.key_marks if key_position and index == last else node.value_marks
            best, node = marks.get(element, best), node[element]
        elif isinstance(node, MarkedList) and isinstance(element, int) and \
                0 <= element < len(node):
            best, node = node.item_marks[element], node[element]
        # else: a union tag or a key that is not there: the same node, the next element
    return best


def _candidates(annotation: Any) -> list[Any]:
    """The concrete types an annotation may hold (Optional, Union, Annotated unwrapped)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _candidates(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        out = []
        for arg in typing.get_args(annotation):
            out.extend(_candidates(arg))
        return out
    return [annotation]


def _step(annotation: Any, element: Any) -> list[Any]:
    out = []
    for cand in _candidates(annotation):
        origin = typing.get_origin(cand)
        if isinstance(cand, type) and issubclass(cand, BaseModel) and isinstance(element, str):
            for name, info in cand.model_fields.items():
                if element in (name, info.alias):
                    out.append(info.annotation)
        elif origin in (list, tuple) and isinstance(element, int):
            out.extend(typing.get_args(cand)[:1])
        elif origin is dict and isinstance(element, str):
            out.append(typing.get_args(cand)[1])
    return out


def allowed_keys(model: type[BaseModel], loc: tuple) -> list[str]:
    """Field names of the model(s) found at `loc` (for 'did you mean')."""
    current: list[Any] = [model]
    for element in loc:
        following = [t for ann in current for t in _step(ann, element)]
        if following:
            current = following
    names: list[str] = []
    for ann in current:
        for cand in _candidates(ann):
            if isinstance(cand, type) and issubclass(cand, BaseModel):
                names.extend(info.alias or name for name, info in cand.model_fields.items())
    return sorted(set(names))


def describe_loc(loc: tuple) -> str:
    """The last meaningful key of a location, as the 'field' of a diagnostic."""
    parts = [str(p) for p in loc if not isinstance(p, int)]
    if len(parts) > 1 and parts[-2] == "stats":  # a stat is named by its key alone
        return parts[-1]
    return ".".join(parts[-2:]) if len(parts) > 1 else (parts[0] if parts else "")


def _message(error: dict, model: type[BaseModel]) -> tuple[str, bool]:
    """The diagnostic's text for one pydantic error, and whether it points at a key."""
    kind, loc, value = error["type"], error["loc"], error.get("input")
    field = describe_loc(loc)
    if kind == "extra_forbidden":
        key = str(loc[-1])
        allowed = allowed_keys(model, loc[:-1])
        return f"unknown key '{key}'{did_you_mean(key, allowed)}", True
    if kind == "missing" and loc and isinstance(loc[-1], int):  # a pair [a, b] cut short
        return f"{field}: value {loc[-1] + 1} of the list is missing", False
    if kind == "missing":
        return f"{field}: required key is missing", False
    shown = _short(value)
    text = error["msg"]
    ctx = error.get("ctx") or {}
    if kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        text = {"greater_than_equal": f"is below the minimum {ctx.get('ge')}",
                "less_than_equal": f"is above the maximum {ctx.get('le')}",
                "greater_than": f"must be greater than {ctx.get('gt')}",
                "less_than": f"must be less than {ctx.get('lt')}"}[kind]
    elif kind == "literal_error":
        text = f"must be one of {ctx.get('expected')}"
    elif kind in ("int_type", "int_parsing", "int_from_float"):
        text = "must be a whole number"
    elif kind in ("float_type", "float_parsing", "finite_number"):
        text = "must be a number"
    elif kind in ("string_type",):
        text = "must be text (put it in quotes)"
    elif kind in ("bool_type", "bool_parsing"):
        text = "must be true or false"
    elif kind in ("list_type", "dict_type", "model_type", "model_attributes_type"):
        text = {"list_type": "must be a list", "dict_type": "must be a mapping of key: value"}.get(
            kind, "must be a mapping of key: value")
    elif kind == "string_pattern_mismatch":
        text = f"does not match the pattern {ctx.get('pattern')}"
    elif kind == "too_short":
        text = f"needs at least {ctx.get('min_length')} entries"
    elif kind == "value_error":
        text = str(ctx.get("error", text))
    elif kind == "union_tag_invalid":
        key = str(ctx.get("discriminator", "")).strip("'")
        tag = str(ctx.get("tag"))
        expected = [t.strip().strip("'") for t in str(ctx.get("expected_tags", "")).split(",")]
        return (f"{field + '.' if field else ''}{key}: unknown {key} '{tag}'"
                f"{did_you_mean(tag, expected)}; expected one of "
                f"{', '.join(repr(e) for e in expected)}"), False
    if isinstance(value, bool) and kind not in ("bool_type", "bool_parsing"):
        text += " (true/false is not allowed here)"
    return f"{field}: {shown} {text}" if shown is not None else f"{field}: {text}", False


def _short(value: Any) -> str | None:
    if isinstance(value, (dict, list)) or value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= 40 else text[:37] + "..."


def subject_at(data: Any, loc: tuple) -> str:
    """The id or key of the innermost list item on the path: 'F12', 'iq_bmi', 'innere' ...
    so a diagnostic names the thing, not only 'categories[3]'."""
    subject, node = "", data
    for element in loc:
        if isinstance(node, dict) and element in node:
            node = node[element]
        elif isinstance(node, list) and isinstance(element, int) and 0 <= element < len(node):
            node = node[element]
            if isinstance(node, dict):
                name = node.get("id", node.get("key"))
                if isinstance(name, str):
                    subject = name
        else:
            continue
    return subject


def report_validation_error(report: Report, exc: ValidationError, data: Any,
                            model: type[BaseModel], file: str, subject_of=None) -> None:
    """Add one diagnostic per problem, at the YAML position the error came from. A value that
    fits none of a union's kinds is one line ("must be one of 'all' or a list"), not one per
    kind tried."""
    said: dict[tuple, list] = {}  # (position, subject, field) → [texts], in order
    for error in _relevant(exc.errors(include_url=False)):
        loc = error["loc"]
        plain = tuple(e for i, e in enumerate(loc) if not _union_tag(e) and
                      not (i and loc[i - 1] == e))  # (a union's tag named like its key)
        message, at_key = _message({**error, "loc": plain}, model)
        if error["type"] == "union_tag_invalid":  # point at the tag's value, e.g. rule: equal
            loc = loc + (str((error.get("ctx") or {}).get("discriminator", "")).strip("'"),)
        mark = locate(data, loc, key_position=at_key)
        subject = subject_of(error["loc"]) if subject_of else subject_at(data, error["loc"])
        line, col = (mark.line, mark.col) if mark else (1, 1)
        at = mark.file if mark and mark.file else file  # (an edition's overlay file)
        field, sep, text = message.partition(": ")
        if plain != tuple(loc[:len(plain)]) or len(plain) < len(error["loc"]):
            said.setdefault((at, line, col, subject, field if sep else message), []).append(
                text if sep else "")
        else:
            report.error(at, line, col, subject, message)
    for (at, line, col, subject, field), texts in said.items():
        report.error(at, line, col, subject, f"{field}: {_either(texts)}" if any(texts)
                     else field)


def _relevant(errors: list[dict]) -> list[dict]:
    """The errors without those of a union's plain kinds where the value is a list or mapping
    that another kind of the union took in and found a problem inside: `rows: [... a wrong
    row ...]` is that row's error, not also "rows: must be a whole number"."""
    def union_at(loc) -> int | None:
        return next((i for i, e in enumerate(loc) if _union_tag(e)), None)
    deeper = set()
    for error in errors:
        at = union_at(error["loc"])
        if at is not None and len(error["loc"]) > at + 1:
            deeper.add(tuple(error["loc"][:at]))
    return [e for e in errors if not (
        union_at(e["loc"]) is not None and len(e["loc"]) == union_at(e["loc"]) + 1 and
        tuple(e["loc"][:union_at(e["loc"])]) in deeper and isinstance(e.get("input"), (list, dict))
        and (e["type"].endswith("_type") or e["type"] in ("literal_error", "int_parsing",
                                                             "float_parsing")))]


def _union_tag(element) -> bool:
    """A `loc` element pydantic adds for the member of a union that it tried: a type's name
    (str, int, list[...], literal['all'], function-after[...], a model's class name), never a
    key written in a file (keys are lower case and have no brackets)."""
    return isinstance(element, str) and (
        "[" in element or element in _TYPE_NAMES or element.startswith(_TYPE_PREFIXES) or
        element[:1].isupper() and element.isidentifier() and any(c.islower() for c in element))


_TYPE_PREFIXES = ("constrained-", "function-", "json-", "lax-", "tagged-", "default-",
                  "nullable-", "custom-")


_TYPE_NAMES = {"str", "int", "float", "bool", "none", "list", "dict", "tuple", "set",
               "bytes", "is-instance", "json-or-python", "nullable", "lax-or-strict"}


def _either(texts: list[str]) -> str:
    """"'x' must be one of 'all'" and "must be a list" → "'x' must be one of 'all' or a list"."""
    out: list[str] = []
    for text in dict.fromkeys(texts):
        if out and text.startswith("must be ") and "must be " in out[0]:
            text = text[len("must be "):]
        elif out and " must be " in text and "must be " in out[0]:
            text = text.split(" must be ", 1)[1]  # the value is shown once, in the first
        out.append(text)
    return " or ".join(out)
