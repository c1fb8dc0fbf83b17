"""A scoring page's form as a browser without scripts sends it: the (name, value) pairs of its first live form
(`form[data-live]`) as drawn, each text, number and hidden field, each checked box and radio, each select's chosen
option (else its first); a field that is disabled, or a button, is not sent."""
from __future__ import annotations

from html.parser import HTMLParser


class _Form(HTMLParser):
    def __init__(self):
        super().__init__()
        self.on, self.done, self.select, self.first, self.pairs = False, False, None, None, []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and "data-live" in a and not self.done:
            self.on = True
        if not self.on or "disabled" in a or ("name" not in a and tag != "option"):
            return
        kind = a.get("type", "text")
        if tag == "input" and (kind in ("hidden", "text", "number", "search", "tel")
                               or kind in ("radio", "checkbox") and "checked" in a):
            self.pairs.append((a["name"], a.get("value", "on" if kind in ("radio", "checkbox") else "")))
        elif tag == "select":
            self.select, self.first = a["name"], None
        elif tag == "option" and self.select:
            self.first = a.get("value", "") if self.first is None else self.first
            if "selected" in a:
                self.pairs.append((self.select, a.get("value", "")))
                self.select = None

    def handle_endtag(self, tag):
        if tag == "select" and self.select:  # nothing selected: the first option
            self.pairs.append((self.select, self.first or ""))
            self.select = None
        if tag == "form" and self.on:
            self.on, self.done = False, True


def form_sent(page: str) -> list[tuple[str, str]]:
    """The (name, value) pairs a page's scoring form sends as it is drawn."""
    parser = _Form()
    parser.feed(page)
    return parser.pairs
