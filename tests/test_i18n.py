"""The languages: the glossary against its sources and the catalogs, the catalogs' placeholders and plural
headers, number words against written references, and no sentence glued from translated pieces."""

from __future__ import annotations

import ast
import contextvars
import re
import string
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from canasta_tutor.engine import i18n

ROOT = Path(__file__).resolve().parent.parent
GLOSSARY = ROOT / "docs" / "glossary.md"
SOURCES = ROOT / "docs" / "sources"
LOCALE = ROOT / "canasta_tutor" / "locale"
TRANSLATED = ("nl", "da", "af")

# ---- reading the glossary and the catalogs ------------------------------------------------------------------


def _cells(line: str) -> list[str]:
    return [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]


def parse_glossary(text: str) -> list[dict]:
    """One dict per term row: lang, msgid ((context, id) or None), english, term, forms, source, quote."""
    rows, lang = [], None
    for line in text.splitlines():
        heading = re.match(r"^## .*\((\w\w)\)\s*$", line)
        if heading:
            lang = heading.group(1)
        elif lang and line.startswith("| `"):
            msgid, english, term, forms, source, quote = _cells(line)[:6]
            context, _, message = msgid.strip("`").replace("\\|", "|").partition("|")
            rows.append({"lang": lang, "msgid": (context, message), "english": english, "term": term,
                         "forms": [f.strip() for f in forms.split(",") if f.strip()], "source": source,
                         "quote": quote})
    return rows


def glossary_files(text: str) -> dict[str, str]:
    """The glossary's own table of which source file is in which language."""
    names = {"Dutch": "nl", "Danish": "da", "Afrikaans": "af"}
    found = {}
    for line in text.splitlines():
        cells = _cells(line) if line.startswith("| `0") else []
        if len(cells) == 3:
            found[cells[0].strip("`")[:3]] = names[cells[1]]
    return found


def load_catalog(lang: str):
    with open(LOCALE / lang / "LC_MESSAGES" / "canasta_tutor.po", "rb") as po:
        return read_po(po, locale=lang)


def entries(catalog):
    """(context, msgid, msgid_plural or None, [msgstr forms]) for each message."""
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id, None)
        forms = list(message.string) if isinstance(message.string, tuple) else [message.string]
        yield message.context, ids[0], ids[1], forms


ROWS = parse_glossary(GLOSSARY.read_text(encoding="utf-8"))
FILE_LANGUAGE = glossary_files(GLOSSARY.read_text(encoding="utf-8"))


def _source_lines(number: str) -> list[str]:
    (path,) = SOURCES.glob(f"{number}_*.txt")
    return path.read_text(encoding="utf-8").splitlines()


# ---- the glossary against its sources -------------------------------------------------------------------------


def test_the_glossary_has_every_required_term_in_each_language():
    required = {"discard pile", "stock", "frozen", "freeze the pile", "go out", "go out concealed", "lay off",
                "meld", "canasta", "natural canasta", "mixed canasta", "wild card", "joker", "red three",
                "black three", "opening minimum", "partner", "team", "hand", "points", "score"}
    suits, ranks = {"hearts", "diamonds", "clubs", "spades"}, {"ace", "king", "queen", "jack", "two", "ten"}
    for lang in TRANSLATED:
        have = {r["msgid"] for r in ROWS if r["lang"] == lang}
        missing = ({("term", t) for t in required} | {("suit", s) for s in suits}
                   | {("rank", r) for r in ranks}) - have
        assert not missing, f"{lang}: the glossary lacks {sorted(missing)}"


#: A few words that each language writes often and the others do not (to tell the source files apart).
_MARKERS = {"nl": (" het ", " een ", " niet ", " je "), "da": (" og ", " det ", " ikke ", " du "),
            "af": (" die ", " nie ", " 'n ", " word ")}


def test_each_source_file_is_in_the_language_the_glossary_says():
    assert set(FILE_LANGUAGE) == {p.name[:3] for p in SOURCES.glob("*.txt")}
    for number, lang in FILE_LANGUAGE.items():
        text = " " + " ".join(_source_lines(number)).lower() + " "
        counts = {code: sum(text.count(w) for w in words) for code, words in _MARKERS.items()}
        assert max(counts, key=counts.get) == lang, f"{number}: {counts}"


def test_each_quote_is_on_its_cited_line_of_a_source_in_the_rows_language():
    checked = 0
    for row in ROWS:
        where = f"{row['lang']} {row['msgid']}"
        if row["source"] == "not in the sources":
            assert row["quote"], f"{where}: a term not from the sources must name its reference"
            continue
        number, _, line = row["source"].partition(":")
        assert FILE_LANGUAGE[number] == row["lang"], f"{where}: cites {number}, a {FILE_LANGUAGE[number]} source"
        quote = row["quote"].strip('"').replace('\\"', '"')
        text = _source_lines(number)[int(line) - 1]
        assert quote in text, f"{where}: {quote!r} is not on line {line} of {number}: {text[:120]!r}"
        checked += 1
    assert checked > 80


# ---- the glossary against the catalogs ------------------------------------------------------------------------


@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_glossary_term_is_its_catalog_entrys_translation(lang):
    catalog = {(c, m): forms for c, m, _, forms in entries(load_catalog(lang))}
    for row in (r for r in ROWS if r["lang"] == lang):
        assert row["msgid"] in catalog, f"{lang}: the catalog has no entry {row['msgid']}"
        assert catalog[row["msgid"]] == [row["term"]], f"{lang} {row['msgid']}: glossary says {row['term']!r}"


def _english_word(message: str) -> str:
    return message.removeprefix("to ")


def uses_form(word: str, text: str) -> bool:
    """``word`` is in ``text``; a form written with ``...`` (``gooi ... weg``, ``lægge ... til``) is a verb with
    its particle split off, as the glossary writes it: the words around the gap, in order, within one sentence."""
    word, text = word.lower(), text.lower()
    if " ... " not in word:
        return word in text
    head, tail = word.split(" ... ", 1)
    return re.search(rf"(?<!\w){re.escape(head)} [^.:;]*?(?<!\w){re.escape(tail)}(?!\w)", text) is not None


#: A str.format field or a %-style one, as a msgid writes them: ``{meld}``, ``{count:+d}``, ``%(name)s``.
_PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\(\w+\)[sdif]")


def term_violations(lang: str, catalog_entries, rows) -> list[str]:
    """Entries (other than the glossary's own) whose English names a glossary term but whose translation
    uses none of that term's forms."""
    accepted: dict[str, set[str]] = {}
    own = set()
    for row in (r for r in rows if r["lang"] == lang):
        own.add(row["msgid"])
        if row["msgid"][0] == "term":
            accepted.setdefault(_english_word(row["msgid"][1]), set()).update([row["term"], *row["forms"]])
    found = []
    for context, singular, plural, forms in catalog_entries:
        if (context, singular) in own:
            continue
        # a {placeholder}'s name is no English word of the sentence ("Lay off {cards} on {meld}." names no meld in
        # words: the placeholder holds cards), so it needs no term
        english = _PLACEHOLDER.sub(" ", f"{singular} {plural or ''}").lower()
        for word, words in accepted.items():
            if re.search(rf"\b{re.escape(word)}s?\b", english):
                for form in forms:
                    if not any(uses_form(w, form) for w in words):
                        found.append(f"{lang} {singular!r}: {form!r} uses none of {sorted(words)} ({word})")
    return found


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_catalogs_sentences_use_the_glossary_terms(lang):
    catalog = list(entries(load_catalog(lang)))
    assert not term_violations(lang, catalog, ROWS)
    # The check has something to check: the counted nouns name glossary terms.
    assert sum(1 for c, *_ in catalog if c == "count") >= 6


def test_the_term_check_catches_a_sentence_with_another_word():
    planted = [("count", "{number} wild card", "{number} wild cards",
                ["{number} jokerkaart", "{number} vrije kaarten"])]
    assert len(term_violations("nl", planted, ROWS)) == 2


def test_the_term_check_ignores_placeholders_but_not_the_words_around_them():
    # {meld} and {discard_pile} are names of values, not words the reader reads: no term needed for them
    planted = [(None, "Lay off {cards} on {meld}.", None, ["Leg {cards} aan bij {meld}."]),
               (None, "{discard_pile} and {stock:>3}", None, ["{discard_pile} en {stock:>3}"])]
    assert term_violations("nl", planted, ROWS) == []
    # the same word written out still needs its term, also beside a placeholder of that name
    planted = [(None, "Lay off {cards} on the meld {meld}.", None, ["Leg {cards} aan bij de groep {meld}."])]
    assert len(term_violations("nl", planted, ROWS)) == 1


def test_a_split_form_needs_both_its_words_in_order_in_one_sentence():
    assert uses_form("gooi ... weg", "Gooi K♦ weg.")
    assert uses_form("leg ... aan", "Leg 7♥ aan bij 7♠ 7♦ 7♣.")
    assert not uses_form("gooi ... weg", "Gooi K♦ op die stapel.")       # no particle
    assert not uses_form("gooi ... weg", "Weg is die kaart; gooi K♦.")    # the wrong order
    assert not uses_form("leg ... af", "Leg 7♥ neer. Dan is hij af.")     # across two sentences
    assert not uses_form("leg ... af", "Leg 7♥ bij de afval.")            # a word that only begins with it
    planted = [(None, "Discard {cards}.", None, ["Gooi {cards} neer."])]
    assert len(term_violations("af", planted, ROWS)) == 1


# ---- the catalogs ---------------------------------------------------------------------------------------------


def _placeholders(text: str) -> set[str]:
    named = {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}
    return named | set(re.findall(r"%\((\w+)\)[sdif]", text))


def _one_only_forms(lang: str) -> set[int]:
    """Plural forms that CLDR's rule uses for n == 1 alone (such a form may write the number as a word)."""
    nplurals, expr = get_plural(lang)
    rule = eval("lambda n: int(" + expr.replace("&&", " and ").replace("||", " or ").replace("!", " not ")
                .replace(" not =", " !=") + ")")
    seen = {i: {n for n in range(0, 1001) if rule(n) == i} for i in range(nplurals)}
    return {i for i, ns in seen.items() if ns == {1}}


def placeholder_problems(lang: str, catalog_entries) -> list[str]:
    problems = []
    one_only = _one_only_forms(lang)
    for _, singular, plural, forms in catalog_entries:
        if plural is None:
            if forms[0] and _placeholders(forms[0]) != _placeholders(singular):
                problems.append(f"{lang} {singular!r}: {forms[0]!r}")
            continue
        wanted = _placeholders(singular) | _placeholders(plural)
        for i, form in enumerate(forms):
            have = _placeholders(form)
            if have - wanted or (have != wanted and i not in one_only):
                problems.append(f"{lang} {singular!r} form {i}: {form!r}")
    return problems


@pytest.mark.parametrize("lang", TRANSLATED)
def test_placeholders_are_the_same_in_msgid_and_msgstr(lang):
    assert not placeholder_problems(lang, entries(load_catalog(lang)))


def test_the_placeholder_check_catches_a_renamed_or_lost_placeholder():
    planted = [(None, "{rank} of {suit}", None, ["{suit} {rang}"]),
               ("count", "{number} card", "{number} cards", ["één kaart", "kaarten"])]
    assert len(placeholder_problems("nl", planted)) == 2


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_plural_header_is_cldrs_rule_for_the_language(lang):
    catalog = load_catalog(lang)
    header = dict(catalog.mime_headers)
    assert header["Language"] == lang
    assert header["Plural-Forms"] == str(get_plural(lang))
    nplurals = get_plural(lang)[0]
    for _, singular, plural, forms in entries(catalog):
        if plural is not None:
            assert len(forms) == nplurals, f"{lang} {singular!r}: {len(forms)} forms"


#: CLDR's plural categories for integers: in nl, da and af only 1 is "one" (0 is "other").
CLDR_FORM = {lang: {0: 1, 1: 0, 2: 1, 7: 1, 21: 1, 101: 1} for lang in TRANSLATED}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_ngettext_picks_cldrs_form(lang):
    for n, form in CLDR_FORM[lang].items():
        got = i18n.ngettext("{number} card", "{number} cards", n, lang=lang)
        # the catalog entry has a context; without one it is the English pair, which picks by the same rule
        assert got == ("{number} card", "{number} cards")[form]
        pair = [forms for c, s, _, forms in entries(load_catalog(lang)) if (c, s) == ("count", "{number} card")][0]
        assert i18n.npgettext("count", "{number} card", "{number} cards", n, lang=lang) == pair[form]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_of_the_template_is_translated(lang):
    with open(LOCALE / "canasta_tutor.pot", "rb") as pot:
        template = {(c, s) for c, s, _, _ in entries(read_po(pot))}
    catalog = {(c, s): forms for c, s, _, forms in entries(load_catalog(lang))}
    assert template - set(catalog) == set(), f"{lang} lacks messages"
    assert [k for k in template if not all(catalog[k])] == [], f"{lang} has empty translations"


def test_the_template_holds_every_marked_message_in_the_code():
    script = (ROOT / "scripts" / "i18n.sh").read_text()
    keywords = dict(i18n_keywords(script))
    found = {(ctx, msg if isinstance(msg, str) else msg[0])
             for _, _, msg, _, ctx in extract_from_dir(ROOT / "canasta_tutor", [("**.py", "python")],
                                                       keywords=keywords)}
    with open(LOCALE / "canasta_tutor.pot", "rb") as pot:
        template = {(c, s) for c, s, _, _ in entries(read_po(pot))}
    assert found - template == set(), "run `bash scripts/i18n.sh extract` and `update`"
    assert ("term", "discard pile") in found


def i18n_keywords(script: str):
    """Babel's default keywords plus the ones scripts/i18n.sh passes with -k (``NP_:1c,2``)."""
    from babel.messages.extract import DEFAULT_KEYWORDS

    yield from DEFAULT_KEYWORDS.items()
    for spec in re.findall(r"-k (\S+?)[)\s]", script):
        name, _, args = spec.partition(":")
        spec_args = []
        for part in filter(None, args.split(",")):
            spec_args.append((int(part[:-1]), "c") if part.endswith("c") else int(part))
        yield name, tuple(spec_args) or None


# ---- number words against references written here -------------------------------------------------------------

#: The cardinals as CLDR's rule-based spell-out writes them (ICU 72, "spellout-numbering", soft hyphens left out),
#: with a second accepted form where the language's spelling list allows two (Dutch "één" for a lone one,
#: Taalunie; Danish "ethundrede" beside "hundrede", Retskrivningsordbogen).
NUMBER_REFERENCE = {
    "nl": ["nul", ("een", "één"), "twee", "drie", "vier", "vijf", "zes", "zeven", "acht", "negen", "tien", "elf",
           "twaalf", "dertien", "veertien", "vijftien", "zestien", "zeventien", "achttien", "negentien", "twintig"],
    "da": ["nul", "et", "to", "tre", "fire", "fem", "seks", "syv", "otte", "ni", "ti", "elleve", "tolv", "tretten",
           "fjorten", "femten", "seksten", "sytten", "atten", "nitten", "tyve"],
    "af": ["nul", "een", "twee", "drie", "vier", "vyf", "ses", "sewe", "agt", "nege", "tien", "elf", "twaalf",
           "dertien", "veertien", "vyftien", "sestien", "sewentien", "agttien", "negentien", "twintig"],
}
LARGER_REFERENCE = {
    "nl": {21: "eenentwintig", 22: "tweeëntwintig", 30: "dertig", 45: "vijfenveertig", 60: "zestig",
           80: "tachtig", 99: "negenennegentig", 100: "honderd", 101: "honderdeen", 121: "honderdeenentwintig",
           200: "tweehonderd", 999: "negenhonderdnegenennegentig"},
    # Danish 50 is "halvtreds" (Retskrivningsordbogen; CLDR), and 60 "tres": the fix of num2words' "treds" for 60
    # must leave the "treds" inside "halvtreds" alone (it once wrote "halvtres").
    "da": {21: "enogtyve", 22: "toogtyve", 30: "tredive", 45: "femogfyrre", 50: "halvtreds", 51: "enoghalvtreds",
           60: "tres", 61: "enogtres", 80: "firs", 150: ("hundrede og halvtreds", "ethundrede og halvtreds"),
           99: "nioghalvfems", 100: ("hundrede", "ethundrede"), 101: ("hundrede og et", "ethundrede og et"),
           121: ("hundrede og enogtyve", "ethundrede og enogtyve"), 200: "tohundrede",
           999: "nihundrede og nioghalvfems"},
    "af": {21: "een-en-twintig", 22: "twee-en-twintig", 30: "dertig", 45: "vyf-en-veertig", 60: "sestig",
           80: "tagtig", 99: "nege-en-negentig", 100: "honderd", 101: "honderd een", 121: "honderd een-en-twintig",
           200: "tweehonderd", 999: "negehonderd nege-en-negentig"},
}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_number_words_match_the_reference(lang):
    wanted = dict(enumerate(NUMBER_REFERENCE[lang])) | LARGER_REFERENCE[lang]
    wrong = {}
    for n, words in wanted.items():
        got = i18n.number_word(n, lang)
        if got not in (words if isinstance(words, tuple) else (words,)):
            wrong[n] = (got, words)
    assert wrong == {}


@pytest.mark.parametrize("bad", [-1, 1000, True, 2.0, "3"])
def test_number_words_refuse_what_they_cannot_write(bad):
    with pytest.raises(i18n.LanguageError, match="whole number from 0 to 999"):
        i18n.number_word(bad, "af")


# ---- the language: names, choice, context -----------------------------------------------------------------------


def test_each_language_is_named_in_itself():
    assert i18n.LANGUAGES == {"en": "English", "nl": "Nederlands", "da": "Dansk", "af": "Afrikaans"}


def test_an_unknown_language_is_refused_with_the_list():
    with pytest.raises(i18n.LanguageError, match=r"no language 'xx'.*nl \(Nederlands\)"):
        i18n.set_language("xx")


def test_the_language_belongs_to_its_context():
    def read_in(lang):
        i18n.set_language(lang)
        return i18n.term("discard pile"), i18n.card_name(("K", "S"))

    got = {lang: contextvars.copy_context().run(read_in, lang) for lang in ("nl", "da", "af")}
    # Dutch writes a card as one compound word (Woordenlijst Nederlandse Taal: "hartenaas", "schoppenaas"; the
    # Dutch hunspell list has them too), so "schoppenheer", not "schoppen heer".
    assert got == {"nl": ("aflegstapel", "schoppenheer"), "da": ("afkastbunken", "spar konge"),
                   "af": ("weggooistapel", "koning van skoppens")}
    assert i18n.get_language() == "en" and i18n.term("discard pile") == "discard pile"


def test_babel_and_num2words_are_loaded_only_when_read():
    code = ("import sys, canasta_tutor.engine.i18n as i; a = 'babel' in sys.modules or 'num2words' in sys.modules;"
            "i.term('stock', 'da'); print(a, 'babel' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "True"]


# ---- no sentence glued from translated pieces -----------------------------------------------------------------

#: Functions whose result is text in the reader's language.
TRANSLATING = {"gettext", "ngettext", "pgettext", "npgettext", "term", "rank_name", "suit_name", "card_name",
               "count_of", "number_word", "_"}


def _calls_translation(node: ast.AST, tainted: set[str]) -> bool:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            func = sub.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name in TRANSLATING:
                return True
        if isinstance(sub, ast.Name) and sub.id in tainted:
            return True
    return False


def glued_translations(source: str) -> list[int]:
    """Lines where translated text is joined with ``+``, ``%``, an f-string or ``str.join``."""
    found = []
    for func in (n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.FunctionDef)):
        tainted = {t.id for n in ast.walk(func) if isinstance(n, ast.Assign) and _calls_translation(n.value, set())
                   for t in n.targets if isinstance(t, ast.Name)}
        for node in ast.walk(func):
            glue = ((isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)))
                    or isinstance(node, ast.JoinedStr)
                    or (isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "join"))
            parts = ([node.left, node.right] if isinstance(node, ast.BinOp) else
                     node.values if isinstance(node, ast.JoinedStr) else node.args if glue else [])
            if glue and any(_calls_translation(p, tainted) for p in parts):
                found.append(node.lineno)
    return found


def test_i18n_glues_no_translated_pieces():
    assert glued_translations(Path(i18n.__file__).read_text(encoding="utf-8")) == []


def test_the_glue_check_catches_a_card_name_built_with_plus():
    planted = ("def card(rank, suit):\n    return rank_name(rank) + ' ' + suit_name(suit)\n"
               "def card2(rank, suit):\n    r = rank_name(rank)\n    return f'{r} of hearts'\n")
    assert glued_translations(planted) == [2, 2, 5]
