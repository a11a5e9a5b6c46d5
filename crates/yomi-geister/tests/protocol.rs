//! The tournament protocol: byte-exact board strings and messages, and whole games through
//! the yomi server over loopback (full game, garbled line, illegal move, disconnect,
//! timeout), seats that probes cannot take, the seat timeout, the client's retries.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use yomi_core::{Game, Player};
use yomi_geister::protocol::{BoardString, ClientMsg, Place, ServerMsg, Table};
use yomi_geister::session::{
    connect_and_play, connect_and_play_with_retry, ClientResult, Clock, Ending, Server,
};
use yomi_geister::{registry, Dir, Geister, GeisterMove, Outcome, Setup};

const EXAMPLE: &str = "14R24R34R44R15B25B35B45B41u31u21u11u40u30u20u10u";

#[test]
fn the_spec_example_round_trips_byte_exactly() {
    let b: BoardString = EXAMPLE.parse().unwrap();
    assert_eq!(b.to_string(), EXAMPLE);
    assert_eq!(b.own[0].place, Place::At(1, 4));
    assert_eq!(b.own[0].is_red(), Some(true));
    assert_eq!(b.own[7].place, Place::At(4, 5));
    assert_eq!(b.theirs[0].place, Place::At(4, 1));
    assert_eq!(b.theirs[0].is_red(), None);
    // The server's table writes the same string for both seats after ABCD / ABCD.
    let game = Geister::standard();
    let mut t = Table::new(&game);
    let abcd = GeisterMove::Setup(Setup::parse("ABCD").unwrap());
    t.apply(&game, abcd);
    t.apply(&game, abcd);
    assert_eq!(t.board_string(Player(0), false).to_string(), EXAMPLE);
    assert_eq!(t.board_string(Player(1), false).to_string(), EXAMPLE);
    // Captured and escaped ghosts, revealed colours.
    let s = "99r24R34R44R15B25B35B88B41u31u21u99b40u30u20u10u";
    assert_eq!(s.parse::<BoardString>().unwrap().to_string(), s);
    let msg = format!("MOV?{EXAMPLE}");
    assert_eq!(msg.parse::<ServerMsg>().unwrap().to_string(), msg);
    for m in ["SET?", "OK ", "OKR", "OKB", "NG "] {
        assert_eq!(m.parse::<ServerMsg>().unwrap().to_string(), m);
    }
    for end in ["WON:", "LST:", "DRW:"] {
        let m = format!("{end}{EXAMPLE}");
        assert_eq!(m.parse::<ServerMsg>().unwrap().to_string(), m);
    }
}

#[test]
fn bad_board_strings_and_lines_are_errors() {
    for bad in [
        "",
        &EXAMPLE[..47],
        &format!("{EXAMPLE}u"),
        "14R24R34R44R15B25B35B45B41u31u21u11u40u30u20u66u",
        "14R24R34R44R15B25B35B45B41u31u21u11u40u30u20u10x",
        "14u24R34R44R15B25B35B45B41u31u21u11u40u30u20u10u",
        "14R14R34R44R15B25B35B45B41u31u21u11u40u30u20u10u",
        "14R24R34R44R15B25B35B45B41u31u21u11u40u30u20u1\u{e9}",
    ] {
        assert!(bad.parse::<BoardString>().is_err(), "{bad:?}");
    }
    for bad in ["", "MOV?", "HELLO", "OKX", "WON:", "SET?x"] {
        assert!(bad.parse::<ServerMsg>().is_err(), "{bad:?}");
    }
    for bad in [
        "", "SET:ABC", "SET:ABCI", "SET:AABC", "SET:abcd", "MOV:A", "MOV:I,N", "MOV:A,X",
        "MOV:AB,N", "mov:A,N",
    ] {
        assert!(bad.parse::<ClientMsg>().is_err(), "{bad:?}");
    }
    assert_eq!(
        "MOV:C,NORTH".parse::<ClientMsg>().unwrap(),
        ClientMsg::Move {
            letter: 2,
            dir: Dir::North
        }
    );
    assert_eq!(
        "MOV:C,NORTH".parse::<ClientMsg>().unwrap().to_string(),
        "MOV:C,N"
    );
}

fn server(clock: Clock) -> (Server, [u16; 2]) {
    let s = Server::bind("127.0.0.1", 0, Geister::standard(), clock).unwrap();
    let ports = s.ports().unwrap();
    (s, ports)
}

fn yomi_client(port: u16, spec: &'static str, seed: u64) -> thread::JoinHandle<ClientResult> {
    thread::spawn(move || {
        let game = Geister::standard();
        let mut agent = registry().build(&game, spec, seed).unwrap();
        connect_and_play(("127.0.0.1", port), &game, agent.as_mut(), |_| {}).unwrap()
    })
}

#[test]
fn two_yomi_clients_play_a_full_game_through_the_server() {
    let (mut srv, ports) = server(Clock::default());
    // yomi's clients read lines, not reads: no pacing needed (a whole game would take
    // seconds with it).
    srv.message_gap = Duration::ZERO;
    let a = yomi_client(ports[0], "estimate:iters=30", 1);
    let b = yomi_client(ports[1], "mcts:iters=30,dets=2", 2);
    let mut lines = Vec::new();
    let report = srv.play_one(|l| lines.push(l.to_string())).unwrap();
    let (ra, rb) = (a.join().unwrap(), b.join().unwrap());
    assert!(matches!(report.ending, Ending::Rules(_)), "{report:?}");
    assert!(report.plies > 0 && report.moves.len() == report.plies as usize + 2);
    // Both clients agree with the server.
    match report.ending.winner() {
        Some(Player(0)) => {
            assert!(matches!(ra, ClientResult::Won(_)) && matches!(rb, ClientResult::Lost(_)))
        }
        Some(_) => {
            assert!(matches!(ra, ClientResult::Lost(_)) && matches!(rb, ClientResult::Won(_)))
        }
        None => {
            assert!(matches!(ra, ClientResult::Draw(_)) && matches!(rb, ClientResult::Draw(_)))
        }
    }
    // The final board shows every colour.
    let (ClientResult::Won(b) | ClientResult::Lost(b) | ClientResult::Draw(b)) = ra;
    assert!(b.theirs.iter().all(|e| e.is_red().is_some()));
    // Replaying the server's moves gives the same outcome.
    let game = Geister::standard();
    let mut s = game.initial_state();
    for m in &report.moves {
        let mv = game.parse_move(&s, m).unwrap();
        game.play(&mut s, mv).unwrap();
    }
    assert_eq!(Ending::Rules(s.outcome()), report.ending);
    assert!(lines.iter().any(|l| l.starts_with("1< MOV:")));
}

/// A scripted client: answers each server line by `answer`, until it returns `None`
/// (then it hangs up) or the game ends.
fn raw_client(port: u16, answer: fn(&str) -> Option<String>) -> thread::JoinHandle<Vec<String>> {
    thread::spawn(move || {
        let stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        let mut w = stream.try_clone().unwrap();
        let mut r = BufReader::new(stream);
        let mut got = Vec::new();
        loop {
            let mut line = String::new();
            if r.read_line(&mut line).unwrap_or(0) == 0 {
                break;
            }
            assert!(line.ends_with("\r\n"), "{line:?}");
            let line = line.trim_end_matches("\r\n").to_string();
            got.push(line.clone());
            if ["WON:", "LST:", "DRW:"].iter().any(|p| line.starts_with(p)) {
                break;
            }
            if line.starts_with("OK") {
                continue;
            }
            match answer(&line) {
                Some(a) => w.write_all(format!("{a}\r\n").as_bytes()).unwrap(),
                None => break,
            }
        }
        got
    })
}

#[test]
fn a_garbled_line_loses_and_the_server_goes_on() {
    let (srv, ports) = server(Clock::default());
    // Seated (it answered SET?), then garbled.
    let bad = raw_client(ports[0], |l| {
        Some(if l == "SET?" { "SET:ABCD" } else { "HELLO" }.into())
    });
    let good = yomi_client(ports[1], "random", 3);
    let report = srv.play_one(|_| {}).unwrap();
    assert_eq!(
        report.ending,
        Ending::Garbled {
            loser: Player(0),
            line: "HELLO".into()
        }
    );
    assert!(matches!(good.join().unwrap(), ClientResult::Won(_)));
    let got = bad.join().unwrap();
    assert_eq!(&got[..2], ["SET?", "OK "]);
    assert!(got[2].starts_with("MOV?"));
    assert_eq!(got[3], "NG ");
    assert!(got[4].starts_with("LST:"));
}

#[test]
fn an_illegal_move_loses() {
    let (srv, ports) = server(Clock::default());
    // Ghost A (1,4) south runs into the player's own ghost E (1,5).
    let bad = raw_client(ports[0], |l| {
        Some(if l == "SET?" { "SET:ABCD" } else { "MOV:A,S" }.into())
    });
    let good = yomi_client(ports[1], "random", 4);
    let report = srv.play_one(|_| {}).unwrap();
    assert_eq!(
        report.ending,
        Ending::Illegal {
            loser: Player(0),
            line: "MOV:A,S".into()
        }
    );
    assert!(matches!(good.join().unwrap(), ClientResult::Won(_)));
    let got = bad.join().unwrap();
    assert_eq!(&got[..2], ["SET?", "OK "]);
    assert!(got[2].starts_with("MOV?"));
    assert_eq!(got[3], "NG ");
    assert!(got[4].starts_with("LST:"));
}

#[test]
fn a_disconnect_loses() {
    let (srv, ports) = server(Clock::default());
    let good = yomi_client(ports[0], "random", 5);
    // Seated (it answered SET?), then gone at its first move.
    let bad = raw_client(ports[1], |l| (l == "SET?").then(|| "SET:EFGH".to_string()));
    let report = srv.play_one(|_| {}).unwrap();
    assert_eq!(report.ending, Ending::Disconnected { loser: Player(1) });
    assert!(matches!(good.join().unwrap(), ClientResult::Won(_)));
    bad.join().unwrap();
}

#[test]
fn running_out_of_time_loses() {
    let clock = Clock {
        main: Duration::ZERO,
        per_move: Duration::from_millis(300),
    };
    let (srv, ports) = server(clock);
    let good = yomi_client(ports[0], "random", 6);
    // Answers the set-up, then sleeps on its first move.
    let slow = raw_client(ports[1], |l| {
        if l == "SET?" {
            Some("SET:EFGH".into())
        } else {
            thread::sleep(Duration::from_millis(800));
            Some("MOV:A,N".into())
        }
    });
    let report = srv.play_one(|_| {}).unwrap();
    assert_eq!(report.ending, Ending::Timeout { loser: Player(1) });
    assert!(matches!(good.join().unwrap(), ClientResult::Won(_)));
    slow.join().unwrap();
}

/// A client that reads as Geister-cpp-lib's does: one read per message, the first line of
/// what that read returned kept and the rest dropped. It answers `SET?` and records what
/// it understood until its first `MOV?`, then hangs up. It pauses 20 ms before each read
/// (a client busy for a moment), so lines sent close together arrive in one read.
fn one_read_per_message_client(port: u16) -> thread::JoinHandle<Vec<String>> {
    thread::spawn(move || {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        let mut understood = Vec::new();
        loop {
            thread::sleep(Duration::from_millis(20));
            let mut buf = [0u8; 512];
            let n = match std::io::Read::read(&mut stream, &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            let text = String::from_utf8_lossy(&buf[..n]).into_owned();
            let first = text.split("\r\n").next().unwrap_or_default().to_string();
            understood.push(first.clone());
            if first == "SET?" {
                stream.write_all(b"SET:BCFG\r\n").unwrap();
            } else if first.starts_with("MOV?") || first.contains(':') {
                break;
            }
        }
        understood
    })
}

#[test]
fn a_client_that_keeps_one_line_per_read_still_gets_its_first_move_query() {
    // Geister-cpp-lib's client lost the first MOV? when the server sent it right after
    // the OK of its set-up (the two arrived in one read), then timed out.
    let clock = Clock {
        main: Duration::from_secs(2),
        per_move: Duration::from_secs(1),
    };
    let (srv, ports) = server(clock);
    let peer = one_read_per_message_client(ports[0]);
    let other = yomi_client(ports[1], "random", 7);
    let report = play_one_within(srv, Duration::from_secs(30)).unwrap();
    let understood = peer.join().unwrap();
    assert_eq!(understood.len(), 3, "{understood:?}");
    assert_eq!(&understood[..2], ["SET?", "OK "]);
    assert!(understood[2].starts_with("MOV?"), "{understood:?}");
    // It then hung up: a disconnect, not a timeout.
    assert_eq!(report.ending, Ending::Disconnected { loser: Player(0) });
    assert!(matches!(other.join().unwrap(), ClientResult::Won(_)));
}

/// Runs `play_one` in a thread, so that a server that waits for ever fails the test
/// instead of hanging it.
fn play_one_within(
    srv: Server,
    limit: Duration,
) -> std::io::Result<yomi_geister::session::GameReport> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let _ = tx.send(srv.play_one(|_| {}));
    });
    rx.recv_timeout(limit)
        .expect("the server answered in bounded time")
}

#[test]
fn connect_and_close_probes_take_no_seat_and_cost_no_game() {
    let (srv, ports) = server(Clock::default());
    // Probes: 50 connect-and-close on each port, and one that stays connected and never
    // speaks, before the real clients arrive.
    let mut silent = Vec::new();
    for &port in &ports {
        silent.push(TcpStream::connect(("127.0.0.1", port)).unwrap());
        for _ in 0..50 {
            drop(TcpStream::connect(("127.0.0.1", port)).unwrap());
        }
    }
    let result = thread::spawn(move || play_one_within(srv, Duration::from_secs(60)));
    thread::sleep(Duration::from_millis(200));
    let a = yomi_client(ports[0], "random", 11);
    let b = yomi_client(ports[1], "random", 12);
    let report = result.join().unwrap().unwrap();
    assert!(matches!(report.ending, Ending::Rules(_)), "{report:?}");
    let (ra, rb) = (a.join().unwrap(), b.join().unwrap());
    match report.ending.winner() {
        Some(Player(0)) => assert!(matches!(ra, ClientResult::Won(_)), "{ra:?}"),
        Some(_) => assert!(matches!(rb, ClientResult::Won(_)), "{rb:?}"),
        None => assert!(matches!(ra, ClientResult::Draw(_)), "{ra:?}"),
    }
    drop(silent);
}

#[test]
fn a_garbled_first_line_takes_no_seat() {
    let (srv, ports) = server(Clock::default());
    let result = thread::spawn(move || play_one_within(srv, Duration::from_secs(60)));
    // An HTTP probe: it gets NG and the connection is closed; the seat stays free.
    let mut probe = TcpStream::connect(("127.0.0.1", ports[0])).unwrap();
    probe.write_all(b"GET / HTTP/1.0\r\n\r\n").unwrap();
    let mut got = String::new();
    let _ = std::io::Read::read_to_string(&mut probe, &mut got);
    assert_eq!(got, "SET?\r\nNG \r\n");
    let a = yomi_client(ports[0], "random", 13);
    let b = yomi_client(ports[1], "random", 14);
    let report = result.join().unwrap().unwrap();
    assert!(matches!(report.ending, Ending::Rules(_)), "{report:?}");
    a.join().unwrap();
    b.join().unwrap();
}

#[test]
fn a_seat_never_taken_ends_the_wait_with_a_clear_error() {
    let (mut srv, ports) = server(Clock::default());
    srv.seat_timeout = Duration::from_millis(1500);
    let started = Instant::now();
    let result = thread::spawn(move || play_one_within(srv, Duration::from_secs(30)));
    // Only the first player comes.
    let first = raw_client(ports[0], |l| (l == "SET?").then(|| "SET:ABCD".to_string()));
    let e = result.join().unwrap().unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::TimedOut);
    let msg = e.to_string();
    assert!(msg.contains("second player's seat"), "{msg}");
    assert!(msg.contains(&ports[1].to_string()), "{msg}");
    assert!(started.elapsed() < Duration::from_secs(10));
    first.join().unwrap();
}

#[test]
fn an_escaped_ghost_is_lower_case_in_the_final_board_as_the_reference_server_writes_it() {
    let game = Geister::standard();
    let mut t = Table::new(&game);
    let play = |t: &mut Table, p: u8, msg: &str| {
        let m: ClientMsg = msg.parse().unwrap();
        let mv = t.to_move(&game, Player(p), m).expect(msg);
        t.apply(&game, mv);
    };
    play(&mut t, 0, "SET:ABCD");
    play(&mut t, 1, "SET:ABCD");
    // The first player's blue ghost E walks up the west edge and escapes from (0,0).
    let first = [
        "MOV:E,W", "MOV:E,N", "MOV:E,N", "MOV:E,N", "MOV:E,N", "MOV:E,N", "MOV:E,N",
    ];
    for (k, m) in first.iter().enumerate() {
        play(&mut t, 0, m);
        if k + 1 < first.len() {
            play(&mut t, 1, if k % 2 == 0 { "MOV:A,N" } else { "MOV:A,S" });
        }
    }
    assert!(
        matches!(
            t.state.outcome(),
            Outcome::Win {
                winner: Player(0),
                ..
            }
        ),
        "{:?}",
        t.state.outcome()
    );
    let mine = t.board_string(Player(0), true).to_string();
    assert_eq!(&mine[12..15], "88b", "{mine}");
    let theirs = t.board_string(Player(1), true).to_string();
    assert_eq!(&theirs[36..39], "88b", "{theirs}");
}

#[test]
fn the_client_retries_while_the_server_pauses_between_games() {
    // A port that refuses connections for a while, then a one-message server.
    let port = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let server = thread::spawn(move || {
        thread::sleep(Duration::from_millis(800));
        let l = TcpListener::bind(("127.0.0.1", port)).unwrap();
        let (mut s, _) = l.accept().unwrap();
        s.write_all(format!("WON:{EXAMPLE}\r\n").as_bytes())
            .unwrap();
    });
    let game = Geister::standard();
    let mut agent = registry().build(&game, "random", 1).unwrap();
    let r = connect_and_play_with_retry(
        ("127.0.0.1", port),
        Duration::from_secs(20),
        &game,
        agent.as_mut(),
        |_| {},
    )
    .unwrap();
    assert!(matches!(r, ClientResult::Won(_)));
    server.join().unwrap();
}

/// Found by fuzzing (`fuzz/run.sh geister_protocol`): a board string whose opponent half
/// shows more blue ghosts (known on the board plus escaped) than the game has made
/// `state_from_board` subtract past zero and panic; it is now refused as a bad board.
#[test]
fn a_board_with_more_than_four_opponent_blues_is_refused_not_a_panic() {
    use yomi_geister::protocol::BoardString;
    use yomi_geister::session::state_from_board;
    let game = yomi_geister::Geister::standard();
    let board: BoardString = "14R24R34R22R15B25B35B99B41r88r21b11b40b30b20r10r"
        .parse()
        .expect("the fuzzer's board string parses");
    for seat in [yomi_core::Player(0), yomi_core::Player(1)] {
        let err = state_from_board(&game, &board, seat, 3).unwrap_err();
        assert!(err.to_string().contains("ghosts"), "{err}");
    }
}

#[test]
fn endings_read_as_words_not_rust_debug_output() {
    use yomi_geister::rules::WinReason;
    use yomi_geister::session::Ending;
    let cases = [
        (
            Ending::Rules(Outcome::Win {
                winner: Player(0),
                reason: WinReason::Escape,
            }),
            "first player won: a blue ghost escaped",
        ),
        (Ending::Rules(Outcome::Draw), "draw at the ply limit"),
        (
            Ending::Timeout { loser: Player(1) },
            "second player lost: out of time",
        ),
        (
            Ending::Illegal {
                loser: Player(0),
                line: "MOV:Z,NORTH".repeat(10),
            },
            "first player lost: illegal set-up or move \"MOV:Z,NORTH",
        ),
    ];
    for (ending, words) in cases {
        let text = ending.to_string();
        assert!(text.starts_with(words), "{text:?}");
        assert!(!text.contains("Player(") && !text.contains('{'), "{text}");
        assert!(text.chars().count() < 120, "{text}");
    }
}
