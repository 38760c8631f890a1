"""The YAML loader: every value keeps its position, and what YAML would silently misread is refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen.load import source
from cardgen.diagnostics import Report
from cardgen.load.pack import read_yaml
from cardgen.model.marks import Mark, MarkedDict, MarkedList, MarkedStr
from cardgen.load.source import YamlError, control_character, load_yaml


def load(tmp_path: Path, text: str | bytes):
    path = tmp_path / "t.yaml"
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return load_yaml(path, "t.yaml")


def refused(tmp_path: Path, text: str | bytes) -> YamlError:
    with pytest.raises(YamlError) as info:
        load(tmp_path, text)
    return info.value


# --- marks -----------------------------------------------------------------------------------

DOC = """\
kind: hero
cards:
  - id: A1
    name: "Ann"
    stats:
      iq: 141
      wlb: [2, 63]
"""


def test_marks_of_keys_values_and_list_items(tmp_path):
    data = load(tmp_path, DOC)
    assert isinstance(data, MarkedDict) and data.mark == Mark("t.yaml", 1, 1)
    assert data.key_marks["kind"] == Mark("t.yaml", 1, 1)
    assert data.value_marks["kind"] == Mark("t.yaml", 1, 7)
    assert data.key_marks["cards"] == Mark("t.yaml", 2, 1)
    cards = data["cards"]
    assert isinstance(cards, MarkedList) and cards.item_marks == [Mark("t.yaml", 3, 5)]
    card = cards[0]
    assert card.key_marks["name"] == Mark("t.yaml", 4, 5)
    assert card.value_marks["name"] == Mark("t.yaml", 4, 11)  # at the opening quote
    assert isinstance(card["name"], MarkedStr) and card["name"].mark.line == 4
    stats = card["stats"]
    assert card.value_marks["stats"] == Mark("t.yaml", 6, 7)  # a block mapping starts at its key
    assert stats.key_marks["iq"] == Mark("t.yaml", 6, 7)
    assert stats.value_marks["iq"] == Mark("t.yaml", 6, 11)
    assert stats["iq"] == 141 and type(stats["iq"]) is int
    assert stats["wlb"] == [2, 63]
    assert stats["wlb"].item_marks == [Mark("t.yaml", 7, 13), Mark("t.yaml", 7, 16)]


def test_marks_count_a_bom_and_crlf_like_an_editor(tmp_path):
    data = load(tmp_path, b"\xef\xbb\xbfa: 1\r\nb: x\r\n")
    assert data == {"a": 1, "b": "x"}
    assert data.value_marks["b"] == Mark("t.yaml", 2, 4)


def test_shown_name_is_the_file_in_marks(tmp_path):
    path = tmp_path / "deep" / "f.yaml"
    path.parent.mkdir()
    path.write_text("a: 1\n")
    assert load_yaml(path).mark.file == str(path)
    assert load_yaml(path, "cards/f.yaml").mark.file == "cards/f.yaml"


# --- duplicate keys, tags, anchors -------------------------------------------------------------

def test_duplicate_key_names_both_lines(tmp_path):
    err = refused(tmp_path, "id: A1\nname: Ann\nset: A\nname: Bob\n")
    assert err.mark == Mark("t.yaml", 4, 1)
    assert "duplicate key 'name'" in err.message and "line 2" in err.message


def test_duplicate_key_quoted_and_plain_are_the_same_key(tmp_path):
    err = refused(tmp_path, "a: 1\n'a': 2\n")
    assert err.mark.line == 2 and "line 1" in err.message


def test_duplicate_key_nested(tmp_path):
    err = refused(tmp_path, "cards:\n  - id: A1\n    stats:\n      iq: 1\n      iq: 2\n")
    assert err.mark == Mark("t.yaml", 5, 7) and "line 4" in err.message


@pytest.mark.parametrize("text, tag", [
    ("a: !!python/object:os.system ls\n", "python/object"),
    ("a: !!python/object/apply:os.system [ls]\n", "python/object"),
    ("a: !foo bar\n", "!foo"),
    ("a: !!binary aGVsbG8=\n", "binary"),
    ("a: !!set {x}\n", "set"),
])
def test_tags_refused(tmp_path, text, tag):
    err = refused(tmp_path, text)
    assert tag in err.message and "not allowed" in err.message
    assert (err.mark.line, err.mark.col) == (1, 4)


@pytest.mark.parametrize("text", ["a: &x 1\nb: *x\n", "a: &x {b: 1}\n", "b: *x\n",
                                  "a: {b: 1}\nc:\n  <<: {d: 1}\n"])
def test_anchors_aliases_and_merge_keys_refused(tmp_path, text):
    err = refused(tmp_path, text)
    assert "not allowed" in err.message and "write" in err.message


def test_anchor_position(tmp_path):
    err = refused(tmp_path, "x: 1\nbase: &b 3\n")
    assert err.mark == Mark("t.yaml", 2, 7) and "&b" in err.message


# --- scalars that YAML 1.1 would guess ---------------------------------------------------------

def test_yes_no_on_off_stay_text(tmp_path):
    data = load(tmp_path, "a: yes\nb: no\nc: on\nd: off\ne: Yes\nf: NO\ng: y\nh: n\n")
    assert data == {"a": "yes", "b": "no", "c": "on", "d": "off", "e": "Yes", "f": "NO",
                    "g": "y", "h": "n"}
    assert all(isinstance(v, str) for v in data.values())


def test_true_false_null_numbers(tmp_path):
    data = load(tmp_path, "a: true\nb: false\nc: ~\nd:\ne: 12\nf: -3\ng: 2.5\nh: .5\n"
                          "i: '012'\nj: \"1e3\"\n")
    assert data == {"a": True, "b": False, "c": None, "d": None, "e": 12, "f": -3, "g": 2.5,
                    "h": 0.5, "i": "012", "j": "1e3"}
    assert type(data["e"]) is int and type(data["g"]) is float


def test_dates_stay_text(tmp_path):
    assert load(tmp_path, "a: 2024-01-31\n") == {"a": "2024-01-31"}


@pytest.mark.parametrize("value, hint", [
    ("012", "leading zero"),
    ("-007", "leading zero"),
    ("1:30", "base-60"),
    ("190:20:30", "base-60"),
    ("1_000", "underscores"),
    ("1e3", "exponent"),
    ("2.5E-2", "exponent"),
    (".nan", "not a usable number"),
    (".inf", "not a usable number"),
    ("-.inf", "not a usable number"),
    (".NaN", "not a usable number"),
])
def test_ambiguous_numbers_refused_with_a_hint(tmp_path, value, hint):
    err = refused(tmp_path, f"name: x\nvalue: {value}\n")
    assert hint in err.message
    assert err.mark == Mark("t.yaml", 2, 8)


def test_leading_zero_hint_says_what_to_write(tmp_path):
    assert "write 12 or quote it" in refused(tmp_path, "a: 012\n").message


@pytest.mark.parametrize("value", ["{{ card.name }}", "{{card.id}} x", "{{ card.name }} ({{ card.id }})",
                                   "@home", "`code`"])
def test_template_or_reserved_start_must_be_quoted(tmp_path, value):
    err = refused(tmp_path, f"a: 1\ntext: {value}\n")
    assert "quote" in err.message
    assert (err.mark.line, err.mark.col) == (2, 7)


@pytest.mark.parametrize("value", ['"{{ card.name }}"', "'@home'", '"`code`"'])
def test_quoted_template_is_text(tmp_path, value):
    assert load(tmp_path, f"text: {value}\n")["text"] == value[1:-1]


def test_colon_in_plain_text_gets_a_hint(tmp_path):
    err = refused(tmp_path, "a: 1\nname: Bob: the builder\n")
    assert err.mark == Mark("t.yaml", 2, 10) and "quote" in err.message


# --- encodings and characters ------------------------------------------------------------------

def test_bom_accepted(tmp_path):
    assert load(tmp_path, b"\xef\xbb\xbfname: \xc3\x84rztin\n") == {"name": "Ärztin"}


def test_latin1_refused_with_position(tmp_path):
    err = refused(tmp_path, b"a: 1\nname: M\xfcller\n")
    assert "UTF-8" in err.message
    assert err.mark == Mark("t.yaml", 2, 8)


def test_utf16_refused(tmp_path):
    assert "UTF-8" in refused(tmp_path, "a: 1\n".encode("utf-16")).message


@pytest.mark.parametrize("char", ["\x00", "\x01", "\x08", "\x0b", "\x0c", "\x1b", "\x7f",
                                  "\u202e", "\u2066"])  # (and hidden text-direction controls)
def test_control_characters_refused_with_position(tmp_path, char):
    err = refused(tmp_path, f"a: 1\nname: Ann{char}x\n")
    assert err.mark == Mark("t.yaml", 2, 10)
    assert f"U+{ord(char):04X}" in err.message


@pytest.mark.parametrize("char", ["\x80", "\x9f", "\ufffe", "\uffff"])
def test_other_unprintable_characters_refused_with_position(tmp_path, char):
    """C1 controls and non-characters: PyYAML's reader refuses them; that must be a YamlError
    with a position, not a crash (ReaderError is not a MarkedYAMLError)."""
    err = refused(tmp_path, f"a: 1\nname: Ann{char}x\n")
    assert (err.mark.line, err.mark.col) == (2, 10)


def test_tabs_and_line_breaks_are_fine_in_quoted_text(tmp_path):
    assert load(tmp_path, 'a: "x\ty"\n') == {"a": "x\ty"}


# --- documents and sizes -----------------------------------------------------------------------

@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n"])
def test_empty_file(tmp_path, text):
    err = refused(tmp_path, text)
    assert "empty" in err.message and err.mark.line == 1


def test_several_documents(tmp_path):
    err = refused(tmp_path, "a: 1\n---\nb: 2\n")
    assert "several YAML documents" in err.message and err.mark.line == 2


def test_one_document_with_markers_is_fine(tmp_path):
    assert load(tmp_path, "---\na: 1\n...\n") == {"a": 1}


@pytest.mark.parametrize("text, line", [("- a\n- b\n", 1), ("just text\n", 1), ("\n\n- a\n", 3)])
def test_top_level_must_be_a_mapping(tmp_path, text, line):
    path = tmp_path / "t.yaml"
    path.write_text(text)
    report = Report()
    assert read_yaml(path, report) is None
    [diag] = report.items
    assert "the top level must be a mapping" in diag.message
    assert diag.severity == "error" and diag.line == line and diag.file.endswith("t.yaml")


def test_read_yaml_turns_yaml_errors_into_diagnostics(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text("a: 1\na: 2\n")
    report = Report()
    assert read_yaml(path, report) is None
    [diag] = report.items
    assert (diag.line, diag.col) == (2, 1) and "duplicate key 'a'" in diag.message


def test_file_over_the_size_limit(tmp_path):
    body = "a: " + "x" * source.MAX_FILE_BYTES + "\n"
    err = refused(tmp_path, body)
    assert str(source.MAX_FILE_BYTES) in err.message and err.mark == Mark("t.yaml", 1, 1)


def test_file_just_under_the_limit_loads(tmp_path):
    body = "a: " + "x" * (source.MAX_FILE_BYTES - 10) + "\n"
    assert len(load(tmp_path, body)["a"]) == source.MAX_FILE_BYTES - 10


def test_huge_integer_is_a_yaml_error(tmp_path):
    """Python refuses int() of more than 4300 digits; that must not escape as ValueError."""
    err = refused(tmp_path, "a: 1\nb: " + "9" * 5000 + "\n")
    assert err.mark.line == 2


@pytest.mark.parametrize("text", [
    "a: " + "[" * 60 + "]" * 60 + "\n",
    "".join(" " * i + f"k{i}:\n" for i in range(60)) + " " * 60 + "v: 1\n",
    "a: " + "[" * 5000 + "]" * 5000 + "\n",
    "a: " + "{b: " * 3000 + "1" + "}" * 3000 + "\n",
])
def test_deep_nesting_refused(tmp_path, text):
    assert "nesting" in refused(tmp_path, text).message


def test_nesting_at_the_limit_loads(tmp_path):
    text = "a: " + "[" * (source.MAX_DEPTH - 1) + "1" + "]" * (source.MAX_DEPTH - 1) + "\n"
    value = load(tmp_path, text)["a"]
    for _ in range(source.MAX_DEPTH - 2):
        value = value[0]
    assert value == [1]


@pytest.mark.parametrize("text", ["? [a]\n: b\n", "[a]: b\n", "~: a\n"])
def test_keys_must_be_text(tmp_path, text):
    assert "key" in refused(tmp_path, text).message


def test_unmarked_yaml_errors_keep_a_position(tmp_path):
    err = refused(tmp_path, "a:\n  b: 1\n c: 2\n")
    assert err.message.startswith("invalid YAML") and err.mark.line >= 2


# --- anything at all: data or YamlError, never another exception -------------------------------

@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(alphabet=st.characters(codec="utf-8"), max_size=200))
def test_random_text_gives_data_or_yaml_error(tmp_path, text):
    path = tmp_path / "r.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        load_yaml(path, "r.yaml")
    except YamlError as exc:
        assert exc.mark.line >= 1 and exc.mark.col >= 1 and exc.message


YAMLISH = st.lists(st.sampled_from(["a", "b", ":", " ", "\n", "  ", "- ", "[", "]", "{", "}", ",",
                                    "'", '"', "#", "&x", "*x", "!t", "!!str", "---", "...", "?",
                                    "|", ">", "0", "01", "1.5", "yes", "~", "{{", "@", "\t",
                                    "%", "é", "\x85", "\u2028", "|-", ">+2", "x: y", "\r\n",
                                    "\ufeff"]), max_size=60).map("".join)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=YAMLISH)
def test_yaml_like_text_gives_data_or_yaml_error(tmp_path, text):
    path = tmp_path / "r.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        load_yaml(path, "r.yaml")
    except YamlError as exc:
        assert exc.mark.line >= 1 and exc.mark.col >= 1 and exc.message


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.binary(max_size=100))
def test_random_bytes_give_data_or_yaml_error(tmp_path, raw):
    path = tmp_path / "r.yaml"
    path.write_bytes(raw)
    try:
        load_yaml(path, "r.yaml")
    except YamlError as exc:  # the only way it may fail: a user error with a position
        assert exc.mark.line >= 1 and exc.mark.col >= 1 and exc.message


# --- libyaml: the same documents, marks and refusals as the pure-Python loader -----------------

def _shape(value):
    """Data and every mark, comparable."""
    if isinstance(value, dict):
        return ("map", value.mark, [(k, value.key_marks[k], value.value_marks[k], _shape(v))
                                    for k, v in value.items()])
    if isinstance(value, list):
        return ("seq", value.mark, value.item_marks, [_shape(v) for v in value])
    if isinstance(value, str):
        return ("str", str(value), value.mark)
    return (type(value).__name__, value)


def _both(text: str):
    """(pure-Python result, libyaml result): ('ok', shape, warnings) or ('error', mark, text)."""
    out = []
    for loader in (source.MarkedLoader, source.FastMarkedLoader):
        warnings: list = []
        try:
            data = source._load(loader(text, "t.yaml"), text, "t.yaml", warnings)
            out.append(("ok", _shape(data), warnings))
        except YamlError as exc:
            out.append(("error", exc.mark, exc.message))
        except source._AskThePureLoader:  # load_yaml then reads it with the pure loader
            out.append(out[0])
    return out


@pytest.mark.skipif(source.FastMarkedLoader is source.MarkedLoader, reason="PyYAML without libyaml")
def test_libyaml_loader_reads_every_shipped_file_alike():
    root = Path(__file__).resolve().parents[2]
    files = sorted([*root.glob("card_data/**/*.yaml"), *root.glob("templates/*.yaml")])
    assert files
    for path in files:
        pure, fast = _both(path.read_text(encoding="utf-8"))
        assert pure[0] == "ok" and pure == fast, path


@settings(max_examples=400, deadline=None)
@given(text=YAMLISH)
def test_libyaml_never_accepts_what_the_pure_loader_refuses(text):
    """Where libyaml finds a problem, load_yaml asks the pure loader again (its messages);
    where it finds none, its result must be the pure loader's, refusals included."""
    pure, fast = _both(text)
    if fast[0] == "ok" and source.fast_may_read(text):  # else load_yaml uses the pure one
        assert pure == fast


def test_a_file_read_before_is_taken_from_the_cache_until_it_changes(tmp_path, monkeypatch):
    """load_yaml keeps what it read (cardgen's cache), one entry per file: an unchanged file is
    not parsed again (its marks and warnings come back as they were), an edited one is, and
    its entry is replaced, not added to."""
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "cards.yaml"
    path.write_text("cards:\n  - id: A1\n    name: Eins und zwei #3\n", encoding="utf-8")
    warnings: list = []
    first = load_yaml(path, "cards.yaml", warnings)
    assert len(warnings) == 1  # the text ends where a '#' comment starts
    parse = source._parsed

    def not_again(*args):
        raise AssertionError("parsed again")
    monkeypatch.setattr(source, "_parsed", not_again)
    again_warnings: list = []
    again = load_yaml(path, "cards.yaml", again_warnings)
    assert again == first and again_warnings == warnings
    assert again["cards"][0]["name"].mark == first["cards"][0]["name"].mark == Mark(
        "cards.yaml", 3, 11)
    monkeypatch.setattr(source, "_parsed", parse)
    path.write_text("cards:\n  - {id: A1, name: Zwei}\n", encoding="utf-8")
    assert load_yaml(path, "cards.yaml")["cards"][0]["name"] == "Zwei"
    assert len(list((tmp_path / "cache" / "yaml").iterdir())) == 1


@pytest.mark.parametrize("text, said", [
    ("Ann Smith\tline\nbreak", None),  # tabs and line breaks are text
    ("Ann\x07", "U+0007"), ("\x00", "U+0000"), ("a\u202eb", "U+202E"), ("a\u2069", "U+2069"),
    ("a\ud800", "U+D800"), ("Zoë ‹x› —", None),
])
def test_control_character_names_the_first_unprintable_one(text, said):
    assert control_character(text) == said
