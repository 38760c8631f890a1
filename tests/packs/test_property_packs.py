"""Random damage to a valid pack: cardgen answers with exit 0 or 1 and diagnostics — never a
traceback, never a partial file in the output folder."""

from __future__ import annotations

import functools
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from conftest import MINI, build_mini, pictured_mini, with_points
from cardgen.cli.app import app

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


# --- pictures a layout, a board or a card uses ---------------------------------------------------

PICTURE_LAYOUTS = """\
layouts:
  mini-back:
    extends: simple-back
    regions:
      picture: {type: image, x: 5, y: 5, w: 49, h: 81, layer: 5, image: images/back.png}
  pix-front:
    extends: stat-card
    regions:
      frame: {type: image, x: 0, y: 0, w: 59, h: 91, layer: 9, image: images/frame.png}
      logo: {type: image, x: 45, y: 84, w: 6, h: 6, layer: 9, image: "images/{{ 'logo' }}.jpg"}
"""
PICTURES = {"back.png": "PNG", "frame.png": "PNG", "logo.jpg": "JPEG", "board.png": "PNG",
            "ann.jpg": "JPEG"}  # ann.jpg: the picture of card A1
NAMED_AT = {"back.png": "layouts.yaml:5:", "frame.png": "layouts.yaml:9:",
            "logo.jpg": "layouts.yaml:10:", "board.png": "boards.yaml:6:",
            "ann.jpg": "heroes.yaml:5:"}


def picture_pack(root: Path) -> Path:
    """The mini pack with a picture on its back, a frame and a logo on its fronts, a board
    picture and a picture of its own on card A1."""
    pack = pictured_mini(root, PICTURE_LAYOUTS)
    cards = (pack / "cards" / "heroes.yaml").read_text(encoding="utf-8")
    (pack / "cards" / "heroes.yaml").write_text(
        cards.replace("    name: Ann\n", "    name: Ann\n    image: images/ann.jpg\n", 1),
        encoding="utf-8")
    (pack / "images").mkdir()
    for name, fmt in PICTURES.items():
        (pack / "images" / name).write_bytes(_picture(fmt))
    return pack


@functools.lru_cache(maxsize=None)
def _picture(fmt: str) -> bytes:
    """A 700 × 1100 px picture in PNG or JPEG (encoded once, not for every example)."""
    import io
    from PIL import Image
    buffer = io.BytesIO()
    Image.new("RGB", (700, 1100), "#446688").save(buffer, fmt)
    return buffer.getvalue()


def damage_picture(path: Path, how: int, where: int, data: bytes, outside: Path) -> None:
    """Truncate, overwrite bytes, replace, empty, remove, a folder, a link out of the pack."""
    content = path.read_bytes()
    if how == 0:
        path.write_bytes(content[:where % max(1, len(content))])
    elif how == 1:
        at = where % len(content)
        path.write_bytes(content[:at] + data + content[at + len(data):])
    elif how == 2:
        path.write_bytes(data)
    elif how == 3:
        path.unlink()
    elif how == 4:
        path.unlink()
        path.mkdir()
    else:
        outside.write_bytes(content)  # a harmless copy outside the pack, never written through
        path.unlink()
        path.symlink_to(outside)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(picture=st.sampled_from(sorted(PICTURES)), how=st.integers(0, 5),
       where=st.integers(0, 10**6), data=st.binary(min_size=1, max_size=64),
       command=st.sampled_from(["check", "build"]))
def test_damaged_pictures_are_diagnostics_at_their_yaml(tmp_path_factory, picture, how, where,
                                                       data, command):
    root = tmp_path_factory.mktemp("pictures")
    pack = picture_pack(root)
    damage_picture(pack / "images" / picture, how, where, data, root / "outside.bin")
    out = root / "out"
    args = [command, "--data", str(root / "card_data")]
    if command == "build":
        args += ["--out", str(out), "--only", "cards", "--only", "boards", "--jobs", "1"]
    result = CliRunner().invoke(app, args, catch_exceptions=False)
    assert result.exit_code in (0, 1), result.output
    assert "Traceback" not in result.output
    if result.exit_code == 1:
        errors = [line for line in result.stderr.splitlines() if ": error: " in line]
        assert errors and all(NAMED_AT[picture] in line for line in errors), errors
        assert not out.exists()
    elif command == "build":  # the damage left a picture that still decodes: it is printed
        assert (out / "mini" / "cards.pdf").read_bytes().startswith(b"%PDF")


# --- spreadsheets: a kind's cards in a CSV file or a workbook ------------------------------------

# What a cell may hold after a slip, a paste or a program that wrote it: numbers too large for
# any field (Excel's 1E+308, a column of 5000 digits), half a level, text where numbers go.
CELLS = st.one_of(
    st.sampled_from(["", " ", "x", "-1", "0", "1e308", "9" * 5000, "99999999999999999999",
                     "-99999999999999999", "1000000000000001", "999999999999999.5", "[1, 2]",
                     "[99999999999999999999999, 1]", "[2; 60]", "1,5", "=SUM(A1:A2)", '"',
                     "a;b", "NaN", "inf", "true", "🙂", "A1", "red, blue", "\t", "x" * 300]),
    st.integers(min_value=-10**20, max_value=10**20),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.text(max_size=8),
)


def _hero_rows() -> list[list]:
    """The mini pack's heroes as rows: the column names, then a row per card."""
    import yaml
    cards = yaml.safe_load((MINI / "cards" / "heroes.yaml").read_text(encoding="utf-8"))["cards"]
    stats = list(cards[0]["stats"])
    rows = [["id", "name", "set", "group", *(f"stats.{k}" for k in stats)]]
    for card in cards:
        rows.append([card["id"], card["name"], card["set"], card["group"],
                     *(card["stats"][k] for k in stats)])
    return rows


def _write_sheet(path: Path, rows: list[list]) -> None:
    from cardgen.load.spreadsheet import cell_text, workbook
    if path.suffix == ".xlsx":
        path.write_bytes(workbook(rows))
        return
    import csv
    with open(path, "w", encoding="utf-8", newline="") as stream:
        csv.writer(stream, lineterminator="\n").writerows(
            [["" if c is None else cell_text(c) for c in row] for row in rows])


def damage_rows(rows: list[list], how: int, row: int, col: int, value) -> list[list]:
    rows = [list(r) for r in rows]
    r, c = row % len(rows), col % len(rows[0])
    if how == 0:
        rows[r][c] = value
    elif how == 1 and len(rows) > 1:
        del rows[r]
    elif how == 2:
        rows.insert(r, list(rows[r]))
    elif how == 3:
        for line in rows:
            del line[c]
    else:
        rows[r] = rows[r] + [value, value]
    return rows


@settings(max_examples=50, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(fmt=st.sampled_from([".csv", ".xlsx"]), how=st.integers(0, 6), row=st.integers(0, 50),
       col=st.integers(0, 50), value=CELLS, where=st.integers(0, 10**6),
       data=st.binary(min_size=1, max_size=32), command=st.sampled_from(["check", "build"]))
def test_damaged_spreadsheets_never_crash(tmp_path_factory, fmt, how, row, col, value, where,
                                          data, command):
    root = tmp_path_factory.mktemp("sheet")
    pack = root / "card_data" / "mini"
    shutil.copytree(MINI, pack)
    (pack / "cards" / "heroes.yaml").unlink()
    sheet = pack / "cards" / f"hero{fmt}"
    if how <= 4:
        _write_sheet(sheet, damage_rows(_hero_rows(), how, row, col, value))
    else:  # the file's bytes: cut short, or overwritten in the middle
        _write_sheet(sheet, _hero_rows())
        content = sheet.read_bytes()
        at = where % len(content)
        sheet.write_bytes(content[:at] if how == 5 else content[:at] + data +
                          content[at + len(data):])
    _assert_answers(root, command)


def _assert_answers(root: Path, command: str, extra: tuple = ()) -> None:
    """cardgen check or build on root/card_data: exit 0 or 1 with diagnostics, no traceback;
    a failed build writes nothing, a finished one a whole cards.pdf."""
    out = root / "out"
    args = [command, "--data", str(root / "card_data"), *extra]
    if command == "build":
        args += ["--out", str(out), "--only", "cards", "--jobs", "1"]
    result = CliRunner().invoke(app, args, catch_exceptions=False)
    assert result.exit_code in (0, 1), result.output
    assert "Traceback" not in result.output
    if result.exit_code == 1:
        assert [line for line in result.stderr.splitlines() if ": error: " in line or
                line.startswith("error: ")], result.output
    if command == "build":
        if result.exit_code == 1:
            assert not out.exists() or not any(out.rglob("*"))
        else:
            assert (out / "mini" / "cards.pdf").read_bytes().startswith(b"%PDF")


# --- balance.yaml ----------------------------------------------------------------------------------

BALANCE = """\
kinds: [hero]
specials: [K]
same_set_only: [alter_pos]
tie_breaks: [detail, other, next]
duel_cap: 200
redundant_above: 0.9
suggest:
  - field: points
    kinds: [hero]
    by: strength
    within: kind
    range: [1, 5]
"""


def balance_pack(root: Path) -> Path:
    """The mini pack with a balance.yaml, and points on its heroes for --apply to change."""
    pack = root / "card_data" / "mini"
    shutil.copytree(MINI, pack)
    return with_points(pack, BALANCE)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(line=st.integers(0, 100), value=VALUES, mode=st.integers(0, 3),
       command=st.sampled_from(["check", "build", "balance"]))
def test_damaged_balance_yaml_never_crashes(tmp_path_factory, line, value, mode, command):
    root = tmp_path_factory.mktemp("balance")
    pack = balance_pack(root)
    target = pack / "balance.yaml"
    target.write_text(mutate(target.read_text(encoding="utf-8"), line, value, mode),
                      encoding="utf-8")
    if command != "balance":
        _assert_answers(root, command)
        return
    cards = (pack / "cards" / "heroes.yaml").read_bytes()
    out = root / "out"
    result = CliRunner().invoke(app, ["balance", "mini", "--data", str(root / "card_data"),
                                      "--games", "3", "--out", str(out), "--apply"],
                                catch_exceptions=False)
    assert result.exit_code in (0, 1), result.output
    assert "Traceback" not in result.output
    if result.exit_code == 1:  # nothing written: neither balance.pdf nor the card files
        assert not out.exists()
        assert (pack / "cards" / "heroes.yaml").read_bytes() == cards
    else:
        assert (out / "mini" / "balance.pdf").read_bytes().startswith(b"%PDF")


# --- manifests: the last build's (output/<pack>/manifest.json) and --changed-since's ----------------

# What a manifest may become: cut short, edited by hand, nested deep, from another format.
JSON_VALUES = st.one_of(
    st.sampled_from([None, True, 0, -1, 10**400, 1.5, "", "x", "../../etc/passwd", "/abs",
                     [], {}, ["cards.pdf"], {"front": 1}, {"front": "a", "back": "b"},
                     [[[[[[[[[[]]]]]]]]]], {"a": {"b": {"c": {"d": {}}}}}]),
    st.text(max_size=12), st.integers(), st.lists(st.text(max_size=4), max_size=3),
)


def damage_manifest(text: str, how: int, path: list[int], value, where: int) -> str:
    """Set a value somewhere (a path of indexes into the mapping's keys), remove a key, change
    the format, nest it 100 000 deep, or cut the text short."""
    import json
    if how == 3:
        return text[:where % len(text)]
    if how == 4:
        return "[" * 100_000 + text + "]" * 100_000
    body = json.loads(text)
    if how == 2:
        body["format"] = value
        return json.dumps(body)
    node = body
    for step in path[:-1]:
        if isinstance(node, dict) and node:
            child = node[sorted(node)[step % len(node)]]
            if not isinstance(child, (dict, list)) or not child:
                break
            node = child
        elif isinstance(node, list) and node:
            child = node[step % len(node)]
            if not isinstance(child, (dict, list)) or not child:
                break
            node = child
    if isinstance(node, dict) and node:
        key = sorted(node)[path[-1] % len(node)]
        if how == 0:
            node[key] = value
        else:
            del node[key]
    elif isinstance(node, list) and node:
        node[path[-1] % len(node)] = value
    return json.dumps(body)


@pytest.fixture(scope="module")
def built_mini(tmp_path_factory):
    """The mini pack, built once (cards only): its output folder and manifest."""
    return build_mini(tmp_path_factory.mktemp("built"))


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(how=st.integers(0, 4), path=st.lists(st.integers(0, 50), min_size=1, max_size=4),
       value=JSON_VALUES, where=st.integers(0, 10**6),
       use=st.sampled_from(["changed-since", "last build"]))
def test_damaged_manifests_never_crash(tmp_path_factory, built_mini, how, path, value, where,
                                       use):
    root = tmp_path_factory.mktemp("manifest")
    shutil.copytree(built_mini, root, dirs_exist_ok=True)
    out = root / "out"
    manifest = out / "mini" / "manifest.json"
    damaged = damage_manifest(manifest.read_text(encoding="utf-8"), how, path, value, where)
    (out / "mini" / "notes.txt").write_text("mine")  # the user's own file: never removed
    args = ["build", "mini", "--data", str(root / "card_data"), "--out", str(out), "--only",
            "cards", "--jobs", "1"]
    if use == "changed-since":
        (root / "printed.json").write_text(damaged, encoding="utf-8")
        args += ["--changed-since", str(root / "printed.json")]
    else:
        manifest.write_text(damaged, encoding="utf-8")
    result = CliRunner().invoke(app, args, catch_exceptions=False, env={"COLUMNS": "1000"})
    assert "Traceback" not in result.output
    if use == "changed-since":  # a file that cannot serve is a usage error naming it
        assert result.exit_code in (0, 2), result.output
        if result.exit_code == 2:
            assert "printed.json" in result.stderr and "--changed-since" in result.stderr
    else:  # the last build's manifest is only trusted whole: the build goes on
        assert result.exit_code == 0, result.output
    import json
    after = json.loads(manifest.read_text(encoding="utf-8"))
    assert all((out / "mini" / name).is_file() for name in after["outputs"])
    assert (out / "mini" / "notes.txt").read_text() == "mine"
