"""Any game at a terminal: you against bots (or alone), with hints, everyone's sheet, undo, and a review at
the end. The game is a ``play.Session``: every step is in the record before the next prompt, so a game
stopped in any way goes on with ``--resume`` exactly where it was.

Commands at any prompt: ``hint`` (every option ranked), ``card`` (or ``score``: everyone's sheet),
``list`` (the legal moves), ``undo``, ``help`` and ``quit``; anything else is read as a move of the game
(``keep 113``, ``score fives``, ``throw``, ``hold``, ``Collect 3``, ...). With ``--manual-dice`` you type
what your dice showed.
"""

from __future__ import annotations

from typing import Callable

from rich.console import Console

from ..core.errors import InputError
from ..core.protocol import State, Step
from ..core.scene import Scene
from ..core.results import Review
from ..core.solved import SolvedGame
from ..play.session import Session
from . import render

QUIT = {"quit", "q", "exit"}
HINT = {"hint", "?"}
BOARD = {"card", "scorecard", "score", "s", "sheet", "board"}
LIST = {"list", "options", "list options", "moves"}
UNDO = {"undo", "u"}
STAND = {"all", "stand", "keep all"}
HELP = "commands: hint, card (everyone's sheet), list (the legal moves), undo, help, quit; or a move of the game"


class QuitGame(Exception):
    """The player stopped (the game is saved); the record's path is the first argument."""


class TerminalGame:
    def __init__(self, session: Session, solution: SolvedGame, console: Console, ask: Callable[[str], str]):
        self.session = session
        self.family = session.family
        self.solution = solution
        self.console = console
        self.ask = ask
        self._turn: object = None

    # -- showing -----------------------------------------------------------------------------------
    def say(self, text: str, style: str | None = None) -> None:
        render.say(self.console, text, style)

    def show_board(self) -> None:
        render.board(self.console, self.family.board(self.session.state, self.session.names()))

    def show_hint(self, state: State, top: int = 5, kind: str | None = None) -> None:
        """The best options ranked; ``kind``: only those of one kind (after 'stand': the boxes), their costs
        against the best of them."""
        advice = self.solution.advise(state)
        if kind is not None and any(o.kind == kind for o in advice.options):
            shown = [o for o in advice.options if o.kind == kind]
            best = shown[0].value
            advice = advice.model_copy(update={"options": [
                o.model_copy(update={"cost": max(0.0, self.solution.sign * (best - o.value))}) for o in shown]})
        if advice.options:
            self.say(f"best options ({self.solution.unit_words}):")
            self.console.print(render.options_table(advice, top))
        else:
            self.say(f"{self.solution.unit_words}: {render.fmt(advice.value, advice.unit)}")
        for note in advice.notes:
            self.say(note)

    def scene(self, state: State, last: tuple[State, Step] | None = None) -> Scene:
        return self.family.scene(state, self.session.names(), self.session.human, last)

    def show_list(self, state: State) -> None:
        for line in self.scene(state).legal:
            self.say(line)

    def announce(self, state: State) -> None:
        """At every new turn: the family's line, and at yours your sheet and your value now."""
        if state.player is None or state.turn_key() == self._turn:
            return
        self._turn = state.turn_key()
        scene = self.scene(state)
        for line in scene.turn_start:
            self.say(line)
        if state.player == self.session.human:
            if scene.board_at_turn_start:
                self.show_board()
            if len(self.session.names()) > 1:
                value = self.solution.value(state)
                self.say(f"your {self.solution.unit_words} now: "
                         f"{render.fmt(value, self.solution.unit)}")

    def play(self, step) -> None:
        before = self.session.state
        after = self.session.play(step)
        self.say(self.scene(after, last=(before, step)).narration or str(step))

    # -- asking ------------------------------------------------------------------------------------
    def command(self, state: State, text: str, hint_kind: str | None = None) -> bool:
        """Run a command typed at a prompt; False when the text is not one. ``hint_kind``: the kind of
        option the prompt asks for (the hint shows only those)."""
        word = text.strip().lower()
        if word in QUIT:
            raise QuitGame(str(self.session.path))
        if word in HINT:
            self.show_hint(state, kind=hint_kind)
        elif word in BOARD:
            self.show_board()
        elif word in LIST and not state.is_chance():
            self.show_list(state)
        elif word in UNDO:
            try:
                self.session.undo()
                self.say("undone", "green")
            except InputError as exc:
                self.say(str(exc), "yellow")
        elif word == "help":
            self.say(HELP)
        else:
            return False
        return True

    def read_step(self, state: State, prompt: str, verb: str = ""):
        """Ask for a step (``verb`` put before what is typed, unless it is typed); None after a command or a
        mistake."""
        text = self.ask(prompt)
        if self.command(state, text, hint_kind=verb or None):
            return None
        typed_verb = text.strip().lower().split(maxsplit=1)[:1] == [verb]
        try:
            return state.parse_step(f"{verb} {text}" if verb and not typed_verb else text)
        except InputError as exc:
            self.say(str(exc), "red")
            return None

    def decide(self, state: State) -> None:
        scene = self.scene(state)
        text = self.ask(scene.prompt)
        if self.command(state, text):
            return
        stand = scene.stand_prompt
        if stand and text.strip().lower() in STAND:
            while self.session.state is state:
                step = self.read_step(state, stand, verb="score")
                if step is not None:
                    self.play(step)
            return
        try:
            step = state.parse_step(text)
        except InputError as exc:
            self.say(str(exc), "red")
            return
        self.play(step)

    def throw(self, state: State) -> None:
        """A throw of the person at the table: typed with manual dice, else drawn (after a pause where the
        family asks for one, so that the last decision can still be taken back)."""
        outcomes = state.chance_outcomes()
        if len(outcomes) == 1:  # nothing to throw (every die kept): no dice to ask for, no Enter to press
            self.play(outcomes[0][0])
            return
        if self.session.manual_dice:
            step = self.read_step(state, self.scene(state).prompt)
            if step is not None:
                self.play(step)
            return
        if self.scene(state).pause_before_throw and self.session.playthrough.steps and \
                not self.session.is_bot(self.session.states[-2].player):
            text = self.ask("Enter to throw ('undo' takes back the last move, 'quit' stops): ")
            if self.command(state, text):
                return
            if text.strip().lower() not in ("", "roll", "r", "throw", "t"):
                self.say(f"{text.strip()!r}: press Enter to throw ({HELP})", "red")
                return
        self.play(self.session.draw())

    def run(self) -> None:
        while not (state := self.session.state).is_terminal():
            self.announce(state)
            if self.session.is_bot(state.player):
                self.play(self.session.draw() if state.is_chance() else self.session.bot_step())
            elif state.is_chance():
                self.throw(state)
            else:
                self.decide(state)
        self.show_board()
        for line in self.scene(self.session.state).over:
            self.say(line, "bold")


def play(session: Session, solution: SolvedGame, console: Console, ask: Callable[[str], str],
         judge: SolvedGame | None = None) -> Review:
    """Play a session to its end at the terminal and review the person's game (with ``judge``, or the
    hints' solution). Raises QuitGame (with the record's path) when the player stops."""
    who = ", ".join(session.names())
    first = session.name(0)
    moves = "move" if first == "you" else "moves"
    render.say(console, f"{session.game.title} ({session.game.canonical}): {who}; {first} {moves} first")
    for note in session.family.bot_notes(session.game, session.names()):
        render.say(console, f"note: {note}")
    TerminalGame(session, solution, console, ask).run()
    player = session.playthrough.players.index(session.name(session.human))
    return (judge or solution).review(session.playthrough, player)
