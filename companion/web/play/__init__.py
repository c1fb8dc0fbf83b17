"""The pages a table plays with: scoring (`scoring`, `views`, `forms`, `plain`), setup (`setup`), the rules and card
pages the printed codes open (`pages`, `face_svg`, `icons`, `preview`, `scan`) and the JSON API beside them (`api`)."""
