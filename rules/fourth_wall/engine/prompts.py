"""Asking and answering: prompts, hidden choices, resuming the step that asked."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.core.types import Action, Prompt
from rules.fourth_wall.state import (
    Step,
)

if TYPE_CHECKING:
    from rules.fourth_wall.engine import Engine


class Prompts:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ================================================================== prompts
    def ask(self: Engine, seat: str, kind: str, text: str, options: list[Action], then: Step,
            into: str = "answer", **data: Any) -> None:
        """Push a prompt: `options` are the answers; the chosen one resumes `then` with
        ``then.args[into]`` = the answer (``"answer"``: the whole action as a dict; any other
        key: the answer's single parameter value). ``public_text`` in `data` is what the
        views without the team's secrets show instead of `text` (FW-VIS-02/10); with
        ``seat_only=True`` only the answering seat reads `text` (a selection in progress,
        FW-VIS-06: the rest of the team, the Wall and the channel read ``public_text``)."""
        self.st.prompt_seq += 1
        self.st.prompts.append(Prompt(
            id=f"p{self.st.prompt_seq}", kind=kind, seats=[seat], text=text,
            data={"options": [o.model_dump() for o in options],
                  "then": then.model_dump(), "into": into, **data},
        ))

    def resume(self: Engine, then: Step, into: str, answer: Action) -> None:
        args = dict(then.args)
        if into == "answer":
            args["answer"] = {"kind": answer.kind, "params": dict(answer.params)}
        else:  # "" marks an answer without a value (stop, cancel)
            args[into] = next(iter(answer.params.values())) if answer.params else ""
        self.later(Step(op=then.op, args=args))

    def choose(
        self: Engine, seat: str | None, kind: str, text: str, options: list[Action], then: Step,
               into: str, ai: str = "random", **data: Any) -> None:
        """Ask `seat` to pick one of `options`, or pick at once when there is only one, or when
        the chooser is the Alliance AI (seat None: `ai` = "random" (FW-AI-07) or "first")."""
        if not options:
            return
        if len(options) == 1:
            self.resume(then, into, options[0])
        elif seat is None:
            pick = options[0] if ai == "first" else self.st.rng.choice(options)
            self.resume(then, into, pick)
        else:
            self.ask(seat, kind, text, options, then, into, **data)

    def choose_hidden(
        self: Engine, seat: str, kind: str, text: str, options: list[Action], then: Step,
                      into: str, **data: Any) -> None:
        """`choose` over cards of a hidden hand (Conflict): always asked, even with one answer,
        since skipping the question would tell The Wall the hand holds one kind of card."""
        if self.conflict and options:
            self.ask(seat, kind, text, options, then, into, **data)
        else:
            self.choose(seat, kind, text, options, then, into, **data)

    def prompt_answers(self: Engine, seat: str) -> list[Action]:
        if not self.st.prompts:
            return []
        p = self.st.prompts[-1]
        if seat not in p.seats:
            return []
        return [Action(kind=o["kind"], params=o["params"]) for o in p.data["options"]]

    def answer(self: Engine, action: Action) -> None:
        p = self.st.prompts.pop()
        self.resume(Step.model_validate(p.data["then"]), p.data["into"], action)
