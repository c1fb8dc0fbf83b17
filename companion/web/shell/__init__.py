"""The app's shell: what every answer goes through whatever the page. Errors as pages or JSON (`errors`), the
headers every answer carries (`answers`), the limits per client (`limits`), CSRF (`csrf`), the reader's language
(`locale`), the stylesheet and scripts (`assets`), the page head (`head`), the templates rendered for the server and
the phones (`render`), the instance folder and its database (`instance`, `health`), working offline (`offline`) and
the server (`serving`)."""
