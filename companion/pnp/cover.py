"""The pages around the cards: a cover that opens every print-and-play file (the game, what is in the box and what
else you need, where the codes lead, the ruler and the duplex crosses) and the rules booklet that ends it, made
from the same rules sections as the phone pages."""
from __future__ import annotations

from xml.sax.saxutils import escape

from reportlab.lib.colors import HexColor, white

from .. import __version__, network, rulebook
from ..cards import CardSet
from ..core.i18n import N_, _
from . import draw
from .geometry import MM

DUPLEX_HELP = N_("Duplex: flip on the long edge. Hold this sheet to the light, this side towards you: the crosses on "
                 "the back must sit on the front ones (the ticks beside them are millimetres). If not, rebuild with "
                 "--offset-x/--offset-y: seen from this side, --offset-x 1 moves the backs 1 mm left and "
                 "--offset-y 1 moves them 1 mm up.")
BLANK_SIDES_HELP = N_("Sheets of pieces without backs (tiles, tokens) are followed by a blank page, so no other sheet "
                      "prints behind them.")
GUTTERFOLD_HELP = N_("Gutterfold: cut each strip, fold it on the centre line and glue; then cut out the cards.")
NO_CODES_HELP = N_("This print has no codes (--qr none): the rules are at the end of this file.")
CODES_HELP = N_("Scan a card's code with a phone to open its rules. The codes open %(base)s.")
CROSSES = ((20, 20), (190, 20), (105, 60))  # mm from the bottom-left, on the front of the cover
LEFT, GAP = 18 * MM, 8 * MM
BOOKLET_SIZE = 9.5  # points: the rules stay readable in print (9 or more)


def crosses(c, w: float, h: float, mirrored: bool, offset: tuple[float, float] = (0.0, 0.0)) -> None:
    """Registration crosses: on the back they are mirrored and moved by the duplex offset like every back, so a
    well-aligned duplex print puts them on top of the front ones. The front ones carry a millimetre scale on both
    arms, to read how far off the back ones land."""
    c.saveState()
    c.setLineWidth(0.3)
    for x, y in CROSSES:
        cx = (w - x * MM + offset[0] * MM) if mirrored else x * MM
        cy = (y + offset[1]) * MM if mirrored else y * MM
        c.line(cx - 6 * MM, cy, cx + 6 * MM, cy)
        c.line(cx, cy - 6 * MM, cx, cy + 6 * MM)
        c.circle(cx, cy, 2 * MM, stroke=1, fill=0)
        if mirrored:
            continue
        c.setLineWidth(0.2)
        for i in range(-6, 7):  # millimetre ticks above the horizontal arm and right of the vertical one
            if i == 0:
                continue
            tick = (2.0 if i % 5 == 0 else 1.2) * MM
            c.line(cx + i * MM, cy, cx + i * MM, cy + tick)
            c.line(cx, cy + i * MM, cx + tick, cy + i * MM)
        c.setFont(draw.FONT, 5)
        c.drawString(cx + 6.6 * MM, cy - 0.6 * MM, "mm")
        c.setLineWidth(0.3)
    c.restoreState()


def _heading(c, text: str, x: float, y: float, accent) -> float:
    c.setFillColor(accent)
    c.setFont(draw.BOLD, 12)
    c.drawString(x, y, text)
    c.setFillColor(draw.INK)
    return y - 6 * MM


def cover(c, card_set: CardSet, settings, page: tuple[float, float], count: int, first_code: str) -> None:
    """The first page: what the game is and holds, how to print it, and where its codes lead."""
    lang = settings.lang
    w, h = page
    accent = HexColor(card_set.look.accent)
    c.setFillColor(accent)
    c.rect(0, h - 36 * MM, w, 36 * MM, stroke=0, fill=1)
    c.setFillColor(white)
    c.setFont(draw.BOLD, 24)
    c.drawString(LEFT, h - 19 * MM, card_set.title.get(lang))
    c.setFont(draw.FONT, 11)
    low, high = card_set.players
    players = _("%(a)s–%(b)s players", lang, a=low, b=high) if low != high else _("%(n)s players", lang, n=low)
    c.drawString(LEFT, h - 28 * MM, f"{players} · companion {__version__} · print-and-play")
    c.setFillColor(draw.INK)
    c.setFont(draw.BOLD, 13)
    c.drawString(LEFT, h - 46 * MM, _("Print at 100 % (no “fit to page”)", lang))
    _ruler(c, LEFT, h - 62 * MM, lang)

    col_w = (w - 2 * LEFT - GAP) / 2
    top = h - 78 * MM
    # Left column: what is in the box, and what else you need.
    y = _heading(c, _("In the box", lang), LEFT, top, accent)
    for group in rulebook.inventory(card_set, lang):
        if len(card_set.sets) > 1:
            c.setFont(draw.BOLD, 9)
            c.drawString(LEFT, y, f"{group['set']} ({group['total']})")
            y -= 4.6 * MM
        for name, qty in group["items"]:
            c.setFont(draw.FONT, draw.fit_line(c, f"{qty} × {name}", draw.FONT, 9, col_w))
            c.drawString(LEFT, y, f"{qty} × {name}")
            y -= 4.2 * MM
    y -= 2 * MM
    if card_set.needs:
        y = _heading(c, _("You also need", lang), LEFT, y, accent)
        for need in card_set.needs:
            y -= draw.fit_text(c, f"• {need.get(lang)}", col_w, 20 * MM, y + 3 * MM, LEFT, 9, min_size=8) + 1.5 * MM
    # Right column: where the codes lead, then the settings of this print.
    x = LEFT + col_w + GAP
    y = _heading(c, _("The codes on the cards", lang), x, top, accent)
    codes = settings.qr != "none"
    help_codes = _(CODES_HELP, lang, base=settings.base_url) if codes else _(NO_CODES_HELP, lang)
    y -= draw.fit_text(c, help_codes, col_w, 20 * MM, y + 3 * MM, x, 9.5) + 2 * MM
    warning = network.code_warning(settings.base_url) if codes else None
    if warning:
        box = draw.fit_text(c, _(warning, lang, base=settings.base_url), col_w - 4 * MM, 40 * MM, y + 1 * MM,
                            x + 2 * MM, 9, min_size=8)
        c.setStrokeColor(accent)
        c.setLineWidth(1.2)
        c.line(x, y + 2 * MM, x, y + 1 * MM - box)
        y -= box + 4 * MM
    y = _heading(c, _("Settings", lang), x, y - 2 * MM, accent)
    rows = [
        (_("Paper", lang), settings.paper.upper()),
        (_("Bleed", lang), f"{settings.bleed:g} mm"),
        (_("Card size", lang), settings.card_size or card_set.card_size),
        (_("Layout", lang), settings.layout),
        (_("Back offset", lang), f"x {settings.offset[0]:+g} mm · y {settings.offset[1]:+g} mm"),
        (_("Ink", lang), "--ink low" if settings.ink == "low" else "normal"),
        (_("Components", lang), str(count)),
        ("QR", first_code if codes else "--qr none"),
    ]
    for label, value in rows:
        c.setFont(draw.FONT, draw.fit_line(c, label, draw.FONT, 9, 36 * MM))
        c.drawString(x, y, label)
        c.setFont(draw.FONT, draw.fit_line(c, value, draw.FONT, 9, col_w - 38 * MM))
        c.drawString(x + 38 * MM, y, value)
        y -= 4.6 * MM
    help_text = _(GUTTERFOLD_HELP, lang) if settings.layout == "gutterfold" else _(DUPLEX_HELP, lang)
    if settings.layout != "gutterfold" and settings.backs and any(x.kind != "back" and not x.back
                                                                   for x in card_set.components):
        help_text += " " + _(BLANK_SIDES_HELP, lang)
    y -= draw.fit_text(c, help_text, col_w, 40 * MM, y + 1 * MM, x, 9, min_size=8) + 3 * MM
    for note in card_set.notes:  # one under the other, below the settings
        y -= draw.fit_text(c, note.get(lang), col_w, 26 * MM, y, x, 8.5, min_size=7) + 2 * MM
    crosses(c, w, h, mirrored=False)


def _ruler(c, x0: float, y0: float, lang: str) -> None:
    """The 100 mm ruler, with a tick each millimetre."""
    c.setLineWidth(0.4)
    c.rect(x0, y0, 100 * MM, 8 * MM, stroke=1, fill=0)
    for i in range(101):
        tick = 6 if i % 10 == 0 else (4 if i % 5 == 0 else 2.5)
        c.line(x0 + i * MM, y0, x0 + i * MM, y0 + tick * MM)
        if i % 10 == 0:
            c.setFont(draw.FONT, 6)
            c.drawCentredString(x0 + i * MM, y0 - 3 * MM, str(i))
    c.setFont(draw.FONT, 9)
    c.drawString(x0 + 104 * MM, y0 + 2.5 * MM, _("This ruler must measure 100 mm", lang))


def _styles(accent) -> dict:
    """The booklet's paragraph styles (platypus is imported for the booklet only: a game without rules needs none)."""
    from reportlab.lib.styles import ParagraphStyle

    body = ParagraphStyle("body", fontName=draw.FONT, fontSize=BOOKLET_SIZE, leading=BOOKLET_SIZE * 1.3,
                          textColor=draw.INK, spaceAfter=3)
    return {
        "body": body,
        "item": ParagraphStyle("item", parent=body, leftIndent=9, bulletIndent=1, spaceAfter=1.5,
                               bulletFontName=draw.FONT, bulletFontSize=BOOKLET_SIZE),
        "reading": ParagraphStyle("reading", parent=body, fontName=draw.ITALIC, leftIndent=6,
                                  borderPadding=(2, 0, 2, 4), borderColor=HexColor("#c99a2e"), borderWidth=0,
                                  spaceBefore=2, spaceAfter=5),
        "h2": ParagraphStyle("h2", parent=body, fontName=draw.BOLD, fontSize=12, leading=15, textColor=accent,
                             spaceBefore=6, spaceAfter=3, keepWithNext=1),
        "h1": ParagraphStyle("h1", parent=body, fontName=draw.BOLD, fontSize=18, leading=22, textColor=accent,
                             spaceAfter=6),
    }


def booklet_story(card_set: CardSet, lang: str) -> list:
    """The rules as flowables: the title, the inventory, then every section, its lists and its readings."""
    from reportlab.platypus import Paragraph, Spacer

    st = _styles(HexColor(card_set.look.accent))
    story = [Paragraph(escape(f"{card_set.title.get(lang)} · {_('Rules', lang)}"), st["h1"]),
             Paragraph(escape(_("Components", lang)), st["h2"])]
    for group in rulebook.inventory(card_set, lang):
        if len(card_set.sets) > 1:
            story.append(Paragraph(f"<b>{escape(group['set'])}</b>", st["body"]))
        story += [Paragraph(escape(f"{qty} × {name}"), st["item"], bulletText="•") for name, qty in group["items"]]
    for section in card_set.rules:
        story.append(Paragraph(escape(section["title"].get(lang)), st["h2"]))
        for kind, body in rulebook.blocks(section["text"].get(lang)):
            if kind == "ul":
                story += [Paragraph(escape(item), st["item"], bulletText="•") for item in body]
            else:
                story.append(Paragraph(escape(body), st["body"]))
        if "reading" in section:
            story.append(Paragraph(f"<b>{escape(_('Our reading', lang))}</b> {escape(section['reading'].get(lang))}",
                                   st["reading"]))
        story.append(Spacer(1, 2))
    return story


def booklet_pages(c, card_set: CardSet, lang: str, page: tuple[float, float], finish) -> None:
    """Lay the rules out in two columns a page until they are all placed; `finish()` ends each page."""
    from reportlab.platypus import Frame

    w, h = page
    story = booklet_story(card_set, lang)
    margin, top, bottom = 15 * MM, 15 * MM, 15 * MM
    col_w = (w - 2 * margin - 6 * MM) / 2
    number = 1
    while story:
        placed = 0
        for col in range(2):
            frame = Frame(margin + col * (col_w + 6 * MM), bottom, col_w, h - top - bottom, 0, 0, 0, 0,
                          showBoundary=0)
            placed += _fill(frame, story, c)
        if not placed:  # nothing of it fitted a whole page: stop rather than loop
            raise ValueError("a rules paragraph is taller than a page")
        c.setFont(draw.FONT, 9)
        c.setFillColor(draw.INK)
        c.drawCentredString(w / 2, 8 * MM, f"{card_set.title.get(lang)} · {_('Rules', lang)} · {number}")
        number += 1
        finish()


def _fill(frame, story: list, c) -> int:
    """Place flowables from the front of `story` in `frame` until it is full; how many were placed. A paragraph
    taller than what an empty column holds is split by its lines: its first part placed, the rest left at the front
    of the story (a paragraph that fits a column is never split: it starts the next one)."""
    placed = 0
    while story:
        at_top = frame._atTop
        if frame.add(story[0], c, trySplit=0):
            del story[0]
        else:
            parts = frame.split(story[0], c) if at_top else []
            if len(parts) < 2 or not frame.add(parts[0], c, trySplit=0):
                return placed  # the column is full (or not one line of the paragraph fits it)
            story[0:1] = parts[1:]
        placed += 1
    return placed
