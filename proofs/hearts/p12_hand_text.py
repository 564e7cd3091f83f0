"""HEARTS-P12: seeded hands played through the model, every step against the rulebook's text, written
here apart from the model (:func:`text_deck`, :func:`text_deal`, :func:`text_trick_winner`): two
players and no third (PLAYERS-1), one card each to a trick (TRICK-4), the 28 cards (DECK-1), the hands dealt and nothing
passed (PASS-1), hearts unbroken at each deal (BREAK-3), the trick's winner leads (TRICK-2), 13
tricks (TRICK-3), the queen of spades never held back and breaking hearts exactly as ``queen_breaks``
says (QUEEN-2).

Play walks only the moves the model lists, which are the plays of the player to move; so at every
trick under way the leader's own cards are also offered to the model, each to be refused by
TRICK-4, and wherever the queen of spades may be played before hearts are broken (led, followed
in suit or discarded) she is played aside to see whether hearts break."""

from __future__ import annotations

from typing import Any

from cardcanon.model import hearts as model
from cardcanon.model.cards import Card, Rank, Suit
from cardcanon.model.seats import Seat
from cardcanon.model.shuffle import SplitMix64
from cardcanon.proofs.base import CheckResult, Run, Verdict
from cardcanon.proofs.hearts.replay import seeded_steps
from cardcanon.proofs.records import Record, function_record, hearts_record
from cardcanon.proofs.rulebook import value

TEXT_RANKS = (Rank.TWO, Rank.FOUR, Rank.SIX, Rank.EIGHT, Rank.TEN, Rank.QUEEN, Rank.ACE)
QUEEN = Card(Rank.QUEEN, Suit.SPADES)


def text_deck() -> frozenset[Card]:
    """HEARTS-DECK-1: a standard deck without the 3, 5, 7, 9, jack and king."""
    return frozenset(Card(rank, suit) for rank in TEXT_RANKS for suit in Suit)


def text_deal(order: tuple[Card, ...], dealer: Seat) -> tuple[frozenset[Card], frozenset[Card]]:
    """HEARTS-DEAL-2 with HEARTS-PASS-1: the top card dead, 13 each alternately from the other
    player, the last dead; nothing passed. The two hands by seat."""
    hand = value("hearts", "HEARTS-DEAL-2", "hand_size")
    dealt = order[1:1 + 2 * hand]
    first, second = frozenset(dealt[0::2]), frozenset(dealt[1::2])
    return (second, first) if dealer.index == 0 else (first, second)


def text_trick_winner(lead: tuple[Seat, Card], follow: tuple[Seat, Card]) -> Seat:
    """HEARTS-TRICK-1: the higher heart if a heart is played, else the higher card of the suit led."""
    (leader, a), (follower, b) = lead, follow
    if Suit.HEARTS in (a.suit, b.suit):
        if a.suit is not b.suit:
            return leader if a.suit is Suit.HEARTS else follower
        return leader if a.rank > b.rank else follower
    return follower if b.suit is a.suit and b.rank > a.rank else leader


def step_problem(before: model.HeartsState, move: model.Move, after: model.HeartsState,
                 dealt: dict[int, frozenset[Card]], played: dict[int, set[Card]]) -> str:
    """What the text says is wrong with one step ('' when nothing); keeps ``dealt``/``played``."""
    tricks = value("hearts", "HEARTS-TRICK-3", "tricks_per_hand")
    if isinstance(move, model.Deal):
        if len(move.order) != len(text_deck()) or frozenset(move.order) != text_deck():
            return "the deal is not the 28 cards the rulebook names"
        hands = text_deal(move.order, before.dealer or Seat(0))
        dealt.update({0: hands[0], 1: hands[1]})
        played.update({0: set(), 1: set()})
        if after.phase is not model.Phase.PLAY or after.hands != hands:
            return "after the deal the hands are not the cards dealt, or play does not begin at once"
        if after.hearts_broken:
            return "a hand begins with hearts broken"
        return ""
    if not isinstance(move, model.Play):
        return ""
    played[move.player.index].add(move.card)
    if move.card not in dealt.get(move.player.index, frozenset()):
        return f"{move.player} plays {move.card.pretty}, which was not dealt to him"
    if not before.trick:
        return ""
    if move.player == before.trick[0].player:  # HEARTS-TRICK-4: one card each
        return f"{move.player} plays both cards of a trick"
    done = before.tricks_played + 1
    if done < tricks:
        if after.phase is not model.Phase.PLAY or after.tricks_played != done:
            return f"the hand ends after {done} tricks"
        winner = text_trick_winner((before.trick[0].player, before.trick[0].card), (move.player, move.card))
        if after.to_move != winner:
            return f"{after.to_move} leads to trick {done + 1}; {winner} won trick {done}"
        return ""
    if after.phase is model.Phase.PLAY:
        return f"the hand goes on after {tricks} tricks"
    if any(played[s] != dealt[s] for s in (0, 1)):
        return "a player did not play exactly the cards dealt to him"
    return ""


def leader_again(state: model.HeartsState) -> tuple[model.Play, str] | None:
    """HEARTS-TRICK-4: with a trick under way, a card of the leader's own that the model does not
    refuse by TRICK-4, and why; None when it refuses every one."""
    if state.phase is not model.Phase.PLAY or not state.trick:
        return None
    leader = state.trick[0].player
    for card in sorted(state.hands[leader.index]):
        refusal = model.play_problem(state, model.Play(leader, card))
        if refusal is None or refusal[0] != "HEARTS-TRICK-4":
            how = "accepts it" if refusal is None else f"refuses it by {refusal[0]}, not HEARTS-TRICK-4"
            return model.Play(leader, card), f"{leader} may play {card.pretty} to his own trick: the model {how}"
    return None


QUEEN_MANNERS = ("led", "followed in suit", "discarded")  # stats: queen_led, queen_followed_in_suit, ...


def queen_stat(manner: str) -> str:
    return "queen_" + manner.replace(" ", "_")


def queen_manner(state: model.HeartsState) -> str:
    """How the queen of spades would be played now: led, followed in suit or discarded."""
    if not state.trick:
        return QUEEN_MANNERS[0]
    return QUEEN_MANNERS[1] if state.trick[0].card.suit is Suit.SPADES else QUEEN_MANNERS[2]


def text_queen_breaks(state: model.HeartsState) -> bool:
    """HEARTS-QUEEN-2 with its ``queen_breaks`` option, and HEARTS-BREAK-2: whether playing the
    queen of spades now, before hearts are broken, breaks them."""
    if state.config.queen_breaks.value == "yes":
        return True  # "Playing the queen of spades breaks hearts, as a heart does."
    return state.config.break_on.value == "void" and queen_manner(state) == QUEEN_MANNERS[2]


def queen_tried(state: model.HeartsState, legal: tuple[model.Play, ...],
                ) -> tuple[model.Play, model.HeartsState, str] | None:
    """The queen of spades played aside where she is legal before hearts are broken: her play, the
    position after it and what the text says is wrong with it ('' when nothing); None where she is
    not tried."""
    queen = next((play for play in legal if play.card == QUEEN), None)
    if queen is None or state.hearts_broken:
        return None
    after = model.apply(state, queen)
    if after.phase is not model.Phase.PLAY:  # the hand is over and the next one starts unbroken
        return None
    expected = text_queen_breaks(state)
    if after.hearts_broken == expected:
        return queen, after, ""
    option = state.config.queen_breaks.value
    return queen, after, (f"the queen of spades {queen_manner(state)} with queen_breaks={option} "
                          f"{'leaves hearts unbroken' if expected else 'breaks hearts'}")


def queen_lead_problem(state: model.HeartsState) -> str:
    """HEARTS-QUEEN-2: a leader holding the queen may lead her whenever he may lead a spade."""
    if state.phase is not model.Phase.PLAY or state.trick or state.to_move is None:
        return ""
    legal = {play.card for play in model.legal_moves(state)}
    if QUEEN in state.hands[state.to_move.index] and any(c.suit is Suit.SPADES for c in legal) and QUEEN not in legal:
        return f"{state.to_move} may lead a spade but not the queen of spades"
    return ""


def shown(config: model.HeartsConfig, moves: list[model.Move], state: model.HeartsState,
          dealt: dict[int, frozenset[Card]], rng: SplitMix64, label: str) -> Record:
    """The record of a counterexample, made to show it as a move: the queen of spades refused as
    a lead (``rejects``), or play continued until a player plays a card the text did not deal him."""
    seat = state.to_move
    if seat is not None and not state.trick and QUEEN in state.hands[seat.index] \
            and QUEEN not in {p.card for p in model.legal_moves(state)}:
        return hearts_record(config, moves, state, label=label, rejects=model.Play(seat, QUEEN))
    moves = list(moves)
    while dealt and state.phase is model.Phase.PLAY and state.to_move is not None:
        legal = model.legal_moves(state)
        if not legal or len(moves) > 200:
            break
        foreign = [p for p in legal if p.card not in dealt[p.player.index]]
        move = foreign[0] if foreign else legal[rng.below(len(legal))]
        state = model.apply(state, move)
        moves.append(move)
        if foreign:
            break
    return hearts_record(config, moves, state, label=label)


def check(run: Run) -> CheckResult:
    run.no_probe()
    config, bounds = run.hearts_config(), run.bounds
    third = Seat(value("hearts", "HEARTS-PLAYERS-1", "players"))
    refused = function_record("hearts", "seat_problem", [third.index], label=f"{third} is refused: exactly two players")
    if refused["returns"] != "HEARTS-PLAYERS-1":
        label = f"the model does not refuse {third} as a seat of the table (HEARTS-PLAYERS-1: exactly two players)"
        return CheckResult(Verdict.COUNTEREXAMPLE, label, witness=label, records=(refused,))
    records = [refused]
    stats: dict[str, Any] = {"hands": 0, "tricks": 0, "queen_plays_unbroken": 0, "leader_refused": 0}
    stats.update({queen_stat(manner): 0 for manner in QUEEN_MANNERS})
    shown_queen: set[str] = set()
    for seed in range(int(bounds.get("seeds", 8))):
        rng = SplitMix64(seed)

        def pick(state: model.HeartsState, legal: tuple[model.Play, ...]) -> model.Play:
            return legal[rng.below(len(legal))]

        dealt: dict[int, frozenset[Card]] = {}
        played: dict[int, set[Card]] = {}
        limit = stats["hands"] + int(bounds.get("hands", 3))
        for state, move, after, legal, moves in seeded_steps(config, rng, (pick, pick)):
            problem = step_problem(state, move, after, dealt, played) or queen_lead_problem(after)
            stats["hands"] += isinstance(move, model.Deal)
            stats["tricks"] += isinstance(move, model.Play) and bool(state.trick)
            stats["queen_plays_unbroken"] += isinstance(move, model.Play) and move.card == QUEEN and not state.hearts_broken
            if problem:
                label = f"seed {seed}, move {len(moves)}: {problem}"
                return CheckResult(Verdict.COUNTEREXAMPLE, label, witness=label,
                                   records=(shown(config, moves, after, dealt, rng, label),), stats=stats)
            if (again := leader_again(after)) is not None:
                label = f"seed {seed}, move {len(moves)}: {again[1]}"
                played_again = model.apply(after, again[0])  # the model that accepts it plays it
                return CheckResult(Verdict.COUNTEREXAMPLE, label, witness=label, stats=stats,
                                   records=(hearts_record(config, [*moves, again[0]], played_again, label=label),))
            if after.phase is model.Phase.PLAY and after.trick and after.hands[after.trick[0].player.index]:
                stats["leader_refused"] += 1
                if stats["leader_refused"] == 1:
                    leader = after.trick[0].player
                    play = model.Play(leader, min(after.hands[leader.index]))
                    records.append(hearts_record(config, moves, after, rejects=play, label=(
                        f"seed {seed}, move {len(moves)}: {leader} may not play {play.card.pretty} to his own trick")))
            if (tried := queen_tried(after, legal)) is not None:
                queen, queen_after, queen_problem = tried
                manner = queen_manner(after)
                label = (f"seed {seed}, move {len(moves) + 1}: the queen of spades {manner} before hearts are broken"
                         f" {'breaks' if queen_after.hearts_broken else 'leaves unbroken'} hearts")
                record = hearts_record(config, [*moves, queen], queen_after,
                                       label=label + (f": {queen_problem}" if queen_problem else ""))
                if queen_problem:
                    return CheckResult(Verdict.COUNTEREXAMPLE, f"seed {seed}, move {len(moves) + 1}: {queen_problem}",
                                       witness=label, records=(record,), stats=stats)
                stats[queen_stat(manner)] += 1
                if manner not in shown_queen:
                    shown_queen.add(manner)
                    records.append(record)
            if after.phase is model.Phase.PLAY and not legal:
                label = f"seed {seed}, move {len(moves)}: {after.to_move} is to play and has no legal play"
                return CheckResult(Verdict.COUNTEREXAMPLE, label, witness=label,
                                   records=(hearts_record(config, moves, after, label=label),), stats=stats)
            if after.phase is model.Phase.DEAL and stats["hands"] >= limit:
                break
        records.append(hearts_record(config, moves, after, label=f"seed {seed}: {len(moves)} moves as the text says"))
        run.budget.tick()
    if not stats["queen_plays_unbroken"]:
        return CheckResult(Verdict.NO_WITNESS, "the queen of spades was never played before hearts broke", stats=stats)
    if untried := [manner for manner in QUEEN_MANNERS[:2] if not stats[queen_stat(manner)]]:
        return CheckResult(Verdict.NO_WITNESS, f"the queen of spades was never {' or '.join(untried)} before hearts broke",
                           stats=stats)
    if not stats["leader_refused"]:
        return CheckResult(Verdict.NO_WITNESS, "no leader held a card to offer to his own trick", stats=stats)
    return CheckResult(Verdict.PROVED, f"{stats['hands']} hands, {stats['tricks']} tricks: every step as the text says",
                       witness=records[1]["label"], records=tuple(records), stats=stats)
