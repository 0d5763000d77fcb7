//! Engine tests that need no interpreter: budget bound, passthrough, exact spans, and that
//! every way of splitting the input gives the same result.

use std::fmt::Write;

use super::*;
use crate::markers;

fn profile() -> Profile {
    Profile::new("shell", Some("bash"), 3000, 6000).unwrap()
}

fn run(chunks: &[&[u8]], budget: u64) -> Outcome {
    let mut engine = Engine::new(Budget::new(budget, 0).unwrap(), profile());
    for chunk in chunks {
        engine.feed_bytes(chunk);
    }
    engine.finish()
}

fn numbered_lines(n: usize) -> String {
    let mut text = String::new();
    for i in 1..=n {
        let _ = writeln!(text, "line {i} of the log");
    }
    text
}

#[test]
fn fits_is_passthrough() {
    let out = run(&[b"a\nb\n"], 4);
    assert_eq!(out.plan.shape, Shape::Passthrough);
    assert_eq!(out.plan.render(), "a\nb\n");
}

#[test]
fn rejects_zero_budget() {
    assert!(Budget::new(0, 0).is_err());
}

#[test]
fn clip_is_within_budget_and_counts_exactly() {
    let input = numbered_lines(1000);
    for budget in [1, 2, 3, 10, 57, 200, 400, 1000, 4000, 16_000] {
        let out = run(&[input.as_bytes()], budget);
        let text = out.plan.render();
        assert!(
            text.chars().count() as u64 <= budget,
            "budget {budget}: {}",
            text.chars().count()
        );
        assert!(out.plan.omitted_chars > 0 && out.plan.omitted_chars <= out.totals.chars);
        let range = out.plan.omitted[0];
        assert!(range.first >= 1 && range.last <= 1000 && range.first <= range.last);
    }
    let out = run(&[input.as_bytes()], 4000);
    let text = out.plan.render();
    let range = out.plan.omitted[0];
    // Whole lines were cut, so the kept lines are exactly the ones outside the range.
    let kept: Vec<&str> = input
        .lines()
        .enumerate()
        .filter(|(i, _)| (*i as u64 + 1) < range.first || (*i as u64 + 1) > range.last)
        .map(|(_, l)| l)
        .collect();
    let shown: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with("[shapeclip:"))
        .collect();
    assert_eq!(kept, shown);
    let marker = format!(
        "lines {}-{} of 1,000",
        markers::thousands(range.first),
        markers::thousands(range.last)
    );
    assert!(text.contains(&marker), "{text}");
}

/// How many characters the widest marker a clip of 400 lines may need can print more than the
/// one it shows: digits of its line and character counts.
const MARKER_SLACK: u64 = 24;

#[test]
fn a_clip_cut_at_line_ends_leaves_no_room_for_a_line_beside_its_gap() {
    // Lines of 41 to 120 characters: cutting each side at a line's end leaves room, which
    // goes back to whichever side a whole line beside the gap fits.
    let mut input = String::new();
    for i in 0..400 {
        let _ = writeln!(input, "line {i:03} {}", "x".repeat(32 + (i * 37) % 80));
    }
    let lines: Vec<&str> = input.lines().collect();
    for budget in (600..4000).step_by(97) {
        let out = run(&[input.as_bytes()], budget);
        let used = out.plan.render().chars().count() as u64;
        assert!(used <= budget, "{budget}");
        let range = out.plan.omitted[0];
        // The room is the budget less the widest marker this input could need, which may
        // print a few digits more than the one shown.
        for no in [range.first, range.last] {
            let line = lines[usize::try_from(no).unwrap() - 1].len() as u64 + 1;
            assert!(
                used + line + MARKER_SLACK > budget,
                "{budget}: line {no} fits in {used}"
            );
        }
    }
}

#[test]
fn one_huge_line_is_cut_inside() {
    let input = "x".repeat(3_000_000);
    let out = run(&[input.as_bytes()], 2000);
    let text = out.plan.render();
    assert!(text.chars().count() <= 2000);
    assert!(text.contains(" chars of line 1 of 1 omitted"), "{text}");
    assert_eq!(out.totals.lines, 1);
}

#[test]
fn every_split_gives_the_same_output() {
    let mut input = numbered_lines(300).into_bytes();
    input.extend_from_slice("\u{4e2d}\u{6587} \u{1f600}\r\ntail line".as_bytes());
    input.extend_from_slice(b"\xff\xfe no newline at the end");
    let whole = run(&[&input], 700).plan.render();
    for size in [1, 2, 3, 7, 64, 4096] {
        let chunks: Vec<&[u8]> = input.chunks(size).collect();
        assert_eq!(run(&chunks, 700).plan.render(), whole, "chunk size {size}");
    }
}

/// Small chunks are gathered and read together, large ones where they lie, `str` and bytes
/// alike: every mix gives what one call gives, including a bytes chunk that ends inside a
/// character before a `str` (its bytes become U+FFFD, as Python decodes them).
#[test]
fn gathered_chunks_read_as_one_call_does() {
    // ASCII, so that any split of it is a `str`.
    let text = numbered_lines(250_000);
    let mut bytes = format!("\u{4e2d}\u{6587} \u{1f600}\n{text}").into_bytes();
    bytes.extend_from_slice(b"broken \xe2\x82");
    let tail = "\u{4e2d} and the last line";
    assert!(text.len() > GATHER_BYTES && bytes.len() > GATHER_BYTES);
    let whole = [text.as_bytes(), &bytes, tail.as_bytes()].concat();
    let expected = run(&[&whole], 2000);
    for sizes in [
        [65_536, 3 * GATHER_BYTES / 2],
        [GATHER_BYTES, 7],
        [3, GATHER_BYTES + 1],
    ] {
        let mut engine = Engine::new(Budget::new(2000, 0).unwrap(), profile());
        // `text` as `str` chunks of the first size, `bytes` as bytes of the second.
        for chunk in text.as_bytes().chunks(sizes[0]) {
            engine.feed_str(std::str::from_utf8(chunk).unwrap());
        }
        for chunk in bytes.chunks(sizes[1]) {
            engine.feed_bytes(chunk);
        }
        engine.feed_str(tail);
        let out = engine.finish();
        assert_eq!(out.plan.render(), expected.plan.render(), "{sizes:?}");
        assert_eq!(out.totals, expected.totals, "{sizes:?}");
    }
}

/// `numbered_lines(3000)` with `trigger` as line 2, where even a small window keeps it.
fn faulty_input(trigger: &str) -> Vec<u8> {
    numbered_lines(3000)
        .replacen("line 2 of the log", trigger, 1)
        .into_bytes()
}

fn run_with_fault_planner(input: &[u8], budget: u64) -> Outcome {
    let mut engine = Engine::new(Budget::new(budget, 0).unwrap(), profile());
    // First, so that its panic comes before every real planner's turn.
    let fault: Box<dyn Held> = Box::new(<crate::fault::Fault as crate::planner::Planner>::new(0));
    engine.intake.planners.insert(0, Some(fault));
    for chunk in input.chunks(4096) {
        engine.feed_bytes(chunk);
    }
    engine.finish()
}

/// Issue 12: a planner's panic costs only that planner; the clip still plans over everything
/// the caller gave, exactly as if the planner had answered nothing.
#[test]
fn a_panicking_planner_falls_back_to_the_clip() {
    use crate::fault::{INTAKE, LOOK, PLAN};
    for trigger in [LOOK, INTAKE, PLAN] {
        let input = faulty_input(trigger);
        let chunks: Vec<&[u8]> = input.chunks(4096).collect();
        let expected = run(&chunks, 2000);
        assert_eq!(expected.plan.shape, Shape::Clip);
        let out = run_with_fault_planner(&input, 2000);
        assert_eq!(out.plan.render(), expected.plan.render(), "{trigger}");
        assert_eq!(out.totals, expected.totals, "{trigger}");
    }
}

/// Issue 12: when the window or the clip panics there is nothing to show, and the plan says
/// that all of the input was omitted, with the reader's exact totals.
#[test]
fn a_panicking_window_or_clip_leaves_the_last_resort_with_exact_totals() {
    use crate::fault::{CLIP, WINDOW};
    for trigger in [WINDOW, CLIP] {
        let input = faulty_input(trigger);
        let text = std::str::from_utf8(&input).unwrap();
        // An input that fits needs no clip, so only the window's panic reaches the last resort.
        let budgets: &[u64] = if trigger == WINDOW {
            &[100, 2000, 1_000_000]
        } else {
            &[100, 2000]
        };
        for &budget in budgets {
            let out = run_with_fault_planner(&input, budget);
            let totals = Totals {
                chars: text.chars().count() as u64,
                lines: 3000,
                newlines: 3000,
            };
            assert_eq!(out.totals, totals, "{trigger}");
            assert_eq!(
                out.plan,
                last_resort::plan(&totals, budget, &profile()),
                "{trigger} {budget}"
            );
            assert!(out.plan.render().chars().count() as u64 <= budget);
            assert_eq!(out.plan.omitted_lines(), 3000);
        }
    }
}

#[test]
fn a_digest_slot_comes_with_the_room_the_budget_leaves_it() {
    let budget = Budget::new(2000, 250).unwrap();
    let mut engine = Engine::new(budget, profile());
    engine.feed_str(&numbered_lines(5000));
    let outcome = engine.finish();
    let slot = outcome
        .digest
        .expect("a digest is due: most of 5,000 lines were omitted");
    let rendered = char_count(&outcome.plan.render());
    assert_eq!(slot.room, 2000 - rendered);
    assert!(slot.room >= 250, "{rendered} characters rendered");
}
