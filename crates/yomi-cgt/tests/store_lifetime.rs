//! The store's bounds for long-lived processes: memo tables capped, game forms freed by
//! `clear_store`, and handles from before a clear refused rather than misread.
//!
//! One test function: clearing the store invalidates every thread's handles, so this
//! binary must not run other tests beside it.

use std::panic::{catch_unwind, AssertUnwindSafe};

use yomi_cgt::{clear_store, set_memo_limit, Cgt, Dyadic, DEFAULT_MEMO_LIMIT};

/// Many distinct hot games and their analyses: each adds forms and memo entries.
fn analyse_many(from: i64, count: i64) {
    for n in from..from + count {
        let g: Cgt = format!("{{{n}|{{{}|-{n}}}}} + {{2|-1}} + ^*", n + 1)
            .parse()
            .unwrap();
        let c = g.canonical();
        let t = c.temperature();
        let _ = (
            c.left_stop(),
            c.right_stop(),
            c.mean(),
            c.cool(t),
            c.heat(t),
        );
    }
}

/// What the checks compare: a hot sum's mean, temperature and canonical form.
fn facts(text: &str) -> (Dyadic, Dyadic, String) {
    let g: Cgt = text.parse().unwrap();
    (g.mean(), g.temperature(), g.canonical().to_string())
}

const SUM: &str = "{5|{3|-5}} + {2|-1} + {1|0}";

#[test]
fn memos_stay_bounded_forms_are_freed_and_stale_handles_are_refused() {
    let reference = facts(SUM);
    // A limit of 200 entries: the tables are emptied when an operation starts above it,
    // and one operation here adds a few dozen at most.
    set_memo_limit(200);
    analyse_many(1, 300);
    let memos = Cgt::memo_entries();
    assert!(
        memos <= 400,
        "memo tables hold {memos} entries with a limit of 200"
    );
    // Emptied memos change no answer.
    assert_eq!(facts(SUM), reference);
    let g: Cgt = SUM.parse().unwrap();

    // Without a limit the same work leaves far more entries: the cap is what bounds them.
    set_memo_limit(usize::MAX);
    analyse_many(1000, 300);
    let unbounded = Cgt::memo_entries();
    assert!(
        unbounded > 2_000,
        "only {unbounded} memo entries without a limit"
    );
    set_memo_limit(DEFAULT_MEMO_LIMIT);

    // Clearing frees the forms: the store is back to its first node (0).
    let before = Cgt::store_size();
    assert!(before > 1_000, "{before} forms before clearing");
    let stale = g;
    clear_store();
    assert_eq!(Cgt::store_size(), 1);
    assert_eq!(Cgt::memo_entries(), 0);

    // A handle from before the clear is refused with a message that says why.
    let err = catch_unwind(AssertUnwindSafe(|| stale.mean())).unwrap_err();
    let msg = err
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| err.downcast_ref::<&str>().copied())
        .unwrap_or_default();
    assert!(msg.contains("clear_store"), "panic message: {msg:?}");
    let fresh: Cgt = SUM.parse().unwrap();
    assert!(catch_unwind(AssertUnwindSafe(|| stale == fresh)).is_err());
    assert!(catch_unwind(AssertUnwindSafe(|| stale.identical(fresh))).is_err());

    // New games work as before.
    assert_eq!(facts(SUM), reference);
    assert_eq!((Cgt::star() + Cgt::star()), Cgt::zero());
}
