"""The demo: the real bot plays whole games against the local Discord emulator.

A tool on top of the product, like `bench`: it drives the bot from outside, pressing the buttons
the cogs post (so it knows their custom ids) inside the emulator (`emulator`). `python -m bot demo`
hands over to `run_demo` at the CLI edge; end-to-end tests drive games with `AutoTable`.
"""

from demo.autoplay import AutoTable, Move, run_demo

__all__ = ["AutoTable", "Move", "run_demo"]
