//! The command line's input, read in pieces of page-aligned memory that the engine, the store's
//! hash and its direct writes all read where they lie.
//!
//! Read with `os.read`, a gigabyte through a pipe came as a thousand fresh `bytes` (a page
//! fault for every 4 KiB), joined into larger ones, gathered again by the engine and copied
//! once more into aligned buffers for the store's direct writes. A piece is filled once, by
//! reads straight into it, and is as large as the engine reads in place
//! ([`GATHER_BYTES`]); its memory goes back to a small pool when Python lets go of it, for
//! the next piece. Python holds pieces like any object, so nothing has to give them back.
//!
//! A piece is only ever borrowed: filling it borrows it mutably, reading it shares it, and
//! `PyO3` refuses one while the other lasts, so the bytes cannot change while the GIL is
//! released to read them.

use std::fs::File;
use std::io::{ErrorKind, Read};
use std::mem::ManuallyDrop;
use std::os::fd::{FromRawFd, RawFd};
use std::os::unix::fs::FileExt;
use std::sync::Mutex;

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::engine::GATHER_BYTES;

/// What direct writes align to: a page, as on every system this runs on.
const PAGE: usize = 4096;

#[derive(Clone, Copy)]
#[repr(C, align(4096))]
struct Page([u8; PAGE]);

/// Memory of pieces that Python let go of, kept for the next ones: as many as are in flight
/// at once in the command line (read, queued to be read, hashed and written).
static FREE: Mutex<Vec<Box<[Page]>>> = Mutex::new(Vec::new());
const FREE_KEPT: usize = 8;

/// Up to [`InputPiece::CAPACITY`] bytes of input, in page-aligned memory.
#[pyclass(module = "shapeclip._core")]
pub(crate) struct InputPiece {
    pages: Box<[Page]>,
    len: usize,
}

impl InputPiece {
    fn bytes(&self) -> &[u8] {
        &self.all()[..self.len]
    }

    fn all(&self) -> &[u8] {
        debug_assert_eq!(self.pages.len() * PAGE, Self::CAPACITY);
        // SAFETY: `Page` is plain bytes with no padding, so the pages are `CAPACITY` bytes.
        unsafe { std::slice::from_raw_parts(self.pages.as_ptr().cast::<u8>(), Self::CAPACITY) }
    }

    fn free_space(&mut self) -> &mut [u8] {
        let len = self.len;
        // SAFETY: as in `all`, and the borrow of `self` is unique.
        let all = unsafe {
            std::slice::from_raw_parts_mut(self.pages.as_mut_ptr().cast::<u8>(), Self::CAPACITY)
        };
        &mut all[len..]
    }
}

/// Runs `read` over the bytes of `object` when it is an input piece, borrowed meanwhile;
/// `None` when it is not one.
pub(crate) fn read<T>(
    object: &Bound<'_, PyAny>,
    read: impl FnOnce(&[u8]) -> PyResult<T>,
) -> Option<PyResult<T>> {
    let piece = object.cast::<InputPiece>().ok()?;
    Some(
        piece
            .try_borrow()
            .map_err(PyErr::from)
            .and_then(|piece| read(piece.bytes())),
    )
}

pub(crate) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<InputPiece>()
}

impl Drop for InputPiece {
    fn drop(&mut self) {
        let pages = std::mem::take(&mut self.pages);
        if let Ok(mut free) = FREE.lock() {
            if free.len() < FREE_KEPT {
                free.push(pages);
            }
        }
    }
}

/// `fd`, borrowed: never closed here. A negative one is a bad argument: `std` takes -1 for
/// no descriptor at all.
fn borrowed(fd: RawFd) -> PyResult<ManuallyDrop<File>> {
    if fd < 0 {
        return Err(PyValueError::new_err(format!(
            "a file descriptor is not negative; got {fd}"
        )));
    }
    // SAFETY: the file is only read or written through, never closed (`ManuallyDrop`); a
    // descriptor that is not open gives `EBADF`, as `os.read` would.
    Ok(ManuallyDrop::new(unsafe { File::from_raw_fd(fd) }))
}

/// Runs `io` without the GIL until it is not interrupted by a signal, running Python's
/// handlers after each interruption, as `os.read` does (PEP 475): what a handler raises is
/// raised instead.
fn retried<T: Send>(
    py: Python<'_>,
    mut io: impl FnMut() -> std::io::Result<T> + Send,
) -> PyResult<T> {
    loop {
        match py.detach(&mut io) {
            Err(e) if e.kind() == ErrorKind::Interrupted => py.check_signals()?,
            done => return done.map_err(os_error),
        }
    }
}

/// An `OSError` with the error's number, as `os` raises it: callers tell errors apart by it
/// (the store falls back from a direct write on `EINVAL`).
fn os_error(error: std::io::Error) -> PyErr {
    match error.raw_os_error() {
        Some(number) => PyOSError::new_err((number, error.to_string())),
        None => PyErr::from(error),
    }
}

#[pymethods]
impl InputPiece {
    /// Bytes a piece holds at most: as many as the engine reads where they lie.
    #[classattr]
    const CAPACITY: usize = GATHER_BYTES;

    #[new]
    fn new() -> Self {
        let pages = FREE
            .lock()
            .ok()
            .and_then(|mut free| free.pop())
            .unwrap_or_else(|| vec![Page([0; PAGE]); Self::CAPACITY / PAGE].into_boxed_slice());
        InputPiece { pages, len: 0 }
    }

    /// Reads from `fd` once, after the bytes already read: how many came, 0 at the end of the
    /// input (or when the piece is full).
    #[pyo3(signature = (fd, /))]
    fn read_from(&mut self, py: Python<'_>, fd: RawFd) -> PyResult<usize> {
        let mut file = borrowed(fd)?;
        let space = self.free_space();
        let n = retried(py, || file.read(space))?;
        self.len += n;
        Ok(n)
    }

    /// Writes the piece's bytes from `start` to `fd` at `offset`, once: how many were written.
    #[pyo3(signature = (fd, offset, start, /))]
    fn write_at(&self, py: Python<'_>, fd: RawFd, offset: u64, start: usize) -> PyResult<usize> {
        let bytes = self
            .bytes()
            .get(start..)
            .ok_or_else(|| PyValueError::new_err("start is past the piece's end"))?;
        let file = borrowed(fd)?;
        retried(py, || file.write_at(bytes, offset))
    }

    fn __len__(&self) -> usize {
        self.len
    }

    fn __bytes__<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.bytes())
    }
}
