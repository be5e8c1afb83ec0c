"""A coached hand: the learner plays one seat, bots play the others, and a coach comments on every turn.

Pure Python (no Jupyter import): :mod:`canasta_tutor.widgets.coach` draws it and turns clicks into calls.

* :class:`CoachedHand` deals hand number ``seed`` of a preset (the same number always deals the same cards), lets
  the bots play until it is the learner's turn, and takes the learner's moves: :meth:`CoachedHand.move` turns a
  button and the selected cards into the game's action, :meth:`CoachedHand.play` plays it. A move the rules do not
  allow raises :class:`~canasta_tutor.game.IllegalMove` with the engine's reasons and changes nothing.
* The coach is the expert search bot (:data:`DEFAULT_COACH`): when the learner's turn is over, its search
  (:mod:`.review`) compares each decision of the turn (draw or take, then the rest of the turn) with its own, on
  the same deals, and says what a costly one cost in points and which card or meld mattered
  (:attr:`CoachedHand.coach`); :meth:`CoachedHand.better_turn` is *Show me*, :meth:`CoachedHand.why` explains
  another player's move. With ``coach="club"`` (or another bot) the coach is that bot's rules of thumb: before
  each of the learner's actions it asks the bot what it would do, and explains the differences.
* :meth:`CoachedHand.undo` takes back the learner's last turn and the bots' turns after it. Bots choose with a
  random generator seeded by the rules, the hand number and the number of actions played, so a replayed hand, or
  a turn played again the same way after an undo, meets the same answers from the bots.
* When the hand is over, :meth:`CoachedHand.score_sheets` gives each team's score sheet (``score_hand``).

>>> hand = CoachedHand("classic", 3, level="random")
>>> hand.your_turn, [k for k in hand.legal_kinds()][:1]
(True, ['draw'])
>>> hand.play(hand.move("draw")); hand.state.phase
'meld'
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from ..engine.cards import Card, format_cards, sort_key
from ..engine.errors import CanastaError, clip_repr
from ..engine.i18n import NP_, ngettext, pgettext
from ..engine.i18n import gettext as _
from ..engine.melds import check_meld, is_meld
from ..engine.numbers import count_of, is_whole_number
from ..engine.rules import RuleSet, get_rules
from ..engine.verdict import Reason, Verdict
from ..game import (
    DISCARD,
    DRAW,
    END,
    GO_OUT,
    LAY_OFF,
    MELD,
    SWAP,
    TAKE_PILE,
    Action,
    Game,
    IllegalMove,
    apply,
    legal_actions,
    observation,
)
from . import bot_names, get_bot
from ._common import pile_words
from .review import about, better_replay, review_decision, say_decision, say_handed_over

#: The bots' levels a learner may choose for the other seats, weakest first; the coach is the strongest there is.
LEVELS = ("random", "beginner", "club")
#: The rule sets the coached hand offers: classic for four, classic for two, samba.
RULES_CHOICES = ("classic", "classic-2p", "samba")
#: The hand numbers a learner may type.
MAX_HAND_NUMBER = 999_999
#: The coach: the expert search bot when it exists (:func:`coach_bot_name` otherwise); its think time a decision,
#: in seconds (two decisions a turn: draw or take, then the rest of the turn), and its most deals a decision.
DEFAULT_COACH = "expert"
COACH_THINK = 0.4
COACH_PLAYOUTS = 200
#: What each kind of move is called on its button.
KIND_LABELS = {DRAW: "Draw from the stock", TAKE_PILE: "Take the pile", MELD: "Meld the selected cards",
               LAY_OFF: "Add to a meld", SWAP: "Swap for the wild card", DISCARD: "Discard the selected card",
               GO_OUT: "Go out", END: "End the hand (the stock is used up)"}
#: The move buttons' labels as catalog entries (context "move button"): :func:`kind_label` reads them.
_KIND_LABEL_MARKS = (NP_("move button", "Draw from the stock"), NP_("move button", "Take the pile"),
                     NP_("move button", "Meld the selected cards"), NP_("move button", "Add to a meld"),
                     NP_("move button", "Swap for the wild card"), NP_("move button", "Discard the selected card"),
                     NP_("move button", "Go out"), NP_("move button", "End the hand (the stock is used up)"))


def kind_label(kind: str) -> str:
    """The move button's label of ``kind`` in the current language (``KIND_LABELS`` holds the English ones)."""
    return pgettext("move button", KIND_LABELS[kind])


class CoachError(CanastaError):
    """A wrong setting for a coached hand (an unknown level, a hand number out of range, ...)."""


def available_levels() -> tuple[str, ...]:
    """The levels of :data:`LEVELS` whose bot exists."""
    out = []
    for name in LEVELS:
        try:
            get_bot(name)
        except CanastaError:
            continue
        out.append(name)
    return tuple(out)


def default_level() -> str:
    """The bots' level a hand starts with: ``beginner`` when it exists, else the strongest there is."""
    levels = available_levels()
    return "beginner" if "beginner" in levels else coach_bot_name()


def coach_bot_name() -> str:
    """The bot the coach compares the learner with: the strongest level that exists (``club`` once it does)."""
    levels = available_levels()
    if not levels:
        raise CoachError("no bot is registered: the coach needs at least the random bot")
    return levels[-1]


def explain_difference(obs, learner_action: Action, bot_action: Action, bot_reason: str = "") -> str:
    """One sentence on what the coach's bot would have done instead of ``learner_action``.

    The bots' own ``explain_difference`` says it where it exists; otherwise the coach's move is named with the
    bot's ``bot_reason`` for it.

    >>> from canasta_tutor.game import Observation
    >>> from canasta_tutor.engine.cards import parse_cards
    >>> obs = Observation(hand=parse_cards("7H 7S 4C"), pile=parse_cards("5D JK 9C 7C"))
    >>> _fallback(obs, Action("draw"), Action("take_pile", cards=parse_cards("7H 7S")), "")
    'You could have taken the pile: four cards, one of them wild.'
    """
    try:
        from . import explain_difference as bots_explain
    except ImportError:
        bots_explain = None
    if bots_explain is not None:
        text = bots_explain(obs, learner_action, bot_action)
        if text:
            return _sentence(text[:1].upper() + text[1:])
    return _fallback(obs, learner_action, bot_action, bot_reason)


def _fallback(obs, learner: Action, bot: Action, reason: str) -> str:
    """The coach's sentence where no bot explains the difference: the coach's move beside the learner's, each a
    whole sentence of the catalog, and the bot's ``reason`` in its own words."""
    melds = obs.melds
    if bot.kind == TAKE_PILE and learner.kind != TAKE_PILE:
        return _("You could have taken the pile: {pile}.").format(pile=pile_words(obs.pile))
    if bot.kind == GO_OUT and learner.kind != GO_OUT:
        steps = bot.go_out_steps(melds)
        if not steps:
            return _("You could have gone out: your hand is empty.")
        return _("You could have gone out: {steps}.").format(steps=steps)
    if bot.kind in (MELD, LAY_OFF) and learner.kind == DISCARD:
        text = _("You could have put more cards down first: {move}").format(move=_quoted(bot.describe(melds)))
    elif bot.kind == DISCARD and learner.kind == DISCARD:
        text = _("The coach would have discarded {better} rather than {card}.").format(
            better=format_cards(bot.cards), card=format_cards(learner.cards))
    else:
        text = _("You played this: {mine} The coach would have played this: {move}").format(
            mine=_sentence(learner.describe(melds)), move=_sentence(bot.describe(melds)))
    if reason:
        text = _("{sentence} In its words: “{reason}”").format(sentence=text, reason=_sentence(reason))
    return text


def _quoted(text: str) -> str:
    text = _sentence(text)
    return text[:1].lower() + text[1:]


def _sentence(text: str) -> str:
    text = str(text).strip()
    return text if text.endswith((".", "!", "?")) else text + "."


def bot_words(move: str, reason: str) -> str:
    """A bot's reason for its ``move`` (the move as the log tells it), in quotes as its own words; a first clause
    that only says the move again ("I discard 9♦: ...") is left out, unless what follows is only the pile's
    description ("I take the pile: two cards").

    >>> bot_words("Discard 9♦.", "I discard 9♦: it is the card I can least use.")
    '“It is the card I can least use.”'
    >>> bot_words("Meld 5♥ 5♠ 2♥.", "I put down a new meld: cards on the table count for us")
    '“I put down a new meld: cards on the table count for us.”'
    >>> bot_words("Take the pile with 9♣ 9♦.", "I take the pile: two cards.")
    '“I take the pile: two cards.”'
    """
    reason = _sentence(reason)
    head, sep, tail = reason.partition(": ")
    if sep and head.startswith("I ") and head != "I take the pile" and move.lower().startswith(head[2:].lower()):
        reason = tail[:1].upper() + tail[1:]
    return f"“{reason}”"


@dataclass(frozen=True)
class Event:
    """One line of the hand's story: who (``player``; ``None`` for the table) and what, in a sentence.

    ``kind``: ``deal``, ``bot``, ``you``, ``coach``, ``undo`` or ``end``. A move's line carries the ``action``
    and the mover's side's ``melds`` before it (so that a view can show the move where it happened); a bot's
    move also what the bot ``saw`` (its observation: *Why did my partner do that?*)."""

    player: int | None
    text: str
    kind: str = "bot"
    action: Action | None = None
    melds: tuple = ()
    saw: object = None


#: A drawing move's log line and the cards it brought (the table's live region reads the second part alone).
NEW_IN_HAND_LINE = "{move} {new}"


def new_in_hand(cards) -> str:
    """``'New in your hand: 7♥ K♠.'`` in the current language (:data:`NEW_IN_HAND_LINE` puts it after the move)."""
    return _("New in your hand: {cards}.").format(cards=format_cards(cards))


def player_name(player: int, seat: int, players: int) -> str:
    """"You", "Your partner", "Left opponent"... as the learner at ``seat`` names the seats.

    >>> [player_name(p, 0, 4) for p in range(4)]
    ['You', 'Left opponent', 'Your partner', 'Right opponent']
    """
    if player == seat:
        return pgettext("seat", "You")
    offset = (player - seat) % players
    if players == 2:
        return pgettext("seat", "Your opponent")
    if players == 4:
        return {1: pgettext("seat", "Left opponent"), 2: pgettext("seat", "Your partner"),
                3: pgettext("seat", "Right opponent")}[offset]
    return pgettext("seat", "Player {number}").format(number=player + 1)


def _refused(code: str, text: str) -> IllegalMove:
    return IllegalMove(Verdict(False, (Reason(code, text),)))


class CoachedHand:
    """One hand of ``rules`` (a preset name or ``RuleSet``), number ``seed``, the learner in ``seat``.

    ``level``: the bots at the other seats (one of :func:`available_levels`; default :func:`default_level`).
    ``coach``: the coach's bot (default :data:`DEFAULT_COACH`, the expert, when it exists); with the expert,
    ``think`` (seconds a decision, ``None``: exactly ``playouts`` deals) and ``playouts`` bound its search,
    seeded by the hand number.
    """

    def __init__(self, rules: str | RuleSet = "classic", seed: int = 1, *, level: str | None = None, seat: int = 0,
                 coach: str | None = None, think: float | None = COACH_THINK, playouts: int = COACH_PLAYOUTS):
        self.rules = get_rules(rules)
        levels = available_levels()
        if level is None:
            level = default_level()
        if level not in levels:
            raise CoachError(f"level: {clip_repr(level)} is not a bot level; choose one of {', '.join(levels)}")
        if not is_whole_number(seed) or not 1 <= seed <= MAX_HAND_NUMBER:
            raise CoachError(f"hand number: {clip_repr(seed)} is not a whole number from 1 to {MAX_HAND_NUMBER}")
        self.game = Game(self.rules)
        if not is_whole_number(seat) or not 0 <= seat < self.game.num_players:
            raise CoachError(f"seat: {clip_repr(seat)} is not a seat of {self.rules.name} "
                             f"(0 to {self.game.num_players - 1})")
        self.seed, self.level, self.seat = seed, level, seat
        self.bot = get_bot(level)
        if coach is None:
            coach = DEFAULT_COACH if DEFAULT_COACH in bot_names() else coach_bot_name()
        self.coach_name = coach
        self.expert = None
        if coach == "expert":
            from .expert import ExpertBot

            self.expert = ExpertBot(think=think, playouts=playouts, seed=seed)
            self.coach_bot = self.expert
        else:
            self.coach_bot = get_bot(coach)
        self.reviews: list = []             # the expert's reviews of the learner's last finished turn's decisions
        self._costly: list[tuple] = []      # (turn, Decision) of each costly decision of the hand so far
        self._points: list[tuple] = []      # (state, the learner's plan) of each decision of the turn so far
        self.state = self.game.new_initial_state(seed)
        self.log: list[Event] = [Event(None, _("Hand {number} is dealt: {rules}.").format(
            number=seed, rules=self.rules.display_title), "deal")]
        self.coach: list[str] = []         # the coach's sentences about the learner's last finished turn
        self._notes: list[tuple] = []       # (the coach's move, the difference in a sentence) so far this turn
        self._turns: list[tuple] = []       # (state, log length) when each of the learner's turns began
        self._run_bots()

    # --- what the learner sees ----------------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.game.num_players

    @property
    def over(self) -> bool:
        return self.state.is_terminal()

    @property
    def your_turn(self) -> bool:
        return not self.over and self.state.current_player == self.seat

    @property
    def can_undo(self) -> bool:
        return bool(self._turns)

    def observation(self):
        """What the learner sees (an :class:`~canasta_tutor.game.Observation`)."""
        return observation(self.state, self.seat)

    def legal(self) -> list[Action]:
        """The learner's legal actions now (none when it is not the learner's turn)."""
        return legal_actions(self.state) if self.your_turn else []

    def legal_kinds(self) -> list[str]:
        """The kinds of the learner's legal actions, in the order of a turn (one button each)."""
        kinds = {a.kind for a in self.legal()}
        return [k for k in KIND_LABELS if k in kinds]

    def name(self, player: int) -> str:
        return player_name(player, self.seat, self.players)

    def team_players(self) -> list[tuple[int, ...]]:
        """The players of each team, the learner's team first."""
        return sorted(self.game.teams, key=lambda team: self.seat not in team)

    def lay_off_targets(self) -> list[tuple[int, tuple[Card, ...]]]:
        """``(index, meld)`` for the learner's team's melds (where selected cards may be added)."""
        return list(enumerate(self.observation().melds))

    # --- from a button and the selected cards to an action -------------------------------------------------------
    def move(self, kind: str, cards=(), target: int | None = None) -> Action:
        """The learner's action for the button ``kind`` with the hand's ``cards`` selected (and the meld ``target``
        for ``lay_off``). It is a legal action when one fits; otherwise the action as the learner asked for it, so
        that :meth:`play` refuses it with the engine's reasons. A selection that says nothing a button can use
        raises :class:`IllegalMove` saying what to select."""
        return move_from_buttons(kind, self.legal(), cards, target, self.rules)

    def advice(self) -> tuple[Action, str]:
        """What the coach would do now, and why: ``(action, sentence)`` (only on the learner's turn)."""
        if not self.your_turn:
            raise CoachError("it is not your turn: the coach has no advice to give now")
        if self.expert is not None:
            rng = random.Random(f"{self.rules.name}:{self.seed}:{len(self.state.history)}")
            return self.expert.advise(self.observation(), legal_actions(self.state), rng)
        return self._choose(self.coach_bot, self.observation(), legal_actions(self.state))

    # --- playing ------------------------------------------------------------------------------------------------
    def play(self, action: Action) -> None:
        """Play the learner's ``action``: refused with the engine's reasons (:class:`IllegalMove`, nothing
        changes), or played. When it ends the learner's turn, the coach comments on the turn and the bots play
        until the learner's next turn or the end of the hand."""
        if self.over:
            raise _refused("hand-over", _("The hand is over: deal another hand to play on."))
        if not self.your_turn:  # pragma: no cover - the bots always play up to the learner's turn
            raise _refused("not-your-turn", _("It is not your turn: {player} plays.").format(
                player=self.name(self.state.current_player)))
        obs = self.observation()
        legal = legal_actions(self.state)
        after = apply(self.state.clone(), action)  # raises IllegalMove; the state is unchanged then
        if obs.phase == "draw":  # the first action of a turn: the state to come back to on undo
            self._turns.append((self.state.clone(), len(self.log)))
            self._notes = []
            self._points = []
        if self.expert is not None:
            self._note_decision(obs, legal, action)
            advice = action
        else:
            advice, why = self._choose(self.coach_bot, obs, legal)
        self.state = after
        text = pgettext("announce", "{player}: {move}").format(player=pgettext("seat", "You"),
                                                                move=_sentence(action.describe(obs.melds)))
        if action.kind == DRAW:  # which cards came (a red three drawn is already on the table, and replaced)
            new = Counter(self.observation().hand) - Counter(obs.hand)
            if new:
                text = NEW_IN_HAND_LINE.format(move=text, new=new_in_hand(sorted(new.elements(), key=sort_key)))
        self.log.append(Event(self.seat, text, "you", action, tuple(obs.melds)))
        if advice != action:
            # one note per move the coach would have made: the latest says it best ("you could have put more
            # cards down first" at the discard, after "I would have chosen" at a lay-off that differed)
            note = explain_difference(obs, action, advice, why)
            self._notes = [(a, n) for a, n in self._notes if a != advice and n != note] + [(advice, note)]
        if self.over or self.state.current_player != self.seat:
            at = len(self.log)
            after_turn = self._run_bots()
            self._end_turn(action, after_turn, at)

    def _note_decision(self, obs, legal, action: Action) -> None:
        """Keep the learner's decisions of this turn for the expert's review: the draw (when there was a choice),
        then the rest of the turn as one plan from the meld phase's first position."""
        if obs.phase == "draw":
            self.expert.see(obs)
            if len(legal) > 1:
                self._points.append((self.state.clone(), [action]))
            self._points.append((None, []))   # the meld phase's decision begins after this action
            return
        state, plan = self._points[-1] if self._points else (None, [])
        if state is None:
            state = self.state.clone()
            self._points[-1:] = [(state, plan)]
        plan.append(action)
        if action.kind == DISCARD:
            self.expert.see(obs, action)

    def _review(self) -> list:
        """The expert's review of each decision of the turn just finished (see :mod:`.review`)."""
        return [review_decision(self.expert, state, plan) for state, plan in self._points if state is not None and
                plan and len(legal_actions(state)) > 1]

    def _end_turn_expert(self, last: Action, after, at: int) -> None:
        """The expert coach's sentences about the turn just finished: the figure for a costly decision, praise only
        for a turn it would have played itself and that did not hand the pile over, what happened when it did."""
        self.reviews = self._review()
        self._points = []
        costly = [d for d in self.reviews if d.costly]
        self._costly += [(len(self._turns), d) for d in costly]
        other = [d for d in self.reviews if not d.same]
        handed = self._handed_over(last, after)
        if costly:
            self.coach = [_("I (the expert bot) would have played this turn differently:")]
            for d in costly:
                self.coach += say_decision(d)
        elif other:
            loss = max(d.loss for d in other)
            self.coach = [_("I (the expert bot) would have played this turn a little differently, but on my "
                            "estimate it makes little difference (about {points} points).").format(
                                points=about(loss))]
        elif handed:
            self.coach = [_("I (the expert bot) would have played this turn the same way, but it did not work "
                            "out:")]
        else:
            self.coach = [_("I (the expert bot) would have played this turn the same way. Well played!")]
        self.coach += handed
        self.log[at:at] = [Event(None, sentence, "coach") for sentence in self.coach]

    def _handed_over(self, last: Action, after) -> list[str]:
        """The sentences when the learner's discard ``last`` let the next player, an opponent, take the pile."""
        if last.kind != DISCARD or not after:
            return []
        player, action, obs = after[0]
        if action.kind != TAKE_PILE or self.state.team_of(player) == self.state.team_of(self.seat):
            return []
        own_turn = [a for p, a, _obs in after if p == player][1:]
        went = self.state.went_out
        went_out = went is not None and went[0] == player and len(own_turn) == len(after) - 1
        meld_phase = [d for d in self.reviews if d.yours and d.yours[-1].kind == DISCARD]
        return say_handed_over(self.name(player), last.cards[0], action, obs, went_out,
                               meld_phase[-1] if meld_phase else None)

    @property
    def mistakes(self) -> list:
        """The learner's costly decisions of the hand so far (:class:`~.review.Decision` s, in the order played; an
        undone turn's are gone): after the hand they become puzzles (:mod:`canasta_tutor.puzzles.decisions`)."""
        return [d for _turn, d in self._costly]

    @property
    def show_me(self):
        """The costliest decision of the learner's last turn (a :class:`~.review.Decision`), or ``None``."""
        costly = [d for d in self.reviews if d.costly]
        return max(costly, key=lambda d: d.loss) if costly else None

    def better_turn(self) -> tuple[object, list[Action]]:
        """*Show me*: ``(state, actions)``: the costliest decision's position (the unseen cards a guess) and the
        expert's better plan played from it to the end of the turn."""
        d = self.show_me
        if d is None:
            raise CoachError(_("the coach has no better move to show for your last turn"))
        return better_replay(d, self.seed)

    def why(self, index: int) -> list[str]:
        """*Why did my partner do that?*: for the log's bot move at ``index``, the bot's words and the expert's
        estimate of its move against the best the search found (from the mover's seat, seeing what it saw)."""
        if not 0 <= index < len(self.log) or self.log[index].saw is None:
            raise CoachError(_("log line {index}: not a move of another player").format(index=index))
        from .expert import ExpertBot
        from .review import same_plan

        e = self.log[index]
        obs, action = e.saw, e.action
        out = [e.text]
        legal = legal_actions(_sampled(obs))
        if len(legal) < 2:
            return out + [_("It was the only move allowed.")]
        expert = self.expert or ExpertBot(seed=self.seed)
        estimates = expert.evaluate(obs, legal, also=[(action,)])
        best = expert.pick(estimates)
        mine = next(x for x in estimates if x.plan == (action,)) if (action,) in [x.plan for x in estimates] \
            else None
        if same_plan(obs, best.plan, (action,)) or (best.action == action):
            out.append(_("My search agrees: over {deals} guesses of the unseen cards this move scores about "
                         "{points:+.0f} points a hand for their side.").format(deals=best.deals, points=best.mean))
        elif mine is not None:
            loss, _margin, deals = expert.difference(best.plan, (action,))
            out.append(_("My search would rather {better}: over {deals} guesses of the unseen cards it scores "
                         "about {points} points more for their side.").format(
                             better=best.action.describe(obs.melds, you=False)[:1].lower()
                             + best.action.describe(obs.melds, you=False)[1:].rstrip("."),
                             deals=deals, points=about(loss)))
        return out

    def _end_turn(self, last: Action, after: list[tuple[int, Action, object]], at: int) -> None:
        """The coach's sentences about the turn that has just ended with ``last``, written once the bots have
        answered it (``after``: their moves up to the learner's next turn), into the log at ``at``. It praises
        only a turn it agrees with and that did not hand the pile over; when the next player took the pile the
        learner's discard left, it says so."""
        if self.expert is not None:
            self._end_turn_expert(last, after, at)
            return
        # the coach speaks as its bot does: "I would have discarded 4♥"
        handed = _pile_handed_over(self, last, after)
        if self._notes:
            said = _("I (the {bot} bot) would have played this turn differently:")
        elif handed:
            said = _("I (the {bot} bot) would have played this turn the same way, but it did not work out:")
        else:
            said = _("I (the {bot} bot) would have played this turn the same way. Well played!")
        self.coach = [said.format(bot=self.coach_name)] + [n for _a, n in self._notes]
        if handed:
            self.coach.append(handed)
        self._notes = []
        self.log[at:at] = [Event(None, sentence, "coach") for sentence in self.coach]

    def _choose(self, bot, obs, legal) -> tuple[Action, str]:
        rng = random.Random(f"{self.rules.name}:{self.seed}:{len(self.state.history)}")
        return bot.choose(obs, legal, rng)

    def _run_bots(self) -> list[tuple[int, Action, object]]:
        """The bots play up to the learner's turn (or the end of the hand); their moves, ``(player, action,
        what the player saw)``."""
        moves = []
        while not self.over and self.state.current_player != self.seat:
            player = self.state.current_player
            obs = observation(self.state, player)
            action, reason = self._choose(self.bot, obs, legal_actions(self.state))
            apply(self.state, action)
            moves.append((player, action, obs))
            # the game's sentences speak to the player to move ("with 9♣ 9♦ from your hand"): told of a bot here
            move = _sentence(action.describe(obs.melds, you=False))
            text = action.told(self.name(player), obs.melds)
            if reason:
                text += f" {bot_words(move, reason)}"
            self.log.append(Event(player, text, "bot", action, tuple(obs.melds), obs))
        if self.over:
            self.log.append(Event(None, self._ending(), "end"))
        return moves

    def _ending(self) -> str:
        went = self.state.went_out
        if went is None:
            return _("The stock is used up: the hand is over, and nobody went out.")
        player, concealed = went
        if player == self.seat:
            return _("You went out concealed: the hand is over.") if concealed else \
                _("You went out: the hand is over.")
        return (_("{player} went out concealed: the hand is over.") if concealed else
                _("{player} went out: the hand is over.")).format(player=self.name(player))

    def undo(self) -> bool:
        """Take back the learner's last turn (the one being played, or else the last one finished) and the bots'
        turns after it; ``False`` when there is nothing to take back."""
        if not self._turns:
            return False
        state, length = self._turns.pop()
        self.state = state
        self._costly = [(turn, d) for turn, d in self._costly if turn <= len(self._turns)]
        del self.log[length:]
        self._notes = []
        self._points = []
        self.reviews = []
        self.coach = []
        self.log.append(Event(None, _("You took back your last turn."), "undo"))
        return True

    # --- the end ------------------------------------------------------------------------------------------------
    def score_sheets(self) -> list[tuple[tuple[int, ...], object]]:
        """``[(team's players, ScoreSheet), ...]`` for the finished hand, the learner's team first."""
        if not self.over:
            raise CoachError("the hand is not over yet: there is no score sheet")
        sheets = self.state.hand_result()
        return sorted(zip(self.game.teams, sheets), key=lambda ts: self.seat not in ts[0])

    def describe_cards(self, cards) -> str:
        return format_cards(cards)


def _sampled(obs):
    from .determinize import sample_state

    return sample_state(obs, random.Random(0))


def _pile_handed_over(hand: CoachedHand, last: Action, after: list[tuple[int, Action, object]]) -> str:
    """What happened when the learner's discard ``last`` let the next player, an opponent, take the pile (and
    perhaps go out in the same turn), in a sentence; ``""`` when it did not."""
    if last.kind != DISCARD or not after:
        return ""
    player, action, obs = after[0]
    if action.kind != TAKE_PILE or hand.state.team_of(player) == hand.state.team_of(hand.seat):
        return ""
    own_turn = [a for p, a, _obs in after if p == player][1:]
    went = hand.state.went_out
    if went is not None and went[0] == player and len(own_turn) == len(after) - 1:
        said = _("{player} then took the pile on your {card} ({pile}) and went out.")
    else:
        said = _("{player} then took the pile on your {card} ({pile}).")
    return said.format(player=hand.name(player), card=format_cards(last.cards), pile=count_of(len(obs.pile), "card"))


def move_from_buttons(kind: str, legal, cards=(), target: int | None = None, rules: RuleSet | None = None) -> Action:
    """The action for the table's button ``kind`` with ``cards`` selected (and the meld ``target``), of the ``legal``
    actions now: a legal action when one fits; otherwise the action as asked for, so that playing it is refused
    with the engine's reasons. A selection that says nothing a button can use raises :class:`IllegalMove` saying
    what to select."""
    cards = tuple(Card(c) for c in cards)
    legal = [a for a in legal if a.kind == kind]
    if kind in (DRAW, END, GO_OUT):
        return legal[0] if legal else Action(kind)
    if kind == DISCARD:
        return _discard_move(cards)
    if kind == TAKE_PILE:
        return _take_move(legal, cards)
    if kind == MELD:
        return _meld_move(legal, cards, rules)
    if kind in (LAY_OFF, SWAP):
        return _lay_off_or_swap_move(kind, legal, cards, target)
    raise CoachError(f"unknown move {clip_repr(kind)}: the moves are {', '.join(KIND_LABELS)}")


# --- from a button and the selected cards to an action, kind by kind -------------------------------------------

def _discard_move(cards: tuple[Card, ...]) -> Action:
    if len(cards) != 1:
        said = _("Select exactly one card to discard (you selected {count}).") if cards else \
            _("Select exactly one card to discard.")
        raise _refused("select-one", said.format(count=len(cards)))
    return Action(DISCARD, cards=cards)


def _take_move(legal: list[Action], cards: tuple[Card, ...]) -> Action:
    """The legal take that shows the selected cards (the only one, when none are selected); several ways and no
    selection: say which cards to select."""
    if len(legal) == 1 and not cards:
        return legal[0]
    for a in legal:
        if Counter(_from_hand(a)) == Counter(cards):
            return a
    if len(legal) > 1 and not cards:
        options = list(dict.fromkeys(format_cards(sorted(_from_hand(a), key=sort_key)) for a in legal))
        ways = pgettext("action", "{earlier}; or {last}")
        shown = options[0]
        for option in options[1:4]:
            shown = ways.format(earlier=shown, last=option)
        if len(options) > 4:
            said = ngettext("Select the cards from your hand that take the pile with its top card (and those of any "
                            "other meld you put down with it), then press Take the pile. You could select {ways} (or "
                            "one of {count} other way).",
                            "Select the cards from your hand that take the pile with its top card (and those of any "
                            "other meld you put down with it), then press Take the pile. You could select {ways} (or "
                            "one of {count} other ways).", len(options) - 4)
        else:
            said = _("Select the cards from your hand that take the pile with its top card (and those of any other "
                     "meld you put down with it), then press Take the pile. You could select {ways}.")
        raise _refused("select-shown", said.format(ways=shown, count=len(options) - 4))
    return Action(TAKE_PILE, cards=cards)


def _meld_move(legal: list[Action], cards: tuple[Card, ...], rules: RuleSet) -> Action:
    """The legal meld of exactly the selected cards, else the melds the learner most likely means."""
    if not cards:
        raise _refused("select-meld", "Select the cards you want to meld first.")
    for a in legal:
        if Counter(c for m in a.melds for c in m) == Counter(cards):
            return a
    groups = _groups(cards, rules)
    if len(groups) > 1 and not any(is_meld(g, rules, going_out=True) for g in groups):
        # no rank's cards make a meld by themselves (4♦ 5♣): the learner meant one meld, and what is wrong with it is
        # that its ranks differ, not that each card alone is too few
        mixed = tuple(r for r in check_meld(cards, rules, going_out=True).reasons if r.code == "mixed-ranks")
        if mixed:
            raise IllegalMove(Verdict(False, mixed))
    return Action(MELD, melds=groups)


def _lay_off_or_swap_move(kind: str, legal: list[Action], cards: tuple[Card, ...], target: int | None) -> Action:
    """The legal lay-off (or swap) of the selected cards onto ``target``, else the one the learner asked for (a
    swap takes back the wild card the game offers for that meld)."""
    if not cards or (kind == SWAP and len(cards) != 1):
        raise _refused("select-one", "Select the card to put in the meld." if kind == SWAP else
                       "Select the cards to add to the meld first.")
    if target is None:
        raise _refused("choose-meld", "Choose the meld to add it to.")
    for a in legal:
        if Counter(a.cards) == Counter(cards) and a.target == target:
            return a
    if kind == SWAP:
        wild = [a.wild for a in legal if a.target == target][:1]
        return Action(SWAP, cards=cards, target=target, wild=wild[0] if wild else None)
    return Action(LAY_OFF, cards=cards, target=target)


def _from_hand(action: Action) -> tuple[Card, ...]:
    """The cards from hand a ``take_pile`` action uses: those shown with the top card, and its other melds."""
    if action.melds:
        return tuple(action.melds[0][1:]) + tuple(c for m in action.melds[1:] for c in m)
    return tuple(action.cards)


def _groups(cards: tuple[Card, ...], rules: RuleSet) -> tuple[tuple[Card, ...], ...]:
    """The selected cards as the melds a learner most likely means: natural cards by rank, the wild cards with
    the first group (a selection of wild cards alone is one group); with sequences (samba), natural cards of one
    suit and different ranks are one run."""
    naturals = [c for c in cards if not c.is_wild]
    if rules.sequences and len(naturals) >= 3 and len({c.suit for c in naturals}) == 1 \
            and len({c.rank for c in naturals}) == len(naturals):
        return (tuple(cards),)
    by_rank: dict[str, list[Card]] = {}
    wild = []
    for c in cards:
        (wild if c.is_wild else by_rank.setdefault(c.rank, [])).append(c)
    groups = [list(g) for g in by_rank.values()]
    if not groups:
        return (tuple(wild),)
    groups[0] += wild
    return tuple(tuple(g) for g in groups)
