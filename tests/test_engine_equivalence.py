"""The fast engine against the reference models: the same deals, moves and outcomes.

Every engine game is compared with the reference model's game of the same seed move for move,
and its moves are replayed through the reference ``apply``, checking each step and the end.
"""

from __future__ import annotations

import ctypes
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardcanon.engine import build, hearts as engine_hearts, snap as engine_snap
from cardcanon.model import hearts, hearts_types, snap
from cardcanon.model.cards import FULL_DECK, Suit
from cardcanon.model.snap_policies import play_game
from conftest import cases

pytestmark = pytest.mark.needs_kernel

SNAP_POLICIES = ("flipper-first", "owner-first", "ties:0.25", "errors:0.1", "ties:1", "errors:1")
CAP = 1500  # flips: keeps the reference model's side of each comparison quick


# ---- Snap --------------------------------------------------------------------------------
def replay_snap(config: snap.SnapConfig, moves, run: engine_snap.SnapRun) -> None:
    """Replay engine moves through the reference ``apply``; check the engine's verdict."""
    state = snap.new_game(config)
    seen: dict = {}
    for move in moves:
        if state.phase is snap.Phase.FLIP:
            seen.setdefault(state.position_key(), state.flips)
        state = snap.apply(state, move)  # raises on any illegal move
        assert sum(snap.total_cards(state).values()) == len(config.deck)
    assert state.flips == run.flips
    if run.status == "ended":
        assert state.outcome == snap.Outcome(run.termination, run.winner)
    else:
        assert state.phase is snap.Phase.FLIP
    if run.status == "endless":
        assert seen[state.position_key()] == run.cycle.start
        assert run.cycle.start + run.cycle.length == run.flips


def check_snap(config: snap.SnapConfig, seed: int, policy: str, cap: int = CAP) -> engine_snap.SnapRun:
    run, moves = engine_snap.moves(config, seed, policy, cap)
    reference = play_game(config, seed, policy, max_flips=cap)
    assert moves == reference.moves
    assert run.status == reference.status and run.flips == reference.flips
    assert run.cycle == reference.endless
    if reference.outcome:
        assert (run.termination, run.winner) == (reference.outcome.termination, reference.outcome.winner)
    assert engine_snap.decide(config, seed, policy, cap) == run
    replay_snap(config, moves, run)
    return run


@pytest.mark.rules("SNAP-DEAL-1", "SNAP-DEAL-2", "SNAP-DEAL-3", "SNAP-FLIP-1", "SNAP-FLIP-3", "SNAP-CALL-1",
                   "SNAP-CALL-3", "SNAP-POT-1", "SNAP-POT-2", "SNAP-TIE-1", "SNAP-PEN-1", "SNAP-PEN-2",
                   "SNAP-PEN-3", "SNAP-OUT-1", "SNAP-END-1", "SNAP-END-2", "SNAP-END-4")
@pytest.mark.parametrize("policy", SNAP_POLICIES[:4])
@pytest.mark.parametrize("players", [2, 3, 12, *(pytest.param(n, marks=pytest.mark.slow) for n in (4, 6))])
def test_snap_seeded_games_match_the_model(players, policy):
    for seed in range(2):
        check_snap(snap.SnapConfig(players=players), seed, policy, cap=800)


SNAP_VARIANTS = ({"index_card": True}, {"next_turn": snap.NextTurn.WINNER})


@pytest.mark.rules("SNAP-INDEX-1", "SNAP-TURN-2", "SNAP-CALL-4", "SNAP-CALL-5", "SNAP-END-4")
@pytest.mark.parametrize("players", [3])  # 2 to 12 players: the thorough form below
def test_snap_rule_variants_match_the_model(players):
    """Every policy (including frequent ties and errors) under the index card and the winner's turn."""
    statuses = {check_snap(snap.SnapConfig(players=players, **variant), seed, policy, cap=800).status
                for policy in SNAP_POLICIES for variant in SNAP_VARIANTS for seed in range(2)}
    assert "ended" in statuses


@pytest.mark.slow
@pytest.mark.rules("SNAP-END-4", "SNAP-CALL-3", "SNAP-PEN-1", "SNAP-TIE-1")
@pytest.mark.parametrize("policy", SNAP_POLICIES)
@pytest.mark.parametrize("players", range(2, 13))
def test_snap_many_seeded_games_match_the_model(players, policy):
    for seed in range(100, 100 + cases(12, 1)):
        check_snap(snap.SnapConfig(players=players), seed, policy, cap=5_000)


@pytest.mark.rules("SNAP-END-4")
def test_snap_endless_deals_match_the_model():
    """Seeds known to the engine as endless (two players, flipper-first) agree with the model."""
    config = snap.SnapConfig(players=2)
    found = engine_snap.batch(config, "flipper-first", 0, 400)
    endless = [k for k in range(len(found)) if found.run(config, k).status == "endless"][:2]
    assert endless, "no endless deal among the first 400 seeds"
    for k in endless:
        run = check_snap(config, k, "flipper-first", cap=engine_snap.SAFETY_CAP)
        assert run.cycle is not None and run.cycle.length > 0


small_decks = st.lists(st.sampled_from(FULL_DECK), min_size=1, max_size=20, unique=True)


@pytest.mark.rules("SNAP-INDEX-1", "SNAP-TURN-2", "SNAP-END-3", "SNAP-MATCH-1", "SNAP-MATCH-2", "SNAP-CALL-2")
@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 12), index_card=st.booleans(), winner_turn=st.booleans(),
       deck=st.one_of(st.just(list(FULL_DECK)), small_decks), seed=st.integers(0, 2**64 - 1),
       policy=st.sampled_from(SNAP_POLICIES))
def test_snap_generated_tables_match_the_model(players, index_card, winner_turn, deck, seed, policy):
    next_turn = snap.NextTurn.WINNER if winner_turn else snap.NextTurn.CLOCKWISE
    config = snap.SnapConfig(players=players, index_card=index_card, next_turn=next_turn, deck=tuple(deck))
    check_snap(config, seed, policy, cap=400)


@pytest.mark.rules("SNAP-END-4")
@pytest.mark.parametrize("policy", ["flipper-first", "ties:0.3"])
def test_snap_batch_equals_single_deals(policy):
    config = snap.SnapConfig(players=3)
    result = engine_snap.batch(config, policy, 1000, 50, max_flips=5000)
    for k in range(len(result)):
        assert result.run(config, k) == engine_snap.decide(config, 1000 + k, policy, 5000)


@pytest.mark.rules("SNAP-END-1", "SNAP-END-3", "SNAP-END-4")
@pytest.mark.parametrize("players,cards", [(2, "2c 2d 3c 3d 4c"), (3, "2c 2d 2h 3c 3d")])
@pytest.mark.parametrize("policy", ["flipper-first", "owner-first"])
def test_snap_enumeration_counts_every_deal_as_the_model(players, cards, policy):
    from cardcanon.model.cards import Card

    config = snap.SnapConfig(players=players, deck=tuple(Card.parse(c) for c in cards.split()))
    runs = [engine_snap.reference_play_deal(config, deal, policy) for deal in snap.all_deals(config)]
    expected = Counter(r.termination.value if r.termination else r.status for r in runs)
    for deal, run in zip(snap.all_deals(config), runs):
        assert engine_snap.decide_deal(config, deal, policy) == run
    got = engine_snap.enumerate_deals(config, policy)
    assert got["deals"] == sum(expected.values())
    assert got["endless"] == expected["endless"] and got["capped"] == 0
    assert {k: v for k, v in got["ended"].items() if v} == {k: v for k, v in expected.items() if k != "endless"}
    assert sum(got["lengths"].values()) == sum(got["ended"].values())


@pytest.mark.rules("SNAP-END-4")
def test_snap_owner_first_cycles_match_the_model():
    """Owner-first, two players: seeds 10 and 11 repeat a position, seed 12 ends (no flip cap)."""
    config = snap.SnapConfig(players=2)
    runs = [check_snap(config, seed, "owner-first", cap=engine_snap.SAFETY_CAP) for seed in (10, 11, 12)]
    assert [r.status for r in runs] == ["endless", "endless", "ended"]


@pytest.mark.slow
@pytest.mark.rules("SNAP-INDEX-1", "SNAP-TURN-2", "SNAP-END-4")
@pytest.mark.parametrize("players", [2, 3, 4, 6, 12])
def test_snap_rule_variants_match_the_model_thorough(players):
    for policy in SNAP_POLICIES:
        for variant in SNAP_VARIANTS:
            for seed in range(2, 2 + cases(10, 3)):
                check_snap(snap.SnapConfig(players=players, **variant), seed, policy, cap=5_000)


@pytest.mark.rules("SNAP-END-4")
def test_snap_cap_reports_capped_as_the_model():
    config = snap.SnapConfig(players=2)
    for seed in range(20):
        for cap in (1, 7, 40):
            assert engine_snap.decide(config, seed, "owner-first", cap).status == \
                play_game(config, seed, "owner-first", max_flips=cap).status


# ---- Hearts ------------------------------------------------------------------------------
def replay_hearts(config: hearts.HeartsConfig, moves, run: engine_hearts.MatchRun) -> None:
    state = hearts.new_game(config)
    for move in moves:
        if not state.is_chance:
            assert move in hearts.legal_moves(state)
        state = hearts.apply(state, move)
    assert state.phase is hearts.Phase.OVER
    assert state.outcome == hearts.Outcome(run.termination, run.winner, run.scores)
    assert state.hand_scores == run.hand_scores


def check_hearts(seed: int, kinds, config: hearts.HeartsConfig) -> engine_hearts.MatchRun:
    run, moves = engine_hearts.match(seed, kinds, config, with_moves=True)
    final, reference = engine_hearts.reference_match(seed, kinds, config)
    assert moves == reference
    assert engine_hearts.match(seed, kinds, config) == run
    replay_hearts(config, moves, run)
    return run


KINDS = [("random", "random"), ("greedy", "greedy"), ("random", "greedy")]


@pytest.mark.rules("HEARTS-DEAL-1", "HEARTS-DEAL-2", "HEARTS-LEAD-1", "HEARTS-LEAD-2", "HEARTS-FOLLOW-1",
                   "HEARTS-TRICK-1", "HEARTS-TRICK-2", "HEARTS-BREAK-1", "HEARTS-SCORE-1", "HEARTS-MOON-1",
                   "HEARTS-MATCH-1", "HEARTS-MATCH-2")
@pytest.mark.parametrize("kinds", [KINDS[-1], *(pytest.param(k, marks=pytest.mark.slow) for k in KINDS[:-1])])
def test_hearts_seeded_matches_match_the_model(kinds):
    runs = [check_hearts(seed, kinds, hearts.HeartsConfig()) for seed in range(6)]
    assert all(r.hands >= 4 for r in runs)  # 100 points need at least four hands of at most 26


@pytest.mark.slow
@pytest.mark.rules("HEARTS-MATCH-1", "HEARTS-MATCH-2", "HEARTS-MATCH-3")
@pytest.mark.parametrize("kinds", KINDS)
def test_hearts_many_seeded_matches_match_the_model(kinds):
    for seed in range(1000, 1000 + cases(60, 20)):
        check_hearts(seed, kinds, hearts.HeartsConfig())


@pytest.mark.rules("HEARTS-LEAD-3", "HEARTS-BREAK-2", "HEARTS-FIRST-1", "HEARTS-MOON-2", "HEARTS-MATCH-3")
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**63), kinds=st.sampled_from(KINDS),
       first_lead=st.sampled_from(hearts.FirstLead), break_on=st.sampled_from(hearts.BreakOn),
       first_trick=st.sampled_from(hearts.FirstTrickPoints), moon=st.sampled_from(hearts.MoonScore),
       target=st.integers(1, 150))
def test_hearts_generated_matches_match_the_model(seed, kinds, first_lead, break_on, first_trick, moon, target):
    check_hearts(seed, kinds, hearts.HeartsConfig(first_lead=first_lead, break_on=break_on, first_trick_points=first_trick, moon_score=moon,
                                                  target=target))


@pytest.mark.rules("HEARTS-MOON-1", "HEARTS-MATCH-2")
def test_hearts_batch_tallies_the_single_matches():
    summary = engine_hearts.batch(500, 60, ("greedy", "random"))
    runs = [engine_hearts.match(seed, ("greedy", "random")) for seed in range(500, 560)]
    assert summary.hands == Counter(r.hands for r in runs)
    assert summary.terminations == Counter(r.termination.value for r in runs)
    assert summary.pairs == Counter(p for r in runs for p in r.hand_scores)
    assert summary.moons == sum(sum(r.moons) for r in runs)
    assert summary.total_hands == sum(summary.pairs.values())


# ---- fallback and build ------------------------------------------------------------------
def test_without_the_kernel_the_engine_raises_unless_the_model_is_asked_for(monkeypatch):
    config = snap.SnapConfig(players=2)
    fast = [engine_snap.decide(config, seed, "flipper-first") for seed in range(3)]
    fast_hearts = engine_hearts.match(3, ("greedy", "random"))

    def unavailable():
        raise build.EngineUnavailable("disabled for this test")

    fast_batch = engine_snap.batch(config, "owner-first", 10, 4)
    small = snap.SnapConfig(players=2, deck=tuple(FULL_DECK[:3]) + tuple(FULL_DECK[13:15]))
    fast_enumeration = engine_snap.enumerate_deals(small, "owner-first")
    fast_hearts_batch = engine_hearts.batch(7, 3, ("random", "greedy"))
    assert all(str(r.played_by) == "compiled kernel" for r in [*fast, fast_hearts, fast_batch, fast_hearts_batch])

    monkeypatch.setattr(engine_snap, "load", unavailable)
    monkeypatch.setattr(engine_hearts, "load", unavailable)
    for call in (lambda: engine_snap.decide(config, 0), lambda: engine_snap.batch(config, "owner-first", 10, 4),
                 lambda: engine_snap.enumerate_deals(small), lambda: engine_hearts.match(3),
                 lambda: engine_hearts.batch(7, 3)):
        with pytest.raises(build.EngineUnavailable, match="disabled for this test"):
            call()
    slow = [engine_snap.decide(config, seed, "flipper-first", fallback=True) for seed in range(3)]
    assert slow == fast and all(str(r.played_by) == "reference model (disabled for this test)" for r in slow)
    assert engine_hearts.match(3, ("greedy", "random"), fallback=True) == fast_hearts
    slow_batch = engine_snap.batch(config, "owner-first", 10, 4, fallback=True)
    assert [r[:7] for r in map(slow_batch.row, range(4))] == [r[:7] for r in map(fast_batch.row, range(4))]
    assert not slow_batch.played_by.kernel and not slow_batch.run(config, 0).played_by.kernel
    slow_enumeration = engine_snap.enumerate_deals(small, "owner-first", fallback=True)
    assert not slow_enumeration.pop("played_by").kernel and fast_enumeration.pop("played_by").kernel
    assert slow_enumeration == fast_enumeration
    slow_hearts_batch = engine_hearts.batch(7, 3, ("random", "greedy"), fallback=True)
    assert slow_hearts_batch == fast_hearts_batch and "disabled for this test" in str(slow_hearts_batch.played_by)


def test_build_compiles_into_the_cache_and_explains_a_missing_compiler(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDCANON_CACHE", str(tmp_path))
    path = build.build()
    assert path.parent == tmp_path / "engine" and path.exists()
    assert build.build() == path  # cached
    monkeypatch.setattr(build, "compiler", lambda: None)
    with pytest.raises(build.EngineUnavailable, match="no C compiler"):
        build.build()



# ---- the engine and the rulebook ------------------------------------------------------------
def test_the_kernel_is_given_the_rulebooks_numbers():
    """The kernel plays the numbers the model reads from the rulebook, passed with every call."""
    import cardcanon.spec as spec

    book = spec.load("hearts")
    numbers = engine_hearts.rulebook_numbers()
    for name, rule in engine_hearts.RULES_OF_NUMBERS.items():
        assert book.value(rule, name) == numbers[name], f"{rule}: {name}"
    cfg = engine_hearts._cfg(hearts.HeartsConfig(), ("random", "random"))
    assert (cfg.queen_points, cfg.heart_points, cfg.hand_size) == (numbers["queen_points"], numbers["heart_points"],
                                                                   numbers["hand_size"])
    assert engine_hearts.kernel_mismatch(hearts.HeartsConfig()) is None


HEARTS_VARIANTS = [hearts.HeartsConfig(**{name: option}) for name, kind in hearts_types.VARIATIONS.items()
                   for option in kind if option not in hearts_types.NOT_MODELLED]


@pytest.mark.parametrize("config", HEARTS_VARIANTS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.options().items()))
def test_the_kernel_plays_every_variant_the_model_plays(config):
    assert engine_hearts.kernel_mismatch(config) is None


@pytest.mark.rules("HEARTS-QUEEN-2", "HEARTS-BREAK-2", "HEARTS-BREAK-1")
def test_the_kernel_plays_queen_breaks_as_the_model():
    config = hearts.HeartsConfig(queen_breaks=hearts.QueenBreaks.YES)
    assert engine_hearts.kernel_mismatch(config) is None
    for seed in range(3):
        for kinds in KINDS:
            check_hearts(seed, kinds, config)
    # the variant is seen: a queen led or discarded before any heart changes the plays that follow
    differ = [seed for seed in range(40) if engine_hearts.match(seed, ("random", "random"), config)
              != engine_hearts.match(seed, ("random", "random"), hearts.HeartsConfig())]
    assert differ


def _patch_numbers(monkeypatch, **numbers):
    """A consistent edit of the rulebook's numbers, as the model modules read them."""
    for name, value in numbers.items():
        constant = name.upper()
        monkeypatch.setattr(hearts_types, constant, value)
        if hasattr(hearts, constant):
            monkeypatch.setattr(hearts, constant, value)


@pytest.mark.rules("HEARTS-QUEEN-1", "HEARTS-SCORE-1", "HEARTS-MOON-1")
@pytest.mark.parametrize("numbers", [{"queen_points": 12}, *(
    pytest.param(n, marks=pytest.mark.slow) for n in ({"heart_points": 2, "moon_other_points": 26},
                                                      {"moon_shooter_points": 3, "moon_other_points": 15}))])
def test_a_rulebook_edit_of_the_points_reaches_the_kernel(monkeypatch, numbers):
    before = [engine_hearts.match(seed, ("random", "greedy")) for seed in range(8)]
    _patch_numbers(monkeypatch, **numbers)
    config = hearts.HeartsConfig(target=60)
    assert engine_hearts.kernel_mismatch(config) is None
    for seed in range(3):
        check_hearts(seed, ("random", "greedy"), config)
        check_hearts(seed, ("greedy", "greedy"), hearts.HeartsConfig(queen_breaks=hearts.QueenBreaks.YES))
    def unavailable():
        raise build.EngineUnavailable("disabled for this test")

    runs = [engine_hearts.match(seed, ("greedy", "greedy")) for seed in range(3)]
    with monkeypatch.context() as reference:
        reference.setattr(engine_hearts, "load", unavailable)
        reference_runs = [engine_hearts.match(seed, ("greedy", "greedy"), fallback=True) for seed in range(3)]
        assert reference_runs == runs  # moons too
    summary = engine_hearts.batch(0, 8, ("random", "greedy"))
    assert summary.pairs == Counter(p for seed in range(8) for p in engine_hearts.match(seed, ("random", "greedy"))
                                    .hand_scores)
    assert [engine_hearts.match(seed, ("random", "greedy")) for seed in range(8)] != before


@pytest.mark.rules("HEARTS-DEAL-2", "HEARTS-TRICK-3", "HEARTS-LEAD-2")
def test_a_rulebook_edit_of_the_hand_size_reaches_the_kernel(monkeypatch):
    """Hands of 12 cards leave 4 dead cards (2 x 12 + 4 = 28) and play 12 tricks."""
    _patch_numbers(monkeypatch, hand_size=12, tricks_per_hand=12, dead_cards=4)
    monkeypatch.setattr(hearts, "FIRST_LEAD_CLUBS", tuple(c for c in hearts.DECK if c.suit is Suit.CLUBS)[:5])
    assert engine_hearts.kernel_mismatch(hearts.HeartsConfig()) is None
    for seed in range(3):
        run = check_hearts(seed, ("random", "greedy"), hearts.HeartsConfig(target=50))
        assert all(a + b <= 26 for a, b in run.hand_scores)


@pytest.mark.parametrize("numbers, says", [({"deck_size": 32}, "deck_size"), ({"queen_points": -13}, "queen_points"),
                                           ({"hand_size": 14, "tricks_per_hand": 14}, "hand_size"),
                                           ({"hand_size": 10, "tricks_per_hand": 10, "dead_cards": 8}, "hand_size")])
def test_numbers_the_kernel_cannot_play_are_reported(monkeypatch, numbers, says):
    _patch_numbers(monkeypatch, **numbers)
    reason = engine_hearts.kernel_mismatch(hearts.HeartsConfig())
    assert reason and says in reason
    with pytest.raises(build.EngineUnavailable, match=says):
        engine_hearts._kernel(hearts.HeartsConfig())


def test_the_kernel_refuses_numbers_outside_its_limits():
    from cardcanon.engine import abi

    lib = build.load()
    for field, value in (("queen_points", -1), ("hand_size", 14), ("hand_size", 10), ("tricks_per_hand", 12),
                         ("tally_dim", 5)):
        cfg = engine_hearts._cfg(hearts.HeartsConfig(), ("random", "random"))
        setattr(cfg, field, value)
        code = lib.hearts_bench_checked(ctypes.byref(cfg), ctypes.sizeof(cfg), 0, 1, None)
        with pytest.raises(abi.EngineError, match="cannot play"):
            abi.check(code, field)


SNAP_MODEL_VARIANTS = [snap.SnapConfig(players=p, **{name: option})
                       for p in (2, 12) for name, kind in snap.VARIATIONS.items()
                       for option in ((False, True) if kind is bool else kind) if option not in snap.NOT_MODELLED]


@pytest.mark.parametrize("config", SNAP_MODEL_VARIANTS, ids=repr)
def test_the_kernel_plays_every_snap_variant_the_model_plays(config):
    assert engine_snap.kernel_mismatch(config) is None
    check_snap(config, 1, "owner-first", cap=300)


def test_a_snap_variant_the_kernel_lacks_is_reported(monkeypatch):
    """A variation option the model would play but the kernel does not know is reported, not played."""
    monkeypatch.setitem(engine_snap.KERNEL_PLAYS, "next_turn", frozenset({snap.NextTurn.CLOCKWISE}))
    config = snap.SnapConfig(next_turn=snap.NextTurn.WINNER)
    assert "next_turn = winner" in (engine_snap.kernel_mismatch(config) or "")
    with pytest.raises(build.EngineUnavailable, match="next_turn"):
        engine_snap._kernel(config)


@pytest.mark.parametrize("game", ["hearts", "snap"])
def test_every_option_the_rulebook_plans_is_played_by_the_kernel_or_reported(game):
    """Options the model does not play yet cannot be built as configs; forced into one, the kernel
    reports them rather than playing something else."""
    import copy

    module, engine = (hearts_types, engine_hearts) if game == "hearts" else (snap, engine_snap)
    base = hearts.HeartsConfig() if game == "hearts" else snap.SnapConfig()
    for name, kind in module.VARIATIONS.items():
        for option in (False, True) if kind is bool else kind:
            config = copy.copy(base)
            object.__setattr__(config, name, option)
            reason = engine.kernel_mismatch(config)
            if option in module.NOT_MODELLED:
                assert reason and name in reason, (name, option)
            else:
                assert reason is None, (name, option, reason)


@pytest.mark.rules("HEARTS-QUEEN-2", "HEARTS-LEAD-3", "HEARTS-BREAK-2", "HEARTS-FIRST-1", "HEARTS-MOON-2")
def test_hearts_every_option_at_once_matches_the_model():
    config = hearts.HeartsConfig(first_lead=hearts.FirstLead.FREE, break_on=hearts.BreakOn.VOID,
                                 first_trick_points=hearts.FirstTrickPoints.NO_HEARTS,
                                 queen_breaks=hearts.QueenBreaks.YES, moon_score=hearts.MoonScore.POINTS_IN_PLAY)
    for seed in range(2):
        for kinds in KINDS:
            check_hearts(seed, kinds, config)
