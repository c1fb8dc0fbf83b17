"""The translation catalogue: every text the pages and PDFs use has a Spanish translation with the same placeholders."""
import re

from babel.messages.catalog import Catalog

from companion.core import i18n
from companion.translations.update import template, update

PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def test_every_used_text_is_translated():
    es = i18n.catalog("es")
    used = template()
    assert len(used) > 150
    missing = [m.id for m in used if m.id and not (es.get(m.id) and all(
        es.get(m.id).string if isinstance(es.get(m.id).string, tuple) else (es.get(m.id).string,)))]
    assert not missing, f"run `make messages` and translate: {missing[:5]}"


def test_translations_keep_their_placeholders():
    for m in i18n.catalog("es"):
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        for s in strings:
            assert set(PLACEHOLDER.findall(s)) == set(PLACEHOLDER.findall(ids[-1])) or \
                set(PLACEHOLDER.findall(s)) == set(PLACEHOLDER.findall(ids[0])), (m.id, s)


def test_gettext_and_fallback():
    assert i18n._("florins", "es") == "florines" and i18n._("florins", "en") == "florins"
    assert i18n._("Permanent weapon +%(n)s", "es", n=3) == "Arma permanente +3"
    assert i18n._("not in the catalogue", "es") == "not in the catalogue"
    assert isinstance(i18n.catalog("en"), Catalog)


def test_problem_texts_are_said_on_screens_not_printed():
    es = update("es")
    for text in ("a rainbow card has the rainbow stone alone", "stone", "hand", "a Joker has no %(part)s"):
        assert "printed" not in es.get(text).auto_comments, text
    assert "printed" in es.get("a hand").auto_comments  # on the line of Word("hand"), and printed
    assert "printed" in es.get("florins").auto_comments


def test_make_messages_is_a_no_op_on_a_clean_tree():
    """The catalogue is committed as `make messages` writes it (the pinned Babel, its date kept where nothing else
    changes): a contributor's new words come with a diff of their own words, nothing more."""
    from companion.translations import update as catalogue

    path = catalogue.Path(catalogue.__file__).parent / "es.po"
    assert catalogue.rendered("es") == path.read_bytes(), "run `make messages` and commit es.po as it writes it"
