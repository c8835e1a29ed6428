"""Guided play (`guided` option): what the awaited seat can do now and why it matters.

Presentation only: the engine never reads this. Every hint is public-safe — it explains the
kind of decision (already public in the view's prompt), never a hidden card. The rulebook has
no first-game setup for this game; the guide is how a first table learns it.
"""

from __future__ import annotations

from rules.exorcism.state import ExorcismState

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
        "Choose which Wounded Character to heal: a healed Character becomes a Lookout again, "
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
        "You are in the Foyer: Escape the House (for good — you cannot come back) or switch "
        "your Character with a Lookout. Escape once the Ghosts are exorcised; switching "
        "brings in a fresh ability."),
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

ACTIONS = (
    "Spend your Actions (3, or 5 in Solo): move up to 2 Rooms, purify Darkness, trade, use a "
    "Room's Action, complete a Task, pick up Tools or use your ability. Tasks earn the 30 "
    "Exorcism points you need; Darkness and the clock are how you lose, so keep both in check "
    "— then end the turn.")
GHOST_TURN = (
    "You are the Ghosts: play Haunt cards from your hidden hand to move Ghosts and spread "
    "Darkness, spend Terror on its abilities, then end the Ghost turn. Wounds and Darkness "
    "run the investigators out of Lookouts and time.")


def guide_text(state: ExorcismState, seat: str) -> str | None:
    """The hint for `seat`'s current decision; None when it is not awaited."""
    if state.prompts and seat in state.prompts[-1].seats:
        return PROMPTS.get(state.prompts[-1].kind)
    if state.phase == "actions" and state.active == seat:
        return ACTIONS
    if state.phase == "ghost" and seat == state.ghost_seat:
        return GHOST_TURN
    return None
