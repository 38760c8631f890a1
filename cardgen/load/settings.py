"""The user's own printer settings, kept outside any pack.

Why: the back offset belongs to a printer, not to a game. A user measures it once with
`cardgen build --only calibration` and writes it to ~/.config/cardgen/settings.yaml (or the file
named by $CARDGEN_SETTINGS); every build then uses it unless the command line says otherwise.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ..diagnostics import Report


@dataclass(frozen=True)
class UserSettings:
    """What a settings file may say (None: not said). Checked by the model in user_model()."""

    paper: str | None = None
    duplex: str | None = None
    back_offset: tuple[float, float] | None = None
    margin: float | None = None


def user_model():
    """The settings file's model (pydantic), made only when there is a file to check: a build
    without one does not pay for pydantic's start-up."""
    from typing import Annotated, Literal, Optional

    from pydantic import Field

    from ..model.base import Mm, Model, Pair

    class SettingsFile(Model):
        paper: Optional[Literal["a4", "letter", "a3"]] = None
        duplex: Optional[Literal["long", "short", "none", "fold"]] = None
        back_offset: Optional[Pair(Mm)] = None
        margin: Optional[Annotated[float, Field(ge=0, le=30)]] = Field(
            None, description="the printer's unprintable edge in mm (cards.pdf keeps cards and "
            "marks inside it; default 5)")
    return SettingsFile


def settings_path() -> Path:
    named = os.environ.get("CARDGEN_SETTINGS")
    if named:
        return Path(named)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "cardgen" / "settings.yaml"


def load_user_settings(report: Report) -> UserSettings:
    """The settings file's values, or empty settings when there is none (or it is broken,
    with a diagnostic). An empty file, a file of only comments and /dev/null mean "no
    settings"; a folder, a pipe or a device (but /dev/null) is named as what it is."""
    import stat
    path = settings_path()
    named = bool(os.environ.get("CARDGEN_SETTINGS"))  # named on purpose: a typo must not pass
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        if named:
            report.error(str(path), 0, 0, "", "no such settings file (named by "
                         "$CARDGEN_SETTINGS); create it or unset the variable")
        return UserSettings()
    except OSError as exc:  # a folder on the way cannot be read, a link in a circle
        report.error(str(path), 0, 0, "", f"cannot read the settings file: "
                     f"{exc.strerror or exc}")
        return UserSettings()
    if stat.S_ISCHR(mode) and _is_dev_null(path):
        return UserSettings()  # "no settings", as a shell's /dev/null says "nothing"
    if not stat.S_ISREG(mode):
        from .source import not_a_file
        report.error(str(path), 0, 0, "", f"the settings file is {not_a_file(mode)}, not a "
                     f"file{' (named by $CARDGEN_SETTINGS)' if named else ''}; name a "
                     "settings.yaml file, or /dev/null for none")
        return UserSettings()
    from .source import YamlError, read_text
    try:
        text = read_text(path, str(path))
    except (YamlError, OSError):
        text = "-"  # read_model says what is wrong, at its line
    if all(not line.strip() or line.lstrip().startswith("#") for line in text.splitlines()):
        return UserSettings()  # nothing, or only comments: no settings
    from .pack import read_model  # only now: the loader brings the models (start-up time)
    settings, _ = read_model(path, user_model(), report)
    if settings is None:
        return UserSettings()
    offset = tuple(settings.back_offset) if settings.back_offset is not None else None
    return UserSettings(settings.paper, settings.duplex, offset, settings.margin)


def _is_dev_null(path: Path) -> bool:
    try:
        return os.path.samefile(path, os.devnull)
    except OSError:
        return False
