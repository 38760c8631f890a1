"""cardgen.cli.coercion: plain option values converted without pydantic give exactly Typer's
results and Typer's errors, for every option of every command."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.main import get_command

from cardgen.cli.app import app
from cardgen.paths import ROOT

from typer import _coercion as coercion  # Typer 0.29's conversion (pyproject: typer>=0.29)

SAMPLES = {
    str: ["a4", "", "über", " x ", "-", "0"],
    int: ["0", "12", "-3", "72", "1200", "1201", "71", "64", "65", "007", "+5", " 7", "1_000",
          "abc", "1.0", "", "99999999999999999999", 0, 300, True],
    float: ["1.5", "3", "-0", "0", "10", "10.5", "-0.5", "15", "30", "30.01", "1e3", ".5",
            "abc", "inf", "nan", "1,5", "", 2, 2.5],
    Path: ["out", "", ".", "/", "-", "card_data", "pyproject.toml", "no/such/dir",
           Path("output"), 7],
    bool: [True, False, "true", "no", ""],
}


def _params():
    group = get_command(app)
    for name, command in [("cardgen", group), *sorted(group.commands.items())]:
        for param in command.params:
            yield name, command, param


def _outcome(runtime, value, param, ctx):
    """The converted value with its type, or the error message Typer would print."""
    try:
        result = runtime.coerce(value, param=param, ctx=ctx)
    except typer.BadParameter as error:
        return ("error", error.format_message())
    if isinstance(result, float) and math.isnan(result):
        return ("nan", float)
    kinds = [type(v) for v in result] if isinstance(result, list) else type(result)
    return (result, kinds)


def _values(annotation):
    if isinstance(annotation, type) and annotation in SAMPLES:
        return SAMPLES[annotation]
    args = getattr(annotation, "__args__", ())
    if args and args[0] in SAMPLES:  # list[str]: several values, one, none
        one = [v for v in SAMPLES[args[0]] if isinstance(v, str)]
        return [tuple(one), tuple(one[:1]), (), None]
    return [None]


@pytest.mark.parametrize("command_name, command, param",
                         [pytest.param(*p, id=f"{p[0]}-{p[2].name}") for p in _params()])
def test_same_result_and_error_as_typer(command_name, command, param, monkeypatch):
    """Each sample value: cardgen's conversion and Typer's own agree, value, type and error."""
    monkeypatch.chdir(ROOT)  # card_data and pyproject.toml are there
    ctx = command.make_context(command_name, [], resilient_parsing=True)
    ours = param.get_runtime_param()
    typers = coercion.build_runtime_param(param.type_descriptor)
    for value in _values(param.type_descriptor.annotation):
        assert _outcome(ours, value, param, ctx) == _outcome(typers, value, param, ctx), value


def test_plain_options_take_the_short_way():
    """The conversion here is used at all: the build's plain options, not Typer's fallback."""
    build = get_command(app).commands["build"]
    names = {p.name: type(p.get_runtime_param()).__name__ for p in build.params}
    assert names["jobs"] == names["bleed"] == names["out"] == names["only"] == \
        "PlainRuntimeParam"


def test_parsing_a_build_imports_no_pydantic(tmp_path: Path):
    """A fresh process parses `cardgen build` with options of every plain kind without
    loading pydantic (it costs ~0.1 s; a build with nothing to do needs none of it)."""
    script = (
        "import sys\n"
        "from typer.main import get_command\n"
        "from cardgen.cli.app import app\n"
        "build = get_command(app).commands['build']\n"
        "ctx = build.make_context('build', ['quartett', '--paper', 'A4', '--jobs', '2',\n"
        "    '--bleed', '1.5', '--out', sys.argv[1], '--only', 'cards', '--only', 'guide',\n"
        "    '--dpi', '150', '--png', '--seed', '7'])\n"
        "p = ctx.params\n"
        "assert (p['jobs'], p['bleed'], p['dpi'], p['seed'], p['png']) == (2, 1.5, 150, 7, True)\n"
        "assert p['only'] == ['cards', 'guide'] and p['paper'] == 'A4', p\n"
        "assert isinstance(p['out'], __import__('pathlib').Path), p\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pydantic'))\n")
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path / "out")],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_bad_value_is_one_usage_line(tmp_path: Path):
    """Out of range and not a number: Typer's usage error, exit 2, no traceback."""
    from typer.testing import CliRunner
    runner = CliRunner()
    for args in (["--jobs", "65"], ["--bleed", "abc"], ["--dpi", "50"]):
        result = runner.invoke(app, ["build", "--out", str(tmp_path), *args])
        assert result.exit_code == 2, result.output
        assert "Traceback" not in result.output
        assert f"Invalid value for '{args[0]}'" in result.output
