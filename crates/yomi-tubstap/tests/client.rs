//! The network client against a small fake server over loopback TCP: the server side of
//! the platform's messages is written out here by hand (its own action formatting), plays
//! the opponent with a random agent, asks `Genmove` as the platform does (once per unit
//! able to act at the turn's start, stopping after a turn end) and checks every answer.
//! Malformed lines must end the session with a clear error, never a panic or a hang.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::thread;
use std::time::{Duration, Instant};

use yomi_core::agent::{Agent, RandomAgent};
use yomi_core::{Game, Player};
use yomi_tubstap::client::{
    connect, parse_command, run_session, ClientConfig, LineError, NetMove, ProtocolError,
    ServerCommand, SessionReport, WireAction,
};
use yomi_tubstap::{maps, TbsMove, Tubstap};

const LIMIT: Duration = Duration::from_secs(30);

fn map_text(name: &str) -> String {
    let (_, text) = maps::BUILTIN.iter().find(|(n, _)| *n == name).unwrap();
    // As the platform sends it: the file's lines joined without separators.
    text.lines().collect::<String>()
}

fn config(agent: &str) -> ClientConfig {
    ClientConfig {
        name: "yomi-test".into(),
        agent: agent.into(),
        seed: 5,
        timeout: Some(LIMIT),
        ..ClientConfig::default()
    }
}

/// The server's end of one connection.
struct Server {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

impl Server {
    fn send(&mut self, line: &str) {
        self.writer
            .write_all(format!("{line}\r\n").as_bytes())
            .unwrap();
    }

    /// Reads `= answer\r\n\r\n` and returns `answer`.
    fn answer(&mut self) -> String {
        let mut first = String::new();
        self.reader.read_line(&mut first).unwrap();
        let mut blank = String::new();
        self.reader.read_line(&mut blank).unwrap();
        assert_eq!(blank, "\r\n", "answers end with an empty line: {first:?}");
        let body = first
            .strip_suffix("\r\n")
            .and_then(|l| l.strip_prefix("= "))
            .unwrap_or_else(|| panic!("an answer is `= ...\\r\\n`: {first:?}"));
        body.to_string()
    }

    fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.answer()
    }
}

/// Runs `client` against a server on a fresh loopback port; `serve` plays the server.
fn session<T: Send + 'static>(
    cfg: ClientConfig,
    serve: impl FnOnce(Server) -> T,
) -> (Result<SessionReport, ProtocolError>, T) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let client = thread::spawn(move || connect("127.0.0.1", port, &cfg, &mut |_| {}));
    listener.set_nonblocking(true).unwrap();
    let start = Instant::now();
    let stream = loop {
        match listener.accept() {
            Ok((s, _)) => break s,
            Err(_) if start.elapsed() < LIMIT => thread::sleep(Duration::from_millis(5)),
            Err(e) => panic!("no client connected: {e}"),
        }
    };
    stream.set_nonblocking(false).unwrap();
    stream.set_read_timeout(Some(LIMIT)).unwrap();
    let server = Server {
        reader: BufReader::new(stream.try_clone().unwrap()),
        writer: stream,
    };
    let out = serve(server);
    (client.join().expect("the client never panics"), out)
}

/// The server's own formatting of an action (independent of `WireAction`).
fn format_action(game: &Tubstap, state: &yomi_tubstap::TbsState, mv: &TbsMove) -> String {
    match mv {
        TbsMove::EndTurn => "-1,-1,-1,0,0,-1,0,0,3,0,0".into(),
        TbsMove::Act(a) => {
            let u = state.unit(a.unit as usize);
            match a.target {
                None => format!("{},{},{},{},{},-1,0,0,1,0,0", a.unit, a.x, a.y, u.x, u.y),
                Some(t) => {
                    let e = state.unit(t as usize);
                    let (d, c) = game.preview(state, a);
                    format!(
                        "{},{},{},{},{},{t},{},{},2,{d},{c}",
                        a.unit, a.x, a.y, u.x, u.y, e.x, e.y
                    )
                }
            }
        }
    }
}

/// What the server saw of one game.
#[derive(Debug, Default)]
struct Served {
    /// Answers to `Genmove`.
    client_actions: usize,
    /// `play` lines sent.
    server_actions: usize,
    /// Units destroyed by counter-attacks in their own turn.
    lost_attacking: usize,
    final_state: String,
    winner: Option<u8>,
}

/// 1 when `mv` was an attack whose unit the counter-attack destroyed.
fn lost(after: &yomi_tubstap::TbsState, mv: &TbsMove) -> usize {
    match mv {
        TbsMove::Act(a) if a.target.is_some() => usize::from(after.unit(a.unit as usize).hp == 0),
        _ => 0,
    }
}

/// Plays one game as the platform does: the client is `client_color`, the server's random
/// agent the other side.
fn serve_game(s: &mut Server, map: &str, client_color: u8, seed: u64) -> Served {
    let game = maps::load(map).unwrap();
    assert_eq!(s.ask("name"), "yomi-test");
    assert_eq!(s.ask("opponent random bot"), "");
    assert_eq!(s.ask(&format!("MAP {}", map_text(map))), "");
    assert_eq!(s.ask(&format!("Color {client_color}")), "");
    let mut state = game.initial_state();
    let mut random = RandomAgent::new(seed);
    let mut served = Served::default();
    while !game.over(&state) {
        let side = state.mover();
        let asks = game.ready_count(&state);
        for _ in 0..asks {
            if state.alive(0) == 0 || state.alive(1) == 0 {
                break;
            }
            // A unit destroyed by a counter-attack has used its action, so the side is still
            // to move for every request of the platform's count.
            assert_eq!(state.mover(), side);
            if side == client_color {
                let reply = s.ask("Genmove");
                let wire = WireAction::parse(&reply).expect("11 integers");
                let Ok(NetMove::Move(mv)) = wire.to_move(&game, &state) else {
                    panic!("the client's answer {reply:?} is not a legal move");
                };
                assert_eq!(reply, format_action(&game, &state, &mv));
                served.client_actions += 1;
                game.play(&mut state, mv).unwrap();
                served.lost_attacking += lost(&state, &mv);
                if mv == TbsMove::EndTurn {
                    break;
                }
            } else {
                let mv = random.select_move(&game, &state, Player(side)).unwrap();
                assert_eq!(
                    s.ask(&format!("play {}", format_action(&game, &state, &mv))),
                    ""
                );
                served.server_actions += 1;
                game.play(&mut state, mv).unwrap();
                served.lost_attacking += lost(&state, &mv);
                if mv == TbsMove::EndTurn {
                    break;
                }
            }
        }
    }
    let me = client_color;
    let status = s.ask("status");
    assert_eq!(
        status,
        format!(
            "{} {}",
            game.total_hp(&state, me),
            game.total_hp(&state, 1 - me)
        )
    );
    assert_eq!(s.ask("gameover"), "");
    served.final_state = game.format_state(&state);
    served.winner = game.winner(&state);
    served
}

#[test]
fn plays_whole_games_on_both_sides_over_tcp() {
    const GAMES: [(&str, u8); 6] = [
        ("duel", 0),
        ("duel", 1),
        ("standard", 0),
        ("standard", 1),
        ("fortress", 0),
        ("skies", 1),
    ];
    let (report, served) = session(config("dlmc:m=30,n=10"), |mut s| {
        GAMES
            .iter()
            .enumerate()
            .map(|(i, (map, color))| serve_game(&mut s, map, *color, 11 + i as u64))
            .collect::<Vec<_>>()
    });
    let report = report.expect("the session ends when the server closes");
    assert_eq!(report.games.len(), GAMES.len());
    for (i, (g, s)) in report.games.iter().zip(&served).enumerate() {
        assert!(g.gameover && g.over, "game {i}: {g}");
        assert_eq!(g.color, Some(GAMES[i].1));
        assert_eq!(g.opponent.as_deref(), Some("random bot"));
        assert_eq!(g.final_state, s.final_state, "game {i}");
        assert_eq!(g.winner, s.winner, "game {i}");
        assert_eq!(g.sent, s.client_actions, "game {i}");
        assert_eq!(g.received, s.server_actions, "game {i}");
        assert!(g.to_string().contains("random bot"), "{g}");
    }
    // Units destroyed by counter-attacks kept the platform's count of requests exact.
    assert!(served.iter().any(|s| s.lost_attacking > 0), "{served:?}");
    // DLMC beats random play.
    let wins = report.games.iter().filter(|g| g.winner == g.color).count();
    assert!(wins >= 5, "{report:?}");
}

/// Feeds `input` to a session over in-memory streams.
fn feed(input: &[u8], agent: &str) -> (Result<SessionReport, ProtocolError>, String) {
    let mut out = Vec::new();
    let r = run_session(input, &mut out, &config(agent), &mut |_| {});
    (r, String::from_utf8(out).unwrap())
}

fn line_error(input: &str) -> (usize, LineError) {
    match feed(input.as_bytes(), "attack").0 {
        Err(ProtocolError::Line { line, error, .. }) => (line, error),
        other => panic!("expected a line error for {input:?}, got {other:?}"),
    }
}

fn opening(color: u8) -> String {
    format!(
        "name\r\nopponent x\r\nMAP {}\r\nColor {color}\r\n",
        map_text("duel")
    )
}

#[test]
fn answers_are_in_the_platform_format() {
    let input = format!("{}Genmove\r\n", opening(0));
    let (r, out) = feed(input.as_bytes(), "attack");
    let report = r.unwrap();
    assert_eq!(report.lines, 5);
    let answers: Vec<&str> = out.split("\r\n\r\n").collect();
    assert_eq!(answers.len(), 6, "{out:?}");
    assert_eq!(&answers[..4], &["= yomi-test", "= ", "= ", "= "]);
    let action = answers[4].strip_prefix("= ").unwrap();
    assert_eq!(action.split(',').count(), 11, "{action}");
    assert!(!report.games[0].over);
}

#[test]
fn commands_parse_and_malformed_ones_are_named() {
    assert_eq!(parse_command("Genmove"), Ok(ServerCommand::Genmove));
    assert_eq!(parse_command("genmove  "), Ok(ServerCommand::Genmove));
    assert_eq!(parse_command("Color 1"), Ok(ServerCommand::Color(1)));
    assert_eq!(
        parse_command("opponent M-UCT 2"),
        Ok(ServerCommand::Opponent("M-UCT 2".into()))
    );
    assert!(matches!(
        parse_command("Color red"),
        Err(LineError::BadArgument {
            command: "Color",
            ..
        })
    ));
    assert!(matches!(
        parse_command("Genmove now"),
        Err(LineError::BadArgument {
            command: "Genmove",
            ..
        })
    ));
    assert!(matches!(
        parse_command("MAP"),
        Err(LineError::BadArgument { command: "MAP", .. })
    ));
    let e = parse_command("boardsize 9").unwrap_err();
    assert!(
        e.to_string().contains("unknown command \"boardsize\""),
        "{e}"
    );
    assert!(e.to_string().contains("Genmove, play"), "{e}");
}

#[test]
fn malformed_and_illegal_lines_end_the_session_with_clear_errors() {
    let (line, e) = line_error("name\r\nhello there\r\n");
    assert_eq!(line, 2);
    assert!(matches!(e, LineError::UnknownCommand { .. }), "{e}");

    let (line, e) = line_error("Color 2\r\n");
    assert_eq!(line, 1);
    assert!(
        e.to_string().contains("expected 0 (red) or 1 (blue)"),
        "{e}"
    );

    let (_, e) = line_error("Genmove\r\n");
    assert!(e.to_string().contains("no MAP has been sent"), "{e}");

    let (_, e) = line_error(&format!("MAP {}\r\nGenmove\r\n", map_text("duel")));
    assert!(e.to_string().contains("no Color"), "{e}");

    let (line, e) = line_error("MAP SIZEX[8];SIZEY[x];\r\n");
    assert_eq!(line, 1);
    assert!(matches!(e, LineError::Map(_)), "{e}");

    // The client is blue: red's actions come as `play`.
    let blue = opening(1);
    let (line, e) = line_error(&format!("{blue}play 1,2,3\r\n"));
    assert_eq!(line, 5);
    assert!(e.to_string().contains("3 fields"), "{e}");
    let (_, e) = line_error(&format!("{blue}play 0,2,2,1,1,-1,0,0,one,0,0\r\n"));
    assert!(e.to_string().contains("field 9 (type)"), "{e}");
    let (_, e) = line_error(&format!("{blue}play 0,2,2,1,1,-1,0,0,7,0,0\r\n"));
    assert!(e.to_string().contains("action type 7"), "{e}");
    let (_, e) = line_error(&format!("{blue}play 40,2,2,1,1,-1,0,0,1,0,0\r\n"));
    assert!(e.to_string().contains("unit 40"), "{e}");

    let game = maps::builtin("duel").unwrap();
    let s = game.initial_state();
    let red = (0..game.units()).find(|&i| game.team(i) == 0).unwrap();
    let blue_unit = (0..game.units()).find(|&i| game.team(i) == 1).unwrap();
    let u = s.unit(red);
    // Wrong starting cell.
    let (_, e) = line_error(&format!(
        "{blue}play {red},{},{},{},{},-1,0,0,1,0,0\r\n",
        u.x,
        u.y,
        u.x + 1,
        u.y
    ));
    assert!(e.to_string().contains("not at"), "{e}");
    // Out of the playable area.
    let (_, e) = line_error(&format!(
        "{blue}play {red},0,{},{},{},-1,0,0,1,0,0\r\n",
        u.y, u.x, u.y
    ));
    assert!(e.to_string().contains("outside the playable area"), "{e}");
    // Too far: the far corner is out of reach.
    let (w, h) = (game.map().width as u8 - 2, game.map().height as u8 - 2);
    let far = if u.x + u.y <= w { (w, h) } else { (1, 1) };
    let (_, e) = line_error(&format!(
        "{blue}play {red},{},{},{},{},-1,0,0,1,0,0\r\n",
        far.0, far.1, u.x, u.y
    ));
    assert!(matches!(e, LineError::IllegalAction { .. }), "{e}");
    // A move-only action with a target.
    let (_, e) = line_error(&format!(
        "{blue}play {red},{},{},{},{},{blue_unit},0,0,1,0,0\r\n",
        u.x, u.y, u.x, u.y
    ));
    assert!(e.to_string().contains("must be -1"), "{e}");
    // The client's own unit sent as the opponent's action.
    let b = s.unit(blue_unit);
    let (_, e) = line_error(&format!(
        "{}play {blue_unit},{},{},{},{},-1,0,0,1,0,0\r\n",
        opening(0),
        b.x,
        b.y,
        b.x,
        b.y
    ));
    assert!(e.to_string().contains("out of order"), "{e}");
    // Genmove out of turn: the client is blue and red has not moved.
    let (_, e) = line_error(&format!("{blue}Genmove\r\n"));
    assert!(e.to_string().contains("red is to move"), "{e}");
    // Color after the game started.
    let (_, e) = line_error(&format!("{}Genmove\r\nColor 1\r\n", opening(0)));
    assert!(e.to_string().contains("already started"), "{e}");

    // A resignation ends the game; further actions are out of order.
    let (_, e) = line_error(&format!(
        "{blue}play -1,-1,-1,0,0,-1,0,0,0,0,0\r\nplay -1,-1,-1,0,0,-1,0,0,3,0,0\r\n"
    ));
    assert!(e.to_string().contains("the game is over"), "{e}");
}

#[test]
fn stream_level_errors_are_typed() {
    // Not UTF-8.
    let (r, _) = feed(b"name\r\n\xff\xfe\r\n", "attack");
    assert!(
        matches!(r, Err(ProtocolError::NotUtf8 { line: 2 })),
        "{r:?}"
    );
    // Too long.
    let mut cfg = config("attack");
    cfg.max_line = 64;
    let long = format!("opponent {}\r\n", "x".repeat(200));
    let r = run_session(long.as_bytes(), Vec::new(), &cfg, &mut |_| {});
    assert!(
        matches!(r, Err(ProtocolError::LineTooLong { line: 1, limit: 64 })),
        "{r:?}"
    );
    // A bad agent spec is refused before anything is read.
    let (r, out) = feed(b"name\r\n", "dlmc:m=zero");
    assert!(matches!(r, Err(ProtocolError::Agent { .. })), "{r:?}");
    assert!(out.is_empty());
    // The last line may lack its line end; blank lines are skipped.
    let (r, out) = feed(b"\r\n\r\nname", "attack");
    assert_eq!(r.unwrap().lines, 3);
    assert_eq!(out, "= yomi-test\r\n\r\n");
}

#[test]
fn a_silent_server_times_out_and_a_closed_one_ends_the_session() {
    let mut cfg = config("attack");
    cfg.timeout = Some(Duration::from_millis(200));
    let start = Instant::now();
    let (r, ()) = session(cfg, |mut s| {
        assert_eq!(s.ask("name"), "yomi-test");
        // Say nothing more until the client gives up.
        let mut rest = String::new();
        let _ = s.reader.read_line(&mut rest);
    });
    match r {
        Err(ProtocolError::Timeout { line: 1, .. }) => {}
        other => panic!("expected a timeout after line 1, got {other:?}"),
    }
    assert!(start.elapsed() < Duration::from_secs(10));

    let (r, ()) = session(config("attack"), |mut s| {
        assert_eq!(s.ask("name"), "yomi-test");
        s.send("MAP ");
        // Close with a line half written.
        s.writer.write_all(b"Genm").unwrap();
    });
    // "MAP" without a map is a bad argument.
    match r {
        Err(ProtocolError::Line {
            line: 2,
            error: LineError::BadArgument { command: "MAP", .. },
            ..
        }) => {}
        other => panic!("{other:?}"),
    }

    let (r, ()) = session(config("attack"), |mut s| {
        assert_eq!(s.ask("name"), "yomi-test");
    });
    assert_eq!(r.unwrap().games.len(), 0);
}

#[test]
fn nobody_listening_is_a_connect_error() {
    let port = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let r = connect("127.0.0.1", port, &config("attack"), &mut |_| {});
    let e = r.unwrap_err();
    assert!(matches!(e, ProtocolError::Connect { .. }), "{e}");
    assert!(e.to_string().contains(&format!("127.0.0.1:{port}")), "{e}");
}

#[test]
fn wire_actions_round_trip_every_legal_move() {
    let game = maps::standard();
    let mut s = game.initial_state();
    let mut moves = Vec::new();
    let mut rng = RandomAgent::new(3);
    for _ in 0..40 {
        if game.over(&s) {
            break;
        }
        game.legal_moves(&s, &mut moves);
        for mv in &moves {
            let w = WireAction::from_move(&game, &s, mv);
            let back = WireAction::parse(&w.to_string()).unwrap();
            assert_eq!(back, w);
            assert_eq!(back.to_move(&game, &s), Ok(NetMove::Move(*mv)), "{w}");
        }
        let p = s.mover();
        let mv = rng.select_move(&game, &s, Player(p)).unwrap();
        game.play(&mut s, mv).unwrap();
    }
}
