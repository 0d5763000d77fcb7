//! `shapeclip._core`: the Python binding of the engine, and nothing else.
//!
//! Each entry point extracts its arguments, releases the GIL while the engine works on borrowed
//! text, and converts the result. The engine answers its planners', window's and clip's panics
//! itself; one in its reading is caught here and raised as `EngineError`, which the Python
//! facade answers with its pure-Python clip where it still has the input; it never reaches a
//! caller.

mod clip;
mod diff;
mod engine;
mod error;
#[cfg(any(test, feature = "fault-injection"))]
mod fault;
#[cfg(any(test, feature = "fuzzing"))]
pub mod fuzzing;
mod gapped;
mod hash;
mod lanes;
mod lines;
mod listing;
mod log;
mod lookalike;
mod markers;
mod plan;
mod planner;
mod profile;
mod read;
mod search;
mod sink;
#[cfg(test)]
mod test_helpers;
mod text;
mod way_back;
mod window;

use std::panic::{AssertUnwindSafe, catch_unwind};

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use engine::{Engine, Outcome};
use error::Error;
use planner::Budget;
use profile::Profile;
use way_back::WayBack;

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
}

impl From<Outcome> for Report {
    fn from(outcome: Outcome) -> Self {
        let (digest_at, digest_input) = outcome.digest.map(|d| (d.at, d.input)).unzip();
        Report {
            digest_at,
            digest_input,
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
        let engine = Engine::with_budget(budget, profile);
        Ok(Compressor {
            engine: Some(engine),
        })
    }

    fn feed(&mut self, py: Python<'_>, chunk: &Bound<'_, PyAny>) -> PyResult<()> {
        let engine = self
            .engine
            .as_mut()
            .ok_or_else(|| to_py_err(&Error::Finished))?;
        let result = if let Ok(s) = chunk.cast::<PyString>() {
            let text = s.to_str()?;
            run_detached(py, || engine.feed_str(text))
        } else if let Ok(b) = chunk.cast::<PyBytes>() {
            let bytes = b.as_bytes();
            run_detached(py, || engine.feed_bytes(bytes))
        } else {
            return Err(PyTypeError::new_err("chunk must be str or bytes"));
        };
        if result.is_err() {
            self.engine = None;
        }
        result
    }

    /// `way_back`, the ID and path of a stored copy of the whole output, makes the markers
    /// point into it.
    #[pyo3(signature = (way_back=None))]
    fn finish(&mut self, py: Python<'_>, way_back: Option<(String, String)>) -> PyResult<Report> {
        let mut engine = self
            .engine
            .take()
            .ok_or_else(|| to_py_err(&Error::Finished))?;
        if let Some((id, path)) = way_back {
            engine.set_way_back(WayBack { id, path });
        }
        run_detached(py, || Report::from(engine.finish()))
    }
}

/// Whether this module was built without optimisations (benchmarks refuse to time it).
const DEBUG_BUILD: bool = cfg!(debug_assertions);

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Compressor>()?;
    m.add_class::<Report>()?;
    m.add("EngineError", m.py().get_type::<EngineError>())?;
    m.add(
        "PanicException",
        m.py().get_type::<pyo3::panic::PanicException>(),
    )?;
    m.add("DEBUG_BUILD", DEBUG_BUILD)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
