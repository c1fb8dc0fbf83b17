"""A game's deck for Tabletop Simulator: sheets of card faces (PNG), its back, and a saved object (`<game>.json`, a
`DeckCustom`) that TTS loads from its Saved Objects folder.

The faces are the print's own: `export._card_pages` draws each unique card once into a PDF (trim size, no bleed)
and pdfium rasterises it at TILE_DPI, so a sheet tile is the printed card, code and all (on several cores, worker
processes each draw a share of the faces into the sheets, then encode them: see `_pictures`). What goes in:

* every component but the backs goes in, each `qty` times: the game's cards (kind `card`) in the deck, in data
  order, and each other kind (reference cards, tiles, tokens: `KINDS`) in a deck of its own beside it (one copy
  alone: a card), so that a reference card is never shuffled into the cards dealt;
* unique faces are packed on sheets of at most 10 × 7 tiles, the bottom-right slot of every sheet holding the
  back (what TTS shows for a card hidden in another player's hand; `BackIsHidden` says the same), so at most 69
  faces a sheet. A deck needing several sheets gets them evenly filled, each with the smallest grid that holds its
  faces and the hidden slot (the squarest picture of those);
* cards of another back (or another printed size) go on sheets of their own: TTS gives each sheet one back, so
  each (back, size) is its own run of sheets, and each sheet its own `CustomDeck` entry, numbered from 1;
  `CardID` is that number × 100 + the face's slot.

Files, in the output folder: `<game>.json`, `<game>-sheet-<n>.png` (n is the CustomDeck number), `<game>-back.png`
(and `<game>-back-2.png`… for further backs). The folder is written over as `core.files` does it, with a record
per game (`.companion-tts-<game>`), so a re-export replaces and removes only what the last export of that game
wrote, several games can share one folder (TTS's Saved Objects folder), and an error leaves it untouched."""
from __future__ import annotations

import hashlib
import json
import math
import mmap
import multiprocessing
import os
import re
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, urlsplit

import pypdfium2 as pdfium  # (imported here, before the workers fork: they start with them)
from PIL import Image

from .. import __version__, cards, service
from ..cards import CardSet, Component
from ..core.files import Update, all_written_over, folder_problems
from ..core.schema import InputError, Problem
from .document import BuildSettings, cut_radius, printed_size
from .export import _card_pages, corner_mask, page_image
from .geometry import SIZES

RECORD = ".companion-tts-{game}"  # in the output folder: the files the last export of that game wrote there
TILE_DPI = 160  # a poker card is 400 × 560 px: a full sheet of 10 × 7 is 4000 × 3920, under TTS's safe 4096
MAX_COLUMNS, MAX_ROWS = 10, 7
PER_SHEET = MAX_COLUMNS * MAX_ROWS - 1  # the last slot is the hidden face
MAX_WORKERS = 4
SHEETS_AT_ONCE = 4  # sheets whose pixels are held at once: at most 4 × 47 MB, however many cards the deck has
PNG_LEVEL = 1  # zlib level 1: a sheet encodes in a little over half the time of level 6, 17 % larger (1.2 MB)


@dataclass
class Sheet:
    number: int  # its CustomDeck key and file number
    faces: list[Component]
    back: str | None  # the back component's id
    size: str  # the printed size of its cards
    columns: int = 0
    rows: int = 0
    file: str = ""
    back_file: str = ""


@dataclass
class Export:
    """What an export wrote: the saved object, the sheets, the back pictures, and how many cards the deck holds."""

    json: Path
    sheets: list[Path] = field(default_factory=list)
    backs: list[Path] = field(default_factory=list)
    cards: int = 0
    tile: tuple[int, int] = (0, 0)


def tile_pixels(size: str) -> tuple[int, int]:
    """A card's picture size in pixels (width, height) on the deck's sheets: its trim size at TILE_DPI."""
    w, h = SIZES[size]
    return round(w / 25.4 * TILE_DPI), round(h / 25.4 * TILE_DPI)


def grid(faces: int, tile: tuple[int, int]) -> tuple[int, int]:
    """Columns and rows for `faces` faces and the hidden slot: the squarest picture (its longer side shortest), then
    the fewest slots."""
    options = [(c, r) for c in range(1, MAX_COLUMNS + 1) for r in range(1, MAX_ROWS + 1) if c * r >= faces + 1]
    return min(options, key=lambda cr: (max(cr[0] * tile[0], cr[1] * tile[1]), cr[0] * cr[1], -cr[0]))


def image_base_problems(url: str | None) -> list[Problem]:
    """Why an --image-base-url is not an http(s) folder address: [] when it is one, or when none is given."""
    if url is None:
        return []
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        return [Problem(("image-base-url",), f"must be an http(s) address of the folder the images will be uploaded "
                                             f"to, like https://you.github.io/deck/tts, got {url!r}")]
    return []


KINDS = ("card", "reference", "tile", "token")  # what an export takes, each kind its own deck (the cards' first)


def plan_sheets(card_set: CardSet, settings: BuildSettings) -> list[Sheet]:
    """The deck's unique cards on sheets: a run of evenly filled sheets for each (back, size), in data order."""
    groups: dict[tuple[str | None, str], list[Component]] = {}
    for comp in card_set.select(KINDS):
        groups.setdefault((comp.back, printed_size(comp, settings)), []).append(comp)
    sheets: list[Sheet] = []
    back_files: dict[tuple[str | None, str], str] = {}
    for (back, size), faces in groups.items():
        count = math.ceil(len(faces) / PER_SHEET)
        per = math.ceil(len(faces) / count)
        back_file = back_files.setdefault(
            (back, size), f"{card_set.game}-back{'' if not back_files else f'-{len(back_files) + 1}'}.png")
        for start in range(0, len(faces), per):
            sheet = Sheet(len(sheets) + 1, faces[start:start + per], back, size)
            sheet.columns, sheet.rows = grid(len(sheet.faces), tile_pixels(size))
            sheet.file, sheet.back_file = f"{card_set.game}-sheet-{sheet.number}.png", back_file
            sheets.append(sheet)
    return sheets


def export_tts(game: str, out_dir: str | Path, settings: BuildSettings, image_base_url: str | None = None,
               warn: Callable[[str], None] | None = None) -> Export:
    """Write a game's (a known game's id, or a card data file's path) Tabletop Simulator deck into `out_dir`."""
    problems = settings.problems() + image_base_problems(image_base_url)
    if problems:
        raise InputError(problems)
    card_set = cards.load_file(game) if game.endswith((".yaml", ".yml")) else service.card_set(game)
    if settings.game_problems(card_set):
        raise InputError(settings.game_problems(card_set))
    settings = settings.for_game(card_set)
    from .design_check import check_art, check_colours, check_fonts, small_codes

    errors = [*check_art(card_set)[0], *check_fonts(card_set), *check_colours(card_set)]
    if errors:  # named like any card data error, before anything is written
        raise cards.DataError(errors)
    sheets = plan_sheets(card_set, settings)
    if not sheets:
        raise InputError([Problem(("game",), f"{card_set.game} has no components (cards, reference cards, tiles "
                                             f"or tokens) to make a deck of")])
    if warn is not None and settings.qr != "none":  # a long address can shrink a layout's codes (the codes made
        for line in small_codes(card_set, settings.base_url):  # here are kept for the faces drawn next)
            warn(line)
    out = Path(os.path.abspath(out_dir))
    problems = folder_problems(out)
    if problems:
        raise InputError(problems)

    def url(name: str) -> str:
        return f"{image_base_url.rstrip('/')}/{quote(name)}" if image_base_url else (out / name).as_uri()

    update = Update(out, RECORD.format(game=card_set.game), {"game": card_set.game, "companion": __version__})
    with all_written_over([update]) as (staging,):
        _pictures(card_set, settings, sheets, staging)
        saved = saved_object(card_set, settings, sheets, url)
        (staging / f"{card_set.game}.json").write_text(json.dumps(saved, ensure_ascii=False, indent=2) + "\n",
                                                       encoding="utf-8")
    return Export(out / f"{card_set.game}.json", [out / s.file for s in sheets],
                  [out / name for name in dict.fromkeys(s.back_file for s in sheets)],
                  sum(c.qty for s in sheets for c in s.faces), tile_pixels(sheets[0].size))


# --- the pictures ---------------------------------------------------------------------------------------------------


FACES_A_WORKER = 12  # fewer faces than this for each core: drawn in this process, none started


@dataclass
class _Work:
    """What the worker processes share, inherited when they fork (a CardSet does not pickle): each sheet's pixels
    are rows of RGB in anonymous shared memory, so the faces a worker rasterises go straight into their slots and
    another worker encodes the sheet, with no picture sent between processes."""

    card_set: CardSet
    settings: BuildSettings
    sheets: list[Sheet]
    staging: Path
    pixels: list[mmap.mmap]
    places: dict[str, tuple[int, int]]  # face id → (sheet index, slot)


_WORK: _Work | None = None


def _put(work: _Work, k: int, slot: int, size: tuple[int, int], rgb: bytes) -> None:
    """A tile's RGB rows into sheet k's slot."""
    sheet = work.sheets[k]
    w, h = tile_pixels(sheet.size)
    assert size == (w, h)
    stride, row = sheet.columns * w * 3, w * 3
    left, top = (slot % sheet.columns) * row, (slot // sheet.columns) * h
    pixels = work.pixels[k]
    for y in range(h):
        pixels[(top + y) * stride + left:(top + y) * stride + left + row] = rgb[y * row:(y + 1) * row]


def _draw_share(ids: list[str]) -> None:
    """Draw these faces and the backs they use with the print's renderer (`export._card_pages`: a PDF of the trim, a
    card a page), rasterise each at TILE_DPI, and put it in its sheet: a face in its slot, a back in the last slot
    of every sheet of its cards."""
    work = _WORK
    data, plan = _card_pages(work.card_set, work.settings, [work.card_set.component(i) for i in ids], bleed=0)
    pdf = pdfium.PdfDocument(data)
    try:
        for page, (name, w, h) in enumerate(plan):  # the faces, then their backs, each at its printed size
            comp_id = name[:-len(".png")]
            image = page_image(pdf, page, TILE_DPI, (round(w / 25.4 * TILE_DPI), round(h / 25.4 * TILE_DPI)))
            if comp_id in work.places:
                _put(work, *work.places[comp_id], image.size, image.tobytes())
                continue
            for k, sheet in enumerate(work.sheets):  # a back, drawn at the size of the first card it backs here
                if sheet.back == comp_id:
                    tile = tile_pixels(sheet.size)
                    fitted = image if image.size == tile else image.resize(tile, Image.Resampling.LANCZOS)
                    _put(work, k, sheet.columns * sheet.rows - 1, tile, fitted.tobytes())
    finally:
        pdf.close()


def _encode(k: int, back: bool) -> None:
    """Sheet k as a PNG; with `back`, its last slot too, as its back's own file."""
    work = _WORK
    sheet = work.sheets[k]
    w, h = tile_pixels(sheet.size)
    picture = Image.frombuffer("RGB", (sheet.columns * w, sheet.rows * h), work.pixels[k], "raw", "RGB", 0, 1)
    picture = _rounded_tiles(picture, sheet, cut_radius(work.card_set, sheet.faces[0], sheet.size))
    picture.save(work.staging / sheet.file, dpi=(TILE_DPI, TILE_DPI), compress_level=PNG_LEVEL)
    if back:  # (a sheet of cards without a back keeps its white slot: their plain back)
        corner = ((sheet.columns - 1) * w, (sheet.rows - 1) * h, sheet.columns * w, sheet.rows * h)
        picture.crop(corner).save(work.staging / sheet.back_file, dpi=(TILE_DPI, TILE_DPI), compress_level=PNG_LEVEL)


def _rounded_tiles(picture: Image.Image, sheet: Sheet, radius_mm: float) -> Image.Image:
    """A sheet with each tile's corners cut round to the file's `corner_radius` (transparent outside); as it is
    for square corners."""
    if radius_mm <= 0:
        return picture
    w, h = tile_pixels(sheet.size)
    tile = corner_mask((w, h), radius_mm / 25.4 * TILE_DPI)
    mask = Image.new("L", picture.size, 0)
    for row in range(sheet.rows):
        for column in range(sheet.columns):
            mask.paste(tile, (column * w, row * h))
    picture = picture.convert("RGBA")
    picture.putalpha(mask)
    return picture


def _pictures(card_set: CardSet, settings: BuildSettings, sheets: list[Sheet], staging: Path) -> None:
    """Every sheet and back as a PNG in `staging`, SHEETS_AT_ONCE sheets at a time (a full sheet's pixels are
    47 MB: a deck of 5,000 cards has 73 sheets); each sheet's back file is written with the first sheet of it."""
    first = {}
    for k, sheet in enumerate(sheets):
        first.setdefault(sheet.back_file, k)
    for start in range(0, len(sheets), SHEETS_AT_ONCE):
        batch = sheets[start:start + SHEETS_AT_ONCE]
        _batch_pictures(card_set, settings, batch, [first[s.back_file] == start + k for k, s in enumerate(batch)],
                        staging)


def _batch_pictures(card_set: CardSet, settings: BuildSettings, sheets: list[Sheet], backs: list[bool],
                    staging: Path) -> None:
    """These sheets as PNGs (with `backs`, each one's back file too). On several cores, forked worker processes
    draw and rasterise the faces, a contiguous share each, then encode the sheets; a small deck, one core, or a
    system that cannot fork does it all in this process."""
    global _WORK
    places = {c.id: (k, slot) for k, sheet in enumerate(sheets) for slot, c in enumerate(sheet.faces)}
    pixels = []
    for sheet in sheets:
        w, h = tile_pixels(sheet.size)
        pixels.append(mmap.mmap(-1, sheet.columns * w * sheet.rows * h * 3))
        pixels[-1].write(b"\xff" * len(pixels[-1]))  # white: the empty slots, and the back of cards without one
    _WORK = _Work(card_set, settings, sheets, staging, pixels, places)
    ids = list(places)
    encodes = list(enumerate(backs))
    try:
        workers = min(os.cpu_count() or 1, MAX_WORKERS, len(ids) // FACES_A_WORKER)
        if workers <= 1 or "fork" not in multiprocessing.get_all_start_methods():
            _draw_share(ids)
            for k, back in encodes:
                _encode(k, back)
            return
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
            shares = [ids[n * len(ids) // workers:(n + 1) * len(ids) // workers] for n in range(workers)]
            for done in [pool.submit(_draw_share, share) for share in shares]:
                done.result()
            for done in [pool.submit(_encode, k, back) for k, back in encodes]:
                done.result()
    finally:
        _WORK = None
        for memory in pixels:
            memory.close()


# --- the saved object -----------------------------------------------------------------------------------------------

_BOLD = re.compile(r"\*\*(.+?)\*\*", re.DOTALL)
_ITALIC = re.compile(r"(?<!\\)\*(.+?)(?<!\\)\*", re.DOTALL)
_ICON = re.compile(r"\{icon:([^{}]+)\}")  # not across a '{': else each of many `{icon:` never closed read to the end


def description(text: str | None, card_set: CardSet, lang: str) -> str:
    """A card's text for its TTS tooltip: the print's markup in TTS's BBCode (bold, italic), an icon as its word."""
    if not text:
        return ""
    text = _BOLD.sub(r"[b]\1[/b]", text)
    text = _ITALIC.sub(r"[i]\1[/i]", text)
    text = _ICON.sub(lambda m: card_set.label(m.group(1), lang), text)
    return text.replace("\\*", "*")


def _guid(*parts) -> str:
    """A stable six-hex-digit GUID (TTS gives an object a new one if it clashes with one on the table)."""
    return hashlib.sha1(":".join(map(str, parts)).encode()).hexdigest()[:6]


BESIDE = 3.0  # how far apart (TTS units) the decks of each kind lie
KIND_NAMES = {"reference": {"es": "Referencia", "en": "Reference"}, "tile": {"es": "Losetas", "en": "Tiles"},
              "token": {"es": "Fichas", "en": "Tokens"}}  # a deck of another kind's name, after the game's title
TRANSFORM = {"posX": 0.0, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
             "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}  # face down in the middle of the table
GREY = {"r": 0.713235259, "g": 0.713235259, "b": 0.713235259}  # TTS's own tint for a card


def saved_object(card_set: CardSet, settings: BuildSettings, sheets: list[Sheet], url: Callable[[str], str]) -> dict:
    """The whole saved object: a DeckCustom holding every copy of the cards, in data order, and beside it one of each
    other kind the game has (reference cards, tiles, tokens; a lone copy is a card on the table)."""
    lang = settings.lang
    decks = {str(s.number): {"FaceURL": url(s.file), "BackURL": url(s.back_file), "NumWidth": s.columns,
                             "NumHeight": s.rows, "BackIsHidden": True, "UniqueBack": False, "Type": 0}
             for s in sheets}
    card_ids = {c.id: (s.number, s.number * 100 + slot) for s in sheets for slot, c in enumerate(s.faces)}
    title = card_set.title.get(lang)
    objects, count = [], 0
    for kind in KINDS:
        copies = card_set.deck((kind,))
        if not copies:
            continue
        contained, deck_ids = [], []
        for i, comp in enumerate(copies):
            number, card_id = card_ids[comp.id]
            deck_ids.append(card_id)
            contained.append({
                "GUID": _guid(card_set.game, "card" if kind == "card" else kind, i), "Name": "Card",
                "Transform": dict(TRANSFORM), "Nickname": comp.name_in(lang) or comp.id,
                "Description": description(comp.text_in(lang), card_set, lang),
                "GMNotes": comp.id, "ColorDiffuse": dict(GREY), "Locked": False, "Grid": True, "Snap": True,
                "IgnoreFoW": False, "Autoraise": True, "Sticky": True, "Tooltip": True, "GridProjection": False,
                "HideWhenFaceDown": True, "Hands": True, "CardID": card_id, "SidewaysCard": False,
                "CustomDeck": {str(number): decks[str(number)]}, "LuaScript": "", "LuaScriptState": "", "XmlUI": "",
            })
        at = {**TRANSFORM, "posX": TRANSFORM["posX"] + BESIDE * len(objects)}  # side by side on the table
        count += len(copies)
        if len(contained) == 1:
            objects.append({**contained[0], "Transform": at})
            continue
        used = dict.fromkeys(str(n) for n, _ in (card_ids[c.id] for c in copies))
        objects.append({
            "GUID": _guid(card_set.game, "deck") if kind == "card" else _guid(card_set.game, "deck", kind),
            "Name": "DeckCustom", "Transform": at,
            "Nickname": title if kind == "card" else f"{title} · {KIND_NAMES[kind].get(lang, KIND_NAMES[kind]['en'])}",
            "Description": "", "GMNotes": "", "ColorDiffuse": dict(GREY), "Locked": False,
            "Grid": True, "Snap": True, "IgnoreFoW": False, "Autoraise": True, "Sticky": True, "Tooltip": True,
            "GridProjection": False, "HideWhenFaceDown": True, "Hands": False, "SidewaysCard": False,
            "DeckIDs": deck_ids, "CustomDeck": {n: decks[n] for n in used}, "LuaScript": "", "LuaScriptState": "",
            "XmlUI": "", "ContainedObjects": contained,
        })
    return {"SaveName": title, "GameMode": title, "Gravity": 0.5, "PlayArea": 0.5, "Date": "", "Table": "",
            "Sky": "", "Note": f"{title}: {count} components, made by companion {__version__} from "
                                f"{os.path.basename(card_set.path)}", "Rules": "", "XmlUI": "", "LuaScript": "",
            "LuaScriptState": "", "ObjectStates": objects, "TabStates": {}, "VersionNumber": ""}
