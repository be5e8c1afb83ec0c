"""The openings, takes and new melds the game offers, checked against the rules by brute force.

On many random small hands of every preset, every way to split the hand into melds (how many natural cards
of each rank, how many wild cards with each, which runs of one suit) is judged by the rules as the sources
write them (``meld_oracle.py``, not the engine's code). The openings (by melding, and with the pile's top card
when taking it) and the new melds of a team that has opened which ``legal_actions`` offers must be legal, and
must be every legal one (issue 19, "Every legal opening, take and meld is offered"), each named once, with
the wild cards the game documents (``docs/game-model.md``, ``game/openings.py``): jokers first in an opening,
twos first in a new meld; the whole shapes (each rank's natural cards all together, samba's runs whole) come
first in the list. ``apply`` must accept the legal melds and openings (a sample of each position's) and refuse
the near misses (one wild card too many, one natural card, two groups of a rank, below the minimum...).

:data:`KNOWN_MISSES` are the positions where the game offered none of the legal ways before issue 19 (a legal
move needed part of a rank or part of a run); they are offered now.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

import pytest
from meld_oracle import (
    KEEP,
    LONGEST_RUN,
    RANKS,
    RUN_ORDER,
    VALUE,
    WRITTEN,
    Hand,
    Written,
    all_runs,
    cards_for,
    is_legal_meld,
    is_wild,
    name_of,
    names,
    new_melds,
    openings,
)

from canasta_tutor.engine.cards import Card, parse_cards
from canasta_tutor.engine.rules import PRESETS
from canasta_tutor.game import DRAW_PHASE, MELD, MELD_PHASE, TAKE_PILE, Action, Game, IllegalMove, apply, legal_actions
from canasta_tutor.game.openings import EXTRA_LIMIT, OPENING_LIMIT

# --- random small positions ---------------------------------------------------------------------------------

GAMES = {name: Game(name) for name in PRESETS}
SCORES = (-40, 0, 1500, 3000, 7000)


@dataclass
class Pool:
    """The cards a position is dealt from, each at most as often as the preset's decks hold it: a few ranks (so
    that pairs and more are common; under sequences also a stretch of one suit), the wild cards, the black
    threes."""

    naturals: Counter
    wild: Counter
    threes: Counter
    stretch: list            # under sequences: cards of one suit in a row

    @classmethod
    def of(cls, rules, rng: random.Random) -> Pool:
        naturals = Counter()
        for rank in rng.sample(RANKS, rng.randint(2, 5)):
            for suit in "SHDC":
                naturals[Card(rank + suit)] = rules.decks
        stretch = []
        if rules.sequences:
            suit = rng.choice("SHDC")
            start = rng.randint(4, 11)
            stretch = [Card(RANKS[o - 4] + suit) for o in range(start, min(15, start + rng.randint(3, 9)))]
            naturals.update({c: rules.decks - naturals[c] for c in stretch})
        wild = Counter({Card("2" + s): rules.decks for s in "SHDC"})
        wild[Card("JK")] = rules.jokers
        return cls(naturals, wild, Counter({Card("3C"): rules.decks, Card("3S"): rules.decks}), stretch)


def draw_cards(rng: random.Random, pool: Counter, n: int, keep=lambda c: True) -> list[Card]:
    """``n`` cards (those ``keep`` takes) drawn at random from ``pool``, and taken out of it."""
    cards = [c for c in pool.elements() if keep(c)]
    rng.shuffle(cards)
    out = cards[:n]
    pool.subtract(out)
    return out


def small_hand(rng: random.Random, pool: Pool, size: int) -> list[Card]:
    n_wild = min(size - 2, rng.choice((0, 1, 1, 2, 2, 3, 4)))
    n_three = min(size - 2 - n_wild, rng.choice((0, 0, 0, 1, 2)))
    run = []
    if pool.stretch and rng.random() < 0.4:   # a stretch of one suit in hand, whole
        run = pool.stretch[:size - n_wild - n_three]
        pool.naturals.subtract(run)
    return draw_cards(rng, pool.wild, n_wild) + draw_cards(rng, pool.threes, n_three) + run + \
        draw_cards(rng, pool.naturals, size - n_wild - n_three - len(run))


def table_melds(rng: random.Random, written: Written, pool: Pool) -> list[tuple]:
    """One or two legal melds for a team that has opened: groups of three or four (one maybe with a joker)."""
    melds = []
    for _ in range(rng.randint(1, 2)):
        ranks = [r for r in RANKS if sum(n for c, n in pool.naturals.items() if c.rank == r) >= 3]
        if not ranks:
            break
        rank = rng.choice(ranks)
        meld = draw_cards(rng, pool.naturals, rng.randint(3, 4), lambda c, rank=rank: c.rank == rank)
        if rng.random() < 0.3:
            meld += draw_cards(rng, pool.wild, 1, lambda c: c.rank == "JK")
        if is_legal_meld(written, meld) and rank not in {name_of(m)[1] for m in melds}:
            melds.append(tuple(meld))
    return melds


def position(name: str, hand, *, melds=(), score: int = 0, pile=None) -> object:
    """A state of ``name`` with ``hand`` for the player to move, his side's ``melds`` and the teams' ``score``:
    in the meld phase, or with ``pile`` (bottom first) in the draw phase."""
    state = GAMES[name].new_initial_state(0)
    p = state.current_player
    state.hands[p] = list(hand)
    state.melds = [[] for _ in state.melds]
    state.melds[state.team_of(p)] = [tuple(m) for m in melds]
    state.scores = (score,) * len(state.scores)
    if pile is not None:
        state.pile = list(pile)
    state.phase = MELD_PHASE if pile is None else DRAW_PHASE
    state.turn_opened = bool(melds)
    state._legal = state._legal_set = None
    return state


@dataclass(frozen=True)
class Case:
    """One position: what the rules allow (counted above) and what the game offers."""

    name: str
    state: object
    hand: Hand
    legal: list                  # Opening
    offered: list                # Action
    top: Card | None = None

    def describe(self) -> str:
        p = self.state.current_player
        melds = self.state.melds[self.state.team_of(p)]
        table = " | ".join(" ".join(c.code for c in m) for m in melds)
        pile = f", pile {' '.join(c.code for c in self.state.pile)}" if self.top is not None else ""
        return (f"{self.name}, score {self.state.score_of(p)}{pile}{', table ' + table if table else ''}: "
                f"hand {' '.join(sorted(c.code for c in self.hand.cards))}")


def meld_case(name: str, hand, *, melds=(), score: int = 0) -> Case:
    state = position(name, hand, melds=melds, score=score)
    written = WRITTEN[name]
    counted = Hand.of(hand)
    if melds:
        legal = new_melds(written, counted, {name_of(m)[1] for m in melds if name_of(m)[0] == "G"})
    else:
        legal = openings(written, counted, written.minimum(score), keep=KEEP)
    offered = [a for a in legal_actions(state) if a.kind == MELD]
    return Case(name, state, counted, legal, offered)


def take_case(name: str, hand, pile, *, score: int = 0) -> Case:
    """A team that has not opened, the pile's top card natural: the openings that take it."""
    state = position(name, hand, score=score, pile=pile)
    written = WRITTEN[name]
    counted = Hand.of(hand)
    top = pile[-1]
    rest = sum(1 for c in pile[:-1] if not c.is_red_three)   # come to the hand after the melds
    legal = openings(written, counted, written.minimum(score), keep=KEEP - rest, top=top)
    # the takes that keep two cards (those that go out at once: test_game_take_and_go_out.py)
    offered = [a for a in legal_actions(state) if a.kind == TAKE_PILE and cards_left(a, hand, rest) >= KEEP]
    return Case(name, state, counted, legal, offered, top)


def cards_left(take, hand, rest: int) -> int:
    """How many cards a take of an unopened team leaves in hand, with the pile's other cards."""
    return len(hand) - sum(len(m) for m in take.melds) + 1 + rest


def random_cases(name: str, seed: int, count: int) -> list[Case]:
    rules = PRESETS[name]
    written = WRITTEN[name]
    rng = random.Random(f"{name}:{seed}")
    cases = []
    for k in range(count):
        pool = Pool.of(rules, rng)
        score = rng.choice(SCORES)
        kind = k % 3
        if kind == 0:     # an opening by melding, after the draw
            cases.append(meld_case(name, small_hand(rng, pool, rng.randint(5, 12)), score=score))
        elif kind == 1:   # an opening with the pile's top card, of a rank in hand
            hand = small_hand(rng, pool, rng.randint(4, 11))
            ranks = {c.rank for c in hand if c.rank in RUN_ORDER}
            top = draw_cards(rng, pool.naturals, 1, lambda c, ranks=ranks: c.rank in ranks)
            if top:
                pile = draw_cards(rng, pool.naturals, rng.randint(0, 2)) + top
                cases.append(take_case(name, hand, pile, score=score))
        else:             # a new meld of a team that has opened
            melds = table_melds(rng, written, pool)
            if melds:
                cases.append(meld_case(name, small_hand(rng, pool, rng.randint(3, 10)), melds=melds, score=score))
    return cases


# --- the claims -----------------------------------------------------------------------------------------------

PART_OF_A_RANK = "the legal melds need part of a rank's natural cards; the game offers each rank's cards together"
PART_OF_A_RUN = "the legal melds need part of a run; the game offers each suit's longest run whole"


class NotOffered(AssertionError):
    """The rules allow an opening, a take or a new meld, and the game offers none."""


def opened(case: Case) -> bool:
    return bool(case.state.melds[case.state.team_of(case.state.current_player)])


def check_offered_is_the_documented_part_of_the_legal(case: Case) -> None:
    """What the game offers is legal, and it is every legal opening (or new meld), each once, the whole shapes
    first (issue 19: "never leave a legal move out"), each with the wild cards the game documents."""
    written = WRITTEN[case.name]
    legal = {o.melds for o in case.legal}
    documented = {o.melds for o in case.legal if o.whole}
    offered = [names(a.melds) for a in case.offered]
    assert len(set(offered)) == len(offered), (case.describe(), "an opening offered twice")
    assert set(offered) <= legal, (case.describe(), "not legal", set(offered) - legal)
    if len(documented) <= OPENING_LIMIT and len(legal) - len(documented) <= EXTRA_LIMIT:
        assert set(offered) == legal, (case.describe(), "not offered", legal - set(offered))
        # the whole shapes first (what the game offered before: bots and seeded play keep their first choices)
        first = offered[:len(documented)]
        assert set(first) == documented, (case.describe(), "whole shapes not first")
    else:   # the compact form (test_game_openings_compact.py): each offered opening legal, none a meld too many
        assert set(offered) <= legal, case.describe()
    hand_wild = sorted(VALUE[c.rank] for c in case.hand.cards if is_wild(c))
    for a in case.offered:
        shown = Counter([case.top] if case.top is not None else [])
        assert not Counter(c for m in a.melds for c in m) - shown - Counter(case.hand.cards), (case.describe(), a)
        assert all(is_legal_meld(written, m) for m in a.melds), (case.describe(), a)
        # an opening takes the jokers first (the most points), a new meld the twos first (keeping the jokers)
        wild = sorted(VALUE[c.rank] for m in a.melds for c in m if is_wild(c))
        assert wild == (hand_wild[:len(wild)] if opened(case) else hand_wild[len(hand_wild) - len(wild):]), \
            (case.describe(), a)
        if a.kind == TAKE_PILE:
            assert a.melds[0][0] is case.top and a.cards == a.melds[0][1:], (case.describe(), a)


def check_offered_when_allowed(case: Case) -> None:
    if case.legal and not case.offered:
        raise NotOffered(f"{case.describe()}: the rules allow {len(case.legal)} ways, the game offers none")


def what_is_missed(case: Case) -> str:
    """Why the game offers none of the legal ways: each needs part of a run (its groups hold all of their ranks),
    or else part of a rank's natural cards."""
    return PART_OF_A_RUN if any(o.all_of_rank and not o.runs_whole for o in case.legal) else PART_OF_A_RANK


def oracle_allows(case: Case, melds) -> bool:
    """May the player to move put down ``melds`` now (a meld of the team that has opened, or an opening)?
    The rules above, and the game model's two cards kept."""
    written = WRITTEN[case.name]
    used = Counter(c for m in melds for c in m)
    if used - Counter(case.hand.cards) or len(case.hand.cards) - sum(used.values()) < KEEP:
        return False
    if not melds or not all(is_legal_meld(written, m) for m in melds):
        return False
    table = case.state.melds[case.state.team_of(case.state.current_player)]
    groups = [name_of(m)[1] for m in list(table) + list(melds) if name_of(m)[0] == "G"]
    if len(groups) != len(set(groups)):   # rule-decisions: "A team holds at most one meld of a rank"
        return False
    minimum = written.minimum(case.state.score_of(case.state.current_player))
    return bool(table) or sum(VALUE[c.rank] for c in used.elements()) >= minimum


def check_apply_follows_the_rules(case: Case, rng: random.Random, samples: int = 12) -> None:
    """``apply`` accepts a legal meld or opening of any shape (docs/game-model.md: beyond the list too) and
    refuses an illegal one: below the minimum, one wild card too many, one natural card, two groups of a rank, a
    group of a rank the team has, a run with a wild card or a gap. (A take is accepted only as offered.)"""
    if case.top is not None:
        return
    candidates = [cards_for(case.hand, o.melds, rng) for o in rng.sample(case.legal, min(samples, len(case.legal)))]
    candidates += near_misses(case, rng)
    for melds in candidates:
        allowed = oracle_allows(case, melds)
        try:
            apply(case.state.clone(), Action(MELD, melds=melds))
        except IllegalMove as e:
            assert not allowed, (case.describe(), melds, e.verdict.codes)
        else:
            assert allowed, (case.describe(), melds, "accepted")


def near_misses(case: Case, rng: random.Random) -> list[tuple]:
    """Melds from the hand that break one rule each (most of them; the oracle judges them all)."""
    written = WRITTEN[case.name]
    hand = list(case.hand.cards)
    wilds = [c for c in hand if is_wild(c)]
    out = []
    for rank, count in case.hand.naturals.items():
        naturals = [c for c in hand if c.rank == rank]
        for n in range(1, count + 1):
            w = written.most_wild(n) + 1 if n >= 2 else 2   # one wild card too many; one natural card
            out.append((tuple(naturals[:n] + wilds[:w]),))
        out.append((tuple(naturals[:2]),))                    # two cards
        if count >= 4 and len(wilds) >= 2:                     # two groups of one rank
            out.append((tuple(naturals[:2] + wilds[:1]), tuple(naturals[2:4] + wilds[1:2])))
    if written.runs:
        for run in all_runs(case.hand):
            (cards,) = cards_for(case.hand, frozenset({(run, 1)}), rng)
            out += [(cards + tuple(wilds[:1]),), (cards[:1] + cards[2:],)]   # a wild card in it; a gap
            if len(run[2]) == LONGEST_RUN:   # one card more than a samba
                beyond = [c for c in hand if c.suit == run[1] and c.rank in RUN_ORDER
                          and RUN_ORDER[c.rank] in (run[2][0] - 1, run[2][-1] + 1)]
                out += [(cards + (c,),) for c in beyond[:1]]
    if not opened(case):   # legal melds together below the minimum
        out += [cards_for(case.hand, o.melds, rng) for o in openings(written, case.hand, 0, keep=KEEP)[:20]]
    return out


def is_miss(case: Case) -> bool:
    """The rules allow an opening, a take or a new meld here, and the game offers none."""
    return bool(case.legal) and not case.offered


SWEEP = 150   # random positions per preset (a third each: opening by melding, by taking the pile, new meld)


@pytest.mark.parametrize("name", list(PRESETS))
def test_openings_takes_and_new_melds_offered_are_every_legal_one(name):
    rng = random.Random(name)
    cases = random_cases(name, 1, SWEEP)
    missed = []
    for case in cases:
        check_offered_is_the_documented_part_of_the_legal(case)
        check_apply_follows_the_rules(case, rng)
        if is_miss(case):
            missed.append(f"known({case.describe()!r}, {what_is_missed(case)[:20]!r}...)")
    assert not missed, "the rules allow these, the game offers none: " + "; ".join(missed)
    # the sweep reached the interesting cases: openings and takes offered, legal melds beyond the list, runs
    assert sum(1 for c in cases if c.offered) >= SWEEP // 4
    assert sum(1 for c in cases if any(not o.whole for o in c.legal)) >= SWEEP // 10
    assert sum(1 for c in cases if c.top is not None and c.offered) >= 3
    if PRESETS[name].sequences:
        assert sum(1 for c in cases for a in c.offered for m in a.melds if name_of(m)[0] == "R") >= 3


# --- what the rules allow and the game did not offer before issue 19 -------------------------------------------------

def known(text: str, reason: str):
    """A position where, before issue 19, the rules allowed an opening, a take or a new meld and the game
    offered none (``reason``: what the legal moves need)."""
    return pytest.param(text, reason)


#: Written as :meth:`Case.describe` writes a position (the random sweep's misses are looked up here).
KNOWN_MISSES = [
    # issue 19's example: 5D 5S 2C | 7H 7D 7S 7S | 9H 9C 2H reaches 90 and keeps 5H KC
    known("classic, score 1500: hand 2C 2H 5D 5H 5S 7D 7H 7S 7S 9C 9H KC", PART_OF_A_RANK),
    # issue 19's samba take: JD JC JD | KC KD KS | 8D 9D 10D makes 90, but the longest diamond run takes a jack
    known("samba, score 6390, pile 2H JD: hand 10D 10H 3C 4C 5H 5S 6H 8D 9D JC JD KC KD KS QC", PART_OF_A_RUN),
    # found by the random sweep above
    known("classic-2p, score 1500, pile KD: hand 2D 3S 6C 6C 6D JC JD JS KD KH", PART_OF_A_RANK),
    known("classic-2p, score 3000: hand 10H 10S 2C 2D 2H 5C 5D 5S 5S JK", PART_OF_A_RANK),
    known("classic-2p, score 3000: hand 10C 10H 10H 10S 5C 5H 5H 5S 9C 9D JC JK", PART_OF_A_RANK),
    known("classic-3p, score -40, pile JD: hand 10D JC JC JH JH", PART_OF_A_RANK),
    known("classic-6p, score 3000, pile QS: hand AC AD AH AH AS AS JK QC QH", PART_OF_A_RANK),
    known("classic-6p, score 1500: hand 2C 4C 4D 4D 4H 4H KC KD KD KH KS KS", PART_OF_A_RANK),
    known("classic-6p, score 1500: hand 10C 10D 10D 10H 10S 10S 2S JC JD JH JH", PART_OF_A_RANK),
    known("classic-6p, score 3000, pile 9H 5H: hand 2H 4C 4C 4D 4D 5H 5S 9C 9D JK", PART_OF_A_RANK),
    known("classic-6p, score 7000, pile 9D 9C: hand 5D 5H 5S 5S 8H 8S 9H 9S 9S JK", PART_OF_A_RANK),
    known("danish, score 3000, pile 9D 9S: hand 10C 10S 2C 2D 2H 4C 4C 4D 4H 9D 9H", PART_OF_A_RANK),
    known("hoyle, score 3000, pile KS: hand 2H 4S JK KC KC KH QH QS", PART_OF_A_RANK),
    known("hoyle, score 0: hand 10D 10D 10H 10S 3C 4D 4H 4S 4S", PART_OF_A_RANK),
    known("samba, score 3000: hand 10S 2C 4C 4S 4S 6S 7S 8S 8S 9S KH KH", PART_OF_A_RUN),
    known("samba, score 3000, table 9H 9H 9H: hand 4H 5H 6H 7H JK", PART_OF_A_RUN),
    known("samba, score 3000, table 10S 10S 10D JK | AD AS AS AH: hand 10D 2D 8D 9D JD", PART_OF_A_RUN),
]

#: Positions where the game offers what the rules allow (the same claim, holding): the test is no tautology; and
#: edges the sweep seldom reaches: a run longer than a samba, four wild cards.
OFFERED = [
    "classic, score 1500: hand 2C 2H 5D 5S 7D 7H 7S 7S 9C 9H KC QD",   # the first known miss, one 5 less
    "samba, score 0, pile 8C JD: hand 8D 9D 10D JC JS KC KD",
    "samba, score 0: hand 10H 4H 5H 6H 7H 8H 9H JH KC KD",              # 5H to JH, the highest seven
    "samba, score 0, table KD KH KS: hand 10H 4H 5H 6H 7H 8H 9H JH QC QD",
    "classic, score 0, table KD KH KS: hand 2C 2D 2H 5H 5S 9C 9D JK",
    "hoyle, score 0: hand 2C 2D 2H 5D 5H 5S 9C 9D JK",
    "danish, score 0: hand 2C 2D 2H 5C 5D 5H 5S 9C 9D JK",
]


def parse_case(text: str) -> Case:
    """A position written as :meth:`Case.describe` writes it."""
    head, _, hand = text.partition(": hand ")
    parts = [p.strip() for p in head.split(",")]
    name, score = parts[0], int(parts[1].removeprefix("score "))
    pile = next((parse_cards(p.removeprefix("pile ")) for p in parts[2:] if p.startswith("pile ")), None)
    table = next((p.removeprefix("table ") for p in parts[2:] if p.startswith("table ")), "")
    melds = [parse_cards(m) for m in table.split("|") if m.strip()]
    if pile is not None:
        return take_case(name, parse_cards(hand), list(pile), score=score)
    return meld_case(name, parse_cards(hand), melds=melds, score=score)


@pytest.mark.parametrize("text, missed", KNOWN_MISSES + [(text, None) for text in OFFERED])
def test_what_the_rules_allow_the_game_offers(text, missed):
    case = parse_case(text)
    assert case.legal, "the rules allow no opening, take or meld here: not an example"
    check_offered_is_the_documented_part_of_the_legal(case)
    check_apply_follows_the_rules(case, random.Random(text), samples=40)
    if missed is not None:   # what the game missed before issue 19, as the list says: the legal moves need it
        assert what_is_missed(case) == missed
        assert not any(o.whole for o in case.legal), "the whole shapes alone would have offered one"
    check_offered_when_allowed(case)


def test_a_refused_take_always_names_its_reason(monkeypatch):
    """Issue 19: in samba, team unopened, score 6390 (minimum 90, rule-decisions.md line 116), pile 2H JD (frozen,
    line 120), the take with JD JC JD | KC KD KS | 8D 9D 10D = 90 is legal (a natural pair with the top card,
    lines 117-119; a sequence of three, 004 line 35) and offered; a take written another way is refused with
    what is wrong and the ways open, never "not this way:" followed by nothing."""
    from canasta_tutor.game import moves

    state = position("samba", parse_cards("10D 10H 3C 4C 5H 5S 6H 8D 9D JC JD KC KD KS QC"), score=6390,
                     pile=parse_cards("2H JD"))
    takes = [a for a in legal_actions(state) if a.kind == TAKE_PILE]
    assert [sorted(names(a.melds)) for a in takes] == [sorted(names(parse_cards(m) for m in
                                                                    ("JD JC JD", "KC KD KS", "8D 9D 10D")))]
    for wrong in (Action(TAKE_PILE, cards=parse_cards("JC JD")),
                  Action(TAKE_PILE, cards=parse_cards("JC JD"), melds=(parse_cards("JD JC JD"),))):
        with pytest.raises(IllegalMove) as e:
            apply(state.clone(), wrong)
        text = e.value.verdict.reasons[0].text
        head, _, why = text.partition("not this way:")
        assert head and len(why.strip()) > 20 and "J♦ J♣ J♦" in why, text
    # no take offered although the engine allows one: the refusal still says why
    monkeypatch.setattr(moves, "take_actions", lambda state: [])
    with pytest.raises(IllegalMove) as e:
        apply(state.clone(), Action(TAKE_PILE, cards=parse_cards("JC JD")))
    text = e.value.verdict.reasons[0].text
    assert not text.rstrip().endswith(":") and "go out" in text, text
