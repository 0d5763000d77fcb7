use std::fmt::Write;

use super::*;
use crate::engine::Engine;
use crate::plan::Piece;
use crate::planner::Budget;
use crate::profile::Profile;

fn read(text: &str, budget: u64) -> (String, Shape) {
    let profile = Profile::new("file_read", Some("read_file"), 8000, 1000).unwrap();
    let mut engine = Engine::new(Budget::new(budget, 0).unwrap(), profile);
    engine.feed_str(text);
    let outcome = engine.finish();
    (outcome.plan.render(), outcome.plan.shape)
}

fn source(functions: usize) -> String {
    let mut text = String::from("import os\nimport sys\n\n");
    for i in 0..functions {
        writeln!(text, "def function_{i:03}(argument):").unwrap();
        for j in 0..8 {
            writeln!(
                text,
                "    value_{j} = argument * {j}  # step {j} of function {i}"
            )
            .unwrap();
        }
        text.push('\n');
    }
    text
}

#[test]
fn keeps_the_head_the_definitions_of_the_middle_and_the_tail() {
    let text = source(60);
    let (out, shape) = read(&text, 2000);
    assert_eq!(shape, Shape::Read);
    assert!(char_count(&out) <= 2000, "{out}");
    assert!(out.starts_with("import os\nimport sys\n\ndef function_000(argument):\n"));
    // Definitions from the middle, each whole, with the gaps before them numbered exactly.
    let lines: Vec<&str> = text.lines().collect();
    let no = lines
        .iter()
        .position(|l| *l == "def function_004(argument):")
        .unwrap()
        + 1;
    let middle = out.find("\ndef function_004(argument):\n").expect(&out) + 1;
    assert!(
        out[..middle].ends_with(&format!("-{} omitted]\n", no - 1)),
        "{out}"
    );
    assert!(out.ends_with(&format!("{}\n", lines[lines.len() - 1])));
    assert!(out.contains(" lines omitted, ~"), "{out}");
}

#[test]
fn the_closing_marker_counts_every_omitted_line_and_char() {
    let text = source(60);
    let profile = Profile::new("file_read", Some("read_file"), 8000, 1000).unwrap();
    let mut engine = Engine::new(Budget::new(4000, 0).unwrap(), profile);
    engine.feed_str(&text);
    let outcome = engine.finish();
    let plan = outcome.plan;
    let shown: u64 = plan
        .pieces
        .iter()
        .filter_map(|p| match p {
            Piece::Kept(t) => Some(char_count(t)),
            Piece::Marker(_) => None,
        })
        .sum();
    assert_eq!(plan.omitted_chars + shown, char_count(&text));
    let gap_lines: u64 = plan.omitted.iter().map(|r| r.len()).sum();
    let out = plan.render();
    assert!(
        out.contains(&format!(
            "{} of {} lines omitted",
            thousands_of(gap_lines),
            thousands_of(outcome.totals.lines),
        )),
        "{out}"
    );
}

fn thousands_of(n: u64) -> String {
    crate::markers::thousands(n)
}

#[test]
fn small_budgets_get_a_short_closing_marker() {
    let (out, _) = read(&source(60), 2000);
    let closing = out.lines().find(|l| l.starts_with("[shapeclip:")).unwrap();
    assert!(closing.chars().count() <= 2000 / 24, "{closing}");
    assert!(closing.contains("read offset"), "{closing}");
}

#[test]
fn one_huge_line_is_left_to_the_clip() {
    let (_, shape) = read(&"x".repeat(50_000), 2000);
    assert_eq!(shape, Shape::Clip);
}

/// A shell's output is planned as a read when it reads as source code, whatever printed it;
/// any other shell output, and any other tool's, is not.
#[test]
fn a_shells_output_is_read_only_when_it_reads_as_source() {
    let shape = |kind: &str, text: &str| {
        let profile = Profile::new(kind, Some("bash"), 3000, 6000).unwrap();
        let mut engine = Engine::new(Budget::new(2000, 0).unwrap(), profile);
        engine.feed_str(text);
        engine.finish().plan.shape
    };
    assert_eq!(shape("shell", &source(60)), Shape::Read);
    // Two definitions in 300 lines of prose are a document that quotes code, not code.
    let mut prose = String::from("def first():\ndef second():\n");
    for i in 0..300 {
        writeln!(prose, "step {i}: the value is copied into the next buffer").unwrap();
    }
    assert_ne!(shape("shell", &prose), Shape::Read);
    for kind in ["search", "web", "other"] {
        assert_ne!(shape(kind, &source(60)), Shape::Read, "{kind}");
    }
    // A command's output that declares nothing in its first 200 lines is no source code, and
    // is not read for definitions after them.
    let mut late = String::new();
    for i in 0..250 {
        writeln!(late, "step {i}: the value is copied into the next buffer").unwrap();
    }
    late.push_str(&source(60));
    assert_ne!(shape("shell", &late), Shape::Read);
}

/// A file with a licence header and doc comments around its code.
fn documented_source(functions: usize) -> String {
    let mut text = String::new();
    for i in 0..15 {
        writeln!(
            text,
            "# Licence line {i}: terms that every copy of the file carries."
        )
        .unwrap();
    }
    text.push_str("import os\n\n");
    for i in 0..functions {
        writeln!(text, "def function_{i:03}(argument):").unwrap();
        text.push_str("    \"\"\"What the function does, at length.\n\n");
        for j in 0..4 {
            writeln!(text, "    Paragraph {j} of the docstring of function {i}.").unwrap();
        }
        text.push_str("    \"\"\"\n");
        writeln!(text, "    return argument * {i}  # the code").unwrap();
        text.push('\n');
    }
    text
}

#[test]
fn a_doc_comment_after_imports_shows_its_first_lines_when_folded() {
    // A viewer's window on an enum with imports, a doc comment, and a doc comment on each
    // constant.
    let mut lines = vec!["package com.example.parse;".to_owned(), String::new()];
    lines.extend((0..6).map(|i| format!("import com.example.parse.support.Helper{i:02};")));
    lines.push(String::new());
    lines.push("/**".to_owned());
    lines.push(" * Reads the tokens of a document into a tree of nodes, one pass each.".to_owned());
    lines.extend(
        (0..8).map(|i| format!(" * More of what the class does, line {i} of its doc comment.")),
    );
    lines.extend([" */", "public enum Feature implements Toggle", "{"].map(str::to_owned));
    for i in 0..20 {
        lines.push("    /**".to_owned());
        lines.push(format!(
            "     * Feature number {i}: what it turns on, and what it costs."
        ));
        lines.push("     * Its default is given below.".to_owned());
        lines.push("     */".to_owned());
        lines.push(format!("    FEATURE_NUMBER_{i:02}(true),"));
        lines.push(String::new());
    }
    let mut text = String::from("[File: /repo/src/Feature.java (400 lines total)]\n");
    for (i, line) in lines.iter().take(100).enumerate() {
        writeln!(text, "{}:{line}", i + 1).unwrap();
    }
    text.push_str("(300 more lines below)\n");
    let (out, _) = read(&text, 2000);
    // The imports and the doc comment after them are runs of their own, and each shows its
    // first lines: the doc comment's say what the enum is for.
    assert!(out.contains("[lines 2-9 omitted]"), "{out}");
    assert!(
        out.contains("10:/**\n11: * Reads the tokens of a document into a tree of nodes"),
        "{out}"
    );
}

#[test]
fn a_cut_read_folds_its_licence_header_and_docstrings_to_show_more_code() {
    let text = documented_source(40);
    let (out, shape) = read(&text, 2000);
    assert_eq!(shape, Shape::Read);
    // The licence is a run of filler of its own, folded; the import after it, too short to
    // fold, is shown.
    assert!(
        out.starts_with("[lines 1-15 omitted]\nimport os\n\ndef function_000"),
        "{out}"
    );
    // Before the closing marker (the tail may end inside a docstring), no docstring line: the
    // head shows each function's code, in order, and each docstring as one marker.
    let closing = out.find("[shapeclip:").expect(&out);
    assert!(!out[..closing].contains("Paragraph"), "{out}");
    for i in 0..8 {
        assert!(
            out.contains(&format!("    return argument * {i}  # the code\n")),
            "{out}"
        );
    }
}

/// A Java file of `methods` methods after a package line and `imports` imports.
fn imported_java(imports: usize, methods: usize) -> String {
    let mut text = String::from("package com.example.demo.generation;\n\n");
    for i in 0..imports {
        writeln!(text, "import com.example.demo.support.Helper{i:02};").unwrap();
    }
    text.push_str("\npublic class Generator\n{\n");
    for i in 0..methods {
        writeln!(
            text,
            "    public int value{i}(int x) {{\n        return x * {i};\n    }}\n"
        )
        .unwrap();
    }
    text.push_str("}\n");
    text
}

#[test]
fn a_cut_read_folds_its_imports_to_show_more_code() {
    let text = imported_java(40, 60);
    let (out, shape) = read(&text, 2000);
    assert_eq!(shape, Shape::Read);
    assert!(char_count(&out) <= 2000, "{out}");
    // Imports are read far less often than code: the head shows the class and its first
    // methods, and the imports' first lines only in the room left over.
    let class = out.find("public class Generator\n{\n").expect(&out);
    assert!(out[..class].contains(" omitted]\n"), "{out}");
    for i in 0..10 {
        assert!(out.contains(&format!("        return x * {i};\n")), "{out}");
    }
    assert!(code::is_import("  12:import java.util.List;"));
    for line in [
        "from os import path",
        "use std::fmt::Write;",
        "#include <stdio.h>",
        "import { a, b } from './x';",
    ] {
        assert!(code::is_import(line), "{line}");
    }
    for line in [
        "important = True",
        "import_module(name)",
        "from_date = today",
        "use(x)",
        "packages = []",
        "from x import (",
        "import (",
    ] {
        assert!(!code::is_import(line), "{line}");
    }
}

/// Reads `lines` in order and checks each verdict of the filler reader.
fn assert_filler(lines: &[(&str, bool)]) {
    let mut reader = code::FillerReader::default();
    for (no, &(line, filler)) in lines.iter().enumerate() {
        assert_eq!(reader.is_filler(line), filler, "line {no}: {line:?}");
    }
}

#[test]
fn strings_in_code_are_not_docstrings() {
    assert_filler(&[
        ("query = \"\"\"", false),
        ("SELECT name FROM users", false),
        ("\"\"\"", false),
        ("def f():", false),
        ("    '''One line.'''", true),
        ("def g(", false),
        ("    x,", false),
        (") -> int:", false),
        ("    r\"\"\"Raw docstring", true),
        ("    on two lines.\"\"\"", true),
        ("/*", true),
        (" licence text", true),
        (" */", true),
        ("# \"\"\" in a comment opens nothing", true),
        ("return 1", false),
    ]);
}

#[test]
fn a_read_that_starts_inside_a_docstring_is_not_read_inside_out() {
    // `sed -n 70,84p` of a file: its first lines close a docstring opened above them.
    assert_filler(&[
        ("    >>> m.shape", false),
        ("    (5, 5)", false),
        ("    \"\"\"", false),
        ("    is_Matrix = True", false),
        ("", true),
        ("    def shape(self):", false),
        ("        \"\"\"The number of rows and columns.\"\"\"", true),
        ("        return self._shape", false),
        ("    def blocks(self):", false),
        ("        \"\"\"The blocks,", true),
        ("        in order.\"\"\"", true),
        ("        return self.args", false),
        ("        text = \"\"\"", false),
        ("        data, not prose", false),
        ("        \"\"\" + suffix", false),
    ]);
}

/// A windowed viewer's view of lines `first..first + 100` of a 2,000-line file.
fn window(first: usize) -> String {
    window_of(first, 2000)
}

/// A windowed viewer's view of lines `first..first + 100` of a file of `total` lines.
fn window_of(first: usize, total: usize) -> String {
    let mut text = format!("[File: /repo/src/module.py ({total} lines total)]\n");
    if first > 1 {
        writeln!(text, "({} more lines above)", first - 1).unwrap();
    }
    for no in first..first + 100 {
        writeln!(
            text,
            "{no}:    value_{no} = compute(argument, {no})  # step"
        )
        .unwrap();
    }
    if total > first + 99 {
        write!(text, "({} more lines below)", total - (first + 99)).unwrap();
    }
    text
}

#[test]
fn a_window_positioned_inside_a_file_keeps_its_middle() {
    let (out, shape) = read(&window(1201), 2000);
    assert_eq!(shape, Shape::Read);
    assert!(char_count(&out) <= 2000, "{out}");
    assert!(out.contains("\n1250:    value_1250 "), "{out}");
    assert!(out.contains("\n1201:    value_1201 "), "{out}");
    assert!(out.ends_with("(700 more lines below)"), "{out}");
}

/// A viewer centres the window it shows after an edit on the edited lines, and says so below
/// it: more of the window's middle is kept than for a window pointed at a line.
#[test]
fn a_window_that_shows_an_edit_keeps_more_of_its_middle() {
    let middle = |text: &str| {
        let (out, _) = read(text, 2000);
        assert!(char_count(&out) <= 2000, "{out}");
        (1230..1275)
            .filter(|no| out.contains(&format!("\n{no}:    value_{no} ")))
            .count()
    };
    let pointed = window(1201);
    let edited = format!(
        "{pointed}\nFile updated. Please review the changes and make sure they are correct \
         (correct indentation, no duplicate lines, etc). Edit the file again if necessary."
    );
    let bracketed = format!(
        "{pointed}\n[File updated. Please review the changes and make sure they are correct \
         (correct indentation, no duplicate lines, etc). Edit the file again if necessary.]"
    );
    assert!(middle(&edited) > middle(&pointed));
    assert_eq!(middle(&bracketed), middle(&edited));
}

/// A viewer does not show past a file's end, so a window that reaches it was pointed at a line
/// in its lower part: its last lines get half the room.
#[test]
fn a_window_that_reaches_the_files_end_keeps_its_last_lines() {
    let (out, _) = read(&window_of(1201, 1300), 2000);
    assert!(char_count(&out) <= 2000, "{out}");
    assert!(out.contains("\n1201:    value_1201 "), "{out}");
    assert!(out.contains("\n1290:    value_1290 "), "{out}");
    assert!(
        out.ends_with("1300:    value_1300 = compute(argument, 1300)  # step\n"),
        "{out}"
    );
    // Inside the file, the same window keeps a short tail.
    let (inside, _) = read(&window_of(1201, 1400), 2000);
    assert!(!inside.contains("\n1290:    value_1290 "), "{inside}");
}

#[test]
fn a_window_from_the_first_line_is_read_from_its_head() {
    let (out, _) = read(&window(1), 2000);
    assert!(!out.contains("\n50:    value_50 "), "{out}");
    assert!(out.contains("\n1:    value_1 "), "{out}");
}

/// A shell printed a windowed viewer's view that declares nothing (lines inside one method):
/// its numbers say it is a file read, planned as one, the window's middle kept.
#[test]
fn a_numbered_view_a_shell_printed_is_a_read_whatever_it_declares() {
    let profile = Profile::new("shell", Some("bash"), 3000, 6000).unwrap();
    let mut engine = Engine::new(Budget::new(2000, 0).unwrap(), profile);
    engine.feed_str(&window(1201));
    let plan = engine.finish().plan;
    assert_eq!(plan.shape, Shape::Read);
    let out = plan.render();
    assert!(char_count(&out) <= 2000, "{out}");
    assert!(out.contains("\n1250:    value_1250 "), "{out}");
}

/// A numbered view longer than the lines after which a shell's output that declares nothing
/// is given up on (`cat -n` of a long function body) is still read to its end, as a read.
#[test]
fn a_long_numbered_view_a_shell_printed_is_not_given_up_on() {
    let mut text = String::new();
    for no in 1..=400 {
        writeln!(
            text,
            "{no:>6}\t    value_{no} = compute(argument, {no})  # step"
        )
        .unwrap();
    }
    let profile = Profile::new("shell", Some("bash"), 3000, 6000).unwrap();
    let mut engine = Engine::new(Budget::new(2000, 0).unwrap(), profile);
    engine.feed_str(&text);
    let plan = engine.finish().plan;
    assert_eq!(plan.shape, Shape::Read, "{}", plan.render());
}

#[test]
fn no_gap_marker_stands_for_fewer_characters_than_it_takes() {
    // Short functions whose definitions follow a blank line and a closing line.
    let mut text = String::new();
    for i in 0..200 {
        writeln!(text, "def function_{i:03}(argument):\n    return {i}\n").unwrap();
    }
    for budget in [500, 800, 2000, 4000] {
        let (out, _) = read(&text, budget);
        let lines: Vec<&str> = text.lines().collect();
        for marker in out.lines().filter(|l| l.starts_with("[line")) {
            let range = marker
                .trim_start_matches("[lines ")
                .trim_start_matches("[line ")
                .trim_end_matches(" omitted]");
            let (a, b) = range.split_once('-').unwrap_or((range, range));
            let (a, b): (usize, usize) = (a.parse().unwrap(), b.parse().unwrap());
            let chars: usize = lines[a - 1..b].iter().map(|l| l.len() + 1).sum();
            assert!(
                chars > marker.len() + 1,
                "{budget}: {marker} for {chars}\n{out}"
            );
        }
    }
}

/// A Java file whose methods each follow a long doc comment.
fn documented_java(methods: usize) -> String {
    let mut text = String::from("package demo;\n\npublic abstract class Generator\n{\n");
    for i in 0..methods {
        text.push_str("    /**\n");
        writeln!(text, "     * Method {i} writes one value of the stream.").unwrap();
        for j in 0..8 {
            writeln!(
                text,
                "     * More about method {i}, paragraph {j} of its contract."
            )
            .unwrap();
        }
        text.push_str("     */\n");
        writeln!(text, "    public abstract void write{i}(Object value);").unwrap();
    }
    text.push_str("}\n");
    text
}

#[test]
fn room_left_by_folded_doc_comments_shows_their_first_sentences() {
    let text = documented_java(12);
    let (out, shape) = read(&text, 2000);
    assert_eq!(shape, Shape::Read);
    assert!(char_count(&out) <= 2000, "{out}");
    // The code alone takes far less than the budget: what is left says what each method does.
    assert!(char_count(&out) > 1800, "{out}");
    for i in 0..4 {
        assert!(
            out.contains(&format!("     * Method {i} writes one value")),
            "{out}"
        );
    }
    // A doc comment's opening comes with its first sentence, never alone before a marker.
    assert!(!out.contains("    /**\n["), "{out}");
}

#[test]
fn a_trimmed_read_keeps_the_first_lines_of_the_run_it_drops() {
    let mut text = String::from("import os\n");
    for i in 0..40 {
        writeln!(
            text,
            "# licence line {i:02} of the header that nobody reads"
        )
        .unwrap();
    }
    for i in 0..20 {
        writeln!(text, "value_{i} = compute(argument, {i})").unwrap();
    }
    // Over the budget by a tenth of the header: dropping it whole would waste the rest.
    let budget = char_count(&text) - 200;
    let (out, shape) = read(&text, budget);
    assert_eq!(shape, Shape::Read);
    assert!(char_count(&out) <= budget, "{out}");
    assert!(char_count(&out) + 100 > budget, "{out}");
    assert!(out.contains("# licence line 00 of the header"), "{out}");
    for i in 0..20 {
        assert!(
            out.contains(&format!("value_{i} = compute(argument, {i})\n")),
            "{out}"
        );
    }
}

/// A file a shell command printed (`cat F`) is planned as a read, even where its text has an
/// error that would make a shell's output a log (a docstring's `ValueError: ...` reads as a
/// log's), and its markers say to run the command again.
#[test]
fn a_file_a_shell_printed_is_a_read_worded_as_a_shell() {
    let mut text = source(60);
    text.insert_str(
        0,
        "def parse(line):\n    \"\"\"Reads one line.\n\n    ValueError: if the line is empty.\n    \"\"\"\n\n",
    );
    let plan = |kind: &str| {
        let profile = Profile::new(kind, Some("bash"), 3000, 6000).unwrap();
        let mut engine = Engine::new(Budget::new(2000, 0).unwrap(), profile);
        engine.feed_str(&text);
        engine.finish().plan
    };
    assert_eq!(plan("shell").shape, Shape::Log);
    let printed = plan("shell_read");
    assert_eq!(printed.shape, Shape::Read);
    let out = printed.render();
    assert!(out.starts_with("def parse(line):\n"), "{out}");
    let closing = out.lines().find(|l| l.contains(" lines omitted")).unwrap();
    assert!(closing.contains("re-run | sed -n '"), "{closing}");
    assert!(!out.contains("read offset"), "{out}");
}

/// A harness's cut of `source(60)` to its first and last `part` bytes, as mini-swe-agent
/// cuts a long output: whole lines around its note.
fn cut_by_a_harness(part: usize) -> String {
    let text = source(60);
    let head_end = text[..part].rfind('\n').unwrap() + 1;
    let tail_start = text[text.len() - part..].find('\n').unwrap() + text.len() - part + 1;
    format!(
        "{}<elided_chars>\n{} characters elided\n</elided_chars>\n{}",
        &text[..head_end],
        tail_start - head_end,
        &text[tail_start..]
    )
}

#[test]
fn after_an_earlier_cuts_note_the_tail_is_the_harness_windows_end() {
    let text = cut_by_a_harness(5000);
    let (out, shape) = read(&text, 4000);
    assert_eq!(shape, Shape::Read);
    assert!(char_count(&out) <= 4000, "{out}");
    let after = &text[text.find("</elided_chars>\n").unwrap() + 16..];
    // The part after the note is about half of the input: its last lines get more than a
    // third of the output, not a read's usual twentieth.
    let tail_at = out.rfind("]\n").unwrap() + 2;
    assert!(after.ends_with(&out[tail_at..]), "{out}");
    assert!(out.len() - tail_at > 4000 / 3, "{out}");
    // Without the note, the same lines are a read's end, and keep a small share.
    let plain = text.replace("characters elided", "characters follow");
    let (out, _) = read(&plain, 4000);
    let tail_at = out.rfind("]\n").unwrap() + 2;
    assert!(out.len() - tail_at < 4000 / 6, "{out}");
}

/// A class whose docstring runs for most of the read: `sed -n` on a documented class.
fn long_docstring(paragraphs: usize) -> String {
    let mut text = String::from("class GridSearch(BaseSearch):\n    \"\"\"Exhaustive search.\n\n");
    for i in 0..paragraphs {
        writeln!(text, "    param_{i} : int, default: {i}").unwrap();
        for j in 0..3 {
            writeln!(
                text,
                "        What parameter {i} controls, sentence {j} of its entry."
            )
            .unwrap();
        }
        text.push('\n');
    }
    text.push_str(
        "    \"\"\"\n\n    def __init__(self, estimator):\n        self.estimator = estimator\n",
    );
    text
}

#[test]
fn room_left_by_a_long_folded_run_shows_more_of_it() {
    // A run of filler longer than a small share of the budget: the room the code leaves is
    // the run's to show, not empty.
    let text = long_docstring(40);
    for budget in [2000, 4000] {
        let (out, shape) = read(&text, budget);
        assert_eq!(shape, Shape::Read);
        assert!(char_count(&out) <= budget, "{out}");
        assert!(
            char_count(&out) + 200 > budget,
            "{budget}: {}\n{out}",
            char_count(&out)
        );
        assert!(out.contains("    def __init__(self, estimator):"), "{out}");
        // What a run shows is its beginning: never a blank line of it between two markers.
        assert!(!out.contains("]\n\n["), "{out}");
    }
}

#[test]
fn a_revealed_run_after_a_folded_one_pays_for_the_marker_it_splits() {
    let line = |no: u64, text: &str| Line {
        no,
        lines: 1,
        text: text.to_owned(),
        chars: char_count(text),
    };
    // A docstring (lines 1-60), then imports (61-70), folded as one marker; code after them.
    let doc = [line(1, "\"\"\"Parses header values into tokens.")];
    let imports = [line(61, "import re"), line(62, "import sys")];
    let folded = [
        Folded {
            lines: doc.iter().collect(),
            chars: 3000,
        },
        Folded {
            lines: imports.iter().collect(),
            chars: 200,
        },
    ];
    let code = (71, 80, "def parse(value):");
    let gap_len = 30;
    // Room for the docstring's first line and the imports' first, but not for a second marker.
    let spare = doc[0].chars + 1 + imports[0].chars + 1 + 5;
    let shown = |count_splits: bool| {
        let mut pieces = vec![code];
        reveal(&folded, spare, gap_len, count_splits, &mut pieces);
        pieces.iter().map(|p| p.0).collect::<Vec<_>>()
    };
    assert_eq!(shown(false), [1, 61, 71]);
    // Counted, the imports' first line would split the marker between the runs in two.
    assert_eq!(shown(true), [1, 71]);
}

/// A guide in Markdown: sections of prose, each with a fenced Rust example that defines a
/// struct, and links.
fn guide(sections: usize) -> String {
    let mut text = String::from("# A guide\n\nSee [the reference](reference.md) for more.\n\n");
    for i in 0..sections {
        writeln!(text, "## Section {i}\n").unwrap();
        for j in 0..4 {
            writeln!(
                text,
                "Prose line {j} of section {i}, saying what the example shows."
            )
            .unwrap();
        }
        writeln!(
            text,
            "\n```rust\nstruct Example{i} {{\n    field: u32,\n}}\n```\n"
        )
        .unwrap();
    }
    text
}

/// A Markdown read shows, between its head and tail, its headings: its code examples'
/// definitions are not what the part it cannot show is about.
#[test]
fn a_markdown_read_shows_the_headings_of_its_middle() {
    let text = guide(40);
    let (out, shape) = read(&text, 2000);
    assert_eq!(shape, Shape::Read);
    assert!(char_count(&out) <= 2000, "{out}");
    let headings = out.lines().filter(|l| l.starts_with("## Section ")).count();
    assert!(headings >= 8, "{headings} headings:\n{out}");
    // The head shows the first sections whole; past them, no example's definition.
    assert!(!out.contains("struct Example20"), "{out}");
}

/// Comments at the margin of a Python module are no headings: its definitions stay what its
/// middle shows, a link in a comment and a fence in a docstring notwithstanding.
#[test]
fn a_python_modules_comments_are_no_markdown_headings() {
    let mut text = String::from(
        "# See [docs](https://example.org)\n\"\"\"Example:\n```\nx = 1\n```\n\"\"\"\n",
    );
    text.push_str(&source(60).replace("\ndef function_0", "\n# Section\ndef function_0"));
    let (out, _) = read(&text, 2000);
    let defs = out
        .lines()
        .filter(|l| l.starts_with("def function_"))
        .count();
    assert!(defs >= 5, "{defs} definitions:\n{out}");
}
