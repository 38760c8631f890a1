"""The cardgen command: one module per sub-command, joined here.

User mistakes end as diagnostics with exit 1; a crash inside cardgen keeps its traceback and says
it is a bug, so it gets reported instead of mistaken for bad data.
"""

from __future__ import annotations

import sys
from typing import Annotated

from .deferred import defer_unused_imports

defer_unused_imports()  # before typer's help module imports them (cli/deferred.py)

import typer  # noqa: E402

from . import (balance, build, check, coercion, common, export, new, packs, schema, serve,
               translate, watch)

common.readable_help()
coercion.install()  # plain option values without pydantic (start-up time)

app = typer.Typer(
    name="cardgen",
    help="Print-and-play card games from YAML: check the data, then build print-ready PDFs.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        from .. import __version__
        typer.echo(f"cardgen {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print cardgen's version and exit.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only problems (no "
                                        "progress, no summary of what was built).")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Print more: which outputs "
                                          "were made again.")] = False,
    no_color: Annotated[bool, typer.Option("--no-color", help="No colour in diagnostics "
                                           "(also: NO_COLOR=1, TERM=dumb; FORCE_COLOR=1 forces "
                                           "it).")] = False,
) -> None:
    """Print-and-play card games from YAML: check the data, then build print-ready PDFs.

    Start a game: cardgen new my-game, then cardgen build my-game (or cardgen watch my-game).
    """
    if quiet and verbose:
        raise typer.BadParameter("-q and -v contradict each other; give one", param_hint="-q")
    common.use_edition(None)  # each command's own --language chooses another
    common.OUTPUT.level = 0 if quiet else 2 if verbose else 1
    common.OUTPUT.colour = not no_color


app.command("packs")(packs.packs)
app.command("check")(check.check)
app.command("build")(build.build)
app.command("new")(new.new)
app.command("watch")(watch.watch)
app.command("serve")(serve.serve)
app.command("export")(export.export)
app.command("import")(translate.import_)
app.command("schema")(schema.schema)
app.command("balance")(balance.balance)


def _stop(signum, frame) -> None:
    """SIGTERM ends a build like Ctrl-C: the write stage cleans up and output/ stays whole."""
    raise KeyboardInterrupt


def main() -> None:
    import signal
    # SIGTERM ends the run like Ctrl-C; the handler is cardgen's only while it runs, so a
    # program that calls main() (a test, a script) gets its own handler back afterwards
    previous = signal.signal(signal.SIGTERM, _stop)
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)
    except SystemExit as end:
        if end.code == 130:  # Typer turns Ctrl-C (and SIGTERM, see _stop) into this, silently
            typer.echo("interrupted", err=True)
        raise
    except Exception:
        import traceback
        traceback.print_exc()
        typer.echo("\nThis is a bug in cardgen, not in your data. Please report it with the "
                   "traceback above.", err=True)
        sys.exit(3)
    finally:
        signal.signal(signal.SIGTERM, previous)


def run() -> None:
    """The `cardgen` command: main(), then the process ends without freeing its objects one
    by one. Why: a build leaves a large heap (the loaded pack, every laid-out face, the fonts'
    tables, the drawn pages) and Python's own exit frees each object, 0.14 s of a 1.1 s cold
    build of 104 picture cards, for nothing: the files are written and closed by then.
    The atexit handlers still run and the standard streams are flushed; a thread still
    running (none does after a command), or a profiler or tracer watching (`python -m
    cProfile`, which writes its results after the program returns), gets Python's own exit."""
    import atexit
    import contextlib
    import os
    import threading
    try:
        main()
        code = 0
    except SystemExit as end:
        code = end.code
    if threading.active_count() > 1 or sys.getprofile() is not None or \
            sys.gettrace() is not None:
        sys.exit(code)
    if code is None:
        code = 0
    elif not isinstance(code, int):  # sys.exit("message"): said on stderr, status 1
        print(code, file=sys.stderr)
        code = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        # a reader gone (`cardgen packs | head -1`) or a closed stream: nothing left to say
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)
