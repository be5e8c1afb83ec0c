"""The last English corners, in every language: the score table's headings and rows (lessons 6-8), lesson 10's card
table (its model's sentences, and every word its script writes, sent from Python), the coach's rules of thumb, the
name rules' refusals, the download routes' errors and the teacher's command-line lines (progress, assign, play,
serve). The common English words are the list of ``test_golden_languages``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from test_bots_policies import obs_of
from test_golden_languages import english_words, run

from canasta_tutor.bots import explain_difference
from canasta_tutor.classroom.downloads import class_export, worksheet_for
from canasta_tutor.classroom.gradebook import Gradebook
from canasta_tutor.classroom.names import check_name, check_not_taken
from canasta_tutor.engine.cards import parse_cards
from canasta_tutor.engine.i18n import use_language
from canasta_tutor.engine.scoring import GameScore, score_hand
from canasta_tutor.game import DISCARD, DRAW, GO_OUT, MELD, TAKE_PILE, Action, Game, apply, legal_actions, observation
from canasta_tutor.widgets.table_model import announce, meld_view, replay_views, table_view, table_words

ROOT = Path(__file__).resolve().parent.parent
TRANSLATED = ("nl", "da", "af")
TABLE_JS = ROOT / "canasta_tutor" / "widgets" / "static" / "table.js"


#: Words of the list that are words of the language as well: Dutch and Afrikaans "wild" ("waarvan één wild").
ALSO_OURS = {"nl": {"wild"}, "af": {"wild"}, "da": set()}


def untranslated(texts, lang: str) -> dict[str, list[str]]:
    """Each text with a common English word in it, and those words; a ``{placeholder}`` and a character's Unicode
    name (``RIGHT-TO-LEFT OVERRIDE``, in capitals: English by design) are no words of the sentence."""
    found = {}
    for text in texts:
        bare = re.sub(r"\{\w*\}|\b[A-Z][A-Z-]+(?: [A-Z][A-Z-]+)*\b", " ", text)
        words = [w for w in english_words(bare, lang) if w not in ALSO_OURS[lang]]
        if words:
            found[text] = words
    return found


def strings(value) -> list[str]:
    """Every text in a JSON-like value (its keys left out: they are the page's, not the reader's)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in strings(v)]
    return []


# ---- the score table (lessons 6 to 8) ---------------------------------------------------------------------------

SHEET = dict(melds=["KH KS KD KC KH KS KD", "7C 7D 2S"], red_threes="3H", hands=["5C 9D", ""], went_out=True)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_score_table_reads_in_the_language(lang):
    with use_language(lang):
        table = score_hand(**SHEET).to_html()
        game = GameScore(["A", "B"])
        game.add_hand({"A": 120, "B": -30})
        rows = list(game.to_frame().index)
    words = re.sub(r"<[^>]+>", " ", table)
    assert not untranslated([words, " ".join(rows)], lang)
    assert "Total" not in table and "<th>item</th>" not in table and "Melded cards" not in table
    assert rows[0] == {"nl": "hand 1", "da": "hånd 1", "af": "hand 1"}[lang] and rows[-1] != "total"


def test_the_score_table_in_english_and_in_dutch_side_by_side():
    english = score_hand(**SHEET).to_html()
    with use_language("nl"):
        dutch = score_hand(**SHEET).to_html()
        rows = list(GameScore(["A", "B"]).to_frame().index)
    assert "<th>item</th><th>detail</th><th>points</th>" in english and "<b>Total</b>" in english
    assert "<th>onderdeel</th><th>toelichting</th><th>punten</th>" in dutch and "<b>Totaal</b>" in dutch
    assert "Uitgelegde kaarten" in dutch or "Kaarten uitgelegd" in dutch or "uitgelegd" in dutch.lower()
    assert rows == ["totaal"]


# ---- lesson 10's card table -------------------------------------------------------------------------------------

def _views(lang: str):
    """The table of a classic hand after a few turns (melds, a pile, the moves announced) and a replay of them."""
    state = Game("classic").new_initial_state(3)
    start = state.clone()
    moves = []
    for _ in range(24):
        actions = legal_actions(state)
        # a meld or a take where there is one, else the last legal move (a discard ends a turn)
        action = next((a for a in actions if a.kind in (MELD, TAKE_PILE)), actions[-1])
        apply(state, action)
        moves.append(action)
    with use_language(lang):
        view = table_view(observation(state, 0), caption="x")
        replay = replay_views(start, moves[:6], 0)
        json_view = view.to_json()
        frames = [v.to_json() for v in replay]
        words = table_words()
        meld = meld_view(parse_cards("KH KS KD KC KH KS 2D"), state.game.rules)
        closed = (meld.describe(), meld.badge())
        runs = meld_view(parse_cards("7H 7S 2D"), state.game.rules).describe()
        said = announce(view.seats[1].name, Action("take_pile", cards=parse_cards("9C 9D")))
    return json_view, frames, words, closed, runs, said


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_card_table_reads_in_the_language(lang):
    view, frames, words, closed, runs, said = _views(lang)
    texts = strings({k: v for k, v in view.items() if k not in ("hand", "names")}) + strings(frames)
    texts += [*words.values(), *closed, runs, said]
    # a card's code ("KH") and a phase name are no words for a reader
    texts = [t for t in texts if not re.fullmatch(r"[0-9JQKAHSDC ]*|[a-z_-]+", t)]
    assert not untranslated(texts, lang)
    assert len(texts) > 30


def test_the_dutch_card_table_says_it_as_a_player_would():
    view, frames, words, closed, runs, said = _views("nl")
    assert [s["name"] for s in view["seats"]] == ["Jij", "Tegenstander links", "Je partner", "Tegenstander rechts"]
    assert view["sides"][0]["heading"] == "De sets van je team"
    assert closed == ("gemengde canasta van heren, 7 kaarten", "gemengd · 7")
    assert runs == "7’s: 7♥ 7♠ 2♦ (3 kaarten, waarvan 1 wild)" or runs.endswith("(3 kaarten, waarvan 1 wild)")
    assert said == "Tegenstander links pakt de stapel met 9♣ 9♦."   # a sentence, not "Seat: <button text>"
    assert words["stock"] == "Stok" and words["your_hand"] == "Je hand"
    assert frames[0]["caption"] == "Vooraf"
    assert re.fullmatch(r"\d+ kaart(en)?", view["seats"][1]["cards_text"])


def test_english_is_as_before():
    view, frames, words, closed, runs, said = _views("en")
    assert said == "Left opponent takes the pile with 9♣ 9♦."
    assert closed == ("mixed canasta of kings, 7 cards", "mixed · 7")
    assert runs == "7s: 7♥ 7♠ 2♦ (3 cards, 1 wild)"
    assert words["stock"] == "Stock" and frames[0]["caption"] == "Before"
    assert view["seats"][1]["cards_text"].endswith(" cards") and view["hand_text"].endswith(" cards")


def test_the_tables_script_writes_only_the_words_python_sends():
    script = TABLE_JS.read_text(encoding="utf-8")
    used = set(re.findall(r"""word\(\s*["'](\w+)["']""", script))
    used |= set(re.findall(r"""word\(f\[i\]\.caption \? "(\w+)" : "(\w+)"\)""", script)[0])
    assert used == set(table_words()), "the script's word() keys and table_words() differ"
    # none of the English it once wrote itself is in its strings any more
    literals = " | ".join(re.findall(r'"((?:[^"\\\n]|\\.)*)"|`([^`]*)`', script) and
                          [a or b for a, b in re.findall(r'"((?:[^"\\\n]|\\.)*)"|`([^`]*)`', script)])
    for english in [*table_words().values(), "1 card", " cards", "Your team's melds", ": melds", "Top card",
                    "The pile is empty.", " canasta"]:
        english = english.split("{")[0].strip()
        if len(english) > 3:
            assert not re.search(rf"(?<![\w-]){re.escape(english)}(?!\w)", literals), english
    assert "aria-label" in literals and "ctt-seat" in literals   # the strings were found


# ---- the coach's rules of thumb -----------------------------------------------------------------------------------

def _coach_sentences() -> list[str]:
    def c(text):
        return parse_cards(text)

    out = []
    obs = obs_of("9H 9S 4C", "5H 2C KD 8H 6S 7D 10C 4H JS QD 9D")
    out.append(explain_difference(obs, Action(DRAW), Action(TAKE_PILE, cards=c("9H 9S"))))
    obs = obs_of("KH KS KD 4C 2C JK", "5H 6D 7C 10S KD JH", opponents=["AH AS AD AC AH AS AD"])
    out_move = Action(GO_OUT, melds=(c("KH KS KD"),), discard=c("4C")[0])
    discard_4 = Action(DISCARD, cards=c("4C"))
    joker, two = Action(DISCARD, cards=c("JK")), Action(DISCARD, cards=c("2C"))
    out += [explain_difference(obs, discard_4, out_move),
            explain_difference(obs, out_move, discard_4),
            explain_difference(obs, Action(MELD, melds=(c("KH KS KD"),)), discard_4),
            explain_difference(obs, Action(MELD, melds=(c("KH KS 2C"),)), discard_4),
            explain_difference(obs, joker, two), explain_difference(obs, joker, discard_4),
            explain_difference(obs, discard_4, Action(MELD, melds=(c("KH KS KD"),))),
            explain_difference(obs, discard_4, two), explain_difference(obs, two, discard_4),
            explain_difference(obs, Action(DISCARD, cards=c("KH")), discard_4)]
    return out


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_coachs_rules_of_thumb_read_in_the_language(lang):
    english = _coach_sentences()
    with use_language(lang):
        texts = _coach_sentences()
    assert all(texts) and len(set(texts)) >= 8
    assert not untranslated(texts, lang)
    assert not set(texts) & set(english)


# ---- the name rules, the downloads, the command line ----------------------------------------------------------------

BAD_NAMES = ["", "   ", "Ana\u202e", "Ana\u200b", "Ana\x07", "Ana\ue000", "\u0301Ana", "A\u0301\u0301\u0301\u0301na",
             "Аna", "x" * 61, "123"]


def _name_sentences() -> list[str]:
    texts = [r.text for name in BAD_NAMES for r in check_name(name).reasons]
    texts += [r.text for r in check_name(42).reasons + check_name("Zoë").reasons]
    texts += [r.text for taken in (["Ana"], ["Amira"], ["Bo"])
              for r in check_not_taken({"Ana": "ANA", "Amira": "Am ira", "Bo": "Cy"}[taken[0]], taken).reasons]
    return texts


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_name_rules_refuse_in_the_language(lang):
    english = _name_sentences()
    with use_language(lang):
        texts = _name_sentences()
    assert len(texts) == len(english) >= 14
    assert not untranslated(texts, lang)
    assert not set(texts) & set(english)
    with use_language(lang):
        assert check_name("").reasons[0].text == {"nl": "Typ eerst je naam.", "da": "Skriv først dit navn.",
                                                  "af": "Tik eers jou naam."}[lang]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_download_routes_refuse_in_the_language(lang, tmp_path):
    from canasta_tutor.classroom.roster import Classroom

    problems = []
    with use_language(lang):
        for call in (lambda: worksheet_for("set", "zz-set"), lambda: worksheet_for("assignment", "x"),
                     lambda: worksheet_for("poster", "x"),
                     lambda: class_export(Classroom(tmp_path / "p.sqlite3"), "grades.ods"),
                     lambda: Gradebook(Classroom(tmp_path / "p.sqlite3"), tz="Mars/Olympus")):
            with pytest.raises(LookupError) as e:
                call()
            problems.append(str(e.value))
    assert not untranslated(problems, lang), problems
    assert all(p and not p.startswith(("there ", "no ")) for p in problems)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_teachers_command_lines_read_in_the_language(lang, tmp_path):
    status, out, err = run(["play", "--lang", lang, "--hands", "2", "--bots", "beginner"])
    assert status == 0 and len(out.splitlines()) == 3
    status, said, err = run(["progress", "--db", str(tmp_path / "x.sqlite3"), "--learner", "bo"],
                            env={"CANASTA_TUTOR_LANG": lang})
    assert status == 0 or err   # no database there: a refusal, in the language too
    status, refused, why = run(["assign", "--lang", lang, "--title", "Week 1"])
    assert status == 2
    texts = out.splitlines() + [(said or err).replace(str(tmp_path), "FOLDER"), why]
    assert not untranslated(texts, lang), texts
    status, english, _err = run(["play", "--hands", "2", "--bots", "beginner"])
    assert english.splitlines()[0].startswith("hand 1: ") and out.splitlines()[0] != english.splitlines()[0]


def test_serve_prints_its_addresses_in_the_terminals_language(tmp_path):
    import io
    from argparse import Namespace

    from canasta_tutor.web.app import serve_options

    args = Namespace(ip=None, classroom=False, lang=None, class_size=0, max_kernels=0, teacher_key="",
                     new_class=False, class_code="", port=9431, class_lesson=None)
    out = io.StringIO()
    with use_language("da"):
        serve_options(args, out=out)
    assert out.getvalue() == "Åbn lektionerne på http://127.0.0.1:9431/\n"
    # the language from $CANASTA_TUTOR_LANG (serve's --lang would also set the pages' language of this process)
    status, _out, err = run(["serve", "--lessons", str(tmp_path), "--no-browser", "--port", "9432"],
                            env={"CANASTA_TUTOR_LANG": "af"})
    assert status == 2 and "geen lesse gevind nie" in err


def test_the_json_of_play_stays_english():
    status, out, _err = run(["play", "--lang", "nl", "--hands", "1", "--json"])
    record = json.loads(out.splitlines()[0])
    assert status == 0 and {"went_out", "teams", "stock_left"} <= set(record)


# ---- lesson 10's hand around the table --------------------------------------------------------------------------

@pytest.fixture
def _club_coach(monkeypatch):
    import canasta_tutor.bots.coach as coach

    monkeypatch.setattr(coach, "DEFAULT_COACH", "club")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_lesson_10s_hand_reads_in_the_language(lang, _club_coach):
    from canasta_tutor.widgets.coach import PlayAHand

    with use_language(lang):
        w = PlayAHand(seed=1)
        w.press("draw")
        w.undo()
        w.hint()
        texts = [w.deal_button.description, w.next_button.description, w.undo_button.description,
                 w.hint_button.description, w.deal_button.tooltip, w.level_choice.description,
                 w.number.description, *[label for label, _v in w.level_choice.options],
                 *[m["label"] for m in w.table.moves], w.table.view["status"], w.table.announcement["text"],
                 *[e["text"] for e in w.table.log], re.sub(r"<[^>]+>", " ", w.feedback.value)]
    texts = [t for t in texts if t]
    assert not untranslated(texts, lang), texts
    assert len(texts) > 12
