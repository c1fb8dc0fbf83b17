"""companion: print-and-play PDFs and a phone companion for five card games."""

__version__ = "0.1.0"
