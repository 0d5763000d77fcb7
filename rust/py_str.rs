//! How the binding reads a Python `str` (see [`feed_text`]): in place when it is ASCII, and
//! otherwise written as UTF-8 here, a piece at a time, with the GIL released.

use pyo3::ffi;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::engine::{self, Engine};
use crate::run_detached;
use crate::text::code_points::{push_code_points, vectorised};

/// Characters of a `str` outside ASCII taken from it at a time: their code points (4 bytes
/// each) and their UTF-8 stay in a core's cache while they are written and read.
const STR_PIECE: usize = 1 << 16;

/// Bytes of a `str`'s UTF-8 handed to the engine at a time: enough that it reads them where
/// they lie, without gathering them first.
const STR_BATCH: usize = engine::GATHER_BYTES;

/// Feeds a `str` and returns whether it held a lone surrogate. An ASCII `str` is read where it
/// lies: its characters are its UTF-8. Any other is written as UTF-8 by [`write_batches`],
/// rather than by Python, which encodes a character at a time and keeps the UTF-8 copy of the
/// whole `str` for as long as the caller holds it.
///
/// Writing the next batch on a second thread while the engine read the last one was tried:
/// on two cores, where the engine's reading already takes both, it was no faster, and at
/// 10 MB often slower.
pub(crate) fn feed_text(engine: &mut Engine, text: &Bound<'_, PyString>) -> PyResult<bool> {
    let py = text.py();
    if is_ascii(text)? {
        let text = text.to_str()?;
        return run_detached(py, || engine.feed_str(text)).map(|()| false);
    }
    let mut fed = Ok(());
    let surrogates = write_batches(text, |mut utf8| {
        fed = run_detached(py, || engine.feed_str(&utf8));
        utf8.clear();
        fed.is_ok().then_some(utf8)
    })?;
    fed.map(|()| surrogates)
}

/// Writes `text`'s characters as UTF-8, [`STR_PIECE`] at a time with the GIL released, and
/// hands each [`STR_BATCH`] bytes of it, and what is left at the end, to `take`, which gives
/// back an empty buffer to go on with, or `None` to stop. Returns whether a lone surrogate was
/// replaced. A batch is read where it lies; pieces handed on one by one were copied again,
/// to be gathered into batches.
fn write_batches(
    text: &Bound<'_, PyString>,
    mut take: impl FnMut(String) -> Option<String>,
) -> PyResult<bool> {
    let py = text.py();
    let len = text.len()?;
    let mut points = Vec::with_capacity(STR_PIECE.min(len));
    let mut utf8 = String::new();
    let mut surrogates = false;
    let encodes_fast = vectorised();
    for start in (0..len).step_by(STR_PIECE) {
        let piece = substring(text, start, len.min(start + STR_PIECE))?;
        // A piece that is ASCII, as most are in a log with a few characters outside it, is
        // its own UTF-8. Without vectors, Python's encoder is as fast on text dense in such
        // characters; it refuses a lone surrogate, which the code points' writer replaces.
        let encoded = if !encodes_fast || is_ascii(&piece)? {
            piece.to_str().ok()
        } else {
            None
        };
        if let Some(encoded) = encoded {
            utf8.push_str(encoded);
        } else {
            code_points(&piece, &mut points)?;
            surrogates |= run_detached(py, || push_code_points(&mut utf8, &points))?;
        }
        if utf8.len() >= STR_BATCH {
            match take(utf8) {
                Some(next) => utf8 = next,
                None => return Ok(surrogates),
            }
        }
    }
    if !utf8.is_empty() {
        take(utf8);
    }
    Ok(surrogates)
}

/// Whether `text` is ASCII: Python knows it without reading the text.
fn is_ascii(text: &Bound<'_, PyString>) -> PyResult<bool> {
    text.call_method0(intern!(text.py(), "isascii"))?
        .is_truthy()
}

/// `text[start..end]`, a new `str`.
fn substring<'py>(
    text: &Bound<'py, PyString>,
    start: usize,
    end: usize,
) -> PyResult<Bound<'py, PyString>> {
    let index = |i: usize| ffi::Py_ssize_t::try_from(i).expect("a str's length fits its index");
    // SAFETY: `text` is a live `str` and `start <= end <= len(text)`; the new reference is
    // owned, and is a `str`.
    unsafe {
        Ok(Bound::from_owned_ptr_or_err(
            text.py(),
            ffi::PyUnicode_Substring(text.as_ptr(), index(start), index(end)),
        )?
        .cast_into_unchecked())
    }
}

/// Sets `points` to the code points of `text`.
fn code_points(text: &Bound<'_, PyString>, points: &mut Vec<u32>) -> PyResult<()> {
    let len = text.len()?;
    let size = ffi::Py_ssize_t::try_from(len).expect("a str's length fits its index");
    points.clear();
    points.reserve(len);
    // SAFETY: `points` has room for the `len` characters of `text`, and no terminating NUL is
    // asked for; on success every one of them is written.
    unsafe {
        let written = ffi::PyUnicode_AsUCS4(text.as_ptr(), points.as_mut_ptr(), size, 0);
        if written.is_null() {
            return Err(PyErr::fetch(text.py()));
        }
        points.set_len(len);
    }
    Ok(())
}
