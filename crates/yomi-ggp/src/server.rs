//! The player's HTTP layer: axum on hyper and tokio, with every limit a server on an open
//! port needs.
//!
//! Served as ggp-base's players serve: `POST` with the message as the body, replies `200`
//! with `Content-type: text/acl` and CORS headers; `OPTIONS` is answered (browser-based
//! hosts); `GET /` answers `(info)` and `GET /<url-encoded message>` handles the message,
//! as ggp-base's reader does; other methods get `405`. Malformed messages get `400`.
//!
//! Limits (from [`PlayerConfig`]):
//! - the body: a `Content-Length` over `max_request_bytes` is refused with `413` before any
//!   of it is read, and a body without one is cut off at the same size; the connection is
//!   closed after the reply (one request per connection, no draining);
//! - the head: hyper reads at most `max_header_bytes` of request line and headers (`431`
//!   beyond), within `header_timeout` of connecting;
//! - the body must arrive within `body_timeout` (`408` otherwise);
//! - at most `max_connections` connections at once. When all places are taken, a new
//!   connection takes the place of the oldest one that has not yet sent a whole request
//!   head (which is closed): idle or dribbling clients cannot lock the game host out until
//!   their header timeout. Only when every place holds a request being answered is the new
//!   connection closed at once (each of those is bounded in time by the body timeout and
//!   the clocks);
//! - a connection lives at most the header and body timeouts plus the largest clock plus a
//!   minute, whatever the client does.
//!
//! The tokio runtime has two worker threads: requests only parse, wait and answer; rules
//! compile and searches run on threads of their own ([`crate::player`]).

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, Response, StatusCode};
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::sync::Notify;

use crate::player::{GgpPlayer, PlayerConfig, Reply};

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
#[error("cannot listen on {addr}: {reason}")]
pub struct BindError {
    /// The address asked for.
    pub addr: String,
    /// What went wrong.
    pub reason: String,
}

/// A [`GgpPlayer`] served over HTTP. See the [module docs](self).
pub struct PlayerServer {
    runtime: tokio::runtime::Runtime,
    listener: std::net::TcpListener,
    player: Arc<GgpPlayer>,
    stop: Arc<Notify>,
}

#[derive(Clone)]
struct Ctx {
    player: Arc<GgpPlayer>,
    verbose: bool,
}

impl PlayerServer {
    /// Listens on `addr` (`127.0.0.1:9147`; port 0 picks a free port).
    ///
    /// # Errors
    /// [`BindError`] when the address cannot be bound or the runtime cannot start.
    pub fn bind(config: PlayerConfig, addr: &str) -> Result<Self, BindError> {
        let err = |reason: String| BindError {
            addr: addr.into(),
            reason,
        };
        let listener = std::net::TcpListener::bind(addr).map_err(|e| err(e.to_string()))?;
        listener
            .set_nonblocking(true)
            .map_err(|e| err(e.to_string()))?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .max_blocking_threads(8)
            .thread_name("ggp-http")
            .enable_all()
            .build()
            .map_err(|e| err(format!("cannot start the runtime: {e}")))?;
        Ok(PlayerServer {
            runtime,
            listener,
            player: Arc::new(GgpPlayer::new(config)),
            stop: Arc::new(Notify::new()),
        })
    }

    /// The address listened on.
    pub fn local_addr(&self) -> Option<SocketAddr> {
        self.listener.local_addr().ok()
    }

    /// The player (for its counters).
    pub fn player(&self) -> Arc<GgpPlayer> {
        self.player.clone()
    }

    /// A handle that stops [`PlayerServer::run`] when called.
    pub fn stopper(&self) -> impl Fn() + Send + Sync + 'static {
        let stop = self.stop.clone();
        move || stop.notify_one()
    }

    /// Serves requests until stopped; logs one line per message on stderr when `verbose`.
    pub fn run(&self, verbose: bool) {
        let listener = match self.listener.try_clone().and_then(|l| {
            self.runtime
                .block_on(async { tokio::net::TcpListener::from_std(l) })
        }) {
            Ok(l) => l,
            Err(e) => {
                eprintln!("ggp player: cannot listen: {e}");
                return;
            }
        };
        let ctx = Ctx {
            player: self.player.clone(),
            verbose,
        };
        self.runtime
            .block_on(serve(listener, ctx, self.stop.clone()));
    }

    /// Runs the server on a background thread.
    pub fn spawn(self, verbose: bool) -> JoinHandle<()> {
        std::thread::spawn(move || self.run(verbose))
    }
}

/// The connections held, and which of them are still waiting for their request head
/// (oldest first): those may be closed to make room for a new one.
struct Places {
    limit: usize,
    state: std::sync::Mutex<PlacesState>,
}

#[derive(Default)]
struct PlacesState {
    held: usize,
    next_id: u64,
    /// Connection id, its task, and the flag that hands its place over when evicted.
    /// (The task is `None` only between registration and spawn, both on the accept loop,
    /// which is also the only caller of [`Places::take`].)
    waiting: std::collections::VecDeque<(u64, Option<tokio::task::AbortHandle>, Arc<AtomicBool>)>,
}

/// A connection's hold on a place: given back when its task ends (or is aborted), unless
/// the place went to the connection that evicted it.
struct Place {
    places: Arc<Places>,
    id: u64,
    evicted: Arc<AtomicBool>,
}

impl Places {
    fn lock(&self) -> std::sync::MutexGuard<'_, PlacesState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A place for a new connection: a free one, or that of the oldest connection still
    /// waiting for its head (aborted here, its place handed over); `None` when every place
    /// holds a request being answered.
    fn take(&self) -> Option<(u64, Arc<AtomicBool>)> {
        let mut st = self.lock();
        if st.held >= self.limit {
            loop {
                let (_, Some(victim), evicted) = st.waiting.pop_front()? else {
                    continue;
                };
                // Set under the lock, which the victim's `Place::drop` takes: its place is
                // handed over, not given back.
                evicted.store(true, Ordering::SeqCst);
                victim.abort();
                break;
            }
        } else {
            st.held += 1;
        }
        st.next_id += 1;
        Some((st.next_id, Arc::new(AtomicBool::new(false))))
    }

    /// Registers connection `id` as waiting for its head, before its task starts (so that
    /// [`Places::started`] always finds it).
    fn waiting(&self, id: u64, evicted: Arc<AtomicBool>) {
        self.lock().waiting.push_back((id, None, evicted));
    }

    /// Connection `id`'s task, once spawned; nothing when it has started or ended already.
    fn spawned(&self, id: u64, task: tokio::task::AbortHandle) {
        if let Some(entry) = self.lock().waiting.iter_mut().find(|(i, _, _)| *i == id) {
            entry.1 = Some(task);
        }
    }

    /// Connection `id` sent a whole request head: no longer evictable.
    fn started(&self, id: u64) {
        self.lock().waiting.retain(|(i, _, _)| *i != id);
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut st = self.places.lock();
        st.waiting.retain(|(i, _, _)| *i != self.id);
        if !self.evicted.load(Ordering::SeqCst) {
            st.held -= 1;
        }
    }
}

async fn serve(listener: tokio::net::TcpListener, ctx: Ctx, stop: Arc<Notify>) {
    let config = ctx.player.config().clone();
    let places = Arc::new(Places {
        limit: config.max_connections.max(1),
        state: std::sync::Mutex::new(PlacesState::default()),
    });
    let router = Router::new().fallback(handle).with_state(ctx);
    let lifetime = config.header_timeout
        + config.body_timeout
        + Duration::from_secs_f64(config.clock_limit())
        + Duration::from_secs(60);
    loop {
        let accepted = tokio::select! {
            _ = stop.notified() => return,
            a = listener.accept() => a,
        };
        let stream = match accepted {
            Ok((s, _)) => s,
            Err(_) => {
                // Out of file descriptors and the like: let it pass.
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            }
        };
        let Some((id, evicted)) = places.take() else {
            drop(stream); // every place answering a request: closed at once
            continue;
        };
        let inner = TowerToHyperService::new(router.clone());
        let marker = places.clone();
        let service = hyper::service::service_fn(move |req| {
            marker.started(id);
            hyper::service::Service::call(&inner, req)
        });
        let mut http = hyper::server::conn::http1::Builder::new();
        http.timer(TokioTimer::new())
            .header_read_timeout(config.header_timeout)
            .max_buf_size(config.max_header_bytes.max(8192))
            .keep_alive(false);
        let conn = http.serve_connection(TokioIo::new(stream), service);
        let place = Place {
            places: places.clone(),
            id,
            evicted: evicted.clone(),
        };
        places.waiting(id, evicted);
        let task = tokio::spawn(async move {
            let _place = place;
            let _ = tokio::time::timeout(lifetime, conn).await;
        });
        places.spawned(id, task.abort_handle());
    }
}

fn response(status: u16, body: String) -> Response<Body> {
    let mut r = Response::new(Body::from(body));
    *r.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let h = r.headers_mut();
    for (k, v) in [
        (header::CONTENT_TYPE, "text/acl"),
        (header::ACCESS_CONTROL_ALLOW_ORIGIN, "*"),
        (header::ACCESS_CONTROL_ALLOW_METHODS, "POST, GET, OPTIONS"),
        (
            header::ACCESS_CONTROL_ALLOW_HEADERS,
            "Content-Type, Sender, Receiver",
        ),
        (header::ACCESS_CONTROL_MAX_AGE, "86400"),
    ] {
        h.insert(k, HeaderValue::from_static(v));
    }
    r
}

/// Decodes `%XX` escapes and `+` (as a form would send a space), as ggp-base's reader
/// decodes GET paths; `None` for text that is not UTF-8 afterwards.
fn url_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 2;
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8(out).ok()
}

async fn handle(State(ctx): State<Ctx>, req: Request) -> Response<Body> {
    let received = Instant::now();
    let config = ctx.player.config();
    let limit = config.max_request_bytes;
    let text = match *req.method() {
        Method::OPTIONS => return response(200, String::new()),
        Method::GET | Method::HEAD => {
            let path = req.uri().path().trim_start_matches('/');
            if path.is_empty() || path == "favicon.ico" {
                "(info)".to_string()
            } else {
                match url_decode(path) {
                    Some(t) => t,
                    None => return response(400, "error: the path is not a message".into()),
                }
            }
        }
        Method::POST => {
            let declared = req
                .headers()
                .get(header::CONTENT_LENGTH)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.trim().parse::<u64>().ok());
            if declared.is_some_and(|n| n > limit as u64) {
                return response(413, format!("error: request over {limit} bytes"));
            }
            let body = req.into_body();
            let read = tokio::time::timeout(config.body_timeout, axum::body::to_bytes(body, limit));
            match read.await {
                Err(_) => return response(408, "error: the request body came too slowly".into()),
                Ok(Err(e)) => {
                    // Over the limit (without a Content-Length), or the client broke off.
                    let over = std::error::Error::source(&e)
                        .is_some_and(|s| s.to_string().contains("length limit"))
                        || e.to_string().contains("length limit");
                    return if over {
                        response(413, format!("error: request over {limit} bytes"))
                    } else {
                        response(400, format!("error: reading the request: {e}"))
                    };
                }
                Ok(Ok(bytes)) => match String::from_utf8(bytes.to_vec()) {
                    Ok(t) => t,
                    Err(_) => return response(400, "error: the request is not UTF-8".into()),
                },
            }
        }
        ref m => {
            return response(
                405,
                format!("error: {m} is not supported; POST the message as the body"),
            )
        }
    };
    let shown: String = if ctx.verbose {
        text.trim().chars().take(100).collect()
    } else {
        String::new()
    };
    let Reply { status, body } = ctx.player.handle(text, received).await;
    if ctx.verbose {
        eprintln!(
            "ggp player: {shown} -> {status} {body} ({:.3} s)",
            received.elapsed().as_secs_f64()
        );
    }
    response(status, body)
}

#[cfg(test)]
mod tests {
    use super::url_decode;

    #[test]
    fn get_paths_are_decoded_as_ggp_base_decodes_them() {
        assert_eq!(url_decode("(info)").unwrap(), "(info)");
        assert_eq!(
            url_decode("%28play%20m1%20nil%29").unwrap(),
            "(play m1 nil)"
        );
        assert_eq!(url_decode("a+b").unwrap(), "a b");
        assert!(url_decode("%zz").is_none());
        assert!(url_decode("%2").is_none());
    }
}
