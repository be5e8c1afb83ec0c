"""House rules side by side: the presets in plain words, one situation judged under every preset.

>>> frame = judge_everywhere("meld", cards="9H 9S 9D 2C 2D JK")
>>> frame.loc["danish", "answer"], frame.loc["hoyle", "answer"]
('not a meld', 'a meld')
>>> [row.label for row in preset_rows(["classic", "danish"]) if row.differs][:2]
['Wild cards a meld may hold', 'Canastas needed to go out']
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from ..engine.errors import CanastaError
from ..engine.i18n import N_
from ..engine.i18n import gettext as _
from ..engine.numbers import number_word
from ..engine.rules import PRESETS, RuleSet, citation, get_rules
from ..puzzles.format import Puzzle, parse_situation

#: The options that decide each kind of question, for naming the source of each answer.
DECIDING_OPTIONS = {
    "meld": ("wild_limit", "max_wild", "sequences", "black_threes_with_wild"),
    "opening": ("opening_table", "wild_limit"),
    "freeze": ("pile_always_frozen", "red_three_freezes_pile", "black_three_freezes_pile"),
    "take-pile": ("take_with_natural_and_wild", "take_onto_canasta", "opening_table", "canastas_to_go_out"),
    "go-out": ("canastas_to_go_out", "wild_limit", "black_threes_with_wild", "wild_swap"),
    "score-hand": ("red_three_penalty", "all_red_threes_penalty", "all_red_threes_bonus", "concealed_going_out_bonus",
                   "samba_bonus"),
    "card-points": (),
}

#: Situations worth comparing, for the variants lesson.
EXAMPLES = {
    "Is 9-9-9-2-2-Joker a meld?": ("meld", {"cards": "9H 9S 9D 2C 2D JK"}),
    "Is 5-5-2-2 a meld?": ("meld", {"cards": "5H 5S 2C 2D"}),
    "Is 5-6-7-8 of hearts a meld?": ("meld", {"cards": "5H 6H 7H 8H"}),
    "Can you go out with one canasta on the table?": (
        "go-out", {"hand": "KH KS KD 9C", "melds": ["7H 7S 7D 7C 7H 7S 7D"], "score": 0}),
    "Take the pile with one 7 and a joker?": (
        "take-pile", {"hand": "7H JK 4C 9D", "melds": ["KH KS KD"], "score": 0, "pile": "5D 8S 7C"}),
    "What do two red threes cost a team that never melded?": (
        "score-hand", {"melds": [], "red_threes": "3H 3D", "hands": [], "went_out": False}),
    "Opening with 80 points at a score of 1500?": (
        "opening", {"score": 1500, "melds": ["AH AS AD 2C"]}),
}

#: The four-player partnership presets, shown side by side first in the variants lesson.
PARTNERSHIP_PRESETS = tuple(name for name, r in PRESETS.items() if r.players == 4)


# --- the presets in plain words ----------------------------------------------------------------------------------
def _n(n: int) -> str:
    return number_word(n, "none")


def _yes(value: bool) -> str:
    return _("yes") if value else _("no")


def _points(n: int) -> str:
    return f"{n:,}".replace(",", " ") if n >= 10000 else str(n)


def _wild(r: RuleSet) -> str:
    most = _("at most {count}").format(count=_n(r.max_wild))
    return {"three": most,
            "not-more-than-natural": _("no more than its natural cards, and at most {count}"),
            "fewer-than-natural": _("fewer than its natural cards, and at most {count}")}[r.wild_limit].format(
                count=_n(r.max_wild))


def _black_threes(r: RuleSet) -> str:
    return (_("three or four, or two and a wild card") if r.black_threes_with_wild
            else _("three or four, no wild card"))


@dataclass(frozen=True)
class Row:
    """One rule in plain words: the options it shows and each preset's value in words."""

    label: str
    options: tuple[str, ...]
    values: tuple[str, ...]

    @property
    def differs(self) -> bool:
        return len(set(self.values)) > 1


#: The presets' ``teams`` in words (engine/rules.py writes them in English), marked here for the catalogs.
TEAMS_WORDS = (N_("two partnerships of two"), N_("two players, each alone"),
               N_("one alone against two (the first to take the pile plays alone)"),
               N_("three teams of two or two teams of three"))

#: Every option of a RuleSet appears in exactly one row (a test holds this).
ROWS = (
    (N_("Players"), ("players", "teams"),
     lambda r: _("{players}: {seating}").format(players=_n(r.players), seating=_(r.teams))),
    (N_("The first to take the pile plays alone; the others are partners for that hand"), ("lone_hand",),
     lambda r: _yes(r.lone_hand)),
    (N_("Cards in play"), ("decks", "jokers"),
     lambda r: _("{decks} packs and {jokers} jokers ({cards} cards)").format(
         decks=_n(r.decks), jokers=_n(r.jokers), cards=52 * r.decks + r.jokers)),
    (N_("Cards dealt to each player"), ("hand_size",), lambda r: _n(r.hand_size)),
    (N_("Cards drawn from the stock each turn"), ("draw_count",),
     lambda r: _("one") if r.draw_count == 1 else _("{count} (and one is discarded)").format(count=_n(r.draw_count))),
    (N_("Wild cards a meld may hold"), ("wild_limit", "max_wild"), _wild),
    (N_("Runs of one suit"), ("sequences", "samba_bonus"),
     lambda r: _("yes: a run of seven is a samba, {bonus} points").format(bonus=_points(r.samba_bonus))
     if r.sequences else _("no, only cards of one rank")),
    (N_("Canastas needed to go out"), ("canastas_to_go_out",),
     lambda r: _("{count} (canastas and sambas together)").format(count=_n(r.canastas_to_go_out)) if r.sequences
     else _n(r.canastas_to_go_out)),
    (N_("Opening minimum, by the team's score"), ("opening_table",),
     lambda r: "; ".join(f"{band}: {m}" for band, m, _lo, _nx in r.opening_rows())),
    (N_("Canasta bonus"), ("natural_canasta_bonus", "mixed_canasta_bonus"),
     lambda r: _("natural {natural}, mixed {mixed}").format(natural=r.natural_canasta_bonus,
                                                            mixed=r.mixed_canasta_bonus)),
    (N_("Extra for a canasta melded from the hand in one go"), ("concealed_canasta_bonus",),
     lambda r: _("{bonus} more").format(bonus=r.concealed_canasta_bonus) if r.concealed_canasta_bonus
     else _("none")),
    (N_("Red threes"), ("red_three_bonus", "all_red_threes_bonus"),
     lambda r: _("{bonus} each; all {count}: {all_bonus}").format(
         bonus=r.red_three_bonus, count=_n(r.red_threes_in_game), all_bonus=_points(r.all_red_threes_bonus))),
    (N_("Red threes of a team that has not melded"), ("red_three_penalty", "all_red_threes_penalty"),
     lambda r: _("minus {penalty} each; all {count}: minus {all_penalty}").format(
         penalty=r.red_three_penalty, count=_n(r.red_threes_in_game), all_penalty=_points(r.all_red_threes_penalty))),
    (N_("Going out"), ("going_out_bonus",), lambda r: str(r.going_out_bonus)),
    (N_("Going out concealed (all in one turn)"), ("concealed_going_out_bonus",),
     lambda r: _("{bonus} in all").format(bonus=r.concealed_going_out_bonus)),
    (N_("Going out concealed after drawing from the stock needs no opening minimum"), ("concealed_needs_no_minimum",),
     lambda r: _yes(r.concealed_needs_no_minimum)),
    (N_("Going out concealed needs a canasta among the player's own melds of that turn"),
     ("concealed_needs_canasta",), lambda r: _yes(r.concealed_needs_canasta)),
    (N_("Going out concealed is not possible in a turn the pile was taken"), ("concealed_without_pile",),
     lambda r: _yes(r.concealed_without_pile)),
    (N_("Black threes melded by a player going out"), ("black_threes_with_wild",), _black_threes),
    (N_("A red three in the pile freezes it"), ("red_three_freezes_pile",),
     lambda r: _yes(r.red_three_freezes_pile)),
    (N_("A black three anywhere in the pile freezes it"), ("black_three_freezes_pile",),
     lambda r: _yes(r.black_three_freezes_pile)),
    (N_("The pile is always frozen"), ("pile_always_frozen",), lambda r: _yes(r.pile_always_frozen)),
    (N_("A black three turned up as the first card of the pile is covered by another"),
     ("black_three_upcard_covered",), lambda r: _yes(r.black_three_upcard_covered)),
    (N_("Take an unfrozen pile with one natural card and a wild card"), ("take_with_natural_and_wild",),
     lambda r: _yes(r.take_with_natural_and_wild)),
    (N_("Take the pile by laying its top card off on a finished canasta"), ("take_onto_canasta",),
     lambda r: _yes(r.take_onto_canasta)),
    (N_("A one-card pile may be taken by a player holding one card"), ("one_card_pile_rule",),
     lambda r: _yes(not r.one_card_pile_rule)),
    (N_("Swap a natural card for a wild card in your team's unfinished group, and keep the wild card"),
     ("wild_swap",), lambda r: _yes(r.wild_swap)),
    (N_("Game played to"), ("target_score",), lambda r: _points(r.target_score)),
)


def short_title(rules: RuleSet) -> str:
    """A preset's title without its parenthesis: 'Classic Canasta', 'Danish house rules'."""
    return rules.display_title.split(" (")[0]


def _chosen(presets) -> list[RuleSet]:
    return [get_rules(p) for p in (presets or PARTNERSHIP_PRESETS)]


def preset_rows(presets=None) -> list[Row]:
    """Every rule in plain words, one value per preset (default: the four-player partnership presets)."""
    chosen = _chosen(presets)
    return [Row(_(label), options, tuple(show(r) for r in chosen)) for label, options, show in ROWS]


_MARK = "background:#fff3c4"
_TABLE_CSS = ("<style>.ct-presets-box{max-width:100%;overflow-x:auto;-webkit-overflow-scrolling:touch}"
              ".ct-presets{border-collapse:collapse;font-size:14px;min-width:0}"
              ".ct-presets th,.ct-presets td{border:1px solid #ccc;padding:4px 6px;vertical-align:top;"
              "text-align:left;min-width:7em}"
              ".ct-presets th:first-child{position:sticky;left:0;background:#f5f5f5;min-width:9em;max-width:14em}"
              ".ct-presets tr.ct-differs th:first-child{background:#fff3c4}</style>")


def presets_html(presets=None) -> str:
    """The presets side by side as an HTML table in plain words; only rows whose values differ are highlighted.

    The table scrolls inside its own box on a narrow screen, so the page does not.
    """
    chosen = _chosen(presets)
    head = "".join(f"<th scope='col' title='{html.escape(r.display_title)}'>{html.escape(short_title(r))}</th>"
                   for r in chosen)
    body = []
    for row in preset_rows(presets):
        mark = f" class='ct-differs' style='{_MARK}'" if row.differs else ""
        cells = "".join(f"<td>{html.escape(v)}</td>" for v in row.values)
        body.append(f"<tr{mark}><th scope='row'>{html.escape(row.label)}</th>{cells}</tr>")
    # the box scrolls on a narrow screen: focusable, so that a keyboard can scroll it too
    region = html.escape(_("The rule sets side by side"), quote=True)
    rule = html.escape(_("Rule"))
    return (_TABLE_CSS + f"<div class='ct-presets-box' tabindex='0' role='region' aria-label='{region}'>"
            "<table class='ct-presets' style='display:table'>"
            f"<thead><tr><th>{rule}</th>{head}</tr></thead><tbody>{''.join(body)}</tbody>"
            "</table></div>")


# --- where each rule comes from ----------------------------------------------------------------------------------
#: The sources by the number that starts their file name: title and language (rule-decisions.md).
SOURCES = {
    "000": ("Canasta, a step-by-step guide", "Dutch"),
    "001": ("Canasta as played in Denmark", "Danish"),
    "002": ("Spelregels Canasta (Spelregelwijzer): the classic rules", "Dutch"),
    "003": ("Die volledige reëls vir Canasta: Hoyle-style rules", "Afrikaans"),
    "004": ("Samba, the three-deck variant", "Dutch"),
}
_FILE = re.compile(r"\b(00[0-4])_[0-9a-f]{16}\.txt\b")

#: For each citation in the presets (exactly as the engine writes it): the quotes it holds from the source, each
#: with an English translation, and a plain note where the citation adds one. A test checks that every citation
#: has an entry and that every quote is found in its source.
QUOTES: dict[str, tuple[tuple[tuple[str, str], ...], str]] = {}


def _q(cite_end: str, quotes: tuple[tuple[str, str], ...], note: str = "") -> None:
    QUOTES[cite_end] = (quotes, note)


_q("'Vier spelers in twee teams, 108 kaarten, ieder 11 kaarten.' and 'Neem de bovenste kaart van de stock'.",
   (("Vier spelers in twee teams, 108 kaarten, ieder 11 kaarten.",
     "Four players in two teams, 108 cards, 11 cards each."),
    ("Neem de bovenste kaart van de stock", "Take the top card of the stock")))
_q("'Je legt sets van minstens 3 kaarten met dezelfde waarde. Rijen bestaan niet.'",
   (("Je legt sets van minstens 3 kaarten met dezelfde waarde. Rijen bestaan niet.",
     "You lay down sets of at least 3 cards of the same rank. There are no runs."),))
_q("'Schud twee pakken van 52 kaarten en 4 jokers door elkaar' and 'Geef iedere speler 11 kaarten'.",
   (("Schud twee pakken van 52 kaarten en 4 jokers door elkaar", "Shuffle two packs of 52 cards and 4 jokers together"),
    ("Geef iedere speler 11 kaarten", "Deal each player 11 cards")))
_q("'Een set bevat minstens 2 gewone kaarten en hoogstens 3 wilde.' (000 agrees; 001 and 003 differ).",
   (("Een set bevat minstens 2 gewone kaarten en hoogstens 3 wilde.",
     "A set holds at least 2 ordinary cards and at most 3 wild ones."),),
   "The step-by-step guide agrees; the Danish and the Hoyle-style rules differ.")
_q("'Uitgaan mag pas als je team minstens één canasta heeft.' (001 asks for two).",
   (("Uitgaan mag pas als je team minstens één canasta heeft.",
     "You may go out only when your team has at least one canasta."),),
   "The Danish rules ask for two.")
_q("table 'De eerste uitleg': below 0: 15; 0 to 1495: 50; 1500 to 2995: 90; 3000 or more: 120.",
   (("De eerste uitleg", "The first meld"),),
   "From that section's table: below 0: 15; 0 to 1495: 50; 1500 to 2995: 90; 3000 or more: 120.")
_q("'Zuivere canasta 500', 'Gemengde canasta 300'.",
   (("Zuivere canasta", "Natural canasta (500)"), ("Gemengde canasta", "Mixed canasta (300)")))
_q("no bonus for a canasta melded from the hand; 'Hand-canasta (huisregel) ... Dit hoort niet bij het klassieke spel.'",
   (("Hand-canasta (huisregel) ... Dit hoort niet bij het klassieke spel.",
     "Hand canasta (a house rule) ... This is not part of the classic game."),),
   "No bonus for a canasta melded from the hand.")
_q("'Rode 3 ... 100 punten per stuk, 800 voor alle vier.'",
   (("Rode 3 ... 100 punten per stuk, 800 voor alle vier.", "Red 3 ... 100 points each, 800 for all four."),))
_q("'Heeft een team niets uitgelegd, dan tellen zijn rode drieën negatief: min 100 per stuk, min 800 voor alle "
   "vier.' (001: minus 200).",
   (("Heeft een team niets uitgelegd, dan tellen zijn rode drieën negatief: min 100 per stuk, min 800 voor alle vier.",
     "If a team has melded nothing, its red threes count against it: minus 100 each, minus 800 for all four."),),
   "The Danish rules: minus 200.")
_q("'Uitgaan 100', 'Verborgen uitgaan ... 200 in totaal' (000 reads as 300; rule-decisions: 200 in all).",
   (("Uitgaan", "Going out (100)"), ("Verborgen uitgaan ... 200 in totaal", "Going out concealed ... 200 in all")),
   "The step-by-step guide can be read as 300; this tutor follows the classic rules: 200 in all.")
_q("'wie na het trekken van de stock zijn hele hand in één keer kan uitleggen, met een canasta erbij, mag dat doen "
   "zonder het minimum te halen.'",
   (("wie na het trekken van de stock zijn hele hand in één keer kan uitleggen, met een canasta erbij, mag dat doen "
     "zonder het minimum te halen.",
     "whoever, after drawing from the stock, can meld their whole hand at once, a canasta included, may do so "
     "without reaching the minimum."),))
_q("'als set van drie of vier zwarte drieën zonder wilde kaarten' (001 allows two and a wild card).",
   (("als set van drie of vier zwarte drieën zonder wilde kaarten", "as a set of three or four black threes without "
                                                                     "wild cards"),),
   "The Danish rules allow two and a wild card.")
_q("'Stapel altijd bevroren ... Dit is een variant, geen klassieke regel.'",
   (("Stapel altijd bevroren ... Dit is een variant, geen klassieke regel.",
     "Pile always frozen ... This is a variant, not a classic rule."),))
_q("'Mag je de stapel pakken met één passende kaart en een joker? Ja, in klassiek canasta mag dat, zolang de stapel "
   "niet bevroren is en je team al heeft uitgelegd.'",
   (("Mag je de stapel pakken met één passende kaart en een joker? Ja, in klassiek canasta mag dat, zolang de stapel "
     "niet bevroren is en je team al heeft uitgelegd.",
     "May you take the pile with one matching card and a joker? Yes, in classic canasta you may, as long as the "
     "pile is not frozen and your team has already melded."),))
_q("'... of als je hem kunt aanleggen bij een set van je team' (rule-decisions: a finished canasta included).",
   (("... of als je hem kunt aanleggen bij een set van je team", "... or if you can lay it off on one of your "
                                                                  "team's sets"),),
   "A finished canasta counts as one of the team's sets.")
_q("'Je mag de stok niet pakken als je nog maar één kaart in de hand hebt én de stok ook maar één kaart is.' "
   "An option, off in classic (rule-decisions).",
   (("Je mag de stok niet pakken als je nog maar één kaart in de hand hebt én de stok ook maar één kaart is.",
     "You may not take the pile when you hold only one card and the pile is also only one card."),),
   "An option, off in the classic rules.")
_q("'Het team dat als eerste 5000 punten heeft, wint.'",
   (("Het team dat als eerste 5000 punten heeft, wint.", "The first team to have 5000 points wins."),))
_q("'Met twee spelers krijgt ieder 15 kaarten. Je trekt elke beurt twee kaarten van de stock en legt er één af. Om "
   "uit te gaan heb je twee canasta's nodig in plaats van één.' (000 agrees)",
   (("Met twee spelers krijgt ieder 15 kaarten. Je trekt elke beurt twee kaarten van de stock en legt er één af. Om "
     "uit te gaan heb je twee canasta's nodig in plaats van één.",
     "With two players each gets 15 cards. Each turn you draw two cards from the stock and discard one. To go out "
     "you need two canastas instead of one."),),
   "The step-by-step guide agrees.")
_q("'Om het uit te kunnen maken moet je minimaal twee canasta's hebben gevormd.' (three players; 002 is silent)",
   (("Om het uit te kunnen maken moet je minimaal twee canasta’s hebben gevormd.",
     "To be able to go out you must have made at least two canastas."),),
   "Said for three players; the classic rules are silent.")
_q("'Ieder krijgt 13 kaarten en trekt twee kaarten per beurt van de stock, maar legt er één af. Wie als eerste de "
   "stapel pakt, speelt die ronde alleen tegen de andere twee. Je speelt tot 7500 punten.'",
   (("Ieder krijgt 13 kaarten en trekt twee kaarten per beurt van de stock, maar legt er één af. Wie als eerste de "
     "stapel pakt, speelt die ronde alleen tegen de andere twee. Je speelt tot 7500 punten.",
     "Each gets 13 cards and draws two cards from the stock each turn, but discards one. Whoever takes the pile "
     "first plays that hand alone against the other two. You play to 7500 points."),))
_q("'Wie als eerste de stapel pakt, speelt die ronde alleen tegen de andere twee.' (rule-decisions, player counts; "
   "where 002 is silent the game model follows the published Cutthroat Canasta rules)",
   (("Wie als eerste de stapel pakt, speelt die ronde alleen tegen de andere twee.",
     "Whoever takes the pile first plays that hand alone against the other two."),),
   "The other two play as partners for that hand, on one table; until someone takes the pile, each plays alone.")
_q("rule-decisions.md (classic): frozen when a wild card or a red three lies in it; a black three does not freeze "
   "the pile.", (),
   "The classic rules freeze the pile with a wild card or a red three in it; a black three on top only blocks it "
   "until the next discard covers it.")
_q("silent; no wild card is ever taken back from a meld.", (),
   "The classic rules never let a wild card be taken back from a meld, so there is no swapping.")
_q("''N Versteekte canasta ... dra 'n bonus telling van 100 punte (so 400 vir 'n versteekte gemengde canasta en 600 "
   "vir 'n versteekte natuurlike canasta).' Going out concealed, every canasta of the hand is a concealed one "
   "(rule-decisions).",
   (("'N Versteekte canasta ... dra 'n bonus telling van 100 punte (so 400 vir 'n versteekte gemengde canasta en "
     "600 vir 'n versteekte natuurlike canasta).",
     "A concealed canasta ... carries a bonus of 100 points (so 400 for a concealed mixed canasta and 600 for a "
     "concealed natural canasta)."),),
   "Going out concealed, every canasta of that hand was melded from the hand in one go, so each earns the 100.")
_q("only a wild card turned up freezes the pile: 'As een van hierdie bonuskaarte 'n wilde kaart was, vries dit ook "
   "die vullisstapel'.",
   (("As een van hierdie bonuskaarte 'n wilde kaart was, vries dit ook die vullisstapel",
     "If one of these bonus cards was a wild card, it also freezes the discard pile"),),
   "The Hoyle-style rules name only a wild card turned up as freezing the pile, so a red three there does not.")
_q("004_21b6a2a99892059f.txt rule 4: 'Als je de gewone kaart hebt die een joker vervangt in een onvoltooide groep, "
   "mag je hem omwisselen en de joker houden. In reeksen zijn jokers helemaal niet toegestaan'.",
   (("Als je de gewone kaart hebt die een joker vervangt in een onvoltooide groep, mag je hem omwisselen en de "
     "joker houden. In reeksen zijn jokers helemaal niet toegestaan",
     "If you hold the ordinary card that a joker stands for in an unfinished group, you may swap them and keep "
     "the joker. In sequences jokers are not allowed at all"),))
_q("'Blokkering: Een aflegstapel die niet kan worden opgepakt behalve met een gewoon paar ...; wordt getriggerd "
   "wanneer een joker of een zwarte drie wordt afgelegd.'",
   (("Blokkering: Een aflegstapel die niet kan worden opgepakt behalve met een gewoon paar ...; wordt getriggerd "
     "wanneer een joker of een zwarte drie wordt afgelegd.",
     "Blocking: a discard pile that cannot be picked up except with a natural pair ...; it is triggered when a "
     "joker or a black three is discarded."),))
_q("rule-decisions.md (player counts): two canastas to go out; 002 is silent.", (),
   "Two canastas to go out: the classic rules are silent, so this tutor decided it.")
_q("'Je gebruikt drie pakken met zes jokers en deelt 13 kaarten per speler. Er wordt gespeeld in drie teams van twee "
   "of twee teams van drie.'",
   (("Je gebruikt drie pakken met zes jokers en deelt 13 kaarten per speler. Er wordt gespeeld in drie teams van "
     "twee of twee teams van drie.",
     "You use three packs with six jokers and deal 13 cards to each player. You play in three teams of two or two "
     "teams of three."),))
_q("open point, decided here: with six red threes in play, all six count 1000 (as in Samba, "
   "004_21b6a2a99892059f.txt: '1.000 punten als een team alle zes bemachtigt'); 002 gives only the four-red-three "
   "figure.",
   (("1.000 punten als een team alle zes bemachtigt", "1,000 points when a team gets all six"),),
   "The classic rules give only the figure for four red threes; with six in play this tutor counts all six as "
   "1000, as in Samba.")
_q("'der skal dog altid være flere ægte kort end vilde kort, når man lægger ned.' (at most three wild cards, as "
   "classic, where 001 is silent)",
   (("der skal dog altid være flere ægte kort end vilde kort, når man lægger ned.",
     "there must, however, always be more natural cards than wild cards when you meld."),),
   "At most three wild cards, as in the classic rules, where the Danish rules are silent.")
_q("'For at kunne det, skal din makker og dig have mindst 2 Canasta'er.' (partnership play; one when each plays "
   "alone)",
   (("For at kunne det, skal din makker og dig have mindst 2 Canasta’er.",
     "To be able to do that, you and your partner must have at least 2 canastas."),),
   "For partners; one canasta when each plays alone.")
_q("'Minuspoint 15; 0-1495 50; 1500-2995 90; 3000-4995 120' (as classic).",
   (("Minuspoint", "Minus points (a score below zero)"),),
   "From the table of first melds: below zero 15; 0-1495: 50; 1500-2995: 90; 3000-4995: 120. As in the classic "
   "rules.")
_q("'En rød 3'er på bordet tæller også minus 200, hvis parret ikke har åbnet. ... får de minus 1600 point.'",
   (("En rød 3’er på bordet tæller også minus 200, hvis parret ikke har åbnet. ... får de minus 1600 point.",
     "A red 3 on the table also counts minus 200 if the partners have not opened. ... they get minus 1600 "
     "points."),))
_q("'Denne spiller kan da kombinere tre sorte 3'ere (eller to 3'ere og et vildt kort).'",
   (("Denne spiller kan da kombinere tre sorte 3’ere (eller to 3’ere og et vildt kort).",
     "This player may then combine three black 3s (or two 3s and a wild card)."),))
_q("'to kort af samme værdi som det øverste kort eller et tilsvarende og en joker' (as classic).",
   (("to kort af samme værdi som det øverste kort eller et tilsvarende og en joker",
     "two cards of the same rank as the top card, or one matching card and a joker"),),
   "As in the classic rules.")
_q("'kan nooit meer wilde kaarte as natuurlike kaarte (en dus meer as drie wildkaarte) hê nie. Voorbeelde: 5-5-2 en "
   "9-9-9-2-2-Joker is legal melds.'",
   (("kan nooit meer wilde kaarte as natuurlike kaarte (en dus meer as drie wildkaarte) hê nie. Voorbeelde: 5-5-2 en "
     "9-9-9-2-2-Joker is legal melds.",
     "can never hold more wild cards than natural cards (and so never more than three wild cards). Examples: 5-5-2 "
     "and 9-9-9-2-2-Joker are legal melds."),))
_q("''N Versteekte canasta ... dra 'n bonus telling van 100 punte (so 400 vir 'n versteekte gemengde canasta en 600 "
   "vir 'n versteekte natuurlike canasta).'",
   (("'N Versteekte canasta ... dra 'n bonus telling van 100 punte (so 400 vir 'n versteekte gemengde canasta en 600 "
     "vir 'n versteekte natuurlike canasta).",
     "A concealed canasta ... carries a bonus of 100 points (so 400 for a concealed mixed canasta and 600 for a "
     "concealed natural canasta)."),))
_q("'Reeks: Drie tot zes opeenvolgende kaarten van dezelfde kleur, zonder jokers.' and 'Samba: Een voltooide "
   "zevenkaartsreeks, 1.500 bonuspunten waard.'",
   (("Reeks: Drie tot zes opeenvolgende kaarten van dezelfde kleur, zonder jokers.",
     "Sequence: three to six consecutive cards of the same suit, without jokers."),
    ("Samba: Een voltooide zevenkaartsreeks, 1.500 bonuspunten waard.",
     "Samba: a finished sequence of seven cards, worth 1,500 bonus points.")))
_q("'Jokers mogen worden opgenomen, maar maximaal twee per groep, en de groep moet altijd meer gewone kaarten dan "
   "jokers bevatten.'",
   (("Jokers mogen worden opgenomen, maar maximaal twee per groep, en de groep moet altijd meer gewone kaarten dan "
     "jokers bevatten.",
     "Jokers may be included, but at most two per group, and the group must always hold more ordinary cards than "
     "jokers."),))
_q("'ten minste twee canasta's, of twee samba's, of één canasta en één samba'.",
   (("ten minste twee canasta's, of twee samba's, of één canasta en één samba",
     "at least two canastas, or two sambas, or one canasta and one samba"),))
_q("'minimaal 50 als jouw team minder dan 1.500 punten heeft, 90 bij 1.500 tot 6.999, en 150 vanaf 7.000 punten.'",
   (("minimaal 50 als jouw team minder dan 1.500 punten heeft, 90 bij 1.500 tot 6.999, en 150 vanaf 7.000 punten.",
     "at least 50 if your team has fewer than 1,500 points, 90 from 1,500 to 6,999, and 150 from 7,000 points."),))
_q("open point, decided here: 004_21b6a2a99892059f.txt is silent; as classic (002_56e880b179d5253b.txt).", (),
   "The Samba rules are silent; this tutor follows the classic rules.")
_q("'Verborgen uitgaan (hele hand in één beurt, met canasta)'; going out concealed is the player's: "
   "000_3de1f15b082faa45.txt 'als je in één beurt al je kaarten op tafel kunt leggen' (rule-decisions: the melds he "
   "makes that turn include a complete canasta; the pile may be taken in that turn).",
   (("Verborgen uitgaan (hele hand in één beurt, met canasta)", "Going out concealed (the whole hand in one turn, "
                                                                 "with a canasta)"),
    ("als je in één beurt al je kaarten op tafel kunt leggen", "if you can put all your cards on the table in one "
                                                               "turn")),
   "Going out concealed is the player's own: what the partner melded before does not matter. The player's melds "
   "of that turn include a canasta; the pile may have been taken in that turn.")
_q("'Is die kaart een 2, een joker of een rode 3, leg hem dan dwars en draai er een nieuwe kaart bovenop' (a black "
   "three turned up stays on top).",
   (("Is die kaart een 2, een joker of een rode 3, leg hem dan dwars en draai er een nieuwe kaart bovenop",
     "If that card is a 2, a joker or a red 3, lay it crosswise and turn a new card on top of it"),),
   "A black three turned up stays on top.")
_q("'As hierdie eerste gedraaide kaart 'n rooi of swart drie of 'n wildkaart is, word bykomende kaarte van die "
   "voorraad na die bokant van die weggooipaal oorgedra'.",
   (("As hierdie eerste gedraaide kaart 'n rooi of swart drie of 'n wildkaart is, word bykomende kaarte van die "
     "voorraad na die bokant van die weggooipaal oorgedra",
     "If this first card turned up is a red or black three or a wild card, more cards from the stock are moved "
     "onto the top of the discard pile"),))
_q("'Verborgen uitkomen (de hele hand in één beurt melden zonder eerdere meldingen van de speler en zonder de "
   "stapel op te pakken)': no canasta of his own asked for, the pile not taken.",
   (("Verborgen uitkomen (de hele hand in één beurt melden zonder eerdere meldingen van de speler en zonder de "
     "stapel op te pakken)",
     "Going out concealed (melding the whole hand in one turn, without earlier melds by that player and without "
     "picking up the pile)"),),
   "No canasta of the player's own is asked for; the pile must not have been taken in that turn.")
_q("'het eerste koppel dat 10.000 punten bereikt, wint de partij.'",
   (("het eerste koppel dat 10.000 punten bereikt, wint de partij.",
     "the first pair to reach 10,000 points wins the game."),))
_q("'Drie standaard kaartspellen van 52 kaarten die samen met zes jokers worden geschud' and 'De deler geeft elke "
   "speler 15 kaarten' and 'Trek op jouw beurt twee kaarten'.",
   (("Drie standaard kaartspellen van 52 kaarten die samen met zes jokers worden geschud",
     "Three standard packs of 52 cards, shuffled together with six jokers"),
    ("De deler geeft elke speler 15 kaarten", "The dealer gives each player 15 cards"),
    ("Trek op jouw beurt twee kaarten", "On your turn, draw two cards")))
_q("'elk 100 punten waard, of 1.000 punten als een team alle zes bemachtigt'; unopened: 'telt elke rode drie als "
   "min 100'.",
   (("elk 100 punten waard, of 1.000 punten als een team alle zes bemachtigt",
     "each worth 100 points, or 1,000 points when a team gets all six"),
    ("telt elke rode drie als min 100", "each red three counts as minus 100")),
   "The second quote is for a team that has not melded.")
_q("'levert een bonus van 200 punten op bovenop de standaard uitkomstbonus van 100 punten' (300 in all).",
   (("levert een bonus van 200 punten op bovenop de standaard uitkomstbonus van 100 punten",
     "earns a bonus of 200 points on top of the standard going-out bonus of 100 points"),),
   "300 in all.")
_q("'door hem te combineren met twee gewone kaarten van dezelfde rang uit je hand, hetzij door hem toe te voegen aan "
   "een bestaande melding' (rule-decisions: a group, not a sequence, not a finished canasta or samba).",
   (("door hem te combineren met twee gewone kaarten van dezelfde rang uit je hand, hetzij door hem toe te voegen aan "
     "een bestaande melding",
     "by combining it with two ordinary cards of the same rank from your hand, or by adding it to an existing "
     "meld"),),
   "The meld must be a group, not a sequence, and not a finished canasta or samba.")


def _body(cite: str) -> str:
    """The citation without the leading source file name."""
    m = re.match(r"(00[0-4])_[0-9a-f]{16}\.txt: ", cite)
    return cite[m.end():] if m else cite


def source_titles(cite: str) -> list[str]:
    """The sources a citation names, as learners see them: 'title (language)'."""
    out = []
    for number in _FILE.findall(cite):
        title, language = SOURCES[number]
        label = f"{title}, {language}"
        if label not in out:
            out.append(label)
    return out


def readable_citation(cite: str) -> str:
    """The engine's citation exactly, with each source file name replaced by the source's title."""
    return _FILE.sub(lambda m: "“" + SOURCES[m.group(1)][0] + "”", cite)


def _source_block(cite: str) -> str:
    quotes, note = QUOTES.get(_body(cite), ((), ""))
    titles = source_titles(cite)
    origin = html.escape("; ".join(titles)) if titles else "this tutor, where the sources are silent"
    parts = [f"<div class='ct-source-title'><i>{origin}</i></div>"]
    for original, english in quotes:
        parts.append(f"<blockquote style='margin:2px 0 2px 12px'>“{html.escape(original)}”"
                     f"<br><span style='color:#555'>In English: “{html.escape(english)}”</span></blockquote>")
    if note:
        parts.append(f"<div style='margin-left:12px'>{html.escape(note)}</div>")
    if not quotes and not note:  # a citation nobody has translated yet: show it as the engine wrote it
        parts.append(f"<div style='margin-left:12px'>{html.escape(readable_citation(cite))}</div>")
    return "".join(parts)


def sources_html(presets=None) -> str:
    """Where each rule of each preset comes from: the source by title and language, the quote, an English
    translation; the engine's exact citation in a collapsible part. Only rules on which the presets shown differ
    are listed, and for each preset only the citations it has.
    """
    chosen = _chosen(presets)
    rows = [row for row in preset_rows(presets) if row.differs]
    exact, where = html.escape(_("the exact citation")), html.escape(_("where does this come from?"))
    sections = []
    for r in chosen:
        items = []
        seen: set[str] = set()
        for row in rows:
            cites = [c for c in dict.fromkeys(citation(r, o) for o in row.options) if c and c not in seen]
            seen.update(cites)
            for cite in cites:
                items.append(f"<li style='margin:6px 0'><b>{html.escape(row.label)}</b>: "
                             f"{html.escape(row.values[chosen.index(r)])}{_source_block(cite)}"
                             f"<details style='margin-left:12px'><summary style='cursor:pointer;color:#555'>"
                             f"{exact}</summary><code style='white-space:normal'>"
                             f"{html.escape(readable_citation(cite))}</code></details></li>")
        if items:
            sections.append(f"<details class='ct-sources'><summary style='cursor:pointer'><b>"
                            f"{html.escape(short_title(r))}</b>: {where}"
                            "</summary>"
                            f"<ul style='padding-left:18px'>{''.join(items)}</ul></details>")
    return "<div class='ct-sources-box' style='max-width:100%;overflow-wrap:anywhere'>" + "".join(sections) + "</div>"


# --- one situation under every preset ----------------------------------------------------------------------------
def _describe(kind: str, answer: dict) -> str:
    from ..puzzles.kinds import get_kind

    return get_kind(kind).describe(answer)


def judge_everywhere(kind: str, presets=None, **situation):
    """One row per preset: the answer, the engine's first reason, and the sources of the deciding rules, each
    named by its title and language (the quotes are in :func:`sources_html`)."""
    import pandas as pd

    from ..puzzles.solver import solve

    rows = {}
    for name in presets or PRESETS:
        rules = get_rules(name)
        parsed = parse_situation(situation)
        try:
            solution = solve(Puzzle(id="compare", kind=kind, rules=rules, situation=parsed))
            answer = _describe(kind, solution.answer)
            why = solution.explanation[0] if solution.explanation else ""
        except CanastaError as e:  # an impossible situation under this preset's decks
            answer, why = _("cannot happen"), str(e)
        sources = []
        for option in DECIDING_OPTIONS.get(kind, ()):
            cite = citation(rules, option)
            if cite and cite not in sources:
                sources.append(cite)
        titles = list(dict.fromkeys(t for c in sources for t in source_titles(c)))
        rows[name] = {"answer": answer, "why": why, "source": "; ".join(titles)}
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = "preset"
    return frame


def highlight_differences(frame, column: str = "answer", baseline: str = "classic"):
    """A pandas Styler of :func:`judge_everywhere`'s frame for learners: the rows whose ``column`` differs from the
    ``baseline`` row marked, each preset named by its short title, no index header."""
    base = frame.loc[baseline, column] if baseline in frame.index else None
    differs = [base is not None and value != base for value in frame[column]]
    shown = frame.rename(index=lambda n: short_title(PRESETS[n]) if n in PRESETS else n,
                         columns=lambda c: c.capitalize())
    shown.index.name = None
    marked = {label for label, mark in zip(shown.index, differs) if mark}

    def colour(row):
        return ["background-color: #fff3c4; font-weight: bold" if row.name in marked else "" for _ in row]

    # on a narrow screen the table scrolls in its own box and its columns stay readable
    return shown.style.apply(colour, axis=1).set_table_styles(
        [{"selector": "", "props": "display:block;max-width:100%;overflow-x:auto;border-collapse:collapse"},
         {"selector": "td, th", "props": "min-width:6em;padding:4px 6px;vertical-align:top;text-align:left"},
         {"selector": "td:nth-child(3)", "props": "min-width:14em"}])
