"""Scoring a hand and keeping the game score.

A team's score for a hand is the card points of everything it melded
(canastas included), plus its canasta bonuses, plus its red threes (minus if
it never melded), plus the going-out bonus, minus the card points of every
card left in its players' hands.

>>> sheet = score_hand(melds=["KH KS KD KC KH KS KD", "7C 7D 2S"], red_threes="3H", hands=["5C 9D", ""],
...                    went_out=True)
>>> sheet.total
785
>>> [(item.label, item.points) for item in sheet.items]
[('Melded cards', 100), ('Canasta bonuses', 500), ('Red threes', 100), ('Going out', 100), ('Cards left in hand', -15)]
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass, field
from operator import attrgetter

from . import speedups
from .cards import RED_THREES, card_points, format_cards, rank_plural
from .errors import SituationError
from .i18n import NP_, ngettext, pgettext
from .i18n import gettext as _
from .melds import MIXED, NATURAL, NONE, SAMBA, check_team_melds, meld_facts
from .numbers import count_of, is_whole_number, number_word
from .rules import CLASSIC, RuleSet, get_rules
from .situation import WENT_OUT_VALUES, Situation, parse_went_out, takes_situation  # noqa: F401 (re-exported)
from .verdict import Reason

_Facts = namedtuple("_Facts", "kind rank canasta points")
_points = attrgetter("points")



class ScoreItem(namedtuple("ScoreItem", "label points detail", defaults=("",))):
    """One line of a score sheet: a ``label`` (English, a stable name: :attr:`title` is it in the reader's
    language), its ``points`` and a ``detail`` in words (in the language current when the sheet was read first)."""

    __slots__ = ()

    @property
    def title(self) -> str:
        """The label in the current language (``'Melded cards'``, ``'Uitgelegde kaarten'``)."""
        mark = SCORE_LABELS.get(self.label)
        return pgettext(*mark) if mark else self.label


#: The score sheet's labels as catalog entries (the label itself stays English: the reason codes are made from it).
_SCORE_LABEL_MARKS = (NP_("score item", "Melded cards"), NP_("score item", "Canasta bonuses"),
                      NP_("score item", "Red threes"), NP_("score item", "Going out"),
                      NP_("score item", "Going out concealed"), NP_("score item", "Cards left in hand"))
SCORE_LABELS = {mark[1]: mark for mark in _SCORE_LABEL_MARKS}


@dataclass(frozen=True)
class ScoreSheet:
    """An itemised score for one team and one hand."""

    items: tuple[ScoreItem, ...]
    rules_name: str = "classic"

    def __getattr__(self, name):
        # ``items`` of a sheet made by score_hand: written on first read (see _score_items)
        if name == "items":
            build = self.__dict__.pop("_build", None)
            if build is not None:
                items = self.__dict__["items"] = _score_items(*build)
                return items
        raise AttributeError(f"'ScoreSheet' object has no attribute {name!r}")

    @property
    def total(self) -> int:
        total = self.__dict__.get("_total")
        return total if total is not None else sum(i.points for i in self.items)

    @property
    def explanation(self) -> list[str]:
        with_detail, bare = _("{item}: {amount} ({detail})."), _("{item}: {amount}.")
        lines = [(with_detail if i.detail else bare).format(item=i.title, amount=f"{i.points:+d}", detail=i.detail)
                 for i in self.items]
        lines.append(_("Total for the hand: {total}.").format(total=self.total))
        return lines

    @property
    def reasons(self) -> tuple[Reason, ...]:
        return tuple(Reason(i.label.lower().replace(" ", "-"), t) for i, t in zip(self.items, self.explanation))

    def to_frame(self):
        """The breakdown as a pandas DataFrame (item, detail, points) with a total row."""
        import pandas as pd

        rows = [{"item": i.label, "detail": i.detail, "points": i.points} for i in self.items]
        rows.append({"item": "Total", "detail": "", "points": self.total})
        return pd.DataFrame(rows, columns=["item", "detail", "points"])

    def to_html(self) -> str:
        """The breakdown as an HTML table (no pandas needed)."""
        import html

        # the headings and the labels in the reader's language (the label itself, i.label, stays English)
        rows = "".join(f"<tr><td>{html.escape(i.title)}</td><td>{html.escape(i.detail)}</td>"
                       f"<td style='text-align:right'>{i.points:+d}</td></tr>" for i in self.items)
        item, detail, points, total = (html.escape(word) for word in (
            pgettext("score table", "item"), pgettext("score table", "detail"), pgettext("score table", "points"),
            pgettext("score table", "Total")))
        return (f"<table class='ct-breakdown'><thead><tr><th>{item}</th><th>{detail}</th><th>{points}</th></tr>"
                f"</thead><tbody>{rows}<tr><td><b>{total}</b></td><td></td><td style='text-align:right'>"
                f"<b>{self.total}</b></td></tr></tbody></table>")

    def _repr_html_(self):
        return self.to_html()

    def __int__(self) -> int:
        return self.total


def score_red_threes(count: int, opened: bool, rules: RuleSet | str = CLASSIC) -> ScoreItem:
    """What ``count`` red threes are worth to a team that has melded (``opened``) or not.

    >>> score_red_threes(4, True).points, score_red_threes(2, False).points, score_red_threes(1, False, "danish").points
    (800, -200, -200)
    """
    rules = get_rules(rules)
    all_of_them = count == rules.red_threes_in_game
    if opened:
        points = rules.all_red_threes_bonus if all_of_them else count * rules.red_three_bonus
        detail = (_("all {count}: {amount}") if all_of_them else _("{count} × {bonus}")).format(
            count=number_word(count) if all_of_them else count, amount=points, bonus=rules.red_three_bonus)
    else:
        points = -(rules.all_red_threes_penalty if all_of_them else count * rules.red_three_penalty)
        detail = (_("all {count}, and the team never melded: {amount}") if all_of_them else
                  _("{count} × -{penalty}, because the team never melded")).format(
            count=number_word(count) if all_of_them else count, amount=points, penalty=rules.red_three_penalty)
    return ScoreItem("Red threes", points if count else 0, detail if count else _("none"))


@takes_situation("melds", "red_threes", "hands", "went_out", "rules")
def score_hand(situation: Situation) -> ScoreSheet:
    """Score one hand for one team.

    ``melds``: the team's melds at the end of the hand; ``red_threes``: its red
    threes; ``hands``: the cards left in each of its players' hands;
    ``went_out``: ``False``, ``True`` or ``'concealed'``;
    ``concealed_canastas``: how many of its canastas were melded from the hand
    in one go (only a preset with a ``concealed_canasta_bonus``, ``hoyle``,
    pays for that); by default none, or every canasta when the team went out
    concealed. Raises :class:`SituationError` for a hand that cannot occur. Takes a :class:`Situation`, or the
    old ``score_hand(melds=(), red_threes=(), hands=(), went_out=False, rules=CLASSIC, *, concealed_canastas=None)``.

    >>> score_hand(["KH KS KD KC KH KS KD"], went_out="concealed", rules="hoyle").total
    870
    """
    d = situation.__dict__
    rules, went_out, red_threes = d["rules"], d["went_out"], d["red_threes"]
    melds, hands = d["melds"], d["hands"]
    if red_threes and not RED_THREES.issuperset(red_threes):
        raise _not_red_threes(red_threes)
    for h in hands:
        if not RED_THREES.isdisjoint(h):
            raise _red_three_left_in_hand(hands)
    if len(red_threes) > rules.red_threes_in_game:
        raise SituationError(_("{count} red threes, but the decks of {rules} hold only {most}").format(
            count=len(red_threes), rules=rules.name, most=rules.red_threes_in_game))
    # The total now, in numbers (the melds' facts without sentences: melds.meld_facts); the itemised lines, with
    # their details in words, when first read.
    facts, total, canastas = _melded_points(melds, rules, bool(went_out))
    if went_out and canastas < rules.canastas_to_go_out:
        raise SituationError(ngettext("the team went out with {count} canasta, but {rules} needs {needed} to go out",
                                      "the team went out with {count} canastas, but {rules} needs {needed} to go out",
                                      canastas).format(count=canastas, rules=rules.name,
                                                       needed=rules.canastas_to_go_out))
    concealed_canastas = d["concealed_canastas"]
    if concealed_canastas is None:
        concealed_canastas = canastas if went_out == "concealed" else 0
    else:
        _ensure_concealed_canastas(concealed_canastas, canastas, went_out)
    if concealed_canastas and rules.concealed_canasta_bonus:
        total += concealed_canastas * rules.concealed_canasta_bonus
    if red_threes:
        total += _red_three_points(len(red_threes), bool(melds), rules)
    if went_out:
        total += rules.concealed_going_out_bonus if went_out == "concealed" else rules.going_out_bonus
    for h in hands:
        if h:
            total -= sum(map(_points, h))
    sheet = object.__new__(ScoreSheet)
    d = sheet.__dict__
    d["rules_name"] = rules.name
    d["_total"] = total
    d["_build"] = (melds, facts, concealed_canastas, red_threes, went_out, hands, rules)
    return sheet


def _not_red_threes(red_threes) -> SituationError:
    not_red = [c for c in red_threes if not c.is_red_three]
    return SituationError(ngettext("red_threes holds {cards}, which is not a red three",
                                   "red_threes holds {cards}, which are not red threes", len(not_red)).format(
        cards=format_cards(not_red)))


def _red_three_left_in_hand(hands) -> SituationError:
    in_hand = [c for h in hands for c in h if c.is_red_three]
    return SituationError(ngettext("{cards} is left in a hand, but red threes are laid down at once",
                                   "{cards} are left in a hand, but red threes are laid down at once",
                                   len(in_hand)).format(cards=format_cards(in_hand)))


def _melded_points(melds, rules: RuleSet, going_out: bool) -> tuple[list, int, int]:
    """``(facts, points, canastas)`` of a team's melds: each meld's :func:`~canasta_tutor.engine.melds.meld_facts`,
    their card points with the canasta bonuses, and how many canastas they hold. Raises :class:`SituationError`
    (in the words of :func:`~canasta_tutor.engine.melds.check_team_melds`) unless they are a team's legal melds."""
    facts = [meld_facts(m, rules, going_out, copies_checked=True) for m in melds]
    total = 0
    canastas = 0
    ranks = set()
    for f in facts:
        if f is None:
            break
        kind, rank, canasta, points = f
        total += points
        if canasta != NONE:
            canastas += 1
            total += (rules.natural_canasta_bonus if canasta == NATURAL else rules.mixed_canasta_bonus
                      if canasta == MIXED else rules.samba_bonus)
        if kind != "sequence":
            if rank in ranks:
                f = None
                break
            ranks.add(rank)
    if melds and f is None:
        table = check_team_melds(melds, rules, going_out=going_out)
        raise SituationError(" ".join(table.explanation))
    return facts, total, canastas


def _ensure_concealed_canastas(concealed_canastas, canastas: int, went_out) -> None:
    """Raise :class:`SituationError` unless ``concealed_canastas`` (given) may be how many of the team's
    ``canastas`` were melded from the hand in one go: all of them when it went out concealed."""
    if not is_whole_number(concealed_canastas) or concealed_canastas < 0:
        raise SituationError(_("concealed_canastas must be a whole number, 0 or more, not {value}").format(
            value=repr(concealed_canastas)))
    if concealed_canastas > canastas:
        said = (_("concealed_canastas: {given}, but the team has only {canastas}") if canastas else
                _("concealed_canastas: {given}, but the team has {canastas}"))
        raise SituationError(said.format(given=concealed_canastas, canastas=count_of(canastas, "canasta")))
    if went_out == "concealed" and concealed_canastas != canastas:
        raise SituationError(ngettext("concealed_canastas: {given}, but the team went out concealed, so its "
                                      "{count} canasta was melded from the hand in one go",
                                      "concealed_canastas: {given}, but the team went out concealed, so all "
                                      "{count} of its canastas were melded from the hand in one go",
                                      canastas).format(given=concealed_canastas, count=canastas))


def _red_three_points(count: int, opened: bool, rules: RuleSet) -> int:
    """:func:`score_red_threes`'s points, without its words."""
    if not count:
        return 0
    all_of_them = count == rules.red_threes_in_game
    if opened:
        return rules.all_red_threes_bonus if all_of_them else count * rules.red_three_bonus
    return -(rules.all_red_threes_penalty if all_of_them else count * rules.red_three_penalty)


def _score_items(melds, facts, concealed_canastas, red_threes, went_out, hands, rules):
    """The lines of a score sheet, with their details in words (``facts``: the melds' :func:`meld_facts`, ``None``
    when the compiled score did not keep them: looked up again here)."""
    melds, hands = list(melds), list(hands)
    if facts is None:
        facts = [meld_facts(m, rules, bool(went_out), copies_checked=True) for m in melds]
    verdicts = [_Facts(*f) for f in facts]
    canastas = [(m, v) for m, v in zip(melds, verdicts) if v.canasta != NONE]
    items = []
    if melds:
        detail = " + ".join(f"{format_cards(m)} ({v.points})" for m, v in zip(melds, verdicts))
        items.append(ScoreItem("Melded cards", sum(v.points for v in verdicts), detail))
    if canastas:
        parts = []
        bonus = 0
        for _m, v in canastas:
            value = {NATURAL: rules.natural_canasta_bonus, MIXED: rules.mixed_canasta_bonus,
                     SAMBA: rules.samba_bonus}[v.canasta]
            if v.canasta == SAMBA:
                what = _("samba {bonus}")
            elif v.canasta == NATURAL:
                what = _("natural canasta of {ranks} {bonus}")
            else:
                what = _("mixed canasta of {ranks} {bonus}")
            parts.append(what.format(ranks=rank_plural(v.rank) if v.canasta != SAMBA else "", bonus=value))
            bonus += value
        if concealed_canastas and rules.concealed_canasta_bonus:
            bonus += concealed_canastas * rules.concealed_canasta_bonus
            parts.append(_("{count} concealed × {bonus}").format(count=concealed_canastas,
                                                                  bonus=rules.concealed_canasta_bonus))
        items.append(ScoreItem("Canasta bonuses", bonus, ", ".join(parts)))
    if red_threes:
        item = score_red_threes(len(red_threes), bool(melds), rules)
        items.append(item._replace(detail=_("{cards}: {detail}").format(cards=format_cards(red_threes),
                                                                         detail=item.detail)))
    if went_out:
        if went_out == "concealed":
            items.append(ScoreItem("Going out concealed", rules.concealed_going_out_bonus,
                                   _("the whole hand melded in one turn")))
        else:
            items.append(ScoreItem("Going out", rules.going_out_bonus, ""))
    left = [c for h in hands for c in h]
    if left:
        items.append(ScoreItem("Cards left in hand", -card_points(left),
                               " + ".join(f"{format_cards(h)} ({card_points(h)})" for h in hands if h)))
    return tuple(items)


@dataclass
class GameScore:
    """The running score of a game: add each hand's team scores; the game ends after
    the hand in which a team reaches the preset's target, and the highest total wins.

    >>> game = GameScore(["Us", "Them"])
    >>> game.add_hand({"Us": 3100, "Them": 1200}); game.add_hand({"Us": 2050, "Them": 900})
    >>> game.is_over, game.winner, game.totals
    (True, 'Us', {'Us': 5150, 'Them': 2100})
    """

    teams: list[str]
    rules: RuleSet | str = CLASSIC
    hands: list[dict[str, int]] = field(default_factory=list)

    def __post_init__(self):
        self.rules = get_rules(self.rules)
        if len(set(self.teams)) != len(self.teams) or len(self.teams) < 2:
            raise SituationError(_("a game needs at least two teams with different names"))

    def add_hand(self, scores: dict[str, int | ScoreSheet]) -> None:
        if self.is_over:
            raise SituationError(_("the game is over: {team} won").format(team=self.winner) if self.winner else
                                  _("the game is over: nobody won"))
        unknown = set(scores) - set(self.teams)
        if unknown:
            raise SituationError(_("unknown team {team}: the teams are {teams}").format(
                team=repr(sorted(unknown)[0]), teams=", ".join(self.teams)))
        self.hands.append({t: int(scores.get(t, 0)) for t in self.teams})

    @property
    def totals(self) -> dict[str, int]:
        return {t: sum(h[t] for h in self.hands) for t in self.teams}

    @property
    def is_over(self) -> bool:
        return any(v >= self.rules.target_score for v in self.totals.values())

    @property
    def winner(self) -> str | None:
        """The team with the highest total once the game is over (``None`` before, or on a tie)."""
        if not self.is_over:
            return None
        totals = self.totals
        best = max(totals.values())
        leaders = [t for t, v in totals.items() if v == best]
        return leaders[0] if len(leaders) == 1 else None

    def opening_minimum(self, team: str) -> int:
        return self.rules.opening_minimum(self.totals[team])

    def to_frame(self):
        import pandas as pd

        frame = pd.DataFrame(self.hands, columns=self.teams)
        # the rows' names in the reader's language (the lesson's score table): "hand 1", "hand 2"... "total"
        frame.index = [pgettext("score table", "hand {number}").format(number=i) for i in range(1, len(frame) + 1)]
        frame.loc[pgettext("score table", "total")] = [self.totals[t] for t in self.teams]
        return frame


# the compiled twin (_speedups/score.pyx), where built: it answers the common call in C and hands every other to the
# pure-Python score_hand above (speedups.pure_twin gives it back)
score_hand = speedups.compiled("score", score_hand, sheet_type=ScoreSheet)
