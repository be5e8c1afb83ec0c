"""What the card table shows for one moment of a hand, as one player sees it: :func:`table_view` gives a
:class:`TableView` (seats, each side's melds and red threes, the stock and the pile, the player's own hand in
order, the last move), which :class:`~canasta_tutor.widgets.table.CardTable` draws. A replay is a sequence of
them (:func:`replay_views`).

Pure Python (no Jupyter import), and it reads only an :class:`~canasta_tutor.game.Observation`: never a hidden
card, so a view may be sent to a page as it is.

>>> from canasta_tutor.game import Game, observation
>>> view = table_view(observation(Game("classic").new_initial_state(3), 0))
>>> [(s.place, s.name, s.cards) for s in view.seats]
[('south', 'You', 11), ('west', 'Left opponent', 11), ('north', 'Your partner', 11), ('east', 'Right opponent', 11)]
>>> view.pile.size, view.stock
(1, 61)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..bots.coach import player_name
from ..engine import i18n
from ..engine.cards import RANK_ORDER, SUIT_SYMBOLS, Card, format_cards, rank_plural, sort_key
from ..engine.i18n import gettext as _
from ..engine.i18n import ngettext, npgettext, pgettext
from ..engine.melds import MIXED, NATURAL, NONE, SAMBA, check_meld
from ..engine.pile import check_frozen
from ..game import DRAW, END, HAND_OVER, Action

#: Where each seat sits, counted from the player the table is drawn for (the next player is on the left).
PLACES = {2: ("south", "north"), 3: ("south", "west", "east"), 4: ("south", "west", "north", "east")}
#: The freeze reasons for which players turn the freezing card sideways (a wild card, a red or black three):
#: the pile is frozen for every side, not only for a side that has not melded.
FROZEN_FOR_ALL = ("wild-in-pile", "red-three-in-pile", "black-three-in-pile")


@dataclass(frozen=True)
class SeatView:
    """One player at the table: ``place`` (south is the player the table is drawn for), ``name`` as that player
    calls the seat ("Left opponent"), how many ``cards`` in hand, the ``side`` (index of its melds)."""

    player: int
    place: str
    name: str
    cards: int
    side: int
    to_move: bool = False


@dataclass(frozen=True)
class MeldView:
    """A meld as laid on the table: its ``cards`` in the order they lie (naturals by rank, then wild cards);
    ``label`` ("kings", "♥ sequence"); ``canasta`` (``natural``, ``mixed``, ``samba`` or ``none``). A canasta is
    ``closed``: squared up as one stack with ``top`` showing (red for a natural canasta, black for a mixed one)."""

    cards: tuple[Card, ...]
    label: str
    canasta: str = NONE
    wild: int = 0

    @property
    def closed(self) -> bool:
        return self.canasta != NONE

    @property
    def top(self) -> Card:
        naturals = [c for c in self.cards if not c.is_wild] or list(self.cards)
        wanted = {NATURAL: True, MIXED: False}.get(self.canasta)
        if wanted is not None:
            for c in naturals:
                if c.is_red == wanted:
                    return c
        return naturals[-1]

    def describe(self) -> str:
        """The meld in words, for a screen reader: "natural canasta of kings, 7 cards", "7s: 7♥ 7♠ 2♣ (3 cards, 1
        wild)", in the current language."""
        n = len(self.cards)
        if self.closed:
            pattern = {NATURAL: ngettext("natural canasta of {meld}, {count} card",
                                         "natural canasta of {meld}, {count} cards", n),
                       MIXED: ngettext("mixed canasta of {meld}, {count} card",
                                       "mixed canasta of {meld}, {count} cards", n)}.get(self.canasta) or \
                ngettext("samba of {meld}, {count} card", "samba of {meld}, {count} cards", n)
            return pattern.format(meld=self.label, count=n)
        if self.wild:
            # Translators: the cards of a meld on the table, for a screen reader: "7s: 7♥ 7♠ 2♣ (3 cards, 1 wild)"
            pattern = ngettext("{meld}: {cards} ({count} card, {wild} wild)",
                               "{meld}: {cards} ({count} cards, {wild} wild)", n)
        else:
            pattern = ngettext("{meld}: {cards} ({count} card)", "{meld}: {cards} ({count} cards)", n)
        return pattern.format(meld=self.label, cards=format_cards(self.cards), count=n, wild=self.wild)

    def badge(self) -> str:
        """What a closed canasta's stack shows: its kind and its number of cards ("natural · 7")."""
        kind = {NATURAL: pgettext("canasta kind", "natural"), MIXED: pgettext("canasta kind", "mixed"),
                SAMBA: pgettext("canasta kind", "samba")}.get(self.canasta, "")
        # Translators: on a closed canasta's stack: its kind and how many cards it has ("natural · 7")
        return pgettext("table", "{kind} · {count}").format(kind=kind, count=len(self.cards))


@dataclass(frozen=True)
class SideView:
    """A side (a team, or a player alone): its ``players``, its ``name`` ("Your team", "Opponents"), its melds
    and red threes, whether it is the viewer's (``mine``)."""

    index: int
    players: tuple[int, ...]
    name: str
    melds: tuple[MeldView, ...]
    red_threes: tuple[Card, ...]
    mine: bool

    @property
    def canastas(self) -> int:
        return sum(m.closed for m in self.melds)


@dataclass(frozen=True)
class PileView:
    """The discard pile: its ``size``, the ``top`` card (face up), and when the pile is frozen for everyone, the
    card that froze it (``sideways``, as players turn it). ``frozen``: frozen for the viewer's side (also when
    only because that side has not melded); ``why``: the engine's sentences."""

    size: int
    top: Card | None
    sideways: Card | None = None
    frozen: bool = False
    why: tuple[str, ...] = ()


@dataclass(frozen=True)
class MoveView:
    """A move as the table shows it where it happened: who (``player``, at ``place``), the action's ``kind`` and
    ``cards``, and the sentence a screen reader announces ("Left opponent takes the pile with 9♣ 9♦.")."""

    player: int
    place: str
    kind: str
    cards: tuple[Card, ...]
    text: str


@dataclass(frozen=True)
class TableView:
    """The table at one moment, for the player in the south seat (see the module's description)."""

    seats: tuple[SeatView, ...]
    sides: tuple[SideView, ...]
    pile: PileView
    stock: int
    hand: tuple[Card, ...]
    wild_from: int
    phase: str
    to_move: int
    recent: tuple[MoveView, ...] = ()
    caption: str = ""
    facts: dict = field(default_factory=dict)

    @property
    def last(self) -> MoveView | None:
        """The latest move (of :attr:`recent`: the moves since the viewer's last one), or ``None``."""
        return self.recent[-1] if self.recent else None

    @property
    def naturals(self) -> tuple[Card, ...]:
        return self.hand[:self.wild_from]

    @property
    def wild(self) -> tuple[Card, ...]:
        return self.hand[self.wild_from:]

    def seat(self, place: str) -> SeatView:
        for s in self.seats:
            if s.place == place:
                return s
        raise KeyError(place)

    def side_of(self, player: int) -> SideView:
        return next(s for s in self.sides if player in s.players)

    def to_json(self) -> dict:
        """The view as the page's script reads it: cards as codes, every sentence written (in the current
        language: the script writes no word of its own, see :func:`table_words`)."""
        def codes(cards):
            return [c.code for c in cards]

        def meld(m: MeldView):
            return {"cards": codes(m.cards), "label": m.label, "canasta": m.canasta, "closed": m.closed,
                    "top": m.top.code, "wild": m.wild, "text": m.describe(), "badge": m.badge() if m.closed else ""}

        def side(s: SideView):
            # Translators: the heading of a side's melds on the card table ("Left opponent: melds")
            heading = _("Your team's melds") if s.mine else _("{side}: melds").format(side=s.name)
            canastas = ngettext(" · {count} canasta", " · {count} canastas", s.canastas).format(
                count=s.canastas) if s.canastas else ""
            return {"index": s.index, "players": list(s.players), "name": s.name, "mine": s.mine,
                    "melds": [meld(m) for m in s.melds], "red_threes": codes(s.red_threes),
                    "canastas": s.canastas, "heading": heading, "melds_label": _("{side}: melds").format(
                        side=s.name), "canastas_text": canastas}

        names = {c.code: card_name(c) for c in (*self.hand, self.pile.top, self.pile.sideways) if c is not None}
        if self.pile.top is not None:
            pile_text = _("Top card {card}. {why}").format(card=names[self.pile.top.code],
                                                           why=" ".join(self.pile.why)).strip()
        else:
            pile_text = _("The pile is empty.")

        def move(m: MoveView):
            return {"player": m.player, "place": m.place, "kind": m.kind, "cards": codes(m.cards), "text": m.text}

        return {
            "seats": [{"player": s.player, "place": s.place, "name": s.name, "cards": s.cards, "side": s.side,
                       "to_move": s.to_move, "cards_text": cards_words(s.cards)} for s in self.seats],
            "sides": [side(s) for s in self.sides],
            "pile": {"size": self.pile.size, "top": self.pile.top.code if self.pile.top else None,
                     "sideways": self.pile.sideways.code if self.pile.sideways else None,
                     "frozen": self.pile.frozen, "why": list(self.pile.why), "text": pile_text,
                     "size_text": cards_words(self.pile.size)},
            "stock": self.stock, "stock_text": cards_words(self.stock), "hand": codes(self.hand),
            "hand_text": cards_words(len(self.hand)), "wild_from": self.wild_from,
            "names": names,
            "phase": self.phase, "to_move": self.to_move,
            "recent": [move(m) for m in self.recent],
            "caption": self.caption, **self.facts,
        }


def cards_words(n: int) -> str:
    """``'1 card'``, ``'11 cards'``: a count under a seat, the stock, the pile and the hand, in digits."""
    return npgettext("table", "{count} card", "{count} cards", n).format(count=n)


def table_words() -> dict[str, str]:
    """Every word the table's script writes itself (headings, labels, buttons, the keys' help), in the current
    language: sent to the page with the view (``CardTable.words``), so that the script translates nothing.
    ``{cards}``, ``{move}``, ``{step}`` and ``{steps}`` are filled in by the script (the selection, the move
    chosen by keyboard, a replay's step)."""
    return {
        "to_play": _(" · to play"), "no_melds": _("no melds yet"), "red_threes": _("red threes"),
        "frozen": _("❄ frozen"), "frozen_for_you": _("❄ frozen for your team"), "stock": _("Stock"),
        "pile": _("Pile"), "your_hand": _("Your hand"), "selected": _("selected: {cards}"),
        "tap_to_select": _("tap cards to select them"), "joker": Card("JK").text,
        "natural_cards": _("natural cards"), "wild_cards": _("wild cards"),
        "keys": _("Keys: ← → along your hand · Space selects · ↑ ↓ choose the move · Enter plays "),
        "onto": _("onto: "), "moves": _("Moves you may make now"), "replay": _("Replay"),
        "previous": _("◀ Previous"), "next": _("Next ▶"), "step": _("Step {step} of {steps}"),
        "step_caption": _("Step {step} of {steps}: {caption}"), "what_happened": _("What happened"),
        "enter_plays": _("Enter plays: {move}"),
    }


def place_of(player: int, viewer: int, players: int) -> str:
    """Where ``player`` sits as ``viewer`` sees the table: ``south`` (the viewer), ``west`` (the next player, on
    the left), ``north`` (across: the partner, or the one opponent of a game for two), ``east``.

    >>> [place_of(p, 1, 4) for p in range(4)], place_of(1, 0, 2)
    (['east', 'south', 'west', 'north'], 'north')
    """
    places = PLACES.get(players)
    if places is None:
        raise ValueError(f"a table for {players} players is not drawn (2, 3 or 4)")
    return places[(player - viewer) % players]


def hand_order(cards) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """The hand as a player holds it: natural cards by rank (threes first, aces last; suits together within a
    rank), then the wild cards apart (twos, then jokers).

    >>> [format_cards(g) for g in hand_order(Card(c) for c in "2C KH 4S JK KS 4D".split())]
    ['4♦ 4♠ K♥ K♠', '2♣ Joker']
    """
    ordered = sorted(cards, key=sort_key)
    return tuple(c for c in ordered if not c.is_wild), tuple(c for c in ordered if c.is_wild)


def card_name(card: Card) -> str:
    """A card as a screen reader says it, in the current language: "king of hearts", "joker" ("schoppenheer")."""
    return i18n.card_name(card)


def meld_view(cards, rules) -> MeldView:
    """One meld as it lies: naturals by rank, wild cards after them; its label and kind of canasta."""
    cards = tuple(cards)
    v = check_meld(cards, rules, going_out=True)
    naturals, wild = hand_order(cards)
    if v.kind == "sequence":
        # Translators: a run of one suit on the table (Samba): "♥ sequence"
        label = _("{suit} sequence").format(suit=SUIT_SYMBOLS.get(v.rank, v.rank))
    elif v.rank in RANK_ORDER:
        label = rank_plural(v.rank)
    else:
        label = _("wild cards") if not naturals else rank_plural(naturals[0].rank)
    canasta = v.canasta if v.canasta in (NATURAL, MIXED, SAMBA) else NONE
    return MeldView(cards=naturals + wild, label=label, canasta=canasta, wild=len(wild))


def _pile_view(obs) -> PileView:
    pile = tuple(obs.pile)
    if not pile:
        return PileView(size=0, top=None)
    verdict = check_frozen(obs)
    codes = {r.code for r in verdict.reasons}
    sideways = None
    if verdict and codes & set(FROZEN_FOR_ALL):
        rules = obs.rules
        for c in pile:
            if c.is_wild or (c.is_red_three and rules.red_three_freezes_pile) or \
                    (c.is_black_three and rules.black_three_freezes_pile):
                sideways = c
                break
    return PileView(size=len(pile), top=pile[-1], sideways=sideways, frozen=bool(verdict),
                    why=tuple(r.text for r in verdict.reasons))


def _side_name(players, viewer: int, n: int) -> str:
    if viewer in players:
        return pgettext("seat", "Your team") if len(players) > 1 else pgettext("seat", "You")
    names = [player_name(p, viewer, n) for p in players]
    if len(names) == 1:
        return names[0]
    # Translators: a side of two players named by their seats: "Left opponent and right opponent"
    pattern = pgettext("seat", "{first} and {second}")
    text = names[0]
    for x in names[1:]:
        text = pattern.format(first=text, second=x[:1].lower() + x[1:])
    return text


def table_view(obs, *, recent=(), caption: str = "", **facts) -> TableView:
    """What the table shows the player of ``obs`` (an :class:`~canasta_tutor.game.Observation`): see
    :class:`TableView`. ``caption``: a line above the table (a
    replay's step); ``recent``: the moves to show where they happened (the latest last); ``facts``: more values
    for the page (the move number, whose turn it is, in words)."""
    n = len(obs.hand_sizes)
    viewer = obs.player
    sides_players = tuple(tuple(s) for s in obs.sides) or tuple((p,) for p in range(n))
    side_of = {p: i for i, s in enumerate(sides_players) for p in s}
    seats = tuple(sorted((SeatView(player=p, place=place_of(p, viewer, n), name=player_name(p, viewer, n),
                                   cards=obs.hand_sizes[p], side=side_of.get(p, p),
                                   to_move=obs.phase != HAND_OVER and obs.current_player == p)
                          for p in range(n)), key=lambda s: PLACES[n].index(s.place)))
    columns = len(obs.table_red_threes)
    sides = []
    for i, players in enumerate(sides_players):
        melds = tuple(meld_view(m, obs.rules) for m in (obs.table[i] if i < len(obs.table) else ()))
        reds = []
        for c in dict.fromkeys(p % columns for p in players) if columns else ():
            reds += list(obs.table_red_threes[c])
        sides.append(SideView(index=i, players=players, name=_side_name(players, viewer, n), melds=melds,
                              red_threes=tuple(reds), mine=viewer in players))
    sides.sort(key=lambda s: not s.mine)
    naturals, wild = hand_order(obs.hand)
    return TableView(seats=seats, sides=tuple(sides), pile=_pile_view(obs), stock=obs.stock_left,
                     hand=naturals + wild, wild_from=len(naturals), phase=obs.phase, to_move=obs.current_player,
                     recent=tuple(recent), caption=caption, facts=facts)


def announce(name: str, action: Action, melds=None, *, you: bool | None = None) -> str:
    """The sentence a screen reader says for a move: ``name`` ("Left opponent", "You") made ``action`` (``melds``:
    the mover's side's melds before it, to name a target meld); ``you``: the reader made it (default: ``name`` is
    the seat name "You" in the current language). One whole sentence per kind of move (:meth:`Action.told`).

    >>> from canasta_tutor.engine.cards import parse_cards
    >>> announce("Left opponent", Action("take_pile", cards=parse_cards("9C 9D")))
    'Left opponent takes the pile with 9♣ 9♦.'
    >>> announce("You", Action("discard", cards=parse_cards("4H")))
    'You discard 4♥.'
    """
    if you is None:
        you = name == pgettext("seat", "You")
    return action.told(name, melds, you=you)


def move_view(player: int, action: Action, viewer: int, players: int, melds=None) -> MoveView:
    """The move ``action`` of ``player`` as ``viewer``'s table shows it."""
    name = player_name(player, viewer, players)
    cards = tuple(action.cards)
    if action.kind not in (DRAW, END) and not cards:
        cards = tuple(c for m in action.melds for c in m) + tuple(c for _i, cs in action.lay_offs for c in cs)
        if action.discard is not None:
            cards += (action.discard,)
    return MoveView(player=player, place=place_of(player, viewer, players), kind=action.kind, cards=cards,
                    text=announce(name, action, melds, you=player == viewer))


def replay_views(state, moves, viewer: int, *, captions=()) -> list[TableView]:
    """A replay: the table before ``moves`` (``Action`` s played from ``state``, which is not changed), then after
    each of them, as ``viewer`` sees it; ``captions``: a line for each step after the first (default: the move in
    words)."""
    from ..game import apply, observation

    state = state.clone()
    n = state.game.num_players
    views = [table_view(observation(state, viewer), caption=pgettext("replay", "Before"))]
    for i, action in enumerate(moves):
        player = state.current_player
        melds = observation(state, player).melds
        apply(state, action)
        move = move_view(player, action, viewer, n, melds)
        caption = captions[i] if i < len(captions) else move.text
        views.append(table_view(observation(state, viewer), recent=(move,), caption=caption))
    return views


__all__ = ["MoveView", "MeldView", "PileView", "SeatView", "SideView", "TableView", "announce", "card_name",
           "hand_order", "meld_view", "move_view", "place_of", "replay_views", "table_view"]
