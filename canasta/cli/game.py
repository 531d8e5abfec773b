"""The game of ``canasta play``: the person's moves and the bots', the prompt, undo, and the
loop that plays hand after hand until the game is over or the person quits."""

from __future__ import annotations

from typing import Callable, Optional, Sequence

from .._actions import Action, ActionParseError, parse_action
from .._bots import Bot, _ask
from .._state import GameState
from .bots import make_bot
from .common import plural, short, side_letters, seat_label
from .hint import help_text, hint_for
from .save import SaveFile
from .view import Printer, Screen, action_detail, person_view, score_so_far

QUIT_WORDS = ("quit", "exit", "q")
PROMPT = "your action (number, notation, 'help', 'hint', 'undo' or 'quit'): "
"""``canasta play``'s prompt for the person's decision."""
PAUSE_PROMPT = "Press Enter to deal the next hand ('quit' ends): "
"""``canasta play``'s prompt at a hand's end, on a terminal."""
UNDO_WORDS = ("undo", "u")
HINT_WORDS = ("hint", "h")
HELP_WORDS = ("help", "?")



class Quit(Exception):
    """The person ended the game (``quit`` or end of input)."""


class Undo(Exception):
    """The person asked to go back to the previous decision."""


class Game:
    """A game of ``canasta play``: the person's seat, the bots, the moves so far (the record),
    the save file. The bots are made anew from the seed and follow the recorded moves whenever
    the game is rebuilt (on resume and undo), so the game depends only on the seed and the
    person's moves."""

    def __init__(self, start: GameState, me: int, bot_kind: str, save: Optional[SaveFile]) -> None:
        self.start = start
        self.me = me
        self.bot_kind = bot_kind
        self.save_file = save
        self.hands: list[list[str]] = [[]]
        self.seats: list[list[int]] = [[]]
        self.state = start
        self.bots: dict[int, Bot] = {}
        self.undo_notes: list[str] = []
        self.base_comment = save.comment if save is not None else ""

    def rebuild(self, hands: Sequence[Sequence[str]]) -> None:
        """Replay ``hands`` (legal moves, as checked by ``replay``) from the deal, the bots
        choosing at their moves as they did (their random sources advance the same way)."""
        seed = self.start.seed
        self.bots = {s: make_bot(self.bot_kind, seed * 1000 + s) for s in range(self.start.players) if s != self.me}
        st = self.start
        self.hands, self.seats = [], []
        for h, moves in enumerate(hands):
            if h > 0:
                st = st.next_hand()
            seats: list[int] = []
            for text in moves:
                seat = st.current_player
                assert seat is not None
                if seat != self.me:
                    _ask(self.bots[seat], st)
                st = st.apply(parse_action(text))
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
        self.state = after
        self.save()
        return after

    def next_hand(self) -> GameState:
        self.state = self.state.next_hand()
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


def ask_person(st: GameState, game: Game, screen: Screen, read: Callable[[str], str]) -> Action:
    """Show the person's view and the numbered legal actions; read until a legal action is
    given. ``help`` and ``hint`` answer and ask again; ``undo`` raises :class:`Undo`, ``quit``
    and end of input :class:`Quit`."""
    me = game.me
    out = screen.out
    for i, line in enumerate(person_view(st, me)):
        screen.p(line, style="bold" if i == 0 else None)
    acts = st.legal_actions()
    print("    legal actions:", file=out)
    width = len(str(len(acts)))
    for i, a in enumerate(acts, 1):
        print(f"      {i:>{width}}. {a}", file=out)
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
            for h in help_text(st):
                print(h, file=out)
            continue
        if word in HINT_WORDS:
            action, why = hint_for(st, st.seed * 1000 + me)
            n = acts.index(action) + 1 if action in acts else 0
            screen.p(f"hint: {n}. {action} ({why})", style="green")
            continue
        if word in UNDO_WORDS:
            raise Undo
        if text.isascii() and text.isdigit():
            n = int(text) if len(text) <= 9 else 0
            if 1 <= n <= len(acts):
                return acts[n - 1]
            screen.p(f"no action number {short(text)}: choose 1 to {len(acts)}", style="red")
            continue
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
            return action
        screen.p(f"{action} is not allowed: {reason}", style="red")


def play_loop(game: Game, screen: Screen, pr: Printer, read: Callable[[str], str], interactive: bool) -> int:
    """Play ``game`` from its state until it is over or the person quits; the exit status."""
    me = game.me
    save = game.save_file
    header = pr.header

    def ended(st: GameState) -> int:
        pr.p(score_so_far(st), style="bold")
        if save is not None:
            pr.p(f"Saved in {short(save.path)}: continue with canasta play --resume {short(save.path)}")
        pr.p("Game ended.")
        return 0

    st = game.state
    try:
        if st.is_hand_over and not st.is_game_over:
            st = game.next_hand()  # a save made at a hand's end: on with the next hand
        header(st)
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
                                header(game.state)
                        st = game.state
                        continue
                else:
                    action = _ask(game.bots[seat], st)
                after = game.apply(action)
                name = "you" if seat == me else seat_label(st, seat)
                screen.p(f"  {name}: {action}{action_detail(st, action, after, seat, reveal=seat == me, me=me)}",
                         style="cyan" if seat == me else None)
                st = after
            pr.hand_end(st)
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
            header(st)
    except Quit:
        return ended(st)
    except KeyboardInterrupt:  # Ctrl-C: the save is up to date; say where it is
        print(file=screen.out)
        ended(game.state)
        return 130
    letters = side_letters(st)
    winners = " and ".join(f"side {letters[s]}" for s in st.winners)
    yours = st.side_of(me) in st.winners
    pr.p(f"=== Game over: {winners} {'win' if len(st.winners) > 1 else 'wins'}"
         f" ({'you win' if yours else 'you lose'})")
    return 0
