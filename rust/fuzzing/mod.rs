//! Fuzz targets: every planner and the stream, checked against what can be known without them.
//!
//! Each entry point turns a fuzzer's bytes into an input and a way of feeding it, runs the
//! engine, and panics when a contract breaks: the budget bound in characters, stream equal to
//! one-shot (whatever the chunks, `str` or `bytes`), totals and marker numbers equal to naive
//! counts over the input, and every planner's specific promises (see [`check`]).
//!
//! [`TARGETS`] lists them. The fuzz crate (`fuzz/Cargo.toml`) has one binary for each, which
//! calls its entry point and nothing else; `.ci/run` fuzzes every binary `cargo fuzz list`
//! names; and `tests.rs` replays every input kept under `fuzz/corpus/<target>` and
//! `fuzz/regressions/<target>`, so a failure the fuzzer once found stays a test that needs
//! neither libFuzzer nor a nightly toolchain. A test holds the binaries, the corpus folders and
//! this list to one another.
//!
//! Compiled only for tests and with the `fuzzing` feature; the Python module never has it.

mod check;
mod clip_check;
mod diagnostics_inputs;
pub(crate) mod flood;
mod frames_check;
mod gapped_check;
mod gapped_inputs;
mod json_check;
mod json_doc;
pub(crate) mod log_check;
mod numbers;
mod program;
mod table;
mod table_check;

use crate::engine::{Engine, Outcome};
use crate::log::reading::class::Class;
use crate::log::reading::classify::classify;
use crate::log::reading::prefilter::Prefilter;
use crate::profile::Profile;
use crate::sink::Lookahead;
use program::{Choices, Settings};

/// A fuzz target.
#[derive(Debug, Clone, Copy)]
pub struct Target {
    /// The name of its binary in `fuzz/Cargo.toml`, and of its folders of kept inputs.
    pub name: &'static str,
    /// Runs the engine on one input and panics when a contract breaks.
    pub check: fn(&[u8]),
}

/// Every fuzz target, the one list of them (see the module's introduction).
pub const TARGETS: &[Target] = &[
    Target {
        name: "clip",
        check: clip,
    },
    Target {
        name: "log",
        check: log,
    },
    Target {
        name: "search",
        check: search,
    },
    Target {
        name: "stream",
        check: stream,
    },
    Target {
        name: "diff",
        check: diff,
    },
    Target {
        name: "listing",
        check: listing,
    },
    Target {
        name: "read",
        check: read,
    },
    Target {
        name: "numbered",
        check: numbered,
    },
    Target {
        name: "table",
        check: table,
    },
    Target {
        name: "json",
        check: json,
    },
    Target {
        name: "diagnostics",
        check: diagnostics,
    },
];

/// Raw bytes, any tool kind, small and middling budgets: mostly the clip and passthrough.
///
/// # Panics
/// When a contract breaks; that is what the fuzzer looks for.
pub fn clip(data: &[u8]) {
    let mut choices = Choices::new(data);
    let settings = Settings::read(&mut choices);
    check::all_ways(&settings, choices.rest());
}

/// Lines of a build log drawn from its vocabulary (keywords, CI prefixes, traces, ANSI, raw
/// bytes, repeats), under a shell tool: the log planner. Also checks the prefilter's contract
/// on every line: a line it passes over is never classified as anything but other.
///
/// # Panics
/// When a contract breaks.
pub fn log(data: &[u8]) {
    let mut choices = Choices::new(data);
    let settings = Settings::read(&mut choices).for_logs();
    let input = program::log_lines(&mut choices);
    prefilter_contract(&String::from_utf8_lossy(&input));
    check::all_ways(&settings, &input);
}

/// A grep flood in one of its formats, generated with the true count of every file: the
/// search planner's table and every count its output states must equal that truth.
///
/// # Panics
/// When a contract breaks.
pub fn search(data: &[u8]) {
    let mut choices = Choices::new(data);
    let settings = Settings::read(&mut choices).for_search();
    let flood = flood::Flood::read(&mut choices);
    flood.check_table();
    let outcome = check::all_ways(&settings, flood.text.as_bytes());
    flood.check_output(&outcome, settings.budget);
}

/// A table in one of its formats, written with the true count of rows of each value of the
/// column it should be grouped by: every count the table planner's output states must equal
/// that truth.
///
/// # Panics
/// When a contract breaks.
pub fn table(data: &[u8]) {
    let mut choices = Choices::new(data);
    let settings = Settings::read(&mut choices).for_tables();
    let table = table::Written::read(&mut choices);
    let outcome = check::all_ways(&settings, table.text.as_bytes());
    table.check_output(&outcome);
}

/// JSON documents and JSON Lines written from a vocabulary of awkward keys and strings, with
/// record arrays of up to thousands of objects (see [`json_doc`]): each JSON plan is checked
/// against a naive parse of the input, and valid JSON that does not fit a budget of 400 or
/// more must get one.
///
/// # Panics
/// When a contract breaks.
pub fn json(data: &[u8]) {
    let mut choices = Choices::new(data);
    let settings = Settings::read(&mut choices);
    let (input, spoiled) = json_doc::write(&mut choices);
    let outcome = check::all_ways(&settings, &input);
    if !spoiled && settings.budget >= 400 && outcome.totals.chars > settings.budget {
        assert_eq!(
            outcome.plan.shape,
            crate::plan::Shape::Json,
            "valid JSON not planned as such, {settings:?}"
        );
    }
}

/// Segments repeated up to megabytes, fed in chunks up to megabytes: the paths only large
/// inputs take (lines passed on in pieces, blocks prepared on a second core, table caps).
///
/// # Panics
/// When a contract breaks.
pub fn stream(data: &[u8]) {
    written(data, Settings::for_streams, program::expand);
}

/// A unified diff written from its parts (commit and file headers, hunks whose headers count
/// their bodies or miscount them, body lines that read as headers), under any tool: the diff
/// planner, whose plan keeps whole lines around exact gaps.
///
/// # Panics
/// When a contract breaks.
pub fn diff(data: &[u8]) {
    written(data, Settings::for_plans, gapped_inputs::diff);
}

/// A listing of paths as `find`, `ls -R`, `tree` or `git ls-files` print it, under any tool:
/// the listing planner.
///
/// # Panics
/// When a contract breaks.
pub fn listing(data: &[u8]) {
    written(data, Settings::for_plans, gapped_inputs::listing);
}

/// A linter's or compiler's warnings in the forms tools print, with what sits beside them,
/// under a shell tool: the diagnostics planner, whose gap markers count what they hold.
///
/// # Panics
/// When a contract breaks.
pub fn diagnostics(data: &[u8]) {
    written(data, Settings::for_logs, diagnostics_inputs::diagnostics);
}

/// A source file written from fragments of many languages, under a file-reading tool: the read
/// planner.
///
/// # Panics
/// When a contract breaks.
pub fn read(data: &[u8]) {
    written(data, Settings::for_reads, gapped_inputs::read);
}

/// A source file as a viewer prints it, its lines numbered with the file's numbers (`N:` under a
/// `[File: ...]` header, `  N→`, `  N\t`), now and then with a jump in the numbers, under a
/// file-reading tool (every offset a marker gives reads its first omitted line again) or a
/// shell.
///
/// # Panics
/// When a contract breaks.
pub fn numbered(data: &[u8]) {
    written(data, Settings::for_numbered, gapped_inputs::numbered);
}

/// Checks the input that `write` writes from `data`, after the settings read first, shaped by
/// `settings`.
fn written(
    data: &[u8],
    settings: fn(Settings) -> Settings,
    write: fn(&mut Choices<'_>) -> Vec<u8>,
) {
    let mut choices = Choices::new(data);
    let settings = settings(Settings::read(&mut choices));
    let input = write(&mut choices);
    check::all_ways(&settings, &input);
}

/// The prefilter never passes over a line that `classify` would not call other, and its
/// block-wide look finds exactly the lines after the first that are not other.
fn prefilter_contract(text: &str) {
    let pre = Prefilter::default();
    let mut expected = Vec::new();
    for (i, line) in text.split('\n').enumerate() {
        let class = classify(line);
        if pre.next_hit(&format!("\n{line}"), 0).is_none() {
            assert_eq!(class, Class::Other, "the prefilter passed over {line:?}");
        }
        if i > 0 && class != Class::Other {
            expected.push((i as u64, class));
        }
    }
    let found: Vec<(u64, Class)> = pre
        .look(text)
        .candidates
        .iter()
        .map(|c| (c.line, c.class))
        .collect();
    assert_eq!(found, expected, "the look's candidates");
}

/// One run of the engine: `chunks` fed in order, each as `str` when `as_str` says so and it is
/// valid UTF-8, else as bytes.
fn run<'a>(settings: &Settings, chunks: impl IntoIterator<Item = (&'a [u8], bool)>) -> Outcome {
    let mut engine = settings.engine();
    for (chunk, as_str) in chunks {
        match std::str::from_utf8(chunk) {
            Ok(text) if as_str => engine.feed_str(text),
            _ => engine.feed_bytes(chunk),
        }
    }
    engine.finish()
}

impl Settings {
    fn engine(&self) -> Engine {
        let profile = Profile::new(self.kind, Some(self.tool), self.weights.0, self.weights.1)
            .expect("the settings pick valid profiles");
        let budget = crate::planner::Budget::new(self.budget, self.digest_room)
            .expect("the settings pick valid budgets");
        Engine::new(budget, profile)
    }
}

#[cfg(test)]
mod tests;
