"""The project's font, Noto Serif: its names and files, and registering it with reportlab (the lowest piece of the
print: the faces, the art and the icons all write in it)."""
from __future__ import annotations

from pathlib import Path

FONT, BOLD, ITALIC = "NotoSerif", "NotoSerif-Bold", "NotoSerif-Italic"
FONT_DIR = Path(__file__).resolve().parent / "fonts"  # Noto Serif, OFL 1.1 (fonts/OFL.txt), inside the wheel
FONT_FILES = {FONT: "NotoSerif-Regular.ttf", BOLD: "NotoSerif-Bold.ttf", ITALIC: "NotoSerif-Italic.ttf"}


def register_fonts() -> None:
    """Noto Serif, chosen for cards: a sturdy serif with a large x-height and lining figures that stays readable
    at 6-8 pt off a home printer, in regular, bold and italic. Its TTFs ship in the package (companion/pnp/fonts,
    OFL 1.1) and are embedded, subset, in every PDF: never a system font."""
    from reportlab.pdfbase import pdfmetrics  # (reportlab only where a face is drawn)
    from reportlab.pdfbase.ttfonts import TTFont

    for name, file in FONT_FILES.items():
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / file)))
    pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=BOLD, italic=ITALIC, boldItalic=BOLD)
