"""Putting prepared pictures into a reportlab PDF: one image XObject per picture and document,
made from the prepared stream as it is, and drawn by its name.
"""

from __future__ import annotations

from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFObject, PDFStream

from .encoding import Picture


def embed(canvas, registered: str, x: float, y: float, w: float, h: float) -> None:
    """Place a picture (its XObject, from place_picture) as reportlab's drawImage does, without
    what drawImage costs here: drawImage hashes and keeps the decoded pixels of every picture it
    is given (about 1 MiB per photo) and compresses them again; this embeds the prepared stream
    as it is, once per document, named by the picture's key (so the bytes do not depend on
    paths)."""
    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(w, h)
    canvas._code.append(f"/{registered} Do")
    canvas.restoreState()


def place_picture(canvas, picture: Picture, streams=None) -> str:
    """The picture's XObject in the canvas's document (once) and in its current page's
    resources; returns the name its operators use. `streams()`: the picture with its streams,
    asked for when the document is saved if `picture` is light."""
    doc, name = canvas._doc, f"pic{picture.key[:24]}"
    registered = doc.getXObjectName(name)
    if registered not in doc.idToObject:
        mask = None
        if picture.alpha:
            mask = doc.Reference(_ImageObject(picture, 1, "FlateDecode", lambda p: p.alpha),
                                 doc.getXObjectName(f"{name}a"))
        image = _ImageObject(picture, 3, picture.filter, lambda p: p.data, mask, streams)
        doc.Reference(image, registered)
        doc.addForm(name, image)
    canvas._currentPageHasImages = 1
    canvas._formsinuse.append(name)
    return registered


class _ImageObject(PDFObject):
    """A PDF image XObject made from a prepared stream."""

    def __init__(self, picture: Picture, colours: int, kind: str, stream_of, mask=None,
                 streams=None):
        self.picture, self.colours, self.kind, self.mask = picture, colours, kind, mask
        self.stream_of, self.streams = stream_of, streams  # stream_of(picture): its bytes

    def format(self, document):
        whole = self.streams() if self.picture.light else self.picture  # read now, let go after
        data = self.stream_of(whole)
        stream = PDFStream(content=data)
        d = stream.dictionary
        d["Type"], d["Subtype"] = PDFName("XObject"), PDFName("Image")
        d["Width"], d["Height"] = whole.width, whole.height
        d["BitsPerComponent"] = 8
        d["ColorSpace"] = PDFName("DeviceRGB" if self.colours == 3 else "DeviceGray")
        d["Filter"] = PDFArray([PDFName(self.kind)])
        if self.kind == "FlateDecode":  # PNG row predictors, as encoding.flate wrote them
            d["DecodeParms"] = PDFArray([PDFDictionary({
                "Predictor": 15, "Colors": self.colours, "BitsPerComponent": 8,
                "Columns": whole.width})])  # one per filter, as Filter is an array
        d["Length"] = len(data)
        if self.mask is not None:
            d["SMask"] = self.mask
        return stream.format(document)
