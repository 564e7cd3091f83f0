"""The PettingZoo environments: the PettingZoo API, episodes equal to model games, masks equal
to the model's legal moves, and observations that show only what each player may see."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from cardcanon.envs import hearts_v0, options, snap_v0  # noqa: E402
from cardcanon.envs.snap_v0 import SnapAction  # noqa: E402
from cardcanon.model import hearts, snap  # noqa: E402
from cardcanon.model.cards import Card, Suit  # noqa: E402
from cardcanon.model.errors import IllegalMoveError  # noqa: E402
from cardcanon.model.seats import Seat  # noqa: E402
from cardcanon.model.hearts_players import play_match  # noqa: E402
from cardcanon.model.snap_policies import play_game  # noqa: E402

pytestmark = [pytest.mark.filterwarnings("ignore::UserWarning"),
              pytest.mark.usefixtures("environments_play_the_model_without_a_kernel")]

HEARTS_VARIANTS = [{}, {"first_lead": "free", "break_on": "void", "first_trick_points": "no-hearts",
                        "queen_breaks": "yes", "moon_score": "points-in-play"}]
ENGINES = [pytest.param("kernel", marks=pytest.mark.needs_kernel), "model"]  # an environment's engine= named
SNAP_VARIANTS = [{}, {"players": 4, "next_turn": "winner"}, {"players": 3, "index_card": "on"},
                 {"players": 5, "calling_policy": "ties:0.5"}, {"players": 3, "calling_policy": "owner-first"}]


def quick_first(kwargs_list: list[dict], quick: int = 1) -> list:
    """The first ``quick`` tables in the quick suite, the others with -m slow."""
    return [k if i < quick else pytest.param(k, marks=pytest.mark.slow) for i, k in enumerate(kwargs_list)]


def random_steps(env, seed: int, actions: np.random.Generator | None = None) -> Iterator[str]:
    """Play an episode with uniformly random legal actions, yielding each live agent before its step."""
    env.reset(seed=seed)
    actions = actions or np.random.default_rng(seed)
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        yield agent
        env.step(int(actions.choice(np.flatnonzero(obs["action_mask"]))))


# ---- the PettingZoo API ----------------------------------------------------------------------
@pytest.mark.parametrize("kwargs", HEARTS_VARIANTS + [{"engine": "model"}])
def test_hearts_passes_the_pettingzoo_api_and_seed_tests(kwargs):
    api_test(hearts_v0.env(**kwargs), num_cycles=300)
    seed_test(lambda: hearts_v0.env(**kwargs), num_cycles=300)


@pytest.mark.parametrize("kwargs", quick_first([{"players": 3, "engine": "model"}, *SNAP_VARIANTS], 2))
def test_snap_passes_the_pettingzoo_api_and_seed_tests(kwargs):
    api_test(snap_v0.env(**kwargs), num_cycles=300)
    seed_test(lambda: snap_v0.env(**kwargs), num_cycles=300)


# ---- keyword arguments: the rulebook's variation points -----------------------------------------
@pytest.mark.parametrize("game, module", [("hearts", hearts_v0), ("snap", snap_v0)])
def test_every_variation_point_is_a_keyword_argument(game, module):
    rules = options.variation_rules(game)
    assert rules, "the rulebook has variation points"
    accepted = 0
    for name, rule in rules.items():
        assert f"``{name}``" in module.raw_env.__doc__
        for option in rule.variation.options:
            try:
                env = module.raw_env(**{name: option.value})
            except (ValueError, NotImplementedError) as error:  # an option the model does not play
                assert option.value != rule.variation.default and rule.id in str(error)
                continue
            accepted += 1
            assert env.options[name] == option.value
            if name in {f.name for f in dataclasses.fields(env.config)}:
                value = getattr(env.config, name)
                assert getattr(value, "value", value) in (option.value, option.value in ("on", "yes"))
        with pytest.raises(ValueError, match=rule.id):
            module.raw_env(**{name: "no-such-option"})
    assert accepted > len(rules)  # every default, and at least one other option
    with pytest.raises(TypeError, match="unknown keyword"):
        module.raw_env(no_such_argument=1)


def test_snap_refuses_a_calling_policy_of_players_mistakes():
    with pytest.raises(ValueError, match="own calls"):
        snap_v0.raw_env(calling_policy="errors:0.1")
    with pytest.raises(ValueError, match="unknown policy"):
        snap_v0.raw_env(calling_policy="loudest")


# ---- episodes are model games ------------------------------------------------------------------
@pytest.mark.parametrize("kwargs", HEARTS_VARIANTS)
@pytest.mark.parametrize("seed", [0, 7, 2026])
def test_a_hearts_episode_is_the_model_match_of_its_seed(kwargs, seed):
    env = hearts_v0.raw_env(**kwargs)
    for _ in random_steps(env, seed):
        pass
    plays = iter([move for move in env.moves if isinstance(move, hearts.Play)])
    final, moves = play_match(seed, (lambda state, legal: next(plays),) * 2, env.config)
    assert moves == env.moves and final == env.state
    assert final.outcome is not None
    assert next(plays, None) is None


@dataclasses.dataclass
class Replay:
    """A calling policy that replays the call events of an environment episode."""

    events: Iterator[snap.Move]
    name: str = "replay"
    deterministic: bool = True  # so that the model reports a repeated position, as the env does

    def choose(self, state, rng):
        return next(self.events)


def model_game_of(env: snap_v0.raw_env) -> snap.SnapState:
    """The model's game for the episode's seed, with the episode's call events, stopped where it stopped."""
    events = iter([m for m in env.moves if isinstance(m, (snap.NoCall, snap.Call, snap.Tie))])
    result = play_game(env.config, env.episode_seed, Replay(events), max_flips=env.state.flips)
    assert list(result.moves) == env.moves
    assert next(events, None) is None
    return result


@pytest.mark.parametrize("kwargs", SNAP_VARIANTS)
@pytest.mark.parametrize("seed", [1, 5, 99])
def test_a_snap_episode_is_the_model_game_of_its_seed(kwargs, seed):
    env = snap_v0.raw_env(**kwargs)
    for _ in random_steps(env, seed):
        pass
    result = model_game_of(env)
    assert result.state == env.state
    truncated = env.state.outcome is None
    assert truncated == (result.outcome is None)


def preferred_call(env: snap_v0.raw_env) -> int:
    """What every player does under the named policies: the correct call, "Snap Pot!" first."""
    correct = snap.correct_kinds(env.state)
    for action in (SnapAction.SNAP_POT, SnapAction.SNAP, SnapAction.HAND):
        if snap_v0.KIND_OF_ACTION[action] in correct:
            return action
    return SnapAction.PASS


@pytest.mark.parametrize("policy", ["flipper-first", "owner-first", "ties:0.3"])
@pytest.mark.parametrize("players, seed", [(2, 10), (2, 3), (3, 4), (5, 8)])
def test_snap_races_follow_the_named_calling_policies(policy, players, seed):
    """Agents that all call as the policy's players do give the model's ``play_game`` for that policy."""
    random_policy = policy.startswith("ties")
    env = snap_v0.raw_env(players=players, calling_policy=policy, truncate_on_repeat=not random_policy,
                          max_steps=3000)
    env.reset(seed=seed)
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else
                 SnapAction.FLIP if env.state.phase is snap.Phase.FLIP else preferred_call(env))
    cap = env.state.flips if env.state.outcome is None else None
    result = play_game(env.config, seed, policy, max_flips=cap)
    assert list(result.moves) == env.moves and result.state == env.state


def test_snap_call_windows_step_the_players_in_the_game_clockwise_from_the_flipper():
    env = snap_v0.raw_env(players=4)
    window, windows = None, 0
    for agent in random_steps(env, 2):
        seat = env.agent_name_mapping[agent]
        if env.state.phase is snap.Phase.FLIP:
            if window is not None:
                assert window == [], "every player in the game steps once per window"
            flipper = seat
            window = None
            continue
        if window is None:  # the window of this flip opens: the flipper, then clockwise, players in the game
            window = [s for s in ((flipper + k) % 4 for k in range(4)) if env.state.holds(Seat(s))]
            windows += 1
        assert seat == window.pop(0)
    assert windows > 100


def test_simultaneous_calls_are_settled_as_the_rulebook_says():
    from cardcanon.envs.snap_race import call_event, race_policy
    from cardcanon.model.shuffle import SplitMix64
    from cardcanon.model.snap_text import make_state

    s0, s1, s2, s3 = (Seat(i) for i in range(4))
    snap_, pot_ = snap.CallKind.SNAP, snap.CallKind.SNAP_POT
    # The flipper (seat 0) turned the 7h; it matches seats 2 and 3, not the pot: "Snap!" is right.
    piles = make_state(["2c", "3c", "4c", "5c"], ["7h", "9s", "7s", "7c"], "8d", 0, snap.Phase.CALL)
    flipper_first, owner_first = race_policy("flipper-first"), race_policy("owner-first")

    def event(state, calls, policy, seed=0):
        return call_event(state, calls, policy, SplitMix64(seed))

    assert event(piles, {}, flipper_first) == snap.NoCall()
    assert event(piles, {s0: pot_, s2: snap_}, flipper_first) == snap.Call(s2, snap_)  # right beats wrong
    assert event(piles, {s3: pot_, s1: pot_}, flipper_first) == snap.Call(s1, pot_)  # wrong only: nearest
    assert event(piles, {s0: snap_, s3: snap_}, flipper_first) == snap.Call(s0, snap_)
    assert event(piles, {s0: snap_, s3: snap_}, owner_first) == snap.Call(s0, snap_)  # owner 2 did not call
    assert event(piles, {s0: snap_, s2: snap_}, owner_first) == snap.Call(s2, snap_)
    # With the pot matched too, "Snap!" and "Snap Pot!" callers may tie (ties:1 always ties).
    both = dataclasses.replace(piles, pot=(Card.parse("7d"),))
    tie = event(both, {s0: pot_, s1: snap_, s3: pot_}, race_policy("ties:1"))
    assert isinstance(tie, snap.Tie) and tie.kind is pot_ and len(tie.callers) >= 2
    assert tie.callers <= {s0, s1, s3}
    snap.apply(both, tie)
    assert event(both, {s0: pot_, s1: snap_}, race_policy("ties:0")) == snap.Call(s0, pot_)


@pytest.mark.parametrize("engine", ENGINES)
def test_snap_truncates_an_endless_game_at_the_repeated_position(engine):
    env = snap_v0.raw_env(calling_policy="owner-first", engine=engine)
    env.reset(seed=10)
    last = None
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            last = (terminated, truncated)
            env.step(None)
            continue
        env.step(SnapAction.FLIP if env.state.phase is snap.Phase.FLIP else preferred_call(env))
    assert last == (False, True)
    result = play_game(env.config, 10, "owner-first")
    assert result.endless is not None and result.state == env.state
    key = env.state.position_key() if engine == "model" else env._kernel.position_key()
    assert key in env._seen and env._seen[key] == result.endless.start


def test_snap_max_steps_truncates_at_the_next_flip():
    env = snap_v0.raw_env(players=3, max_steps=50)
    steps = sum(1 for _ in random_steps(env, 4))
    assert 50 <= steps < 50 + 1 + 3 and env.state.phase is snap.Phase.FLIP and env.state.outcome is None


# ---- action masks ----------------------------------------------------------------------------------
def hearts_expected_mask(state: hearts.HeartsState, seat: int) -> np.ndarray:
    mask = np.zeros(len(hearts.DECK), dtype=np.int8)
    if state.to_move is not None and state.to_move.index == seat:
        for move in hearts.legal_moves(state):
            mask[hearts.DECK.index(move.card)] = 1
    return mask


@pytest.mark.parametrize("kwargs", HEARTS_VARIANTS)
def test_hearts_masks_are_the_models_legal_moves(kwargs):
    env = hearts_v0.raw_env(**kwargs)
    for seed in range(3):
        for agent in random_steps(env, seed):
            for other in env.agents:
                expected = hearts_expected_mask(env.state, env.agent_name_mapping[other])
                assert (env.observe(other)["action_mask"] == expected).all()


def part(vector: np.ndarray, layout, name: str) -> np.ndarray:
    start = 0
    for part_name, size in layout:
        if part_name == name:
            return vector[start:start + size]
        start += size
    raise KeyError(name)


@pytest.mark.rules("HEARTS-LEAD-1", "HEARTS-FOLLOW-1", "HEARTS-BREAK-1")
def test_hearts_masks_obey_the_rules_read_from_the_observation():
    """From the observation alone: the 2 of clubs leads, suit is followed, hearts wait to be broken."""
    layout = hearts_v0.OBSERVATION
    suit_of = np.array([card.suit.index for card in hearts.DECK])
    hearts_suit = Suit.HEARTS.index
    two_of_clubs = hearts_v0.action_of_card(Card.parse("2c"))
    seen = set()
    for seed in range(6):
        env = hearts_v0.raw_env()
        for agent in random_steps(env, seed):
            obs = env.observe(agent)
            vector, legal = obs["observation"], obs["action_mask"].astype(bool)
            hand, trick = part(vector, layout, "hand").astype(bool), part(vector, layout, "trick").astype(bool)
            assert legal.any() and not (legal & ~hand).any()
            if part(vector, layout, "leading")[0] and part(vector, layout, "first_trick")[0] and hand[two_of_clubs]:
                assert np.flatnonzero(legal).tolist() == [two_of_clubs]
                seen.add("HEARTS-LEAD-1")
            elif trick.any():
                led = suit_of[np.flatnonzero(trick)[0]]
                if (hand & (suit_of == led)).any():
                    assert (suit_of[legal] == led).all()
                    seen.add("HEARTS-FOLLOW-1")
            elif not part(vector, layout, "hearts_broken")[0] and (hand & (suit_of != hearts_suit)).any():
                assert not (legal & (suit_of == hearts_suit)).any()
                seen.add("HEARTS-BREAK-1")
    assert seen == {"HEARTS-LEAD-1", "HEARTS-FOLLOW-1", "HEARTS-BREAK-1"}


def snap_expected_mask(state: snap.SnapState, seat: Seat, legal: set | None = None) -> np.ndarray:
    legal = set(snap.legal_moves(state)) if legal is None else legal
    moves = {SnapAction.FLIP: snap.Flip(seat), SnapAction.PASS: snap.NoCall(),
             **{a: snap.Call(seat, kind) for a, kind in snap_v0.KIND_OF_ACTION.items()}}
    return np.array([moves[a] in legal for a in SnapAction], dtype=np.int8)


@pytest.mark.parametrize("kwargs", quick_first([SNAP_VARIANTS[2], *SNAP_VARIANTS[:2], *SNAP_VARIANTS[3:]], 2))
def test_snap_masks_are_the_models_legal_moves(kwargs):
    env = snap_v0.raw_env(**kwargs)
    for seed in range(3):
        for agent in random_steps(env, seed):
            seat = Seat(env.agent_name_mapping[agent])
            assert (env.observe(agent)["action_mask"] == snap_expected_mask(env.state, seat)).all()
            for other in env.agents:
                if other != agent:
                    assert not env.observe(other)["action_mask"].any()


@pytest.mark.rules("SNAP-INDEX-1")
@pytest.mark.parametrize("index_card, calls", [("off", {SnapAction.SNAP, SnapAction.SNAP_POT}),
                                               ("on", {SnapAction.HAND})])
def test_snap_offers_the_calls_of_the_table(index_card, calls):
    env = snap_v0.raw_env(players=3, index_card=index_card)
    offered = set()
    for agent in random_steps(env, 3):
        mask = env.observe(agent)["action_mask"]
        offered |= {SnapAction(a) for a in np.flatnonzero(mask)} - {SnapAction.FLIP, SnapAction.PASS}
    assert offered == calls


@pytest.mark.rules("SNAP-PEN-1")
def test_a_wrong_call_in_the_environment_gives_the_flipper_a_card():
    env = snap_v0.raw_env(players=3)
    env.reset(seed=12)
    flipper = env.agent_selection
    env.step(SnapAction.FLIP)  # the first flip of the game matches nothing
    layout = snap_v0.observation_parts(3)
    before = part(env.observe(flipper)["observation"], layout, "face_down_sizes").copy()
    wrong = None
    while env.state.phase is snap.Phase.CALL:
        agent = env.agent_selection
        if agent != flipper and wrong is None:
            wrong = agent
            env.step(SnapAction.SNAP)
        else:
            env.step(SnapAction.PASS)
    after = part(env.observe(flipper)["observation"], layout, "face_down_sizes")
    offender = (env.agent_name_mapping[wrong] - env.agent_name_mapping[flipper]) % 3
    change = after - before
    assert change[0] == 1 and change[offender] == -1 and change.sum() == 0


def test_illegal_actions_name_the_rule():
    env = hearts_v0.raw_env()
    env.reset(seed=1)
    seat = env.agent_name_mapping[env.agent_selection]
    other_card = next(iter(env.state.hands[1 - seat]))
    with pytest.raises(IllegalMoveError) as error:
        env.step(hearts_v0.action_of_card(other_card))
    assert error.value.rule_id == "HEARTS-DEAL-2"
    env = snap_v0.raw_env()
    env.reset(seed=1)
    with pytest.raises(IllegalMoveError) as error:
        env.step(SnapAction.SNAP)
    assert error.value.rule_id == "SNAP-CALL-3"
    with pytest.raises(ValueError, match="not an action"):
        env.step(len(SnapAction))
    wrapped = snap_v0.env()
    wrapped.reset(seed=1)
    agent = wrapped.agent_selection
    wrapped.step(SnapAction.PASS)  # the wrapper ends the game, -1 to the offender
    assert wrapped.rewards[agent] == -1 and all(wrapped.terminations.values())


# ---- hidden information ----------------------------------------------------------------------------
def all_observations(env) -> dict[str, np.ndarray]:
    return {agent: env.observe(agent)["observation"].copy() for agent in env.agents}


def test_hearts_observations_never_show_the_other_hand_or_the_dead_cards():
    layout = hearts_v0.OBSERVATION
    cards = [name for name, size in layout if size == len(hearts.DECK)]
    for seed in range(4):
        env = hearts_v0.raw_env()
        for agent in random_steps(env, seed):
            state = env.state
            for other in env.agents:
                s = env.agent_name_mapping[other]
                hidden = {hearts_v0.action_of_card(card) for card in state.hands[1 - s] | set(state.dead)}
                vector = env.observe(other)["observation"]
                mine = {hearts_v0.action_of_card(card) for card in state.hands[s]}
                assert set(np.flatnonzero(part(vector, layout, "hand"))) == mine
                for name in cards:
                    assert not set(np.flatnonzero(part(vector, layout, name))) & hidden, name


def swap(state: hearts.HeartsState, seat: int, out_of_hand: Card, dead_index: int) -> hearts.HeartsState:
    """``state`` with a card of ``seat``'s hand and a dead card exchanged."""
    dead = list(state.dead)
    hands = list(state.hands)
    hands[seat] = (hands[seat] - {out_of_hand}) | {dead[dead_index]}
    dead[dead_index] = out_of_hand
    return dataclasses.replace(state, hands=tuple(hands), dead=tuple(dead))


def test_hearts_observation_is_the_same_whatever_the_hidden_cards():
    env = hearts_v0.raw_env(engine="model")  # a state set by hand: the kernel's equals it (test_env_engine)
    rng = np.random.default_rng(5)
    checked = 0
    for agent in random_steps(env, 5):
        state = env.state
        s = env.agent_name_mapping[agent]
        before = env.observe(agent)["observation"].copy()
        theirs, mine = sorted(state.hands[1 - s]), sorted(state.hands[s])
        if not theirs:
            continue
        env.state = swap(state, 1 - s, theirs[rng.integers(len(theirs))], 0)
        assert (env.observe(agent)["observation"] == before).all()
        env.state = swap(state, s, mine[0], 1)  # the test can fail: his own cards are seen
        assert not (env.observe(agent)["observation"] == before).all()
        env.state = state
        checked += 1
    assert checked > 50


def hide_differently(state: snap.SnapState, rng: np.random.Generator) -> snap.SnapState:
    """The same table as seen by the players: face-down cards moved between piles of the same
    sizes, and everything under a visible top card shuffled."""
    down = [card for pile in state.down for card in pile]
    rng.shuffle(down)
    new_down, at = [], 0
    for pile in state.down:
        new_down.append(tuple(down[at:at + len(pile)]))
        at += len(pile)
    below = [card for pile in state.up + (state.pot,) for card in pile[1:]]
    rng.shuffle(below)
    piles, at = [], 0
    for pile in state.up + (state.pot,):
        piles.append(pile[:1] + tuple(below[at:at + max(len(pile) - 1, 0)]))
        at += max(len(pile) - 1, 0)
    return dataclasses.replace(state, down=tuple(new_down), up=tuple(piles[:-1]), pot=piles[-1])


@pytest.mark.parametrize("kwargs", quick_first(SNAP_VARIANTS[:3]))
def test_snap_observations_show_only_sizes_and_visible_top_cards(kwargs):
    env = snap_v0.raw_env(engine="model", **kwargs)  # a state set by hand: the kernel's equals it (test_env_engine)
    rng = np.random.default_rng(0)
    changed = 0
    for step, agent in enumerate(random_steps(env, 21)):
        state = env.state
        before = all_observations(env)
        env.state = hide_differently(state, rng)
        assert all((env.observe(a)["observation"] == before[a]).all() for a in env.agents)
        changed += env.state != state
        top = next((s for s, pile in enumerate(state.up) if pile), None)
        if top is not None and any(state.down):  # the test can fail: a visible top card is seen
            holder = next(s for s, pile in enumerate(state.down) if pile)
            up, down = list(state.up), list(state.down)
            up[top], down[holder] = (down[holder][0],) + up[top][1:], (up[top][0],) + down[holder][1:]
            env.state = dataclasses.replace(state, up=tuple(up), down=tuple(down))
            assert any((env.observe(a)["observation"] != before[a]).any() for a in env.agents)
        env.state = state
    assert changed > 20  # the hidden cards really were moved


# ---- the example ------------------------------------------------------------------------------------
def test_the_random_agents_example_plays_both_games(capsys):
    import runpy
    from pathlib import Path

    example = runpy.run_path(str(Path(__file__).parents[1] / "examples" / "random_agents.py"))
    assert example["main"](["hearts", "--episodes", "1"]) == 0
    assert example["main"](["snap", "--players", "3", "--option", "index_card=on", "--episodes", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3 and all(line.startswith("seed ") for line in lines)
    assert example["main"](["snap", "--option", "match=rank-and-colour"]) == 2
    assert "SNAP-MATCH-1" in capsys.readouterr().err


# ---- thorough runs -------------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("kwargs", HEARTS_VARIANTS)
def test_many_hearts_episodes_are_model_matches_with_model_masks(kwargs):
    for seed in range(100, 130):
        env = hearts_v0.raw_env(**kwargs)
        for agent in random_steps(env, seed):
            s = env.agent_name_mapping[agent]
            assert (env.observe(agent)["action_mask"] == hearts_expected_mask(env.state, s)).all()
        plays = iter([move for move in env.moves if isinstance(move, hearts.Play)])
        final, moves = play_match(seed, (lambda state, legal: next(plays),) * 2, env.config)
        assert moves == env.moves and final == env.state


@pytest.mark.slow
@pytest.mark.parametrize("kwargs", [{"players": 6, "calling_policy": "ties:0.2"}, {"players": 12},
                                    {"players": 12, "index_card": "on", "next_turn": "winner"}])
@pytest.mark.parametrize("engine", ENGINES)
def test_many_snap_episodes_are_model_games_with_model_masks(kwargs, engine):
    rng = np.random.default_rng(1)
    for seed in range(100, 106):
        env = snap_v0.raw_env(max_steps=3000, engine=engine, **kwargs)
        legal: tuple = (None, set())
        for step, agent in enumerate(random_steps(env, seed)):
            if legal[0] is not env.state:  # one call window is one state: ask the model once
                legal = (env.state, set(snap.legal_moves(env.state)))
            seat = Seat(env.agent_name_mapping[agent])
            assert (env.observe(agent)["action_mask"] == snap_expected_mask(env.state, seat, legal[1])).all()
            if step % 50 == 0 and engine == "model":  # a state set by hand
                state, before = env.state, all_observations(env)
                env.state = hide_differently(state, rng)
                assert all((env.observe(a)["observation"] == before[a]).all() for a in env.agents)
                env.state = state
        assert model_game_of(env).state == env.state


def test_rendering_as_text():
    for env in (hearts_v0.raw_env(render_mode="ansi"), snap_v0.raw_env(players=3, render_mode="ansi")):
        env.reset(seed=3)
        text = env.render()
        assert isinstance(text, str) and all(agent in text for agent in env.possible_agents)
    with pytest.raises(ValueError, match="render_mode"):
        hearts_v0.raw_env(render_mode="rgb_array")
