"""Random but legal puzzles, for endless practice.

Every situation is dealt from a shuffled copy of the rule set's decks, so no
card appears more often than the decks hold; team melds are legal melds,
scores are multiples of 5 in the range a game reaches, and a team that went
out has the canastas it needs. The engine supplies each ``expect``.

Difficulty is measured (:mod:`canasta_tutor.puzzles.difficulty`): each kind's generator
aims near a level (more cards, wild cards, frozen piles, unopened teams, scores
on the boundaries of the opening table), and a position is kept for the level
its measured effort falls in. Positions that could not occur in a real hand
are refused (:func:`position_problems`). For yes/no kinds
the generator alternates the answer it aims at, so yes and no come out
balanced. The same arguments always give the same puzzles.

>>> data = generate("take-pile", count=4, seed=1)
>>> [p["expect"]["take"] for p in data["puzzles"]]
[True, False, True, False]
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

from ..engine.cards import ALL_CARDS, Card, format_cards
from ..engine.errors import CanastaError, clip_repr
from ..engine.melds import check_meld
from ..engine.numbers import is_whole_number
from ..engine.rules import CLASSIC, PRESETS, RuleSet, get_rules
from ..engine.situation import Situation

NATURAL_RANKS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
WILD = (Card("2S"), Card("2H"), Card("2D"), Card("2C"), Card("JK"))
_ATTEMPTS = 400
#: Positions looked at per puzzle when cutting from play (each bot hand gives several).
_PLAY_ATTEMPTS = 250
#: The most puzzles one call makes (10,000 take about a minute; a set for learners has tens).
MAX_COUNT = 10_000
MAX_SEED = 200


class Pool:
    """What is left of the decks while a situation is dealt."""

    def __init__(self, rules: RuleSet, rng: random.Random):
        self.rng = rng
        self.left = Counter({c: (rules.jokers if c.rank == "JK" else rules.decks) for c in ALL_CARDS})

    def take(self, card: Card) -> bool:
        if self.left[card] > 0:
            self.left[card] -= 1
            return True
        return False

    def naturals(self, rank: str, n: int) -> list[Card]:
        suits = [s for s in "SHDC" for _ in range(self.left[Card(rank + s)])]
        self.rng.shuffle(suits)
        out = [Card(rank + s) for s in suits[:n]]
        for c in out:
            self.left[c] -= 1
        return out

    def wild(self, n: int) -> list[Card]:
        out = []
        for _ in range(n):
            choices = [c for c in WILD if self.left[c] > 0]
            if not choices:
                break
            card = self.rng.choice(choices)
            self.left[card] -= 1
            out.append(card)
        return out

    def draw(self, n: int, *, allow=lambda c: True) -> list[Card]:
        out = []
        for _ in range(n):
            choices = [c for c, k in self.left.items() if k > 0 and allow(c)]
            if not choices:
                break
            weights = [self.left[c] for c in choices]
            card = self.rng.choices(choices, weights)[0]
            self.left[card] -= 1
            out.append(card)
        return out


def _codes(cards) -> str:
    return format_cards(cards, symbols=False)


def _not_red_three(c: Card) -> bool:
    return not c.is_red_three


def _plain(c: Card) -> bool:
    return c.is_natural


def _group(pool: Pool, rules: RuleSet, rank: str, naturals: int, wild: int) -> list[Card]:
    cards = pool.naturals(rank, naturals)
    cap = rules.wild_capacity(len(cards))
    return cards + pool.wild(min(wild, cap))


def _team_melds(pool: Pool, rules: RuleSet, rng: random.Random, count: int, d: int, *, avoid=()) -> list[list[Card]]:
    melds = []
    ranks = [r for r in NATURAL_RANKS if r not in avoid]
    rng.shuffle(ranks)
    for rank in ranks[:count]:
        size = rng.choice([3, 3, 4, 5] + ([6, 7, 7] if d >= 3 else []))
        wild = rng.choice([0, 0, 1] + ([1, 2] if d >= 2 else []))
        meld = _group(pool, rules, rank, max(2, size - wild), wild)
        if check_meld(meld, rules).ok:
            melds.append(meld)
    return melds


def _score(rng: random.Random, rules: RuleSet, d: int) -> int:
    if d >= 3 and rng.random() < 0.6:
        edges = []
        for lowest, _ in rules.opening_table:
            if lowest is not None:
                edges += [lowest - 5, lowest]
        return rng.choice(edges)
    if rng.random() < 0.1 * d:
        return -5 * rng.randint(1, 100)
    return 5 * rng.randint(0, (rules.target_score - 5) // 5)


def __getattr__(name):
    """``KINDS``, ``YES_NO`` (kind -> the answer key a generator balances) and ``TOPICS``, from the registry."""
    from .kinds import KINDS as registry

    if name == "KINDS":
        from .format import KINDS

        return KINDS
    if name == "YES_NO":
        return {n: k.yes_no for n, k in registry.items() if k.yes_no}
    if name == "TOPICS":
        return {n: k.topic or n for n, k in registry.items()}
    raise AttributeError(name)


def _solve_raw(kind: str, situation: dict, rules: RuleSet):
    """Solve a candidate; ``None`` if the engine finds the situation impossible."""
    solved = _solve_situation(kind, situation, rules)
    return None if solved is None else solved[0]


def _solve_situation(kind: str, situation: dict, rules: RuleSet):
    """``(answer, Situation)`` for a candidate, or ``None`` if the engine finds the situation impossible."""
    from .format import parse_situation
    from .kinds import KINDS as registry

    try:
        made = Situation(rules=rules, **parse_situation(situation))
        return registry[kind].solve(made).answer, made
    except CanastaError:
        return None


def _check_seed(seed) -> None:
    if is_whole_number(seed):
        if seed.bit_length() > 256:
            raise CanastaError(f"the seed {clip_repr(seed)} is too large (at most 256 bits)")
        return
    if not isinstance(seed, str):
        raise CanastaError(f"the seed must be text or a whole number, not {clip_repr(seed)}")
    if len(seed) > MAX_SEED:
        raise CanastaError(f"the seed is {len(seed):,} characters long; at most {MAX_SEED}")
    try:
        seed.encode("utf-8")
    except UnicodeEncodeError:
        try:  # bytes from the command line that are not UTF-8 arrive as "surrogate escapes": show the bytes
            shown = seed.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:
            shown = seed.encode("utf-8", "backslashreplace")
        raise CanastaError(f"the seed {clip_repr(shown)} is not valid UTF-8 text") from None


def team_size(rules: RuleSet) -> int:
    """How many players a side has: one alone with two players, two with three (the partnership) or four,
    three with six (two teams of three, or three of two)."""
    return {2: 1, 3: 2, 4: 2, 6: 3}.get(rules.players, 2)


def position_problems(kind: str, situation: Situation) -> list[str]:
    """Why ``situation`` could not occur in a real hand of its rules (empty when it could): a player whose
    team has not melded holds at least the cards dealt (every turn draws before it discards, and red threes
    are replaced); a score sheet lists at most one hand per player of the side, and an empty hand only for a
    side that went out (the player who went out); a first meld holds no more cards than a hand after the
    draw."""
    s, rules = situation, situation.rules
    out = []
    if kind in ("take-pile", "go-out") and not s.melds and len(s.hand) < rules.hand_size:
        out.append(f"the hand holds {len(s.hand)} cards, but a player whose team has not melded holds at least "
                   f"the {rules.hand_size} dealt")
    if kind == "score-hand":
        if len(s.hands) > team_size(rules):
            out.append(f"{len(s.hands)} hands are listed for a side of {team_size(rules)}")
        empty = sum(1 for h in s.hands if not h)
        if empty and not s.went_out:
            out.append("a hand is empty, but the side did not go out")
        if empty > 1:
            out.append("two hands are empty, but only one player goes out")
    if kind == "opening":
        cards = sum(len(m) for m in s.melds)
        if cards > rules.hand_size + rules.draw_count:
            out.append(f"the first meld holds {cards} cards, more than a hand of {rules.hand_size} and the "
                       f"draw")
    return out


#: Positions sampled to cut the five measured levels, per kind, rules and source.
REFERENCE = 150
_LEVELS_CACHE: dict = {}


def _source(record, rules: RuleSet, from_play: bool):
    """``make(rng, level, want) -> situation mapping or None``: from bot games, or the kind's own generator."""
    if from_play:
        from . import positions

        return positions.source(record.name, rules)

    def make(rng, level, want):
        # aim near the level: the measured levels, not the aim, decide where a position goes
        aim = max(1, min(5, level + rng.choice((-1, 0, 0, 1))))
        return record.generate(rng, rules, aim, want)
    return make


def _measure(kind: str, situation: Situation) -> float:
    from .difficulty import effort, features

    return effort(features(kind, situation))


def levels_for(kind: str, rules: RuleSet | str = "classic", *, from_play: bool = False):
    """The five measured levels of ``kind`` under ``rules``: cut at the quintiles of the effort of a reference
    sample of positions from the same source (the same every time). A yes/no kind gets five levels per answer
    (when the sample holds enough of each), so that every level has yes and no puzzles: ``{answer: Levels}``;
    the key ``None`` holds the levels of the whole sample."""
    from .difficulty import Levels
    from .kinds import get_kind

    rules = _rules(rules)
    cache_key = (kind, rules, from_play)
    if cache_key not in _LEVELS_CACHE:
        record = get_kind(kind)
        make = _source(record, rules, from_play)
        rng = random.Random(f"levels|{kind}|{rules.name}|{from_play}")
        samples: dict = {None: []}
        for i in range(REFERENCE * 4):
            counts = [len(v) for k, v in samples.items() if k is not None]
            if len(samples[None]) >= REFERENCE and (record.yes_no is None
                                                    or (len(counts) == 2 and min(counts) >= REFERENCE // 5)):
                break
            situation = make(rng, 1 + i % 5, i % 2 == 0)
            solved = situation and _solve_situation(kind, situation, rules)
            if solved and not position_problems(kind, solved[1]):
                effort = _measure(kind, solved[1])
                samples[None].append(effort)
                if record.yes_no is not None:
                    samples.setdefault(solved[0][record.yes_no], []).append(effort)
        _LEVELS_CACHE[cache_key] = {k: Levels(v) for k, v in samples.items() if k is None or len(v) >= 20}
    return _LEVELS_CACHE[cache_key]


def measured_level(kind: str, situation: Situation, answer: dict, levels: dict) -> tuple[int, float]:
    """``(level, effort)`` of a solved position under ``levels`` (from :func:`levels_for`)."""
    from .kinds import get_kind

    key = get_kind(kind).yes_no
    bands = levels.get(answer[key] if key else None) or levels[None]
    effort = _measure(kind, situation)
    return bands.level(effort), effort


def can_play(kind: str, rules: RuleSet | str = "classic") -> bool:
    """Whether ``generate`` can cut puzzles of ``kind`` under ``rules`` from bot games."""
    try:
        from . import positions
    except ImportError:  # the game model is not here
        return False
    return positions.serves(kind, _rules(rules))


def generate_puzzles(kind: str, *, count: int, seed: int | str = 0, difficulty: int = 1,
                     rules: str | RuleSet = "classic", from_play: bool | None = None,
                     progress=None) -> Iterator[dict]:
    """Yield ``count`` puzzles (as the contract's mappings, with ``expect``).

    ``difficulty`` is measured (see :mod:`canasta_tutor.puzzles.difficulty`): each puzzle's effort falls in that
    level's band of the kind's positions. ``from_play``: cut the positions from seeded bot games (``None``:
    wherever that can serve the kind and rules); ``progress``: called with 1 per puzzle made."""
    from .kinds import KINDS as registry

    record = registry.get(kind) if isinstance(kind, str) else None
    if record is None or record.generate is None:
        raise CanastaError(f"unknown puzzle kind {clip_repr(kind)}: the kinds are "
                           f"{', '.join(n for n, k in registry.items() if k.generate)}")
    if not is_whole_number(count) or not 1 <= count <= MAX_COUNT:
        raise CanastaError(f"count must be a whole number from 1 to {MAX_COUNT:,}, not {clip_repr(count)}")
    if not is_whole_number(difficulty) or not 1 <= difficulty <= 5:
        raise CanastaError(f"difficulty must be 1 to 5, not {clip_repr(difficulty)}")
    _check_seed(seed)
    rules = _rules(rules)
    playable = can_play(kind, rules)
    if from_play is None:
        from_play = playable
    elif from_play and not playable:
        raise CanastaError(f"{kind} puzzles under {rules.name} cannot be cut from bot games yet: use --no-from-play")
    levels = levels_for(kind, rules, from_play=from_play)
    rng = random.Random(f"{kind}|{seed}|{difficulty}|{rules.name}" + ("|play" if from_play else ""))
    make = _source(record, rules, from_play)
    key = record.yes_no
    budget = _PLAY_ATTEMPTS if from_play else _ATTEMPTS
    stash: dict[bool, list] = {True: [], False: []}  # on-level positions with the other answer, kept for later
    seen: set = set()
    made = 0
    while made < count:
        want = (made % 2 == 0) if key else True
        # (answer is off, distance from the level, situation, answer)
        best = stash[want].pop(0) if stash[want] else None
        for _attempt in range(budget if best is None else 0):
            situation = make(rng, difficulty, want)
            if situation is None:
                continue
            text = repr(situation)
            if text in seen:  # the same position twice (play repeats itself at the start of a hand)
                continue
            solved = _solve_situation(kind, situation, rules)
            if solved is None or position_problems(kind, solved[1]):
                continue
            answer, made_situation = solved
            bands = levels.get(answer[key] if key else None) or levels[None]
            distance = bands.distance(_measure(kind, made_situation), difficulty)
            off = key is not None and answer[key] != want
            if off and distance == 0.0:
                seen.add(text)
                stash[not want].append((False, 0.0, situation, answer))
                continue
            if best is None or (off, distance) < best[:2]:
                best = (off, distance, situation, answer)
            if (off, distance) == (False, 0.0):
                break
        if best is None:
            raise CanastaError(f"could not generate a legal {kind} puzzle")
        seen.add(repr(best[2]))
        situation, answer = best[2], best[3]
        made += 1
        puzzle = {"id": f"gen-{kind}-{made:04d}", "kind": kind, "difficulty": int(difficulty),
                  "topic": record.topic or kind}
        puzzle.update(situation)
        puzzle["expect"] = answer
        if progress is not None:
            progress(1)
        yield puzzle


def _rules(rules) -> RuleSet:
    if not isinstance(rules, (str, RuleSet)):
        raise CanastaError(f"rules must be a preset name or a RuleSet, not {clip_repr(rules)}")
    return get_rules(rules)


def rules_value(rules: str | RuleSet):
    """What a puzzle file's ``rules:`` says for ``rules``: the preset's name, or for a house rule
    ``{preset: NAME, OPTION: VALUE, ...}`` with the options that differ from the preset it started from.

    >>> from canasta_tutor.engine.rules import with_options
    >>> rules_value("samba"), rules_value(with_options("hoyle", pile_always_frozen=True))
    ('samba', {'preset': 'hoyle', 'pile_always_frozen': True})
    """
    rules = _rules(rules)
    base = PRESETS.get(rules.name.split("+")[0], CLASSIC)
    changed = {k: v for k, v in rules.options().items() if v != getattr(base, k)}
    if not changed:
        return base.name
    if "opening_table" in changed:
        changed["opening_table"] = [list(pair) for pair in changed["opening_table"]]
    return {"preset": base.name, **changed}


def generate(kind: str, *, count: int, seed: int | str = 0, difficulty: int = 1,
             rules: str | RuleSet = "classic", from_play: bool | None = None, progress=None) -> dict:
    """A whole puzzle set (a mapping in the contract's format)."""
    puzzles = list(generate_puzzles(kind, count=count, seed=seed, difficulty=difficulty, rules=rules,
                                    from_play=from_play, progress=progress))
    return {"title": f"Generated: {__getattr__('TOPICS').get(kind, kind)} (difficulty {difficulty}, seed {seed})",
            "rules": rules_value(rules), "puzzles": puzzles}


def to_yaml(data: dict) -> str:
    """The puzzle set as YAML text, one flow mapping per puzzle (short and diff-friendly)."""
    import yaml

    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    head = yaml.dump({k: v for k, v in data.items() if k != "puzzles"}, Dumper=dumper, sort_keys=False,
                     allow_unicode=True)
    lines = [head.rstrip("\n"), "puzzles:"]
    for puzzle in data["puzzles"]:
        text = yaml.dump(puzzle, Dumper=dumper, sort_keys=False, allow_unicode=True, default_flow_style=True,
                         width=10_000).strip()
        lines.append(f"  - {text}")
    return "\n".join(lines) + "\n"
