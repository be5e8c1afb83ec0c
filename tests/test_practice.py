from canasta_tutor.classroom.progress import Attempt
from canasta_tutor.puzzles.format import parse_puzzle_set
from canasta_tutor.puzzles.practice import REVIEW_GAP, Practice, topic_of

SET = parse_puzzle_set("""
title: mixed
puzzles:
  - {id: a1, kind: card-points, topic: points, difficulty: 1, cards: KH, expect: {points: 10}}
  - {id: a2, kind: card-points, topic: points, difficulty: 2, cards: AH, expect: {points: 20}}
  - {id: a3, kind: card-points, topic: points, difficulty: 3, cards: JK, expect: {points: 50}}
  - {id: b1, kind: meld, topic: melds, difficulty: 1, cards: KH KS KD, expect: {valid: true}}
  - {id: b2, kind: meld, topic: melds, difficulty: 2, cards: KH KS, expect: {valid: false}}
  - {id: b3, kind: meld, topic: melds, difficulty: 3, cards: 7H 7S 2C, expect: {valid: true}}
""", "mixed.yaml").puzzles


def play(practice, outcome, n):
    seen = []
    for _ in range(n):
        p = practice.next()
        if p is None:
            break
        seen.append(p.id)
        practice.note(Attempt("ana", "mixed", p.id, p.kind, topic_of(p), p.difficulty, outcome(p), 1.0))
    return seen


def test_weakest_topic_first_and_easiest_first():
    practice = Practice(SET, endless=False)
    practice.note(Attempt("ana", "mixed", "a1", "card-points", "points", 1, True, 1.0))
    practice.note(Attempt("ana", "mixed", "b1", "meld", "melds", 1, False, 1.0))
    # melds is weaker (0/1) than points (1/1): its easiest unanswered puzzle comes next... unless b1 is due
    assert practice.next().id == "b2"


def test_missed_puzzles_come_back_after_the_gap():
    practice = Practice(SET, endless=False)
    seen = play(practice, lambda p: p.id != "a1", 6)
    first = seen.index("a1")
    assert seen.count("a1") == 2
    assert seen.index("a1", first + 1) - first - 1 == REVIEW_GAP[0]


def test_right_on_review_leaves_the_queue():
    practice = Practice(SET, endless=False)
    missed_once = set()

    def outcome(p):
        if p.id == "b1" and "b1" not in missed_once:
            missed_once.add("b1")
            return False
        return True

    seen = play(practice, outcome, 20)
    assert seen.count("b1") == 2 and len(seen) == 7


def test_filters_topics_and_difficulty():
    practice = Practice(SET, topics={"melds"}, difficulties={2, 3}, endless=False)
    assert play(practice, lambda p: True, 10) == ["b2", "b3"]


def test_missed_only():
    history = [Attempt("ana", "mixed", "a2", "card-points", "points", 2, False, 1.0),
               Attempt("ana", "mixed", "b3", "meld", "melds", 3, False, 1.0),
               Attempt("ana", "mixed", "a1", "card-points", "points", 1, True, 1.0)]
    practice = Practice(SET, history=list(history), missed_only=True)
    seen = play(practice, lambda p: True, 10)
    assert sorted(seen) == ["a2", "b3"]


def test_endless_stream_from_the_generator():
    practice = Practice(SET, seed=1)
    seen = play(practice, lambda p: True, 12)
    assert len(seen) == 12 and all(s.startswith("gen-") for s in seen[6:])
    assert len(set(seen[6:])) == 6
