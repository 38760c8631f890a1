"""cardgen: print-and-play card games from YAML packs."""

__version__ = "0.1.0"

# The outputs a build can make (`cardgen build --only ...`); kept here so `--help` stays light.
# contact: the designer's contact sheet of every card (contact.pdf and a PNG per page)
OUTPUT_KINDS = ("cards", "printshop", "boards", "rulebook", "png", "calibration", "contact", "tts")
