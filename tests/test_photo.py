"""The cards in a photo of the table (issue 28): companion.photo reads phones' pictures safely and finds every code,
on simulated photos of printed cards (tests/table.py; the figures at 12 MP are benchmarks/bench_scan.py's)."""
import io
import math
import random
from pathlib import Path

import pytest
from PIL import Image

import table
from companion import cards, library, photo
from companion.core.schema import InputError
from helpers.games import GAMES_ONE_FAST
from table import png_claiming, small_photo

HAND = ("DQ03", "DQ07", "DQ11", "DQ15", "DQ22")


@pytest.fixture(scope="module")
def hand():
    return small_photo("duquesa", HAND)


@pytest.fixture(scope="module")
def hand_png(hand):
    return reencoded(hand[0], "PNG", compress_level=1)


def ids(found: photo.Found) -> list[str]:
    return sorted(photo.card_id(code.text, "duquesa") for code in found.codes)


def near(found: photo.Found, laid, most: float = 6) -> bool:
    """Every code found where a card's code was laid, within `most` px, and one code for each card."""
    centres = [code.centre for code in found.codes]
    return len(centres) == len(laid) and all(min(math.dist(c, card.code_centre) for c in centres) <= most
                                             for card in laid)


def reencoded(data: bytes, fmt: str, **options) -> bytes:
    out = io.BytesIO()
    Image.open(io.BytesIO(data)).save(out, fmt, **options)
    return out.getvalue()


def test_a_photo_of_five_cards_gives_those_five(hand):
    data, laid = hand
    found = photo.find_codes(data)
    assert ids(found) == sorted(HAND)
    assert found.size == (2000, 1500)
    assert near(found, laid)
    first = found.codes[0].corners
    assert len(first) == 4 and all(0 <= x < 2000 and 0 <= y < 1500 for x, y in first)


@pytest.mark.parametrize("orientation, turn", [(6, Image.Transpose.ROTATE_90), (8, Image.Transpose.ROTATE_270),
                                               (3, Image.Transpose.ROTATE_180)])
def test_the_exif_orientation_is_honoured(hand, orientation, turn):
    """A phone stores the sensor's pixels and says in EXIF how to turn them: the codes' corners are given in the
    photo as it is seen, turned."""
    data, laid = hand
    stored = Image.open(io.BytesIO(data)).transpose(turn)  # as a phone held another way stores it
    exif = Image.Exif()
    exif[0x0112] = orientation
    out = io.BytesIO()
    stored.save(out, "JPEG", quality=90, exif=exif)
    found = photo.find_codes(out.getvalue())
    assert found.size == (2000, 1500)
    assert ids(found) == sorted(HAND) and near(found, laid)


@pytest.mark.slow  # about 1 s on a quiet machine: the fast lane keeps under 90 s (make test runs it)
def test_png_and_webp(hand, hand_png):
    data, laid = hand
    for sent in (hand_png, reencoded(data, "WEBP", quality=90, method=0)):
        found = photo.find_codes(sent)
        assert ids(found) == sorted(HAND) and near(found, laid)


@pytest.mark.slow  # about 1 s on a quiet machine: the fast lane keeps under 90 s (make test runs it)
def test_two_copies_of_a_card_are_two_codes_told_apart_by_position():
    data, laid = small_photo(("duquesa", "queens-necklace"), ("DQ07", "QN-D3", "DQ07", "DQ12", "QN-E2"))
    found = photo.find_codes(data)
    assert sorted(code.text.rsplit("/", 1)[1] for code in found.codes) == ["DQ07", "DQ07", "DQ12", "QN-D3", "QN-E2"]
    assert near(found, laid)


def test_a_larger_photo_is_searched_smaller_and_answered_in_its_own_pixels(hand, hand_png, monkeypatch):
    data, laid = hand
    monkeypatch.setattr(photo, "SEARCHED_PIXELS", 2_000_000)  # 3 MP: searched at 0.82 of its size
    found = photo.find_codes(hand_png)
    assert found.searched == (1633, 1225)
    assert found.size == (2000, 1500) and ids(found) == sorted(HAND) and near(found, laid, most=8)
    monkeypatch.setattr(photo, "SEARCHED_PIXELS", 700_000)  # a JPEG is decoded at 1/2 at once (its draft mode)
    assert photo.open_photo(data).size == (1000, 750)
    assert photo.find_codes(data).size == (2000, 1500)


def problem_of(data: bytes) -> str:
    with pytest.raises(InputError) as e:
        photo.open_photo(data)
    assert e.value.field == "photo"
    return str(e.value)


def test_what_is_not_a_photo_is_refused_naming_the_problem(hand):
    data, _ = hand
    gif = io.BytesIO()
    Image.new("RGB", (40, 30), "white").save(gif, "GIF")
    assert "send a JPEG, PNG or WebP" in problem_of(b"hello, these are my cards\n")
    assert "send a JPEG, PNG or WebP" in problem_of(gif.getvalue())
    assert "cut short or damaged" in problem_of(data[: len(data) // 2])
    assert "is empty" in problem_of(b"")
    assert "larger than 20 MiB" in problem_of(b"\xff\xd8" + bytes(photo.MAX_BYTES))
    heic = b"\0\0\0\x18ftypheic\0\0\0\0mif1heic" + bytes(2000)  # an iPhone's HEIC file begins so
    assert "is a HEIC or AVIF photo" in problem_of(heic) and "Most Compatible" in problem_of(heic)


@pytest.mark.filterwarnings("ignore::PIL.Image.DecompressionBombWarning")  # Pillow's, at 89 MP
def test_too_many_pixels_are_refused_before_decoding():
    """A small file that would decode to a huge picture (a decompression bomb) is refused from its header."""
    assert "54 megapixels (9000 × 6000); the most is 50" in problem_of(png_claiming(9000, 6000))
    assert "95 megapixels" in problem_of(png_claiming(10000, 9500))  # past Pillow's warning
    assert "has more than 50 megapixels" in problem_of(png_claiming(14000, 13000))  # past Pillow's own refusal
    assert "cut short or damaged" in problem_of(png_claiming(2000, 1500))  # the header says more than the file holds


@pytest.mark.parametrize("text, game, expected", [
    ("HTTP://192.168.1.20:5000/C/DQ07", "duquesa", "DQ07"),
    ("https://you.github.io/deck/C/DQ07", "duquesa", "DQ07"),  # printed for a static site: any base
    ("HTTP://192.168.1.20:5000/C/DUQUESA/DQ07", "duquesa", "DQ07"),  # the codes printed before short codes
    ("http://127.0.0.1:5000/c/duquesa/dq07", "duquesa", "DQ07"),
    ("http://127.0.0.1:5000/c/nobles/NB-AH", "duquesa", None),
    ("HTTP://192.168.1.20:5000/C/QN-D3", "duquesa", "QN-D3"),  # the caller checks the game's cards
    ("WIFI:S:home;T:WPA;P:secret;;", "duquesa", None),
    ("javascript:alert(1)//C/DQ07", "duquesa", None),
    ("http://[bad/C/DQ07", "duquesa", None),
])
def test_the_card_a_code_names(text, game, expected):
    assert photo.card_id(text, game) == expected


@pytest.mark.filterwarnings("ignore::UserWarning")  # Pillow's words on the damaged EXIF
def test_a_damaged_photo_is_refused_by_name_whatever_its_damage():
    """Bytes of small photos changed, cut and inserted at random (the EXIF too): each is read or refused with a
    message, never another error (Pillow raised struct.error from a damaged EXIF before it was caught)."""
    rng = random.Random(28)
    exif = Image.Exif()
    exif[0x0112], exif[0x010F] = 6, "phone"
    sound = []
    for fmt in ("JPEG", "PNG", "WEBP"):
        out = io.BytesIO()
        Image.new("RGB", (60, 40), "white").save(out, fmt, exif=exif.tobytes())
        sound.append(out.getvalue())
    refused = 0
    for _ in range(600):
        data = bytearray(rng.choice(sound))
        for _ in range(rng.randint(1, 6)):
            k = rng.randrange(len(data))
            if rng.random() < 0.6:
                data[k] = rng.randrange(256)
            elif rng.random() < 0.5:
                del data[k:k + rng.randint(1, 20)]
            else:
                data[k:k] = rng.randbytes(rng.randint(1, 8))
        try:
            assert photo.find_codes(bytes(data), budget=0).codes == []
        except InputError as e:
            assert e.field == "photo"
            refused += 1
    assert refused > 300


def test_an_exif_that_pillow_cannot_write_back_still_turns_the_photo():
    """A tag of numbers holding text (a phone's maker name under tag 290): exif_transpose fails writing the EXIF
    back (struct.error); the photo is still turned by its orientation tag."""
    exif = Image.Exif()
    exif[0x0112], exif[0x010F] = 6, "phone"
    out = io.BytesIO()
    Image.new("RGB", (60, 40), "white").save(out, "JPEG", exif=exif.tobytes())
    data = out.getvalue()  # tag 271 (text) becomes 290, in either byte order
    data = data.replace(b"\x01\x0f\x00\x02", b"\x01\x22\x00\x02", 1)
    data = data.replace(b"\x0f\x01\x02\x00", b"\x22\x01\x02\x00", 1)
    assert data != out.getvalue()
    assert photo.find_codes(data, budget=0).size == (40, 60)


@pytest.mark.parametrize("game", GAMES_ONE_FAST)  # the fast lane: one game
def test_cards_laid_over_each_other_in_a_row_show_their_codes(game):
    """The print helps the camera: every game's cards carry their code at the left edge, so a row of 5 cards laid
    each over the one before, 29-33 mm of each left showing (of 63.5), is read whole (codes in a card's lower right,
    as Duquesa and Duplicon printed them before, were all covered: benchmarks/bench_print_codes.py)."""
    card_set = library.load_game(game)
    rng = random.Random(f"overlap-{game}")
    ids = rng.sample(sorted(c.id for c in card_set.components if c.kind == "card"), 5)
    data, laid = table.table_photo(game, ids, rng, size=(2000, 1500), sigma=0.8, fill=0.85, tilt=25, dpi=200,
                                   overlap=(29, 33), turned=0)
    assert sum(card.covered for card in laid) == 4
    found = [photo.card_id(code.text, game) for code in photo.find_codes(data).codes]
    assert sorted(found) == sorted(ids)


@pytest.mark.slow  # about 1 s on a quiet machine: the fast lane keeps under 90 s (make test runs it)
def test_the_default_layouts_put_the_code_where_a_row_laid_over_leaves_it():
    """A designer's game without layouts (docs/example-game/huerto.yaml) prints from ours: the same row is read."""
    card_set, problems = cards.check_file(Path(__file__).parents[1] / "docs" / "example-game" / "huerto.yaml")
    assert card_set is not None, problems
    ids = sorted(c.id for c in card_set.components if c.kind == "card")[:5]
    faces = table.faces(card_set, dpi=200, only=tuple(ids))
    data, laid = table.table_photo(card_set.game, ids, random.Random("overlap-huerto"), size=(2000, 1500),
                                   sigma=0.8, fill=0.85, tilt=25, dpi=200, overlap=(29, 33), turned=0, drawn=faces)
    assert len(ids) == 5 and sum(card.covered for card in laid) == 4
    assert sorted(code.text.rsplit("/", 1)[-1] for code in photo.find_codes(data).codes) == ids
