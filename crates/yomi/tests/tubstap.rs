//! End-to-end tests of TUBSTAP in the `yomi` binary: the game list, `yomi tubstap check`,
//! `match` / `play` / `agents` / `bench` on TUBSTAP maps, `yomi tubstap experiment` and
//! `yomi tubstap client` against a scripted server over loopback.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::PathBuf;
use std::thread;
use std::time::Duration;

mod common;
use common::{path_str, yomi};

/// A fresh folder for a test of this file.
fn scratch(name: &str) -> PathBuf {
    common::scratch(&format!("tubstap-{name}"))
}

/// A 5x5 map (3x3 playable) whose blue infantry starts on the sea, with a wrong count.
const ODD_MAP: &str = "SIZEX[5];SIZEY[5];TURNLIMIT[6];HPTHRESHOLD[0];UNITNUMRED[2];UNITNUMBLUE[1];
UNIT[1,1,panzer,0,10,0];
UNIT[3,3,infantry,1,10,0];
MAP[0,0,0,0,0];
MAP[0,1,1,1,0];
MAP[0,1,3,1,0];
MAP[0,1,1,2,0];
MAP[0,0,0,0,0];
";

#[test]
fn the_game_list_and_agents_name_tubstap() {
    yomi(&["games"]).ok().says(&["tubstap ", "tubstap:duel"]);
    yomi(&["agents", "tubstap"])
        .ok()
        .says(&["uct-pw", "dlmc-m12", "attack-action search", "time"]);
    yomi(&["match", "tubstap:atlantis", "random", "random"]).fails(
        2,
        &[
            "tubstap:atlantis",
            "built-in maps: standard, duel, skies, fortress",
        ],
    );
}

#[test]
fn check_prints_warnings_and_the_map_and_names_errors() {
    yomi(&["tubstap", "check", "standard"]).ok().says(&[
        "8x8 cells",
        "12 units (6 red, 6 blue)",
        "warnings: none",
        "red to move",
    ]);
    let dir = scratch("check");
    let odd = dir.join("odd.tbsmap");
    std::fs::write(&odd, ODD_MAP).unwrap();
    yomi(&["tubstap", "check", path_str(&odd)]).ok().says(&[
        "warning: unit #1 (infantry) starts on sea at 3,3",
        "warning: UNITNUMRED declares 2 units but the map places 1",
        "tubstap:odd: side-turn 1 of 6",
    ]);
    let bad = dir.join("bad.tbsmap");
    std::fs::write(&bad, ODD_MAP.replace("UNIT[1,1,panzer", "UNIT[1,1,tonk")).unwrap();
    yomi(&["tubstap", "check", path_str(&bad)])
        .fails(1, &["bad.tbsmap is not a valid map", "line 2", "tonk"]);
    yomi(&["tubstap", "check", path_str(&dir.join("missing.tbsmap"))]).fails(1, &["cannot read"]);
}

#[test]
fn match_and_play_run_on_builtin_and_file_maps() {
    yomi(&[
        "match",
        "tubstap:duel",
        "attack",
        "dlmc:m=4,n=2",
        "--games",
        "2",
        "--quiet",
        "--seed",
        "3",
    ])
    .ok()
    .says(&["tubstap:duel: 2 games", "attack", "dlmc:m=4,n=2"]);
    let dir = scratch("match");
    let odd = dir.join("odd.tbsmap");
    std::fs::write(&odd, ODD_MAP).unwrap();
    let game = format!("tubstap:{}", path_str(&odd));
    yomi(&[
        "match", &game, "random", "attack", "--games", "2", "--quiet",
    ])
    .ok()
    .says(&["tubstap:odd: 2 games"]);
    yomi(&["play", "tubstap:duel", "attack", "random", "--seed", "2"])
        .ok()
        .says(&[
            "tubstap:duel: red (attack) vs blue (random)",
            "Result:",
            "Moves:",
        ]);
}

#[test]
fn bench_adds_the_papers_figures() {
    yomi(&["bench", "tubstap:duel", "--quick"]).ok().says(&[
        "random playouts",
        "policy playouts (p=0.8)",
        "Dlmc turn (m=200, n=100, d=2) in milliseconds",
        "Dlmc simulations",
        "uct-pw iterations",
    ]);
    yomi(&["tubstap", "bench", "--map", "atlantis"]).fails(2, &["atlantis"]);
}

#[test]
fn experiment_puts_the_papers_numbers_beside_ours() {
    let dir = scratch("experiment");
    let file = dir.join("small.toml");
    std::fs::write(
        &file,
        "game = \"tubstap:duel\"\nagents = [\"uct-pw:iters=60\", \"dlmc:m=4,n=2\"]\ngames = 2\nseed = 1\n",
    )
    .unwrap();
    yomi(&["tubstap", "experiment", path_str(&file), "--quiet"])
        .ok()
        .says(&[
            "Standings",
            "Beside the paper",
            "| dlmc:m=4,n=2 vs uct-pw:iters=60 |",
            "427-245-328",
        ]);
    let other = dir.join("other.toml");
    std::fs::write(&other, "game = \"connect4\"\nagents = [\"random\"]\n").unwrap();
    yomi(&["tubstap", "experiment", path_str(&other)]).fails(2, &["not a TUBSTAP game"]);
}

/// Serves `script` to one client: sends each command and reads its `= ...` answer
/// (`None` once the client has gone), then closes. Returns the answers.
fn scripted_server(script: Vec<String>) -> (u16, thread::JoinHandle<Vec<Option<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let handle = thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut writer = stream;
        let mut answers = Vec::new();
        for command in script {
            if writer
                .write_all(format!("{command}\r\n").as_bytes())
                .is_err()
            {
                answers.push(None);
                break;
            }
            let mut line = String::new();
            let mut blank = String::new();
            match (reader.read_line(&mut line), reader.read_line(&mut blank)) {
                (Ok(n), Ok(_)) if n > 0 => {
                    assert_eq!(blank, "\r\n");
                    answers.push(Some(line.trim_end().to_string()));
                }
                _ => {
                    answers.push(None);
                    break;
                }
            }
        }
        answers
    });
    (port, handle)
}

fn duel_map_line() -> String {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../yomi-tubstap/maps/duel.tbsmap"
    ))
    .unwrap();
    text.lines().collect()
}

#[test]
fn client_plays_on_a_server_and_reports_protocol_errors() {
    let script: Vec<String> = vec![
        "name".into(),
        "opponent platform-ai".into(),
        format!("MAP {}", duel_map_line()),
        "Color 1".into(),
        // Red ends its turn at once; blue (the client) acts with both units.
        "play -1,-1,-1,0,0,-1,0,0,3,0,0".into(),
        "Genmove".into(),
        "Genmove".into(),
        "gameover".into(),
    ];
    let (port, server) = scripted_server(script);
    let port_text = port.to_string();
    let r = yomi(&[
        "tubstap",
        "client",
        "--host",
        "127.0.0.1",
        "--port",
        &port_text,
        "--agent",
        "attack",
        "--timeout",
        "30",
    ]);
    r.ok().says(&[
        "1 game",
        "game 1: as blue against platform-ai: 2 actions sent, 1 received; not finished",
    ]);
    let answers = server.join().unwrap();
    assert_eq!(answers[0].as_deref(), Some("= yomi attack"));
    assert!(answers[1..5].iter().all(|a| a.as_deref() == Some("=")));
    for genmove in &answers[5..7] {
        let action = genmove.as_deref().unwrap().strip_prefix("= ").unwrap();
        assert_eq!(action.split(',').count(), 11, "{action}");
    }

    // A malformed line ends the session with exit code 1 and names the line.
    let (port, server) = scripted_server(vec!["name".into(), "Color 7".into()]);
    let port_text = port.to_string();
    yomi(&[
        "tubstap",
        "client",
        "--host",
        "127.0.0.1",
        "--port",
        &port_text,
        "--timeout",
        "30",
    ])
    .fails(1, &["line 2", "Color 7", "expected 0 (red) or 1 (blue)"]);
    assert_eq!(server.join().unwrap()[1], None);

    // A bad agent is a usage error before connecting.
    yomi(&[
        "tubstap",
        "client",
        "--host",
        "127.0.0.1",
        "--port",
        "9",
        "--agent",
        "dlmc:m=0",
    ])
    .fails(2, &["m"]);
}
