import pytest
import yaml

from canasta_tutor.errors import CanastaError
from canasta_tutor.generator import KINDS, YES_NO, generate, to_yaml
from canasta_tutor.puzzle import parse_puzzle_set
from canasta_tutor.solver import disagreements, solve


@pytest.mark.parametrize("kind", KINDS)
def test_a_thousand_generated_puzzles_pass_schema_and_check(kind):
    for difficulty, count in ((1, 300), (3, 400), (5, 300)):
        text = to_yaml(generate(kind, count=count, seed=11, difficulty=difficulty))
        pset = parse_puzzle_set(text, f"{kind}.yaml")
        assert not pset.errors, pset.errors[:3]
        assert len(pset) == count
        answers = []
        for puzzle in pset:
            solution = solve(puzzle)
            assert not disagreements(puzzle, solution), puzzle.id
            if kind in YES_NO:
                answers.append(solution.answer[YES_NO[kind]])
        if kind in YES_NO:
            assert answers.count(True) == answers.count(False) == count // 2


@pytest.mark.parametrize("rules", ["samba", "danish", "classic-2p", "hoyle"])
@pytest.mark.parametrize("kind", ["meld", "take-pile", "go-out", "score-hand"])
def test_generation_under_other_presets(kind, rules):
    pset = parse_puzzle_set(to_yaml(generate(kind, count=60, seed=3, difficulty=4, rules=rules)), "g.yaml")
    assert not pset.errors and pset.rules.name == rules
    for puzzle in pset:
        assert not disagreements(puzzle, solve(puzzle))


def test_difficulty_means_something():
    easy = generate("take-pile", count=200, seed=5, difficulty=1)["puzzles"]
    hard = generate("take-pile", count=200, seed=5, difficulty=5)["puzzles"]
    size = lambda ps: sum(len(p["hand"].split()) for p in ps) / len(ps)  # noqa: E731
    wild = lambda ps: sum(any(c in ("2S", "2H", "2D", "2C", "JK") for c in p["pile"].split()) for p in ps)  # noqa
    unopened = lambda ps: sum(1 for p in ps if not p["melds"])  # noqa: E731
    assert size(hard) > size(easy) + 3
    assert wild(hard) > wild(easy)
    assert unopened(hard) > unopened(easy)


def test_same_seed_same_file_and_other_seed_other_file(cli, tmp_path):
    a, b, c = tmp_path / "a.yaml", tmp_path / "b.yaml", tmp_path / "c.yaml"
    for path, seed in ((a, "7"), (b, "7"), (c, "8")):
        r = cli("generate", "take-pile", "--count", "30", "--seed", seed, "--difficulty", "3", "-o", str(path))
        assert r.returncode == 0, r.stderr
    assert a.read_bytes() == b.read_bytes()
    assert a.read_bytes() != c.read_bytes()
    r = cli("check", str(a))
    assert r.returncode == 0


def test_generate_to_stdout(cli):
    r = cli("generate", "meld", "--count", "5", "--seed", "1", "--rules", "samba")
    assert r.returncode == 0
    data = yaml.safe_load(r.stdout)
    assert data["rules"] == "samba" and len(data["puzzles"]) == 5


def test_generate_bad_arguments(cli):
    r = cli("generate", "poker", "--count", "5")
    assert r.returncode == 2 and "unknown puzzle kind" in r.stderr and "Traceback" not in r.stderr
    r = cli("generate", "meld", "--rules", "snap")
    assert r.returncode == 2 and "unknown rule preset" in r.stderr
    with pytest.raises(CanastaError):
        generate("meld", count=1, difficulty=9)
