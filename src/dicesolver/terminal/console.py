"""Any game at a terminal: you against bots (or alone), with hints, everyone's sheet, undo, and a review at
the end. The game is a ``play.session.Session``: every step is in the record before the next prompt, so a game
stopped in any way goes on with ``--resume`` exactly where it was.

Commands at any prompt: ``hint`` (every option ranked), ``card`` (or ``score``: everyone's sheet),
``list`` (the legal moves), ``undo``, ``help`` and ``quit``; anything else is read as a move of the game
(``keep 113``, ``score fives``, ``throw``, ``hold``, ``Collect 3``, ...). With ``--manual-dice`` you type
what your dice showed. With a tutor (``--tutor``), a move that costs more than its threshold is warned about
first, with the better move and why in one sentence: the player takes it back or plays it anyway, and the
review lists each warning, heeded or not.
"""

from __future__ import annotations

from typing import Callable

from rich.console import Console

from ..core.errors import InputError
from ..core.protocol import State, Step
from ..core.scene import Scene
from ..core.results import Review, TutorWarning
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
ANYWAY = {"y", "yes", "anyway", "play it"}
TUTOR_THRESHOLDS = {"points": 1.0, "ce": 1.0, "p_win": 0.01, "p_target": 0.01, "equity": 0.02}  # a warning's cost


def tutor_threshold(unit: str, given: float | None = None) -> float:
    """The cost past which the tutor warns: ``given``, else a point, or a percentage point of a chance."""
    return given if given is not None else TUTOR_THRESHOLDS.get(unit, 1.0)


class QuitGame(Exception):
    """The player stopped (the game is saved); the record's path is the first argument."""


class TerminalGame:
    def __init__(self, session: Session, solution: SolvedGame, console: Console, ask: Callable[[str], str],
                 tutor: float | None = None):
        self.session = session
        self.family = session.family
        self.solution = solution
        self.console = console
        self.ask = ask
        self._turn: object = None
        self.tutor = tutor  # the cost past which a move is warned about (None: no tutor)
        self._warned: dict[str, TutorWarning] = {}  # a position's warning, until a move is made there
        self._settled: TutorWarning | None = None  # the warning the next move settles (noted in the record)

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
        after = self.session.play(step, self._settled)
        self._settled = None
        self.say(self.scene(after, last=(before, step)).narration or str(step))

    def agreed(self, state: State, step: Step) -> bool:
        """With a tutor, whether to make the person's move ``step``: at once where it costs no more than the
        threshold; else after a warning (the better move and why, in one sentence), if the person plays it
        anyway. A warning is settled, heeded or not, by the move finally made there."""
        if self.tutor is None:
            return True
        key = str(state)
        advice = self.solution.advise(state)
        mine = next((o for o in advice.options if o.action == str(step)), None)
        cost = mine.cost if mine is not None else 0.0
        earlier = self._warned.get(key)
        if cost > self.tutor and (earlier is None or earlier.move != str(step)):
            best = advice.options[0]
            reason = self.solution.explain(state, versus=str(step)).reason if self.solution.explains else \
                f"{best.action} is worth {render.fmt(best.value, advice.unit)}."
            self._warned[key] = TutorWarning(position=key, move=str(step), cost=cost, best=best.action,
                                             reason=reason, heeded=True, played="")
            self.say(f"tutor: {step} costs {render.fmt(cost, advice.unit)} ({self.solution.unit_words}) against "
                     f"{best.action}. {reason}", "yellow")
            self.session.tutor_question = self._warned[key]  # the web's board shows it with its two answers
            try:
                answer = self.ask("play it anyway? (yes; anything else takes it back): ")
            finally:
                self.session.tutor_question = None
            if answer.strip().lower() not in ANYWAY:
                self.say("taken back: your move again", "green")
                return False
        warned = self._warned.pop(key, None)
        if warned is not None:  # the move made where the tutor warned: a better one, or the one warned about
            self._settled = warned.model_copy(update={"heeded": cost < warned.cost, "played": str(step)})
        return True

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
                if step is not None and self.agreed(state, step):
                    self.play(step)
            return
        try:
            step = state.parse_step(text)
        except InputError as exc:
            self.say(str(exc), "red")
            return
        if self.agreed(state, step):
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
         judge: SolvedGame | None = None, tutor: float | None = None) -> Review:
    """Play a session to its end at the terminal and review the person's game (with ``judge``, or the
    hints' solution), with the tutor's warnings where ``tutor`` (a cost) is given. Raises QuitGame (with the
    record's path) when the player stops."""
    who = ", ".join(session.names())
    first = session.name(0)
    moves = "move" if first == "you" else "moves"
    render.say(console, f"{session.game.title} ({session.game.canonical}): {who}; {first} {moves} first")
    for note in session.family.bot_notes(session.game, session.names()):
        render.say(console, f"note: {note}")
    played = TerminalGame(session, solution, console, ask, tutor)
    if tutor is not None:
        render.say(console, f"tutor: a move costing more than {render.fmt(tutor, solution.unit)} "
                            f"({solution.unit_words}) is warned about first")
    played.run()
    player = session.playthrough.players.index(session.name(session.human))
    return (judge or solution).review(session.playthrough, player)
