"""A round scored with the calculator corrected in it on a sheet kept on the phone (issue 46, item 5), on the static
site in Debian's chromium, no companion server: a Duplicon sheet of two players, two rounds each opened in the
calculator from the sheet (on the sheet's round) and saved; then round 1's "Correct it in the calculator" opens the
calculator on "Round 1" with that round's counts, a count is changed and the correction saved: the entry is edited,
not another added, and the sheet's totals are the rules' for the rounds as corrected."""
import pytest

from companion.games.duplicon import round_score
from helpers.browser import PHONE, settled, shot  # (skips this module without chromium)
from helpers.site import kept_sheets, new_phone_sheet, python_drawn

NAMES = ["Ana", "Bo"]
ROUNDS = [[(28, 3, 1), (30, 0, 0)], [(40, 0, 0), (20, 2, 1)]]  # each player's (won, in hand, in the zone)
CORRECTED = [[(36, 3, 1), (30, 0, 0)], ROUNDS[1]]  # Ana won 36 in round 1, not 28
PARTS = ("won", "hand", "zone")


def totals(rounds) -> dict[str, int]:
    return {name: sum(round_score(*r[seat]) for r in rounds) for seat, name in enumerate(NAMES)}


def field(page, seat: int, part: str):
    return page.locator(f"input[name='rounds.0.{seat}.{part}:int']")


def sheet_shows(page, rounds) -> None:
    python_drawn(page)
    for name, total in totals(rounds).items():
        page.wait_for_selector(f'#totals td[data-player="{name}"][data-total="{total}"]', timeout=20_000)


@pytest.mark.slow  # the session's site with the phones' Python (built once, about 10 s)
def test_a_duplicon_round_on_a_phone_sheet_is_corrected_in_the_calculator(site, chromium):
    base = site[0]
    context = chromium.new_context(**PHONE, locale="en-GB")
    try:
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        new_phone_sheet(page, base, "duplicon", NAMES)
        for k, round_ in enumerate(ROUNDS):
            page.locator("a[data-phone-calculator]").tap()
            page.wait_for_url("**/en/score/duplicon/**")
            python_drawn(page)
            assert page.locator("form[data-live] fieldset legend").all_inner_texts() == [f"Round {k + 1}"]
            for seat, counts in enumerate(round_):
                for part, value in zip(PARTS, counts, strict=True):
                    field(page, seat, part).fill(str(value))
            field(page, 0, "won").dispatch_event("change")
            settled(page)
            page.get_by_role("button", name="Save to the sheet").tap()
            page.wait_for_url("**/en/phone-sheets/?id=*")
            sheet_shows(page, ROUNDS[:k + 1])
        # round 1 corrected: its calculator opens on round 1 with its counts, and saves over it
        page.get_by_role("link", name="Correct it in the calculator 1").tap()
        page.wait_for_url("**/en/score/duplicon/**")
        python_drawn(page)
        assert page.locator("form[data-live] fieldset legend").all_inner_texts() == ["Round 1"]
        assert [[field(page, seat, part).input_value() for part in PARTS] for seat in (0, 1)] == [
            [str(v) for v in counts] for counts in ROUNDS[0]]
        field(page, 0, "won").fill("36")
        field(page, 0, "won").dispatch_event("change")
        settled(page)
        page.wait_for_selector(f'#result td[data-total="{round_score(*CORRECTED[0][0])}"]')
        shot(page, "duplicon-correction-site")
        page.get_by_role("button", name="Save the correction of entry 1").tap()
        page.wait_for_url("**/en/phone-sheets/?id=*")
        assert totals(CORRECTED) != totals(ROUNDS)
        sheet_shows(page, CORRECTED)
        [kept] = kept_sheets(page).values()
        assert [(r["action"], r.get("target")) for r in kept["log"]] == [("add", None), ("add", None), ("edit", 1)]
        assert page.locator("#totals tbody").count() == 2  # corrected, not added
        assert not errors, errors
    finally:
        context.close()
