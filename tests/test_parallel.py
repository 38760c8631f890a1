"""Parallel builds: the same bytes as one process, and no second process where it cannot help."""

from __future__ import annotations

from cardgen.build import BuildSettings, build_pack
from cardgen.cli import build as cli_build
from conftest import MINI, SHIPPED


def test_a_rulebook_on_a_second_core_gives_the_same_files(cli, tmp_path):
    """--jobs 2 on one pack with rules: the rulebook is rendered in a forked process."""
    outs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}"
        result = cli("build", "quartett", "--data", SHIPPED, "--out", out, "--jobs", jobs,
                     "--only", "cards", "--only", "rulebook")
        assert result.exit_code == 0, result.output
        outs.append({p.name: p.read_bytes() for p in (out / "quartett").iterdir()})
    assert set(outs[0]) == {"cards.pdf", "guide.pdf", "rulebook.pdf", "manifest.json"}
    assert outs[0] == outs[1]


def test_a_pack_without_rules_is_not_split(monkeypatch):
    def no_fork(*args, **kwargs):
        raise AssertionError("a second process for a pack without rules")
    monkeypatch.setattr("cardgen.build._render_split", no_fork)
    report, result = build_pack(MINI, BuildSettings(only=("cards", "rulebook")),
                                split=True)
    assert result is not None, [d.format() for d in report.errors]
    assert "cards.pdf" in result.files and "rulebook.pdf" not in result.files


def test_default_jobs_leaves_the_busy_cores_alone(monkeypatch):
    monkeypatch.setattr(cli_build.os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    for load, jobs in ((0.0, 2), (0.4, 2), (0.6, 1), (1.7, 1), (9.0, 1)):
        monkeypatch.setattr(cli_build.os, "getloadavg", lambda load=load: (load, 0.0, 0.0))
        assert cli_build.default_jobs() == jobs, load
