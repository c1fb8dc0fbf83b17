"""A resolved layout sized to one card: boxes in percent made mm, and sizes written for another card (`scale:`)
multiplied by the ratio of the cards' heights."""
from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

from ..components import SIZES
from .schema import MIN_TEXT_PT, QUIET_MIN_PT, QUIET_PT, Element, Percent


def sized(elements: tuple[Element, ...], size_mm: tuple[float, float]) -> tuple[Element, ...]:
    """A layout's elements for a card of `size_mm`: each box given in percent made mm (x and width of the card's
    width, y and height of its height), and an element's sizes written for another card (`scale: poker`: text
    sizes, icons' size and gap, a rect's stroke and radius) multiplied by the ratio of the heights, a text never
    below its least size (MIN_TEXT_PT, a quiet one QUIET_MIN_PT). Elements that depend on no size stay as they are."""
    if not any(e.relative for e in elements):
        return elements
    key = (id(elements), size_mm)
    found = _SIZED.get(key)
    if found is None or found[0] is not elements:
        if len(_SIZED) > 256:
            _SIZED.clear()
        found = _SIZED[key] = (elements, tuple(_sized(e, size_mm) if e.relative else e for e in elements))
    return found[1]


_SIZED: dict[tuple[int, tuple[float, float]], tuple[tuple[Element, ...], tuple[Element, ...]]] = {}
SCALED = ("size", "min_size", "gap", "stroke_width", "radius")  # what `scale:` multiplies


def _sized(e: Element, size_mm: tuple[float, float]) -> Element:
    w, h = size_mm
    props = dict(e.props)
    key = "rect" if e.kind == "rect" else "at"
    props[key] = tuple(float(v) * (w if i % 2 == 0 else h) / 100 if isinstance(v, Percent) else v
                       for i, v in enumerate(props[key]))
    if "scale" in props:
        k = h / SIZES[props["scale"]][1]
        for name in SCALED:
            if name in props:
                props[name] *= k
        quiet = props.get("quiet", False)
        floor = QUIET_MIN_PT if quiet else MIN_TEXT_PT
        if e.kind == "text":
            props["size"] = max(props.get("size", (QUIET_PT if quiet else 8.0) * k), floor)
            if "min_size" in props:
                props["min_size"] = min(max(props["min_size"], floor), props["size"])
        elif e.kind == "icons" and "size" in props:  # its captions' points
            props["size"] = max(props["size"], MIN_TEXT_PT)
    return replace(e, props=MappingProxyType(props))

