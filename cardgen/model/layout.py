"""templates/*.yaml and a pack's layouts.yaml: card and board layouts as named regions in mm."""

from __future__ import annotations

from typing import Annotated, Literal, Optional

from pydantic import Field

from .base import Colour, Model, Pair, PositiveMm


class Region(Model):
    """A box on the card, in mm from the trim's top-left corner (y grows downwards)."""

    type: Literal["rect", "text", "image", "portrait", "stats", "icon", "line"] = "rect"
    x: float
    y: float
    w: Annotated[float, Field(ge=0)]
    h: Annotated[float, Field(ge=0)]
    layer: int = 0
    when: Optional[str] = Field(None, description="Jinja expression; drawn only when true")
    fill: Optional[Colour] = None
    stroke: Optional[Colour] = None
    stroke_width: Annotated[float, Field(ge=0, le=10)] = 0.5
    radius: Annotated[float, Field(ge=0)] = 0
    text: Optional[str] = Field(None, description="Jinja template of the text (type text/icon)")
    image: Optional[str] = Field(None, description="Jinja template of an image path")
    font: Literal["sans", "sans-bold", "sans-italic", "sans-bold-italic", "condensed",
                  "condensed-bold", "condensed-italic", "condensed-bold-italic", "serif",
                  "serif-bold", "serif-italic", "serif-bold-italic"] = "sans"
    size: Annotated[float, Field(gt=0, le=400)] = 9
    min_size: Annotated[float, Field(ge=6, le=400)] = 6
    leading: Annotated[float, Field(ge=0.8, le=3)] = 1.15
    align: Literal["left", "center", "right", "justify"] = "left"
    valign: Literal["top", "middle", "bottom"] = "top"
    colour: Colour = "#000000"
    rotate: Literal[0, 90, 180, 270] = 0
    opacity: Annotated[float, Field(ge=0, le=1)] = 1
    fit: Literal["cover", "contain"] = Field(
        "cover", description="image/portrait: cover fills the box and cuts off what sticks out "
        "(a warning above 30 %); contain shows the whole picture inside the box")
    focus: Optional[Pair(Annotated[float, Field(ge=0, le=1)])] = Field(
        None, description="image/portrait: the point of the picture to keep, [x, y] as shares "
        "of its width and height from its top-left corner (default [0.5, 0.5], the middle)")
    mark_common: bool = Field(False, description="stats: mark categories common to all kinds")
    portrait_style: Literal["any", "medical", "casual"] = Field(
        "any", description="portrait: what the drawn placeholder people wear")
    portrait_gender: Optional[str] = Field(
        None, description="portrait: Jinja giving 'f', 'm' or '' (either) for the drawn person")
    portrait_age: Optional[str] = Field(
        None, description="portrait: Jinja giving the person's age in years, or '' (any)")
    portrait_hair: Optional[str] = Field(
        None, description="portrait: Jinja giving hair words (see a card's `hair`), or ''")
    ink_saver: Literal["keep", "tint", "outline", "ink", "hide"] = Field(
        "keep", description="what the region becomes with --ink-saver: keep; tint (its colours "
        "as light tints); outline (no fill, an outline in the ink colour); ink (every colour the "
        "ink colour: the colour of the face's tinted background); hide")


class Layout(Model):
    extends: Optional[str] = None
    description: str = ""
    size: Optional[Pair(PositiveMm)] = Field(
        None, description="card size [w, h] in mm the regions were drawn for (default: from "
        "`extends`, else the pack's card size); other card sizes scale the regions")
    regions: dict[str, Optional[Region]] = Field(default_factory=dict)


class LayoutFile(Model):
    layouts: dict[str, dict] = Field(description="layout name → layout (validated after extends)")


def _partial(model: type[Model], name: str) -> type[Model]:
    """The same fields, all optional: a region in a layout that `extends` another may give
    only the keys it changes. Used for the editor's JSON Schema."""
    from typing import Optional as Opt

    from pydantic import create_model
    fields = {key: (Opt[info.annotation], Field(None, description=info.description))
              for key, info in model.model_fields.items()}
    return create_model(name, __base__=Model, **fields)


RegionOverride = _partial(Region, "RegionOverride")


class LayoutSchema(Model):
    extends: Optional[str] = None
    description: str = ""
    size: Optional[Pair(PositiveMm)] = None
    regions: dict[str, Optional[RegionOverride]] = Field(default_factory=dict)


class LayoutSchemaFile(Model):
    """What an editor checks layouts.yaml against (the loader checks more, after `extends`)."""

    layouts: dict[str, LayoutSchema]
