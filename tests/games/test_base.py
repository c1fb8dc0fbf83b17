"""Pieces the games share: a reference card's text as the layout markup's list, written once for every game."""
from companion.games.base import reference_items


def test_a_reference_text_becomes_one_bullet_a_sentence_with_its_lead_in_bold():
    items = reference_items("Ring: doubles one gem. King: the gem he names is worth more.", bold_lead=True)
    assert items == ["- **Ring:** doubles one gem.", "- **King:** the gem he names is worth more."]
    assert reference_items("Draw two. Play one.") == ["- Draw two.", "- Play one."]
