"""The generator: its puzzles load, and their ``expect`` agrees with facts worked out here without the engine.

The generator writes each ``expect`` from the engine, so checking a generated set with the engine only shows
that the engine agrees with itself. The tests under "independent facts" recompute the answers (or facts the
answers imply) from the classic rules as written in the sources (``docs/sources/002_*.txt``, the
reference for ``classic``, and ``shared/spec/rule-decisions.md``), with tables typed into this file.
"""

import pytest
import yaml

from canasta_tutor.engine.errors import CanastaError
from canasta_tutor.engine.rules import PRESETS, get_rules, with_options
from canasta_tutor.puzzles.format import parse_puzzle_set
from canasta_tutor.puzzles.generator import KINDS, YES_NO, generate, rules_value, to_yaml
from canasta_tutor.puzzles.solver import disagreements, solve

# --- independent facts (classic) -------------------------------------------------------------------------------

#: 002's table "Puntentelling": Joker 50; Aas of 2 20; Heer, vrouw, boer, 10, 9, 8: 10; 7, 6, 5, 4 en zwarte 3: 5.
POINTS = {"JK": 50, "A": 20, "2": 20, "K": 10, "Q": 10, "J": 10, "10": 10, "9": 10, "8": 10,
          "7": 5, "6": 5, "5": 5, "4": 5}
#: 002: "Onder nul 15; 0 tot en met 1495: 50; 1500 tot en met 2995: 90; 3000 of meer: 120".
def opening_minimum(score):
    return 15 if score < 0 else 50 if score < 1500 else 90 if score < 3000 else 120


def cards(group):
    return group.split() if isinstance(group, str) else list(group)


def rank(code):
    return "JK" if code.upper() == "JK" else code[:-1]


def is_wild(code):
    return rank(code) in ("JK", "2")


def is_red_three(code):
    return rank(code) == "3" and code[-1] in "HD"


def is_black_three(code):
    return rank(code) == "3" and code[-1] in "SC"


def points(code):
    """A card's value; a red three has none (it is a bonus card), a black three 5."""
    if rank(code) == "3":
        return 0 if is_red_three(code) else 5
    return POINTS[rank(code)]


def classic_meld(group, going_out=False):
    """(valid, canasta) by rule-decisions' classic: 3+ cards of one rank from 4 to ace, 2+ natural, at most 3 wild;
    black threes only going out, as 3 or 4 with no wild; 7+ cards a canasta, natural without wild cards."""
    group = cards(group)
    wild = [c for c in group if is_wild(c)]
    natural = [c for c in group if not is_wild(c)]
    if natural and all(is_black_three(c) for c in natural):
        return (going_out and not wild and 3 <= len(group) <= 4), "none"
    ok = (len(group) >= 3 and len(natural) >= 2 and len(wild) <= 3 and len({rank(c) for c in natural}) == 1
          and rank(natural[0]) not in ("3",))
    if not ok or len(group) < 7:
        return ok, "none"
    return ok, "natural" if not wild else "mixed"


def classic_score(melds, red_threes, hands, went_out):
    """A hand's score worked out from 002's scoring table."""
    total = sum(points(c) for m in melds for c in cards(m))
    for m in melds:
        valid, canasta = classic_meld(m, bool(went_out))
        total += {"natural": 500, "mixed": 300}.get(canasta, 0)
    reds = len(cards(red_threes))
    red_value = 800 if reds == 4 else 100 * reds
    total += red_value if melds else -red_value
    total += {False: 0, True: 100, "concealed": 200}[went_out]  # "Verborgen uitgaan ... 200 in totaal"
    total -= sum(points(c) for h in hands for c in cards(h))
    return total


def _generated(kind, difficulties=(1, 2, 3, 4, 5), count=120, seed=21):
    """Puzzles of ``kind`` at every level: dealt ones, and (fewer, playing costs more) ones cut from bot games."""
    from canasta_tutor.puzzles.generator import can_play

    for d in difficulties:
        yield from generate(kind, count=count, seed=seed, difficulty=d, from_play=False)["puzzles"]
        if can_play(kind):
            yield from generate(kind, count=max(2, count // 20), seed=seed, difficulty=d, from_play=True)["puzzles"]


def test_card_points_agree_with_the_sources_table():
    for p in _generated("card-points"):
        assert p["expect"]["points"] == sum(points(c) for c in cards(p["cards"])), p


def test_meld_answers_agree_with_the_classic_definition():
    kinds = set()
    for p in _generated("meld"):
        valid, canasta = classic_meld(p["cards"], p.get("going_out", False))
        assert p["expect"]["valid"] == valid, p
        if valid:
            assert p["expect"]["canasta"] == canasta, p
            kinds.add(canasta)
    assert kinds == {"none", "natural", "mixed"}  # the generated sets cover every answer


def test_freeze_answers_agree_with_the_classic_definition():
    for p in _generated("freeze"):
        pile = cards(p["pile"])
        frozen = any(is_wild(c) or is_red_three(c) for c in pile) or not p["melds"]
        assert p["expect"]["frozen"] == frozen, p


def test_opening_answers_agree_with_the_table_and_card_points():
    for p in _generated("opening"):
        minimum = opening_minimum(p["score"])
        total = sum(points(c) for m in p["melds"] for c in cards(m))
        assert p["expect"]["minimum"] == minimum, p
        assert p["expect"]["points"] == total, p
        ranks = [rank(next(c for c in cards(m) if not is_wild(c))) for m in p["melds"]
                 if any(not is_wild(c) for c in cards(m))]
        all_valid = all(classic_meld(m)[0] for m in p["melds"]) and len(ranks) == len(set(ranks))
        assert p["expect"]["enough"] == (all_valid and total >= minimum), p


def test_score_hand_answers_agree_with_the_scoring_table():
    for p in _generated("score-hand"):
        expected = classic_score(p["melds"], p["red_threes"], p["hands"], p["went_out"])
        assert p["expect"]["score"] == expected, p


def test_take_pile_answers_respect_the_structural_facts():
    seen = {"frozen yes": 0, "open yes": 0, "blocked": 0}
    for p in _generated("take-pile"):
        pile, hand = cards(p["pile"]), cards(p["hand"])
        top = pile[-1]
        take = p["expect"]["take"]
        assert not any(is_red_three(c) for c in hand), p
        if is_wild(top) or is_black_three(top):
            assert take is False, p  # nobody takes a pile with a wild card or a black three on top
            seen["blocked"] += 1
            continue
        pair = sum(1 for c in hand if rank(c) == rank(top))
        frozen = any(is_wild(c) or is_red_three(c) for c in pile) or not p["melds"]
        if take and frozen:
            assert pair >= 2, p  # a frozen pile needs a natural pair matching the top card
            seen["frozen yes"] += 1
        if take and not frozen:
            meld_ranks = {rank(c) for m in p["melds"] for c in cards(m) if not is_wild(c)}
            assert pair >= 2 or (pair >= 1 and any(is_wild(c) for c in hand)) or rank(top) in meld_ranks, p
            seen["open yes"] += 1
        if take and not p["melds"]:
            # the opening melds are made of the top card and cards from the hand: they cannot be worth more
            assert points(top) + sum(points(c) for c in hand) >= opening_minimum(p["score"]), p
    assert all(seen.values()), seen


def test_go_out_answers_respect_the_structural_facts():
    yes = 0
    for p in _generated("go-out"):
        if not p["expect"]["go_out"]:
            continue
        yes += 1
        hand, melds = cards(p["hand"]), [cards(m) for m in p["melds"]]
        wild = sum(1 for c in hand if is_wild(c))
        meld_rank = {rank(next(c for c in m if not is_wild(c))): len(m) for m in melds}
        # one canasta at least, on the table or made now from a meld or from the hand
        naturals = {}
        for c in hand:
            if not is_wild(c) and not is_black_three(c):
                naturals[rank(c)] = naturals.get(rank(c), 0) + 1
        best = max([meld_rank.get(r, 0) + naturals.get(r, 0) for r in set(meld_rank) | set(naturals)] + [0])
        assert max(meld_rank.values(), default=0) >= 7 or best + wild >= 7, p
        # every card is melded (a natural one on a meld of its rank or in a new meld with another of its rank,
        # black threes only as three or four of them) except at most one, the final discard
        stranded = sum(n for r, n in naturals.items() if r not in meld_rank and n < 2)
        black = sum(1 for c in hand if is_black_three(c))
        stranded += 0 if black in (0, 3, 4) else black
        assert stranded <= 1, p
    assert yes >= 100


def test_the_independent_facts_are_not_the_engines():
    """The tables in this file would catch a wrong value in the engine: a hand-worked example of each."""
    assert sum(points(c) for c in "JK AS 7H 3C KD".split()) == 50 + 20 + 5 + 5 + 10
    assert classic_meld("5H 5S 2C 2D 2S") == (True, "none")  # rule-decisions: "so 5-5-2-2-2 is a meld"
    assert classic_meld("5H 2S 2C 2D") == (False, "none")
    assert classic_meld("KH KS KD KC KH KS KD") == (True, "natural")
    assert classic_score(["KH KS KD KC KH KS KD"], "3H", ["5C"], False) == 70 + 500 + 100 - 5  # README's 665
    assert classic_score([], "3H 3D 3H 3D", [], False) == -800
    assert opening_minimum(-5) == 15 and opening_minimum(1495) == 50 and opening_minimum(2995) == 90


# --- loading, balance, difficulty, determinism -----------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_a_thousand_generated_puzzles_pass_schema_and_check(kind):
    for difficulty, count in ((1, 300), (3, 400), (5, 300)):
        text = to_yaml(generate(kind, count=count, seed=11, difficulty=difficulty, from_play=False))
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
    pset = parse_puzzle_set(to_yaml(generate(kind, count=60, seed=3, difficulty=4, rules=rules, from_play=False)),
                            "g.yaml")
    assert not pset.errors and pset.rules.name == rules
    for puzzle in pset:
        assert not disagreements(puzzle, solve(puzzle))


def test_difficulty_means_something():
    easy = generate("take-pile", count=200, seed=5, difficulty=1, from_play=False)["puzzles"]
    hard = generate("take-pile", count=200, seed=5, difficulty=5, from_play=False)["puzzles"]
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


# --- rules round trip: what generate writes, the loader accepts ---------------------------------------------------

HOUSE = {"preset": "classic", "pile_always_frozen": True, "canastas_to_go_out": 2,
         "opening_table": [[None, 20], [0, 60], [2000, 100]]}


def test_rules_value_names_a_preset_or_spells_out_a_house_rule():
    for name in PRESETS:
        assert rules_value(name) == name
    assert rules_value(with_options("hoyle", pile_always_frozen=True)) == {"preset": "hoyle",
                                                                            "pile_always_frozen": True}
    options = {k: v for k, v in HOUSE.items() if k != "preset"}
    assert rules_value(with_options("classic", **options)) == HOUSE


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_round_trips_through_a_file(preset):
    for kind in KINDS:
        made = generate(kind, count=6, seed=2, difficulty=3, rules=preset, from_play=False)
        pset = parse_puzzle_set(to_yaml(made), "g.yaml")
        assert not pset.errors, pset.errors[:2]
        assert pset.rules == get_rules(preset) and len(pset) == 6


def test_a_house_rule_round_trips_through_the_command_line(cli, tmp_path):
    rules = yaml.safe_dump(HOUSE, default_flow_style=True).strip()
    for kind in ("take-pile", "go-out", "opening", "freeze"):
        out = tmp_path / f"{kind}.yaml"
        r = cli("generate", kind, "--count", "12", "--seed", "4", "--difficulty", "3", "--rules", rules, "-o", str(out))
        assert r.returncode == 0, r.stderr
        pset = parse_puzzle_set(out.read_text("utf-8"), str(out))
        assert not pset.errors
        assert pset.rules.pile_always_frozen and pset.rules.canastas_to_go_out == 2
        assert pset.rules.opening_minimum(-5) == 20 and pset.rules.opening_minimum(2500) == 100
        r = cli("check", str(out))
        assert r.returncode == 0 and r.stdout == "", (r.stdout[:500], r.stderr)
        assert "0 disagree, 0 errors" in r.stderr
    frozen = generate("freeze", count=10, seed=1, rules=with_options("classic", pile_always_frozen=True))
    assert all(p["expect"]["frozen"] for p in frozen["puzzles"])  # the house rule reaches the answers


@pytest.mark.parametrize("rules, words", [("{preset: classic, pile_always_frozen: maybe}", "true or false"),
                                          ("{preset: snap}", "not allowed"), ("{pile_always_frozen: true}", "missing"),
                                          ("{preset: classic, colour: red}", "unknown key 'colour'"),
                                          ("{preset: classic", "not a YAML mapping"), ("snap", "unknown rule preset")])
def test_bad_house_rules_on_the_command_line(cli, rules, words):
    r = cli("generate", "meld", "--count", "2", "--rules", rules)
    assert r.returncode == 2 and words in r.stderr and "Traceback" not in r.stderr, r.stderr


# --- measured difficulty and positions that could occur ------------------------------------------------------------

def _measured(kind, difficulty, rules="classic", count=40, seed=9, from_play=False):
    from canasta_tutor.puzzles.difficulty import effort, features

    made = generate(kind, count=count, seed=seed, difficulty=difficulty, rules=rules, from_play=from_play)
    pset = parse_puzzle_set(to_yaml(made), "m.yaml")
    assert not pset.errors
    out = []
    for puzzle in pset:
        f = features(kind, puzzle.situation)
        out.append({**f, "effort": effort(f)})
    return out


def _median(rows, key):
    from statistics import median

    return median(r[key] for r in rows)


PLAY_KINDS = ["take-pile", "go-out", "freeze", "opening", "score-hand"]


@pytest.mark.parametrize("kind, from_play", [(k, False) for k in KINDS] + [(k, True) for k in PLAY_KINDS])
def test_each_level_is_measurably_harder_than_the_one_below(kind, from_play):
    """The levels are cut from measured features, so the median effort rises with every level, whether the
    positions are dealt or cut from bot games."""
    rows = {d: _measured(kind, d, count=10 if from_play else 40, from_play=from_play) for d in range(1, 6)}
    efforts = [_median(rows[d], "effort") for d in range(1, 6)]
    assert efforts == sorted(efforts) and len(set(efforts)) == 5, efforts


def test_the_measured_features_themselves_rise_with_the_level():
    """Not only the weighted sum: the features a player notices differ between the easy and the hard end."""
    take = {d: _measured("take-pile", d, from_play=True, count=30) for d in (1, 3, 5)}
    assert _median(take[5], "pile") > _median(take[1], "pile")
    assert _median(take[5], "wild") > _median(take[1], "wild")
    assert sum(r["unopened"] for r in take[5]) > sum(r["unopened"] for r in take[1])
    meld = {d: _measured("meld", d) for d in (3, 5)}   # the issue: difficulty 5 melds were easier than 3
    assert _median(meld[5], "effort") > _median(meld[3], "effort")
    assert (_median(meld[5], "wild") >= _median(meld[3], "wild")
            and _median(meld[5], "cards") >= _median(meld[3], "cards"))
    go = {d: _measured("go-out", d, from_play=True, count=16) for d in (1, 5)}
    # going out: the hard end asks more of the turn (more to finish, more melds or wild cards to place)
    assert _median(go[5], "effort") > _median(go[1], "effort")
    assert sum(r["finish"] for r in go[5]) >= sum(r["finish"] for r in go[1])


#: Cards dealt to each player (the sources: 002 "ieder 11 kaarten"; two players 15, three and six 13; samba 15).
DEAL = {"classic": 11, "classic-2p": 15, "classic-3p": 13, "classic-6p": 13, "danish": 11, "hoyle": 11, "samba": 15}
SIDE = {"classic": 2, "classic-2p": 1, "classic-3p": 2, "classic-6p": 3, "danish": 2, "hoyle": 2, "samba": 2}


@pytest.mark.parametrize("rules", ["classic", "classic-2p"])
def test_generated_positions_could_occur_in_a_real_hand(rules):
    """Counted in the YAML, without the engine: an unopened player holds at least the cards dealt; a score
    sheet lists one hand per player of the side, an empty one only for a side that went out; a first meld
    is no bigger than a hand and the draw."""
    short = unopened = 0
    for d, play in ((1, False), (5, False), (1, True), (5, True)):
        made = dict(seed=d, difficulty=d, rules=rules, from_play=play)
        for p in generate("take-pile", count=30, **made)["puzzles"] + generate("go-out", count=8, **made)["puzzles"]:
            if not p["melds"]:
                unopened += 1
                short += len(p["hand"].split()) < DEAL[rules]
        for p in generate("score-hand", count=8 if play else 30, **made)["puzzles"]:
            assert len(p["hands"]) <= SIDE[rules], p
            assert p["went_out"] or all(h.split() for h in p["hands"]), p
        for p in generate("opening", count=8 if play else 30, **made)["puzzles"]:
            assert sum(len(m.split()) for m in p["melds"]) <= DEAL[rules] + 2, p
    assert unopened >= 8 and short == 0


def test_position_problems_name_what_could_not_happen():
    from canasta_tutor.engine.situation import Situation
    from canasta_tutor.puzzles.generator import position_problems

    assert position_problems("take-pile", Situation(hand="7H 7S 4C 9D", pile="5D 7C")) == [
        "the hand holds 4 cards, but a player whose team has not melded holds at least the 11 dealt"]
    assert not position_problems("take-pile", Situation(hand="7H 7S 4C 9D", pile="5D 7C", melds=["KH KS KD"]))
    assert position_problems("score-hand", Situation(melds=["KH KS KD"], hands=["5C", ""], went_out=False)) == [
        "a hand is empty, but the side did not go out"]
    assert position_problems("score-hand", Situation(melds=["KH KS KD"], hands=["5C", "6D"], rules="classic-2p")) == [
        "2 hands are listed for a side of 1"]


def test_a_progress_bar_on_a_terminal_and_none_in_a_pipe(cli):
    import io

    from canasta_tutor.cli import progress

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    screen = Terminal()
    with progress(300, "puzzles", stream=screen, minimum=200) as bar:
        for _ in range(300):
            bar.update(1)
    assert "/300" in screen.getvalue() and "puzzles/s" in screen.getvalue()
    quiet = Terminal()
    with progress(50, "puzzles", stream=quiet, minimum=200) as bar:   # a short run: no bar
        bar.update(50)
    assert quiet.getvalue() == ""
    r = cli("generate", "card-points", "--count", "400", "--seed", "1")   # a pipe: nothing but the YAML
    assert r.returncode == 0 and r.stderr == "" and len(yaml.safe_load(r.stdout)["puzzles"]) == 400


# --- puzzles from real play ---------------------------------------------------------------------------------------

def test_generate_cuts_its_positions_from_bot_games_where_it_can():
    from canasta_tutor.puzzles.generator import can_play

    assert {k for k in KINDS if can_play(k)} == set(PLAY_KINDS)
    played = generate("take-pile", count=6, seed=4, difficulty=2)["puzzles"]       # the default: from play
    dealt = generate("take-pile", count=6, seed=4, difficulty=2, from_play=False)["puzzles"]
    assert played == generate("take-pile", count=6, seed=4, difficulty=2, from_play=True)["puzzles"]
    assert played != dealt
    assert generate("meld", count=3, seed=1)["puzzles"] == generate("meld", count=3, seed=1, from_play=False)["puzzles"]
    with pytest.raises(CanastaError, match="cannot be cut from bot games"):
        generate("meld", count=3, seed=1, from_play=True)


def test_a_position_from_play_could_be_replayed_from_its_seed():
    """Positions are what a player saw in a seeded hand: the same cut comes back from the same game."""
    import random

    from canasta_tutor.puzzles.positions import play_hand

    first = play_hand(get_rules("classic"), 12, "take-pile", random.Random(3))
    again = play_hand(get_rules("classic"), 12, "take-pile", random.Random(3))
    assert first == again and len(first) > 10
    # at the start of the first turn an unopened player holds the dealt hand, the pile is the upcard(s)
    assert len(first[0]["hand"].split()) == 11 and first[0]["melds"] == [] and first[0]["score"] == 0


@pytest.mark.parametrize("rules", ["classic", "classic-2p"])
def test_score_sheets_from_play_list_the_sides_real_hands(rules):
    for d in (1, 4):
        for p in generate("score-hand", count=6, seed=d, difficulty=d, rules=rules)["puzzles"]:
            assert len(p["hands"]) == SIDE[rules]
            assert p["went_out"] or all(h.split() for h in p["hands"]), p


def test_generate_from_play_on_the_command_line(cli, tmp_path):
    out = tmp_path / "g.yaml"
    r = cli("generate", "go-out", "--count", "4", "--seed", "2", "--difficulty", "2", "-o", str(out))
    assert r.returncode == 0 and r.stderr == "", r.stderr
    r = cli("check", str(out))
    assert r.returncode == 0 and "0 disagree, 0 errors" in r.stderr
    r = cli("generate", "card-points", "--from-play", "--count", "2")
    assert r.returncode == 2 and "cannot be cut from bot games" in r.stderr and "Traceback" not in r.stderr
    r = cli("generate", "take-pile", "--no-from-play", "--count", "2")
    assert r.returncode == 0 and len(yaml.safe_load(r.stdout)["puzzles"]) == 2
