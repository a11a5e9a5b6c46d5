//! `yomi othello solve`: the position as two words or one string (Edax's form, an OBF
//! line), a best move with its score and principal variation by default, every move's
//! score with `--all`, win/draw/loss with `--wld`.

mod common;

use common::yomi;

/// 11 empties, Black to move.
const BOARD: &str = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOXXXXXO--X--OOOO-O";

#[test]
fn solve_gives_the_best_move_score_and_a_principal_variation_in_every_form() {
    let two_words = yomi(&["othello", "solve", BOARD, "X"]);
    two_words
        .ok()
        .says(&["best move ", "score ", "principal variation: "]);
    let one_string = format!("{BOARD}X");
    yomi(&["othello", "solve", &one_string]).ok();
    let obf = format!("{BOARD} X; g8:+0;");
    yomi(&["othello", "solve", &obf]).ok();
    let line = |run: &common::Run, prefix: &str| {
        run.stdout
            .lines()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no {prefix:?} line:\n{}", run.stdout))
            .to_string()
    };
    // The same answer whichever form the position came in.
    assert_eq!(
        line(&two_words, "best move"),
        line(&yomi(&["othello", "solve", &one_string]), "best move")
    );
    // The best move's score is the top of `--all`'s list, and the PV starts with a move
    // that scores it.
    let all = yomi(&["othello", "solve", BOARD, "X", "--all"]);
    all.ok();
    let best = line(&two_words, "best move");
    let score = best.rsplit(' ').next().unwrap();
    let first = all.stdout.lines().nth(1).unwrap();
    assert!(
        first.ends_with(&format!(": {score}")),
        "{best} vs\n{}",
        all.stdout
    );
    let pv = line(&two_words, "principal variation: ");
    let pv_first = pv
        .trim_start_matches("principal variation: ")
        .split(' ')
        .next()
        .unwrap();
    assert!(
        all.stdout
            .lines()
            .any(|l| l == format!("{pv_first}: {score}")),
        "{pv} vs\n{}",
        all.stdout
    );
    // Win/draw/loss agrees with the exact score's sign.
    let wld = yomi(&["othello", "solve", BOARD, "X", "--wld"]);
    wld.ok();
    let verdict = match score.parse::<i32>().unwrap().signum() {
        1 => "win for X",
        0 => "draw for X",
        _ => "loss for X",
    };
    wld.says(&[verdict]);
}

#[test]
fn solve_refuses_a_bad_position_with_a_clear_error() {
    yomi(&["othello", "solve", "XO", "X"]).fails(2, &["64"]);
    yomi(&["othello", "solve", BOARD, "Z"]).fails(2, &["Z"]);
}

/// FFO #40: 20 empties, Black to move, best move a2 scoring +38.
const FFO40: &str = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------";

#[test]
fn solve_on_two_threads_and_within_a_limit() {
    let two = yomi(&["othello", "solve", FFO40, "X", "--threads", "2"]);
    two.ok().says(&["best move a2, score +38"]);
    // A node budget far too small: the solve says it stopped instead of giving a score.
    let cut = yomi(&["othello", "solve", FFO40, "X", "--nodes", "5000"]);
    cut.ok().says(&["stopped by the limit"]);
    assert!(!cut.stdout.contains("score +38"), "{}", cut.stdout);
    // A generous time limit changes nothing.
    yomi(&["othello", "solve", FFO40, "X", "--time", "600"])
        .ok()
        .says(&["best move a2, score +38"]);
    yomi(&["othello", "solve", FFO40, "X", "--time", "0"]).fails(2, &["--time"]);
    yomi(&["othello", "solve", FFO40, "X", "--threads", "0"]).fails(2, &["threads"]);
}

/// `othello nboard --nodes` and `othello gtp --nodes`: a node cap answers a deep search at
/// once however long the move time, the same way each run; 0 is a usage error.
#[test]
fn protocol_engines_take_a_node_cap() {
    use common::yomi_with_input;
    let script = "nboard 2\nset depth 40\ngo\nhint 2\n";
    let args = ["othello", "nboard", "--nodes", "3000", "--move-time", "600"];
    let a = yomi_with_input(&args, script);
    a.ok().says(&["=== ", "search "]);
    let moves = |text: &str| -> Vec<String> {
        text.lines()
            .map(|l| l.rsplit_once('/').map_or(l, |(head, _)| head).to_string())
            .collect()
    };
    let b = yomi_with_input(&args, script);
    assert_eq!(moves(&a.stdout), moves(&b.stdout));
    yomi_with_input(
        &["othello", "gtp", "--nodes", "3000", "--move-time", "600"],
        "1 genmove b\n",
    )
    .ok()
    .says(&["=1 "]);
    yomi(&["othello", "nboard", "--nodes", "0"]).fails(2, &["--nodes must be at least 1"]);
}
