"""A static site's score sheets kept on the phone (issue 16): the page frozen empty, then drawn by the phone's own
Python from its storage (`companion.browser.phone_sheets`). Only a static site with scoring has this page: a
server keeps sheets itself (sheet_pages)."""
from __future__ import annotations

from flask import Blueprint, render_template

from .. import service
from . import forms

bp = Blueprint("phone_sheets", __name__)
ENDPOINT = "phone_sheets.index"


@bp.get("/phone-sheets")
def index():
    catalogue = service.catalogue()
    return render_template("sheets/phone.html", kept=[], opened=None, problems_text=[], form=forms.Fields([]),
                           choices=[(s.game, s.title) for s in catalogue], limits={s.game: s.players for s in catalogue},
                           titles={s.game: s.title for s in catalogue})
