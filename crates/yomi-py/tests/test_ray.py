"""Tournaments spread over a local Ray cluster of several nodes."""

import json
import threading

import pytest

ray = pytest.importorskip("ray")
from ray.cluster_utils import Cluster  # noqa: E402

import yomi  # noqa: E402
import yomi.ray  # noqa: E402

CONFIG = {
    "game": "tictactoe",
    "agents": ["mcts:iters=300", "flatmc:n=20", "random"],
    "games": 8,
    "seed": 5,
}


def strip(records):
    """Records without timings, by schedule place (the order lines arrive in differs)."""
    out = [{k: v for k, v in r.items() if "seconds" not in k} for r in records]
    return sorted(out, key=lambda r: (r["pairing"], r["index"]))


@pytest.fixture(scope="module")
def cluster():
    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    workers = [c.add_node(num_cpus=1) for _ in range(2)]
    c.wait_for_nodes()
    ray.init(address=c.address)
    yield c, workers
    ray.shutdown()
    c.shutdown()


def test_a_tournament_over_three_nodes_gives_the_single_process_records(cluster, tmp_path):
    single = yomi.tournament(
        CONFIG["game"], CONFIG["agents"], games=CONFIG["games"], seed=CONFIG["seed"],
        out=tmp_path / "single.jsonl",
    )
    out = tmp_path / "ray.jsonl"
    result = yomi.ray.run_tournament(CONFIG, out=out, chunk_size=2)
    assert result.played == 24
    assert strip(yomi.read_records(out)) == strip(single.records)
    assert result.standings == single.standings or [
        (s["agent"], s["wins"], s["draws"], s["losses"]) for s in result.standings
    ] == [(s["agent"], s["wins"], s["draws"], s["losses"]) for s in single.standings]
    # The file written by Ray resumes like any records file.
    again = yomi.tournament(CONFIG["game"], CONFIG["agents"], games=8, seed=5, out=out)
    assert (again.played, again.resumed) == (0, 24)
    # Tasks ran on more than one node.
    nodes = {n["NodeID"] for n in ray.nodes() if n["Alive"]}
    assert len(nodes) == 3


def test_a_node_lost_mid_run_loses_and_duplicates_no_game(cluster, tmp_path):
    c, workers = cluster
    config = dict(CONFIG, agents=["mcts:iters=3000", "mcts:iters=1000", "flatmc:n=50"], games=10)
    out = tmp_path / "lost.jsonl"
    removed = []

    def remove_one(recorded, total):
        if not removed:
            removed.append(recorded)
            c.remove_node(workers[0])

    result = yomi.ray.run_tournament(config, out=out, chunk_size=1, on_chunk=remove_one)
    assert removed, "the node was removed while chunks were running"
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    keys = [(r["pairing"], r["index"]) for r in lines]
    assert len(keys) == len(set(keys)) == 30, "every game exactly once"
    single = yomi.tournament(config["game"], config["agents"], games=10, seed=5)
    assert strip(lines) == strip(single.records)
    assert len(result.records) == 30


# --- The experiment runners: the same records as a run in one process, and resume. ----------


def lines_of(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def cut(path, keep):
    """Leaves the first ``keep`` records of ``path`` and half of the next line, as an
    interrupted run does."""
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:keep]) + lines[keep][: len(lines[keep]) // 2])


def test_a_tubstap_experiment_over_the_cluster_gives_the_single_process_records(cluster, tmp_path):
    exp = tmp_path / "tubstap.toml"
    exp.write_text(
        'game = "tubstap:duel"\n'
        'agents = ["dlmc:m=4,n=4", "uct-pw:iters=40", "random"]\n'
        "games = 2\nseed = 3\n"
    )
    single = yomi.tournament(exp, out=tmp_path / "single.jsonl")
    out = tmp_path / "ray.jsonl"
    result, comparison = yomi.ray.run_tubstap_experiment(exp, out=out, chunk_size=1)
    assert result.played == len(single.records) == 6
    assert strip(lines_of(out)) == strip(single.records)
    assert "Beside the paper" in comparison and "| dlmc:" in comparison
    # An interrupted Ray file resumes with only the missing games, to the same records.
    cut(out, 2)
    result, _ = yomi.ray.run_tubstap_experiment(exp, out=out, chunk_size=2)
    assert (result.resumed, result.played) == (2, 4)
    assert strip(lines_of(out)) == strip(single.records)
    # A file of another game is refused as `yomi tubstap experiment` refuses it.
    other = tmp_path / "c4.toml"
    other.write_text('game = "connect4"\nagents = ["random", "random"]\n')
    with pytest.raises(ValueError, match="not a TUBSTAP game"):
        yomi.ray.run_tubstap_experiment(other)


def accuracy_file(tmp_path, repo_root, name):
    sets = repo_root / "crates/yomi-othello/data/testsets"
    path = tmp_path / f"{name}.toml"
    path.write_text(
        f"""
seed = 7
playouts = [30, 60]
positions = 3
out = "{tmp_path / name}.jsonl"
report = "{tmp_path / name}.md"
[[set]]
stage = 50
file = "{sets / 's50.txt'}"
[[set]]
stage = 40
file = "{sets / 's40.txt'}"
[[variant]]
name = "UCT+"
agent = "uct+:expand=100"
table = 1
[[variant]]
name = "UCT"
agent = "uct:expand=100"
"""
    )
    return path


def in_one_process(journal, play):
    """Every due item played here, in one chunk, through the same journal."""
    try:
        due = journal.due()
        journal.add(due, play(journal.task(1), due))
        return journal.write_report("in one process")
    finally:
        journal.close()


def strip_searches(records):
    out = [{k: v for k, v in r.items() if k != "seconds"} for r in records]
    return sorted(out, key=lambda r: (r["agent"], r["stage"], r["index"]))


def test_othello_accuracy_over_the_cluster_gives_the_single_process_records(cluster, tmp_path, repo_root):
    single = accuracy_file(tmp_path, repo_root, "single")
    report = in_one_process(yomi._yomi.AccuracyJournal(str(single), "{}"), yomi._yomi.accuracy_play)
    expected = strip_searches(lines_of(tmp_path / "single.jsonl"))
    assert len(expected) == 2 * 2 * 2 * 3
    path = accuracy_file(tmp_path, repo_root, "ray")
    run = yomi.ray.run_othello_accuracy(path, chunk_size=5, command="in one process")
    assert (run.total, run.recorded, run.played) == (24, 24, 24)
    assert strip_searches(lines_of(tmp_path / "ray.jsonl")) == expected
    # The report is the same but for the timings.
    overview = report.split("## Table")[0].replace("single.jsonl", "ray.jsonl")
    assert (tmp_path / "ray.md").read_text().split("## Table")[0] == overview
    # Interrupted: the rerun plays only what is missing and gets the same records.
    cut(tmp_path / "ray.jsonl", 10)
    run = yomi.ray.run_othello_accuracy(path, chunk_size=4)
    assert (run.recorded, run.played) == (24, 14)
    assert strip_searches(lines_of(tmp_path / "ray.jsonl")) == expected
    # The single-process journal resumes the Ray file with nothing left to do.
    journal = yomi._yomi.AccuracyJournal(str(path), "{}")
    assert journal.due() == []
    journal.close()
    # The command line: a finished run reports and rewrites the report; bad flags are errors.
    assert yomi.ray.main(["othello-accuracy", str(path), "--chunk-size", "3"]) == 0
    assert "python -m yomi.ray othello-accuracy" in (tmp_path / "ray.md").read_text()
    assert yomi.ray.main(["othello-accuracy", str(path), "--playouts", "0"]) == 1
    with pytest.raises(ValueError, match="chunk_size"):
        yomi.ray.run_othello_accuracy(path, chunk_size=0)
    # More runs (run r seeded seed + r): the first run is the records above, only the new
    # run's searches are played, and the report gives the mean of the runs.
    run = yomi.ray.run_othello_accuracy(path, runs=2, chunk_size=8)
    assert (run.total, run.recorded, run.played) == (48, 48, 24)
    records = lines_of(tmp_path / "ray.jsonl")
    assert len({r["seed"] for r in records}) == 48
    assert "2 runs: run r (0-based) uses seed 7 + r" in (tmp_path / "ray.md").read_text()
    assert yomi.ray.main(["othello-accuracy", str(path), "--runs", "0"]) == 1


def learn_file(tmp_path, repo_root, name):
    """A learning experiment at toy budgets on the shipped reduced run's trained weights."""
    trained = repo_root / "experiments/learn-breakthrough5x5-reduced"
    out = tmp_path / name
    out.mkdir()
    for f in trained.iterdir():
        if f.suffix == ".csv" or f.name.endswith(".weights.json"):
            (out / f.name).write_bytes(f.read_bytes())
    path = tmp_path / f"{name}.toml"
    path.write_text(
        f"""
game = "ggp:breakthrough5x5"
[data]
file = "{out / 'data.jsonl'}"
states = 400
[train]
out = "{out}"
train = 300
test = 100
iterations = 20
[matches]
games = 2
sims = 2
plays = ["direct", "simple-mc"]
seed = 4
"""
    )
    return path, out


def test_learn_matches_over_the_cluster_give_the_single_process_records(cluster, tmp_path, repo_root):
    single, single_out = learn_file(tmp_path, repo_root, "single")
    in_one_process(yomi._yomi.LearnMatchJournal(str(single), "{}"), yomi._yomi.learn_matches_play)
    path, out = learn_file(tmp_path, repo_root, "ray")
    run = yomi.ray.run_learn_matches(path, chunk_size=3)
    assert (run.total, run.recorded, run.played) == (24, 24, 24)
    for play in ["direct", "simple-mc"]:
        assert strip(lines_of(out / f"matches-{play}.jsonl")) == strip(
            lines_of(single_out / f"matches-{play}.jsonl")
        )
    assert "## Matches (table 3)" in run.report and (out / "report.md").exists()
    # Interrupted in one play method's file: only its missing games are played again.
    cut(out / "matches-simple-mc.jsonl", 5)
    run = yomi.ray.run_learn_matches(path, chunk_size=2)
    assert (run.recorded, run.played) == (24, 7)
    assert strip(lines_of(out / "matches-simple-mc.jsonl")) == strip(
        lines_of(single_out / "matches-simple-mc.jsonl")
    )
    # Another seed on the same files is refused before anything is played.
    with pytest.raises(ValueError):
        yomi.ray.run_learn_matches(path, seed=5)


# --- AlphaZero self-play as Ray tasks. -------------------------------------------------------

AZ_CONFIG = """
seed = 9
cycles = 2
[net]
filters = 8
blocks = 1
value_hidden = 8
[selfplay]
games = 6
threads = 1
max_batch = 4
[search]
simulations = 12
noise_alpha = 0.5
noise_fraction = 0.25
temperature_moves = 3
[train]
buffer = 200
batch = 16
steps = 5
[gate]
games = 2
threshold = 0.5
simulations = 4
"""

TIMINGS = ("selfplay_positions_per_s", "train_samples_per_s")

# The AlphaZero trainer is in the wheel only when it is built with the `nn` feature (burn:
# minutes more of build), which `YOMI_PY_NN=1 scripts/test-python.sh` does.
needs_nn = pytest.mark.skipif(
    not hasattr(yomi._yomi, "az_train"),
    reason="the wheel was built without the nn feature (YOMI_PY_NN=1 scripts/test-python.sh builds it with)",
)


def untimed(rows):
    return [{k: v for k, v in r.items() if k not in TIMINGS} for r in rows]


@needs_nn
def test_az_self_play_on_ray_trains_the_networks_of_one_process(cluster, tmp_path):
    config = tmp_path / "az.toml"
    config.write_text(AZ_CONFIG)
    local = yomi._yomi.az_train("tictactoe", config, tmp_path / "local", progress=False)
    assert [r["cycle"] for r in local] == [1, 2]
    assert all(r["games"] == 6 and r["positions"] > 6 * 4 for r in local)
    # Chunks of two games on three nodes: the same samples in the same order (the replay
    # buffer byte for byte), so the same training: losses, gate and evaluation results equal
    # to the last bit. (Weights files are not compared as bytes: burn gives parameters
    # random ids.)
    remote = yomi.ray.run_az_training("tictactoe", config, tmp_path / "ray", chunk_size=2, progress=False)
    assert untimed(remote) == untimed(local)
    buffer = "checkpoint/buffer.bin"
    assert (tmp_path / "ray" / buffer).read_bytes() == (tmp_path / "local" / buffer).read_bytes()
    # Stopped after one cycle and resumed (other chunk sizes): the same run again.
    first = yomi.ray.run_az_training("tictactoe", config, tmp_path / "resumed", stop_after=1, chunk_size=4, progress=False)
    assert len(first) == 1
    rest = yomi.ray.run_az_training("tictactoe", config, tmp_path / "resumed", chunk_size=1, progress=False)
    assert untimed(rest) == untimed(local)
    assert (tmp_path / "resumed" / buffer).read_bytes() == (tmp_path / "local" / buffer).read_bytes()


@needs_nn
def test_az_self_play_chunks_refuse_bad_input(tmp_path):
    with pytest.raises(ValueError, match="not a|weights|bad file"):
        yomi._yomi.az_self_play_chunk("tictactoe", AZ_CONFIG, b"not a network", 1, [0])
    with pytest.raises(ValueError, match="tensors"):
        yomi._yomi.az_self_play_chunk("ggp:tictactoe", AZ_CONFIG, b"", 1, [0])
    with pytest.raises(ValueError, match="unknown|nosuchgame"):
        yomi._yomi.az_self_play_chunk("nosuchgame", AZ_CONFIG, b"", 1, [0])
    with pytest.raises(ValueError):
        yomi._yomi.az_self_play_chunk("tictactoe", "cycles = [", b"", 1, [0])
    # A network for another game is refused before any game is played.
    config = tmp_path / "az.toml"
    config.write_text(AZ_CONFIG.replace("cycles = 2", "cycles = 1"))
    yomi._yomi.az_train("tictactoe", config, tmp_path / "t", progress=False)
    net = (tmp_path / "t" / "best.ynn").read_bytes()
    samples, outcomes = yomi._yomi.az_self_play_chunk("tictactoe", AZ_CONFIG, net, 3, [0, 1])
    assert sum(outcomes) == 2 and len(samples) > 0
    with pytest.raises(ValueError, match="connect|inputs|needs"):
        yomi._yomi.az_self_play_chunk("connect4", AZ_CONFIG, net, 3, [0])


@needs_nn
def test_a_failing_self_play_callable_stops_training_with_its_exception(tmp_path):
    config = tmp_path / "az.toml"
    config.write_text(AZ_CONFIG)

    def broken(cycle, network, seed, games):
        raise KeyError("no workers")

    with pytest.raises(KeyError, match="no workers"):
        yomi._yomi.az_train("tictactoe", config, tmp_path / "b", self_play=broken, progress=False)

    def short(cycle, network, seed, games):
        return [yomi._yomi.az_self_play_chunk("tictactoe", AZ_CONFIG, network, seed, [0])]

    with pytest.raises(ValueError, match="1 games, the batch has 6"):
        yomi._yomi.az_train("tictactoe", config, tmp_path / "s", self_play=short, progress=False)
