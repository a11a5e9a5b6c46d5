//! Tests of each plug-in point of the MCTS on the tiny games of `yomi_core::testing`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock};

use yomi_core::search::mcts::*;
use yomi_core::search::{Budget, Evaluator};
use yomi_core::testing::{MatrixGame, Nim, NimState, SecretGuess};
use yomi_core::{Game, Played, Player, Rewards, Rng};

fn params(iters: u64) -> MctsParams {
    MctsParams {
        budget: Budget::iterations(iters),
        ..MctsParams::default()
    }
}

fn visits<M: PartialEq + Copy>(r: &SearchResult<M>, mv: M) -> u64 {
    r.children
        .iter()
        .find(|c| c.mv == mv)
        .map_or(0, |c| c.visits)
}

#[test]
fn uct_finds_winning_nim_moves_and_values_converge() {
    for heap in 5..=15u32 {
        let game = Nim::new(heap);
        let s = game.initial_state();
        let mut m = Mcts::uct(params(20_000), heap as u64);
        let r = m.search(&game, &s);
        let v = r.root_value().unwrap();
        if heap % 4 == 0 {
            assert!(v < 0.35, "heap {heap}: lost position valued {v}");
        } else {
            assert_eq!(
                m.choose(&r),
                Some(heap % 4),
                "heap {heap}: {:?}",
                r.children
            );
            assert!(v > 0.75, "heap {heap}: won position valued {v}");
        }
        m.check_trees().unwrap();
        assert_eq!(r.iterations, 20_000);
    }
}

#[test]
fn more_iterations_bring_values_closer_to_exact() {
    // Heap 9 is won (take 1); the root value must approach 1 as the budget grows.
    let game = Nim::new(9);
    let s = game.initial_state();
    let err = |iters| {
        let mut total = 0.0;
        for seed in 0..5 {
            let mut m = Mcts::uct(params(iters), seed);
            let r = m.search(&game, &s);
            total += 1.0
                - r.children
                    .iter()
                    .find(|c| c.mv == 1)
                    .unwrap()
                    .mean()
                    .unwrap();
        }
        total / 5.0
    };
    let (e1, e2) = (err(500), err(20_000));
    assert!(e2 < e1, "error did not shrink: {e1} -> {e2}");
}

#[test]
fn expansion_threshold_bounds_tree_size() {
    let game = Nim::new(40);
    let s = game.initial_state();
    for threshold in [1u32, 5, 100] {
        let mut p = params(5_000);
        p.expand_threshold = threshold;
        let mut m = Mcts::uct(p, 1);
        let r = m.search(&game, &s);
        // Each created node needs `threshold` visits before it creates up to 3 children.
        let bound = 1 + 3 * (5_000 / threshold.max(1) as usize + 1);
        assert!(
            r.nodes <= bound,
            "threshold {threshold}: {} nodes > {bound}",
            r.nodes
        );
        if threshold == 100 {
            assert!(r.nodes < 400, "{}", r.nodes);
        }
    }
}

/// A leaf evaluator that counts its calls and plays deterministically (take 1 stone).
#[derive(Clone)]
struct CountingTakeOne(Arc<AtomicUsize>);

impl LeafEvaluator<Nim> for CountingTakeOne {
    fn evaluate(
        &mut self,
        game: &Nim,
        state: &mut NimState,
        _: &mut Rng,
        _: &mut Vec<u32>,
    ) -> Rewards {
        self.0.fetch_add(1, Ordering::Relaxed);
        while state.stones > 0 {
            game.apply(state, 1);
        }
        game.returns(state)
    }
}

#[test]
fn memoised_leaves_are_evaluated_once_until_expanded() {
    let game = Nim::new(30);
    let s = game.initial_state();
    for memo in [false, true] {
        let calls = Arc::new(AtomicUsize::new(0));
        let mut p = params(2_000);
        p.expand_threshold = 5;
        p.memoize_leaves = memo;
        let mut m = Mcts::new(
            p,
            Ucb1::default(),
            CountingTakeOne(calls.clone()),
            NoExpander,
            3,
        );
        let r = m.search(&game, &s);
        let n = calls.load(Ordering::Relaxed);
        if memo {
            // One evaluation per created node at most.
            assert!(n <= r.nodes, "{n} evaluations for {} nodes", r.nodes);
        } else {
            assert!(n > 1_500, "{n}");
        }
    }
}

#[test]
fn progressive_widening_admits_children_in_order() {
    let game = Nim::new(20);
    let s = game.initial_state();
    let mut p = params(3_000);
    p.widening = Some(Widening::new(|_| 1));
    let mut m = Mcts::uct(p.clone(), 1);
    let r = m.search(&game, &s);
    assert_eq!(
        visits(&r, 1),
        3_000,
        "only the first child may be visited: {:?}",
        r.children
    );
    // k(n) = ceil(0.5 * sqrt(n)): the second child enters at n = 2, the third at n = 17.
    p.widening = Some(Widening::power(0.5, 0.5));
    let w = Widening::power(0.5, 0.5);
    assert_eq!(((w.0)(1), (w.0)(4), (w.0)(17), (w.0)(3000)), (1, 1, 3, 28));
    let mut m = Mcts::uct(p, 1);
    let r = m.search(&game, &s);
    assert!(r.children.iter().all(|c| c.visits > 0), "{:?}", r.children);
}

/// Evaluates every position as a fixed reward for player 0, counting calls.
struct FixedEval(f64, Arc<AtomicUsize>);

impl Evaluator<Nim> for FixedEval {
    fn evaluate(&self, _: &Nim, _: &NimState) -> Rewards {
        self.1.fetch_add(1, Ordering::Relaxed);
        Rewards::zero_sum(self.0)
    }
}

#[test]
fn playout_cutoff_uses_the_evaluator() {
    let game = Nim::new(50);
    let s = game.initial_state();
    let calls = Arc::new(AtomicUsize::new(0));
    let eval: Arc<dyn Evaluator<Nim>> = Arc::new(FixedEval(0.5, calls.clone()));
    let leaf = Rollout::with_cutoff(Uniform, 0, eval);
    let mut m = Mcts::new(params(1_000), Ucb1::default(), leaf, NoExpander, 1);
    let r = m.search(&game, &s);
    // Every playout is cut at once and judged 0.5 for player 0: normalised (0.5+1)/2 = 0.75.
    assert!(
        (r.root_value().unwrap() - 0.75).abs() < 1e-9,
        "{:?}",
        r.root_value()
    );
    assert_eq!(calls.load(Ordering::Relaxed), 1_000);
}

/// Scores taking 2 stones highest.
struct PreferTwo;
impl MoveScorer<Nim> for PreferTwo {
    fn score(&self, _: &Nim, _: &NimState, _: Player, mv: u32) -> f64 {
        if mv == 2 {
            1.0
        } else {
            0.0
        }
    }
}

#[test]
fn playout_policies_choose_as_specified() {
    let game = Nim::new(10);
    let s = game.initial_state();
    let mut rng = Rng::seed_from_u64(9);
    let mut buf = Vec::new();
    let mut count = |policy: &mut dyn FnMut(&mut Rng, &mut Vec<u32>) -> u32| {
        let mut c = [0u32; 4];
        for _ in 0..10_000 {
            c[policy(&mut rng, &mut buf) as usize] += 1;
        }
        c
    };
    let mut greedy = EpsilonGreedy {
        epsilon: 0.0,
        scorer: Arc::new(PreferTwo),
    };
    let c = count(&mut |r, b| greedy.choose(&game, &s, r, b).unwrap());
    assert_eq!(c[2], 10_000);
    let mut eg = EpsilonGreedy {
        epsilon: 0.3,
        scorer: Arc::new(PreferTwo),
    };
    let c = count(&mut |r, b| eg.choose(&game, &s, r, b).unwrap());
    // P(2) = 0.7 + 0.3/3 = 0.8.
    assert!((7_700..8_300).contains(&c[2]), "{c:?}");
    let mut soft = Softmax {
        temperature: 1.0,
        scorer: Arc::new(PreferTwo),
    };
    let c = count(&mut |r, b| soft.choose(&game, &s, r, b).unwrap());
    // P(2) = e / (e + 2) = 0.576.
    assert!((5_500..6_000).contains(&c[2]), "{c:?}");
    let mut cold = Softmax {
        temperature: 0.01,
        scorer: Arc::new(PreferTwo),
    };
    let c = count(&mut |r, b| cold.choose(&game, &s, r, b).unwrap());
    assert_eq!(c[2], 10_000);
    let c = count(&mut |r, b| Uniform.choose(&game, &s, r, b).unwrap());
    assert!(c[1..].iter().all(|&k| (3_100..3_600).contains(&k)), "{c:?}");
}

/// Gives move 2 a prior of 0.98 everywhere.
#[derive(Clone)]
struct PriorOnTwo;
impl Expander<Nim> for PriorOnTwo {
    fn expand(
        &mut self,
        _: &Nim,
        _: &NimState,
        _: Player,
        slots: &mut [EdgeSlot<u32>],
        _: &mut Rng,
    ) {
        for s in slots.iter_mut() {
            s.prior = if s.mv == 2 { 0.98 } else { 0.01 };
        }
    }
}

#[test]
fn puct_follows_priors_and_ucb_eval_follows_evaluations() {
    let game = Nim::new(40);
    let s = game.initial_state();
    let mut p = params(200);
    p.expand_threshold = 0;
    let mut m = Mcts::new(
        p,
        Puct { c: 5.0, fpu: 0.5 },
        Rollout::new(Uniform),
        PriorOnTwo,
        1,
    );
    let r = m.search(&game, &s);
    assert!(visits(&r, 2) > 150, "{:?}", r.children);

    // An evaluation saying "after taking 3, player 0 wins".
    struct LikesThree;
    impl Evaluator<Nim> for LikesThree {
        fn evaluate(&self, _: &Nim, s: &NimState) -> Rewards {
            Rewards::zero_sum(if s.stones == 37 { 0.9 } else { -0.9 })
        }
    }
    let expander = ChildEvaluation {
        evaluator: Arc::new(LikesThree),
        best_first: false,
    };
    let sel = UcbEval {
        c: 0.3,
        weight: 3.0,
    };
    let mut m = Mcts::new(params(500), sel, Rollout::new(Uniform), expander, 1);
    let r = m.search(&game, &s);
    assert!(visits(&r, 3) > 400, "{:?}", r.children);
}

#[test]
fn decoupled_selection_finds_dominant_simultaneous_moves() {
    let game = MatrixGame::prisoners_dilemma();
    let s = game.initial_state();
    for p in [Player(0), Player(1)] {
        let mut m = Mcts::uct(params(5_000), 7);
        let r = m.search_for(&game, &s, p);
        assert_eq!(r.children.len(), 2);
        assert!(visits(&r, 1) > visits(&r, 0), "{p}: {:?}", r.children);
        assert_eq!(m.choose(&r), Some(1));
    }
}

#[test]
fn determinized_search_does_not_peek_at_hidden_information() {
    // The secret is 0; the guesser cannot see it, so it must not prefer 0.
    let game = SecretGuess { n: 4 };
    let mut s = game.initial_state();
    game.apply(&mut s, 0);
    let mut hits = 0;
    for seed in 0..40 {
        let mut p = params(400);
        p.determinizations = 8;
        let mut m = Mcts::uct(p, seed);
        let r = m.search_for(&game, &s, Player(1));
        assert_eq!(r.children.len(), 4);
        if m.choose(&r) == Some(0) {
            hits += 1;
        }
    }
    // Uniform guessing hits 1 in 4 (10 of 40 expected); a peeking search would hit 40.
    assert!(
        hits < 22,
        "the search guessed the hidden secret {hits}/40 times"
    );
}

#[test]
fn tree_reuse_keeps_the_subtree_statistics() {
    let game = Nim::new(30);
    let s = game.initial_state();
    let mut m = Mcts::uct(params(5_000), 5);
    let r = m.search(&game, &s);
    let mv = m.choose(&r).unwrap();
    let before = visits(&r, mv);
    m.advance(&game, &s, Played::Single(Player(0), mv));
    let mut next = s;
    game.apply(&mut next, mv);
    m.params.budget = Budget::iterations(0);
    let r2 = m.search(&game, &next);
    let kept: u64 = r2.children.iter().map(|c| c.visits).sum();
    // The child was visited `before` times; its first visit was the playout that created it.
    assert_eq!(kept, before - 1, "{:?}", r2.children);
    m.check_trees().unwrap();

    // A state the tree does not know resets it.
    let other = Nim::new(30).initial_state();
    let r3 = m.search(
        &game,
        &NimState {
            stones: 17,
            ..other
        },
    );
    assert_eq!(r3.children.iter().map(|c| c.visits).sum::<u64>(), 0);
}

#[test]
fn threads_add_iterations_and_same_seed_replays() {
    let game = Nim::new(25);
    let s = game.initial_state();
    let mut p = params(8_000);
    p.threads = 2;
    let run = || {
        let mut m = Mcts::uct(p.clone(), 11);
        m.search(&game, &s)
    };
    let (a, b) = (run(), run());
    assert_eq!(a.iterations, 8_000);
    assert_eq!(a.children, b.children, "same seed, different search");
    assert_eq!(
        Mcts::uct(p.clone(), 11).search(&game, &s).children,
        a.children
    );
    let single = Mcts::uct(params(8_000), 11).search(&game, &s);
    assert_eq!(single.children.iter().map(|c| c.visits).sum::<u64>(), 8_000);
}

#[test]
fn time_budget_stops_the_search() {
    let game = Nim::new(200);
    let s = game.initial_state();
    let mut p = params(0);
    p.budget = Budget::time(std::time::Duration::from_millis(50));
    let mut m = Mcts::uct(p, 1);
    let r = m.search(&game, &s);
    assert!(r.elapsed.as_millis() < 500, "{:?}", r.elapsed);
    assert!(r.iterations > 10);
}

/// Plays uniformly and reports two features: 1, and the stones left at the leaf.
#[derive(Clone)]
struct FeatureRollout {
    inner: Rollout<Nim, Uniform>,
    last: [f64; 2],
}

impl LeafEvaluator<Nim> for FeatureRollout {
    fn evaluate(
        &mut self,
        game: &Nim,
        state: &mut NimState,
        rng: &mut Rng,
        buf: &mut Vec<u32>,
    ) -> Rewards {
        self.last = [1.0, state.stones as f64];
        self.inner.evaluate(game, state, rng, buf)
    }
    fn feature_count(&self) -> usize {
        2
    }
    fn features(&self) -> &[f64] {
        &self.last
    }
}

/// UCB1 that checks the feature sums it is shown: the first feature counts the non-terminal
/// evaluations below the child, so it never exceeds the visits, and the second (stones
/// left) is below 40 per evaluation. It prefers children whose leaves kept more stones.
#[derive(Clone)]
struct CheckingFeatures(Arc<AtomicUsize>);

impl Selection for CheckingFeatures {
    type NodeTerm = f64;
    const READS_EXPANDER: bool = false;
    const READS_FEATURES: bool = true;
    fn prepare(&self, visits: u32) -> f64 {
        Ucb1::default().prepare(visits)
    }
    fn score(&self, t: f64, child: &ChildStats<'_>) -> f64 {
        assert_eq!(child.features.len(), 2);
        assert!(child.features[0] <= child.visits as f64, "{child:?}");
        assert!(child.features[1] <= 40.0 * child.features[0], "{child:?}");
        if child.visits > 0 {
            self.0.fetch_add(1, Ordering::Relaxed);
        }
        Ucb1::default().score(t, child)
    }
}

#[test]
fn leaf_features_are_summed_into_the_path() {
    let game = Nim::new(40);
    let s = game.initial_state();
    for memo in [false, true] {
        let seen = Arc::new(AtomicUsize::new(0));
        let leaf = FeatureRollout {
            inner: Rollout::new(Uniform),
            last: [0.0; 2],
        };
        let mut p = params(3_000);
        p.memoize_leaves = memo;
        p.expand_threshold = if memo { 4 } else { 1 };
        let mut m = Mcts::new(p, CheckingFeatures(seen.clone()), leaf, NoExpander, 2);
        let r = m.search(&game, &s);
        assert!(seen.load(Ordering::Relaxed) > 1_000);
        // The root statistics carry the sums too: one unit per non-terminal evaluation.
        let counted: f64 = r.children.iter().map(|c| c.features[0]).sum();
        assert!(r.children.iter().all(|c| c.features[0] <= c.visits as f64));
        assert!(counted > 2_500.0 && counted <= 3_000.0, "{counted}");
        // Tree reuse keeps the sums consistent too.
        let mv = m.choose(&r).unwrap();
        m.advance(&game, &s, Played::Single(Player(0), mv));
        let mut next = s;
        game.apply(&mut next, mv);
        m.search(&game, &next);
    }
}

/// Judges every terminal state as a win for player 1 and records the search roots it saw.
#[derive(Clone)]
struct SecondPlayerJudge {
    roots: Arc<std::sync::Mutex<Vec<u32>>>,
}

impl LeafEvaluator<Nim> for SecondPlayerJudge {
    fn evaluate(
        &mut self,
        game: &Nim,
        state: &mut NimState,
        rng: &mut Rng,
        buf: &mut Vec<u32>,
    ) -> Rewards {
        while let Some(m) = game.random_move(state, rng, buf) {
            game.apply(state, m);
        }
        self.evaluate_terminal(game, state)
    }
    fn begin_search(&mut self, _: &Nim, root: &NimState) {
        self.roots.lock().unwrap().push(root.stones);
    }
    fn evaluate_terminal(&mut self, _: &Nim, _: &NimState) -> Rewards {
        Rewards::zero_sum(-1.0)
    }
}

#[test]
fn leaf_evaluators_see_the_root_and_judge_terminal_nodes() {
    // From 2 stones, taking both wins by the rules; the judge says player 1 wins every
    // finished game, so the search must value both moves at 0 for player 0.
    let game = Nim::new(2);
    let roots = Arc::new(std::sync::Mutex::new(Vec::new()));
    let leaf = SecondPlayerJudge {
        roots: roots.clone(),
    };
    let mut m = Mcts::new(params(200), Ucb1::default(), leaf, NoExpander, 1);
    let r = m.search(&game, &game.initial_state());
    assert!(
        r.children.iter().all(|c| c.total == 0.0),
        "{:?}",
        r.children
    );
    assert_eq!(*roots.lock().unwrap(), vec![2]);
}

/// A counter that each player advances twice in a row per turn; ends at 20.
struct TwoMovesPerTurn;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct CounterState {
    count: u8,
}

impl Game for TwoMovesPerTurn {
    type State = CounterState;
    type Move = u8;
    fn facts(&self) -> &yomi_core::GameFacts {
        static FACTS: LazyLock<yomi_core::GameFacts> = LazyLock::new(|| {
            yomi_core::GameFacts::two_player_zero_sum("two-moves", ["a", "b"], 20)
        });
        &FACTS
    }
    fn initial_state(&self) -> CounterState {
        CounterState { count: 0 }
    }
    fn turn(&self, s: &CounterState) -> yomi_core::Turn {
        if s.count >= 20 {
            yomi_core::Turn::Terminal
        } else {
            yomi_core::Turn::Player(Player((s.count / 2) % 2))
        }
    }
    fn legal_moves(&self, _: &CounterState, out: &mut Vec<u8>) {
        out.clear();
        out.push(1);
    }
    fn apply(&self, s: &mut CounterState, _: u8) {
        s.count += 1;
    }
    fn returns(&self, _: &CounterState) -> Rewards {
        Rewards::zero_sum(0.0)
    }
    fn format_move(&self, _: &CounterState, _: u8) -> String {
        "+".into()
    }
    fn parse_move(&self, _: &CounterState, t: &str) -> Result<u8, yomi_core::NotationError> {
        if t == "+" {
            Ok(1)
        } else {
            Err(yomi_core::NotationError::syntax("move", t, "+"))
        }
    }
    fn format_state(&self, s: &CounterState) -> String {
        s.count.to_string()
    }
    fn parse_state(&self, t: &str) -> Result<CounterState, yomi_core::NotationError> {
        t.parse()
            .map(|count| CounterState { count })
            .map_err(|_| yomi_core::NotationError::syntax("state", t, "a number"))
    }
}

/// Records the counter value it is asked to judge.
struct RecordCount(Arc<std::sync::Mutex<Vec<u8>>>);
impl Evaluator<TwoMovesPerTurn> for RecordCount {
    fn evaluate(&self, _: &TwoMovesPerTurn, s: &CounterState) -> Rewards {
        self.0.lock().unwrap().push(s.count);
        Rewards::zero_sum(0.0)
    }
}

#[test]
fn playout_cutoff_counts_moves_or_player_turns() {
    let game = TwoMovesPerTurn;
    for (unit, expect) in [(CutoffUnit::Moves, 3u8), (CutoffUnit::PlayerTurns, 6)] {
        let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
        let cut = Cutoff {
            after: 3,
            unit,
            evaluator: Arc::new(RecordCount(seen.clone())),
        };
        let mut rollout = Rollout {
            policy: Uniform,
            cutoff: Some(cut),
        };
        let mut s = game.initial_state();
        rollout.evaluate(&game, &mut s, &mut Rng::seed_from_u64(1), &mut Vec::new());
        // Three moves, or three whole turns of two moves each.
        assert_eq!(*seen.lock().unwrap(), vec![expect], "{unit:?}");
    }
    yomi_core::testing::check_game(&game, &Default::default());
}

#[test]
fn root_noise_perturbs_only_the_root_priors_and_keeps_them_a_distribution() {
    let game = Nim::new(40);
    let s = game.initial_state();
    let run = |noise: Option<RootNoise>, seed: u64| {
        let mut p = params(50);
        p.expand_threshold = 0;
        p.root_noise = noise;
        let mut m = Mcts::new(
            p,
            Puct { c: 2.0, fpu: 0.5 },
            Rollout::new(Uniform),
            PriorOnTwo,
            seed,
        );
        m.search(&game, &s)
    };
    let prior =
        |r: &SearchResult<u32>, mv: u32| r.children.iter().find(|c| c.mv == mv).unwrap().prior;
    let clean = run(None, 1);
    assert!((prior(&clean, 2) - 0.98).abs() < 1e-6);
    let noise = RootNoise {
        alpha: 0.3,
        fraction: 0.25,
    };
    let a = run(Some(noise), 1);
    let b = run(Some(noise), 2);
    for r in [&a, &b] {
        let total: f32 = r.children.iter().map(|c| c.prior).sum();
        assert!((total - 1.0).abs() < 1e-4, "priors sum to {total}");
        // At most a quarter of the mass moves.
        assert!(prior(r, 2) >= 0.98 * 0.75 - 1e-6);
    }
    assert_ne!(
        prior(&a, 2),
        prior(&b, 2),
        "different seeds, different noise"
    );
    assert_ne!(prior(&a, 2), prior(&clean, 2));
}

#[test]
fn dirichlet_samples_have_the_right_mean() {
    let mut rng = Rng::seed_from_u64(9);
    let mut x = [0.0; 4];
    let mut sum = [0.0; 4];
    for _ in 0..4000 {
        rng.dirichlet(0.5, &mut x);
        assert!((x.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        for i in 0..4 {
            sum[i] += x[i];
        }
    }
    for s in sum {
        assert!((s / 4000.0 - 0.25).abs() < 0.02, "{s}");
    }
    // Gamma(k) has mean k, for shapes below and above 1.
    for k in [0.3, 1.0, 4.0] {
        let mean = (0..20_000).map(|_| rng.gamma(k)).sum::<f64>() / 20_000.0;
        assert!(
            (mean - k).abs() < 0.05 * k.max(1.0),
            "gamma({k}) mean {mean}"
        );
    }
}
