"""A shipped game's round corrected in the calculator on a saved sheet, in Debian's chromium (issue 46, item 5):
a Duplicon sheet of two players, two rounds each opened in the calculator from the sheet (on the sheet's round:
"Round 1", "Round 2") and saved; then round 1's edit page opens the calculator again with that round's counts, on
"Round 1", a count is changed and the correction saved: the sheet's totals are the rules' for the rounds as
corrected, and it still has two rounds."""
from companion.games.duplicon import round_score
from helpers.browser import PHONE, new_phone, new_sheet, settled, shot  # (skips this module without chromium)

NAMES = ["Ana", "Bo"]
ROUNDS = [[(28, 3, 1), (30, 0, 0)], [(40, 0, 0), (20, 2, 1)]]  # each player's (won, in hand, in the zone)
CORRECTED = [[(36, 3, 1), (30, 0, 0)], ROUNDS[1]]  # Ana won 36 in round 1, not 28


def totals(rounds) -> dict[str, int]:
    return {name: sum(round_score(*r[seat]) for r in rounds) for seat, name in enumerate(NAMES)}


def field(page, seat: int, part: str):
    return page.locator(f"input[name='rounds.0.{seat}.{part}:int']")


def test_a_duplicon_round_is_corrected_in_the_calculator_and_the_totals_follow(server, browser):
    base, _port, _proc = server
    context, page, errors = new_phone(browser, PHONE)
    try:
        sheet_url = new_sheet(page, base, "duplicon", NAMES)
        for k, round_ in enumerate(ROUNDS):
            page.get_by_role("button", name="Score it with the calculator").tap()
            page.wait_for_selector("form[data-live]")
            assert page.locator("form[data-live] fieldset legend").all_inner_texts() == [f"Round {k + 1}"]
            for seat, counts in enumerate(round_):
                for part, value in zip(("won", "hand", "zone"), counts, strict=True):
                    field(page, seat, part).fill(str(value))
            field(page, 0, "won").dispatch_event("change")
            settled(page)
            page.wait_for_selector("section.save form button[type=submit]")
            page.locator("section.save button[type=submit]").tap()
            page.wait_for_url(f"{sheet_url}**")
            for name, total in totals(ROUNDS[:k + 1]).items():
                page.wait_for_selector(f'[data-player="{name}"][data-total="{total}"]', timeout=20_000)
        # round 1 corrected: its edit page opens the calculator on round 1 with its counts
        page.locator("a[href$='/entries/1/edit']").first.tap()
        page.get_by_role("button", name="Correct it in the calculator").tap()
        page.wait_for_selector("form[data-live]")
        assert page.locator("form[data-live] fieldset legend").all_inner_texts() == ["Round 1"]
        assert [[field(page, seat, part).input_value() for part in ("won", "hand", "zone")] for seat in (0, 1)] == [
            [str(v) for v in counts] for counts in ROUNDS[0]]
        field(page, 0, "won").fill("36")
        field(page, 0, "won").dispatch_event("change")
        settled(page)
        page.wait_for_selector(f'#result td[data-total="{round_score(*CORRECTED[0][0])}"]')
        shot(page, "duplicon-correction")
        page.get_by_role("button", name="Save the correction of entry 1").tap()
        page.wait_for_url(f"{sheet_url}**")
        fixed = totals(CORRECTED)
        assert fixed != totals(ROUNDS)
        for name, total in fixed.items():
            page.wait_for_selector(f'[data-player="{name}"][data-total="{total}"]', timeout=20_000)
        assert page.locator("a[href$='/entries/3/edit']").count() == 0  # corrected, not added
        assert not errors, errors
    finally:
        context.close()
