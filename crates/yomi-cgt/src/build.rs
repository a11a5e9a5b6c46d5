//! Building a [`Cgt`] from any game tree: the bridge from a game crate's local positions
//! (a Go endgame region, a Hackenbush picture) to their combinatorial values.

use std::collections::{HashMap, HashSet};
use std::hash::Hash;

use crate::{Cgt, Dyadic};

/// What a position is, as seen by [`Cgt::from_positions`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Local<P> {
    /// A settled position worth this many points to Left (no more moves are worth
    /// anything, like counted territory).
    Number(Dyadic),
    /// A position with these moves: Left's (Black's) and Right's (White's) results.
    Moves {
        /// Positions after each of Left's moves.
        left: Vec<P>,
        /// Positions after each of Right's moves.
        right: Vec<P>,
    },
}

/// A position was reached again below itself: the game is not short (a ko or another
/// loop), so it has no value as a short game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the game tree has a cycle (a position repeats below itself): not a short game")]
pub struct CycleError;

impl Cgt {
    /// The canonical value of the game tree rooted at `root`, where `expand` says what
    /// each position is. Positions are memoised (each is expanded once, so transpositions
    /// are cheap) and every value is canonicalised as soon as it is built.
    ///
    /// # Errors
    ///
    /// [`CycleError`] when a position repeats below itself.
    ///
    /// ```
    /// use yomi_cgt::{build::Local, Cgt, Dyadic};
    ///
    /// // A Blue-Red Hackenbush string: Left cuts a 'B' edge, Right an 'R' edge, and
    /// // everything above the cut falls off.
    /// let value = |s: &str| {
    ///     Cgt::from_positions(&s.to_string(), |p: &String| {
    ///         let cuts = |c| p.char_indices().filter(|e| e.1 == c).map(|e| p[..e.0].to_string()).collect();
    ///         Local::Moves { left: cuts('B'), right: cuts('R') }
    ///     })
    ///     .unwrap()
    /// };
    /// assert_eq!(value("BR"), Cgt::number(Dyadic::HALF));
    /// assert_eq!(value("BRB"), Cgt::number(Dyadic::new(3, 2)));
    /// ```
    pub fn from_positions<P, F>(root: &P, mut expand: F) -> Result<Cgt, CycleError>
    where
        P: Clone + Eq + Hash,
        F: FnMut(&P) -> Local<P>,
    {
        let mut done: HashMap<P, Cgt> = HashMap::new();
        let mut open: HashSet<P> = HashSet::new();
        value_of(root, &mut expand, &mut done, &mut open)
    }

    /// Like [`Cgt::from_positions`], but returns the canonical value of every position
    /// reached from `root` (the root included), so that a caller can read the values of
    /// the root's options (which move reaches which value) without building the tree again.
    ///
    /// # Errors
    ///
    /// [`CycleError`] when a position repeats below itself.
    ///
    /// ```
    /// use yomi_cgt::{build::Local, Cgt, Dyadic};
    ///
    /// // Left moves from 0 to a settled 2, Right to a settled -1.
    /// let values = Cgt::position_values(&0u8, |p| match p {
    ///     0 => Local::Moves { left: vec![1], right: vec![2] },
    ///     1 => Local::Number(Dyadic::integer(2)),
    ///     _ => Local::Number(Dyadic::integer(-1)),
    /// })
    /// .unwrap();
    /// assert_eq!(values[&0], "{2|-1}".parse::<Cgt>().unwrap());
    /// assert_eq!(values[&1], Cgt::integer(2));
    /// ```
    pub fn position_values<P, F>(root: &P, mut expand: F) -> Result<HashMap<P, Cgt>, CycleError>
    where
        P: Clone + Eq + Hash,
        F: FnMut(&P) -> Local<P>,
    {
        let mut done: HashMap<P, Cgt> = HashMap::new();
        let mut open: HashSet<P> = HashSet::new();
        value_of(root, &mut expand, &mut done, &mut open)?;
        Ok(done)
    }
}

fn value_of<P, F>(
    p: &P,
    expand: &mut F,
    done: &mut HashMap<P, Cgt>,
    open: &mut HashSet<P>,
) -> Result<Cgt, CycleError>
where
    P: Clone + Eq + Hash,
    F: FnMut(&P) -> Local<P>,
{
    if let Some(&v) = done.get(p) {
        return Ok(v);
    }
    if !open.insert(p.clone()) {
        return Err(CycleError);
    }
    let v = match expand(p) {
        Local::Number(x) => Cgt::number(x),
        Local::Moves { left, right } => {
            let mut l = Vec::with_capacity(left.len());
            for q in &left {
                l.push(value_of(q, expand, done, open)?);
            }
            let mut r = Vec::with_capacity(right.len());
            for q in &right {
                r.push(value_of(q, expand, done, open)?);
            }
            Cgt::from_options(&l, &r).canonical()
        }
    };
    open.remove(p);
    done.insert(p.clone(), v);
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hackenbush(s: &str) -> Cgt {
        Cgt::from_positions(&s.to_string(), |p: &String| {
            let cuts = |c| {
                p.char_indices()
                    .filter(|e| e.1 == c)
                    .map(|e| p[..e.0].to_string())
                    .collect()
            };
            Local::Moves {
                left: cuts('B'),
                right: cuts('R'),
            }
        })
        .unwrap()
    }

    #[test]
    fn hackenbush_strings() {
        let d = Dyadic::new;
        assert_eq!(hackenbush(""), Cgt::zero());
        assert_eq!(hackenbush("B"), Cgt::integer(1));
        assert_eq!(hackenbush("BB"), Cgt::integer(2));
        assert_eq!(hackenbush("R"), Cgt::integer(-1));
        assert_eq!(hackenbush("BR"), Cgt::number(d(1, 1)));
        assert_eq!(hackenbush("BRR"), Cgt::number(d(1, 2)));
        assert_eq!(hackenbush("BRB"), Cgt::number(d(3, 2)));
        assert_eq!(hackenbush("RB"), Cgt::number(d(-1, 1)));
        assert_eq!(hackenbush("BBRBR"), Cgt::number(d(13, 3))); // 2 − 1/2 + 1/4 − 1/8
    }

    #[test]
    fn a_hot_local_game_and_a_cycle() {
        // Root: Black moves to a settled +2, White to a settled −1: {2 | −1}.
        let v = Cgt::from_positions(&0u8, |p| match p {
            0 => Local::Moves {
                left: vec![1],
                right: vec![2],
            },
            1 => Local::Number(Dyadic::integer(2)),
            _ => Local::Number(Dyadic::integer(-1)),
        })
        .unwrap();
        assert_eq!(v, "{2|-1}".parse::<Cgt>().unwrap());
        // A ko-like loop is refused.
        let looped = Cgt::from_positions(&0u8, |p| Local::Moves {
            left: vec![(p + 1) % 3],
            right: vec![],
        });
        assert_eq!(looped, Err(CycleError));
    }
}
