"""The designer's loop in `cardgen watch`: one process builds the pack, then builds it again
after one stat edit, exactly as watch does (cardgen.cli.watch.rebuild with the pack kept
resident: the build's outputs plus the contact sheet, one process, incremental). Prints JSON:
the first build's and the rebuild's wall and CPU seconds, measured inside the process
(imports are paid once, before both).

    python bench/watch_edit.py DATA_DIR PACK OUT_DIR CARDS_FILE STAT_KEY
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from photo import edit_one_stat  # noqa: E402


def timed(step) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    step()
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    data, pack, out, cards_file, key = sys.argv[1:6]
    from cardgen.model.settings import BuildSettings
    from cardgen.cli.watch import rebuild
    from cardgen.pipeline.resident import Resident
    settings = BuildSettings(also=("contact",))  # what watch builds
    residents = [Resident(Path(data) / pack, settings)]  # as watch keeps each pack
    first = timed(lambda: rebuild(residents, Path(out), settings))
    path = Path(cards_file)
    original = path.read_text(encoding="utf-8")
    edit_one_stat(path, key)
    try:
        again = timed(lambda: rebuild(residents, Path(out), settings))
    finally:
        path.write_text(original, encoding="utf-8")
        for resident in residents:
            resident.close()
    print(json.dumps({"first_s": first[0], "first_cpu_s": first[1],
                      "edit_s": again[0], "edit_cpu_s": again[1]}))


if __name__ == "__main__":
    main()
