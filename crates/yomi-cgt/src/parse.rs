//! Parsing the standard notation into a [`Cgt`].
//!
//! Grammar (whitespace allowed between tokens):
//!
//! ```text
//! expr     := term (('+' | '-') term)*
//! term     := '-' term | atom                 (a '-' directly before a digit is the number's sign)
//! atom     := '{' list (bars list)+ '}' | '(' expr ')' | ('±' | '+-') number | compound
//! bars     := '|'+        (slash notation: the longest run splits Left from Right, so
//!                          `{2|0||-1}` = `{{2|0}|-1}` and `{0||0|-2}` = `{0|{0|-2}}`)
//! list     := [expr (',' expr)*]
//! compound := [number] [arrow+ [times digits]] [star]   (at least one part)
//! number   := ['-'] digits ['/' digits]       (the denominator a power of two)
//! arrow    := '↑' | '^' | '⇑' | '↓' | 'v' | '⇓'   (⇑ = ↑↑, ⇓ = ↓↓)
//! times    := '×' | 'x'   (a run of arrows times a count: `↑×72` = 72·↑, `v×3` = ↓↓↓; the
//!                          printer writes multiples beyond four this way)
//! star     := '*' [digits]
//! ```
//!
//! Examples: `0`, `-3`, `1/2`, `*`, `*2`, `↑`, `^^*`, `1/2↑*`, `±1`, `{1|0}`, `{2|-1}`,
//! `{{2|0}|-1}`, `{2|0||-1}`, `{1,*|0}`, `{1|0} + ↑ - *`. A brace form is kept as written (see
//! [`Cgt::display_form`]); sums are computed in canonical form.
//!
//! The parser never panics: every failure is a [`ParseError`] with the byte offset where
//! it was found. Inputs are bounded so that evaluating them stays cheap: at most
//! [`MAX_INPUT`] bytes, [`MAX_DEPTH`] levels of nesting, [`MAX_OPERATORS`] binary `+`/`-`,
//! numbers up to `2^32` in magnitude with denominators up to `2^32`, nimbers up to `*2047`
//! ([`MAX_NIMBER`]), at most 64 arrow characters in a row and at most [`MAX_ARROW_COUNT`]
//! arrows in one value (`↑×4096`).
//!
//! What the parser accepts is closed under printing: the canonical form of an accepted
//! input prints as notation the parser accepts again. Sums and brace forms can leave the
//! number range (`4294967296 + 1`; `{0|1/4294967296}` is `1/8589934592`), so the value
//! is checked too, and an input whose canonical form holds a number outside the range is
//! refused ([`ParseErrorKind::ValueOutOfRange`]) instead of giving a value that prints as
//! notation nobody can read back, or whose analysis needs finer fractions than
//! [`Dyadic`] holds.

use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;

use crate::game::with_store;
use crate::store::{Id, Node, Store};
use crate::{Cgt, Dyadic};

/// Longest accepted input, in bytes.
pub const MAX_INPUT: usize = 16 * 1024;
/// Deepest accepted nesting of braces, parentheses and unary minus signs.
pub const MAX_DEPTH: usize = 100;
/// Most binary `+` / `-` operators in one input (each sum is computed in canonical form,
/// and sums of hot games can grow quickly).
pub const MAX_OPERATORS: usize = 12;
const MAX_MAGNITUDE: u64 = 1 << 32;
/// Largest nimber literal: `2^11 − 1`, so that nim sums of accepted nimbers (XOR) stay
/// within it, and a brace form equal to `*2048` needs more than [`MAX_INPUT`] bytes (its
/// options must include `*0 … *2047` on both sides): every value the parser can produce
/// prints as a nimber it reads back.
pub const MAX_NIMBER: u64 = 2047;
const MAX_ARROWS: i64 = 64;
/// Most arrows in one value written with a count (`↑×4096`): more than sums and nesting of
/// accepted input can reach (at most `(MAX_OPERATORS + 1) · 64 + MAX_DEPTH`), so every
/// printed value reads back.
pub const MAX_ARROW_COUNT: i64 = 4096;

/// What went wrong while parsing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// The input is empty (or only whitespace).
    Empty,
    /// The input ended where more was needed; names what was expected.
    UnexpectedEnd(&'static str),
    /// A character that cannot start or continue what was expected.
    Unexpected {
        /// The character found.
        found: char,
        /// What was expected instead.
        expected: &'static str,
    },
    /// A number above `2^32` in magnitude, or a denominator above `2^32`.
    NumberTooLarge,
    /// The input's value holds this number (in its canonical form), outside the range a
    /// literal may have: the input reads, but its value would not print as notation that
    /// reads back.
    ValueOutOfRange(Dyadic),
    /// A denominator that is not a power of two (short numbers are dyadic).
    NotDyadic,
    /// A zero denominator.
    ZeroDenominator,
    /// A nimber above `*256`.
    NimberTooLarge,
    /// More than 64 arrows in one value.
    TooManyArrows,
    /// Nesting deeper than [`MAX_DEPTH`].
    TooDeep,
    /// More than [`MAX_OPERATORS`] binary operators.
    TooManyOperators,
    /// Input longer than [`MAX_INPUT`] bytes.
    TooLong,
    /// Two bars of the same, greatest length in one form (`{a|b|c}`): which one splits
    /// Left from Right is unclear.
    AmbiguousBars,
}

impl fmt::Display for ParseErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseErrorKind::Empty => write!(f, "empty game expression"),
            ParseErrorKind::UnexpectedEnd(e) => write!(f, "unexpected end of input, expected {e}"),
            ParseErrorKind::Unexpected { found, expected } => {
                write!(f, "unexpected {found:?}, expected {expected}")
            }
            ParseErrorKind::NumberTooLarge => write!(
                f,
                "number too large (limit 2^32 in magnitude, denominators up to 2^32)"
            ),
            ParseErrorKind::ValueOutOfRange(x) => write!(
                f,
                "the value holds the number {x}, outside the notation's range (magnitude up \
                 to 2^32, denominators up to 2^32)"
            ),
            ParseErrorKind::NotDyadic => {
                write!(
                    f,
                    "denominator is not a power of two (short numbers are dyadic)"
                )
            }
            ParseErrorKind::ZeroDenominator => write!(f, "zero denominator"),
            ParseErrorKind::NimberTooLarge => write!(f, "nimber too large (limit *{MAX_NIMBER})"),
            ParseErrorKind::TooManyArrows => write!(
                f,
                "too many arrows (limit {MAX_ARROWS} in a row, {MAX_ARROW_COUNT} with a count as in `↑×{MAX_ARROW_COUNT}`)"
            ),
            ParseErrorKind::TooDeep => write!(f, "nesting deeper than {MAX_DEPTH}"),
            ParseErrorKind::TooManyOperators => {
                write!(f, "more than {MAX_OPERATORS} '+'/'-' operators")
            }
            ParseErrorKind::TooLong => write!(f, "input longer than {MAX_INPUT} bytes"),
            ParseErrorKind::AmbiguousBars => {
                write!(
                    f,
                    "ambiguous bars: write {{a|b||c}} or {{a||b|c}}, not {{a|b|c}}"
                )
            }
        }
    }
}

/// A parse failure and the byte offset where it was detected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{kind} at byte {pos}")]
pub struct ParseError {
    /// What went wrong.
    pub kind: ParseErrorKind,
    /// Byte offset into the input.
    pub pos: usize,
}

/// Parsed syntax, evaluated in one store lock afterwards.
enum Expr {
    Form(Vec<Expr>, Vec<Expr>),
    Compound { x: Dyadic, ups: i64, star: u32 },
    Pm(Dyadic),
    Neg(Box<Expr>),
    Add(Box<Expr>, Box<Expr>),
    Sub(Box<Expr>, Box<Expr>),
}

struct Parser<'a> {
    src: &'a str,
    pos: usize,
    depth: usize,
    operators: usize,
}

type PResult<T> = Result<T, ParseError>;

impl<'a> Parser<'a> {
    fn err<T>(&self, kind: ParseErrorKind, pos: usize) -> PResult<T> {
        Err(ParseError { kind, pos })
    }

    fn peek(&self) -> Option<char> {
        self.src[self.pos..].chars().next()
    }

    fn peek2(&self) -> Option<char> {
        let mut it = self.src[self.pos..].chars();
        it.next();
        it.next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }

    fn unexpected<T>(&self, expected: &'static str) -> PResult<T> {
        match self.peek() {
            Some(found) => self.err(ParseErrorKind::Unexpected { found, expected }, self.pos),
            None => self.err(ParseErrorKind::UnexpectedEnd(expected), self.pos),
        }
    }

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return self.err(ParseErrorKind::TooDeep, self.pos);
        }
        Ok(())
    }

    fn expr(&mut self) -> PResult<Expr> {
        self.skip_ws();
        let mut acc = self.term()?;
        loop {
            self.skip_ws();
            let op = match self.peek() {
                Some('+') => '+',
                Some('-') => '-',
                _ => return Ok(acc),
            };
            let at = self.pos;
            self.bump();
            self.operators += 1;
            if self.operators > MAX_OPERATORS {
                return self.err(ParseErrorKind::TooManyOperators, at);
            }
            self.skip_ws();
            let rhs = self.term()?;
            acc = if op == '+' {
                Expr::Add(Box::new(acc), Box::new(rhs))
            } else {
                Expr::Sub(Box::new(acc), Box::new(rhs))
            };
        }
    }

    fn term(&mut self) -> PResult<Expr> {
        self.skip_ws();
        if self.peek() == Some('-') {
            if self.peek2().is_some_and(|c| c.is_ascii_digit()) {
                return self.compound();
            }
            self.enter()?;
            self.bump();
            self.skip_ws();
            let inner = self.term()?;
            self.depth -= 1;
            return Ok(Expr::Neg(Box::new(inner)));
        }
        self.atom()
    }

    fn atom(&mut self) -> PResult<Expr> {
        match self.peek() {
            None => self.unexpected("a game"),
            Some('{') => {
                self.enter()?;
                self.bump();
                // Option lists separated by bars `|`, `||`, `|||`, … (Conway's slash
                // notation: `{2|0||-1}` is `{{2|0}|-1}`).
                let mut lists = vec![self.list('|')?];
                let mut bars: Vec<(usize, usize)> = Vec::new(); // (length, position)
                while self.peek() == Some('|') {
                    let at = self.pos;
                    let mut len = 0;
                    while self.peek() == Some('|') {
                        self.bump();
                        len += 1;
                    }
                    bars.push((len, at));
                    lists.push(self.list('}')?);
                }
                if bars.is_empty() {
                    return self.unexpected("',' or '|'");
                }
                if self.peek() != Some('}') {
                    return self.unexpected("',', '|' or '}'");
                }
                self.bump();
                self.depth -= 1;
                let mut lists: Vec<Option<Vec<Expr>>> = lists.into_iter().map(Some).collect();
                slash_form(&mut lists, &bars, 0)
            }
            Some('(') => {
                self.enter()?;
                self.bump();
                let e = self.expr()?;
                self.skip_ws();
                if self.peek() != Some(')') {
                    return self.unexpected("')'");
                }
                self.bump();
                self.depth -= 1;
                Ok(e)
            }
            Some('±') => {
                self.bump();
                self.skip_ws();
                Ok(Expr::Pm(self.number()?))
            }
            Some('+') if self.peek2() == Some('-') => {
                self.bump();
                self.bump();
                self.skip_ws();
                Ok(Expr::Pm(self.number()?))
            }
            Some(_) => self.compound(),
        }
    }

    /// Options up to (not including) `end`.
    fn list(&mut self, end: char) -> PResult<Vec<Expr>> {
        let mut out = Vec::new();
        self.skip_ws();
        if self.peek() == Some(end) {
            return Ok(out);
        }
        loop {
            out.push(self.expr()?);
            self.skip_ws();
            if self.peek() == Some(',') {
                self.bump();
                continue;
            }
            return Ok(out);
        }
    }

    fn digits(&mut self) -> PResult<Option<u64>> {
        Ok(self.digits_up_to(MAX_MAGNITUDE as u128)?.map(|v| v as u64))
    }

    /// Decimal digits with a value up to `cap`.
    fn digits_up_to(&mut self, cap: u128) -> PResult<Option<u128>> {
        let start = self.pos;
        let mut v: u128 = 0;
        let mut any = false;
        while let Some(c) = self.peek().filter(char::is_ascii_digit) {
            any = true;
            v = v.saturating_mul(10).saturating_add(c as u128 - '0' as u128);
            self.bump();
        }
        if !any {
            return Ok(None);
        }
        if v > cap {
            return self.err(ParseErrorKind::NumberTooLarge, start);
        }
        Ok(Some(v))
    }

    fn number(&mut self) -> PResult<Dyadic> {
        let start = self.pos;
        let neg = if self.peek() == Some('-') {
            self.bump();
            true
        } else {
            false
        };
        // A numerator may exceed 2^32 when the denominator brings the number back into
        // range (`8589934593/4294967296`, as a sum can print).
        let Some(n) = self.digits_up_to(MAX_MAGNITUDE as u128 * MAX_MAGNITUDE as u128)? else {
            return self.unexpected("a number");
        };
        let mut x = Dyadic::new(n as i128, 0);
        if self.peek() == Some('/') {
            self.bump();
            let at = self.pos;
            let Some(d) = self.digits()? else {
                return self.unexpected("a denominator");
            };
            if d == 0 {
                return self.err(ParseErrorKind::ZeroDenominator, at);
            }
            if !d.is_power_of_two() {
                return self.err(ParseErrorKind::NotDyadic, at);
            }
            x = Dyadic::new(n as i128, d.trailing_zeros());
        }
        if !in_range(x) {
            return self.err(ParseErrorKind::NumberTooLarge, start);
        }
        Ok(if neg { -x } else { x })
    }

    fn compound(&mut self) -> PResult<Expr> {
        let start = self.pos;
        let x = if self.peek() == Some('-') || self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.number()?
        } else {
            Dyadic::ZERO
        };
        let mut ups: i64 = 0;
        while let Some(c) = self.peek() {
            let d = match c {
                '↑' | '^' => 1,
                '⇑' => 2,
                '↓' | 'v' => -1,
                '⇓' => -2,
                _ => break,
            };
            ups += d;
            if ups.abs() > MAX_ARROWS {
                return self.err(ParseErrorKind::TooManyArrows, self.pos);
            }
            self.bump();
        }
        if ups != 0 && matches!(self.peek(), Some('×' | 'x')) {
            self.bump();
            let at = self.pos;
            let Some(count) = self.digits()? else {
                return self.unexpected("a count after `×`");
            };
            ups = match ups.checked_mul(count as i64) {
                Some(u) if u != 0 && u.abs() <= MAX_ARROW_COUNT => u,
                _ => return self.err(ParseErrorKind::TooManyArrows, at),
            };
        }
        let mut star = 0;
        if self.peek() == Some('*') {
            self.bump();
            let at = self.pos;
            star = match self.digits()? {
                None => 1,
                Some(k) if k > MAX_NIMBER => return self.err(ParseErrorKind::NimberTooLarge, at),
                Some(k) => k as u32,
            };
        }
        if self.pos == start {
            return self.unexpected("a game");
        }
        Ok(Expr::Compound { x, ups, star })
    }
}

/// Build `{…}` from option lists `lists[lo..=lo + bars.len()]` split by `bars`: the
/// longest bar (which must be unique) separates Left's side from Right's, and a side
/// that still contains bars is one option, itself a form.
fn slash_form(
    lists: &mut [Option<Vec<Expr>>],
    bars: &[(usize, usize)],
    lo: usize,
) -> PResult<Expr> {
    let longest = bars.iter().map(|b| b.0).max().unwrap_or(1);
    let at: Vec<usize> = (0..bars.len()).filter(|&i| bars[i].0 == longest).collect();
    if at.len() > 1 {
        return Err(ParseError {
            kind: ParseErrorKind::AmbiguousBars,
            pos: bars[at[1]].1,
        });
    }
    let k = at[0];
    let side = |lists: &mut [Option<Vec<Expr>>], bars: &[(usize, usize)], lo: usize| {
        if bars.is_empty() {
            Ok(lists[lo].take().unwrap_or_default())
        } else {
            Ok(vec![slash_form(lists, bars, lo)?])
        }
    };
    let left = side(lists, &bars[..k], lo)?;
    let right = side(lists, &bars[k + 1..], lo + k + 1)?;
    Ok(Expr::Form(left, right))
}

/// Whether a number is one the notation reads: magnitude and denominator up to `2^32`.
fn in_range(x: Dyadic) -> bool {
    x.exponent() <= MAX_MAGNITUDE.trailing_zeros()
        && x.numerator().unsigned_abs() <= (MAX_MAGNITUDE as u128) << x.exponent()
}

/// A number outside the notation's range in the canonical form of `id`, if any. Each
/// distinct subgame is visited once (forms share subgames), and the canonical form is
/// computed under the caller's work limit, like any evaluation.
fn out_of_range(s: &mut Store, id: Id) -> Option<Dyadic> {
    let c = s.canonical(id);
    let mut seen = HashSet::new();
    let mut stack = vec![c];
    while let Some(g) = stack.pop() {
        if !seen.insert(g) {
            continue;
        }
        match s.node(g) {
            Node::Number(x) => {
                if !in_range(*x) {
                    return Some(*x);
                }
            }
            Node::Form { left, right } => stack.extend(left.iter().chain(right.iter())),
        }
    }
    None
}

fn eval(s: &mut Store, e: &Expr) -> Id {
    match e {
        Expr::Form(l, r) => {
            let l = l.iter().map(|o| eval(s, o)).collect();
            let r = r.iter().map(|o| eval(s, o)).collect();
            s.form(l, r)
        }
        Expr::Compound { x, ups, star } => {
            let a = s.number(*x);
            let u = s.up_multiple(*ups);
            let n = s.nimber(*star);
            let au = s.add(a, u);
            s.add(au, n)
        }
        Expr::Pm(x) => {
            let a = s.number(*x);
            let b = s.number(-*x);
            let f = s.form(vec![a], vec![b]);
            s.canonical(f)
        }
        Expr::Neg(inner) => {
            let g = eval(s, inner);
            s.neg(g)
        }
        Expr::Add(a, b) => {
            let (a, b) = (eval(s, a), eval(s, b));
            s.add(a, b)
        }
        Expr::Sub(a, b) => {
            let (a, b) = (eval(s, a), eval(s, b));
            let nb = s.neg(b);
            s.add(a, nb)
        }
    }
}

impl FromStr for Cgt {
    type Err = ParseError;

    /// Parse the standard notation (see the [module documentation](crate::parse)).
    fn from_str(src: &str) -> Result<Cgt, ParseError> {
        if src.len() > MAX_INPUT {
            return Err(ParseError {
                kind: ParseErrorKind::TooLong,
                pos: MAX_INPUT,
            });
        }
        let mut p = Parser {
            src,
            pos: 0,
            depth: 0,
            operators: 0,
        };
        p.skip_ws();
        if p.peek().is_none() {
            return Err(ParseError {
                kind: ParseErrorKind::Empty,
                pos: p.pos,
            });
        }
        let e = p.expr()?;
        p.skip_ws();
        if p.peek().is_some() {
            return p.unexpected("'+', '-' or the end");
        }
        with_store(|s| {
            let g = eval(s, &e);
            match out_of_range(s, g) {
                Some(x) => Err(ParseError {
                    kind: ParseErrorKind::ValueOutOfRange(x),
                    pos: 0,
                }),
                None => Ok(Cgt::in_store(s, g)),
            }
        })
    }
}

impl FromStr for Dyadic {
    type Err = ParseError;

    /// Parse `3`, `-1/2`, `5/8` (integers and denominators up to `2^32`).
    fn from_str(src: &str) -> Result<Dyadic, ParseError> {
        let mut p = Parser {
            src,
            pos: 0,
            depth: 0,
            operators: 0,
        };
        p.skip_ws();
        if p.peek().is_none() {
            return Err(ParseError {
                kind: ParseErrorKind::Empty,
                pos: p.pos,
            });
        }
        let x = p.number()?;
        p.skip_ws();
        if p.peek().is_some() {
            return p.unexpected("the end of the number");
        }
        Ok(x)
    }
}
