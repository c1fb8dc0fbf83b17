"""A photo of the cards on the table fills a scoring page: the page that takes it (`pages`) and where each card
found goes on the form (`fill`, which the static site's phones run too)."""
