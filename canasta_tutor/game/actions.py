"""Actions: small frozen values, one per choice a player makes in a turn.

A turn is a sequence of small actions: ``draw`` (or ``take_pile``), then zero or
more ``meld`` / ``lay_off`` / ``swap`` actions, then ``discard`` or ``go_out``
(the phases :data:`DRAW_PHASE` and :data:`MELD_PHASE`; then the next player's turn, or :data:`HAND_OVER`).
``end`` is offered only when the stock is used up: the player does not take the
pile, and the hand ends. Every action has a plain sentence (:meth:`Action.describe`)
and a stable text form (:meth:`Action.to_text`, read back by :meth:`Action.parse`)
for logs and JSON.

>>> a = Action("lay_off", cards=parse_cards("7H"), target=1)
>>> a.to_text()
'lay_off: cards=7H; target=1'
>>> Action.parse(a.to_text()) == a
True
>>> Action("discard", cards=parse_cards("KD")).describe()
'Discard K♦.'
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.cards import Card, format_cards, parse_cards
from ..engine.errors import CanastaError, clip
from ..engine.i18n import pgettext
from ..engine.numbers import join_words

DRAW, TAKE_PILE, MELD, LAY_OFF, SWAP, DISCARD, GO_OUT, END = (
    "draw", "take_pile", "meld", "lay_off", "swap", "discard", "go_out", "end")
#: Every kind of action, in the order a turn uses them.
KINDS = (DRAW, TAKE_PILE, MELD, LAY_OFF, SWAP, DISCARD, GO_OUT, END)

#: The phases of a turn, and the end of the hand: ``draw`` (draw, take_pile or end), ``meld`` (meld, lay_off,
#: swap, then discard or go_out), ``hand-over``.
DRAW_PHASE, MELD_PHASE, HAND_OVER = "draw", "meld", "hand-over"

Cards = tuple[Card, ...]


@dataclass(frozen=True)
class Action:
    """One choice of the player to move.

    ``kind``: one of :data:`KINDS`. ``cards``: the cards from hand the action uses (the card discarded, the
    cards laid off, the cards shown to take the pile, the natural card swapped in). ``target``: the index of
    one of the team's melds (``lay_off``, ``swap``, ``take_pile`` onto a meld; ``None`` for a new meld).
    ``melds``: new melds (``meld``; for ``take_pile`` by a team that has not opened: its opening melds, the
    pile's top card in the first; for ``go_out``: the new melds). ``lay_offs``: ``(meld index, cards)``
    pairs of a ``go_out``; ``swaps``: ``(meld index, natural card, wild card)`` of a ``go_out``; ``wild``:
    the wild card a ``swap`` takes back; ``discard``: the last card of a ``go_out`` (or ``None``).
    """

    kind: str
    cards: Cards = ()
    target: int | None = None
    melds: tuple[Cards, ...] = ()
    lay_offs: tuple[tuple[int, Cards], ...] = ()
    swaps: tuple[tuple[int, Card, Card], ...] = ()
    wild: Card | None = None
    discard: Card | None = None

    def __post_init__(self):
        if self.kind not in KINDS:
            raise CanastaError(f"unknown action kind {clip(self.kind, 40)!r}: the kinds are {', '.join(KINDS)}")

    # --- words -------------------------------------------------------------------------------------------
    def describe(self, melds=None, *, you: bool = True) -> str:
        """A plain sentence for a learner; ``melds`` (the team's melds) lets it name the target meld's cards.
        ``you``: the sentence speaks to the player who makes the move ("with 9♣ 9♦ from your hand"); with
        ``you=False`` it tells others of it, as of a bot's move in the coach's log ("with 9♣ 9♦").

        >>> take = Action("take_pile", cards=parse_cards("9C 9D"))
        >>> take.describe(), take.describe(you=False)
        ('Take the pile with 9♣ 9♦ from your hand.', 'Take the pile with 9♣ 9♦.')
        """
        return _SENTENCES[self.kind](self, melds, you)

    def told(self, player: str, melds=None, *, you: bool = False) -> str:
        """The move told as done, for a table's live region and log: ``player`` (a seat's name, "Left opponent")
        made it, or with ``you`` the reader did. Each kind of move is one whole sentence per catalog entry
        (context "told"), so each language conjugates its own verb; the buttons keep :meth:`describe`.

        >>> take = Action("take_pile", cards=parse_cards("9C 9D"))
        >>> take.told("Left opponent"), take.told("You", you=True)
        ('Left opponent takes the pile with 9♣ 9♦.', 'You take the pile with 9♣ 9♦.')
        """
        return _TOLD[self.kind](self, melds, you).format(player=player)

    def go_out_steps(self, melds=None) -> str:
        """What a ``go_out`` does, without the sentence around it: ``'meld Q♥ Q♠ Q♦ and discard 4♣'`` (``''``
        when it has no step). For a sentence that names the going out in its own words ("You could have gone out:
        ..."), in place of cutting "Go out: " off :meth:`describe`, whose words differ in each language."""
        return join_words(_go_out_steps(self, melds))

    def __str__(self) -> str:
        return self.describe()

    # --- text form ---------------------------------------------------------------------------------------
    def to_text(self) -> str:
        """A stable, one-line text form: ``kind`` then ``; ``-separated ``name=value`` parts, cards as codes."""
        def cards(cs):
            return format_cards(cs, symbols=False)

        parts = []
        if self.cards:
            parts.append(f"cards={cards(self.cards)}")
        if self.target is not None:
            parts.append(f"target={self.target}")
        if self.melds:
            parts.append("melds=" + "|".join(cards(m) for m in self.melds))
        if self.lay_offs:
            parts.append("lay_offs=" + "|".join(f"{i}:{cards(cs)}" for i, cs in self.lay_offs))
        if self.swaps:
            parts.append("swaps=" + "|".join(f"{i}:{n.code}>{w.code}" for i, n, w in self.swaps))
        if self.wild is not None:
            parts.append(f"wild={self.wild.code}")
        if self.discard is not None:
            parts.append(f"discard={self.discard.code}")
        return self.kind + (": " + "; ".join(parts) if parts else "")

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read the form :meth:`to_text` writes; a bad text raises :class:`CanastaError` saying what and where."""
        if not isinstance(text, str):
            raise CanastaError(f"an action is written as text, like 'discard: cards=7H', not {clip(repr(text))}")
        kind, _, rest = text.strip().partition(":")
        kind = kind.strip()
        if kind not in KINDS:
            raise CanastaError(f"action {clip(text)!r}: unknown kind {clip(kind, 40)!r}; the kinds are "
                               f"{', '.join(KINDS)}")
        values: dict = {}
        for part in filter(None, (p.strip() for p in rest.split(";"))):
            name, eq, value = part.partition("=")
            name = name.strip()
            try:
                if not eq:
                    raise ValueError("expected name=value")
                if name == "cards":
                    values["cards"] = parse_cards(value)
                elif name == "target":
                    values["target"] = int(value)
                elif name == "melds":
                    values["melds"] = tuple(parse_cards(m) for m in value.split("|"))
                elif name == "lay_offs":
                    values["lay_offs"] = tuple((int(i), parse_cards(cs)) for i, cs in
                                               (p.split(":", 1) for p in value.split("|")))
                elif name == "swaps":
                    swaps = []
                    for p in value.split("|"):
                        i, pair = p.split(":", 1)
                        natural, wild = pair.split(">", 1)
                        swaps.append((int(i), Card(natural.strip()), Card(wild.strip())))
                    values["swaps"] = tuple(swaps)
                elif name in ("wild", "discard"):
                    values[name] = Card(value.strip())
                else:
                    raise ValueError(f"unknown part {name!r}")
            except (ValueError, CanastaError) as e:
                raise CanastaError(f"action {clip(text)!r}, part {clip(part, 40)!r}: {e}") from None
        return cls(kind, **values)


# --- the sentences of describe(), one writer per kind ------------------------------------------------------------
# Each sentence is one catalog entry with named placeholders (context "action"), translated when it is read.

def _meld_name(melds, i: int | None) -> str:
    """The target meld in words: its cards when the team's ``melds`` are known, else its number."""
    if melds is not None and i is not None and 0 <= i < len(melds):
        # Translators: a meld named by its cards ("7♠ 7♦ 7♣") as the target of "lay off ... on {target}" and the
        # like; add an article or a noun if the language wants one there.
        return pgettext("action", "{cards}").format(cards=format_cards(melds[i]))
    if i is None:
        return pgettext("action", "a new meld")
    return pgettext("action", "meld {number}").format(number=i + 1)


def _melds_words(melds) -> str:
    """``'7♥ 7♠ 7♦ and K♣ K♦ K♠'``: every meld, each joined to the ones before by the language's "and"."""
    # Translators: melds in a row: "7♥ 7♠ 7♦ and K♣ K♦ K♠", then "(those) and Q♥ Q♠ Q♦" for a third one.
    pattern = pgettext("action", "{earlier} and {last}")
    words = [format_cards(m) for m in melds]
    text = words[0] if words else ""
    for word in words[1:]:
        text = pattern.format(earlier=text, last=word)
    return text


def _wild_name(wild: Card | None) -> str:
    return pgettext("action", "the joker") if wild is not None and wild.rank == "JK" else str(wild)


def _describe_take(a: Action, melds, you: bool) -> str:
    cards = format_cards(a.cards)
    if a.target is not None:
        target = _meld_name(melds, a.target)
        if a.cards and you:
            text = pgettext("action", "Take the pile with {cards} from your hand, laying the top card off on "
                                      "{target}.")
        elif a.cards:
            text = pgettext("action", "Take the pile with {cards}, laying the top card off on {target}.")
        else:
            text = pgettext("action", "Take the pile, laying the top card off on {target}.")
        text = text.format(cards=cards, target=target)
    elif a.cards and you:
        text = pgettext("action", "Take the pile with {cards} from your hand.").format(cards=cards)
    elif a.cards:
        text = pgettext("action", "Take the pile with {cards}.").format(cards=cards)
    else:
        text = pgettext("action", "Take the pile.")
    if len(a.melds) > 1:
        opening = pgettext("action", "Open with {groups}.").format(groups=_melds_words(a.melds))
        text = pgettext("action", "{take} {open}").format(take=text, open=opening)
    return text


def _describe_swap(a: Action, melds, you: bool) -> str:
    return pgettext("action", "Put {cards} in place of {wild} in {target} and keep {wild}.").format(
        cards=format_cards(a.cards), wild=_wild_name(a.wild), target=_meld_name(melds, a.target))


def _go_out_steps(a: Action, melds) -> list[str]:
    steps = [pgettext("action", "swap {card} for {wild} in {target}").format(
        card=natural, wild=wild, target=_meld_name(melds, i)) for i, natural, wild in a.swaps]
    steps += [pgettext("action", "lay off {cards} on {target}").format(
        cards=format_cards(cards), target=_meld_name(melds, i)) for i, cards in a.lay_offs]
    steps += [pgettext("action", "meld {cards}").format(cards=format_cards(m)) for m in a.melds]
    if a.discard is not None:
        steps.append(pgettext("action", "discard {card}").format(card=a.discard))
    return steps


def _describe_go_out(a: Action, melds, you: bool) -> str:
    steps = _go_out_steps(a, melds)
    if not steps:
        return pgettext("action", "Go out: your hand is empty.") if you else \
            pgettext("action", "Go out: the hand is empty.")
    return pgettext("action", "Go out: {steps}.").format(steps=join_words(steps))


_SENTENCES = {
    DRAW: lambda a, melds, you: pgettext("action", "Draw from the stock."),
    TAKE_PILE: _describe_take,
    MELD: lambda a, melds, you: pgettext("action", "Meld {groups}.").format(groups=_melds_words(a.melds)),
    LAY_OFF: lambda a, melds, you: pgettext("action", "Lay off {cards} on {target}.").format(
        cards=format_cards(a.cards), target=_meld_name(melds, a.target)),
    SWAP: _describe_swap,
    DISCARD: lambda a, melds, you: pgettext("action", "Discard {cards}.").format(cards=format_cards(a.cards)),
    GO_OUT: _describe_go_out,
    END: lambda a, melds, you: pgettext("action", "Leave the pile: the stock is used up, so the hand ends."),
}


# --- the sentences of told(): a move told as done, by another player ({player}) or by the reader ("You ...") ---
# Two entries per sentence (context "told"): the third person and the second, as English and others conjugate.

def _tell(you: bool, theirs: str, yours: str, **values) -> str:
    """One of the two sentences, its placeholders but ``{player}`` filled (``told`` fills that one)."""
    return (yours if you else theirs).format(player="{player}", **values)


def _told_take(a: Action, melds, you: bool) -> str:
    cards = format_cards(a.cards)
    target = _meld_name(melds, a.target) if a.target is not None else ""
    if a.target is not None and a.cards:
        text = _tell(you, pgettext("told", "{player} takes the pile with {cards}, laying the top card off on "
                                           "{target}."),
                     pgettext("told", "You take the pile with {cards}, laying the top card off on {target}."),
                     cards=cards, target=target)
    elif a.target is not None:
        text = _tell(you, pgettext("told", "{player} takes the pile, laying the top card off on {target}."),
                     pgettext("told", "You take the pile, laying the top card off on {target}."), target=target)
    elif a.cards:
        text = _tell(you, pgettext("told", "{player} takes the pile with {cards}."),
                     pgettext("told", "You take the pile with {cards}."), cards=cards)
    else:
        text = _tell(you, pgettext("told", "{player} takes the pile."), pgettext("told", "You take the pile."))
    if len(a.melds) > 1:
        opening = _tell(you, pgettext("told", "{player} opens with {groups}."),
                        pgettext("told", "You open with {groups}."), groups=_melds_words(a.melds))
        text = pgettext("action", "{take} {open}").format(take=text, open=opening)
    return text


def _go_out_cards(a: Action) -> Cards:
    """Every card a ``go_out`` puts on the table: the natural cards swapped in, laid off, melded, the discard."""
    cards = [natural for _i, natural, _wild in a.swaps] + [c for _i, cs in a.lay_offs for c in cs]
    cards += [c for m in a.melds for c in m]
    return tuple(cards) + ((a.discard,) if a.discard is not None else ())


def _told_go_out(a: Action, melds, you: bool) -> str:
    cards = _go_out_cards(a)
    if not cards:
        return _tell(you, pgettext("told", "{player} goes out."), pgettext("told", "You go out."))
    return _tell(you, pgettext("told", "{player} goes out with {cards}."), pgettext("told", "You go out with {cards}."),
                 cards=format_cards(cards))


_TOLD = {
    DRAW: lambda a, melds, you: _tell(you, pgettext("told", "{player} draws from the stock."),
                                      pgettext("told", "You draw from the stock.")),
    TAKE_PILE: _told_take,
    MELD: lambda a, melds, you: _tell(you, pgettext("told", "{player} melds {groups}."),
                                      pgettext("told", "You meld {groups}."), groups=_melds_words(a.melds)),
    LAY_OFF: lambda a, melds, you: _tell(you, pgettext("told", "{player} lays off {cards} on {target}."),
                                         pgettext("told", "You lay off {cards} on {target}."),
                                         cards=format_cards(a.cards), target=_meld_name(melds, a.target)),
    SWAP: lambda a, melds, you: _tell(you, pgettext("told", "{player} puts {cards} in place of {wild} in {target} "
                                                            "and keeps {wild}."),
                                      pgettext("told", "You put {cards} in place of {wild} in {target} and keep "
                                                       "{wild}."),
                                      cards=format_cards(a.cards), wild=_wild_name(a.wild),
                                      target=_meld_name(melds, a.target)),
    DISCARD: lambda a, melds, you: _tell(you, pgettext("told", "{player} discards {cards}."),
                                         pgettext("told", "You discard {cards}."), cards=format_cards(a.cards)),
    GO_OUT: _told_go_out,
    END: lambda a, melds, you: _tell(you, pgettext("told", "{player} leaves the pile: the stock is used up, so the "
                                                           "hand ends."),
                                     pgettext("told", "You leave the pile: the stock is used up, so the hand ends.")),
}
