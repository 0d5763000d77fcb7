//! Grep floods written from a fuzzer's bytes, with the truth the writer knows: each file's
//! path, its rows and its number of matches.
//!
//! Paths come from pieces that have misled the row parser before (`-12-` in a name, a time in
//! a path, spaces, drive letters, names without an extension); row text comes from characters
//! that look like separators (`:`, `-`, digits) and characters of every width. Parentheses
//! never occur, so that a line ending in `(… matches)` can only be one the planner wrote.

use std::fmt::Write as _;

use super::numbers::number;
use super::program::Choices;
use crate::engine::Outcome;
use crate::engine::reader::LineReader;
use crate::plan::Shape;
use crate::search::SearchPlanner;
use crate::text::ansi::{SGR_RESET, sgr_open};

/// How grep and ripgrep print their rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `path:NN:text`.
    Plain,
    /// `path:NN:text` and `path-NN-text` rows this many lines around each match, `--` between.
    Context(u64),
    /// `path:NN:CC:text` for a match (`--column`, vimgrep).
    Column,
    /// The path on a line of its own, then bare `NN:text` rows (`--heading`).
    Heading,
}

const DIRS: &[&str] = &[
    "src/",
    "./lib/a-1-b/",
    "/abs/with space/",
    "C:\\win\\dir\\",
    "tests/2024-01-02/",
    "pkg/v2:3/deep/er/",
    "",
    "logs/10:00:01/",
    "scripts/",
    "d7/s3/",
    "\u{e9}\u{6f22}/",
    "a/b/c/d/e/f/",
];
const NAMES: &[&str] = &[
    "mod.rs",
    "a-12-b.py",
    "Makefile",
    "data-7.txt",
    "x.c",
    "step-1-deploy",
    "10:00:01.log",
    "n.py",
];
/// What row text is made of.
const TEXT: &[&str] = &[
    "a",
    "Z",
    " ",
    "\t",
    "-",
    "1",
    "2",
    "9",
    ":",
    "/",
    ".",
    "=",
    "_",
    "\\",
    "[",
    "]",
    "\"",
    ",",
    "#",
    "-3-",
    "12:34:56",
    ":7:",
    "x = d[1:2:3]",
    "return None",
    " error: ",
    "\u{e9}",
    "\u{6f22}",
    "\u{1f600}",
    "e\u{301}",
    "\u{1b}[31m",
    "\r",
    "0",
];
/// Bytes of flood at most: enough to spill the table, small enough to run fast.
const MAX_BYTES: usize = 128 << 10;

/// A row as its file's group shows it: from the line number on.
struct Row {
    line_no: u64,
    text: String,
}

struct File {
    path: String,
    matches: u64,
    rows: Vec<Row>,
}

/// A flood and the truth of it.
pub struct Flood {
    pub text: String,
    format: Format,
    files: Vec<File>,
}

impl Flood {
    /// An empty flood of rows printed as `format` prints them.
    #[must_use]
    pub fn new(format: Format) -> Flood {
        Flood {
            text: String::new(),
            format,
            files: Vec::new(),
        }
    }

    /// Each file's path and its number of matches, in the order written.
    #[must_use]
    pub fn truth(&self) -> Vec<(String, u64)> {
        self.files
            .iter()
            .map(|f| (f.path.clone(), f.matches))
            .collect()
    }

    /// A flood written by the fuzzer's `choices`: files of paths that have misled the parser,
    /// each with rows of one text, some written many times over.
    pub fn read(choices: &mut Choices<'_>) -> Flood {
        let format = match choices.byte() % 6 {
            0 | 1 => Format::Plain,
            2 => Format::Column,
            3 => Format::Heading,
            c => Format::Context(u64::from(c) - 3),
        };
        let mut flood = Flood::new(format);
        while !choices.is_empty() && flood.text.len() < MAX_BYTES {
            let shape = choices.byte();
            let copies = if shape & 0x80 == 0 {
                1
            } else {
                1 + usize::from(choices.byte())
            };
            let spec = choices.byte();
            let text: String = choices
                .take(usize::from(spec % 8))
                .iter()
                .map(|&b| TEXT[usize::from(b) % TEXT.len()])
                .collect();
            for _ in 0..copies {
                if flood.text.len() >= MAX_BYTES {
                    break;
                }
                flood.add_generated(shape, spec, &text);
            }
        }
        flood
    }

    /// Adds a file whose path and matches `shape` and `spec` choose, each row showing `text`.
    fn add_generated(&mut self, shape: u8, spec: u8, text: &str) {
        let f = self.files.len();
        let dir = DIRS[usize::from(shape) % DIRS.len()];
        let mut name = NAMES[usize::from(shape / 12) % NAMES.len()];
        // A space in the path and no extension in the name is beyond what a context row
        // holding `-12-` can be told apart from (see `search::row::line::parse_path_row`).
        if dir.contains(' ') && !name.contains('.') {
            name = "notes.txt";
        }
        let n = 1 + u64::from(spec / 8 % 8) * if spec & 0x40 == 0 { 1 } else { 5 };
        let mut state = u64::from(spec) << 32 | f as u64 | 1;
        let mut matches = Vec::new();
        let mut at = 0;
        for _ in 0..n {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            at += 1 + state % 9;
            matches.push(at);
        }
        self.add_file(format!("{dir}{f}{name}"), &matches, |line, _| {
            (text.to_owned(), 1 + line % 30)
        });
    }

    /// Writes the rows of a file at `path` whose matches are on the lines `matches` (in
    /// increasing order), with the lines of context around each that the format shows. `row`
    /// gives each row's text, in order, and, when its second argument says the format prints
    /// one, the column of the match.
    pub fn add_file(
        &mut self,
        path: String,
        matches: &[u64],
        mut row: impl FnMut(u64, bool) -> (String, u64),
    ) {
        let f = self.files.len();
        let c = if let Format::Context(c) = self.format {
            c
        } else {
            0
        };
        let mut shown: Vec<(u64, bool)> = Vec::new();
        for &m in matches {
            for l in m.saturating_sub(c).max(1)..=m + c {
                match shown.iter_mut().find(|(x, _)| *x == l) {
                    Some(entry) => entry.1 |= l == m,
                    None => shown.push((l, l == m)),
                }
            }
        }
        shown.sort_unstable();
        let out = &mut self.text;
        if self.format == Format::Heading {
            if f > 0 {
                out.push('\n');
            }
            out.push_str(&path);
            out.push('\n');
        } else if c > 0 && f > 0 {
            out.push_str("--\n");
        }
        let mut rows = Vec::with_capacity(shown.len());
        let mut previous = None;
        for (l, is_match) in shown {
            if c > 0 && previous.is_some_and(|p: u64| p + 1 != l) {
                out.push_str("--\n");
            }
            previous = Some(l);
            let sep = if is_match { ':' } else { '-' };
            let column = is_match && self.format == Format::Column;
            let (text, at) = row(l, column);
            let row = if column {
                format!("{l}:{at}:{text}")
            } else {
                format!("{l}{sep}{text}")
            };
            if self.format != Format::Heading {
                out.push_str(&path);
                out.push(sep);
            }
            out.push_str(&row);
            out.push('\n');
            rows.push(Row {
                line_no: l,
                text: row,
            });
        }
        self.files.push(File {
            path,
            matches: matches.len() as u64,
            rows,
        });
    }

    /// The planner's table holds every file with its true count, and nothing else.
    pub fn check_table(&self) {
        let mut planner = SearchPlanner::new(100);
        let mut reader = LineReader::default();
        reader.feed_str(&self.text, &mut planner);
        reader.finish(&mut planner);
        planner.end();
        let table = &planner.table;
        if table.spilled_files > 0 || !planner.is_search_shaped() {
            return;
        }
        let parsed: Vec<(&str, u64)> = table
            .files
            .iter()
            .map(|f| (f.path.as_str(), f.matches))
            .collect();
        let truth: Vec<(&str, u64)> = self
            .files
            .iter()
            .map(|f| (f.path.as_str(), f.matches))
            .collect();
        assert_eq!(parsed, truth, "{:?}:\n{}", self.format, self.text);
        assert_eq!(table.other_lines, 0, "other lines in\n{}", self.text);
    }

    /// Every count a search plan states equals the truth, and a fold that says nothing was
    /// omitted shows every row.
    pub fn check_output(&self, out: &Outcome, budget: u64) {
        if out.plan.shape != Shape::Search || self.files.is_empty() {
            return;
        }
        let text = out.plan.render();
        let prefix = text
            .strip_prefix("[shapeclip: paths below are relative to ")
            .and_then(|rest| rest.split_once("]\n"))
            .map_or("", |(p, _)| p);
        if text.ends_with("[shapeclip: search output grouped by file; nothing omitted]") {
            assert_eq!(text, self.fold(prefix), "budget {budget}");
            return;
        }
        check_map(&text, &self.truth());
        // The marker ends the output, and its line.
        let marker = text.strip_suffix('\n').expect("a plan ends its last line");
        self.check_marker(marker.rsplit('\n').next().expect("a last line"));
    }

    /// The lossless fold: each path once, with `prefix` stated once, then its rows.
    fn fold(&self, prefix: &str) -> String {
        let mut out = String::new();
        if !prefix.is_empty() {
            let _ = writeln!(out, "[shapeclip: paths below are relative to {prefix}]");
        }
        let context = matches!(self.format, Format::Context(_));
        for (i, file) in self.files.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(
                file.path
                    .strip_prefix(prefix)
                    .expect("the prefix is common"),
            );
            out.push('\n');
            let mut previous: Option<u64> = None;
            for row in &file.rows {
                if context && previous.is_some_and(|p| p + 1 != row.line_no) {
                    out.push_str("--\n");
                }
                previous = Some(row.line_no);
                out.push_str(&row.text);
                // A colour a row leaves on is turned off before the next line.
                if sgr_open(&row.text) {
                    out.push_str(SGR_RESET);
                }
                out.push('\n');
            }
        }
        out.push_str("[shapeclip: search output grouped by file; nothing omitted]");
        out
    }

    /// The closing marker's totals: matched lines and files.
    fn check_marker(&self, marker: &str) {
        assert!(
            marker.starts_with("[shapeclip: "),
            "a search plan ends in its marker: {marker}"
        );
        let total_matches: u64 = self.files.iter().map(|f| f.matches).sum();
        let files = self.files.len() as u64;
        let (_, rest) = marker.split_once(" of ").expect("X of Y matched lines");
        let (y, _) = rest.split_once(" matched line").expect("Y matched lines");
        assert_eq!(number(y), total_matches, "{marker}");
        let said = marker
            .split_once("; ")
            .and_then(|(_, f)| {
                f.strip_suffix(" files]")
                    .or_else(|| f.strip_suffix(" file]"))
            })
            .or_else(|| {
                marker
                    .split_once("All ")
                    .map(|(_, f)| f.split(' ').next().expect("F"))
            })
            .or_else(|| {
                marker
                    .split_once("Of ")
                    .map(|(_, f)| f.split(' ').next().expect("F"))
            })
            .or_else(|| marker.contains(" 1 file is listed ").then_some("1"))
            .unwrap_or_else(|| panic!("no file total in {marker}"));
        assert_eq!(number(said), files, "{marker}");
    }
}

/// Checks every count the output states against the truth, and that every file is named or
/// counted in a directory line. Returns how many files are named.
pub fn check_map(text: &str, truth: &[(String, u64)]) -> usize {
    let prefix = text
        .strip_prefix("[shapeclip: paths below are relative to ")
        .and_then(|rest| rest.split_once("]\n"))
        .map_or("", |(p, _)| p);
    let shown = |p: &str| p.strip_prefix(prefix).unwrap_or(p).to_owned();
    let total_files = truth.len() as u64;
    let total_matches: u64 = truth.iter().map(|t| t.1).sum();
    let (mut named, mut dir_files, mut line_matches) = (0usize, 0u64, 0u64);
    for line in text.lines() {
        let Some((name, inside)) = line.rsplit_once(" (") else {
            continue;
        };
        let Some(inside) = inside.strip_suffix(')') else {
            continue;
        };
        let number = |s: &str| s.replace(',', "").parse::<u64>().unwrap();
        if inside.contains(" file") {
            let (files, matches) = inside.split_once(", ").unwrap();
            let other = files.starts_with("other ");
            let files = files.trim_start_matches("other ");
            let f = number(files.split(' ').next().unwrap());
            let m = number(matches.split(' ').next().unwrap());
            let skip = other || name == "all files" || name == "other directories";
            let skip = skip || (files.contains("directly inside") && name.starts_with('('));
            if !skip {
                let directly = files.contains("directly inside");
                let under: Vec<_> = truth
                    .iter()
                    .filter(|(p, _)| {
                        let p = shown(p);
                        p.strip_prefix(name)
                            .is_some_and(|rest| !directly || !rest.contains(['/', '\\']))
                    })
                    .collect();
                assert_eq!(
                    f,
                    under.len() as u64,
                    "files under {name}: {under:?}\n{text}"
                );
                assert_eq!(
                    m,
                    under.iter().map(|t| t.1).sum::<u64>(),
                    "matches under {name}"
                );
            }
            dir_files += f;
            line_matches += m;
        } else if let Some((n, rest)) = inside.split_once(" match") {
            let (path, count) = truth
                .iter()
                .find(|(p, _)| shown(p) == name)
                .unwrap_or_else(|| panic!("unknown file {name:?} in {line:?}"));
            assert_eq!(number(n), *count, "count of {path}");
            assert!(rest.is_empty() || rest.starts_with("es"), "{line}");
            named += 1;
            line_matches += count;
        }
    }
    assert_eq!(
        named as u64 + dir_files,
        total_files,
        "every file accounted once:\n{text}"
    );
    assert_eq!(line_matches, total_matches, "every match accounted once");
    named
}
