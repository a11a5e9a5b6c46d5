//! The blueness estimator on hand-built move sequences, the registry, and short games.

use yomi_core::arena::play::play_game;
use yomi_core::{Game, Player, Rng};
use yomi_geister::estimate::update;
use yomi_geister::{registry, BluenessEstimator, Geister, GeisterState};

fn state(game: &Geister, text: &str) -> GeisterState {
    game.parse_state(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Feeds `moves` (from `start`) to a fresh estimator; returns it and the final state.
fn run(game: &Geister, start: &str, moves: &[&str]) -> (BluenessEstimator, GeisterState) {
    let mut s = state(game, start);
    let mut est = BluenessEstimator::new();
    for m in moves {
        let mv = game
            .parse_move(&s, m)
            .unwrap_or_else(|e| panic!("{m}: {e}"));
        let mover = s.to_move();
        est.observe_move(game, &s, mover, mv);
        game.play(&mut s, mv).unwrap();
    }
    (est, s)
}

fn sq(game: &Geister, x: usize, y: usize) -> u8 {
    game.square(x, y)
}

#[test]
fn each_rule_of_the_table() {
    let g = Geister::standard();
    let p1 = Player(1);
    // No contact before or after, reaching row 2 as seen from the first player: +10.
    let (e, _) = run(
        &g,
        "....r./....../....../..b..R/....../B..... 1 21 -",
        &["23S"],
    );
    assert_eq!(e.score(p1, sq(&g, 2, 4)), update::FREE_NEAR);
    assert_eq!(e.score(p1, sq(&g, 4, 0)), 0.0);
    // Forward into contact far from us: -1.5.
    let (e, _) = run(
        &g,
        "....r./..b.../....../..R.../....../B..... 1 21 -",
        &["21S"],
    );
    assert_eq!(e.score(p1, sq(&g, 2, 2)), update::FORWARD_CONTACT);
    // Sideways into contact: -1.0.
    let (e, _) = run(
        &g,
        "....r./....../.b..../..R.../....../B..... 1 21 -",
        &["12E"],
    );
    assert_eq!(e.score(p1, sq(&g, 2, 2)), update::SIDEWAYS_CONTACT);
    // Forward into contact in row 2: +2.5.
    let (e, _) = run(
        &g,
        "....r./....../....../.b..../B...../.....R 1 21 -",
        &["13S"],
    );
    assert_eq!(e.score(p1, sq(&g, 1, 4)), update::FORWARD_CONTACT_NEAR);
    // Leaving contact: forward +4, sideways +1.5; the other ghost in contact stayed: -1.2.
    let start = "b...../....../.rRb../....../....../B..... 1 21 -";
    let (e, _) = run(&g, start, &["32S"]);
    assert_eq!(e.score(p1, sq(&g, 3, 3)), update::FORWARD_FREED);
    assert_eq!(e.score(p1, sq(&g, 1, 2)), update::STAYED_IN_CONTACT);
    assert_eq!(e.score(p1, sq(&g, 0, 0)), 0.0);
    let (e, _) = run(&g, start, &["32E"]);
    assert_eq!(e.score(p1, sq(&g, 4, 2)), update::FREED);
    assert_eq!(
        e.score(p1, sq(&g, 3, 2)),
        0.0,
        "the score moved with the ghost"
    );
    // The first player's ghosts are scored from the second player's side: row 2 as seen
    // from the second player is y = 1.
    let (e, _) = run(
        &g,
        "....br/....../B...../....../....../.....R 0 20 -",
        &["02N"],
    );
    assert_eq!(e.score(Player(0), sq(&g, 0, 1)), update::FREE_NEAR);
}

#[test]
fn scores_accumulate_follow_ghosts_and_vanish_on_capture() {
    let g = Geister::standard();
    let p1 = Player(1);
    // The second player's b on (3,2) leaves contact (+1.5), then walks down free into
    // row 2 (+10); the first player then captures the r on (1,2).
    let (e, s) = run(
        &g,
        "b...../....../.rRb../....../....../B..... 1 21 -",
        &["32E", "05N", "42S", "04E", "43S", "22W"],
    );
    assert_eq!(e.score(p1, sq(&g, 4, 4)), update::FREED + update::FREE_NEAR);
    // r on (1,2) stayed in contact once (-1.2), then was captured.
    assert_eq!(e.score(p1, sq(&g, 1, 2)), 0.0);
    assert_eq!(s.red(p1), 0, "the capture took the last red");
}

#[test]
fn estimate_colours_the_highest_scores_blue() {
    let g = Geister::standard();
    let p1 = Player(1);
    // Truth: b (0,0) and b (3,2) blue, r (1,2) red. After 32E the scores are
    // (4,2) +1.5, (0,0) 0, (1,2) -1.2: two blues on the board go to (4,2) and (0,0).
    let (e, s) = run(
        &g,
        "b...../....../.rRb../....../....../B..... 1 21 -",
        &["32E"],
    );
    let mut rng = Rng::seed_from_u64(1);
    let est = e.estimate(&g, &s, Player(0), &mut rng);
    assert_eq!(est.blue(p1), 1 << sq(&g, 4, 2) | 1 << sq(&g, 0, 0));
    assert_eq!(est.red(p1), 1 << sq(&g, 1, 2));
    assert_eq!(est.blue(Player(0)), s.blue(Player(0)));
    // Swap the true colours: the estimate depends only on what the first player sees.
    let swapped = state(&g, "r...../....../.bRr../....../....../B..... 1 21 -");
    let mut e2 = BluenessEstimator::new();
    let mut s2 = swapped;
    let mv = g.parse_move(&s2, "32E").unwrap();
    e2.observe_move(&g, &s2, Player(1), mv);
    g.play(&mut s2, mv).unwrap();
    // One blue on the board now: it goes to the top score, (4,2).
    let est2 = e2.estimate(&g, &s2, Player(0), &mut rng);
    assert_eq!(est2.blue(p1), 1 << sq(&g, 4, 2));
    // Ties are broken at random: from the set-up, every square is sometimes blue.
    let s0 = g.state_with_setups([yomi_geister::Setup(0x0F), yomi_geister::Setup(0x0F)]);
    let fresh = BluenessEstimator::new();
    let mut seen = 0u64;
    for _ in 0..200 {
        let est = fresh.estimate(&g, &s0, Player(0), &mut rng);
        assert_eq!(est.blue(p1).count_ones(), 4);
        seen |= est.blue(p1);
    }
    assert_eq!(seen, s0.blue(p1) | s0.red(p1));
}

#[test]
fn registry_builds_and_explains() {
    let g = Geister::standard();
    let r = registry();
    for spec in [
        "random",
        "mcts:iters=100,dets=4",
        "estimate",
        "estimate:iters=100",
        "estimate:inner=flatmc,n=5",
        "estimate:inner=random",
    ] {
        let a = r
            .build(&g, spec, 1)
            .unwrap_or_else(|e| panic!("{spec}: {e}"));
        assert_eq!(a.name(), spec);
    }
    assert!(r.build(&g, "estimate:inner=estimate", 1).is_err());
    let e = r
        .build(&g, "estimate:zebra=1", 1)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("zebra"), "{e}");
    assert!(r.build(&g, "estimate:inner=nothing", 1).is_err());
}

#[test]
fn agents_finish_games_on_every_variant() {
    let r = registry();
    for (game, a, b) in [
        (
            Geister::standard(),
            "estimate:iters=40",
            "mcts:iters=40,dets=4",
        ),
        (Geister::perfect(), "mcts:iters=40", "random"),
        (Geister::mini(), "estimate:iters=40", "random"),
    ] {
        let mut seats = vec![r.build(&game, a, 1).unwrap(), r.build(&game, b, 2).unwrap()];
        let played = play_game(&game, &mut seats, 1000).unwrap();
        assert_eq!(played.returns.iter().sum::<f64>(), 0.0, "{}", game.name());
    }
}

/// UCT with random playouts is far stronger than random play on the 5×4 board (a cheap
/// strength check; the 6×6 figures are measured by the `baseline` example).
#[test]
fn mcts_beats_random_on_the_mini_board() {
    let game = Geister::mini();
    let r = registry();
    let mut points = 0.0;
    let games = 20;
    for i in 0..games {
        let mcts = r.build(&game, "mcts:iters=300", 10 + i).unwrap();
        let rand = r.build(&game, "random", 100 + i).unwrap();
        let seat = (i % 2) as usize;
        let mut seats = if seat == 0 {
            vec![mcts, rand]
        } else {
            vec![rand, mcts]
        };
        let played = play_game(&game, &mut seats, 1000).unwrap();
        points += (played.returns[seat] + 1.0) / 2.0;
    }
    assert!(
        points >= 0.75 * games as f64,
        "mcts scored {points}/{games}"
    );
}

/// The guard (issue 18: the estimate lost to Geister-cpp-lib's rush player, whose blue
/// ghost walks straight for an exit, scored as a red bluff on the way): a ghost that came
/// nearer to an exit on each of its last two moves and could escape within `guard` moves
/// is coloured blue whatever its score; one step nearer is not enough, and with a single
/// red left the guard stands down.
#[test]
fn the_guard_colours_a_ghost_running_for_an_exit_blue() {
    let g = Geister::standard();
    let p1 = Player(1);
    let start = "....rr/.b..../....../..R.../....../...B.. 1 21 -";
    let mut rng = Rng::seed_from_u64(3);
    // One step nearer: (1,2), 5 moves from escaping by (0,5). Not running yet.
    let (e, s) = run(&g, start, &["11S"]);
    let rusher = sq(&g, 1, 2);
    assert_eq!(
        e.estimate_guarded(&g, &s, Player(0), 5, &mut rng).blue(p1) & 1 << rusher,
        0
    );
    // Two steps nearer, the second into contact (scored -1.5 as a bluff): (1,3), 4 moves
    // from escaping.
    let (e, s) = run(&g, start, &["11S", "35N", "12S"]);
    let rusher = sq(&g, 1, 3);
    assert_eq!(e.score(p1, rusher), update::FORWARD_CONTACT);
    let plain = e.estimate(&g, &s, Player(0), &mut rng);
    assert_eq!(
        plain.blue(p1) & 1 << rusher,
        0,
        "the paper's estimate: a red"
    );
    let guarded = e.estimate_guarded(&g, &s, Player(0), 5, &mut rng);
    assert_eq!(guarded.blue(p1), 1 << rusher);
    // Out of the guard's reach (4 moves > 3): the estimate as before.
    let far = e.estimate_guarded(&g, &s, Player(0), 3, &mut rng);
    assert_eq!(far.blue(p1) & 1 << rusher, 0);
    // A single red left: the guard stands down.
    let (e, s) = run(
        &g,
        "....r./.b..../....../..R.../....../...B.. 1 21 -",
        &["11S", "35N", "12S"],
    );
    let one_red = e.estimate_guarded(&g, &s, Player(0), 5, &mut rng);
    assert_eq!(one_red.blue(p1) & 1 << sq(&g, 1, 3), 0);
}

#[test]
fn the_guard_is_an_estimate_parameter_with_bounds() {
    let g = Geister::standard();
    let r = registry();
    assert!(r.build(&g, "estimate:guard=5,iters=10", 1).is_ok());
    for bad in ["estimate:guard=65", "estimate:guard=-1", "estimate:guard=x"] {
        let err = r.build(&g, bad, 1).err().expect(bad).to_string();
        assert!(err.contains("guard"), "{bad}: {err}");
    }
}
