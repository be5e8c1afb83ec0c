"""Random but legal puzzles, for endless practice.

Every situation is dealt from a shuffled copy of the rule set's decks, so no
card appears more often than the decks hold; team melds are legal melds,
scores are multiples of 5 in the range a game reaches, and a team that went
out has the canastas it needs. The engine supplies each ``expect``.

Difficulty means: more cards, wild cards, frozen piles, unopened teams and
scores on the boundaries of the opening table as it rises. For yes/no kinds
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

from .cards import ALL_CARDS, Card, format_cards
from .errors import CanastaError, clip_repr
from .situation import Situation
from .melds import check_meld
from .rules import CLASSIC, PRESETS, RuleSet, get_rules

NATURAL_RANKS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
WILD = (Card("2S"), Card("2H"), Card("2D"), Card("2C"), Card("JK"))
_ATTEMPTS = 400
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


# --- one candidate situation per kind ------------------------------------------------

def _card_points(rng, rules, d, want):
    pool = Pool(rules, rng)
    allow = _plain if d == 1 else _not_red_three
    return {"cards": _codes(pool.draw(2 + d + rng.randint(0, d), allow=allow))}


def _meld(rng, rules, d, want):
    pool = Pool(rules, rng)
    rank = rng.choice(NATURAL_RANKS)
    size = rng.randint(3, 4 + d) if d < 3 else rng.choice([rng.randint(3, 6), 7, rng.randint(7, 9)])
    wild = rng.randint(0, min(size - 1, 1 + d)) if d >= 2 else 0
    cards = pool.naturals(rank, size - wild) + pool.wild(wild)
    situation = {}
    flip = rng.random()
    if not want and flip < 0.35:
        cards = cards[:2] if len(cards) > 3 and rng.random() < 0.3 else cards + pool.draw(1, allow=_plain)
    elif not want and flip < 0.5:
        cards = cards[:1] + pool.wild(rng.randint(2, 3))
    elif d >= 4 and flip < 0.7:
        cards = pool.draw(rng.randint(2, 4), allow=lambda c: c.is_black_three)
        cards += pool.wild(rng.randint(0, 1))
        situation["going_out"] = rng.random() < 0.7
    if rules.sequences and d >= 2 and rng.random() < 0.35:
        suit = rng.choice("SHDC")
        start = rng.randint(4, 12)
        length = rng.randint(3, min(8, 15 - start))
        seq = []
        for order in range(start, start + length):
            card = Card({11: "J", 12: "Q", 13: "K", 14: "A"}.get(order, str(order)) + suit)
            if rng.random() < (0.15 if not want else 0.0):
                continue
            if pool.take(card):
                seq.append(card)
        cards = seq
    rng.shuffle(cards)
    situation["cards"] = _codes(cards)
    return situation


def _opening(rng, rules, d, want):
    pool = Pool(rules, rng)
    score = _score(rng, rules, d)
    minimum = rules.opening_minimum(score)
    melds = []
    n = rng.randint(1, 1 + d // 2)
    ranks = list(NATURAL_RANKS)
    rng.shuffle(ranks)
    for rank in ranks[:n]:
        wild = rng.choice([0, 0, 1] + ([1, 2, 3] if d >= 3 else []))
        melds.append(_group(pool, rules, rank, rng.randint(2 if wild else 3, 4), wild))
    if d >= 4 and rng.random() < 0.2:
        melds[-1] = melds[-1] + pool.wild(3)
    points = sum(c.points for m in melds for c in m)
    if want and points < minimum:
        extra = _group(pool, rules, ranks[n % len(ranks)], 3, rng.randint(0, 2))
        melds.append(extra)
    return {"score": score, "melds": [_codes(m) for m in melds]}


def _freeze(rng, rules, d, want):
    pool = Pool(rules, rng)
    opened = rng.random() < (0.85 if d == 1 else 0.6)
    melds = _team_melds(pool, rules, rng, rng.randint(1, 2), d) if opened else []
    pile = pool.draw(rng.randint(1, 2 + 3 * d), allow=_plain if not want else _not_red_three)
    if want and opened and not any(c.is_wild or c.is_red_three for c in pile):
        extra = pool.wild(1) if d < 3 or rng.random() < 0.7 else pool.draw(1, allow=lambda c: c.is_red_three)
        pile[rng.randint(0, len(pile) - 1):0] = extra
    if d >= 2 and rng.random() < 0.4:
        pile += pool.draw(1, allow=lambda c: c.is_black_three)
    return {"pile": _codes(pile), "melds": [_codes(m) for m in melds]}


def _take_pile(rng, rules, d, want):
    pool = Pool(rules, rng)
    top_rank = rng.choice(NATURAL_RANKS)
    opened = rng.random() < (0.8 if d == 1 else 0.55)
    melds = _team_melds(pool, rules, rng, rng.randint(1, 1 + d // 2), d,
                        avoid=() if rng.random() < 0.3 else (top_rank,)) if opened else []
    score = _score(rng, rules, d) if (d >= 3 or not opened) else 5 * rng.randint(0, 299)
    top = pool.naturals(top_rank, 1)
    if not top:
        return None
    hand_size = min(2 + 2 * d + rng.randint(0, 2), rules.hand_size + 4)
    hand = []
    if want or rng.random() < 0.4:
        hand += pool.naturals(top_rank, rng.choice([1, 2, 2, 3]))
    if d >= 2 and rng.random() < 0.5:
        hand += pool.wild(rng.randint(1, 2))
    if not opened and (want or rng.random() < 0.5):
        for rank in rng.sample(NATURAL_RANKS, 2):
            if rank != top_rank:
                hand += pool.naturals(rank, rng.randint(2, 3))
    hand += pool.draw(max(1, hand_size - len(hand)), allow=lambda c: not c.is_red_three and c.rank != top_rank)
    small = d >= 4 and rng.random() < 0.3
    pile = pool.draw(rng.randint(0, 1) if small else rng.randint(1, 1 + 3 * d), allow=_not_red_three)
    if d >= 2 and rng.random() < 0.35:
        pile[rng.randint(0, len(pile)):0] = pool.wild(1)
    if d >= 3 and rng.random() < 0.15:
        pile[0:0] = pool.draw(1, allow=lambda c: c.is_red_three)
    if rng.random() < 0.05 * d and not want:
        top = pool.draw(1, allow=lambda c: c.is_black_three) or top
    rng.shuffle(hand)
    return {"hand": _codes(hand), "melds": [_codes(m) for m in melds], "score": score, "pile": _codes(pile + top)}


def _go_out(rng, rules, d, want):
    pool = Pool(rules, rng)
    melds = []
    n_canastas = rng.randint(0, rules.canastas_to_go_out + (1 if want else 0))
    ranks = list(NATURAL_RANKS)
    rng.shuffle(ranks)
    for rank in ranks[:n_canastas]:
        melds.append(_group(pool, rules, rank, rng.randint(5, 7), rng.randint(0, 2)))
    melds = [m for m in melds if check_meld(m, rules).ok and len(m) >= 3]
    for rank in ranks[n_canastas:n_canastas + rng.randint(0, 1 + d // 2)]:
        meld = _group(pool, rules, rank, rng.randint(3, 5), rng.randint(0, 1))
        if check_meld(meld, rules).ok:
            melds.append(meld)
    hand = []
    for rank in ranks[6:6 + rng.randint(1, 1 + d // 2)]:
        hand += pool.naturals(rank, rng.randint(2, 4))
    if d >= 2:
        hand += pool.wild(rng.randint(0, min(4, d)))
    if melds and rng.random() < 0.5:
        hand += pool.naturals(melds[0][0].rank if melds[0][0].is_natural else "K", rng.randint(1, 2))
    if not want or rng.random() < 0.6:
        hand += pool.draw(rng.randint(1, 2), allow=_plain)
    if d >= 3 and rng.random() < 0.2:
        hand += pool.draw(rng.randint(2, 4), allow=lambda c: c.is_black_three)
    if not hand:
        hand = pool.draw(1, allow=_plain)
    rng.shuffle(hand)
    return {"hand": _codes(hand), "melds": [_codes(m) for m in melds], "score": _score(rng, rules, d)}


def _score_hand(rng, rules, d, want):
    pool = Pool(rules, rng)
    opened = rng.random() < 0.9
    melds = _team_melds(pool, rules, rng, rng.randint(1, 1 + d), max(d, 3)) if opened else []
    from .melds import count_canastas

    went_out = False
    if melds and count_canastas(melds, rules) >= rules.canastas_to_go_out:
        went_out = rng.choice([False, True, True] + (["concealed"] if d >= 3 else []))
    red = pool.draw(rng.choice([0, 0, 1, 1, 2] + ([rules.red_threes_in_game] if d >= 3 else [])),
                    allow=lambda c: c.is_red_three)
    hands = []
    for _ in range(rng.randint(0 if went_out else 1, 2)):
        hands.append(pool.draw(rng.randint(0, 1 + d), allow=_not_red_three))
    if went_out and hands:
        hands[0] = []
    return {"melds": [_codes(m) for m in melds], "red_threes": _codes(red), "hands": [_codes(h) for h in hands],
            "went_out": went_out}


def __getattr__(name):
    """``KINDS``, ``YES_NO`` (kind -> the answer key a generator balances) and ``TOPICS``, from the registry."""
    from .kinds import KINDS as registry

    if name == "KINDS":
        from .puzzle import KINDS

        return KINDS
    if name == "YES_NO":
        return {n: k.yes_no for n, k in registry.items() if k.yes_no}
    if name == "TOPICS":
        return {n: k.topic or n for n, k in registry.items()}
    raise AttributeError(name)


def _solve_raw(kind: str, situation: dict, rules: RuleSet):
    """Solve a candidate; ``None`` if the engine finds the situation impossible."""
    from .kinds import KINDS as registry
    from .puzzle import parse_situation

    try:
        return registry[kind].solve(Situation(rules=rules, **parse_situation(situation))).answer
    except CanastaError:
        return None


def _check_seed(seed) -> None:
    if isinstance(seed, int) and not isinstance(seed, bool):
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


def generate_puzzles(kind: str, *, count: int, seed: int | str = 0, difficulty: int = 1,
                     rules: str | RuleSet = "classic") -> Iterator[dict]:
    """Yield ``count`` puzzles (as the contract's mappings, with ``expect``)."""
    from .kinds import KINDS as registry

    record = registry.get(kind) if isinstance(kind, str) else None
    if record is None or record.generate is None:
        raise CanastaError(f"unknown puzzle kind {clip_repr(kind)}: the kinds are "
                           f"{', '.join(n for n, k in registry.items() if k.generate)}")
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_COUNT:
        raise CanastaError(f"count must be a whole number from 1 to {MAX_COUNT:,}, not {clip_repr(count)}")
    if not isinstance(difficulty, int) or isinstance(difficulty, bool) or not 1 <= difficulty <= 5:
        raise CanastaError(f"difficulty must be 1 to 5, not {clip_repr(difficulty)}")
    _check_seed(seed)
    rules = _rules(rules)
    rng = random.Random(f"{kind}|{seed}|{difficulty}|{rules.name}")
    maker = record.generate
    key = record.yes_no
    made = 0
    while made < count:
        want = (made % 2 == 0) if key else True
        fallback = None
        for _attempt in range(_ATTEMPTS):
            situation = maker(rng, rules, difficulty, want)
            if situation is None:
                continue
            answer = _solve_raw(kind, situation, rules)
            if answer is None:
                continue
            if key is None or answer[key] == want:
                break
            fallback = fallback or (situation, answer)
        else:
            if fallback is None:
                raise CanastaError(f"could not generate a legal {kind} puzzle")
            situation, answer = fallback
        made += 1
        puzzle = {"id": f"gen-{kind}-{made:04d}", "kind": kind, "difficulty": int(difficulty),
                  "topic": record.topic or kind}
        puzzle.update(situation)
        puzzle["expect"] = answer
        yield puzzle


def _rules(rules) -> RuleSet:
    if not isinstance(rules, (str, RuleSet)):
        raise CanastaError(f"rules must be a preset name or a RuleSet, not {clip_repr(rules)}")
    return get_rules(rules)


def rules_value(rules: str | RuleSet):
    """What a puzzle file's ``rules:`` says for ``rules``: the preset's name, or for a house rule
    ``{preset: NAME, OPTION: VALUE, ...}`` with the options that differ from the preset it started from.

    >>> from canasta_tutor.rules import with_options
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
             rules: str | RuleSet = "classic") -> dict:
    """A whole puzzle set (a mapping in the contract's format)."""
    puzzles = list(generate_puzzles(kind, count=count, seed=seed, difficulty=difficulty, rules=rules))
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
