"""Diagnostics: every problem of a run, collected, sorted and printed at once.

Why: a designer fixes ten typos in one round, not ten rounds of one. No stage raises on a user
mistake; it adds a Diagnostic to a Report and carries on, and the pipeline stops before output
when the report holds an error.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

Severity = Literal["error", "warning"]


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One problem: where it is (file, 1-based line and column), how bad, about what, and why."""

    file: str
    line: int
    col: int
    severity: Severity
    subject: str  # card ID, option slug, layout name ... ("" when the whole file is meant)
    message: str

    def format(self) -> str:
        where = self.file if self.line <= 0 else f"{self.file}:{self.line}:{self.col}"
        subject = f"{self.subject} " if self.subject else ""
        return f"{where}: {self.severity}: {subject}{self.message}"


def display_path(path: str | Path) -> str:
    """Path as the user should see it: relative to the current folder when it lies below it."""
    path = Path(path)
    try:
        shown = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return str(path)
    # the entry itself, not where a link leads (a link to nothing or in a circle is named too)
    return str(path.parent.resolve() / path.name) if shown.startswith("..") else shown


@dataclass
class Report:
    """All diagnostics of one run."""

    items: list[Diagnostic] = field(default_factory=list)
    ran: list[str] = field(default_factory=list)  # names of the checks that ran, in order

    def ran_check(self, name: str) -> None:
        """Note that a check ran (`cardgen check --report` lists them)."""
        self.ran.append(name)

    def add(self, file: str | Path, line: int, col: int, severity: Severity, subject: str,
            message: str) -> None:
        self.items.append(Diagnostic(display_path(file) if file else "", line, col, severity,
                                     subject, message))

    def error(self, file: str | Path, line: int, col: int, subject: str, message: str) -> None:
        self.add(file, line, col, "error", subject, message)

    def warning(self, file: str | Path, line: int, col: int, subject: str, message: str) -> None:
        self.add(file, line, col, "warning", subject, message)

    def extend(self, other: "Report") -> None:
        self.items.extend(other.items)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "warning"]

    def failed(self, strict: bool = False) -> bool:
        return bool(self.errors) or (strict and bool(self.warnings))

    def sorted(self) -> list[Diagnostic]:
        """Unique diagnostics in file, line, column order."""
        return sorted(set(self.items), key=lambda d: (d.file, d.line, d.col, d.severity,
                                                       d.subject, d.message))

    def summary(self) -> str:
        errors, warnings = len(set(self.errors)), len(set(self.warnings))
        files = len({d.file for d in set(self.items)})
        parts = [_plural(errors, "error"), _plural(warnings, "warning")]
        tail = f" in {_plural(files, 'file')}" if files else ""
        return ", ".join(parts) + tail


_STYLES = {"error": "bold red", "warning": "yellow"}


def paint(line: str, severity: str, stream, colour: bool = True) -> None:
    """One line on `stream`, its severity word coloured where the terminal can show colour.

    Why rich: it knows NO_COLOR, FORCE_COLOR, TERM=dumb and streams that are no terminal (a
    file, a pipe, CI's log), so what a script reads is the plain line. Never wrapped.
    """
    from rich.text import Text
    console = _console(stream, colour)
    text = Text(line)
    start = line.find(f": {severity}:")
    if start >= 0 and not console.no_color:  # NO_COLOR, --no-color: the plain line
        text.stylize(_STYLES.get(severity, ""), start + 2, start + 2 + len(severity))
    console.print(text)


_CONSOLE: list = []  # [(what it was made for, the console)]: the last one, made once


def _console(stream, colour: bool):
    """The rich Console of paint(): made again only when the stream, --no-color or the
    environment rich reads change (a report of hundreds of lines: 0.5 ms a line saved)."""
    key = (stream, colour, *(os.environ.get(name) for name in ("NO_COLOR", "FORCE_COLOR",
                                                                "TERM", "COLUMNS")))
    if not _CONSOLE or _CONSOLE[0][0] != key:
        from rich.console import Console
        _CONSOLE[:] = [(key, Console(file=stream, no_color=None if colour else True,
                                     soft_wrap=True, highlight=False, emoji=False,
                                     markup=False))]
    return _CONSOLE[0][1]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def did_you_mean(word: str, choices: list[str]) -> str:
    """" (did you mean 'x'?)" for the closest of `choices`, or nothing: said after a name
    that is not known."""
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""
