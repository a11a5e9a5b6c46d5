//! `yomi._yomi`, the Rust half of the Python package `yomi` (the Python half, with the
//! type stubs, the PettingZoo wrapper and the Ray runner, is in `python/yomi`).
//!
//! - [`game`]: `Game` and `State`, OpenSpiel's `pyspiel` shape over
//!   [`yomi_games::DynGame`] / [`yomi_games::DynState`];
//! - [`agent`]: `Agent` (any spec string) and `search` (per-action visits and values);
//! - [`vector`]: `VectorEnv`, n games stepped in Rust per call, numpy in and out;
//! - [`arena`]: round robins (matches and tournaments), the records file as dicts, and the
//!   chunked runs the Ray runner distributes ([`yomi_core::arena::Journal`]);
//! - [`experiments`]: the experiment commands (TUBSTAP's, Othello's accuracy, the matches
//!   of a learning experiment) in chunks for the Ray runner;
//! - [`nn`] (feature `nn`): AlphaZero training with each cycle's self-play played where a
//!   Python callable says (the Ray runner's chunks).
//!
//! Every call that does real work (a search, a match, a batch of steps) releases the GIL
//! ([`rust`]). A panic in Rust becomes the Python exception `yomi.RustPanic` (a
//! `RuntimeError`); the interpreter keeps running. Errors of the caller are `ValueError`s
//! whose message lists what is accepted; an illegal action is `yomi.IllegalActionError`,
//! a subclass of `ValueError`.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyDict, PyList, PyTuple};
use yomi_games::DynError;

mod agent;
mod arena;
mod batch;
mod experiments;
mod game;
#[cfg(feature = "nn")]
mod nn;
mod vector;

create_exception!(
    yomi,
    IllegalActionError,
    PyValueError,
    "An action, move text or joint action that is not legal here; the message names the legal ones."
);
create_exception!(
    yomi,
    RustPanic,
    PyRuntimeError,
    "A panic inside yomi's Rust code (a bug: please report it with the message). The interpreter keeps running."
);

/// The Python exception for a [`DynError`].
pub(crate) fn dyn_err(e: DynError) -> PyErr {
    match e {
        DynError::Illegal(m) => IllegalActionError::new_err(m),
        DynError::Agent(m) => PyRuntimeError::new_err(m),
        other => PyValueError::new_err(other.to_string()),
    }
}

/// A `ValueError` with `message`.
pub(crate) fn value_err(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(message.into())
}

fn panic_err(payload: Box<dyn Any + Send>) -> PyErr {
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".into());
    RustPanic::new_err(format!("panic in yomi's Rust code: {message}"))
}

/// Runs `f` with the GIL released; a panic becomes [`RustPanic`].
pub(crate) fn rust<T: Send, F: FnOnce() -> T + Send>(py: Python<'_>, f: F) -> PyResult<T> {
    py.detach(|| catch_unwind(AssertUnwindSafe(f)))
        .map_err(panic_err)
}

/// Runs a short `f` with the GIL held; a panic becomes [`RustPanic`].
pub(crate) fn guard<T>(f: impl FnOnce() -> T) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f)).map_err(panic_err)
}

static FROMBUFFER: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// A numpy array of `dtype` and `shape` holding a copy of `bytes` (writable: it owns a
/// `bytearray`).
pub(crate) fn ndarray<'py>(
    py: Python<'py>,
    bytes: &[u8],
    dtype: &str,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let frombuffer = FROMBUFFER.import(py, "numpy", "frombuffer")?;
    let array = frombuffer.call1((PyByteArray::new(py, bytes), dtype))?;
    array.call_method1("reshape", (PyTuple::new(py, shape)?,))
}

/// A Python value (dicts, lists, numbers, strings, None) of a JSON value.
pub(crate) fn json_to_py<'py>(
    py: Python<'py>,
    value: &serde_json::Value,
) -> PyResult<Bound<'py, PyAny>> {
    use serde_json::Value;
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
            }
        }
        Value::String(s) => s.into_pyobject(py)?.into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(json_to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, v) in map {
                dict.set_item(k, json_to_py(py, v)?)?;
            }
            dict.into_any()
        }
    })
}

/// Panics inside Rust work (with the GIL released), for the test that a panic becomes
/// `yomi.RustPanic` and leaves the interpreter running.
#[pyfunction]
fn _panic_for_tests(py: Python<'_>) -> PyResult<()> {
    rust::<(), _>(py, || panic!("a panic asked for by the tests"))
}

/// OpenSpiel's `current_player` marker of a simultaneous turn.
pub const SIMULTANEOUS: i64 = -2;
/// OpenSpiel's `current_player` marker of a terminal state.
pub const TERMINAL: i64 = -4;

#[pymodule]
fn _yomi(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("IllegalActionError", py.get_type::<IllegalActionError>())?;
    m.add("RustPanic", py.get_type::<RustPanic>())?;
    m.add("SIMULTANEOUS", SIMULTANEOUS)?;
    m.add("TERMINAL", TERMINAL)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(_panic_for_tests, m)?)?;
    game::register(m)?;
    agent::register(m)?;
    vector::register(m)?;
    arena::register(m)?;
    experiments::register(m)?;
    #[cfg(feature = "nn")]
    nn::register(m)?;
    Ok(())
}
