"""A small seeded generator, the same on every machine and Python version."""

from __future__ import annotations

import hashlib
from typing import Any

_MASK = (1 << 64) - 1


class Rng:
    """splitmix64 seeded from SHA-256 of ``(seed, purpose)``; shuffles by Fisher-Yates."""

    __slots__ = ("_state",)

    def __init__(self, seed: int, purpose: str = "") -> None:
        digest = hashlib.sha256(f"canasta:{seed}:{purpose}".encode()).digest()
        self._state = int.from_bytes(digest[:8], "little")

    def next64(self) -> int:
        """The next 64-bit value."""
        self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def random(self) -> float:
        """A float in [0, 1)."""
        return (self.next64() >> 11) / float(1 << 53)

    def shuffle(self, items: list[Any]) -> None:
        """Shuffle ``items`` in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
