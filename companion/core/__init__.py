"""The plain helpers every part of the package stands on, each a module of its own and each its own face: `schema`
(checks that report every problem with its path), `i18n` (the two languages and the catalogue), `rng` (our own
Fisher–Yates), `paths` and `files` (files read and written within their bounds), `resources` (where the shipped data
is), `faces` (a package face that loads a part when first asked for). Nothing here imports the rest of the package."""
