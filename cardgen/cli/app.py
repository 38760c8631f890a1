"""The cardgen command: one module per sub-command, joined here.

User mistakes end as diagnostics with exit 1; a crash inside cardgen keeps its traceback and says
it is a bug, so it gets reported instead of mistaken for bad data.
"""

from __future__ import annotations

import sys

import typer

from . import build, check, packs, schema

app = typer.Typer(
    name="cardgen",
    help="Print-and-play card games from YAML: check the data, then build print-ready PDFs.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.command("packs")(packs.packs)
app.command("check")(check.check)
app.command("build")(build.build)
app.command("schema")(schema.schema)


def _stop(signum, frame) -> None:
    """SIGTERM ends a build like Ctrl-C: the write stage cleans up and output/ stays whole."""
    raise KeyboardInterrupt


def main() -> None:
    import signal
    signal.signal(signal.SIGTERM, _stop)
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)
    except Exception:
        import traceback
        traceback.print_exc()
        typer.echo("\nThis is a bug in cardgen, not in your data. Please report it with the "
                   "traceback above.", err=True)
        sys.exit(3)
