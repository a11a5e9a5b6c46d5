//! The crossing between Rust and Python that every part of the module uses: the
//! exceptions (`yomi.IllegalActionError`, `yomi.RustPanic`) and the conversion of
//! [`DynError`]s, running Rust work with the GIL released and panics caught, numpy arrays
//! and Python values of JSON, and OpenSpiel's player markers.
//!
//! Its own module, below the classes and functions (and the crate root that registers
//! them), so that those can use it without using each other.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyDict, PyList, PyTuple};
use yomi_games::DynError;

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

/// OpenSpiel's `current_player` marker of a simultaneous turn.
pub const SIMULTANEOUS: i64 = -2;
/// OpenSpiel's `current_player` marker of a terminal state.
pub const TERMINAL: i64 = -4;
