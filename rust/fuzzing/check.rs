//! The contracts every compression keeps, whichever planner made it.
//!
//! [`all_ways`] runs one input one-shot as bytes, one-shot as `str`, and streamed in the
//! settings' chunks (each fed as `str` or bytes), and asserts the three outcomes are equal
//! before checking one of them: at most `budget` characters, totals equal to a naive count,
//! passthrough exactly when the text fits, omitted ranges in order and inside the input, a
//! digest slot inside a marker, and then what the clip and log plans promise of their pieces.

use std::cell::Cell;
use std::sync::Once;

use super::gapped_check;
use super::program::Settings;
use super::{clip_check, frames_check, json_check, log_check, run, table_check};
use crate::engine::Outcome;
use crate::plan::Shape;
use crate::sink::Totals;
use crate::text::char_count;

thread_local! {
    /// Whether code on this thread panicked since [`watch_panics`] last cleared it.
    static PANICKED: Cell<bool> = const { Cell::new(false) };
}

/// Clears this thread's note of a panic, and makes sure every panic is noted, even one the
/// engine catches. The engine answers a planner's panic by dropping the planner, which keeps
/// the output within its contract but hides the bug; libFuzzer's hook aborts on any panic,
/// and this makes a replay under `cargo test` fail on the same inputs.
fn watch_panics() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            PANICKED.with(|p| p.set(true));
            previous(info);
        }));
    });
    PANICKED.with(|p| p.set(false));
}

/// Checks `input` fed every way; returns the outcome.
pub fn all_ways(settings: &Settings, input: &[u8]) -> Outcome {
    watch_panics();
    let text = String::from_utf8_lossy(input);
    if std::env::var_os("SHAPECLIP_FUZZ_SHOW").is_some() {
        eprintln!("{settings:?}\n{text:?}");
    }
    let whole = run(settings, [(input, false)]);
    same(
        &whole,
        &run(settings, [(text.as_bytes(), true)]),
        settings,
        "one str",
    );
    let mut rest = input;
    let chunks = settings.chunk_sizes().map_while(|(size, as_str)| {
        let (chunk, after) = rest.split_at(size.min(rest.len()));
        rest = after;
        (!chunk.is_empty()).then_some((chunk, as_str))
    });
    same(&whole, &run(settings, chunks), settings, "chunks");
    assert!(
        !PANICKED.with(Cell::get),
        "a part of the engine panicked and was dropped, {settings:?}"
    );
    outcome(settings, &text, &whole);
    whole
}

fn same(whole: &Outcome, other: &Outcome, settings: &Settings, how: &str) {
    assert_eq!(whole.totals, other.totals, "{how} totals, {settings:?}");
    assert_eq!(whole.plan, other.plan, "{how} plan, {settings:?}");
    assert_eq!(whole.digest, other.digest, "{how} digest, {settings:?}");
}

/// A naive count of what the reader counts.
fn totals(text: &str) -> Totals {
    let newlines = text.bytes().filter(|&b| b == b'\n').count() as u64;
    Totals {
        chars: text.chars().count() as u64,
        lines: newlines + u64::from(!text.is_empty() && !text.ends_with('\n')),
        newlines,
    }
}

/// Every contract of one outcome for `text`, the input as decoded.
fn outcome(settings: &Settings, text: &str, out: &Outcome) {
    let rendered = out.plan.render();
    // The reader trusts `str` chunks unchecked; what comes out must still be UTF-8.
    assert!(
        std::str::from_utf8(rendered.as_bytes()).is_ok(),
        "invalid UTF-8 out"
    );
    let chars = char_count(&rendered);
    assert!(
        chars <= settings.budget,
        "{chars} characters for a budget of {}, {settings:?}:\n{rendered}",
        settings.budget
    );
    assert_eq!(out.totals, totals(text), "totals");
    let plan = &out.plan;
    assert!(plan.omitted_chars <= out.totals.chars, "omitted characters");
    for range in &plan.omitted {
        assert!(
            1 <= range.first && range.first <= range.last && range.last <= out.totals.lines,
            "{range:?} of {} lines",
            out.totals.lines
        );
    }
    for pair in plan.omitted.windows(2) {
        assert!(
            pair[0].last < pair[1].first,
            "ranges out of order: {pair:?}"
        );
    }
    assert!(
        Shape::ALL.contains(&plan.shape),
        "Shape::ALL lacks {:?}",
        plan.shape
    );
    let fits = out.totals.chars <= settings.budget;
    assert_eq!(
        plan.shape == Shape::Passthrough,
        fits,
        "passthrough iff it fits"
    );
    match plan.shape {
        Shape::Passthrough => {
            assert_eq!(rendered, text, "passthrough changed the text");
            assert!(plan.omitted.is_empty() && plan.omitted_chars == 0);
        }
        Shape::Clip => clip_check::check(settings, text, out),
        Shape::Log => log_check::check(settings, text, out),
        Shape::Table => table_check::check(settings, text, out),
        Shape::Json => json_check::check(settings, text, out),
        Shape::Frames => frames_check::check(settings, text, out),
        // Only a generated flood has a truth to check a search plan against.
        Shape::Search => {}
        // A shape whose plans are gapped needs no arm of its own; any other needs one here.
        shape => {
            assert!(shape.gapped(), "no check for {} plans", shape.name());
            gapped_check::check(settings, text, out);
        }
    }
    digest_slot(settings, &rendered, out);
}

/// A digest slot only where one was asked for and is due, just inside a marker's `]`.
fn digest_slot(settings: &Settings, rendered: &str, out: &Outcome) {
    let Some(slot) = &out.digest else {
        return;
    };
    assert!(settings.digest_room > 0, "a digest slot nobody asked for");
    assert!(matches!(out.plan.shape, Shape::Clip | Shape::Log));
    assert!(out.plan.omitted_chars >= crate::engine::DIGEST_MIN_OMITTED_CHARS);
    let at = usize::try_from(slot.at).expect("offsets fit");
    assert_eq!(rendered.chars().nth(at), Some(']'), "digest slot at {at}");
    assert!(!slot.input.is_empty(), "an empty digest sample");
    assert_eq!(
        slot.room,
        settings.budget - char_count(rendered),
        "the digest's room"
    );
    assert!(
        slot.room >= settings.digest_room,
        "a room smaller than kept"
    );
}
