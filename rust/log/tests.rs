//! Log planner tests through the engine: budget bound, exact gap markers, stream = one-shot.

use std::fmt::Write as _;

use super::reading::class::Class;
use crate::engine::Engine;
use crate::fuzzing::log_check::parse_gap;
use crate::plan::Shape;
use crate::planner::Budget;
use crate::profile::Profile;

fn compress(input: &[u8], budget: u64, chunk: usize) -> (String, Shape) {
    let profile = Profile::new("shell", Some("bash"), 3000, 6000).unwrap();
    let mut engine = Engine::new(Budget::new(budget, 0).unwrap(), profile);
    for c in input.chunks(chunk.max(1)) {
        engine.feed_bytes(c);
    }
    let out = engine.finish();
    (out.plan.render(), out.plan.shape)
}

/// A build log with errors, tracebacks, repeated warnings and a summary.
fn build_log(lines: usize) -> String {
    labelled_build_log(lines).0
}

/// [`build_log`] with the class of each of its lines, known by construction.
fn labelled_build_log(lines: usize) -> (String, Vec<Class>) {
    use Class::{Error, Other, Summary, Warning};
    let mut s = String::new();
    let mut labels = Vec::new();
    for i in 1..=lines {
        match i % 97 {
            13 => {
                let k = i % 5;
                writeln!(
                    s,
                    "src/m{i}.c:{i}:5: warning: unused variable 'v{k}' [-Wunused-variable]"
                )
                .expect("writing to a String");
                labels.push(Warning);
            }
            50 if i % 3 == 0 => {
                writeln!(
                    s,
                    "Traceback (most recent call last):\n  File \"t{i}.py\", line {i}, in f\n    g()\nValueError: bad value {i}"
                )
                .expect("writing to a String");
                labels.extend([Error, Other, Other, Error]);
            }
            70 if i % 7 == 0 => {
                writeln!(
                    s,
                    "src/e{i}.c:3:1: error: 'x{i}' undeclared\n    3 | x{i}\n      | ^"
                )
                .expect("writing to a String");
                labels.extend([Error, Other, Other]);
            }
            _ => {
                writeln!(s, "compiling module_{i} ... ok").expect("writing to a String");
                labels.push(Other);
            }
        }
    }
    s.push_str("==== 3 failed, 1985 passed in 12.31s ====\n");
    labels.push(Summary);
    (s, labels)
}

/// Every gap marker against a count over the labels, which never went through the classifier.
#[test]
fn gap_markers_agree_with_an_independent_count() {
    let (input, labels) = labelled_build_log(6000);
    for budget in [400, 1000, 2000, 4000, 16_000] {
        let (text, shape) = compress(input.as_bytes(), budget, 1 << 20);
        assert_eq!(shape, Shape::Log);
        let mut markers = 0;
        for row in text.lines().filter(|r| r.starts_with("[line")) {
            let (a, b, said) = parse_gap(row).unwrap_or_else(|| panic!("{row}"));
            let mut expected = [0; 4];
            for class in &labels[usize::try_from(a - 1).unwrap()..usize::try_from(b).unwrap()] {
                expected[*class as usize] += 1;
            }
            assert_eq!(said, expected[..3], "budget {budget}: {row}");
            markers += 1;
        }
        assert!(markers > 0, "budget {budget}: {text}");
    }
}

#[test]
fn a_build_log_gets_the_log_shape_within_budget() {
    let input = build_log(5000);
    for budget in [400, 401, 999, 2000, 4000, 16_000] {
        let (text, shape) = compress(input.as_bytes(), budget, 1 << 20);
        assert!(
            text.chars().count() as u64 <= budget,
            "budget {budget}: {}",
            text.chars().count()
        );
        assert_eq!(shape, Shape::Log, "budget {budget}");
        assert!(text.contains("3 failed, 1985 passed"), "{text}");
    }
    let (text, _) = compress(input.as_bytes(), 16_000, 1 << 20);
    assert!(text.contains("ValueError: bad value"), "{text}");
    assert!(text.contains("warning: unused variable"), "{text}");
}

#[test]
fn every_budget_is_honoured() {
    let input = build_log(800);
    for budget in (1..3000).step_by(37) {
        let (text, _) = compress(input.as_bytes(), budget, 1 << 20);
        assert!(text.chars().count() as u64 <= budget, "budget {budget}");
    }
}

#[test]
fn stream_equals_one_shot() {
    let mut input = build_log(600).into_bytes();
    input.extend_from_slice("\u{4e2d} error: \x1b[31mred\x1b[0m\r\n".as_bytes());
    input.extend_from_slice(b"\xff\xfe tail");
    for budget in [500, 3000] {
        let whole = compress(&input, budget, 1 << 30);
        for chunk in [1, 2, 3, 7, 64, 4096, 65_536] {
            assert_eq!(
                compress(&input, budget, chunk),
                whole,
                "chunk {chunk} budget {budget}"
            );
        }
    }
}

/// An input of several megabytes in one chunk is prepared on two cores; in small chunks, on
/// one. Both must give the same plan, for text and for bytes with invalid UTF-8 alike.
#[test]
fn two_cores_plan_like_one() {
    let text = build_log(120_000);
    assert!(
        text.len() > 3 << 20,
        "several blocks past the two-core threshold"
    );
    let mut bytes = text.clone().into_bytes();
    for at in (1000..bytes.len()).step_by(250_000) {
        bytes[at] = 0xff;
    }
    for budget in [1000, 16_000] {
        let sequential = compress(&bytes, budget, 65_536);
        assert_eq!(
            compress(&bytes, budget, 1 << 30),
            sequential,
            "bytes, budget {budget}"
        );
        let profile = Profile::new("shell", Some("bash"), 3000, 6000).unwrap();
        let mut engine = Engine::new(Budget::new(budget, 0).unwrap(), profile);
        engine.feed_str(&text);
        let whole = engine.finish().plan.render();
        assert_eq!(
            whole,
            compress(text.as_bytes(), budget, 65_536).0,
            "str, budget {budget}"
        );
    }
}

#[test]
fn declines_without_error_signal() {
    let input = (1..2000).fold(String::new(), |mut s, i| {
        let _ = writeln!(s, "line {i} all fine");
        s
    });
    let (_, shape) = compress(input.as_bytes(), 1000, 1 << 20);
    assert_eq!(shape, Shape::Clip);
}

/// A package list (`dpkg -l`, `apt-cache search`) whose descriptions name errors deep in a
/// sentence reports no event: it is no log.
#[test]
fn descriptions_that_name_errors_are_no_log() {
    let mut input = String::new();
    for i in 0..400 {
        let description = match i % 50 {
            7 => "AddressSanitizer -- a fast memory error detector",
            19 => "Limited Error Raster Compression library",
            31 => "Catch common Java mistakes as compile-time errors",
            _ => "shared library for some common task",
        };
        let _ = writeln!(
            input,
            "ii  libpackage{i}:amd64   1.{i}.0-1   amd64   {description}"
        );
    }
    let (_, shape) = compress(input.as_bytes(), 2000, 1 << 20);
    assert_ne!(shape, Shape::Log);
}

/// Every budget, streamed and in one piece, holds for an input the planner finds hard.
fn assert_bounded(input: &str) {
    for budget in [1, 50, 400, 4000, 16_000] {
        for chunk in [4096, 1 << 30] {
            let (text, _) = compress(input.as_bytes(), budget, chunk);
            assert!(text.chars().count() as u64 <= budget, "budget {budget}");
        }
    }
}

#[test]
fn a_three_megabyte_line_stays_within_budget() {
    assert_bounded(&("error: x".to_owned() + &"y".repeat(3_000_000)));
}

#[test]
fn carriage_returns_alone_stay_within_budget() {
    assert_bounded(&("step\r".repeat(100_000) + "error: done\r"));
}

#[test]
fn nul_bytes_stay_within_budget() {
    assert_bounded(&"a\0b error: \0\n".repeat(10_000));
}

#[test]
fn fifty_thousand_errors_stay_within_budget() {
    assert_bounded(&(0..50_000).fold(String::new(), |mut s, i| {
        let _ = writeln!(s, "e.c:{i}:1: error: bad {i}");
        s
    }));
}

/// Found by the log fuzzer: a bare `##[error]` line has no text after its CI prefix, so an
/// open trace held it as a blank line, and it was never counted as the error it is: a gap
/// holding 165 error lines said 82.
#[test]
fn a_bare_error_annotation_in_a_trace_is_counted() {
    use Class::{Error, Other};
    let mut input = String::new();
    let mut labels = Vec::new();
    for i in 0..90 {
        writeln!(
            input,
            "Traceback (most recent call last):\n##[error]\nstep {i} ok"
        )
        .expect("writing to a String");
        labels.extend([Error, Error, Other]);
    }
    for budget in [600, 2000] {
        let (text, shape) = compress(input.as_bytes(), budget, 1 << 20);
        assert_eq!(shape, Shape::Log);
        for row in text.lines().filter(|r| r.starts_with("[line")) {
            let (a, b, said) = parse_gap(row).unwrap_or_else(|| panic!("{row}"));
            let errors = labels[usize::try_from(a - 1).unwrap()..usize::try_from(b).unwrap()]
                .iter()
                .filter(|c| **c == Error)
                .count();
            assert_eq!(said[0], errors as u64, "budget {budget}: {row}");
        }
    }
}

/// Found by the log fuzzer: the clip's window holds at least the last `budget + 1`
/// characters, and more or fewer of them by how the input came in blocks. The tail run read
/// lines from all it held, counting a long line as only its shown part, so a last line longer
/// than that took fewer characters of the budget than of the window, and 1-byte chunks showed
/// 46 repeats of the line before it where one feed showed 44.
#[test]
fn the_tail_run_is_the_same_however_the_input_was_split() {
    let mut input = String::new();
    for i in 0..90 {
        writeln!(input, "===== {i}").expect("writing to a String");
    }
    input.push_str(&"===== 89\n".repeat(439));
    input.push_str(&"E       assert 1 == 2".repeat(7));
    input.push('\n');
    let whole = compress(input.as_bytes(), 539, 1 << 20);
    for chunk in [1, 7, 64] {
        assert_eq!(
            compress(input.as_bytes(), 539, chunk),
            whole,
            "chunk {chunk}"
        );
    }
}

/// A Python traceback through the project's modules into an installed package's, each frame
/// long, with a test run's summary after it.
fn traceback_into_a_package(project_frames: usize, package_frames: usize) -> String {
    let mut s = String::from("collected 1 item\n\nTraceback (most recent call last):\n");
    for i in 0..project_frames {
        writeln!(
            s,
            "  File \"/repo/project/module_{i}.py\", line {}, in step_{i}\n    result = step_{}(value, option=option)",
            10 + i,
            i + 1
        )
        .unwrap();
    }
    for i in 0..package_frames {
        writeln!(
            s,
            "  File \"/opt/env/lib/python3.12/site-packages/library/internals/deep_{i}.py\", line {}, in helper_{i}\n    return helper_{}(value, option=option, strict=True)",
            100 + i,
            i + 1
        )
        .unwrap();
    }
    s.push_str("ValueError: the option is not one of the accepted values\n\n");
    s.push_str(
        "=========================== short test summary info ============================\n",
    );
    s.push_str("FAILED tests/test_module.py::test_step - ValueError: the option is not one of the accepted values\n");
    s.push_str(
        "============================== 1 failed in 0.12s ===============================\n",
    );
    s
}

#[test]
fn a_trace_too_long_loses_its_library_frames_before_the_projects() {
    let text = traceback_into_a_package(6, 20);
    for budget in [2000_usize, 2400, 2800] {
        assert!(text.chars().count() > budget);
        let (out, shape) = compress(text.as_bytes(), budget as u64, 1 << 16);
        assert_eq!(shape, Shape::Log);
        assert!(out.chars().count() <= budget, "{out}");
        for i in 0..6 {
            assert!(
                out.contains(&format!(
                    "  File \"/repo/project/module_{i}.py\", line {}",
                    10 + i
                )),
                "{budget}: frame {i} lost\n{out}"
            );
        }
        assert!(out.contains("ValueError: the option is not one"), "{out}");
    }
}

#[test]
fn a_jvm_trace_too_long_keeps_the_projects_frames_and_its_cause() {
    let mut text =
        String::from("Running com.example.LedgerTest\nTests run: 3, Failures: 0, Errors: 1\n");
    text.push_str("testPost(com.example.LedgerTest)  Time elapsed: 0.01 sec  <<< ERROR!\n");
    text.push_str("java.lang.IllegalStateException: account 7 is closed\n");
    for i in 0..4 {
        writeln!(
            text,
            "\tat com.example.ledger.Ledger.step{i}(Ledger.java:{})",
            40 + i
        )
        .unwrap();
    }
    for i in 0..30 {
        writeln!(
            text,
            "\tat org.junit.runners.model.FrameworkMethod$Runner{i}.runReflectiveCall(FrameworkMethod.java:{})",
            50 + i
        )
        .unwrap();
    }
    text.push_str("Caused by: java.io.IOException: journal closed\n");
    text.push_str("\tat com.example.ledger.Journal.append(Journal.java:88)\n\t... 31 more\n\n");
    text.push_str("Results :\n\nTests in error:\n  LedgerTest.testPost:41 IllegalState\n\nTests run: 3, Failures: 0, Errors: 1, Skipped: 0\n\n[INFO] BUILD FAILURE\n");
    let (out, shape) = compress(text.as_bytes(), 2000, 1 << 16);
    assert!(text.chars().count() > 2000);
    assert_eq!(shape, Shape::Log);
    for i in 0..4 {
        assert!(
            out.contains(&format!("Ledger.step{i}(Ledger.java:{})", 40 + i)),
            "{out}"
        );
    }
    assert!(
        out.contains("Caused by: java.io.IOException: journal closed\n"),
        "{out}"
    );
    assert!(
        out.contains("\tat com.example.ledger.Journal.append(Journal.java:88)\n"),
        "{out}"
    );
}

#[test]
fn room_goes_to_new_lines_before_a_second_copy_of_a_trace() {
    // `pytest -v` where two tests fail in the same fixture: the second traceback repeats the
    // first line for line, while each PASSED line names a different test.
    let mut log = String::from("============ test session starts ============\n");
    for i in 0..12 {
        writeln!(
            log,
            "tests/test_export.py::test_export_case_{i:02} PASSED   [{:3}%]",
            i * 7
        )
        .unwrap();
    }
    log.push_str("tests/test_export.py::test_plot_a ERROR   [90%]\n");
    log.push_str("tests/test_export.py::test_plot_b ERROR   [100%]\n");
    log.push_str("================== ERRORS ==================\n");
    for name in ["a", "b"] {
        writeln!(
            log,
            "_________ ERROR at setup of test_plot_{name} _________"
        )
        .unwrap();
        log.push_str("\n    @pytest.fixture(scope='function')\n    def pyplot():\n");
        for j in 0..8 {
            writeln!(
                log,
                "        # setup note {j}: the backend is chosen before any figure"
            )
            .unwrap();
        }
        log.push_str("        matplotlib = pytest.importorskip('matplotlib')\n");
        log.push_str(">       matplotlib.use('agg', warn=False, force=True)\n");
        log.push_str("E       TypeError: use() got an unexpected keyword argument 'warn'\n\n");
        log.push_str("tests/conftest.py:18: TypeError\n");
    }
    log.push_str("======= 12 passed, 2 errors in 0.61s =======\n");
    let budget = log.len() as u64 - 300;
    let (out, shape) = compress(log.as_bytes(), budget, 1 << 20);
    assert_eq!(shape, Shape::Log);
    assert!(out.chars().count() as u64 <= budget, "{out}");
    // Half the tests that passed are named; before, the fill spent their room on the copy.
    for i in 6..12 {
        assert!(
            out.contains(&format!("test_export_case_{i:02} PASSED")),
            "{out}"
        );
    }
    assert!(out.contains("ERROR at setup of test_plot_b"), "{out}");
}

/// Code names errors on every few lines (`raise`, `except`, `log.error(...)`): a shell's output
/// whose every error is a line of code is no log, while a traceback that quotes the same code
/// is one, by its `Traceback` line and the error that ends it.
#[test]
fn errors_that_are_lines_of_code_make_no_log() {
    let mut code = String::new();
    for i in 0..200 {
        writeln!(
            code,
            "    if value < {i}:\n        log.error(\"too small\")\n        raise ValueError(value)"
        )
        .expect("writing to a String");
    }
    let (_, shape) = compress(code.as_bytes(), 2000, 1 << 16);
    assert_ne!(shape, Shape::Log);
    let traceback = format!(
        "Traceback (most recent call last):\n  File \"x.py\", line 3, in <module>\n{code}ValueError: 3\n"
    );
    let (out, shape) = compress(traceback.as_bytes(), 2000, 1 << 16);
    assert_eq!(shape, Shape::Log);
    assert!(out.contains("ValueError: 3"), "{out}");
}

/// The start of a pytest run that fails: `passed` lines of dots, then the failure of
/// `test_parse` up to its first frame's place.
fn pytest_failure_start(passed: usize) -> String {
    let mut log = String::from(
        "============================= test session starts ==============================\n",
    );
    for i in 0..passed {
        writeln!(
            log,
            "tests/test_m{i:02}.py ..........................................   [ {i}%]"
        )
        .expect("writing to a String");
    }
    log.push_str(
        "=================================== FAILURES ===================================\n",
    );
    log.push_str(
        "_________________________________ test_parse _________________________________\n\n",
    );
    log.push_str("    def test_parse():\n>       parse(\"x\")\n\ntests/test_parse.py:3: \n");
    log
}

/// pytest prints each frame's place (`PATH:N: in NAME`) above the error line, where no
/// block's trace reads: the places in the project's code are shown before the quoted source
/// around them.
#[test]
fn pytest_frame_places_in_the_projects_code_are_shown() {
    let mut log = pytest_failure_start(20);
    for (path, name) in [("pkg/parse.py:40", "parse"), ("pkg/lex.py:12", "tokens")] {
        writeln!(log, "{path}: in {name}").expect("writing to a String");
        for j in 0..16 {
            writeln!(
                log,
                "    # step {j} of {name}: the input is read and checked"
            )
            .expect("writing to a String");
        }
    }
    log.push_str("/usr/lib/python3/site-packages/re.py:9: in compile\n    return _compile(p)\n");
    log.push_str(
        ">       raise ValueError(value)\nE       ValueError: x\n\npkg/lex.py:20: ValueError\n",
    );
    log.push_str(
        "=========================== short test summary info ============================\n",
    );
    log.push_str("FAILED tests/test_parse.py::test_parse - ValueError: x\n");
    log.push_str("============================== 1 failed, 20 passed in 0.50s ===============================\n");
    let (out, shape) = compress(log.as_bytes(), 2000, 1 << 16);
    assert_eq!(shape, Shape::Log);
    // Each shown for its own sake, between gaps, not as a part of the tail.
    assert!(
        out.contains(" omitted]\npkg/parse.py:40: in parse\n[lines "),
        "{out}"
    );
    assert!(out.contains("\npkg/lex.py:12: in tokens\n"), "{out}");
}

/// A frame place far from both ends, where neither the head nor the tail shows it, is shown
/// all the same, and read alike however the output streams in.
#[test]
fn a_frame_place_in_the_middle_of_a_long_failure_is_shown() {
    let mut log = pytest_failure_start(50);
    log.push_str("pkg/parse.py:40: in parse\n    return tokens(text)\n");
    log.push_str("/usr/lib/python3/site-packages/lexer/core.py:9: in tokens\n");
    for j in 0..40 {
        writeln!(
            log,
            "    # line {j} of the library's own function, quoted by pytest here"
        )
        .expect("writing to a String");
    }
    log.push_str(">       raise ValueError(value)\nE       ValueError: x\n\n/usr/lib/python3/site-packages/lexer/core.py:60: ValueError\n");
    log.push_str(
        "=============================== warnings summary ===============================\n",
    );
    for k in 0..40 {
        writeln!(log, "tests/test_m{k:02}.py::test_case\n  /app/pkg/old.py:{k}: DeprecationWarning: call new() instead")
            .expect("writing to a String");
    }
    log.push_str("FAILED tests/test_parse.py::test_parse - ValueError: x\n");
    log.push_str("============================== 1 failed, 499 passed in 0.50s ===============================\n");
    let place = "\npkg/parse.py:40: in parse\n";
    let at = log.find(place).expect("the place is in the log");
    assert!(
        at > 2000 && log.len() - at > 2000,
        "the place is in neither window"
    );
    let (out, shape) = compress(log.as_bytes(), 2000, 1 << 16);
    assert_eq!(shape, Shape::Log);
    assert!(out.contains(place), "{out}");
    for chunk in [7, 4096] {
        assert_eq!(
            compress(log.as_bytes(), 2000, chunk).0,
            out,
            "chunks of {chunk}"
        );
    }
}

/// A place that opens a block (the output streamed in so that one part ends just before it)
/// is read as it is where it lies inside one.
#[test]
fn a_frame_place_that_opens_a_block_is_read_as_inside_one() {
    let mut log = pytest_failure_start(60_000);
    let at = log.len();
    log.push_str("pkg/parse.py:40: in parse\n    return tokens(text)\n");
    for j in 0..10 {
        writeln!(log, "    # line {j} of the function, quoted by pytest")
            .expect("writing to a String");
    }
    log.push_str(
        ">       raise ValueError(value)\nE       ValueError: x\n\npkg/parse.py:41: ValueError\n",
    );
    for k in 0..40 {
        writeln!(
            log,
            "tests/test_m{k:02}.py::test_case\n  /app/pkg/old.py:{k}: DeprecationWarning: call new() instead"
        )
        .expect("writing to a String");
    }
    log.push_str("============================== 1 failed, 60000 passed in 9.50s ===============================\n");
    assert!(
        at >= crate::engine::GATHER_BYTES,
        "the first part is read where it lies"
    );
    let (whole, _) = compress(log.as_bytes(), 2000, log.len());
    assert!(whole.contains("\npkg/parse.py:40: in parse\n"), "{whole}");
    let profile = Profile::new("shell", Some("bash"), 3000, 6000).unwrap();
    let mut engine = Engine::new(Budget::new(2000, 0).unwrap(), profile);
    engine.feed_str(&log[..at]);
    engine.feed_str(&log[at..]);
    assert_eq!(engine.finish().plan.render(), whole);
}

/// A warnings summary of many kinds of long warnings comes after a failure's frames: the
/// places name the code to open, and go before one warning of each kind.
#[test]
fn a_failures_frame_places_go_before_a_warnings_summary() {
    let mut log = pytest_failure_start(10);
    let places = [
        ("pkg/io/reader.py:120", "read_table"),
        ("pkg/io/parse.py:88", "parse_header"),
        ("pkg/core/frame.py:301", "from_records"),
        ("pkg/core/index.py:57", "ensure_index"),
    ];
    for (path, name) in places {
        writeln!(log, "{path}: in {name}\n    return {name}(value, options)")
            .expect("writing to a String");
    }
    log.push_str(
        ">       raise KeyError(key)\nE       KeyError: 'time'\n\npkg/core/index.py:70: KeyError\n",
    );
    log.push_str(
        "=============================== warnings summary ===============================\n",
    );
    let subjects = [
        "interpolation",
        "is_monotonic",
        "base",
        "loffset",
        "closed",
        "squeeze",
        "level",
        "inplace",
        "numeric_only",
        "axis",
        "method",
        "errors",
    ];
    for (k, subject) in subjects.iter().enumerate() {
        writeln!(
            log,
            "tests/test_m{k:02}.py::test_{subject}\n  /app/pkg/core/{subject}.py:{k}: FutureWarning: \
             the '{subject}' keyword is deprecated and will be removed in a future version; pass \
             the new keyword instead, as the documentation of {subject} says\n    result = \
             call_{subject}(data)\n"
        )
        .expect("writing to a String");
    }
    log.push_str("-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html\n");
    log.push_str(
        "=========================== short test summary info ============================\n",
    );
    log.push_str("FAILED tests/test_parse.py::test_parse - KeyError: 'time'\n");
    log.push_str("============================== 1 failed, 10 passed, 12 warnings in 0.50s ==============================\n");
    let (out, shape) = compress(log.as_bytes(), 4000, 1 << 16);
    assert_eq!(shape, Shape::Log);
    assert!(out.chars().count() <= 4000, "{out}");
    for (path, name) in places {
        assert!(out.contains(&format!("\n{path}: in {name}\n")), "{out}");
    }
}

/// A viewer's numbered view of a file (a windowed viewer's `[File: ...]` and `K:` lines) is
/// no log, though its comments and `throws` clauses name errors and exceptions.
#[test]
fn a_numbered_view_of_a_file_is_no_log() {
    let mut view = String::from(
        "[File: /repo/src/main/java/Reader.java (2328 lines total)]\n(2173 more lines above)\n",
    );
    for (i, no) in (2174..2274).enumerate() {
        let line = match i % 5 {
            0 => "     * throw exception; but if it does return, it has to skip the value",
            1 => "        throws IOException",
            2 => "     * @throws JsonMappingException if the error is fatal",
            3 => "        ctxt.reportInputMismatch(this, \"error: unexpected token\");",
            _ => "        p.skipChildren();",
        };
        writeln!(view, "{no}:{line}").expect("writing to a String");
    }
    view.push_str("(55 more lines below)\n");
    let (out, shape) = compress(view.as_bytes(), 2000, 1 << 16);
    assert_ne!(shape, Shape::Log, "{out}");
}

/// g++ on a template used with a type it cannot order: the chain of instantiations in the
/// library's headers, its last line in the project's code, the error, and a screenful of notes.
fn template_error(place: &str, header: &str, message: &str, candidates: usize) -> String {
    let mut s = String::from(
        "In file included from /usr/include/c++/12/map:60,\n                 from src/a.cpp:1:\n",
    );
    s.push_str("/usr/include/c++/12/bits/stl_function.h: In instantiation of 'bool std::less<Key>::operator()':\n");
    for depth in 0..6 {
        writeln!(
            s,
            "/usr/include/c++/12/bits/stl_map.h:{}:32:   required from 'std::map<Key, int>::operator[] [with Key = Key; depth = {depth}]'",
            500 + depth
        )
        .expect("writing to a String");
    }
    writeln!(s, "{place}:   required from here").expect("writing to a String");
    writeln!(s, "/usr/include/c++/12/bits/{header}: error: {message}")
        .expect("writing to a String");
    for candidate in 0..candidates {
        writeln!(
            s,
            "/usr/include/c++/12/bits/stl_iterator.h:{}:5: note: candidate: 'template<class _Iterator{candidate}> bool std::operator<(const reverse_iterator<_Iterator>&, const reverse_iterator<_Iterator>&)'\n/usr/include/c++/12/bits/stl_iterator.h:{}:5: note:   template argument deduction/substitution failed:",
            1000 + candidate,
            1000 + candidate
        )
        .expect("writing to a String");
    }
    s
}

#[test]
fn the_place_in_the_projects_code_that_led_to_a_template_error_is_kept() {
    let log = format!(
        "{}{}make: *** [Makefile:7: build/a.o] Error 1\n",
        template_error(
            "src/a.cpp:5:21",
            "stl_function.h:408:20",
            "no match for 'operator<' (operand types are 'Key' and 'Key')",
            60
        ),
        template_error(
            "src/b.cpp:9:14",
            "predefined_ops.h:45:23",
            "invalid operands to binary expression ('Key' and 'Key')",
            60
        )
    );
    for budget in [2000, 4000] {
        let (out, shape) = compress(log.as_bytes(), budget, log.len());
        assert_eq!(shape, Shape::Log);
        for place in [
            "src/a.cpp:5:21:   required from here",
            "src/b.cpp:9:14:   required from here",
        ] {
            assert!(out.contains(place), "{place} at {budget}:\n{out}");
        }
    }
}

#[test]
fn a_note_that_says_failed_is_no_error_of_its_own() {
    let log = format!(
        "{}make: *** [Makefile:7: build/a.o] Error 1\n",
        template_error(
            "src/a.cpp:5:21",
            "stl_function.h:408:20",
            "no match for 'operator<' (operand types are 'Key' and 'Key')",
            60
        )
    );
    let (out, _) = compress(log.as_bytes(), 2000, log.len());
    // The one error line is shown: no marker counts another.
    assert!(out.contains("error: no match for 'operator<'"), "{out}");
    assert!(!out.contains("error line"), "{out}");
}

#[test]
fn a_repeated_template_error_shown_keeps_its_own_place() {
    let message = "no match for 'operator<' (operand types are 'Key' and 'Key')";
    let log = format!(
        "{}{}",
        template_error("src/a.cpp:5:21", "stl_function.h:408:20", message, 8),
        template_error("src/b.cpp:9:14", "stl_function.h:408:20", message, 8)
    );
    let (out, _) = compress(log.as_bytes(), 4000, log.len());
    // The first error is shown with its trace, the repeat's headline then as room allows,
    // with its own place.
    let second = "/usr/include/c++/12/bits/stl_function.h:408:20: error: no match";
    assert_eq!(out.matches(second).count(), 2, "{out}");
    for place in ["src/a.cpp:5:21", "src/b.cpp:9:14"] {
        assert!(
            out.contains(&format!("{place}:   required from here\n")),
            "{out}"
        );
    }
}

#[test]
fn the_far_pieces_of_a_long_trace_wait_for_the_lines_by_its_error() {
    // The notes after the last error run past the budget and are split into pieces with no
    // error line: the notes right under the error come before the far ones.
    let log = format!(
        "{}{}",
        template_error(
            "src/a.cpp:5:21",
            "stl_function.h:408:20",
            "invalid operands to binary expression ('Key' and 'Key')",
            2
        ),
        template_error(
            "src/b.cpp:9:14",
            "predefined_ops.h:45:23",
            "no match for 'operator<' (operand types are 'Key' and 'Key')",
            200
        )
    );
    for budget in [4000, 8000] {
        let (out, _) = compress(log.as_bytes(), budget, log.len());
        let notes = "(operand types are 'Key' and 'Key')\n\
            /usr/include/c++/12/bits/stl_iterator.h:1000:5: note: candidate: \
            'template<class _Iterator0>";
        assert!(out.contains(notes), "at {budget}:\n{out}");
    }
}

/// A build whose last lines repeat a diagnostic, `early` more copies of it far before them,
/// each ten lines from the next.
fn repeated(warning: &str, early: usize) -> String {
    let mut log = String::new();
    for i in 0..400 {
        if i % 10 == 5 && i / 10 < early {
            log.push_str(warning);
        }
        writeln!(log, "compiling module_{i} ... ok").expect("writing to a String");
    }
    log.push_str(warning);
    log.push_str("linking ... ok\n");
    log.push_str(warning);
    log.push_str("build failed\n");
    log
}

#[test]
fn a_count_is_noted_only_while_some_line_it_counts_is_not_shown() {
    for line in [
        "src/a.c:3:1: warning: unused variable 'x' [-Wunused-variable]\n",
        "error: linker `cc` not found\n",
    ] {
        let (out, _) = compress(repeated(line, 0).as_bytes(), 1000, 1 << 20);
        assert_eq!(out.matches(line).count(), 2, "{out}");
        assert!(!out.contains("\u{d7}2"), "{out}");
        let (out, _) = compress(repeated(line, 20).as_bytes(), 1000, 1 << 20);
        assert!(out.contains("[shapeclip: \u{d7}22 in lines 6-"), "{out}");
    }
}

/// A rustc diagnostic of `n` as cargo prints it: the message, then its place on a line of
/// its own, then the code frame.
fn rustc_error(n: usize) -> String {
    let line = n + 3;
    format!(
        "error[E0308]: mismatched types\n  --> src/main.rs:{line}:20\n   |\n{line} |     let x{n}: u32 = \"s{n}\";\n   |              ---   ^^^^^ expected `u32`, found `&str`\n   |              |\n   |              expected due to this\n\n"
    )
}

#[test]
fn a_repeated_rustc_error_shown_keeps_its_place_from_the_line_below() {
    let mut log = String::from("   Compiling demo v0.1.0 (/tmp/demo)\n");
    for n in 0..60 {
        log.push_str(&rustc_error(n));
    }
    log.push_str("error: could not compile `demo` (bin \"demo\") due to 60 previous errors\n");
    for budget in [1200, 2000, 4000] {
        let (out, shape) = compress(log.as_bytes(), budget, log.len());
        assert_eq!(shape, Shape::Log);
        let lines: Vec<&str> = out.lines().collect();
        let headlines: Vec<usize> = (0..lines.len())
            .filter(|&i| lines[i].starts_with("error[E0308]"))
            .collect();
        assert!(headlines.len() > 1, "at {budget}:\n{out}");
        for i in headlines {
            assert!(
                lines
                    .get(i + 1)
                    .is_some_and(|l| l.starts_with("  --> src/main.rs:")),
                "a headline with no place at {budget}:\n{out}"
            );
        }
    }
}

#[test]
fn repeats_that_name_something_new_are_shown_when_their_places_do_not_fit() {
    let deep: Vec<String> = (0..8).map(|i| format!("very_long_directory_{i}")).collect();
    let deep = deep.join("/");
    let mut log = String::from("   Compiling demo v0.1.0 (/tmp/demo)\n");
    for n in 0..150 {
        writeln!(log, "   Compiling dependency_{n} v0.1.{n}").expect("writing to a String");
    }
    for kind in 0..6 {
        for n in 0..2 {
            let line = 10 * kind + n;
            write!(
                log,
                "error[E040{kind}]: method `m{kind}_{n}` is not a member of trait `T{kind}`\n  --> {deep}/src/lib.rs:{line}:5\n   |\n{line} |     fn m{kind}_{n}(&self) {{}}\n   |     ^^^^^^^^^^^^^^^^^^ not a member of trait `T{kind}`\n\n"
            )
            .expect("writing to a String");
        }
    }
    log.push_str("error: could not compile `demo` (lib) due to 12 previous errors\n");
    // At 2,000 not every error's place fits: the headlines of those whose place does not
    // still say which method.
    let (out, _) = compress(log.as_bytes(), 2000, log.len());
    let named = out.matches("]: method `m").count();
    let placed = out.matches("  --> very_long_directory_0/").count();
    assert!(
        named >= placed + 2,
        "{named} named, {placed} placed:\n{out}"
    );
}

/// `python -m unittest -v` where each test logs a warning to stderr: the verdict of a test that
/// logged goes on a line of its own (`ERROR`), and the failures' reports follow.
fn unittest_with_logging(tests: usize, failing: impl Fn(usize) -> bool) -> String {
    let mut log = String::new();
    for i in 0..tests {
        let verdict = if failing(i) { "ERROR" } else { "ok" };
        writeln!(
            log,
            "test_div_{i} (test_calc.T.test_div_{i}) ... dividing {i}\n{verdict}"
        )
        .expect("writing to a String");
    }
    log.push('\n');
    for i in (0..tests).filter(|&i| failing(i)) {
        write!(
            log,
            "{rule}\nERROR: test_div_{i} (test_calc.T.test_div_{i})\n{dash}\nTraceback (most recent call last):\n  File \"/src/test_calc.py\", line 10, in t\n    self.assertEqual(div({i}, 0), {i} / 2)\n  File \"/src/test_calc.py\", line 5, in div\n    return a / b\nZeroDivisionError: division by zero\n\n",
            rule = "=".repeat(70),
            dash = "-".repeat(70),
        )
        .expect("writing to a String");
    }
    let failed = (0..tests).filter(|&i| failing(i)).count();
    write!(
        log,
        "{}\nRan {tests} tests in 0.010s\n\nFAILED (errors={failed})\n",
        "-".repeat(70)
    )
    .expect("writing to a String");
    log
}

#[test]
fn a_bare_verdict_is_not_shown_again_for_its_count() {
    let log = unittest_with_logging(40, |i| i % 3 == 0);
    for budget in [1500, 2000, 3000] {
        let (out, _) = compress(log.as_bytes(), budget, log.len());
        // A bare `ERROR` says something only under the test's line above it.
        let lines: Vec<&str> = out.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if line.starts_with("ERROR") && !line.starts_with("ERROR:") {
                assert!(
                    i > 0 && lines[i - 1].starts_with("test_div_"),
                    "a bare verdict after a gap at {budget}:\n{out}"
                );
            }
        }
    }
}

/// A program's log: `before` lines of progress, an exception it logged and went on from, with
/// the exception that caused it, `after` lines more, and the exception that ended it.
fn logged_then_fatal(before: usize, after: usize) -> String {
    let mut log = String::new();
    for i in 0..before {
        writeln!(
            log,
            "2026-11-29 12:29:33,260 INFO app: processing record {i} of batch {}",
            i / 50
        )
        .expect("writing to a String");
    }
    let chained = |path: &str, line: usize| {
        format!(
            "Traceback (most recent call last):\n  File \"/srv/app.py\", line 6, in load\n    with open(path) as f:\n         ^^^^^^^^^^\nFileNotFoundError: [Errno 2] No such file or directory: '{path}'\n\nThe above exception was the direct cause of the following exception:\n\nTraceback (most recent call last):\n  File \"/srv/app.py\", line {line}, in main\n    load(\"{path}\")\n  File \"/srv/app.py\", line 9, in load\n    raise RuntimeError(f\"config missing: {{path}}\") from e\nRuntimeError: config missing: {path}\n"
        )
    };
    log.push_str("2026-11-29 12:29:33,269 ERROR app: startup failed\n");
    log.push_str(&chained("/etc/app/settings.json", 14));
    for i in 0..after {
        writeln!(log, "2026-11-29 12:29:33,273 INFO app: cleanup step {i}")
            .expect("writing to a String");
    }
    log.push_str(&chained("/etc/app/other.json", 19));
    log
}

#[test]
fn an_error_shown_in_part_is_shown_whole_before_more_of_the_tail() {
    let log = logged_then_fatal(400, 100);
    for budget in [2000, 2500] {
        let (out, _) = compress(log.as_bytes(), budget, log.len());
        // The logged error's cause says why the program could not start.
        assert!(
            out.contains("No such file or directory: '/etc/app/settings.json'"),
            "at {budget}:\n{out}"
        );
        assert!(
            out.contains("RuntimeError: config missing: /etc/app/other.json"),
            "{out}"
        );
    }
}

/// Node's test runner as TAP: `cases` tests, those in `failing` thrown at, each failure's
/// message a YAML block under `error: |-`, and the closing counts.
fn node_tap(cases: usize, failing: &[usize]) -> String {
    let mut log = String::from("TAP version 13\n");
    for i in 0..cases {
        let n = i + 1;
        writeln!(log, "# Subtest: case {i}").expect("writing to a String");
        if failing.contains(&i) {
            write!(
                log,
                "not ok {n} - case {i}\n  ---\n  duration_ms: 0.5\n  location: '/src/t.mjs:4:3'\n  failureType: 'testCodeFailure'\n  error: |-\n    mismatch in case {i}\n    \n    {i} !== {n}\n    \n  code: 'ERR_ASSERTION'\n  stack: |-\n"
            )
            .expect("writing to a String");
            for depth in 0..6 {
                writeln!(
                    log,
                    "    Test.run{depth} (node:internal/test_runner/test:{depth}:25)"
                )
                .expect("writing to a String");
            }
            log.push_str("  ...\n");
        } else {
            writeln!(log, "ok {n} - case {i}\n  ---\n  duration_ms: 0.1\n  ...")
                .expect("writing to a String");
        }
    }
    writeln!(
        log,
        "1..{cases}\n# tests {cases}\n# pass {}\n# fail {}\n# cancelled 0\n# todo 0",
        cases - failing.len(),
        failing.len()
    )
    .expect("writing to a String");
    log
}

/// TAP's `not ok` lines report failures, though no error word says so: a run with many of
/// them is a log (it was one only while its `# fail N` outnumbered them, read as an error).
#[test]
fn a_tap_run_with_many_failures_is_a_log() {
    let log = node_tap(300, &[20, 90, 150, 200, 260]);
    let (out, shape) = compress(log.as_bytes(), 4000, log.len());
    assert_eq!(shape, Shape::Log, "{out}");
    for i in [20, 260] {
        assert!(
            out.contains(&format!("mismatch in case {i}\n")),
            "case {i}:\n{out}"
        );
    }
}

/// The closing `# fail 2` is the runner's count, not the last failure: the last failure's
/// block comes first, and each headline that only announces its message (`error: |-`) shows
/// the message's first line.
#[test]
fn the_last_tap_failure_goes_before_the_first_and_each_shows_its_message() {
    let log = node_tap(120, &[77, 101]);
    let (out, shape) = compress(log.as_bytes(), 2000, log.len());
    assert_eq!(shape, Shape::Log, "{out}");
    assert!(
        out.contains("Test.run5 (node:internal/test_runner/test:5:25)\n  ...\n"),
        "{out}"
    );
    for i in [77, 101] {
        assert!(
            out.contains(&format!("  error: |-\n    mismatch in case {i}\n")),
            "case {i}:\n{out}"
        );
    }
    assert!(out.contains("# fail 2\n"), "{out}");
}

/// `cargo test` with `RUST_BACKTRACE=1`: one failure among `passed` tests, whose backtrace
/// has the project's frame between `library` frames of the standard library on each side.
fn cargo_backtrace(passed: usize, library: usize) -> String {
    let mut log = format!("\nrunning {} tests\n", passed + 1);
    for i in 0..passed {
        writeln!(log, "test tests::t{i} ... ok").expect("writing to a String");
    }
    log.push_str("test tests::parses_header ... FAILED\n\nfailures:\n\n---- tests::parses_header stdout ----\n\nthread 'tests::parses_header' (1) panicked at src/lib.rs:7:59:\nassertion `left == right` failed: header too short\n  left: 0\n right: 3\nstack backtrace:\n");
    let mut n = 0;
    let mut frame = |log: &mut String, name: &str, place: &str| {
        write!(log, "{n:4}: {name}\n             at {place}\n").expect("writing to a String");
        n += 1;
    };
    for i in 0..library {
        frame(
            &mut log,
            &format!("core::panicking::step_{i}"),
            &format!("/rustc/5980/library/core/src/panicking.rs:{i}:5"),
        );
    }
    frame(&mut log, "toy::tests::parses_header", "./src/lib.rs:7:59");
    for i in 0..library {
        frame(
            &mut log,
            &format!("std::rt::lang_start_{i}"),
            &format!("/rustc/5980/library/std/src/rt.rs:{i}:9"),
        );
    }
    log.push_str("note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.\n\n\nfailures:\n    tests::parses_header\n\ntest result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.13s\n\nerror: test failed, to rerun pass `--lib`\n");
    log
}

/// A Rust backtrace too long to show whole loses the standard library's frames, with their
/// places, before the project's.
#[test]
fn a_rust_backtrace_too_long_keeps_the_projects_frame() {
    let log = cargo_backtrace(300, 12);
    let (out, shape) = compress(log.as_bytes(), 1500, log.len());
    assert_eq!(shape, Shape::Log, "{out}");
    assert!(
        out.contains("toy::tests::parses_header\n             at ./src/lib.rs:7:59\n"),
        "{out}"
    );
    assert!(out.contains(" right: 3\n"), "{out}");
}

/// pytest's default report of `failing` failures among `passed` tests: each failure under
/// its title, then the short summary that names each again.
fn pytest_report(failing: usize, passed: usize) -> String {
    let mut log = String::from(
        "============================= test session starts ==============================\n",
    );
    writeln!(log, "collected {} items\n", failing + passed).expect("writing to a String");
    log.push_str(&"tests/test_shop.py FFFF....\n".repeat(passed / 4 + 1));
    log.push_str(
        "\n=================================== FAILURES ===================================\n",
    );
    for i in 0..failing {
        writeln!(
            log,
            "____________________ test_price_of_item_{i} ____________________\n"
        )
        .expect("writing to a String");
        writeln!(log, "    def test_price_of_item_{i}():").expect("writing to a String");
        writeln!(
            log,
            ">       assert price_in_cents('item_{i}', quantity=3) == {}",
            300 + i
        )
        .expect("writing to a String");
        writeln!(
            log,
            "E       AssertionError: assert {} == {} (item_{i})",
            290 + i,
            300 + i
        )
        .expect("writing to a String");
        writeln!(log, "\ntests/test_shop.py:{}: AssertionError", 5 + 3 * i)
            .expect("writing to a String");
    }
    log.push_str(
        "=========================== short test summary info ============================\n",
    );
    for i in 0..failing {
        writeln!(
            log,
            "FAILED tests/test_shop.py::test_price_of_item_{i} - AssertionError: assert {}...",
            290 + i
        )
        .expect("writing to a String");
    }
    writeln!(log, "======================== {failing} failed, {passed} passed in 3.25s =========================").expect("writing to a String");
    log
}

/// The first failure's `E` line is shown under the title that names its test, wherever the
/// input was cut into blocks.
#[test]
fn a_pytest_failures_lines_are_shown_under_its_title() {
    let log = pytest_report(40, 400);
    for budget in [2000, 3000, 6000] {
        let (out, shape) = compress(log.as_bytes(), budget, 1 << 20);
        assert_eq!(shape, Shape::Log, "{out}");
        let lines: Vec<&str> = out.lines().collect();
        let title = lines
            .iter()
            .position(|l| l.contains(" test_price_of_item_0 "))
            .unwrap_or_else(|| panic!("no title\n{out}"));
        // Under it the failure's `E` line, after the line of source that failed where that
        // fits.
        let mut under = lines[title + 1..]
            .iter()
            .filter(|l| !l.starts_with("[line") && !l.trim().is_empty())
            .skip_while(|l| l.starts_with(">       assert price_in_cents('item_0'"));
        assert!(
            under.next().is_some_and(
                |l| l.starts_with("E       AssertionError: assert 290 == 300 (item_0)")
            ),
            "{out}"
        );
        for chunk in [64, 4097, 65_536] {
            assert_eq!(
                compress(log.as_bytes(), budget, chunk).0,
                out,
                "chunks of {chunk}"
            );
        }
    }
}

/// pytest prints the line of the test that failed, marked `>`, right over its `E` lines: it
/// says what was checked, which the `E` lines give only as values.
#[test]
fn a_pytest_failure_shows_the_line_that_failed_over_its_e_lines() {
    let log = pytest_report(40, 400);
    for budget in [1500, 2000, 3000, 6000] {
        let (out, _) = compress(log.as_bytes(), budget, log.len());
        let lines: Vec<&str> = out.lines().collect();
        let e = lines
            .iter()
            .position(|l| l.starts_with("E       AssertionError: assert 290 == 300 (item_0)"))
            .unwrap_or_else(|| panic!("no E line at {budget}\n{out}"));
        assert!(
            e > 0 && lines[e - 1] == ">       assert price_in_cents('item_0', quantity=3) == 300",
            "at {budget}:\n{out}"
        );
    }
}

/// Going back from the end, a run of lines never starts at a line that only points into the
/// line above it (javac's and gcc's `^`): alone it points at nothing.
#[test]
fn a_run_going_back_does_not_start_at_a_caret() {
    let mut log = String::new();
    for i in 0..150 {
        writeln!(
            log,
            "src/com/acme/Widget{}.java:{}: error: incompatible types: String cannot be converted to int",
            i / 4,
            8 + i % 30
        )
        .expect("writing to a String");
        writeln!(log, "        int v{i} = \"text\"; // wrong type").expect("writing to a String");
        writeln!(log, "{}^", " ".repeat(17 + i % 3)).expect("writing to a String");
    }
    log.push_str("100 errors\nonly showing the first 100 errors, of 150 total\n");
    let mut gaps = 0;
    for budget in (1500..2600).step_by(13) {
        let (out, _) = compress(log.as_bytes(), budget, 1 << 20);
        let lines: Vec<&str> = out.lines().collect();
        for pair in lines.windows(2) {
            if pair[0].starts_with("[line") {
                gaps += 1;
                assert_ne!(pair[1].trim(), "^", "budget {budget}\n{out}");
            }
        }
    }
    assert!(gaps > 50, "{gaps} gaps");
}
