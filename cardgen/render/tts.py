"""Tabletop Simulator: card sheets and the saved object of a custom deck, one deck per back.

Why: players try a game on screen before printing it. TTS's custom deck reads one image of
faces laid out in a grid (at most 10 x 7, the last cell kept free for TTS's hidden-card image;
TTS scales images down above 4096 px a side, so the sheets stay within that) and one back
image. The saved-object JSON names them by local file paths (file:///...), so a user drops
the JSON into TTS's "Saved Objects" folder and finds the pack under Objects.

One deck per back: kinds whose backs print the same share one deck (in the game they are
shuffled together, and a deck of its own would give away which kind a card is). TTS's card is
2.5 x 3.5 in; cards of other proportions are scaled along the table's depth (scaleZ), so a
skat card lies 59 x 91, not stretched to poker proportions.
"""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

MAX_COLS, MAX_ROWS, MAX_PX = 10, 7, 4096
PER_SHEET = MAX_COLS * MAX_ROWS - 1  # TTS shows the grid's last cell for a hidden card
TTS_CARD = (2.5, 3.5)  # the proportions of TTS's own card model


def card_scale(card_size) -> float:
    """scaleZ that gives TTS's card the proportions of ours (scaleX stays 1)."""
    w, h = card_size
    return round((h / w) / (TTS_CARD[1] / TTS_CARD[0]), 6)


def sheet_grid(count: int, card_size) -> tuple[int, int, int, int]:
    """(cols, rows, card px w, card px h) of one sheet of `count` faces: at most 10 x 7,
    each side at most 4096 px, the card's proportions kept."""
    cols = min(MAX_COLS, count)
    rows = math.ceil(count / cols)
    w, h = card_size
    px_w = min(MAX_PX // cols, math.floor(MAX_PX // rows * w / h))
    return cols, rows, px_w, round(px_w * h / w)


def tts_files(printshop_pdf: bytes, printed, card_size, bleed: float, pack_id: str,
              title: str, folder: Path, names: dict[str, str],
              keys: dict[int, str] | None = None) -> dict[str, bytes]:
    """{'tts/<deck>-<n>.png', 'tts/<deck>-back.png', 'tts/<pack>.json': bytes}; a deck is
    named by its kinds ('character', or 'character-K-S-ER' for kinds sharing a back).

    `printed` in print-shop page order "sides"; `folder` is where the tts/ files will lie
    (absolute), `names` maps card ID → the name a player sees on the card in TTS, and a
    back's ID ('back:<kind>') → the kind's name for its deck; `keys` maps id(face) → what the
    face prints (pipeline.faces.face_keys): backs of one key are one back."""
    import pypdfium2 as pdfium

    from .pdf import printshop_faces
    document = pdfium.PdfDocument(printshop_pdf)
    pages = {}
    for page_index, (index, back) in enumerate(printshop_faces(printed)):
        face = printed[index].back if back else printed[index].front
        pages.setdefault(face.card_id, page_index)
    backs: dict[str, list] = {}
    for item in printed:  # one deck per back: the cards of kinds that share it, together
        key = (keys or {}).get(id(item.back)) or item.back.card_id
        backs.setdefault(key, []).append(item)
    out: dict[str, bytes] = {}
    decks = []
    try:
        for number, items in enumerate(backs.values(), start=1):
            kinds = list(dict.fromkeys(item.back.card_id for item in items))
            stem = "-".join(kind.split(":", 1)[-1] for kind in kinds)
            nickname = " + ".join(names.get(kind, "") for kind in kinds if names.get(kind))
            decks.append(_deck(document, pages, items, card_size, bleed, stem, number, folder,
                               names, out, nickname))
    finally:
        document.close()
    out[f"tts/{pack_id}.json"] = saved_object(title, decks)
    return out


def _deck(document, pages, items, card_size, bleed, stem, number, folder, names, out,
          nickname: str) -> dict:
    """One deck's sheets and back into `out`; its entry of the saved object."""
    from .raster import page_image
    faces = list(dict.fromkeys(item.front.card_id for item in items))
    sheets = [faces[i:i + PER_SHEET] for i in range(0, len(faces), PER_SHEET)]
    custom, cell, back_px = {}, {}, None
    for sheet_no, sheet in enumerate(sheets, start=1):
        key = number * 100 + sheet_no  # TTS deck keys: CardID = key * 100 + cell
        cols, rows, px_w, px_h = sheet_grid(len(sheet), card_size)
        back_px = back_px or (px_w, px_h)  # the back as large as a face on the first sheet
        from PIL import Image
        canvas = Image.new("RGB", (cols * px_w, rows * px_h), "white")
        for position, card_id in enumerate(sheet):
            image = page_image(document[pages[card_id]], bleed, False, (px_w, px_h))
            canvas.paste(image, ((position % cols) * px_w, (position // cols) * px_h))
            cell[card_id] = key * 100 + position
        name = f"tts/{stem}-{sheet_no}.png"
        out[name] = _png(canvas)
        custom[str(key)] = {"FaceURL": (folder / name).as_uri(),
                            "BackURL": (folder / f"tts/{stem}-back.png").as_uri(),
                            "NumWidth": cols, "NumHeight": rows, "BackIsHidden": True,
                            "UniqueBack": False, "Type": 0}
    out[f"tts/{stem}-back.png"] = _png(page_image(document[pages[items[0].back.card_id]],
                                                  bleed, False, back_px))
    cards = []
    for item in items:  # each card names its sheet too: TTS reads a card taken off the deck
        card_id = cell[item.front.card_id]
        cards.append({"Name": "Card", "Nickname": names.get(item.card_id, ""),
                      "CardID": card_id, "Transform": _transform(scale=card_scale(card_size)),
                      "CustomDeck": {str(card_id // 100): custom[str(card_id // 100)]}})
    return {"Name": "DeckCustom", "Nickname": nickname,
            "Transform": _transform(scale=card_scale(card_size)),
            "DeckIDs": [c["CardID"] for c in cards], "CustomDeck": custom,
            "ContainedObjects": cards}


def saved_object(title: str, decks: list[dict]) -> bytes:
    """The saved-object file: one bag-less list of decks, laid side by side on the table."""
    for index, deck in enumerate(decks):
        deck["Transform"] = _transform(x=index * 3.0, scale=deck["Transform"]["scaleZ"])
        deck["Nickname"] = f"{title} – {deck['Nickname']}" if deck["Nickname"] else title
    body = {"SaveName": title, "GameMode": "", "Gravity": 0.5, "Table": "", "Sky": "",
            "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "ObjectStates": decks,
            "TabStates": {}, "VersionNumber": ""}
    return (json.dumps(body, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def _transform(x: float = 0.0, scale: float = 1.0) -> dict:
    """Face down (rotZ 180), as a deck lies on the table; `scale` along the table's depth
    gives the card its proportions (card_scale)."""
    return {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": scale}


def _png(image) -> bytes:
    from .raster import srgb_profile
    buffer = io.BytesIO()
    # 4096 px sheets: fast, still small; sRGB, as the card PNGs
    image.save(buffer, "PNG", compress_level=3, icc_profile=srgb_profile())
    return buffer.getvalue()
