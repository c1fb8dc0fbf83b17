"""The static site's computing pages hold still as they load (issue 46, item 4): the line saying the phone's Python is
loading comes and goes over the page, not in it. Cumulative layout shift measured as Lighthouse counts it (every
'layout-shift' entry from the page's start, no input made) in Debian's chromium, its CPU slowed 4× as Lighthouse's
phone, until the phone's Python has drawn the page: the scoring page shifted 0.23 (0.35 here), the served one 0."""
import pytest

SHIFTS = """
window.__shifts = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__shifts.push(e.value); })
  .observe({ type: "layout-shift", buffered: true });
"""
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True,
         "service_workers": "block"}


def shift_until_python_is_up(context, url: str) -> float:
    page = context.new_page()
    context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 4})
    try:
        page.goto(url, wait_until="load")
        page.wait_for_function("document.documentElement.dataset.pythonReady", timeout=120000)
        page.wait_for_timeout(500)  # (the page drawn by its Python, and the status line gone)
        assert page.locator(".python-status").is_hidden()
        return sum(page.evaluate("window.__shifts"))
    finally:
        page.close()


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_static_scoring_page_shifts_at_most_0_1_as_its_python_loads(site, chromium, lang):
    """A first visit (the download said, with its progress), then another game's page (Python kept: only "getting
    the scoring ready"), and a setup page."""
    context = chromium.new_context(**PHONE, locale="es-ES" if lang == "es" else "en-GB")
    context.add_init_script(SHIFTS)
    tree = "" if lang == "es" else "/en"
    try:
        shifts = {path: shift_until_python_is_up(context, f"{site[0]}{tree}{path}")
                  for path in ("/score/duquesa/", "/score/gemas/", "/setup/nobles/")}
    finally:
        context.close()
    assert all(s <= 0.1 for s in shifts.values()), {p: round(s, 3) for p, s in shifts.items()}
