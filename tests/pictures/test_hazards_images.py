"""Pictures a designer may drop into a pack: every bad one is a diagnostic, every odd one prints."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image
from typer.testing import CliRunner

from cardgen.cli.app import app
from cardgen.pictures.store import ImageProblem, ImageStore, open_checked, resolve

from picture_pack import picture_pack


def make_pack(root: Path, image_line: str) -> Path:
    return picture_pack(root, "kind: card\ncards:\n  - id: P1\n    name: Anna\n" + image_line)


def run(root: Path, *args: str):
    return CliRunner().invoke(app, ["build", "--data", str(root / "card_data"), "--out",
                                    str(root / "out"), "--only", "cards", *args])


def save(image: Image.Image, path: Path, fmt: str = "PNG", **kw) -> None:
    image.save(path, fmt, **kw)


@pytest.mark.parametrize("line, message", [
    ("    image: images/missing.png\n", "not found"),
    ("    image: images\n", "'images' is a folder, not a picture; name a file in it"),
    ("    image: ../outside.png\n", "must not contain '..'"),
    ("    image: /etc/passwd\n", "inside the pack folder"),
    ("    image: https://example.org/a.png\n", "inside the pack folder"),
])
def test_bad_paths_are_diagnostics(tmp_path, line, message):
    make_pack(tmp_path, line)
    result = run(tmp_path)
    assert result.exit_code == 1
    assert message in result.output
    assert "cards.yaml:5:12: error: P1 image:" in result.output
    assert not (tmp_path / "out").exists()


def test_truncated_and_fake_pictures(tmp_path):
    pack = make_pack(tmp_path, "    image: images/broken.jpg\n")
    buffer = io.BytesIO()
    Image.new("RGB", (800, 800), "red").save(buffer, "JPEG")
    (pack / "images" / "broken.jpg").write_bytes(buffer.getvalue()[:2000])
    result = run(tmp_path)
    assert result.exit_code == 1 and "not a readable picture" in result.output
    (pack / "images" / "broken.jpg").write_text("no picture here")
    result = run(tmp_path)
    assert result.exit_code == 1 and "not a readable picture" in result.output
    assert "Traceback" not in result.output


def test_symlink_out_of_the_pack_is_refused(tmp_path):
    pack = make_pack(tmp_path, "    image: images/link.png\n")
    outside = tmp_path / "secret.png"
    save(Image.new("RGB", (300, 300), "blue"), outside)
    os.symlink(outside, pack / "images" / "link.png")
    result = run(tmp_path)
    assert result.exit_code == 1 and "leads outside the pack folder" in result.output


def test_too_many_pixels(tmp_path, monkeypatch):
    pack = make_pack(tmp_path, "    image: images/big.png\n")
    save(Image.new("L", (400, 400)), pack / "images" / "big.png")
    monkeypatch.setattr("cardgen.pictures.reading.MAX_PIXELS", 100_000)
    with pytest.raises(ImageProblem, match="more than"):
        open_checked(pack / "images" / "big.png")


@pytest.mark.parametrize("mode", ["CMYK", "P", "LA", "I;16", "RGBA", "L", "1"])
def test_unusual_modes_print(tmp_path, mode):
    pack = make_pack(tmp_path, "    image: images/odd.png\n")
    image = Image.new("RGB", (200, 240), (200, 80, 40)).convert(mode) if mode != "I;16" else \
        Image.new("I;16", (200, 240), 40000)
    fmt = "TIFF" if mode == "CMYK" else "PNG"
    name = "odd.tif" if mode == "CMYK" else "odd.png"
    save(image, pack / "images" / name, fmt)
    (pack / "cards" / "cards.yaml").write_text(
        f"kind: card\ncards:\n  - id: P1\n    name: Anna\n    image: images/{name}\n",
        encoding="utf-8")
    result = run(tmp_path)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "pics" / "cards.pdf").read_bytes().startswith(b"%PDF")
    assert "dpi" in result.output  # 200 x 240 px in a 22 x 27 mm box is below 300 dpi: warned


def test_exif_rotation_is_applied(tmp_path):
    image = Image.new("RGB", (40, 20), "white")
    exif = image.getexif()
    exif[0x0112] = 6  # rotate 90° clockwise when shown
    path = tmp_path / "rot.jpg"
    image.save(path, "JPEG", exif=exif.tobytes())
    assert open_checked(path).size == (20, 40)


def test_same_picture_is_prepared_once(tmp_path):
    pack = tmp_path / "p"
    (pack / "images").mkdir(parents=True)
    save(Image.new("RGB", (1000, 1200), "green"), pack / "images" / "a.png")
    store = ImageStore(pack)
    first = store.prepared("images/a.png", 62.4, 76.5)
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr("cardgen.pictures.store.decode", lambda *a, **k: 1 / 0)  # never again
        assert store.prepared("images/a.png", 62.4, 76.5) == first
    # never more pixels than 300 dpi needs at the placed size
    assert (first.width, first.height) == (round(62.4 / 72 * 300), round(76.5 / 72 * 300))
    assert first.source == (1000, 1200)


def test_a_picture_near_300_dpi_keeps_its_pixels_only_cropped(tmp_path):
    """Up to 1.5 times the pixels 300 dpi needs (450 dpi, Distiller's print threshold) a
    picture is not resampled: its own pixels, cropped about the middle to the box's aspect;
    above that it is scaled down to exactly 300 dpi. Lossless pictures show it pixel for pixel."""
    from PIL import ImageDraw
    pack = tmp_path / "p"
    (pack / "images").mkdir(parents=True)
    design = Image.new("RGB", (600, 800), "#22394F")
    draw = ImageDraw.Draw(design)
    for x in range(0, 600, 40):  # stripes one pixel apart in colour show any resampling
        draw.rectangle((x, 0, x + 19, 799), fill=(232, 217, 168))
    draw.rectangle((0, 0, 599, 3), fill=(200, 40, 40))  # the top rows: cropped away
    design.save(pack / "images" / "stripes.png")
    store = ImageStore(pack)
    needed = (round(45 / 25.4 * 300), round(34 / 25.4 * 300))  # 531 x 402 px for 45 x 34 mm
    near = store.prepared("images/stripes.png", 45 * 72 / 25.4, 34 * 72 / 25.4)
    assert near.filter == "FlateDecode"
    assert (near.width, near.height) == (600, 454)  # 600 / 531 = 1.13 times: kept
    assert near.width / near.height == pytest.approx(needed[0] / needed[1], rel=0.01)
    top = (800 - 454) // 2
    assert _flate_pixels(near) == design.crop((0, top, 600, top + 454)).tobytes()
    far = store.prepared("images/stripes.png", 30 * 72 / 25.4, 22 * 72 / 25.4)
    assert (far.width, far.height) == (354, 260)  # 600 / 354 = 1.7 times: 300 dpi exactly
    small = store.prepared("images/stripes.png", 80 * 72 / 25.4, 60 * 72 / 25.4)
    assert (small.width, small.height) == (600, 450)  # below 300 dpi: cropped, never enlarged


def _flate_pixels(picture) -> bytes:
    """The RGB pixels of a lossless prepared picture (Flate, PNG row predictors)."""
    import struct
    import zlib
    head = struct.pack(">IIBBBBB", picture.width, picture.height, 8, 2, 0, 0, 0)
    chunks = [(b"IHDR", head), (b"IDAT", picture.data), (b"IEND", b"")]
    png = b"\x89PNG\r\n\x1a\n" + b"".join(
        struct.pack(">I", len(body)) + kind + body +
        struct.pack(">I", zlib.crc32(kind + body)) for kind, body in chunks)
    return Image.open(io.BytesIO(png)).convert("RGB").tobytes()


def photo(path: Path, size=(600, 800)) -> None:
    """A picture with thousands of colours, as a photo has."""
    Image.effect_noise(size, 40).convert("RGB").save(path, "JPEG", quality=90)


def test_fitting_is_imageops_fit_and_reduces_first_only_far_above_the_size():
    """Below six times the pixels it needs, a picture is cropped and scaled exactly as
    ImageOps.fit with LANCZOS does; far above (a big PNG), it is reduced by a whole factor
    first, which differs from scaling all the way by at most a few levels."""
    from PIL import ImageChops, ImageOps, ImageStat

    from cardgen.pictures.encoding import fitted as _fitted
    gradient = Image.linear_gradient("L").resize((1800, 1350)).convert("RGB")
    picture = Image.blend(gradient, Image.effect_noise((1800, 1350), 60).convert("RGB"), 0.3)
    for size in ((400, 300), (600, 450), (300, 400), (350, 350)):  # 3-6 times, any aspect
        assert _fitted(picture, size).tobytes() == \
            ImageOps.fit(picture, size, method=Image.LANCZOS).tobytes()
    fair = ImageOps.fit(picture, (240, 180), method=Image.LANCZOS)  # 7.5 times
    fast = _fitted(picture, (240, 180))
    assert fast.size == fair.size and fast.tobytes() != fair.tobytes()
    difference = ImageStat.Stat(ImageChops.difference(fair, fast))
    assert max(difference.mean) < 1 and max(high for _, high in difference.extrema) <= 8


def test_prepared_pictures_are_kept_on_disk(tmp_path, monkeypatch):
    """A second build (a new ImageStore) decodes nothing: the prepared picture comes from the
    cache, byte for byte; a changed file gets a new entry."""
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    pack = tmp_path / "p"
    (pack / "images").mkdir(parents=True)
    photo(pack / "images" / "a.jpg")
    first = ImageStore(pack).prepared("images/a.jpg", 100, 80)
    assert first.filter == "DCTDecode" and first.data.startswith(b"\xff\xd8")

    def no_decoding(*args, **kwargs):
        raise AssertionError("decoded again")
    monkeypatch.setattr("cardgen.pictures.store.decode_counted", no_decoding)
    again = ImageStore(pack).prepared("images/a.jpg", 100, 80)
    assert again == first
    photo(pack / "images" / "a.jpg", (640, 800))
    with pytest.raises(AssertionError, match="decoded again"):
        ImageStore(pack).prepared("images/a.jpg", 100, 80)


def test_a_store_that_keeps_streams_reads_each_picture_from_the_cache_once(tmp_path,
                                                                          monkeypatch):
    """keep_streams (a resident pipeline's store, saved after every edit): a light picture's
    streams are read from the disk cache once, up to the store's limit; a store without it
    reads them at every save, so memory does not grow with the deck."""
    from cardgen.incremental import cache
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    pack = tmp_path / "p"
    (pack / "images").mkdir(parents=True)
    photo(pack / "images" / "a.jpg")
    photo(pack / "images" / "b.jpg", (640, 800))
    ImageStore(pack).prepared("images/a.jpg", 100, 80)  # into the disk cache
    ImageStore(pack).prepared("images/b.jpg", 100, 80)
    reads = []
    real = cache.read
    monkeypatch.setattr(cache, "read", lambda kind, key: reads.append(key) or real(kind, key))
    plain, kept = ImageStore(pack), ImageStore(pack)
    kept.keep_streams()
    for store in (plain, kept):
        first = store.prepared("images/a.jpg", 100, 80)
        assert store.prepared("images/a.jpg", 100, 80) == first and first.data
    assert len(reads) == 3  # twice for the plain store, once for the keeping one
    kept.STREAMS_LIMIT = len(first.data) + 10  # room for one: the second is read each time
    kept.prepared("images/b.jpg", 100, 80)
    kept.prepared("images/b.jpg", 100, 80)
    assert len(reads) == 5


def test_a_broken_cache_entry_is_made_again(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    pack = tmp_path / "p"
    (pack / "images").mkdir(parents=True)
    photo(pack / "images" / "a.jpg")
    first = ImageStore(pack).prepared("images/a.jpg", 100, 80)
    entry = tmp_path / "cache" / "pictures" / first.key
    entry.write_bytes(entry.read_bytes()[:-10])  # cut short, as by a full disk
    assert ImageStore(pack).prepared("images/a.jpg", 100, 80) == first


def test_few_colours_are_stored_losslessly_when_smaller(tmp_path):
    """A flat back: Flate (exact pixels) when smaller than the JPEG; a photo stays JPEG."""
    pack = tmp_path / "p"
    (pack / "images").mkdir(parents=True)
    flat = Image.new("RGB", (700, 1100), "#22394F")
    for x in range(0, 700, 100):
        flat.paste((232, 217, 168), (x, 0, x + 50, 1100))
    flat.save(pack / "images" / "back.png")
    photo(pack / "images" / "photo.jpg")
    store = ImageStore(pack)
    back = store.prepared("images/back.png", 168, 264)  # 700 x 1100 px at 300 dpi
    assert back.filter == "FlateDecode"
    assert store.prepared("images/photo.jpg", 100, 80).filter == "DCTDecode"
    import pypdfium2 as pdfium
    from reportlab.pdfgen.canvas import Canvas
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(168, 264), invariant=1)
    store.draw(canvas, "images/back.png", 0, 0, 168, 264)
    canvas.showPage()
    canvas.save()
    page = pdfium.PdfDocument(buffer.getvalue())[0]
    drawn = page.render(scale=700 / 168).to_pil().convert("RGB")
    assert drawn.size == (700, 1100)
    assert drawn.getpixel((20, 500)) == (232, 217, 168)  # exact colours: nothing lossy
    assert drawn.getpixel((75, 500)) == (0x22, 0x39, 0x4F)


def test_each_picture_is_embedded_once_per_document(tmp_path):
    """Drawn on every card, stored once: one image object per picture and size."""
    pack = make_pack(tmp_path, "    image: images/a.jpg\n    count: 12\n")
    photo(pack / "images" / "a.jpg", (900, 1100))
    result = run(tmp_path)
    assert result.exit_code == 0, result.output
    pdf = (tmp_path / "out" / "pics" / "cards.pdf").read_bytes()
    assert pdf.count(b"/Subtype /Image") == 1
    assert pdf.count(b"/DCTDecode") == 1


def test_resolve_stays_inside(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "x.png").write_bytes(b"")
    assert resolve(tmp_path, "a/x.png") == (tmp_path / "a" / "x.png").resolve()
    for bad in ("../x", "/abs", "C:\\x", "file://x"):
        with pytest.raises(ImageProblem):
            resolve(tmp_path, bad)


def test_a_cold_build_decodes_each_picture_once_and_a_rebuild_none(tmp_path, monkeypatch):
    """The check before layout reads headers only; the one complete decode is the one that
    prepares the picture for printing, and the next build (same bytes) decodes nothing."""
    import cardgen.pictures.store as images
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    pack = make_pack(tmp_path, "    image: images/a.jpg\n")
    photo(pack / "images" / "a.jpg", (600, 800))
    decoded = []
    real = images.decode_counted

    def counted(raw, name, need=None, *args):
        decoded.append((name, need))
        return real(raw, name, need, *args)
    monkeypatch.setattr(images, "decode_counted", counted)
    assert run(tmp_path).exit_code == 0
    assert len(decoded) == 1 and decoded[0][1] is not None  # at the placed size, once
    decoded.clear()
    assert run(tmp_path, "--force").exit_code == 0
    assert decoded == []


@pytest.mark.parametrize("command", ["check", "build"])
def test_a_cut_photo_whose_header_is_whole_is_found_before_any_output(tmp_path, monkeypatch,
                                                                      command):
    """Its header reads fine, so the check before layout passes it: preparing it for printing
    decodes it completely and finds the cut, in `check` as in `build`, at the card's line."""
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    pack = make_pack(tmp_path, "    image: images/cut.jpg\n")
    photo(pack / "images" / "whole.jpg", (800, 600))
    raw = (pack / "images" / "whole.jpg").read_bytes()
    (pack / "images" / "cut.jpg").write_bytes(raw[:len(raw) // 2])
    with Image.open(pack / "images" / "cut.jpg") as header_only:
        assert header_only.size == (800, 600)
    args = ["--data", str(tmp_path / "card_data")]
    if command == "build":
        args += ["--out", str(tmp_path / "out"), "--jobs", "1"]
    result = CliRunner().invoke(app, [command, *args])
    assert result.exit_code == 1 and "Traceback" not in result.output
    errors = [line for line in result.stderr.splitlines() if ": error: " in line]
    # Pillow says how many bytes it could not use: that number depends on the cut
    assert len(errors) == 1 and errors[0].startswith(
        f"{pack / 'cards' / 'cards.yaml'}:5:12: error: P1 image: 'images/cut.jpg' is not a "
        "readable picture (image file is truncated"), errors
    assert not (tmp_path / "out").exists()


def test_check_decodes_new_photos_without_preparing_them(tmp_path, monkeypatch):
    """`cardgen check` prints nothing: it decodes a new photo (at 1/8 scale, every byte read)
    to find damage, and neither scales nor stores it; its errors are the build's."""
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    pack = make_pack(tmp_path, "    image: images/a.jpg\n")
    photo(pack / "images" / "a.jpg", (800, 600))
    data = ["--data", str(tmp_path / "card_data")]
    assert CliRunner().invoke(app, ["check", *data]).exit_code == 0
    assert not list((tmp_path / "cache").glob("pictures/*"))
    raw = (pack / "images" / "a.jpg").read_bytes()
    (pack / "images" / "a.jpg").write_bytes(raw[:len(raw) * 2 // 3])
    check = CliRunner().invoke(app, ["check", *data])
    build = CliRunner().invoke(app, ["build", *data, "--out", str(tmp_path / "out")])
    lines = [[line for line in r.stderr.splitlines() if ": error: " in line]
             for r in (check, build)]
    assert check.exit_code == build.exit_code == 1
    assert len(lines[0]) == 1 and lines[0] == lines[1]
    assert "P1 image: 'images/a.jpg' is not a readable picture" in lines[0][0]


def test_a_picture_that_fails_while_a_figure_is_drawn_is_reported_not_drawn(tmp_path,
                                                                          monkeypatch):
    """The net under every drawing: a picture no check decoded before (a rulebook built alone)
    that fails is left out, and the build reports it at the YAML naming it and writes
    nothing."""
    import cardgen.pictures.store as images
    from cardgen.diagnostics import Report
    from cardgen.load.pack import load_pack
    from cardgen.validate.images import report_undrawn
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    pack = make_pack(tmp_path, "    image: images/cut.png\n")
    whole = io.BytesIO()
    Image.new("RGB", (900, 900), "red").save(whole, "PNG")
    (pack / "images" / "cut.png").write_bytes(whole.getvalue()[:300])
    store = ImageStore(pack)
    drawn = []

    class Canvas:  # records what a drawing would do
        def __getattr__(self, name):
            return lambda *args, **kwargs: drawn.append(name)
    images.UNDRAWN.clear()
    store.draw(Canvas(), "images/cut.png", 0, 0, 100, 100)
    assert drawn == [] and "images/cut.png" in images.UNDRAWN
    report = Report()
    data = load_pack(pack, report)
    assert report_undrawn(data, report) is True and images.UNDRAWN == {}
    assert [d.format() for d in report.errors] == [
        f"{pack / 'cards' / 'cards.yaml'}:5:12: error: P1 image: 'images/cut.png' is not a "
        "readable picture (image file is truncated)"]


def test_a_store_holds_pictures_light_and_saves_the_same_pdf(tmp_path, monkeypatch):
    """With the disk cache, a store keeps no picture's streams in memory: they are read when
    the PDF is saved, and the PDF is byte for byte the one a store holding them makes. Without
    a cache to read them back from, the store holds them."""
    from reportlab.pdfgen.canvas import Canvas
    pack = tmp_path / "p"
    (pack / "images").mkdir(parents=True)
    for n in range(3):
        photo(pack / "images" / f"{n}.jpg", (500 + 10 * n, 400))

    def pdf(store: ImageStore) -> bytes:
        buffer = io.BytesIO()
        canvas = Canvas(buffer, pagesize=(300, 300), invariant=1)
        for n in range(3):
            store.draw(canvas, f"images/{n}.jpg", 10 + 90 * n, 10, 80, 64)
            store.draw(canvas, f"images/{n}.jpg", 10 + 90 * n, 100, 80, 64)  # once per PDF
        canvas.showPage()
        canvas.save()
        return buffer.getvalue()
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    light = ImageStore(pack)
    cached = pdf(light)
    assert all(p.light and p.data == b"" for p in light.cache.values())
    monkeypatch.setattr("cardgen.incremental.cache.READ_ONLY", True)  # nothing can be stored
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "empty"))
    held = ImageStore(pack)
    assert pdf(held) == cached
    assert all(not p.light and p.data for p in held.cache.values())
    assert cached.count(b"/Subtype /Image") == 3


def test_pictures_prepared_in_forked_processes_are_the_same(tmp_path, monkeypatch):
    """prepare_all fills the disk cache from worker processes; drawing then decodes nothing
    and gets the same bytes as preparing here."""
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr("cardgen.pictures.store.PARALLEL_FROM", 1)
    pack = tmp_path / "p"
    (pack / "images").mkdir(parents=True)
    for n in range(3):
        photo(pack / "images" / f"{n}.jpg", (500 + 10 * n, 400))
    placed = [(f"images/{n}.jpg", 100.0, 80.0) for n in range(3)]
    ImageStore(pack).prepare_all(placed, jobs=2)

    def no_decoding(*args, **kwargs):
        raise AssertionError("decoded again")
    with monkeypatch.context() as patched:
        patched.setattr("cardgen.pictures.store.decode", no_decoding)
        forked = [ImageStore(pack).prepared(*p) for p in placed]
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "other"))
    assert forked == [ImageStore(pack).prepared(*p) for p in placed]


def test_a_pillow_without_one_of_our_decoders_still_reads_the_others(tmp_path, monkeypatch):
    """validate.images loads only the decoders of the accepted formats; when one is missing
    from Pillow it loads every decoder Pillow has (as Image.open would) and reads the rest."""
    import importlib

    from cardgen.validate import images as checks
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    real_import, real_init = importlib.import_module, checks.Image.init
    loaded = []

    def without_webp(name, *args):
        if name == "PIL.WebPImagePlugin":
            raise ImportError("built without WebP")
        return real_import(name, *args)
    monkeypatch.setattr(checks.importlib, "import_module", without_webp)
    monkeypatch.setattr(checks.Image, "init", lambda: loaded.append("all") or real_init())
    checks._load_decoders.cache_clear()
    (tmp_path / "images").mkdir()
    photo(tmp_path / "images" / "a.jpg", (300, 400))
    try:
        assert checks.picture_size(tmp_path, "images/a.jpg") == (300, 400)
    finally:
        checks._load_decoders.cache_clear()
    assert loaded[:1] == ["all"]
