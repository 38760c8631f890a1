"""cardgen.load.settings: the printer's own settings file — found where the user keeps it, read
as written, refused at the line of a mistake, and a named file that is missing is an error."""

from __future__ import annotations

import pytest

from cardgen.diagnostics import Report
from cardgen.load.settings import UserSettings, load_user_settings, settings_path


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.delenv("CARDGEN_SETTINGS", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path


def test_the_file_is_named_by_the_variable_else_in_the_config_folder(home, monkeypatch):
    assert settings_path() == home / "config" / "cardgen" / "settings.yaml"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", str(home / "me"))
    assert settings_path() == home / "me" / ".config" / "cardgen" / "settings.yaml"
    monkeypatch.setenv("CARDGEN_SETTINGS", str(home / "printer.yaml"))
    assert settings_path() == home / "printer.yaml"


def test_no_file_is_no_settings(home):
    report = Report()
    assert load_user_settings(report) == UserSettings()
    assert not report.items


def test_a_file_gives_its_values(home):
    path = home / "config" / "cardgen" / "settings.yaml"
    path.parent.mkdir(parents=True)
    path.write_text("paper: letter\nduplex: short\nback_offset: [1.5, -0.5]\nmargin: 8\n",
                    encoding="utf-8")
    report = Report()
    assert load_user_settings(report) == UserSettings("letter", "short", (1.5, -0.5), 8)
    assert not report.items


def test_a_named_file_that_is_missing_is_an_error(home, monkeypatch):
    monkeypatch.setenv("CARDGEN_SETTINGS", str(home / "typo.yaml"))
    report = Report()
    assert load_user_settings(report) == UserSettings()
    assert [(d.file, d.message) for d in report.errors] == [
        (str(home / "typo.yaml"), "no such settings file (named by $CARDGEN_SETTINGS); "
         "create it or unset the variable")]


@pytest.mark.parametrize("text, line, says", [
    ("paper: a5\n", 1, "paper: 'a5' must be one of 'a4', 'letter' or 'a3'"),
    ("paper: a4\nmargin: 45\n", 2, "margin: 45 is above the maximum 30"),
    ("paper: a4\nbackoffset: [1, 2]\n", 2, "unknown key 'backoffset' (did you mean "
     "'back_offset'?)"),
    ("duplex: long\nback_offset: [1]\n", 2, "back_offset: value 2 of the list is missing"),
])
def test_a_mistake_in_the_file_is_an_error_at_its_line(home, monkeypatch, text, line, says):
    path = home / "settings.yaml"
    path.write_text(text, encoding="utf-8")
    monkeypatch.setenv("CARDGEN_SETTINGS", str(path))
    report = Report()
    assert load_user_settings(report) == UserSettings()  # nothing of a broken file is used
    assert len(report.errors) == 1
    assert report.errors[0].line == line and report.errors[0].message.startswith(says)
