//! [`Lengths`] against the rendering it must equal, and its bounds against the lengths they bound.

use super::super::selection::Selection;
use super::*;
use crate::log::reading::class::Class;

fn line(no: u64, text: &str, class: Class, cum: Counts) -> Kept {
    Kept {
        no,
        class,
        cum,
        text: text.into(),
        chars: char_count(text),
        nl: true,
        truncated: false,
    }
}

/// Lines joining one at a time, in the orders the plan takes them: the length stays the
/// rendering's (`Selection::length` checks it in debug builds), and the lines looked at
/// grow with the lines tried, not with their square (issue 11: a flood of one error line
/// made every candidate measure every shown line).
#[test]
fn a_flood_of_one_line_is_measured_in_linear_steps() {
    let n: u64 = 4_000;
    let count = 4_000_usize;
    let mut cum = Counts::default();
    let lines: Vec<Kept> = (1..=n)
        .map(|no| {
            let (text, class) = match no % 1_000 {
                0 => ("warning: disk", Class::Warning),
                7 => ("", Class::Other),
                _ => ("FAILED", Class::Error),
            };
            cum.add(class);
            line(no, text, class, cum)
        })
        .collect();
    for order in 0..3 {
        // A small limit: the plan measures most candidates against it.
        let mut sel = Selection::new(2_000, n, cum);
        let before = render::stepped(0);
        for i in 0..count {
            let k = match order {
                0 => i,
                1 => count - 1 - i,
                _ => (i * 7_919) % count,
            };
            let note = if k % 997 == 0 { "[shapeclip: x]" } else { "" };
            if sel.try_add(std::slice::from_ref(&lines[k]), note) {
                // Taking a line that is shown already changes nothing.
                assert!(sel.try_add(std::slice::from_ref(&lines[k]), ""));
            }
            assert!(sel.length() <= 2_000);
        }
        let steps = render::stepped(0) - before;
        assert!(steps < 20 * n, "order {order}: {steps} steps for {n} lines");
        assert_eq!(sel.length(), render::measure(&sel.shown, n, cum));
    }
}

/// The bounds stay at or under the length, with candidates running up, running down,
/// scattered, repeated or shown already, among identical, blank and cut lines.
#[test]
fn floors_are_never_over_the_length() {
    let mut seed = 7_u64;
    let mut random = move |below: usize| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        usize::try_from(seed >> 33).expect("31 bits") % below
    };
    let n = 60;
    let mut cum = Counts::default();
    let lines: Vec<Kept> = (1..=n)
        .map(|no| {
            let text = ["same", "same", "other", "", "a longer line of text"][random(5)];
            let class = [Class::Other, Class::Error, Class::Warning][random(3)];
            cum.add(class);
            let mut kept = line(no, text, class, cum);
            if random(6) == 0 {
                kept.chars += 40;
                kept.truncated = true;
            }
            kept.nl = no < n || random(2) == 0;
            kept
        })
        .collect();
    let mut bounded = 0;
    for _ in 0..300 {
        let mut shown = Shown::new();
        let mut lengths = Lengths::new(n, cum);
        for k in &lines {
            if random(4) == 0 {
                shown.insert(k.no, (k.clone(), String::new()));
                lengths.update(&shown, &[(k.no, false)]);
            }
        }
        lengths.settle();
        let mut candidates = Vec::new();
        for _ in 0..=random(3) {
            let (from, len) = (random(lines.len()), random(20));
            match random(3) {
                0 => candidates.extend(lines.iter().skip(from).take(len)),
                1 => candidates.extend(lines.iter().take(from).rev().take(len)),
                _ => candidates.extend((0..len).map(|_| &lines[random(lines.len())])),
            }
        }
        let candidates: Vec<Kept> = candidates.into_iter().cloned().collect();
        let floors = lengths.floors(&shown, &candidates);
        assert_eq!(floors[0], lengths.total());
        for (k, line) in candidates.iter().enumerate() {
            if let std::collections::btree_map::Entry::Vacant(entry) = shown.entry(line.no) {
                entry.insert((line.clone(), String::new()));
                lengths.update(&shown, &[(line.no, false)]);
            }
            let length = lengths.total();
            assert_eq!(length, render::measure(&shown, n, cum));
            assert!(floors[k + 1] <= length, "{} over {length}", floors[k + 1]);
            bounded += u64::from(floors[k + 1] > floors[k]);
        }
    }
    assert!(bounded > 500, "the bounds grow with the lines: {bounded}");
}

/// Lines met again, in a stretch that runs into an earlier one, count once.
#[test]
fn floors_count_a_line_met_again_once() {
    let n = 20;
    let long = "x".repeat(100);
    let lines: Vec<Kept> = (1..=n)
        .map(|no| line(no, &format!("{no}{long}"), Class::Other, Counts::default()))
        .collect();
    let candidates: Vec<Kept> = [5, 6, 7, 10, 9, 8, 7, 6, 5, 4]
        .iter()
        .map(|&no| lines[no - 1].clone())
        .collect();
    let lengths = Lengths::new(n, Counts::default());
    let floor = *lengths.floors(&Shown::new(), &candidates).last().unwrap();
    let mut shown = Shown::new();
    for k in &candidates {
        shown.insert(k.no, (k.clone(), String::new()));
    }
    let length = render::measure(&shown, n, Counts::default());
    assert!(floor <= length, "{floor} over {length}");
}

/// A line tried alone inside a gap splits it in two: the bound counts both new markers and
/// the line's text, and misses only its `'\n'`, so that a plan with its room all but used up
/// refuses each of thousands of such lines without measuring it.
#[test]
fn floors_of_a_line_alone_in_a_gap_miss_only_its_newline() {
    let n = 10_000;
    let mut cum = Counts::default();
    let lines: Vec<Kept> = (1..=n)
        .map(|no| {
            let class = if no % 3 == 0 {
                Class::Error
            } else {
                Class::Other
            };
            cum.add(class);
            line(no, &format!("src/m{no}.c:1:1: error: x"), class, cum)
        })
        .collect();
    let mut shown = Shown::new();
    let mut lengths = Lengths::new(n, cum);
    for at in [0, 3_999, 8_999] {
        shown.insert(lines[at].no, (lines[at].clone(), String::new()));
        lengths.update(&shown, &[(lines[at].no, false)]);
    }
    lengths.settle();
    for at in [2, 1_233, 3_997, 5_554, 9_499, 9_999] {
        let alone = std::slice::from_ref(&lines[at]);
        let no = alone[0].no;
        let floor = lengths.floors(&shown, alone)[1];
        // Given twice, as a one-line block's headline is, it is bounded alike.
        let twice = [alone[0].clone(), alone[0].clone()];
        assert_eq!(lengths.floors(&shown, &twice)[2], floor);
        let mark = lengths.mark();
        let mut with = shown.clone();
        with.insert(no, (alone[0].clone(), String::new()));
        lengths.update(&with, &[(no, false)]);
        let length = lengths.total();
        assert_eq!(length, render::measure(&with, n, cum));
        assert!(
            floor <= length && length - floor <= 1,
            "line {no}: {floor} for {length}"
        );
        lengths.revert(mark);
    }
}

/// Over a stretch of different lines, a bound misses only the stretch's first line and the
/// gap markers around it: a search that trusts it measures only a few parts past the last
/// that fits.
#[test]
fn floors_of_a_stretch_are_close() {
    let n = 1_000;
    let lines: Vec<Kept> = (1..=n)
        .map(|no| {
            line(
                no,
                &format!("  File \"m{no}.py\", line {no}"),
                Class::Other,
                Counts::default(),
            )
        })
        .collect();
    let mut shown = Shown::new();
    let mut lengths = Lengths::new(n, Counts::default());
    let back: Vec<Kept> = lines[100..900].iter().rev().cloned().collect();
    let floors = lengths.floors(&shown, &back);
    for (k, line) in back.iter().enumerate() {
        shown.insert(line.no, (line.clone(), String::new()));
        lengths.update(&shown, &[(line.no, false)]);
        let missed = lengths.total() - floors[k + 1];
        assert!(
            missed <= char_count(&line.text) + 1 + 2 * 30,
            "{missed} at {k}"
        );
    }
}
