//! The paper's AIs: registry, budgets, the evaluation, the attack search on the paper's
//! figure-5 situation, DLMC's methods, UCT with widening, time limits.

use std::time::{Duration, Instant};

use yomi_core::search::mcts::{EdgeSlot, Expander, PlayoutPolicy};
use yomi_core::search::Evaluator;
use yomi_core::{Game, Player, Rng};
use yomi_tubstap::search::attack::{attack_search, distinct_attacks};
use yomi_tubstap::search::dlmc::{Dlmc, DlmcParams, Method};
use yomi_tubstap::search::uct::{
    uct_pw_agent, widening_as_printed, widening_log_base, AttacksFirst, UctParams,
};
use yomi_tubstap::{g, maps, registry, AttackFirst, HpEvaluator, TbsMove, Tubstap};

/// The paper's figure 5 in a corridor: red P at 1,1 and U at 2,1; blue p (3 HP) at 4,1
/// and u at 6,1; mountains below. Only U-first wins both attacks: U destroys p from
/// distance 2, then P passes U and the empty 4,1 to hit u at 6,1 from 5,1. P first kills
/// p but leaves u out of everyone's reach.
fn figure5() -> Tubstap {
    let text = "SIZEX[8];SIZEY[4];TURNLIMIT[10];HPTHRESHOLD[0];UNITNUMRED[2];UNITNUMBLUE[2];
UNIT[1,1,panzer,0,10,0];UNIT[2,1,cannon,0,10,0];UNIT[4,1,panzer,1,3,0];UNIT[6,1,cannon,1,10,0];
MAP[0,0,0,0,0,0,0,0];MAP[0,1,1,1,1,1,1,0];MAP[0,4,4,4,4,4,4,0];MAP[0,0,0,0,0,0,0,0];";
    Tubstap::from_map_text("figure5", text).unwrap()
}

#[test]
fn registry_builds_every_ai_and_explains_errors() {
    let game = maps::builtin("duel").unwrap();
    let reg = registry();
    for spec in [
        "uct",
        "uct:iters=600,c=0.5,p=0.5",
        "uct-pw",
        "uct-pw:pw=printed,time=0.1",
        "attack",
        "attack:l=2,time=0.2",
        "dlmc",
        "dlmc:m=20,n=10,d=1,time=0.5",
        "dlmc-m1:l=3",
        "dlmc-m2:j=5,k=2",
        "dlmc-m12",
        "mcts:cutoff=4,iters=100",
        "random",
    ] {
        let a = reg
            .build(&game, spec, 1)
            .unwrap_or_else(|e| panic!("{spec}: {e}"));
        assert_eq!(a.name(), spec);
    }
    for (spec, needle) in [
        ("dlmc:m=0", "positive"),
        ("dlmc:j=3", "no parameter \"j\""),
        ("uct-pw:pw=cubic", "log or printed"),
        ("uct:p=1.5", "probability"),
        ("attack:time=-1", "positive number of seconds"),
        ("dlmc-m2:k=x", "positive integer"),
    ] {
        let e = reg.build(&game, spec, 1).err().expect(spec).to_string();
        assert!(e.contains(needle), "{spec}: {e}");
    }
}

#[test]
fn g_counts_infantry_at_a_fifth_and_doubles_wipe_outs() {
    let game = maps::standard();
    let s0 = game.initial_state();
    assert_eq!(g(&game, &s0, 0), 0.0);
    // Standard: red has 2 infantry (10 HP each -> 2 each) and 4 others at 10 HP: 44.
    let blue_gone = {
        let mut text = game.format_state(&s0);
        // Destroy the six blue units (ids 6..12).
        let head = text.split('|').next().unwrap().to_string();
        let units: Vec<&str> = text.split('|').nth(1).unwrap().split_whitespace().collect();
        let kept: Vec<&str> = units
            .iter()
            .enumerate()
            .map(|(i, u)| if i >= 6 { "-" } else { u })
            .collect();
        text = format!("{head}| {}", kept.join(" "));
        game.parse_state(&text).unwrap()
    };
    assert_eq!(g(&game, &blue_gone, 0), 88.0); // (44 - 0) x 2
    assert_eq!(g(&game, &blue_gone, 1), -88.0);
    let e = HpEvaluator.evaluate(&game, &blue_gone);
    assert_eq!(e.get(Player(0)), 1.0, "terminal states get the returns");
    let scale = HpEvaluator::scale(&game);
    assert_eq!(scale, 89.0);
}

#[test]
fn attack_search_orders_the_cannon_first() {
    let game = figure5();
    let s = game.initial_state();
    let mut attacks = Vec::new();
    distinct_attacks(&game, &s, &mut attacks);
    assert_eq!(attacks.len(), 2, "{attacks:?}"); // P->p (from 3,1), U->p
    let plan = attack_search(&game, &s, 4, None);
    let names: Vec<String> = plan
        .moves
        .iter()
        .map(|m| game.format_move(&s, *m))
        .collect();
    assert_eq!(names, vec!["1@2,1x2", "0@5,1x3"], "{names:?}");
    // g after: red 20, blue: p destroyed, u 10 - 7 = 3.
    assert_eq!(plan.value, 17.0);
    // With l = 1 only one attack is searched; the routine then makes the second (it raises
    // g), so the order found is still the cannon first.
    let one = attack_search(&game, &s, 1, None);
    assert_eq!(one.value, 17.0);
}

#[test]
fn method_one_finds_what_random_sampling_misses() {
    let game = figure5();
    let s = game.initial_state();
    let play = |method: Method| {
        let mut params = DlmcParams::paper(method);
        params.samples = 20;
        params.sims = 20;
        let plan = Dlmc::new(params, 5).plan(&game, &s);
        let mut t = s.clone();
        for mv in &plan.moves {
            game.play(&mut t, *mv).expect("planned moves are legal");
        }
        assert!(
            t.turn() == 1 || game.is_terminal(&t),
            "a plan covers the turn"
        );
        g(&game, &t, 0)
    };
    assert_eq!(play(Method::AttackSearch), 17.0);
    assert_eq!(play(Method::Both), 17.0);
    // Local adjustment alone rewrites the last k = 4 actions, i.e. the whole turn here.
    assert_eq!(play(Method::LocalAdjust), 17.0);
}

#[test]
fn dlmc_plans_cover_the_turn_and_respect_time() {
    let game = maps::standard();
    let s = game.initial_state();
    let mut params = DlmcParams::paper(Method::Dlmc);
    params.samples = 30;
    params.sims = 10;
    let plan = Dlmc::new(params.clone(), 3).plan(&game, &s);
    assert_eq!(plan.moves.len(), 6);
    assert_eq!(plan.candidates, 30);
    assert_eq!(plan.simulations, 300);
    let mut t = s.clone();
    for mv in &plan.moves {
        game.play(&mut t, *mv).unwrap();
    }
    assert_eq!(t.mover(), 1);
    // Same seed, same plan.
    assert_eq!(Dlmc::new(params, 3).plan(&game, &s).moves, plan.moves);
    // A time limit cuts the simulations short.
    let params = DlmcParams {
        time: Some(Duration::from_millis(30)),
        sims: 100_000,
        ..DlmcParams::paper(Method::Both)
    };
    let start = Instant::now();
    let plan = Dlmc::new(params, 4).plan(&game, &s);
    assert!(
        start.elapsed() < Duration::from_millis(500),
        "{:?}",
        start.elapsed()
    );
    assert!(plan.simulations > 0 && plan.simulations < 100_000 * 111);
}

#[test]
fn plan_agents_play_whole_turns() {
    let game = maps::standard();
    let reg = registry();
    for spec in ["dlmc:m=10,n=5", "attack", "dlmc-m12:m=5,n=3"] {
        let mut agent = reg.build(&game, spec, 9).unwrap();
        let mut s = game.initial_state();
        for _ in 0..6 {
            let mv = agent.select_move(&game, &s, Player(0)).unwrap();
            assert!(!matches!(mv, TbsMove::EndTurn), "{spec}");
            game.play(&mut s, mv).unwrap();
        }
        assert_eq!(s.mover(), 1, "{spec}");
    }
}

#[test]
fn uct_splits_the_turn_budget_over_units() {
    let game = maps::standard();
    let mut agent = uct_pw_agent(UctParams::default(), 1, "uct-pw".into());
    let mut s = game.initial_state();
    assert_eq!(agent.action_budget(&game, &s).iterations, Some(1000));
    let mv = yomi_core::agent::Agent::select_move(&mut agent, &game, &s, Player(0)).unwrap();
    game.play(&mut s, mv).unwrap();
    // Same turn: still 6000 / 6 although 5 units are left.
    assert_eq!(agent.action_budget(&game, &s).iterations, Some(1000));
}

#[test]
fn widening_formulas() {
    assert_eq!(widening_log_base(0), 1);
    assert_eq!(widening_log_base(40), 2);
    assert_eq!(widening_log_base(56), 3); // log_1.4(1.4) + 2
    assert_eq!(widening_log_base(2999), 14);
    assert_eq!(widening_log_base(3000), 14); // the pieces meet
    assert!(widening_log_base(100_000) > widening_log_base(3000));
    assert_eq!(widening_as_printed(40), 2);
    assert_eq!(widening_as_printed(2999), 5);
    assert_eq!(widening_as_printed(3001), 1); // the printed second piece is negative
}

#[test]
fn widening_admits_attacks_first() {
    let game = figure5();
    let s = game.initial_state();
    let mut moves = Vec::new();
    game.legal_moves(&s, &mut moves);
    let mut slots: Vec<EdgeSlot<TbsMove>> = moves
        .iter()
        .map(|&mv| EdgeSlot {
            mv,
            prior: 0.0,
            eval: 0.0,
        })
        .collect();
    let attacks = moves.iter().filter(|m| m.is_attack()).count();
    assert!(attacks >= 2);
    AttacksFirst.expand(&game, &s, Player(0), &mut slots, &mut Rng::seed_from_u64(1));
    assert!(slots[..attacks].iter().all(|x| x.mv.is_attack()));
    assert!(slots[attacks..].iter().all(|x| !x.mv.is_attack()));
}

#[test]
fn simulation_policy_attacks_when_it_can() {
    let game = figure5();
    let s = game.initial_state();
    let mut rng = Rng::seed_from_u64(2);
    let mut buf = Vec::new();
    let mut always = AttackFirst { p_attack: 1.0 };
    for _ in 0..50 {
        let mv = always.choose(&game, &s, &mut rng, &mut buf).unwrap();
        assert!(mv.is_attack());
    }
    let mut paper = AttackFirst::default();
    let attacks = (0..2000)
        .filter(|_| {
            paper
                .choose(&game, &s, &mut rng, &mut buf)
                .unwrap()
                .is_attack()
        })
        .count();
    // 0.8 + 0.2 x P(the random unit's random action attacks): P has 2 moves (1,1 and 3,1)
    // and 1 attack, U 2 moves and 1 attack, so 0.8 + 0.2/3 = 0.867, 1733 of 2000 (sd 15).
    assert!((1670..1800).contains(&attacks), "{attacks}");
}
