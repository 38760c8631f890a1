"""Random damage to a valid pack: cardgen answers with exit 0 or 1 and diagnostics — never a
traceback, never a partial file in the output folder."""

from __future__ import annotations

import shutil
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cardgen.cli.app import app

MINI = Path(__file__).parent / "fixtures" / "valid" / "card_data" / "mini"
FILES = sorted(p.relative_to(MINI) for p in MINI.rglob("*.yaml"))

# What a designer's slip can put in place of a value.
VALUES = st.one_of(
    st.sampled_from(["yes", "no", "~", "''", "true", "-1", "0", "1e3", "1:30", "012", ".nan",
                     "[1, 2, 3]", "{a: 1}", "\"{{ card.nope }}\"", "\"{% for x in y %}\"",
                     "\"**bold\"", "\"<b>&amp;\"", "\"\u2603 \U0001F600\"", "99999999999",
                     "\"" + "lang " * 200 + "\"", "[]", "{}", "\"../../etc/passwd\"",
                     "null", "x: y", "- a"]),
    st.integers(min_value=-10**6, max_value=10**6).map(str),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12).map(
        lambda t: '"' + t.replace("\\", "\\\\").replace('"', '\\"') + '"'),
)


def mutate(text: str, line_index: int, value: str, mode: int) -> str:
    lines = text.split("\n")
    index = line_index % len(lines)
    line = lines[index]
    if mode == 0 and ":" in line:  # replace a value
        key = line.split(":", 1)[0]
        lines[index] = f"{key}: {value}"
    elif mode == 1:  # drop a line
        del lines[index]
    elif mode == 2:  # duplicate a line
        lines.insert(index, line)
    else:  # break the indentation
        lines[index] = " " + line
    return "\n".join(lines)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(file_index=st.integers(0, 100), line=st.integers(0, 500), value=VALUES,
       mode=st.integers(0, 3), command=st.sampled_from(["check", "build"]))
def test_damaged_pack_never_crashes(tmp_path_factory, file_index, line, value, mode, command):
    root = tmp_path_factory.mktemp("damaged")
    pack = root / "card_data" / "mini"
    shutil.copytree(MINI, pack)
    target = pack / FILES[file_index % len(FILES)]
    target.write_text(mutate(target.read_text(encoding="utf-8"), line, value, mode),
                      encoding="utf-8")
    out = root / "out"
    args = [command, "--data", str(root / "card_data")]
    if command == "build":
        args += ["--out", str(out), "--only", "cards", "--jobs", "1"]
    result = CliRunner().invoke(app, args, catch_exceptions=False)
    assert result.exit_code in (0, 1), result.output
    assert "Traceback" not in result.output
    if command == "build":
        if result.exit_code == 1:
            assert not out.exists() or not any(out.rglob("*.pdf"))
        else:
            assert (out / "mini" / "cards.pdf").read_bytes().startswith(b"%PDF")
        leftovers = [p for p in out.rglob("*") if p.name.endswith(".tmp")] if out.exists() else []
        assert not leftovers
