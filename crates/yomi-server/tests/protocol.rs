//! The WebSocket protocol end to end against a real server on 127.0.0.1 (no browser).

use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;
use yomi_server::{start, ServeConfig};

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

struct Client {
    ws: Ws,
}

impl Client {
    async fn connect(addr: std::net::SocketAddr) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
            .await
            .expect("connect");
        let mut c = Client { ws };
        let hello = c.next().await;
        assert_eq!(hello["type"], "hello");
        c
    }

    async fn send(&mut self, v: Value) {
        self.ws
            .send(Message::Text(v.to_string().into()))
            .await
            .unwrap();
    }

    async fn next(&mut self) -> Value {
        loop {
            let m = tokio::time::timeout(Duration::from_secs(60), self.ws.next())
                .await
                .expect("a reply within 60 s")
                .expect("open")
                .expect("ok");
            if let Message::Text(t) = m {
                return serde_json::from_str(t.as_str()).unwrap();
            }
        }
    }

    /// The next message of type `ty`.
    async fn next_of(&mut self, ty: &str) -> Value {
        loop {
            let v = self.next().await;
            if v["type"] == ty {
                return v;
            }
        }
    }

    /// The next state where a person is to move or the game is over.
    async fn settled(&mut self) -> Value {
        loop {
            let v = self.next_of("state").await;
            if v["terminal"] == true || !v["legal"].as_array().unwrap().is_empty() {
                return v;
            }
        }
    }
}

async fn server() -> std::net::SocketAddr {
    start("127.0.0.1", 0, ServeConfig::default())
        .await
        .unwrap()
        .0
}

fn first_legal(state: &Value) -> String {
    state["legal"][0]["text"].as_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tictactoe_against_mcts_to_the_end() {
    let addr = server().await;
    let mut c = Client::connect(addr).await;
    c.send(json!({"type":"new","game":"tictactoe","seats":["human","mcts:iters=200"],"seed":3}))
        .await;
    let mut s = c.settled().await;
    let mut moves = 0;
    while s["terminal"] != true {
        let text = first_legal(&s);
        c.send(json!({"type":"move","text":text})).await;
        s = c.settled().await;
        moves += 1;
        assert!(moves <= 5);
    }
    assert!(s["result"].as_str().unwrap().len() > 3, "{s}");
    assert_eq!(s["returns"].as_array().unwrap().len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn illegal_moves_and_malformed_messages_get_reasons() {
    let addr = server().await;
    let mut c = Client::connect(addr).await;
    c.send(json!({"type":"new","game":"tictactoe","seats":["human","human"]}))
        .await;
    c.settled().await;
    c.send(json!({"type":"move","text":"b2"})).await;
    c.settled().await;
    c.send(json!({"type":"move","text":"b2"})).await;
    let e = c.next_of("error").await;
    assert!(e["reason"].as_str().unwrap().contains("taken"), "{e}");
    for bad in [
        "not json".to_string(),
        json!({"type":"fly"}).to_string(),
        json!({"type":"move"}).to_string(),
        json!({"type":"new","game":"chess","seats":[]}).to_string(),
        json!({"type":"new","game":"tictactoe","seats":["human","mcts:iters=-3"]}).to_string(),
        json!({"type":"seek","ply":99}).to_string(),
    ] {
        c.ws.send(Message::Text(bad.clone().into())).await.unwrap();
        let e = c.next_of("error").await;
        assert!(!e["reason"].as_str().unwrap().is_empty(), "{bad}: {e}");
    }
    c.ws.send(Message::Binary(vec![1, 2, 3].into()))
        .await
        .unwrap();
    c.next_of("error").await;
    // Still playing the same game.
    c.send(json!({"type":"move","text":"a1"})).await;
    let s = c.settled().await;
    assert_eq!(s["moves"], json!(["b2", "a1"]));
    // A message over the size limit closes only this connection; the server lives on.
    let huge = format!(
        "{{\"type\":\"ping\",\"t\":1,\"pad\":\"{}\"}}",
        "x".repeat(2 << 20)
    );
    let _ = c.ws.send(Message::Text(huge.into())).await;
    let mut d = Client::connect(addr).await;
    d.send(json!({"type":"ping","t":5.0})).await;
    assert_eq!(d.next_of("pong").await["t"], 5.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_resumes_from_its_id_after_a_reload() {
    let addr = server().await;
    let mut c = Client::connect(addr).await;
    c.send(json!({"type":"new","game":"connect4","seats":["human","human"]}))
        .await;
    c.settled().await;
    for m in ["d", "d", "e"] {
        c.send(json!({"type":"move","text":m})).await;
        c.settled().await;
    }
    let s = c.settled_now().await;
    let id = s["id"].as_str().unwrap().to_string();
    drop(c);
    let mut d = Client::connect(addr).await;
    d.send(json!({"type":"resume","id":id})).await;
    let s = d.settled().await;
    assert_eq!(s["moves"], json!(["d", "d", "e"]));
    // Rebuilt from the move list alone (what the page keeps in its address).
    d.send(json!({"type":"new","game":"connect4","seats":["human","human"],"moves":["d","d","e"]}))
        .await;
    let s = d.settled().await;
    assert_eq!(s["ply"], 3);
}

impl Client {
    /// Asks for the position again (seek to the end) and returns it.
    async fn settled_now(&mut self) -> Value {
        self.send(json!({"type":"pause","paused":false})).await;
        self.next_of("state").await
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn go_pass_pass_gives_the_score() {
    let addr = server().await;
    let mut c = Client::connect(addr).await;
    c.send(json!({"type":"new","game":"go:5","seats":["human","human"]}))
        .await;
    c.settled().await;
    for m in ["C3", "pass", "pass"] {
        c.send(json!({"type":"move","text":m})).await;
    }
    let mut s = c.settled().await;
    while s["terminal"] != true {
        s = c.settled().await;
    }
    let info = s["view"]["info"].to_string();
    assert!(info.contains("score (dead stones removed)"), "{info}");
    assert!(info.contains("B+17.5"), "{info}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analysis_reports_visits_and_stops() {
    let addr = server().await;
    let mut c = Client::connect(addr).await;
    c.send(json!({"type":"new","game":"connect4","seats":["human","human"]}))
        .await;
    c.settled().await;
    c.send(json!({"type":"analyse","agent":"mcts"})).await;
    let a = c.next_of("analysis").await;
    assert_eq!(a["moves"].as_array().unwrap().len(), 7);
    assert!(!a["pv"].as_array().unwrap().is_empty());
    c.send(json!({"type":"stop"})).await;
    // Pings are answered while it searches or winds down.
    c.send(json!({"type":"ping","t":1.5})).await;
    c.next_of("pong").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_record_replays_and_seeks() {
    let dir = tempfile::tempdir().unwrap();
    let (addr, _) = start(
        "127.0.0.1",
        0,
        ServeConfig {
            records: Some(dir.path().to_path_buf()),
        },
    )
    .await
    .unwrap();
    let mut c = Client::connect(addr).await;
    // A finished game is written to the records file, then replayed from it.
    c.send(json!({"type":"new","game":"tictactoe","seats":["random","random"],"seed":4}))
        .await;
    let s = c.settled().await;
    let moves = s["moves"].clone();
    c.send(json!({"type":"replay","file":"yomi-serve.jsonl","index":0}))
        .await;
    let r = c.next_of("state").await;
    assert_eq!(r["mode"], "replay");
    assert_eq!(r["ply"], 0);
    assert_eq!(r["moves"], moves);
    c.send(json!({"type":"seek","ply":2})).await;
    let r = c.next_of("state").await;
    assert_eq!(r["ply"], 2);
    let filled = r["view"]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x.as_str() != Some(""))
        .count();
    assert_eq!(filled, 2);
    c.send(json!({"type":"follow","file":"yomi-serve.jsonl"}))
        .await;
    let st = c.next_of("standings").await;
    assert_eq!(st["games"], 1);
    c.send(json!({"type":"replay","file":"../etc/passwd"}))
        .await;
    c.next_of("error").await;
}

/// 100 games at once, each against an agent; every game sees only its own moves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hundred_concurrent_games() {
    let addr = server().await;
    let mut tasks = Vec::new();
    for k in 0..100u64 {
        tasks.push(tokio::spawn(async move {
            let mut c = Client::connect(addr).await;
            c.send(json!({"type":"new","game":"tictactoe","seats":["human","mcts:iters=100"],"seed":k}))
                .await;
            let mut s = c.settled().await;
            let mut mine = Vec::new();
            while s["terminal"] != true {
                let text = first_legal(&s);
                mine.push(text.clone());
                c.send(json!({"type":"move","text":text})).await;
                s = c.settled().await;
            }
            let moves: Vec<String> = serde_json::from_value(s["moves"].clone()).unwrap();
            let even: Vec<String> = moves.iter().step_by(2).cloned().collect();
            assert_eq!(even, mine, "game {k}");
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
}

/// The round trip of a person's move (no agent to think) and of a ping, on loopback.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn move_round_trip_is_fast() {
    let addr = server().await;
    let mut c = Client::connect(addr).await;
    let mut times = Vec::new();
    for _ in 0..20 {
        c.send(json!({"type":"new","game":"othello","seats":["human","human"]}))
            .await;
        let mut s = c.settled().await;
        for _ in 0..10 {
            let text = first_legal(&s);
            let t = Instant::now();
            c.send(json!({"type":"move","text":text})).await;
            s = c.settled().await;
            times.push(t.elapsed().as_secs_f64() * 1000.0);
        }
    }
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    println!(
        "move round trip: median {median:.3} ms over {} moves",
        times.len()
    );
    assert!(median < 50.0, "median {median} ms");
}
