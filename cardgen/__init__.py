"""cardgen: print-and-play card games from YAML packs."""

__version__ = "0.1.0"

# The outputs a build can make (`cardgen build --only ...`); kept here so `--help` stays light.
OUTPUT_KINDS = ("cards", "printshop", "boards", "rulebook", "png", "calibration", "tts")
