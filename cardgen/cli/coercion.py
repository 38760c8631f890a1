"""Plain option values (text, whole and decimal numbers, paths, lists of text) converted without
pydantic, so that a command starts in a tenth of the time.

Why: Typer 0.29 converts every option through a pydantic TypeAdapter, built per option on each
run. For `cardgen build` (29 options) that is the import of pydantic (~90 ms) plus ~60 ms of
adapters, in every process, before any work: most of a build with nothing to do. The values
cardgen's options take are plain, and for them the conversion is a line of Python.

Only a value whose result is certain takes the short way: "12" for an int, "1.5" for a float, any
text for a str or a Path. Everything else — a value out of range, "1e3", "abc", an enum, a
parser — goes to Typer's own conversion, so results and error messages are exactly Typer's
(tests/cli/test_coercion.py compares both ways over every option). pyproject asks for Typer
0.29 or later; a later Typer whose internals moved is left as it is (everything converted by
Typer, slower), and the tests, which import those internals, say so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, get_args, get_origin

_INT = re.compile(r"-?(0|[1-9][0-9]*)")
_FLOAT = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?")


class _Slow(Exception):
    """This value is for Typer's own conversion."""


def install() -> None:
    """Let Typer's parameters convert plain values themselves (Typer 0.29 and later)."""
    try:
        from typer import core
        from typer._coercion import RuntimeParam, build_runtime_param
        from typer._param_types import coerce_cli_path
    except ImportError:  # a Typer whose internals moved: it converts everything itself
        return
    if not hasattr(core._TyperParameter, "get_runtime_param") or \
            getattr(core._TyperParameter.get_runtime_param, "cardgen", False):
        return

    @dataclass(frozen=True)
    class PlainRuntimeParam(RuntimeParam):
        """A plain value converted here; anything uncertain by Typer (and its errors)."""

        convert: Callable[[Any, Any, Any], Any] = None  # (value, param, ctx) -> value

        def _coerce_value(self, value, param, ctx):
            try:
                return self.convert(value, param, ctx)
            except _Slow:
                typer_own = build_runtime_param(param.type_descriptor)
                return typer_own._coerce_value(value, param=param, ctx=ctx)

    def get_runtime_param(self):
        if self._runtime_param is None:
            descriptor = self.type_descriptor
            convert = converter(descriptor.annotation, descriptor.parameter_info,
                                coerce_cli_path)
            self._runtime_param = (
                build_runtime_param(descriptor) if convert is None or descriptor.is_file
                else PlainRuntimeParam(parameter_info=descriptor.parameter_info,
                                       annotation=descriptor.annotation, convert=convert))
        return self._runtime_param

    get_runtime_param.cardgen = True
    core._TyperParameter.get_runtime_param = get_runtime_param


def converter(annotation: Any, info: Any, coerce_cli_path: Callable) -> Callable | None:
    """The conversion of plain values for this annotation, or None (Typer converts all)."""
    if getattr(info, "parser", None) is not None or getattr(info, "clamp", False):
        return None
    if get_origin(annotation) is list:
        (item,) = get_args(annotation)
        one = converter(item, info, coerce_cli_path)
        if one is None:
            return None
        return lambda value, param, ctx: [one(v, param, ctx) for v in _items(value)]
    if annotation is bool:
        return _bool
    if annotation is str:
        return _str
    if annotation is int or annotation is float:
        low, high = info.min, info.max
        return lambda value, param, ctx: _number(annotation, value, low, high)
    if annotation is Path and getattr(info, "path_type", None) is None:
        return lambda value, param, ctx: _path(value, info, coerce_cli_path, param, ctx)
    return None


def _items(value: Any) -> list:
    if not isinstance(value, (list, tuple)):
        raise _Slow
    return list(value)


def _bool(value: Any, param: Any, ctx: Any) -> bool:
    if isinstance(value, bool):
        return value
    raise _Slow


def _str(value: Any, param: Any, ctx: Any) -> str:
    if isinstance(value, str):
        return value
    raise _Slow


def _number(kind: type, value: Any, low: Any, high: Any) -> int | float:
    """An int or float from its plain spelling (or a default of that type), inside the range."""
    if isinstance(value, str) and (_INT if kind is int else _FLOAT).fullmatch(value):
        number = kind(value)
    elif type(value) is kind or (kind is float and type(value) is int):
        number = kind(value)
    else:
        raise _Slow
    if (low is not None and number < low) or (high is not None and number > high):
        raise _Slow  # Typer says what the range is
    return number


def _path(value: Any, info: Any, coerce_cli_path: Callable, param: Any, ctx: Any) -> Path:
    """A Path from text; Typer's own checks (exists, file or folder) on it."""
    if isinstance(value, str) and value:
        value = Path(value)
    if not isinstance(value, Path):
        raise _Slow
    from typer import BadParameter
    try:
        return coerce_cli_path(value, info, path_type=Path, param=param, ctx=ctx)
    except BadParameter:
        raise _Slow from None  # Typer's message names the value as it was typed
