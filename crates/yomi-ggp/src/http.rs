//! The host's HTTP client: one `POST` of a protocol message to a player, with one deadline
//! over connecting, sending and receiving, and a bound on the reply's size.
//!
//! Written on `std::net` rather than with a client crate: the host needs exactly one
//! request shape (ggp-base's: `POST /`, `Content-Type: text/acl`, `Sender: GAMESERVER`,
//! `Receiver: <name>`, one request per connection) under a hard deadline that covers the
//! whole exchange, and none of what client crates bring (TLS, URLs, redirects, pools).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use thiserror::Error;

/// Why a request got no usable reply.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum HttpError {
    /// The address does not resolve.
    #[error("cannot resolve {0}")]
    Resolve(String),
    /// No connection, or the connection broke.
    #[error("connection to {addr}: {reason}")]
    Connection {
        /// The player's address.
        addr: String,
        /// What happened.
        reason: String,
    },
    /// No complete reply before the deadline.
    #[error("no reply from {0} in time")]
    Timeout(String),
    /// The reply is not HTTP, too large, or not UTF-8.
    #[error("bad reply from {addr}: {reason}")]
    BadReply {
        /// The player's address.
        addr: String,
        /// What is wrong.
        reason: String,
    },
    /// The player answered with a status other than 200.
    #[error("{addr} answered status {status}: {body}")]
    Status {
        /// The player's address.
        addr: String,
        /// The HTTP status.
        status: u16,
        /// The reply body.
        body: String,
    },
}

/// The largest reply read (a move or `ready`; 1 MiB is generous).
pub const MAX_REPLY: usize = 1 << 20;

fn resolve(addr: &str) -> Result<SocketAddr, HttpError> {
    addr.to_socket_addrs()
        .ok()
        .and_then(|mut a| a.next())
        .ok_or_else(|| HttpError::Resolve(addr.into()))
}

/// Posts `message` to the player at `addr` (`host:port`) and returns the reply body,
/// trimmed, if the whole exchange ends within `timeout`.
///
/// # Errors
/// [`HttpError`]: unreachable, late, malformed, or a status other than 200.
pub fn post(
    addr: &str,
    receiver: &str,
    message: &str,
    timeout: Duration,
) -> Result<String, HttpError> {
    let start = Instant::now();
    let deadline = start + timeout;
    let conn = |e: std::io::Error| {
        if matches!(
            e.kind(),
            std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock
        ) {
            HttpError::Timeout(addr.into())
        } else {
            HttpError::Connection {
                addr: addr.into(),
                reason: e.to_string(),
            }
        }
    };
    let sock = resolve(addr)?;
    let left = |d: Instant| {
        let l = d.saturating_duration_since(Instant::now());
        if l.is_zero() {
            Err(HttpError::Timeout(addr.into()))
        } else {
            Ok(l)
        }
    };
    let mut stream = TcpStream::connect_timeout(&sock, left(deadline)?).map_err(conn)?;
    stream
        .set_write_timeout(Some(left(deadline)?))
        .map_err(conn)?;
    let request = format!(
        "POST / HTTP/1.0\r\nHost: {addr}\r\nAccept: text/delim\r\nSender: GAMESERVER\r\n\
         Receiver: {receiver}\r\nContent-Type: text/acl\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{message}",
        message.len()
    );
    stream.write_all(request.as_bytes()).map_err(conn)?;
    let mut reply = Vec::new();
    let mut progress = ReplyProgress::default();
    let mut buf = [0u8; 4096];
    loop {
        stream
            .set_read_timeout(Some(left(deadline)?))
            .map_err(conn)?;
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                reply.extend_from_slice(&buf[..n]);
                if reply.len() > MAX_REPLY {
                    return Err(HttpError::BadReply {
                        addr: addr.into(),
                        reason: format!("over {MAX_REPLY} bytes"),
                    });
                }
                if progress.complete(&reply, n) {
                    break;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(conn(e)),
        }
    }
    parse_reply(addr, &reply)
}

/// The parsed head of a reply: status, where the body starts, and how it is framed.
struct Head {
    status: u16,
    body_start: usize,
    length: Option<usize>,
    chunked: bool,
}

/// Reads the reply head with `httparse`, which takes bare LF line ends as well as CRLF
/// (Sancho sends bare LF; ggp-base's reader accepts both). `Ok(None)`: not all there yet.
fn head(data: &[u8]) -> Result<Option<Head>, String> {
    let mut headers = [httparse::EMPTY_HEADER; 64];
    let mut r = httparse::Response::new(&mut headers);
    let body_start = match r.parse(data) {
        Ok(httparse::Status::Complete(n)) => n,
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(e) => return Err(format!("not an HTTP reply ({e})")),
    };
    let status = r.code.ok_or("no status code")?;
    let mut length = None;
    let mut chunked = false;
    for h in r.headers.iter() {
        let v = String::from_utf8_lossy(h.value);
        if h.name.eq_ignore_ascii_case("content-length") {
            length = Some(
                v.trim()
                    .parse::<usize>()
                    .map_err(|_| format!("bad Content-Length {v:?}"))?,
            );
        } else if h.name.eq_ignore_ascii_case("transfer-encoding") {
            chunked = v.to_ascii_lowercase().contains("chunked");
        }
    }
    Ok(Some(Head {
        status,
        body_start,
        length: if chunked { None } else { length },
        chunked,
    }))
}

/// Decodes a chunked body; `Ok(None)` while the last chunk has not arrived.
fn dechunk(mut data: &[u8]) -> Result<Option<Vec<u8>>, String> {
    let mut out = Vec::new();
    loop {
        let Some(eol) = data.iter().position(|&b| b == b'\n') else {
            return Ok(None);
        };
        let line = std::str::from_utf8(&data[..eol]).map_err(|_| "bad chunk size")?;
        let size_text = line.split(';').next().unwrap_or("").trim();
        let size = usize::from_str_radix(size_text, 16)
            .map_err(|_| format!("bad chunk size {size_text:?}"))?;
        data = &data[eol + 1..];
        if size == 0 {
            return Ok(Some(out));
        }
        if data.len() < size {
            return Ok(None);
        }
        out.extend_from_slice(&data[..size]);
        data = &data[size..];
        // The chunk's own line end (CRLF or LF).
        if data.first() == Some(&b'\r') {
            data = &data[1..];
        }
        if data.first() == Some(&b'\n') {
            data = &data[1..];
        } else if !data.is_empty() {
            return Err("no line end after a chunk".into());
        }
    }
}

/// Where the reading of a reply stands, so that each read costs time in its own bytes,
/// not in the reply so far: a player that sends its reply a byte at a time (up to
/// [`MAX_REPLY`]) must not make the host rescan the whole reply per byte (quadratic).
#[derive(Default)]
struct ReplyProgress {
    /// The head, once all of it is in.
    head: Option<Head>,
    /// For a chunked body: where the first chunk not yet all in starts, from the body's
    /// start.
    chunk_from: usize,
}

impl ReplyProgress {
    /// Whether `data`, whose last `new` bytes just came, holds a whole reply (head and, by
    /// its framing, the body); a malformed one counts as whole (it is refused when
    /// parsed). A reply framed by neither length nor chunks ends when the player closes
    /// the connection.
    fn complete(&mut self, data: &[u8], new: usize) -> bool {
        if self.head.is_none() {
            // A head ends with a line end: no need to parse until one comes.
            if !data[data.len().saturating_sub(new)..].contains(&b'\n') {
                return false;
            }
            match head(data) {
                Ok(Some(h)) => self.head = Some(h),
                Ok(None) => return false,
                Err(_) => return true,
            }
        }
        let Some(h) = &self.head else { return false };
        let body = &data[h.body_start..];
        if h.chunked {
            match chunks_end(body, self.chunk_from) {
                Ok(Some(at)) => {
                    self.chunk_from = at;
                    false
                }
                Ok(None) | Err(_) => true,
            }
        } else {
            h.length.is_some_and(|n| body.len() >= n)
        }
    }
}

/// Scans a chunked body from `from` (the start of a chunk-size line): `Ok(None)` once the
/// last chunk is in, else `Ok(Some(at))`, the start of the first chunk not all there.
fn chunks_end(body: &[u8], mut from: usize) -> Result<Option<usize>, String> {
    loop {
        let rest = &body[from..];
        let Some(eol) = rest.iter().position(|&b| b == b'\n') else {
            return Ok(Some(from));
        };
        let line = std::str::from_utf8(&rest[..eol]).map_err(|_| "bad chunk size")?;
        let size_text = line.split(';').next().unwrap_or("").trim();
        let size = usize::from_str_radix(size_text, 16)
            .map_err(|_| format!("bad chunk size {size_text:?}"))?;
        if size == 0 {
            return Ok(None);
        }
        // The chunk and its own line end (CRLF or LF).
        let data_start = eol + 1;
        let Some(after) = rest.get(data_start + size..) else {
            return Ok(Some(from));
        };
        let line_end = match after {
            [b'\r', b'\n', ..] => 2,
            [b'\n', ..] => 1,
            [] | [b'\r'] => return Ok(Some(from)),
            _ => return Err("no line end after a chunk".into()),
        };
        from += data_start + size + line_end;
    }
}

/// Whether `data` holds a whole reply, read in one go.
#[cfg(test)]
fn complete(data: &[u8]) -> bool {
    ReplyProgress::default().complete(data, data.len())
}

fn parse_reply(addr: &str, data: &[u8]) -> Result<String, HttpError> {
    let bad = |reason: &str| HttpError::BadReply {
        addr: addr.into(),
        reason: reason.into(),
    };
    let h = head(data)
        .map_err(|e| bad(&e))?
        .ok_or_else(|| bad("no complete HTTP header"))?;
    let rest = &data[h.body_start..];
    let body = if h.chunked {
        dechunk(rest)
            .map_err(|e| bad(&e))?
            .ok_or_else(|| bad("the chunked body is cut off"))?
    } else if let Some(n) = h.length {
        rest.get(..n)
            .ok_or_else(|| bad("the body is shorter than its Content-Length"))?
            .to_vec()
    } else {
        rest.to_vec()
    };
    let body = String::from_utf8(body)
        .map_err(|_| bad("body is not UTF-8"))?
        .trim()
        .to_string();
    if h.status != 200 {
        return Err(HttpError::Status {
            addr: addr.into(),
            status: h.status,
            body,
        });
    }
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_are_read_or_rejected() {
        let ok = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nready";
        assert!(complete(ok));
        assert!(!complete(&ok[..ok.len() - 1]));
        assert_eq!(parse_reply("a", ok).unwrap(), "ready");
        // Bare LF line ends (Sancho's replies), and chunked bodies.
        let lf = b"HTTP/1.0 200 OK\nContent-Type: text/acl\nContent-Length: 5\n\nready";
        assert!(complete(lf));
        assert_eq!(parse_reply("a", lf).unwrap(), "ready");
        let chunked = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nrea\r\n2\r\ndy\r\n0\r\n\r\n";
        assert!(complete(chunked));
        assert!(!complete(&chunked[..chunked.len() - 7]));
        assert_eq!(parse_reply("a", chunked).unwrap(), "ready");
        assert!(matches!(
            parse_reply("a", b"HTTP/1.1 400 Bad\r\n\r\nerror: x"),
            Err(HttpError::Status { status: 400, .. })
        ));
        assert!(parse_reply("a", b"garbage").is_err());
        assert!(parse_reply("a", b"SMTP 200\r\n\r\n").is_err());
    }

    #[test]
    fn replies_fed_a_byte_at_a_time_end_where_they_end() {
        let chunked =
            b"HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n3\r\nrea\r\n2\ndy\n0\r\n\r\n";
        let framed = b"HTTP/1.0 200 OK\r\nContent-Length: 5\r\n\r\nready";
        for reply in [&chunked[..], &framed[..]] {
            let mut p = ReplyProgress::default();
            let ends: Vec<usize> = (1..=reply.len())
                .filter(|&k| p.complete(&reply[..k], 1))
                .collect();
            // Complete from where the body's framing ends (the chunked one at its `0`
            // line), and parsed the same as read in one go.
            let first = ends[0];
            assert!(ends.iter().all(|&k| k >= first));
            assert!(first <= reply.len() && first >= reply.len() - 4, "{first}");
            assert_eq!(parse_reply("a", reply).unwrap(), "ready");
        }
    }

    #[test]
    fn a_reply_dribbled_a_byte_at_a_time_costs_linear_time() {
        // 512 KiB of one-byte chunks, fed a byte at a time: rescanning the whole reply
        // per byte (as before) took 15 s for 64 KiB, quadratic, so some 16 minutes here,
        // a core burnt until the deadline; the scan now resumes where it stopped.
        let mut reply = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
        while reply.len() < 512 << 10 {
            reply.extend_from_slice(b"1\r\nx\r\n");
        }
        reply.extend_from_slice(b"0\r\n\r\n");
        let t = Instant::now();
        let mut p = ReplyProgress::default();
        let done = (1..=reply.len()).find(|&k| p.complete(&reply[..k], 1));
        assert_eq!(done, Some(reply.len() - 2));
        assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    }

    #[test]
    fn unreachable_player_is_an_error_not_a_hang() {
        // Bind and drop a listener: its port is (almost surely) closed now.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let t = Instant::now();
        let e = post(
            &format!("127.0.0.1:{port}"),
            "p",
            "(info)",
            Duration::from_millis(500),
        );
        assert!(e.is_err());
        assert!(t.elapsed() < Duration::from_secs(2));
        assert!(matches!(
            post("not an address", "p", "(info)", Duration::from_millis(200)),
            Err(HttpError::Resolve(_))
        ));
    }
}
