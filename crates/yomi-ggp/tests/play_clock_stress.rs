//! Stress: the player never answers a PLAY after the play clock, move after move, with
//! every core kept busy by spinning threads, and while the rules still compile. The quick
//! tests always run (a few dozen searched moves; eight plays while compiling); the long
//! ones are `#[ignore]`d:
//!
//! ```sh
//! cargo test --release -p yomi-ggp --test play_clock_stress -- --ignored --nocapture
//! ```
//!
//! (`YOMI_GGP_STRESS_MOVES`, `YOMI_GGP_STRESS_CLOCK` and `YOMI_GGP_STRESS_MARGIN` override
//! the 1000-move test's numbers: 1000 searched moves at a 0.5 s clock, 0.2 s margin.)

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use yomi_core::{Game, Rng};
use yomi_ggp::http::post;
use yomi_ggp::player::{PlayerConfig, PlayerServer};
use yomi_ggp::trial::TrialConfig;
use yomi_ggp::{games, GdlGame};

/// Threads spinning until dropped (bounded by `limit` in any case).
struct Busy(Arc<AtomicBool>, Vec<std::thread::JoinHandle<()>>);

impl Busy {
    fn start(threads: usize, limit: Duration) -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let handles = (0..threads)
            .map(|_| {
                let stop = stop.clone();
                std::thread::spawn(move || {
                    let t = Instant::now();
                    let mut x = 0u64;
                    while !stop.load(Ordering::Relaxed) && t.elapsed() < limit {
                        for _ in 0..10_000 {
                            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
                        }
                        std::hint::black_box(x);
                    }
                })
            })
            .collect();
        Busy(stop, handles)
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
        for h in self.1.drain(..) {
            let _ = h.join();
        }
    }
}

/// What a stress run saw.
#[derive(Debug, Default)]
struct Seen {
    /// PLAY requests where the player had a choice (it searched).
    searched: usize,
    /// All PLAY requests.
    plays: usize,
    /// Replies after the play clock.
    late: usize,
    /// The slowest reply to a PLAY, seconds.
    slowest: f64,
    matches: usize,
    /// The player's own counters at the end.
    stats: yomi_ggp::player::PlayerStats,
}

/// Plays connect four matches against the player (it plays the first role, the test the
/// second at random) until it has searched `moves` times at `clock` seconds a move
/// (connect four, so that no search ends early on a solved tree).
fn stress(moves: usize, clock: f64, margin: f64) -> Seen {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let limit = Duration::from_secs_f64(moves as f64 * clock * 3.0 + 60.0);
    let _busy = Busy::start(cores, limit);
    let config = PlayerConfig {
        margin,
        // Every match starts at once: the play clock is under test, not the start clock.
        trial: TrialConfig {
            candidates: Vec::new(),
            ..TrialConfig::default()
        },
        ..PlayerConfig::default()
    };
    let server = PlayerServer::bind(config, "127.0.0.1:0").unwrap();
    let addr = server.local_addr().unwrap().to_string();
    let stop = server.stopper();
    let player = server.player();
    server.spawn(false);
    let game = GdlGame::from_kif("c4", games::CONNECT_FOUR).unwrap();
    let role = game.reasoner().role_names()[0].clone();
    let kif = game.reasoner().description().sheet.to_kif();
    let r = game.reasoner();
    let mut rng = Rng::seed_from_u64(11);
    let mut seen = Seen::default();
    let wait = Duration::from_secs_f64(clock + 5.0);
    let mut legal = Vec::new();
    while seen.searched < moves {
        let id = format!("stress{}", seen.matches);
        seen.matches += 1;
        let ready = post(
            &addr,
            "h",
            &format!("(start {id} {role} ({kif}) 5 {clock})"),
            wait,
        );
        assert_eq!(ready.as_deref(), Ok("ready"));
        let mut s = game.initial_state();
        let mut last = "nil".to_string();
        while !r.is_terminal(&s) {
            r.legal_into(&s, 0, &mut legal);
            let choice = legal.len() > 1;
            let t = Instant::now();
            let reply = post(&addr, "h", &format!("(play {id} {last})"), wait).unwrap();
            let took = t.elapsed().as_secs_f64();
            seen.plays += 1;
            seen.slowest = seen.slowest.max(took);
            if took >= clock {
                seen.late += 1;
            }
            if choice {
                seen.searched += 1;
            }
            let x = game.parse_action(&s, 0, &reply).unwrap();
            r.legal_into(&s, 1, &mut legal);
            let o = legal[rng.below(legal.len())];
            last = format!("({} {})", r.action_text(x), r.action_text(o));
            r.step(&mut s, &[x, o]);
        }
        assert_eq!(
            post(&addr, "h", &format!("(stop {id} {last})"), wait).as_deref(),
            Ok("done")
        );
    }
    stop();
    seen.stats = player.stats();
    seen
}

#[test]
fn player_never_answers_after_the_play_clock_with_the_cores_busy() {
    let seen = stress(24, 0.5, 0.2);
    eprintln!("{seen:?}");
    assert_eq!(seen.late, 0, "{seen:?}");
}

#[test]
#[ignore = "long: 1000 searched moves (YOMI_GGP_STRESS_MOVES, _CLOCK override)"]
fn player_never_answers_after_the_play_clock_over_1000_moves() {
    let moves = std::env::var("YOMI_GGP_STRESS_MOVES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    let clock = std::env::var("YOMI_GGP_STRESS_CLOCK")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.5);
    let margin = std::env::var("YOMI_GGP_STRESS_MARGIN")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.2);
    let seen = stress(moves, clock, margin);
    eprintln!("{moves} moves at {clock} s: {seen:?}");
    assert_eq!(seen.late, 0, "{seen:?}");
}

#[test]
#[ignore = "long: 200 searched moves at a 1 s play clock"]
fn player_never_answers_after_a_1_s_play_clock_over_200_moves() {
    let seen = stress(200, 1.0, 0.25);
    eprintln!("200 moves at 1 s: {seen:?}");
    assert_eq!(seen.late, 0, "{seen:?}");
}

/// A one-role sheet that reads and checks at once but takes seconds to ground (`seen`
/// has `n`² ground instances over the reachable cells), with two legal moves a state.
fn slow_to_ground(n: usize) -> String {
    let mut s = String::from(
        "(role p) (init (cell 0)) (legal p (go 1)) (legal p (go 2))\n\
         (<= (next (cell ?y)) (true (cell ?x)) (succ ?x ?y))\n\
         (<= (seen ?a ?b) (true (cell ?a)) (true (cell ?b)))\n\
         (<= terminal (true (cell ?x)) (seen ?x ?x) (last ?x))\n\
         (goal p 100)\n",
    );
    for i in 0..n {
        s.push_str(&format!("(succ {i} {})\n", i + 1));
    }
    s.push_str(&format!("(last {n})\n"));
    s
}

#[test]
fn player_never_answers_after_the_play_clock_while_compiling_with_the_cores_busy() {
    // The moves sent while rules compile (lazy evaluator) are bound by the same deadline.
    let clock = 0.5;
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let _busy = Busy::start(cores, Duration::from_secs(30));
    let config = PlayerConfig {
        margin: 0.2,
        ..PlayerConfig::default()
    };
    let server = PlayerServer::bind(config, "127.0.0.1:0").unwrap();
    let addr = server.local_addr().unwrap().to_string();
    let stop = server.stopper();
    let player = server.player();
    server.spawn(false);
    let wait = Duration::from_secs(5);
    let rules = slow_to_ground(450);
    let ready = post(
        &addr,
        "h",
        &format!("(start slow p ({rules}) 0.5 {clock})"),
        wait,
    );
    assert_eq!(ready.as_deref(), Ok("ready"));
    let mut last = "nil".to_string();
    let (mut late, mut moved, mut slowest) = (0, 0, 0.0f64);
    for k in 0..8 {
        let t = Instant::now();
        let reply = post(&addr, "h", &format!("(play slow {last})"), wait);
        let took = t.elapsed().as_secs_f64();
        slowest = slowest.max(took);
        if took >= clock {
            late += 1;
        }
        match reply {
            Ok(mv) => {
                assert!(mv == "(go 1)" || mv == "(go 2)", "{mv}");
                moved += 1;
            }
            Err(yomi_ggp::http::HttpError::Status { status: 503, .. }) => {}
            Err(e) => panic!("{e}"),
        }
        last = format!("((go {}))", 1 + k % 2);
    }
    stop();
    let stats = player.stats();
    eprintln!(
        "while compiling: {moved} moves of 8, {late} late, slowest {slowest:.3} s, {stats:?}"
    );
    assert_eq!(late, 0, "slowest {slowest:.3} s");
    // (Grounding takes seconds here, the eight plays a fraction of one.)
    assert!(stats.compiling > 0, "{stats:?}");
}
