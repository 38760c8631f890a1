"""`cardgen check` and `cardgen build` run one pipeline: on every bad-input fixture and on the
base of the fixtures, both end with the same exit code and the same diagnostics (a build adds
only its own lines on stdout), and a build that fails writes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent.parent / "fixtures"
CASES = sorted(p for p in (FIXTURES / "invalid").iterdir() if p.is_dir())


def _args(case: Path) -> list[str]:
    lines = (case / "expected.txt").read_text(encoding="utf-8").splitlines()
    for line in lines[1:2]:
        if line.startswith("args: "):
            return line.removeprefix("args: ").split()
    return []


@pytest.mark.parametrize("case", [*CASES, FIXTURES / "valid"],
                         ids=[c.name for c in CASES] + ["valid"])
def test_check_and_build_say_the_same(cli, monkeypatch, tmp_path, case):
    args = _args(case) if case.parent.name == "invalid" else ["--strict"]
    monkeypatch.chdir(case)
    checked = cli("check", *args)
    out = tmp_path / "out"
    built = cli("build", *args, "--out", out, "--jobs", "1")
    assert built.exit_code == checked.exit_code, (checked.stderr, built.stderr)
    assert built.stderr.splitlines() == checked.stderr.splitlines()
    if built.exit_code:
        assert not out.exists() or not any(out.iterdir())
    else:
        assert (out / "mini" / "cards.pdf").is_file()


def test_a_build_checks_balance_yaml_like_check(cli, monkeypatch, tmp_path):
    """The case issue 26 measured: check failed on balance.yaml, build wrote three PDFs."""
    case = FIXTURES / "invalid" / "balance-unknown-name"
    monkeypatch.chdir(case)
    built = cli("build", "--out", tmp_path / "out")
    assert built.exit_code == 1
    assert "balance.yaml:2:12: error: specials: unknown kind 'Q'" in built.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("settings", ["folder", "margin: 95\n", "paper: a5\n", "",
                                      "paper: letter\n"])
def test_check_reads_the_settings_file_as_build_does(cli, monkeypatch, tmp_path, settings):
    """The printer's settings file is the build's input too: a broken one fails check and
    build alike, an empty one means no settings in both (issue 31)."""
    path = tmp_path / "settings.yaml"
    if settings == "folder":
        path.mkdir()
    else:
        path.write_text(settings, encoding="utf-8")
    monkeypatch.setenv("CARDGEN_SETTINGS", str(path))
    monkeypatch.chdir(FIXTURES / "valid")
    checked = cli("check")
    built = cli("build", "--out", tmp_path / "out", "--jobs", "1", "--only", "cards")
    assert built.exit_code == checked.exit_code, (checked.stderr, built.stderr)
    assert built.stderr.splitlines() == checked.stderr.splitlines()
    assert checked.exit_code == (1 if settings in ("folder", "margin: 95\n", "paper: a5\n")
                                 else 0), checked.stderr
