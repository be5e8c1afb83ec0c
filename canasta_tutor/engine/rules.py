"""Rule sets: one frozen options object, and the named presets.

The sources (``shared/rules-sources/``) disagree on real points; every preset
is a :class:`RuleSet` instance whose docstring (``preset.__doc__``) and
``sources`` field cite the source document behind each option where they
differ. A house rule is ``dataclasses.replace(CLASSIC, ...)`` or
:func:`with_options`.

>>> get_rules("danish").wild_limit
'fewer-than-natural'
>>> get_rules("classic").opening_minimum(-20), get_rules("classic").opening_minimum(1500)
(15, 90)
>>> get_rules("checkers")  # doctest: +NORMALIZE_WHITESPACE
Traceback (most recent call last):
...
canasta_tutor.engine.errors.RulesError: unknown rule preset 'checkers': the presets are classic, classic-2p,
classic-3p, classic-6p, danish, hoyle, samba
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field, fields
from typing import Literal

from .cards import WEIGHT_MAX_CARDS, copies_offset
from .errors import RulesError
from .i18n import N_
from .i18n import gettext as _
from .numbers import grouped, is_whole_number

#: No game's score comes near this; a larger one is a typing mistake (and would make sentences unreadable).
MAX_SCORE = 10 ** 9

WildLimit = Literal["three", "not-more-than-natural", "fewer-than-natural"]
WILD_LIMITS = ("three", "not-more-than-natural", "fewer-than-natural")

S000 = "000_3de1f15b082faa45.txt"  # Dutch wikiHow (classic, with house rules)
S001 = "001_9ada9fb8f7fae289.txt"  # Danish rules
S002 = "002_56e880b179d5253b.txt"  # Dutch classic (the reference for `classic`)
S003 = "003_6904f404a228eeee.txt"  # Afrikaans, Hoyle-style
S004 = "004_21b6a2a99892059f.txt"  # Dutch Samba
SOURCE_TITLES = {
    S000: "000: Dutch wikiHow article",
    S001: "001: Danish rules",
    S002: "002: Dutch classic rules (Spelregelwijzer)",
    S003: "003: Afrikaans, Hoyle-style rules",
    S004: "004: Dutch Samba rules",
}


@dataclass(frozen=True)
class RuleSet:
    """Every number and switch in which Canasta variants differ.

    Field names are the option names a puzzle file may override (``_`` or
    ``-`` both accepted there). ``opening_table`` is a tuple of
    ``(lowest score, minimum)`` pairs in increasing order; the first pair's
    score is ``None`` for "any score below the next threshold". ``lone_hand``: the first player to take the
    pile in a hand plays alone and the others are partners for the rest of that hand (``classic-3p``; the game
    model, :mod:`canasta_tutor.game`, plays it).
    """

    name: str
    title: str
    players: int = 4
    teams: str = "two partnerships of two"
    decks: int = 2
    jokers: int = 4
    hand_size: int = 11
    draw_count: int = 1
    wild_limit: WildLimit = "three"
    max_wild: int = 3
    canastas_to_go_out: int = 1
    opening_table: tuple[tuple[int | None, int], ...] = ((None, 15), (0, 50), (1500, 90), (3000, 120))
    natural_canasta_bonus: int = 500
    mixed_canasta_bonus: int = 300
    concealed_canasta_bonus: int = 0
    samba_bonus: int = 0
    red_three_bonus: int = 100
    all_red_threes_bonus: int = 800
    red_three_penalty: int = 100
    all_red_threes_penalty: int = 800
    going_out_bonus: int = 100
    concealed_going_out_bonus: int = 200
    concealed_needs_no_minimum: bool = True
    concealed_needs_canasta: bool = True
    concealed_without_pile: bool = False
    black_threes_with_wild: bool = False
    pile_always_frozen: bool = False
    red_three_freezes_pile: bool = True
    black_three_freezes_pile: bool = False
    take_with_natural_and_wild: bool = True
    take_onto_canasta: bool = True
    one_card_pile_rule: bool = False
    black_three_upcard_covered: bool = False
    sequences: bool = False
    wild_swap: bool = False
    target_score: int = 5000
    lone_hand: bool = False
    sources: tuple[tuple[str, str], ...] = field(default=(), compare=False, repr=False)
    doc: str = field(default="", compare=False, repr=False)

    @property
    def display_title(self) -> str:
        """The title a learner reads, in the current language (a house rule's own title as it is written)."""
        return _(self.title) if self.title else self.title

    @property
    def description(self) -> str:
        """The preset's summary in the current language (``classic``: "Classic Canasta as played since 1950: ...");
        a house rule (``classic+house``) has its base's, and a rule set made by hand its docstring's first line."""
        summary = _SUMMARIES.get(self.name.removesuffix("+house"))
        if summary is None:
            return self.doc.split("\n\n")[0]
        template, source = summary
        return _(template).format(source=source)

    def __post_init__(self):
        problems = _check_options(self)
        if problems:
            raise RulesError(_("rule set '{name}': {problems}").format(name=self.name, problems="; ".join(problems)))
        if self.doc:
            object.__setattr__(self, "__doc__", self.doc)
        # derived numbers for the engine's inner loops (not options: not fields, not compared)
        # wild cards a meld with n natural cards may hold, for every n a meld or a hand can have of one rank
        # (from max_wild + 1 natural cards on, the capacity no longer changes: callers clamp there)
        caps = tuple(self.wild_capacity(n) for n in range(max(WEIGHT_MAX_CARDS, self.max_wild + 1) + 1))
        object.__setattr__(self, "_wild_caps", caps)
        object.__setattr__(self, "_copies_offset", copies_offset(self.decks))

    # --- derived values -------------------------------------------------
    @property
    def red_threes_in_game(self) -> int:
        """How many red threes the decks hold (4 with two packs, 6 with three)."""
        return 2 * self.decks

    def opening_minimum(self, score: int) -> int:
        """The initial-meld minimum for a team whose score before the hand is ``score``."""
        ensure_score(score)
        minimum = self.opening_table[0][1]
        for lowest, value in self.opening_table:
            if lowest is None or score >= lowest:
                minimum = value
            else:
                break
        return minimum

    def opening_rows(self) -> list[tuple[str, int, int | None, int | None]]:
        """The opening table in words: ``(band, minimum, lowest score, next band's lowest)`` per row.

        >>> get_rules("classic").opening_rows()[1][:2]
        ('0 to 1495', 50)
        """
        rows = []
        table = self.opening_table
        for i, (lowest, value) in enumerate(table):
            nxt = table[i + 1][0] if i + 1 < len(table) else None
            band = (_("below {value}").format(value=nxt) if lowest is None
                    else _("{value} or more").format(value=lowest) if nxt is None
                    else _("{lowest} to {highest}").format(lowest=lowest, highest=nxt - 5))
            rows.append((band, value, lowest, nxt))
        return rows

    def opening_band(self, score: int) -> str:
        """The opening table's row for ``score`` in words: ``'0 to 1495'``, ``'below 0'``..."""
        for band, _value, lowest, nxt in self.opening_rows():
            if (lowest is None or score >= lowest) and (nxt is None or score < nxt):
                return band
        return ""

    def wild_capacity(self, naturals: int) -> int:
        """How many wild cards a meld with ``naturals`` natural cards may hold."""
        if self.wild_limit == "three":
            cap = self.max_wild
        elif self.wild_limit == "not-more-than-natural":
            cap = naturals
        else:
            cap = naturals - 1
        return max(0, min(cap, self.max_wild))

    def source_of(self, option: str) -> str:
        """The citation for ``option`` in this preset, or ``''``."""
        return citation(self, option)

    def options(self) -> dict:
        """The options as a plain dict (no name, title, sources or doc)."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if f.name not in ("name", "title", "sources", "doc")}


def ensure_score(score) -> None:
    """Raise :class:`RulesError` unless ``score`` is a whole number within :data:`MAX_SCORE` either way."""
    if not is_whole_number(score):
        raise RulesError(_("score: a score must be a whole number, not {value}").format(value=repr(str(score)[:40])))
    if abs(score) > MAX_SCORE:
        size = _("a number of {digits} digits").format(digits=score.bit_length() * 30103 // 100000 + 1) \
            if abs(score) > 10 ** 12 else score
        raise RulesError(_("score: {value} is beyond any game's score (at most {limit} either way)").format(
            value=size, limit=grouped(MAX_SCORE)))


def _check_options(r: RuleSet) -> list[str]:
    problems = []
    if r.wild_limit not in WILD_LIMITS:
        problems.append(_("wild_limit must be one of {allowed}, not {value}").format(
            allowed=", ".join(WILD_LIMITS), value=repr(r.wild_limit)))
    for f in fields(r):
        value = getattr(r, f.name)
        if f.type in ("int",) and not is_whole_number(value):
            problems.append(_("{option} must be a whole number, not {value}").format(option=f.name, value=repr(value)))
        if f.type in ("bool",) and not isinstance(value, bool):
            problems.append(_("{option} must be true or false, not {value}").format(option=f.name, value=repr(value)))
    if isinstance(r.decks, int) and r.decks < 1:
        problems.append(_("decks must be at least 1"))
    if isinstance(r.canastas_to_go_out, int) and r.canastas_to_go_out < 0:
        problems.append(_("canastas_to_go_out cannot be negative"))
    if isinstance(r.max_wild, int) and r.max_wild < 0:
        problems.append(_("max_wild cannot be negative"))
    try:
        lows = [lo for lo, _ in r.opening_table]
        if any(not isinstance(v, int) for _, v in r.opening_table) or \
                any(lo is not None and not isinstance(lo, int) for lo in lows) or \
                any(lo is None for lo in lows[1:]) or \
                [lo for lo in lows if lo is not None] != sorted(lo for lo in lows if lo is not None):
            raise ValueError
    except (TypeError, ValueError):
        problems.append(_("opening_table must be (lowest score, minimum) pairs in increasing order"))
    return problems


def _doc(summary: str, sources: dict[str, str]) -> str:
    lines = [summary, "", "Sources for the options where the sources differ:", ""]
    for option, cite in sources.items():
        lines.append(f"- ``{option}``: {cite}")
    return "\n".join(lines)


#: Each preset's summary as a catalog entry (English, ``{source}`` the file it follows) and that file:
#: :attr:`RuleSet.description` reads it in the current language.
_SUMMARIES: dict[str, tuple[str, str]] = {}


def _preset(name: str, title: str, summary: str, sources: dict[str, str], base: RuleSet | None = None,
            source: str = "", **options) -> RuleSet:
    _SUMMARIES[name] = (summary, source)
    summary = summary.format(source=source)
    if base is None:
        return RuleSet(name=name, title=title, sources=tuple(sources.items()),
                       doc=_doc(summary, sources), **options)
    # the preset's own citations first: an option cited in a grouped key of the base and again here is looked up
    # here (classic's "Vier spelers ... ieder 11 kaarten" does not justify two players with 15 cards)
    merged = dict(sources)
    merged.update((keys, cite) for keys, cite in base.sources if keys not in sources)
    return dataclasses.replace(base, name=name, title=title, sources=tuple(merged.items()),
                               doc=_doc(summary, merged), **options)


_CLASSIC_SOURCES = {
    "players, draw_count":
        f"{S002}: 'Vier spelers in twee teams, 108 kaarten, ieder 11 kaarten.' and "
        "'Neem de bovenste kaart van de stock'.",
    "lone_hand":
        f"{S002}: 'Vier spelers in twee teams, 108 kaarten, ieder 11 kaarten.' and "
        "'Neem de bovenste kaart van de stock'.",
    "sequences, samba_bonus": f"{S002}: 'Je legt sets van minstens 3 kaarten met dezelfde waarde. Rijen bestaan niet.'",
    "decks, jokers, hand_size":
        f"{S002}: 'Schud twee pakken van 52 kaarten en 4 jokers door elkaar' and 'Geef iedere speler 11 kaarten'.",
    "wild_limit, max_wild":
        f"{S002}: 'Een set bevat minstens 2 gewone kaarten en hoogstens 3 wilde.' (000 agrees; 001 and 003 differ).",
    "canastas_to_go_out": f"{S002}: 'Uitgaan mag pas als je team minstens één canasta heeft.' (001 asks for two).",
    "opening_table":
        f"{S002}: table 'De eerste uitleg': below 0: 15; 0 to 1495: 50; 1500 to 2995: 90; 3000 or more: 120.",
    "natural_canasta_bonus, mixed_canasta_bonus": f"{S002}: 'Zuivere canasta 500', 'Gemengde canasta 300'.",
    "concealed_canasta_bonus":
        f"{S002}: no bonus for a canasta melded from the hand; 'Hand-canasta (huisregel) ... Dit hoort niet bij het "
        "klassieke spel.'",
    "red_three_bonus, all_red_threes_bonus": f"{S002}: 'Rode 3 ... 100 punten per stuk, 800 voor alle vier.'",
    "red_three_penalty, all_red_threes_penalty":
        f"{S002}: 'Heeft een team niets uitgelegd, dan tellen zijn rode drieën negatief: min 100 per stuk, min 800 "
        "voor alle vier.' (001: minus 200).",
    "going_out_bonus, concealed_going_out_bonus":
        f"{S002}: 'Uitgaan 100', 'Verborgen uitgaan ... 200 in totaal' (000 reads as 300; rule-decisions: 200 in all).",
    "concealed_needs_no_minimum":
        f"{S002}: 'wie na het trekken van de stock zijn hele hand in één keer kan uitleggen, met een canasta erbij, "
        "mag dat doen zonder het minimum te halen.'",
    "concealed_needs_canasta, concealed_without_pile":
        f"{S002}: 'Verborgen uitgaan (hele hand in één beurt, met canasta)'; going out concealed is the player's: "
        f"{S000} 'als je in één beurt al je kaarten op tafel kunt leggen' (rule-decisions: the melds he makes that "
        "turn include a complete canasta; the pile may be taken in that turn).",
    "black_threes_with_wild":
        f"{S002}: 'als set van drie of vier zwarte drieën zonder wilde kaarten' (001 allows two and a wild card).",
    "pile_always_frozen": f"{S002}: 'Stapel altijd bevroren ... Dit is een variant, geen klassieke regel.'",
    "red_three_freezes_pile, black_three_freezes_pile": "rule-decisions.md (classic): frozen when a wild card or a red "
                                                        "three lies in it; a black three does not freeze the pile.",
    "wild_swap": f"{S002}: silent; no wild card is ever taken back from a meld.",
    "take_with_natural_and_wild":
        f"{S002}: 'Mag je de stapel pakken met één passende kaart en een joker? Ja, in klassiek canasta mag dat, "
        "zolang de stapel niet bevroren is en je team al heeft uitgelegd.'",
    "take_onto_canasta":
        f"{S002}: '... of als je hem kunt aanleggen bij een set van je team' "
        "(rule-decisions: a finished canasta included).",
    "one_card_pile_rule":
        f"{S000}: 'Je mag de stok niet pakken als je nog maar één kaart in de hand hebt én de stok ook maar één kaart "
        "is.' An option, off in classic (rule-decisions).",
    "black_three_upcard_covered":
        f"{S002}: 'Is die kaart een 2, een joker of een rode 3, leg hem dan dwars en draai er een nieuwe kaart "
        "bovenop' (a black three turned up stays on top).",
    "target_score": f"{S002}: 'Het team dat als eerste 5000 punten heeft, wint.'",
}

CLASSIC = _preset(
    "classic", N_("Classic Canasta (four players, two partnerships)"),
    N_("Classic Canasta as played since 1950: four players in two partnerships, two packs and four jokers, 11 "
       "cards each, one canasta to go out, 5000 to win. Reference: {source}."),
    _CLASSIC_SOURCES, source=S002)

CLASSIC_2P = _preset(
    "classic-2p", N_("Classic Canasta for two players"),
    N_("Two players, each alone: 15 cards each, draw two and discard one, two canastas to go out, 5000 to win."),
    {"players, hand_size, draw_count, canastas_to_go_out":
         f"{S002}: 'Met twee spelers krijgt ieder 15 kaarten. Je trekt elke beurt twee kaarten van de stock en "
         "legt er één af. Om uit te gaan heb je twee canasta's nodig in plaats van één.' (000 agrees)"},
    base=CLASSIC, players=2, teams="two players, each alone", hand_size=15, draw_count=2, canastas_to_go_out=2)

CLASSIC_3P = _preset(
    "classic-3p", N_("Classic Canasta for three players"),
    N_("Three players: 13 cards each, draw two and discard one; the first to take the pile plays alone against "
       "the other two for that hand; two canastas to go out; 7500 to win."),
    {"players, hand_size, draw_count, target_score":
         f"{S002}: 'Ieder krijgt 13 kaarten en trekt twee kaarten per beurt van de stock, maar legt er één af. "
         "Wie als eerste de stapel pakt, speelt die ronde alleen tegen de andere twee. Je speelt tot 7500 punten.'",
     "canastas_to_go_out":
         f"{S000}: 'Om het uit te kunnen maken moet je minimaal twee canasta's hebben gevormd.' "
         "(three players; 002 is silent)",
     "lone_hand":
         f"{S002}: 'Wie als eerste de stapel pakt, speelt die ronde alleen tegen de andere twee.' (rule-decisions, "
         "player counts; where 002 is silent the game model follows the published Cutthroat Canasta rules)"},
    base=CLASSIC, players=3, teams="one alone against two (the first to take the pile plays alone)",
    hand_size=13, draw_count=2, canastas_to_go_out=2, target_score=7500, lone_hand=True)

CLASSIC_6P = _preset(
    "classic-6p", N_("Classic Canasta for six players"),
    N_("Six players: three packs and six jokers, 13 cards each, three teams of two or two teams of three; two "
       "canastas to go out."),
    {"players, decks, jokers, hand_size":
         f"{S002}: 'Je gebruikt drie pakken met zes jokers en deelt 13 kaarten per speler. Er wordt gespeeld in "
         "drie teams van twee of twee teams van drie.'",
     "canastas_to_go_out": "rule-decisions.md (player counts): two canastas to go out; 002 is silent.",
     "all_red_threes_bonus, all_red_threes_penalty":
         f"open point, decided here: with six red threes in play, all six count 1000 (as in Samba, {S004}: "
         "'1.000 punten als een team alle zes bemachtigt'); 002 gives only the four-red-three figure."},
    base=CLASSIC, players=6, teams="three teams of two or two teams of three", decks=3, jokers=6,
    hand_size=13, canastas_to_go_out=2, all_red_threes_bonus=1000, all_red_threes_penalty=1000)

DANISH = _preset(
    "danish", N_("Danish house rules (Canasta as played in Denmark)"),
    N_("The Danish rules of {source}; classic wherever 001 is silent."),
    {"wild_limit, max_wild": f"{S001}: 'der skal dog altid være flere ægte kort end vilde kort, når man lægger ned.' "
                             "(at most three wild cards, as classic, where 001 is silent)",
     "canastas_to_go_out": f"{S001}: 'For at kunne det, skal din makker og dig have mindst 2 Canasta'er.' "
                           "(partnership play; one when each plays alone)",
     "black_threes_with_wild": f"{S001}: 'Denne spiller kan da kombinere tre sorte 3'ere (eller to 3'ere og et "
                               "vildt kort).'",
     "red_three_penalty, all_red_threes_penalty": f"{S001}: 'En rød 3'er på bordet tæller også minus 200, hvis parret "
                                                  "ikke har åbnet. ... får de minus 1600 point.'",
     "opening_table": f"{S001}: 'Minuspoint 15; 0-1495 50; 1500-2995 90; 3000-4995 120' (as classic).",
     "take_with_natural_and_wild": f"{S001}: 'to kort af samme værdi som det øverste kort eller et tilsvarende og "
                                   "en joker' (as classic)."},
    base=CLASSIC, source=S001, wild_limit="fewer-than-natural", canastas_to_go_out=2, black_threes_with_wild=True,
    red_three_penalty=200, all_red_threes_penalty=1600)

HOYLE = _preset(
    "hoyle", N_("Hoyle's laws"),
    N_("Hoyle's laws as given in {source}; classic wherever 003 is silent. 003's value table swaps red and black "
       "threes by a translation error: here, as everywhere, a black three is 5 points and a red three a 100-point "
       "bonus."),
    {"wild_limit, max_wild": f"{S003}: 'kan nooit meer wilde kaarte as natuurlike kaarte (en dus meer as drie "
                             "wildkaarte) hê nie. Voorbeelde: 5-5-2 en 9-9-9-2-2-Joker is legal melds.'",
     "concealed_canasta_bonus": f"{S003}: ''N Versteekte canasta ... dra 'n bonus telling van 100 punte (so 400 vir "
                                "'n versteekte gemengde canasta en 600 vir 'n versteekte natuurlike canasta).' "
                                "Going out concealed, every canasta of the hand is a concealed one (rule-decisions).",
     "red_three_freezes_pile": f"{S003}: only a wild card turned up freezes the pile: 'As een van hierdie "
                               "bonuskaarte 'n wilde kaart was, vries dit ook die vullisstapel'.",
     "black_three_upcard_covered": f"{S003}: 'As hierdie eerste gedraaide kaart 'n rooi of swart drie of 'n "
                                   "wildkaart is, word bykomende kaarte van die voorraad na die bokant van die "
                                   "weggooipaal oorgedra'."},
    base=CLASSIC, source=S003, wild_limit="not-more-than-natural", concealed_canasta_bonus=100,
    red_three_freezes_pile=False,
    black_three_upcard_covered=True)

SAMBA = _preset(
    "samba", N_("Samba"),
    N_("Samba as given in {source}: three packs and six jokers, 15 cards each, draw two, same-suit sequences and "
       "1500-point sambas, at most two wild cards in a group, 10000 to win."),
    {"decks, jokers, hand_size, draw_count": f"{S004}: 'Drie standaard kaartspellen van 52 kaarten die samen met zes "
                                             "jokers worden geschud' and 'De deler geeft elke speler 15 kaarten' and "
                                             "'Trek op jouw beurt twee kaarten'.",
     "wild_limit, max_wild": f"{S004}: 'Jokers mogen worden opgenomen, maar maximaal twee per groep, en de groep moet "
                             "altijd meer gewone kaarten dan jokers bevatten.'",
     "sequences, samba_bonus": f"{S004}: 'Reeks: Drie tot zes opeenvolgende kaarten van dezelfde kleur, zonder "
                               "jokers.' and 'Samba: Een voltooide zevenkaartsreeks, 1.500 bonuspunten waard.'",
     "canastas_to_go_out": f"{S004}: 'ten minste twee canasta's, of twee samba's, of één canasta en één samba'.",
     "opening_table": f"{S004}: 'minimaal 50 als jouw team minder dan 1.500 punten heeft, 90 bij 1.500 tot 6.999, "
                      "en 150 vanaf 7.000 punten.'",
     "all_red_threes_bonus, all_red_threes_penalty": f"{S004}: 'elk 100 punten waard, of 1.000 punten als een team "
                                                     "alle zes bemachtigt'; unopened: 'telt elke rode drie als min "
                                                     "100'.",
     "concealed_going_out_bonus": f"{S004}: 'levert een bonus van 200 punten op bovenop de standaard uitkomstbonus "
                                  "van 100 punten' (300 in all).",
     "take_with_natural_and_wild, take_onto_canasta": f"{S004}: 'door hem te combineren met twee gewone kaarten van "
                                                      "dezelfde rang uit je hand, hetzij door hem toe te voegen aan "
                                                      "een bestaande melding' (rule-decisions: a group, not a "
                                                      "sequence, not a finished canasta or samba).",
     "concealed_needs_no_minimum": f"open point, decided here: {S004} is silent; as classic ({S002}).",
     "concealed_needs_canasta, concealed_without_pile":
         f"{S004}: 'Verborgen uitkomen (de hele hand in één beurt melden zonder eerdere meldingen van de speler en "
         "zonder de stapel op te pakken)': no canasta of his own asked for, the pile not taken.",
     "black_three_freezes_pile": f"{S004}: 'Blokkering: Een aflegstapel die niet kan worden opgepakt behalve met een "
                                 "gewoon paar ...; wordt getriggerd wanneer een joker of een zwarte drie wordt "
                                 "afgelegd.'",
     "wild_swap": f"{S004} rule 4: 'Als je de gewone kaart hebt die een joker vervangt in een onvoltooide groep, mag "
                  "je hem omwisselen en de joker houden. In reeksen zijn jokers helemaal niet toegestaan'.",
     "target_score": f"{S004}: 'het eerste koppel dat 10.000 punten bereikt, wint de partij.'"},
    base=CLASSIC, source=S004, decks=3, jokers=6, hand_size=15, draw_count=2, wild_limit="fewer-than-natural",
    max_wild=2,
    canastas_to_go_out=2, opening_table=((None, 50), (1500, 90), (7000, 150)), samba_bonus=1500,
    all_red_threes_bonus=1000, all_red_threes_penalty=1000, concealed_going_out_bonus=300,
    take_with_natural_and_wild=False, take_onto_canasta=False, sequences=True, target_score=10000,
    black_three_freezes_pile=True, wild_swap=True, concealed_needs_canasta=False, concealed_without_pile=True)

PRESETS: dict[str, RuleSet] = {r.name: r for r in
                               (CLASSIC, CLASSIC_2P, CLASSIC_3P, CLASSIC_6P, DANISH, HOYLE, SAMBA)}

#: Options a puzzle's ``rules:`` mapping may set (every field but the bookkeeping ones).
OPTION_NAMES = tuple(f.name for f in fields(RuleSet) if f.name not in ("name", "title", "sources", "doc"))


def get_rules(name: str | RuleSet = "classic") -> RuleSet:
    """The preset called ``name`` (a :class:`RuleSet` is returned as it is)."""
    if isinstance(name, RuleSet):
        return name
    try:
        return PRESETS[name]
    except (KeyError, TypeError):
        raise RulesError(_("unknown rule preset {name}: the presets are {presets}").format(
            name=repr(name), presets=", ".join(PRESETS))) from None


def with_options(base: str | RuleSet = "classic", **options) -> RuleSet:
    """A house rule: ``base`` with some options changed (names with ``-`` or ``_``).

    >>> with_options("classic", pile_always_frozen=True).pile_always_frozen
    True
    """
    rules = get_rules(base)
    clean = {}
    for key, value in options.items():
        name = key.replace("-", "_")
        if name not in OPTION_NAMES:
            raise RulesError(_("unknown rule option {option}: the options are {options}").format(
                option=repr(key), options=", ".join(OPTION_NAMES)))
        if name == "opening_table" and isinstance(value, list):
            value = tuple(tuple(pair) for pair in value)
        clean[name] = value
    if not clean:
        return rules
    return dataclasses.replace(rules, name=f"{rules.name}+house", **clean)


def presets_table(presets=None):
    """All presets side by side as a pandas DataFrame: one row per option, one column per preset."""
    import pandas as pd

    chosen = [get_rules(p) for p in (presets or PRESETS)]
    rows = {}
    for option in OPTION_NAMES:
        row = {}
        for r in chosen:
            value = getattr(r, option)
            if option == "opening_table":
                value = "; ".join(f"{band}: {m}" for band, m, _lo, _nxt in r.opening_rows())
            row[r.name] = value
        rows[option] = row
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = "option"
    return frame


def differing_options(presets=None) -> list[str]:
    """The options on which the given presets do not all agree."""
    chosen = [get_rules(p) for p in (presets or PRESETS)]
    return [o for o in OPTION_NAMES if len({repr(getattr(r, o)) for r in chosen}) > 1]


def citation(rules: RuleSet, option: str) -> str:
    """The source cited for ``option`` in ``rules`` (looked up in grouped keys too)."""
    for keys, cite in rules.sources:
        if option in [k.strip() for k in keys.split(",")]:
            return cite
    return ""
