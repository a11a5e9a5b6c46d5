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
                if let Some(done) = complete(&reply) {
                    reply.truncate(done);
                    break;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(conn(e)),
        }
    }
    parse_reply(addr, &reply)
}

/// The length of a complete reply with a `Content-Length`, once all of it is in `data`.
fn complete(data: &[u8]) -> Option<usize> {
    let end = find(data, b"\r\n\r\n")? + 4;
    let head = std::str::from_utf8(&data[..end]).ok()?;
    let len = head.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.trim()
            .eq_ignore_ascii_case("content-length")
            .then(|| v.trim().parse::<usize>().ok())?
    })?;
    (data.len() >= end + len).then_some(end + len)
}

fn find(data: &[u8], pat: &[u8]) -> Option<usize> {
    data.windows(pat.len()).position(|w| w == pat)
}

fn parse_reply(addr: &str, data: &[u8]) -> Result<String, HttpError> {
    let bad = |reason: &str| HttpError::BadReply {
        addr: addr.into(),
        reason: reason.into(),
    };
    let end = find(data, b"\r\n\r\n").ok_or_else(|| bad("no complete HTTP header"))?;
    let head = std::str::from_utf8(&data[..end]).map_err(|_| bad("header is not text"))?;
    let status_line = head.lines().next().unwrap_or("");
    let mut parts = status_line.split_whitespace();
    let (Some(version), Some(code)) = (parts.next(), parts.next()) else {
        return Err(bad("no status line"));
    };
    if !version.starts_with("HTTP/") {
        return Err(bad("not an HTTP reply"));
    }
    let status: u16 = code.parse().map_err(|_| bad("bad status code"))?;
    let body = std::str::from_utf8(&data[end + 4..])
        .map_err(|_| bad("body is not UTF-8"))?
        .trim()
        .to_string();
    if status != 200 {
        return Err(HttpError::Status {
            addr: addr.into(),
            status,
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
        assert_eq!(complete(ok), Some(ok.len()));
        assert_eq!(complete(&ok[..ok.len() - 1]), None);
        assert_eq!(parse_reply("a", ok).unwrap(), "ready");
        assert!(matches!(
            parse_reply("a", b"HTTP/1.1 400 Bad\r\n\r\nerror: x"),
            Err(HttpError::Status { status: 400, .. })
        ));
        assert!(parse_reply("a", b"garbage").is_err());
        assert!(parse_reply("a", b"SMTP 200\r\n\r\n").is_err());
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
