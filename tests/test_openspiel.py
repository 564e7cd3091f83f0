"""cardcanon's games in OpenSpiel: OpenSpiel's own random simulation test on every variation, random
OpenSpiel games replayed move by move through the reference models, observations equal to the
PettingZoo environments', and parameters refused in one line."""

from __future__ import annotations

import math
import random
import subprocess
import sys

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install 'cardcanon[openspiel]')")
pytest.importorskip("pettingzoo", reason="the observers are the PettingZoo environments' (the rl extra)")

import cardcanon.openspiel  # noqa: E402,F401
from cardcanon.envs import hearts_v0, options, snap_v0  # noqa: E402
from cardcanon.envs.snap_race import call_event  # noqa: E402
from cardcanon.envs.snap_v0 import KIND_OF_ACTION, SnapAction  # noqa: E402
from cardcanon.model import hearts, snap  # noqa: E402
from cardcanon.model.seats import Seat  # noqa: E402
from cardcanon.model.shuffle import SplitMix64  # noqa: E402
from cardcanon.openspiel.snap import ACTION_OF_KIND, small_deck  # noqa: E402

pytestmark = pytest.mark.usefixtures("environments_play_the_model_without_a_kernel")


def variants(game: str, **base: object) -> list[str]:
    """The default table and each playable option of every variation point, as OpenSpiel game strings."""
    name = f"python_cardcanon_{game}"
    tables = [dict(base)]
    for parameter, rule in options.variation_rules(game).items():
        for option in rule.variation.options:
            if option.value == rule.variation.default:
                continue
            try:
                pyspiel.load_game(name, {**base, parameter: option.value})
            except Exception as error:  # an option the model does not play: refused naming its rule
                assert rule.id in str(error)
                continue
            tables.append({**base, parameter: option.value})
    return [f"{name}({','.join(f'{k}={v}' for k, v in table.items())})" for table in tables]


HEARTS = variants("hearts")
SNAP_SMALL = variants("snap", ranks=3, suits=2)


def test_the_done_when_tables_pass_random_sim_test():
    for name, sims in (("python_cardcanon_hearts", 20), ("python_cardcanon_snap(ranks=4,suits=2)", 20),
                       ("python_cardcanon_snap", 2), ("python_cardcanon_snap(players=12)", 1)):
        pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=sims, serialize=False, verbose=False)


@pytest.mark.slow  # CI: two sims (one in the quick suite above); a thorough run: twenty
def test_twelve_players_pass_twenty_random_sims():
    from conftest import cases

    pyspiel.random_sim_test(pyspiel.load_game("python_cardcanon_snap(players=12)"), num_sims=cases(20, 2),
                            serialize=False, verbose=False)


@pytest.mark.parametrize("name", HEARTS + [h.replace(")", ",scope=match,target=40)") if "(" in h else
                                           "python_cardcanon_hearts(scope=match,target=40)" for h in HEARTS[:2]])
def test_every_hearts_variation_passes_random_sim_test(name):
    name = name.replace("(,", "(")
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=3, serialize=False, verbose=False)


@pytest.mark.parametrize("name", SNAP_SMALL + ["python_cardcanon_snap(players=4,ranks=4,suits=3,next_turn=winner,"
                                               "calling_policy=owner-first)",
                                               "python_cardcanon_snap(players=3,ranks=4,suits=2,calling_policy=race)",
                                               "python_cardcanon_snap(ranks=4,suits=2,calls=policy,max_moves=200)"])
def test_every_snap_variation_passes_random_sim_test(name):
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=5, serialize=False, verbose=False)
    pyspiel.random_sim_test(pyspiel.convert_to_turn_based(pyspiel.load_game(name)), num_sims=2, serialize=False,
                            verbose=False)


def test_a_match_capped_by_max_hands_is_a_truncation_not_a_result():
    game = pyspiel.load_game("python_cardcanon_hearts(scope=match,max_hands=1)")
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(rng.choice(actions))
    assert state.truncated() and state.returns() == [0.0, 0.0] and state.model.hand_number == 1
    assert game.max_game_length() == 26  # the plays of one hand


@pytest.mark.parametrize("name, problem", [
    ("python_cardcanon_snap(players=13)", "players must be a whole number from 2 to 12"),
    ("python_cardcanon_snap(ranks=0)", "ranks must be a whole number from 1 to 13"),
    ("python_cardcanon_snap(calling_policy=ties:0.5)", "calling_policy must be one of"),
    ("python_cardcanon_snap(match=rank-and-colour)", "SNAP-MATCH-1"),
    ("python_cardcanon_hearts(break_on=never)", "HEARTS-BREAK-2"),
    ("python_cardcanon_hearts(dealer=loser-deals)", "HEARTS-DEAL-1"),
    ("python_cardcanon_hearts(scope=set)", "scope must be one of hand, match"),
])
def test_wrong_parameters_are_refused_in_one_line(name, problem):
    with pytest.raises(Exception) as error:
        pyspiel.load_game(name)
    assert problem in str(error.value) and "\n" not in str(error.value).strip()


# ---- random OpenSpiel games, replayed through the reference model move by move -------------------
def random_action(state, rng):
    if state.is_chance_node():
        outcomes, weights = zip(*state.chance_outcomes())
        assert abs(sum(weights) - 1) < 1e-9
        return rng.choices(outcomes, weights)[0]
    return rng.choice(state.legal_actions())


@pytest.mark.parametrize("name", [HEARTS[0], HEARTS[-1], "python_cardcanon_hearts(scope=match,target=30)"])
def test_random_hearts_games_replay_through_the_model(name):
    game = pyspiel.load_game(name)
    for seed in range(15):
        rng, state = random.Random(seed), game.new_initial_state()
        model, order, dealer = hearts.new_game(state.model.config), [], None
        while not state.is_terminal():
            if state.is_chance_node():
                action = random_action(state, rng)
                if model.phase is hearts.Phase.CHOOSE_DEALER:
                    model = hearts.apply(model, hearts.ChooseDealer(Seat(action)))
                else:
                    order.append(hearts.DECK[action])
                    if len(order) == len(hearts.DECK):
                        model, order = hearts.apply(model, hearts.Deal(tuple(order))), []
            else:
                legal = sorted(hearts.DECK.index(m.card) for m in hearts.legal_moves(model))
                assert state.legal_actions() == legal and state.current_player() == model.to_move.index
                action = rng.choice(legal)
                model = hearts.apply(model, hearts.Play(model.to_move, hearts.DECK[action]))
            state.apply_action(action)
        if state.scope == "hand":
            assert state.returns() == [-float(p) for p in model.hand_scores[-1]]
        else:
            outcome = hearts.outcome(model)
            assert state.returns() == [1.0 if outcome.winner.index == s else -1.0 for s in (0, 1)]


@pytest.mark.parametrize("name", ["python_cardcanon_snap(ranks=4,suits=3,players=3)",
                                  "python_cardcanon_snap(players=4,index_card=on,next_turn=winner)",
                                  "python_cardcanon_snap(ranks=2,suits=2)"])
def test_random_snap_games_replay_through_the_model(name):
    game = pyspiel.load_game(name)
    for seed in range(10):
        rng, state = random.Random(seed), game.new_initial_state()
        config = state.config
        model, order, dealer, gone = snap.new_game(config), [], None, {}
        while not state.is_terminal():
            if state.is_chance_node():
                action = random_action(state, rng)
                if dealer is None:
                    dealer = Seat(action)
                else:
                    order.append(config.deck[action])
                    if len(order) == len(config.deck):
                        model = snap.apply(model, snap.Deal(dealer, tuple(order)))
                state.apply_action(action)
            elif state.is_simultaneous_node():
                assert model.phase is snap.Phase.CALL
                actions = []
                for seat in range(config.players):
                    legal = state.legal_actions(seat)
                    if model.holds(Seat(seat)):
                        calls = {m.kind for m in snap.legal_moves(model) if isinstance(m, snap.Call)
                                 and m.caller.index == seat}
                        assert legal == sorted([SnapAction.PASS] + [ACTION_OF_KIND[k] for k in calls])
                    else:
                        assert legal == [SnapAction.PASS]
                    actions.append(rng.choice(legal))
                calls = {Seat(s): KIND_OF_ACTION.get(SnapAction(a)) for s, a in enumerate(actions)
                         if model.holds(Seat(s))}
                event = call_event(model, calls, state.policy, SplitMix64(0))
                assert event in snap.legal_moves(model)
                before = model
                model = snap.apply(model, event)
                outcome = snap.outcome(model)
                for s in range(config.players):  # SNAP-OUT-1, SNAP-END-3
                    if before.holds(Seat(s)) and not model.holds(Seat(s)):
                        gone[s] = 0.0 if outcome and outcome.termination is snap.Termination.NO_CARDS else -1.0
                state.apply_actions(actions)
            else:
                assert state.legal_actions() == [SnapAction.FLIP] and snap.Flip(model.turn) in snap.legal_moves(model)
                model = snap.apply(model, snap.Flip(model.turn))
                state.apply_action(SnapAction.FLIP)
        outcome = snap.outcome(model)
        assert (outcome is None) == state.truncated()
        expected = [gone.get(s, 0.0) for s in range(config.players)]
        if outcome is not None and outcome.winner is not None:
            expected[outcome.winner.index] = 1.0
        assert state.returns() == expected


# ---- observations: the PettingZoo environments' ---------------------------------------------------
def test_hearts_observations_are_the_environments():
    env = hearts_v0.raw_env(engine="model")
    env.reset(seed=5)
    game = pyspiel.load_game("python_cardcanon_hearts(scope=match)")
    state = game.new_initial_state()
    applied = 0
    rng = random.Random(5)
    for _ in range(120):
        for move in env.moves[applied:]:  # the env's chance moves and plays, as OpenSpiel actions
            if isinstance(move, hearts.ChooseDealer):
                state.apply_action(move.dealer.index)
            elif isinstance(move, hearts.Deal):
                for card in move.order:
                    state.apply_action(hearts.DECK.index(card))
            elif not isinstance(move, hearts.Play) or state.current_player() != move.player.index:
                raise AssertionError(move)
            else:
                state.apply_action(hearts.DECK.index(move.card))
        applied = len(env.moves)
        for seat in (0, 1):
            assert state.observation_tensor(seat) == pytest.approx(list(env.observe(f"player_{seat}")["observation"]))
        agent = env.agent_selection
        env.step(rng.choice(list(env.action_mask(agent).nonzero()[0])))
        if env.terminations[agent]:
            break


def test_snap_observations_are_the_environments():
    env = snap_v0.raw_env(players=3, engine="model")
    env.reset(seed=2)
    state = pyspiel.load_game("python_cardcanon_snap(players=3)").new_initial_state()
    deal = env.moves[0]
    state.apply_action(deal.dealer.index)
    for card in deal.order:
        state.apply_action(card.index)
    applied, rng = 1, random.Random(2)
    for _ in range(200):
        for move in env.moves[applied:]:
            if isinstance(move, snap.Flip):
                state.apply_action(SnapAction.FLIP)
            else:
                actions = [SnapAction.PASS] * 3
                if isinstance(move, snap.Call):
                    actions[move.caller.index] = ACTION_OF_KIND[move.kind]
                state.apply_actions(actions)
                assert state.model == env.state
        applied = len(env.moves)
        for seat in range(3):
            assert state.observation_tensor(seat) == pytest.approx(list(env.observe(f"player_{seat}")["observation"]))
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        env.step(rng.choice(list(env.action_mask(agent).nonzero()[0])))


def test_a_small_deck_is_the_lowest_ranks_of_the_first_suits():
    assert [str(c) for c in small_deck(3, 2)] == ["2c", "3c", "4c", "2d", "3d", "4d"]
    assert small_deck(13, 4) == snap.SnapConfig().deck


# ---- the example an OpenSpiel user knows ------------------------------------------------------------
def test_the_mccfr_example_prints_what_the_docs_show(capsys):
    """``examples/openspiel_mccfr.py`` with its defaults prints the block ``docs/environments.rst`` shows."""
    import importlib.util
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location("openspiel_mccfr", root / "examples" / "openspiel_mccfr.py")
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    assert example.main([]) == 0
    printed = capsys.readouterr().out.strip().splitlines()
    docs = (root / "docs" / "environments.rst").read_text(encoding="utf-8")
    assert len(printed) == 5 and all(f"   {line}\n" in docs for line in printed), printed
    assert example.main(["--iterations", "0"]) == 2


# ---- the conformance adapter over the OpenSpiel state -------------------------------------------------
ADAPTER = [sys.executable, "-m", "cardcanon.openspiel.conform"]


def conform(*only: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cardcanon", "conform", "-q", *only, "--", *ADAPTER],
                          capture_output=True, text=True, timeout=1200)


@pytest.mark.parametrize("only", [("--only", "hearts/default", "--only", "snap/players-3"),
                                  pytest.param(("--only", "hearts", "--only", "snap"), marks=pytest.mark.slow)],
                         ids=["quick", "every-vector"])
def test_the_openspiel_states_pass_the_conformance_vectors(only):
    result = conform(*only)
    assert result.returncode == 0 and " 0 failed" in result.stdout, result.stdout[-3000:] + result.stderr


def test_the_openspiel_adapter_fails_when_its_legal_moves_drop_the_ties(tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("import sys\nfrom cardcanon.openspiel import conform\nreal = conform.legal_moves\n"
                      "conform.legal_moves = lambda state, game: [m for m in real(state, game)"
                      " if type(m).__name__ != 'Tie']\nsys.exit(conform.main())\n", encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "cardcanon", "conform", "-q", "--only", "snap/players-3", "--",
                             sys.executable, str(broken)], capture_output=True, text=True, timeout=600)
    assert result.returncode == 1 and "SNAP-TIE-1" in result.stdout, result.stdout[-2000:]


# ---- get_all_states against the exact enumeration -------------------------------------------------
@pytest.mark.needs_exact
@pytest.mark.parametrize("players, ranks, suits, policy", [(2, 2, 2, "flipper-first"), (3, 2, 2, "flipper-first"),
                                                          pytest.param(2, 3, 2, "owner-first", marks=pytest.mark.slow)])
def test_every_state_under_a_fixed_calling_policy_agrees_with_the_exact_enumeration(players, ranks, suits, policy):
    """With ``calls=policy`` a small deck's game tree is its deals played by the policy: the games that
    end, the endless ones (stopped by ``max_moves``) and the flips of the ended ones, counted from
    OpenSpiel's ``get_all_states``, are the exact enumeration's counts times its weight."""
    from open_spiel.python.algorithms.get_all_states import get_all_states

    from cardcanon.engine import exact

    cap = 60
    tally = exact.decide_range(players, ranks, suits, 0, exact.count(ranks, suits), (policy,))[policy]
    assert tally["capped"] == 0 and tally["extremes"].get("longest_ended", [0])[0] < cap
    game = pyspiel.load_game(f"python_cardcanon_snap(players={players},ranks={ranks},suits={suits},calls=policy,"
                             f"calling_policy={policy},max_moves={cap})")
    terminals = [s for s in get_all_states(game, depth_limit=-1, include_terminals=True,
                                           include_chance_states=False).values() if s.is_terminal()]
    ended = [s for s in terminals if not s.truncated()]
    weight = exact.weight(players, ranks, suits)
    assert len(ended) == tally["ended"] * weight and len(terminals) - len(ended) == tally["endless"] * weight
    assert sum(s.moves for s in ended) == tally["ended_flips"] * weight
    assert len(terminals) == players * math.factorial(ranks * suits)  # every deal, once
