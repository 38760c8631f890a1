"""Where cardgen finds its fonts, built-in layouts and packs (no imports beyond the standard
library: the up-to-date check needs these paths before anything else is loaded)."""

from __future__ import annotations

import sys
from pathlib import Path


def _home() -> Path:
    """Where fonts/, templates/ and the example card_data/ are: the repository (a checkout or
    an editable install), else <prefix>/share/cardgen of a regular install."""
    repo = Path(__file__).resolve().parent.parent
    if (repo / "fonts").is_dir() and (repo / "templates").is_dir():
        return repo
    return Path(sys.prefix) / "share" / "cardgen"


ROOT = _home()
TEMPLATES = ROOT / "templates"
FONTS = ROOT / "fonts"


def find_packs(data_dir: Path) -> list[Path]:
    """Pack folders: every folder under data_dir holding a pack.yaml, by name."""
    if not data_dir.is_dir():
        return []
    return sorted(p.parent for p in data_dir.glob("*/pack.yaml"))


# The edition a command works on (`--language`; None: each pack's own language). Chosen once
# per command by the CLI, before any pack is read; a forked rulebook process inherits it.
_EDITION: list[str | None] = [None]


def choose_edition(language: str | None) -> None:
    """Work on the edition of `language` (None: the base edition, the pack's own language)."""
    _EDITION[0] = language


def chosen_edition() -> str | None:
    return _EDITION[0]


def output_name(folder: Path) -> str:
    """The folder under output/ that a pack's build goes to: the pack's id for its base
    edition, `<pack>-<language>` for a translated one (editions/<language>/ exists), so that
    editions built side by side never overwrite each other."""
    language = _EDITION[0]
    if language and (folder / "editions" / language).is_dir():
        return f"{folder.name}-{language}"
    return folder.name
