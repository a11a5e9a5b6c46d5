//! End-to-end tests of `yomi cgt`: the real binary on textbook games.

use std::process::Command;

fn yomi_cgt(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_yomi"))
        .arg("cgt")
        .args(args)
        .output()
        .expect("run yomi");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn issue_examples() {
    let (code, out, err) = yomi_cgt(&["{2|-1}"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("canonical:   {2|-1}"), "{out}");
    assert!(out.contains("mean:        1/2"), "{out}");
    assert!(out.contains("temperature: 3/2"), "{out}");
    assert!(
        out.contains("left wall:   [-1, 3/2]: 2 - t; [3/2, ∞): 1/2"),
        "{out}"
    );
    assert!(out.contains("cool 1:      {1|0}"), "{out}");

    let (code, out, err) = yomi_cgt(&["{1|0}", "--cool", "3/2"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("cool 1/2:    1/2*"), "{out}");
    assert!(out.contains("cool 1:      1/2"), "{out}");
    assert!(out.contains("cool 3/2:    1/2"), "{out}");
    assert!(out.contains("outcome:     N"), "{out}");
}

#[test]
fn ups_stars_comparison_and_ascii() {
    let (code, out, err) = yomi_cgt(&["{0|*}", "--compare", "*"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("canonical:   ↑"), "{out}");
    assert!(out.contains("compare:     ↑ ‖ *"), "{out}");
    let (code, out, _) = yomi_cgt(&["^+^+*", "--ascii"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("canonical:   ^^*"), "{out}");
    let (code, out, _) = yomi_cgt(&["*+*"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("outcome:     P"), "{out}");
    assert!(out.contains("number:      0"), "{out}");
}

#[test]
fn a_canonical_form_too_long_to_read_back_is_printed_with_a_note() {
    // Found by the `cgt` fuzz target: 71 bytes whose canonical form prints past the parser's
    // 16 KiB cap on a game's text.
    let game = "-+-5--{{0|0}|{*|-28}}-{{0-{{0|0}|{*|-28}}-{{0|0}|{-*|-24}}|0}|{-*|-24}}";
    let (code, out, err) = yomi_cgt(&["--ascii", "--", game]);
    assert_eq!(code, Some(0), "{err}");
    let form = out
        .lines()
        .find_map(|l| l.strip_prefix("canonical:   "))
        .expect("a canonical form");
    assert!(form.len() > 16 * 1024, "{} bytes", form.len());
    assert!(
        err.contains(&format!(
            "note: the canonical form above is {} bytes long, more than the 16384 bytes",
            form.len()
        )),
        "{err}"
    );
    let (code, _, err) = yomi_cgt(&["--", form]);
    assert_eq!(code, Some(2), "it is refused as input: {err}");
    assert!(err.contains("input longer than 16384 bytes"), "{err}");
    // A short form gets no note.
    let (_, _, err) = yomi_cgt(&["{2|-1}"]);
    assert!(!err.contains("note:"), "{err}");
}

#[test]
fn bad_input_is_a_usage_error() {
    let (code, _, err) = yomi_cgt(&["{1|0"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("expected ',', '|' or '}' at byte 4"), "{err}");
    assert!(!err.contains("panicked"));
    let (code, _, err) = yomi_cgt(&["1", "--cool", "-1/2"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("must be at least 0"), "{err}");
    let (code, _, err) = yomi_cgt(&["1/3"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("not a power of two"), "{err}");
}

#[test]
fn cooling_128_0_minus_1_answers_quickly() {
    let start = std::time::Instant::now();
    let (code, out, err) = yomi_cgt(&["{{128|0}|-1}"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("temperature: 1"), "{out}");
    assert!(out.contains("cool 1/2:    {{127|0}|-1/2}"), "{out}");
    assert!(out.contains("cool 1:      {{126|0}|0}"), "{out}");
    assert!(start.elapsed().as_secs() < 10, "{:?}", start.elapsed());
}

#[test]
fn a_game_too_large_to_analyse_stops_with_a_clear_error() {
    let start = std::time::Instant::now();
    let (code, out, err) = yomi_cgt(&["*256 + {4294967296|0}", "--work-limit", "1000000"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(err.contains("too large to analyse"), "{err}");
    assert!(err.contains("--work-limit"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(start.elapsed().as_secs() < 10, "{:?}", start.elapsed());
}
