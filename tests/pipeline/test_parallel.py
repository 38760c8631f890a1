"""Parallel builds: the same bytes as one process, and no second process where it cannot help."""

from __future__ import annotations

import pytest

from cardgen.model.settings import BuildSettings
from cardgen.pipeline.chain import build_pack
from cardgen.pipeline import parallel
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
    monkeypatch.setattr("cardgen.pipeline.chain.render_split", no_fork)
    report, result = build_pack(MINI, BuildSettings(only=("cards", "rulebook")),
                                split=True)
    assert result is not None, [d.format() for d in report.errors]
    assert "cards.pdf" in result.files and "rulebook.pdf" not in result.files


def test_default_jobs_is_the_cores_this_process_may_use(monkeypatch):
    """Not the load average: it lags, and the parallel parts do no work twice."""
    monkeypatch.setattr(parallel.os, "getloadavg", lambda: (9.0, 9.0, 9.0))
    for cores in ({0}, {0, 1}, {0, 1, 2, 3}):
        monkeypatch.setattr(parallel.os, "sched_getaffinity", lambda pid, c=cores: c,
                            raising=False)
        assert parallel.default_jobs() == len(cores)


def test_no_cycle_collection_during_a_build_and_back_after(monkeypatch):
    """The collector is off while a pack builds (its passes free nothing there) and on again
    after, also when the build fails."""
    import gc

    import cardgen.pipeline.chain as build
    seen = []
    real = build.validated

    def watching(folder, report):
        seen.append(gc.isenabled())
        return real(folder, report)
    monkeypatch.setattr(build, "validated", watching)
    assert gc.isenabled()
    build_pack(MINI, BuildSettings(only=("cards",)))
    assert seen == [False] and gc.isenabled()

    def failing(folder, report):
        raise RuntimeError("boom")
    monkeypatch.setattr(build, "validated", failing)
    with pytest.raises(RuntimeError):
        build_pack(MINI, BuildSettings(only=("cards",)))
    assert gc.isenabled()
