//! A reduced version of the paper's experiment (tables 1 and 3): few games, small budgets;
//! the full runs are `experiments/tubstap.toml`.

use yomi_core::arena::RoundRobin;
use yomi_tubstap::experiment::{head_to_head, paper_comparison, significantly_better};
use yomi_tubstap::{maps, registry};

#[test]
fn reduced_table3_runs_and_reports_beside_the_paper() {
    let game = maps::standard();
    let reg = registry();
    let agents = ["uct-pw:iters=240", "dlmc:m=12,n=6", "dlmc-m12:m=6,n=6"];
    let result = RoundRobin::new(agents)
        .games(2)
        .seed(3)
        .quiet(true)
        .run(&game, &reg)
        .unwrap();
    assert_eq!(result.records.len(), 6);
    for r in &result.records {
        assert!(
            r.turns > 0 && r.turns <= game.map().turn_limit as usize * 7,
            "{}",
            r.turns
        );
    }
    let table = paper_comparison(&result);
    assert!(
        table.contains("| dlmc-m12:m=6,n=6 vs dlmc:m=12,n=6 |"),
        "{table}"
    );
    assert!(
        table.contains("711-119-170") && table.contains("77.05 %"),
        "{table}"
    );
    assert!(table.contains("427-245-328"), "{table}"); // dlmc vs uct-pw, oriented as the paper
    let m12 = head_to_head(&result, "dlmc-m12:m=6,n=6", "dlmc:m=12,n=6");
    assert_eq!(m12.games(), 2);
}

#[test]
fn dlmc_beats_random_play() {
    let game = maps::builtin("duel").unwrap();
    let result = RoundRobin::head_to_head("dlmc:m=30,n=10", "random")
        .games(8)
        .seed(5)
        .quiet(true)
        .run(&game, &registry())
        .unwrap();
    let wdl = head_to_head(&result, "dlmc:m=30,n=10", "random");
    assert_eq!(wdl.games(), 8);
    assert!(wdl.losses == 0 && wdl.wins >= 6, "{wdl:?}");
    assert!(
        significantly_better(&result, "dlmc:m=30,n=10", "random"),
        "{wdl:?}"
    );
}

#[test]
fn self_play_is_reported_beside_the_papers_diagonal() {
    let game = maps::standard();
    let mut result = RoundRobin::new(["dlmc:m=6,n=4", "dlmc:m=6,n=4"])
        .games(2)
        .seed(3)
        .quiet(true)
        .run(&game, &registry())
        .unwrap();
    assert_eq!(result.agents, ["dlmc:m=6,n=4", "dlmc:m=6,n=4#2"]);
    // The full-size run's labels are the bare names, `dlmc` and its copy `dlmc#2`.
    let bare = |label: &str| label.replace(":m=6,n=4", "");
    result.agents = result.agents.iter().map(|a| bare(a)).collect();
    for r in &mut result.records {
        r.seats = r.seats.iter().map(|a| bare(a)).collect();
    }
    let table = paper_comparison(&result);
    // The copy is matched to the paper's DLMC-against-DLMC cell.
    assert!(
        table.contains("| dlmc vs dlmc#2 | ") && table.contains("385-220-395"),
        "{table}"
    );
}
