"""The `cardgen` command's end (cli.app.run): the process ends without freeing its heap, and
still says everything, with the right status, after its atexit handlers ran."""

from __future__ import annotations

import os
import subprocess
import sys

from conftest import make_pack

# as the console script does: `cardgen = "cardgen.cli.app:run"`
PROGRAM = ("import atexit, sys; atexit.register(lambda: sys.stdout.write('atexit ran\\n')); "
           "sys.argv = ['cardgen'] + sys.argv[1:]; from cardgen.cli.app import run; run()")


def cardgen(cwd, *args: str) -> subprocess.CompletedProcess:
    # buffered streams, as a terminal-less run has them: what is not flushed would be lost
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    return subprocess.run([sys.executable, "-c", PROGRAM, *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120, env=env)


def test_the_console_script_is_run():
    import tomllib
    from pathlib import Path
    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    assert project["project"]["scripts"]["cardgen"] == "cardgen.cli.app:run"


def test_a_user_mistake_says_every_line_and_exits_1(tmp_path):
    make_pack(tmp_path, {"cards/heroes.yaml": "kind: hero\ncards:\n  - id: A1\n    name: x\n"
                                              "    name: y\n"})
    result = cardgen(tmp_path, "check")
    assert result.returncode == 1
    assert "card_data/mini/cards/heroes.yaml:5:5: error: duplicate key 'name'" in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout.endswith("atexit ran\n")  # the handlers ran, after everything said


def test_a_build_writes_its_files_and_exits_0(tmp_path):
    make_pack(tmp_path)
    result = cardgen(tmp_path, "-q", "build", "mini", "--only", "cards")
    assert result.returncode == 0, result.stderr
    pdf = (tmp_path / "output" / "mini" / "cards.pdf").read_bytes()
    assert pdf.startswith(b"%PDF") and pdf.rstrip().endswith(b"%%EOF")
    assert "atexit ran" in result.stdout


def test_help_is_printed_whole(tmp_path):
    result = cardgen(tmp_path, "--help")
    assert result.returncode == 0
    assert "build" in result.stdout and "serve" in result.stdout
    assert result.stdout.endswith("atexit ran\n")


def test_a_bad_option_exits_2(tmp_path):
    result = cardgen(tmp_path, "build", "--paper", "a9")
    assert result.returncode == 2
    assert "a9" in result.stderr


def test_a_profiled_run_still_writes_its_profile(tmp_path):
    """`python -m cProfile -o F` writes F after the program returns: the fast end waits."""
    script = tmp_path / "cardgen_run.py"
    script.write_text("import sys\nsys.argv[0] = 'cardgen'\n"
                      "from cardgen.cli.app import run\nrun()\n", encoding="utf-8")
    out = tmp_path / "run.prof"
    done = subprocess.run([sys.executable, "-m", "cProfile", "-o", str(out), str(script),
                           "--help"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert out.is_file() and out.stat().st_size > 0


def test_a_reader_gone_before_the_end_leaves_no_traceback(tmp_path):
    """Output still buffered at the end, its reader gone (`cardgen ... | head -1`): the last
    flush fails, and that says nothing. (`-q check` of a good pack writes nothing itself, so
    the failing write is the end's flush, not one that click's own guard takes.)"""
    make_pack(tmp_path)
    reader, writer = os.pipe()
    os.close(reader)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    program = ("import atexit, sys; atexit.register(lambda: sys.stdout.write('x' * 100)); "
               "sys.argv = ['cardgen', '-q', 'check']; from cardgen.cli.app import run; run()")
    try:
        done = subprocess.run([sys.executable, "-c", program], cwd=tmp_path, stdout=writer,
                              stderr=subprocess.PIPE, text=True, timeout=120, env=env)
    finally:
        os.close(writer)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
