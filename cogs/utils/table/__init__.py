"""Playing a game on Discord: restart-proof components, one play path, and event delivery.

Every choice the engine offers becomes a button or a select built from `legal_actions`: the
public part of the awaited player's choices (`Game.public_actions`) on the board post itself, one
click; the rest (choices that name hidden cards) on the seat's summary DM, its private control
panel (`panel_actions`, `Delivery.refresh_summaries`), also one click, at any time: a DM is a
normal message the bot may edit for as long as the game runs, where an ephemeral menu's token
dies after 15 minutes. A press there is answered by updating that DM in the interaction's own
response (`press_in_dm`). Seats without a summary DM (DMs closed) read them in a private menu
(**My choices**) that follows the game (`PrivateMenus`). Custom
ids name the game, the seat and the decision the seat faced (`Game.decision_id`), so a press
from an earlier turn is refused kindly and components keep working after a restart
(`DynamicItem`s are matched by template, not by a live View).

Delivery: public events go to the game's thread. A new board post (pinging whoever newly has to
decide; the previous post loses its buttons) comes only when the decision passes to someone
else or a new turn begins; while the same seats keep deciding, their post is edited in place
(new turn card, the stretch's event lines growing) and pings nobody (`Delivery.post_board`,
`BoardPost`, stored so a restart keeps the policy) — while it is younger than an hour: Discord
limits edits of older messages, so an old post is followed by a fresh one (`OLD_MESSAGE`). The
inline picture is the phone-sized turn card; **Full board** shows the whole board ephemerally,
rendered once per game version. Every upload carries alt text (`Game.alt_text`). Private events
go by DM to the seats allowed to see them; a DM that fails is reported in the thread without
the secret. Each seat's private summary (its hand and other secrets, `Game.private_summary`)
lives in one DM that is edited whenever the summary changes (H-02), so a hand that changes
every move costs no new DM.

The package, by concern (data flows top to bottom when a move is played):

- `components`: the restart-proof buttons and menus (`DynamicItem`s) and the views built from a
  seat's legal actions (`action_view`, `board_actions`, `panel_actions`).
- `presses`: the play path. A press becomes the seat's move (`press` -> `play` ->
  `bot.tables.act`), its answer held to carry the result; **My hand**, **My choices** and
  **Full board** answered privately.
- `delivery` (`Delivery`, one per bot, `delivery_for`): after each move, `after_action` sends
  what happened to the right places. It is built in layers, each a module:
  `core` (names, renders, the thread, DMs) <- `dms` (each seat's summary DM and private news)
  <- `boards` (the board post queue: post or edit, pings, retries when Discord refuses) <-
  `delivery` (after_action, AI seats, a thread or server gone).
- `posts` (what a board post stands for, `BoardPost`, `Showing`, how refusals are read),
  `summaries` (the text of a summary DM), `menus` (private menus for seats without DMs),
  `channels` (a game's own channel), `words` (player names, guided play): the pieces the
  layers use.
"""

from __future__ import annotations

from cogs.utils.table.boards import (
    BoardPosts,
)
from cogs.utils.table.channels import (
    TABLE_CLOSED,
    TABLE_TALK,
    TABLE_TOPIC,
    is_table_channel,
    open_table_channel,
)
from cogs.utils.table.components import (
    DYNAMIC_ITEMS,
    MAX_BUTTONS,
    PAGE_SIZE,
    SELECT_SIZE,
    SELECTS_PER_PAGE,
    ActionButton,
    ActionSelect,
    ChoicesButton,
    FullBoardButton,
    HandButton,
    PageButton,
    _decision_token,
    action_hash,
    action_view,
    board_actions,
    game_of,
    panel_actions,
    table_buttons,
)
from cogs.utils.table.core import (
    DeliveryCore,
)
from cogs.utils.table.delivery import (
    Delivery,
    delivery_for,
)
from cogs.utils.table.dms import (
    SummaryDMs,
)
from cogs.utils.table.menus import (
    GONE_MENU,
    MENU_TOKEN_LIFE,
    MenuRef,
    PrivateMenus,
    menu_content,
    menu_key,
)
from cogs.utils.table.posts import (
    DELETE,
    FULL_BOARDS_KEPT,
    MAX_POST_LINES,
    MISSING_ACCESS,
    NO_PICTURE,
    OLD_EDITS_CODE,
    OLD_MESSAGE,
    RETRYABLE_CODES,
    STRIP,
    BoardDelayed,
    BoardPost,
    Posted,
    Showing,
    blocked_reason,
    has_board_picture,
    retryable,
    shown_or_delayed,
)
from cogs.utils.table.presses import (
    DM_ANSWER_WITHIN,
    current_choice,
    in_dm,
    play,
    press,
    press_in_dm,
    refuse_spectator,
    show_choices,
    show_full_board,
    show_hand,
    turn_page,
)
from cogs.utils.table.summaries import (
    NEWS_HEAD,
    NEWS_KEPT,
    NEWS_LINE,
    PANEL_MARK,
    AfterAction,
    Settling,
    SummaryDM,
    SummaryNow,
    last_news,
    last_summary,
    news_block,
    summary_dm,
    summary_head,
    summary_text,
)
from cogs.utils.table.words import (
    AI_NAME,
    escape_name,
    guide_lines,
    is_guided,
)

__all__ = [
    "AI_NAME",
    "DELETE",
    "DM_ANSWER_WITHIN",
    "DYNAMIC_ITEMS",
    "FULL_BOARDS_KEPT",
    "GONE_MENU",
    "MAX_BUTTONS",
    "MAX_POST_LINES",
    "MENU_TOKEN_LIFE",
    "MISSING_ACCESS",
    "NEWS_HEAD",
    "NEWS_KEPT",
    "NEWS_LINE",
    "NO_PICTURE",
    "OLD_EDITS_CODE",
    "OLD_MESSAGE",
    "PAGE_SIZE",
    "PANEL_MARK",
    "RETRYABLE_CODES",
    "SELECTS_PER_PAGE",
    "SELECT_SIZE",
    "STRIP",
    "TABLE_CLOSED",
    "TABLE_TALK",
    "TABLE_TOPIC",
    "ActionButton",
    "ActionSelect",
    "AfterAction",
    "BoardDelayed",
    "BoardPost",
    "BoardPosts",
    "ChoicesButton",
    "Delivery",
    "DeliveryCore",
    "FullBoardButton",
    "HandButton",
    "MenuRef",
    "PageButton",
    "Posted",
    "PrivateMenus",
    "Settling",
    "Showing",
    "SummaryDM",
    "SummaryDMs",
    "SummaryNow",
    "_decision_token",
    "action_hash",
    "action_view",
    "blocked_reason",
    "board_actions",
    "current_choice",
    "delivery_for",
    "escape_name",
    "game_of",
    "guide_lines",
    "has_board_picture",
    "in_dm",
    "is_guided",
    "is_table_channel",
    "last_news",
    "last_summary",
    "menu_content",
    "menu_key",
    "news_block",
    "open_table_channel",
    "panel_actions",
    "play",
    "press",
    "press_in_dm",
    "refuse_spectator",
    "retryable",
    "show_choices",
    "show_full_board",
    "show_hand",
    "shown_or_delayed",
    "summary_dm",
    "summary_head",
    "summary_text",
    "table_buttons",
    "turn_page",
]
