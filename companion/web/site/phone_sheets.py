"""A static site's score sheets kept on the phone (issue 16): the page frozen empty, then drawn by the phone's own
Python from its storage (`companion.web.site.browser.phone_sheets`). Only a static site with scoring has this page: a
server keeps sheets itself (sheet_pages)."""
from __future__ import annotations

from flask import Blueprint, render_template

from ..play import forms, views

bp = Blueprint("phone_sheets", __name__)


@bp.get("/phone-sheets")
def index():
    """A static site's sheets page, frozen empty: the phone's own Python fills it from its storage."""
    return render_template("sheets/phone.html", kept=[], opened=None, problems_text=[], form=forms.Fields([]),
                           **views.sheet_choices())
