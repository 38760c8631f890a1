"""Start-up: two modules every command imports and none uses, put off until first used.

Typer draws help and errors with typer.rich_utils, which imports rich.markdown (help written in
Markdown; markdown-it) and rich.traceback (pretty tracebacks; pygments, attrs) at its top.
cardgen's help is Rich markup, not Markdown, and its tracebacks are plain
(pretty_exceptions_enable=False), yet the two were a third of what `cardgen --help` imports
(about 0.08 of its 0.27 s). Until something asks for them, each stands in for itself: its
classes are stand-ins that import the real module on first use, and any other name imports it
at once. Nothing is different once they are used.
"""

from __future__ import annotations

import importlib
import sys
import types

_DEFERRED = {"rich.markdown": ("Markdown",), "rich.traceback": ("Traceback",)}


def defer_unused_imports() -> None:
    """Stand-ins for the modules of _DEFERRED that nothing has imported yet."""
    for name, classes in _DEFERRED.items():
        if name not in sys.modules:
            package, _, attribute = name.rpartition(".")
            sys.modules[name] = _Deferred(name, classes)
            setattr(importlib.import_module(package), attribute, sys.modules[name])


class _Deferred(types.ModuleType):
    """A module imported on first use: its classes stand in (construction, class attributes);
    any other name imports it."""

    def __init__(self, name: str, classes: tuple[str, ...]):
        super().__init__(name)
        for cls in classes:
            setattr(self, cls, _Forward(cls, (), {"_module": self, "_name": cls}))

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.real(), name)

    def real(self) -> types.ModuleType:
        """The module itself, imported now (once)."""
        module = sys.modules.get(self.__name__)
        if module is None or module is self:
            sys.modules.pop(self.__name__, None)
            module = importlib.import_module(self.__name__)
        return module


class _Forward(type):
    """A stand-in class: calling it makes an instance of the real class; its attributes are
    the real class's (Traceback.from_exception)."""

    def _real(cls):
        return getattr(cls._module.real(), cls._name)

    def __call__(cls, *args, **kwargs):
        return cls._real()(*args, **kwargs)

    def __getattr__(cls, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(cls._real(), name)
