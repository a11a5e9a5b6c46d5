//! The host against stand-ins for real players: tiny TCP servers in the test that answer
//! the way Sancho and ggp-base players do (bare-LF replies, a slow STOP) or never answer
//! START. Every server binds 127.0.0.1 on an ephemeral port; every test ends in seconds.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use yomi_core::journal::{JournalError, JournalFile};
use yomi_core::Rng;
use yomi_ggp::host::{run_match, run_matches, HostConfig, HostError};
use yomi_ggp::GdlGame;

/// Two roles, three simultaneous steps, one move each (`go`): any stand-in plays it.
const STEPS: &str = "(role a) (role b) (init (step 0))
(succ 0 1) (succ 1 2) (succ 2 3)
(legal a go) (legal b go)
(<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))
(<= terminal (true (step 3)))
(goal a 50) (goal b 50)";

#[derive(Clone, Copy)]
struct Behaviour {
    /// Line ends of the reply: bare LF (Sancho) or CRLF.
    bare_lf: bool,
    /// Never answer START (hold the connection until the host gives up).
    silent_start: bool,
    /// How long STOP takes to answer.
    stop_delay: Duration,
}

impl Default for Behaviour {
    fn default() -> Self {
        Behaviour {
            bare_lf: false,
            silent_start: false,
            stop_delay: Duration::ZERO,
        }
    }
}

struct StandIn {
    addr: String,
    seen: Arc<Mutex<Vec<String>>>,
    done: Arc<AtomicBool>,
}

impl Drop for StandIn {
    fn drop(&mut self) {
        self.done.store(true, Ordering::SeqCst);
        // Wake the accept loop.
        let _ = TcpStream::connect(&self.addr);
    }
}

fn read_request(s: &mut TcpStream) -> Option<String> {
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
        if data.len() > 1 << 20 {
            return None;
        }
    }
}

fn stand_in(b: Behaviour) -> StandIn {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let done = Arc::new(AtomicBool::new(false));
    let (seen2, done2) = (seen.clone(), done.clone());
    std::thread::spawn(move || {
        for conn in listener.incoming().take(100) {
            if done2.load(Ordering::SeqCst) {
                return;
            }
            let Ok(mut s) = conn else { continue };
            let seen = seen2.clone();
            std::thread::spawn(move || {
                let Some(msg) = read_request(&mut s) else {
                    return;
                };
                let kind = msg
                    .trim_start_matches('(')
                    .split_whitespace()
                    .next()
                    .unwrap_or("")
                    .to_ascii_lowercase();
                seen.lock().unwrap().push(kind.clone());
                let body = match kind.as_str() {
                    "start" if b.silent_start => {
                        // Hold the connection, answer nothing (bounded).
                        std::thread::sleep(Duration::from_secs(5));
                        return;
                    }
                    "start" => "ready",
                    "play" => "go",
                    "stop" => {
                        std::thread::sleep(b.stop_delay);
                        "done"
                    }
                    "abort" => "aborted",
                    _ => "((name standin) (status available))",
                };
                let nl = if b.bare_lf { "\n" } else { "\r\n" };
                let reply = format!(
                    "HTTP/1.0 200 OK{nl}Content-type: text/acl{nl}Content-length: {}{nl}{nl}{body}",
                    body.len()
                );
                let _ = s.write_all(reply.as_bytes());
            });
        }
    });
    StandIn { addr, seen, done }
}

fn config() -> HostConfig {
    HostConfig {
        start_clock: 2.0,
        play_clock: 0.5,
        grace: Duration::from_millis(300),
        seed: 3,
        max_steps: 20,
    }
}

#[test]
fn host_accepts_bare_lf_replies() {
    let game = GdlGame::from_kif("steps", STEPS).unwrap();
    let (a, b) = (
        stand_in(Behaviour {
            bare_lf: true,
            ..Behaviour::default()
        }),
        stand_in(Behaviour {
            bare_lf: true,
            ..Behaviour::default()
        }),
    );
    let rec = run_match(
        &game,
        "lf",
        &[a.addr.clone(), b.addr.clone()],
        &config(),
        &mut Rng::seed_from_u64(1),
    );
    assert!(rec.finished, "{rec:?}");
    assert!(rec.errors.is_empty(), "{:?}", rec.errors);
    assert_eq!(rec.moves.len(), 3);
    assert_eq!(rec.goals, vec![50.0, 50.0]);
}

#[test]
fn host_allows_a_slow_stop_reply() {
    let game = GdlGame::from_kif("steps", STEPS).unwrap();
    let c = config();
    // Longer than a play clock and its grace (0.8 s), well within the start clock.
    let slow = Behaviour {
        stop_delay: Duration::from_millis(1300),
        ..Behaviour::default()
    };
    let (a, b) = (stand_in(slow), stand_in(Behaviour::default()));
    let t = Instant::now();
    let rec = run_match(
        &game,
        "slowstop",
        &[a.addr.clone(), b.addr.clone()],
        &c,
        &mut Rng::seed_from_u64(1),
    );
    assert!(rec.finished, "{rec:?}");
    assert!(rec.errors.is_empty(), "{:?}", rec.errors);
    assert!(rec.warnings.is_empty(), "{:?}", rec.warnings);
    assert!(rec.failed.is_none());
    assert!(t.elapsed() < Duration::from_secs(8));
}

#[test]
fn player_that_never_answers_start_fails_the_match() {
    let game = GdlGame::from_kif("steps", STEPS).unwrap();
    let silent = stand_in(Behaviour {
        silent_start: true,
        ..Behaviour::default()
    });
    let fine = stand_in(Behaviour::default());
    let c = HostConfig {
        start_clock: 0.5,
        grace: Duration::from_millis(200),
        ..config()
    };
    let dir = std::env::temp_dir().join(format!("yomi-ggp-peers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("failed.jsonl");
    let _ = std::fs::remove_file(&out);
    let t = Instant::now();
    let r = run_matches(
        &game,
        &[fine.addr.clone(), silent.addr.clone()],
        3,
        &c,
        &out,
        false,
    );
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    match r {
        Err(HostError::MatchFailed { reason, .. }) => {
            assert!(reason.contains("start"), "{reason}");
            assert!(reason.contains(&silent.addr), "{reason}");
        }
        other => panic!("expected a failed match, got {other:?}"),
    }
    // The record (after the settings header) says so, with no substituted moves, and the
    // series stopped there.
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(text.lines().count(), 2, "{text}");
    let rec: yomi_ggp::host::MatchRecord =
        serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
    assert!(
        rec.failed.is_some() && !rec.finished && rec.moves.is_empty(),
        "{rec:?}"
    );
    // The player that did answer was told the match is off.
    let seen = fine.seen.lock().unwrap().clone();
    assert!(seen.contains(&"abort".to_string()), "{seen:?}");
    assert!(!seen.contains(&"play".to_string()), "{seen:?}");
    // A failed match is not a played one: a rerun tries it again (and the same failure is
    // not written twice).
    let r = run_matches(
        &game,
        &[fine.addr.clone(), silent.addr.clone()],
        3,
        &c,
        &out,
        false,
    );
    assert!(matches!(r, Err(HostError::MatchFailed { .. })), "{r:?}");
    let starts = fine
        .seen
        .lock()
        .unwrap()
        .iter()
        .filter(|m| *m == "start")
        .count();
    assert_eq!(starts, 2);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn host_refuses_clocks_out_of_range_with_a_clear_error() {
    // No player is contacted: the clocks are checked first (1e20 s panicked computing
    // the start wait).
    let g = GdlGame::from_kif("t", yomi_ggp::games::TICTACTOE).unwrap();
    let out = std::env::temp_dir().join(format!("yomi-host-clock-{}.jsonl", std::process::id()));
    let players = vec!["127.0.0.1:9".to_string(), "127.0.0.1:9".to_string()];
    for (start_clock, play_clock) in [(1e20, 1.0), (1.0, f64::NAN), (-1.0, 1.0)] {
        let c = HostConfig {
            start_clock,
            play_clock,
            ..config()
        };
        let e = run_matches(&g, &players, 1, &c, &out, false).unwrap_err();
        assert!(
            matches!(&e, HostError::Clock { .. }) && e.to_string().contains("clock"),
            "{e}"
        );
    }
    let _ = std::fs::remove_file(&out);
}

#[test]
fn a_series_resumes_with_the_missing_matches_only_and_refuses_other_settings() {
    let game = GdlGame::from_kif("steps", STEPS).unwrap();
    let (a, b) = (
        stand_in(Behaviour::default()),
        stand_in(Behaviour::default()),
    );
    let players = [a.addr.clone(), b.addr.clone()];
    let starts = || {
        a.seen
            .lock()
            .unwrap()
            .iter()
            .filter(|m| *m == "start")
            .count()
    };
    let dir = std::env::temp_dir().join(format!("yomi-ggp-series-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("series.jsonl");
    let _ = std::fs::remove_file(&out);
    let c = config();
    let first = run_matches(&game, &players, 3, &c, &out, false).unwrap();
    assert_eq!((first.len(), starts()), (3, 3));
    let text = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "a header and three records: {text}");
    assert!(lines[0].starts_with("{\"yomi_journal\":"), "{}", lines[0]);
    // As a kill leaves it: match 0 done, match 1 half written.
    std::fs::write(
        &out,
        format!("{}\n{}\n{}", lines[0], lines[1], &lines[2][..30]),
    )
    .unwrap();
    let resumed = run_matches(&game, &players, 3, &c, &out, false).unwrap();
    assert_eq!(starts(), 5, "only matches 1 and 2 are played again");
    assert_eq!(resumed[0], first[0], "match 0 is read back");
    let ids: Vec<&str> = resumed.iter().map(|r| r.match_id.as_str()).collect();
    assert_eq!(ids, ["yomi.steps.3.0", "yomi.steps.3.1", "yomi.steps.3.2"]);
    let now = std::fs::read_to_string(&out).unwrap();
    assert!(
        now.starts_with(&format!("{}\n{}\n", lines[0], lines[1])),
        "{now}"
    );
    assert_eq!(now.lines().count(), 4, "the torn line is cut: {now}");
    // Nothing is left to play; more matches extend the series.
    run_matches(&game, &players, 3, &c, &out, false).unwrap();
    assert_eq!(starts(), 5);
    assert_eq!(
        run_matches(&game, &players, 4, &c, &out, false)
            .unwrap()
            .len(),
        4
    );
    assert_eq!(starts(), 6);
    let before = std::fs::read(&out).unwrap();
    // Other clocks, or another host holding the file, are refused; the file is untouched.
    let other = HostConfig {
        play_clock: 1.0,
        ..config()
    };
    let err = run_matches(&game, &players, 4, &other, &out, false).unwrap_err();
    assert!(
        matches!(err, HostError::Journal(JournalError::Settings { .. })),
        "{err}"
    );
    assert!(
        err.to_string()
            .contains("play_clock: 1.0 here, 0.5 in the file"),
        "{err}"
    );
    let held = JournalFile::lock(&out).unwrap();
    let err = run_matches(&game, &players, 5, &c, &out, false).unwrap_err();
    assert!(
        matches!(err, HostError::Journal(JournalError::Locked { .. })),
        "{err}"
    );
    drop(held);
    assert_eq!(std::fs::read(&out).unwrap(), before);
    assert_eq!(starts(), 6);
    std::fs::remove_dir_all(&dir).ok();
}
