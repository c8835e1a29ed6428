"""Imported only by the render pool's fork server (`set_forkserver_preload`), at its start:
ties the fork server's life to the bot's, so a SIGKILLed bot leaves no fork server behind
(its render workers tie themselves to the fork server the same way, `bot.renderpool`)."""

from bot.renderpool import die_with_parent

die_with_parent()
