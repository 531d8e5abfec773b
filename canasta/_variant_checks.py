"""The checks of a loaded variant as a whole: settings that cannot work together (a closed
canasta that takes unlimited wild cards, a step of the initial meld asking for a canasta the
melds forbid, ...) and values out of their bounds, each a :class:`Problem` naming its key.

Built on ``_variant``, ``_variant_scoring`` and ``_variant_terms``; built upon by
``_variant_load`` (which runs :func:`check_variant` on every variant it reads) and ``_state``
(on a :class:`Variant` built in code).
"""

from __future__ import annotations

from typing import Any

import attrs

from ._variant import Problem, Step, Variant, _key
from ._variant_scoring import CardValues, Penalties, Scoring
from ._variant_terms import MAX_PACKS, RANK_OF, _bounds_text, _number, _table_key_problem, is_player_count


def _out_of_bounds(obj: Any, cls: type, path: str) -> list[tuple[str, str]]:
    """``(key.path, message)`` for every numeric setting of a structured ``obj`` outside the
    bounds in its field's metadata (also in the tables and the items of lists)."""
    out: list[tuple[str, str]] = []
    for a in attrs.fields(cls):
        value = getattr(obj, a.name)
        key = f"{path}{_key(a)}"
        if attrs.has(type(value)):
            out += _out_of_bounds(value, type(value), key + ".")
        elif isinstance(value, dict):
            for k, t in value.items():
                if attrs.has(type(t)):
                    out += _out_of_bounds(t, type(t), f"{key}.{k}.")
        elif isinstance(value, tuple):
            if "items" in a.metadata and len(value) > a.metadata["items"]:
                out.append((key, f"lists {len(value)} items; at most {a.metadata['items']} are allowed"))
            for i, item in enumerate(value):
                if attrs.has(type(item)):
                    out += _out_of_bounds(item, type(item), f"{key}.{i}.")
                elif "range" in a.metadata and not a.metadata["range"][0] <= item <= a.metadata["range"][1]:
                    out.append((f"{key}.{i}", f"is {_number(item)}; {_bounds_text(a.metadata, item)}"))
        elif "range" in a.metadata and isinstance(value, (int, float)) and \
                not a.metadata["range"][0] <= value <= a.metadata["range"][1]:
            out.append((key, f"is {_number(value)}; {_bounds_text(a.metadata, value)}"))
    return out


def check_variant(v: Variant, label: str) -> list[Problem]:
    """Contradictions between settings, and values out of range, found at load time.

    Each problem names the dotted key at fault, what is wrong and what would be allowed.
    """
    bounds = [Problem(label, k, m) for k, m in _out_of_bounds(v, Variant, "")]
    p: list[Problem] = []

    def bad(key: str, msg: str) -> None:
        p.append(Problem(label, key, msg))

    def at_least(key: str, value: int, low: int = 0) -> None:
        if value < low:
            bad(key, f"is {value}; must be {low} or more")

    # ---- the table, the deck and the deal
    if not v.tables:
        bad("tables", "no table: give at least one player count, such as [tables.4] sides = \"ABAB\"")
    for n_key in ("packs", "packs_per_player", "jokers_per_pack"):
        at_least(f"deck.{n_key}", getattr(v.deck, n_key))
    largest_packs = 0
    for key, t in v.tables.items():
        where = f"tables.{key}"
        if not is_player_count(key):
            bad(where, _table_key_problem(key))
            continue
        n = int(key)
        if len(t.sides) != n or not t.sides.isalpha() or not t.sides.isupper():
            bad(f"{where}.sides", f"is {t.sides!r}; must give each of the {n} seats a side as a capital "
                "letter, in seat order (\"ABAB\" is two partnerships sitting opposite)")
        elif len(set(t.sides)) < 2:
            bad(f"{where}.sides", f"is {t.sides!r}; needs at least two sides")
        at_least(f"{where}.hand_size", t.hand_size, 1)
        at_least(f"{where}.down_hand_size", t.down_hand_size)
        at_least(f"{where}.draw", t.draw, 1)
        active = t.active or n
        if t.active < 0 or active > n or active < 2:
            bad(f"{where}.active", f"is {t.active}; must be 0 (all seats play) or 2 to {n}")
            active = n
        packs = v.deck.packs + v.deck.packs_per_player * n
        largest_packs = max(largest_packs, packs)
        if packs > MAX_PACKS:
            bad("deck", f"gives {packs} packs at the table of {n} (deck.packs + deck.packs_per_player x {n}); "
                f"at most {MAX_PACKS} are allowed")
            continue
        deck = packs * (52 + v.deck.jokers_per_pack)
        dealt = t.hand_size + t.down_hand_size
        need = active * dealt + 2
        if deck < need:
            bad(where, f"the deck has {deck} cards, too few to deal {active} hands of {dealt} cards "
                f"and start a pile and a stock (at least {need}); raise deck.packs or lower "
                f"{where}.hand_size")
    if str(v.default_players) not in v.tables:
        allowed = ", ".join(sorted((k for k in v.tables if is_player_count(k)), key=int))
        bad("default_players", f"is {v.default_players}, which has no table; tables exist for: {allowed}")
    at_least("deal.precise_draw_bonus", v.deal.precise_draw_bonus)
    if not 0.0 <= v.deal.precise_draw_probability <= 1.0:
        bad("deal.precise_draw_probability", f"is {v.deal.precise_draw_probability}; must be between 0 and 1")

    if v.deal.talon_set_aside and not any(v.deal.talon):
        bad("deal.talon_set_aside", "applies only with deal.talon (the packets' sizes)")
    if v.deal.talon_when != "after_discard":
        if not any(v.deal.talon):
            bad("deal.talon_when", "applies only with deal.talon (the cards the side's opener draws)")
        elif v.deal.talon_set_aside:
            bad("deal.talon_when", f"is {v.deal.talon_when!r}, which contradicts deal.talon_set_aside = true "
                "(a packet set aside at the deal is taken after the discard)")
    if v.deal.talon_after_pile:
        if not any(v.deal.talon):
            bad("deal.talon_after_pile", "applies only with deal.talon (the cards the side's opener draws)")
        elif v.deal.talon_set_aside:
            bad("deal.talon_after_pile", "is redundant with deal.talon_set_aside = true (a packet set aside "
                "is taken however the side melded): leave one of them out")
    if v.pile.blocked_scope == "upcard":
        if not any(x in RANK_OF for x in v.pile.blocked_by):
            bad("pile.blocked_scope", "is 'upcard', which applies only where pile.blocked_by lists a natural "
                "rank (wild cards and threes on top are never taken anyway)")
        elif not v.upcard.turned:
            bad("pile.blocked_scope", "is 'upcard', but upcard.turned = false: no card is turned to start "
                "the pile")
    if v.going_out.red_threes_per_canasta and v.red_threes.handling != "bonus":
        bad("going_out.red_threes_per_canasta", "applies only with red_threes.handling = \"bonus\" (red "
            "threes faced as bonus cards)")
    if v.deal.down_hand_up != "empty_hand" and not any(t.down_hand_size for t in v.tables.values()):
        bad("deal.down_hand_up", f"is {v.deal.down_hand_up!r}, which applies only with a down hand: set "
            "tables.N.down_hand_size at some table")
    if v.deal.down_hand_up != "empty_hand" and v.pile.failed_initial_take == "undo":
        bad("deal.down_hand_up", f"is {v.deal.down_hand_up!r}, which contradicts pile.failed_initial_take = "
            "\"undo\": a down hand brought up by a canasta of a take cannot go back down when the take is undone")

    # ---- lists of card classes: no repeats
    for key, values in (("upcard.cover", v.upcard.cover), ("upcard.freezes", v.upcard.freezes),
                        ("pile.freeze_on_discard", v.pile.freeze_on_discard),
                        ("pile.blocked_by", v.pile.blocked_by), ("pile.take_unfrozen", v.pile.take_unfrozen),
                        ("pile.take_frozen", v.pile.take_frozen),
                        ("pile.no_discard_first_turn", v.pile.no_discard_first_turn)):
        repeated = sorted({x for x in values if values.count(x) > 1})
        if repeated:
            bad(key, f"lists {', '.join(repr(x) for x in repeated)} more than once")

    # ---- red threes
    r = v.red_threes
    if len(r.bonus) < 1 or any(x < 0 for x in r.bonus) or (r.bonus and r.bonus[0] != 0):
        bad("red_threes.bonus", "must list the bonus for 0, 1, 2, ... red threes, starting at 0, none negative")
    red_in_deck = 2 * largest_packs
    if r.handling == "bonus" and 0 < len(r.bonus) < red_in_deck + 1:
        bad("red_threes.bonus", f"lists bonuses for up to {len(r.bonus) - 1} red threes, but the deck "
            f"holds {red_in_deck}: list one bonus for each count from 0 to {red_in_deck}")
    if r.minus and (len(r.minus) != len(r.bonus) or r.minus[0] != 0 or any(x < 0 for x in r.minus)):
        bad("red_threes.minus", f"must list, like red_threes.bonus, {len(r.bonus)} non-negative "
            "deductions for 0, 1, 2, ... red threes, starting at 0 (or be left out to deduct the bonus)")
    at_least("red_threes.in_hand_penalty", r.in_hand_penalty)
    at_least("red_threes.canasta_bonus", r.canasta_bonus)
    if r.handling == "bonus" and r.canasta_bonus:
        bad("red_threes.canasta_bonus", "applies only with red_threes.handling = \"keep\" "
            "(as bonus cards red threes are never placed on a canasta)")

    # ---- melds
    m = v.melds
    if m.min_size < 3:
        bad("melds.min_size", f"is {m.min_size}; a meld needs at least 3 cards")
    if m.min_naturals < 1 or m.min_naturals > m.min_size:
        bad("melds.min_naturals", f"is {m.min_naturals}; must be 1 to melds.min_size ({m.min_size})")
    at_least("melds.max_wild", m.max_wild)
    if m.canasta_size < m.min_size:
        bad("melds.min_size", f"is {m.min_size}, larger than melds.canasta_size ({m.canasta_size}); "
            "a canasta must be at least a meld")
    if m.canasta_min_naturals < 0 or m.canasta_min_naturals > m.canasta_size:
        bad("melds.canasta_min_naturals", f"is {m.canasta_min_naturals}; must be 0 to melds.canasta_size "
            f"({m.canasta_size})")
    if m.new_after_canasta and (m.multiple_per_rank or not m.canasta_closed):
        bad("melds.new_after_canasta", "applies only with melds.multiple_per_rank = false (one meld of a rank "
            "at a time) and melds.canasta_closed = true (a canasta that takes no more cards)")
    if m.past_closed_going_out and not m.canasta_closed:
        bad("melds.past_closed_going_out", "applies only with melds.canasta_closed = true (an open canasta takes "
            "more cards anyway)")
    if m.combine and not m.multiple_per_rank:
        bad("melds.combine", "needs melds.multiple_per_rank = true (there is nothing to combine)")
    if m.canasta_closed and m.unlimited_wild_on_canasta:
        bad("melds.unlimited_wild_on_canasta", "contradicts melds.canasta_closed = true "
            "(a closed canasta takes no more cards)")
    if m.wild_meld_max < 0:
        bad("melds.wild_meld_max", f"is {m.wild_meld_max}; use 0 for no limit, or a number of cards")
    elif m.wild_meld_max and m.wild_meld_max < m.min_size:
        bad("melds.wild_meld_max", f"is {m.wild_meld_max}, less than melds.min_size ({m.min_size}): "
            "no meld of wild cards could be laid")

    q = m.sequences
    if q.allowed:
        low, high = RANK_OF[q.lowest], RANK_OF[q.highest]
        if q.max_size < q.min_size:
            bad("melds.sequences.max_size", f"is {q.max_size}, less than melds.sequences.min_size "
                f"({q.min_size})")
        if high - low + 1 < q.min_size:
            bad("melds.sequences.highest", f"is {q.highest!r}: from {q.lowest!r} to {q.highest!r} there are "
                f"{max(0, high - low + 1)} ranks, fewer than a sequence's {q.min_size} cards")
    if v.going_out.permission_required and not v.going_out.permission:
        bad("going_out.permission_required", "needs going_out.permission = true (a player asks before going out)")
    if v.scoring.short_sequence.below and not q.allowed:
        bad("scoring.short_sequence", "applies only with melds.sequences.allowed = true")
    if not m.wild_on_canasta and m.unlimited_wild_on_canasta:
        bad("melds.wild_on_canasta", "is false, which contradicts melds.unlimited_wild_on_canasta = true")

    if v.upcard.buried != "none":
        up = v.upcard
        for key, clash, why in (
                ("upcard.cover", bool(up.cover), "a wild card or three turned up goes to the bottom of the stock "
                 "instead of being covered: use upcard.cover = []"),
                ("upcard.turned", not up.turned, "the packet is built under a turned upcard: use upcard.turned = true"),
                ("pile.take_top", bool(v.pile.take_top), "the whole pile, the buried cards included, is taken with "
                 "the upcard: use pile.take_top = 0"),
                ("pile.failed_initial_take", v.pile.failed_initial_take == "undo",
                 "a take undone would put the buried cards back face up: use pile.failed_initial_take = \"forbidden\"")):
            if clash:
                bad("upcard.buried", f"is {up.buried!r}, which does not work with {key}: {why}")
    for i, line in enumerate(v.scoring.canasta_sets):
        if not (line.natural or line.mixed or line.wild or line.any):
            bad(f"scoring.canasta_sets.{i}", "asks for no canasta: give at least one of natural, mixed, wild "
                "or any (e.g. { natural = 5, bonus = 2000 })")
    if v.red_threes.handling == "keep":
        for key, used in (("scoring.canasta_sets", bool(v.scoring.canasta_sets)),
                          ("scoring.wild_canasta_going_out_only", v.scoring.wild_canasta_going_out_only)):
            if used:
                bad(key, "applies only with red_threes.handling = \"bonus\" (red_threes.handling = \"keep\" "
                    "scores canastas its own way, new-canasta's)")
    if m.deuce_melds:
        # italian 4.3: the meld of deuces takes the place of a meld of wild cards only
        if m.wild_melds:
            bad("melds.deuce_melds", "cannot be used with melds.wild_melds = true: a meld of deuces and a meld "
                "of wild cards only would be the same meld; choose one")
        if m.wild_meld_exclusive:
            bad("melds.wild_meld_exclusive", "applies to a meld of wild cards only (melds.wild_melds); with "
                "melds.deuce_melds = true use melds.deuce_meld_exclusive")
        if m.wild_meld_max:
            bad("melds.wild_meld_max", "applies to a meld of wild cards only (melds.wild_melds); a meld of "
                "deuces (melds.deuce_melds) is closed at melds.canasta_size")
        if largest_packs and m.min_naturals > 4 * largest_packs:
            bad("melds.deuce_melds", f"needs melds.min_naturals ({m.min_naturals}) deuces, more than the "
                f"deck holds ({4 * largest_packs})")
    elif m.deuce_meld_exclusive:
        bad("melds.deuce_meld_exclusive", "applies only with melds.deuce_melds = true (there is no meld of deuces)")
    counted = v.going_out.counted_kinds
    twice = sorted({x for x in counted if counted.count(x) > 1})
    if twice:
        bad("going_out.counted_kinds", f"lists {', '.join(repr(x) for x in twice)} more than once")
    if not counted and v.going_out.canastas:
        bad("going_out.counted_kinds", f"is empty, so no canasta counts toward going_out.canastas "
            f"({v.going_out.canastas}): nobody could go out")

    for i, w in enumerate(v.scoring.wild_canastas):
        where = f"scoring.wild_canastas.{i}"
        if not (m.wild_melds or m.deuce_melds):
            bad(where, "applies only with melds.wild_melds = true or melds.deuce_melds = true (there are no "
                "wild canastas)")
            break
        size = w.jokers + w.twos
        top = m.wild_meld_max or (m.canasta_size if m.canasta_closed or m.deuce_melds else 0)
        if m.deuce_melds and w.twos < max(m.min_naturals, m.canasta_size - m.max_wild):
            bad(where, f"has {w.twos} deuces, which no canasta of deuces can hold (melds.deuce_melds: at least "
                f"{max(m.min_naturals, m.canasta_size - m.max_wild)} deuces, melds.max_wild = {m.max_wild})")
        if size < m.canasta_size or (top and size > top):
            allowed = f"{m.canasta_size}" if top == m.canasta_size else f"{m.canasta_size} or more"
            bad(where, f"has {size} cards (jokers + twos), which no wild canasta can hold: a wild canasta "
                f"has {allowed}{f' and at most {top}' if top and top != m.canasta_size else ''} cards")
        if w.jokers > largest_packs * v.deck.jokers_per_pack:
            bad(f"{where}.jokers", f"is {w.jokers}, more jokers than the deck holds "
                f"({largest_packs * v.deck.jokers_per_pack})")
    if v.stock_exhausted.last_three_minus and v.stock_exhausted.last_red_three != "end":
        bad("stock_exhausted.last_three_minus", "applies only with stock_exhausted.last_red_three = \"end\"")
    natural_ranks = {x.rank for x in v.scoring.natural_canastas}
    rank_seen: set[str] = set()
    for i, x in enumerate(v.scoring.rank_canastas):
        where = f"scoring.rank_canastas.{i}.rank"
        if x.rank == "wild":
            bad(where, "is 'wild'; a rank canasta is of a natural rank (four to ace): a canasta of wild "
                "cards is priced by scoring.wild_canasta and scoring.wild_canastas")
        elif x.rank in rank_seen:
            bad(where, f"is {x.rank!r}, listed more than once")
        elif x.rank in natural_ranks:
            bad(where, f"is {x.rank!r}, which scoring.natural_canastas also prices: a canasta of that "
                "rank is priced by one of scoring.rank_canastas and scoring.natural_canastas, not both")
        rank_seen.add(x.rank)
    r_sign = v.red_threes.sign_by_canastas
    if r_sign and v.red_threes.handling != "bonus":
        bad("red_threes.sign_by_canastas", "applies only with red_threes.handling = \"bonus\"")
    if v.red_threes.minus_without_canasta_of != "none" and v.red_threes.handling != "bonus":
        bad("red_threes.minus_without_canasta_of", "applies only with red_threes.handling = \"bonus\"")

    # ---- black threes
    b = v.black_threes
    if b.meld != "never":
        if b.min < 3:
            bad("black_threes.min", f"is {b.min}; a meld needs at least 3 cards")
        if b.max < b.min:
            bad("black_threes.max", f"is {b.max}, less than black_threes.min ({b.min})")
        black_in_deck = 2 * largest_packs
        if largest_packs and b.min > black_in_deck:
            bad("black_threes.min", f"is {b.min}, but the largest deck holds only {black_in_deck} black threes")
        if m.canasta_closed and b.max > m.canasta_size:
            bad("black_threes.max", f"is {b.max}, larger than a closed canasta ({m.canasta_size} cards)")
    at_least("black_threes.canasta_bonus", b.canasta_bonus)
    aside = b.set_aside_bonus
    if b.faced and b.meld != "never":
        bad("black_threes.faced", "needs black_threes.meld = \"never\" (a faced black three is never in a meld)")
    if b.from_pile == "hand" and not b.faced and aside:
        bad("black_threes.set_aside_bonus", "applies only with black_threes.from_pile = \"set_aside\" or "
            "black_threes.faced = true")
    elif b.from_pile == "set_aside" or b.faced:
        black_in_deck = 2 * largest_packs
        if len(aside) != black_in_deck + 1 or aside[0] != 0:
            bad("black_threes.set_aside_bonus", f"must list the points for 0, 1, ..., {black_in_deck} black "
                f"threes set aside (the deck holds {black_in_deck}), starting at 0")
    if b.canasta_bonus and b.max < m.canasta_size:
        bad("black_threes.canasta_bonus", f"can never be earned: black_threes.max ({b.max}) is below "
            f"melds.canasta_size ({m.canasta_size})")

    # ---- initial meld
    im = v.initial_meld
    at_least("initial_meld.below_zero", im.below_zero)
    last_from, last_need = None, -1
    for i, s in enumerate(im.steps):
        if s.need < 0:
            bad(f"initial_meld.steps.{i}.need", f"is {s.need}; must be 0 or more")
        if last_from is not None and s.from_score <= last_from:
            bad(f"initial_meld.steps.{i}.from", f"{s.from_score} is not above the previous step's {last_from}: "
                "list the steps in increasing score order")
        elif s.need < last_need and not s.canasta:
            bad(f"initial_meld.steps.{i}.need", f"{s.need} is less than the previous step's {last_need}: "
                "the minimum must not fall as the score rises (unless the step asks for a canasta)")
        last_from = s.from_score
        if not s.canasta:
            last_need = s.need
        _check_step_canasta(v, i, s, bad)
    if im.canasta_worth == "canasta" and not any(s.canasta for s in im.steps):
        bad("initial_meld.canasta_worth", "applies only where a step of initial_meld.steps lists canasta kinds")
    if im.steps and im.steps[0].from_score != 0:
        bad("initial_meld.steps.0.from", f"is {im.steps[0].from_score}; must be 0 "
            "(initial_meld.below_zero covers negative scores)")

    # ---- the pile
    if "wild_pair" in v.pile.take_unfrozen + v.pile.take_frozen and not v.melds.wild_melds:
        bad("pile.take_unfrozen", "lists 'wild_pair', which needs melds.wild_melds = true (the three wild "
            "cards make a meld of wild cards only)")
    if v.pile.take_frozen and not set(v.pile.take_frozen) <= set(v.pile.take_unfrozen):
        extra = ", ".join(repr(x) for x in v.pile.take_frozen if x not in v.pile.take_unfrozen)
        bad("pile.take_frozen", f"allows {extra}, a way to take a frozen pile that pile.take_unfrozen "
            "does not allow for an unfrozen one")

    # ---- discard bans and canastas of a rank (pennies-from-heaven 3.4, 3.5, 7.1)
    for key, ranks in (("pile.no_discard_until_canasta", [b.rank for b in v.pile.no_discard_until_canasta]),
                       ("going_out.canastas_by_rank", [x.rank for x in v.going_out.canastas_by_rank]),
                       ("going_out.no_final_discard", list(v.going_out.no_final_discard))):
        repeated = sorted({x for x in ranks if ranks.count(x) > 1})
        if repeated:
            bad(key, f"lists {', '.join(repr(x) for x in repeated)} more than once")
    one_per_rank = not m.multiple_per_rank and not (m.new_after_canasta and m.canasta_closed)
    for i, by_rank in enumerate(v.going_out.canastas_by_rank):
        if by_rank.count > 1 and one_per_rank:
            bad(f"going_out.canastas_by_rank.{i}.count", f"is {by_rank.count}, but with melds.multiple_per_rank = false "
                "(and no melds.new_after_canasta) a side holds one meld of a rank, so one canasta of it at most")

    # ---- going out, scoring, game
    at_least("going_out.canastas", v.going_out.canastas)
    at_least("going_out.bonus", v.going_out.bonus)
    at_least("going_out.concealed.bonus", v.going_out.concealed.bonus)
    for a in attrs.fields(Scoring):
        if a.type is int:
            at_least(f"scoring.{a.name}", getattr(v.scoring, a.name))
    for a in attrs.fields(CardValues):
        at_least(f"scoring.card_values.{a.name}", getattr(v.scoring.card_values, a.name))
    if v.game.target <= 0 and v.game.hands <= 0:
        bad("game.target", f"is {v.game.target}; must be more than 0, or game.hands must set a number of hands")
    for name in attrs.fields_dict(Penalties):
        value = getattr(v.penalties, name)
        if value < 0:
            bad(f"penalties.{name}", f"is {value}; must be 0 or more (points deducted from the offender)")
    if v.settlement.round_to < 0:
        bad("settlement.round_to", f"is {v.settlement.round_to}; must be 0 (exact) or a positive multiple")
    out_of_bounds = {pr.key for pr in bounds}
    return bounds + [pr for pr in p if pr.key not in out_of_bounds]


def _check_step_canasta(v: Variant, i: int, s: Step, bad: Any) -> None:
    """The canasta a step of the initial meld asks for (brazilian 7.2) must be one the settings
    let a side lay in its initial meld."""
    if not s.canasta:
        return
    key = f"initial_meld.steps.{i}.canasta"
    m = v.melds
    repeated = sorted({x for x in s.canasta if s.canasta.count(x) > 1})
    if repeated:
        bad(key, f"lists {', '.join(repr(x) for x in repeated)} more than once")
    if v.initial_meld.by_hand:
        bad(key, "applies only without initial_meld.by_hand (a minimum by hand number replaces the steps)")
    if m.initial_canasta != "always":
        bad(key, f"asks for a canasta in the initial meld, which melds.initial_canasta = {m.initial_canasta!r} "
            "forbids: set melds.initial_canasta = \"always\"")
    if "wild" in s.canasta and m.deuce_melds:
        bad(key, "lists 'wild', which melds.deuce_melds does not allow: a meld of deuces is never part of an "
            "initial meld's plans (set melds.deuce_melds = false, or drop 'wild')")
    elif "wild" in s.canasta and (not m.wild_melds or (m.wild_meld_max and m.wild_meld_max < m.canasta_size)):
        bad(key, "lists 'wild', but no canasta of wild cards can be laid: it needs melds.wild_melds = true and "
            "melds.wild_meld_max 0 or at least melds.canasta_size")
    if "sequence" in s.canasta and (not m.sequences.allowed or m.sequences.max_size < m.canasta_size):
        bad(key, "lists 'sequence', but no sequence can be a canasta: it needs melds.sequences.allowed = true "
            "and melds.sequences.max_size at least melds.canasta_size")
