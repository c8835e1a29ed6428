"""Guided play (`guided` option): what the awaited seat can do now and why it matters.

Presentation only: the engine never reads this. `advice` reads a view and nothing else, so
the board post's advice comes from the public view and cannot name a hidden card (a Plan, the
Ghost player's hand); a seat's own view (its **My choices**) may say more. A prompt's advice
explains its kind; a turn's advice counts the Actions left and names the one thing most worth
doing now (a Ghost in the Room, a Task ready to complete, Darkness to Purify, the Tools a Task
still needs). The first-game setup (EX-FIRST-01..03) is the `first_game` option.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from rules.core.game import a_noun, plural, score_of, the_name

PROMPTS: dict[str, str] = {
    "choose_primary": (
        "Solo: pick which of your two Investigators is the Primary. Only the Primary completes "
        "Tasks and plays Plans (the 5 Actions are shared), so choose the one you'll keep near "
        "the Task Rooms."),
    "manipulate_manor": (
        "You are the Ghost player setting the trap: swap up to 4 Rooms so the ones the "
        "investigators need (Tasks, Tools) sit far from the Foyer. Finishing with no swaps is "
        "allowed too."),
    "triage": (
        "An investigator is about to be Wounded: a Plan in your hand can stop it now. A "
        "Wounded Character drops their Tools and costs a Lookout, so a Plan spent here is "
        "often worth it."),
    "plan_window": (
        "You may play a Plan now, before the game goes on, or pass. Plans are free and can "
        "turn a Haunt card or the end of a turn your way; keep one for a Wound if you can."),
    "rescue": (
        "A Character was Wounded: choose which Lookout comes in to replace them. Each Lookout "
        "has its own ability, and when no Lookout is left a Wound loses the game."),
    "place_pawn": (
        "A Ghost blocks the Foyer, so your rescued Character enters at an edge Room instead: "
        "pick one close to the Tasks you still need and away from the Ghosts."),
    "choose_tool": (
        "Pick the Tool to gain. Tasks ask for particular Tools, so take the one your team's "
        "next Task is missing."),
    "exchange": (
        "Return a Tool and take a different one, or stop. Swap toward what your next Task "
        "needs; Tools you won't use only help if a teammate can take them."),
    "choose_task": (
        "Choose an Available Task to take. Tasks are how you earn Exorcism points: pick one "
        "whose Room and Tools you can reach soon."),
    "choose_cell": (
        "Choose the Room for this effect (where to move, which Room to purify or swap, whose "
        "Action to use). Moving toward your Task's Room and clearing Darkness near your team "
        "both matter: Darkness running out loses the game."),
    "choose_character": (
        "Choose which Wounded Character to heal: a healed Character becomes a Lookout, "
        "and Lookouts are what save the team from the next Wound."),
    "trade_partner": (
        "Choose who to Trade with. Trading moves Tools to whoever can use them for a Task "
        "first."),
    "trade_build": (
        "Build the Trade: add Tools to give and to take, then offer it (or cancel). Aim to "
        "complete someone's Task set, since Tasks score the points."),
    "trade_consent": (
        "Another investigator offers a Trade: accept if the Tools help your team finish a "
        "Task, decline if you need what they ask for."),
    "pick_up": (
        "Pick up Tools dropped here, one at a time or all at once. Dropped Tools are lost to "
        "the team until someone collects them."),
    "peek_order": (
        "You know the next Haunt cards: choose which goes on top first. Put the harmless ones "
        "first to buy time, and let your team plan around the dangerous one."),
    "foyer": (
        "You are in the Foyer: switch your Character with a Lookout to bring in a fresh "
        "ability. Escaping the House opens once the Ghosts are exorcised."),
    "terror_cell": (
        "Terror: choose the Room the ability strikes. Aim where investigators or the Task "
        "Rooms they need are, to cost them the most Actions."),
    "terror_seat": (
        "Terror: choose the player the ability strikes — usually the one closest to "
        "completing a Task, to slow the Exorcism."),
    "possession": (
        "Temporary Possession: you choose one Action for that investigator. Use it to waste "
        "their turn or walk them toward a Ghost."),
}
"""Each prompt kind of the engine → its hint (tests check every kind the engine can ask)."""

FOYER_EXORCISED = (
    "The Ghosts are exorcised: Escape the House now (for good: you cannot come back). The "
    "investigators win once every Character in the house has escaped through the Foyer.")
"""The Foyer's advice once the Ghosts are exorcised (EX-WIN-01): escaping is all that is left
(EX-WIN-02)."""

MOVING_OBJECTS = (
    "Moving Objects: put the Tool in a Room far from the investigators and from the Task "
    "Rooms that need it, so fetching it back costs them Actions.")
"""The Moving Objects Terror's Room (EX-TERROR): the Ghost player places a taken Tool, where
`PROMPTS["terror_cell"]`'s "aim where the investigators are" is the wrong way round."""

AMNESIA_GAIN = (
    "Amnesia: the player you pick now gains 1 Action on their next turn. Give it to the one "
    "who can do least with it: far from the Task Rooms, or with no Task near completion.")
"""Amnesia's second pick (EX-TERROR-05): a gain, where `PROMPTS["terror_seat"]`'s "the one
closest to completing a Task" would hand the extra Action to the most dangerous player."""

MANOR_SECOND = (
    "Choose the Room that trades places with the one you picked (finishing waits until this "
    "swap is done). Put the Rooms the investigators need far from the Foyer.")
"""Manipulate the Manor's second pick (EX-OVA): no finishing is offered until the swap is
made, as `PROMPTS["manipulate_manor"]` says of the first."""


def _prompt_advice(view: dict[str, Any], prompt: dict[str, Any]) -> str | None:
    """A prompt's advice by its kind, and by what its public text says where one kind asks
    two different things (the Terror that moves a Tool, Amnesia's gain, the manor's second
    pick)."""
    kind, text = prompt["kind"], prompt.get("text") or ""
    if kind == "foyer" and (view.get("exorcism") or {}).get("exorcised"):
        return FOYER_EXORCISED  # the moment the generic Foyer advice waits for
    if kind == "terror_cell" and text.startswith("Moving Objects"):
        return MOVING_OBJECTS
    if kind == "terror_seat" and text.startswith("Amnesia: choose another player"):
        return AMNESIA_GAIN
    if kind == "manipulate_manor" and text.startswith("Choose the Room to swap"):
        return MANOR_SECOND
    return PROMPTS.get(kind)


def _count(names: list[str], tool_names: dict[str, str]) -> str:
    """"2 Keys and a Weapon" from ["key", "key", "weapon"] (order kept)."""
    counts = Counter(names)
    words = []
    for tool, n in counts.items():
        name = tool_names.get(tool, tool)
        words.append(f"{n} {name}s" if n > 1 else a_noun(name))
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _missing(task: dict[str, Any], held: Counter[str]) -> list[str]:
    """The Tools `task` asks for that `held` does not cover."""
    left = Counter(held)
    out = []
    for tool in task["to_complete"]:
        if left[tool] > 0:
            left[tool] -= 1
        else:
            out.append(tool)
    return out


def _actions(view: dict[str, Any], seat: str) -> str:
    """An investigator's turn: the Actions left and the one thing most worth doing now."""
    left, per_turn = view["actions_left"], view["actions_per_turn"]
    points, target = view["exorcism"]["points"], view["exorcism"]["target"]
    lead = (f"{left} of {per_turn} Actions left; the Exorcism has "
            f"{score_of(points, target, 'point')}.")
    mine = [i for i in view["investigators"] if i["seat"] == seat and not i["escaped"]]
    info = next((x for x in view["seats_info"] if x["seat"] == seat), None)
    if not mine or info is None:
        return lead
    # EX-HAUNT-12, EX-LOSE-01: in core and Solo an empty supply is one Darkness Token from
    # the loss, the most urgent thing on the board (One vs All: Add Darkness places nothing).
    empty = view.get("darkness_supply", 1) <= 0 and view.get("mode") != "one_vs_all"
    if empty:
        lead += (" The Darkness supply is empty: the next Darkness Token that must be placed "
                 "loses the game.")
    # EX-LOSE-01, EX-DARK-01: a supply one turn's Haunt cards can empty is the same danger a
    # turn away (a stop 65 demo: "Darkness left 2 of 30 (3 Haunt cards a turn)" and advice to Purify
    # "before … the supply runs low"; the next Haunt phase lost the game).
    supply = view.get("darkness_supply", 0)
    draws = int((view.get("darkness_track") or {}).get("value", 1))
    low = view.get("mode") != "one_vs_all" and 0 < supply <= 2 * draws
    if low:
        lead += (f" Only {supply} Darkness {plural(supply, 'Token')} left, and "
                 f"{draws} Haunt {plural(draws, 'card')} a turn: a Token to place with none "
                 "left loses the game.")
    if view["exorcism"]["exorcised"]:  # EX-WIN-02: only the escape is left to win
        return (f"{lead} The Ghosts are exorcised: walk to the Foyer and Escape the House. "
                "The investigators win once every Character has escaped; Darkness still "
                "spreads and the clock still runs until then.")
    if left <= 0:  # EX-TURN-02: nothing but a Plan's extra Action or the turn's end
        return (f"{lead} Your Actions are spent: play a Plan that grants one if you hold it, "
                "else end the turn.")
    me = mine[0]
    cells = {c["id"]: c for c in view["cells"]}
    here = cells.get(me["cell"], {})
    names = view["tool_names"]
    if here.get("ghosts"):
        ghost = view["ghost_names"].get(here["ghosts"][0], "a Ghost")
        return (f"{lead} The {ghost} is in {the_name(me['cell_name'])} with you: a Ghost that "
                "moves onto an investigator wounds them, so put a Room between you when you can.")
    held: Counter[str] = Counter()
    for inv in mine:
        held.update({t: int(n) for t, n in inv["tools"].items()})
    tasks = sorted(info["tasks"], key=lambda t: (len(_missing(t, held)), -t["points"]))
    # A Task is completed by one investigator holding every Tool it asks for (EX-ACT-05), in
    # Solo the Primary (EX-SOLO-03): the team's Tools added up do not complete it.
    completers = [inv for inv in mine if inv["role"] != "secondary"]
    doers = [Counter({t: int(n) for t, n in inv["tools"].items()}) for inv in completers]

    def bonus_of(task: dict[str, Any], inv: dict[str, Any]) -> int:
        # EX-TASK-03: the Character whose Specialization is the Task's subtype earns its
        # bonus too (stop 64's demos: "earns 2 points", then "+3 … Specialization bonus").
        if inv.get("specialization") != task.get("subtype"):
            return 0
        return int(inv.get("specialization_bonus", 1))

    def worth(task: dict[str, Any]) -> str:
        bonus = any(bonus_of(task, inv) for inv in completers)
        return (f"{task['points']} {plural(task['points'], 'point')}"
                + (", plus the Specialization bonus" if bonus else ""))

    # The ready Task worth most, its bonus counted (a stop 65 demo: "Key Task 3 … earns 3 points"
    # with Holy Relic Task 4 worth 3 plus the Doctor's bonus ready too).
    ready = max(((int(t["points"]) + bonus_of(t, inv), -n, t)
                 for n, t in enumerate(tasks) for inv, tools in zip(completers, doers,
                                                                 strict=True)
                 if not _missing(t, tools)), key=lambda x: (x[0], x[1]), default=None)
    if ready is not None:
        gain, _, task = ready
        base = int(task["points"])
        said = (f"{lead} You hold every Tool {task['name']} asks for: completing it earns "
                f"{base} {plural(base, 'point')}"
                + (", plus the Specialization bonus" if gain > base else ""))
        if points < target <= points + gain:  # EX-WIN-01: the points that exorcise
            return (f"{said}, which brings the Exorcism to {points + gain} points and "
                    f"exorcises the Ghosts ({target} needed).")
        return said + "."
    if here.get("darkness") and not here.get("shrouded"):  # EX-DARK-06: no Purify there
        room = the_name(me["cell_name"], capital=True)
        if empty or low:
            return (f"{lead} {room} holds {here['darkness']} Darkness: Purify it to put "
                    "Tokens back in the supply.")
        return (f"{lead} {room} holds {here['darkness']} "
                "Darkness: Purify it before it piles up into a Shroud and the supply runs low.")
    if tasks and doers:
        task = tasks[0]
        need = min((_missing(task, tools) for tools in doers), key=len)
        if not _missing(task, held):  # Solo: the Tools are split between your two
            return (f"{lead} Your two investigators hold every Tool {task['name']} asks "
                    "for between them: Trade them onto your Primary to complete it.")
        # The nearest such Room, not the first in the house's order (stop 64's demo sent a
        # player to the far Occult Room with the Supply Room next door).
        at = here or {}
        sources = sorted((c for c in view["cells"] if c.get("action_text")
                          and "Gain" in c["action_text"]
                          and (names.get(need[0], "@") in c["action_text"]
                               or "of any type" in c["action_text"])),
                         key=lambda c: abs(int(c.get("row", 0)) - int(at.get("row", 0)))
                         + abs(int(c.get("col", 0)) - int(at.get("col", 0))))
        tool = names.get(need[0], need[0])
        where = ""
        if sources:
            # EX-ACT-01, EX-ACT-04: a Move a Room away, then the Room's Action; a Room out of
            # this turn's reach is named for the next (stop 65's demo: 1 Action left in the Foyer,
            # told of the Occult Room two Actions away).
            src = sources[0]
            steps = (abs(int(src.get("row", 0)) - int(at.get("row", 0)))
                     + abs(int(src.get("col", 0)) - int(at.get("col", 0))))
            moves = (steps + 1) // 2  # a Move goes up to 2 spaces (EX-ACT-01)
            where = f"; {the_name(src['name'])} gains {a_noun(tool)}"
            if moves + 1 > left:
                where += (f": a goal for your next turn ({moves} {plural(moves, 'Move')} "
                          f"and its Action need more than {left} {plural(left, 'Action')})")
        return (f"{lead} {task['name']} ({worth(task)}) still needs {_count(need, names)}"
                f"{where}.")
    return f"{lead} Trade Tools with a neighbour or gain new Tasks from a Room's Action."


def _ghost_turn(view: dict[str, Any]) -> str:
    """The Ghost player's turn (One vs All), from what the table sees of it."""
    ova = view.get("ova") or {}
    level, win = ova.get("haunt_level", 0), ova.get("haunt_level_win", 0)
    budget = ova.get("budget_left", 0)
    ready = [t["name"] for t in ova.get("terror", []) if t["unlocked"]]
    nxt = next((t for t in ova.get("terror", []) if not t["unlocked"]), None)
    lead = (f"{budget} Ghost Action{'s' if budget != 1 else ''} left; the Haunt Level"
            f" is {level} of the {win} that wins.")
    # Said first when true (stop 64's demo advised wounding with Ghosts already exorcised,
    # and Add Darkness with the supply at 0): what the Ghost player can no longer do.
    exorcised = bool((view.get("exorcism") or {}).get("exorcised"))
    if exorcised:
        lead += (" The Ghosts are exorcised: they wound no one now, but dawn and the Haunt "
                 "Level still win for you if the investigators do not all escape first.")
    # EX-OVA-08, EX-AMB-30: raising the Haunt Level takes 2 Tokens from the supply (a stop 65
    # demo: "the Haunt Level is 28 of the 30 that wins" for 8 turns with the supply at 0, as
    # if one more raise would win).
    supply = view.get("darkness_supply", 2)
    stuck = supply < 2 and level < win
    if supply <= 0:
        lead += " The Darkness supply is empty: Add Darkness places nothing"
        lead += (", and the Haunt Level (2 Tokens a raise) cannot rise until the "
                 "investigators Purify some back." if stuck else ".")
    elif stuck:
        lead += (" Raising the Haunt Level takes 2 Darkness Tokens from the supply: it cannot "
                 "rise until the investigators Purify some back.")
    # EX-OVA-11 (2), EX-RESCUE-03: with no Lookout left the next Wound wins the game, the
    # most urgent thing the Ghost player can know (a stop 65 demo: "Lookouts 0" on the board and
    # only "Play Haunt cards where the investigators stand to wound them.").
    lookouts = (view.get("characters") or {}).get("lookouts")
    if not exorcised and lookouts is not None and not lookouts:
        lead += (" No Lookout is left: the next investigator a Ghost wounds cannot be "
                 "rescued, and you win.")
    if ova.get("terror_used", 0) < ova.get("terror_per_turn", 0) and ready:
        return f"{lead} Terror is ready: {ready[-1]} is your strongest unlocked ability."
    if nxt is not None:
        return f"{lead} {nxt['name']} unlocks at Haunt Level {nxt['threshold']}."
    if exorcised:
        return lead
    return f"{lead} Play Haunt cards where the investigators stand to wound them."


def advice(view: dict[str, Any], seat: str) -> str | None:
    """Advice for `seat`'s decision, from `view` alone (public or that seat's)."""
    prompt = view.get("prompt")
    if prompt and seat in prompt["seats"]:
        return _prompt_advice(view, prompt)
    if view["phase"] == "actions" and view["active_seat"] == seat:
        return _actions(view, seat)
    if view["phase"] == "ghost" and (view.get("ova") or {}).get("ghost_seat") == seat:
        return _ghost_turn(view)
    return None
