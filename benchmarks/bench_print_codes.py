"""Where the printed code goes, how large its modules are and which error correction it uses, measured on photos
of the table (issue 28's print part): simulated 12 MP photos of printed cards (tests/table.py) read as
`POST /api/v1/<game>/scan` reads them (companion.photo.find_codes).

1. Place. A row of 5 Duquesa cards, each laid over the one before with a strip of it left showing (20-24, 25-29
   and 30-34 mm of the 63.5 mm card), 30 % of them upside down, blur sigma 1.0: the code in the lower right (where
   Duquesa printed it before), lower left (where it is now), upper left, and lower left with a second code turned
   in the upper right (`corners: 2`).
   Cards found among the covered ones, upright and upside down, and among the top ones; "extra": a card named more
   often than it lies there (a card whose two codes both show).
2. Module size. Duquesa's cards in flat rows with the code's module at 0.55, 0.7 and 0.85 mm (its box grown to
   hold it), where photos start to fail: 10 in a row at sigma 1.5, 5 at sigma 2.5.
3. Error correction. Queen's Necklace's cards (the longest addresses) with the code in its printed box at levels L,
   M, Q and H (a level that needs a larger version has smaller modules in the same box), and as printed: the
   version level M needs, at the highest level that version holds for each address. Blurred photos, and sharp
   ones with a lamp's reflection on each code (a soft white spot 0.35 or 0.5 of the code's side across).

Run: nice -n 10 .venv/bin/python benchmarks/bench_print_codes.py [--photos K] [--part 1,2,3]"""
from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import qrcode  # noqa: E402

import table  # noqa: E402
from companion import library, photo  # noqa: E402
from companion.pnp import draw  # noqa: E402
from companion.pnp.document import BuildSettings, qr_version  # noqa: E402

DUQUESA = tuple(f"DQ{n:02}" for n in range(1, 13))
SIDE = 23.1  # Duquesa's code box (mm): its quiet zone included
PLACES = {  # (code's left, top) in mm on the 63.5 x 88.9 mm card, and whether a second code is turned opposite
    "lower right": (36.8, 58.75, False),  # where Duquesa's, Duplicon's and the default layouts' were
    "lower left": (3.6, 58.75, False),
    "upper left": (3.6, 4.35, False),
    "lower left + upper right": (3.6, 58.75, True),
}
STRIPS = ((20, 24), (25, 29), (30, 34))
PRINTED_LEVELS = draw.QR_LEVELS
LEVELS = {"L": qrcode.constants.ERROR_CORRECT_L, "M": qrcode.constants.ERROR_CORRECT_M,
          "Q": qrcode.constants.ERROR_CORRECT_Q, "H": qrcode.constants.ERROR_CORRECT_H}


def with_code(card_set, left: float, top: float, side: float = SIDE, twice: bool = False):
    """`card_set` with its layouts' code (and the white panel behind it) moved to (left, top), `side` mm a side;
    drawn a second time turned in the opposite corner when `twice`."""
    def move(e):
        if e.name == "code":
            return dataclasses.replace(e, props={**e.props, "at": [left, top, side, side]} | (
                {"corners": 2} if twice else {}))
        if e.name == "code_panel":
            return dataclasses.replace(e, props={**e.props, "rect": [left, top - 0.75, side, side + 1.5]} | (
                {"corners": 2} if twice else {}))
        return e
    design = card_set.design
    layouts = {name: tuple(move(e) for e in elements) for name, elements in design.layouts.items()}
    return dataclasses.replace(card_set, design=dataclasses.replace(design, layouts=layouts))


def qr_settings(level: int | None = None, module: float | None = None) -> None:
    """Print codes at error correction `level` (None: as printed) and with modules of at most `module` mm from now
    on."""
    draw.QR_LEVEL = LEVELS["M"] if level is None else level
    draw.QR_LEVELS = PRINTED_LEVELS if level is None else ()
    draw.QR_MODULE_MM = 0.7 if module is None else module
    draw._lowest_version.cache_clear()
    draw.qr_runs.cache_clear()


def cell(game: str, faces: dict, rng: random.Random, photos: int, n: int, **laying) -> dict:
    """Photos of n of `faces` laid as `laying` says (table.table_photo's keywords): found, by the cards' state."""
    tally = {k: [0, 0] for k in ("covered upright", "covered upside down", "on top")}
    extra = complete = 0
    cpu = []
    for _ in range(photos):
        ids = rng.sample(sorted(faces), n)
        data, laid = table.table_photo(game, ids, rng, drawn=faces, **laying)
        start = time.process_time()
        names = [x for x in (photo.card_id(c.text, game) for c in photo.find_codes(data).codes) if x]
        cpu.append(time.process_time() - start)
        left = list(names)
        for card in laid:
            key = "on top" if not card.covered else "covered upside down" if card.turned else "covered upright"
            tally[key][1] += 1
            if card.id in left:
                left.remove(card.id)
                tally[key][0] += 1
        extra += len(left)  # named beyond the copies laid (never a card not laid: those would be in `left` too)
        complete += all(card.id in names for card in laid)
    return {"tally": tally, "extra": extra, "complete": complete, "photos": photos, "cpu": max(cpu)}


def share(found: int, total: int) -> str:
    return f"{found:>3}/{total:<3} {100 * found / total:5.1f} %" if total else f"{'-':>15}"


def part_place(photos: int, seed: str) -> None:
    print("\n1. Place: 5 cards, each over the one before, a strip of each left showing; sigma 1.0, 30 % upside down")
    print(f"{'code':26} {'strip mm':>8}  {'covered upright':>15}  {'covered upside dn':>17}  {'on top':>15}  extra")
    base = library.load_game("duquesa")
    qr_settings(LEVELS["M"])
    for place, (left, top, twice) in PLACES.items():
        faces = table.faces(with_code(base, left, top, twice=twice), only=DUQUESA)
        for strip in STRIPS:
            r = cell("duquesa", faces, random.Random(f"{seed}-{strip}"), photos, 5, overlap=strip, per_row=5,
                     fill=0.8, sigma=1.0, turned=0.3)
            t = r["tally"]
            print(f"{place:26} {f'{strip[0]}-{strip[1]}':>8}  {share(*t['covered upright'])}  "
                  f"{share(*t['covered upside down']):>17}  {share(*t['on top'])}  {r['extra']:>5}", flush=True)


def part_module(photos: int, seed: str) -> None:
    print("\n2. Module size: Duquesa's cards in flat rows (version 2: 25 modules and a quiet zone of 4 a side)")
    print(f"{'module mm':>9} {'code mm':>7}  {'10 in a row, sigma 1.5':>22}  {'5, sigma 2.5':>15}")
    base = library.load_game("duquesa")
    for module in (0.55, 0.7, 0.85):
        qr_settings(LEVELS["M"], module)
        side = round(module * (25 + 2 * draw.QR_QUIET), 2)
        faces = table.faces(with_code(base, 59.9 - side, 82.6 - side, side), only=DUQUESA)
        row = cell("duquesa", faces, random.Random(f"{seed}-row"), photos, 10, per_row=10, fill=0.8, sigma=1.5)
        blur = cell("duquesa", faces, random.Random(f"{seed}-blur"), photos, 5, per_row=5, sigma=2.5)
        print(f"{module:>9} {side:>7}  {share(*_all(row)):>22}  {share(*_all(blur))}", flush=True)
    qr_settings()


def part_level(photos: int, seed: str) -> None:
    print("\n3. Error correction: Queen's Necklace's cards, the code in its printed box (25.9 mm), flat rows "
          "(M+: as printed)")
    print(f"{'level':>5} {'version':>7} {'module mm':>9}  {'5, sigma 2.0':>15}  {'5, sigma 2.5':>15}  "
          f"{'10 in a row, sigma 1.5':>15}  {'glare 0.35':>15}  {'glare 0.5':>15}")
    card_set = library.load_game("queens-necklace")
    ids = tuple(sorted(c.id for c in card_set.components if c.kind == "card"))[:12]
    for name, level in (*LEVELS.items(), ("M+", None)):
        qr_settings(level)
        version = qr_version(card_set, BuildSettings(base_url=table.BASE))
        module = min(draw.QR_MODULE_MM, 25.9 / (17 + 4 * version + 2 * draw.QR_QUIET))
        faces = table.faces(card_set, only=ids)
        cells = [cell("queens-necklace", faces, random.Random(f"{seed}-{k}"), photos, n, per_row=n,
                      fill=0.8 if n == 10 else 0.7, sigma=sigma, glare=glare)
                 for k, (n, sigma, glare) in enumerate(((5, 2.0, 0), (5, 2.5, 0), (10, 1.5, 0), (5, 1.0, 0.35),
                                                        (5, 1.0, 0.5)))]
        print(f"{name:>5} {version:>7} {module:9.2f}  " + "  ".join(f"{share(*_all(c)):>15}" for c in cells),
              flush=True)
    qr_settings()


def _all(r: dict) -> tuple[int, int]:
    return sum(v[0] for v in r["tally"].values()), sum(v[1] for v in r["tally"].values())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--photos", type=int, default=8, help="photos per cell")
    ap.add_argument("--part", default="1,2,3")
    ap.add_argument("--seed", default="print")
    args = ap.parse_args(argv)
    parts = {"1": part_place, "2": part_module, "3": part_level}
    for p in args.part.split(","):
        parts[p](args.photos, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
