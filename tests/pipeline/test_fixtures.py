"""Bad input next to the diagnostics it must produce (format of expected.txt: see conftest.py).

Each case in tests/fixtures/invalid/ is run as `cardgen check [args]` from inside the case folder,
so the printed paths are relative to it; stderr must equal expected.txt line for line.
"""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent.parent / "fixtures"

CASES = sorted(p for p in (FIXTURES / "invalid").iterdir() if p.is_dir())


def expectation(case: Path) -> tuple[int, list[str], list[str]]:
    """(exit code, extra arguments, expected stderr lines) from the case's expected.txt."""
    lines = (case / "expected.txt").read_text(encoding="utf-8").splitlines()
    assert lines and lines[0].startswith("exit: "), f"{case.name}: first line must be 'exit: N'"
    code, lines = int(lines[0].removeprefix("exit: ")), lines[1:]
    args: list[str] = []
    if lines and lines[0].startswith("args: "):
        args, lines = lines[0].removeprefix("args: ").split(), lines[1:]
    return code, args, lines


def test_there_are_cases():
    assert len(CASES) >= 20
    for case in CASES:
        assert (case / "expected.txt").is_file(), case.name
        assert len(list((case / "card_data").glob("*/pack.yaml"))) == 1, case.name


def test_the_base_of_the_cases_is_valid(cli, monkeypatch):
    monkeypatch.chdir(FIXTURES / "valid")
    result = cli("check", "--strict")
    assert result.exit_code == 0, result.output
    assert result.stderr == "" and result.stdout.splitlines()[-1] == "ok"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_invalid_case(cli, monkeypatch, case):
    code, args, expected = expectation(case)
    monkeypatch.chdir(case)
    result = cli("check", *args)
    assert result.stderr.splitlines() == expected
    assert result.exit_code == code
    assert "Traceback" not in result.output
