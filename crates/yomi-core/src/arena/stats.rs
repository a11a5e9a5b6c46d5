//! Statistics of a match: wins, draws and losses, score rates with confidence intervals,
//! Elo differences, standings and a pairwise cross table.
//!
//! Everything here is a pure function of numbers or of [`GameRecord`]s; nothing reads files
//! or plays games, so the CLI can rebuild a report from a records file alone.
//!
//! # Why the Wilson score interval
//! A match of N games estimates an agent's score rate `s = (W + D/2) / N`. The textbook
//! (Wald) interval `s ± z·sqrt(s(1-s)/N)` fails exactly where arena results often live: it
//! has zero width at 0 or N wins ("100 % ± 0 %" after ten games), can leave [0, 1], and
//! covers the true rate far less often than 95 % for small N or rates near 0 and 1. The
//! Wilson interval inverts the score test instead: it always lies inside [0, 1], has a
//! sensible width at 0 or N wins, and keeps close to its nominal coverage down to a handful
//! of games. Draws are counted as half a win, which treats the score as a binomial
//! proportion; since a draw has less variance than a coin flip, the interval is then
//! slightly conservative (wider than necessary), never too optimistic.

use serde::{Deserialize, Serialize};

use super::records::GameRecord;
pub use super::seat::{seat_results, SeatResult};
use super::table::{Align, Table, TableFormat};

/// The two-sided 95 % normal quantile, `Φ⁻¹(0.975)`.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// Elo differences are clamped to `±ELO_LIMIT`. A score rate of exactly 0 or 1 (all games
/// lost or won) has an infinite Elo difference; beyond ±1000 (a score above 99.68 %) the
/// number only says "much stronger" anyway.
pub const ELO_LIMIT: f64 = 1000.0;

/// Counts of wins, draws and losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Wdl {
    /// The given counts.
    pub const fn new(wins: u64, draws: u64, losses: u64) -> Self {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    /// Counts one more result.
    pub fn add(&mut self, result: SeatResult) {
        match result {
            SeatResult::Win => self.wins += 1,
            SeatResult::Draw => self.draws += 1,
            SeatResult::Loss => self.losses += 1,
        }
    }

    /// The number of games, `W + D + L`.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The points scored, `W + D/2`.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// The score rate `(W + D/2) / N` with its 95 % Wilson interval; see [`score_estimate`].
    pub fn score(&self) -> Estimate {
        score_estimate(self.points(), self.games())
    }

    /// The Elo difference with its 95 % interval; see [`elo_estimate`].
    pub fn elo(&self) -> Estimate {
        elo_estimate(&self.score())
    }
}

/// A point estimate with a 95 % confidence interval `[low, high]`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// The point estimate.
    pub value: f64,
    /// The lower bound of the interval.
    pub low: f64,
    /// The upper bound of the interval.
    pub high: f64,
}

/// The Wilson score interval for `points` out of `n` games at normal quantile `z`.
///
/// With `p = points / n`:
/// `(p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)`.
/// With no games it returns the whole range `(0, 1)`. See the [module
/// documentation](self) for why Wilson and how draws are treated.
pub fn wilson_interval(points: f64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let p = (points / n).clamp(0.0, 1.0);
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At p = 0 or 1 the bound is exactly 0 or 1; rounding must not move it.
    let low = if p == 0.0 {
        0.0
    } else {
        (center - half).max(0.0)
    };
    let high = if p == 1.0 {
        1.0
    } else {
        (center + half).min(1.0)
    };
    (low, high)
}

/// The score rate `points / n` with its 95 % Wilson interval. With no games the rate is ½
/// (nothing is known) and the interval is `[0, 1]`.
pub fn score_estimate(points: f64, n: u64) -> Estimate {
    let (low, high) = wilson_interval(points, n, Z_95);
    let value = if n == 0 {
        0.5
    } else {
        (points / n as f64).clamp(0.0, 1.0)
    };
    Estimate { value, low, high }
}

/// The Elo difference that predicts score rate `s`: `−400·log10(1/s − 1)`, clamped to
/// `±`[`ELO_LIMIT`] (so `s = 0` and `s = 1` give finite values and nothing is NaN;
/// a NaN `s` counts as ½).
pub fn elo_from_score(s: f64) -> f64 {
    if s.is_nan() {
        return 0.0;
    }
    if s <= 0.0 {
        return -ELO_LIMIT;
    }
    if s >= 1.0 {
        return ELO_LIMIT;
    }
    (-400.0 * (1.0 / s - 1.0).log10()).clamp(-ELO_LIMIT, ELO_LIMIT)
}

/// The Elo difference of a score estimate, its interval obtained by mapping the score
/// interval's bounds through [`elo_from_score`] (the map is increasing, so the interval
/// keeps its coverage).
pub fn elo_estimate(score: &Estimate) -> Estimate {
    Estimate {
        value: elo_from_score(score.value),
        low: elo_from_score(score.low),
        high: elo_from_score(score.high),
    }
}

/// One agent's line in the [`Standings`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    /// The agent's label (see [`crate::entrant`]).
    pub agent: String,
    /// Its results, one per seat it held (in a two-player game, one per game).
    pub wdl: Wdl,
    /// Its score rate with a 95 % interval.
    pub score: Estimate,
    /// Its Elo difference to the average of its opponents, with a 95 % interval.
    pub elo: Estimate,
    /// Its mean reward per seat, in the game's units (0 without games).
    pub mean_return: f64,
    /// Its mean thinking time per move, in seconds (0 without moves).
    pub seconds_per_move: f64,
    /// Games it lost by an illegal move or an agent error.
    pub forfeits: u64,
}

/// Every agent's results over a set of games, best score rate first.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Standings {
    /// One line per agent, sorted by score rate (highest first; ties keep the listed order).
    pub rows: Vec<Standing>,
}

impl Standings {
    /// The standings of `agents` (specs, as in [`GameRecord::seats`]) over `records`.
    /// Seats whose spec is not in `agents` are ignored; agents without games get a row of
    /// zeros.
    pub fn from_records(agents: &[String], records: &[GameRecord]) -> Self {
        #[derive(Default)]
        struct Acc {
            wdl: Wdl,
            reward: f64,
            seats: u64,
            seconds: f64,
            moves: u64,
            forfeits: u64,
        }
        let mut acc: Vec<Acc> = agents.iter().map(|_| Acc::default()).collect();
        for r in records {
            let forfeit = r.termination.forfeiting_seat();
            for (seat, spec) in r.seats.iter().enumerate() {
                let Some(i) = agents.iter().position(|a| a == spec) else {
                    continue;
                };
                let a = &mut acc[i];
                if let Some(&res) = r.results.get(seat) {
                    a.wdl.add(res);
                }
                a.reward += r.returns.get(seat).copied().unwrap_or(0.0);
                a.seats += 1;
                a.seconds += r.seat_seconds.get(seat).copied().unwrap_or(0.0);
                a.moves += r.seat_moves.get(seat).copied().unwrap_or(0) as u64;
                if forfeit == Some(seat) {
                    a.forfeits += 1;
                }
            }
        }
        let mut rows: Vec<Standing> = agents
            .iter()
            .zip(acc)
            .map(|(agent, a)| {
                let score = a.wdl.score();
                Standing {
                    agent: agent.clone(),
                    wdl: a.wdl,
                    score,
                    elo: elo_estimate(&score),
                    mean_return: ratio(a.reward, a.seats),
                    seconds_per_move: ratio(a.seconds, a.moves),
                    forfeits: a.forfeits,
                }
            })
            .collect();
        rows.sort_by(|a, b| b.score.value.total_cmp(&a.score.value));
        Standings { rows }
    }

    /// The standings as a table with aligned columns (or Markdown).
    pub fn render(&self, format: TableFormat) -> String {
        let mut t = Table::new(vec![
            ("#", Align::Right),
            ("agent", Align::Left),
            ("games", Align::Right),
            ("W", Align::Right),
            ("D", Align::Right),
            ("L", Align::Right),
            ("score", Align::Right),
            ("95% CI", Align::Right),
            ("Elo", Align::Right),
            ("Elo 95% CI", Align::Right),
            ("mean return", Align::Right),
            ("ms/move", Align::Right),
        ]);
        for (rank, s) in self.rows.iter().enumerate() {
            t.row(vec![
                (rank + 1).to_string(),
                s.agent.clone(),
                s.wdl.games().to_string(),
                s.wdl.wins.to_string(),
                s.wdl.draws.to_string(),
                s.wdl.losses.to_string(),
                format!("{:.1}%", 100.0 * s.score.value),
                format!("[{:.1}, {:.1}]", 100.0 * s.score.low, 100.0 * s.score.high),
                format!("{:+.0}", s.elo.value),
                format!("[{:+.0}, {:+.0}]", s.elo.low, s.elo.high),
                format!("{:.3}", s.mean_return),
                milliseconds(s.seconds_per_move),
            ]);
        }
        t.render(format)
    }
}

/// Seconds as milliseconds with about three significant digits (`0.0412`, `3.52`, `812`).
fn milliseconds(seconds: f64) -> String {
    let ms = 1000.0 * seconds;
    if ms == 0.0 {
        "0".into()
    } else if ms < 1.0 {
        format!("{ms:.4}")
    } else if ms < 100.0 {
        format!("{ms:.2}")
    } else {
        format!("{ms:.0}")
    }
}

fn ratio(sum: f64, n: u64) -> f64 {
    if n == 0 {
        0.0
    } else {
        sum / n as f64
    }
}

/// Pairwise results: `cells[i][j]` counts how agent `i` did against agent `j`.
///
/// In every game where both took part, `i` wins against `j` when its reward is greater than
/// `j`'s, draws when equal and loses otherwise (for two players: the game's result). With
/// several seats of the same agent in one game each pair of seats counts once.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CrossTable {
    /// The agents, in the order given.
    pub agents: Vec<String>,
    /// `cells[i][j]`: results of `agents[i]` against `agents[j]` (the diagonal stays empty).
    pub cells: Vec<Vec<Wdl>>,
}

impl CrossTable {
    /// The cross table of `agents` over `records`; seats of other specs are ignored.
    pub fn from_records(agents: &[String], records: &[GameRecord]) -> Self {
        let k = agents.len();
        let mut cells = vec![vec![Wdl::default(); k]; k];
        for r in records {
            let idx: Vec<Option<usize>> = r
                .seats
                .iter()
                .map(|s| agents.iter().position(|a| a == s))
                .collect();
            for (s1, a1) in idx.iter().enumerate() {
                for (s2, a2) in idx.iter().enumerate() {
                    let (Some(i), Some(j)) = (*a1, *a2) else {
                        continue;
                    };
                    if i == j || s1 == s2 {
                        continue;
                    }
                    let (Some(&x), Some(&y)) = (r.returns.get(s1), r.returns.get(s2)) else {
                        continue;
                    };
                    cells[i][j].add(if x > y {
                        SeatResult::Win
                    } else if x < y {
                        SeatResult::Loss
                    } else {
                        SeatResult::Draw
                    });
                }
            }
        }
        CrossTable {
            agents: agents.to_vec(),
            cells,
        }
    }

    /// The table: row agent's points / games against each column agent, then its total.
    /// Columns are numbered like the rows to keep the table narrow.
    pub fn render(&self, format: TableFormat) -> String {
        let mut cols = vec![("#", Align::Right), ("agent", Align::Left)];
        let numbers: Vec<String> = (1..=self.agents.len()).map(|i| i.to_string()).collect();
        for n in &numbers {
            cols.push((n.as_str(), Align::Right));
        }
        cols.push(("total", Align::Right));
        let mut t = Table::new(cols);
        for (i, agent) in self.agents.iter().enumerate() {
            let mut row = vec![(i + 1).to_string(), agent.clone()];
            let mut total = Wdl::default();
            for (j, cell) in self.cells[i].iter().enumerate() {
                if i == j {
                    row.push("-".into());
                } else {
                    row.push(points_of(cell));
                    total.wins += cell.wins;
                    total.draws += cell.draws;
                    total.losses += cell.losses;
                }
            }
            row.push(points_of(&total));
            t.row(row);
        }
        t.render(format)
    }
}

/// `points/games` with half points shown as `.5`, e.g. `7.5/10`.
fn points_of(w: &Wdl) -> String {
    let p = w.points();
    if p.fract() == 0.0 {
        format!("{p:.0}/{}", w.games())
    } else {
        format!("{p:.1}/{}", w.games())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn seven_wins_two_draws_one_loss() {
        // N = 10, points = 7 + 2/2 = 8, p = 0.8. z = 1.959964, z² = 3.841459.
        // denominator 1 + z²/N = 1.3841459
        // centre (0.8 + z²/20) / 1.3841459 = (0.8 + 0.1920729) / 1.3841459 = 0.7167401
        // half  z/1.3841459 · sqrt(0.8·0.2/10 + z²/400) = 1.4160066 · sqrt(0.016 + 0.0096036)
        //       = 1.4160066 · 0.1600113 = 0.2265777
        // interval [0.4901625, 0.9433178]
        // Elo(0.8) = −400·log10(1/0.8 − 1) = −400·log10(0.25) = 240.824
        // Elo(0.4901625) = −400·log10(1.0401360) = −6.837
        // Elo(0.9433178) = −400·log10(0.0600882) = 488.485
        let w = Wdl::new(7, 2, 1);
        assert_eq!(w.games(), 10);
        assert_eq!(w.points(), 8.0);
        let s = w.score();
        assert!(close(s.value, 0.8, 1e-12));
        assert!(close(s.low, 0.4901625, 1e-6), "{s:?}");
        assert!(close(s.high, 0.9433178, 1e-6), "{s:?}");
        let e = w.elo();
        assert!(close(e.value, 240.824, 1e-3), "{e:?}");
        assert!(close(e.low, -6.837, 1e-3), "{e:?}");
        assert!(close(e.high, 488.485, 1e-3), "{e:?}");
    }

    #[test]
    fn even_score_is_symmetric() {
        // 2 W 0 D 2 L: p = 0.5, N = 4, z²/N = 0.9603647, denominator 1.9603647.
        // centre (0.5 + 0.4801824) / 1.9603647 = 0.5 exactly (symmetric).
        // half z/1.9603647 · sqrt(0.25/4 + z²/64) = 0.9998043 · sqrt(0.0625 + 0.0600228)
        //      = 0.9998043 · 0.3500326 = 0.3499611 → [0.1500390, 0.8499610]; Elo 0 ± 301.2.
        let w = Wdl::new(2, 0, 2);
        let s = w.score();
        assert!(close(s.value, 0.5, 1e-12));
        assert!(
            close(s.low, 0.1500390, 1e-6) && close(s.high, 0.8499610, 1e-6),
            "{s:?}"
        );
        let e = w.elo();
        assert!(close(e.value, 0.0, 1e-9));
        assert!(close(e.low, -e.high, 1e-9), "{e:?}");
    }

    #[test]
    fn all_wins_and_no_games_stay_finite() {
        // 10 W of 10: p = 1, so sqrt(p(1-p)/N + z²/4N²) = z/2N and the half width is
        // (z²/2N)/d with d = 1 + z²/N = 1.3841459. Centre (1 + z²/2N)/d, so
        // low = 1/d = 0.7224672 and high = (1 + z²/N)/d = 1 exactly (Elo clamped to +1000).
        // Elo(0.7224672) = −400·log10(1/0.7224672 − 1) = −400·log10(0.3841459) = 166.20.
        let w = Wdl::new(10, 0, 0);
        let s = w.score();
        assert_eq!(s.value, 1.0);
        assert_eq!(s.high, 1.0);
        assert!(close(s.low, 0.7224672, 1e-6), "{s:?}");
        let e = w.elo();
        assert_eq!(e.value, ELO_LIMIT);
        assert_eq!(e.high, ELO_LIMIT);
        assert!(close(e.low, 166.20, 1e-2), "{e:?}");
        // All losses mirror it.
        let l = Wdl::new(0, 0, 10).elo();
        assert_eq!(l.value, -ELO_LIMIT);
        assert!(close(l.high, -166.20, 1e-2), "{l:?}");
        // No games: rate ½, interval [0, 1], Elo 0 in [−1000, 1000], nothing NaN.
        let z = Wdl::default();
        let s = z.score();
        assert_eq!((s.value, s.low, s.high), (0.5, 0.0, 1.0));
        let e = z.elo();
        assert_eq!((e.value, e.low, e.high), (0.0, -ELO_LIMIT, ELO_LIMIT));
        assert_eq!(elo_from_score(f64::NAN), 0.0);
    }

    #[test]
    fn elo_examples() {
        // s = 0.75: −400·log10(1/3) = 190.85; s = 0.5: 0; s = 0.25: −190.85.
        assert!(close(elo_from_score(0.75), 190.848, 1e-3));
        assert_eq!(elo_from_score(0.5), 0.0);
        assert!(close(elo_from_score(0.25), -190.848, 1e-3));
        // 0.999: −400·log10(0.001001) = 1199.8 → clamped.
        assert_eq!(elo_from_score(0.999), ELO_LIMIT);
    }
}
