"""The messages outside the rule checks, in every language: the game's action sentences (the game log and lesson
10 show them), a bad card, a broken puzzle file as ``canasta-tutor check --lang`` reports it, the presets' titles.

The common English words are the list of ``test_golden_languages`` (one list for every such check)."""

from __future__ import annotations

import json
import re

import pytest
from test_golden_languages import english_words, run

from canasta_tutor.engine.cards import Card, parse_card, parse_cards
from canasta_tutor.engine.errors import NotationError
from canasta_tutor.engine.i18n import use_language
from canasta_tutor.engine.rules import PRESETS
from canasta_tutor.game import KINDS, Action, Game, apply, legal_actions

TRANSLATED = ("nl", "da", "af")

# ---- Action.describe --------------------------------------------------------------------------------------------

MELDS = [parse_cards("7S 7D 7C"), parse_cards("KH KS KD")]
#: Every kind of action, and every branch of its sentence (with and without the cards shown, a target meld known
#: or only by number, a new meld, an opening of several melds, a go-out of every kind of step, an empty go-out).
ACTIONS = [
    Action("draw"),
    Action("take_pile", cards=parse_cards("9C 9D")),
    Action("take_pile"),
    Action("take_pile", target=1),
    Action("take_pile", cards=parse_cards("KC KC"), target=1),
    Action("take_pile", cards=parse_cards("7H 7S"),
           melds=(parse_cards("7H 7S 7D"), parse_cards("KH KS KD"), parse_cards("QH QS QD"))),
    Action("meld", melds=(parse_cards("7H 7S 7D"),)),
    Action("meld", melds=(parse_cards("7H 7S 7D"), parse_cards("KH KS 2D"), parse_cards("QH QS QD"))),
    Action("lay_off", cards=parse_cards("7H"), target=0),
    Action("lay_off", cards=parse_cards("7H"), target=5),
    Action("lay_off", cards=parse_cards("7H"), target=None),
    Action("swap", cards=parse_cards("KC"), target=1, wild=Card("JK")),
    Action("swap", cards=parse_cards("KC"), target=1, wild=Card("2D")),
    Action("discard", cards=parse_cards("KD")),
    Action("go_out", melds=(parse_cards("QH QS QD"),), lay_offs=((0, parse_cards("7H")),),
           swaps=((1, Card("KC"), Card("2D")),), discard=Card("4C")),
    Action("go_out", discard=Card("4C")),
    Action("go_out"),
    Action("end"),
]


def sentences(action: Action) -> list[str]:
    return [action.describe(MELDS), action.describe(), action.describe(MELDS, you=False), action.describe(you=False)]


def test_the_actions_cover_every_kind():
    assert {a.kind for a in ACTIONS} == set(KINDS)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_action_sentence_in_a_translation_holds_a_common_english_word(lang):
    found = {}
    for action in ACTIONS:
        with use_language(lang):
            texts = sentences(action)
        english = sentences(action)
        for text, source in zip(texts, english):
            if english_words(text, lang) or text == source:
                found[action.to_text()] = text
    assert found == {}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_actions_of_a_bots_hand_read_in_the_language(lang):
    """Every action offered in the first turns of a classic hand (what lesson 10's log and menus show)."""
    state = Game("classic").new_initial_state(3)
    found = {}
    for _ in range(40):
        if state.is_terminal():
            break
        actions = legal_actions(state)
        for action in actions[:30]:
            with use_language(lang):
                text = action.describe()
            if english_words(text, lang):
                found[action.to_text()] = text
        apply(state, actions[-1])
    assert found == {}


def test_the_dutch_sentences_say_it_as_a_player_would():
    """A few sentences written out here (the imperative, the glossary's words, the cards by their notation)."""
    with use_language("nl"):
        assert Action("draw").describe() == "Trek van de stok."
        assert Action("discard", cards=parse_cards("KD")).describe() == "Leg K♦ af."
        assert ACTIONS[1].describe(you=False) == "Pak de stapel met 9♣ 9♦."
        assert ACTIONS[14].describe(MELDS) == ("Ga uit: ruil K♣ voor 2♦ in K♥ K♠ K♦, leg 7♥ aan bij 7♠ 7♦ 7♣, "
                                                "leg Q♥ Q♠ Q♦ uit en leg 4♣ af.")
    with use_language("da"):
        assert ACTIONS[8].describe() == "Læg 7♥ til på kombination 1."
    with use_language("af"):
        assert ACTIONS[13].describe() == "Gooi K♦ weg."


# ---- a bad card -------------------------------------------------------------------------------------------------

#: The sentence after a bad card, written here for each language: the rank and suit letters are the ones the cards
#: are written with (issue 19's wording in English).
HOW = {
    "en": "write a rank (2-10, J, Q, K, A) and a suit (H, D, C, S), like 7H, or JK for a joker",
    "nl": "schrijf een waarde (2-10, J, Q, K, A) en een kleur (H, D, C, S), zoals 7H, of JK voor een joker",
    "da": "skriv en værdi (2-10, J, Q, K, A) og en kulør (H, D, C, S), f.eks. 7H, eller JK for en joker",
    "af": "skryf 'n rang (2-10, J, Q, K, A) en 'n kleur (H, D, C, S), soos 7H, of JK vir 'n joker",
}
NOT_A_CARD = {"en": "{token} is not a card", "nl": "{token} is geen kaart", "da": "{token} er ikke et kort",
              "af": "{token} is nie 'n kaart nie"}
CARD_IN_GROUP = {"en": "card 2, ZZ, is not a card", "nl": "kaart 2, ZZ, is geen kaart",
                 "da": "kort 2, ZZ, er ikke et kort", "af": "kaart 2, ZZ, is nie 'n kaart nie"}


def _error(read, text, lang) -> str:
    with use_language(lang), pytest.raises(NotationError) as caught:
        read(text)
    return str(caught.value)


@pytest.mark.parametrize("lang", ["en", *TRANSLATED])
def test_a_bad_card_reads_in_the_language(lang):
    assert _error(parse_card, "ZZ", lang) == NOT_A_CARD[lang].format(token="ZZ") + ": " + HOW[lang]
    assert _error(parse_cards, "ZZ", lang) == NOT_A_CARD[lang].format(token="ZZ") + ": " + HOW[lang]
    assert _error(parse_cards, "7H ZZ 4C", lang) == CARD_IN_GROUP[lang] + ": " + HOW[lang]
    if lang != "en":
        assert english_words(_error(parse_cards, "7H ZZ 4C", lang), lang) == []
        assert english_words(_error(parse_cards, 5, lang), lang) == []


# ---- a broken puzzle file, as `canasta-tutor check --lang` reports it -------------------------------------------

def test_check_in_danish_names_the_file_and_the_line_of_a_broken_puzzle_file(tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text("title: To gange\npuzzles: []\npuzzles: []\n", encoding="utf-8")
    status, out, err = run(["check", "--lang", "da", str(broken)])
    assert status == 2
    (line,) = [json.loads(text) for text in out.splitlines()]
    assert line["file"] == str(broken) and line["id"] is None
    assert line["error"] == ("ikke godtaget: linje 3: nøglen 'puzzles' står to gange i samme mapping (første gang "
                             "på linje 2); YAML ville uden varsel kun beholde den sidste")
    assert "Traceback" not in err


@pytest.mark.parametrize("lang", TRANSLATED)
def test_check_reports_a_bad_puzzle_in_the_language_with_its_puzzle_and_field(tmp_path, lang):
    bad = tmp_path / "bad.yaml"
    bad.write_text("puzzles:\n  - id: bad-card\n    kind: take-pile\n    hand: 7H ZZ\n    pile: 5D\n    score: 0\n"
                   "  - id: bad-key\n    kind: take-pile\n    hand: 7H\n    pile: 5D\n    score: 0\n    colour: red\n"
                   "  - id: too-many\n    kind: take-pile\n    hand: 7H 7H\n    pile: 7H\n    score: 0\n"
                   "  - id: red-three\n    kind: take-pile\n    hand: 3H 7H 7S\n    pile: 7D\n    score: 0\n"
                   "  - id: bad-score\n    kind: take-pile\n    hand: 7H 7S\n    pile: 7D\n    score: 10000000000000\n",
                   encoding="utf-8")
    status, out, _err = run(["check", "--lang", lang, str(bad)])
    assert status == 1
    errors = {r["id"]: r["error"] for r in map(json.loads, out.splitlines())}
    assert errors["bad-card"].endswith(CARD_IN_GROUP[lang] + ": " + HOW[lang])
    field = {"nl": "veld 'hand'", "da": "feltet 'hand'", "af": "veld 'hand'"}[lang]
    assert errors["bad-card"].startswith(field)
    assert set(errors) == {"bad-card", "bad-key", "too-many", "red-three", "bad-score"}
    packs = {"nl": "twee pakken", "da": "to spil kort", "af": "twee pakke kaarte"}[lang]   # the decks counted
    assert f" {packs} " in errors["too-many"]
    status, english, _err = run(["check", "--lang", "en", str(bad)])
    english = {r["id"]: r["error"] for r in map(json.loads, english.splitlines())}
    assert all(errors[key] != english[key] for key in errors)
    for error in errors.values():
        # the puzzle format's own names stay English: the quoted field and key names, the list of known keys
        # (and a field named before a colon: "score: ...")
        words = re.sub(r"^[a-z_]+: |'[^']*'", "", error.split(" (", 1)[0])
        assert english_words(words, lang) == [], error


# ---- the presets --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_presets_title_and_description_read_in_the_language(lang):
    for name, rules in PRESETS.items():
        with use_language(lang):
            title, description = rules.display_title, rules.description
        assert title != rules.title or name == "samba", name
        assert description != rules.description and english_words(title + " " + description, lang) == [], name
    assert PRESETS["classic"].display_title == "Classic Canasta (four players, two partnerships)"
    assert PRESETS["classic"].description == PRESETS["classic"].__doc__.split("\n\n")[0]


@pytest.mark.parametrize("lang", ["en", *TRANSLATED])
def test_a_go_outs_steps_are_its_sentence_without_the_words_around_them(lang):
    """The coach writes "You could have gone out: <steps>" from go_out_steps, not by cutting "Go out: " off."""
    go_out = ACTIONS[14]
    with use_language(lang):
        steps, sentence = go_out.go_out_steps(MELDS), go_out.describe(MELDS)
    assert sentence.endswith(" " + steps + ".") and len(steps) > len(sentence) / 2
    assert steps.split()[0] == {"en": "swap", "nl": "ruil", "da": "byt", "af": "ruil"}[lang]
    if lang == "en":
        assert steps + "." == sentence[len("Go out: "):]
    assert Action("go_out").go_out_steps() == ""


@pytest.mark.parametrize(("lang", "written"), [("en", "5,001"), ("nl", "5.001"), ("da", "5.001"), ("af", "5\xa0001")])
def test_a_large_number_in_a_message_is_grouped_as_its_language_writes_it(lang, written):
    from canasta_tutor.engine.errors import clip_repr
    from canasta_tutor.engine.i18n import use_language

    with use_language(lang):
        assert written in clip_repr(10**5000)
