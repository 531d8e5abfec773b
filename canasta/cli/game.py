"""The game of ``canasta play``: the person's moves and the bots', the prompt, undo, and the
loop that plays hand after hand until the game is over or the person quits."""

from __future__ import annotations

from typing import Callable, NamedTuple, Optional, Sequence

from .._actions import Action, ActionParseError, Add, Meld, Take, names_natural_without_suit, parse_action, unsuited
from .._bots import Bot, _ask
from .._cards import CODE_TOKENS, KIND_OF, N_KINDS, SEQUENCE_RANK
from .._state import GameState
from .bots import DEFAULT_BOT, Thinking, advice, make_bot, thinks
from .common import plural, short
from .notation import help_text, never_legal
from .save import SaveFile
from .view import Printer, Screen, person_view, score_so_far

QUIT_WORDS = ("quit", "exit", "q")
PROMPT = "your action (number, notation, 'help', 'hint', 'undo' or 'quit'): "
"""``canasta play``'s prompt for the person's decision."""
PAUSE_PROMPT = "Press Enter to deal the next hand ('quit' ends): "
"""``canasta play``'s prompt at a hand's end, on a terminal."""
UNDO_WORDS = ("undo", "u")
HINT_WORDS = ("hint", "h")
HELP_WORDS = ("help", "?")
CHOICE_PROMPT = "which one (a letter, or Enter to choose again): "
"""``canasta play``'s prompt when a group can be laid with other suits (variants with sequences)."""


class Quit(Exception):
    """The person ended the game (``quit`` or end of input)."""


class Undo(Exception):
    """The person asked to go back to the previous decision."""


class Game:
    """A game of ``canasta play``: the person's seat, the bots, the moves so far (the record),
    the save file. The bots are made anew from the seed and follow the recorded moves whenever
    the game is rebuilt (on resume and undo), so the game depends only on the seed and the
    person's moves."""

    def __init__(self, start: GameState, me: int, bot_kind: str, save: Optional[SaveFile],
                 hint_bot: str = DEFAULT_BOT, think: Optional[float] = None) -> None:
        self.start = start
        self.me = me
        self.bot_kind = bot_kind
        self.hint_bot = hint_bot
        """The bot that ``hint`` asks."""
        self.think = think
        """The most seconds a searching bot thinks over a decision (None: the default)."""
        self.save_file = save
        self.hands: list[list[str]] = [[]]
        self.seats: list[list[int]] = [[]]
        self.state = start
        self.bots: dict[int, Bot] = {}
        self.undo_notes: list[str] = []
        self.base_comment = save.comment if save is not None else ""
        self.hand_start = start
        """The current hand as dealt."""
        self.played: list[tuple[GameState, Action, GameState]] = []
        """The current hand's moves so far: (before, action, after)."""

    def rebuild(self, hands: Sequence[Sequence[str]]) -> None:
        """Replay ``hands`` (legal moves, as checked by ``replay``) from the deal, the bots
        choosing at their moves as they did (their random sources advance the same way)."""
        seed = self.start.seed
        self.bots = {s: make_bot(self.bot_kind, seed * 1000 + s, self.think) for s in range(self.start.players) if s != self.me}
        st = self.start
        # a bot searching against the clock plays no move twice alike: it is not asked again
        # (a second a decision), only the bots whose random sources must advance as they did
        searching = thinks(self.bot_kind)
        self.hands, self.seats = [], []
        for h, moves in enumerate(hands):
            if h > 0:
                st = st.next_hand()
            self.hand_start, self.played = st, []
            seats: list[int] = []
            for text in moves:
                seat = st.current_player
                assert seat is not None
                if seat != self.me and not searching:
                    _ask(self.bots[seat], st)
                action = parse_action(text)
                after = st.apply(action)
                self.played.append((st, action, after))
                st = after
                seats.append(seat)
            self.hands.append(list(moves))
            self.seats.append(seats)
        self.state = st

    def save(self) -> None:
        if self.save_file is not None:
            self.save_file.comment = "\n".join([self.base_comment, *self.undo_notes]).strip()
            self.save_file.save(self.hands)

    def apply(self, action: Action) -> GameState:
        seat = self.state.current_player
        assert seat is not None
        after = self.state.apply(action)
        self.hands[-1].append(str(action))
        self.seats[-1].append(seat)
        self.played.append((self.state, action, after))
        self.state = after
        self.save()
        return after

    def next_hand(self) -> GameState:
        self.state = self.hand_start = self.state.next_hand()
        self.played = []
        self.hands.append([])
        self.seats.append([])
        self.save()
        return self.state

    def undo(self) -> Optional[tuple[str, int]]:
        """Go back to the person's previous decision: (that move, how many moves were taken
        back), or None when there is none. The save file is rewritten without them."""
        for h in range(len(self.seats) - 1, -1, -1):
            for m in range(len(self.seats[h]) - 1, -1, -1):
                if self.seats[h][m] == self.me:
                    move = self.hands[h][m]
                    taken = sum(len(x) for x in self.hands[h:]) - m
                    hands = [list(x) for x in self.hands[:h + 1]]
                    hands[h] = hands[h][:m]
                    now = self.state.hand_number + 1
                    self.rebuild(hands)
                    self.undo_notes.append(f"undo in hand {now}: back to hand {h + 1}, move {m + 1} "
                                           f"({move!r}), {plural(taken, 'move')} taken back")
                    self.save()
                    return move, taken
        return None


class Choice(NamedTuple):
    """A line of the numbered list: one legal action, or (variants with sequences) a group, a
    take or an add that can be played with cards of other suits, one action per suiting."""

    text: str
    """The line: the action's notation, or the group's without suits (``meld A A A``)."""
    actions: tuple[Action, ...]
    """The legal actions it stands for, in the order of the legal actions."""


def _other_suits_same_play(a: Action) -> bool:
    """Whether ``a`` lays, takes with or adds natural cards of one rank named with suits (a
    group, not a sequence): its suits are a choice of which cards stay in the hand."""
    if isinstance(a, Meld):
        naturals = [c for c in a.cards if c >= N_KINDS]
        return bool(naturals) and len({KIND_OF[c] for c in naturals}) == 1
    if isinstance(a, Take):
        return bool(a.cards)
    if isinstance(a, Add):
        return a.card >= N_KINDS and a.rank < SEQUENCE_RANK
    return False


def choices(st: GameState) -> list[Choice]:
    """The numbered list: the legal actions, where a group, a take or an add can be played with
    cards of other suits grouped into one line per rank (``meld A A A`` for ``meld Ah Ad Ad``,
    ``meld As Ad Ad``, ...), the suited action itself where only one suiting is legal."""
    groups: dict[Action, list[Action]] = {}
    for a in st.legal_actions():
        groups.setdefault(unsuited(a) if _other_suits_same_play(a) else a, []).append(a)
    return [Choice(str(key) if len(acts) > 1 else str(acts[0]), tuple(acts)) for key, acts in groups.items()]


def kept(st: GameState, action: Action) -> str:
    """The cards of the ranks ``action`` plays that stay in the hand after it: ``As``, ``none``."""
    seat = st.current_player
    assert seat is not None
    hand = list(st.hands[seat])
    used = (list(action.cards) if isinstance(action, (Meld, Take)) else [action.card] if isinstance(action, Add)
            else [])
    for c in used:
        hand[c] -= 1
    ranks = {KIND_OF[c] for c in used if c >= N_KINDS}
    left = [CODE_TOKENS[c] for c in range(len(hand) - 1, N_KINDS - 1, -1) if KIND_OF[c] in ranks
            for _ in range(hand[c])]
    return " ".join(left) or "none"


def pick(st: GameState, acts: Sequence[Action], screen: Screen, read: Callable[[str], str]) -> Optional[Action]:
    """Ask which of ``acts`` (one play with cards of other suits) the person means; None to
    choose again. End of input raises :class:`Quit`."""
    out = screen.out
    print(f"    {unsuited(acts[0])} can be played {len(acts)} ways; they keep other cards in your hand "
          "(their suits matter for sequences):", file=out)
    letters = LETTERS
    for letter, a in zip(letters, acts):
        print(f"      {letter}. {a}  (keeps {kept(st, a)})", file=out)
    while True:
        try:
            text = read(CHOICE_PROMPT).strip()
        except EOFError:
            print(file=out)
            raise Quit from None
        if not text:
            return None
        low = text.lower()
        if len(low) == 1 and low in letters[:len(acts)]:
            return acts[letters.index(low)]
        try:
            typed = parse_action(text)
        except ActionParseError:
            typed = None
        if typed in acts:
            return typed
        screen.p(f"choose a letter from a to {letters[len(acts) - 1]}, or press Enter", style="red")


LETTERS = "abcdefghijklmnopqrstuvwxyz"
"""The letters that name the ways of a line of the list (``7b``: line 7, its second way)."""


def choice_label(listed: Sequence[Choice], action: Action) -> str:
    """How ``action`` is typed from the numbered list: its line's number (``4``), with the letter
    of its way where the line stands for several (``7b``), so that a hint is played as shown."""
    for i, c in enumerate(listed, 1):
        if action in c.actions:
            return str(i) if len(c.actions) == 1 else f"{i}{LETTERS[c.actions.index(action)]}"
    return "?"


def _numbered_way(text: str, listed: Sequence[Choice]) -> Optional[Action]:
    """The action typed as a line's number and a way's letter (``7b``), or None."""
    low = text.lower()
    if len(low) < 2 or not low.isascii() or not low[:-1].isdigit() or low[-1] not in LETTERS or len(low) > 10:
        return None
    n = int(low[:-1])
    if not 1 <= n <= len(listed):
        return None
    acts = listed[n - 1].actions
    k = LETTERS.index(low[-1])
    return acts[k] if len(acts) > 1 and k < len(acts) else None


def ask_person(st: GameState, game: Game, screen: Screen, read: Callable[[str], str]) -> Action:
    """Show the person's view and the numbered legal actions; read until a legal action is
    given. ``help`` and ``hint`` answer and ask again; ``undo`` raises :class:`Undo`, ``quit``
    and end of input :class:`Quit`."""
    me = game.me
    out = screen.out
    for i, line in enumerate(person_view(st, me)):
        screen.p(line, style="bold" if i == 0 else None)
    listed = choices(st)
    print("    legal actions:", file=out)
    width = len(str(len(listed)))
    for i, c in enumerate(listed, 1):
        ways = (f"  ({len(c.actions)} ways, {i}a to {i}{LETTERS[len(c.actions) - 1]}: you choose the suits)"
                if len(c.actions) > 1 else "")
        print(f"      {i:>{width}}. {c.text}{ways}", file=out)
    while True:
        try:
            line = read(PROMPT)
        except EOFError:
            print(file=out)
            raise Quit from None
        text = line.strip()
        if not text:
            continue
        word = text.lower()
        if word in QUIT_WORDS:
            raise Quit
        if word in HELP_WORDS:
            for h in help_text(st, game.hint_bot):
                print(h, file=out)
            continue
        if word in HINT_WORDS:
            thinking = Thinking(out) if thinks(game.hint_bot) else None
            if thinking is not None:
                thinking.start(f"the {game.hint_bot} bot")
            try:
                action, why = advice(game.hint_bot, st, st.seed * 1000 + me, game.think)
            finally:
                if thinking is not None:
                    thinking.stop()
            screen.p(f"hint: {choice_label(listed, action)}. {action} ({why})", style="green")
            continue
        if word in UNDO_WORDS:
            raise Undo
        if text.isascii() and text.isdigit():
            n = int(text) if len(text) <= 9 else 0
            if 1 <= n <= len(listed):
                acts = listed[n - 1].actions
                chosen = acts[0] if len(acts) == 1 else pick(st, acts, screen, read)
                if chosen is not None:
                    return chosen
                continue
            screen.p(f"no action number {short(text)}: choose 1 to {len(listed)}", style="red")
            continue
        lettered = _numbered_way(text, listed)
        if lettered is not None:
            return lettered
        try:
            action = parse_action(text)
            reason = st.why_illegal(action)
        except ActionParseError as e:
            screen.p(f"cannot read that: {e} (type 'help' for the notation)", style="red")
            continue
        except Exception as e:  # noqa: BLE001 - whatever was typed, the prompt asks again
            screen.p(f"cannot read that: {short(text)!r} ({type(e).__name__}: {e}); type a number "
                     "from the list or an action such as 'draw' or 'discard 5'", style="red")
            continue
        if reason is None:
            return st.action_space.actions[st._id_of(action)]  # (written without suits: the one it names)
        if names_natural_without_suit(action):
            same = [st.action_space.actions[i] for i in st._same_but_suits(action)]
            if len(same) > 1:
                chosen = pick(st, same, screen, read)
                if chosen is not None:
                    return chosen
                continue
        screen.p(f"{action} is not allowed: {never_legal(st, action) or reason}", style="red")


def play_loop(game: Game, screen: Screen, pr: Printer, read: Callable[[str], str], interactive: bool,
              resumed: bool = False) -> int:
    """Play ``game`` from its state until it is over or the person quits; the exit status.
    ``resumed``: the current hand is shown from its deal, its moves so far as they were played."""
    me = game.me
    save = game.save_file

    def ended(st: GameState) -> int:
        pr.p(score_so_far(st), style="bold")
        if save is not None:
            pr.p(f"Saved in {short(save.path)}: continue with canasta play --resume {short(save.path)}")
        pr.p("Game ended.")
        return 0

    def show(before: GameState, action: Action, after: GameState) -> None:
        seat = before.current_player
        pr.turn(before, action, after, style="cyan" if seat == me else None)

    thinking = Thinking(screen.out)
    st = game.state
    try:
        if st.is_hand_over and not st.is_game_over:
            st = game.next_hand()  # a save made at a hand's end: on with the next hand
            pr.deal(st)
        elif not st.is_game_over:
            pr.deal(game.hand_start)
            if resumed:
                for before, action, after in game.played:  # the hand so far, as it was seen
                    show(before, action, after)
        while not st.is_game_over:
            while not st.is_hand_over:
                seat = st.current_player
                assert seat is not None
                if seat == me:
                    try:
                        action = ask_person(st, game, screen, read)
                    except Undo:
                        back = game.undo()
                        if back is None:
                            screen.p("Nothing to undo: this is your first decision of the game.", style="red")
                        else:
                            move, taken = back
                            since = f" and the bots' {plural(taken - 1, 'move')} since" if taken > 1 else ""
                            screen.p(f"Undone: your {move!r}{since}; back to that decision.", style="yellow")
                            if game.state.hand_number != st.hand_number:
                                pr.deal(game.hand_start)
                                for before, done, after in game.played:
                                    show(before, done, after)
                        st = game.state
                        continue
                elif thinks(game.bot_kind):
                    action = thinking.ask(game.bots[seat], st, pr.label(st, seat))
                else:
                    action = _ask(game.bots[seat], st)
                after = game.apply(action)
                show(st, action, after)
                st = after
            if st.is_game_over:
                break
            if interactive:
                try:
                    answer = read(PAUSE_PROMPT)
                except EOFError:
                    print(file=screen.out)
                    raise Quit from None
                if answer.strip().lower() in QUIT_WORDS:
                    raise Quit
            st = game.next_hand()
            pr.deal(st)
    except Quit:
        return ended(st)
    except KeyboardInterrupt:  # Ctrl-C: the save is up to date; say where it is
        print(file=screen.out)
        ended(game.state)
        return 130
    yours = st.side_of(me) in st.winners
    end = (pr.game_end or "The game is over.").rstrip(".")
    pr.p(f"=== {end} ({'you win' if yours else 'you lose'}).", style="bold")
    return 0
