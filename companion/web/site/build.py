"""`companion site`: a static copy of everything that needs no server (home, rules, every card page under both
`/C/<ID>` and `/c/<game>/<id>`, icons, styles, manifest, a service worker that keeps a visitor's language), one tree a
language (the site's language at the root, the other under `/<lang>/`: Spanish at the root unless `--lang` says or
every game's file writes another language first), frozen from the same app and templates with Frozen-Flask.
Pages that need the server (scoring, setup, sheets) link to `--companion-url` when given, else say so."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import warnings
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit

from flask import current_app, url_for
from flask_frozen import Freezer, MissingURLGeneratorWarning

from ... import cards, library, service
from ...core import i18n
from ...core.files import folder_problems, shown, written_over
from ...core.schema import InputError, Problem
from ..games import glue
from ..play import face_svg, views
from ..shell import render
from .urls import site_url_for

MARKER = ".companion-site"  # a folder holding this file is a site made here; it lists the files the build wrote


def root_path(base_url: str) -> str:
    """The path the site lives under ('' at a host's root, '/deck' for https://you.github.io/deck)."""
    return urlsplit(base_url).path.rstrip("/")


def _check(out: Path, base_url: str, companion_url: str | None) -> None:
    problems = []
    for name, url in (("base-url", base_url), ("companion-url", companion_url)):
        parts = urlsplit(url or "")
        if url is not None and (parts.scheme not in ("http", "https") or not parts.netloc or parts.query
                                or parts.fragment):
            problems.append(Problem((name,),
                                    f"must be an http(s) address like https://you.github.io/deck, got {url!r}"))
    problems += folder_problems(out)
    if not problems and out.is_dir() and any(out.iterdir()) and not os.path.lexists(out / MARKER) \
            and not os.path.lexists(out / ".git"):
        problems.append(Problem(("out",), f"{shown(out)} holds files that are not a site made by companion site; "
                                          "choose an empty or new folder, a previous site or the top of a git "
                                          "checkout (nothing was changed)"))
    if problems:
        raise InputError(problems)


def _urls() -> list[str]:
    """Every page and file of one language's tree, as site paths (with scoring: the computing pages' forms too)."""
    urls = ["/", "/offline/", "/companion-needed/", "/manifest.webmanifest"]
    for card_set in service.catalogue():
        urls += [f"/rules/{card_set.game}/", f"/icons/{card_set.game}.css"]
        urls += [f"/art/{card_set.game}/{name}" for name in face_svg.art_files(card_set)]  # the faces' pictures
        urls += [f"/fonts/{card_set.game}/{name}" for name in face_svg.font_files(card_set)]
        for c in card_set.components:
            if c.kind != "back":
                urls += [f"/c/{card_set.game}/{c.id}/", f"/C/{c.id}/"]
    if current_app.config.get("SITE_SCORING"):
        urls += computing_pages()
    return urls


def computing_pages() -> list[str]:
    """The pages the phones draw (every game's scoring, setup and solo pages, and the phone's sheets), as site paths
    (inside the app)."""
    out = []
    for rule in current_app.url_map.iter_rules():
        if rule.endpoint not in glue.DRAWN_ON_THE_PHONE:
            continue
        if "game" not in rule.arguments:
            out.append(url_for(rule.endpoint))
            continue
        for card_set in service.catalogue():
            if rule.endpoint != "scoring.score" or views.has_score_page(card_set.game):
                out.append(url_for(rule.endpoint, game=card_set.game))
    root = url_for("pages.index").rstrip("/")  # this tree's own root (the English tree's ends in /en)
    return [u.removeprefix(root).rstrip("/") + "/" for u in out]


def _freeze(app, destination: Path, base_url: str) -> None:
    app.config.update(FREEZER_DESTINATION=str(destination), FREEZER_BASE_URL=base_url,
                      FREEZER_REMOVE_EXTRA_FILES=False, FREEZER_IGNORE_MIMETYPE_WARNINGS=True,
                      FREEZER_REDIRECT_POLICY="error")
    freezer = Freezer(app, with_static_files=True, with_no_argument_rules=False, log_url_for=False)
    freezer.register_generator(_urls)
    with warnings.catch_warnings():  # the pages are listed as addresses, not per endpoint: nothing is missing
        warnings.simplefilter("ignore", MissingURLGeneratorWarning)
        freezer.freeze()


def root_language(card_sets, lang: str | None = None) -> str:
    """The language at the site's root: `lang` when given (one of the companion's), else the one every game's file
    writes first when they agree (a site of English-only games opens in English), else the companion's own
    (Spanish)."""
    if lang is not None:
        if lang not in i18n.LANGS:
            raise InputError([Problem(("lang",), f"must be one of {', '.join(i18n.LANGS)}, got {lang!r}")])
        return lang
    firsts = {card_set.languages[0] for card_set in card_sets}
    first = firsts.pop() if len(firsts) == 1 else None
    return first if first in i18n.LANGS else i18n.DEFAULT_LANG


def build(out: str | Path, base_url: str, companion_url: str | None = None, scoring: bool = True,
          lang: str | None = None, card_files: Sequence[str | os.PathLike] = ()) -> dict:
    """Write the site into `out`: made aside, then swapped in file by file (see companion.core.files), keeping what the
    build did not make (a CNAME, a .git/ folder, notes) and removing only what the previous build made and this one
    no longer does. `out` is a new or empty folder, a previous site (it holds MARKER, which lists the files written)
    or the top of a git checkout (it holds .git: git keeps what it holds, and shows what the site added); any other
    folder with something in it is refused, and where the site would overwrite a file it did not make (a hand-made
    index.html in a checkout) the build is refused and nothing is touched. Returns its files, bytes and languages.
    With `scoring`, it also carries the Python the phones run (`py/`: Pyodide and the rules, see site/python.py).
    `lang`: the language at the site's root (see root_language). `card_files`: card data files whose games the site
    carries beside the shipped ones (pages, art, fonts, and the phones' scoring), checked as validate checks them."""
    from ...pnp.design_check import check_files

    out = Path(os.path.abspath(out))  # before anything else: Frozen-Flask reads a relative path from the app's folder
    _check(out, base_url, companion_url)
    with library.using(library.Library(card_files, check_files=check_files)):  # (a broken file: DataError)
        return _build(out, base_url, companion_url, scoring, lang, [str(f) for f in card_files])


def _build(out: Path, base_url: str, companion_url: str | None, scoring: bool, lang: str | None,
           card_files: list[str]) -> dict:
    from ..app import create_app
    from . import python as site_runtime

    _check_games()
    top = root_language(library.current().all().values(), lang)
    langs = (top, *(other for other in i18n.LANGS if other != top))
    root = root_path(base_url)
    instance = tempfile.mkdtemp(prefix="companion-site-instance-")
    try:
        with written_over(out, MARKER, {"base_url": base_url, "companion_url": companion_url}) as staging:
            apps, tables = {}, {}
            for lang in langs:
                apps[lang] = app = create_app({"STATIC_SITE": True, "STATIC_LANG": lang, "SITE_ROOT": root,
                                               "SITE_ROOT_LANG": top, "SITE_SCORING": scoring,
                                               "COMPANION_URL": companion_url, "INSTANCE_PATH": instance,
                                               "CARD_FILES": card_files})
                with app.test_request_context("/", base_url=_tree_url(base_url, lang, top)):
                    tables[lang] = render.url_table(site_url_for, app.url_map)
            parts = urlsplit(base_url)
            site = {"urls": tables, "origin": f"{parts.scheme}://{parts.netloc}",
                    "trees": {lang: _tree(root, lang, top) for lang in langs},
                    "service_worker": {"url": f"{root}/sw.js", "scope": f"{root}/"}}
            runtime = site_runtime.write(staging, site) if scoring else None  # the pages name its worker's version
            for lang, app in apps.items():
                app.config["SITE_WORKER"] = f"{root}/{runtime['worker']}" if runtime else None
                with app.app_context():
                    _freeze(app, staging if lang == top else staging / lang, _tree_url(base_url, lang, top))
            pages = _pages_by_language(staging, root, langs)
            runtime_files = runtime["files"] if runtime else []
            first_visit = {lang: sum(site_runtime.sent_bytes(_file(staging, root, u).read_bytes()) for u in urls)
                           + (runtime["sent"] if runtime else 0) for lang, urls in pages.items()}
            if runtime:
                site_runtime.write_worker(staging, runtime, first_visit)
            later = runtime["zxing"]["later"] if runtime else []  # (zxing-wasm: kept once a photo has used it)
            (staging / "sw.js").write_text(_service_worker(root, pages, runtime_files, later, top),
                                           encoding="utf-8")
            for name, text in host_files(root, langs).items():
                (staging / name).write_text(text, encoding="utf-8")
            for path in [staging, *staging.rglob("*")]:
                os.chmod(path, 0o755 if path.is_dir() else 0o644)
            files = [p for p in staging.rglob("*") if p.is_file()]  # the site's own, not what else the folder holds
            made = {"files": len(files) + 1, "bytes": sum(p.stat().st_size for p in files),
                    "languages": list(langs), "games": list(library.current().all()),
                    "runtime": {k: v for k, v in runtime.items() if not k.startswith("_")} if runtime else None,
                    "first_visit_bytes": first_visit}
    finally:
        shutil.rmtree(instance, ignore_errors=True)
    return made


def _check_games() -> None:
    """The site's games' art and font files as validate checks them, before anything is written: a file leading
    outside its game's folder (a link to a secret) or one reportlab cannot read stops the build (DataError)."""
    from ...pnp.design_check import check_files

    errors = [line for card_set in library.current().all().values() for line in check_files(card_set)]
    if errors:
        raise cards.DataError(errors)


def _tree(root: str, lang: str, top: str) -> str:
    """A language's tree on the site (`top`, the site's language, at the root, the others under /<lang>)."""
    return root + ("" if lang == top else f"/{lang}")


def _tree_url(base_url: str, lang: str, top: str) -> str:
    return base_url.rstrip("/") + ("/" if lang == top else f"/{lang}/")


def _file(staging: Path, root: str, url: str) -> Path:
    path = staging / url.removeprefix(root + "/").split("?")[0]
    return path / "index.html" if url.endswith("/") else path


def _pages_by_language(staging: Path, root: str, langs: tuple[str, ...]) -> dict[str, list[str]]:
    """Each language's pages and files as site paths (a page as its folder): what a visitor's phone keeps. The
    phones' Python (py/) is every language's, and kept apart. `langs`: the root's language first."""
    others = {lang: f"{lang}/" for lang in langs[1:]}
    pages: dict[str, list[str]] = {lang: [] for lang in langs}
    for path in sorted(p for p in staging.rglob("*") if p.is_file()):
        relative = path.relative_to(staging).as_posix()
        if relative.startswith(("py/", ".")) or relative in ("sw.js", *HOST_FILES):
            continue
        lang = next((lang for lang, prefix in others.items() if relative.startswith(prefix)), langs[0])
        if relative.removeprefix(others.get(lang, "")).startswith("C/"):
            continue  # a printed code's page only leads to its card's page: the service worker leads there itself
        pages[lang].append(root + "/" + relative.removesuffix("index.html"))
    return pages


COOKIE = "companion-lang"  # the language a visitor chose on a page's switch (companion.js, theme.js), for the host
HOST_FILES = (".htaccess", "_redirects")


def host_files(root: str, langs: tuple[str, ...]) -> dict[str, str]:
    """The hosts' own files that serve a visitor the tree of their language (docs/hosting.md), the language chosen on
    the switch first (the cookie), else the browser's first: `.htaccess` for Apache (a rewrite: the same address, no
    round trip), `_redirects` for Netlify (an HTTP redirect, where a plain host has the page's script move). `langs`:
    the root's language first. Each tree's own addresses, the phones' Python and the service worker are left alone."""
    others = langs[1:]
    kept = "|".join([*(f"{lang}/" for lang in others), "py/", r"sw\.js", r"\.", "_redirects"])
    apache = ["# Written by `companion site` (docs/hosting.md): each visitor gets the pages of their language at the "
              "address asked,",
              "# with no round trip: the one chosen on a page's switch (its cookie), else the browser's first.",
              "# Needs mod_rewrite (AllowOverride FileInfo); mod_headers says what the answer varies by.",
              "AddType application/wasm .wasm", "AddDefaultCharset utf-8",
              "<IfModule mod_rewrite.c>", "RewriteEngine On", f"RewriteBase {root}/"]
    for lang in others:
        apache += [rf"RewriteCond %{{HTTP_COOKIE}} !(^|;\s*){COOKIE}=(?!{lang}\b)",
                   rf"RewriteCond %{{HTTP_COOKIE}} (^|;\s*){COOKIE}={lang}\b [OR]",
                   rf"RewriteCond %{{HTTP:Accept-Language}} ^{lang}\b [NC]",
                   f"RewriteRule ^(?!{kept})(.*)$ {lang}/$1 [L]"]
    apache += ["</IfModule>", "<IfModule mod_headers.c>", 'Header merge Vary "Accept-Language, Cookie"',
               "</IfModule>", ""]
    netlify = ["# Written by `companion site` (docs/hosting.md): a visitor whose browser asks first for a language of",
               "# the site other than the root's is sent to its tree, unless a page's switch chose one (its cookie).",
               "# The first rule that matches is the one used.", f"{root}/py/*  {root}/py/:splat  200",
               f"{root}/sw.js  {root}/sw.js  200", *[f"{root}/{lang}/*  {root}/{lang}/:splat  200" for lang in others],
               f"{root}/*  {root}/:splat  200  Cookie={COOKIE}",
               *[f"{root}/*  {root}/{lang}/:splat  302!  Language={lang}" for lang in others], ""]
    return {".htaccess": "\n".join(apache), "_redirects": "\n".join(netlify)}


def _service_worker(root: str, pages: dict[str, list[str]], runtime: list[str], later: list[str] = (),
                    top: str = i18n.DEFAULT_LANG) -> str:
    """A service worker that keeps the visitor's language's pages and the phones' Python at the first visit of any
    page, and the files in `later` once a page has used them: after that every page opens with no network, and the
    phone scores with no network."""
    version = hashlib.sha256(json.dumps([pages, runtime, list(later)]).encode()).hexdigest()[:12]
    trees = {lang: f"{_tree(root, lang, top)}/" for lang in pages}
    offline = {lang: f"{tree}offline/" for lang, tree in trees.items()}
    return (Path(__file__).parent.parent / "static" / "site-sw.js").read_text(encoding="utf-8") \
        .replace("__VERSION__", version).replace("__ROOT__", root + "/").replace("__PAGES__", json.dumps(pages)) \
        .replace("__RUNTIME__", json.dumps([f"{root}/{path}" for path in runtime])) \
        .replace("__LATER__", json.dumps([f"{root}/{path}" for path in later])) \
        .replace("__OFFLINE__", json.dumps(offline)).replace("__TREES__", json.dumps(trees))
