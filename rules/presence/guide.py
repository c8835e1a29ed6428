"""Guided play (`guided` option; on by default with `first_game`, P-FIRST): what the awaited
seat can do now and why it matters.

Presentation only: the engine never reads this. `advice` reads a view and nothing else: the
board post's advice comes from the public view, which names a hidden prompt's kind but not its
purpose (what a hidden card asks); the seat's own view, read only in its **My choices** and DM,
carries the purpose too. A turn's advice counts the actions left and names what is near (clue
tokens in the room, fear, being alone). Advice never names a card in a hand, a secret or the
script.
"""

from __future__ import annotations

from typing import Any

from rules.core.game import counted, join_words
from rules.presence.content import TRAUMAS

KINDS: dict[str, str] = {
    "setup": (
        "Setting up: choose for your seat. Characters differ in their starting cards and "
        "abilities; pick one whose strengths you want to lean on."),
    "movement": (
        "Move: spend your movement points room by room, or stop. Go where clue tokens wait to "
        "be Investigated, and stay within hearing of another visitor so the table may talk."),
    "target": (
        "Choose the target of this effect (a room, a die, a visitor, a token or a secret). "
        "Take your time: the board shows where everything is."),
    "choice": (
        "Choose how this effect goes on. Visitors race the Hope Track to reveal the four "
        "secrets; the spirit plays to its hidden script."),
    "clue_discard": (
        "Discard the clue card beneath one of the four secrets. Put it under the secret whose "
        "trauma you think matches: when a secret is revealed, matching clues under it earn "
        "hope or nerve instead of losing it."),
    "rest_discard": (
        "Rest: discard the cards you don't want, then draw back up. Keep cards that move you "
        "toward clue tokens or let you Invoke a secret."),
    "hand_limit": (
        "Too many cards: discard down to the hand size. Keep what you'll use next turn."),
    "item_limit": (
        "Too many items: discard one to the Cellar (someone can still fetch it from there "
        "later)."),
    "draw_source": (
        "Draw a clue card from the deck (unknown) or take a revealed one (known). A known card "
        "of the trauma you are chasing is often the safer choice."),
    "trade_pick": (
        "Trade: pick the cards to give, then offer them. Cards shared within hearing help the "
        "visitor who can use them this round."),
    "trade_accept": (
        "Another visitor offers you cards: accept if they help you next turn, refuse if your "
        "hand is full of better ones."),
    "place_spirit_clue": (
        "As the spirit, place this spirit clue face down in a room. Where it lies decides who "
        "finds it and when — place it to serve your script."),
    "drain": (
        "A drain power costs presence each upkeep: pay to keep it in play, or let it go. Keep "
        "only the drains that still work for your script."),
    "fear_bonus": (
        "A visitor suffered fear near your presence: you may raise one presence die by 1. "
        "Bigger dice pay for stronger spirit powers."),
    "increase": (
        "Increase Presence: choose how your presence grows (raise a die, add a die or move "
        "one). More presence in the right rooms lets you play more spirit cards."),
    "power": (
        "Choose the presence die or power for this spirit card. A die pays from the room it "
        "is in, so use one near the visitors you want to affect."),
}
"""Each prompt kind → its public hint (tests check every kind the engine can ask)."""

PURPOSES: dict[str, str] = {
    # choice
    "discard_pick": "Discard a card: let go of the one you are least likely to play.",
    "door_free": ("You may also change this door for free: open doors help visitors gather, "
                  "closed ones slow the spirit's pawn."),
    "inspect_bottom": ("You inspected the top clue card: leave it on top if you want it drawn "
                       "next, or send it to the bottom."),
    "keep_item": "Search: keep the items you'll use; the rest go to the Cellar.",
    "offer_reaction": ("A reaction can interrupt what is happening: use it if it stops fear or "
                       "keeps you near the others."),
    "offturn_main": ("An effect grants you main actions outside your turn: use them now while "
                     "they are offered, or let them go."),
    "order_triggers": ("Several effects trigger at once: choose which resolves first."
                       " Resolve the one that protects you before the one that hurts."),
    "quick_window": ("Quick actions were declared and ties go to you: take yours now or let the "
                     "others go first."),
    "reorder": ("Reorder the clue deck: put the cards the visitors need on top, the others "
                "below."),
    "take_cellar": "Take an item from the Cellar: the one that helps your next turn most.",
    "take_chamber": "Take a card from the Secret Chamber: a reward for Uncovering it.",
    "trash_fear": ("Trash a fear card: each one lies face up before its visitor and makes them "
                   "suffer fear when its reaction comes, so remove the one that strikes most "
                   "often."),
    "choice": ("Choose one of this card's options: pick the one that helps now, or costs the "
               "least."),
    # target
    "add_die": "Add a presence die to a dark room: the spirit's reach grows from where dice are.",
    "die_into": ("Move a die into this room? Dice near the visitors pay for powers against "
                 "them."),
    "die_step": ("Move the presence die: take it toward the visitors you want to reach. A lit "
                 "room takes 1 presence from a die that enters it, so a die showing 1 fades "
                 "there."),
    "door": ("Choose a door and what to do with it: opening paths brings visitors together, "
             "closing them keeps the spirit out."),
    "inspect_secret": ("Inspect a secret card in secret: learn its trauma so clue discards go "
                       "where they count."),
    "inspect_token": ("Inspect a clue token: see what it is before anyone Investigates it."),
    "investigate": ("Investigate a clue token: it resolves at once, and its clues move you "
                    "toward the secrets."),
    "pawn_pay": "Pay for the spirit pawn's move from a presence die.",
    "pawn_step": ("Move the spirit pawn: it scares visitors it comes near, so take it to "
                  "those you want to frighten."),
    "reveal_secret": ("Reveal a secret card: do it where the clue discards beneath it match "
                      "its trauma, for a reward instead of a penalty."),
    "secret_revealer": ("Choose the visitor who resolves the revealed secret: its effect lands "
                        "on them."),
    "target": "Choose the visitor this effect targets.",
    # setup
    "choose_spirit": ("Choose your spirit character: each has its own deck of spirit cards and "
                      "powers; the first-game spirit is the simplest to learn."),
    "choose_visitor": ("Choose your visitor character: each has its own starting cards and "
                       "ability."),
    "ut_card": ("Unknown Threat: build your spirit deck from any spirit's cards — pick cards "
                "that work together; your script is drawn from the five the visitors chose "
                "once the deck is built, so build for what they have in common."),
    "ut_clue": "Unknown Threat: choose the spirit clues for the bag; you'll place them later.",
    "ut_group": "Unknown Threat: choose whose spirit cards to take the next card from.",
    "ut_script": ("Unknown Threat: the visitors choose the scripts the spirit may be playing. "
                  "Scripts you understand are easier to read from the spirit's moves."),
    "ut_secret": ("Unknown Threat: choose your secret card for this trauma; the visitors must "
                  "find out which is which."),
    # hand_limit / power / increase / drain (the finer purpose)
    "spirit_discard": "Discard down to your spirit card limit: keep the cards your script needs.",
    "discard_card": "Discard down to your hand size: keep what you'll play next turn.",
    "declare_die": ("Declare the presence die that pays for this card: its value and room "
                    "decide what the card can do."),
    "relocate": "Relocate the die to a dark room where it can reach the visitors.",
    "pawn_drain": ("The manifestation drains presence each upkeep: pay near the pawn to keep it, "
                   "or remove it."),
}
"""The finer purpose of a prompt (its `then`), told only to the seat that answers it."""

MOVEMENT_TALK_FREE = (
    "Move: spend your movement points room by room, or stop. Go where clue tokens wait to be "
    "Investigated, and stay near another visitor: a visitor alone is the spirit's easiest "
    "target.")
"""The movement hint where being alone silences nobody (`_talk_is_free`)."""


def _talk_is_free(view: dict[str, Any]) -> bool:
    """Whether being alone leaves table talk as it is: a two-player game has one visitor
    player (P-2P), and under Open Communication the alone speak normally (P-OPEN-01)."""
    presets = view.get("presets") or {}
    return bool(presets.get("two_players") or presets.get("open_communication"))


KNOCKED_OUT = (
    "You were knocked out, so your first action must be Rest: you rise, cure one fear and "
    "draw back up to your hand size.")
SPIRIT_UPKEEP = (
    "Upkeep: the spirit pays drains and places spirit clues. Where clues go decides what the "
    "visitors find next.")


def _visitor_turn(view: dict[str, Any], seat: str) -> str:
    """A visitor's turn: the actions left and the nearest thing worth an action."""
    me = next((v for v in view["visitors"] if v["seat"] == seat), None)
    if me is None:
        return KNOCKED_OUT
    if me["knocked_out"]:
        return KNOCKED_OUT
    left = view["actions_left"]
    if left == 0:
        return ("Your main actions are spent: play any quick actions you still want, then end "
                "the turn.")
    lead = f"{left} main action{'s' if left != 1 else ''} left"
    rooms = {r["id"]: r for r in view["rooms"]}
    here = rooms.get(me["room"], {})
    if view.get("secrets") and all(s.get("revealed") for s in view["secrets"]):
        # Nothing left to find (stop 64's demo: "Investigate to move toward the secrets" at
        # 4 of 4, and the visitor rose to fear 4 of 5 doing it): survive to the round's end.
        # The script's added need is a thing to make true, said as a noun phrase with
        # "with" (stop 65's demo: "…win at the end of the round if at most 2 presence dice
        # on the board holds. … spend actions only to stay safe." tripped and misled).
        need = _also_needed(view)
        if need:
            return (f"{lead}. Every secret is revealed: the visitors win at the end of a "
                    f"round with {need}, as the revealed script asks. Spend your actions "
                    "making that true, staying in light and together.")
        return (f"{lead}. Every secret is revealed: the visitors win at the end of the round "
                "with a visitor still standing. Stay in light and together; spend actions "
                "only to stay safe.")
    ready = _last_secret_ready(view) or _invoke_ready(view)
    if ready:
        return f"{lead}. {ready}"
    if here.get("tokens"):
        n = len(here["tokens"])
        # "here": the visitor's own room (stop 68's demo: "lies in the Kitchen:
        # Investigate" read as a walk to the Kitchen)
        tokens = (f"{lead}. {n} clue token{'s lie' if n > 1 else ' lies'} here in the "
                  f"{me['room_name']}")
        hand = view.get("hand")  # the seat's own view only: the board post cannot tell
        if hand is not None and not any(a["name"].startswith("Investigate")
                                         for card in hand for a in card["actions"]):
            return (f"{tokens}, but no card in your hand Investigates: Rest to draw new "
                    "cards, then Investigate.")
        return f"{tokens}: Investigate to move toward the secrets."
    if me["fear"] >= me["fear_track"] - 1:
        # Rest cures no fear (only rising from a knockout does, P-KO): a cure or company.
        return (f"{lead}. Your fear is {me['fear']} of {me['fear_track']}: cure it (a Comfort, "
                "a card or item that cures fear) or stay with the others before the next "
                "fright knocks you out.")
    chamber = _chamber_advice(view, me, here=True)
    if chamber:
        return f"{lead}. {chamber}"
    others_left = [v for v in view["visitors"] if v["seat"] != seat and not v.get("succumbed")]
    if me["alone"] and not others_left:  # the last one standing (stop 64's demo)
        return (f"{lead}. You are the last visitor in the manor: nobody is left to walk "
                "toward, so keep your candle lit and your fear low.")
    if me["alone"]:
        if _talk_is_free(view):
            others = ("your other character" if (view.get("presets") or {}).get("two_players")
                      else "the other visitors")
            return (f"{lead}. You are alone, out of hearing of {others}: Walk toward them, for "
                    "a visitor alone is the spirit's easiest target.")
        return (f"{lead}. You are alone, out of hearing of the other visitors: Walk toward "
                "them so the table may talk.")
    # The nearest clue tokens by the movement points to reach them (stop 65's demo named two
    # rooms far off in view order and left out the one next door), and "Walk there" only
    # where one point (any visitor's Walk, P-BASIC-03) gets there.
    far = _walk_distances(view, me["room"])
    near = sorted((far[r["id"]], k, r["name"]) for k, r in enumerate(view["rooms"])
                  if r["tokens"] and r["id"] in far and r["id"] != me["room"])
    if near:
        best = near[0][0]
        names = [f"the {name}" for dist, _, name in near if dist == best][:2]
        where = join_words(names)
        if best <= 1:
            return (f"{lead}. Clue tokens wait next door in {where}: Walk there"
                    + (" (one of them)." if len(names) > 1 else "."))
        return (f"{lead}. The nearest clue tokens wait in {where}, {best} movement points "
                "away: head toward them (a Walk, or a card that Moves further).")
    chamber = _chamber_advice(view, me, here=False)  # where no clue token is nearer
    if chamber:
        return f"{lead}. {chamber}"
    track = view["track"]
    need = _also_needed(view)
    empty = _no_clue_card(view)
    if track["hope"] is None and track["nerve"] is None:
        # Both lost, the game goes on (P-TRACK-06) and the secrets still win it: an Invoke
        # reveals one only over a clue card of its trauma.
        wins = "revealing every secret still wins" + (f" with {need}" if need else "")
        if empty:
            return f"{lead}. Hope and Nerve are lost, but {wins}. {empty}"
        return (f"{lead}. Hope and Nerve are lost, but {wins}: discard clue cards beneath the "
                "secret whose trauma they match, so an Invoke can reveal it.")
    more = (f" The revealed script asks more: the secrets win only with {need}." if need
            else "")
    if empty:
        return f"{lead}. {_markers(track)}. {empty}{more}"
    return (f"{lead}. {_markers(track)}: discard clue cards beneath the secret whose "
            "trauma they match." + more)


def _no_clue_card(view: dict[str, Any]) -> str | None:
    """Where the seat's own view shows a hand without a clue card (and no clue token is in
    reach): how to get one, instead of "discard clue cards" it does not have (stop 68's
    demo, three turns running). None on the board post, which shows no hand."""
    hand = view.get("hand")
    if hand is None or any(c.get("kind") == "clue" for c in hand):
        return None
    # An action card's text says what it draws ("Draw 1 clue card.": Deduce, Piece Together)
    draws = [a["name"] for c in hand for a in c.get("actions") or []
             if str(a.get("text", "")).startswith("Draw") and "clue card" in str(a["text"])]
    if draws:
        return ("You hold no clue card and no clue token is within reach: play "
                f"{draws[0]} to draw one, then discard it beneath the secret whose trauma it "
                "matches.")
    return ("You hold no clue card and no clue token is within reach: Rest to draw new "
            "action cards (some draw clue cards).")


def _last_secret_ready(view: dict[str, Any]) -> str | None:
    """The Invoke to play where it surely reveals (P-SECRET-03): the last secret left can
    only be of the one trauma no revealed secret has (each secret has its own), and a face-up
    clue card of that trauma lies beneath it. Read from the seat's own view: the board post
    shows no hand (stop 67's guided demo said "Investigate" where this Invoke won)."""
    hand = view.get("hand")
    if hand is None or not any(a["name"] == "Invoke" for card in hand
                               for a in card.get("actions") or []):
        return None
    left = [s for s in view.get("secrets") or [] if not s.get("revealed")]
    if len(left) != 1:
        return None
    seen = {s.get("trauma") for s in view["secrets"] if s.get("revealed")}
    trauma = next(t for t in TRAUMAS if t not in seen) if len(seen) == 3 else None
    last = left[0]
    if trauma is None or not any(c.get("trauma") == trauma for c in last.get("discards") or []):
        return None
    name = str(trauma).capitalize()
    return (f"The secret at position {last['position']} can only be {name}, and a {name} "
            "clue card lies beneath it: play your Invoke to reveal it.")


def _invoke_ready(view: dict[str, Any]) -> str | None:
    """An Invoke worth playing (P-SECRET-03): where enough clue cards of one trauma lie
    beneath a secret for a reward if that trauma is the secret's (more than the position's
    low tier), a trauma no revealed secret has and no failed Invoke there ruled out (H-38).
    Read from the seat's own view: its hand (the board post shows none), the face-up discards
    and, in Mystery Mode, the cards its player laid face down itself (A-67). Stop 69: the
    advice never named an Invoke, however many matching cards lay beneath a secret."""
    hand = view.get("hand")
    if hand is None or not any(a["name"] == "Invoke" for card in hand
                               for a in card.get("actions") or []):
        return None
    secrets = view.get("secrets") or []
    shown = {s.get("trauma") for s in secrets if s.get("revealed")}
    laid = view.get("laid_face_down") or {}
    low_at = (view.get("secret_board") or {}).get("low_max_at") or []
    best: tuple[int, int, str] | None = None
    for s in secrets:
        pos = int(s["position"])
        if s.get("revealed") or pos > len(low_at):
            continue
        cards = s.get("discards") or laid.get(pos) or laid.get(str(pos)) or []
        failed = max(s.get("failed_invokes") or [0])
        if failed and not s.get("discards"):
            continue  # face down: which of the cards lay there when it failed is unseen
        ruled_out = {c.get("trauma") for c in (s.get("discards") or [])[:failed]}
        count: dict[str, int] = {}
        for c in cards:
            t = c.get("trauma")
            if t in TRAUMAS and t not in shown and t not in ruled_out:
                count[t] = count.get(t, 0) + 1
        for t, n in count.items():
            if n > int(low_at[pos - 1]) and (best is None or n > best[0]):
                best = (n, pos, t)
    if best is None:
        return None
    n, pos, trauma = best
    name = trauma.capitalize()
    # The position and the trauma in sentences apart: the advice guesses from public cards,
    # and must not read as telling which trauma a secret has (H-10)
    return (f"{counted(n, name + ' clue card')} {'lie' if n > 1 else 'lies'} beneath the "
            f"secret at position {pos}. If {name} is that secret's trauma, an Invoke there "
            "reveals it for a reward: play your Invoke if you think it is.")


CHAMBER_AT_MOST = 3
"""The Secret Chamber's passage is worth an Uncover where it is one of at most this many
rooms still possible; a longer list is a guess."""


def _chamber_advice(view: dict[str, Any], me: dict[str, Any], here: bool) -> str | None:
    """Uncover the Secret Chamber (P-CHAMBER-04/05), where it is legal and likely to pay:
    once the secret at position 1 is revealed its trauma's clue cards name every room but
    the passage's, so the rooms none of its face-up cards (nor, in the seat's own view, a
    card in hand) names are where it may be (stop 66: nobody, the AI included, ever Uncovered
    it, and the advice never said it). `here`: only where the visitor stands in such a room;
    else only where it stands in none (go there)."""
    ch = view.get("chamber") or {}
    rooms = ch.get("passage_may_be")
    if not rooms or ch.get("passage_room") is not None:
        return None
    first: dict[str, Any] = next(
        (s for s in view.get("secrets") or [] if s.get("position") == 1), {})
    trauma = str(first.get("trauma") or "")
    held = {c.get("room") for c in view.get("hand") or []
            if c.get("kind") == "clue" and c.get("trauma") == trauma}
    rooms = [r for r in rooms if r not in held]
    names = {r["id"]: r["name"] for r in view["rooms"]}
    if not rooms or len(rooms) > CHAMBER_AT_MOST or any(r not in names for r in rooms):
        return None
    seen = f"the {trauma.capitalize()} clue cards seen so far"
    why = "its two room actions aid the visitors"
    if here != (me["room"] in rooms):
        return None
    if here:
        others = [f"the {names[r]}" for r in rooms if r != me["room"]]
        where = (f"{seen} leave only this room" if not others
                 else f"{seen} leave this room, {join_words(others)}")
        return (f"The Secret Chamber's passage may be here: {where}. Uncover it (a main "
                f"action) to open the chamber: {why}.")
    places = [f"the {names[r]}" for r in rooms]
    where = places[0] if len(places) == 1 else ", ".join(places[:-1]) + " or " + places[-1]
    return (f"The Secret Chamber's passage is in {where}: {seen} name every other room. "
            f"Go there and Uncover it (a main action): {why}.")


def _walk_distances(view: dict[str, Any], start: str) -> dict[str, int]:
    """The movement points from `start` to each room a visitor can reach (P-MOVE-02/03):
    through an open door 1, through a closed one 2 (open it, then go), never through a
    closed locked one (P-MOVE-04). Read from the view's public doors alone."""
    best = {start: 0}
    frontier = [start]
    while frontier:
        frontier.sort(key=lambda r: best[r])
        room = frontier.pop(0)
        for d in view.get("doors", []):
            if room not in d["rooms"] or (d["locked"] and not d["open"]):
                continue
            a, b = d["rooms"]
            other = b if a == room else a
            dist = best[room] + (1 if d["open"] else 2)
            if dist < best.get(other, dist + 1):
                best[other] = dist
                frontier.append(other)
    return best


def _also_needed(view: dict[str, Any]) -> str | None:
    """What the revealed script's bottom half adds to the visitors' win (P-WIN-02: "revealing
    the secrets is no longer enough"), as its card words it ("the spirit pawn off the board"),
    or None while the script is hidden or asks nothing more (stop 63: the advice said the
    secrets alone still win)."""
    script = (view.get("scripts") or {}).get("script") or {}
    bottom = str(script.get("bottom") or "")
    _, found, need = bottom.partition("the visitors also need ")
    return need.rstrip(".").replace(" to have ", " having ") if found and need else None


def _markers(track: dict[str, Any]) -> str:
    """Where hope and nerve stand, in words, while one at least stands: a marker the time
    has caught is lost (its track value is None in the view, P-SUCC-01)."""
    hope, nerve = track["hope"], track["nerve"]
    if hope is None:
        return f"Hope is lost and Nerve stands at {nerve}"
    if nerve is None:
        return f"Hope stands at {hope} and Nerve is lost"
    return f"Hope stands at {hope} and Nerve at {nerve}"


def _spirit_turn(view: dict[str, Any]) -> str:
    """The spirit's turn, from what the table sees of it (never its hand or script)."""
    sp = view["spirit"]
    # Only dice on the board count (stop 63's demo: "3 presence dice worth 0 in all" with all
    # three in the supply); the supply's are named apart.
    dice = [d for d in view["dice"] if d["room"]]
    spare = len(view["dice"]) - len(dice)
    total = sum(d["value"] for d in dice)
    held = sp["hand_count"]
    # Counts of nothing read "no spirit card", never "0 spirit cards" (a demo's advice).
    lead = (f"{counted(len(dice), 'presence die', 'presence dice')} on the board"
            + (f" worth {total} in all" if dice else "")
            + (f" ({spare} in your supply)" if spare else "")
            + f", {counted(held, 'spirit card')} in hand; round {view['track']['time']} of "
            f"{view['final_round']}.")
    lonely = [v["name"] for v in view["visitors"] if v["alone"] and not v["knocked_out"]]
    if held == 0:  # Increase discards a spirit card (P-SPIRIT-09): nothing to pay with
        return (f"{lead} Move your presence dice toward the visitors and end the turn to "
                "draw." if dice else f"{lead} End the turn to draw spirit cards.")
    # The spirit's own view (its DM) holds its script: a good one, still hidden, wins with the
    # visitors (P-WIN), so frightening them is the wrong advice there (stop 60's demo). The
    # board post's view has no script and keeps the table's reading.
    script = (view.get("spirit_private") or {}).get("script") or {}
    if script.get("alignment") == "good" and not (view.get("scripts") or {}).get("revealed"):
        return (f"{lead} Your script is good while it stays hidden: you win if the visitors "
                "win, so help them (cards that cure their fear or give them clue cards) "
                "rather than frighten them.")
    if lonely:
        return f"{lead} {lonely[0]} is alone, out of hearing: a good target for fear."
    return f"{lead} Increase Presence where the visitors gather to pay for stronger cards."


def advice(view: dict[str, Any], seat: str) -> str | None:
    """Advice for `seat`'s decision (`seat` is the acting slot), from `view` alone: a prompt's
    purpose when the view shows it, else its kind; a turn's actions and what is near."""
    prompt = view.get("prompt")
    if prompt and seat in prompt["seats"]:
        if prompt["kind"] == "movement" and _talk_is_free(view):
            return MOVEMENT_TALK_FREE
        return PURPOSES.get(prompt.get("purpose") or "") or KINDS.get(prompt["kind"])
    spirit = view["spirit"]["seat"]
    if view["phase"] == "visitor" and view["active_seat"] == seat and seat != spirit:
        return _visitor_turn(view, seat)
    if view["phase"] == "spirit" and seat == spirit:
        return _spirit_turn(view)
    if seat == spirit:
        return SPIRIT_UPKEEP
    return None
