"""The bridge between the whole-hand encoding (:class:`~.encoding.HandEncoding`) and the model, for
HEARTS-P11: the hands the model plays are hands of the encoding, and the hands the encoding finds
are hands the model plays, with the same scores.

- ``count`` seeded hands, played by the model between random players (the first hand of the matches
  of seeds 0 to count - 1), each pinned in the encoding trick by trick: Z3 finds it, and the encoding
  scores it as the model does;
- ``count`` hands of the encoding, each with a seeded pair of dead cards (the first: the 2 and 4 of
  clubs) and first leader, replayed by the model (dealt, every play accepted, the hand score the
  encoding's).
"""

from __future__ import annotations

from cardcanon.model import hearts as model
from cardcanon.model.cards import Card
from cardcanon.model.hearts_types import SEATS
from cardcanon.model.shuffle import SplitMix64
from cardcanon.proofs.base import Run
from cardcanon.proofs.hearts.encoding import CARDS, INDEX, HandWitness, Rules
from cardcanon.proofs.hearts.replay import Mismatch, hands_of, replay_single, seeded_steps
from cardcanon.proofs.records import hearts_record


def played_hand(config: model.HeartsConfig, seed: int) -> tuple[HandWitness, list[model.Move], model.HeartsState]:
    """The first hand of the match of ``seed`` between random players, as a witness."""
    rng = SplitMix64(seed)

    def pick(state: model.HeartsState, legal: tuple[model.Play, ...]) -> model.Play:
        return legal[rng.below(len(legal))]

    plays: list[model.Play] = []
    dead: tuple[Card, ...] = ()
    for _, move, after, _, moves in seeded_steps(config, rng, (pick, pick)):
        if isinstance(move, model.Deal):
            dead = after.dead
        elif isinstance(move, model.Play):
            plays.append(move)
        if after.hand_scores:
            tricks = tuple((a.player.index, INDEX[a.card], INDEX[b.card]) for a, b in zip(plays[0::2], plays[1::2]))
            return HandWitness(tricks, tuple(sorted(INDEX[c] for c in dead)), after.hand_scores[-1]), moves, after
    raise Mismatch(f"seed {seed}: the model's hand did not end", hearts_record(config, moves, after, label="unended"))


def compare_hands(run: Run, config: model.HeartsConfig, count: int) -> dict[str, int]:
    hands = hands_of(Rules(config=config))
    for seed in range(count):
        witness, moves, after = played_hand(config, seed)
        pinned = hands.find(run.budget, *hands.enc.fix(witness))
        if pinned is None or tuple(pinned.scores) != tuple(witness.scores):
            what = "is not a hand of the encoding" if pinned is None else f"scores {tuple(pinned.scores)} in the encoding"
            text = f"seed {seed}: the model's first hand (scored {tuple(witness.scores)}) {what}"
            raise Mismatch(text, hearts_record(config, moves, after, label=text))
    rng, found = SplitMix64(count), 0
    for i in range(count):  # the first with the 2 and 4 of clubs dead: the 6 makes the leader (HEARTS-LEAD-2)
        gone = model.FIRST_LEAD_CLUBS[:2] if i == 0 else rng.shuffled(CARDS)[:2]
        leader = SEATS[rng.below(len(SEATS))]
        shown = hands.find(run.budget, *[hands.enc.dead[INDEX[c]] for c in gone], hands.enc.lead1[0] == bool(leader.index))
        if shown is not None:  # (a hand missing shows in the count, against the expected statistics)
            replay_single(run, shown, config)
            found += 1
        run.budget.tick()
    return {"hands_played": count, "hands_found": found}
