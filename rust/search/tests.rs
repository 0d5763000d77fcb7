//! Search planner tests through the whole engine: generated floods in every format, checked
//! against the counts the generator knows (the oracle), over many budgets and chunk splits.

#![allow(
    clippy::format_collect,
    reason = "test inputs are built for clarity, not speed"
)]

use std::fmt::Write as _;

use crate::engine::{Engine, Outcome};
use crate::fuzzing::flood::{Flood, Format, check_map};
use crate::plan::Shape;
use crate::planner::Budget;
use crate::profile::Profile;
use crate::text::char_count;

/// A small deterministic generator (xorshift), so failures replay.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[usize::try_from(self.below(items.len() as u64)).unwrap()]
    }
}

const DIRS: &[&str] = &[
    "src/",
    "./lib/a-1-b/",
    "/abs/with space/",
    "C:\\win\\dir\\",
    "tests/2024-01-02/",
    "pkg/v2:3/deep/er/",
    "",
];
const NAMES: &[&str] = &["mod.rs", "a-12-b.py", "Makefile", "data-7.txt", "x.c"];
const WORDS: &[&str] = &[
    "let",
    "x = d[1:2:3]",
    "-3-",
    "12:34:56",
    "é漢",
    "return None",
    ":",
];

/// A search output and the true per-file match counts, in first-seen order.
fn flood(seed: u64, files: usize, format: Format) -> (String, Vec<(String, u64)>) {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut flood = Flood::new(format);
    for f in 0..files {
        let dir = format!(
            "{}{}",
            rng.pick(DIRS),
            rng.pick(DIRS).trim_start_matches(['.', '/', 'C', ':'])
        );
        let mut name = rng.pick(NAMES);
        // A path with a space and a name without an extension is beyond what the parser can
        // tell from a context line whose text holds `-12-` (see `row::line::parse_path_row`).
        if dir.contains(' ') && !name.contains('.') {
            name = "notes.txt";
        }
        let hot = rng.below(4) == 0;
        let n = 1 + rng.below(if hot { 40 } else { 4 });
        let mut lines: Vec<u64> = Vec::new();
        let mut at = 0;
        for _ in 0..n {
            at += 1 + rng.below(9);
            lines.push(at);
        }
        flood.add_file(format!("{dir}{f}{name}"), &lines, |_, column| {
            let text = format!("{} {}", rng.pick(WORDS), rng.pick(WORDS));
            (text, if column { 1 + rng.below(30) } else { 0 })
        });
    }
    let truth = flood.truth();
    (flood.text, truth)
}

fn run_chunks(input: &str, budget: u64, chunk: usize) -> Outcome {
    let mut engine = Engine::new(
        Budget::new(budget, 0).unwrap(),
        Profile::new("search", Some("grep"), 1, 1).unwrap(),
    );
    for piece in input.as_bytes().chunks(chunk.max(1)) {
        engine.feed_bytes(piece);
    }
    engine.finish()
}

fn run(input: &str, budget: u64) -> Outcome {
    run_chunks(input, budget, input.len())
}

#[test]
fn every_format_every_budget_is_bounded_exact_and_complete() {
    for (seed, format) in [
        (1, Format::Plain),
        (2, Format::Context(2)),
        (3, Format::Column),
        (4, Format::Heading),
        (5, Format::Context(1)),
    ] {
        let (input, truth) = flood(seed, 60, format);
        let mut budgets: Vec<u64> = (1..=200).step_by(7).collect();
        budgets.extend([250, 400, 700, 1000, 2000, 4000, 8000, 16_000]);
        budgets.push(char_count(&input) - 1);
        for budget in budgets {
            let out = run(&input, budget);
            let text = out.plan.render();
            assert!(char_count(&text) <= budget, "{format:?} budget {budget}");
            if out.plan.shape == Shape::Search {
                if !text.contains("nothing omitted") {
                    check_map(&text, &truth);
                }
            } else if out.plan.shape != Shape::Passthrough {
                assert!(
                    budget < 400,
                    "{format:?} budget {budget} fell back to {:?}",
                    out.plan.shape
                );
            }
        }
    }
}

#[test]
fn a_roomy_budget_names_every_file_and_shows_first_matches() {
    let (input, truth) = flood(7, 40, Format::Plain);
    let out = run(&input, char_count(&input) / 3);
    let text = out.plan.render();
    assert_eq!(out.plan.shape, Shape::Search);
    assert_eq!(check_map(&text, &truth), 40, "{text}");
    assert!(
        text.contains("showing") || text.contains("nothing omitted"),
        "{text}"
    );
}

#[test]
fn the_lossless_fold_keeps_every_row() {
    let (input, truth) = flood(8, 30, Format::Context(1));
    let out = run(&input, char_count(&input) - 1);
    let text = out.plan.render();
    assert_eq!(out.plan.shape, Shape::Search);
    assert!(text.ends_with("[shapeclip: search output grouped by file; nothing omitted]"));
    let rows = |s: &str| s.lines().filter(|l| l.contains(['-', ':'])).count();
    assert!(rows(&text) >= input.lines().filter(|l| *l != "--").count() - truth.len());
    assert_eq!(out.plan.omitted_chars, 0);
}

#[test]
fn many_files_roll_up_by_directory() {
    let mut input = String::new();
    let mut truth = Vec::new();
    for d in 0..30 {
        for f in 0..40u64 {
            let path = format!("/repo/pkg{d}/sub{}/file{f}.py", f % 3);
            for l in 0..=(f % 4) {
                _ = writeln!(input, "{path}:{}:import thing{l}", l + 1);
            }
            truth.push((path, f % 4 + 1));
        }
    }
    for budget in [300, 1000, 4000, 16_000] {
        let out = run(&input, budget);
        let text = out.plan.render();
        assert_eq!(out.plan.shape, Shape::Search, "{budget}");
        assert!(char_count(&text) <= budget);
        let named = check_map(&text, &truth);
        if budget >= 4000 {
            assert!(text.contains("directory line"), "{text}");
        }
        if budget >= 4000 {
            assert!(named >= 80, "budget {budget} named {named}");
            assert!(text.starts_with("[shapeclip: paths below are relative to /repo/]\n"));
        }
    }
}

#[test]
fn stream_equals_one_shot_over_chunk_splits() {
    for format in [Format::Plain, Format::Context(2), Format::Heading] {
        let (input, _) = flood(11, 25, format);
        for budget in [300, 1500, 5000] {
            let whole = run(&input, budget).plan;
            for chunk in [1, 2, 3, 7, 64, 4096, 65_536] {
                assert_eq!(
                    run_chunks(&input, budget, chunk).plan,
                    whole,
                    "{format:?} {budget} {chunk}"
                );
            }
        }
    }
}

#[test]
fn detection_needs_twenty_lines_and_three_quarters() {
    let rows = |n: usize| -> String {
        (1..=n)
            .map(|i| format!("src/a{}.rs:{i}:fn some_function_name() {{}}\n", i % 3))
            .collect()
    };
    let prose = |n: usize| -> String {
        (0..n)
            .map(|i| format!("just some prose, sentence number {i}.\n"))
            .collect()
    };
    let shape = |input: &str| run(input, 300).plan.shape;
    assert_eq!(shape(&rows(19)), Shape::Clip);
    assert_eq!(shape(&rows(20)), Shape::Search);
    assert_eq!(shape(&(rows(30) + &prose(10))), Shape::Search);
    assert_eq!(shape(&(rows(30) + &prose(11))), Shape::Clip);
    let mixed: String = (0..200)
        .map(|i| {
            if i % 2 == 0 {
                format!("a.py:{i}:x\n")
            } else {
                "prose line\n".into()
            }
        })
        .collect();
    assert_eq!(shape(&mixed), Shape::Clip);
    let log: String = (0..100)
        .map(|i| format!("12:34:{i:02} ERROR:42: worker {i} failed\n"))
        .collect();
    assert_eq!(shape(&log), Shape::Clip);
    let urls: String = (0..100)
        .map(|i| format!("https://x.org:80:{i}/\n"))
        .collect();
    assert_eq!(shape(&urls), Shape::Clip);
}

/// A search tool prints context rows (`path-12-text`) only around a match: lines that read as
/// context rows alone, such as comma-separated values with dates, are no search.
#[test]
fn rows_of_context_alone_are_no_search() {
    let csv: String = (0..400)
        .map(|i| format!("{i},user_{i},active,{i}.25,2026-11-{:02}\n", i % 28 + 1))
        .collect();
    assert_ne!(run(&csv, 2000).plan.shape, Shape::Search);
    // `grep -C 1`: each match between two context rows.
    let context: String = (0..100)
        .map(|i| {
            format!(
                "src/m{i}.py-1-import os\nsrc/m{i}.py:2:def main():\nsrc/m{i}.py-3-    pass\n--\n"
            )
        })
        .collect();
    assert_eq!(run(&context, 2000).plan.shape, Shape::Search);
}

#[test]
fn other_lines_are_kept_and_counted() {
    let (mut input, truth) = flood(12, 30, Format::Plain);
    input.insert_str(0, "grep: warning: recursive search of stdin\n");
    input.push_str("Binary file data.bin matches\n");
    let out = run(&input, 3000);
    let text = out.plan.render();
    check_map(&text, &truth);
    assert!(
        text.contains("grep: warning: recursive search of stdin\n"),
        "{text}"
    );
    assert!(
        text.contains("other lines (not search results) omitted"),
        "{text}"
    );
}

#[test]
fn a_huge_match_line_is_cut_with_an_exact_label() {
    let mut input: String = (1..=30)
        .map(|i| format!("src/f{i}.rs:{i}:short\n"))
        .collect();
    let long = "y".repeat(3_000_000);
    _ = writeln!(input, "src/big.rs:7:{long}");
    for chunk in [input.len(), 65_536] {
        let out = run_chunks(&input, 4000, chunk);
        let text = out.plan.render();
        assert_eq!(out.plan.shape, Shape::Search);
        assert!(char_count(&text) <= 4000);
        let row_chars = 2 + 3_000_000u64;
        let label = format!(
            " [shapeclip: {} more chars of this line]",
            crate::markers::thousands(row_chars - 300)
        );
        assert!(text.contains(&label), "{text}");
        assert!(text.contains("big.rs (1 match)"), "{text}");
    }
}

#[test]
fn headings_need_a_row_to_count() {
    let mut input = String::from("Summary\n\n");
    for f in 0..30 {
        _ = writeln!(input, "dir/f{f}.py\n1:a\n2-b\n3:c\n");
    }
    input.push_str("lib/notes.txt\nno rows here\n");
    let out = run(&input, 300);
    assert_eq!(out.plan.shape, Shape::Search);
    let text = out.plan.render();
    assert!(text.contains("f0.py (2 matches"), "{text}");
    assert!(!text.contains("lib/notes.txt ("), "{text}");
}

#[test]
fn every_parsed_file_is_a_true_file_with_its_count() {
    for (seed, format) in [
        (1, Format::Plain),
        (2, Format::Context(2)),
        (3, Format::Column),
        (4, Format::Heading),
        (5, Format::Context(1)),
        (6, Format::Context(3)),
    ] {
        let (input, truth) = flood(seed, 60, format);
        let mut planner = super::SearchPlanner::new(100);
        let mut reader = crate::engine::reader::LineReader::default();
        reader.feed_str(&input, &mut planner);
        reader.finish(&mut planner);
        planner.end();
        let parsed: Vec<(String, u64)> = planner
            .table
            .files
            .iter()
            .map(|f| (f.path.clone(), f.matches))
            .collect();
        assert_eq!(parsed, truth, "{format:?}");
        assert_eq!(planner.table.other_lines, 0, "{format:?}");
    }
}

#[test]
fn compiler_diagnostics_are_not_search_results() {
    let mypy: String = (1..=200)
        .map(|i| match i % 3 {
            0 => format!("pkg/m{}.py:{i}: note: Use \"-> None\" here\n", i % 7),
            _ => format!(
                "pkg/m{}.py:{i}: error: Missing annotation  [no-untyped-def]\n",
                i % 7
            ),
        })
        .chain(["Found 134 errors in 7 files (checked 9 source files)\n".to_owned()])
        .collect();
    let gcc: String = (1..=200)
        .map(|i| format!("src/x{}.c:{i}:5: warning: unused variable 'v{i}'\n", i % 5))
        .collect();
    for input in [&mypy, &gcc] {
        assert_ne!(run(input, 2000).plan.shape, Shape::Search, "{input}");
    }
    // A search for the word itself still is one: its rows are code, not diagnostics.
    let grep: String = (1..=200)
        .map(|i| format!("src/x{}.py:{i}:    raise error: {i}\n", i % 5))
        .collect();
    assert_eq!(run(&grep, 2000).plan.shape, Shape::Search);
}

#[test]
fn a_closing_summary_survives_many_other_lines() {
    let (flood_text, truth) = flood(13, 80, Format::Plain);
    let mut input = String::new();
    for (i, line) in flood_text.lines().enumerate() {
        _ = writeln!(input, "{line}");
        if i % 9 == 0 {
            _ = writeln!(input, "Binary file data/blob{i}.bin matches");
        }
    }
    let binaries = input.matches("Binary file").count();
    input.push_str("grep: 3 files could not be read (permission denied)\n");
    for budget in [1500, 4000, 16_000] {
        let out = run(&input, budget);
        let text = out.plan.render();
        assert_eq!(out.plan.shape, Shape::Search, "{budget}");
        assert!(char_count(&text) <= budget);
        check_map(&text, &truth);
        assert!(
            text.contains("\ngrep: 3 files could not be read (permission denied)\n"),
            "{budget}: {text}"
        );
        let shown = text.matches("Binary file").count() + 1;
        let omitted = format!(
            "{} of {} other lines (not search results) omitted",
            binaries + 1 - shown,
            binaries + 1
        );
        assert!(text.contains(&omitted), "{budget}: {omitted}\n{text}");
    }
}

#[test]
fn the_lines_a_tool_closes_with_survive_together() {
    // ruff's concise output: warnings above the rows, and two lines after them, its count and
    // its note on fixes; rg's `--stats` closes with several lines too.
    let rows: String = (1..=150)
        .map(|i| {
            format!(
                "src/pkg/mod{}.py:{i}:1: E501 Line too long ({} > 88)\n",
                i % 7,
                90 + i
            )
        })
        .collect();
    let closings = [
        vec![
            "Found 150 errors.",
            "[*] 17 fixable with the `--fix` option.",
        ],
        vec![
            "150 matches",
            "150 matched lines",
            "7 files contained matches",
            "0.012 seconds",
        ],
    ];
    for closing in closings {
        let mut input = String::new();
        _ = writeln!(
            input,
            "warning: rule A and rule B are incompatible, ignoring A."
        );
        _ = writeln!(
            input,
            "warning: rule C and rule D are incompatible, ignoring C."
        );
        input.push_str(&rows);
        for line in &closing {
            _ = writeln!(input, "{line}");
        }
        for budget in [1500, 3000] {
            let out = run(&input, budget);
            let text = out.plan.render();
            assert_eq!(out.plan.shape, Shape::Search, "{budget}");
            let together = format!("\n{}\n", closing.join("\n"));
            assert!(text.contains(&together), "{budget}: {text}");
        }
    }
}

#[test]
fn context_quoting_a_search_result_waits_for_its_match() {
    let mut input = String::new();
    for f in 0..30 {
        _ = writeln!(
            input,
            "--\n{f}Makefile-1-a-1-b.py-2- let\n{f}Makefile:2:x\n{f}Makefile-3-y"
        );
    }
    let (parsed, context_rows) = table_of(&input);
    let truth: Vec<String> = (0..30).map(|f| format!("{f}Makefile")).collect();
    assert_eq!(
        parsed,
        truth.iter().map(|p| (p.to_owned(), 1)).collect::<Vec<_>>()
    );
    assert_eq!(context_rows, 60);
}

/// The files and match counts the planner's table holds after `input`, and its context rows.
fn table_of(input: &str) -> (Vec<(String, u64)>, u64) {
    let mut planner = super::SearchPlanner::new(100);
    let mut reader = crate::engine::reader::LineReader::default();
    reader.feed_str(input, &mut planner);
    reader.finish(&mut planner);
    planner.end();
    let files = planner
        .table
        .files
        .iter()
        .map(|f| (f.path.clone(), f.matches))
        .collect();
    (files, planner.table.context_rows)
}

/// Found by the search fuzzer: `Makefile-2-.12:34:56 x` read as a match at line 34 of a
/// file `Makefile-2-.12`, as if `.12` were a file type, and two context rows became two files.
#[test]
fn digits_after_a_dot_are_no_file_type() {
    let mut input = String::new();
    for f in 0..30 {
        let text = ".12:34:5612 error:";
        _ = writeln!(
            input,
            "{f}Makefile-2-{text}\n{f}Makefile-3-{text}\n{f}Makefile:4:{text}\n--"
        );
    }
    let (parsed, context_rows) = table_of(&input);
    let truth: Vec<String> = (0..30).map(|f| format!("{f}Makefile")).collect();
    assert_eq!(
        parsed,
        truth.iter().map(|p| (p.to_owned(), 1)).collect::<Vec<_>>()
    );
    assert_eq!(context_rows, 60);
}

#[test]
fn a_path_starting_with_digits_is_not_a_bare_row() {
    let mut input = String::new();
    for f in 0..30 {
        _ = writeln!(
            input,
            "--\n2024-01-02/2024-01-02/{f}Makefile-300-\t -3-\n2024-01-02/2024-01-02/{f}Makefile:301:x"
        );
    }
    // At the start, the first line could be a `--heading` path: the rows below say not.
    input.insert_str(0, "2024-01-02/x.c-1-a\n2024-01-02/x.c:2:b\n");
    input.insert_str(0, "2024-01-02/a b/y.c:1:-3- x\n2024-01-02/a b/y.c:2:z\n");
    let (parsed, context_rows) = table_of(&input);
    let mut truth = vec![
        ("2024-01-02/a b/y.c".to_owned(), 2),
        ("2024-01-02/x.c".to_owned(), 1),
    ];
    truth.extend((0..30).map(|f| (format!("2024-01-02/2024-01-02/{f}Makefile"), 1)));
    assert_eq!(parsed, truth);
    assert_eq!(context_rows, 31);
}

#[test]
fn long_floods_count_the_same_on_the_fast_path_however_split() {
    for (seed, format) in [
        (21, Format::Plain),
        (22, Format::Context(2)),
        (23, Format::Column),
        (24, Format::Heading),
    ] {
        let (input, truth) = flood(seed, 1500, format);
        assert!(input.lines().count() as u64 > 2 * super::DECIDE_AFTER);
        let mut planner = super::SearchPlanner::new(4000);
        let mut reader = crate::engine::reader::LineReader::default();
        reader.feed_str(&input, &mut planner);
        reader.finish(&mut planner);
        planner.end();
        let parsed: Vec<(String, u64)> = planner
            .table
            .files
            .iter()
            .map(|f| (f.path.clone(), f.matches))
            .collect();
        // Past the table's cap (1,336 files at this budget) files are counted by directory.
        assert_eq!(parsed[..], truth[..parsed.len()], "{format:?}");
        assert_eq!(planner.table.file_count(), truth.len() as u64, "{format:?}");
        let whole = run(&input, 4000).plan;
        check_map(&whole.render(), &truth);
        for chunk in [7, 4096] {
            assert_eq!(run_chunks(&input, 4000, chunk).plan, whole, "{format:?}");
        }
    }
}

#[test]
fn a_prefix_that_is_not_search_output_ends_the_reading() {
    let prose = |n: usize| -> String { (0..n).map(|i| format!("prose line {i}\n")).collect() };
    let (grep, truth) = flood(25, 3000, Format::Plain);
    assert!(grep.lines().count() as u64 > 4 * super::DECIDE_AFTER);
    // 500 lines of prose, then rows: the first 4,096 lines are search-shaped, and so is the whole.
    let out = run(&(prose(500) + &grep), 4000).plan;
    assert_eq!(out.shape, Shape::Search);
    check_map(&out.render(), &truth);
    // 1,500 lines of prose: the whole would pass the 75% test, but the first 4,096 lines do
    // not, and search output is homogeneous, so the planner stopped reading there.
    assert_eq!(run(&(prose(1500) + &grep), 4000).plan.shape, Shape::Clip);
}

/// The judgement of the first 4,096 lines is made as soon as it is sure: once 1,025 lines are
/// not rows, at most 3,071 of the 4,096 can be, under the 75% asked for. At 1,024 such lines
/// the output may still be search output, and the planner reads on.
#[test]
fn a_prefix_that_cannot_be_search_output_ends_the_reading_at_once() {
    let prose = |n: usize| -> String { (0..n).map(|i| format!("prose line {i}\n")).collect() };
    let prefix_after = |input: &str| {
        let mut planner = super::SearchPlanner::new(4000);
        let mut reader = crate::engine::reader::LineReader::default();
        reader.feed_str(input, &mut planner);
        planner.prefix
    };
    let limit = usize::try_from(super::NOT_SEARCH_AT_MOST).unwrap();
    assert_eq!(limit, 1024);
    assert_eq!(prefix_after(&prose(limit)), super::Prefix::Reading);
    assert_eq!(prefix_after(&prose(limit + 1)), super::Prefix::Declined);
    // Blank lines and `--` separators are no lines of prose.
    let spaced: String = prose(limit)
        .lines()
        .map(|l| format!("{l}\n\n--\n"))
        .collect();
    assert_eq!(prefix_after(&spaced), super::Prefix::Reading);
    let (grep, truth) = flood(26, 3000, Format::Plain);
    // 1,024 lines of prose and 3,072 rows: exactly three in four, which is search output.
    let out = run(&(prose(limit) + &grep), 4000).plan;
    assert_eq!(out.shape, Shape::Search);
    check_map(&out.render(), &truth);
    assert_eq!(
        run(&(prose(limit + 1) + &grep), 4000).plan.shape,
        Shape::Clip
    );
}

/// What the early judgement rests on: a line counts as a search line once at most, and a line
/// kept as no row never turns into one, so rows and other lines never outnumber the
/// non-empty lines (asserted in `decide`, after every line). Rows, held lines a later line
/// decides (`a-1-b:2:x`), `--heading` paths, prose, blanks and separators, mixed at random.
#[test]
fn rows_and_other_lines_never_outnumber_the_lines() {
    let kinds: &[&str] = &[
        "src/a.rs:12:let x = 1;",
        "src/a.rs-13-context",
        "./lib/a-1-b/Makefile-3-x",
        "./lib/a-1-b/Makefile:4:y",
        "a-1-b:2:x",
        "",
        "--",
        "src/heading.py",
        "7:bare row",
        "8-bare context",
        "prose that is no row",
        "2024-01-02 10:15:30 a log line",
    ];
    let mut rng = Rng(0x0dd_1ce);
    for _ in 0..40 {
        let prose_share = 15 + rng.below(25);
        let input: String = (0..6000)
            .map(|_| {
                let line = if rng.below(100) < prose_share {
                    "prose that is no row"
                } else {
                    rng.pick(kinds)
                };
                format!("{line}\n")
            })
            .collect();
        let chunk = 1 + usize::try_from(rng.below(5000)).unwrap();
        let mut planner = super::SearchPlanner::new(4000);
        let mut reader = crate::engine::reader::LineReader::default();
        for piece in input.as_bytes().chunks(chunk) {
            reader.feed_bytes(piece, &mut planner);
        }
        reader.finish(&mut planner);
        planner.end();
        assert!(planner.search_lines + planner.other_lines <= planner.nonempty_lines);
    }
}

/// Issue 3: the per-file table is bounded. Many more files than its cap are counted by
/// directory, and every printed number is still exact and every file accounted for.
#[test]
fn files_past_the_cap_are_counted_by_directory() {
    let mut input = String::new();
    let mut truth: Vec<(String, u64)> = Vec::new();
    let mut rng = Rng(0x5eed);
    let (files, dirs) = (200_000u64, 300u64);
    for f in 0..files {
        let d = f * dirs / files;
        let path = format!("/repo/pkg{}/mod{}/f{f}.py", d / 30, d % 30);
        let n = 1 + rng.below(3);
        for l in 0..n {
            _ = writeln!(input, "{path}:{}:x = {l}", l + 1);
        }
        truth.push((path, n));
    }
    let total: u64 = truth.iter().map(|t| t.1).sum();
    for budget in [4000u64, 16_000] {
        let mut planner = super::SearchPlanner::new(budget);
        let mut reader = crate::engine::reader::LineReader::default();
        reader.feed_str(&input, &mut planner);
        reader.finish(&mut planner);
        planner.end();
        let table = &planner.table;
        let cap = usize::try_from(budget / 12 + 1).unwrap() * 4;
        let cap = cap.max(1024);
        assert_eq!(table.files.len(), cap, "the table stops at its cap");
        assert!(table.dirs.len() <= cap);
        assert_eq!(table.file_count(), files);
        assert_eq!(table.matches, total);
        let spilled: u64 = table.dirs.iter().map(|d| d.files).sum::<u64>() + table.other_dirs.0;
        assert_eq!(spilled, files - cap as u64);

        let out = run(&input, budget);
        let text = out.plan.render();
        assert_eq!(out.plan.shape, Shape::Search, "{budget}");
        assert!(char_count(&text) <= budget);
        let named = check_map(&text, &truth);
        assert!(named > 0, "{text}");
        assert!(
            text.contains(&format!(
                "of {} matched lines omitted",
                crate::markers::thousands(total)
            )),
            "{text}"
        );
        assert!(text.contains("Of 200,000 files"), "{text}");
    }
}

/// Past the cap of directory totals too, the remainder is one exact line.
#[test]
fn directories_past_the_cap_are_one_exact_remainder() {
    let mut input = String::new();
    let mut truth: Vec<(String, u64)> = Vec::new();
    for f in 0..3000u64 {
        let path = format!("d{f}/x.c");
        _ = writeln!(input, "{path}:1:y");
        truth.push((path, 1));
    }
    let out = run(&input, 300);
    let text = out.plan.render();
    assert!(char_count(&text) <= 300);
    assert_eq!(out.plan.shape, Shape::Search);
    check_map(&text, &truth);
    let mut planner = super::SearchPlanner::new(300);
    let mut reader = crate::engine::reader::LineReader::default();
    reader.feed_str(&input, &mut planner);
    reader.finish(&mut planner);
    planner.end();
    assert_eq!(planner.table.dirs.len(), 1024);
    assert_eq!(planner.table.other_dirs, (3000 - 2048, 3000 - 2048));
}

/// Reads `input` through a planner of `budget`, as the engine would, and returns it.
fn read_all(input: &str, budget: u64) -> super::SearchPlanner {
    let mut planner = super::SearchPlanner::new(budget);
    let mut reader = crate::engine::reader::LineReader::default();
    reader.feed_str(input, &mut planner);
    reader.finish(&mut planner);
    planner.end();
    planner
}

/// The files the planner parsed, with their match counts, in first-seen order.
fn parsed_files(planner: &super::SearchPlanner) -> Vec<(String, u64)> {
    planner
        .table
        .files
        .iter()
        .map(|f| (f.path.clone(), f.matches))
        .collect()
}

/// Rows of `path` for lines `first..=last`, matches where `is_match` says.
fn rows_of(path: &str, first: u64, last: u64, is_match: impl Fn(u64) -> bool) -> String {
    (first..=last)
        .map(|n| {
            let sep = if is_match(n) { ':' } else { '-' };
            format!("{path}{sep}{n}{sep}deploy:{n}:x-{n}-y\n")
        })
        .collect()
}

/// Issue 11, defect 1: `a-1-b:2:x` reads as a match of `a-1-b` or a context row of `a`; the
/// rows around it decide, in plain and in context output.
#[test]
fn issue_11_1_a_name_with_dash_digits_dash_is_one_file() {
    let names = ["scripts/step-1-deploy", "step-2-x", "lib/a-1-b/run-3-all"];
    let mut plain = String::new();
    let mut context = String::new();
    for name in names {
        plain += &rows_of(name, 1, 40, |_| true);
        context += &rows_of(name, 3, 9, |n| n == 5 || n == 6);
        context += "--\n";
        context += &rows_of(name, 20, 22, |n| n == 21);
        context += "--\n";
    }
    plain += "single-1-row:7:x\n";
    let plain_truth: Vec<(String, u64)> = names
        .iter()
        .map(|n| ((*n).to_owned(), 40))
        .chain([("single-1-row".to_owned(), 1)])
        .collect();
    let context_truth: Vec<(String, u64)> = names.iter().map(|n| ((*n).to_owned(), 3)).collect();
    for budget in [100, 100_000] {
        assert_eq!(parsed_files(&read_all(&plain, budget)), plain_truth);
        let planner = read_all(&context, budget);
        assert_eq!(parsed_files(&planner), context_truth);
        assert_eq!(planner.table.context_rows, 21);
        assert_eq!(planner.table.other_lines, 0);
    }
}

/// Issue 11, defect 2: a time in a file name (`logs/10:15:30.log`) is not where its path ends.
#[test]
fn issue_11_2_a_name_holding_a_time_is_one_file() {
    let names = ["logs/10:00:01.log", "logs/10:15:30.log", "run/23:59:59/out"];
    let input: String = names.iter().map(|n| rows_of(n, 1, 30, |_| true)).collect();
    let single = "logs/12:34:56.log:3:x\n";
    let truth: Vec<(String, u64)> = names
        .iter()
        .map(|n| ((*n).to_owned(), 30))
        .chain([("logs/12:34:56.log".to_owned(), 1)])
        .collect();
    assert_eq!(parsed_files(&read_all(&(input + single), 100)), truth);
}

/// Issue 11, defect 3: past the table's cap of files and of directory totals, a file's
/// directory may find no room; its parents' lines still count it.
#[test]
fn issue_11_3_directory_lines_count_files_whose_directory_found_no_room() {
    let mut input = String::new();
    let mut truth = Vec::new();
    for i in 0..20_000 {
        let path = format!("d{}/s{}/f{i}.py", i % 97, i % 13);
        _ = writeln!(input, "{path}:1:x");
        truth.push((path, 1));
    }
    for budget in [300, 2000, 16_000] {
        let text = run(&input, budget).plan.render();
        check_map(&text, &truth);
    }
    let text = run(&input, 2000).plan.render();
    assert!(text.starts_with("d0/ (207 files, 207 matches)\n"), "{text}");
}

/// Issue 11, defect 4: a first line that may be a `--heading` path is a row when a `--` follows.
#[test]
fn issue_11_4_a_first_row_followed_by_a_separator_is_counted() {
    let rows: String = (0..30)
        .flat_map(|f| (1..=10).map(move |l| format!("src/f{f}.py:{l}:x\n")))
        .collect();
    for first in [
        "Makefile:3:é\n--\n",
        "\nMakefile:3:é\n--\n",
        "Makefile:3:é\n\n",
    ] {
        let planner = read_all(&(first.to_owned() + &rows), 100);
        let files = parsed_files(&planner);
        assert_eq!(files.len(), 31, "{first:?}");
        assert_eq!(files[0].0, "Makefile", "{first:?}");
        assert_eq!(planner.table.other_lines, 0, "{first:?}");
    }
}

/// Issue 11, defect 5: paths thousands of directories deep cost the roll-up no node per
/// directory past its cap, and every count stays exact.
#[test]
fn issue_11_5_deep_paths_are_counted_exactly_past_the_tree_cap() {
    let mut input = String::new();
    let mut truth = Vec::new();
    for f in 0..1500u64 {
        let path = format!("r{}/{}f{f}.py", f % 40, format!("d{f}/").repeat(60));
        for l in 1..=1 + f % 3 {
            _ = writeln!(input, "{path}:{l}:x");
        }
        truth.push((path, 1 + f % 3));
    }
    for budget in [300, 4000, 16_000] {
        let out = run(&input, budget);
        let text = out.plan.render();
        assert_eq!(out.plan.shape, Shape::Search);
        assert!(char_count(&text) <= budget);
        check_map(&text, &truth);
    }
}

/// Found by the search fuzzer: under a `--heading` path, the row `7:.a-3-a` also reads as a
/// context row of a file `7:.a` (line 3), a sure reading, so the heading was taken for another
/// line and the map counted a file of no matches instead of the heading's match. Likewise
/// `8:a0.0a:7:` read as a match at line 7 of a file `8:a0.0a`.
#[test]
fn a_bare_match_under_a_heading_is_no_row_of_a_path_starting_with_it() {
    for row in ["7:.a-3-a", "8:a0.0a:7:"] {
        let mut input = String::new();
        let mut truth = Vec::new();
        for f in 0..25 {
            _ = writeln!(input, "dir/f{f}.py\n1:a\n");
            truth.push((format!("dir/f{f}.py"), 1));
        }
        _ = writeln!(input, "d7/s3/255Makefile\n{row}\n{row}");
        truth.push(("d7/s3/255Makefile".to_owned(), 2));
        let mut planner = super::SearchPlanner::new(100);
        let mut reader = crate::engine::reader::LineReader::default();
        reader.feed_str(&input, &mut planner);
        reader.finish(&mut planner);
        planner.end();
        let parsed: Vec<(String, u64)> = planner
            .table
            .files
            .iter()
            .map(|f| (f.path.clone(), f.matches))
            .collect();
        assert_eq!(parsed, truth, "{row}");
        assert_eq!(planner.table.other_lines, 0, "{row}");
    }
}

/// Found by the search fuzzer: `C:\win\dir\1step-1-deploy:3:aa.a:7:` also reads as a match at
/// line 7 of a file `C:\win\dir\1step-1-deploy:3:aa.a`, a name with an extension, which was
/// taken as sure; so every row of the file became a file of its own, of one match. Likewise
/// the context row `1Makefile-2-.a:7:` read as a match of a file `1Makefile-2-.a`.
#[test]
fn a_row_quoting_a_file_and_line_is_a_row_of_its_own_file() {
    for dir in ["C:\\win\\dir\\", "scripts/", ""] {
        for text in ["aa.a:7:", "x.c:7:y", ".a:7:"] {
            for name in ["step-1-deploy", "Makefile"] {
                let mut plain = String::new();
                let mut context = String::new();
                let mut plain_truth = Vec::new();
                let mut context_truth = Vec::new();
                for f in 0..8 {
                    let path = format!("{dir}{f}{name}");
                    for l in [3, 4, 12, 14, 23] {
                        _ = writeln!(plain, "{path}:{l}:{text}");
                    }
                    plain_truth.push((path.clone(), 5));
                    // Every group after the first follows a `--`; the first holds two
                    // context rows before its match.
                    if f > 0 {
                        context += "--\n";
                    }
                    for (l, sep) in [(1, '-'), (2, '-'), (3, ':'), (4, '-'), (5, ':')] {
                        _ = writeln!(context, "{path}{sep}{l}{sep}{text}");
                    }
                    context_truth.push((path, 2));
                }
                // A file of one row: its own `:NN:` comes before any its text quotes.
                let single = format!("{dir}9{name}");
                _ = writeln!(plain, "{single}:5:{text}");
                plain_truth.push((single, 1));
                let what = format!("{dir}{name} {text}");
                for budget in [100, 100_000] {
                    let planner = read_all(&plain, budget);
                    assert_eq!(parsed_files(&planner), plain_truth, "plain {what}");
                    assert_eq!(planner.table.other_lines, 0, "plain {what}");
                    let planner = read_all(&context, budget);
                    assert_eq!(parsed_files(&planner), context_truth, "context {what}");
                    assert_eq!(planner.table.context_rows, 24, "context {what}");
                }
            }
        }
    }
}

/// Numbered files of one match each (`scripts/step-1-run`, `scripts/step-2-run`) are files of
/// their own, not context rows of a file `scripts/step`: context rows are printed only next to a
/// match of their file, and none of `scripts/step` comes. Before, the file was read with no
/// match and every numbered file was lost from the map.
#[test]
fn numbered_files_of_one_match_are_no_context_of_a_file_without_a_match() {
    for (name, text) in [
        ("scripts/step-{n}-run", "echo"),
        ("docs/chapter-{n}-part{n}.md", "TODO x.c:9:"),
    ] {
        let mut input = String::new();
        let mut truth = Vec::new();
        for n in 1..=300 {
            let path = name.replace("{n}", &n.to_string());
            _ = writeln!(input, "{path}:5:{text}");
            truth.push((path, 1));
        }
        for budget in [100, 100_000] {
            let planner = read_all(&input, budget);
            assert_eq!(parsed_files(&planner), truth, "{name}");
            assert_eq!(planner.table.context_rows, 0, "{name}");
        }
    }
}

/// Found by the hypothesis search tests: the first line `src/0a-12-b.py:2:-3- x` (a match of
/// `src/0a-12-b.py`, or a context row of `src/0a`) was taken for a `--heading` path, because
/// the row after it, `2024-01-02/1a-12-b.py:1:x`, also reads as a bare context row `2024-`:
/// the map showed a file named after the whole first line, with no match, and lost the second
/// file. Likewise a second row starting with a time, `10:15:30/1.rs:1:x` (a bare match `10:`).
/// A heading read alone, whose name holds a time, is still a heading.
#[test]
fn a_match_row_before_a_row_is_no_heading() {
    for second in ["2024-01-02/1a-12-b.py", "10:15:30/1.rs"] {
        let mut input = format!("src/0a-12-b.py:2:-3- x\n{second}:1:x\n");
        let mut truth = vec![("src/0a-12-b.py".to_owned(), 1), (second.to_owned(), 1)];
        for f in 2..25 {
            _ = writeln!(input, "m{f}.rs:1:let");
            truth.push((format!("m{f}.rs"), 1));
        }
        let planner = read_all(&input, 100_000);
        assert_eq!(parsed_files(&planner), truth, "{second}");
        assert_eq!(planner.table.other_lines, 0, "{second}");
    }
    let planner = read_all("src/10:15:30/6.rs\n1-a-1-b.py-2- x\n2:y\n", 100_000);
    assert_eq!(
        parsed_files(&planner),
        [("src/10:15:30/6.rs".to_owned(), 1)]
    );
}

/// A log whose every line starts with a date or a time, under a first line that names a path,
/// read as `--heading` output: the first line a file, every date a context row `2024-` and
/// every time a match row `10:`, of one file with 2,999 rows and no match, or 2,999 matches.
/// Go's standard logger (`2024/03/15 10:00:01 …`) read as rows of a file named for each hour,
/// and an access log as rows of a file per client.
/// The map showed that one line and lost the log, the errors in it too. A search tool prints a
/// file's lines in order, each once: rows that go back or stand still are not its output.
#[test]
fn a_log_of_dated_lines_under_a_path_is_no_search_output() {
    let log = |first: &str, stamp: &dyn Fn(u64) -> String| -> String {
        let mut input = format!("{first}\n");
        for i in 1..3000 {
            let what = if i % 100 == 50 {
                "ERROR Failed to connect to db: timeout after 30s"
            } else {
                "INFO handled a request in 12ms"
            };
            _ = writeln!(input, "{} {what}", stamp(i));
        }
        input
    };
    let date = |i: u64| {
        format!(
            "2024-03-15 10:{:02}:{:02},{:03}",
            i / 60 % 60,
            i % 60,
            i % 1000
        )
    };
    let time = |i: u64| format!("{}:{:02}:{:02}", 10 + i / 3600, i / 60 % 60, i % 60);
    // Go's standard logger: a path `2024/03/15 10` and a match row `00:` on every line.
    let go = |i: u64| format!("2024/03/15 {}", time(i));
    for input in [
        log(
            "2024-03-15 10:00:00,001 INFO Starting /usr/bin/app version 1.2",
            &date,
        ),
        log("Starting /usr/bin/app version 1.2", &time),
        log("src/app/main.py", &time),
        log("2024/03/15 10:00:00 starting", &go),
        // An access log: rows numbered 10 of a file per client, `127.0.0.7 - - [15/Mar/2024`.
        (0..3000)
            .map(|i| {
                let at = time(i);
                format!(
                    "127.0.0.{} - - [15/Mar/2024:{at} +0000] \"GET /a/{i} HTTP/1.1\" 200\n",
                    i % 250
                )
            })
            .collect(),
    ] {
        for budget in [400, 4000] {
            let out = run(&input, budget);
            assert_ne!(out.plan.shape, Shape::Search, "{budget}: {}", &input[..80]);
        }
    }
    // Rows that stand still or go back now and then are still search output: `grep -o` prints
    // a row per match, and two searches in one command may list a file twice.
    let mut input = String::new();
    for i in 1..=40 {
        _ = writeln!(input, "src/a.py:{i}:x = {i}");
        if i % 5 == 0 {
            _ = writeln!(input, "src/a.py:{i}:y");
        }
    }
    for i in 1..=10 {
        _ = writeln!(input, "src/a.py:{i}:z");
    }
    assert_eq!(run(&input, 400).plan.shape, Shape::Search);
}
