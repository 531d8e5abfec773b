"""A search bot: determinization and flat Monte Carlo rollouts, within a budget per move.

:class:`SearchBot` follows the :class:`Bot` protocol: it is given its observation and the
legal actions, never the state. For each decision it samples complete states consistent with
the observation (:func:`sample_state`), tries every candidate action in each sample, plays
the hand out with a fast greedy policy for every seat, and plays the action whose rollouts
scored best on average. All candidates are tried on the same samples with the same rollout
seeds (common random numbers), so their averages differ by the action, not by luck.
"""

from __future__ import annotations

import math
import numbers
import random
import time
from typing import TYPE_CHECKING, Optional, Sequence

from . import _playout
from ._actions import Action, Discard
from ._bots import GreedyBot, _bot_seed, _check_acts, _reseed_from
from ._errors import ArgumentError, integer, show
from ._state import GameState
from ._fields import Phase

if TYPE_CHECKING:
    from ._core import Rules
    from ._observation import Observation
    from ._knowledge import Knowledge
    from ._variant import Variant

__all__ = ["SearchBot"]


class SearchBot:
    """Plays by flat Monte Carlo search over sampled states (determinization).

    It searches the decisions that shape a turn: the draw phase (draw, take the pile, pass)
    and the discard. There it repeats, until the budget is spent: sample a state consistent
    with its observation (:func:`sample_state`: its own hand, the table, the pile and the
    cards seen taken from it are kept; the rest is dealt at random), then for every
    candidate action (every legal action: other discards, going on melding instead), apply
    it and play the hand to its end with the :class:`GreedyBot` policy in every seat, with
    the same seeds for every candidate. An action's value in a rollout is the outcome of the
    hand for the bot's side: with ``objective="score"`` (the default) its hand score minus the
    best other side's; with ``objective="win"`` +1 for a higher hand score than every other
    side, -1 for a lower one, 0 for a tie (the margin breaks ties). It plays the greedy policy's own choice
    unless another candidate beats it, rollout by rollout, by more than ``margin`` standard
    errors of that difference. Other decisions (which meld to lay, asking and answering "may
    I go out?") are the greedy policy's.

    ``rollouts``: samples per searched decision (each plays one rollout per candidate);
    ``time_limit``: seconds per decision (None: no limit). With only a rollout budget the
    bot is deterministic for a given ``seed``; a time limit makes the number of samples
    depend on the machine. At least one sample is always played. ``depth``: the most actions
    a rollout plays (then the points on the table stand in for the hand's score);
    ``candidates``: the most actions tried per decision (the greedy choice first, then the
    other legal actions in order); ``variant``: the variant played, by default the one the
    observations name (see :class:`GreedyBot`). ``last_values`` holds the last search's mean
    value and rollout count per candidate.

    ``positional=True``: each decision's randomness (its samples, rollouts and the greedy
    guide's tie-breaks) comes from ``seed`` and the position, so a bot made again after a
    restart plays on exactly (see :class:`RandomBot`; with a rollout budget, not a time limit).

    Raises ``ValueError`` for a budget below 1, a time limit that is not positive, an unknown
    objective or a negative margin.
    """

    def __init__(self, seed: Optional[int] = 0, rollouts: int = 32, time_limit: Optional[float] = None,
                 depth: int = 2000, candidates: int = 24, objective: str = "score", margin: float = 1.0,
                 variant: Optional[Variant] = None, positional: bool = False) -> None:
        rollouts = integer(rollouts, "rollouts", 1)
        if time_limit is not None:
            time_limit = _number(time_limit, "time_limit")
            if not time_limit > 0:
                raise ArgumentError("time_limit", f"must be a positive number of seconds, not {time_limit}")
        depth = integer(depth, "depth", 1)
        candidates = integer(candidates, "candidates", 1)
        if objective not in ("win", "score"):
            raise ArgumentError("objective", f"must be 'win' or 'score', not {show(objective)}")
        margin = _number(margin, "margin")
        self.objective = objective
        """What a rollout is worth: ``"score"``, the side's hand score minus the best other side's, or ``"win"``: +1, -1 or 0."""
        if not margin >= 0:
            raise ArgumentError("margin", f"must be 0 or more, not {margin}")
        self.margin = margin
        """By how many standard errors another candidate must beat the greedy choice to be played."""
        self.seed: Optional[int] = _bot_seed(seed, positional)
        """The bot's seed (None: fresh entropy, for a bot that is not positional)."""
        self.positional = positional
        """Whether each decision's randomness is drawn from the seed and the position."""
        self._guide = GreedyBot(self.seed, variant, positional=positional)  # (checks the seed and the variant)
        self.rng = random.Random(self.seed)
        """The bot's random source, seeded with ``seed``."""
        self.rollouts = rollouts
        """Samples per searched decision (each plays one rollout per candidate)."""
        self.time_limit = time_limit
        """Seconds a decision may take, or ``None`` for no limit."""
        self.depth = depth
        """The most actions a rollout plays (then the points on the table stand in for the hand's score)."""
        self.candidates = candidates
        """The most actions tried per decision (the greedy choice first)."""
        self.variant = variant
        """The variant played, or ``None`` for the one each observation names."""
        self.last_values: dict[Action, tuple[float, int]] = {}
        """The previous decision's search: per candidate, its mean value and rollouts."""

    def __repr__(self) -> str:
        return f"SearchBot(rollouts={self.rollouts}, time_limit={self.time_limit})"

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The action whose rollouts scored best; always one of ``legal_actions``.

        Raises ``ValueError`` when ``legal_actions`` is empty.
        """
        acts = tuple(_check_acts(legal_actions))
        self.last_values = {}
        if len(acts) == 1:
            return acts[0]
        if self.positional:
            _reseed_from(self, observation)
        seed = self.rng.getrandbits(64)
        guide = self._guide.choose(observation, acts)
        ph = observation.phase
        if ph is Phase.ANSWER:
            return guide  # yes or no: the greedy answer
        if ph is not Phase.DRAW and not isinstance(guide, Discard):
            # melding, asking, retracting: the greedy policy's choice; the turn's decision is
            # searched where it is made, at the discard (or going on melding instead)
            return guide
        cands = [guide] + [a for a in acts if a != guide]
        cands = cands[: self.candidates]
        return self._search(observation, cands, random.Random(seed))

    def _search(self, obs: Observation, cands: list[Action], rng: random.Random) -> Action:
        from ._core import rules_for
        from ._resample import _sample
        from ._knowledge import knowledge

        variant = self._guide._variant_of(obs)
        R: Rules = rules_for(variant, obs.players)
        know: Knowledge = knowledge(obs, R)
        side = obs.side
        sides = obs.sides
        n = len(cands)
        values: list[list[Optional[float]]] = [[] for _ in range(n)]
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        done = 0
        while done < self.rollouts:
            if deadline is not None and done and time.perf_counter() > deadline:
                break
            sample = _sample(obs, rng, variant, None, False, know, R)
            roll_seed = rng.getrandbits(32)
            for j, a in enumerate(cands):
                if not sample.is_legal(a):
                    # the sample differs in a card the observation does not show
                    values[j].append(None)
                    continue
                values[j].append(self._rollout(sample.apply(a), side, sides, roll_seed))
            done += 1
        # each candidate against the greedy choice (candidate 0), sample by sample: play the
        # best only when its advantage is clear of the noise
        best = 0
        best_gain = 0.0
        for j in range(n):
            got = [x for x in values[j] if x is not None]
            if got:
                self.last_values[cands[j]] = (sum(got) / len(got), len(got))
            if j == 0:
                continue
            diffs = [x - y for x, y in zip(values[j], values[0]) if x is not None and y is not None]
            if not diffs:
                continue
            k = len(diffs)
            mean = sum(diffs) / k
            var = sum((d - mean) ** 2 for d in diffs) / (k - 1) if k > 1 else 0.0
            se = math.sqrt(var / k)
            if mean > self.margin * se and mean > best_gain:
                best, best_gain = j, mean
        return cands[best]

    def _rollout(self, st: GameState, side: int, sides: int, seed: int) -> float:
        """The hand played out by the greedy policy: this side's score minus the best other's."""
        if _playout.available(st):
            st = _playout.greedy_rollout(st, seed, self.depth)  # the same play, in the native core
        else:
            policy = GreedyBot(seed, st.variant)
            for _ in range(self.depth):
                if st.is_hand_over:
                    break
                st = st.apply(policy._choose_state(st))
        res = st.result
        if res is None:
            from ._bots import _info

            info = _info(st.variant)
            scores = [info.table_value(st._c.melds[s], st._c.red[s]) for s in range(sides)]
        else:
            scores = [0] * sides
            for sc in res.scores:
                scores[sc.side] = sc.total
        diff = scores[side] - max(scores[s] for s in range(sides) if s != side)
        if self.objective == "score":
            return float(diff)
        # win the hand: +1 a win, -1 a loss, 0 a tie; the margin only breaks ties
        return (diff > 0) - (diff < 0) + diff / 100000.0




def _number(value: object, argument: str) -> float:
    """``value`` as a finite ``float`` (any real number but ``bool``), else :class:`ArgumentError`."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(float(value)):
        raise ArgumentError(argument, f"expected a finite number, not {show(value)}")
    return float(value)
