"""The designer's loop on the command line: reprinting what changed (--changed-since) and the
conventions other tools have taught users (--version, -q/-v, colour, choices in any case,
warnings for options without effect, a named settings file that must exist, a closing total)."""

from __future__ import annotations

import json
import re
import shutil

import pypdf
import pytest
from typer.testing import CliRunner

from cardgen.cli.app import app
from cardgen.cli.common import OUTPUT


@pytest.fixture(autouse=True)
def normal_output():
    """-q, -v and --no-color set process-wide state: every test starts from the defaults."""
    yield
    OUTPUT.level, OUTPUT.colour = 1, True


def run(*args, env=None):
    return CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=False, env=env)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A `cardgen new` pack, built once (cards only), and that build's manifest kept aside."""
    root = tmp_path_factory.mktemp("changed")
    assert run("new", "game", "--data", root / "card_data").exit_code == 0
    result = run("build", "game", "--data", root / "card_data", "--out", root / "out",
                 "--only", "cards")
    assert result.exit_code == 0, result.output
    shutil.copy(root / "out" / "game" / "manifest.json", root / "printed.json")
    return root


@pytest.fixture
def pack(built, tmp_path):
    """A copy of the built pack to edit, with its output and the manifest of its printing."""
    shutil.copytree(built, tmp_path, dirs_exist_ok=True)
    return tmp_path


def edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def changed_build(root):
    return run("build", "game", "--data", root / "card_data", "--out", root / "out", "--only",
               "cards", "--changed-since", root / "printed.json")


def listed(result) -> list[str]:
    return [line.strip() for line in result.stdout.splitlines() if line.startswith("  ")]


def test_only_the_cards_whose_face_changed_are_reprinted(pack):
    cards = pack / "card_data" / "game" / "cards" / "explorers.yaml"
    edit(cards, "courage: 6, stamina: 88", "courage: 7, stamina: 88")   # E2's stat
    edit(cards, "Maren Gale", "Maren Storm")                            # E5's name
    result = changed_build(pack)
    assert result.exit_code == 0, result.output
    assert listed(result) == ["E2  front", "E5  front"]
    assert "game: 2 changed cards in changed.pdf:" in result.stdout
    reader = pypdf.PdfReader(pack / "out" / "game" / "changed.pdf")
    assert len(reader.pages) == 2  # one sheet of fronts, its backs
    text = reader.pages[0].extract_text()
    assert "E2" in text and "E5" in text and "Storm" in text
    assert not re.search(r"\bE[134678]\b", text)


def test_a_changed_back_says_so(pack):
    edit(pack / "card_data" / "game" / "layouts.yaml", 'fill: "#8A5A2B"', 'fill: "#336699"')
    result = changed_build(pack)
    assert result.exit_code == 0, result.output
    assert listed(result) == [f"E{n}  back" for n in range(1, 9)]


def test_a_new_card_is_listed_as_new(pack):
    cards = pack / "card_data" / "game" / "cards" / "explorers.yaml"
    cards.write_text(cards.read_text(encoding="utf-8") + (
        "  - id: E9\n    name: Una Ice\n    group: sea\n"
        "    stats: {courage: 5, stamina: 50, luggage: 20}\n"), encoding="utf-8")
    assert listed(changed_build(pack)) == ["E9  new"]


def test_nothing_changed_makes_no_changed_pdf(pack):
    result = changed_build(pack)
    assert result.exit_code == 0, result.output
    assert "game: no printed card changed since that manifest (no changed.pdf)" in \
        result.stdout
    assert not (pack / "out" / "game" / "changed.pdf").exists()


def test_the_manifest_records_a_hash_per_card_face(built):
    body = json.loads((built / "printed.json").read_text(encoding="utf-8"))
    assert sorted(body["faces"]) == [f"E{n}" for n in range(1, 9)]
    assert set(body["faces"]["E1"]) == {"front", "back"}
    assert body["faces"]["E1"]["back"] == body["faces"]["E2"]["back"]
    assert body["faces"]["E1"]["front"] != body["faces"]["E2"]["front"]


@pytest.mark.parametrize("content", ["not json", '{"pack": "other", "faces": {}}', "{}"])
def test_a_manifest_that_cannot_serve_is_a_usage_error(pack, content):
    (pack / "printed.json").write_text(content, encoding="utf-8")
    result = changed_build(pack)
    assert result.exit_code == 2
    assert "--changed-since" in result.stderr


# --- conventions -----------------------------------------------------------------------------

def test_version():
    from cardgen import __version__
    result = run("--version")
    assert result.exit_code == 0 and result.stdout == f"cardgen {__version__}\n"


def test_help_shows_no_type_after_a_flag_and_offers_completion():
    result = run("build", "--help", env={"COLUMNS": "200"})
    assert "<bool>" not in result.stdout and "<str>" not in result.stdout
    png = next(line for line in result.stdout.splitlines() if "│ --png " in line)
    assert re.search(r"--png\s+Also write", png)
    assert re.search(r"--paper\s+PAPER\s", result.stdout)
    assert "--install-completion" in run("--help", env={"COLUMNS": "200"}).stdout


def test_choices_in_any_case_and_the_closing_total(built, tmp_path):
    result = run("build", "game", "--data", built / "card_data", "--out", tmp_path,
                 "--paper", "A4", "--duplex", "LONG", "--only", "CARDS")
    assert result.exit_code == 0, result.output
    made, total = result.stdout.splitlines()[-2:]
    written = len(made.split(" → ")[0].split(": ", 1)[1].split(", ")) + 1  # and the manifest
    assert re.fullmatch(rf"done: 8 cards, {written} files written in \d+\.\d s", total)
    again = run("build", "game", "--data", built / "card_data", "--out", tmp_path,
                "--paper", "a4", "--duplex", "long", "--only", "cards")
    assert re.fullmatch(r"done: nothing to do \(\d+\.\d s\)", again.stdout.splitlines()[-1])


@pytest.mark.parametrize("options, warning", [
    (["--dpi", "150"], "--dpi has no effect without --png"),
    (["--no-bleed"], "--no-bleed has no effect without --png"),
    (["--booklet"], "--booklet has no effect: --only leaves out the rulebook"),
])
def test_an_option_without_effect_is_a_warning(built, tmp_path, options, warning):
    result = run("build", "game", "--data", built / "card_data", "--out", tmp_path,
                 "--only", "cards", *options)
    assert result.exit_code == 0
    assert result.stderr == f"cardgen: warning: {warning}\n"


def test_png_options_with_png_say_nothing(built, tmp_path):
    result = run("build", "game", "--data", built / "card_data", "--out", tmp_path,
                 "--only", "png", "--dpi", "72", "--no-bleed")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""


def test_a_named_settings_file_that_does_not_exist_is_an_error(built, tmp_path):
    missing = tmp_path / "my-printer.yaml"
    result = run("build", "game", "--data", built / "card_data", "--out", tmp_path / "o",
                 env={"CARDGEN_SETTINGS": str(missing)})
    assert result.exit_code == 1
    assert "no such settings file (named by $CARDGEN_SETTINGS)" in result.stderr
    assert not (tmp_path / "o").exists()


def test_quiet_prints_only_problems_and_verbose_more(built, tmp_path):
    quiet = run("-q", "build", "game", "--data", built / "card_data", "--out", tmp_path,
                "--only", "cards")
    assert quiet.exit_code == 0 and quiet.stdout == ""
    OUTPUT.level = 1
    verbose = run("-v", "build", "game", "--data", built / "card_data", "--out", tmp_path,
                  "--only", "cards", "--force")
    assert "game: made again: cards" in verbose.stdout
    assert run("-q", "-v", "packs").exit_code == 2


@pytest.fixture
def broken(tmp_path):
    assert run("new", "game", "--data", tmp_path / "card_data").exit_code == 0
    edit(tmp_path / "card_data" / "game" / "cards" / "explorers.yaml", "courage: 9",
         "courage: 99")
    return tmp_path / "card_data"


ANSI = "\x1b["


@pytest.mark.parametrize("env, args, coloured", [
    ({"FORCE_COLOR": "1", "TERM": "xterm"}, [], True),
    ({"FORCE_COLOR": "1", "TERM": "xterm", "NO_COLOR": "1"}, [], False),
    ({"FORCE_COLOR": "1", "TERM": "dumb"}, [], False),
    ({"FORCE_COLOR": "1", "TERM": "xterm"}, ["--no-color"], False),
    ({"TERM": "xterm"}, [], False),  # not a terminal: a pipe, a file, CI's log
])
def test_colour_follows_the_conventions(broken, env, args, coloured):
    env = {"NO_COLOR": None, "FORCE_COLOR": None, **env}
    result = run(*args, "check", "--data", broken, env=env)
    assert result.exit_code == 1
    assert (ANSI in result.stderr) == coloured
    line = re.sub(r"\x1b\[[0-9;]*m", "", result.stderr.splitlines()[0])
    assert line.endswith("explorers.yaml:11:22: error: E1 courage: 99 is above the maximum 10")


def test_quiet_check_of_a_clean_pack_prints_nothing(built):
    result = run("-q", "check", "game", "--data", built / "card_data", "--strict")
    assert result.exit_code == 0 and result.stdout == "" and result.stderr == ""


@pytest.mark.parametrize("command", ["new", "watch", "export"])
def test_help_of_the_new_commands_shows_examples(command):
    result = run(command, "--help", env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "Example" in result.stdout and f"cardgen {command} " in result.stdout


def test_every_shipped_pack_validates_against_its_own_schema():
    """A schema made for a pack must accept that pack's cards (else an editor flags good data),
    and flag a key no card of the kind takes."""
    import jsonschema
    import yaml
    from cardgen.pipeline.chain import validated as check
    from cardgen.cli.schema import pack_card_schema
    from cardgen.diagnostics import Report
    from cardgen.paths import ROOT
    for folder in sorted((ROOT / "card_data").iterdir()):
        validator = jsonschema.Draft202012Validator(pack_card_schema(check(folder, Report())))
        for path in sorted((folder / "cards").glob("*.yaml")):
            doc = yaml.safe_load(path.read_text(encoding="utf-8"))
            assert [e.message for e in validator.iter_errors(doc)] == [], path
            doc["cards"][0]["nmae"] = "x"
            assert any("nmae" in e.message for e in validator.iter_errors(doc)), path


def test_shell_completion_knows_commands_options_and_packs(tmp_path):
    import os
    import subprocess
    import sys
    from cardgen.paths import ROOT
    (tmp_path / "card_data" / "my-game").mkdir(parents=True)
    (tmp_path / "card_data" / "my-game" / "pack.yaml").write_text("id: my-game\n")

    def complete(words: str) -> list[str]:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "_CARDGEN_COMPLETE": "complete_bash",
               "COMP_WORDS": words, "COMP_CWORD": str(len(words.split()) - 1)}
        program = "import sys; sys.argv[0] = 'cardgen'; from cardgen.cli.app import main; main()"
        done = subprocess.run([sys.executable, "-c", program], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=60)
        return done.stdout.split()

    assert complete("cardgen wa") == ["watch"]
    assert complete("cardgen new x --ki") == ["--kind"]
    assert complete("cardgen build my") == ["my-game"]
