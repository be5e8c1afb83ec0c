"""Golden files per language: ``canasta-tutor solve --lang nl puzzles/`` (and da, af), read line by line.

Each ``tests/golden/solve-puzzles.<lang>.jsonl`` was read line by line by a person, like the English one
(``test_golden.py``). A change of wording in a language makes its test fail with a diff; after reviewing the new
sentences, re-make the files with ``.venv/bin/python scripts/update_golden.py`` (it writes every language) or
``CANASTA_UPDATE_GOLDEN=1``, and read ``git diff tests/golden``.

Besides the diff: every language gives the same answers as English (the JSON keys stay English, only the
explanation strings are translated), and no explanation in Dutch, Danish or Afrikaans holds a common English word.
The command line's language choice (``--lang``, ``CANASTA_TUTOR_LANG``, an unknown code) is tested here too.

Mistakes planted while writing these (each made a test here or in ``test_i18n.py`` fail, then reverted): an answer
changed in the Afrikaans golden file; a Danish msgstr replaced by its English sentence; a Dutch msgstr emptied; a
placeholder renamed in a Dutch msgstr; "set" replaced by "groep" in a Dutch sentence; unknown codes read as English;
``CANASTA_TUTOR_LANG`` ignored.
"""

from __future__ import annotations

import difflib
import io
import json
import os
import re
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from canasta_tutor.cli import LANG_VARIABLE, main

ROOT = Path(__file__).resolve().parent.parent
GOLDEN_DIR = ROOT / "tests" / "golden"
ENGLISH = GOLDEN_DIR / "solve-puzzles.jsonl"
TRANSLATED = ("nl", "da", "af")


def golden(lang: str) -> Path:
    return GOLDEN_DIR / f"solve-puzzles.{lang}.jsonl"


def run(argv, env: dict | None = None) -> tuple[int, str, str]:
    """``canasta-tutor ARGV`` from the repository root: (status, stdout, stderr); ``env`` set for the call."""
    out, err = io.StringIO(), io.StringIO()
    cwd, saved = os.getcwd(), {k: os.environ.get(k) for k in (env or {})}
    os.chdir(ROOT)
    os.environ.update(env or {})
    try:
        with redirect_stdout(out), redirect_stderr(err):
            status = main(argv)
    finally:
        os.chdir(cwd)
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return status, out.getvalue(), err.getvalue()


def solve_output(lang: str) -> str:
    status, out, err = run(["solve", "--lang", lang, "puzzles/"])
    assert status == 0, (out + err)[-2000:]
    return out


def records(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


# ---- the golden files ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", TRANSLATED)
def test_solve_output_matches_the_reviewed_golden_file_of_the_language(lang):
    got = solve_output(lang)
    if os.environ.get("CANASTA_UPDATE_GOLDEN"):
        golden(lang).write_text(got, encoding="utf-8")
    want = golden(lang).read_text(encoding="utf-8")
    if got != want:
        diff = "".join(difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                            f"{golden(lang).name} (reviewed)", f"solve --lang {lang} (now)", n=0))
        raise AssertionError(f"the {lang} explanations have changed; review the diff and, if it is right, run "
                             "scripts/update_golden.py:\n" + diff)


def same_answers(english: list[dict], other: list[dict]) -> list[str]:
    """Where a translated run differs from English in anything but the explanation's words."""
    problems = [] if len(english) == len(other) else [f"{len(other)} lines, English has {len(english)}"]
    for en, tr in zip(english, other):
        for key in ("file", "id", "kind", "answer"):
            if en.get(key) != tr.get(key):
                problems.append(f"{en['id']}: {key} {tr.get(key)!r} != English {en.get(key)!r}")
        if sorted(tr) != sorted(en):
            problems.append(f"{en['id']}: keys {sorted(tr)} != English {sorted(en)}")
        if len(tr.get("explanation", ())) != len(en["explanation"]):
            problems.append(f"{en['id']}: {len(tr.get('explanation', ()))} sentences, English has "
                            f"{len(en['explanation'])}")
    return problems


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_language_gives_the_answers_english_gives(lang):
    english = records(ENGLISH.read_text(encoding="utf-8"))
    assert len(english) >= 200
    assert same_answers(english, records(golden(lang).read_text(encoding="utf-8"))) == []
    assert same_answers(english, records(solve_output(lang))) == []


def test_the_answer_check_catches_a_changed_answer_or_a_lost_sentence():
    english = records(ENGLISH.read_text(encoding="utf-8"))[:3]
    planted = json.loads(json.dumps(english))
    planted[0]["answer"] = {"points": -1}
    planted[1]["explanation"] = []
    planted[2]["antwoord"] = planted[2].pop("answer")
    assert len(same_answers(english, planted)) == 4


# ---- no English left in a translation ----------------------------------------------------------------------------

#: Common English words that no Dutch, Danish or Afrikaans explanation should hold. Words that are also words of
#: one of those languages are left out ("in", "is", "hand", "team", "of" (nl: or), "to" (da: two), "for" (da), "by"
#: (da: town; af: at), "so" (af), "have" and "point" (da)); "meld" is the Afrikaans source's own word for a meld
#: (003:22), so it is allowed in Afrikaans only.
COMMON_ENGLISH = frozenset(
    "the pile piles card cards meld melds you your and not with has cannot can may must only from would this "
    "that every each lay laid off out go goes going wild natural three threes frozen freeze discard points "
    "needs needed take takes top it are or but be been no none one two four seven yes red black sequence group "
    "first score total left bonuses concealed nobody there what which when then still could should their".split())
ALLOWED = {"af": {"meld", "melds"}, "nl": set(), "da": set()}
_WORD = re.compile(r"[^\W\d_]+")


def english_words(text: str, lang: str) -> list[str]:
    """The common English words in ``text`` (case ignored), except those that are words of ``lang`` too."""
    return [w for w in _WORD.findall(text.lower()) if w in COMMON_ENGLISH and w not in ALLOWED[lang]]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_explanation_in_a_translation_holds_a_common_english_word(lang):
    found = {}
    for record in records(solve_output(lang)):
        for sentence in record["explanation"]:
            words = english_words(sentence, lang)
            if words:
                found[record["id"]] = (words, sentence[:160])
    assert found == {}


def test_the_english_word_check_catches_an_untranslated_sentence():
    assert english_words("De stapel is bevroren omdat 2♣ erin ligt.", "nl") == []
    assert english_words("The pile is frozen omdat 2♣ erin ligt.", "nl") == ["the", "pile", "frozen"]
    assert english_words("'n Meld mag hoogstens drie wilde kaarte hê.", "af") == []
    assert english_words("En meld må højst have tre vilde kort.", "da") == ["meld"]


# ---- choosing the language on the command line -------------------------------------------------------------------


def test_the_environment_variable_chooses_the_language_and_lang_overrides_it():
    status, dutch, _ = run(["solve", "puzzles/02-melds.yaml"], env={LANG_VARIABLE: "nl"})
    assert status == 0 and "is een set heren" in dutch
    status, danish, _ = run(["solve", "--lang", "da", "puzzles/02-melds.yaml"], env={LANG_VARIABLE: "nl"})
    assert status == 0 and "er en kombination af konger" in danish and "is een set" not in danish
    status, english, _ = run(["solve", "--lang", "en", "puzzles/02-melds.yaml"], env={LANG_VARIABLE: "af"})
    assert status == 0 and "is a meld of kings" in english
    # the JSON keys and the answers stay English
    assert [sorted(r) for r in records(dutch)] == [sorted(r) for r in records(english)]
    assert [r["answer"] for r in records(dutch)] == [r["answer"] for r in records(english)]


@pytest.mark.parametrize("argv, env", [
    (["solve", "--lang", "fr", "puzzles/02-melds.yaml"], {}),
    (["check", "--lang", "xx-YY", "puzzles/02-melds.yaml"], {}),
    (["solve", "puzzles/02-melds.yaml"], {LANG_VARIABLE: "klingon"}),
    (["worksheet", "--lang", "de", "-o", "/dev/null", "puzzles/02-melds.yaml"], {}),
])
def test_an_unknown_language_is_a_clear_message_and_exit_2(argv, env):
    status, out, err = run(argv, env)
    assert status == 2 and out == ""
    assert "no language" in err and "nl (Nederlands)" in err and "Traceback" not in err


def test_check_speaks_the_language_too():
    status, out, err = run(["check", "--lang", "da", "puzzles/02-melds.yaml"])
    assert status == 0 and out == ""
    assert re.fullmatch(r"\d+ opgaver i 1 filer kontrolleret: 0 afviger, 0 fejl\n", err)
