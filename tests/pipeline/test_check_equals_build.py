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
