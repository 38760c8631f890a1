"""YAML loading that remembers where every value came from.

Why: a diagnostic must name file, line and column. PyYAML's SafeLoader forgets positions once it
builds Python objects, so this loader builds dict/list/str subclasses that carry their marks, and
refuses what silently corrupts data: duplicate keys, tags, aliases, yes/no booleans, non-UTF-8.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from pathlib import Path
from typing import Any, Callable, TypeVar

import yaml
from yaml.constructor import ConstructorError
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from ..incremental import cache
from ..incremental.memo import by_identity
from ..model.marks import Mark, MarkedDict, MarkedList, MarkedStr

T = TypeVar("T")

# What one YAML file may cost (README, "Limits"): beyond these it is refused with one diagnostic
# at the file (or at the value that crosses the bound), before it costs time or memory. A
# 1040-card deck's largest file holds 2 % of MAX_VALUES; 2 MB of YAML read in full stays below
# 0.5 GiB and 10 s (bench/limits.py).
MAX_FILE_BYTES = 2_000_000
MAX_DEPTH = 40
MAX_VALUES = 200_000  # scalars, lists and mappings in one file
MAX_NUMBER = 10**15  # larger numbers lose whole-number precision as floats; no card needs one


class YamlError(Exception):
    """A problem in one YAML file, with its position."""

    def __init__(self, mark: Mark, message: str):
        super().__init__(message)
        self.mark = mark
        self.message = message


def _mark(file: str, node_mark) -> Mark:
    return Mark(file, node_mark.line + 1, node_mark.column + 1)


# Plain scalars that YAML 1.1 would turn into something else than the user most likely meant.
_SEXAGESIMAL = re.compile(r"^[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?$")
_INT = re.compile(r"^[-+]?(0|[1-9][0-9]*)$")
_FLOAT = re.compile(r"^[-+]?([0-9]+\.[0-9]*|\.[0-9]+)$")
_OCTAL_LIKE = re.compile(r"^[-+]?0[0-9]+$")
_EXP = re.compile(r"^[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)[eE][-+]?[0-9]+$")


_HEADER_COMMENT = re.compile(r"[|>][0-9+-]*#")  # a block scalar's header, then '#' at once


class LimitError(YamlError):
    """A file beyond a bound of what it may cost (MAX_VALUES, MAX_DEPTH): said at once, never
    read again by the slower loader to find a better message."""


class _AskThePureLoader(Exception):
    """libyaml places an empty value elsewhere than PyYAML does: read the file the slow way."""


class _Marked:
    """Builds Marked* containers; strict about what YAML would otherwise guess. Mixed into a
    pure-Python and a libyaml loader below: the checks are the same in both."""

    def __init__(self, stream, file: str):
        super().__init__(stream)
        self.file = file
        self.text = stream
        self.warnings: list[tuple[Mark, str]] = []
        self.depth = 0  # of the node being composed
        self.values = 0  # nodes composed so far

    # --- structure --------------------------------------------------------------------------
    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise YamlError(_mark(self.file, event.start_mark),
                            "anchors and aliases (*name) are not allowed; write the value out "
                            "(text starting with '*' must be quoted)")
        event = self.peek_event()
        if getattr(event, "anchor", None):
            raise YamlError(_mark(self.file, event.start_mark),
                            f"anchors (&{event.anchor}) are not allowed; write the value out")
        # the bounds are checked here, as the nodes are made, at the node that crosses them:
        # the line of the value at fault, before the nesting costs the stack or the values the
        # memory (PyYAML composes recursively)
        self.values += 1
        if self.values > MAX_VALUES:
            raise LimitError(_mark(self.file, event.start_mark), f"more than {MAX_VALUES} "
                             "values in one file; split it into several files")
        nested = isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent))
        if nested and self.depth >= MAX_DEPTH:
            raise LimitError(_mark(self.file, event.start_mark),
                             f"nesting deeper than {MAX_DEPTH} levels")
        self.depth += nested
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= nested

    def construct_document(self, node):
        return self._build(node, 0)

    def _build(self, node, depth: int) -> Any:
        mark = _mark(self.file, node.start_mark)
        if depth > MAX_DEPTH:
            raise YamlError(mark, f"nesting deeper than {MAX_DEPTH} levels")
        if node.tag not in _ALLOWED_TAGS:
            raise YamlError(mark, f"the tag {node.tag} is not allowed; remove it")
        if isinstance(node, MappingNode):
            return self._build_mapping(node, mark, depth)
        if isinstance(node, SequenceNode):
            out = MarkedList(self._build(child, depth + 1) for child in node.value)
            out.mark = mark
            out.item_marks = [_mark(self.file, child.start_mark) for child in node.value]
            return out
        return self._build_scalar(node, mark)

    def _build_mapping(self, node: MappingNode, mark: Mark, depth: int) -> MarkedDict:
        out = MarkedDict()
        out.mark, out.key_marks, out.value_marks = mark, {}, {}
        for key_node, value_node in node.value:
            key_mark = _mark(self.file, key_node.start_mark)
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise YamlError(key_mark, "merge keys (<<) are not allowed; write the keys out")
            if not isinstance(key_node, ScalarNode) and node.flow_style:
                raise YamlError(mark, "text starting with '{' must be quoted ('{' starts an "
                                      "inline mapping)")
            if not isinstance(key_node, ScalarNode):
                raise YamlError(key_mark, "a key must be plain text, not a list or mapping")
            key = key_node.value
            if key_node.tag != "tag:yaml.org,2002:str" and not key_node.style and \
                    not re.fullmatch(r"[A-Za-z0-9_\-.]+", key or "-"):
                raise YamlError(key_mark, f"the key {key!r} must be text")
            if key in out:
                first = out.key_marks[key]
                raise YamlError(key_mark, f"duplicate key '{key}' (first defined at line "
                                          f"{first.line}); remove one of them")
            try:
                out[key] = self._build(value_node, depth + 1)
            except NumberTooLarge as exc:  # the field is named: "gehalt: 66000… is too large"
                raise YamlError(exc.mark, f"{key}: {exc.message}") from None
            out.key_marks[key] = key_mark
            out.value_marks[key] = _mark(self.file, value_node.start_mark)
        return out

    def _build_scalar(self, node: ScalarNode, mark: Mark) -> Any:
        text = node.value
        if node.style:  # quoted or block scalar: always text (libyaml says "" for plain)
            if node.style == '"':
                _escaped_controls(text, mark)
            return _marked_str(text, mark)
        if text in ("", "~", "null", "Null", "NULL"):
            return None
        if text in ("true", "True", "TRUE"):
            return True
        if text in ("false", "False", "FALSE"):
            return False
        if _OCTAL_LIKE.match(text):
            raise YamlError(mark, f"{text} looks like a number with a leading zero; write "
                                  f"{text.lstrip('0') or '0'} or quote it as text")
        if _SEXAGESIMAL.match(text):
            raise YamlError(mark, f"{text} would be read as a base-60 number; quote it as text")
        if "_" in text and re.fullmatch(r"[-+]?[0-9_.]+", text):
            raise YamlError(mark, f"{text}: write numbers without underscores")
        if _INT.match(text):
            if len(text) > 30:
                raise YamlError(mark, f"a number of {len(text)} digits is too long")
            return checked_number(int(text), mark)
        if _FLOAT.match(text):
            return checked_number(float(text), mark)
        if _EXP.match(text):
            raise YamlError(mark, f"{text}: write numbers out in full (no exponent), or quote it")
        if text.lower() in (".nan", ".inf", "-.inf", "+.inf", "nan", "inf", "-inf"):
            raise YamlError(mark, f"{text} is not a usable number")
        if text.startswith(("{{", "@", "`")):
            raise YamlError(mark, f"text starting with '{text[0]}' must be quoted")
        self._comment_after(node, mark)
        # yes/no/on/off and everything else stay text; the models decide what they may be.
        return _marked_str(text, mark)

    def _comment_after(self, node: ScalarNode, mark: Mark) -> None:
        """Plain text followed by ' #' on its line: YAML cut the text there. Say so."""
        end = node.end_mark.index
        line_end = self.text.find("\n", end)  # (the rest of this line only: a file of many
        rest = self.text[end:line_end if line_end >= 0 else None]  # values stays linear)
        comment = re.match(r"[ \t]+#(.?)", rest)
        # '# note' after one word is an ordinary comment; '#1' or a comment after prose is
        # more likely text that YAML cut off
        if comment and (" " in node.value or not comment.group(1).isspace()) and \
                comment.group(1) != "":
            self.warnings.append((mark, f"the text ends where a '#' comment starts "
                                        f"('{node.value[:30]}' then '{rest.strip()[:30]}'); if "
                                        f"the '#' belongs to the text, put it all in quotes"))


class MarkedLoader(_Marked, yaml.SafeLoader):
    """Pure Python: reads the text and composes the nodes. Its error messages are the ones
    users see (see load_yaml)."""


if getattr(yaml, "__with_libyaml__", False):
    class _CParsed(yaml.composer.Composer, yaml.CSafeLoader):
        """libyaml scans and parses (most of the time of loading); the composing stays in
        Python, so that _Marked.compose_node sees every anchor and alias event and refuses
        it, exactly as with the pure-Python loader."""

        def __init__(self, stream):
            yaml.CSafeLoader.__init__(self, stream)
            yaml.composer.Composer.__init__(self)

    class FastMarkedLoader(_Marked, _CParsed):
        """MarkedLoader on libyaml's parser: the same documents, marks and refusals.

        Where the two parsers differ, this one gives up and load_yaml asks the pure one:
        libyaml places an empty value (`key:` with nothing) elsewhere, and accepts a '#' right
        after a block scalar's '|' or '>' and a '?' inside plain text in [...] or {...},
        which PyYAML refuses (tests/load/test_source.py compares both on generated YAML)."""

        flow = 0  # depth of [...] and {...} around the current node

        def compose_node(self, parent, index):
            event = self.peek_event()
            if isinstance(event, yaml.ScalarEvent):
                plain = not event.style
                if (plain and (event.value == "" or (self.flow and "?" in event.value))) or \
                        (event.style in ("|", ">") and _HEADER_COMMENT.search(
                            self.text, event.start_mark.index, event.end_mark.index)):
                    raise _AskThePureLoader()
                return super().compose_node(parent, index)
            flow = bool(getattr(event, "flow_style", False))
            self.flow += flow
            try:
                return super().compose_node(parent, index)
            finally:
                self.flow -= flow
else:  # PyYAML built without libyaml
    FastMarkedLoader = MarkedLoader


def control_character(text: str) -> str | None:
    """The first character of `text` no font prints and no text should hold (a control
    character, a direction override, half a surrogate pair), as U+XXXX; None when it is clean.
    Tabs and line breaks are fine."""
    found = _TEXT_CONTROLS.search(text)
    return f"U+{ord(found.group()):04X}" if found else None


def _escaped_controls(text: str, mark: Mark) -> None:
    """A "..." text may write any character as an escape (\\a, \\0, \\x07, \\ud800): the
    file itself is clean, but the text would carry a control character or half a surrogate
    pair, which no font can print. Line breaks and tabs are fine."""
    code = control_character(text)
    if code is None:
        return
    if not 0xD800 <= int(code[2:], 16) <= 0xDFFF:
        raise YamlError(mark, f"the text holds the control character {code} (an escape such "
                              "as \\a or \\x..); remove it")
    raise YamlError(mark, f"the text holds {code}, half of a surrogate pair and no character "
                          "(an escape \\u....); write the character itself")


_ALLOWED_TAGS = {f"tag:yaml.org,2002:{name}" for name in
                 ("str", "int", "float", "bool", "null", "map", "seq", "timestamp", "merge")}


class NumberTooLarge(YamlError):
    """A number beyond MAX_NUMBER (said with the key it is the value of)."""


def checked_number(value, mark: Mark):
    """The number, or a YamlError when it is beyond what cardgen reads (MAX_NUMBER): no stage
    has to guard its arithmetic against a number from a file (YAML or a spreadsheet's cell)."""
    if abs(value) > MAX_NUMBER:
        raise NumberTooLarge(mark, f"{_shown_number(value)} is too large a number (the largest "
                              f"cardgen reads is {MAX_NUMBER:_}".replace("_", " ") + ")")
    return value


def _shown_number(value) -> str:
    text = f"{value:g}" if isinstance(value, float) else str(value)
    return text if len(text) <= 24 else text[:12] + "…" + text[-4:]


def _marked_str(text: str, mark: Mark) -> MarkedStr:
    out = MarkedStr(text)
    out.mark = mark
    return out


def read_text(path: Path, shown: str) -> str:
    """The file's text, refusing what would be misread: too large, not UTF-8, NUL bytes, and
    what is no file (a pipe would wait for ever, a device never end)."""
    raw = read_bounded(path, MAX_FILE_BYTES, lambda message: YamlError(Mark(shown, 1, 1),
                                                                       message))
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]  # a UTF-8 BOM is harmless; drop it
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise YamlError(Mark(shown, line, col),
                        "file is not UTF-8 text; save it as UTF-8") from None
    found = _FILE_CONTROLS.search(text)
    if found:
        index, char = found.start(), found.group()
        line = text.count("\n", 0, index) + 1
        col = index - (text.rfind("\n", 0, index) + 1) + 1
        raise YamlError(Mark(shown, line, col),
                        f"control character U+{ord(char):04X} in the file; remove it")
    return composed(text)


def read_bounded(path: Path, limit: int, problem) -> bytes:
    """A regular file's bytes, at most `limit` of them: `problem(message)` is raised for a
    folder, a pipe or a device, and for a file larger than the limit (also one that grows while
    it is read). OSError passes (the caller says "cannot read")."""
    import os
    import stat
    try:
        stream = open(path, "rb", buffering=0, opener=_no_wait)
    except IsADirectoryError:
        raise problem("is a folder, not a file cardgen can read") from None
    with stream:
        mode = os.fstat(stream.fileno()).st_mode
        if not stat.S_ISREG(mode):
            raise problem(f"is {not_a_file(mode)}, not a file cardgen can read")
        size = os.fstat(stream.fileno()).st_size
        if size > limit:
            raise problem(f"file is {size} bytes; the limit is {limit}")
        raw = stream.read(limit + 1)
    if len(raw) > limit:
        raise problem(f"file is more than {limit} bytes; the limit is {limit}")
    return raw


def _no_wait(path, flags):
    """open() that does not wait for a writer when the path is a pipe (O_NONBLOCK: what it is
    is then asked of the open file, with no moment between asking and reading)."""
    import os
    return os.open(path, flags | getattr(os, "O_NONBLOCK", 0))


def not_a_file(mode: int) -> str:
    """What an entry that is no regular file is, in words."""
    import stat
    return ("a folder" if stat.S_ISDIR(mode) else "a pipe (FIFO)" if stat.S_ISFIFO(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "a device" if
            stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "no regular file")


def composed(text: str) -> str:
    """The text in Unicode's composed form (NFC): "u" + a combining diaeresis (what some
    editors and PDFs paste) becomes the one letter "ü", so it prints with the font's own glyph,
    matches the same word typed elsewhere and reads back from the PDF as typed."""
    return unicodedata.normalize("NFC", text)  # (returns the text itself when it is NFC)


# what no text file of ours may hold: C0 controls but tab and line breaks, DEL and the C1
# controls, the two non-characters U+FFFE/U+FFFF, lone surrogates
# (U+202A-202E and U+2066-2069 steer text direction unseen: cardgen lays text left to right, so
# they would only hide what a line really says, as "Trojan source" does)
_FILE_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069"
                            "\ufffe\uffff\ud800-\udfff]")
# the same in one "..." scalar, where U+FFFE/U+FFFF may be escaped on purpose
_TEXT_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069"
                            "\ud800-\udfff]")


def fast_may_read(text: str) -> bool:
    """libyaml is there, and the text holds none of the characters it reads differently from
    PyYAML: a tab (libyaml allows some where PyYAML refuses them), a byte order mark inside
    the text, the Unicode line and paragraph separators."""
    return FastMarkedLoader is not MarkedLoader and not any(
        char in text for char in ("\t", "\ufeff", "\u2028", "\u2029"))


def read_mapping(path: Path, report, hint: str = "") -> MarkedDict | None:
    """One YAML file whose top level is a mapping, or None with its problem in `report` (a
    diagnostics.Report) at its line; `hint` ends the message of a top level of another kind."""
    from ..diagnostics import display_path
    shown = display_path(path)
    slips: list = []
    try:
        raw = load_yaml(path, shown, slips)
    except YamlError as exc:
        report.error(shown, exc.mark.line, exc.mark.col, "", exc.message)
        return None
    except OSError as exc:
        report.error(shown, 0, 0, "", f"cannot read the file: {exc.strerror}")
        return None
    for mark, message in slips:
        report.warning(shown, mark.line, mark.col, "", message)
    if not isinstance(raw, MarkedDict):
        mark = getattr(raw, "mark", Mark(shown, 1, 1))
        report.error(shown, mark.line, mark.col, "", "the top level must be a mapping of "
                     f"key: value{hint}")
        return None
    return raw


def load_yaml(path: Path, shown: str | None = None,
              warnings: list[tuple[Mark, str]] | None = None) -> Any:
    """Load one YAML document with marks. Raises YamlError with a position on any problem;
    appends (mark, message) to `warnings` for what is legal YAML but likely a slip."""
    shown = shown or str(path)
    text = read_text(path, shown)
    # a file read before, unchanged, is not parsed again (cardgen.incremental.cache): a rebuild after one
    # edit reads the other files of the pack as they were (the flagship: 19 of 20). One entry
    # per file (its path and shown name), holding the hash of the text it was read from: an
    # edit replaces the entry instead of adding one
    digest = text_digest(text)
    held = MEMORY.get((str(path), shown)) if MEMORY is not None else None
    if held is not None and held[0] == digest:  # a resident process read it before
        if warnings is not None:
            warnings.extend(held[2])
        return held[1]
    name = cache.key("yaml", _loader_code(), str(Path(path).resolve()), shown)
    kept = _kept(name, digest)
    if kept is not None:
        data, found = kept
    else:
        found = []
        data = _parsed(text, shown, found)
        cache.write_pickled("yaml", name, (digest, data, found))
    if MEMORY is not None:
        MEMORY[(str(path), shown)] = (digest, data, found)
    if warnings is not None:
        warnings.extend(found)
    return data


# A resident process (pipeline.resident: cardgen serve and watch) keeps each file's last parse
# in memory as well, under (path, shown name): (the text's digest, the data, its warnings). The
# data is shared by the builds of that process, which read it and never change it.
MEMORY: dict[tuple[str, str], tuple] | None = None


def kept(memo: dict, objects: tuple, also, make: Callable[[], T]) -> T:
    """make()'s result; in a resident process (MEMORY set) kept in `memo` by the objects it is
    made of and the value `also` (incremental.memo.by_identity): the parses and models of what
    an edit left as it was are the same objects after it. A one-off build keeps nothing."""
    if MEMORY is None:
        return make()
    return by_identity(memo, objects, also, make)


def text_digest(text: str) -> str:
    """What load_yaml keys a file's parse by: the SHA-256 of its text (as read_text gives it)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def parse(text: str, shown: str, warnings: list) -> Any:
    """One document's text parsed with marks, as load_yaml parses a file's (YamlError on a
    problem); its slips appended to `warnings`. Nothing is kept."""
    return _parsed(text, shown, warnings)


def _kept(name: str, digest: str):
    """(data, warnings) of the file as an earlier build parsed it, or None. The entry is read
    as untrusted input (cardgen wrote it, but anything may have since): unpickled with only
    the classes a parse makes (cache.safe_loads: no other code can run), in the shape a parse
    has, no deeper than a parse may be. Anything else is said once, and the file is parsed."""
    blob = cache.read("yaml", name)
    if not blob:
        return None
    try:
        kept = cache.safe_loads(blob, _KEPT_CLASSES)
    except Exception as exc:  # noqa: BLE001 - a torn or foreign entry: parse
        cache.distrust("yaml", name, f"cannot be read ({type(exc).__name__})")
        return None
    if not (isinstance(kept, tuple) and len(kept) == 3 and isinstance(kept[0], str)
            and isinstance(kept[2], list)):
        cache.distrust("yaml", name, "is not in the shape cardgen writes")
        return None
    kept_digest, data, found = kept
    if kept_digest != digest:
        return None  # the file was edited since: an ordinary miss
    if not _parse_shaped(data, 0) or not all(
            isinstance(w, tuple) and len(w) == 2 and isinstance(w[0], Mark) and
            isinstance(w[1], str) for w in found):
        cache.distrust("yaml", name, "is not in the shape cardgen writes")
        return None
    return data, found


_KEPT_CLASSES = {("cardgen.model.marks", name) for name in
                 ("Mark", "MarkedDict", "MarkedList", "MarkedStr")}


def _parse_shaped(node, depth: int) -> bool:
    """What a parse makes: Marked containers (with their marks) and scalars, MAX_DEPTH deep."""
    if depth > MAX_DEPTH + 1:
        return False
    if isinstance(node, MarkedDict):
        marks = node.__dict__
        return (isinstance(marks.get("mark"), Mark) and isinstance(marks.get("key_marks"), dict)
                and isinstance(marks.get("value_marks"), dict)
                and all(isinstance(k, str) and k in node.value_marks and
                        _parse_shaped(v, depth + 1) for k, v in node.items()))
    if isinstance(node, MarkedList):
        marks = node.__dict__
        return (isinstance(marks.get("mark"), Mark) and
                isinstance(marks.get("item_marks"), list) and
                len(node.item_marks) == len(node) and
                all(_parse_shaped(v, depth + 1) for v in node))
    if isinstance(node, MarkedStr):
        return isinstance(node.__dict__.get("mark"), Mark)
    if isinstance(node, bool) or node is None:
        return True
    if isinstance(node, (int, float)):
        return abs(node) <= MAX_NUMBER
    return False


def _parsed(text: str, shown: str, warnings: list) -> Any:
    if fast_may_read(text):
        try:
            return _load(FastMarkedLoader(text, shown), text, shown, warnings)
        except LimitError:
            raise
        except (YamlError, _AskThePureLoader):
            pass  # any problem: read again by the pure-Python loader, whose messages (and the
            # positions and hints made from them) are the diagnostics users know; rare and small
    return _load(MarkedLoader(text, shown), text, shown, warnings)


def _loader_code() -> str:
    """What reading a file depends on besides its text: this module and PyYAML."""
    return cache.key(cache.code_key("load/source.py"), yaml.__version__,
                     getattr(yaml, "__with_libyaml__", False))


def _load(loader, text: str, shown: str, warnings) -> Any:
    """Compose and build one document with `loader`; every problem as a YamlError."""
    try:
        node = loader.get_single_node()
        if node is None or (isinstance(node, ScalarNode) and node.value == "" and
                            not node.style):
            raise YamlError(Mark(shown, 1, 1), "file is empty")
        data = loader.construct_document(node)
        if warnings is not None:
            warnings.extend(loader.warnings)
        return data
    except yaml.composer.ComposerError as exc:
        if "expected a single document" in str(exc):
            raise YamlError(_mark(shown, exc.problem_mark),
                            "file holds several YAML documents (---); keep one") from None
        raise _from_yaml(shown, exc, text) from None
    except ConstructorError as exc:
        raise _from_yaml(shown, exc, text) from None
    except yaml.MarkedYAMLError as exc:
        raise _from_yaml(shown, exc, text) from None
    except yaml.reader.ReaderError as exc:
        raise YamlError(Mark(shown, 1, exc.position + 1), f"invalid character in the file: "
                        f"{exc.reason}") from None
    except RecursionError:
        raise YamlError(Mark(shown, 1, 1), "nesting too deep") from None
    finally:
        loader.dispose()


_UNQUOTED_SPECIAL = re.compile(r"^(\s*(?:-\s+)?[^\s:#\-][^:#]*:\s+|\s*-\s+)([{@`*&!%|>\[])")


def _unquoted_special(text: str, marks) -> tuple[int, int, str] | None:
    """A value starting with a YAML indicator ({{ @ ` * & ...) that the user meant as text."""
    lines = text.split("\n")
    for mark in marks:
        if mark is None or mark.line >= len(lines):
            continue
        match = _UNQUOTED_SPECIAL.match(lines[mark.line])
        if match:
            start = match.end(1)
            value = lines[mark.line][start:].strip()
            if value.startswith("{") and not value.startswith("{{") and value.endswith("}"):
                continue  # a real inline mapping: the error is elsewhere
            if value.startswith("[") and value.endswith("]"):
                continue
            return (mark.line + 1, start + 1, value[:2] if value.startswith("{{") else value[0])
    return None


def _at_cause(shown: str, exc: yaml.MarkedYAMLError, text: str) -> YamlError | None:
    """Where the parser gave up is often lines after the mistake (an unclosed quote is noticed
    at the end of the file): point at what was opened and never closed, or at the line that
    broke the structure."""
    start, end, context = exc.context_mark, exc.problem_mark, exc.context or ""
    later = start is not None and end is not None and end.line > start.line
    lines = text.split("\n")
    if end is not None and "escape" in (exc.problem or ""):
        return YamlError(_mark(shown, end), "a \\ inside \"...\" starts an escape; write \\\\ for "
                         "a backslash, or put the text in '...'")
    if start is not None and "quoted scalar" in context:
        quote = lines[start.line][start.column:start.column + 1] if start.line < len(lines) \
            else '"'
        return YamlError(_mark(shown, start), f"the quote {quote} opened here is never closed; "
                         f"add the closing {quote} at the end of the text")
    if later and ("flow mapping" in context or "flow sequence" in context):
        bracket, closing = ("{", "}") if "mapping" in context else ("[", "]")
        return YamlError(_mark(shown, start), f"the '{bracket}' opened here is not closed on "
                         f"its line; add '{closing}' (text starting with '{bracket}' must be "
                         "quoted)")
    if later and "simple key" in context:
        return YamlError(_mark(shown, start), "this line is not 'key: value' and not part of "
                         "the text above it (indented too little, or a ':' missing?)")
    problem = exc.problem or ""
    if end is not None and "but found '<scalar>'" in problem and end.line < len(lines):
        before = lines[end.line][:end.column].rstrip()
        opened = _opening_quote(lines, end.line, len(before) - 1) if before.endswith(
            ("\"", "'")) else None
        if opened is not None and opened[0] < end.line:
            line, col = opened
            return YamlError(Mark(shown, line + 1, col + 1), f"the quote {before[-1]} opened "
                             f"here is closed only on line {end.line + 1}; add the closing "
                             f"{before[-1]} at the end of this text")
        if before.endswith(("\"", "'")):
            return YamlError(_mark(shown, end), "text goes on after the closing quote; put the "
                             "whole text in one pair of quotes (a \" inside \"...\" is written "
                             "\\\", or use '...')")
    return None


def _opening_quote(lines: list[str], line: int, col: int) -> tuple[int, int] | None:
    """(line, column) of the quote that the quote at (line, col) closes (0-based)."""
    quote = lines[line][col]
    for row in range(line, -1, -1):
        text = lines[row] if row < line else lines[row][:col]
        for index in range(len(text) - 1, -1, -1):
            if text[index] == quote and not (quote == '"' and text[:index].endswith("\\")):
                return row, index
    return None


def _from_yaml(shown: str, exc: yaml.MarkedYAMLError, text: str = "") -> YamlError:
    cause = _at_cause(shown, exc, text) if text else None
    if cause:
        return cause
    special = _unquoted_special(text, (exc.context_mark, exc.problem_mark)) if text else None
    if special:
        line, col, start = special
        return YamlError(Mark(shown, line, col), f"text starting with '{start}' must be quoted "
                         f"(write it in \"...\")")
    mark = exc.problem_mark or exc.context_mark
    position = _mark(shown, mark) if mark else Mark(shown, 1, 1)
    problem = exc.problem or exc.context or "invalid YAML"
    hint = ""
    if "found character" in problem and ("'@'" in problem or "'`'" in problem):
        hint = "; quote the text"
    elif exc.context and "flow mapping" in exc.context:
        hint = "; text starting with '{' must be quoted"
    elif "mapping values are not allowed" in problem:
        hint = "; a ':' followed by a space inside text needs the text quoted"
    elif "expected <block end>, but found '<block mapping start>'" in problem:
        hint = "; this line is indented differently from the lines above it"
    elif "'\\t' that cannot start any token" in problem:
        hint = "; indent with spaces, not tabs"
    elif "found undefined alias" in problem or "found unhashable key" in problem:
        hint = ""
    return YamlError(position, f"invalid YAML: {problem}{hint}")
