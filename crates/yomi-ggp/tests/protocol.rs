//! The GGP match protocol over loopback: full matches between yomi players through the
//! host, malformed and oversized requests, and a player that never answers.

use std::io::Write;
use std::net::TcpListener;
use std::time::{Duration, Instant};

use yomi_core::Rng;
use yomi_ggp::host::{run_match, run_matches, HostConfig};
use yomi_ggp::http::{post, HttpError};
use yomi_ggp::player::{PlayerConfig, PlayerServer};
use yomi_ggp::{games, GdlGame};

type Shared = std::sync::Arc<yomi_ggp::player::GgpPlayer>;

fn player(agent: &str, max_request_bytes: usize) -> (String, impl Fn()) {
    let (addr, stop, _) = player_with_stats(agent, max_request_bytes);
    (addr, stop)
}

fn player_with_stats(agent: &str, max_request_bytes: usize) -> (String, impl Fn(), Shared) {
    let config = PlayerConfig {
        agent: agent.into(),
        margin: 0.15,
        max_request_bytes,
        ..PlayerConfig::default()
    };
    let server = PlayerServer::bind(config, "127.0.0.1:0").unwrap();
    let addr = server.local_addr().unwrap().to_string();
    let stop = server.stopper();
    let shared = server.player();
    server.spawn(false);
    (addr, stop, shared)
}

// Short clocks keep the test quick; the slack is for CI's loaded 2-core machines, where
// other tests run at the same time (a 0.3 s clock with 0.5 s of slack once saw a 0.99 s
// reply there).
fn quick() -> HostConfig {
    HostConfig {
        start_clock: 2.0,
        play_clock: 0.5,
        grace: Duration::from_millis(1000),
        seed: 7,
        max_steps: 100,
    }
}

#[test]
fn full_match_between_two_yomi_players_over_http() {
    let game = games::shipped("tictactoe").unwrap();
    let (a, stop_a, stats_a) = player_with_stats("mcts", 1 << 20);
    let (b, stop_b, stats_b) = player_with_stats("mcts:c=1", 1 << 20);
    let dir = std::env::temp_dir().join(format!("yomi-ggp-host-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("matches.jsonl");
    let _ = std::fs::remove_file(&out);
    let config = quick();
    let records = run_matches(&game, &[a.clone(), b.clone()], 2, &config, &out, false).unwrap();
    assert_eq!(records.len(), 2);
    for rec in &records {
        assert!(rec.finished, "{rec:?}");
        assert!(rec.errors.is_empty(), "{:?}", rec.errors);
        assert!((5..=9).contains(&rec.moves.len()), "{}", rec.moves.len());
        assert_eq!(rec.goals.iter().sum::<f64>(), 100.0, "{:?}", rec.goals);
        for t in rec.reply_seconds.iter().flatten() {
            assert!(*t < config.play_clock + 1.0, "a reply took {t} s");
        }
        // Replaying the recorded moves reaches a terminal state with the recorded goals.
        let r = game.reasoner();
        let mut s = yomi_core::Game::initial_state(&game);
        for joint in &rec.moves {
            let ids: Vec<u32> = joint
                .iter()
                .enumerate()
                .map(|(role, m)| game.parse_action(&s, role, m).unwrap())
                .collect();
            r.step(&mut s, &ids);
        }
        assert!(r.is_terminal(&s));
    }
    // Roles rotate: match 2 swaps the players.
    assert_eq!(records[0].players, vec![a.clone(), b.clone()]);
    assert_eq!(records[1].players, vec![b, a]);
    // The series' settings header, then one JSON record a line.
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(text.lines().count(), 3);
    assert!(text.starts_with("{\"yomi_journal\":"), "{text}");
    let back: yomi_ggp::host::MatchRecord =
        serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
    // (Timings are floats: JSON keeps them to about 15 digits, so compare the rest.)
    let first = &records[0];
    assert_eq!(
        (
            &back.match_id,
            &back.roles,
            &back.players,
            &back.moves,
            &back.errors,
            &back.goals
        ),
        (
            &first.match_id,
            &first.roles,
            &first.players,
            &first.moves,
            &first.errors,
            &first.goals
        )
    );
    std::fs::remove_dir_all(&dir).ok();
    // The moves came from the searches (complete, or stopped at the deadline with their
    // best move so far), not from the fallback (a loaded machine may leave a search
    // without a move now and then).
    for stats in [stats_a, stats_b] {
        let s = stats.stats();
        assert_eq!(s.matches, 2);
        assert!(s.searched + s.stopped_early > 2 * s.fallbacks, "{s:?}");
        // Tic-tac-toe is turn-taking: every other move is forced, and each one started a
        // search on the opponent's time (a match ends by one's own move at the latest).
        assert!(s.pondered >= 4 && s.pondered <= s.forced, "{s:?}");
    }
    stop_a();
    stop_b();
}

#[test]
fn malformed_and_oversized_requests_get_errors_and_the_player_keeps_serving() {
    let (addr, stop) = player("mcts", 4096);
    let t = Duration::from_secs(5);
    for bad in [
        "(play m1",
        "hello",
        "(start m1 x ((role x)) ten 1)",
        "(play nosuch nil)",
    ] {
        match post(&addr, "x", bad, t) {
            Err(HttpError::Status {
                status: 400, body, ..
            }) => assert!(body.starts_with("error"), "{body}"),
            Ok(body) => assert_eq!(body, "busy", "{bad}"),
            other => panic!("{bad}: {other:?}"),
        }
    }
    let big = format!("(info {})", "x".repeat(10_000));
    assert!(matches!(
        post(&addr, "x", &big, t),
        Err(HttpError::Status { status: 413, .. })
    ));
    // Rules that are not GDL, or a role the game lacks.
    let e = post(&addr, "x", "(start m1 x ((role a) (<= (p ?x))) 5 1)", t).unwrap_err();
    assert!(matches!(e, HttpError::Status { status: 400, .. }), "{e}");
    let e = post(&addr, "x", "(start m1 zz ((role a) (init (p)) (legal a noop) (<= terminal (true (p))) (goal a 100)) 5 1)", t).unwrap_err();
    assert!(e.to_string().contains("no role"), "{e}");
    assert_eq!(
        post(&addr, "x", "(INFO)", t).unwrap(),
        "((name yomi) (status available))"
    );
    // Raw garbage on the socket is answered (or dropped) without killing the server.
    if let Ok(mut s) = std::net::TcpStream::connect(&addr) {
        let _ = s.write_all(b"\x00\x01 not http at all\r\n\r\n");
    }
    // A whole small match by hand: start, play, a move for a wrong match id, abort.
    let rules = games::TICTACTOE;
    let kif = yomi_ggp::Description::from_kif(rules)
        .unwrap()
        .sheet
        .to_kif();
    assert_eq!(
        post(&addr, "x", &format!("(start m2 x ({kif}) 5 1)"), t).unwrap(),
        "ready"
    );
    assert!(post(&addr, "x", "(info)", t).unwrap().contains("busy"));
    let game = GdlGame::from_kif("t", rules).unwrap();
    let s = yomi_core::Game::initial_state(&game);
    let mv = post(&addr, "x", "(play m2 nil)", t).unwrap();
    game.parse_action(&s, 0, &mv).unwrap();
    assert_eq!(post(&addr, "x", "(play other nil)", t).unwrap(), "busy");
    let e = post(&addr, "x", "(play m2 ((mark 9 9) noop))", t).unwrap_err();
    assert!(matches!(e, HttpError::Status { status: 400, .. }), "{e}");
    assert_eq!(post(&addr, "x", "(abort m2)", t).unwrap(), "aborted");
    assert_eq!(
        post(&addr, "x", "(preview ((role a)) 3)", t).unwrap(),
        "ready"
    );
    stop();
}

/// Reads one request's body (Content-Length framed), or `None`.
fn read_body(s: &mut std::net::TcpStream) -> Option<String> {
    use std::io::Read;
    s.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    let mut data = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let n = s.read(&mut buf).ok()?;
        if n == 0 {
            return None;
        }
        data.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&data).into_owned();
        if let Some(end) = text.find("\r\n\r\n") {
            let len: usize = text[..end]
                .lines()
                .find_map(|l| {
                    let (k, v) = l.split_once(':')?;
                    k.eq_ignore_ascii_case("content-length")
                        .then(|| v.trim().parse().ok())?
                })
                .unwrap_or(0);
            if data.len() >= end + 4 + len {
                return Some(text[end + 4..end + 4 + len].to_string());
            }
        }
    }
}

#[test]
fn player_silent_after_start_times_out_and_gets_random_legal_moves() {
    let game = games::shipped("tictactoe").unwrap();
    let (a, stop) = player("mcts", 1 << 20);
    // Answers start, then never answers again (each connection held a few seconds).
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let b = silent.local_addr().unwrap().to_string();
    let keep = std::thread::spawn(move || {
        for c in silent.incoming().take(30).flatten() {
            std::thread::spawn(move || {
                let mut c = c;
                if read_body(&mut c).is_some_and(|m| m.starts_with("(start")) {
                    let _ = c.write_all(
                        b"HTTP/1.0 200 OK\r\nContent-Type: text/acl\r\nContent-Length: 5\r\n\r\nready",
                    );
                } else {
                    std::thread::sleep(Duration::from_secs(3));
                }
            });
        }
    });
    let config = HostConfig {
        start_clock: 1.0,
        play_clock: 0.2,
        grace: Duration::from_millis(100),
        ..quick()
    };
    let t = Instant::now();
    let rec = run_match(
        &game,
        "m-silent",
        &[a, b],
        &config,
        &mut Rng::seed_from_u64(3),
    );
    assert!(rec.finished, "{rec:?}");
    assert!(rec.failed.is_none());
    assert!(t.elapsed() < Duration::from_secs(10));
    assert!(
        rec.errors.iter().all(|e| e.role == rec.roles[1]),
        "{:?}",
        rec.errors
    );
    // Every step of o where o had a choice was a timeout with a substituted move.
    let plays = rec
        .errors
        .iter()
        .filter(|e| e.kind == "timeout" && e.step > 0)
        .count();
    assert!(
        plays >= rec.moves.len() / 2,
        "{} timeouts in {} steps",
        plays,
        rec.moves.len()
    );
    assert_eq!(rec.goals.iter().sum::<f64>(), 100.0);
    // The silent stop is a warning, not an error.
    assert!(rec.warnings.iter().all(|w| w.step == rec.moves.len() + 1));
    stop();
    drop(keep);
}
