//! UCT+dZ: playout features, the selection rule, coefficient files, the discriminant fit,
//! the test-set format and the registered variants.

use std::sync::Arc;

use yomi_core::search::mcts::{ChildStats, LeafEvaluator, Selection, Uniform};
use yomi_core::search::Evaluator;
use yomi_core::{Game, Player, Rng};
use yomi_othello::agents::DZ_VARIANTS;
use yomi_othello::dz::{
    band, dz_inputs, move_number, DzCoefficients, DzRollout, DzRow, DzTable, UcbDz, BANDS,
    FEATURES, INPUTS,
};
use yomi_othello::dzfit::fisher_lda;
use yomi_othello::eval::OthelloEval;
use yomi_othello::testsets::{self, LabelKind};
use yomi_othello::{registry, Othello, OthelloState};

fn position_after(moves: usize, seed: u64) -> OthelloState {
    let mut rng = Rng::seed_from_u64(seed);
    let mut buf = Vec::new();
    loop {
        let mut s = Othello.initial_state();
        while move_number(&s) < moves as u32 && !Othello.is_terminal(&s) {
            let mv = Othello.random_move(&s, &mut rng, &mut buf).unwrap();
            Othello.apply(&mut s, mv);
        }
        if !Othello.is_terminal(&s) && s.legal().count_ones() >= 2 {
            return s;
        }
    }
}

#[test]
fn playout_features_sum_the_evaluations_per_band_and_side() {
    let eval: Arc<dyn Evaluator<Othello>> = Arc::new(OthelloEval::shipped());
    let root = position_after(20, 3);
    for cutoff in [None, Some(10)] {
        let mut leaf = DzRollout::new(Uniform, eval.clone(), cutoff);
        leaf.begin_search(&Othello, &root);
        assert_eq!(leaf.feature_count(), FEATURES);
        let mut s = root;
        let r = leaf.evaluate(
            &Othello,
            &mut s,
            &mut Rng::seed_from_u64(9),
            &mut Vec::new(),
        );
        let f = leaf.features().to_vec();
        // Replay the same playout (same generator) and sum by hand.
        let mut want = [0.0; FEATURES];
        want[0] = 1.0;
        want[1] = 20.0;
        let mut t = root;
        let mut rng = Rng::seed_from_u64(9);
        let mut buf = Vec::new();
        let mut played = 0;
        let mut last = None;
        while !Othello.is_terminal(&t) {
            let v = eval.evaluate(&Othello, &t);
            let k = band(20, move_number(&t));
            let side = if t.to_move() == Player(0) { 0 } else { BANDS };
            want[2 + side + k] += v.get(Player(0));
            last = Some(v);
            if Some(played) == cutoff {
                break;
            }
            let mv = Othello.random_move(&t, &mut rng, &mut buf).unwrap();
            Othello.apply(&mut t, mv);
            played += 1;
        }
        for (a, b) in f.iter().zip(&want) {
            assert!((a - b).abs() < 1e-12, "{f:?} vs {want:?}");
        }
        if cutoff.is_some() {
            assert_eq!(r, last.unwrap());
            assert!(f[2 + 1] == 0.0 && f[2 + BANDS + 1] == 0.0, "{f:?}");
        } else {
            assert_eq!(s, t);
            assert_eq!(r, Othello.returns(&t));
            // A random game from move 20 reaches the last band.
            assert!(
                f[2 + BANDS - 1] != 0.0 || f[2 + 2 * BANDS - 1] != 0.0,
                "{f:?}"
            );
        }
    }
    assert_eq!(band(20, 21), 0);
    assert_eq!(band(20, 30), 0);
    assert_eq!(band(20, 31), 1);
    assert_eq!(band(20, 20), 0);
    assert_eq!(band(0, 60), BANDS - 1);
}

#[test]
fn inputs_are_oriented_for_the_chooser() {
    let mut f = [0.0; FEATURES];
    f[0] = 2.0;
    f[1] = 60.0; // two playouts from a root at move 30
    f[2] = 1.0; // black to move, band 0
    f[2 + BANDS + 1] = -0.5; // white to move, band 1
    let b = dz_inputs(Player(0), 4, 3.0, &f).unwrap();
    let w = dz_inputs(Player(1), 4, 1.0, &f).unwrap();
    assert_eq!(b[0], 0.75);
    assert_eq!((b[1], b[1 + BANDS + 1]), (0.5, -0.25));
    // For white, own = white-to-move positions from white's side.
    assert_eq!((w[2], w[1 + BANDS]), (0.25, -0.5));
    assert!(dz_inputs(Player(0), 0, 0.0, &f).is_none());
    assert!(dz_inputs(Player(0), 3, 1.0, &[0.0; FEATURES]).is_none());
}

#[test]
fn ucb_dz_adds_the_discriminant_of_the_root_stage() {
    let mut c30 = [0.0; INPUTS];
    c30[0] = -0.5;
    c30[1] = 2.0;
    let mut c50 = [0.0; INPUTS];
    c50[1] = 100.0;
    let coefficients = DzCoefficients::new(&[
        DzRow {
            stage: 50,
            coef: c50,
        },
        DzRow {
            stage: 30,
            coef: c30,
        },
    ]);
    let rule = UcbDz {
        c: 0.7,
        weight: 1.5,
        coefficients,
    };
    let mut f = [0.0; FEATURES];
    f[0] = 4.0;
    f[1] = 4.0 * 32.0; // root at move 32: nearest row is S=30
    f[2] = 2.0;
    let child = ChildStats {
        chooser: Player(0),
        visits: 5,
        total: 3.0,
        prior: 0.0,
        eval: 0.0,
        features: &f,
        amaf_visits: 0,
        amaf_total: 0.0,
    };
    let t = rule.prepare(100);
    let e = -0.5 * 0.6 + 2.0 * 0.5;
    let want = 0.6 + 1.5 * e + 0.7 * (2.0 * 100f64.ln() / 5.0).sqrt();
    assert!((rule.score(t, &child) - want).abs() < 1e-12);
    // No features: plain UCB1.
    let plain = ChildStats {
        features: &[],
        ..child
    };
    let ucb = 0.6 + 0.7 * (2.0 * 100f64.ln() / 5.0).sqrt();
    assert!((rule.score(t, &plain) - ucb).abs() < 1e-12);
    assert!(rule.score(t, &ChildStats { visits: 0, ..child }) > 1e8);
}

#[test]
fn coefficient_files_round_trip_and_reject_garbage() {
    let shipped = DzTable::shipped();
    for kind in yomi_othello::dz::KINDS {
        let rows = shipped.rows(kind);
        assert!(!rows.is_empty(), "no shipped rows for {kind}");
        assert!(
            rows.iter().any(|r| r.coef.iter().any(|c| *c != 0.0)),
            "{kind}: all-zero coefficients"
        );
    }
    let text = shipped.to_text("round trip");
    assert_eq!(&DzTable::parse(&text).unwrap(), shipped);
    let row = " 20 0 1 2 3 4 5 6 7 8";
    assert!(DzTable::parse(&format!("random{row}")).is_ok());
    for bad in [
        format!("zebra{row}"),
        "random 20 1 2".to_string(),
        "random x 0 1 2 3 4 5 6 7 8".to_string(),
        "random 20 0 1 2 3 4 5 6 7 nan".to_string(),
        "random 20 0 1 2 3 4 5 6 7 z".to_string(),
    ] {
        let e = DzTable::parse(&format!("# c\n{bad}\n")).unwrap_err();
        assert_eq!(e.line, 2, "{bad}");
    }
}

#[test]
fn fisher_lda_recovers_the_discriminant_direction() {
    // Two classes with covariance diag(1, 4) and means 1 apart in each input, plus an
    // input without variance: w = S⁻¹ Δμ = (1, 0.25, 0).
    let mut rng = Rng::seed_from_u64(5);
    let mut normal = || {
        let (u, v) = (rng.unit_f64().max(1e-12), rng.unit_f64());
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    };
    let mut data = Vec::new();
    for i in 0..20_000 {
        let y = i % 2 == 0;
        let m = if y { 1.0 } else { 0.0 };
        data.push((vec![m + normal(), m + 2.0 * normal(), 3.0], y));
    }
    let l = fisher_lda(&data).unwrap();
    assert!((l.coef[0] - 1.0).abs() < 0.05, "{l:?}");
    assert!((l.coef[1] - 0.25).abs() < 0.02, "{l:?}");
    assert_eq!(l.coef[2], 0.0);
    assert!((l.d2 - 1.25).abs() < 0.08, "{l:?}");
    assert!(fisher_lda(&data[..1]).is_none());
    let one_class: Vec<_> = data.iter().filter(|d| d.1).cloned().collect();
    assert!(fisher_lda(&one_class).is_none());
}

#[test]
fn test_set_lines_round_trip_and_reject_garbage() {
    let line = "---------------------------OX------XO--------------------------- X; exact; (c,4),-2, (d,3),4, (e,6),0, (f,5),1";
    let p = testsets::parse_line(line).unwrap();
    assert_eq!(p.kind, LabelKind::Exact);
    assert_eq!(p.moves.len(), 4);
    assert_eq!(p.value("d3".parse().unwrap()), Some(4));
    assert!(p.is_critical());
    assert_eq!(testsets::parse_line(&p.to_line()).unwrap(), p);
    let start = "---------------------------OX------XO--------------------------- X";
    for bad in [
        format!("{start}; exact; (a,1),3"),   // not legal
        format!("{start}; exact; (c,4),99"),  // value out of range
        format!("{start}; exact; (c,4)"),     // no value
        format!("{start}; guess; (c,4),1"),   // unknown kind
        format!("{start}; exact; c4,1"),      // notation
        format!("{start}; exact; "),          // nothing listed
        start.to_string(),                    // no kind
        "XO X; exact; (c,4),1".to_string(),   // board
        format!("{start}; searchx; (c,4),1"), // depth
    ] {
        assert!(testsets::parse_line(&bad).is_err(), "{bad}");
    }
    let e = testsets::parse(&format!("# c\n{line}\n{start}; exact;\n")).unwrap_err();
    assert_eq!(e.line, 3);
}

#[test]
fn generated_positions_are_critical_and_exactly_labelled() {
    let mut cfg = testsets::GenConfig::new(52);
    cfg.count = 3;
    cfg.seed = 11;
    let set = testsets::generate(&cfg, |_| {});
    assert_eq!(set.len(), 3);
    let mut solver = yomi_othello::solver::Solver::new(16);
    for p in &set {
        assert_eq!(move_number(&p.state), 52);
        assert_eq!(p.kind, LabelKind::Exact);
        assert!(p.is_critical());
        assert_eq!(p.moves, solver.move_scores(&p.state));
    }
    let text = testsets::to_text("h", &set);
    assert_eq!(testsets::parse(&text).unwrap(), set);
}

#[test]
fn dz_variants_build_and_find_the_only_winning_move() {
    let reg = registry();
    for bad in ["uct+dz:iters=0", "uct+dz-break:break=0", "uct+dz:w=x"] {
        assert!(reg.build(&Othello, bad, 1).is_err(), "{bad}");
    }
    // Critical positions with 9 empties (some move wins, some loses), exactly solved.
    let mut solver = yomi_othello::solver::Solver::new(16);
    let mut found = Vec::new();
    let mut seed = 0;
    while found.len() < 8 {
        seed += 1;
        let s = position_after(51, seed);
        let scores = solver.move_scores(&s);
        if scores.iter().any(|x| x.1 > 0) && scores.iter().any(|x| x.1 < 0) {
            found.push((s, scores));
        }
    }
    // A uniformly random choice wins this often on average.
    let random: f64 = found
        .iter()
        .map(|(_, sc)| sc.iter().filter(|x| x.1 > 0).count() as f64 / sc.len() as f64)
        .sum();
    for variant in DZ_VARIANTS {
        let mut wins = 0;
        for (i, (s, scores)) in found.iter().enumerate() {
            let spec = format!("{variant}:iters=3000");
            let mut agent = reg.build(&Othello, &spec, i as u64).unwrap();
            assert_eq!(agent.name(), spec);
            let mv = agent.select_move(&Othello, s, s.to_move()).unwrap();
            wins += (scores.iter().find(|x| x.0 == mv).unwrap().1 > 0) as usize;
        }
        assert!(
            wins >= 6 && wins as f64 > random + 1.0,
            "{variant}: {wins} of 8 winning moves (random choice: {random:.1})"
        );
    }
}

#[test]
fn shipped_test_sets_parse_and_their_exact_labels_hold() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/testsets");
    let mut solver = yomi_othello::solver::Solver::new(18);
    for (file, stage) in [
        ("s20.txt", 20),
        ("s30.txt", 30),
        ("s40.txt", 40),
        ("s50.txt", 50),
    ] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        let set = testsets::parse(&text).unwrap();
        assert_eq!(set.len(), 300, "{file}");
        for (i, p) in set.iter().enumerate() {
            assert_eq!(move_number(&p.state), stage, "{file}");
            assert!(p.is_critical(), "{file}");
            if p.kind == LabelKind::Exact && i < 20 {
                assert_eq!(p.moves, solver.move_scores(&p.state), "{file}");
            }
        }
    }
}

/// Issue 17: every playout kind ships a fitted row for each stage of the paper's tables 7
/// and 8 (S = 20, 30, 40, 50), so no root falls back to a neighbouring stage's row.
#[test]
fn shipped_coefficients_have_a_row_for_every_stage_and_kind() {
    use yomi_othello::dz::{DzTable, KINDS};
    let table = DzTable::shipped();
    for kind in KINDS {
        let stages: Vec<u32> = table.rows(kind).iter().map(|r| r.stage).collect();
        assert_eq!(stages, [20, 30, 40, 50], "{kind}");
        let c = table.coefficients(kind);
        assert_eq!(c.row(40.0).map(|r| r.stage), Some(40), "{kind}");
    }
}
