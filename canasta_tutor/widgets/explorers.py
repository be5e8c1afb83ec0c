"""Interactive explorers for the lessons: change the situation, see the engine's verdict live.

Every verdict comes from the engine; these widgets only gather the situation
and show the answer. Bad input (a mistyped card) gives a message naming it.
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from ..engine.cards import Card, parse_cards
from ..engine.errors import CanastaError
from ..engine.going_out import check_go_out
from ..engine.i18n import N_, pgettext
from ..engine.i18n import gettext as _
from ..engine.melds import MIXED, NATURAL, NONE, SAMBA, check_meld
from ..engine.opening import check_opening
from ..engine.pile import check_frozen, check_stopped, check_take_pile
from ..engine.rules import PRESETS, get_rules
from ..engine.scoring import GameScore, score_hand, score_red_threes
from ..engine.situation import copies_problem
from .cardbuttons import CardInputs, DeckPicker, card_button
from .render import BAD, GOOD, card_html, cards_html, melds_html, pile_html, tone_colour, verdict_html
from .variants import short_title

_GOOD = tone_colour(GOOD)
_BAD = tone_colour(BAD)


def _wide(max_width: str = "40em") -> widgets.Layout:
    """As wide as the page allows, up to ``max_width``: never wider than a phone's screen."""
    return widgets.Layout(width="100%", max_width=max_width)


def _card_box(value: str, description: str, **kwargs) -> widgets.Text:
    return widgets.Text(value=value, description=description, layout=_wide(), continuous_update=False,
                        style={"description_width": "initial"}, **kwargs)


def _scroll(html_text: str) -> str:
    """A wide table in its own sideways-scrolling box, so that the page itself never scrolls sideways."""
    return f"<div class='ct-scroll'>{html_text}</div>"


def _error_html(text: str) -> str:
    if not text:
        return ""
    return f"<div class='ct-error' style='color:{_BAD}'>{html.escape(text)}</div>"


def _preset_dropdown(value: str = "classic") -> widgets.Dropdown:
    # short names ("Classic Canasta", "Danish house rules"): a long one is cut on a phone, as a select never wraps
    return widgets.Dropdown(options=[(short_title(r), r.name) for r in PRESETS.values()], value=value,
                            description=_("Rules:"), layout=_wide("32em"))


class _CardList:
    """A small list of picked cards that respects the decks (no third K♥ with two packs)."""

    def __init__(self, cards=()):
        self.cards: list[Card] = list(parse_cards(cards))

    def add(self, card: Card, rules) -> str:
        """Add ``card``, or say why the decks cannot give another one."""
        problem = copies_problem(rules, {"cards": self.cards + [card]})
        if problem:
            return problem[1][0].upper() + problem[1][1:] + "."
        self.cards.append(card)
        return ""


class CardCounter(widgets.VBox):
    """Lesson 1: click cards and watch their points add up."""

    def __init__(self, cards: str = "KH 7S JK", **kwargs):
        super().__init__(**kwargs)
        self.picked = _CardList(cards)
        self.rules = get_rules("classic")
        self.palette = DeckPicker(on_pick=self.add)
        self.clear_button = widgets.Button(description=_("Start again"))
        self.clear_button.on_click(lambda _b: self.clear())
        self.view = widgets.HTML()
        self.message = widgets.HTML()
        pick_up = _("Click cards to pick them up:")
        self.children = [widgets.HTML(f"<b>{pick_up}</b>"), self.palette, self.clear_button,
                         self.message, self.view]
        self.update()

    def add(self, card: Card) -> None:
        if card.is_red_three:
            self.message.value = _error_html(_("{card} is a red three: it has no card value. It is laid down at once "
                                               "and scores as a bonus of {bonus}.").format(
                                                   card=card.text, bonus=self.rules.red_three_bonus))
            return
        self.message.value = _error_html(self.picked.add(card, self.rules))
        self.update()

    def clear(self) -> None:
        self.picked.cards.clear()
        self.message.value = ""
        self.update()

    def update(self) -> None:
        cards = self.picked.cards
        total = sum(c.points for c in cards)
        rows = "".join(f"<tr><td>{card_html(c, size='small')}</td><td style='text-align:right'>{c.points}</td></tr>"
                       for c in cards)
        total_words = _("Total")
        self.view.value = (f"<table class='ct-points'>{rows}<tr><td><b>{total_words}</b></td>"
                           f"<td style='text-align:right'><b class='ct-total'>{total}</b></td></tr></table>")


class MeldBuilder(widgets.VBox):
    """Lesson 2 (and 3): click cards into a meld; see valid, canasta or what is wrong."""

    def __init__(self, cards: str = "KH KS", *, rules: str = "classic", going_out: bool = False, **kwargs):
        super().__init__(**kwargs)
        self.meld = _CardList(cards)
        self.preset = _preset_dropdown(rules)
        self.going_out = widgets.Checkbox(value=going_out, description=_("I go out this turn"), indent=False,
                                   layout=widgets.Layout(width="auto", max_width="100%"))
        self.palette = DeckPicker(on_pick=self.add)
        self.clear_button = widgets.Button(description=_("Start again"))
        self.clear_button.on_click(lambda _b: self.clear())
        self.meld_row = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.message = widgets.HTML()
        self.verdict = widgets.HTML()
        self.preset.observe(lambda _c: self.update(), "value")
        self.going_out.observe(lambda _c: self.update(), "value")
        self.children = [widgets.HBox([self.preset, self.going_out], layout=widgets.Layout(flex_flow="row wrap")),
                         widgets.HTML("<b>{}</b>".format(_("Click cards to add them to the meld; click a card in "
                                                           "the meld to take it back."))),
                         self.palette, widgets.HTML("<b>{}</b>".format(_("Your meld:"))), self.meld_row,
                         self.clear_button,
                         self.message, self.verdict]
        self.update()

    @property
    def rules(self):
        return get_rules(self.preset.value)

    def add(self, card: Card) -> None:
        self.message.value = _error_html(self.meld.add(card, self.rules))
        self.update()

    def remove(self, index: int) -> None:
        if 0 <= index < len(self.meld.cards):
            self.meld.cards.pop(index)
        self.update()

    def clear(self) -> None:
        self.meld.cards.clear()
        self.message.value = ""
        self.update()

    def update(self) -> None:
        buttons = []
        for i, card in enumerate(self.meld.cards):
            b = card_button(card, tooltip=_("take it back"))
            b.on_click(lambda _b, i=i: self.remove(i))
            buttons.append(b)
        self.meld_row.children = buttons
        if not self.meld.cards:
            self.verdict.value = "<i>{}</i>".format(_("Pick some cards."))
            return
        v = check_meld(tuple(self.meld.cards), self.rules, going_out=self.going_out.value)
        labels = {NONE: _("Valid meld"), SAMBA: _("Samba"), NATURAL: _("Valid: natural canasta"),
                  MIXED: _("Valid: mixed canasta")}
        label = _("Not a meld") if not v.ok else labels.get(v.canasta, f"Valid: {v.canasta} canasta")
        points = html.escape(_("Card points: {points}").format(points=v.points))
        self.verdict.value = verdict_html(v, yes=label, no=label, kind="meld") + f"<div>{points}</div>"


class RedThreeExplorer(widgets.VBox):
    """Lesson 3: what red threes are worth, with and without a meld on the table."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.preset = _preset_dropdown()
        self.count = widgets.IntSlider(value=1, min=0, max=4, description=_("Red threes:"), layout=_wide("30em"))
        self.opened = widgets.Checkbox(value=True, description=_("My team has melded this hand"), indent=False,
                                   layout=widgets.Layout(width="auto", max_width="100%"))
        self.view = widgets.HTML()
        for w in (self.preset, self.count, self.opened):
            w.observe(lambda _c: self.update(), "value")
        self.children = [self.preset, self.count, self.opened, self.view]
        self.update()

    def update(self) -> None:
        rules = get_rules(self.preset.value)
        self.count.max = rules.red_threes_in_game
        item = score_red_threes(self.count.value, self.opened.value, rules)
        reds = ["3H", "3D"] * rules.decks
        colour = _GOOD if item.points >= 0 else _BAD
        reds_html = cards_html(" ".join(reds[:self.count.value]), size="small", empty=_("no red threes"))
        self.view.value = (f"{reds_html}"
                           f"<div style='font-size:1.3em;color:{colour}'><b class='ct-total'>{item.points:+d}</b></div>"
                           f"<div>{html.escape(item.detail)}</div>")


class FreezeExplorer(widgets.VBox):
    """Lesson 5: put cards on the pile and watch it freeze (or only stop)."""

    #: each button's words (translated when the explorer is drawn) and card
    DISCARDS = [(N_("Discard a 7♥"), "7H"), (N_("Discard a K♠"), "KS"), (N_("Discard a 2♣ (wild)"), "2C"),
                (N_("Discard a joker"), "JK"), (N_("Discard a black 3 (3♠)"), "3S")]

    def __init__(self, pile: str = "5D 9S 7C", *, melded: bool = True, **kwargs):
        super().__init__(**kwargs)
        self.pile = _CardList(pile)
        self.preset = _preset_dropdown()
        self.melded = widgets.Checkbox(value=melded, description=_("My team has melded"), indent=False,
                                   layout=widgets.Layout(width="auto", max_width="100%"))
        self.always = widgets.Checkbox(value=False, description=_("House rule: the pile is always frozen"),
                                       indent=False,
                                   layout=widgets.Layout(width="auto", max_width="100%"))
        buttons = []
        for label, code in self.DISCARDS:
            b = widgets.Button(description=_(label), layout=widgets.Layout(width="auto"))
            b.on_click(lambda _b, c=code: self.discard(c))
            buttons.append(b)
        self.red_start = widgets.Button(description=_("A red 3 was turned up at the start"),
                                        layout=widgets.Layout(width="auto"))
        self.red_start.on_click(lambda _b: self.red_three_at_start())
        self.taken = widgets.Button(description=_("Someone takes the pile"), layout=widgets.Layout(width="auto"))
        self.taken.on_click(lambda _b: self.take())
        self.message = widgets.HTML()
        self.view = widgets.HTML()
        for w in (self.preset, self.melded, self.always):
            w.observe(lambda _c: self.update(), "value")
        wrap = widgets.Layout(flex_flow="row wrap")
        self.children = [self.preset, widgets.HBox([self.melded, self.always], layout=wrap),
                         widgets.HBox(buttons, layout=wrap),
                         widgets.HBox([self.red_start, self.taken], layout=wrap), self.message, self.view]
        self.update()

    def _rules(self):
        from ..engine.rules import with_options

        rules = get_rules(self.preset.value)
        return with_options(rules, pile_always_frozen=True) if self.always.value else rules

    def discard(self, code: str) -> None:
        self.message.value = _error_html(self.pile.add(Card(code), self._rules()))
        self.update()

    def red_three_at_start(self) -> None:
        problem = self.pile.add(Card("3H"), self._rules())
        self.message.value = _error_html(problem)
        if not problem:  # it lies at the bottom: it was turned up when the pile began
            self.pile.cards.insert(0, self.pile.cards.pop())
        self.update()

    def take(self) -> None:
        self.pile.cards.clear()
        self.message.value = ""
        self.update()

    def update(self) -> None:
        rules = self._rules()
        melds = [parse_cards("QH QS QD")] if self.melded.value else []
        pile = tuple(self.pile.cards)
        frozen = check_frozen(pile, melds, rules)
        stopped = check_stopped(pile)
        extra = ""
        if pile and stopped.ok:
            stopped_words = html.escape(_("Stopped:"))
            extra = (f"<div style='color:#6d4c41'><b>{stopped_words}</b> "
                     f"{html.escape(stopped.reasons[0].text)}</div>")
        self.view.value = (pile_html(pile, frozen=frozen.ok) +
                           verdict_html(frozen, yes=_("Frozen for your team"), no=_("Not frozen"), kind="freeze")
                           + extra)


def _score_inputs(score: int):
    """A team-score slider in steps of 5 and a number box beside it (typing or arrow keys), kept in step."""
    slider = widgets.IntSlider(value=score, min=-500, max=9995, step=5, description=_("Team score:"),
                               continuous_update=True, readout=False, layout=_wide("30em"))
    box = widgets.BoundedIntText(value=score, min=-500, max=9995, step=5, description=_("Exact score:"),
                                 style={"description_width": "initial"}, layout=_wide("16em"))
    box.add_class("ct-score-box")
    widgets.link((slider, "value"), (box, "value"))
    return slider, box, widgets.HBox([slider, box], layout=widgets.Layout(flex_flow="row wrap", width="100%"))


def _parse_melds(text: str):
    """'KH KS KD | 7C 7D 2S' -> list of groups; raises CanastaError naming the bad part."""
    parts = [p for p in text.replace(";", "|").split("|")]
    melds = []
    for i, part in enumerate(parts, 1):
        if part.strip():
            try:
                melds.append(parse_cards(part))
            except CanastaError as e:
                raise CanastaError(_("meld {number}: {problem}").format(number=i, problem=e)) from None
    return melds


class OpeningExplorer(widgets.VBox):
    """Lesson 6: change the team's score and watch the opening minimum; try melds against it."""

    def __init__(self, melds: str = "KH KS KD | 7C 7D 2S", **kwargs):
        super().__init__(**kwargs)
        self.preset = _preset_dropdown()
        self.score, self.score_box, score_row = _score_inputs(0)
        self.melds = _card_box(melds, _("Your melds:"), placeholder="KH KS KD | 7C 7D 2S")
        self.cards = CardInputs([(_("Your melds"), self.melds, True)])
        self.table = widgets.HTML()
        self.view = widgets.HTML()
        for w in (self.preset, self.score, self.melds):
            w.observe(lambda _c: self.update(), "value")
        self.children = [self.preset, score_row, self.table,
                         widgets.HTML("<small>{}</small>".format(_("Melds separated by |, cards by spaces."))),
                         self.melds,
                         self.cards, self.view]
        self.update()

    def update(self) -> None:
        rules = get_rules(self.preset.value)
        score = self.score.value
        minimum = rules.opening_minimum(score)
        rows = []
        current = rules.opening_band(score)
        for band, value, _lowest, _next in rules.opening_rows():
            here = band == current
            style = " style='background:#fff3c4;font-weight:bold'" if here else ""
            rows.append(f"<tr{style}><td>{band}</td><td style='text-align:right'>{value}</td></tr>")
        line = _("Opening minimum: <b class='ct-minimum'>{minimum}</b>").format(minimum=minimum)
        team_score, least = html.escape(_("Team score")), html.escape(_("Minimum"))
        heads = f"<tr><th>{team_score}</th><th>{least}</th></tr>"
        self.table.value = (f"<div style='font-size:1.2em'>{line}</div>"
                            + _scroll(f"<table>{heads}{''.join(rows)}</table>"))
        try:
            melds = _parse_melds(self.melds.value)
            v = check_opening(melds, score, rules)
        except CanastaError as e:
            self.view.value = _error_html(str(e))
            return
        self.view.value = verdict_html(v, yes=_("Enough: {points} points").format(points=v.points),
                                       no=_("Not an opening ({points} points)").format(points=v.points),
                                       kind="opening")


class TakePileExplorer(widgets.VBox):
    """Lesson 4: change your hand, the pile and the table; may you take the pile?"""

    def __init__(self, hand: str = "7H 7S KD 4C JK", pile: str = "5D 9S 7C", melds: str = "", score: int = 0,
                 **kwargs):
        super().__init__(**kwargs)
        self.preset = _preset_dropdown()
        self.hand = _card_box(hand, _("Your hand:"))
        self.pile = _card_box(pile, _("Pile:"), placeholder=_("bottom ... top"))
        self.melds = _card_box(melds, _("Team melds:"), placeholder=_("KH KS KD | 7C 7D 2S (empty: not melded yet)"))
        self.cards = CardInputs([(_("Your hand"), self.hand, False), (pgettext("card box", "Pile"), self.pile, False),
                                 (_("Team melds"), self.melds, True)])
        self.score, self.score_box, score_row = _score_inputs(score)
        self.view = widgets.HTML()
        for w in (self.preset, self.hand, self.pile, self.melds, self.score):
            w.observe(lambda _c: self.update(), "value")
        self.children = [self.preset, self.hand, self.pile, self.melds, self.cards, score_row, self.view]
        self.update()

    def update(self) -> None:
        rules = get_rules(self.preset.value)
        try:
            hand = parse_cards(self.hand.value)
            pile = parse_cards(self.pile.value)
            melds = _parse_melds(self.melds.value)
            if not hand:
                raise CanastaError(_("your hand is empty: type some cards, like {cards}").format(cards="7H 7S KD"))
            v = check_take_pile(hand, melds, self.score.value, pile, rules)
            frozen = check_frozen(pile, melds, rules).ok
        except CanastaError as e:
            self.view.value = _error_html(str(e))
            return
        self.view.value = (melds_html(melds, rules) + pile_html(pile, frozen=frozen) +
                           f"<div><b>{html.escape(_('Your hand'))}</b><br>{cards_html(hand)}</div>" +
                           verdict_html(v, yes=_("Yes, you may take the pile"), no=_("No, you may not take the pile"),
                                        kind="take-pile"))


class GoOutExplorer(widgets.VBox):
    """Lesson 7: can you get rid of every card this turn?"""

    def __init__(self, hand: str = "KH KS 2C 9D", melds: str = "7H 7S 7D 7C 7H 7S 7D", **kwargs):
        super().__init__(**kwargs)
        self.preset = _preset_dropdown()
        self.hand = _card_box(hand, _("Your hand:"))
        self.melds = _card_box(melds, _("Team melds:"))
        self.cards = CardInputs([(_("Your hand"), self.hand, False), (_("Team melds"), self.melds, True)])
        self.view = widgets.HTML()
        for w in (self.preset, self.hand, self.melds):
            w.observe(lambda _c: self.update(), "value")
        self.children = [self.preset, self.hand, self.melds, self.cards, self.view]
        self.update()

    def update(self) -> None:
        rules = get_rules(self.preset.value)
        try:
            hand = parse_cards(self.hand.value)
            melds = _parse_melds(self.melds.value)
            if not hand:
                raise CanastaError(_("your hand is empty: type some cards, like {cards}").format(cards="KH KS KD"))
            v = check_go_out(hand, melds, 0, rules)
        except CanastaError as e:
            self.view.value = _error_html(str(e))
            return
        self.view.value = (melds_html(melds, rules) +
                           f"<div><b>{html.escape(_('Your hand'))}</b><br>{cards_html(hand)}</div>" +
                           verdict_html(v, yes=_("Yes, you can go out"), no=_("No, you cannot go out yet"),
                                        kind="go-out"))


class ScoreExplorer(widgets.VBox):
    """Lesson 8: score a hand, then add it to a game played to the preset's target."""

    def __init__(self, melds: str = "KH KS KD KC KH KS KD | 7C 7D 2S", red_threes: str = "3H",
                 hands: str = "5C 9D", **kwargs):
        super().__init__(**kwargs)
        self.preset = _preset_dropdown()
        self.melds = _card_box(melds, _("Melds:"))
        self.red = _card_box(red_threes, _("Red threes:"))
        self.hands = _card_box(hands, _("Left in hand:"), placeholder=_("cards left in your team's hands"))
        self.cards = CardInputs([(_("Melds"), self.melds, True), (_("Red threes"), self.red, False),
                                 (_("Left in hand"), self.hands, False)])
        self.went_out = widgets.Dropdown(options=[(_("did not go out"), False), (_("went out"), True),
                                                  (_("went out concealed"), "concealed")], value=True,
                                         description=_("Your team:"), layout=_wide("20em"))
        self.their = widgets.Text(value="150", description=_("Their score for the hand:"),
                                  style={"description_width": "initial"}, layout=_wide("20em"))
        self.add_button = widgets.Button(description=_("Add this hand to the game"), button_style="primary",
                                         layout=widgets.Layout(width="auto"))
        self.add_button.on_click(lambda _b: self.add_to_game())
        self.new_game = widgets.Button(description=_("New game"))
        self.new_game.on_click(lambda _b: self.reset_game())
        self.view = widgets.HTML()
        self.game_view = widgets.HTML()
        self.sheet = None
        # the teams' names in the score table, in the language of the page
        self.us, self.them = pgettext("score table", "Your team"), pgettext("score table", "Them")
        self.game = GameScore([self.us, self.them], get_rules("classic"))
        for w in (self.preset, self.melds, self.red, self.hands, self.went_out):
            w.observe(lambda _c: self.update(), "value")
        self.preset.observe(lambda _c: self.reset_game(), "value")
        self.message = widgets.HTML()
        self.children = [self.preset, self.melds, self.red, self.hands, self.cards, self.went_out, self.view,
                         widgets.HBox([self.their, self.add_button, self.new_game],
                                      layout=widgets.Layout(flex_flow="row wrap")), self.message, self.game_view]
        self.update()
        self.show_game()

    def update(self) -> None:
        rules = get_rules(self.preset.value)
        self.sheet = None
        try:
            melds = _parse_melds(self.melds.value)
            sheet = score_hand(melds, parse_cards(self.red.value), [parse_cards(self.hands.value)],
                               self.went_out.value, rules)
        except CanastaError as e:
            self.view.value = _error_html(str(e))
            self.add_button.disabled = True
            return
        self.sheet = sheet
        self.add_button.disabled = self.game.is_over
        self.view.value = (_scroll(sheet.to_html()) +
                           "<div style='font-size:1.2em'>{}</div>".format(
                               _("This hand: <b class='ct-total'>{total}</b>").format(total=sheet.total)))

    def add_to_game(self) -> None:
        if self.sheet is None or self.game.is_over:
            return
        text = self.their.value.strip().replace("−", "-")
        try:
            other = int(text.lstrip("+"))
        except ValueError:
            self.message.value = _error_html(_("Their score must be a whole number, like 150 or -40: '{text}' is "
                                               "not one.").format(text=self.their.value.strip()))
            return
        self.message.value = ""
        self.game.add_hand({self.us: self.sheet.total, self.them: other})
        self.add_button.disabled = self.game.is_over
        self.show_game()

    def reset_game(self) -> None:
        self.game = GameScore([self.us, self.them], get_rules(self.preset.value))
        self.add_button.disabled = self.sheet is None
        self.show_game()

    def show_game(self) -> None:
        rules = self.game.rules
        if not self.game.hands:
            words = _("A game is played to {target}. Add hands to play one.").format(target=rules.target_score)
            self.game_view.value = f"<i>{html.escape(words)}</i>"
            return
        table = _scroll(self.game.to_frame().to_html(border=0))
        end = ""
        if self.game.is_over:
            said = (_("Game over: {team} wins.").format(team=self.game.winner) if self.game.winner
                    else _("Game over: a tie."))
            end = f"<div style='color:{_GOOD}'><b>{html.escape(said)}</b></div>"
        else:
            mins = ", ".join(f"{t}: {self.game.opening_minimum(t)}" for t in self.game.teams)
            minimums = _("Opening minimum for the next hand: {minimums}").format(minimums=mins)
            end = f"<div>{html.escape(minimums)}</div>"
        self.game_view.value = table + end


class VariantsExplorer(widgets.VBox):
    """Lesson 9: one situation judged under every preset, differences highlighted, sources named."""

    def __init__(self, **kwargs):
        from .variants import EXAMPLES

        super().__init__(**kwargs)
        self.choice = widgets.Dropdown(options=list(EXAMPLES), description=_("Situation:"),
                                       layout=_wide(), style={"description_width": "initial"})
        self.view = widgets.HTML()
        self.choice.observe(lambda _c: self.update(), "value")
        self.children = [self.choice, self.view]
        self.update()

    def update(self) -> None:
        from .variants import EXAMPLES, highlight_differences, judge_everywhere

        kind, situation = EXAMPLES[self.choice.value]
        frame = judge_everywhere(kind, **situation)
        # the table scrolls sideways in its own box on a phone: focusable, so that a keyboard can scroll it
        styled = highlight_differences(frame).set_table_attributes("class='ct-variants' tabindex='0'")
        self.view.value = _scroll(styled.to_html())


__all__ = ["CardCounter", "MeldBuilder", "RedThreeExplorer", "FreezeExplorer", "OpeningExplorer",
           "TakePileExplorer", "GoOutExplorer", "ScoreExplorer", "VariantsExplorer"]
