"""The variant schema: every rule difference between the sources is a setting here.

A variant is a tree of frozen attrs classes grouped by topic. It is read from TOML with
cattrs (unknown keys are errors), may ``extends`` another variant, and is checked for
contradictions when it is loaded, never in play.
"""

from __future__ import annotations

import difflib
import importlib.resources
import tomllib
from pathlib import Path
from typing import Any, Literal

import attrs
import cattrs
from attrs import field, frozen

WildClass = Literal["wild", "red_three", "black_three"]
TakeWay = Literal["natural_pair", "natural_and_wild", "add_to_meld"]


@frozen
class Table:
    """How a given number of players sit and are dealt.

    ``sides`` gives each seat's side as a letter, in seat (clockwise) order: ``"ABAB"`` is
    two partnerships sitting opposite, ``"AB"`` two players each for himself.
    """

    sides: str
    hand_size: int = 11
    down_hand_size: int = 0
    draw: int = 1
    active: int = 0
    """Seats playing each deal; 0 means all. With fewer, the largest side sits one out, rotating."""


@frozen
class Deck:
    """The cards: ``packs + packs_per_player * players`` packs of 52 plus their jokers."""

    packs: int = 2
    packs_per_player: int = 0
    jokers_per_pack: int = 2


@frozen
class Deal:
    """Who deals first and deal extras."""

    first_dealer: Literal["right_of_first_player", "random"] = "right_of_first_player"
    score_keeper: bool = False
    """One seat (the last) keeps score: it never deals and never plays first."""
    precise_draw_bonus: int = 0
    """Bonus to a dealer who draws exactly the cards the deal needs (new-canasta)."""
    precise_draw_probability: float = 0.0
    """In simulations, the chance each dealer earns ``precise_draw_bonus``."""


@frozen
class Upcard:
    """The first card turned from the stock to start the pile."""

    cover: tuple[WildClass, ...] = ("red_three", "wild")
    """Upcards of these classes are covered by another card from the stock."""
    repeat: bool = True
    """Keep covering until an uncovered class shows; otherwise cover once only."""
    freezes: tuple[WildClass, ...] = ("red_three", "wild")
    """Upcards of these classes freeze the pile."""


@frozen
class RedThrees:
    """Red threes: bonus cards faced and replaced, or (new-canasta) kept in hand."""

    handling: Literal["bonus", "keep"] = "bonus"
    dealt: Literal["first_turn", "at_deal"] = "first_turn"
    """When dealt red threes are faced and replaced."""
    bonus: tuple[int, ...] = (0, 100, 200, 300, 800)
    """Bonus by the number a side holds (index = count)."""
    minus_without_meld: bool = True
    """A side with no meld has its red-three bonus deducted instead."""
    in_hand_penalty: int = 0
    """(keep) Points lost for each red three caught in hand."""
    canasta_bonus: int = 0
    """(keep) Value of a natural canasta topped with a red three, instead of the natural bonus."""


@frozen
class Melds:
    """What a meld may contain."""

    min_size: int = 3
    min_naturals: int = 2
    max_wild: int = 3
    wild_ratio: Literal["any", "at_most_naturals", "fewer_than_naturals"] = "any"
    unlimited_wild_on_canasta: bool = False
    """Any number of wild cards may be added to a completed canasta."""
    canasta_size: int = 7
    canasta_min_naturals: int = 0
    canasta_closed: bool = False
    """A canasta is exactly ``canasta_size`` cards and takes no more."""
    multiple_per_rank: bool = False
    """A side may hold two melds of one rank."""
    combine: bool = False
    """A side may combine two of its melds of one rank."""
    wild_melds: bool = False
    """A meld of wild cards only is allowed."""
    initial_may_be_canasta: bool = True
    """In the turn of a side's initial meld, a meld may reach canasta size."""


@frozen
class BlackThrees:
    """Black threes: melded only when going out."""

    meld: Literal["never", "going_out_turn", "last_meld"] = "going_out_turn"
    min: int = 3
    max: int = 4
    canasta_bonus: int = 0
    """Bonus for a canasta of black threes (where ``min`` reaches canasta size)."""


@frozen
class Step:
    """From a cumulative score (inclusive), the initial meld needs ``need``."""

    from_score: int = field(alias="from")
    need: int


@frozen
class InitialMeld:
    """The minimum count of a side's first meld, by its cumulative score."""

    below_zero: int = 15
    steps: tuple[Step, ...] = (Step(0, 50), Step(1500, 90), Step(3000, 120))
    initial_count_includes_pile: Literal["top_card"] = "top_card"


@frozen
class Pile:
    """Freezing, blocking and taking the discard pile."""

    frozen_until_initial_meld: bool = True
    freeze_on_discard: tuple[WildClass, ...] = ("wild",)
    blocked_by: tuple[WildClass, ...] = ("wild", "black_three")
    take_unfrozen: tuple[TakeWay, ...] = ("natural_pair", "natural_and_wild", "add_to_meld")
    take_frozen: tuple[TakeWay, ...] = ("natural_pair",)
    pair_melded: bool = True
    """The cards that entitle the take are melded with the top card (else only shown)."""
    one_card_hand_one_card_pile: Literal["allowed", "unless_forced", "forbidden"] = "allowed"
    consecutive_takes: bool = True
    failed_initial_take: Literal["forbidden", "undo"] = "forbidden"
    """A take for the initial meld that cannot reach the minimum: never offered, or undone."""


@frozen
class Concealed:
    """Going out concealed: a whole hand melded in one turn."""

    basis: Literal["player", "side"] = "player"
    """No earlier meld by this player this hand, or none by the side."""
    no_partner_melds: bool = True
    """He may not add to his partner's melds in that turn."""
    own_canasta: bool = True
    """He must meld a complete canasta himself."""
    minimum: Literal["waived", "waived_if_stock", "required"] = "waived"
    """Whether the initial-meld minimum applies to a concealed going out."""
    bonus: int = 100
    """Extra to the going-out bonus."""


@frozen
class GoingOut:
    """Going out and asking permission."""

    canastas: int = 1
    bonus: int = 100
    permission: bool = True
    """A player may ask a partner "may I go out?"; the answer binds."""
    ask_after_take: bool = False
    concealed: Concealed = Concealed()


@frozen
class StockExhausted:
    """What happens when the stock runs out."""

    mode: Literal["forcing", "last_round"] = "forcing"
    must_take: Literal["add_to_meld", "any_legal", "never"] = "add_to_meld"
    last_red_three: Literal["meld_then_end", "end"] = "meld_then_end"


@frozen
class CardValues:
    """Point value of each card kind, melded (plus) or left in hand (minus)."""

    joker: int = 50
    two: int = 20
    ace: int = 20
    king: int = 10
    queen: int = 10
    jack: int = 10
    ten: int = 10
    nine: int = 10
    eight: int = 10
    seven: int = 5
    six: int = 5
    five: int = 5
    four: int = 5
    black_three: int = 5


@frozen
class Scoring:
    """Bonuses and card values."""

    card_values: CardValues = CardValues()
    natural_canasta: int = 500
    mixed_canasta: int = 300
    wild_canasta: int = 300


@frozen
class Game:
    """When the game ends."""

    target: int = 5000


@frozen
class Variant:
    """A complete, resolved set of rules."""

    name: str
    description: str = ""
    source: str = ""
    tables: dict[str, Table] = field(factory=lambda: {"4": Table(sides="ABAB")})
    default_players: int = 4
    deck: Deck = Deck()
    deal: Deal = Deal()
    upcard: Upcard = Upcard()
    red_threes: RedThrees = RedThrees()
    melds: Melds = Melds()
    black_threes: BlackThrees = BlackThrees()
    initial_meld: InitialMeld = InitialMeld()
    pile: Pile = Pile()
    going_out: GoingOut = GoingOut()
    stock_exhausted: StockExhausted = StockExhausted()
    scoring: Scoring = Scoring()
    game: Game = Game()

    def table(self, players: int) -> Table:
        """The table for ``players`` players, or a :class:`VariantError` if not allowed."""
        t = self.tables.get(str(players))
        if t is None:
            allowed = ", ".join(sorted(self.tables, key=int))
            raise VariantError(
                [Problem(self.name, "tables", f"{players} players is not allowed; allowed: {allowed}")]
            )
        return t

    def initial_need(self, score: int) -> int:
        """The initial-meld minimum for a side with cumulative ``score``."""
        if score < 0:
            return self.initial_meld.below_zero
        need = 0
        for step in self.initial_meld.steps:
            if score >= step.from_score:
                need = step.need
        return need


@frozen
class Problem:
    """One problem in a variant file: where, which key, what is wrong and what is allowed."""

    file: str
    key: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.key}: {self.message}"


class VariantError(ValueError):
    """A variant could not be loaded; ``problems`` lists every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        super().__init__("\n".join(str(p) for p in problems))


# ---------------------------------------------------------------- loading

_converter = cattrs.Converter(forbid_extra_keys=True)
_converter.register_structure_hook(
    Step, lambda d, _: Step(_want_int(d, "from"), _want_int(d, "need"))
)
_converter.register_unstructure_hook(Step, lambda s: {"from": s.from_score, "need": s.need})


def _want_int(d: Any, key: str) -> int:
    if not isinstance(d, dict):
        raise ValueError("expected a table like {from = 0, need = 50}")
    extra = set(d) - {"from", "need"}
    if extra:
        raise cattrs.ForbiddenExtraKeysError("", Step, extra)
    if key not in d:
        raise KeyError(key)
    v = d[key]
    if not isinstance(v, int) or isinstance(v, bool):
        raise ValueError(f"{key} must be an integer, not {v!r}")
    return v


def _variants_dir() -> Path:
    bundled = importlib.resources.files("canasta") / "_variants"
    if bundled.is_dir():
        return Path(str(bundled))
    return Path(__file__).resolve().parent.parent / "variants"


def variant_names() -> tuple[str, ...]:
    """The names of the bundled variants, sorted."""
    return tuple(sorted(p.stem for p in _variants_dir().glob("*.toml")))


def _closest(word: str, options: list[str] | tuple[str, ...]) -> str:
    found = difflib.get_close_matches(word, list(options), n=1, cutoff=0.5)
    return f" (did you mean {found[0]!r}?)" if found else ""


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict) and k != "tables":
            out[k] = _merge(out[k], v)
        elif isinstance(v, dict) and k == "tables" and isinstance(out.get(k), dict):
            tables = dict(out[k])
            tables.update(v)
            out[k] = tables
        else:
            out[k] = v
    return out


def _read_raw(source: str, seen: tuple[str, ...] = ()) -> tuple[dict[str, Any], str]:
    """The merged raw TOML of a variant (after following ``extends``) and its file label."""
    path = Path(source)
    if source.endswith(".toml") or path.exists():
        label = str(path)
        if not path.is_file():
            raise VariantError([Problem(label, "(file)", "no such file")])
    else:
        names = variant_names()
        if source not in names:
            raise VariantError(
                [Problem(source, "(name)", f"unknown variant{_closest(source, names)}; "
                         f"bundled: {', '.join(names)}")]
            )
        path = _variants_dir() / f"{source}.toml"
        label = f"{source}.toml"
    if label in seen:
        raise VariantError([Problem(label, "extends", "extends itself in a loop: " + " -> ".join(seen + (label,)))])
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise VariantError([Problem(label, "(syntax)", str(e))]) from None
    parent = raw.pop("extends", None)
    if parent is not None:
        if not isinstance(parent, str):
            raise VariantError([Problem(label, "extends", "must be a variant name or a file path")])
        if not parent.endswith(".toml") or Path(parent).is_absolute():
            base_ref = parent
        else:
            base_ref = str(path.parent / parent)
        base, _ = _read_raw(base_ref, seen + (label,))
        if "name" not in raw:
            raw["name"] = path.stem
        raw = _merge(base, raw)
    return raw, label


def _flatten(exc: BaseException, path: str = "") -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if isinstance(exc, cattrs.ForbiddenExtraKeysError):
        for k in sorted(exc.extra_fields):
            cls = exc.cl
            allowed = [a.alias or a.name for a in attrs.fields(cls)] if attrs.has(cls) else []
            where = f"{path}.{k}" if path else k
            out.append((where, f"unknown key{_closest(k, allowed)}; allowed here: {', '.join(allowed)}"))
        return out
    if isinstance(exc, (cattrs.ClassValidationError, cattrs.IterableValidationError, ExceptionGroup)):
        notes = getattr(exc, "exceptions", ())
        for sub in notes:
            sub_notes = [n for n in getattr(sub, "__notes__", []) if isinstance(n, str)]
            key = ""
            for n in sub_notes:
                if n.startswith("Structuring class") and "@ attribute" in n:
                    key = n.split("@ attribute ")[1].strip()
                elif "@ index" in n:
                    key = n.split("@ index ")[1].strip()
            sub_path = path
            if key:
                sub_path = f"{path}.{key}" if path else key
            out.extend(_flatten(sub, sub_path))
        return out
    if isinstance(exc, KeyError):
        key = str(exc.args[0]) if exc.args else "?"
        where = f"{path}.{key}" if path and not path.endswith(key) else (path or key)
        return [(where, "required key is missing")]
    return [(path or "(root)", _plain(exc))]


def _plain(exc: BaseException) -> str:
    text = str(exc)
    if isinstance(exc, TypeError) and "argument" in text:
        return "wrong type or missing value"
    if "Literal" in text or "not in literal" in text:
        return text
    return text or type(exc).__name__


def _hook_literal_errors() -> None:
    """Say which values a Literal setting allows."""


def load_variant(source: str) -> Variant:
    """Load a bundled variant by name (``"bicycle"``) or a TOML file by path.

    A file may say ``extends = "NAME"`` (or a path) and override only what differs.
    Every problem found is reported at once in a :class:`VariantError`.
    """
    raw, label = _read_raw(source)
    raw.setdefault("name", Path(label).stem)
    try:
        variant = _converter.structure(raw, Variant)
    except Exception as e:  # noqa: BLE001 - flattened below into key.path messages
        problems = [Problem(label, k, m) for k, m in _flatten(e)]
        raise VariantError(problems or [Problem(label, "(root)", str(e))]) from None
    problems = check_variant(variant, label)
    if problems:
        raise VariantError(problems)
    return variant


def variant_to_dict(variant: Variant) -> dict[str, Any]:
    """The fully resolved settings as plain data (TOML-ready)."""
    return _converter.unstructure(variant)  # type: ignore[no-any-return]


def variant_from_dict(data: dict[str, Any], label: str = "(data)") -> Variant:
    """A variant from plain data such as :func:`variant_to_dict` gives, fully checked."""
    try:
        variant = _converter.structure(dict(data), Variant)
    except Exception as e:  # noqa: BLE001
        raise VariantError([Problem(label, k, m) for k, m in _flatten(e)] or [Problem(label, "(root)", str(e))]) from None
    problems = check_variant(variant, label)
    if problems:
        raise VariantError(problems)
    return variant


def check_variant(v: Variant, label: str) -> list[Problem]:
    """Contradictions between settings, found at load time."""
    p: list[Problem] = []

    def bad(key: str, msg: str) -> None:
        p.append(Problem(label, key, msg))

    m = v.melds
    if m.min_size < 3:
        bad("melds.min_size", f"is {m.min_size}; a meld needs at least 3 cards")
    if m.min_naturals < 1 or m.min_naturals > m.min_size:
        bad("melds.min_naturals", f"is {m.min_naturals}; must be 1 to melds.min_size ({m.min_size})")
    if m.max_wild < 0:
        bad("melds.max_wild", f"is {m.max_wild}; must be 0 or more")
    if m.canasta_size < m.min_size:
        bad("melds.canasta_size", f"is {m.canasta_size}, smaller than melds.min_size ({m.min_size}); "
            "a canasta must be at least a meld")
    if m.canasta_min_naturals > m.canasta_size:
        bad("melds.canasta_min_naturals", f"is {m.canasta_min_naturals}, more than melds.canasta_size")
    if m.combine and not m.multiple_per_rank:
        bad("melds.combine", "needs melds.multiple_per_rank = true (there is nothing to combine)")
    b = v.black_threes
    if b.min < 3 or b.max < b.min:
        bad("black_threes", f"min {b.min} and max {b.max}: need 3 <= min <= max")
    if m.canasta_closed and b.max > m.canasta_size:
        bad("black_threes.max", "is larger than a closed canasta")
    im = v.initial_meld
    if im.below_zero < 0:
        bad("initial_meld.below_zero", "must be 0 or more")
    last_from, last_need = None, -1
    for i, s in enumerate(im.steps):
        if s.need < 0:
            bad(f"initial_meld.steps.{i}.need", "must be 0 or more")
        if last_from is not None and s.from_score <= last_from:
            bad(f"initial_meld.steps.{i}.from", f"{s.from_score} is not above the previous step's {last_from}: "
                "list the steps in increasing score order")
        if s.need < last_need:
            bad(f"initial_meld.steps.{i}.need", f"{s.need} is less than the previous step's {last_need}: "
                "the minimum must not fall as the score rises")
        last_from, last_need = s.from_score, s.need
    if im.steps and im.steps[0].from_score != 0:
        bad("initial_meld.steps.0.from", "must be 0 (below_zero covers negative scores)")
    if v.deck.packs < 0 or v.deck.packs_per_player < 0 or v.deck.jokers_per_pack < 0:
        bad("deck", "packs and jokers must not be negative")
    if not v.tables:
        bad("tables", "no table: list at least one player count")
    for key, t in v.tables.items():
        where = f"tables.{key}"
        if not key.isdigit():
            bad(where, "the key must be a player count such as \"4\"")
            continue
        n = int(key)
        if len(t.sides) != n:
            bad(f"{where}.sides", f"has {len(t.sides)} seats for {n} players")
        if t.draw < 1:
            bad(f"{where}.draw", "must be at least 1")
        if t.hand_size < 1 or t.down_hand_size < 0:
            bad(f"{where}.hand_size", "must be at least 1 (down_hand_size 0 or more)")
        active = t.active or n
        if active > n or active < 2:
            bad(f"{where}.active", f"is {t.active}; must be 0 (all) or 2 to {n}")
        packs = v.deck.packs + v.deck.packs_per_player * n
        deck = packs * (52 + v.deck.jokers_per_pack)
        need = active * (t.hand_size + t.down_hand_size) + 2
        if deck < need:
            bad(where, f"the deck has {deck} cards, too few to deal {active} hands of "
                f"{t.hand_size + t.down_hand_size} and start a pile and stock")
    if str(v.default_players) not in v.tables:
        bad("default_players", f"{v.default_players} has no table")
    if len(v.red_threes.bonus) < 1 or any(x < 0 for x in v.red_threes.bonus):
        bad("red_threes.bonus", "must list a non-negative bonus for 0, 1, 2, ... red threes")
    if v.going_out.canastas < 0:
        bad("going_out.canastas", "must be 0 or more")
    if v.game.target <= 0:
        bad("game.target", "must be positive")
    if not 0.0 <= v.deal.precise_draw_probability <= 1.0:
        bad("deal.precise_draw_probability", "must be between 0 and 1")
    if v.pile.take_frozen and not set(v.pile.take_frozen) <= set(v.pile.take_unfrozen):
        bad("pile.take_frozen", "allows a way to take a frozen pile that the unfrozen pile does not")
    return p
