"""What a printed page holds, measured: where each face sits, its marks, its characters, a face drawn alone."""
from __future__ import annotations

import io

import pypdfium2 as pdfium
import pypdfium2.raw as raw
from reportlab.pdfgen import canvas as rl_canvas

from companion import library
from companion.pnp import draw, faces
from companion.pnp.document import BuildSettings, printed_size, qr_text, qr_version
from companion.pnp.geometry import MM, SIZES


def origins(page):
    """Where each face or back placed on a page (each one form XObject) has its bottom-left corner, bleed included."""
    return [(o.get_matrix().e, o.get_matrix().f) for o in page.get_objects(filter=[raw.FPDF_PAGEOBJ_FORM], max_depth=1)]



def is_booklet(page):
    text = page.get_textpage().get_text_bounded()
    return "· Rules ·" in text or "· Reglas ·" in text



def render_rgb(draw_fn, w, h, bleed, dpi=300):
    """One component drawn alone on a page of its trim plus `bleed` (mm), rendered at `dpi`."""
    import io

    from reportlab.pdfgen import canvas as rl_canvas

    draw.register_fonts()
    buf = io.BytesIO()
    c = rl_canvas.Canvas(buf, pagesize=((w + 2 * bleed) * MM, (h + 2 * bleed) * MM), invariant=1)
    draw_fn(c, bleed * MM, bleed * MM, w * MM, h * MM, bleed * MM)
    c.showPage()
    c.save()
    return pdfium.PdfDocument(buf.getvalue())[0].render(scale=dpi / 72).to_pil().convert("RGB")



LAN = BuildSettings(base_url="http://192.168.1.20:5000", lang="en")



def drawn(game, comp_id, settings=LAN):
    """The component drawn alone on a page of its trim size, as the build prints it (from its layout where its game
    has layouts): (page, width, height) in points."""
    card_set = library.load_game(game)
    comp = card_set.component(comp_id)
    w, h = (v * MM for v in SIZES[printed_size(comp, settings)])
    draw.register_fonts()
    buf = io.BytesIO()
    c = rl_canvas.Canvas(buf, pagesize=(w, h), invariant=1)
    faces.paint_front(c, comp, card_set, settings.lang, 0, 0, w, h, 0, qr_text(card_set, comp, settings),
                      qr_version(card_set, settings))
    c.showPage()
    c.save()
    return pdfium.PdfDocument(buf.getvalue())[0], w, h



def chars(page):
    """Every printed character: (char, font size, left, bottom, right, top)."""
    tp = page.get_textpage()
    out = []
    for i in range(tp.count_chars()):
        ch = tp.get_text_range(i, 1)
        if ch.strip():
            out.append((ch, raw.FPDFText_GetFontSize(tp.raw, i), *tp.get_charbox(i)))
    return out



def components(game, kinds=None):
    return [c for c in library.load_game(game).components if c.kind != "back" and (kinds is None or c.kind in kinds)]



def marks(page):
    """The crop marks as drawn: the page's own path objects (faces and backs are form XObjects)."""
    return [obj.get_bounds() for obj in page.get_objects(filter=[raw.FPDF_PAGEOBJ_PATH], max_depth=1)]



def card_pages(pdf):
    pages = [pdf[i] for i in range(len(pdf))]
    end = next(i for i, p in enumerate(pages) if is_booklet(p))
    return [p for p in pages[2:end] if marks(p)]

