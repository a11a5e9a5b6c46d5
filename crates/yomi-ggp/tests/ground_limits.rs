//! Grounding rules with very long bodies: no recursion per body literal (a small stack
//! must do) and time linear in the body length; the same for the reference prover, which
//! the player asks for moves while such rules compile.

use std::time::{Duration, Instant};

use yomi_ggp::{Description, GdlGame, Prover};

/// A game whose one `legal` rule has `n` body literals: ground `true` literals, `distinct`
/// tests on a variable and static literals, all satisfiable in the initial state.
fn long_body_sheet(n: usize) -> String {
    let mut s = String::from("(role p) (init (v 0)) (val 0) (<= terminal (true (done)))\n");
    s.push_str("(goal p 100) (<= (next (done)) (does p go))\n");
    let k = 64.min(n);
    for i in 0..k {
        s.push_str(&format!("(init (c {i})) (num {i})\n"));
    }
    s.push_str("(<= (legal p go) (true (v ?x))");
    for i in 0..n {
        match i % 3 {
            0 => s.push_str(&format!(" (true (c {}))", i % k)),
            1 => s.push_str(&format!(" (distinct ?x {})", 1 + i % k)),
            _ => s.push_str(&format!(" (num {})", i % k)),
        }
    }
    s.push_str(")\n");
    s
}

/// Compiles `text` on a thread with a stack of `stack` bytes (2 MiB: Rust's default for
/// spawned threads, the size of the player's request threads before).
fn compile_on_stack(text: String, stack: usize) -> Result<Duration, String> {
    std::thread::Builder::new()
        .stack_size(stack)
        .spawn(move || {
            let t = Instant::now();
            let g = GdlGame::from_kif("long", &text).map_err(|e| e.to_string())?;
            let r = g.reasoner();
            let s = r.initial_state();
            let mut legal = Vec::new();
            r.legal_into(&s, 0, &mut legal);
            assert_eq!(legal.len(), 1, "the long rule holds in the initial state");
            Ok(t.elapsed())
        })
        .unwrap()
        .join()
        .map_err(|_| "the compile thread panicked".to_string())?
}

#[test]
fn rule_body_of_8000_literals_grounds_on_a_256_kib_stack() {
    // One frame per body literal (the recursive join) needs far more than this; the
    // iterative join needs no more for 8,000 literals than for 8.
    let took = compile_on_stack(long_body_sheet(8000), 256 << 10).unwrap();
    eprintln!("8000 body literals: compiled in {took:?}");
}

#[test]
fn grounding_time_is_not_quadratic_in_body_length() {
    // 40,000 literals (what overflowed `yomi ggp check`'s main thread): quadratic costs
    // took 19 s at 16,000 before, so over 100 s here.
    let took = compile_on_stack(long_body_sheet(40_000), 2 << 20).unwrap();
    eprintln!("40000 body literals: compiled in {took:?}");
    assert!(took < Duration::from_secs(15), "{took:?}");
}

#[test]
fn rule_body_over_the_cap_is_a_clear_error() {
    let n = yomi_ggp::parse::MAX_BODY_LITERALS + 1;
    let e = GdlGame::from_kif("long", &long_body_sheet(n)).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("at most") && text.contains("literals"),
        "{text}"
    );
}

/// Runs the reference prover on `text` (initial state, legal moves of the one role) on a
/// thread with a stack of `stack` bytes.
fn prove_on_stack(text: String, stack: usize) -> Result<Duration, String> {
    std::thread::Builder::new()
        .stack_size(stack)
        .spawn(move || {
            let desc = Description::from_kif(&text).map_err(|e| e.to_string())?;
            let t = Instant::now();
            let prover = Prover::new(&desc);
            let s = prover.initial_state().map_err(|e| e.to_string())?;
            let legal = prover
                .legal_moves(&s, &desc.roles[0])
                .map_err(|e| e.to_string())?;
            assert_eq!(legal.len(), 1, "the long rule holds in the initial state");
            Ok(t.elapsed())
        })
        .unwrap()
        .join()
        .map_err(|_| "the prover thread panicked".to_string())?
}

#[test]
fn prover_on_a_rule_body_of_8000_literals_runs_on_a_256_kib_stack() {
    // The recursive join (one frame per positive literal) overflowed this stack and
    // aborted the process; the player's fallback moves come from the prover.
    let took = prove_on_stack(long_body_sheet(8000), 256 << 10).unwrap();
    eprintln!("8000 body literals: proved in {took:?}");
}

#[test]
fn prover_on_a_rule_body_at_the_literal_cap_runs_on_a_256_kib_stack() {
    // The sheet's rule has one literal besides the `n`.
    let n = yomi_ggp::parse::MAX_BODY_LITERALS - 1;
    let took = prove_on_stack(long_body_sheet(n), 256 << 10).unwrap();
    eprintln!("{n} body literals: proved in {took:?}");
    assert!(took < Duration::from_secs(5), "{took:?}");
}

#[test]
fn lazy_evaluator_on_a_rule_body_at_the_literal_cap_runs_on_a_256_kib_stack() {
    // The player's moves while rules compile come from the lazy evaluator.
    let text = long_body_sheet(yomi_ggp::parse::MAX_BODY_LITERALS - 1);
    let took = std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(move || {
            let desc = Description::from_kif(&text).unwrap();
            let t = Instant::now();
            let g = GdlGame::new_fallback("long", &desc).unwrap();
            let r = g.reasoner();
            let s = r.initial_state();
            let mut legal = Vec::new();
            r.legal_into(&s, 0, &mut legal);
            assert_eq!(legal.len(), 1, "the long rule holds in the initial state");
            t.elapsed()
        })
        .unwrap()
        .join()
        .unwrap();
    eprintln!("lazy evaluator, body at the cap: {took:?}");
    assert!(took < Duration::from_secs(5), "{took:?}");
}
