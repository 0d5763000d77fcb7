"""Makes the golden files of the table planner from real outputs of real programs.

`python tests/golden/make_table_goldens.py` runs each case's command (`ps u`, the columns of
`ps aux`, of a hundred processes it starts as three users, some stopped, one busy, one a
zombie; `ls -la` of `/usr/bin`, of the CPython standard library and of a site-packages;
`ls -laR` of two of its packages; `df -a`; `pip list`; and `git status --porcelain` of a
scratch repository with changes of every kind), writes its output to
`tests/golden/table/<name>.txt`, and then the expected compressions. The inputs are committed,
and recorded once: `ps` differs on every run and `ls -la` on every machine, so the tests
compress the recorded output and need neither the programs nor the trees. `ps` lists only the
processes the script starts, not the machine's. `--refresh` only rewrites the expected files from the committed
inputs, after an intended change of the planner's output.

Expected files are `<name>.<budget>.expected`, compressed as the output of `bash`.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import sysconfig
from pathlib import Path

from expected import main, write_expected
from scratch import SCRATCH

HERE = Path(__file__).parent / "table"
BUDGETS = (800, 2000, 4000, 16_000)
# Fixed collation and no colour, so that a listing's order is the same on every machine.
ENV = {"LC_ALL": "C", "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(SCRATCH)}

#: name (says what the output shows) -> (command, the directory it runs in).
CASES: dict[str, tuple[list[str], str]] = {
    "ps_u_scratch_processes": (["ps", "u", "--ppid", "PARENT"], "/"),
    "ls_la_usr_bin": (["ls", "-la", "/usr/bin"], "/"),
    "ls_la_stdlib": (["ls", "-la"], "stdlib"),
    "ls_la_site_packages": (["ls", "-la"], "purelib"),
    "ls_laR_stdlib_json_email": (["ls", "-laR", "json", "email"], "stdlib"),
    "df_a": (["df", "-a"], "/"),
    "pip_list": ([sys.executable, "-m", "pip", "list", "--disable-pip-version-check"], "/"),
    "git_status_porcelain_scratch": (["git", "status", "--porcelain"], "porcelain"),
}


def porcelain_repo() -> Path:
    """A repository of the standard library's `email` package, committed, then changed every
    way `git status` reports: files modified, staged, deleted, renamed, and new ones."""
    root = SCRATCH / "porcelain"
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(Path(sysconfig.get_paths()["stdlib"]) / "email", root, ignore=shutil.ignore_patterns("__pycache__"))

    def git(*args: str) -> None:
        who = {"NAME": "g", "EMAIL": "g@x"}
        identity = {f"GIT_{role}_{key}": value for role in ("AUTHOR", "COMMITTER") for key, value in who.items()}
        subprocess.run(["git", *args], cwd=root, env={**ENV, **identity}, check=True, capture_output=True)

    git("init", "-q")
    git("add", "-A")
    git("commit", "-q", "-m", "email package")
    files = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.py"))
    for i, name in enumerate(files):
        path = root / name
        if i % 9 == 0:
            path.unlink()
        elif i % 4 == 0:
            path.write_text(path.read_text() + "\n# changed\n")
        elif i % 11 == 0:
            path.write_text(path.read_text() + "\n# staged\n")
            git("add", name)
    git("mv", files[1], files[1].replace(".py", "_renamed.py"))
    for i in range(120):
        (root / f"generated_{i:03}.py").write_text(f"VALUE = {i}\n")
    return root


#: Starts 100 children: sleepers as root, nobody and daemon, every fifteenth stopped, one that
#: spins, and one that exits unreaped (a zombie); prints when they are all there.
PARENT = """
import os, signal, sys, time
kids = []
for i in range(100):
    pid = os.fork()
    if pid == 0:
        uid = 65534 if i % 3 == 1 else 1 if i % 10 == 2 else 0
        os.setgid(uid); os.setuid(uid)
        if i == 50:
            os._exit(0)
        if i == 70:
            os.execv("/bin/sh", ["sh", "-c", "while :; do :; done"])
        os.execv("/bin/sleep", ["sleep", str(1000 + i)])
    kids.append(pid)
for pid in kids[::15]:
    os.kill(pid, signal.SIGSTOP)
time.sleep(2)
print("ready", flush=True)
time.sleep(600)
"""


def ps_output() -> bytes:
    """`ps u` of the children of a parent that starts them, the columns `ps aux` prints."""
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, start_new_session=True)
    try:
        assert parent.stdout is not None and parent.stdout.readline() == b"ready\n"
        argv = ["ps", "u", "--ppid", str(parent.pid)]
        return subprocess.run(argv, capture_output=True, check=True, env=ENV).stdout
    finally:
        os.killpg(parent.pid, signal.SIGKILL)
        parent.wait()


def directories() -> dict[str, Path]:
    paths = sysconfig.get_paths()
    return {"/": Path("/"), "stdlib": Path(paths["stdlib"]), "purelib": Path(paths["purelib"])}


def generate(names: list[str]) -> None:
    HERE.mkdir(parents=True, exist_ok=True)
    where = directories()
    for name, (argv, cwd) in CASES.items():
        if names and name not in names:
            continue
        if cwd == "porcelain":
            where[cwd] = porcelain_repo()
        if argv[0] == "ps":
            out = ps_output()
        else:
            out = subprocess.run(argv, cwd=where[cwd], capture_output=True, check=True, env=ENV).stdout
        (HERE / f"{name}.txt").write_bytes(out)
        print(f"{name}: {len(out):,} bytes")


def refresh() -> None:
    write_expected(HERE, dict.fromkeys(CASES, "bash"), BUDGETS)


if __name__ == "__main__":
    main(__doc__, CASES, generate, refresh)
