//! The messages of the GGP match protocol (Stanford / ggp-base): what a game server (the
//! "host") sends a player, read from and written as KIF.
//!
//! | message | reply |
//! |---|---|
//! | `(info)` | `((name N) (status available))` or `busy` |
//! | `(preview (<rules>) <previewclock>)` | `ready` |
//! | `(start <id> <role> (<rules>) <startclock> <playclock> ...)` | `ready` (or `busy`); further arguments are ignored, as ggp-base's players ignore them |
//! | `(play <id> nil)`, then `(play <id> (<joint move in role order>))` | a move, `(mark 1 1)` |
//! | `(stop <id> (<last joint move>))` | `done` |
//! | `(abort <id>)` | `aborted` |
//!
//! Keywords are matched case-insensitively; whitespace and line breaks are free. Reading
//! never panics: every malformed message is a [`ProtocolError`].
//!
//! ```
//! use yomi_ggp::protocol::Message;
//! let m: Message = "(PLAY m1 ((mark 1 1) noop))".parse().unwrap();
//! assert_eq!(m, Message::Play { id: "m1".into(), moves: Some(vec!["(mark 1 1)".into(), "noop".into()]) });
//! assert_eq!(m.to_string(), "(play m1 ((mark 1 1) noop))");
//! assert!("(play m1".parse::<Message>().is_err());
//! ```

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::parse::{read_sexprs, SExpr};

/// Why a message could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ProtocolError {
    /// Not well-formed KIF (parentheses, nesting).
    #[error("malformed message: {0}")]
    Syntax(String),
    /// The message is not one list headed by a known keyword.
    #[error("unknown message {0:?} (expected info, preview, start, play, stop or abort)")]
    Unknown(String),
    /// A known message with the wrong arguments.
    #[error("bad {message} message: expected {expected}")]
    Shape {
        /// The message keyword.
        message: &'static str,
        /// What it should look like.
        expected: &'static str,
    },
}

/// One message from the host to a player.
#[derive(Clone, Debug, PartialEq)]
pub enum Message {
    /// `(info)`: is the player there, and free?
    Info,
    /// `(preview (<rules>) <previewclock>)`: a look at a game before a match.
    Preview {
        /// The rule sheet, as KIF text.
        rules: String,
        /// Seconds the player may think.
        clock: f64,
    },
    /// `(start <id> <role> (<rules>) <startclock> <playclock>)`.
    Start {
        /// The match id.
        id: String,
        /// The role this player plays, as the rule sheet spells it.
        role: String,
        /// The rule sheet, as KIF text.
        rules: String,
        /// Seconds until the first `play`.
        start_clock: f64,
        /// Seconds per move.
        play_clock: f64,
    },
    /// `(play <id> nil|(<moves>))`: the previous joint move (none on the first step), and a
    /// request for this player's next move.
    Play {
        /// The match id.
        id: String,
        /// One move per role in role order; `None` for `nil`.
        moves: Option<Vec<String>>,
    },
    /// `(stop <id> nil|(<moves>))`: the match ended with this joint move.
    Stop {
        /// The match id.
        id: String,
        /// The last joint move; `None` for `nil`.
        moves: Option<Vec<String>>,
    },
    /// `(abort <id>)`: the match ended early.
    Abort {
        /// The match id.
        id: String,
    },
}

/// Writes an S-expression back as KIF text (tokens separated by single spaces).
pub fn sexpr_text(e: &SExpr, out: &mut String) {
    match e {
        SExpr::Token(t, _) => out.push_str(t),
        SExpr::List(items, _) => {
            out.push('(');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                sexpr_text(item, out);
            }
            out.push(')');
        }
    }
}

fn text_of(e: &SExpr) -> String {
    let mut s = String::new();
    sexpr_text(e, &mut s);
    s
}

fn token(e: &SExpr) -> Option<&str> {
    match e {
        SExpr::Token(t, _) => Some(t),
        SExpr::List(..) => None,
    }
}

fn clock(e: &SExpr) -> Option<f64> {
    token(e)?
        .parse::<f64>()
        .ok()
        .filter(|c| c.is_finite() && *c >= 0.0)
}

/// The rules list `(r1 r2 ...)` as KIF text, one sentence a line.
fn rules_text(e: &SExpr) -> Option<String> {
    let SExpr::List(items, _) = e else {
        return None;
    };
    let mut s = String::new();
    for item in items {
        sexpr_text(item, &mut s);
        s.push('\n');
    }
    Some(s)
}

/// `nil` or a list of moves.
fn moves_of(e: &SExpr) -> Option<Option<Vec<String>>> {
    match e {
        SExpr::Token(t, _) if t.eq_ignore_ascii_case("nil") => Some(None),
        SExpr::Token(..) => None,
        SExpr::List(items, _) => Some(Some(items.iter().map(text_of).collect())),
    }
}

impl FromStr for Message {
    type Err = ProtocolError;

    fn from_str(text: &str) -> Result<Self, ProtocolError> {
        let exprs = read_sexprs(text).map_err(|e| ProtocolError::Syntax(e.to_string()))?;
        let short = || text.trim().chars().take(60).collect::<String>();
        let [SExpr::List(items, _)] = exprs.as_slice() else {
            return Err(ProtocolError::Unknown(short()));
        };
        let Some(head) = items.first().and_then(token) else {
            return Err(ProtocolError::Unknown(short()));
        };
        let args = &items[1..];
        let shape = |message, expected| ProtocolError::Shape { message, expected };
        match head.to_ascii_lowercase().as_str() {
            "info" => Ok(Message::Info),
            "preview" => match args {
                [rules, c] => Ok(Message::Preview {
                    rules: rules_text(rules)
                        .ok_or_else(|| shape("preview", "(preview (<rules>) <clock>)"))?,
                    clock: clock(c).ok_or_else(|| shape("preview", "a clock in seconds"))?,
                }),
                _ => Err(shape("preview", "(preview (<rules>) <clock>)")),
            },
            "start" => {
                const E: &str = "(start <id> <role> (<rules>) <startclock> <playclock>)";
                // Arguments after the play clock are ignored, as ggp-base's players do.
                let [id, role, rules, sc, pc, ..] = args else {
                    return Err(shape("start", E));
                };
                Ok(Message::Start {
                    id: token(id).ok_or_else(|| shape("start", E))?.to_string(),
                    role: text_of(role),
                    rules: rules_text(rules).ok_or_else(|| shape("start", E))?,
                    start_clock: clock(sc).ok_or_else(|| shape("start", E))?,
                    play_clock: clock(pc).ok_or_else(|| shape("start", E))?,
                })
            }
            kw @ ("play" | "stop") => {
                let (message, e): (&'static str, &'static str) = if kw == "play" {
                    ("play", "(play <id> nil) or (play <id> (<moves>))")
                } else {
                    ("stop", "(stop <id> nil) or (stop <id> (<moves>))")
                };
                let [id, moves] = args else {
                    return Err(shape(message, e));
                };
                let id = token(id).ok_or_else(|| shape(message, e))?.to_string();
                let moves = moves_of(moves).ok_or_else(|| shape(message, e))?;
                Ok(if kw == "play" {
                    Message::Play { id, moves }
                } else {
                    Message::Stop { id, moves }
                })
            }
            "abort" => match args {
                [id] => Ok(Message::Abort {
                    id: token(id)
                        .ok_or_else(|| shape("abort", "(abort <id>)"))?
                        .to_string(),
                }),
                _ => Err(shape("abort", "(abort <id>)")),
            },
            _ => Err(ProtocolError::Unknown(short())),
        }
    }
}

fn write_moves(f: &mut fmt::Formatter<'_>, moves: &Option<Vec<String>>) -> fmt::Result {
    match moves {
        None => f.write_str("nil"),
        Some(m) => write!(f, "({})", m.join(" ")),
    }
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Message::Info => f.write_str("(info)"),
            Message::Preview { rules, clock } => write!(f, "(preview ({rules}) {clock})"),
            Message::Start {
                id,
                role,
                rules,
                start_clock,
                play_clock,
            } => write!(
                f,
                "(start {id} {role} ({}) {start_clock} {play_clock})",
                rules.trim()
            ),
            Message::Play { id, moves } => {
                write!(f, "(play {id} ")?;
                write_moves(f, moves)?;
                f.write_str(")")
            }
            Message::Stop { id, moves } => {
                write!(f, "(stop {id} ")?;
                write_moves(f, moves)?;
                f.write_str(")")
            }
            Message::Abort { id } => write!(f, "(abort {id})"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_message_and_writes_it_back() {
        let m: Message = "( START  m7 xplayer ((role xplayer) (init (cell 1 1 b))) 30 10 )"
            .parse()
            .unwrap();
        let Message::Start {
            id,
            role,
            rules,
            start_clock,
            play_clock,
        } = &m
        else {
            panic!("{m:?}")
        };
        assert_eq!((id.as_str(), role.as_str()), ("m7", "xplayer"));
        assert_eq!(rules, "(role xplayer)\n(init (cell 1 1 b))\n");
        assert_eq!((*start_clock, *play_clock), (30.0, 10.0));
        assert_eq!(m.to_string().parse::<Message>().unwrap(), m);
        assert_eq!("(Info)".parse::<Message>().unwrap(), Message::Info);
        // Extra arguments of START are ignored (ggp-base's players accept them).
        let extra: Message = "(start m7 xplayer ((role xplayer) (init (cell 1 1 b))) 30 10 (x) y)"
            .parse()
            .unwrap();
        assert_eq!(extra, m);
        assert_eq!(
            "(stop m nil)".parse::<Message>().unwrap(),
            Message::Stop {
                id: "m".into(),
                moves: None
            }
        );
        assert_eq!(
            "(ABORT m)".parse::<Message>().unwrap(),
            Message::Abort { id: "m".into() }
        );
        let p: Message = "(preview ((role a)) 5)".parse().unwrap();
        assert_eq!(p.to_string().parse::<Message>().unwrap(), p);
    }

    #[test]
    fn malformed_messages_are_errors() {
        for bad in [
            "",
            "info",
            "(play m1",
            "(play)",
            "(play m1 foo)",
            "(start m1 r ((role r)) ten 5)",
            "(start m1 r ((role r)) 10)",
            "(start m1 r role 10 5)",
            "(abort)",
            "(hello)",
            "((info))",
            "(info) (info)",
            "(preview x 3)",
            "(start m r ((role r)) -1 3)",
        ] {
            assert!(bad.parse::<Message>().is_err(), "{bad:?} was accepted");
        }
        assert!(matches!(
            "(frobnicate)".parse::<Message>(),
            Err(ProtocolError::Unknown(_))
        ));
    }
}
