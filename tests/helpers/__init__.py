"""Helpers the tests share: each module standing alone, imported as `helpers.<module>`."""
