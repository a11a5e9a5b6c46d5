//! Limits on untrusted input shared by the command line and the engine protocols.
//!
//! - [`seconds`] turns a number of seconds given by a user (a command-line option, a
//!   protocol command) into a [`Duration`], refusing NaN, infinities, negative values and
//!   anything above [`MAX_SECONDS`] with a [`SecondsError`] that names the option, where
//!   `Duration::from_secs_f64` would panic and `Instant + Duration` would overflow.
//! - [`threads`] refuses a thread count above [`MAX_THREADS`], where spawning would
//!   exhaust the machine (`--threads 4294967296`).
//! - [`read_input_line`] reads one protocol line of at most a given number of bytes, so a
//!   peer that never sends a newline cannot grow the reader's memory, and a byte that is
//!   not UTF-8 is replaced rather than ending the session.

use std::io::{self, BufRead};
use std::time::Duration;

use thiserror::Error;

/// The most seconds any duration given by a user may be (about 11.6 days); the same cap
/// as an agent spec's `time=` ([`crate::spec::MAX_SECONDS`]).
pub const MAX_SECONDS: f64 = crate::spec::MAX_SECONDS;

/// Why a number of seconds was refused.
#[derive(Clone, Debug, PartialEq, Error)]
// `{value:?}`: Display writes 1e300 with all its 301 digits; Debug writes `1e300`.
#[error("{option} {value:?}: expected {expected}")]
pub struct SecondsError {
    /// The option or command that gave the value (`--time`).
    pub option: String,
    /// The value given.
    pub value: f64,
    /// What is accepted, with the bounds.
    pub expected: String,
}

/// Whether zero seconds is accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Zero {
    /// Zero is a value (often "no limit" or "no pause").
    Allowed,
    /// The value must be above zero.
    Refused,
}

/// `value` seconds as a [`Duration`] when it is finite, not negative (above zero when
/// `zero` is [`Zero::Refused`]) and at most [`MAX_SECONDS`].
///
/// # Errors
/// A [`SecondsError`] naming `option`, the value and the accepted range.
///
/// ```
/// use yomi_core::limits::{seconds, Zero};
/// assert_eq!(seconds("--time", 1.5, Zero::Refused).unwrap().as_millis(), 1500);
/// let e = seconds("--time", 1e300, Zero::Refused).unwrap_err();
/// assert_eq!(e.to_string(), "--time 1e300: expected seconds above 0 and at most 1000000");
/// assert!(seconds("--time", f64::NAN, Zero::Allowed).is_err());
/// ```
pub fn seconds(option: &str, value: f64, zero: Zero) -> Result<Duration, SecondsError> {
    let low_ok = match zero {
        Zero::Allowed => value >= 0.0,
        Zero::Refused => value > 0.0,
    };
    // NaN fails every comparison, so it is refused here too.
    if low_ok && value <= MAX_SECONDS {
        if let Ok(d) = Duration::try_from_secs_f64(value) {
            return Ok(d);
        }
    }
    let expected = match zero {
        Zero::Allowed => format!("seconds from 0 to {MAX_SECONDS}"),
        Zero::Refused => format!("seconds above 0 and at most {MAX_SECONDS}"),
    };
    Err(SecondsError {
        option: option.to_string(),
        value,
        expected,
    })
}

/// The most threads any option may ask for; the same cap as an agent spec's `threads=`
/// ([`crate::spec::MAX_THREADS`]) and a round robin's
/// ([`crate::arena::round_robin::MAX_THREADS`]).
pub const MAX_THREADS: usize = crate::spec::MAX_THREADS as usize;

/// Why a thread count was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{option} {value}: at most {MAX_THREADS} threads")]
pub struct ThreadsError {
    /// The option that gave the count (`--threads`).
    pub option: String,
    /// The count given.
    pub value: u64,
}

/// `value` when it is at most [`MAX_THREADS`]; what 0 means is the caller's choice.
///
/// # Errors
/// A [`ThreadsError`] naming `option` and the cap.
///
/// ```
/// use yomi_core::limits::threads;
/// assert_eq!(threads("--threads", 8).unwrap(), 8);
/// let e = threads("--threads", 4_294_967_296).unwrap_err();
/// assert_eq!(e.to_string(), "--threads 4294967296: at most 1024 threads");
/// ```
pub fn threads(option: &str, value: u64) -> Result<usize, ThreadsError> {
    if value <= MAX_THREADS as u64 {
        Ok(value as usize)
    } else {
        Err(ThreadsError {
            option: option.to_string(),
            value,
        })
    }
}

/// One line of protocol input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputLine {
    /// A line (without its line end), invalid UTF-8 replaced by U+FFFD.
    Text(String),
    /// A line longer than the limit; it was read to its end and discarded.
    TooLong,
}

/// Reads one line of at most `max` bytes from `input` (without its `\n` or `\r\n`), or
/// `None` at the end of input. Bytes past `max` are read and dropped up to the next
/// newline, so memory stays bounded whatever the peer sends; non-UTF-8 bytes become
/// U+FFFD.
///
/// # Errors
/// Only the reader's i/o errors.
///
/// ```
/// use yomi_core::limits::{read_input_line, InputLine};
/// let mut input = &b"short\nmuch too long\n\xffok\n"[..];
/// assert_eq!(read_input_line(&mut input, 8).unwrap(), Some(InputLine::Text("short".into())));
/// assert_eq!(read_input_line(&mut input, 8).unwrap(), Some(InputLine::TooLong));
/// assert_eq!(read_input_line(&mut input, 8).unwrap(), Some(InputLine::Text("\u{fffd}ok".into())));
/// assert_eq!(read_input_line(&mut input, 8).unwrap(), None);
/// ```
pub fn read_input_line<R: BufRead>(input: &mut R, max: usize) -> io::Result<Option<InputLine>> {
    let mut buf: Vec<u8> = Vec::new();
    let mut too_long = false;
    let mut any = false;
    loop {
        let avail = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            break;
        }
        any = true;
        let (end, used) = match avail.iter().position(|&b| b == b'\n') {
            Some(i) => (i, i + 1),
            None => (avail.len(), avail.len()),
        };
        if !too_long {
            if buf.len() + end > max {
                too_long = true;
                buf = Vec::new();
            } else {
                buf.extend_from_slice(&avail[..end]);
            }
        }
        let done = used > end;
        input.consume(used);
        if done {
            break;
        }
    }
    Ok(match (any, too_long) {
        (false, _) => None,
        (true, true) => Some(InputLine::TooLong),
        (true, false) => {
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
            Some(InputLine::Text(String::from_utf8_lossy(&buf).into_owned()))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_bounds_are_inclusive_and_named() {
        assert_eq!(seconds("--t", 0.0, Zero::Allowed).unwrap(), Duration::ZERO);
        assert!(seconds("--t", 0.0, Zero::Refused).is_err());
        assert_eq!(
            seconds("--t", MAX_SECONDS, Zero::Refused).unwrap(),
            Duration::from_secs(1_000_000)
        );
        for bad in [-1.0, -0.0001, 1e6 + 1.0, 1e300, f64::INFINITY, f64::NAN] {
            let e = seconds("--main-time", bad, Zero::Allowed).unwrap_err();
            assert!(e.to_string().starts_with("--main-time "), "{e}");
            assert!(e.to_string().contains("to 1000000"), "{e}");
        }
    }

    #[test]
    fn a_line_without_newline_far_over_the_limit_stays_bounded() {
        // 8 MiB without a newline, then a good line: the reader keeps at most `max`
        // bytes, reports the long line once and goes on.
        let mut data = vec![b'x'; 8 << 20];
        data.extend_from_slice(b"\nping\n");
        let mut input = io::BufReader::with_capacity(4096, &data[..]);
        assert_eq!(
            read_input_line(&mut input, 1024).unwrap(),
            Some(InputLine::TooLong)
        );
        assert_eq!(
            read_input_line(&mut input, 1024).unwrap(),
            Some(InputLine::Text("ping".into()))
        );
        assert_eq!(read_input_line(&mut input, 1024).unwrap(), None);
    }
}
