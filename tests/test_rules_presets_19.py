"""Issue 19, section 2: rules of the less common presets, one test (or a few) per bullet.

Each test quotes the source line it follows (the rule texts of ``rules-sources/`` by number and line, and
``rule-decisions.md``); the quotes are written here, the tests read nothing outside the repository.
"""

from __future__ import annotations

from collections import Counter

import pytest

from canasta_tutor.cli import main
from canasta_tutor.engine.cards import Card, parse_cards
from canasta_tutor.engine.errors import RulesError
from canasta_tutor.engine.numbers import digits_written
from canasta_tutor.engine.rules import PRESETS, get_rules
from canasta_tutor.game import (
    DISCARD,
    DRAW,
    END,
    GO_OUT,
    MELD,
    TAKE_PILE,
    Action,
    Game,
    IllegalMove,
    apply,
    legal_actions,
)
from canasta_tutor.puzzles.format import parse_rules

# --- building a position of a real game: the chosen cards in place, every card of the decks kept ---------------


def _everything(state) -> Counter:
    cards = Counter(state.stock) + Counter(state.pile)
    for h in state.hands:
        cards += Counter(h)
    for team in state.melds:
        for m in team:
            cards += Counter(m)
    for r in state.red_threes:
        cards += Counter(r)
    return cards


def position(name: str, *, hands: dict, melds: dict | None = None, pile: str = "", draws: str = "",
             melded=(), rest_to: int | None = None):
    """Player 0 to draw, in a dealt hand of ``name``: ``hands`` (player: cards), ``melds`` (team: melds),
    ``pile`` (bottom first), ``draws`` (the stock's top cards, in the order they are drawn), ``melded`` (the
    players who have put cards on the table this hand). The decks' other cards lie under ``draws`` in the stock
    (or, with ``rest_to``, in that player's hand: the stock is then only ``draws``); red threes not placed go to
    team 1's table."""
    state = Game(name).new_initial_state(7)
    pool = _everything(state)
    state.hands = [[] for _ in state.hands]
    state.melds = [[] for _ in state.melds]
    state.red_threes = [[] for _ in state.red_threes]
    for p, text in hands.items():
        state.hands[p] = list(parse_cards(text))
    for t, ms in (melds or {}).items():
        state.melds[t] = [tuple(parse_cards(m)) for m in ms]
    state.pile = list(parse_cards(pile))
    top = list(reversed(parse_cards(draws)))   # the stock's top is its last card
    used = Counter(c for h in state.hands for c in h) + Counter(state.pile) + Counter(top) + \
        Counter(c for ms in state.melds for m in ms for c in m)
    assert not used - pool, "the position uses more cards than the decks hold"
    rest = sorted((pool - used).elements(), key=lambda c: c.code)
    state.red_threes[1] = [c for c in rest if c.is_red_three]
    rest = [c for c in rest if not c.is_red_three]
    if rest_to is None:
        state.stock = rest + top
    else:
        state.hands[rest_to] += rest
        state.stock = top
    state.melded = [p in melded for p in range(len(state.hands))]
    state.current_player, state.phase = 0, "draw"
    state.turn_opened = bool(state.melds[0])
    state._legal = state._legal_set = state._results = None
    return state


def only(actions, kind):
    found = [a for a in actions if a.kind == kind]
    assert len(found) == 1, [a.to_text() for a in actions]
    return found[0]


def item(sheet, label):
    return next((i.points for i in sheet.items if i.label == label), None)


# --- 1. Going out concealed is the player's, not the team's ----------------------------------------------------
# rule-decisions.md (classic): "Going out concealed is the player's, not the team's, in every preset: that player
# lays down his whole hand in one turn (with or without a final discard), having melded nothing himself before in
# the hand, and the melds he makes that turn include a complete canasta; what his partner melded earlier does not
# matter" (000 "als je in één beurt al je kaarten op tafel kunt leggen"; 002 "hele hand in één beurt, met canasta";
# 004 "zonder eerdere meldingen van de speler").

def test_samba_a_player_whose_partner_melded_goes_out_concealed_for_300():
    """004 line 52: "Verborgen uitkomen (de hele hand in één beurt melden zonder eerdere meldingen van de speler en
    zonder de stapel op te pakken) levert een bonus van 200 punten op bovenop de standaard uitkomstbonus van 100
    punten." Issue 19: `5H 5S 5D | 9C 9D 9S`, discard `8C`, pile not taken: 300, not 100."""
    kings, queens = "KH KS KD KC KH KS KD", "QH QS QD QC QH QS QD"
    state = position("samba", hands={0: "5H 5S 5D 9C 9D", 2: "4C 4S"}, melds={0: [kings, queens]},
                     pile="6D", draws="9S 8C", melded=(2,))
    apply(state, Action(DRAW))
    out = only(legal_actions(state), GO_OUT)
    assert sorted(map(len, out.melds)) == [3, 3] and out.discard == Card("8C")
    apply(state, out)
    assert state.went_out == (0, True)
    sheet = state.hand_result()[0]
    assert item(sheet, "Going out concealed") == 300 and item(sheet, "Going out") is None
    # 70 + 70 + 15 + 30 melded, two natural canastas 500 each, 300 for going out concealed, partner's 4C 4S left
    assert sheet.total == 70 + 70 + 15 + 30 + 2 * 500 + 300 - 10


def test_classic_a_player_whose_partner_melded_completes_a_canasta_going_out_concealed_for_200():
    """002 line 55: "Verborgen uitgaan (hele hand in één beurt, met canasta) | 200 in totaal"; 000 line 23: "als je
    in één beurt al je kaarten op tafel kunt leggen ... Dat is 200 punten waard". Issue 19: completing
    `QC QD QH QC 2C 2H 2S` in the going-out turn: 200, not 100."""
    state = position("classic", hands={0: "QC QD QH QC 2C 2H 9D", 2: "4C 4S"}, melds={0: ["KH KS KD"]},
                     pile="6D", draws="2S", melded=(2,))
    apply(state, Action(DRAW))
    out = only(legal_actions(state), GO_OUT)
    apply(state, out)
    assert state.went_out == (0, True)
    sheet = state.hand_result()[0]
    assert item(sheet, "Going out concealed") == 200 and item(sheet, "Going out") is None
    # KKK 30, QQQQ 40 and three twos 60; a mixed canasta 300; going out concealed 200; 4C 4S left: -10
    assert sheet.total == 30 + 40 + 60 + 300 + 200 - 10


def test_a_player_who_melded_before_in_the_hand_does_not_go_out_concealed():
    """The same hand, but the player himself laid cards down in an earlier turn (004 "zonder eerdere meldingen van
    de speler"): going out is worth 100."""
    for name, hand, draws in (("classic", "QC QD QH QC 2C 2H 9D", "2S"), ("samba", "5H 5S 5D 9C 9D", "9S 8C")):
        melds = ["KH KS KD"] if name == "classic" else ["KH KS KD KC KH KS KD", "QH QS QD QC QH QS QD"]
        state = position(name, hands={0: hand, 2: "4C 4S"}, melds={0: melds}, pile="6D", draws=draws,
                         melded=(0, 2))
        apply(state, Action(DRAW))
        apply(state, only(legal_actions(state), GO_OUT))
        assert state.went_out == (0, False), name
        assert item(state.hand_result()[0], "Going out") == 100, name


def test_classic_going_out_in_one_turn_without_a_canasta_of_ones_own_is_not_concealed_but_samba_is():
    """rule-decisions.md: in classic "the melds he makes that turn include a complete canasta" (002 "met canasta");
    004 asks only "de hele hand in één beurt melden zonder eerdere meldingen van de speler en zonder de stapel op
    te pakken" (``concealed_needs_canasta`` off in samba)."""
    assert get_rules("classic").concealed_needs_canasta and not get_rules("samba").concealed_needs_canasta
    kings = "KH KS KD KC KH KS KD"
    state = position("classic", hands={0: "5H 5S 5D", 2: "4C 4S"}, melds={0: [kings]}, pile="6D", draws="8C",
                     melded=(2,))
    apply(state, Action(DRAW))
    apply(state, only(legal_actions(state), GO_OUT))
    assert state.went_out == (0, False)
    assert item(state.hand_result()[0], "Going out") == 100


def test_samba_going_out_in_the_turn_the_pile_was_taken_is_not_concealed():
    """004 line 52: "... en zonder de stapel op te pakken" (``concealed_without_pile``); classic has no such
    condition (002 line 55)."""
    assert get_rules("samba").concealed_without_pile and not get_rules("classic").concealed_without_pile
    kings, queens = "KH KS KD KC KH KS KD", "QH QS QD QC QH QS QD"
    state = position("samba", hands={0: "5H 5S 9C 9D 9S", 2: "4C 4S"}, melds={0: [kings, queens]}, pile="8C 5D",
                     melded=(2,))
    apply(state, only(legal_actions(state), TAKE_PILE))
    apply(state, only(legal_actions(state), GO_OUT))
    assert state.went_out == (0, False)


# --- 2. hoyle: the concealed canasta with the pile's top card; a black three turned up is covered -----------------

def test_hoyle_a_canasta_melded_in_one_go_from_the_hand_and_the_piles_top_card_is_a_concealed_one():
    """003 line 24: "'N 'Versteekte' canasta is 'n canasta wat in die hand van die speler gemonteer is en heeltemal
    aan die tafel gespeel word, of slegs die boonste kaart van die weggooipaal vereis ... dra 'n bonus telling van
    100 punte (so 400 vir 'n versteekte gemengde canasta en 600 vir 'n versteekte natuurlike canasta)." """
    state = position("hoyle", hands={0: "8H 8S 8D 8C 8H 8S KC KD KH 4C 5C", 2: "4S 4D"}, pile="5D 8D")
    take = next(a for a in legal_actions(state) if a.kind == TAKE_PILE and len(a.melds) == 1)
    assert len(take.melds[0]) == 7 and take.melds[0][0] == Card("8D")   # the top card and six eights from hand
    apply(state, take)
    assert state.concealed_canastas[0] == 1
    sheet = state.side_sheet((0, 2))
    # the natural canasta of eights: 500 and the concealed 100, so 600 as 003 says
    assert item(sheet, "Canasta bonuses") == 600
    # classic: 002 "Hand-canasta (huisregel) ... Dit hoort niet bij het klassieke spel": no such bonus
    state = position("classic", hands={0: "8H 8S 8D 8C 8H 8S KC KD KH 4C 5C", 2: "4S 4D"}, pile="5D 8D")
    apply(state, next(a for a in legal_actions(state) if a.kind == TAKE_PILE and len(a.melds) == 1))
    assert item(state.side_sheet((0, 2)), "Canasta bonuses") == 500


def test_hoyle_a_team_that_has_opened_takes_the_pile_melding_a_canasta_in_one_go():
    """003 line 24 again ("of slegs die boonste kaart van die weggooipaal vereis"), for a team that has opened: the
    game offers the take with a pair and with more eights shown (issue 19), all six too, melded at once with the top
    card, and that canasta is a concealed one. A take showing a card that does not fit is refused."""
    hand = "8H 8S 8D 8C 8H 8S KC KD 4C 5C"
    state = position("hoyle", hands={0: hand, 2: "4S 4D"}, melds={0: ["9H 9S 9D"]}, pile="5D 8D")
    # issue 19: every take apply accepts is offered, the six eights shown at once too
    takes = [a for a in legal_actions(state) if a.kind == TAKE_PILE]
    assert [len(a.cards) for a in takes] == [2, 3, 4, 5, 6]
    assert Action(TAKE_PILE, cards=tuple(parse_cards("8H 8S 8D 8C 8H 8S"))) in takes
    bad = state.clone()
    with pytest.raises(IllegalMove):
        apply(bad, Action(TAKE_PILE, cards=tuple(parse_cards("8H 8S KC"))))
    apply(state, Action(TAKE_PILE, cards=tuple(parse_cards("8H 8S 8D 8C 8H 8S"))))
    assert tuple(parse_cards("8D 8H 8S 8D 8C 8H 8S")) in state.melds[0]
    assert state.concealed_canastas[0] == 1
    assert item(state.side_sheet((0, 2)), "Canasta bonuses") == 500 + 100


def test_hoyle_a_black_three_turned_up_is_covered_like_a_red_three_or_a_wild_card():
    """003 line 15: "As hierdie eerste gedraaide kaart 'n rooi of swart drie of 'n wildkaart is, word bykomende
    kaarte van die voorraad na die bokant van die weggooipaal oorgedra totdat die boonste kaart van die weggooipaal
    nie 'n drie of 'n wildkaart is nie." Classic keeps 002 line 22: "Is die kaart een 2, een joker of een rode 3,
    leg hem dan dwars en draai er een nieuwe kaart bovenop"."""
    hoyle, classic = Game("hoyle"), Game("classic")
    state = hoyle.new_initial_state(32)    # issue 19: this deal turned 3C up and left it on top
    assert state.pile[0] == Card("3C") and len(state.pile) >= 2
    top = state.pile[-1]
    assert top.rank != "3" and not top.is_wild
    # the same shuffle under classic: the black three stays on top, and only a draw is open
    old = classic.new_initial_state(32)
    assert old.pile == [Card("3C")] and [a.kind for a in legal_actions(old)] == [DRAW]
    for seed in range(300):
        first = hoyle.new_initial_state(seed).pile
        assert first[-1].rank != "3" and not first[-1].is_wild, seed
        # every card under the top is one that must be covered: a three or a wild card
        assert all(c.rank == "3" or c.is_wild for c in first[:-1]), seed
    assert get_rules("hoyle").black_three_upcard_covered and not get_rules("classic").black_three_upcard_covered
    assert get_rules("hoyle").source_of("black_three_upcard_covered").startswith("003_")


# --- 3. A red three drawn as the last card of the stock ends the hand ------------------------------------------
# 000 line 46: "Als de laatste kaart van de pot een rode drie is eindigt het spel. De speler die deze trekt mag nog
# sets maken of kaarten aanleggen, maar hij mag geen kaart afgooien en krijgt geen bonus voor uitgaan."

def test_a_red_three_drawn_as_the_last_card_of_the_stock_ends_the_hand_without_a_discard():
    state = position("classic", hands={0: "KH KS KD 9C 5D", 2: "4C 4S"}, melds={0: ["7H 7S 7D 7C 7H 7S 7D"]},
                     pile="6D", draws="3H", melded=(2,), rest_to=1)
    apply(state, Action(DRAW))
    assert Card("3H") in state.red_threes[0] and not state.stock
    acts = legal_actions(state)
    kinds = {a.kind for a in acts}
    assert DISCARD not in kinds and GO_OUT not in kinds and END in kinds
    assert MELD in kinds   # "mag nog sets maken of kaarten aanleggen"
    with pytest.raises(IllegalMove) as refused:
        apply(state, Action(DISCARD, cards=(Card("9C"),)))
    assert refused.value.verdict.reasons[0].code == "red-three-last"
    assert "red three" in str(refused.value) and "not discard" in str(refused.value)
    apply(state, next(a for a in acts if a.kind == MELD))   # the kings
    apply(state, Action(END))
    assert state.is_terminal() and state.went_out is None
    sheet = state.hand_result()[0]
    assert item(sheet, "Going out") is None and item(sheet, "Going out concealed") is None
    # 35 + 30 melded, a natural canasta 500, the red three 100, 9C 5D and 4C 4S left: -25
    assert sheet.total == 35 + 30 + 500 + 100 - 25


def test_a_red_three_as_the_last_card_leaves_melding_out_open_without_a_bonus():
    """000 line 46: "De speler die deze trekt mag nog sets maken of kaarten aanleggen, maar hij mag geen kaart
    afgooien en krijgt geen bonus voor uitgaan": a hand whose cards all find a place (no discard) may be melded out,
    and it is offered (a ``go_out`` without a discard); the hand ends with no going-out bonus. A way out with a
    discard is refused, and so is melding out without the canasta going out needs."""
    state = position("classic", hands={0: "KH KS KD", 2: "4C 4S"}, melds={0: ["7H 7S 7D 7C 7H 7S 7D"]},
                     pile="6D", draws="3D", melded=(2,), rest_to=1)
    apply(state, Action(DRAW))
    acts = legal_actions(state)
    assert [a.kind for a in acts][-1] == END
    out = only(acts, GO_OUT)
    assert out.discard is None and out.melds == (tuple(parse_cards("KH KS KD")),)
    with pytest.raises(IllegalMove) as refused:
        apply(state.clone(), Action(GO_OUT, melds=(tuple(parse_cards("KH KS")),), discard=Card("KD")))
    assert refused.value.verdict.reasons[0].code == "red-three-last"
    apply(state, Action(GO_OUT, melds=(tuple(parse_cards("KH KS KD")),)))   # accepted as written, too
    assert state.is_terminal() and state.went_out is None and not state.hands[0]
    sheet = state.hand_result()[0]
    assert item(sheet, "Going out") is None and item(sheet, "Going out concealed") is None
    # 35 + 30 melded, a natural canasta 500, the red three 100, the partner's 4C 4S left: -10
    assert sheet.total == 35 + 30 + 500 + 100 - 10
    # no canasta on the table: the kings may be melded only keeping cards, never melded out
    state = position("classic", hands={0: "KH KS KD", 2: "4C 4S"}, melds={0: ["7H 7S 7D"]},
                     pile="6D", draws="3D", melded=(2,), rest_to=1)
    apply(state, Action(DRAW))
    assert GO_OUT not in {a.kind for a in legal_actions(state)}
    with pytest.raises(IllegalMove) as refused:
        apply(state, Action(GO_OUT, melds=(tuple(parse_cards("KH KS KD")),)))
    assert refused.value.verdict.reasons[0].code == "cannot-meld-out"


@pytest.mark.parametrize("name", [n for n in PRESETS if get_rules(n).draw_count == 2])
def test_drawing_two_a_red_three_as_the_second_and_last_card_ends_the_hand(name):
    """Drawing two (samba, 004 "Trek op jouw beurt twee kaarten"): the red three is the stock's last card."""
    state = position(name, hands={0: "KH KS KD 9C 5D"}, pile="6D", draws="8S 3H", rest_to=1)
    apply(state, Action(DRAW))
    assert not state.stock and Card("8S") in state.hands[0]
    assert DISCARD not in {a.kind for a in legal_actions(state)}
    # a red three drawn that is not the last card is replaced, and the turn goes on as always
    state = position(name, hands={0: "KH KS KD 9C 5D"}, pile="6D", draws="3H 8S 4D", rest_to=1)
    apply(state, Action(DRAW))
    assert state.stock == [] and DISCARD in {a.kind for a in legal_actions(state)}


# --- 4. A whole number in hexadecimal: the same limit as a decimal one ------------------------------------------
# Issue 19: "A number in YAML written in hex (`difficulty: 0x` and 5,000 f's, or in `--rules '{going_out_bonus:
# 0x...}'`) crashes `check`/`solve`/`generate` ... a clear message and exit 2, like the decimal case."

HUGE = {"hex": "0x" + "f" * 5000, "decimal": "9" * 5000, "octal": "0" + "7" * 4999, "binary": "0b" + "1" * 5000}


def test_digits_are_counted_in_the_base_a_number_is_written_in():
    assert [digits_written(t) for t in ("123", "-0x1F", "0o17", "0b101", "1_000", "+0XFF")] == [3, 2, 2, 3, 4, 2]
    assert {digits_written(t) for t in HUGE.values()} == {5000}


@pytest.mark.parametrize("form", list(HUGE))
@pytest.mark.parametrize("command", ["check", "solve"])
def test_a_huge_number_in_a_puzzle_file_is_refused_with_its_line(tmp_path, capsys, command, form):
    path = tmp_path / "huge.yaml"
    path.write_text(f"title: t\npuzzles:\n  - {{id: a, kind: meld, cards: 5H 5S 5D, difficulty: {HUGE[form]}}}\n",
                    encoding="utf-8")
    assert main([command, str(path)]) == 2
    out, err = capsys.readouterr()
    assert "line 3" in out and "has more than 18 digits" in out and "Traceback" not in out + err
    assert len(out) < 400


@pytest.mark.parametrize("form", list(HUGE))
def test_a_huge_number_in_rules_is_refused_by_generate(capsys, form):
    with pytest.raises(RulesError, match="has more than 18 digits"):
        parse_rules(f"{{going_out_bonus: {HUGE[form]}}}")
    assert main(["generate", "meld", "--count", "1", "--rules", f"{{going_out_bonus: {HUGE[form]}}}"]) == 2
    _out, err = capsys.readouterr()
    assert "has more than 18 digits" in err and "Traceback" not in err and len(err) < 400
