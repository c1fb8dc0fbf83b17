"""Issue 43, item 5, in Debian's chromium: two phones correct a finished sheet of the served companion (a duplicon
sheet the second round ended: played to 100). Neither loses a value in silence: a correction that leaves the game
over is saved and the sheet stays finished (it was thrown away as "finished on another phone", though only the
first phone's own save had finished it again); two corrections of the same entry show the second phone both values,
and the one it keeps is saved; both are in the history of changes."""
from helpers.browser import new_phone, total  # (and skips this module without chromium)
from helpers.server import Api

PLAYERS = ["Ana", "Bo"]


def edit(page, seq: int, ana: str | None = None, bo: str | None = None) -> None:
    """Open entry `seq`'s edit form from the sheet and type the new points (the form is not sent yet)."""
    page.locator(f"#entry-{seq} a:has-text('Edit')").tap()
    page.wait_for_selector("form input[name=base]", state="attached")
    for i, value in enumerate((ana, bo)):
        if value is not None:
            page.fill(f"input[name='points.{i}']", value)


def save(page) -> None:
    with page.expect_navigation():
        page.locator("main form button[type=submit]:has-text('Save')").tap()


def reopen(page, other) -> None:
    """One phone reopens the finished sheet; the other sees it reopened without a reload (its poll)."""
    page.locator("form.finish button:has-text('Reopen the sheet')").tap()
    page.wait_for_selector("#entry-1 a:has-text('Edit')")
    other.wait_for_selector("#entry-1 a:has-text('Edit')", timeout=15_000)


def test_two_phones_correcting_a_finished_sheet_lose_no_value(server, browser):
    base = server[0]
    api = Api(base)
    sheet = api.call("POST", "/api/v1/sheets", {"game": "duplicon", "players": PLAYERS, "title": "Finals"})[1]
    entries = f"/api/v1/sheets/{sheet['token']}/entries"
    for ana, bo in ((60, 40), (50, 30)):
        assert api.call("POST", entries, {"points": {"Ana": ana, "Bo": bo}})[0] == 201
    assert api.call("GET", f"/api/v1/sheets/{sheet['token']}")[1]["finished"]  # the second round ended the game
    (ctx_a, a, errors_a), (ctx_b, b, errors_b) = new_phone(browser), new_phone(browser)
    try:
        a.goto(sheet["links"]["edit"])
        b.goto(sheet["links"]["edit"])
        assert a.locator("#live p.winner").count() == 1 and a.locator("#entry-1 a:has-text('Edit')").count() == 0

        # Two corrections of two entries: A's save finishes the game again, B's is still saved.
        reopen(a, b)
        edit(a, 2, bo="35")
        edit(b, 1, ana="61")
        save(a)
        save(b)
        assert b.locator("[data-conflict]").count() == 0, b.locator("main").inner_text()
        b.wait_for_selector('[data-player="Ana"][data-total="111"]')
        assert total(b, "Bo") == "75" and b.locator("#live p.winner").count() == 1  # finished, by the rules

        # Two corrections of one entry: B is shown A's value and its own, keeps its own, and it is saved.
        reopen(b, a)
        edit(a, 2, ana="52")
        edit(b, 2, ana="48")
        save(a)
        save(b)
        assert b.locator("[data-conflict]").inner_text() == \
            "This entry was changed on another phone after you opened it."
        assert b.locator("[data-theirs]").inner_text() == "Now: Ana 52 · Bo 35"
        assert b.locator("[data-mine]").inner_text() == "Yours: Ana 48 · Bo 35"
        with b.expect_navigation():
            b.locator("button:has-text('Keep mine')").tap()
        assert b.locator("[data-conflict]").count() == 0, b.locator("main").inner_text()
        b.wait_for_selector('[data-player="Ana"][data-total="109"]')
        a.wait_for_selector('[data-player="Ana"][data-total="109"]', timeout=15_000)  # A sees it by itself
        assert b.locator("#live p.winner").count() == 1

        state = api.call("GET", f"/api/v1/sheets/{sheet['token']}")[1]
        assert state["finished"] and state["totals"] == {"Ana": 109, "Bo": 75}
        log = api.call("GET", f"/api/v1/sheets/{sheet['token']}/log")[1]["log"]
        assert [r["body"]["points"]["Ana"] for r in log if r.get("target") == 2] == [50, 52, 48]  # every value
        b.goto(f"{sheet['links']['edit']}/log")
        history = b.locator("ol.log").inner_text()
        assert "Edited entry 2: Ana 52 · Bo 35" in history and "Edited entry 2: Ana 48 · Bo 35" in history
        assert not errors_a and not errors_b, errors_a + errors_b
    finally:
        ctx_a.close()
        ctx_b.close()
