"""templates/*.yaml and a pack's layouts.yaml: card and board layouts as named regions in mm."""

from __future__ import annotations

from typing import Annotated, Literal, Optional

from pydantic import Field

from .base import MAX_MM, Colour, Model, Pair, PositiveMm, within


class Region(Model):
    """A box on the card, in mm from the trim's top-left corner (y grows downwards)."""

    type: Literal["rect", "text", "image", "portrait", "stats", "icon", "line"] = "rect"
    x: Annotated[float, within(-MAX_MM, MAX_MM)]
    y: Annotated[float, within(-MAX_MM, MAX_MM)]
    w: Annotated[float, Field(ge=0), within(0, MAX_MM)]
    h: Annotated[float, Field(ge=0), within(0, MAX_MM)]
    layer: Annotated[int, within(-1000, 1000)] = 0
    when: Optional[str] = Field(None, description="Jinja expression; drawn only when true")
    fill: Optional[Colour] = None
    stroke: Optional[Colour] = None
    stroke_width: Annotated[float, Field(ge=0, le=10)] = 0.5
    radius: Annotated[float, Field(ge=0), within(0, MAX_MM)] = 0
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
    fit: Optional[Literal["each", "uniform", "cover", "contain"]] = Field(
        None, description="text: each (the default) sets each card's text at the largest size "
        "that fits it; uniform one size for every card of the layout, the largest at which "
        "every card's text fits (titles and bodies of one kind never jump between sizes). "
        "image/portrait: cover (the default) fills the box and cuts off what sticks out (a "
        "warning above 30 %); contain shows the whole picture inside the box")
    fit_group: Optional[str] = Field(
        None, description="text with fit: uniform: regions of the layout with the same group "
        "share the one size (a title set in one of two places, by the card's kind)")
    focus: Optional[Pair(Annotated[float, Field(ge=0, le=1)])] = Field(
        None, description="image/portrait: the point of the picture to keep, [x, y] as shares "
        "of its width and height from its top-left corner (default [0.5, 0.5], the middle)")
    mark_common: bool = Field(False, description="stats: mark categories common to all kinds")
    overlaps: list[str] = Field(default_factory=list, description="regions this one lies over "
                                "or crosses on purpose (a badge on a medallion's edge); the "
                                "preflight lets these pairs be")
    stripe: Optional[Colour] = Field(None, description="stats: fill of every other row (the "
                                     "eye follows a row from its label to its values)")
    portrait_style: Literal["any", "medical", "casual", "court"] = Field(
        "any", description="portrait: what the drawn placeholder people wear; court: a court "
        "figure of a French deck (portrait_role), in the region's colour")
    portrait_role: Optional[str] = Field(
        None, description="portrait: Jinja giving the court figure's role: king, queen or jack")
    double_ended: bool = Field(False, description="portrait: drawn twice, the lower half the "
                               "upper turned a half turn, as on a court card")
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


def picture_fit(region: Region) -> str:
    """cover or contain: a picture region's fit (`fit` also names the text fits; a picture
    takes cover where it says none of its own)."""
    return region.fit if region.fit in ("cover", "contain") else "cover"
