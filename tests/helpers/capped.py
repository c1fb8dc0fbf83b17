"""A hostile command run in a child process capped in address space and time, its peak memory measured."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


AS_LIMIT = 4 << 30  # a child's address space: the code before this issue fails in it instead of taking the machine



TIMEOUT = 60  # seconds a child may run: each takes about one



# The child is started by a small launcher, whose os.wait4 gives the child's own peak: Linux counts a process's
# resident memory from before its exec too, so a child forked from pytest itself would report pytest's size.
LAUNCHER = """
import os, resource, subprocess, sys, threading
limit, timeout = int(sys.argv[1]), float(sys.argv[2])
def cap():
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
p = subprocess.Popen(sys.argv[3:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, preexec_fn=cap)
timer = threading.Timer(timeout, p.kill)
timer.start()
_pid, status, usage = os.wait4(p.pid, 0)
timer.cancel()
p.returncode = os.waitstatus_to_exitcode(status)
print(p.returncode, usage.ru_maxrss)
"""



def child(args: list[str], cwd: Path) -> tuple[int, str, float]:
    """Run `companion *args` in a child limited to AS_LIMIT of address space and TIMEOUT seconds: (exit code,
    stderr, its peak resident memory in MB)."""
    err_path = cwd / f".err-{len(list(cwd.iterdir()))}"
    with open(err_path, "wb") as err:
        done = subprocess.run([sys.executable, "-c", LAUNCHER, str(AS_LIMIT), str(TIMEOUT), sys.executable, "-c",
                               "import sys; from companion.cli import main; sys.exit(main(sys.argv[1:]))", *args],
                              stdout=subprocess.PIPE, stderr=err, cwd=ROOT, timeout=TIMEOUT + 30, check=True)
    code, peak_kb = map(int, done.stdout.split())
    return code, err_path.read_text(errors="replace"), peak_kb / 1024  # ru_maxrss is in KB on Linux

