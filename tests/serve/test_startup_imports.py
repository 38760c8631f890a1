"""What a command imports and does not need (issue 27): `cardgen --help` draws its help
without rich's Markdown and traceback modules (cardgen/cli/deferred.py), which stay usable."""

from __future__ import annotations

import json
import subprocess
import sys

from cardgen.paths import ROOT

PROBE = """
import json, sys
sys.argv = ["cardgen"] + sys.argv[1:]
from cardgen.cli.app import main
try:
    main()
except SystemExit as end:  # every command ends so; only what it imported matters here
    assert end.code in (0, None, 1, 2), end.code
print(json.dumps([name for name in ("markdown_it", "pygments", "attr", "starlette", "uvicorn",
                                    "watchfiles", "reportlab", "pydantic")
                  if name in sys.modules]))
"""


def _imported(*args: str) -> tuple[list[str], str]:
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True,
                          cwd=ROOT, env={"PYTHONPATH": str(ROOT), "COLUMNS": "120",
                                         "PATH": "/usr/bin:/bin"})
    lines = done.stdout.strip().splitlines()
    return json.loads(lines[-1]), "\n".join(lines[:-1])


def test_help_imports_neither_the_pipeline_nor_what_it_does_not_show():
    imported, shown = _imported("--help")
    assert "serve" in shown and "watch" in shown
    assert imported == [], imported


def test_serve_help_names_its_safety():
    imported, shown = _imported("serve", "--help")
    assert "--host" in shown and "127.0.0.1" in shown and "--editor" in shown
    assert not {"starlette", "uvicorn", "watchfiles"} & set(imported)


def test_the_deferred_modules_work_when_used():
    code = ("import cardgen.cli.app\nfrom rich.markdown import Markdown\n"
            "from rich.console import Console\nimport io\nout = io.StringIO()\n"
            "Console(file=out, width=40).print(Markdown('# Title'))\n"
            "import rich.traceback\nassert callable(rich.traceback.install)\n"
            "print(out.getvalue().strip())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    assert "Title" in done.stdout
