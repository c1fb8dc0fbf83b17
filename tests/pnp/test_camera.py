"""Every printed code scans: each card of every game, printed at 150 DPI and seen by a simulated phone at arm's
length in a dim room (tests/camera.py), decodes back to its own address at least 99 % of the time."""
import random

import pytest

from camera import as_a_phone_sees_it, decode_rate, decodes, printed_cards
from companion import library
from companion.pnp.document import BuildSettings
from helpers.games import GAME_IDS

LAN = "http://192.168.1.20:5000"


@pytest.mark.slow  # every code of every game through the simulated camera; the control below stays in the fast lane
def test_at_least_99_percent_of_all_codes_decode_through_the_phone_camera():
    ok = tried = 0
    failed = []
    for game in GAME_IDS:
        decoded, n, missed = decode_rate(library.load_game(game), BuildSettings(base_url=LAN))
        ok, tried, failed = ok + decoded, tried + n, failed + missed
    assert tried >= 100
    assert ok / tried >= 0.99, f"{ok}/{tried} decoded; failed: {failed}"


def test_the_simulation_can_fail():
    """The same camera sees a code with 0.35 mm modules (smaller than ours) and mostly fails: it is not a pass."""
    from companion.pnp import draw

    old = draw.QR_MODULE_MM
    draw.QR_MODULE_MM = 0.35
    draw.qr_runs.cache_clear()
    try:
        rng = random.Random("small")
        seen = [decodes(as_a_phone_sees_it(image, rng), url)
                for _, url, image in printed_cards(library.load_game("gemas"), BuildSettings(base_url=LAN))]
    finally:
        draw.QR_MODULE_MM = old
        draw.qr_runs.cache_clear()
    assert sum(seen) / len(seen) < 0.5
