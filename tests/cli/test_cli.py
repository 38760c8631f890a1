"""The command line contract of DESIGN.md, through typer's CliRunner."""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from pathlib import Path

import pypdf
import pytest
import yaml
from typer.testing import CliRunner

from cardgen.cli import app as app_module
from cardgen.cli.app import app as cardgen_app
from cardgen.paths import ROOT
from cardgen.output import OutputError

PACK = "crazy-hospital"
SHIPPED = ROOT / "card_data"
DIAGNOSTIC = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning): "
                        r"(?P<rest>.*)$")


def shipped_counts(pack: str = PACK) -> dict[str, int]:
    """Cards per kind (with copies), read straight from the pack's YAML, in pack.yaml's order."""
    folder = SHIPPED / pack
    kinds = [k["id"] for k in yaml.safe_load((folder / "pack.yaml").read_text())["kinds"]]
    counts: Counter[str] = Counter()
    for path in sorted((folder / "cards").glob("*.yaml")):
        doc = yaml.safe_load(path.read_text())
        counts[doc["kind"]] += sum(card.get("count", 1) for card in doc["cards"])
    return {kind: counts[kind] for kind in kinds}


def diagnostics(text: str) -> list[str]:
    return [line for line in text.splitlines() if DIAGNOSTIC.match(line)]


def assert_user_error(result, code: int = 1) -> None:
    """Exit code as the contract says, and no Python traceback for a user mistake."""
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    assert "Traceback" not in result.output


# --- help ------------------------------------------------------------------------------------

def test_top_level_help_lists_every_command(cli):
    result = cli("--help")
    assert result.exit_code == 0
    for command in ("packs", "check", "build", "schema"):
        assert re.search(rf"\b{command}\b", result.stdout)


@pytest.mark.parametrize("command", ["packs", "check", "build", "schema"])
def test_help_of_every_command_shows_examples(cli, command):
    result = cli(command, "--help")
    assert result.exit_code == 0
    assert "Example" in result.stdout
    assert re.search(rf"^\s*(Examples?:\s*)?cardgen {command}\b", result.stdout, re.M), \
        result.stdout


# --- packs and check -------------------------------------------------------------------------

def test_packs_lists_the_shipped_pack_with_its_card_count(cli, copy_shipped, tmp_path,
                                                         monkeypatch):
    copy_shipped(tmp_path)
    monkeypatch.chdir(tmp_path)  # ./card_data holds only the copy
    result = cli("packs")
    assert result.exit_code == 0, result.output
    [line] = [line for line in result.stdout.splitlines() if line.startswith(PACK)]
    total = sum(shipped_counts().values())
    assert re.search(rf"\bCrazy Hospital Quartett\b.*\bde\b\s+{total} cards  editions: en "
                     r"\(complete\)$", line), line


def test_packs_with_an_empty_data_folder(cli, tmp_path):
    (tmp_path / "empty").mkdir()
    result = cli("packs", "--data", tmp_path / "empty")
    assert_user_error(result)
    assert "no packs found" in result.stderr


def test_a_data_folder_that_is_missing_or_a_file_is_named_as_what_it_is(cli, tmp_path):
    (tmp_path / "notes.txt").write_text("x")
    result = cli("check", "--data", tmp_path / "notes.txt")
    assert_user_error(result)
    assert result.stderr.splitlines()[0] == (f"{tmp_path / 'notes.txt'}: error: is a file, not "
                                             "a folder (give the folder that holds your pack "
                                             "folders with --data)")
    result = cli("check", "--data", tmp_path / "nowhere")
    assert result.stderr.splitlines()[0].startswith(f"{tmp_path / 'nowhere'}: error: no such "
                                                    "folder")


def test_balance_games_beyond_the_bound_of_balance_yaml_is_a_usage_error(cli):
    """10^9 games would run for hours without a word; balance.yaml's own bound is 1 000 000."""
    result = cli("balance", "crazy-hospital", "--games", "1000001")
    assert result.exit_code == 2
    assert "1000000" in result.output.replace(" ", "").replace("_", "")


def test_packs_names_a_pack_whose_pack_yaml_is_broken(cli, make_pack, tmp_path):
    make_pack(tmp_path, {"pack.yaml": "id: mini\ntitle: [\n"})
    result = cli("packs", "--data", tmp_path / "card_data")
    assert result.exit_code == 0
    assert "mini" in result.stdout and "cardgen check mini" in result.stdout


def test_check_the_shipped_pack(cli, tmp_path, monkeypatch, shipped_checks_once):
    monkeypatch.chdir(tmp_path)  # no ./card_data: cardgen falls back to the shipped packs
    result = cli("check", PACK)
    assert result.exit_code == 0, result.output
    counts = ", ".join(f"{n} {kind}" for kind, n in shipped_counts().items())
    assert f"{PACK}: {counts}" in result.stdout.splitlines()
    assert f"{PACK}: 64 character, 8 K, 23 S, 9 ER" in result.stdout.splitlines()
    assert result.stdout.splitlines()[-1] == "ok"
    assert result.stderr == ""


def test_check_the_mini_pack_in_a_data_folder(cli, make_pack, tmp_path):
    make_pack(tmp_path)
    result = cli("check", "--data", tmp_path / "card_data")
    assert result.exit_code == 0 and result.stdout == "mini: 3 hero, 1 K\nok\n"


@pytest.mark.parametrize("name, hint", [("nope", "available: mini"),
                                        ("mnii", "did you mean 'mini'?")])
@pytest.mark.parametrize("command", ["check", "build"])
def test_unknown_pack(cli, make_pack, tmp_path, name, hint, command):
    make_pack(tmp_path)
    out = tmp_path / "out"
    result = cli(command, name, "--data", tmp_path / "card_data", "--out", out) \
        if command == "build" else cli(command, name, "--data", tmp_path / "card_data")
    assert_user_error(result)
    assert "no such pack" in result.stderr and hint in result.stderr
    assert not out.exists()


@pytest.mark.parametrize("args", [
    ["--paper", "a5"],
    ["--duplex", "sideways"],
    ["--only", "everything"],
    ["--dpi", "10"],
    ["--bleed", "-1"],
    ["--back-offset", "left"],
    ["--card-size", "big"],
    ["--no-such-option"],
])
def test_bad_option_value_is_wrong_usage(cli, make_pack, tmp_path, args):
    make_pack(tmp_path)
    out = tmp_path / "out"
    result = cli("build", "--data", tmp_path / "card_data", "--out", out, *args)
    assert_user_error(result, code=2)
    assert args[0] in result.stderr
    assert not out.exists()


def test_paper_a5_names_the_choices(cli, make_pack, tmp_path):
    make_pack(tmp_path)
    result = cli("build", "--data", tmp_path / "card_data", "--out", tmp_path / "o",
                 "--paper", "a5")
    assert "'a5'" in result.stderr and "a4" in result.stderr and "letter" in result.stderr


def test_warning_passes_check_and_strict_fails_it(cli, make_pack, tmp_path):
    make_pack(tmp_path)
    heroes = tmp_path / "card_data" / "mini" / "cards" / "heroes.yaml"
    heroes.write_text(heroes.read_text().replace("stundenlohn: 200.0", "stundenlohn: 150.0"))
    data = tmp_path / "card_data"
    relaxed, strict = cli("check", "--data", data), cli("check", "--data", data, "--strict")
    assert relaxed.exit_code == 0 and len(diagnostics(relaxed.stderr)) == 1
    assert "warning:" in relaxed.stderr
    assert_user_error(strict)
    assert "warnings are errors under --strict" in strict.stderr


# --- schema ----------------------------------------------------------------------------------

def test_schema_out_writes_json_schemas(cli, tmp_path):
    result = cli("schema", "--out", tmp_path / "schema")
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in (tmp_path / "schema").iterdir())
    assert names == ["balance.schema.json", "boards.schema.json", "cards.schema.json",
                     "composition.schema.json", "layouts.schema.json", "pack.schema.json",
                     "rules.schema.json"]
    for name in names:
        body = json.loads((tmp_path / "schema" / name).read_text())
        assert body["properties"] and body["$schema"].startswith("https://json-schema.org/")
    pack = json.loads((tmp_path / "schema" / "pack.schema.json").read_text())
    assert {"id", "title", "kinds", "categories", "stat_rules"} <= set(pack["properties"])
    assert pack.get("additionalProperties") is False  # unknown keys are errors in editors too


def test_schema_without_out_prints_the_pack_schema(cli):
    result = cli("schema")
    assert result.exit_code == 0
    assert "kinds" in json.loads(result.stdout)["properties"]


def test_shipped_schema_folder_is_up_to_date(cli, tmp_path):
    """The packs point their editors at schema/; it must match what the models say."""
    cli("schema", "--out", tmp_path / "schema")
    shipped = SHIPPED.parent / "schema"
    for path in sorted((tmp_path / "schema").iterdir()):
        assert (shipped / path.name).read_text() == path.read_text(), path.name


def test_schema_out_that_cannot_be_written_is_a_user_error(runner, app, tmp_path):
    (tmp_path / "taken").write_text("a file, not a folder")
    result = runner.invoke(app, ["schema", "--out", str(tmp_path / "taken")])
    assert not isinstance(result.exception, OutputError), "OutputError escaped as a traceback"
    assert_user_error(result)
    assert "taken" in result.stderr


# --- build (the big pack: built twice, once per module) --------------------------------------

@pytest.fixture(scope="module")
def built(tmp_path_factory, copy_shipped):
    """Two builds of the shipped pack (only cards) into out1/ and out2/, from ./card_data."""
    base = tmp_path_factory.mktemp("build")
    copy_shipped(base)
    runner = CliRunner()
    results = []
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(base)
        for out in ("out1", "out2"):
            results.append(runner.invoke(cardgen_app, ["build", PACK, "--out", out, "--only",
                                                       "cards"], catch_exceptions=False))
    return base, results


def test_build_exits_0_and_writes_cards_pdf(built):
    base, (first, _) = built
    assert first.exit_code == 0, first.output
    folder = base / "out1" / PACK
    # --only cards: the sheets and the one-page print guide that belongs to them
    assert sorted(p.name for p in folder.iterdir()) == ["cards.pdf", "guide.pdf", "manifest.json"]
    pdf = (folder / "cards.pdf").read_bytes()
    assert pdf.startswith(b"%PDF")
    assert f"{PACK}: cards.pdf" in first.stdout


def test_build_cards_pdf_has_fronts_and_backs(built):
    base, (first, _) = built
    assert first.exit_code == 0, first.output
    reader = pypdf.PdfReader(base / "out1" / PACK / "cards.pdf")
    total = sum(shipped_counts().values())
    assert len(reader.pages) % 2 == 0  # every fronts page is followed by its backs page
    assert len(reader.pages) >= 2 * -(-total // 9)  # at most 9 skat cards fit an A4 sheet


def test_build_manifest(built):
    base, (first, _) = built
    assert first.exit_code == 0, first.output
    folder = base / "out1" / PACK
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["pack"] == PACK
    assert manifest["cards"] == shipped_counts()  # the shipped pack has no `count:` copies
    assert manifest["outputs"] == {
        name: hashlib.sha256((folder / name).read_bytes()).hexdigest()
        for name in ("cards.pdf", "guide.pdf")}
    pack_yaml = f"card_data/{PACK}/pack.yaml"
    assert manifest["inputs"][pack_yaml] == \
        hashlib.sha256((base / pack_yaml).read_bytes()).hexdigest()
    assert not any(name.startswith("/") for name in manifest["inputs"])


def test_two_builds_are_byte_identical(built):
    base, (first, second) = built
    assert first.exit_code == 0 and second.exit_code == 0, first.output + second.output
    for name in ("cards.pdf", "manifest.json"):
        assert (base / "out1" / PACK / name).read_bytes() == \
            (base / "out2" / PACK / name).read_bytes(), name


# --- the issue: every mistake at once, nothing written ---------------------------------------

def _edit(path: Path, pattern: str, change) -> tuple[int, str]:
    """Apply change(lines, index) at the first line matching pattern; returns (1-based line of
    that match, the card ID it belongs to)."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    index = next(i for i, line in enumerate(lines) if re.match(pattern, line))
    card_id = next(re.match(r"^  - id: (\S+)", lines[i]).group(1)
                   for i in range(index, -1, -1) if lines[i].startswith("  - id: "))
    change(lines, index)
    path.write_text("".join(lines), encoding="utf-8")
    return index + 1, card_id


def _break_three_files(cards: Path):
    """A duplicate key, a misspelt key and a value of the wrong type, each in its own file."""
    dup_line, _ = _edit(cards / "ereignisse.yaml", r"^    name: ",
                        lambda lines, i: lines.insert(i + 1, '    name: "Doppelt"\n'))
    typo_line, typo_id = _edit(cards / "konsiliar.yaml", r"^    name: ",
                               lambda lines, i: lines.__setitem__(
                                   i, lines[i].replace("name:", "nmae:", 1)))
    type_line, type_id = _edit(cards / "character.yaml", r"^    points: ",
                               lambda lines, i: lines.__setitem__(i, '    points: "viel"\n'))
    return dup_line, (typo_line, typo_id), (type_line, type_id)


def test_build_reports_every_mistake_and_writes_nothing(cli, copy_shipped, make_pack, tmp_path,
                                                       monkeypatch, tree):
    monkeypatch.chdir(tmp_path)
    # a previous, good build in the output folder
    out = tmp_path / "output"
    make_pack(tmp_path / "earlier")
    assert cli("build", "--data", tmp_path / "earlier" / "card_data", "--out", out).exit_code == 0
    (out / PACK).mkdir()
    (out / PACK / "cards.pdf").write_bytes(b"%PDF-1.4 the cards of yesterday")
    (out / PACK / "manifest.json").write_text('{"pack": "crazy-hospital"}\n')
    before = tree(out)
    assert "mini/cards.pdf" in before

    cards = copy_shipped(tmp_path) / "cards"
    dup_line, (typo_line, typo_id), (type_line, type_id) = _break_three_files(cards)
    result = cli("build", "--data", "card_data", "--out", out)

    assert_user_error(result)
    shown = f"card_data/{PACK}/cards"
    lines = diagnostics(result.stderr)
    assert len(lines) == 3, result.stderr
    character, ereignisse, konsiliar = lines  # sorted by file name
    assert character.startswith(f"{shown}/character.yaml:{type_line}:13: error: {type_id} ")
    assert "points" in character and "'viel'" in character and "whole number" in character
    assert ereignisse == (f"{shown}/ereignisse.yaml:{dup_line + 1}:5: error: duplicate key "
                          f"'name' (first defined at line {dup_line}); remove one of them")
    assert konsiliar == (f"{shown}/konsiliar.yaml:{typo_line}:5: error: {typo_id} unknown key "
                         f"'nmae' (did you mean 'name'?)")
    assert result.stderr.splitlines()[-1] == "3 errors, 0 warnings in 3 files"
    assert tree(out) == before


def test_check_reports_the_same_three_mistakes(cli, copy_shipped, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _break_three_files(copy_shipped(tmp_path) / "cards")
    result = cli("check", PACK)
    assert_user_error(result)
    assert len(diagnostics(result.stderr)) == 3


def test_true_as_a_stat_value_is_an_error(cli, copy_shipped, tmp_path, monkeypatch):
    """`iq: true` must not be read as 1 (pydantic would coerce it); it is a mistake to report."""
    monkeypatch.chdir(tmp_path)
    cards = copy_shipped(tmp_path) / "cards"
    line, card_id = _edit(cards / "character.yaml", r"^      iq: ",
                          lambda lines, i: lines.__setitem__(i, "      iq: true\n"))
    result = cli("check", PACK)
    assert_user_error(result)
    [diag] = diagnostics(result.stderr)
    assert diag.startswith(f"card_data/{PACK}/cards/character.yaml:{line}:11: error: {card_id} ")
    assert "iq" in diag and "true" in diag


# --- writing fails / cardgen fails -----------------------------------------------------------

def test_unwritable_output_is_exit_1_without_traceback(cli, make_pack, tmp_path, monkeypatch,
                                                      tree):
    make_pack(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("keep")
    before = tree(out)

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("cardgen.output.os.fsync", refuse)
    result = cli("build", "--data", tmp_path / "card_data", "--out", out)
    assert_user_error(result)
    assert "error: cannot write" in result.stderr and "Permission denied" in result.stderr
    assert tree(out) == before


def test_entry_point_user_mistake_exits_1_without_traceback(make_pack, tmp_path, monkeypatch,
                                                           capsys):
    make_pack(tmp_path, {"cards/heroes.yaml": "kind: hero\ncards:\n  - id: A1\n    name: x\n"
                                              "    name: y\n"})
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.argv", ["cardgen", "check"])
    import signal
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(SystemExit) as info:
        app_module.main()
    assert info.value.code == 1
    # cardgen's SIGTERM handler is its own only while it runs (it must not stay in the caller)
    assert signal.getsignal(signal.SIGTERM) is before
    err = capsys.readouterr().err
    assert "card_data/mini/cards/heroes.yaml:5:5: error: duplicate key 'name'" in err
    assert "Traceback" not in err


def test_entry_point_internal_error_keeps_traceback_and_says_bug(monkeypatch, capsys):
    def broken():
        raise RuntimeError("boom inside cardgen")

    monkeypatch.setattr(app_module, "app", broken)
    with pytest.raises(SystemExit) as info:
        app_module.main()
    assert info.value.code not in (0, 1, 2)
    err = capsys.readouterr().err
    assert "Traceback" in err and "RuntimeError: boom inside cardgen" in err
    assert "bug" in err
