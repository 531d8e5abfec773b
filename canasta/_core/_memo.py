"""A memo bounded by its entries and by what they hold, safe from threads.

``functools.lru_cache`` bounds a memo by its entries only. The planner's sequence plays of a
large samba or brazilian hand are up to ``SEQ_PLAN_LIMIT`` plays an answer, so 512 of them held
tens of MB. A :class:`BoundedMemo` also counts a cost per answer (its plays) and is
emptied when an answer would pass either bound, as the native core's memos are. The answers
are pure functions of their keys: what is kept changes no answer, only the time to find it.
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Generic, NamedTuple, TypeVar

T = TypeVar("T")
_MISSING: Any = object()


class MemoInfo(NamedTuple):
    """What :meth:`BoundedMemo.cache_info` reports (``functools``' fields, and the cost)."""

    hits: int
    misses: int
    maxsize: int
    currsize: int
    cost: int
    maxcost: int


class BoundedMemo(Generic[T]):
    """``function`` memoised on its (hashable, positional) arguments, holding at most
    ``maxsize`` answers whose ``cost`` adds up to at most ``maxcost`` (an answer above it alone
    is kept alone). ``cache_clear`` and ``cache_info`` as ``functools``' caches."""

    def __init__(self, function: Callable[..., T], maxsize: int, maxcost: int,
                 cost: Callable[[T], int]) -> None:
        self.__wrapped__ = function
        self.__doc__ = function.__doc__
        self.maxsize = maxsize
        self.maxcost = maxcost
        self._cost_of = cost
        self._memo: dict[Any, T] = {}
        self._cost = 0
        self._hits = self._misses = 0
        self._lock = threading.Lock()

    def __call__(self, *args: Any) -> T:
        got = self._memo.get(args, _MISSING)  # (one dict lookup: atomic with the GIL)
        if got is not _MISSING:
            self._hits += 1
            return got
        value = self.__wrapped__(*args)
        cost = self._cost_of(value)
        with self._lock:
            self._misses += 1
            if len(self._memo) >= self.maxsize or self._cost + cost > self.maxcost:
                self._memo = {}  # (a new dict: a reader holding the old one still reads it)
                self._cost = 0
            if args not in self._memo:
                self._memo[args] = value
                self._cost += cost
        return value

    def cache_clear(self) -> None:
        """Forget every answer."""
        with self._lock:
            self._memo = {}
            self._cost = 0
            self._hits = self._misses = 0

    def cache_info(self) -> MemoInfo:
        """Hits, misses, the bounds and what is held."""
        return MemoInfo(self._hits, self._misses, self.maxsize, len(self._memo), self._cost, self.maxcost)


def bounded_memo(maxsize: int, maxcost: int, cost: Callable[[Any], int]) -> Callable[[Callable[..., T]], BoundedMemo[T]]:
    """Decorator: :class:`BoundedMemo` of the function with these bounds."""
    def wrap(function: Callable[..., T]) -> BoundedMemo[T]:
        return BoundedMemo(function, maxsize, maxcost, cost)
    return wrap
