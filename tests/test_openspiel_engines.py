"""The OpenSpiel games on the compiled kernel against the same games on the reference model: random
OpenSpiel trajectories agree move by move (who moves, legal actions, returns, every string and
tensor of every player, the position read back from the kernel); the kernel-backed games pass
``pyspiel.random_sim_test`` and the conformance vectors; without the kernel, ``engine="kernel"``
fails in one line and the model plays when asked."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

import cardcanon.openspiel  # noqa: E402,F401
from cardcanon.engine import build  # noqa: E402
from cardcanon.envs import options  # noqa: E402
from conftest import kernel_missing  # noqa: E402

KERNEL = pytest.mark.needs_kernel


def kernel_variants(game: str, *tables: str) -> list[str]:
    """Each table, then each option of every variation point of the rulebook (at the first table)
    that the kernel plays, as OpenSpiel game strings."""
    names = [f"python_cardcanon_{game}({table})" for table in tables]
    for parameter, rule in options.variation_rules(game).items():
        for option in rule.variation.options:
            if option.value == rule.variation.default:
                continue
            name = f"python_cardcanon_{game}({tables[0]},{parameter}={option.value})"
            try:
                kernel_plays = pyspiel.load_game(name).engine == "kernel"
            except Exception as error:  # an option the model does not play: refused naming its rule
                assert rule.id in str(error)
                continue
            if kernel_plays or kernel_missing():
                names.append(name)
    return names


HEARTS = kernel_variants("hearts", "scope=hand", "scope=match,target=30")
SNAP = kernel_variants("snap", "players=3,calling_policy=race", "players=2", "players=4,calling_policy=owner-first",
                       "players=2,ranks=3,suits=2,calls=policy", "players=5,ranks=4,suits=2,calling_policy=race",
                       "players=12,max_moves=400")


def on(name: str, engine: str) -> Any:
    """The game ``name`` (an OpenSpiel game string) with ``engine=engine`` added to its parameters."""
    return pyspiel.load_game(f"{name[:-1]},engine={engine})" if name.endswith(")") else f"{name}(engine={engine})")


def both(name: str) -> tuple[Any, Any]:
    kernel, model = on(name, "kernel"), on(name, "model")
    assert (kernel.engine, kernel.engine_note, model.engine) == ("kernel", "", "model")
    return kernel, model


def seen(game: Any, state: Any) -> tuple[Any, ...]:
    """Everything a user reads of ``state``: the player to move, his legal actions, returns, the
    state string, and every player's observation and information state (strings and tensors)."""
    players = range(game.num_players())
    views: list[Any] = [state.current_player(), state.is_terminal(), state.returns(), str(state), state.model]
    if state.is_terminal():
        return tuple(views)
    if state.is_chance_node():
        views.append(state.chance_outcomes())
    else:
        views.append([state.legal_actions(p) for p in players])
    for p in players:
        views += [state.observation_string(p), state.observation_tensor(p), state.information_state_string(p),
                  state.information_state_tensor(p)]
    return tuple(views)


def lockstep(name: str, seed: int, moves: int) -> int:
    """One random OpenSpiel game on each engine, the same actions on both, up to ``moves`` actions;
    the players' moves made."""
    games = both(name)
    kernel, model = (game.new_initial_state() for game in games)
    rng, made = random.Random(seed), 0
    for played in range(moves):
        assert seen(games[0], kernel) == seen(games[1], model), f"{name}, seed {seed}, move {played}"
        if kernel.is_terminal():
            break
        made += not kernel.is_chance_node()
        if kernel.is_chance_node():
            outcomes, weights = zip(*kernel.chance_outcomes())
            action = rng.choices(outcomes, weights)[0]
        elif kernel.is_simultaneous_node():
            action = [rng.choice(kernel.legal_actions(p)) for p in range(games[0].num_players())]
        else:
            action = rng.choice(kernel.legal_actions())
        for state in (kernel, model):
            state.apply_actions(action) if isinstance(action, list) else state.apply_action(action)
        if played == moves // 2:  # a clone steps on as the state does
            kernel = kernel.clone()
    return made


@KERNEL
@pytest.mark.parametrize("name", HEARTS + SNAP)
def test_random_games_on_the_kernel_are_the_models_move_by_move(name):
    assert lockstep(name, 1, 400) > 0


@KERNEL
@pytest.mark.slow
@pytest.mark.parametrize("name", HEARTS + SNAP)
def test_many_random_games_on_the_kernel_are_the_models(name):
    for seed in range(2, 8):
        lockstep(name, seed, 4000)


@KERNEL
def test_the_kernel_backed_games_pass_random_sim_test():
    for name, sims in (("python_cardcanon_hearts", 20), ("python_cardcanon_hearts(scope=match,target=40)", 3),
                       ("python_cardcanon_snap(ranks=4,suits=2)", 20), ("python_cardcanon_snap", 2),
                       ("python_cardcanon_snap(players=12)", 1)):
        game = pyspiel.load_game(name)
        assert game.engine == "kernel", name
        pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False)


@pytest.mark.parametrize("engine", [pytest.param("kernel", marks=KERNEL), "model"])
def test_the_conformance_vectors_pass_on_either_engine(engine):
    result = subprocess.run([sys.executable, "-m", "cardcanon", "conform", "-q", "--only", "hearts/default", "--only",
                             "snap/players-3", "--", sys.executable, "-m", "cardcanon.openspiel.conform", "--engine",
                             engine], capture_output=True, text=True, timeout=1200)
    assert result.returncode == 0 and " 0 failed" in result.stdout, result.stdout[-3000:] + result.stderr


def test_an_unknown_engine_is_refused_in_one_line():
    with pytest.raises(ValueError, match=r"^engine must be one of 'kernel', 'model', 'kernel-or-model', not 'fast'$"):
        pyspiel.load_game("python_cardcanon_snap(engine=fast)")


def test_without_the_kernel_the_model_plays_only_when_asked(monkeypatch):
    from cardcanon.engine import hearts as engine_hearts, snap as engine_snap

    def unavailable(config: Any) -> None:
        raise build.EngineUnavailable("disabled for this test")

    for module in (engine_hearts, engine_snap):
        monkeypatch.setattr(module, "_kernel", unavailable)
    for name in ("python_cardcanon_hearts", "python_cardcanon_snap(players=3)"):
        with pytest.raises(build.EngineUnavailable) as refused:
            on(name, "kernel")
        assert str(refused.value) == ("disabled for this test; engine='kernel-or-model' or engine='model' plays the "
                                      "reference model instead")
        default = pyspiel.load_game(name)
        assert default.engine == "model" and "disabled for this test" in default.engine_note
        assert default.get_parameters()["engine"] == "kernel-or-model"
        pyspiel.random_sim_test(default, num_sims=1, serialize=False, verbose=False)
        chosen = on(name, "model")
        assert chosen.engine == "model" and chosen.engine_note == "chosen: engine='model'"
