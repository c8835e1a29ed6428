"""I Am the Fourth Wall action kinds, their parameters, and which command family each belongs to.

The Discord cog groups `legal_actions` by `COMMAND_OF_KIND`: a kind listed there is a slash
command of the ``/fourthwall`` group (autocomplete from the listed actions) and also a button; every
other kind is a prompt answer, shown as buttons / a select under the pending prompt's text
(``PROMPT_ANSWERS``).

Investigator actions (the active Investigator's turn, FW-ACT-01..08; also the answers of a
``granted`` prompt, FW-PROMPT-24). Every one carries ``inv`` = the acting investigator id
(``i1`` .. ``i6``), since one seat may control several Investigators (FW-PLAY-03):

============  =========================  ==============================================
kind          params                     meaning
============  =========================  ==============================================
search        inv                        draw a Marble (FW-ACT-04)
intervene     inv, marble                Attach that Marble; the Horror is asked next
                                         unless only one is On the Streets (FW-ACT-05)
utilise       inv, marble                reveal and use its Utilise Instruction (FW-ACT-06)
give          inv, to = investigator id  Give a Marble (asked next) (FW-ACT-07)
trade         inv, with = investigator   Trade a Marble (yours, then theirs, then the
                                         partner's consent) (FW-ACT-07, FW-AMB-27)
regroup       inv                        Regroup (FW-ACT-08)
close_gate    inv                        Close a Gate: Marbles are selected next (FW-ACT-01)
exploit       inv                        Exploit the Rift (+Doom afterwards) (FW-ACT-02)
unique        inv                        the Investigator's Unique Action (FW-ACT-03)
pass          inv                        end the turn (unspent AP is lost, FW-AMB-23)
============  =========================  ==============================================

The Wall's turn in Conflict (FW-WALL-01..16), the Wall seat only:
``wrath`` / ``brood`` (the turn type, FW-PROMPT-03), then during Wrath ``delve``,
``manifest`` (horror = a Horror id in hand), ``trigger`` (horror = a Horror On the Streets),
``destroy`` (marble = an Attached or Anchored Marble), ``wall_unique`` (n = index of the Unique
Action, 0 = the top one), and ``end_turn``.

Off-turn quick use at rest (``any_time_out_of_turn`` reactions, when a pack has them):
``react`` (inv, marble) — any seat whose Investigator holds such a Marble (`Game.may_act`).

Prompt answers (buttons): see ``PROMPT_ANSWERS``.
"""

from __future__ import annotations

# Investigator actions.
SEARCH = "search"
INTERVENE = "intervene"
UTILISE = "utilise"
GIVE = "give"
TRADE = "trade"
REGROUP = "regroup"
CLOSE_GATE = "close_gate"
EXPLOIT = "exploit"
UNIQUE = "unique"
PASS = "pass"
REACT = "react"

# The Wall (Conflict).
WRATH = "wrath"
BROOD = "brood"
DELVE = "delve"
MANIFEST = "manifest"
TRIGGER = "trigger"
DESTROY = "destroy"
WALL_UNIQUE = "wall_unique"
END_TURN = "end_turn"

# Prompt answers.
KEEP = "keep"  # card = Investigator card id                      FW-PROMPT-01
SCOURGE = "scourge"  # horror                                       FW-PROMPT-05
KEEP_SCOURGE = "keep_scourge"
CHOOSE_INVESTIGATOR = "choose_investigator"  # inv                   FW-PROMPT-06/07
CHOOSE_HORROR = "choose_horror"  # horror                            FW-PROMPT-13/18/19/20
CHOOSE_MARBLE = "choose_marble"  # marble                            FW-PROMPT-09/10/16/23
CHOOSE_NAME = "choose_name"  # name (Find)                           FW-PROMPT-18
CHOOSE_CARD = "choose_card"  # card (peek: take / put back next)     FW-PROMPT-18
ACCEPT = "accept"  # regroup offer, trade consent                    FW-PROMPT-08/16
DECLINE = "decline"  # ... and declining a quick use                 FW-PROMPT-11/12
REGROUP_DRAW = "regroup_draw"  # mode = "n" | "limit"                FW-PROMPT-08
SELECT = "select"  # marble (Close a Gate selection)                 FW-PROMPT-15
CONFIRM = "confirm"
CANCEL = "cancel"
FREE_GIVE = "free_give"  # to                                        FW-PROMPT-17
FREE_TRADE = "free_trade"  # with
DONE = "done"
STOP = "stop"  # stop early ("up to" n)
TAKE_DOOM = "take_doom"  # The Wall places a Doom                    FW-PROMPT-21/22
GIVE_OR_TRADE_GIVE = "give_to"  # to   (a free Give or Trade from a card, FW-PROMPT-16)
GIVE_OR_TRADE_TRADE = "trade_with"  # with

INVESTIGATOR_KINDS: tuple[str, ...] = (
    SEARCH, INTERVENE, UTILISE, GIVE, TRADE, REGROUP, CLOSE_GATE, EXPLOIT, UNIQUE, PASS,
)
"""The Investigator actions (and ending the turn)."""

WALL_KINDS: tuple[str, ...] = (
    WRATH, BROOD, DELVE, MANIFEST, TRIGGER, DESTROY, WALL_UNIQUE, END_TURN,
)
"""The Wall player's turn in Conflict."""

COMMAND_OF_KIND: dict[str, str] = {
    SEARCH: "search",
    INTERVENE: "intervene",
    UTILISE: "utilise",
    GIVE: "give",
    TRADE: "trade",
    REGROUP: "regroup",
    CLOSE_GATE: "close",
    EXPLOIT: "exploit",
    UNIQUE: "unique",
    PASS: "end",
    REACT: "react",
    WRATH: "wrath",
    BROOD: "brood",
    DELVE: "delve",
    MANIFEST: "manifest",
    TRIGGER: "trigger",
    DESTROY: "destroy",
    WALL_UNIQUE: "power",
    END_TURN: "end",
}
"""Slash-command family (``/fourthwall <name>``) of each main kind; others are prompt answers."""

PROMPT_ANSWERS: dict[str, tuple[str, ...]] = {
    "keep_investigator": (KEEP,),
    "scourge": (SCOURGE, KEEP_SCOURGE, DECLINE),
    "choose_target": (CHOOSE_INVESTIGATOR,),
    "elect": (CHOOSE_INVESTIGATOR,),
    "choose_investigator": (CHOOSE_INVESTIGATOR,),
    "regroup_offer": (ACCEPT, DECLINE),
    "regroup_draw": (REGROUP_DRAW,),
    "lose_choice": (CHOOSE_MARBLE, REACT),  # {C} the Holy Symbol is offered with it
    "wall_choice": (CHOOSE_MARBLE,),
    "holy_window": (REACT, DECLINE),
    "blitz_window": (REACT, DECLINE),
    "blitz_card": (CHOOSE_MARBLE,),
    "choose_horror": (CHOOSE_HORROR,),
    "discard_excess": (CHOOSE_MARBLE,),
    "close_select": (SELECT, CONFIRM, CANCEL),
    "give_marble": (CHOOSE_MARBLE, STOP),
    "trade_mine": (CHOOSE_MARBLE, CANCEL),
    "trade_theirs": (CHOOSE_MARBLE, CANCEL),
    "trade_consent": (ACCEPT, DECLINE),
    "give_or_trade": (GIVE_OR_TRADE_GIVE, GIVE_OR_TRADE_TRADE),
    "free_trade": (FREE_GIVE, FREE_TRADE, DONE),
    "choose_marble": (CHOOSE_MARBLE, STOP),
    "choose_name": (CHOOSE_NAME,),
    "peek_take": (CHOOSE_CARD,),
    "peek_order": (CHOOSE_CARD,),
    "wall_doom": (TAKE_DOOM, DECLINE),
    "gate_doom": (TAKE_DOOM, DECLINE),
    "destroy_tie": (CHOOSE_MARBLE,),
    "granted": (*INVESTIGATOR_KINDS,),
}
"""Prompt kind (``state.prompts[-1].kind``, ``view["prompt"]["kind"]``) -> the action kinds
that answer it (spec §6 ids in the comments above)."""

SAFE_PUBLIC_KINDS: frozenset[str] = frozenset({
    SEARCH, REGROUP, CLOSE_GATE, EXPLOIT, UNIQUE, PASS, GIVE, TRADE, CHOOSE_INVESTIGATOR,
    CHOOSE_HORROR, ACCEPT, DECLINE, REGROUP_DRAW, CONFIRM, CANCEL, FREE_GIVE, FREE_TRADE, DONE,
    STOP, CHOOSE_NAME, GIVE_OR_TRADE_GIVE, GIVE_OR_TRADE_TRADE, TAKE_DOOM,
})
"""Answer kinds whose labels never name a card in a hidden hand (`Game.public_choices`)."""

INVESTIGATOR_PUBLIC: frozenset[str] = SAFE_PUBLIC_KINDS - {CLOSE_GATE, EXPLOIT, UNIQUE}
"""An Investigator's kinds on the public board in Conflict (`Game.public_actions`): not Close a
Gate, offered only when the hand shows enough Symbols (FW-ACT-01), nor Exploit the Rift and the
Unique Action, offered only when their card can do something now (FW-AMB-16), which for some
cards depends on the hand (a Close a Gate effect): the Wall may not learn it (FW-VIS-06)."""

WALL_PUBLIC: frozenset[str] = frozenset({
    WRATH, BROOD, DELVE, TRIGGER, DESTROY, END_TURN, SCOURGE, KEEP_SCOURGE,
    CHOOSE_INVESTIGATOR, CHOOSE_HORROR, TAKE_DOOM, DECLINE,
})
"""The Wall's kinds on the public board: its turn choices (FW-VIS-22) and Streets answers.
Not ``manifest`` (a Horror in its hand, FW-VIS-15); ``wall_unique`` only after An Eye Opens
(its cost would tell the Wall card, FW-VIS-12)."""

WALL_PUBLIC_PROMPTS: frozenset[str] = frozenset({
    "scourge", "choose_target", "choose_horror", "wall_doom", "gate_doom",
})
"""Prompts the Wall answers on the public board (about the Streets, the Investigators, Doom)."""

HIDDEN_HAND_PROMPTS: frozenset[str] = frozenset({
    "holy_window", "blitz_window", "lose_choice", "discard_excess", "close_select",
    "give_marble", "trade_mine", "trade_theirs", "choose_marble", "trade_consent",
})
"""Prompts over an Investigator's hidden hand: in Conflict their answers are never shown on the
public board, even when every answer happens to be safe (FW-VIS-06). ``trade_consent`` too: its
question names the two Marbles (FW-AMB-27), which only the DM may say, so its Accept and
Decline go where those words are (stop 64's demo: a player accepted on the board, never told
what for)."""
