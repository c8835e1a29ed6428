"""Guided play (`guided` option): what the awaited seat can do now and why it matters.

Presentation only: the engine never reads this. Every hint is public-safe — it explains the
kind of decision (already public in the view's prompt), never a Marble in a hidden hand or a
Horror in The Wall's hand. The rulebook's first-game advice (take out The Street Magician,
three Open Gates) is the `first_game` option and the default `gates`.
"""

from __future__ import annotations

from rules.fourth_wall.state import FourthWallState

PROMPTS: dict[str, str] = {
    "keep_investigator": (
        "Keep one of your two Investigator cards; the other goes back. Talk it over with the "
        "team: a mix of Unique Actions (finding, fighting, closing) covers more of the game."),
    "scourge": (
        "Choose the Horror that becomes The Scourge. It stays On the Streets and keeps "
        "hurting the Investigators, so pick the one they will find hardest to Defeat."),
    "gate_doom": (
        "Five Gates are already Open: take a Doom Token for your next turn instead of opening "
        "another. Doom is what pays for your Wrath actions."),
    "wall_doom": (
        "An Investigator failed an Instruction: you may take a Doom Token for your next turn. "
        "More Doom means more actions when your turn comes."),
    "discard_excess": (
        "Over the Hand Limit: discard a Marble. Keep a spread of Clue, Force and Science "
        "Symbols — Closing a Gate needs all three — and any quick-use Marble."),
    "elect": (
        "The team elects an Investigator for this effect. Choose together: usually the one it "
        "helps most or hurts least (a full hand for a loss, an empty one for a gain)."),
    "choose_target": (
        "You choose the Target Investigator: the one closest to Closing a Gate, or the one "
        "with the fewest Marbles, whom a loss could drive Insane."),
    "choose_investigator": (
        "Choose the Investigator this effect applies to — whoever it helps most now."),
    "choose_horror": (
        "Choose the Horror for this effect. Investigators: focus on the Horror nearest to "
        "being Defeated. The Wall: pick the one that hurts them most."),
    "choose_marble": (
        "Choose the Marble for this effect. Marbles are both your tools and your Sanity: "
        "keep the Symbols you need for Closing a Gate."),
    "choose_name": (
        "Name the card to Find: the one your team needs next (a Symbol you lack for "
        "Closing a Gate, or an answer to the Horror On the Streets)."),
    "give_marble": (
        "Give a Marble to another Investigator: pass on the Symbol they need to Close a Gate, "
        "or a Marble to keep an empty hand from going Insane."),
    "give_or_trade": (
        "A free Give or Trade: use it to gather Clue, Force and Science on the Investigator "
        "who will Close the next Gate."),
    "blitz_window": (
        "Blitz: you may Intervene with a revealed Marble before it resolves. Stopping a "
        "Horror now is cheaper than Defeating it later; continue if you hold nothing useful."),
    "blitz_card": (
        "Blitz: choose the next revealed card to Intervene with — the one that does the most "
        "against the Horror it meets."),
    "close_select": (
        "Close a Gate: select Marbles that together show a Clue, a Force and a Science. "
        "Closing every Gate is how the Investigators win."),
    "destroy_tie": (
        "Several Marbles tie for the most Symbols: the team chooses which is Destroyed. Lose "
        "the Symbol you have the most of."),
    "peek_take": (
        "You see the top cards: take the one that helps your team most into your hand."),
    "peek_order": (
        "Put the cards back in the order you want them drawn: the helpful ones first, the "
        "dangerous ones last."),
    "lose_choice": (
        "You must Lose a Marble. Give up the Symbol you can best spare; a quick-use Marble "
        "may let you ignore the loss. An empty hand means Insanity and an Open Gate."),
    "holy_window": (
        "You may discard a quick-use Marble to ignore this loss, or continue. Saving Sanity "
        "now keeps a Gate from opening."),
    "wall_choice": (
        "You choose which Marble the Investigator loses: take the Symbol they need most to "
        "Close a Gate."),
    "regroup_offer": (
        "You may Regroup for free: draw Marbles back toward a full hand. Accept unless your "
        "hand is already what you need."),
    "regroup_draw": (
        "Regroup: draw the stated number of Marbles, or draw up to the Hand Limit — whichever "
        "gives you more."),
    "free_trade": (
        "After Regrouping you may freely Give and Trade with other Regrouped Investigators. "
        "Gather a Clue, a Force and a Science in one hand for Closing a Gate."),
    "trade_mine": (
        "Trade: choose the Marble you offer. Offer a Symbol you hold twice."),
    "trade_theirs": (
        "Trade: choose the Marble you ask for — the Symbol you lack for Closing a Gate."),
    "trade_consent": (
        "Another Investigator offers a Trade: accept if it gets the team closer to Closing a "
        "Gate, decline if you'd lose a Symbol you need."),
    "granted": (
        "You were granted Action Points outside your turn: use them now (Search, Intervene, "
        "Close a Gate…) or pass."),
}
"""Each prompt kind of the engine → its hint (tests check every kind the engine can ask)."""

INVESTIGATOR_TURN = (
    "Spend your Action Points: Search for Marbles, Intervene against Horrors On the Streets, "
    "Give or Trade, Regroup, Exploit the Rift, or Close a Gate with a Clue, a Force and a "
    "Science. Closing every Gate wins; a Horror left On the Streets or an empty hand opens "
    "more.")
WALL_TURN = (
    "You are The Wall: Wrath (spend Doom to Delve, Manifest Horrors, Trigger them, Destroy a "
    "Marble, or your Unique Action) or Brood to gather Doom. Opening Gates — five after An Eye "
    "Opens — or waking The Ancient One wins for you.")


def guide_text(state: FourthWallState, seat: str) -> str | None:
    """The hint for `seat`'s current decision; None when it is not awaited."""
    if state.prompts and seat in state.prompts[-1].seats:
        return PROMPTS.get(state.prompts[-1].kind)
    if state.phase == "wall" and seat == state.wall_seat:
        return WALL_TURN
    if state.phase == "investigator":
        return INVESTIGATOR_TURN
    return None
