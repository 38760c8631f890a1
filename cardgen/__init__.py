"""cardgen: print-and-play card games from YAML packs."""

import os as _os

# numpy starts OpenBLAS's threads, one per core, when it is imported (cardgen itself no longer
# imports it: validate/cvd.py does the colour maths; a library still might). cardgen does no
# linear algebra worth a thread, and such a thread leaves SIGINT and SIGTERM unblocked: the
# kernel may hand it the Ctrl-C meant for the build, which then waits for its workers without
# ever seeing it (tests/cli/test_interrupt.py caught it).
# One thread, unless the user chose otherwise.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
    _os.environ.setdefault(_name, "1")

__version__ = "0.1.0"
