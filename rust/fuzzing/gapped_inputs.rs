//! Inputs of the shapes that show lines around gaps, written from a fuzzer's bytes: unified
//! diffs, listings of paths and file reads.
//!
//! Each is mostly well formed, so that its planner plans it, and bent where that planner has to
//! judge: a hunk header that miscounts its body, body lines that read as headers (`-- x`, `+++
//! b/x`, `@@`), paths with spaces or colons among a listing's entries, lines too long to be
//! shown, escapes, raw bytes. What a plan of them must keep is checked by `gapped_check`.

use std::fmt::Write as _;

use super::program::{Choices, from_words};

/// Bytes a diff or a listing is written to at most: enough lines for a plan to choose from.
const MAX_BYTES: usize = 32 << 10;

/// What the lines of a hunk's body say, after their `' '`, `'-'` or `'+'`.
const BODY: &[&str] = &[
    "",
    "x",
    "let a = 1;",
    "-- a comment in SQL",
    "-- a/x",
    "++ b/x",
    "++i;",
    "@@ -1,2 +1,2 @@",
    "diff --git a/q b/q",
    "\t}",
    "\u{e9}\u{6f22}\u{1f600}",
    "e\u{301}",
    "\u{1b}[31mred\u{1b}[0m",
    "trailing\r",
    "[lines 3-5 omitted]",
];

/// Lines around the files of a diff that are neither headers nor hunks.
const DIFF_NOISE: &[&str] = &[
    "",
    "warning: LF will be replaced by CRLF in x.txt.",
    "Binary files a/logo.png and b/logo.png differ",
    "\\ No newline at end of file",
    "similarity index 90%",
    "rename from old/name.rs",
    "rename to new/name.rs",
    "new file mode 100644",
    "deleted file mode 100755",
    "index 3b18e51..a9c2f1d 100644",
];

/// A unified diff written by the program in `choices`: a file header, then, as each byte
/// says, hunks (small, or many lines long), more file headers (`git diff` or `diff -u`
/// form), `git log -p` commit headers, or a line of noise or raw bytes. A quarter of the
/// programs write a commit log without patches instead ([`commit_log`]).
pub fn diff(choices: &mut Choices<'_>) -> Vec<u8> {
    let form = choices.byte();
    if form % 4 == 0 {
        return commit_log(choices);
    }
    let mut out = String::new();
    let mut files = 0;
    file_header(&mut out, form, &mut files);
    let mut line = 1;
    while !choices.is_empty() && out.len() < MAX_BYTES {
        let op = choices.byte();
        match op % 8 {
            0 => {
                let _ = write!(
                    out,
                    "commit {:040x}\nAuthor: A U Thor <a@u.th>\nDate:   Mon Jan 1 00:00:00 2024 +0000\n\n    change {op}\n\n",
                    u64::from(choices.u16()) * 0x9e37_79b9
                );
            }
            1 => {
                file_header(&mut out, choices.byte(), &mut files);
                line = 1;
            }
            2 => {
                let noise = choices.byte();
                if noise & 0x80 == 0 {
                    out.push_str(DIFF_NOISE[usize::from(noise) % DIFF_NOISE.len()]);
                } else {
                    let raw = choices.take(usize::from(noise % 16));
                    out.push_str(&String::from_utf8_lossy(raw));
                }
                out.push('\n');
            }
            _ => line = hunk(&mut out, choices, op, line),
        }
    }
    out.into_bytes()
}

/// A commit log (`git log --stat`) written by the program in `choices`: a commit, then, as
/// each byte says, more commits, message lines of any length, `--stat` lines, blank lines,
/// or a line of noise or raw bytes (which make it no commit log).
fn commit_log(choices: &mut Choices<'_>) -> Vec<u8> {
    let mut out = String::new();
    let mut commits = 0_u64;
    let mut commit = |out: &mut String, op: u8| {
        let _ = write!(
            out,
            "commit {:040x}\nAuthor: A U Thor <a@u.th>\nDate:   Mon Jan 1 00:00:00 2024 +0000\n\n    change {op}\n",
            commits * 0x9e37_79b9
        );
        commits += 1;
    };
    commit(&mut out, 0);
    while !choices.is_empty() && out.len() < MAX_BYTES {
        let op = choices.byte();
        match op % 8 {
            0 | 1 => commit(&mut out, op),
            2 | 3 => {
                let words = usize::from(choices.byte() % 40);
                out.push_str("   ");
                out.push_str(&" why".repeat(words));
                out.push('\n');
            }
            4 => {
                let _ = writeln!(out, " src/file_{op}.rs | {op} +++---");
            }
            5 => out.push('\n'),
            6 => out.push_str("Merge: 3b18e51 a9c2f1d\n"),
            _ => {
                let raw = choices.take(usize::from(op % 16));
                out.push_str(&String::from_utf8_lossy(raw));
                out.push('\n');
            }
        }
    }
    out.into_bytes()
}

/// A section of `git status`, as `op` says which: its title, a hint or two, and `entries`
/// files under `dir` (states before tracked ones' paths, a rename now and then).
fn git_status_section(out: &mut String, op: u8, dir: &str, entries: usize) {
    const SECTIONS: [(&str, &str); 3] = [
        (
            "Changes to be committed:",
            "  (use \"git restore --staged <file>...\" to unstage)",
        ),
        (
            "Changes not staged for commit:",
            "  (use \"git add <file>...\" to update what will be committed)",
        ),
        (
            "Untracked files:",
            "  (use \"git add <file>...\" to include in what will be committed)",
        ),
    ];
    let (title, hint) = SECTIONS[usize::from(op) % SECTIONS.len()];
    let _ = writeln!(out, "{title}\n{hint}");
    for i in 0..entries {
        let _ = match (usize::from(op) % SECTIONS.len(), i % 7) {
            (2, _) => writeln!(out, "\t{dir}/{i}.rs"),
            (_, 3) => writeln!(out, "\trenamed:    {dir}/old_{i}.rs -> {dir}/{i}.rs"),
            (0, _) => writeln!(out, "\tnew file:   {dir}/{i}.rs"),
            _ => writeln!(out, "\tmodified:   {dir}/{i}.rs"),
        };
    }
    out.push('\n');
}

/// A file's header in the form `form` chooses; `files` counts them, for the file names.
fn file_header(out: &mut String, form: u8, files: &mut u32) {
    let name = format!(
        "src/{}/file_{files}.rs",
        ["a", "b b", "c-1-d"][usize::from(form % 3)]
    );
    *files += 1;
    if form & 0x10 == 0 {
        let _ = writeln!(out, "diff --git a/{name} b/{name}");
        if form & 0x20 != 0 {
            out.push_str(DIFF_NOISE[5 + usize::from(form >> 6)]);
            out.push('\n');
        }
        out.push_str("index 3b18e51..a9c2f1d 100644\n");
        let _ = write!(out, "--- a/{name}\n+++ b/{name}\n");
    } else {
        let _ = write!(
            out,
            "--- {name}\t2024-01-01 00:00:00\n+++ {name}\t2024-01-02 00:00:00\n"
        );
    }
}

/// A hunk starting at old and new line `line`, its body written from `choices`: many lines
/// when `op` has its top bit, and a header that miscounts the body when it has the next.
/// Returns the line after it.
fn hunk(out: &mut String, choices: &mut Choices<'_>, op: u8, line: u64) -> u64 {
    let lines = 1 + usize::from(choices.byte() % 16) * if op & 0x80 == 0 { 1 } else { 12 };
    let mut body = String::new();
    let (mut old, mut new) = (0u64, 0u64);
    for i in 0..lines {
        let pick = choices.byte();
        let sign = [' ', '-', '+'][usize::from(pick % 3)];
        old += u64::from(sign != '+');
        new += u64::from(sign != '-');
        body.push(sign);
        body.push_str(BODY[usize::from(pick / 3) % BODY.len()]);
        if pick == 255 {
            // A line too long for a patch to show.
            body.push_str(&"long ".repeat(2000));
        }
        if op & 0x20 != 0 {
            let _ = write!(body, " {i}");
        }
        body.push('\n');
    }
    let miscount = u64::from(op & 0x40 != 0);
    let _ = writeln!(
        out,
        "@@ -{line},{} +{line},{new} @@ fn section_{op}()",
        old + miscount
    );
    out.push_str(&body);
    line + old.max(new) + 3
}

/// Directories of a listing's entries: some shown by `find` and `tree` but read as noise
/// (tests, vendored code), one with a space and one with a colon that make no entry.
const DIRS: &[&str] = &[
    "src",
    "src/core",
    "lib/a-1-b",
    "tests",
    "node_modules/lodash",
    "docs",
    "build/out",
    "\u{e9}\u{6f22}",
    "with space",
    "a:b",
    ".git/objects",
    "pkg/v2/deep/er",
];

/// Names of a listing's entries.
const NAMES: &[&str] = &[
    "main.rs",
    "mod.rs",
    "a-12-b.py",
    "Makefile",
    "README.md",
    "x.c",
    ".hidden",
    "no_extension",
    "sub/",
    "data.json",
];

/// Lines a listing may hold that are not entries.
const LISTING_NOISE: &[&str] = &[
    "",
    "total 48",
    "find: './private': Permission denied",
    "3 directories, 12 files",
    "\u{1b}[01;34mcolored\u{1b}[0m",
    "error: something went wrong",
];

/// A listing written by the program in `choices`, in the form its first byte chooses (`find`,
/// `ls -R`, `tree`, bare paths or `git status`): groups of entries in one directory, some many
/// entries long, and now and then a line that is no entry.
pub fn listing(choices: &mut Choices<'_>) -> Vec<u8> {
    let form = choices.byte() % 5;
    let mut out = String::new();
    while !choices.is_empty() && out.len() < MAX_BYTES {
        let op = choices.byte();
        if op % 8 == 0 {
            out.push_str(LISTING_NOISE[usize::from(op / 8) % LISTING_NOISE.len()]);
            out.push('\n');
            continue;
        }
        let dir = DIRS[usize::from(op / 8) % DIRS.len()];
        let spec = choices.byte();
        let entries = 1 + usize::from(spec % 16) * if op & 0x80 == 0 { 1 } else { 16 };
        let depth = dir.matches('/').count();
        if form == 4 {
            git_status_section(&mut out, op, dir, entries);
            continue;
        }
        match form {
            0 => {
                let _ = writeln!(out, "./{dir}");
            }
            1 => {
                let _ = writeln!(out, "./{dir}:");
            }
            2 => {
                let _ = writeln!(
                    out,
                    "{}\u{251c}\u{2500}\u{2500} {dir}",
                    "\u{2502}   ".repeat(depth)
                );
            }
            _ => {}
        }
        for i in 0..entries {
            let name = NAMES[(usize::from(spec / 16) + i) % NAMES.len()];
            let _ = match form {
                0 => writeln!(out, "./{dir}/{i}{name}"),
                1 => writeln!(out, "{i}{name}"),
                2 => {
                    let branch = if i + 1 == entries {
                        '\u{2514}'
                    } else {
                        '\u{251c}'
                    };
                    let indent = "\u{2502}   ".repeat(depth + 1);
                    writeln!(out, "{indent}{branch}\u{2500}\u{2500} {i}{name}")
                }
                _ => writeln!(out, "{dir}/{i}{name}"),
            };
        }
        if form == 1 {
            out.push('\n');
        }
    }
    out.into_bytes()
}

/// Fragments of source files as a reading tool shows them: definitions in many languages,
/// bodies, comments and blank lines, the line numbers viewers print, the notes a harness
/// prints where it cut, and characters of every width.
const CODE_WORDS: &[&str] = &[
    "\n",
    "\n",
    "\n",
    "\n",
    "\r\n",
    "    ",
    "\t",
    "        ",
    "def run(self, x):",
    "async def fetch():",
    "class Parser(Base):",
    "    return x",
    "# a comment",
    "// a comment",
    "/* a block",
    " */",
    "\"\"\"A docstring.\"\"\"",
    "fn main() {",
    "pub fn len(&self) -> usize {",
    "impl Iterator for Walk {",
    "pub struct Table {",
    "}",
    "};",
    "public static void main(String[] args) {",
    "private int count = 0;",
    "int add(int a, int b) {",
    "if (x) {",
    "return a + b;",
    "func (s *Server) Serve() error {",
    "function draw(ctx) {",
    "export const x = 1;",
    "import os",
    "from a import b",
    "x = [1, 2, 3]",
    "     1\t",
    "  12\t",
    "12:",
    "42 ",
    "\u{e9}\u{6f22}",
    "\u{1f600}",
    "e\u{301}",
    "\u{1b}[32m",
    "[shapeclip: x]",
    "[lines 3-5 omitted]",
    "52440 characters elided",
    "\u{2026}1200 tokens truncated\u{2026}",
    "\u{fffd}",
    "\0",
];

/// A file read written by the program in `choices` from [`CODE_WORDS`] (see [`from_words`]).
pub fn read(choices: &mut Choices<'_>) -> Vec<u8> {
    from_words(CODE_WORDS, choices)
}

/// How a viewer numbers a line: SWE-agent's window, Claude Code's Read, `cat -n`.
const NUMBER_FORMS: [fn(u64) -> String; 3] = [
    |n| format!("{n}:"),
    |n| format!("{n:>6}\u{2192}"),
    |n| format!("{n:>6}\t"),
];
/// What a viewer prints above and below the numbered lines.
const VIEWER_LINES: [&str; 4] = [
    "[File: /repo/src/app.py (4000 lines total)]",
    "(546 more lines above)",
    "(2354 more lines below)",
    "File updated. Please review the changes.",
];

/// A file read as a viewer prints it: a form of numbers, a first number, up to three lines
/// above and below the numbered ones, and a line after which the numbers jump (none, mostly),
/// all from `choices`, around lines written from [`CODE_WORDS`].
pub fn numbered(choices: &mut Choices<'_>) -> Vec<u8> {
    let form = NUMBER_FORMS[usize::from(choices.byte()) % NUMBER_FORMS.len()];
    let framing = choices.byte();
    let first = u64::from(choices.u16()) + 1;
    let jump = choices.byte();
    let body = String::from_utf8_lossy(&from_words(CODE_WORDS, choices)).into_owned();
    let mut out = String::new();
    for line in VIEWER_LINES.iter().take(usize::from(framing % 4)) {
        out.push_str(line);
        out.push('\n');
    }
    let mut number = first;
    for (i, line) in body.split_inclusive('\n').enumerate() {
        if jump >= 192 && i == usize::from(jump - 192) {
            number += u64::from(jump);
        }
        out.push_str(&form(number));
        out.push_str(line);
        number += 1;
    }
    for line in VIEWER_LINES.iter().rev().take(usize::from(framing / 4 % 4)) {
        if !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(line);
    }
    out.into_bytes()
}
