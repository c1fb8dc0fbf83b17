"""One way to turn the page templates into HTML, for the server and for the static site's phones.

`configure` gives a Jinja environment the filters and globals every page uses: the Flask app calls it on its own
environment. `PhoneRenderer` is the same templates in a plain Jinja environment, with no Flask: the static site's
Web Worker renders a scoring, setup or solo page with it from the page's form, so the phone shows the very words
and explanations the server's page shows (issue 16). Addresses come from a table the site build writes (every
route's address on that site), translations from the same catalogue.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import quote, urlencode

from markupsafe import Markup

from ... import rulebook
from ...core import i18n
from ..play import plain


def _bdi(value: Any) -> Markup:
    """A player's name isolated from the text around it: a right-to-left name cannot reorder the numbers beside it."""
    return Markup("<bdi>{}</bdi>").format(value)


def has_filled(form, prefix: str) -> bool:
    """Whether any field under `prefix` was filled in (to open that part of a form again)."""
    return any(name.startswith(prefix) and value.strip() for name, value in form.items(multi=True))


def number(value: Any, lang: str) -> str:
    """A number as the page's language writes it: whole numbers plainly, others to two places at most with the
    language's decimal mark ("17,75" in Spanish, "17.75" in English)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, int) or value.is_integer():
        return str(int(value))
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text.replace(".", i18n.DECIMAL_MARK.get(lang, "."))


def configure(env, has_score_page: Callable[[str], bool], lang_now: Callable[[], str]) -> None:
    """The filters and globals of every page, on a Jinja environment (the Flask app's or the phone's);
    `lang_now` is the language of the page being drawn."""
    env.trim_blocks = env.lstrip_blocks = True
    env.filters["pair"] = lambda value: (value, value)  # a <select> choice shown as its own value
    env.filters["bdi"] = _bdi
    env.filters["label_of"] = lambda key, card_set, lang: (key, card_set.label(key, lang))
    env.filters["number"] = lambda value: number(value, lang_now())
    # a problem the view did not say already (with its players' names) is said in the page's language
    env.globals["say"] = lambda problem: problem if isinstance(problem, plain.Said) else plain.said(problem, lang_now())
    env.globals.update(has_score_page=has_score_page, has_filled=has_filled, rule_blocks=rulebook.blocks,
                       label_of_component=rulebook.component_label)


_compiled_templates = None


def compiled_templates():
    """One Jinja bytecode cache for every app of the process: a page template is compiled once, not once per app
    (a new app spent about a quarter of a second compiling the pages it drew; the tests make hundreds of apps, and
    `companion site` one per language). A template's code is kept under its name and its environment's compile
    settings, so an environment set up otherwise never loads another's code; Jinja checks the source's checksum."""
    global _compiled_templates
    if _compiled_templates is None:
        from jinja2 import BytecodeCache
        from jinja2.bccache import Bucket

        class Compiled(BytecodeCache):
            def __init__(self):
                self.codes: dict[str, bytes] = {}

            def get_bucket(self, environment, name, filename, source):
                autoescape = environment.autoescape
                settings = (environment.block_start_string, environment.block_end_string,
                            environment.variable_start_string, environment.variable_end_string,
                            environment.comment_start_string, environment.comment_end_string,
                            environment.line_statement_prefix, environment.line_comment_prefix,
                            environment.trim_blocks, environment.lstrip_blocks, environment.newline_sequence,
                            environment.keep_trailing_newline, sorted(environment.extensions), environment.optimized,
                            environment.is_async, autoescape(name) if callable(autoescape) else autoescape,
                            getattr(environment.finalize, "__qualname__", environment.finalize))
                bucket = Bucket(environment, self.get_cache_key(f"{name}\x00{settings!r}", filename),
                                self.get_source_checksum(source))
                self.load_bytecode(bucket)
                return bucket

            def load_bytecode(self, bucket):
                code = self.codes.get(bucket.key)
                if code is not None:
                    bucket.bytecode_from_string(code)

            def dump_bytecode(self, bucket):
                self.codes[bucket.key] = bucket.bytecode_to_string()

        _compiled_templates = Compiled()
    return _compiled_templates


# A route's own part in an address template of the table (`/score/<game>` → `/deck/score/\x00game\x00/`).
HOLE = "\x00"


class _Args:
    """What the templates read of `request` on the phone: the page's form, and no referrer."""

    def __init__(self, form, path: str):
        self.args, self.path, self.referrer, self.host_url = form, path, None, ""


COMPILED_TEMPLATES = "templates_compiled"  # (a folder name; written by companion site into the phones' zip only)


class PhoneRenderer:
    """The page templates rendered in the phone's own Python, for one language of one static site.

    `urls` maps each endpoint to its address on the site, with each route part written as HOLE+name+HOLE (made by
    `companion site` from the app's own routes, so an address is never spelt twice)."""

    def __init__(self, lang: str, urls: Mapping[str, str], site: Mapping[str, Any]):
        from jinja2 import Environment, FileSystemLoader, ModuleLoader

        from ...core import resources
        from ..play.views import has_score_page

        self.lang, self.urls, self.site = lang, dict(urls), dict(site)
        # On the phone, the templates as the site's build compiled them to Python (COMPILED_TEMPLATES, beside the
        # templates): Jinja's own parsing and code generation in the phone's Python took seconds of a first answer.
        compiled = resources.PACKAGE_DIR / COMPILED_TEMPLATES
        loader = ModuleLoader(str(compiled)) if compiled.is_dir() else FileSystemLoader(str(resources.templates_dir()))
        self.env = Environment(loader=loader, autoescape=True, extensions=["jinja2.ext.i18n"])
        configure(self.env, has_score_page, lambda: lang)
        self.env.install_gettext_translations(i18n.translations(lang), newstyle=True)
        self.env.globals.update(url_for=self.url_for, lang=lang, langs=i18n.LANGS, csrf_token=lambda: "",
                                static_site=True, service_worker=self.site["service_worker"])

    def url_for(self, endpoint: str, **values: Any) -> str:
        """An endpoint's address on the site: route parts filled in, other values as the query (`_…` left out); the
        companion-needed page for an endpoint the site lacks."""
        template = self.urls.get(endpoint)
        if template is None:
            return self.urls["pages.companion_needed"]
        for name in list(values):
            hole = f"{HOLE}{name}{HOLE}"
            if hole in template:
                template = template.replace(hole, quote(str(values.pop(name)), safe="/" if name == "filename" else ""))
        query = urlencode({k: v for k, v in values.items() if not k.startswith("_")}, doseq=True)
        return template + (f"?{query}" if query else "")

    def render(self, template: str, path: str, query: str = "", **context: Any) -> str:
        """The whole page at `path` (the script takes its <main> and <title>); the language switch keeps the form."""
        switch = {lang: self.site["trees"][lang] + path.removeprefix(self.site["trees"][self.lang])
                  + (f"?{query}" if query else "") for lang in i18n.LANGS}
        return self.env.get_template(template).render(
            request=_Args(context["form"], path), switch_url=lambda lang: switch[lang], **context)


def url_table(site_url_for: Callable[..., str], url_map) -> dict[str, str]:
    """Every endpoint's address on a static site with its route parts as holes (run inside the app, at build)."""
    table = {}
    for rule in url_map.iter_rules():
        if rule.endpoint in table:
            continue
        marks = {name: f"HOLE{name}HOLE" for name in rule.arguments}
        try:
            url = site_url_for(rule.endpoint, **marks)
        except ValueError:  # a part with fixed choices (`<any(csv, json):kind>`): not on a computing page
            continue
        for name in rule.arguments:
            url = url.replace(quote(marks[name], safe=""), f"{HOLE}{name}{HOLE}")
        table[rule.endpoint] = url
    return table


def dumps(table: Mapping[str, Any]) -> str:
    """A table as JSON text, keys sorted and non-ASCII kept: the same table always gives the same text."""
    return json.dumps(table, ensure_ascii=False, sort_keys=True)
