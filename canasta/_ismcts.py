"""An information-set Monte Carlo tree search bot (single-observer ISMCTS, determinized).

:class:`ISMCTSBot` follows the :class:`Bot` protocol: it is given its observation and the legal
actions, never the state. See the class for the search.
"""

from __future__ import annotations

import math
import random
import time
from typing import TYPE_CHECKING, Any, Optional, Sequence

from ._actions import Action
from . import _playout
from ._bots import GreedyBot, _check_acts, _seed
from ._core import PH_HAND_OVER
from ._errors import ArgumentError, integer, show
from ._search import _number
from ._state import GameState
from ._fields import Phase

if TYPE_CHECKING:
    from ._observation import Observation
    from ._variant import Variant

__all__ = ["ISMCTSBot"]


class _Node:
    """A node of the tree: the information set reached by a sequence of actions from the root.

    ``visits`` and ``total`` are the statistics of the action that leads here (its value to
    the side that chose it); ``avail`` counts the iterations in which that action was legal
    where it was chosen (ISMCTS's availability count, for the exploration term)."""

    __slots__ = ("children", "visits", "total", "avail", "seen")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        self.seen = 0
        """Descents that made the bot's own decision at this node."""


CONSISTENT_TRIES = 20
"""Samples drawn at most for one determinization that admits every candidate action."""


def _consistent(obs: Observation, rng: random.Random, variant: Variant, know: Any, R: Any,
                cands: list[int], sampler: Any = None) -> Optional[GameState]:
    """A sampled state in which every candidate id is legal, or None after
    :data:`CONSISTENT_TRIES` samples. The legal actions are part of what the player observes:
    some depend on cards he does not know (whether "may I go out?" can be asked before drawing
    depends on the whole pile, whose dealt cards the observation does not record), and a sample
    where one is illegal contradicts his observation. ``sampler``: the same samples dealt
    natively (``_resample.NativeSampler``), where the core is native."""
    from ._resample import MAX_TRIES, _sample

    if sampler is not None:
        status, got = sampler.draw(rng, MAX_TRIES, CONSISTENT_TRIES, cands)
        if status != 2:
            return got
    for _ in range(CONSISTENT_TRIES):
        sample = _sample(obs, rng, variant, None, False, know, R)
        legal = sample.legal_action_ids()
        if all(a in legal for a in cands):
            return sample
    return None


class ISMCTSBot:
    """Plays by information-set Monte Carlo tree search (ISMCTS) over sampled states, within a
    budget of time or iterations per decision.

    It sees only its observation, as every bot does. For each decision with more than one
    legal action it repeats, until the budget is spent: sample a complete state consistent
    with the observation (:func:`sample_state`: its own hand, the table, the pile and the
    cards seen taken from it are kept, the rest is dealt at random: one *determinization*),
    and play every candidate action in it (the legal actions, the greedy policy's choice
    first, at most ``candidates`` of them), each followed by one descent of that action's
    search tree and a rollout.

    The tree is single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): its nodes are
    the bot's information sets, reached by the sequence of actions seen since the decision
    (the same node for every determinization that agrees with them). Going down, the bot's
    own decisions are chosen by UCB1 among the actions legal in this determinization (with
    availability counts: an action's exploration term counts the descents where it was
    legal), one new node is added per descent, and the other seats play the
    :class:`GreedyBot` policy (the tree follows the actions they play); from the new node
    the hand is played out by the greedy policy in every seat. The value of the outcome to
    each side is backed up along the path: with ``objective="score"`` (the default) the side's
    hand score minus the best other side's, in thousands of points; with ``"win"``, +1 for a
    win, -1 for a loss, 0 for a tie (the margin breaking ties).

    All candidates are played on the same determinizations with the same rollout seeds
    (common random numbers), so that they are compared sample by sample: after 4, 8, 16, ...
    samples the candidates clearly worse than the best one so far (by two standard errors of
    the difference) are dropped, and the search stops early when one is left. The bot plays
    the greedy choice unless another candidate beats it, sample by sample, by more than
    ``margin`` standard errors. Answering "may I go out?" is the greedy policy's answer. A
    sample in which a candidate is not legal contradicts what the bot observed and is drawn
    again (an observation does not record the cards dealt face up to the pile, so a sample may
    bury other ones under the discards; asking "may I go out?" before the draw is offered only
    where the player could go out, through a take of the pile too).

    ``time_limit``: seconds per decision (None: none); ``iterations``: the most samples per
    decision (None: none); at least one of them must be set, and at least one sample is
    always played. With only ``iterations`` the bot is deterministic for a given ``seed``.
    ``exploration``: UCB1's constant. ``depth``: the most actions a rollout plays (then the
    points on the table stand in for the hand's score). ``variant``: the variant played, by
    default the one the observations name (see :class:`GreedyBot`). After each decision,
    ``last_stats`` holds each candidate's samples and mean value, and ``last_iterations``
    the samples drawn.

    Raises :class:`ArgumentError` (a ``ValueError``) for a budget that is not positive or
    missing, an unknown objective, or a negative exploration constant or margin.
    """

    def __init__(self, seed: int = 0, time_limit: Optional[float] = 1.0, iterations: Optional[int] = None,
                 exploration: float = 0.7, objective: str = "score", depth: int = 2000, margin: float = 1.0,
                 candidates: int = 24, widening: int = 8, variant: Optional[Variant] = None) -> None:
        if time_limit is not None:
            time_limit = _number(time_limit, "time_limit")
            if not time_limit > 0:
                raise ArgumentError("time_limit", f"must be a positive number of seconds, not {time_limit}")
        if iterations is not None:
            iterations = integer(iterations, "iterations", 1)
        if time_limit is None and iterations is None:
            raise ArgumentError("time_limit", "give a time limit or a number of iterations (both None: no budget)")
        exploration = _number(exploration, "exploration")
        if not exploration >= 0:
            raise ArgumentError("exploration", f"must be 0 or more, not {exploration}")
        if objective not in ("win", "score"):
            raise ArgumentError("objective", f"must be 'win' or 'score', not {show(objective)}")
        margin = _number(margin, "margin")
        if not margin >= 0:
            raise ArgumentError("margin", f"must be 0 or more, not {margin}")
        self.time_limit = time_limit
        """Seconds a decision may take, or ``None`` for no limit."""
        self.iterations = iterations
        """The most samples (determinizations) per decision, or ``None`` for no limit."""
        self.exploration = exploration
        """UCB1's exploration constant in the tree."""
        self.objective = objective
        """What an outcome is worth: ``"score"`` (the hand's score difference) or ``"win"``."""
        self.depth = integer(depth, "depth", 1)
        """The most actions a rollout plays."""
        self.margin = margin
        """By how many standard errors another candidate must beat the greedy choice to be played."""
        self.candidates = integer(candidates, "candidates", 1)
        """The most actions searched per decision (the greedy choice first)."""
        self.widening = integer(widening, "widening", 1)
        """Descents of a node of the tree per action tried there beyond the greedy choice."""
        self.variant = variant
        """The variant played, or ``None`` for the one each observation names."""
        self._guide = GreedyBot(seed, variant)  # (checks the seed and the variant)
        self._policy = GreedyBot(seed, variant)
        self.rng = random.Random(_seed(seed))
        """The bot's random source, seeded with ``seed``."""
        self.last_stats: dict[Action, tuple[int, float]] = {}
        """The previous decision's search: per candidate, its samples and mean value."""
        self.last_iterations = 0
        """The samples the previous decision's search drew (0: it was not searched)."""

    def __repr__(self) -> str:
        return f"ISMCTSBot(time_limit={self.time_limit}, iterations={self.iterations})"

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The action the search found best; always one of ``legal_actions``.

        Raises ``ValueError`` when ``legal_actions`` is empty.
        """
        acts = tuple(_check_acts(legal_actions))
        self.last_stats = {}
        self.last_iterations = 0
        if len(acts) == 1:
            return acts[0]
        seed = self.rng.getrandbits(64)
        if observation.phase is Phase.ANSWER:
            return self._guide.choose(observation, acts)  # yes or no: the greedy answer
        return self._search(observation, acts, random.Random(seed))

    def _search(self, obs: Observation, acts: tuple[Action, ...], rng: random.Random) -> Action:
        from ._actions import space_of
        from ._core import rules_for
        from ._knowledge import knowledge
        from ._resample import sampler_for

        variant = self._guide._variant_of(obs)
        R = rules_for(variant, obs.players)
        space = space_of(R)
        know = knowledge(obs, R)
        sampler = sampler_for(obs, R, know, False, rng)
        me = obs.seat
        side_of = R.side_of
        my_side = side_of[me]
        sides = obs.sides
        policy = self._policy
        guide = space._ids[self._guide.choose(obs, acts)]
        cands = [guide] + [space._ids[a] for a in acts if space._ids[a] != guide]
        cands = cands[: self.candidates]
        roots = {a: _Node() for a in cands}
        native: Optional[_NativeTree] = None
        vals: dict[int, list[float]] = {a: [] for a in cands}
        alive = list(cands)
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        limit = self.iterations
        done = 0
        while len(alive) > 1 or done == 0:
            if limit is not None and done >= limit:
                break
            if deadline is not None and done and time.perf_counter() > deadline:
                break
            sample = _consistent(obs, rng, variant, know, R, alive, sampler)
            if sample is None:
                break  # no sample found that admits every candidate: play on what was seen
            seed = rng.getrandbits(32)
            if native is None and done == 0 and _playout.available(sample) and _NativeTree.supported():
                native = _NativeTree(cands)
            if native is not None:
                native.words = None  # (the generator has drawn since)
            late = False
            for j, a in enumerate(alive):
                if j and done and deadline is not None and time.perf_counter() > deadline:
                    # out of time within a sample (after the first): it is left out whole, so
                    # every candidate keeps the same samples
                    for b in alive[:j]:
                        vals[b].pop()
                    late = True
                    break
                if native is not None:
                    value = native.iterate(self, a, sample.apply(a), me, side_of, sides, seed, rng)
                else:
                    policy.rng.seed(seed)
                    value = self._iterate(roots[a], sample.apply(a), me, my_side, side_of, sides, policy, rng)
                vals[a].append(value)
            if late:
                break
            done += 1
            if done >= 4 and (done & (done - 1)) == 0 and len(alive) > 2:
                alive = self._prune(alive, vals, guide)
        self.last_iterations = done
        return space.actions[self._pick(cands, vals, roots, guide, space)]

    def _prune(self, alive: list[int], vals: dict[int, list[float]], guide: int) -> list[int]:
        """Drop the candidates clearly worse than the best one so far (paired, by more than
        two standard errors of the difference); the greedy choice stays."""
        n = len(vals[alive[0]])
        means = {a: sum(vals[a]) / n for a in alive}
        best = max(alive, key=lambda a: means[a])
        bv = vals[best]
        keep = []
        for a in alive:
            if a == best or a == guide:
                keep.append(a)
                continue
            diffs = [x - y for x, y in zip(bv, vals[a])]
            mean = sum(diffs) / n
            var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
            if mean <= 2.0 * math.sqrt(var / n):
                keep.append(a)
        return keep

    def _pick(self, cands: list[int], vals: dict[int, list[float]], roots: dict[int, _Node], guide: int,
              space: Any) -> int:
        """The greedy choice unless another candidate beats it. The challenger is the candidate
        with the best mean over the even samples, and it must beat the greedy choice over the
        odd ones, sample by sample, by more than ``margin`` standard errors of the difference:
        chosen on some samples and judged on others, so that the best of many noisy means is
        not taken for a real gain (the winner's curse)."""
        gv = vals[guide]
        for a in cands:
            got = vals[a]
            if got:
                self.last_stats[space.actions[a]] = (len(got), sum(got) / len(got))
        best_a, best_mean = -1, -1e300
        for a in cands:
            if a == guide:
                continue
            even = [x - y for x, y in zip(vals[a][0::2], gv[0::2])]
            if len(even) < 1:
                continue
            mean = sum(even) / len(even)
            if mean > best_mean:
                best_a, best_mean = a, mean
        if best_a < 0:
            return guide
        diffs = [x - y for x, y in zip(vals[best_a][1::2], gv[1::2])]
        n = len(diffs)
        if n < 2:
            return guide
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return best_a if mean > 0 and mean > self.margin * math.sqrt(var / n) else guide

    def _iterate(self, node: _Node, st: GameState, me: int, my_side: int, side_of: Any, sides: int,
                 policy: GreedyBot, rng: random.Random) -> float:
        """One descent of the tree below a root action, then a greedy rollout; the value of the
        outcome to each side is added up along the path. Returns the value to the bot's side.

        The other seats play the greedy policy (the tree follows their actions). At its own
        decisions the bot plays the greedy choice until the node has been reached ``widening``
        times; from then on it may try one more action every ``widening`` descents (a new
        node: one per descent at most), and chooses among those tried by UCB1 with
        availability counts (the descents in which the action was legal)."""
        path: list[tuple[_Node, int]] = [(node, my_side)]
        c_explore = self.exploration
        widening = self.widening
        log = math.log
        sqrt = math.sqrt
        expanded = False
        while True:
            c = st._c
            if c.phase >= PH_HAND_OVER:
                break
            ids = st.legal_action_ids()
            if not ids:  # (a sample the turn contradicts: see _resample.playable)
                break
            player = c.player
            if player != me or len(ids) == 1:
                a = ids[0] if len(ids) == 1 else st._id_of(policy._choose_state(st))
                child = node.children.get(a)
                if child is None:
                    child = node.children[a] = _Node()
                st = st.apply(a)
                node = child
                continue
            if expanded:
                break  # from the new node on: the rollout
            node.seen += 1
            kids = node.children
            g = st._id_of(policy._choose_state(st))
            tried = []
            for a in ids:
                k = kids.get(a)
                if k is not None and k.visits:
                    k.avail += 1
                    tried.append(a)
            if g not in tried:
                a = g
            elif len(tried) < len(ids) and len(tried) <= (node.seen - 1) // widening:
                a = rng.choice([b for b in ids if b not in tried])
            else:
                a = g
                best = -1e300
                for b in tried:
                    k = kids[b]
                    u = k.total / k.visits + c_explore * sqrt(log(k.avail) / k.visits)
                    if u > best:
                        best = u
                        a = b
            child = kids.get(a)
            if child is None:
                child = kids[a] = _Node()
            if not child.visits:
                child.avail += 1
                expanded = True
            path.append((child, side_of[player]))
            st = st.apply(a)
            node = child
        values = self._rollout(st, sides, policy, self.objective == "win")
        for child, side in path:
            child.visits += 1
            child.total += values[side]
        return values[my_side]

    def _rollout(self, st: GameState, sides: int, policy: GreedyBot, win: bool) -> list[float]:
        for _ in range(self.depth):
            c = st._c
            if c.phase >= PH_HAND_OVER:
                break
            ids = st.legal_action_ids()
            if not ids:  # (a sample the turn contradicts: see _resample.playable)
                break
            st = st.apply(ids[0] if len(ids) == 1 else policy._choose_state(st))
        return _values(st, sides, win)


def _values(st: GameState, sides: int, win: bool) -> list[float]:
    """The value to each side of the position a rollout reached: the hand's score (or the
    points on the table, where the rollout stopped first) less the best other side's."""
    res = st._c.result  # (the core's result: no HandResult built)
    scores = [0] * sides
    if res is None:
        from ._bots import _info

        info = _info(st.variant)
        scores = [info.table_value(st._c.melds[s], st._c.red[s]) for s in range(sides)]
    else:
        for side, rows in enumerate(res.scores):
            scores[side] = sum(row[2] for row in rows)
    out = []
    for s in range(sides):
        diff = scores[s] - max(scores[o] for o in range(sides) if o != s)
        if win:
            out.append((diff > 0) - (diff < 0) + diff / 10000.0)
        else:
            out.append(diff / 1000.0)
    return out


class _NativeTree:
    """The candidates' trees in the native core (``native/src/ismcts.rs``): each descent,
    its new node and its rollout played there, the same choices with the same draws as
    :meth:`ISMCTSBot._iterate` (the Python path, kept for positions the native core does not
    hold)."""

    __slots__ = ("ext", "tree", "roots", "words")

    def __init__(self, cands: Sequence[int]) -> None:
        from ._core import _backend

        self.ext = _backend._ext
        self.tree = self.ext.ismcts_tree()
        self.roots = {a: self.ext.ismcts_root(self.tree) for a in cands}
        self.words: Optional[tuple[int, ...]] = None
        """The search generator's state as last read or set (None: read it again)."""

    @staticmethod
    def supported() -> bool:
        """Whether the native core built has the search (an older build may not)."""
        from ._core import _backend

        return hasattr(getattr(_backend, "_ext", None), "ismcts_iterate")

    def iterate(self, bot: ISMCTSBot, a: int, st: GameState, me: int, side_of: Sequence[int], sides: int,
                seed: int, rng: random.Random) -> float:
        """:meth:`ISMCTSBot._iterate` below root ``a`` from ``st``, natively; the policy
        seeded with ``seed``, ``rng`` drawn from as there. The value to the bot's side."""
        words = self.words
        if words is None:
            words = self.words = rng.getstate()[1]
        end, state, value = self.ext.ismcts_iterate(self.tree, self.roots[a], st._c, me, tuple(side_of),
                                                    float(bot.exploration), bot.widening, bot.depth,
                                                    _playout.seed_key(seed), words, _playout._planner(st),
                                                    sides, 2 if bot.objective == "win" else 1)
        if state is not None:
            version, _, gauss = rng.getstate()
            rng.setstate((version, state, gauss))
            self.words = state
        if value is not None:  # a finished hand, valued and backed up natively as _values does
            return float(value)
        values = _values(GameState(end), sides, bot.objective == "win")
        self.ext.ismcts_backup(self.tree, tuple(values))
        return values[side_of[me]]
