"""The engine's fast paths (answers decided without sentences, reasons written when read) give exactly the
answers and sentences of the explained paths, on random situations."""

from hypothesis import given
from hypothesis import strategies as st

from canasta_tutor.cards import ALL_CARDS, Card
from canasta_tutor.melds import _explain_meld, check_meld
from canasta_tutor.rules import PRESETS, get_rules
from canasta_tutor.verdict import LazyReasons, Reason

presets = st.sampled_from(sorted(PRESETS))
# melds are mostly one rank with wild cards: weight the draw towards that, with any card now and then
_WILD = [Card("2C"), Card("2H"), Card("JK")]
ranks = st.sampled_from(["4", "7", "9", "K", "A", "3"])


@st.composite
def meld_like(draw):
    rank = draw(ranks)
    same = [c for c in ALL_CARDS if c.rank == rank]
    pool = st.one_of(st.sampled_from(same), st.sampled_from(_WILD), st.sampled_from(ALL_CARDS))
    return tuple(draw(st.lists(pool, max_size=9)))


def _fields(v):
    return (type(v), v.ok, tuple(v.reasons), v.kind, v.rank, v.canasta, v.points, v.cards)


@given(meld_like(), presets, st.booleans())
def test_check_meld_fast_path_gives_the_explained_answer(cards, preset, going_out):
    rules = get_rules(preset)
    fast = check_meld(cards, rules, going_out=going_out)
    slow = _explain_meld(cards, rules, going_out)
    assert _fields(fast) == _fields(slow)
    assert fast == slow and fast.sentence == slow.sentence


def test_lazy_reasons_are_written_once_when_first_read():
    calls = []

    def explain(x):
        calls.append(x)
        return [Reason("a", f"A {x}."), Reason("b", "B.")]

    lazy = LazyReasons(explain, 7)
    assert calls == []
    assert len(lazy) == 2 and lazy[0].text == "A 7." and calls == [7]
    assert lazy == (Reason("a", "A 7."), Reason("b", "B.")) and (Reason("z", "Z."),) + lazy == (
        Reason("z", "Z."), Reason("a", "A 7."), Reason("b", "B."))
    assert lazy[:1] == (Reason("a", "A 7."),) and lazy != () and bool(lazy) and calls == [7]
    assert not LazyReasons(tuple)
