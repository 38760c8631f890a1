"""Shared by the benchmark scripts: run a command in a fresh process and measure it.

Every measurement is a new process (cold: no warm font, template or import caches). Wall time is
measured around the child; CPU time and peak memory come from the kernel's accounting of that
one child (os.wait4), so nothing else running on the machine is counted.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "card_data"
PYTHON = sys.executable
_SCRIPT = Path(sys.executable).with_name("cardgen")
CARDGEN = [str(_SCRIPT)] if _SCRIPT.exists() else [PYTHON, "-c",
                                                   "from cardgen.cli.app import run; run()"]


def compile_cardgen() -> None:
    """Write cardgen's bytecode first, as `pip install` does: with PYTHONDONTWRITEBYTECODE set
    (as on the test machine) every measured process would otherwise compile each module of
    cardgen that changed since the last compile (some 0.1-0.3 s), which no installed copy does."""
    subprocess.run([PYTHON, "-m", "compileall", "-q", str(ROOT / "cardgen")], check=True,
                   stdout=subprocess.DEVNULL)


compile_cardgen()


@dataclass
class Run:
    wall: float    # s, wall clock around the child process
    cpu: float     # s, user + system CPU of the child
    rss_mb: float  # peak resident memory of the child (ru_maxrss), MiB
    out: str       # its stdout


def measure(cmd: list[str], cwd: Path = ROOT, env: dict | None = None) -> Run:
    """Run cmd to completion in a new process; raise with its stderr when it fails.

    env: variables to add to this process's environment (e.g. PYTHONPATH).
    """
    env = {**os.environ, **env} if env else None
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(), err.read().decode()
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}:\n{stderr[-3000:]}")
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, stdout)


def best(runs: list[Run]) -> Run:
    """Best of N: the fastest wall and CPU time; the highest peak memory (it hardly varies)."""
    return Run(min(r.wall for r in runs), min(r.cpu for r in runs),
               max(r.rss_mb for r in runs), runs[0].out)


def machine(env: dict | None = None) -> dict:
    model = next((line.split(":", 1)[1].strip() for line in
                  Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), platform.processor() or "?")
    accel = subprocess.run([PYTHON, "-c", "from reportlab.lib import rl_accel as a;"
                            "import reportlab; print(reportlab.Version, bool(a._c_funcs))"],
                           capture_output=True, text=True, check=True,
                           env={**os.environ, **env} if env else None).stdout.split()
    return {"nproc": os.cpu_count(), "cpu": model, "python": platform.python_version(),
            "reportlab": accel[0], "rl_accel_c": accel[1] == "True",
            "loadavg": os.getloadavg()[0],
            "pyc_written": not os.environ.get("PYTHONDONTWRITEBYTECODE")}


def machine_line(m: dict) -> str:
    return (f"{m['nproc']} cores (`nproc`), {m['cpu']}, Python {m['python']}, reportlab "
            f"{m['reportlab']}, C accelerators (rl_accel) {'on' if m['rl_accel_c'] else 'off'}, "
            f"load average {m['loadavg']:.2f} at start"
            + (f", {m['loadavg_end']:.2f} at the end" if "loadavg_end" in m else "")
            + ("" if m["pyc_written"] else ", PYTHONDONTWRITEBYTECODE=1 (cardgen's bytecode is "
               "compiled once before measuring, as an install does)"))
