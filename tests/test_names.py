"""Names a teacher can tell apart (canasta_tutor/classroom/names.py): the attacks of issue 17 one by one, through the
rules and through a class's sign-in, and one length limit in the form, the server and the README."""

from __future__ import annotations

import re
import unicodedata

import pytest

from canasta_tutor.classroom import names
from canasta_tutor.classroom.names import MAX_NAME, check_name, check_not_taken, normal_name, skeleton
from canasta_tutor.classroom.roster import Classroom

CYRILLIC_A = "\u0410"      # А, drawn as the Latin A
GREEK_ALPHA = "\u0391"     # Α, drawn as the Latin A
NFD_CHLOE = "Chloe\u0301"  # e + combining acute accent
NFC_CHLOE = "Chlo\u00e9"   # é


@pytest.fixture
def room(tmp_path):
    return Classroom(tmp_path / "p.sqlite3")


# --- the form a name is kept in ----------------------------------------------------------------------------------
def test_nfd_and_nfc_are_one_name_kept_in_nfkc():
    assert NFD_CHLOE != NFC_CHLOE
    assert check_name(NFD_CHLOE).name == NFC_CHLOE == check_name(NFC_CHLOE).name
    assert unicodedata.is_normalized("NFKC", check_name(NFD_CHLOE).name)
    assert check_name("\uff21\uff4e\uff41").name == "Ana"           # full-width letters are plain ones


def test_blanks_collapse_to_one_space_and_none_at_the_ends():
    assert normal_name(" \u00a0Ana\t\u2003 Lopez\u3000") == "Ana Lopez"


# --- characters that are not there, or turn the text around ------------------------------------------------------
@pytest.mark.parametrize("name, code, named", [
    ("\u200b", "name-invisible", "ZERO WIDTH SPACE"),
    ("Ana\u200d", "name-invisible", "ZERO WIDTH JOINER"),
    ("An\u00ada", "name-invisible", "SOFT HYPHEN"),
    ("\u3164", "name-invisible", "FILLER"),
    ("Ana\u202e", "name-bidi", "RIGHT-TO-LEFT OVERRIDE"),
    ("\u2067Ana\u2069", "name-bidi", "RIGHT-TO-LEFT ISOLATE"),
    ("Ana\u200f", "name-bidi", "RIGHT-TO-LEFT MARK"),
    ("a\x07b", "name-control", "U+0007"),
    ("\x1b[31mred", "name-control", "U+001B"),
    ("Ana\ue000", "name-unknown-character", "U+E000"),
])
def test_invisible_control_and_direction_characters_are_refused_by_name(name, code, named):
    v = check_name(name)
    assert not v and code in v.codes and v.name == ""
    text = next(r.text for r in v.reasons if r.code == code)
    assert named in text and "\n" not in text and len(text) < 160


def test_a_zero_width_space_alone_is_not_a_name_with_every_reason_given():
    assert check_name("\u200b").codes == ("name-invisible", "name-no-letter")
    assert check_name("\u2800").codes == ("name-no-letter",)   # a braille blank: no letter, an empty row


def test_accents_need_a_letter_and_a_letter_carries_a_few():
    assert check_name("\u0301Ana").codes == ("name-marks",)
    assert check_name("A" + "\u0301" * 4).codes == ("name-marks",)
    assert check_name("Nguyễn Thị Ánh")   # two accents on one letter are a name


@pytest.mark.parametrize("name", ["Zoë O'Neill", "Müller-Lüdenscheidt", "山田 花子", "やまだ はなこ", "Ἀλέξανδρος",
                                  "محمد", "אבי", "Łukasz", "Nguyễn", "김민준", "Ana 2", "20231187"])
def test_real_names_in_one_writing_system_pass(name):
    v = check_name(name)
    assert v and v.name == name


def test_letters_of_two_alphabets_in_one_name_are_refused():
    v = check_name(CYRILLIC_A + "na")
    assert v.codes == ("name-mixed-scripts",) and "Cyrillic and Latin" in v.reasons[0].text


# --- one length ----------------------------------------------------------------------------------------------------
def test_the_length_limit_is_sixty_characters():
    assert MAX_NAME == 60
    assert check_name("x" * 60)
    v = check_name("x" * 61)
    assert v.codes == ("name-too-long",) and "at most 60" in v.reasons[0].text and "has 61" in v.reasons[0].text


def test_form_server_and_readme_say_the_same_length(room, root):
    from canasta_tutor.classroom import progress, roster

    assert roster.MAX_NAME == progress.MAX_NAME == MAX_NAME
    assert room.join("y" * MAX_NAME) and room.join("z" * (MAX_NAME + 1)).codes == ("name-too-long",)
    handlers = (root / "canasta_tutor" / "web" / "handlers.py").read_text()
    assert "maxlength='{MAX_NAME}'" in handlers and "from ..classroom.names import MAX_NAME" in handlers
    readme = (root / "README.md").read_text()
    limits = set(re.findall(r"[Nn]ames?\b[^.]*?(\d+)\s+characters", readme))   # what it says of a name's length
    assert limits == {str(MAX_NAME)}, limits


# --- look-alikes ---------------------------------------------------------------------------------------------------
def test_skeletons_of_look_alikes_are_equal_and_of_different_names_not():
    assert skeleton("\u0410\u043d\u0430") != skeleton("Ana")     # Cyrillic "Ана": н is not n
    assert skeleton(CYRILLIC_A + "n\u0430") == skeleton("Ana")   # Cyrillic А and а
    assert skeleton(GREEK_ALPHA + "mira") == skeleton("Amira")
    assert skeleton("Arnira") == skeleton("Amira")               # rn drawn as m
    assert skeleton("Ana") != skeleton("Ada") and skeleton("Zoe") != skeleton("Zoë")


@pytest.mark.parametrize("new, taken, code", [
    ("ANA", "Ana", "name-taken"),
    (NFD_CHLOE, NFC_CHLOE, "name-taken"),
    ("Am ira", "Amira", "name-lookalike"),
    ("Amira", "Am ira", "name-lookalike"),
    ("\u0410\u0441\u0435", "Ace", "name-lookalike"),   # Cyrillic А с е, one alphabet
    ("Arnira", "Amira", "name-lookalike"),
    ("lris", "Iris", "name-lookalike"),
])
def test_a_name_that_is_or_looks_like_a_taken_one_is_refused(new, taken, code):
    v = check_not_taken(normal_name(new), [taken])
    assert v.codes == (code,) and (taken if code == "name-lookalike" else normal_name(new)) in v.reasons[0].text
    assert check_not_taken(normal_name(new), ["Bo", "Ada"])


@pytest.mark.parametrize("name", ["Ana", "Ann", "Anna", "Ada", "Zoë", "Ana Lopez"])
def test_different_names_are_free(name):
    assert check_not_taken(name, [n for n in ["Ana", "Ann", "Anna", "Ada", "Zoë", "Ana Lopez", "Zoe"] if n != name])


# --- through a class's sign-in --------------------------------------------------------------------------------------
@pytest.mark.parametrize("first, second, code", [
    ("Ana", CYRILLIC_A + "na", "name-mixed-scripts"),
    ("Ace", "\u0410\u0441\u0435", "name-lookalike"),
    (NFC_CHLOE, NFD_CHLOE, "name-taken"),
    ("Amira", "Am ira", "name-lookalike"),
    ("Ana", "\u200b", "name-invisible"),
    ("Ana", "Ana\u202e", "name-bidi"),
])
def test_the_class_refuses_the_attacks_of_the_issue(room, first, second, code):
    assert room.join(first)
    v = room.join(second)
    assert not v and code in v.codes and v.reasons[0].text
    assert [r["name"] for r in room.learners()] == [normal_name(first)]


def test_a_look_alike_is_refused_only_after_the_class_code(db_url):
    room = Classroom(db_url)   # on SQLite and PostgreSQL
    room.set_code("blue7")
    assert room.join("Amira", "blue7")
    assert room.join("Am ira").codes == ("wrong-code",)        # no class code: nothing said about who is there
    assert room.join("Am ira", "blue7").codes == ("name-lookalike",)


def test_the_confusables_come_from_the_library(monkeypatch):
    names._prototypes.cache_clear()
    try:
        table = names._prototypes()
        assert table[CYRILLIC_A] == "A" and table["m"] == "rn" and len(table) > 5000
    finally:
        names._prototypes.cache_clear()
