//! Perft from the start position against OEIS A124004, and against core's generic perft.

use yomi_othello::perft::{perft, PERFT_COUNTS};
use yomi_othello::OthelloState;

#[test]
fn perft_matches_published_counts_to_depth_10() {
    let s = OthelloState::start();
    for depth in 1..=10u32 {
        assert_eq!(
            perft(&s, depth),
            PERFT_COUNTS[depth as usize - 1],
            "depth {depth}"
        );
    }
}
