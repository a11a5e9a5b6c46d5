//! The reader and the checks on real rule sheets: every external sheet is read and checked
//! (the invalid ones are rejected with a message naming the rule), printing and reading back
//! gives equal rules, and damaged or random input gives errors, never panics.

mod common;

use yomi_core::Rng;
use yomi_ggp::{parse, Description, GdlError, RuleError};

#[test]
fn external_rule_sheets_are_accepted_or_rejected_as_expected() {
    let Some(dir) = common::gdl_dir() else { return };
    let files = common::kif_files(&dir);
    assert!(files.len() >= 40, "only {} rule sheets found", files.len());
    for (name, text) in &files {
        let r = Description::from_kif(text);
        if common::is_invalid_case(name) {
            let e = r.expect_err(name);
            assert!(
                matches!(
                    e,
                    GdlError::Rule {
                        kind: RuleError::Arity { .. },
                        ..
                    }
                ),
                "{name}: {e}"
            );
            let msg = e.to_string();
            assert!(msg.contains("line ") && msg.contains("argument"), "{msg}");
            eprintln!("{name}: rejected: {msg}");
        } else if let Err(e) = r {
            panic!("{name}: {e}");
        }
    }
}

#[test]
fn printing_and_reading_back_gives_the_same_rules() {
    let Some(dir) = common::gdl_dir() else { return };
    for (name, text) in common::kif_files(&dir) {
        let a = parse(&text).unwrap();
        let printed = a.to_kif();
        let b = parse(&printed).unwrap_or_else(|e| panic!("{name}: {e}\n{printed}"));
        assert_eq!(a.rules, b.rules, "{name}");
        assert_eq!(printed, b.to_kif(), "{name}");
    }
}

/// A random term over a few symbols and the rule's variables.
fn random_term(rng: &mut Rng, depth: u32, vars: &[&str]) -> String {
    let syms = ["a", "B", "c1", "7", "x-y", "cell", "F"];
    match rng.below(if depth == 0 { 2 } else { 3 }) {
        0 => syms[rng.below(syms.len())].to_string(),
        1 => format!("?{}", vars[rng.below(vars.len())]),
        _ => {
            let n = 1 + rng.below(3);
            let args: Vec<String> = (0..n).map(|_| random_term(rng, depth - 1, vars)).collect();
            // Function arity follows the name so arities stay consistent.
            format!("(f{n} {})", args.join(" "))
        }
    }
}

fn random_literal(rng: &mut Rng, depth: u32, vars: &[&str]) -> String {
    match rng.below(if depth == 0 { 3 } else { 6 }) {
        0 | 1 => {
            let n = rng.below(3);
            let args: Vec<String> = (0..n).map(|_| random_term(rng, 2, vars)).collect();
            if n == 0 {
                format!("p{n}")
            } else {
                format!("(p{n} {})", args.join(" "))
            }
        }
        2 => format!(
            "(distinct {} {})",
            random_term(rng, 1, vars),
            random_term(rng, 1, vars)
        ),
        3 => format!("(not {})", random_literal(rng, depth - 1, vars)),
        _ => {
            let n = 1 + rng.below(3);
            let ls: Vec<String> = (0..n)
                .map(|_| random_literal(rng, depth - 1, vars))
                .collect();
            format!("(or {})", ls.join(" "))
        }
    }
}

#[test]
fn random_rule_sheets_round_trip() {
    let mut rng = Rng::seed_from_u64(4);
    let vars = ["x", "Y", "_", "z2"];
    for _ in 0..300 {
        let mut text = String::from("; random\n");
        for _ in 0..1 + rng.below(8) {
            let head = random_literal(&mut rng, 0, &vars);
            if head.starts_with("(distinct") {
                continue;
            }
            let n = rng.below(4);
            if n == 0 && rng.below(2) == 0 {
                text.push_str(&head);
            } else {
                let body: Vec<String> =
                    (0..n).map(|_| random_literal(&mut rng, 2, &vars)).collect();
                text.push_str(&format!("(<= {head} {})", body.join("\n   ")));
            }
            text.push('\n');
        }
        let a = parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let b = parse(&a.to_kif()).unwrap();
        assert_eq!(a.rules, b.rules, "{text}");
        // Checking may accept or reject; it must not panic.
        let _ = Description::from_sheet(a);
    }
}

#[test]
fn damaged_rule_sheets_give_errors_not_panics() {
    let Some(dir) = common::gdl_dir() else { return };
    let mut rng = Rng::seed_from_u64(9);
    for (_, text) in common::kif_files(&dir) {
        let chars: Vec<char> = text.chars().collect();
        for _ in 0..40 {
            let mut c = chars.clone();
            for _ in 0..1 + rng.below(3) {
                if c.is_empty() {
                    break;
                }
                let i = rng.below(c.len());
                match rng.below(5) {
                    0 => {
                        c.remove(i);
                    }
                    1 => c.insert(i, '('),
                    2 => c.insert(i, ')'),
                    3 => c[i] = ['?', ' ', '\u{0}', 'é', ';'][rng.below(5)],
                    _ => c.truncate(i),
                }
            }
            let damaged: String = c.into_iter().collect();
            let _ = Description::from_kif(&damaged);
        }
    }
    for junk in [
        "", "(", ")", "((((", "(<=", "(<= ())", "(role)", "(?x)", "(not p)", "\u{0}",
    ] {
        let _ = Description::from_kif(junk);
    }
}
