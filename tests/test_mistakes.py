"""Learn from your mistakes (issue 20 §3): a learner's costly decision becomes a puzzle made of what they saw only,
judged by the expert's search at a fixed seed (right within MARGIN points of the best), kept in the progress store
and brought back until answered right, answered with the card table's buttons, and listed for the teacher,
costliest first."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter

import pytest

from canasta_tutor.bots.club import ClubBot
from canasta_tutor.bots.coach import CoachedHand
from canasta_tutor.bots.expert import ExpertBot
from canasta_tutor.bots.review import review_decision
from canasta_tutor.classroom.mistakes import MistakeStore
from canasta_tutor.classroom.roster import Classroom
from canasta_tutor.engine.cards import Card
from canasta_tutor.engine.errors import CanastaError
from canasta_tutor.engine.rules import get_rules
from canasta_tutor.game import DISCARD, Action, Game, apply, legal_actions, observation
from canasta_tutor.puzzles import decisions
from canasta_tutor.puzzles.decisions import judge, puzzle_from_decision, puzzle_from_json
from canasta_tutor.widgets.coach import PlayAHand
from canasta_tutor.widgets.dashboard import TeacherDashboard
from canasta_tutor.widgets.mistakes import MistakesTrainer


def _position(seed=11):
    """Classic hand ``seed`` played by the club up to the learner's (seat 0) meld phase with a wild card in hand."""
    state = Game(get_rules("classic")).new_initial_state(seed)
    club, rng = ClubBot(), random.Random(0)
    while True:
        obs = observation(state, state.current_player)
        if state.current_player == 0 and obs.phase != "draw" and len(state.history) > 12 and \
                any(c.is_wild for c in obs.hand):
            return state
        apply(state, club.choose(obs, legal_actions(state), rng)[0])


def _blunder(state):
    wild = next(c for c in observation(state, 0).hand if c.is_wild)
    return (Action(DISCARD, cards=(wild,)),)


@pytest.fixture(scope="module")
def costly():
    """A costly decision (a wild card thrown away), reviewed by a small fixed search, and its puzzle."""
    state = _position()
    d = review_decision(ExpertBot(think=None, playouts=12, seed=11), state, _blunder(state))
    assert d.costly, d
    return state, d, puzzle_from_decision(d, hand="11 (Classic Canasta)")


# --- the record -------------------------------------------------------------------------------------------------
def _swap_hidden(state):
    """The same position with hidden cards moved: a card of each other hand traded with the stock's, and two
    opponents' cards traded, wherever the cards differ."""
    s = state.clone()
    for q in range(1, len(s.hands)):
        for i, c in enumerate(s.hands[q]):
            j = next((k for k, x in enumerate(s.stock) if x != c), None)
            if j is not None:
                s.hands[q][i], s.stock[j] = s.stock[j], s.hands[q][i]
                break
    a, b = s.hands[1], s.hands[3]
    i, j = next((i, j) for i, x in enumerate(a) for j, y in enumerate(b) if x != y)
    a[i], b[j] = b[j], a[i]
    return s


def test_the_record_holds_only_what_the_learner_saw(costly):
    state, d, puzzle = costly
    twin = _swap_hidden(state)
    assert [Counter(h) for h in twin.hands[1:]] != [Counter(h) for h in state.hands[1:]]
    other = puzzle_from_decision(dataclasses.replace(d, state=twin, obs=observation(twin, 0)),
                                 hand="11 (Classic Canasta)")
    assert other.to_json() == puzzle.to_json()
    # every card in the record is one the learner can see: their hand, the pile, the melds, the red threes
    obs = observation(state, 0)
    visible = Counter(obs.hand) + Counter(obs.pile) + Counter(c for t in obs.table for m in t for c in m) + \
        Counter(c for r in obs.table_red_threes for c in r)
    record = json.loads(puzzle.to_json())
    codes = {c for key, value in record["obs"].items() if key != "rules" for c in _codes(value)}
    codes |= {c for key in ("legal", "best", "yours") for c in _codes(record[key])}
    assert codes <= {c.code for c in visible}, codes - {c.code for c in visible}   # (the fields repeat the melds)
    assert record["obs"]["hand_sizes"] == [len(h) for h in state.hands]      # the other hands as counts
    assert record["obs"]["stock_left"] == len(state.stock)                    # the stock as a count


def _codes(value):
    """Every card code in a JSON value (a text that is a card's code)."""
    if isinstance(value, list):
        return [c for v in value for c in _codes(v)]
    if isinstance(value, str):
        try:
            return [Card(value).code]
        except CanastaError:
            return []
    return []


def test_the_record_comes_back_from_json_whole_and_a_bad_one_says_what_is_wrong(costly):
    _state, _d, puzzle = costly
    again = puzzle_from_json(puzzle.to_json())
    assert again == puzzle and again.legal and again.best and again.yours
    for bad, said in (("{", "not JSON"), ("[]", "not a mapping"), ('{"version": 9}', "version 9"),
                      ('{"version": 1}', "no 'obs'")):
        with pytest.raises(CanastaError, match=said):
            puzzle_from_json(bad)


# --- the judge --------------------------------------------------------------------------------------------------
def _search(puzzle, plan):
    """The judge's search written out: the expert at the fixed seed and deals, the plan among its plans."""
    expert = ExpertBot(think=None, playouts=decisions.JUDGE_PLAYOUTS, seed=decisions.JUDGE_SEED)
    estimates = expert.evaluate(puzzle.obs, list(puzzle.legal), also=[tuple(plan)])
    best = expert.pick(estimates).plan
    return best, expert.difference(best, tuple(plan))[0]


def test_the_judge_is_the_searchs_at_a_fixed_seed_within_twenty_points(costly, monkeypatch):
    _state, _d, puzzle = costly
    best, loss = _search(puzzle, puzzle.yours)
    j = judge(puzzle, puzzle.yours)
    assert (j.best, j.loss) == (best, loss) and loss > 20
    assert not j and j.right is (loss <= 20)
    assert judge(puzzle, puzzle.yours) == j                       # deterministic: the same verdict every time
    assert judge(puzzle, best) and judge(puzzle, best).loss == 0  # the search's own best is right
    assert decisions.MARGIN == 20
    monkeypatch.setattr(decisions, "MARGIN", loss + 1)            # within the margin: right
    assert judge(puzzle, puzzle.yours)
    monkeypatch.setattr(decisions, "MARGIN", loss - 1)
    assert not judge(puzzle, puzzle.yours)
    said = decisions.say_judgement(puzzle, j)
    assert said.startswith("The better move:") and f"about {j.points} points more" in said


# --- kept, and back until right ---------------------------------------------------------------------------------
def test_a_costly_decision_is_kept_and_comes_back_until_answered_right(costly, db_url):
    _state, _d, puzzle = costly
    store = MistakeStore(db_url)
    assert store.save("ana", [puzzle]) == 1
    assert store.save("ana", [puzzle]) == 0                       # the same decision again: kept once
    assert [k.puzzle for k in store.due("ana")] == [puzzle] and store.due("bob") == []
    t = MistakesTrainer(learner="ana", store=store)
    assert t.puzzle == puzzle and "Your turn: what do you do?" in t.question.value
    assert t.answer(puzzle.yours) is False
    assert [k.tries for k in MistakeStore(db_url).due("ana")] == [1]   # back: still due
    t = MistakesTrainer(learner="ana", store=MistakeStore(db_url))
    assert t.puzzle == puzzle and t.answer(judge(puzzle, puzzle.yours).best) is True
    assert MistakeStore(db_url).due("ana") == []
    assert MistakesTrainer(learner="ana", store=store).puzzle is None


def test_answered_on_the_table_with_its_buttons(costly):
    _state, _d, puzzle = costly
    t = MistakesTrainer([puzzle], learner="ana")
    assert "discard" in [m["kind"] for m in t.table.moves]
    wild = puzzle.yours[0].cards[0]
    t.select(wild.code)
    t.table.press("discard")                                     # the table's own button
    assert t.judgement is not None and not t.judgement
    assert "The better move:" in t.feedback.value and t.show_button.layout.display is None
    t.show_me()
    assert len(t.table.frames) >= 2                              # the better move, replayed on the table
    t.restart()
    for a in judge(puzzle, puzzle.yours).best:
        if a.target is not None:
            t.table.target = a.target
        t.select(*[c.code for c in a.cards] or [c.code for m in a.melds for c in m])
        t.table.press(a.kind)
    assert t.judgement and "Right:" in t.feedback.value


def test_after_the_hand_the_costly_decisions_are_kept_for_the_learner(tmp_path):
    path = str(tmp_path / "p.sqlite3")
    w = PlayAHand(learner="ana", store=path)
    w.hand = CoachedHand("classic", 3, level="club", coach="expert", think=None, playouts=6)
    w.update()
    undone = False
    while not w.hand.over:
        kinds = w.shown_moves
        if "draw" in kinds:
            w.press("draw")
            continue
        hand = w.hand.observation().hand
        worst = next((c for c in hand if c.is_wild), hand[0])   # throws wild cards away
        w.select(worst.code)
        w.press("discard")
        if w.hand.mistakes and not undone:                       # an undone turn's decisions are not kept
            count = len(w.hand.mistakes)
            w.undo()
            assert len(w.hand.mistakes) < count
            undone = True
    assert w.hand.mistakes and undone
    kept = MistakeStore(path).due("ana")
    assert len(kept) == len(w.hand.mistakes)
    assert {k.puzzle.hand for k in kept} == {"3 (Classic Canasta)"}
    assert sorted(k.puzzle.loss for k in kept) == sorted(d.loss for d in w.hand.mistakes)
    assert "now" in w.feedback.value and "puzzle" in w.feedback.value


# --- the teacher ------------------------------------------------------------------------------------------------
def test_the_teachers_dashboard_lists_each_learners_costliest_decisions_first(costly, db_url):
    _state, _d, puzzle = costly
    room = Classroom(db_url)
    ana = room.join("Ana").learner["learner_id"]
    bob = room.join("Bob").learner["learner_id"]
    store = MistakeStore(room.store)
    store.save("Ana", [dataclasses.replace(puzzle, loss=60.0, move=1), dataclasses.replace(puzzle, loss=240.0, move=2)],
               learner_id=ana)
    store.save("Bob", [dataclasses.replace(puzzle, loss=120.0, move=3)], learner_id=bob)
    d = TeacherDashboard(classroom=room, refresh=0, teacher=True, join_urls=[])
    table = d.decisions.value
    assert "Costliest decisions in played hands" in " ".join(getattr(c, "value", "") for c in d.children)
    rows = table.split("<tr>")[2:]
    assert [("Ana" in r, "Bob" in r) for r in rows] == [(True, False), (False, True), (True, False)]
    assert [int(r.split("<td>")[5].split("<")[0]) for r in rows] == [240, 120, 60]
    assert all("11 (Classic Canasta)" in r and "Discard" in r for r in rows)


def test_the_practice_room_opens_the_learners_decision_puzzles(costly, tmp_path):
    from canasta_tutor.classroom.progress import ProgressStore
    from canasta_tutor.widgets.trainer import PracticeRoom

    _state, _d, puzzle = costly
    store = ProgressStore(str(tmp_path / "p.sqlite3"))
    MistakeStore(store).save("ana", [puzzle])
    room = PracticeRoom(learner="ana", store=store)
    room.mistakes_button.click()
    assert isinstance(room.trainer, MistakesTrainer) and room.trainer.puzzle == puzzle


def test_a_database_of_the_migration_before_gets_the_table_and_keeps_its_rows(costly, db_url):
    import sqlalchemy as sa

    from canasta_tutor.classroom import db
    from canasta_tutor.classroom.progress import ProgressStore

    _state, _d, puzzle = costly
    store = ProgressStore(db_url)
    store.record(learner="ana", puzzle_set="S", puzzle_id="m-1", kind="meld", topic="melds", difficulty=1,
                 answer={}, correct=True, seconds=1.0)
    with db.begin(db.target(db_url), write=True) as conn:      # the database as migration 0004 left it
        db.decision_puzzles.drop(conn)
        conn.execute(sa.text("UPDATE alembic_version SET version_num = '0004'"))
    db.forget(db.target(db_url))
    assert MistakeStore(db_url).save("ana", [puzzle]) == 1
    assert [k.puzzle for k in MistakeStore(db_url).due("ana")] == [puzzle]
    assert [a.puzzle_id for a in ProgressStore(db_url).history("ana")] == ["m-1"]
