//! Peer comparison benchmarks for yomi's MCTS (see `README.md` beside `Cargo.toml`).
//!
//! Contenders, all plain UCT on connect four with one uniformly random playout per
//! iteration on one thread:
//! - yomi: `yomi_core::search::mcts::Mcts::uct` on `yomi_classic::ConnectFour`, through the
//!   public API only, so rerunning measures whatever yomi is now;
//! - treant (crates.io) on the bitboard of [`c4`] ([`treant_c4`]);
//! - a hand-written array-of-nodes UCT on the same bitboard ([`handwritten`]).

pub mod c4;
pub mod handwritten;
pub mod treant_c4;

#[cfg(test)]
mod tests {
    use crate::c4::Board;

    fn most_visited(root: &[(u8, u64)]) -> u8 {
        root.iter().max_by_key(|r| r.1).unwrap().0
    }

    /// Both peers spend all their iterations at the root and prefer the centre column, as
    /// yomi does (see the sanity lines the benchmark prints).
    #[test]
    fn peers_search_sensibly() {
        let n = 30_000;
        let mut h = crate::handwritten::HandUct::new(1);
        let hand: Vec<(u8, u64)> = h.search(Board::default(), n).iter().map(|r| (r.0, r.1 as u64)).collect();
        assert_eq!(hand.iter().map(|r| r.1).sum::<u64>(), n);
        assert_eq!(most_visited(&hand), 3, "{hand:?}");
        let m = crate::treant_c4::search(Board::default(), n, 1);
        let tr: Vec<(u8, u64)> = m.root_child_stats().iter().map(|s| (s.mov, s.visits)).collect();
        assert_eq!(tr.iter().map(|r| r.1).sum::<u64>(), n);
        assert_eq!(most_visited(&tr), 3, "{tr:?}");
    }
}
