"""Makes the golden files of the read, listing, diff, matches, frames and diagnostics planners from
real outputs of real programs.

`python tests/golden/make_shape_goldens.py` runs each case's command (`cat -n` and `nl -ba` of
CPython standard library modules, `find`, `ls -R` and a `grep -c` count per file of its
packages, `grep -r` without line numbers and `grep -A` over one module, `git show`, `git log
-p` and `git log --stat` of this repository's own history, `git status` of a scratch repository
of some of its packages, a training loop's tqdm bars), writes its output to
`tests/golden/shapes/<name>.txt`, and then the expected compressions. The inputs are
committed, so the tests need neither the programs nor the library. `--refresh` only rewrites
the expected files from the committed inputs, after an intended change of a planner's output.

Expected files are `<name>.<budget>.expected`, compressed as the output of the case's tool.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import NamedTuple

from expected import main, write_expected

HERE = Path(__file__).parent / "shapes"
REPO = Path(__file__).resolve().parents[2]
BUDGETS = (2000, 4000, 16_000)


class Case(NamedTuple):
    #: The tool name the output is compressed as.
    tool: str
    #: The shape a plan of it has at every budget it exceeds.
    shape: str
    argv: list[str]
    #: "stdlib" (the CPython standard library) or "repo" (this repository).
    root: str


#: A windowed viewer pointed at line 1250 of argparse.py (SWE-agent's `open argparse.py 1250`):
#: its header, the lines above and below, and the 100 numbered lines around the line, made the
#: way that viewer makes them (`grep -n` and a line range).
WINDOW_AT_1250 = [
    "sh",
    "-c",
    'n=$(wc -l < argparse.py); echo "[File: argparse.py ($n lines total)]"; '
    'echo "(1199 more lines above)"; grep -n "" argparse.py | sed -n 1200,1299p; '
    'echo "($((n - 1299)) more lines below)"',
]

#: The same viewer pointed near the end of argparse.py (`goto` a line in its last hundred): a
#: viewer shows nothing past a file's end, so its window is the file's last 100 lines, with no
#: lines below.
WINDOW_AT_THE_END = [
    "sh",
    "-c",
    'n=$(wc -l < argparse.py); echo "[File: argparse.py ($n lines total)]"; '
    'echo "($((n - 100)) more lines above)"; grep -n "" argparse.py | tail -n 100',
]

#: Three epochs of 1,500 steps under tqdm's bar (every step drawn), each followed by a line of
#: its own, as a script an agent runs to train a model prints them.
TRAINING = """
import sys
from tqdm import tqdm

print("loading 4,500 samples from data/train.jsonl", flush=True)
for epoch in range(3):
    loss = 0.0
    for step in tqdm(range(1500), desc=f"epoch {epoch}", file=sys.stdout, mininterval=0, miniters=1):
        loss = 2.0 / (1 + epoch + step / 1500)
    print(f"epoch {epoch}: train_loss={loss:.4f} val_loss={loss * 1.1:.4f}", flush=True)
print("saved checkpoint to out/model.pt", flush=True)
"""

#: Forty epochs of 50 steps under tqdm's bar, each followed by its losses, then a summary: too
#: long to show whole as a terminal leaves it at the smaller budgets, so its ends are shown.
TRAINING_LONG = """
import sys
from tqdm import tqdm

print("loading 8,000 samples from data/train.jsonl", flush=True)
best = None
for epoch in range(40):
    for step in tqdm(range(50), desc=f"epoch {epoch}", file=sys.stdout, mininterval=0, miniters=1):
        loss = 2.0 / (1 + epoch + step / 50)
    print(f"epoch {epoch}: train_loss={loss:.4f} val_loss={loss * 1.1:.4f}", flush=True)
    best = loss * 1.1 if best is None else min(best, loss * 1.1)
print(f"best val_loss={best:.4f}; saved checkpoint to out/model.pt", flush=True)
"""

#: A C file of twelve functions in turn, each drawing a few of gcc's `-Wall -Wextra` warnings:
#: signedness, unused variables and parameters, a format's type, fall-through, an assignment
#: as a condition.
WARNED_C = "#include <stdio.h>\n#include <string.h>\n\nstatic int counter;\n" + "".join(
    f"""
int parse_{i}(const char *line, int strict) {{
    int length = strlen(line);
    unsigned int limit = {80 + i};
    char buffer_{i}[16];
    if (length > limit) return -1;
    switch (length) {{
    case 0: counter = {i};
    case 1: counter += 2; break;
    }}
    printf("%s: %d\\n", line, (long)length);
    if (counter = {i}) return 1;
    return 0;
}}
"""
    for i in range(12)
)

#: A crate of ten modules in turn, each drawing rustc's warnings: unused variables and
#: functions, a variable that need not be mutable, an unused `Result`.
WARNED_RUST = (
    "use std::fmt::Write;\n"
    + "".join(
        f"""
mod part_{i} {{
    pub fn parse(line: &str) -> Option<u32> {{
        let mut total_{i} = 0;
        let trimmed_{i} = line.trim();
        line.split(',').next()?.parse().ok()
    }}

    fn unused_helper_{i}(x: u32) -> u32 {{
        x + {i}
    }}
}}
"""
        for i in range(10)
    )
    + """
fn write_all(out: &mut String) {
    let mut count = 3;
    write!(out, "{}", count);
}

fn main() {
    let mut s = String::new();
    write_all(&mut s);
    let value = part_0::parse("1,2");
    println!("{s}");
}
"""
)

#: name (says what the output shows) -> case.
CASES = {
    "cat_n_argparse_stdlib": Case("read_file", "read", ["cat", "-n", "argparse.py"], "stdlib"),
    "cat_textwrap_stdlib": Case("read_file", "read", ["cat", "textwrap.py"], "stdlib"),
    "nl_ba_shlex_stdlib": Case("read_file", "read", ["nl", "-ba", "shlex.py"], "stdlib"),
    "window_at_1250_argparse_stdlib": Case("read_file", "read", WINDOW_AT_1250, "stdlib"),
    # The same window printed by a shell, as a hook hands it on: its numbers make it a read.
    "window_at_1250_argparse_by_a_shell_stdlib": Case("bash", "read", WINDOW_AT_1250, "stdlib"),
    "window_at_the_end_of_argparse_stdlib": Case("read_file", "read", WINDOW_AT_THE_END, "stdlib"),
    # A file a harness already cut, as mini-swe-agent cuts an output over 10,000 characters: its
    # first and last 5,000 around its note, the cuts inside lines.
    "harness_cut_of_textwrap_stdlib": Case(
        "read_file",
        "read",
        [
            "sh",
            "-c",
            "n=$(wc -c < textwrap.py); head -c 5000 textwrap.py; "
            "printf '\\n<elided_chars>\\n%d characters elided\\n</elided_chars>\\n' $((n - 10000)); "
            "tail -c 5000 textwrap.py",
        ],
        "stdlib",
    ),
    "find_packages_with_pycache_stdlib": Case(
        "bash", "listing", ["find", "asyncio", "email", "json", "xml", "concurrent", "-type", "f"], "stdlib"
    ),
    # Every module of the library, outside its tests: paths in more directories than a map can
    # show at small budgets, where the gap after the first lines tallies them by directory.
    "find_py_files_stdlib": Case(
        "bash",
        "listing",
        ["find", ".", "-name", "*.py", "-not", "-path", "./test/*", "-not", "-path", "*/site-packages/*"],
        "stdlib",
    ),
    "ls_r_packages_stdlib": Case("bash", "listing", ["ls", "-R", "asyncio", "email", "json", "xml"], "stdlib"),
    # Rows a search tool summarised, `PATH (N matches)` between the header and footer SWE-agent's
    # `search_dir` prints, made from `grep -c` over the packages (their `__pycache__` included).
    "search_dir_rows_def_stdlib": Case(
        "grep",
        "listing",
        [
            "sh",
            "-c",
            "rows=$(grep -rc 'def ' asyncio concurrent email http importlib json logging unittest xml"
            " | grep -v ':0$' | sort); "
            "n=$(printf '%s\\n' \"$rows\" | awk -F: '{s += $NF} END {print s}'); "
            'echo "Found $n matches for \\"def \\" in .:"; '
            "printf '%s\\n' \"$rows\" | sed 's/^\\(.*\\):\\([0-9]*\\)$/\\1 (\\2 matches)/'; "
            "echo 'End of matches for \"def \" in .'",
        ],
        "stdlib",
    ),
    # Searches the search planner cannot map: `grep -r` without `-n` prints `path:text`, and
    # `grep -A` over one file no path at all. Their definitions come first.
    "grep_r_shorten_stdlib": Case(
        "grep", "matches", ["grep", "-r", "--include=*.py", "--exclude-dir=site-packages", "shorten", "."], "stdlib"
    ),
    "grep_A12_def_textwrap_stdlib": Case("grep", "matches", ["grep", "-A", "12", "def ", "textwrap.py"], "stdlib"),
    # The commit that added the read planner, and the two that added the diff planner and
    # moved its walk into gapped/: Rust, Python and tests.
    "git_show_read_planner_repo": Case("bash", "diff", ["git", "show", "4d8116a"], "repo"),
    "git_log_p_diff_planner_repo": Case("bash", "diff", ["git", "log", "-p", "-n", "2", "9119d21"], "repo"),
    # `git status` of a scratch repository of standard-library packages: `asyncio`'s and
    # `email`'s modules edited, `json`'s and `xml.dom`'s removed from the index, twenty new
    # scratch files in `unittest`, `logging` never added.
    "git_status_three_sections_stdlib": Case(
        "bash",
        "listing",
        [
            "sh",
            "-c",
            'd=$(mktemp -d) && cp -r asyncio email json logging unittest xml "$d" && cd "$d" && '
            "git init -q && git add asyncio email json unittest xml && "
            "git -c user.name=a -c user.email=a@b commit -qm init && "
            "for f in asyncio/*.py email/*.py email/mime/*.py; do echo '# edited' >> \"$f\"; done && "
            "for i in $(seq 1 20); do touch unittest/scratch_$i.py; done && "
            'git rm -q --cached json/*.py xml/dom/*.py && git status; s=$?; rm -rf "$d"; exit $s',
        ],
        "stdlib",
    ),
    # A commit log without patches: the 25 commits up to the diff planner's, with their files.
    "git_log_stat_to_diff_planner_repo": Case("bash", "diff", ["git", "log", "--stat", "-n", "25", "9119d21"], "repo"),
    # A training loop as a script prints it: tqdm redraws a bar per epoch with carriage
    # returns, every step, and the script prints a line after each epoch.
    "tqdm_three_epochs_repo": Case("bash", "frames", [sys.executable, "-c", TRAINING], "repo"),
    "tqdm_forty_epochs_repo": Case("bash", "frames", [sys.executable, "-c", TRAINING_LONG], "repo"),
    # ruff's findings in its full format (its default): a rule code, the place under an arrow,
    # a code frame, help, and the fix it suggests; its count at the end.
    "ruff_check_json_stdlib": Case(
        "bash",
        "diagnostics",
        [
            "sh",
            "-c",
            f"{sys.executable} -m ruff check --no-cache --isolated --select E,F,W,B,UP,SIM "
            "--output-format full json; true",
        ],
        "stdlib",
    ),
    # gcc's warnings on a small C file, each with its code frame.
    "gcc_wall_warnings_repo": Case(
        "bash",
        "diagnostics",
        [
            "sh",
            "-c",
            'd=$(mktemp -d) && cd "$d" && cat > report.c && '
            'gcc -Wall -Wextra -fsyntax-only report.c 2>&1; cd / && rm -rf "$d"',
        ],
        "repo",
    ),
    # `make` of sixty C files that succeeds, two of them drawing gcc's warnings among the
    # compile commands: no log, and a clip of its ends showed none of the warnings.
    "make_few_warnings_repo": Case(
        "bash",
        "diagnostics",
        [
            "sh",
            "-c",
            'd=$(mktemp -d) && cd "$d" && mkdir src && for i in $(seq -w 0 59); do '
            'if [ "$i" = 17 ] || [ "$i" = 33 ]; then '
            "printf '#include <string.h>\\nint f%s(const char *s) { int unused; unsigned n = strlen(s); "
            'int i; for (i = 0; i < n; i++) {} return 0; }\\n\' "$i" > src/u$i.c; '
            "else printf 'int f%s(int x) { return x + 1; }\\n' \"$i\" > src/u$i.c; fi; done && "
            "printf 'CFLAGS = -Wall -Wextra -O2 -DFEATURE_LOGGING=1 -DFEATURE_METRICS=1\\n"
            "OBJS = $(patsubst src/%%.c,build/%%.o,$(wildcard src/*.c))\\nall: lib.a\\n"
            "lib.a: $(OBJS)\\n\\t@ar rcs $@ $^\\n\\t@echo built lib.a\\n"
            "build/%%.o: src/%%.c\\n\\t@mkdir -p build\\n\\tgcc $(CFLAGS) -c $< -o $@\\n' > Makefile && "
            'make -j1 2>&1; cd / && rm -rf "$d"',
        ],
        "repo",
    ),
    # `cargo check` of a crate whose code draws rustc's warnings, and cargo's count.
    "cargo_check_warnings_repo": Case(
        "bash",
        "diagnostics",
        [
            "sh",
            "-c",
            'd=$(mktemp -d) && cd "$d" && mkdir src && cat > src/main.rs && '
            'printf \'[package]\\nname = "toy"\\nversion = "0.1.0"\\nedition = "2021"\\n\' > Cargo.toml && '
            f"PATH={Path(shutil.which('cargo') or 'cargo').parent}:$PATH "
            f"RUSTUP_HOME={os.environ.get('RUSTUP_HOME', Path.home() / '.rustup')} "
            'CARGO_HOME="$d/.cargo" cargo check --offline 2>&1; cd / && rm -rf "$d"',
        ],
        "repo",
    ),
}

#: What a case's command reads on its standard input.
STDIN = {"gcc_wall_warnings_repo": WARNED_C, "cargo_check_warnings_repo": WARNED_RUST}


def roots() -> dict[str, Path]:
    return {"stdlib": Path(sysconfig.get_paths()["stdlib"]), "repo": REPO}


def generate(names: list[str]) -> None:
    HERE.mkdir(parents=True, exist_ok=True)
    where = roots()
    for name, case in CASES.items():
        if names and name not in names:
            continue
        # Fixed collation and no colour, so the listing's order is the same on every machine.
        env = {"LC_ALL": "C", "PATH": "/usr/bin:/bin", "GIT_PAGER": "cat", "HOME": str(REPO)}
        out = subprocess.run(
            case.argv,
            cwd=where[case.root],
            capture_output=True,
            check=True,
            env=env,
            input=STDIN.get(name, "").encode(),
        ).stdout
        (HERE / f"{name}.txt").write_bytes(out)
        print(f"{name}: {len(out):,} bytes")


def refresh() -> None:
    write_expected(HERE, {name: case.tool for name, case in CASES.items()}, BUDGETS)


if __name__ == "__main__":
    main(__doc__, CASES, generate, refresh)
