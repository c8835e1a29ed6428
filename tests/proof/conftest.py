"""The proof tests reuse the end-to-end `table` (an emulator, three players, a running bot on a
temporary database) and the High Card registration."""

from tests.e2e.conftest import highcard, table

__all__ = ["highcard", "table"]
