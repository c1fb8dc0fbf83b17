"""The playtest page (`/playtest/<game>`): the figures of a game's finished saved sheets (companion.sheets.playtest),
each drawn as a chart (SVG made by pygal on the server: the page needs no script to show it) with its numbers
beside it in a table, for a version of the card data and a player count chosen with a plain GET form; the figures
as CSV (`/playtest/<game>.csv`)."""
from __future__ import annotations

import csv
import io
import math

from flask import Blueprint, Response, abort, render_template, request
from flask_babel import gettext as _

from ... import library, sheets
from ..shell.instance import store

bp = Blueprint("playtest", __name__)
CHARTS = ("plays", "seats", "rules", "share", "rounds", "minutes", "margin")
SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'"  # a chart is an image: its own styles, nothing else


def _report(game: str) -> dict:
    if library.current().get(game) is None:
        abort(404)
    return sheets.playtest_report(store(), game)


def _chosen(report: dict) -> tuple[str | None, str, dict | None]:
    """The version and player count the form asks for (the newest version and every count by default), and their
    figures (None when the game has no finished sheet)."""
    versions = report["versions"]
    if not versions:
        return None, "all", None
    version = request.args.get("version")
    version = version if version in versions else next(iter(versions))
    players = request.args.get("players", "all")
    figures = versions[version]
    if players != "all":
        figures = figures["by_players"].get(players)
        if figures is None:
            players, figures = "all", versions[version]
    return version, players, figures


@bp.get("/playtest/<game>")
def page(game: str):
    """The figures of the game's finished sheets, a chart and a table each."""
    report = _report(game)
    version, players, figures = _chosen(report)
    query = {"version": version, "players": players} if version else {}
    return render_template("sheets/playtest.html", card_set=library.current().get(game), report=report,
                           version=version, players=players, figures=figures, query=query, charts=CHARTS)


@bp.get("/playtest/<game>.csv")
def table(game: str):
    """Every figure of every version and player count, one row each."""
    report = _report(game)
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(sheets.playtest_csv(report))
    return Response(out.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{game}-playtest.csv"'})


@bp.get("/playtest/<game>/<any(plays, seats, rules, share, rounds, minutes, margin):chart>.svg")
def chart(game: str, chart: str):
    """One figure as an SVG chart (pygal), for the version and player count asked."""
    version, _players, figures = _chosen(_report(game))
    if figures is None:
        abort(404)
    response = Response(draw(chart, figures), mimetype="image/svg+xml")
    response.headers["Content-Security-Policy"] = SVG_CSP
    return response


def _style():
    from pygal.style import Style

    return Style(background="#ffffff", plot_background="#ffffff", foreground="#1d1d1d", foreground_strong="#1d1d1d",
                 foreground_subtle="#77706a", colors=("#5b2a6e", "#b0602b", "#2e6f8e", "#4f7a28"),
                 font_family="sans-serif", label_font_size=20, major_label_font_size=20, value_font_size=20,
                 title_font_size=20, tooltip_font_size=16, legend_font_size=20)


def draw(chart: str, figures: dict) -> bytes:
    """A figure as a chart a person reads at a glance: bars with their values printed on them, large type, no
    script (pygal's tooltips need one: left out), sized by its container (a 390 px phone or a laptop). lxml (which
    svglib brings) serialises it."""
    import pygal

    # 480 units wide: on a 390 px phone the type is drawn at about three quarters of its size, on a laptop as is
    options = dict(style=_style(), explicit_size=False, width=480, height=340, js=[], show_legend=False,
                   print_values=True, print_values_position="top", margin=12, truncate_label=-1)
    percent = lambda v: f"{v:.0%}" if v is not None else "–"  # noqa: E731
    number = lambda v: f"{v:.3g}" if v is not None else "–"  # noqa: E731
    if chart == "plays":
        bars = pygal.Bar(title=_("Games by number of players"), value_formatter=str, **options)
        bars.x_labels = [_("%(n)s players", n=n) for n in figures["players"]]
        bars.y_labels = list(range(0, max(figures["players"].values()) + 1))
        bars.add(_("Finished games"), list(figures["players"].values()))
    elif chart == "seats":
        bars = pygal.Bar(title=_("Share of the wins by seat"), value_formatter=percent, range=(0, 1),
                         y_labels=[0, 0.25, 0.5, 0.75, 1], **options)
        bars.x_labels = [_("Seat %(n)s", n=n) for n in range(1, len(figures["seats"]) + 1)]
        bars.add(_("Wins"), figures["seats"])
    elif chart in ("rules", "share"):
        rules = figures["rules"]
        if chart == "rules":
            bars = pygal.HorizontalBar(title=_("Points per player per game, by rule (mean)"), value_formatter=number,
                                       **options)
            bars.add(_("Mean"), [r["mean"] for r in rules.values()])
        else:
            shares = [r["share"] or 0 for r in rules.values()]
            ticks = [q / 4 for q in range(math.floor(min(0, *shares) * 4), math.ceil(max(0, *shares) * 4) + 1)]
            bars = pygal.HorizontalBar(title=_("Share of the winners' points, by rule"), value_formatter=percent,
                                       y_labels=ticks, **options)
            bars.add(_("Share"), [r["share"] for r in rules.values()])
        bars.x_labels = list(rules)
    else:
        titles = {"rounds": _("Rounds per game"), "minutes": _("Minutes per game"),
                  "margin": _("Winning margin (points)")}
        bars = pygal.Bar(title=titles[chart], value_formatter=number, **options)
        numbers = figures[chart]
        bars.x_labels = [_("min"), _("median"), _("mean"), _("max")]
        bars.add(titles[chart], [numbers[k] for k in ("min", "median", "mean", "max")])
    return _without_scripts(bars.render_tree())


def _without_scripts(tree) -> bytes:
    """The chart's SVG without pygal's script of its settings (for tooltips, which an image never runs)."""
    from lxml import etree

    for script in tree.xpath("//*[local-name()='script']"):
        script.getparent().remove(script)
    return etree.tostring(tree, xml_declaration=True, encoding="utf-8")
