//! The GGP player under hostile or careless clients: request sizes, slow and idle
//! connections, absurd clocks, long searches and compilations, and what ggp-base's players
//! accept (GET, START with extra arguments). Every server binds 127.0.0.1 on an ephemeral
//! port; every test ends within seconds.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use yomi_ggp::http::{post, HttpError};
use yomi_ggp::player::{PlayerConfig, PlayerServer};
use yomi_ggp::trial::TrialConfig;
use yomi_ggp::{games, GdlGame};

struct Running {
    addr: String,
    player: std::sync::Arc<yomi_ggp::player::GgpPlayer>,
    stop: Box<dyn Fn()>,
}

impl Drop for Running {
    fn drop(&mut self) {
        (self.stop)();
    }
}

fn serve(config: PlayerConfig) -> Running {
    let server = PlayerServer::bind(config, "127.0.0.1:0").unwrap();
    let addr = server.local_addr().unwrap().to_string();
    let stop = Box::new(server.stopper());
    let player = server.player();
    server.spawn(false);
    Running { addr, player, stop }
}

fn quick_config() -> PlayerConfig {
    PlayerConfig {
        margin: 0.15,
        header_timeout: Duration::from_secs(1),
        body_timeout: Duration::from_secs(1),
        // These tests time the protocol: `ready` at once, no playout trial spinning every
        // core (the trial has its own test below).
        trial: TrialConfig {
            candidates: Vec::new(),
            ..TrialConfig::default()
        },
        ..PlayerConfig::default()
    }
}

#[test]
fn a_long_enough_start_clock_goes_to_a_playout_trial_and_ready_still_comes_in_time() {
    let p = serve(PlayerConfig {
        margin: 0.15,
        ..PlayerConfig::default()
    });
    let kif = tictactoe_kif();
    let t = Duration::from_secs(10);
    let t0 = Instant::now();
    assert_eq!(
        post(&p.addr, "x", &format!("(start trial x ({kif}) 4 1)"), t).unwrap(),
        "ready"
    );
    let took = t0.elapsed();
    // The trial ends 0.3 s before the start clock less the margin (3.85 s); `ready` is in
    // time whatever a busy machine does to the trial's last game.
    assert!(took < Duration::from_secs(4), "{took:?}");
    assert!(
        took > Duration::from_secs(3),
        "ready after {took:?}: no trial ran"
    );
    let t1 = Instant::now();
    while p.player.stats().trials == 0 && t1.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(10));
    }
    let stats = p.player.stats();
    assert_eq!(stats.trials, 1, "{stats:?}");
    // The match then plays with the chosen policy, within the play clock.
    let t0 = Instant::now();
    let mv = post(&p.addr, "x", "(play trial nil)", t).unwrap();
    assert!(
        t0.elapsed() < Duration::from_millis(1000),
        "{:?}",
        t0.elapsed()
    );
    let game = GdlGame::from_kif("t", games::TICTACTOE).unwrap();
    game.parse_action(&yomi_core::Game::initial_state(&game), 0, &mv)
        .unwrap();
    // A start clock too short for a trial answers as soon as the rules are compiled.
    let t0 = Instant::now();
    assert_eq!(
        post(&p.addr, "o", &format!("(start short o ({kif}) 2 1)"), t).unwrap(),
        "ready"
    );
    assert!(t0.elapsed() < Duration::from_secs(1), "{:?}", t0.elapsed());
    assert_eq!(p.player.stats().trials, 1);
}

#[test]
fn aborting_a_match_ends_its_playout_trial() {
    let p = serve(PlayerConfig {
        margin: 0.15,
        ..PlayerConfig::default()
    });
    let kif = tictactoe_kif();
    let t = Duration::from_secs(30);
    let t0 = Instant::now();
    std::thread::scope(|sc| {
        let start = sc.spawn(|| post(&p.addr, "x", &format!("(start gone x ({kif}) 20 1)"), t));
        std::thread::sleep(Duration::from_millis(800));
        assert_eq!(post(&p.addr, "x", "(abort gone)", t).unwrap(), "aborted");
        // The trial stops at its next game instead of spinning every core for 19 s.
        assert_eq!(start.join().unwrap().unwrap(), "ready");
    });
    assert!(t0.elapsed() < Duration::from_secs(5), "{:?}", t0.elapsed());
    assert_eq!(p.player.stats().trials, 1);
}

/// [`quick_config`] with compiling held for longer than the tests below run: their plays
/// all come while the rules are still compiling, however fast the machine grounds.
fn slow_compile_config() -> PlayerConfig {
    PlayerConfig {
        compile_delay: Duration::from_secs(60),
        ..quick_config()
    }
}

fn tictactoe_kif() -> String {
    yomi_ggp::Description::from_kif(games::TICTACTOE)
        .unwrap()
        .sheet
        .to_kif()
}

/// Sends raw bytes, then reads whatever comes back until the server closes or `wait`
/// passes.
fn raw(addr: &str, bytes: &[u8], wait: Duration) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(wait)).unwrap();
    let _ = s.write_all(bytes);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

fn info_ok(addr: &str) {
    let t = Instant::now();
    let r = post(addr, "p", "(info)", Duration::from_secs(3));
    assert!(
        matches!(&r, Ok(b) if b.starts_with("((name yomi)")),
        "{r:?} after {:?}",
        t.elapsed()
    );
}

#[test]
fn content_length_of_a_terabyte_gets_413_and_the_player_lives_on() {
    let p = serve(quick_config());
    let reply = raw(
        &p.addr,
        b"POST / HTTP/1.0\r\nContent-Length: 1000000000000\r\n\r\n(info)",
        Duration::from_secs(3),
    );
    assert!(
        reply.starts_with("HTTP/1.1 413") || reply.starts_with("HTTP/1.0 413"),
        "{reply:?}"
    );
    // The process is still here and serving.
    info_ok(&p.addr);
    info_ok(&p.addr);
}

#[test]
fn oversized_request_head_is_refused_without_buffering_it() {
    let p = serve(quick_config());
    let mut s = TcpStream::connect(&p.addr).unwrap();
    s.set_write_timeout(Some(Duration::from_secs(3))).unwrap();
    s.write_all(b"POST / HTTP/1.1\r\nX-Long: ").unwrap();
    // Up to 32 MiB of one header line: the server must give up long before the end.
    let chunk = vec![b'a'; 64 << 10];
    let mut sent = 0usize;
    let t = Instant::now();
    while sent < 32 << 20 && t.elapsed() < Duration::from_secs(5) {
        match s.write(&chunk) {
            Ok(n) => sent += n,
            Err(_) => break,
        }
    }
    assert!(
        sent < 32 << 20,
        "the server took {sent} bytes of one header line"
    );
    drop(s);
    info_ok(&p.addr);
}

#[test]
fn idle_and_slow_partial_requests_do_not_block_the_player() {
    let p = serve(quick_config());
    // 100 connections that send half a request head and go quiet.
    let mut idle = Vec::new();
    for _ in 0..100 {
        let mut s = TcpStream::connect(&p.addr).unwrap();
        s.write_all(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Le")
            .unwrap();
        idle.push(s);
    }
    // 100 that send the head and half the body.
    for _ in 0..100 {
        let mut s = TcpStream::connect(&p.addr).unwrap();
        s.write_all(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n(in")
            .unwrap();
        idle.push(s);
    }
    // Others are answered meanwhile, several at once.
    let t = Instant::now();
    std::thread::scope(|sc| {
        for _ in 0..20 {
            sc.spawn(|| info_ok(&p.addr));
        }
    });
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    // The quiet ones are closed by the server within its timeouts (1 s here).
    let t = Instant::now();
    for s in &mut idle {
        s.set_read_timeout(Some(Duration::from_secs(4))).unwrap();
        let mut buf = [0u8; 256];
        let r = s.read(&mut buf);
        // Closed (end of file, a 408, or a reset), not still waiting.
        assert!(
            !matches!(&r, Err(e) if matches!(
                e.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            )),
            "{r:?}"
        );
    }
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    info_ok(&p.addr);
}

/// Issue 15: idle connections held every place until their header timeout (10 s by
/// default), so 256 of them locked the game host out and its PLAYs went unanswered. A new
/// connection now takes the place of the oldest one still waiting for its request head.
#[test]
fn idle_connections_give_their_places_to_new_ones() {
    let p = serve(PlayerConfig {
        header_timeout: Duration::from_secs(30),
        ..PlayerConfig::default()
    });
    // Every one of the default 256 places taken: half by silent connections, half by
    // connections dribbling a request head.
    let mut idle = Vec::new();
    for i in 0..256 {
        let mut s = TcpStream::connect(&p.addr).unwrap();
        if i % 2 == 1 {
            s.write_all(b"POST / HTTP/1.1\r\n").unwrap();
        }
        idle.push(s);
    }
    std::thread::sleep(Duration::from_millis(200));
    // The host is served at once, again and again, long before the header timeout.
    let t = Instant::now();
    for _ in 0..5 {
        info_ok(&p.addr);
    }
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    // The oldest idle ones were closed to make room.
    idle[0]
        .set_read_timeout(Some(Duration::from_secs(2)))
        .unwrap();
    let mut buf = [0u8; 16];
    assert!(matches!(idle[0].read(&mut buf), Ok(0) | Err(_)));
    drop(idle);
}

#[test]
fn connections_beyond_the_bound_are_refused_when_every_place_is_answering() {
    let p = serve(PlayerConfig {
        max_connections: 8,
        body_timeout: Duration::from_secs(4),
        ..quick_config()
    });
    // Eight requests whose heads are in and whose bodies never come: each is being
    // answered (until the 4 s body timeout), so none gives its place away.
    let mut busy = Vec::new();
    for _ in 0..8 {
        let mut s = TcpStream::connect(&p.addr).unwrap();
        s.write_all(b"POST / HTTP/1.1\r\nContent-Length: 100\r\n\r\n(inf")
            .unwrap();
        busy.push(s);
    }
    // Time for the server to read the eight heads, even on a loaded machine.
    std::thread::sleep(Duration::from_millis(1000));
    let t = Instant::now();
    // The ninth is closed at once rather than queued behind them.
    let r = raw(
        &p.addr,
        b"POST / HTTP/1.0\r\nContent-Length: 6\r\n\r\n(info)",
        Duration::from_secs(3),
    );
    assert!(!r.contains("200 OK"), "{r:?}");
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    // Once their bodies time out, requests are served again.
    std::thread::sleep(Duration::from_millis(3500));
    info_ok(&p.addr);
    drop(busy);
}

#[test]
fn connections_that_send_nothing_are_closed_within_the_header_timeout() {
    let p = serve(PlayerConfig {
        max_connections: 8,
        ..quick_config()
    });
    // Every place taken by a connection that never sends a byte.
    let mut silent: Vec<TcpStream> = (0..8)
        .map(|_| TcpStream::connect(&p.addr).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(100));
    let t = Instant::now();
    for s in &mut silent {
        s.set_read_timeout(Some(Duration::from_secs(4))).unwrap();
        let mut buf = [0u8; 256];
        let r = s.read(&mut buf);
        assert!(
            !matches!(&r, Err(e) if matches!(
                e.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            )),
            "still open after {:?}: {r:?}",
            t.elapsed()
        );
    }
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    info_ok(&p.addr);
}

#[test]
fn absurd_clocks_are_refused_with_a_clear_error() {
    let p = serve(quick_config());
    let kif = tictactoe_kif();
    let t = Duration::from_secs(5);
    for (sc, pc) in [("10", "1e17"), ("10", "1e20"), ("1e20", "1"), ("10", "0")] {
        let e = post(&p.addr, "x", &format!("(start m1 x ({kif}) {sc} {pc})"), t).unwrap_err();
        match e {
            HttpError::Status {
                status: 400, body, ..
            } => {
                assert!(body.contains("clock"), "{body}")
            }
            e => panic!("{sc} {pc}: {e:?}"),
        }
    }
    // The player is free and works normally afterwards.
    assert!(post(&p.addr, "x", "(info)", t)
        .unwrap()
        .contains("available"));
    assert_eq!(
        post(&p.addr, "x", &format!("(start m2 x ({kif}) 5 1)"), t).unwrap(),
        "ready"
    );
    let mv = post(&p.addr, "x", "(play m2 nil)", t).unwrap();
    let game = GdlGame::from_kif("t", games::TICTACTOE).unwrap();
    game.parse_action(&yomi_core::Game::initial_state(&game), 0, &mv)
        .unwrap();
}

#[test]
fn clocks_over_the_ceiling_are_refused_even_with_an_unbounded_max_clock() {
    // A library user's configuration that lifts the cap must not let a 1e20 s clock reach
    // the deadline arithmetic (it panicked there and the request got no reply).
    let p = serve(PlayerConfig {
        max_clock: f64::INFINITY,
        ..quick_config()
    });
    let kif = tictactoe_kif();
    let t = Duration::from_secs(5);
    for (sc, pc) in [("10", "1e20"), ("1e20", "1"), ("10", "2e6")] {
        let e = post(&p.addr, "x", &format!("(start m1 x ({kif}) {sc} {pc})"), t).unwrap_err();
        assert!(
            matches!(&e, HttpError::Status { status: 400, body, .. } if body.contains("clock")),
            "{sc} {pc}: {e:?}"
        );
    }
    assert_eq!(
        post(&p.addr, "x", &format!("(start m2 x ({kif}) 5 1)"), t).unwrap(),
        "ready"
    );
    // NaN (clamp keeps it, and the connection lifetime panicked on it at start-up).
    let p = serve(PlayerConfig {
        max_clock: f64::NAN,
        ..quick_config()
    });
    info_ok(&p.addr);
}

#[test]
fn a_long_search_blocks_no_other_request_or_match() {
    let p = serve(quick_config());
    let kif = tictactoe_kif();
    let t = Duration::from_secs(10);
    assert_eq!(
        post(&p.addr, "x", &format!("(start long x ({kif}) 5 4)"), t).unwrap(),
        "ready"
    );
    std::thread::scope(|sc| {
        let search = sc.spawn(|| {
            let t0 = Instant::now();
            let mv = post(&p.addr, "x", "(play long nil)", t).unwrap();
            (mv, t0.elapsed())
        });
        std::thread::sleep(Duration::from_millis(300));
        // While that search runs (about 3.8 s): info, and a whole second match.
        let t0 = Instant::now();
        info_ok(&p.addr);
        assert_eq!(
            post(&p.addr, "o", &format!("(start other o ({kif}) 5 1)"), t).unwrap(),
            "ready"
        );
        assert_eq!(post(&p.addr, "o", "(play other nil)", t).unwrap(), "noop");
        assert_eq!(post(&p.addr, "o", "(abort other)", t).unwrap(), "aborted");
        assert!(t0.elapsed() < Duration::from_secs(2), "{:?}", t0.elapsed());
        let (mv, took) = search.join().unwrap();
        assert!(mv.starts_with("(mark"), "{mv}");
        assert!(took < Duration::from_secs(4), "{took:?}");
    });
}

/// A rule sheet that reads and checks at once but takes long to ground: `seen` has `n`²
/// ground instances over the reachable cells, while a state holds one cell. (How long
/// depends on the machine; the tests add [`slow_compile_config`]'s delay so that the plays
/// come while compiling on any machine.)
fn slow_sheet(n: usize) -> String {
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
fn start_answers_within_the_start_clock_and_play_within_the_play_clock_while_compiling() {
    let p = serve(slow_compile_config());
    let rules = slow_sheet(450);
    let t = Duration::from_secs(10);
    let t0 = Instant::now();
    let r = post(&p.addr, "p", &format!("(start slow p ({rules}) 1 1)"), t).unwrap();
    let took = t0.elapsed();
    assert_eq!(r, "ready");
    assert!(took < Duration::from_millis(1000), "start took {took:?}");
    // Still compiling: a move from the reference prover (or, were it too slow, an error),
    // before the play clock.
    let mut proved = 0;
    for moves in ["nil", "((go 1))", "((go 2))"] {
        let t0 = Instant::now();
        let r = post(&p.addr, "p", &format!("(play slow {moves})"), t);
        let took = t0.elapsed();
        assert!(
            took < Duration::from_millis(1000),
            "play took {took:?}: {r:?}"
        );
        match r {
            Ok(mv) => {
                assert!(mv == "(go 1)" || mv == "(go 2)", "{mv}");
                proved += 1;
            }
            Err(HttpError::Status { status: 503, .. }) => {}
            Err(e) => panic!("{e}"),
        }
    }
    // (The prover needs some 10 ms a move here: it answers at least once.)
    assert!(proved > 0);
    assert_eq!(p.player.stats().compiling, 3);
    // Meanwhile the player answers everyone else.
    info_ok(&p.addr);
    assert_eq!(post(&p.addr, "p", "(abort slow)", t).unwrap(), "aborted");
}

/// [`slow_sheet`] with a static relation the reference prover takes seconds over in every
/// state (its naive fixpoint recomputes the transitive closure of an `m`-step chain with
/// unindexed joins), while the lazy evaluator computes it once with indexed joins.
fn slow_sheet_slow_prover(n: usize, m: usize) -> String {
    let mut s = slow_sheet(n);
    s.push_str("(<= terminal (true (cell ?x)) (reach ?x 0))\n");
    s.push_str("(<= (reach ?x ?y) (step ?x ?y))\n");
    s.push_str("(<= (reach ?x ?z) (reach ?x ?y) (step ?y ?z))\n");
    for i in 0..m {
        s.push_str(&format!("(step {i} {})\n", i + 1));
    }
    s
}

#[test]
fn play_while_compiling_gets_a_legal_move_where_the_prover_is_too_slow() {
    let p = serve(slow_compile_config());
    let rules = slow_sheet_slow_prover(450, 120);
    let t = Duration::from_secs(10);
    let r = post(&p.addr, "p", &format!("(start slowp p ({rules}) 1 2)"), t).unwrap();
    assert_eq!(r, "ready");
    // The prover needs many seconds a state here; the lazy evaluator milliseconds once
    // its static relations are in (the first play may go to them).
    let mut moved = 0;
    for moves in ["nil", "((go 1))", "((go 2))", "((go 1))"] {
        let t0 = Instant::now();
        let r = post(&p.addr, "p", &format!("(play slowp {moves})"), t);
        let took = t0.elapsed();
        eprintln!("play {moves}: {r:?} in {took:?}");
        assert!(
            took < Duration::from_millis(2000),
            "play took {took:?}: {r:?}"
        );
        match r {
            Ok(mv) => {
                assert!(mv == "(go 1)" || mv == "(go 2)", "{mv}");
                moved += 1;
            }
            Err(HttpError::Status { status: 503, .. }) => {}
            Err(e) => panic!("{e}"),
        }
    }
    // Every play came while the rules were compiling.
    assert_eq!(p.player.stats().compiling, 4);
    assert!(moved >= 3, "{moved} moves of 4");
    assert_eq!(post(&p.addr, "p", "(abort slowp)", t).unwrap(), "aborted");
}

#[test]
fn get_requests_and_start_with_extra_arguments_are_accepted_as_ggp_base_accepts_them() {
    let p = serve(quick_config());
    for req in [
        "GET / HTTP/1.0\r\n\r\n",
        "GET /(info) HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /%28info%29 HTTP/1.1\r\nHost: x\r\n\r\n",
    ] {
        let r = raw(&p.addr, req.as_bytes(), Duration::from_secs(3));
        assert!(
            r.starts_with("HTTP/1.") && r.contains(" 200 "),
            "{req:?}: {r:?}"
        );
        assert!(r.contains("((name yomi) (status available))"), "{r:?}");
    }
    let kif = tictactoe_kif();
    let t = Duration::from_secs(5);
    assert_eq!(
        post(
            &p.addr,
            "x",
            &format!("(start ex x ({kif}) 5 1 (extra args) 7)"),
            t
        )
        .unwrap(),
        "ready"
    );
    let mv = post(&p.addr, "x", "(play ex nil)", t).unwrap();
    assert!(mv.starts_with("(mark"), "{mv}");
    assert_eq!(post(&p.addr, "x", "(stop ex nil)", t).unwrap(), "done");
}

#[test]
fn bodies_far_larger_than_the_head_limit_are_read_whole() {
    // 4 MiB of message (the body limit is 8 MiB, the head limit 64 KiB).
    let p = serve(quick_config());
    let msg = format!("(info{})", " ".repeat(4 << 20));
    let r = post(&p.addr, "p", &msg, Duration::from_secs(10)).unwrap();
    assert!(r.starts_with("((name yomi)"), "{r}");
}

/// A one-role game of `n` moves, (go 1) or (go 2) each; ends after the last.
fn long_line(n: usize) -> String {
    let mut s = String::from(
        "(role p) (init (cell 0)) (legal p (go 1)) (legal p (go 2))\n\
         (<= (next (cell ?y)) (true (cell ?x)) (succ ?x ?y))\n\
         (<= terminal (true (cell ?x)) (last ?x))\n\
         (goal p 100)\n",
    );
    for i in 0..n {
        s.push_str(&format!("(succ {i} {})\n", i + 1));
    }
    s.push_str(&format!("(last {n})\n"));
    s
}

/// Seconds one random playout of `kif`'s game takes from the start, on this machine now,
/// with the faster of the two evaluators: the player compiles the sheet again and picks
/// its evaluator by the clock, and its playouts must not be faster than these.
fn playout_seconds(kif: &str) -> f64 {
    let game = GdlGame::from_kif("line", kif).unwrap();
    let mut legal = Vec::new();
    // The fastest of three runs of each: load only slows a run, and a playout timed slow
    // under a burst of load would give the search time to end on its own.
    let mut fastest = f64::INFINITY;
    for incremental in [false, true] {
        let mut r = game.reasoner().clone();
        r.set_incremental(incremental);
        for k in 0..3 {
            let t0 = Instant::now();
            let mut s = r.initial_state();
            while !r.is_terminal(&s) {
                r.legal_into(&s, 0, &mut legal);
                let a = legal[k % legal.len()];
                r.step(&mut s, &[a]);
            }
            fastest = fastest.min(t0.elapsed().as_secs_f64());
        }
    }
    fastest
}

/// Issue 15: a search that had not returned at the reply deadline used to be answered
/// with a random move. Here a playout takes about a 24th of the thinking time, and the
/// search reads the clock every 64 iterations, so it cannot end on its own budget in
/// time: the player stops it and sends its best move so far, before the play clock.
#[test]
fn a_search_that_cannot_end_in_time_is_stopped_and_its_best_move_so_far_sent() {
    // Playouts of several milliseconds, whatever the machine's speed.
    let mut n = 500;
    let (rules, playout) = loop {
        let rules = long_line(n);
        let playout = playout_seconds(&rules);
        if playout >= 0.008 || n >= 64_000 {
            break (rules, playout);
        }
        n *= 2;
    };
    // Thinking time about 24 playouts: 64 of them (the clock check) overrun the search's
    // budget (0.9 of it) even if the match's playouts run up to 2.9 times faster than the
    // ones timed here (the timing runs while the other tests of this binary load the
    // machine; with 40 playouts CI once saw the search end on its own), while the stop (a
    // quarter of the way through the remaining tenth) leaves nearly two playouts' time to
    // hand over the move.
    let margin = 0.2;
    let think = (24.0 * playout).max(0.2);
    let clock = think + margin;
    eprintln!(
        "{n} moves a game, playout {:.1} ms, clock {clock:.3} s",
        playout * 1e3
    );
    let p = serve(PlayerConfig {
        margin,
        ..quick_config()
    });
    let t = Duration::from_secs(60);
    let kif = GdlGame::from_kif("line", &rules)
        .unwrap()
        .reasoner()
        .description()
        .sheet
        .to_kif();
    let start = format!("(start line p ({kif}) 60 {clock:.3})");
    assert_eq!(post(&p.addr, "p", &start, t).unwrap(), "ready");
    let mut last = "nil".to_string();
    let plays = 3u64;
    for _ in 0..plays {
        let t0 = Instant::now();
        let mv = post(&p.addr, "p", &format!("(play line {last})"), t).unwrap();
        let took = t0.elapsed().as_secs_f64();
        assert!(mv == "(go 1)" || mv == "(go 2)", "{mv}");
        assert!(took < clock, "play took {took:.3} s of {clock:.3}");
        last = format!("({mv})");
    }
    let stats = p.player.stats();
    eprintln!("{stats:?}");
    assert_eq!(
        stats.searched + stats.stopped_early + stats.published + stats.fallbacks,
        plays
    );
    assert_eq!(stats.searched, 0, "{stats:?}");
    assert!(stats.stopped_early >= plays - 1, "{stats:?}");
    assert_eq!(post(&p.addr, "p", "(abort line)", t).unwrap(), "aborted");
}
