"""A designer's picture deck, generated from a seed: what bench/ measures besides the shipped packs.

The shipped packs draw their portraits and hold no picture files; designers' decks hold photos.
This writes a pack with, per repetition:

- 64 picture cards: a 600 x 800 px photo-like portrait (JPEG) and 15 stat lines,
- 40 text cards: a title and a paragraph of 4-6 sentences,

59 x 91 mm cards, 3 mm bleed, crop marks, 9 per A4 sheet, duplex, and one back picture for all
cards (a flat design of a few colours, PNG). No rules: the pack makes cards.pdf and printshop.pdf.
Everything comes from random.Random(seed): same seed, same files, byte for byte. No downloads.

    python bench/deck.py DIR [--repeat 10] [--seed 19] [--photos png]   # writes DIR/photo-deck/

`--photos png` stores the photos as PNG (what designers export from drawing programs): a PNG has
no reduced decode, so it measures the decode itself.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter

PACK = "photo-deck"
PICTURE_CARDS, TEXT_CARDS = 64, 40
PHOTO_SIZE = (600, 800)
BACK_SIZE = (800, 1200)
STATS = ("kraft", "tempo", "mut", "witz", "ruhe", "gluck", "technik", "ausdauer", "charme",
         "wissen", "geschick", "orientierung", "geduld", "fantasie", "teamgeist")
WORDS = ("der", "die", "das", "Karte", "Spieler", "nimmt", "legt", "zieht", "sofort", "immer",
         "einen", "zwei", "Stapel", "Runde", "Punkte", "Gegner", "Hand", "Tisch", "offen",
         "verdeckt", "danach", "wenn", "dann", "beliebige", "eigene", "nächste", "Wert", "höher",
         "niedriger", "tauscht", "gewinnt", "verliert", "alle", "jede", "Mitspielerin")

PACK_YAML = """\
id: photo-deck
title: Bildkarten
language: de
version: "1.0"
description: Generated benchmark deck (bench/deck.py).
print:
  card_size: skat
  bleed: 3
  safe: 4
  paper: a4
  duplex: long
groups:
  - {id: rot, label: Rot, short: Rot, colour: "#B23A48", text_colour: "#FFFFFF", symbol: "♥"}
  - {id: blau, label: Blau, short: Blau, colour: "#2F5D8C", text_colour: "#FFFFFF", symbol: "♦"}
kinds:
  - {id: bild, label: Bildkarte, plural: Bildkarten, id_pattern: "^B[0-9]+$",
     front: bild-front, back: deck-back}
  - {id: text, label: Textkarte, plural: Textkarten, id_pattern: "^T[0-9]+$",
     front: text-front, back: deck-back, fields: {paragraph: {label: Text}}}
categories:
"""

LAYOUTS_YAML = """\
layouts:
  bild-front:
    extends: card-frame
    regions:
      name: {type: text, x: 4, y: 4, w: 51, h: 5.5, layer: 3, font: sans-bold, size: 10,
             min_size: 7, valign: middle, colour: "#FFFFFF", text: "{{ card.name }}"}
      panel: {y: 10, h: 78.8}
      photo: {type: portrait, x: 7, y: 11.5, w: 45, h: 34, radius: 1.5, layer: 2}
      stats: {type: stats, x: 4, y: 47, w: 51, h: 39.5, layer: 3, font: condensed, size: 7,
              min_size: 6, leading: 1.05, stroke: "#CCCCCC"}
  text-front:
    extends: card-frame
    regions:
      name: {type: text, x: 4, y: 4, w: 51, h: 9, layer: 3, font: sans-bold, size: 11,
             min_size: 7, align: center, valign: middle, colour: "#FFFFFF",
             text: "{{ card.name }}"}
      panel: {y: 14, h: 74.8}
      body: {type: text, x: 5, y: 17, w: 49, h: 68, layer: 3, font: serif, size: 9,
             min_size: 6, leading: 1.2, text: "{{ card.paragraph }}"}
  deck-back:
    size: [59, 91]
    regions:
      picture: {type: image, x: -3, y: -3, w: 65, h: 97, image: images/back.png}
"""


def photo(rng: random.Random) -> Image.Image:
    """A photo-like portrait: a graded background, a lit head and shoulders, grain, soft focus."""
    w, h = PHOTO_SIZE
    top = tuple(rng.randrange(40, 220) for _ in range(3))
    bottom = tuple(rng.randrange(10, 120) for _ in range(3))
    image = Image.linear_gradient("L").resize((w, h))
    image = Image.composite(Image.new("RGB", (w, h), bottom), Image.new("RGB", (w, h), top),
                            image)
    draw = ImageDraw.Draw(image)
    skin = (rng.randrange(150, 240), rng.randrange(110, 190), rng.randrange(80, 160))
    cloth = tuple(rng.randrange(0, 200) for _ in range(3))
    cx = w // 2 + rng.randrange(-40, 41)
    draw.ellipse((cx - 230, 520, cx + 230, 980), fill=cloth)
    draw.rectangle((cx - 45, 420, cx + 45, 560), fill=skin)
    draw.ellipse((cx - 130, 160, cx + 130, 500), fill=skin)
    hair = tuple(rng.randrange(10, 120) for _ in range(3))
    draw.chord((cx - 140, 130, cx + 140, 420), 180, 360, fill=hair)
    for _ in range(30):  # freckles, buttons, background things: detail for the encoder
        x, y, r = rng.randrange(w), rng.randrange(h), rng.randrange(2, 14)
        draw.ellipse((x - r, y - r, x + r, y + r),
                     fill=tuple(rng.randrange(256) for _ in range(3)))
    image = image.filter(ImageFilter.GaussianBlur(2.5))
    grain = Image.effect_noise((w, h), 18).convert("RGB")
    return Image.blend(image, grain, 0.08)


def back() -> Image.Image:
    """The deck's back: a flat design of four colours (stored losslessly when that is smaller)."""
    w, h = BACK_SIZE
    image = Image.new("RGB", (w, h), "#22394F")
    draw = ImageDraw.Draw(image)
    for x in range(0, w, 80):
        for y in range(0, h, 80):
            if (x + y) // 80 % 2:
                draw.rectangle((x, y, x + 79, y + 79), fill="#2C4A66")
    draw.rounded_rectangle((60, 60, w - 60, h - 60), 40, outline="#E8D9A8", width=10)
    draw.ellipse((w / 2 - 180, h / 2 - 180, w / 2 + 180, h / 2 + 180), fill="#E8D9A8")
    draw.ellipse((w / 2 - 120, h / 2 - 120, w / 2 + 120, h / 2 + 120), fill="#B23A48")
    return image


def sentence(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randrange(6, 12))]
    return " ".join(words).capitalize() + "."


def stat_categories() -> str:
    lines = []
    for key in STATS:
        lines += [f"  - key: {key}", f"    label: {key.capitalize()}", "    kinds: [bild]",
                  f"    values: [{{key: {key}, label: {key.capitalize()}, type: integer, "
                  "min: 0, max: 99, wins: high}]"]
    return "\n".join(lines) + "\n"


def write(folder: Path, repeat: int = 1, seed: int = 19, photos: str = "jpg") -> Path:
    """Write folder/photo-deck with the deck `repeat` times over (new IDs and new pictures);
    `photos`: "jpg" (quality 90) or "png"."""
    rng = random.Random(seed)
    pack = folder / PACK
    (pack / "cards").mkdir(parents=True, exist_ok=True)
    (pack / "images").mkdir(exist_ok=True)
    (pack / "pack.yaml").write_text(PACK_YAML + stat_categories(), encoding="utf-8")
    (pack / "layouts.yaml").write_text(LAYOUTS_YAML, encoding="utf-8")
    back().save(pack / "images" / "back.png", optimize=True)
    pictures, texts = ["kind: bild", "cards:"], ["kind: text", "cards:"]
    for n in range(1, PICTURE_CARDS * repeat + 1):
        name = f"p{n:04d}.{photos}"
        if photos == "png":
            photo(rng).save(pack / "images" / name)
        else:
            photo(rng).save(pack / "images" / name, quality=90)
        stats = ", ".join(f"{key}: {rng.randrange(100)}" for key in STATS)
        pictures += [f"  - id: B{n}", f"    name: Person {n}",
                     f"    group: {rng.choice(('rot', 'blau'))}", f"    image: images/{name}",
                     f"    stats: {{{stats}}}"]
    for n in range(1, TEXT_CARDS * repeat + 1):
        paragraph = " ".join(sentence(rng) for _ in range(rng.randrange(4, 7)))
        texts += [f"  - id: T{n}", f"    name: Ereignis {n}",
                  f"    group: {rng.choice(('rot', 'blau'))}", f"    paragraph: \"{paragraph}\""]
    (pack / "cards" / "bild.yaml").write_text("\n".join(pictures) + "\n", encoding="utf-8")
    (pack / "cards" / "text.yaml").write_text("\n".join(texts) + "\n", encoding="utf-8")
    return pack


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--repeat", type=int, default=1, help="the deck this many times over")
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--photos", choices=("jpg", "png"), default="jpg")
    args = parser.parse_args()
    print(write(args.folder, args.repeat, args.seed, args.photos))


if __name__ == "__main__":
    main()
