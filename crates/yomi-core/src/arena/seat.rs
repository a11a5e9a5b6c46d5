//! The result of each seat in one game (win, draw or loss) from the seats' rewards.
//!
//! The bottom of the arena: [`play`](super::play) computes the results of a finished game,
//! [`records`](super::records) stores them and [`stats`](super::stats) counts them; this
//! module uses none of them.

use serde::{Deserialize, Serialize};

/// How one seat did in one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeatResult {
    /// The seat's reward is greater than every other seat's.
    Win,
    /// The seat shares the greatest reward with at least one other seat.
    Draw,
    /// Another seat has a greater reward.
    Loss,
}

impl SeatResult {
    /// The points of this result: 1 for a win, ½ for a draw, 0 for a loss.
    pub fn points(self) -> f64 {
        match self {
            SeatResult::Win => 1.0,
            SeatResult::Draw => 0.5,
            SeatResult::Loss => 0.0,
        }
    }
}

/// The result of every seat from the seats' rewards.
///
/// A seat wins when its reward is strictly greater than every other seat's, draws when it
/// ties for the greatest reward, and loses otherwise. For two players this is the usual
/// rule: a win when the reward is greater than the opponent's, a draw when equal. A
/// one-player game is always a win (look at the mean return instead).
pub fn seat_results(returns: &[f64]) -> Vec<SeatResult> {
    let best = returns.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let at_best = returns.iter().filter(|&&r| r == best).count();
    returns
        .iter()
        .map(|&r| match (r == best, at_best) {
            (true, 1) => SeatResult::Win,
            (true, _) => SeatResult::Draw,
            (false, _) => SeatResult::Loss,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_results_follow_rewards() {
        use SeatResult::*;
        assert_eq!(seat_results(&[1.0, -1.0]), vec![Win, Loss]);
        assert_eq!(seat_results(&[0.0, 0.0]), vec![Draw, Draw]);
        assert_eq!(seat_results(&[3.0, 5.0]), vec![Loss, Win]);
        assert_eq!(seat_results(&[2.0, 2.0, 1.0]), vec![Draw, Draw, Loss]);
        assert_eq!(seat_results(&[0.0, 1.0, 0.5]), vec![Loss, Win, Loss]);
        assert_eq!(seat_results(&[0.3]), vec![Win]);
        assert!(seat_results(&[]).is_empty());
    }
}
