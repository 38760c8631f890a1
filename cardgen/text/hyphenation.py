"""pyphen's hyphenation patterns, each parsed when a word first asks for it.

Why: pyphen parses every line of a language's pattern file when it loads it — 66 000 patterns,
half a second or more for German, in every process that lays out a rulebook — while a book asks
for a few hundred words, that is a few thousand patterns. Here the file is indexed in one pass of
C calls (digits deleted from the raw bytes; a pattern's key is its letters), some 30 ms, and a
line is parsed by pyphen's rules only when a word's substring matches its key. pyphen's own
`HyphDict.positions` runs unchanged on top, so the split points are exactly pyphen's.
"""

from __future__ import annotations

from pathlib import Path

import pyphen

_DIGITS = b"0123456789"


class LazyPatterns(dict):
    """The `patterns` of a pyphen HyphDict: key (a pattern's letters) → (start, values), filled
    as `get` is asked. Lines are parsed by pyphen's rules: a later line with the same letters
    replaces an earlier one, and a line of zeros, a comment or a directive is no pattern."""

    def __init__(self, lines: list[str], keys: list[str]):
        super().__init__()
        self._lines = lines
        self._keys = keys
        self._last = dict(zip(keys, range(len(keys))))
        self._first = dict(zip(reversed(keys), range(len(keys) - 1, -1, -1)))

    def get(self, key, default=None):
        if key in self:
            found = dict.__getitem__(self, key)
            return found if found is not None else default
        last = self._last.get(key)
        found = None
        if last is not None:
            for number in range(last, self._first[key] - 1, -1):  # the last real pattern wins
                if self._keys[number] == key:
                    parsed = parse_line(self._lines[number])
                    if parsed is not None and parsed[0] == key:
                        found = parsed[1]
                        break
        self[key] = found
        return found if found is not None else default


def parse_line(line: str):
    """(letters, (start, values)) of one pattern line, as pyphen's HyphDict reads it; None for a
    blank line, a comment, a directive or a pattern of zeros."""
    line = line.strip()
    if not line or line.startswith(pyphen.ignored):
        return None
    line = pyphen.parse_hex(lambda match: chr(int(match.group(1), 16)), line)
    factory = int
    if "/" in line and "=" in line:  # a nonstandard break (ff=f): pyphen's own parser for it
        line, alternative = line.split("/", 1)
        factory = pyphen.AlternativeParser(line, alternative)
    tags, values = zip(*[(letter, factory(digit or "0")) for digit, letter in pyphen.parse(line)])
    if max(values) == 0:
        return None
    start, end = 0, len(values)
    while not values[start]:
        start += 1
    while not values[end - 1]:
        end -= 1
    return "".join(tags), (start, values[start:end])


def lazy_dictionary(path: Path) -> pyphen.HyphDict:
    """A pyphen HyphDict of the pattern file at `path` whose patterns are parsed on demand."""
    data = path.read_bytes()
    first, _, body = data.partition(b"\n")
    encoding = first.decode().strip()
    if encoding.lower() == "microsoft-cp1251":  # as pyphen reads it
        encoding = "cp1251"
    # deleting digit bytes is safe in any encoding a pattern file uses (ASCII-compatible)
    lines = body.decode(encoding).split("\n")
    keys = [key.strip() for key in body.translate(None, _DIGITS).decode(encoding).split("\n")]
    if b"^^" in body or b"/" in body:  # ^^hh escapes, ff=f breaks: letters only pyphen can tell
        for number, line in enumerate(lines):
            if "^^" in line or "/" in line:
                parsed = parse_line(line)
                keys[number] = parsed[0] if parsed else ""
    hyph = pyphen.HyphDict.__new__(pyphen.HyphDict)
    hyph.patterns = LazyPatterns(lines, keys)
    hyph.cache = {}
    # longer than any pattern is harmless (the search never passes a word's end)
    hyph.maxlen = max(map(len, keys))
    return hyph
