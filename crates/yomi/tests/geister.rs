//! `yomi geister train` end to end on a tiny network: one cycle writes the best network and
//! the log, the network plays through `yomi match` as `az:net=...`, and a second run with
//! the same settings resumes (nothing left to do) instead of starting over.

mod common;

use common::{path_str, scratch, yomi};

#[cfg(feature = "nn")]
const TINY: &str = r#"
seed = 3
cycles = 1
[net]
filters = 8
blocks = 1
value_hidden = 8
[selfplay]
games = 2
threads = 1
max_batch = 2
max_plies = 30
[search]
simulations = 6
temperature_moves = 4
[train]
buffer = 500
batch = 16
steps = 3
[gate]
games = 0
[eval]
opponents = ["random"]
games = 2
simulations = 4
threads = 1
"#;

#[cfg(feature = "nn")]
#[test]
fn geister_training_writes_a_network_that_plays_and_resumes() {
    let dir = scratch("geister-train");
    let config = dir.join("tiny.toml");
    std::fs::write(&config, TINY).unwrap();
    let run = dir.join("run");
    yomi(&[
        "geister",
        "train",
        path_str(&config),
        "--dir",
        path_str(&run),
    ])
    .ok();
    let best = run.join("best.ynn");
    assert!(best.is_file(), "no best.ynn in {}", run.display());
    let log = std::fs::read_to_string(run.join("log.csv")).unwrap();
    assert_eq!(log.lines().count(), 2, "header and one cycle:\n{log}");

    let agent = format!("az:net={},sims=4", path_str(&best));
    yomi(&[
        "match",
        "geister-perfect",
        &agent,
        "random",
        "--games",
        "2",
        "--quiet",
    ])
    .ok()
    .says(&["az"]);

    // The same command again: the cycle is already done, the log keeps one row.
    yomi(&[
        "geister",
        "train",
        path_str(&config),
        "--dir",
        path_str(&run),
    ])
    .ok();
    let again = std::fs::read_to_string(run.join("log.csv")).unwrap();
    assert_eq!(again, log);
}

#[cfg(feature = "nn")]
#[test]
fn geister_training_reports_a_missing_or_bad_config() {
    let dir = scratch("geister-train-bad");
    let missing = dir.join("missing.toml");
    let out = yomi(&[
        "geister",
        "train",
        path_str(&missing),
        "--dir",
        path_str(&dir),
    ]);
    assert_ne!(out.code, Some(0));
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
    assert!(out.stderr.contains("missing.toml"), "{}", out.stderr);
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "cycles = 1\n[net]\nfilterz = 3\n").unwrap();
    let out = yomi(&["geister", "train", path_str(&bad), "--dir", path_str(&dir)]);
    assert_ne!(out.code, Some(0));
    assert!(out.stderr.contains("filterz"), "{}", out.stderr);
}

#[cfg(feature = "nn")]
const TINY_DQN: &str = "seed = 5\ncycles = 2\nmasked = true\n\
    [net]\nfilters = [4, 4, 8]\n\
    [selfplay]\ngames = 16\nenvs = 4\n\
    [explore]\nepsilon_start = 1.0\nepsilon_end = 0.2\ndecay_games = 20\n\
    [train]\nbuffer = 300\nbatch = 16\ntrain_every = 4\nwarmup = 32\ntarget_update = 7\n\
    [eval]\ngames = 10\nevery = 1\nfinal_games = 20\n";

#[cfg(feature = "nn")]
#[test]
fn geister_dqn_trains_on_the_small_board_reports_and_resumes() {
    let dir = scratch("geister-dqn");
    let config = dir.join("tiny.toml");
    std::fs::write(&config, TINY_DQN).unwrap();
    let run = dir.join("run");
    let args = ["geister", "dqn", path_str(&config), "--dir", path_str(&run)];
    // The final evaluation (20 games, masked: no illegal choices) is reported.
    yomi(&args)
        .ok()
        .says(&["32 self-play games", "over 20 games", "illegal choices 0/"]);
    let log = std::fs::read_to_string(run.join("log.csv")).unwrap();
    assert_eq!(log.lines().count(), 3, "header and two cycles:\n{log}");
    // Again: both cycles are done, the log is unchanged.
    yomi(&args).ok();
    assert_eq!(std::fs::read_to_string(run.join("log.csv")).unwrap(), log);
    // A bad key is named.
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "cycles = 1\n[explore]\nepsilon = 0.1\n").unwrap();
    let out = yomi(&["geister", "dqn", path_str(&bad), "--dir", path_str(&dir)]);
    assert_ne!(out.code, Some(0));
    assert!(out.stderr.contains("epsilon"), "{}", out.stderr);
}

#[cfg(feature = "nn")]
#[test]
fn the_shipped_network_plays_without_a_net_parameter_and_only_where_it_fits() {
    yomi(&[
        "match",
        "geister-perfect",
        "az:sims=8",
        "random",
        "--games",
        "2",
        "--quiet",
    ])
    .ok()
    .says(&["az:sims=8"]);
    // Hidden colours: the estimator gives the network a perfect-information position.
    yomi(&[
        "match",
        "geister",
        "estimate:inner=az,sims=8",
        "random",
        "--games",
        "2",
        "--quiet",
    ])
    .ok();
    // Played directly on hidden-colour Geister the shapes differ: an error, not a panic.
    let out = yomi(&["match", "geister", "az:sims=8", "random", "--games", "1"]);
    assert_ne!(out.code, Some(0));
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
    assert!(out.stderr.contains("shipped network"), "{}", out.stderr);
}

const BOARD: &str = "14R24R34R44R15B25B35B45B41u31u21u11u40u30u20u10u";

/// Without the `nn` feature the training commands say how to get it, and `az` is not an
/// agent (the default build; `scripts/test.sh` runs the suite with `--features yomi/nn`).
#[cfg(not(feature = "nn"))]
#[test]
fn without_the_nn_feature_training_commands_say_how_to_build_them() {
    let dir = scratch("geister-no-nn");
    let config = dir.join("az.toml");
    std::fs::write(&config, "").unwrap();
    for command in ["train", "dqn"] {
        yomi(&["geister", command, path_str(&config)]).fails(2, &["--features nn", command]);
    }
    let agents = yomi(&["agents", "geister-perfect"]);
    agents.ok();
    assert!(
        !agents
            .stdout
            .lines()
            .any(|l| l.trim_start().starts_with("az")),
        "{}",
        agents.stdout
    );
}

#[test]
fn the_server_listens_on_localhost_by_default_and_gives_up_on_an_empty_seat() {
    let start = std::time::Instant::now();
    let out = yomi(&["geister", "server", "--port", "0", "--seat-timeout", "1"]);
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    assert!(
        out.stderr.contains("listening: first player on 127.0.0.1:"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("player's seat"), "{}", out.stderr);
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
    assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
}

#[test]
fn the_client_plays_games_across_the_servers_reconnect_pause() {
    use std::io::Write;
    use std::net::TcpListener;
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    // A server that ends each game at once and, like the tournament server, stops
    // listening for a moment between games.
    let server = std::thread::spawn(move || {
        let mut listener = Some(listener);
        for end in ["WON:", "LST:"] {
            let l = listener
                .take()
                .unwrap_or_else(|| TcpListener::bind(("127.0.0.1", port)).unwrap());
            let (mut conn, _) = l.accept().unwrap();
            drop(l);
            conn.write_all(format!("{end}{BOARD}\r\n").as_bytes())
                .unwrap();
            drop(conn);
            std::thread::sleep(std::time::Duration::from_millis(1500));
        }
    });
    let port_text = port.to_string();
    let out = yomi(&[
        "geister", "client", "--port", &port_text, "--games", "2", "--agent", "random",
    ]);
    out.ok()
        .says(&["game 1: won", "game 2: lost", "1 won, 0 drawn, 1 lost"]);
    server.join().unwrap();
}
