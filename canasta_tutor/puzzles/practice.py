"""Which puzzle comes next: weakest topic first, missed puzzles brought back later.

The rule, in order:

1. **Review.** A puzzle the learner missed comes back once ``REVIEW_GAP[n]``
   other puzzles have been answered since (``n`` = how often it was missed in
   a row: after 3 puzzles the first time, 6 the second, 12 from then on).
   Answering it right takes it out of review; missing it again starts a
   longer wait. This is a small Leitner schedule: mistakes return soon, then
   less often, so practice goes where it is needed without nagging.
2. **Weakest topic.** Otherwise the learner gets an unanswered puzzle from the
   topic with the lowest accuracy, counted with one imagined right and one
   imagined wrong answer (``(right + 1) / (answers + 2)``) so that a topic
   never tried counts as 50 %, and within it the easiest one first.
3. **Endless.** When every chosen hand-written puzzle has been answered, the
   generator makes a fresh puzzle of the weakest topic's kind, one level
   harder for each round already done in that topic (up to 5).

A learner may narrow the choice to some topics and difficulties, or replay
only the puzzles they have missed (and not yet put right).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..engine.errors import CanastaError, clip_repr
from ..engine.i18n import NP_, pgettext
from .format import Puzzle, puzzle_from_mapping
from .generator import generate_puzzles
from .kinds import KINDS

REVIEW_GAP = (3, 6, 12)


def topic_of(puzzle: Puzzle) -> str:
    """The puzzle's topic: its own, or its kind's, or the kind's name."""
    record = KINDS.get(puzzle.kind)
    return puzzle.topic or (record.topic if record is not None else "") or puzzle.kind


#: The topics of the project's puzzle files, each a catalog entry: a learner reads a topic in the page's language
#: (``topic_name``), while the progress store keeps the topic as the file writes it.
TOPIC_MESSAGES = {message: (context, message) for context, message in (
    NP_("topic", "canastas"),
    NP_("topic", "card points"),
    NP_("topic", "danish going out"),
    NP_("topic", "danish melds"),
    NP_("topic", "danish opening"),
    NP_("topic", "danish scoring"),
    NP_("topic", "danish taking the pile"),
    NP_("topic", "freezing"),
    NP_("topic", "going out"),
    NP_("topic", "melds"),
    NP_("topic", "opening minimum"),
    NP_("topic", "samba freezing"),
    NP_("topic", "samba going out"),
    NP_("topic", "samba melds"),
    NP_("topic", "samba opening"),
    NP_("topic", "samba scoring"),
    NP_("topic", "samba taking the pile"),
    NP_("topic", "scoring"),
    NP_("topic", "taking the pile"),
    NP_("topic", "two players"),
)}


def topic_name(topic: str) -> str:
    """A topic as a learner or a teacher reads it (the practice room, the dashboard, the heat map, the exports: one
    function, so one translation): the catalog's translation of a known topic, any other as it is written."""
    return pgettext(*TOPIC_MESSAGES[topic]) if topic in TOPIC_MESSAGES else topic


def set_of(puzzle: Puzzle) -> str:
    return puzzle.set_title or puzzle.file or "puzzles"


@dataclass
class Practice:
    """A learner's practice session over some puzzles (the attempts so far may come from a store)."""

    puzzles: list[Puzzle]
    history: list = field(default_factory=list)  # Attempt-like: puzzle_set, puzzle_id, topic, correct
    topics: Iterable[str] | None = None
    difficulties: Iterable[int] | None = None
    missed_only: bool = False
    endless: bool = True
    rules: object = None
    seed: int | str = 0
    ordered: bool = False  # take fresh puzzles in the given order (a lesson's puzzles)

    def __post_init__(self):
        if not isinstance(self.puzzles, (list, tuple)) or not all(isinstance(p, Puzzle) for p in self.puzzles):
            raise CanastaError(f"puzzles must be a list of Puzzle objects (from load_puzzle_set), not "
                               f"{clip_repr(self.puzzles)}")
        self.puzzles = list(self.puzzles)
        if not isinstance(self.history, list) or not all(
                all(hasattr(a, k) for k in ("puzzle_set", "puzzle_id", "topic", "correct")) for a in self.history):
            raise CanastaError("history must be a list of attempts (each with puzzle_set, puzzle_id, topic and "
                               f"correct), not {clip_repr(self.history)}")
        for name in ("topics", "difficulties"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, (str, bytes)) or not hasattr(value, "__iter__")):
                raise CanastaError(f"{name} must be a list, not {clip_repr(value)}")
        self._generated = itertools.count(1)
        self.skipped: list[tuple[str, str]] = []
        self.topics = set(self.topics) if self.topics else None
        self.difficulties = set(self.difficulties) if self.difficulties else None

    # --- bookkeeping ---------------------------------------------------------------
    def note(self, attempt) -> None:
        """Record an attempt (anything with puzzle_set, puzzle_id, topic and correct)."""
        self.history.append(attempt)

    def _key(self, puzzle: Puzzle) -> tuple[str, str]:
        return (set_of(puzzle), puzzle.id)

    def candidates(self) -> list[Puzzle]:
        out = []
        for p in self.puzzles:
            if self.topics is not None and topic_of(p) not in self.topics:
                continue
            if self.difficulties is not None and p.difficulty not in self.difficulties:
                continue
            out.append(p)
        if self.missed_only:
            missed = self.missed()
            out = [p for p in out if self._key(p) in missed]
        return out

    def missed(self) -> set[tuple[str, str]]:
        """Puzzles whose latest attempt was wrong."""
        last: dict[tuple[str, str], bool] = {}
        for a in self.history:
            last[(a.puzzle_set, a.puzzle_id)] = a.correct
        return {k for k, ok in last.items() if not ok}

    def accuracy(self) -> dict[str, float]:
        """Smoothed accuracy per topic: (right + 1) / (answers + 2)."""
        right: dict[str, int] = {}
        total: dict[str, int] = {}
        for a in self.history:
            total[a.topic] = total.get(a.topic, 0) + 1
            right[a.topic] = right.get(a.topic, 0) + (1 if a.correct else 0)
        return {t: (right[t] + 1) / (total[t] + 2) for t in total}

    def due_reviews(self) -> list[tuple[str, str]]:
        """Missed puzzles whose waiting time is over, the longest-waiting first."""
        position: dict[tuple[str, str], int] = {}
        streak: dict[tuple[str, str], int] = {}
        for i, a in enumerate(self.history):
            key = (a.puzzle_set, a.puzzle_id)
            position[key] = i
            streak[key] = streak.get(key, 0) + 1 if not a.correct else 0
        now = len(self.history)
        due = []
        for key, misses in streak.items():
            if misses == 0:
                continue
            gap = REVIEW_GAP[min(misses, len(REVIEW_GAP)) - 1]
            if now - 1 - position[key] >= gap:
                due.append((position[key], key))
        return [k for _, k in sorted(due)]

    def skip(self, puzzle: Puzzle) -> None:
        """The learner passed on ``puzzle`` without answering: offer it again only when nothing else is left."""
        key = self._key(puzzle)
        if key in self.skipped:
            self.skipped.remove(key)
        self.skipped.append(key)

    # --- the choice ----------------------------------------------------------------
    def next(self) -> Puzzle | None:
        """The next puzzle, or ``None`` when there is nothing left to do."""
        pool = self.candidates()
        by_key = {self._key(p): p for p in pool}
        for key in self.due_reviews():
            if key in by_key:
                return by_key[key]
        if self.missed_only:
            # every candidate is a missed puzzle: the one left alone longest comes first
            last_seen = {(a.puzzle_set, a.puzzle_id): i for i, a in enumerate(self.history)}
            return min(pool, key=lambda p: last_seen.get(self._key(p), -1)) if pool else None
        answered = {(a.puzzle_set, a.puzzle_id) for a in self.history}
        fresh = [p for p in pool if self._key(p) not in answered]
        acc = self.accuracy()
        skipped = {k: i for i, k in enumerate(self.skipped)}
        if fresh:
            # skipped puzzles go to the back of the queue, the most recently skipped last
            if self.ordered:
                return min(fresh, key=lambda p: skipped.get(self._key(p), -1))
            return min(fresh, key=lambda p: (skipped.get(self._key(p), -1), acc.get(topic_of(p), 0.5),
                                             p.difficulty))
        if not self.endless or not pool:
            return None
        return self._generate(pool, acc)

    def _generate(self, pool: list[Puzzle], acc: dict[str, float]) -> Puzzle:
        weakest = min(pool, key=lambda p: (acc.get(topic_of(p), 0.5), p.difficulty))
        rounds = sum(1 for a in self.history if a.topic == topic_of(weakest))
        per_round = max(1, sum(1 for p in pool if topic_of(p) == topic_of(weakest)))
        difficulty = min(5, weakest.difficulty + rounds // per_round)
        n = next(self._generated)
        raw = next(generate_puzzles(weakest.kind, count=1, seed=f"{self.seed}-{n}", difficulty=difficulty,
                                    rules=weakest.rules))
        raw["id"] = f"gen-{n:04d}"
        raw["topic"] = topic_of(weakest)
        return puzzle_from_mapping(raw, rules=weakest.rules, set_title="Generated puzzles")
