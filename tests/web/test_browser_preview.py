"""The preview page in Debian's chromium: `companion serve --cards FILE` on a copy of the example game, the page
open, the file saved with a change: the page loads again by itself and shows it; saved broken, it shows the file's
error above the last good cards; on a phone and on a wide screen the cards sit in a grid."""
import os
import shutil
from pathlib import Path

import pytest

from helpers.server import serving_cards

CHROMIUM = os.environ.get("COMPANION_CHROMIUM", "/usr/bin/chromium")
SHOTS = Path(os.environ.get("COMPANION_SCREENSHOTS", "")) if os.environ.get("COMPANION_SCREENSHOTS") else None
EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "example-game"
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}

playwright_api = pytest.importorskip("playwright.sync_api",
                                     reason="the playwright package is missing: make test installs it")
if not Path(CHROMIUM).exists():
    pytest.skip(f"BROWSER TESTS SKIPPED: no chromium at {CHROMIUM}. Install Debian's: sudo apt-get install chromium "
                "(or set COMPANION_CHROMIUM to its path)", allow_module_level=True)


@pytest.fixture(scope="module")
def browser(chromium):
    """The session's chromium (conftest): launched once, not once per module."""
    return chromium


@pytest.fixture
def served(tmp_path):
    """`companion serve --cards` with a copy of the example game: (base URL, the data file)."""
    shutil.copytree(EXAMPLE, tmp_path / "game")
    data = tmp_path / "game" / "cosecha.yaml"
    with serving_cards(data, tmp_path / "instance") as base:
        yield base, data


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def shot(page, name: str) -> None:
    """Kept in COMPANION_SCREENSHOTS when it is set (never in a fixed folder shared by runs and xdist workers)."""
    if SHOTS:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_the_preview_reloads_by_itself_when_the_file_changes(served, browser):
    base, data = served
    context = browser.new_context(**PHONE, locale="en-GB")
    page = context.new_page()
    outside = []
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(("http://127.0.0.1", "data:")) else None)
    page.goto(f"{base}/preview/cosecha?lang=en")
    page.wait_for_load_state("networkidle")
    assert page.locator(".preview-grid li").count() == 9  # eight fronts and the back
    assert page.locator(".preview-grid .face-svg").first.bounding_box()["width"] > 120  # two across a phone
    shot(page, "preview-phone")
    page.evaluate("window.stillTheSamePage = true")
    edit(data, "name: {es: Peras, en: Pears}", "name: {es: Peras, en: Ripe pears}")
    page.wait_for_function("() => document.body.innerText.includes('Ripe pears')", timeout=10_000)
    assert page.evaluate("window.stillTheSamePage === undefined")  # loaded again, not patched in place
    assert page.locator("[aria-label='Ripe pears']").count() == 1  # the face is drawn with the new name
    edit(data, "qty: 2, suit: pear,", "qty: 0, suit: pear,")  # saved broken
    page.wait_for_selector(".file-errors", timeout=10_000)
    error = page.locator(".file-errors li").first.inner_text()
    assert f"{data}:" in error and "HV-PEAR-5: qty:" in error
    assert page.locator("[aria-label='Ripe pears']").count() == 1  # the last good cards, still drawn
    shot(page, "preview-phone-broken")
    edit(data, "qty: 0, suit: pear,", "qty: 2, suit: pear,")  # fixed
    page.wait_for_function("() => !document.querySelector('.file-errors')", timeout=10_000)
    context.close()
    assert not outside, f"pages must need no network beyond the companion: {outside}"


def test_the_preview_on_a_wide_screen(served, browser):
    base, _ = served
    context = browser.new_context(**DESKTOP, locale="es-ES")
    page = context.new_page()
    page.goto(f"{base}/preview/cosecha")
    page.wait_for_load_state("networkidle")
    boxes = [page.locator(".preview-grid li").nth(i).bounding_box() for i in range(4)]
    assert len({round(b["y"]) for b in boxes}) == 1  # the first four side by side
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # nothing sideways
    assert page.get_by_role("heading", name="Vista previa: todas las cartas").count() == 1
    shot(page, "preview-desktop")
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_preview_has_no_serious_accessibility_violation(served, browser, scheme):
    """axe-core, as tests/web/test_accessibility.py runs it, on the preview with a file error shown."""
    axe_api = pytest.importorskip("axe_playwright_python.sync_playwright",
                                  reason="the axe-playwright-python package is missing: make test installs it")
    base, data = served
    edit(data, "qty: 2, suit: pear,", "qty: 0, suit: pear,")
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme=scheme, bypass_csp=True)
    page = context.new_page()
    found = []
    try:
        for lang in ("es", "en"):
            page.goto(f"{base}/preview/cosecha?lang={lang}")
            page.wait_for_selector(".file-errors")
            found += [(lang, v["id"], [n["target"] for n in v["nodes"]][:3])
                      for v in axe_api.Axe().run(page).response["violations"] if v["impact"] in ("serious", "critical")]
    finally:
        context.close()
    assert not found, found
