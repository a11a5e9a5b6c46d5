//! A bound on the work of a computation: [`with_work_limit`].
//!
//! Canonical forms, sums, comparisons and thermographs are exact and memoised, but some
//! short games are expensive to analyse (a sum with a big nimber, a form whose options
//! are themselves large sums). A caller that takes games from users (the `yomi cgt`
//! command) runs its computation under a limit on the number of elementary steps (a
//! comparison, a sum, a simplification round, a thermograph, a cooled or heated option
//! that is not memoised yet) and gets [`WorkLimitExceeded`] instead of waiting for
//! minutes. Without a limit nothing is counted.
//!
//! The store stays consistent when a computation is cut short: it only ever records facts
//! it has finished computing.

use std::cell::Cell;
use std::fmt;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};

thread_local! {
    /// Steps left to the computation running on this thread, if it is limited.
    static WORK_LEFT: Cell<Option<u64>> = const { Cell::new(None) };
}

/// A computation ran past its [`with_work_limit`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkLimitExceeded {
    /// The limit, in steps.
    pub limit: u64,
}

impl fmt::Display for WorkLimitExceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the game is too large to analyse within {} steps of work",
            self.limit
        )
    }
}

impl std::error::Error for WorkLimitExceeded {}

/// The unwinding payload that stops a computation.
struct Stop;

/// Counts one step of work; stops the computation when its limit is spent.
pub(crate) fn charge() {
    charge_steps(1);
}

/// Counts `steps` steps of work at once (work whose size is known before it starts, such
/// as the options of a large nimber); stops the computation when fewer are left.
pub(crate) fn charge_steps(steps: u64) {
    WORK_LEFT.with(|w| {
        if let Some(n) = w.get() {
            if n < steps {
                // `resume_unwind` does not run the panic hook: nothing is printed.
                resume_unwind(Box::new(Stop));
            }
            w.set(Some(n - steps));
        }
    });
}

/// Runs `f` (which calls this crate's functions on the current thread) with at most
/// `limit` steps of work.
///
/// # Errors
/// [`WorkLimitExceeded`] when `f` needs more; what it had computed is kept in the store's
/// memo tables, so a later call with a larger limit goes on from there (unless the tables
/// passed their limit in between and were emptied: see [`set_memo_limit`](crate::set_memo_limit)).
///
/// # Panics
/// Passes on any other panic of `f`.
///
/// ```
/// use yomi_cgt::{with_work_limit, Cgt};
///
/// let g: Cgt = "{2|-1}".parse().unwrap();
/// let t = with_work_limit(1_000_000, || g.temperature()).unwrap();
/// assert_eq!(t.to_string(), "3/2");
/// ```
pub fn with_work_limit<T>(limit: u64, f: impl FnOnce() -> T) -> Result<T, WorkLimitExceeded> {
    let before = WORK_LEFT.with(|w| w.replace(Some(limit)));
    let result = catch_unwind(AssertUnwindSafe(f));
    WORK_LEFT.with(|w| w.set(before));
    match result {
        Ok(v) => Ok(v),
        Err(payload) if payload.is::<Stop>() => Err(WorkLimitExceeded { limit }),
        Err(payload) => resume_unwind(payload),
    }
}
