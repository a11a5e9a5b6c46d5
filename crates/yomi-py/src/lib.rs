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
//! ([`bridge::rust`]). A panic in Rust becomes the Python exception `yomi.RustPanic` (a
//! `RuntimeError`); the interpreter keeps running. Errors of the caller are `ValueError`s
//! whose message lists what is accepted; an illegal action is `yomi.IllegalActionError`,
//! a subclass of `ValueError`.

use pyo3::prelude::*;

mod agent;
mod arena;
mod batch;
mod bridge;
mod experiments;
mod game;
#[cfg(feature = "nn")]
mod nn;
mod vector;

use bridge::rust;
pub use bridge::{IllegalActionError, RustPanic, SIMULTANEOUS, TERMINAL};

/// Panics inside Rust work (with the GIL released), for the test that a panic becomes
/// `yomi.RustPanic` and leaves the interpreter running.
#[pyfunction]
fn _panic_for_tests(py: Python<'_>) -> PyResult<()> {
    rust::<(), _>(py, || panic!("a panic asked for by the tests"))
}

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
