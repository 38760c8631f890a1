"""The Jinja sandbox every text of a pack is rendered in (cards, boards, rule texts), in one place.

Sandboxed (no code of the pack runs), StrictUndefined (a typo is an error, never empty text),
and capped in time and output size, so a runaway template is the pack's diagnostic, not a hang.
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager

import jinja2
from jinja2.sandbox import SandboxedEnvironment

from .numbers import number

MAX_TEXT = 5000  # characters a template may produce for one region

TEMPLATE_SECONDS = 2.0  # wall time one template may run


class TemplateLimit(Exception):
    """A template ran too long or produced too much: the template's problem, not ours."""


@contextmanager
def _time_limit(seconds: float):
    """Interrupt a runaway template (a loop in a loop) after `seconds`, where signals allow."""
    if threading.current_thread() is not threading.main_thread() or \
            not hasattr(signal, "setitimer"):
        yield
        return

    def stop(signum, frame):
        raise TemplateLimit(f"template ran longer than {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class CappedTemplate(jinja2.Template):
    """A template whose output size and running time are capped."""

    def render(self, *args, **kwargs) -> str:
        out, size = [], 0
        with _time_limit(TEMPLATE_SECONDS):
            for chunk in self.generate(*args, **kwargs):
                size += len(chunk)
                if size > MAX_TEXT:
                    raise TemplateLimit(f"template produced more than {MAX_TEXT} characters")
                out.append(chunk)
        return "".join(out)


class CappedEnvironment(SandboxedEnvironment):
    """Sandboxed Jinja where `*` and `**` cannot build huge values either."""

    template_class = CappedTemplate
    intercepted_binops = frozenset(["*", "**"])

    def call_binop(self, context, operator, left, right):
        if operator == "**" and isinstance(right, (int, float)) and abs(right) > 64:
            raise TemplateLimit("exponent too large in a template")
        if operator == "*":
            for value, times in ((left, right), (right, left)):
                if isinstance(value, (str, list, tuple)) and isinstance(times, int) and \
                        len(value) * times > MAX_TEXT:
                    raise TemplateLimit("template builds a value that is too large")
        return super().call_binop(context, operator, left, right)

    # A build compiles the same texts in several places (cards, boards, the rulebook's figures
    # and tables): each source is compiled once per process. A compiled template holds no
    # state of its render, so sharing it is safe; a syntax error is raised again each time.
    def from_string(self, source, globals=None, template_class=None):
        if globals is not None or template_class is not None:
            return super().from_string(source, globals, template_class)
        compiled = self._compiled.get(source)
        if compiled is None:
            compiled = self._compiled[source] = super().from_string(source)
        return compiled

    def compile_expression(self, source, undefined_to_none=True):
        key = (source, undefined_to_none)
        compiled = self._expressions.get(key)
        if compiled is None:
            compiled = self._expressions[key] = super().compile_expression(
                source, undefined_to_none)
        return compiled


_SHARED: list[CappedEnvironment] = []


@jinja2.pass_context
def number_filter(context, value, decimals: int | None = None) -> str:
    """`{{ card.stats.gehalt | number }}`: a number in a text written the edition's way, as
    the stat rows write it (9’879’750 in de-CH); `| number(1)` with one decimal."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"number: {value!r} is not a number")
    return number(value, (context.get("pack") or {}).get("locale") or "en-US", decimals)


def environment() -> SandboxedEnvironment:
    """Jinja for card texts: sandboxed, capped, and a typo is an error, never empty text.
    One per process (never changed after it is made), so its compiled templates are shared."""
    if not _SHARED:
        env = CappedEnvironment(undefined=jinja2.StrictUndefined, autoescape=False,
                                keep_trailing_newline=False)
        env._compiled, env._expressions = {}, {}
        env.filters["number"] = number_filter
        _SHARED.append(env)
    return _SHARED[0]
