//! End-to-end tests in a real browser: headless Chromium driven over WebDriver
//! (chromedriver), against the server on 127.0.0.1.
//!
//! They run when `YOMI_BROWSER=1` is set and `/usr/bin/chromium` and
//! `/usr/bin/chromedriver` exist (Debian's `chromium` and `chromium-driver`;
//! `scripts/test-browser.sh` installs them and runs this file); otherwise each test prints
//! a notice and passes. `YOMI_SCREENSHOTS=DIR` makes `screenshots_of_every_board` write a
//! PNG of every game's board into DIR.
//!
//! The WebDriver client is a few lines of HTTP/1.1 over `std::net::TcpStream`: it speaks
//! only to the chromedriver started here.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

fn enabled(test: &str) -> bool {
    if std::env::var_os("YOMI_BROWSER").is_none() {
        println!("skipping {test}: set YOMI_BROWSER=1 (scripts/test-browser.sh does) to run the browser tests");
        return false;
    }
    for bin in [CHROMIUM, CHROMEDRIVER] {
        if !std::path::Path::new(bin).exists() {
            println!("skipping {test}: {bin} is absent (apt-get install chromium chromium-driver)");
            return false;
        }
    }
    true
}

/// The start of every panic message about the WebDriver connection itself (chromedriver
/// gone, a connection closed without a reply), as opposed to a failed check of the page.
const TRANSPORT: &str = "webdriver transport:";
/// The key under which WebDriver (W3C) returns an element reference.
const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

/// One browser at a time: the tests also run inside the workspace's `cargo test`, whose
/// harness runs tests on parallel threads, and two Chromiums on two cores make timings
/// (and chromedriver) unreliable.
static ONE_BROWSER: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Runs a browser test when enabled, one at a time. A failure of the WebDriver transport
/// (chromedriver dying or dropping a connection, seen once in CI under load) reruns the
/// whole test once with a fresh server and browser; a failed check never does.
fn browser_test(name: &str, test: impl Fn()) {
    if !enabled(name) {
        return;
    }
    let _one = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    for attempt in 1..=2 {
        let Err(panic) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(&test)) else {
            return;
        };
        let message = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if attempt == 1 && message.starts_with(TRANSPORT) {
            eprintln!("{name}: the WebDriver transport failed; running the test again once");
            continue;
        }
        std::panic::resume_unwind(panic);
    }
}

/// The server on a thread of its own, with a records directory.
struct Server {
    addr: SocketAddr,
    dir: tempfile::TempDir,
    _rt: tokio::runtime::Runtime,
}

fn server() -> Server {
    let dir = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let config = yomi_server::ServeConfig {
        records: Some(dir.path().to_path_buf()),
    };
    let (addr, _) = rt
        .block_on(yomi_server::start("127.0.0.1", 0, config))
        .unwrap();
    Server { addr, dir, _rt: rt }
}

/// chromedriver, one headless Chromium session, and a fresh profile.
struct Browser {
    driver: Child,
    port: u16,
    session: String,
    log: PathBuf,
    _profile: tempfile::TempDir,
}

fn http(port: u16, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let mut s = TcpStream::connect(("127.0.0.1", port))
        .map_err(|e| format!("cannot connect to chromedriver: {e}"))?;
    s.set_read_timeout(Some(Duration::from_secs(120)))
        .map_err(|e| e.to_string())?;
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes())
        .map_err(|e| format!("{method} {path}: cannot send: {e}"))?;
    // Read the head, then exactly the body (chromedriver may keep the connection open).
    let mut out = Vec::new();
    let mut buf = [0u8; 65536];
    let read = |s: &mut TcpStream, buf: &mut [u8]| {
        s.read(buf)
            .map_err(|e| format!("{method} {path}: cannot read the reply: {e}"))
    };
    let head_end = loop {
        let n = read(&mut s, &mut buf)?;
        if n == 0 {
            return Err(format!(
                "{method} {path}: chromedriver closed the connection after {} bytes of reply",
                out.len()
            ));
        }
        out.extend_from_slice(&buf[..n]);
        if let Some(i) = out.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
    };
    let head = String::from_utf8_lossy(&out[..head_end]).to_ascii_lowercase();
    let length = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse::<usize>().ok());
    let chunked = head.contains("transfer-encoding: chunked");
    loop {
        let body = &out[head_end..];
        let done = match length {
            Some(n) => body.len() >= n,
            None if chunked => body.ends_with(b"0\r\n\r\n"),
            None => false,
        };
        if done {
            break;
        }
        let n = read(&mut s, &mut buf)?;
        if n == 0 {
            break;
        }
        out.extend_from_slice(&buf[..n]);
    }
    let rest = String::from_utf8_lossy(&out[head_end..]).to_string();
    let rest = if chunked { dechunk(&rest) } else { rest };
    Ok(serde_json::from_str(&rest).unwrap_or(Value::Null))
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((len, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(len.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        s = &rest[n..];
        s = s.strip_prefix("\r\n").unwrap_or(s);
    }
    out
}

impl Browser {
    fn start() -> Browser {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let profile = tempfile::tempdir().unwrap();
        let log = profile.path().join("chromedriver.log");
        let driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .arg(format!("--log-path={}", log.display()))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let t = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                t.elapsed() < Duration::from_secs(30),
                "{TRANSPORT} chromedriver did not listen within 30 s"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": CHROMIUM, "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--no-first-run", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1400,1000",
                format!("--user-data-dir={}", profile.path().display()),
            ]}
        }}});
        let r = http(port, "POST", "/session", Some(&caps))
            .unwrap_or_else(|e| panic!("{TRANSPORT} {e}"));
        let session = r["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("{TRANSPORT} no WebDriver session: {r}"))
            .to_string();
        Browser {
            driver,
            port,
            session,
            log,
            _profile: profile,
        }
    }

    /// The end of chromedriver's log, for a transport failure's message.
    fn log_tail(&self) -> String {
        let log = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = log.lines().collect();
        lines[lines.len().saturating_sub(15)..].join("\n")
    }

    fn cmd(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let r = http(
            self.port,
            method,
            &format!("/session/{}{path}", self.session),
            body.as_ref(),
        )
        .unwrap_or_else(|e| {
            panic!(
                "{TRANSPORT} {e}\nthe end of chromedriver's log:\n{}",
                self.log_tail()
            )
        });
        r["value"].clone()
    }

    fn go(&self, url: &str) {
        self.cmd("POST", "/url", Some(json!({ "url": url })));
    }

    fn js(&self, script: &str) -> Value {
        self.cmd(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
    }

    /// Waits until `expr` (a JS expression) is truthy; returns its value.
    fn wait(&self, expr: &str, what: &str) -> Value {
        let t = Instant::now();
        loop {
            let v = self.js(&format!(
                "try {{ return ({expr}); }} catch (e) {{ return null; }}"
            ));
            if !(v.is_null() || v == json!(false) || v == json!("") || v == json!(0)) {
                return v;
            }
            assert!(
                t.elapsed() < Duration::from_secs(60),
                "timed out waiting for {what}"
            );
            std::thread::sleep(Duration::from_millis(40));
        }
    }

    /// The id of the first element matching `css`, waiting up to 30 s for one to appear.
    fn element(&self, css: &str) -> String {
        let t = Instant::now();
        loop {
            let v = self.cmd(
                "POST",
                "/element",
                Some(json!({"using": "css selector", "value": css})),
            );
            // Only the W3C element reference is an id: an error ("no such element") is
            // an object too, and must be waited out, not clicked.
            if let Some(id) = v[ELEMENT_KEY].as_str() {
                return id.to_string();
            }
            assert!(
                t.elapsed() < Duration::from_secs(30),
                "no element {css}: {v}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A real click (WebDriver element click) on the first element matching `css`.
    /// A page redraw between finding and clicking leaves a stale reference: find it again.
    fn click(&self, css: &str) {
        for _ in 0..20 {
            let id = self.element(css);
            let r = self.cmd("POST", &format!("/element/{id}/click"), Some(json!({})));
            if r["error"] == json!("stale element reference") {
                std::thread::sleep(Duration::from_millis(50));
                continue;
            }
            assert!(r.is_null(), "click {css}: {r}");
            return;
        }
        panic!("click {css}: the element went stale 20 times");
    }

    fn type_into(&self, css: &str, text: &str) {
        let id = self.element(css);
        self.cmd("POST", &format!("/element/{id}/clear"), Some(json!({})));
        self.cmd(
            "POST",
            &format!("/element/{id}/value"),
            Some(json!({ "text": text })),
        );
    }

    /// A real key press (WebDriver actions) on the focused element.
    fn key(&self, key: &str) {
        self.js("document.activeElement && document.activeElement.blur && document.activeElement.blur();");
        self.cmd(
            "POST",
            "/actions",
            Some(
                json!({"actions": [{"type": "key", "id": "keyboard", "actions": [
                    {"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}
                ]}]}),
            ),
        );
    }

    fn screenshot(&self, css: &str) -> Vec<u8> {
        let id = self.element(css);
        let v = self.cmd("GET", &format!("/element/{id}/screenshot"), None);
        base64_decode(v.as_str().expect("a screenshot"))
    }

    /// The last state message the page received.
    fn state(&self) -> Value {
        self.js("return window.yomiState || null;")
    }

    /// Waits for a state with a person to move (or the end), newer than `moves` plies.
    fn settled(&self, plies_at_least: usize) -> Value {
        self.wait(
            &format!(
                "window.yomiState && window.yomiState.moves.length >= {plies_at_least} && \
                 (window.yomiState.terminal || window.yomiState.legal.length > 0) && window.yomiState"
            ),
            "a position to move in",
        )
    }

    /// Opens the page and starts a game through the set-up form.
    fn start_game(&self, server: &Server, game: &str, seats: &[&str]) {
        self.go(&format!("http://{}/?game={game}", server.addr));
        self.wait("window.yomiState === undefined && document.querySelectorAll('#seats select').length > 0 && document.getElementById('conn').textContent === 'connected'", "the set-up form");
        for (i, seat) in seats.iter().enumerate() {
            let (name, params) = seat.split_once(':').unwrap_or((seat, ""));
            self.js(&format!(
                "const s = document.getElementById('seat{i}'); s.value = {name:?}; s.dispatchEvent(new Event('change'));"
            ));
            for kv in params.split(',').filter(|p| !p.is_empty()) {
                let (k, v) = kv.split_once('=').unwrap();
                self.type_into(
                    &format!("#seats .seat:nth-child({}) input[data-key='{k}']", i + 1),
                    v,
                );
            }
        }
        self.click("#start");
        self.wait(
            &format!(
                "window.yomiState && window.yomiState.game && window.yomiState.seats.length === {}",
                seats.len()
            ),
            "the game to start",
        );
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = http(
            self.port,
            "DELETE",
            &format!("/session/{}", self.session),
            None,
        );
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn base64_decode(s: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let (mut buf, mut bits) = (0u32, 0);
    for c in s.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => continue,
        };
        buf = buf << 6 | v as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((buf >> bits) as u8);
        }
    }
    out
}

fn legal_texts(state: &Value) -> Vec<String> {
    state["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn tictactoe_by_clicks_against_mcts_reaches_the_result_screen() {
    browser_test(
        "tictactoe_by_clicks_against_mcts_reaches_the_result_screen",
        || {
            let srv = server();
            let b = Browser::start();
            b.start_game(&srv, "tictactoe", &["human", "mcts:iters=100"]);
            let mut plies = 0;
            loop {
                let s = b.settled(plies);
                if s["terminal"] == true {
                    break;
                }
                let mv = &legal_texts(&s)[0];
                b.click(&format!("#board-svg .cell[data-name='{mv}']"));
                plies = s["moves"].as_array().unwrap().len() + 1;
            }
            let result = b.wait("!document.getElementById('result').hidden && document.getElementById('result').textContent", "the result screen");
            println!("result screen: {result}");
            assert!(
                result.as_str().unwrap().contains("wins")
                    || result.as_str().unwrap().contains("draw")
            );
        },
    );
}

#[test]
fn an_illegal_click_is_refused_with_the_reason() {
    browser_test("an_illegal_click_is_refused_with_the_reason", || {
        let srv = server();
        let b = Browser::start();
        b.start_game(&srv, "tictactoe", &["human", "human"]);
        b.settled(0);
        b.click("#board-svg .cell[data-name='b2']");
        b.settled(1);
        b.click("#board-svg .cell[data-name='b2']");
        let msg = b.wait(
            "document.getElementById('message').textContent",
            "the refusal",
        );
        println!("refusal: {msg}");
        assert!(msg.as_str().unwrap().contains("taken"), "{msg}");
        assert_eq!(b.state()["moves"], json!(["b2"]));
    });
}

#[test]
fn othello_through_a_pass_to_the_end() {
    browser_test("othello_through_a_pass_to_the_end", || {
        let srv = server();
        let b = Browser::start();
        b.start_game(&srv, "othello", &["human", "human"]);
        // Both sides click the last legal move each turn (this line has passes).
        let mut plies = 0;
        let mut passes = 0;
        loop {
            let s = b.settled(plies);
            if s["terminal"] == true {
                break;
            }
            let legal = legal_texts(&s);
            let mv = legal.last().unwrap().clone();
            if mv == "pass" {
                passes += 1;
                b.click("#pass");
            } else {
                // Legal moves are marked with dots.
                b.wait(&format!("document.querySelector(\"#board-svg .cell.legal[data-name='{mv}'] .legal-dot\")"), "a legal-move dot");
                b.click(&format!("#board-svg .cell[data-name='{mv}']"));
            }
            plies = s["moves"].as_array().unwrap().len() + 1;
        }
        let info = b.js("return document.getElementById('info').textContent;");
        println!("othello end: {info}, {passes} passes");
        assert!(passes >= 1, "the line should contain a pass");
        assert!(info.as_str().unwrap().contains("black discs"));
        b.wait("!document.getElementById('result').hidden", "the result");
    });
}

#[test]
fn go_pass_pass_and_the_score() {
    browser_test("go_pass_pass_and_the_score", || {
        let srv = server();
        let b = Browser::start();
        b.start_game(&srv, "go:5", &["human", "human"]);
        b.settled(0);
        b.click("#board-svg .cell[data-name='C3']");
        b.settled(1);
        b.click("#pass");
        b.settled(2);
        b.click("#pass");
        let s = b.wait("window.yomiState.terminal && window.yomiState", "the end");
        let info = b.js("return document.getElementById('info').textContent;");
        println!("go end: {info}; {}", s["result"]);
        assert!(info.as_str().unwrap().contains("B+17.5"), "{info}");
    });
}

#[test]
fn geister_never_shows_the_opponents_colours() {
    browser_test("geister_never_shows_the_opponents_colours", || {
        let srv = server();
        let b = Browser::start();
        b.start_game(&srv, "geister", &["human", "random"]);
        // The set-up screen: pick 4 red ghosts by clicking, then confirm.
        b.wait("document.getElementById('setup-ok')", "the set-up screen");
        for l in ["A", "B", "C", "D"] {
            b.click(&format!("#board-svg .cell[data-letter='{l}']"));
        }
        b.click("#setup-ok");
        let mut plies = 1;
        let mut human_moves = 0;
        let mut dom_checks = 0;
        loop {
            let s = b.settled(plies);
            // The DOM holds no colour of the opponent's (second player's) ghosts.
            let leaked = b.js(
                "return document.querySelectorAll(\"[data-piece='b'], [data-piece='r']\").length;",
            );
            assert_eq!(leaked, json!(0));
            dom_checks += 1;
            if s["terminal"] == true || human_moves >= 40 {
                break;
            }
            let legal = legal_texts(&s);
            let mv = legal
                .iter()
                .find(|m| m.ends_with('N'))
                .unwrap_or(&legal[0])
                .clone();
            let from = &mv[..2];
            b.click(&format!("#board-svg .cell[data-name='{from}']"));
            let parsed = b.wait(
                &format!(
                    "document.querySelector(\"#board-svg .cell.sel[data-name='{from}']\") && true"
                ),
                "the selection",
            );
            assert_eq!(parsed, json!(true));
            let (x, y) = (mv.as_bytes()[0] - b'0', mv.as_bytes()[1] - b'0');
            let target = match (mv.as_bytes()[2], y) {
                (b'N', 0) => format!("exit:{from}N"),
                (b'N', _) => format!("{x}{}", y - 1),
                (b'S', _) => format!("{x}{}", y + 1),
                (b'E', _) => format!("{}{y}", x + 1),
                _ => format!("{}{y}", x - 1),
            };
            b.click(&format!("#board-svg .cell[data-name='{target}']"));
            human_moves += 1;
            plies = s["moves"].as_array().unwrap().len() + 1;
        }
        // Every message the page received: no opponent colour in boards, texts or moves.
        let log = b.js("return window.yomiLog;");
        let mut states = 0;
        for m in log.as_array().unwrap() {
            let m: Value = serde_json::from_str(m.as_str().unwrap()).unwrap();
            if m["type"] != "state" {
                continue;
            }
            states += 1;
            for c in m["view"]["cells"].as_array().unwrap() {
                assert!(c != "b" && c != "r", "an opponent colour in {m}");
            }
            let text = m["view"]["text"].as_str().unwrap();
            let board = text.split_whitespace().next().unwrap();
            assert!(!board.contains('b') && !board.contains('r'), "{text}");
            for mv in m["moves"].as_array().unwrap() {
                let mv = mv.as_str().unwrap();
                assert!(
                    !mv.starts_with("SET:") || mv == "SET:ABCD" || mv == "SET:????",
                    "{mv}"
                );
            }
        }
        println!(
            "geister: {human_moves} moves by clicks, {states} states and {dom_checks} DOMs checked"
        );
        assert!(human_moves >= 5);
    });
}

#[test]
fn tubstap_turn_with_two_unit_actions() {
    browser_test("tubstap_turn_with_two_unit_actions", || {
        let srv = server();
        let b = Browser::start();
        b.start_game(&srv, "tubstap", &["human", "random"]);
        let s = b.settled(0);
        assert!(
            b.js("return document.querySelectorAll('#board-svg [data-terrain]').length;")
                .as_u64()
                .unwrap()
                > 0
        );
        let mut state = s;
        let mut units = Vec::new();
        for plies in 1..=2 {
            // A plain move of a unit that has not acted, to another cell.
            let legal = legal_texts(&state);
            let mv = legal
                .iter()
                .filter(|m| m.contains('@') && !m.contains('x'))
                .find(|m| {
                    let (u, to) = m.split_once('@').unwrap();
                    let u: usize = u.parse().unwrap();
                    let unit = &state["view"]["units"][u];
                    !units.contains(&u) && to != format!("{},{}", unit["x"], unit["y"])
                })
                .unwrap()
                .clone();
            let (u, to) = mv.split_once('@').unwrap();
            let u: usize = u.parse().unwrap();
            units.push(u);
            let unit = &state["view"]["units"][u];
            b.click(&format!(
                "#board-svg .cell[data-name='{},{}']",
                unit["x"], unit["y"]
            ));
            b.wait(
                &format!("document.querySelector(\"#board-svg .cell.legal[data-name='{to}']\")"),
                "the unit's reach",
            );
            b.click(&format!("#board-svg .cell[data-name='{to}']"));
            state = b.settled(plies);
        }
        b.click("#end-turn");
        let s = b.wait(
            "window.yomiState.moves.length >= 3 && window.yomiState",
            "the turn to end",
        );
        let moves = s["moves"].as_array().unwrap();
        println!("tubstap moves: {moves:?}");
        assert!(moves[0]
            .as_str()
            .unwrap()
            .starts_with(&format!("{}@", units[0])));
        assert!(moves[1]
            .as_str()
            .unwrap()
            .starts_with(&format!("{}@", units[1])));
        assert_eq!(moves[2], "end");
    });
}

#[test]
fn a_gdl_sheet_renders_as_a_grid() {
    browser_test("a_gdl_sheet_renders_as_a_grid", || {
        let srv = server();
        let b = Browser::start();
        b.start_game(&srv, "ggp:breakthrough5x5", &["human", "random"]);
        let s = b.settled(0);
        let cells = b.js(
            "return document.querySelectorAll(\"#board-svg[data-style='gdl-grid'] .cell\").length;",
        );
        assert_eq!(cells, json!(25));
        // A move by clicks: from, then to.
        let mv = legal_texts(&s)[0].clone(); // (move 1 2 1 3)
        let a: Vec<&str> = mv
            .trim_matches(|c| c == '(' || c == ')')
            .split_whitespace()
            .collect();
        b.click(&format!("#board-svg .cell[data-name='{} {}']", a[1], a[2]));
        b.click(&format!("#board-svg .cell[data-name='{} {}']", a[3], a[4]));
        let s = b.wait(
            "window.yomiState.moves.length >= 1 && window.yomiState",
            "the move",
        );
        assert_eq!(s["moves"][0], json!(mv));
    });
}

#[test]
fn a_record_is_replayed_with_the_slider_and_arrow_keys() {
    browser_test(
        "a_record_is_replayed_with_the_slider_and_arrow_keys",
        || {
            let srv = server();
            let b = Browser::start();
            // An agent game is written to the server's records file ...
            b.start_game(&srv, "connect4", &["random", "random"]);
            let s = b.wait(
                "window.yomiState.terminal && window.yomiState",
                "the game to end",
            );
            let n = s["moves"].as_array().unwrap().len();
            assert!(srv.dir.path().join("yomi-serve.jsonl").exists());
            // ... and replayed from it.
            b.click("#tab-replay");
            b.wait(
                "document.querySelector('#rec-file option')",
                "the records list",
            );
            b.click("#rec-open");
            b.wait(
                "window.yomiState.mode === 'replay' && window.yomiState.ply === 0",
                "the replay",
            );
            b.key("\u{E014}"); // ArrowRight
            b.key("\u{E014}");
            b.key("\u{E014}");
            b.wait("window.yomiState.ply === 3", "three steps forward");
            let pieces = b.js("return document.querySelectorAll('#board-svg .piece').length;");
            assert_eq!(pieces, json!(3));
            b.key("\u{E012}"); // ArrowLeft
            b.wait("window.yomiState.ply === 2", "one step back");
            b.js(&format!("const s = document.getElementById('slider'); s.value = {n}; s.dispatchEvent(new Event('input'));"));
            b.wait(
                &format!("window.yomiState.ply === {n}"),
                "the slider to the end",
            );
            b.wait("!document.getElementById('result').hidden", "the result");
        },
    );
}

#[test]
fn analysis_overlays_visits_and_stops() {
    browser_test("analysis_overlays_visits_and_stops", || {
        let srv = server();
        let b = Browser::start();
        b.start_game(&srv, "tictactoe", &["human", "human"]);
        b.settled(0);
        b.click("#analyse");
        b.wait(
            "document.querySelectorAll('#board-svg .heat').length === 9",
            "the heat map",
        );
        b.wait(
            "document.getElementById('pv').textContent.length > 4",
            "the principal variation",
        );
        b.click("#stop");
        b.wait(
            "document.getElementById('an-status').textContent.startsWith('done')",
            "the analysis to stop",
        );
    });
}

/// First-load bytes and the browser-side WebSocket round trip (printed for the README).
#[test]
fn page_weight_and_round_trip() {
    browser_test("page_weight_and_round_trip", || {
        let srv = server();
        let b = Browser::start();
        b.start_game(&srv, "othello", &["human", "human"]);
        b.settled(0);
        let bytes = b.js("const n = performance.getEntriesByType('navigation')[0]; \
            return [n.transferSize, ...performance.getEntriesByType('resource').map(r => r.transferSize)].reduce((a, b) => a + b, 0);");
        let bytes = bytes.as_f64().unwrap();
        println!("page weight (first load, transferred): {bytes} bytes");
        assert!(bytes < 300_000.0, "{bytes}");
        // A person's move: click to the next position drawn, no agent thinking.
        let mut times = Vec::new();
        let mut plies = 0;
        for _ in 0..20 {
            let s = b.settled(plies);
            let mv = legal_texts(&s)[0].clone();
            let t = b.js(&format!(
                "return await new Promise((done) => {{ const t0 = performance.now(); const n = window.yomiState.moves.length; \
                 window.yomiClick({mv:?}); const poll = () => window.yomiState.moves.length > n ? done(performance.now() - t0) : setTimeout(poll, 0); poll(); }});"
            ));
            times.push(t.as_f64().unwrap_or(f64::NAN));
            plies = s["moves"].as_array().unwrap().len() + 1;
        }
        times.sort_by(f64::total_cmp);
        println!(
            "browser move round trip: median {:.2} ms over {} moves",
            times[times.len() / 2],
            times.len()
        );
    });
}

/// Writes a PNG of every game's board into `YOMI_SCREENSHOTS` (docs/screenshots).
#[test]
fn screenshots_of_every_board() {
    let Some(dir) = std::env::var_os("YOMI_SCREENSHOTS").map(PathBuf::from) else {
        println!("skipping screenshots_of_every_board: set YOMI_SCREENSHOTS=DIR");
        return;
    };
    browser_test("screenshots_of_every_board", || {
        std::fs::create_dir_all(&dir).unwrap();
        let srv = server();
        let b = Browser::start();
        for (game, plies, file) in [
            ("tictactoe", 4, "tictactoe"),
            ("connect4", 9, "connect4"),
            ("breakthrough", 12, "breakthrough"),
            ("othello", 20, "othello"),
            ("go", 40, "go-9x9"),
            ("go:19", 60, "go-19x19"),
            ("geister", 20, "geister"),
            ("tubstap", 8, "tubstap"),
            ("ggp:dobutsushogi", 6, "ggp-dobutsushogi"),
            ("ggp:tictactoe", 4, "ggp-tictactoe"),
        ] {
            b.start_game(&srv, game, &["random", "random"]);
            b.wait(
                &format!("window.yomiState.moves.length >= {plies} || window.yomiState.terminal"),
                "moves",
            );
            b.js("window.yomiSend({type: 'pause', paused: true});");
            let s = b.wait("window.yomiState.paused && window.yomiState", "the pause");
            let n = s["moves"].as_array().unwrap().len().min(plies);
            b.js(&format!("window.yomiSend({{type: 'seek', ply: {n}}});"));
            b.wait(&format!("window.yomiState.ply === {n}"), "the position");
            std::thread::sleep(Duration::from_millis(150));
            let png = b.screenshot("#board");
            std::fs::write(dir.join(format!("{file}.png")), png).unwrap();
            println!("wrote {}", dir.join(format!("{file}.png")).display());
        }
    });
}
