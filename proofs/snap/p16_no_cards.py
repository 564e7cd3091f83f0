"""SNAP-P16-no-cards: a game ends with every card in the pot and no winner (SNAP-END-3)."""

from __future__ import annotations

from cardcanon.model.snap import Termination, Tie
from cardcanon.model.snap_text import outcome_text
from cardcanon.proofs.base import CheckResult, Run, Verdict
from cardcanon.proofs.snap.search import Played, play_seed, search_seeds


def no_cards(played: Played) -> bool:
    outcome = played.final.outcome
    return outcome is not None and outcome.termination is Termination.NO_CARDS


def check(run: Run) -> CheckResult:
    run.no_probe()
    found = search_seeds(run, play_seed, no_cards, "no seed in range ends with no player holding a card")
    if isinstance(found, CheckResult):
        return found
    seed, played = found
    final = played.final
    assert final.outcome is not None  # no_cards accepted the game: it ended
    if final.outcome.winner is not None or not isinstance(played.moves[-1], Tie):
        label = f"seed {seed}: the game ends with every card in the pot, {outcome_text(final.outcome)}"
        return CheckResult(Verdict.NO_WITNESS, label, witness=label, records=(played.record(label),))
    witness = (f"seed {seed}: {played.moves[-1]} after flip {final.flips} empties the last hands; "
               f"pot of {len(final.pot)} cards; {outcome_text(final.outcome)}")
    return CheckResult(Verdict.WITNESS, f"draw with every card in the pot, seed {seed}", witness=witness,
                       records=(played.record(witness),), stats={"seed": seed, "flips": final.flips})
