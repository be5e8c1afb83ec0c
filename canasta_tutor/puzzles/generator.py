"""Random but legal puzzles, for endless practice.

Every situation is dealt from a shuffled copy of the rule set's decks
(:mod:`canasta_tutor.puzzles.dealing`), so no card appears more often than
the decks hold; team melds are legal melds,
scores are multiples of 5 in the range a game reaches, and a team that went
out has the canastas it needs. The engine supplies each ``expect``.

Difficulty is measured (:mod:`canasta_tutor.puzzles.difficulty`): each kind's generator
aims near a level (more cards, wild cards, frozen piles, unopened teams, scores
on the boundaries of the opening table), and a position is kept for the level
its measured effort falls in. Positions that could not occur in a real hand
are refused (:func:`position_problems`, from each kind's record). For yes/no kinds
the generator alternates the answer it aims at, so yes and no come out
balanced. The same arguments always give the same puzzles.

>>> data = generate("take-pile", count=4, seed=1)
>>> [p["expect"]["take"] for p in data["puzzles"]]
[True, False, True, False]
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from ..engine.errors import CanastaError, clip_repr
from ..engine.i18n import gettext as _
from ..engine.numbers import grouped, is_whole_number
from ..engine.rules import CLASSIC, PRESETS, RuleSet, get_rules
from ..engine.situation import Situation
from . import positions
from .difficulty import Levels, effort
from .format import KINDS, parse_situation  # noqa: F401  (KINDS: the kinds' names, for callers of generate)
from .kinds import KINDS as registry
from .kinds import PuzzleKind, get_kind

_ATTEMPTS = 400
#: Positions looked at per puzzle when cutting from play (each bot hand gives several).
_PLAY_ATTEMPTS = 250
#: The most puzzles one call makes (10,000 take about a minute; a set for learners has tens).
MAX_COUNT = 10_000
MAX_SEED = 200


def __getattr__(name):
    """``YES_NO`` (kind -> the answer key a generator balances) and ``TOPICS``, from the registry as it is now."""
    if name == "YES_NO":
        return {n: k.yes_no for n, k in registry.items() if k.yes_no}
    if name == "TOPICS":
        return {n: k.topic or n for n, k in registry.items()}
    raise AttributeError(name)


def _solve_situation(kind: str, situation: dict, rules: RuleSet):
    """``(answer, Situation)`` for a candidate, or ``None`` if the engine finds the situation impossible."""
    try:
        made = Situation(rules=rules, **parse_situation(situation))
        return registry[kind].solve(made).answer, made
    except CanastaError:
        return None


def _check_seed(seed) -> None:
    if is_whole_number(seed):
        if seed.bit_length() > 256:
            raise CanastaError(_("the seed {seed} is too large (at most 256 bits)").format(seed=clip_repr(seed)))
        return
    if not isinstance(seed, str):
        raise CanastaError(_("the seed must be text or a whole number, not {value}").format(value=clip_repr(seed)))
    if len(seed) > MAX_SEED:
        raise CanastaError(_("the seed is {length} characters long; at most {limit}").format(
            length=grouped(len(seed)), limit=MAX_SEED))
    try:
        seed.encode("utf-8")
    except UnicodeEncodeError:
        try:  # bytes from the command line that are not UTF-8 arrive as "surrogate escapes": show the bytes
            shown = seed.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:
            shown = seed.encode("utf-8", "backslashreplace")
        raise CanastaError(_("the seed {seed} is not valid UTF-8 text").format(seed=clip_repr(shown))) from None


def position_problems(kind: str, situation: Situation) -> list[str]:
    """Why ``situation`` could not occur in a real hand of its rules (empty when it could): its kind's record's
    ``problems``."""
    return get_kind(kind).problems(situation)


#: Positions sampled to cut the five measured levels, per kind, rules and source.
REFERENCE = 150
_LEVELS_CACHE: dict = {}


def _source(record, rules: RuleSet, from_play: bool):
    """``make(rng, level, want) -> situation mapping or None``: from bot games, or the kind's own generator."""
    if from_play:
        return positions.source(record.name, rules)

    def make(rng, level, want):
        # aim near the level: the measured levels, not the aim, decide where a position goes
        aim = max(1, min(5, level + rng.choice((-1, 0, 0, 1))))
        return record.generate(rng, rules, aim, want)
    return make


def _measure(kind: str, situation: Situation) -> float:
    return effort(get_kind(kind).features(situation))


def levels_for(kind: str, rules: RuleSet | str = "classic", *, from_play: bool = False):
    """The five measured levels of ``kind`` under ``rules``: cut at the quintiles of the effort of a reference
    sample of positions from the same source (the same every time). A yes/no kind gets five levels per answer
    (when the sample holds enough of each), so that every level has yes and no puzzles: ``{answer: Levels}``;
    the key ``None`` holds the levels of the whole sample."""
    rules = _rules(rules)
    cache_key = (kind, rules, from_play)
    if cache_key not in _LEVELS_CACHE:
        samples = _reference_sample(get_kind(kind), rules, from_play)
        _LEVELS_CACHE[cache_key] = {k: Levels(v) for k, v in samples.items() if k is None or len(v) >= 20}
    return _LEVELS_CACHE[cache_key]


def _reference_sample(record: PuzzleKind, rules: RuleSet, from_play: bool) -> dict:
    """The efforts of :data:`REFERENCE` positions (at least): all of them under ``None``, and for a yes/no kind
    also under each answer (until each answer has a fifth as many)."""
    make = _source(record, rules, from_play)
    rng = random.Random(f"levels|{record.name}|{rules.name}|{from_play}")
    samples: dict = {None: []}
    for i in range(REFERENCE * 4):
        counts = [len(v) for k, v in samples.items() if k is not None]
        if len(samples[None]) >= REFERENCE and (record.yes_no is None
                                                or (len(counts) == 2 and min(counts) >= REFERENCE // 5)):
            break
        situation = make(rng, 1 + i % 5, i % 2 == 0)
        solved = situation and _solve_situation(record.name, situation, rules)
        if solved and not position_problems(record.name, solved[1]):
            value = _measure(record.name, solved[1])
            samples[None].append(value)
            if record.yes_no is not None:
                samples.setdefault(solved[0][record.yes_no], []).append(value)
    return samples


def measured_level(kind: str, situation: Situation, answer: dict, levels: dict) -> tuple[int, float]:
    """``(level, effort)`` of a solved position under ``levels`` (from :func:`levels_for`)."""
    key = get_kind(kind).yes_no
    bands = levels.get(answer[key] if key else None) or levels[None]
    value = _measure(kind, situation)
    return bands.level(value), value


def can_play(kind: str, rules: RuleSet | str = "classic") -> bool:
    """Whether ``generate`` can cut puzzles of ``kind`` under ``rules`` from bot games."""
    return positions.serves(kind, _rules(rules))


def generate_puzzles(kind: str, *, count: int, seed: int | str = 0, difficulty: int = 1,
                     rules: str | RuleSet = "classic", from_play: bool | None = None,
                     progress=None) -> Iterator[dict]:
    """Yield ``count`` puzzles (as the contract's mappings, with ``expect``).

    ``difficulty`` is measured (see :mod:`canasta_tutor.puzzles.difficulty`): each puzzle's effort falls in that
    level's band of the kind's positions. ``from_play``: cut the positions from seeded bot games (``None``:
    wherever that can serve the kind and rules); ``progress``: called with 1 per puzzle made."""
    record = _generated_kind(kind)
    if not is_whole_number(count) or not 1 <= count <= MAX_COUNT:
        raise CanastaError(_("count must be a whole number from 1 to {limit}, not {value}").format(
            limit=grouped(MAX_COUNT), value=clip_repr(count)))
    if not is_whole_number(difficulty) or not 1 <= difficulty <= 5:
        raise CanastaError(_("difficulty must be 1 to 5, not {value}").format(value=clip_repr(difficulty)))
    _check_seed(seed)
    rules = _rules(rules)
    playable = can_play(kind, rules)
    if from_play is None:
        from_play = playable
    elif from_play and not playable:
        text = _("{kind} puzzles under {rules} cannot be cut from bot games yet: use --no-from-play")
        raise CanastaError(text.format(kind=kind, rules=rules.name))
    search = _Search(record, rules, difficulty, seed, from_play)
    for made in range(1, count + 1):
        # a yes/no kind alternates the answer it aims at
        situation, answer = search.find(want=(made % 2 == 1) if record.yes_no else True)
        puzzle = {"id": f"gen-{kind}-{made:04d}", "kind": kind, "difficulty": int(difficulty),
                  "topic": record.topic or kind}
        puzzle.update(situation)
        puzzle["expect"] = answer
        if progress is not None:
            progress(1)
        yield puzzle


def _generated_kind(kind) -> PuzzleKind:
    """The record of ``kind`` if it has a generator, or a clear error listing those that do."""
    record = registry.get(kind) if isinstance(kind, str) else None
    if record is None or record.generate is None:
        raise CanastaError(_("unknown puzzle kind {kind}: the kinds are {kinds}").format(
            kind=clip_repr(kind), kinds=", ".join(n for n, k in registry.items() if k.generate)))
    return record


class _Search:
    """The positions one call of :func:`generate_puzzles` looks through: each puzzle is the first position on
    its level with the answer aimed at, or else the nearest one found within the budget."""

    def __init__(self, record: PuzzleKind, rules: RuleSet, difficulty: int, seed, from_play: bool):
        self.kind, self.rules, self.difficulty = record.name, rules, difficulty
        self.key = record.yes_no
        self.levels = levels_for(record.name, rules, from_play=from_play)
        self.rng = random.Random(f"{record.name}|{seed}|{difficulty}|{rules.name}" + ("|play" if from_play else ""))
        self.make = _source(record, rules, from_play)
        self.budget = _PLAY_ATTEMPTS if from_play else _ATTEMPTS
        # on-level positions with the other answer, kept for later: (answer is off, distance, situation, answer)
        self.stash: dict[bool, list] = {True: [], False: []}
        self.seen: set = set()

    def find(self, want: bool) -> tuple[dict, dict]:
        """``(situation, answer)`` of the next puzzle, aiming at the answer ``want`` (for a yes/no kind)."""
        best = self.stash[want].pop(0) if self.stash[want] else None
        for _attempt in range(self.budget if best is None else 0):
            candidate = self._candidate(want)
            if candidate is None:
                continue
            off, distance, situation, answer = candidate
            if off and distance == 0.0:  # right level, other answer: the next puzzle may take it
                self.seen.add(repr(situation))
                self.stash[not want].append((False, 0.0, situation, answer))
                continue
            if best is None or (off, distance) < best[:2]:
                best = candidate
            if (off, distance) == (False, 0.0):
                break
        if best is None:
            raise CanastaError(_("could not generate a legal {kind} puzzle").format(kind=self.kind))
        self.seen.add(repr(best[2]))
        return best[2], best[3]

    def _candidate(self, want: bool):
        """``(answer is off, distance from the level, situation, answer)`` of a new position that could occur,
        or ``None``."""
        situation = self.make(self.rng, self.difficulty, want)
        if situation is None or repr(situation) in self.seen:  # play repeats itself at the start of a hand
            return None
        solved = _solve_situation(self.kind, situation, self.rules)
        if solved is None or position_problems(self.kind, solved[1]):
            return None
        answer, made = solved
        bands = self.levels.get(answer[self.key] if self.key else None) or self.levels[None]
        distance = bands.distance(_measure(self.kind, made), self.difficulty)
        return self.key is not None and answer[self.key] != want, distance, situation, answer


def _rules(rules) -> RuleSet:
    if not isinstance(rules, (str, RuleSet)):
        raise CanastaError(_("rules must be a preset name or a RuleSet, not {value}").format(value=clip_repr(rules)))
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
    return {"title": f"Generated: {get_kind(kind).topic or kind} (difficulty {difficulty}, seed {seed})",
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
