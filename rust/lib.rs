//! shapeclip's engine: a tool's output, however long, cut to a budget of characters by a
//! plan that knows the output's shape, in one pass, with exact markers where it left text out.
//!
//! The crate is built as `shapeclip._core`, the Python package's native module; this file is
//! its binding and the engine's front page. Everything but the binding takes `&str` or `&[u8]`
//! and returns plain structs, so the engine is used and tested from Rust alone.
//!
//! # Overview
//!
//! The main types are these:
//!
//! * [`Engine`] runs one compression. It is built once with the [`Budget`] (the characters the
//!   output may take, and how many of them a digest keeps free) and the [`Profile`] (what kind
//!   of tool made the output, and how a clip shares the budget), fed the input in chunks of any
//!   size and split ([`Engine::feed_str`], [`Engine::feed_bytes`]), and asked once for the
//!   [`Outcome`] ([`Engine::finish`]). A one-shot compression is one feed and the finish, so a
//!   stream and a single call cannot disagree.
//! * A [`Planner`] is a shape: search output, a build log, a diff, a listing, a file read. It
//!   watches the single pass as a [`Sink`], which sees the input as [`Block`]s of whole lines
//!   (with a [`Lookahead`] for the work a block's text alone allows, which the reader runs on a
//!   second core), keeps state bounded by the budget, and at the end answers with a plan or
//!   declines, given a [`Context`]. The engine asks its planners in priority order and takes
//!   the first plan that fits; the clip over the engine's [`Window`] (the input's first and
//!   last characters) is everyone's fallback, and an input that fits comes back unchanged.
//! * A [`Plan`] is what was chosen: [`Piece`]s of kept input and of shapeclip's markers, the
//!   omitted [`LineRange`]s and characters, and the [`Shape`] that planned it.
//!   [`Plan::render`] is the output, never longer than the budget.
//!
//! How the pieces connect, and the steps to add a shape, are in `rust/README.md`.
//!
//! # Example
//!
//! A build log of 2,000 lines with an error in its middle, cut to 1,000 characters by the log
//! planner: the error is kept, and the output says exactly what it left out.
//!
//! ```
//! use _core::{Budget, Engine, Profile, Shape};
//!
//! let profile = Profile::new("shell", Some("bash"), 3000, 6000)?;
//! let mut engine = Engine::new(Budget::new(1000, 0)?, profile);
//! for i in 0..2000 {
//!     if i == 1200 {
//!         engine.feed_str("error[E0308]: mismatched types\n");
//!     } else {
//!         engine.feed_str(&format!("   Compiling crate_{i} v0.1.0\n"));
//!     }
//! }
//! let outcome = engine.finish();
//! let output = outcome.plan.render();
//! assert_eq!(outcome.totals.lines, 2000);
//! assert_eq!(outcome.plan.shape, Shape::Log);
//! assert!(output.chars().count() <= 1000);
//! assert!(output.contains("error[E0308]: mismatched types"));
//! # Ok::<(), _core::Error>(())
//! ```
//!
//! # The binding
//!
//! Each Python entry point extracts its arguments, releases the GIL while the engine works on
//! borrowed text, and converts the result. The engine answers its planners', window's and
//! clip's panics itself; one in its reading is caught here and raised as `EngineError`, which
//! the Python facade answers with its pure-Python clip where it still has the input; it never
//! reaches a caller. The command line reads its input into `InputPiece`s (`input_piece.rs`),
//! memory that the engine, the store's hash and its direct writes read where it lies.

#![warn(missing_docs)]

mod clip;
mod diagnostics;
mod diff;
mod engine;
mod error;
#[cfg(any(test, feature = "fault-injection"))]
mod fault;
mod frames;
#[cfg(any(test, feature = "fuzzing"))]
pub mod fuzzing;
mod gapped;
mod hash;
#[cfg(unix)]
mod input_piece;
/// Input pieces are read from file descriptors, as only Unix's `std` reads them: elsewhere
/// there are none, and the command line reads its input as `bytes`.
#[cfg(not(unix))]
mod input_piece {
    use pyo3::prelude::*;

    pub(crate) fn read<T>(
        _: &Bound<'_, PyAny>,
        _: impl FnOnce(&[u8]) -> PyResult<T>,
    ) -> Option<PyResult<T>> {
        None
    }

    #[allow(
        clippy::unnecessary_wraps,
        reason = "as Unix's, which adds a class and may fail"
    )]
    pub(crate) fn register(_: &Bound<'_, PyModule>) -> PyResult<()> {
        Ok(())
    }
}
mod json;
mod lanes;
mod lines;
mod listing;
mod log;
mod lookalike;
mod markers;
mod matches;
mod numbered;
mod plan;
mod planner;
mod profile;
mod py_str;
mod read;
mod search;
mod sink;
mod table;
#[cfg(test)]
mod test_helpers;
mod text;
mod way_back;
mod window;

use std::panic::{AssertUnwindSafe, catch_unwind};

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString, PyTuple};

pub use engine::{DigestSlot, Engine, Outcome};
pub use error::Error;
pub use plan::{LineRange, Piece, Plan, Shape};
pub use planner::{Budget, Context, Planner};
pub use profile::{Profile, ToolKind};
pub use sink::{Block, Lookahead, Sink, Totals};
pub use way_back::WayBack;
pub use window::Window;

create_exception!(
    _core,
    EngineError,
    PyException,
    "The native engine failed; the facade falls back."
);

fn to_py_err(err: &Error) -> PyErr {
    match err {
        Error::Argument(msg) => PyValueError::new_err(msg.clone()),
        Error::Finished => EngineError::new_err(err.to_string()),
    }
}

/// Runs engine work with the GIL released and any panic turned into `EngineError`.
fn run_detached<T: Send>(py: Python<'_>, work: impl FnOnce() -> T + Send) -> PyResult<T> {
    py.detach(|| catch_unwind(AssertUnwindSafe(work)))
        .map_err(|_| EngineError::new_err("the native engine panicked"))
}

/// What one compression produced, with the facts callers may want about it.
#[pyclass(module = "shapeclip._core", frozen, get_all)]
struct Report {
    text: String,
    shape: &'static str,
    input_chars: u64,
    input_lines: u64,
    omitted_chars: u64,
    omitted_lines: u64,
    omitted_ranges: Vec<(u64, u64)>,
    /// Character offset where a digest of the omitted part may be written, when one is due.
    digest_at: Option<u64>,
    /// What the digest model should read: a sample of the omitted lines, numbered.
    digest_input: Option<String>,
    /// Characters the budget leaves for the digest (the budget less `text`), when one is due.
    digest_room: Option<u64>,
}

impl From<Outcome> for Report {
    fn from(outcome: Outcome) -> Self {
        let digest = outcome.digest;
        Report {
            digest_at: digest.as_ref().map(|d| d.at),
            digest_room: digest.as_ref().map(|d| d.room),
            digest_input: digest.map(|d| d.input),
            text: outcome.plan.render(),
            shape: outcome.plan.shape.name(),
            input_chars: outcome.totals.chars,
            input_lines: outcome.totals.lines,
            omitted_chars: outcome.plan.omitted_chars,
            omitted_lines: outcome.plan.omitted_lines(),
            omitted_ranges: outcome
                .plan
                .omitted
                .iter()
                .map(|r| (r.first, r.last))
                .collect(),
        }
    }
}

/// A streaming compression: `feed` chunks of `str` or `bytes`, then `finish` once.
///
/// Its arguments are keyword-only: four of them are numbers, and two numbers side by side
/// could be swapped without an error.
/// Where the whole output is kept, as Python names it: a stored copy's `(id, path)`, or the
/// path of the file the output was read from.
#[derive(FromPyObject)]
enum Kept {
    Stored(String, String),
    File(String),
}

#[pyclass(module = "shapeclip._core")]
struct Compressor {
    engine: Option<Engine>,
}

#[pymethods]
impl Compressor {
    #[new]
    #[pyo3(signature = (*, budget, kind, tool, head_weight, tail_weight, digest_room=0))]
    fn new(
        budget: u64,
        kind: &str,
        tool: Option<&str>,
        head_weight: u64,
        tail_weight: u64,
        digest_room: u64,
    ) -> PyResult<Self> {
        let profile =
            Profile::new(kind, tool, head_weight, tail_weight).map_err(|e| to_py_err(&e))?;
        let budget = Budget::new(budget, digest_room).map_err(|e| to_py_err(&e))?;
        let engine = Engine::new(budget, profile);
        Ok(Compressor {
            engine: Some(engine),
        })
    }

    /// Returns whether `chunk` held a lone surrogate, which the engine read as U+FFFD. After
    /// an error the compressor is spent: part of the chunk may have been read.
    fn feed(&mut self, py: Python<'_>, chunk: &Bound<'_, PyAny>) -> PyResult<bool> {
        let engine = self
            .engine
            .as_mut()
            .ok_or_else(|| to_py_err(&Error::Finished))?;
        let result = if let Ok(s) = chunk.cast::<PyString>() {
            py_str::feed_text(engine, s)
        } else if let Ok(b) = chunk.cast::<PyBytes>() {
            let bytes = b.as_bytes();
            run_detached(py, || engine.feed_bytes(bytes)).map(|()| false)
        } else if let Some(fed) =
            input_piece::read(chunk, |bytes| run_detached(py, || engine.feed_bytes(bytes)))
        {
            fed.map(|()| false)
        } else {
            return Err(PyTypeError::new_err("chunk must be str or bytes"));
        };
        if result.is_err() {
            self.engine = None;
        }
        result
    }

    /// `way_back`, where the whole output is kept, makes the markers point into it: the ID
    /// and path of a stored copy, or the path of the file it was read from.
    #[pyo3(signature = (way_back=None))]
    fn finish(&mut self, py: Python<'_>, way_back: Option<Kept>) -> PyResult<Report> {
        let mut engine = self
            .engine
            .take()
            .ok_or_else(|| to_py_err(&Error::Finished))?;
        match way_back {
            Some(Kept::Stored(id, path)) => engine.set_way_back(WayBack::Stored { id, path }),
            Some(Kept::File(path)) => engine.set_way_back(WayBack::File { path }),
            None => {}
        }
        run_detached(py, || Report::from(engine.finish()))
    }
}

/// The store's content hash (BLAKE3), fed an output's bytes as they are stored: on a stored
/// gigabyte, SHA-256 took 0.5 s of CPU time beside the core's 0.9 s on the same two cores.
#[pyclass(module = "shapeclip._core")]
struct ContentHash {
    hasher: blake3::Hasher,
}

#[pymethods]
impl ContentHash {
    #[new]
    fn new() -> Self {
        ContentHash {
            hasher: blake3::Hasher::new(),
        }
    }

    #[pyo3(signature = (data, /))]
    fn update(&mut self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        let hasher = &mut self.hasher;
        if let Ok(b) = data.cast::<PyBytes>() {
            let bytes = b.as_bytes();
            return run_detached(py, || {
                hasher.update(bytes);
            });
        }
        input_piece::read(data, |bytes| {
            run_detached(py, || {
                hasher.update(bytes);
            })
        })
        .unwrap_or_else(|| Err(PyTypeError::new_err("data must be bytes")))
    }

    /// The 64 hex digits of the hash of every byte given so far.
    fn hexdigest(&self) -> String {
        self.hasher.finalize().to_hex().to_string()
    }
}

/// Whether this module was built without optimisations (benchmarks refuse to time it).
const DEBUG_BUILD: bool = cfg!(debug_assertions);

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Compressor>()?;
    m.add_class::<ContentHash>()?;
    input_piece::register(m)?;
    m.add_class::<Report>()?;
    m.add("EngineError", m.py().get_type::<EngineError>())?;
    m.add(
        "PanicException",
        m.py().get_type::<pyo3::panic::PanicException>(),
    )?;
    m.add("DEBUG_BUILD", DEBUG_BUILD)?;
    // The names `Compressed.shape` may take from the core, so that Python lists them nowhere.
    m.add("SHAPES", PyTuple::new(m.py(), Shape::ALL.map(Shape::name))?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
