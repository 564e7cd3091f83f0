"""A minimal implementation of both games behind the conformance protocol, written from the
rulebook with plain data (card strings, dicts and tuples) and no cardcanon import.

``python tests/conform/minimal.py`` serves the protocol on stdin/stdout, and answers ``show``
with the canonical position (``--no-show``: it does not). ``--break RULE`` makes it break one
rule on purpose, to show that ``cardcanon conform`` catches it and names the rule:

- ``HEARTS-BREAK-1``: hearts may be led before they are broken;
- ``SNAP-CALL-2``: players who are out may call;
- ``SNAP-POT-1``: a correct "Snap Pot!" does not win the pot;

and these state bugs, found only by comparing positions:

- ``SNAP-PEN-2``: the flipper's penalty card goes to the nearest player to his left;
- ``SNAP-FLIP-3``: an empty face-down pile is refilled with the face-up pile without turning it over;
- ``SNAP-TIE-1``: tied piles are stacked in the old order, the matched piles counter-clockwise;
- ``SNAP-CALL-5``: won piles go on top of the winner's face-down pile, not under it;
- ``SNAP-PEN-3``: the penalty card goes on top of the recipient's face-down pile;
- ``HEARTS-TRICK-2``: the loser of a trick leads the next;
- ``HEARTS-BREAK-2``: a heart discarded to a trick does not break hearts;
- ``SNAP-SEED-2``: the dealer of a seeded deal is drawn after the shuffle;

and these breaches of the protocol:

- ``refused-prefix``: a ``position`` request refused at a move keeps the moves before it;
- ``start``: the start position is shown with a dealer.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys

BROKEN: set[str] = set()
MASK = (1 << 64) - 1


# ---- the portable shuffle ------------------------------------------------------------------------
class Rng:
    def __init__(self, seed: int) -> None:
        self.state = seed & MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        threshold = (1 << 64) % n
        while True:
            x = self.next()
            if x >= threshold:
                return x % n

    def shuffled(self, items: list) -> list:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


class Illegal(Exception):
    def __init__(self, rule: str) -> None:
        super().__init__(rule)
        self.rule = rule


class Invalid(Exception):
    pass


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


# ---- two-player Hearts ---------------------------------------------------------------------------
H_RANKS = "2468TQA"
H_DECK = [r + s for s in "cdhs" for r in H_RANKS]
H_ORDER = {c: i for i, c in enumerate(H_DECK)}


class Hearts:
    def __init__(self, config: dict) -> None:
        expected = {"dealer": ("alternate",), "first_lead": ("lowest-club", "free"),
                    "break_on": ("heart-played", "void"), "first_trick_points": ("allowed", "no-hearts"),
                    "queen_breaks": ("no", "yes"), "moon_score": ("twenty", "points-in-play")}
        for key, options in expected.items():
            if config.get(key) not in options:
                raise ValueError(f"{key} = {config.get(key)!r}")
        if set(config) != set(expected) | {"target"}:
            raise ValueError(f"unknown options {sorted(set(config) - set(expected) - {'target'})}")
        self.config = config
        self.deck = H_DECK

    def start(self) -> dict:
        return {"phase": "dealer", "dealer": None, "hands": ((), ()), "dead": (), "trick": (), "to_move": None,
                "broken": False, "taken": ((), ()), "tricks": 0, "scores": (0, 0), "outcome": None, "hand": 0,
                "hand_scores": ()}

    def show(self, state: dict) -> dict:
        def cards(pile) -> list:
            return sorted(pile, key=H_ORDER.get)

        phase = {"dealer": "choose-dealer"}.get(state["phase"], state["phase"])
        return {"phase": phase, "hand": state["hand"], "dealer": state["dealer"], "to_move": state["to_move"],
                "hands": [cards(h) for h in state["hands"]],
                "dead": None if phase == "play" or not state["dead"] else cards(state["dead"]),
                "trick": [{"player": p, "card": c} for p, c in state["trick"]], "hearts_broken": state["broken"],
                "tricks": state["tricks"], "taken": [cards(t) for t in state["taken"]], "scores": list(state["scores"]),
                "hand_scores": [list(h) for h in state["hand_scores"]]}

    def seeded_start(self, seed: int) -> dict:
        rng = Rng(seed)
        dealer = rng.below(2)
        order = rng.shuffled(H_DECK)
        moves = [{"move": "choose-dealer", "dealer": dealer}, {"move": "deal", "order": order}]
        state = self.start()
        for move in moves:
            state = self.apply(state, move)
        return {"moves": moves, "hands": [sorted(h, key=H_ORDER.get) for h in state["hands"]],
                "dead": list(state["dead"]), "to_move": state["to_move"]}

    def is_chance(self, state: dict) -> bool:
        return state["phase"] in ("dealer", "deal")

    def first_club(self, dead) -> str:
        return next(c for c in ("2c", "4c", "6c") if c not in dead)

    def check_play(self, state: dict, player: int, card: str) -> None:
        """Raise Illegal with the first rule the play breaks."""
        seat = state["to_move"]
        if player != seat:
            if state["trick"]:
                raise Illegal("HEARTS-TRICK-4")
            if state["tricks"] == 0:
                raise Illegal("HEARTS-LEAD-1" if "2c" not in state["dead"] else "HEARTS-LEAD-2")
            raise Illegal("HEARTS-TRICK-2")
        if card not in H_ORDER:
            raise Illegal("HEARTS-DECK-1")
        hand = state["hands"][seat]
        if card not in hand:
            raise Illegal("HEARTS-DEAL-2")
        leading = not state["trick"]
        first_trick = state["tricks"] == 0
        has_other = any(suit(c) != "h" for c in hand)
        if leading and first_trick:
            club = self.first_club(state["dead"])
            if (club == "2c" or self.config["first_lead"] == "lowest-club") and card != club:
                raise Illegal("HEARTS-LEAD-1" if club == "2c" else "HEARTS-LEAD-3")
        if not leading:
            led = suit(state["trick"][0][1])
            if suit(card) != led and any(suit(c) == led for c in hand):
                raise Illegal("HEARTS-FOLLOW-1")
        if leading and not state["broken"] and has_other and suit(card) == "h" and "HEARTS-BREAK-1" not in BROKEN:
            raise Illegal("HEARTS-BREAK-1")
        if first_trick and self.config["first_trick_points"] == "no-hearts" and has_other and suit(card) == "h":
            raise Illegal("HEARTS-FIRST-1")

    def legal(self, state: dict) -> list:
        if state["phase"] != "play":
            return []
        seat = state["to_move"]
        moves = []
        for card in sorted(state["hands"][seat], key=H_ORDER.get):
            try:
                self.check_play(state, seat, card)
            except Illegal:
                continue
            moves.append({"move": "play", "player": seat, "card": card})
        return moves

    def apply(self, state: dict, move: dict) -> dict:
        kind = move.get("move")
        if kind not in ("choose-dealer", "deal", "play"):
            raise Invalid(f"not a Hearts move: {move}")
        if state["phase"] == "over":
            raise Illegal("HEARTS-MATCH-1")
        if kind == "choose-dealer":
            if state["phase"] != "dealer":
                raise Illegal("HEARTS-DEAL-1")
            if move.get("dealer") not in (0, 1):
                raise Invalid("dealer is 0 or 1")
            return {**state, "phase": "deal", "dealer": move["dealer"]}
        if kind == "deal":
            if state["phase"] == "dealer":
                raise Illegal("HEARTS-DEAL-1")
            if state["phase"] != "deal":
                raise Illegal("HEARTS-TRICK-3")
            order = move.get("order")
            if not isinstance(order, list) or sorted(order, key=str) != sorted(H_DECK):
                raise Illegal("HEARTS-DECK-1")
            return self.deal(state, order)
        if state["phase"] == "dealer":
            raise Illegal("HEARTS-DEAL-1")
        if state["phase"] == "deal":
            raise Illegal("HEARTS-DEAL-2")
        player, card = move.get("player"), move.get("card")
        self.check_play(state, player, card)
        return self.play(state, player, card)

    def deal(self, state: dict, order: list) -> dict:
        # HEARTS-DEAL-2: the top card is dead; 13 cards each, alternately, beginning with the
        # player who is not the dealer; the last card is dead.
        dealer = state["dealer"]
        hands = [[], []]
        for k, card in enumerate(order[1:27]):
            hands[1 - dealer if k % 2 == 0 else dealer].append(card)
        dead = (order[0], order[27])
        club = self.first_club(dead)
        leader = 0 if club in hands[0] else 1
        return {**state, "phase": "play", "hands": (tuple(hands[0]), tuple(hands[1])), "dead": dead, "trick": (),
                "to_move": leader, "broken": False, "taken": ((), ()), "tricks": 0, "hand": state["hand"] + 1}

    def play(self, state: dict, player: int, card: str) -> dict:
        hands = list(state["hands"])
        hands[player] = tuple(c for c in hands[player] if c != card)
        broken = state["broken"] or suit(card) == "h" or (card == "Qs" and self.config["queen_breaks"] == "yes")
        if not state["trick"]:
            return {**state, "hands": tuple(hands), "trick": ((player, card),), "to_move": 1 - player,
                    "broken": broken}
        leader, lead = state["trick"][0]
        if "HEARTS-BREAK-2" in BROKEN:
            broken = state["broken"] or (card == "Qs" and self.config["queen_breaks"] == "yes")
        if self.config["break_on"] == "void" and suit(card) != suit(lead):
            broken = True
        follower_wins = (suit(card) == suit(lead) and H_RANKS.index(rank(card)) > H_RANKS.index(rank(lead))) or (
            suit(card) == "h" and suit(lead) != "h")
        winner = player if follower_wins else leader
        taken = list(state["taken"])
        taken[winner] = taken[winner] + (lead, card)
        leads = 1 - winner if "HEARTS-TRICK-2" in BROKEN else winner
        state = {**state, "hands": tuple(hands), "trick": (), "to_move": leads, "broken": broken,
                 "taken": tuple(taken), "tricks": state["tricks"] + 1}
        return self.end_hand(state) if state["tricks"] == 13 else state

    def end_hand(self, state: dict) -> dict:
        def points(cards) -> int:
            return sum(1 for c in cards if suit(c) == "h") + (13 if "Qs" in cards else 0)

        in_play = {c for c in H_DECK if suit(c) == "h" or c == "Qs"} - set(state["dead"])
        hand = [points(state["taken"][0]), points(state["taken"][1])]
        for seat in (0, 1):
            if in_play <= set(state["taken"][seat]):  # shooting the moon
                other = 20 if self.config["moon_score"] == "twenty" else points(in_play)
                hand = [0, other] if seat == 0 else [other, 0]
        before = state["scores"]
        a, b = before[0] + hand[0], before[1] + hand[1]
        target = self.config["target"]
        outcome = None
        if (a >= target) != (b >= target):
            outcome = {"scores": [a, b], "winner": 0 if a < target else 1, "termination": "one-reached-target"}
        elif a >= target and a != b:
            tied = before[0] == before[1] and before[0] >= target
            outcome = {"scores": [a, b], "winner": 0 if a < b else 1,
                       "termination": "tie-broken" if tied else "both-reached-lower-wins"}
        return {**state, "scores": (a, b), "hand_scores": state["hand_scores"] + (tuple(hand),), "outcome": outcome,
                "phase": "over" if outcome else "deal",
                "dealer": state["dealer"] if outcome else 1 - state["dealer"], "to_move": None}

    def outcome(self, state: dict):
        return state["outcome"]


# ---- Snap ------------------------------------------------------------------------------------------
S_DECK = [r + s for s in "cdhs" for r in "23456789TJQKA"]


class Snap:
    def __init__(self, config: dict) -> None:
        if set(config) - {"players", "index_card", "next_turn"}:
            raise ValueError(f"unknown options {sorted(config)}")
        self.n = config["players"]
        if not 2 <= self.n <= 12:
            raise ValueError("2 to 12 players")
        self.index_card = config.get("index_card", False)
        self.winner_flips = config.get("next_turn", "clockwise") == "winner"
        if config.get("next_turn", "clockwise") not in ("clockwise", "winner"):
            raise ValueError("next_turn")
        self.kinds = ("hand",) if self.index_card else ("snap", "snap-pot")
        self.deck = S_DECK

    def start(self) -> dict:
        empty = ((),) * self.n
        return {"phase": "deal", "dealer": None, "down": empty, "up": empty, "pot": (), "turn": None, "flips": 0}

    def show(self, state: dict) -> dict:
        return {"phase": state["phase"], "dealer": state["dealer"], "flipper": state["turn"], "flips": state["flips"],
                "down": [list(p) for p in state["down"]], "up": [list(p) for p in state["up"]],
                "pot": list(state["pot"])}

    def seeded_start(self, seed: int) -> dict:
        rng = Rng(seed)
        if "SNAP-SEED-2" in BROKEN:  # the dealer drawn after the shuffle
            order = rng.shuffled(S_DECK)
            move = {"move": "deal", "dealer": rng.below(self.n), "order": order}
        else:
            dealer = rng.below(self.n)
            move = {"move": "deal", "dealer": dealer, "order": rng.shuffled(S_DECK)}
        state = self.apply(self.start(), move)
        return {"moves": [move], "hands": [list(p) for p in state["down"]], "to_move": state["turn"]}

    def is_chance(self, state: dict) -> bool:
        return state["phase"] == "deal"

    def holds(self, state: dict, seat: int) -> bool:
        return bool(state["down"][seat] or state["up"][seat])

    def in_game(self, state: dict) -> list[int]:
        return [s for s in range(self.n) if self.holds(state, s)]

    def matched(self, state: dict) -> list[int]:
        f = state["turn"]
        card = state["up"][f][0]
        seats = [(f + k) % self.n for k in range(1, self.n)]
        return [s for s in seats if state["up"][s] and rank(state["up"][s][0]) == rank(card)]

    def pot_match(self, state: dict) -> bool:
        return bool(state["pot"]) and rank(state["pot"][0]) == rank(state["up"][state["turn"]][0])

    def correct(self, state: dict) -> list[str]:
        piles, pot = bool(self.matched(state)), self.pot_match(state)
        if self.index_card:
            return ["hand"] if piles or pot else []
        return [k for k, ok in (("snap", piles), ("snap-pot", pot)) if ok]

    def callers(self, state: dict) -> list[int]:
        return list(range(self.n)) if "SNAP-CALL-2" in BROKEN else self.in_game(state)

    def legal(self, state: dict) -> list:
        if state["phase"] == "over":
            return []
        if state["phase"] == "flip":
            return [{"move": "flip", "player": state["turn"]}]
        callers = self.callers(state)
        moves = [{"move": "no-call"}]
        moves += [{"move": "call", "caller": p, "kind": k} for p in callers for k in self.kinds]
        if not self.index_card:
            for kind in self.correct(state):
                for size in range(2, len(callers) + 1):
                    moves += [{"move": "tie", "callers": list(c), "kind": kind}
                              for c in itertools.combinations(callers, size)]
        return moves

    def apply(self, state: dict, move: dict) -> dict:
        kind = move.get("move")
        if kind not in ("deal", "flip", "no-call", "call", "tie"):
            raise Invalid(f"not a Snap move: {move}")
        if state["phase"] == "over":  # refused by the rule the game ended by
            ending = self.outcome(state)["termination"]
            raise Illegal({"all-cards": "SNAP-END-1", "stuck-pot": "SNAP-END-2", "winnable-pot": "SNAP-END-2",
                           "no-cards": "SNAP-END-3"}[ending])
        if state["phase"] == "deal":
            if kind != "deal":
                raise Illegal("SNAP-DEAL-2")
            if not 0 <= move["dealer"] < self.n:
                raise Illegal("SNAP-DEAL-1")
            if sorted(move["order"]) != sorted(S_DECK):
                raise Illegal("SNAP-DECK-1")
            piles = [[] for _ in range(self.n)]
            for i, card in enumerate(move["order"]):
                piles[(move["dealer"] + 1 + i) % self.n].append(card)
            down = tuple(tuple(reversed(p)) for p in piles)
            state = {**state, "dealer": move["dealer"]}
            return self.next_turn(state, down, ((),) * self.n, (), move["dealer"], None)
        if kind == "deal":
            raise Illegal("SNAP-DEAL-2")
        if state["phase"] == "flip":
            if kind != "flip":
                raise Illegal("SNAP-CALL-3")
            if move["player"] != state["turn"]:
                raise Illegal("SNAP-TURN-1" if state["flips"] == 0 else "SNAP-TURN-2")
            i = state["turn"]
            down_i, up_i = state["down"][i], state["up"][i]
            if not down_i:  # turn the face-up pile over
                down_i, up_i = (up_i if "SNAP-FLIP-3" in BROKEN else tuple(reversed(up_i))), ()
            return {**state, "phase": "call", "down": put(state["down"], i, down_i[1:]),
                    "up": put(state["up"], i, (down_i[0],) + up_i), "flips": state["flips"] + 1}
        if kind == "flip":
            raise Illegal("SNAP-CALL-3")
        if kind == "no-call":
            return self.next_turn(state, state["down"], state["up"], state["pot"], state["turn"], None)
        if kind == "tie" and self.index_card:
            raise Illegal("SNAP-INDEX-1")
        if move["kind"] not in self.kinds:
            raise Illegal("SNAP-INDEX-1")
        callers = [move["caller"]] if kind == "call" else sorted(move["callers"])
        for seat in callers:
            if not 0 <= seat < self.n or (not self.holds(state, seat) and "SNAP-CALL-2" not in BROKEN):
                raise Illegal("SNAP-CALL-2")
        correct = self.correct(state)
        if kind == "tie":
            if len(callers) < 2 or move["kind"] not in correct:
                raise Illegal("SNAP-CALL-3")
            return self.tie(state)
        if move["kind"] in correct:
            pot = move["kind"] == "snap-pot" or (move["kind"] == "hand" and self.pot_match(state))
            return self.win(state, move["caller"], pot and "SNAP-POT-1" not in BROKEN)
        return self.penalty(state, move["caller"])

    def win(self, state: dict, winner: int, won_pot: bool) -> dict:
        up = list(state["up"])
        gained = []
        for seat in [state["turn"]] + self.matched(state):
            gained += reversed(up[seat])
            up[seat] = ()
        pot = state["pot"]
        if won_pot:
            gained += reversed(pot)
            pot = ()
        if "SNAP-CALL-5" in BROKEN:
            down = put(state["down"], winner, tuple(reversed(gained)) + state["down"][winner])
        else:
            down = put(state["down"], winner, state["down"][winner] + tuple(gained))
        return self.next_turn(state, down, tuple(up), pot, state["turn"], winner)

    def tie(self, state: dict) -> dict:
        up = list(state["up"])
        added = []
        matched = self.matched(state)
        if "SNAP-TIE-1" in BROKEN:  # the old order: the matched piles counter-clockwise
            matched = matched[::-1]
        for seat in [state["turn"]] + matched:
            added += up[seat]
            up[seat] = ()
        return self.next_turn(state, state["down"], tuple(up), tuple(added) + state["pot"], state["turn"], None)

    def penalty(self, state: dict, offender: int) -> dict:
        flipper = state["turn"]
        if offender != flipper:
            recipient = flipper
        else:
            step = 1 if "SNAP-PEN-2" in BROKEN else -1  # the nearest to his right, or (broken) left
            recipient = next(s for s in ((flipper + step * k) % self.n for k in range(1, self.n))
                             if self.holds(state, s))
        down_o, up_o = state["down"][offender], state["up"][offender]
        if not down_o:
            down_o, up_o = tuple(reversed(up_o)), ()
        down = put(state["down"], offender, down_o[1:])
        if "SNAP-PEN-3" in BROKEN:
            down = put(down, recipient, (down_o[0],) + down[recipient])
        else:
            down = put(down, recipient, down[recipient] + (down_o[0],))
        return self.next_turn(state, down, put(state["up"], offender, up_o), state["pot"], flipper, None)

    def next_turn(self, state, down, up, pot, after, winner) -> dict:
        holders = [s for s in range(self.n) if down[s] or up[s]]
        new = {**state, "down": down, "up": up, "pot": pot}
        if len(holders) <= 1:
            return {**new, "phase": "over", "turn": None}
        if winner is not None and self.winner_flips:
            turn = winner
        else:
            turn = next(s for s in ((after + k) % self.n for k in range(1, self.n + 1)) if down[s] or up[s])
        return {**new, "phase": "flip", "turn": turn}

    def outcome(self, state: dict):
        if state["phase"] != "over":
            return None
        holders = self.in_game(state)
        if not holders:
            return {"termination": "no-cards", "winner": None}
        if not state["pot"]:
            return {"termination": "all-cards", "winner": holders[0]}
        held = state["down"][holders[0]] + state["up"][holders[0]]  # SNAP-END-5: can a flip still win the pot?
        winnable = any(rank(card) == rank(state["pot"][0]) for card in held)
        return {"termination": "winnable-pot" if winnable else "stuck-pot", "winner": holders[0]}


def put(piles: tuple, i: int, pile: tuple) -> tuple:
    return piles[:i] + (pile,) + piles[i + 1:]


# ---- the protocol ----------------------------------------------------------------------------------
def perft(game, state: dict, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(perft(game, game.apply(state, m), depth - 1) for m in game.legal(state))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--break", dest="broken", action="append", default=[])
    parser.add_argument("--no-show", action="store_true")
    parser.add_argument("--games", default="hearts,snap", help="the games it plays (the others are unsupported)")
    options = parser.parse_args()
    BROKEN.update(options.broken)
    games = {"hearts": Hearts, "snap": Snap}
    games = {name: games[name] for name in options.games.split(",")}
    game = state = None
    for line in sys.stdin:
        request = json.loads(line)
        op = request["op"]
        answer: dict = {}
        try:
            if op == "hello":
                try:
                    if request["game"] not in games:
                        raise ValueError(f"this implementation plays {', '.join(games)}, not {request['game']}")
                    game = games[request["game"]](request["config"])
                    state = game.start()
                    answer = {"protocol": "cardcanon-conform", "version": 1, "implementation": "minimal",
                              "games": list(games), "show": not options.no_show}
                except (KeyError, ValueError) as exc:
                    answer = {"unsupported": str(exc), "games": list(games)}
            elif op == "shuffle":
                answer = {"order": Rng(request["seed"]).shuffled(game.deck)}
            elif op == "deal":
                answer = game.seeded_start(request["seed"])
            elif op == "position":
                new = game.start()
                answer = {"ok": True}
                for number, move in enumerate(request["moves"], start=1):
                    try:
                        new = game.apply(new, move)
                    except Illegal as exc:
                        answer = {"illegal": exc.rule, "at": number}
                        if "refused-prefix" in BROKEN:  # keeps the moves before the refused one
                            state = new
                        break
                else:
                    state = new
            elif op == "legal":
                answer = {"chance": True} if game.is_chance(state) else {"moves": game.legal(state)}
            elif op == "apply":
                try:
                    state = game.apply(state, request["move"])
                    answer = {"ok": True}
                except Illegal as exc:
                    answer = {"illegal": exc.rule}
                except (Invalid, KeyError, TypeError) as exc:
                    answer = {"invalid": str(exc)}
            elif op == "outcome":
                answer = {"outcome": game.outcome(state)}
            elif op == "show" and not options.no_show:
                answer = {"position": game.show(state)}
                if "start" in BROKEN and state == game.start():  # a dealer shown before any is chosen
                    answer["position"]["dealer"] = 0
            elif op == "perft":
                answer = {"nodes": perft(game, state, request["depth"])}
            elif op == "bye":
                answer = {"ok": True}
            else:
                answer = {"error": f"unknown op {op}"}
        except Exception as exc:  # answer, do not die
            answer = {"error": repr(exc)}
        print(json.dumps({"id": request["id"], **answer}), flush=True)
        if op == "bye":
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
