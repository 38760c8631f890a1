"""cardgen: print-and-play card games from YAML packs."""

__version__ = "0.1.0"
