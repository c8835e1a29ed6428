"""Ratings in fixed cases (issue #24, bot/ratings.py): winners go up and losers down, a co-op
win raises every player (and lowers the game's difficulty), an upset moves more than an
expected result, AI seats stand as a virtual opponent, and a table of AI alone rates nobody."""

from __future__ import annotations

from bot.ratings import (
    START_MU,
    START_SIGMA,
    RatedSeat,
    Rating,
    Who,
    ai_player,
    difficulty,
    model,
    rate_game,
    teams_of,
)

A, B, C, D = Who(user_id=1), Who(user_id=2), Who(user_id=3), Who(user_id=4)


def seat(who: Who | None, side: str, outcome: str) -> RatedSeat:
    return RatedSeat(user_id=None if who is None else who.user_id, side=side,
                     outcome=outcome)  # type: ignore[arg-type]


def test_winners_go_up_losers_go_down() -> None:
    after = rate_game([seat(A, "Ghost player", "won"), seat(B, "Investigator", "lost"),
                       seat(C, "Investigator", "lost")], "one_vs_all", "normal", {})
    assert after[A].mu > START_MU
    assert after[B].mu < START_MU and after[C].mu < START_MU
    assert after[B].mu == after[C].mu  # one side, one team
    assert all(r.games == 1 and r.sigma < Rating().sigma for r in after.values())


def test_a_coop_win_raises_every_player_and_lowers_the_difficulty() -> None:
    after = rate_game([seat(A, "table", "won"), seat(B, "table", "won")], "core", "normal", {})
    assert after[A].mu > START_MU and after[B].mu > START_MU
    assert after[difficulty("core")].mu < START_MU
    lost = rate_game([seat(A, "table", "lost"), seat(B, "table", "lost")], "core", "normal",
                     {})
    assert lost[A].mu < START_MU and lost[difficulty("core")].mu > START_MU
    # Each mode has its own difficulty.
    assert difficulty("core") != difficulty("solo")


def test_an_upset_moves_more_than_the_expected_result() -> None:
    strong, weak = Rating(mu=35.0, sigma=3.0, games=40), Rating(mu=15.0, sigma=3.0, games=40)
    ratings = {A: strong, B: weak}
    expected = rate_game([seat(A, "x", "won"), seat(B, "y", "lost")], "m", "normal", ratings)
    upset = rate_game([seat(A, "x", "lost"), seat(B, "y", "won")], "m", "normal", ratings)
    assert upset[B].mu - weak.mu > expected[A].mu - strong.mu > 0
    assert strong.mu - upset[A].mu > weak.mu - expected[B].mu > 0
    assert upset[A].games == 41


def test_a_side_whose_players_fared_apart_is_split_and_a_draw_moves_little() -> None:
    teams = teams_of([seat(A, "Spirit", "lost"), seat(B, "Visitor", "won"),
                      seat(C, "Visitor", "lost")], "session", "normal")
    assert [(members, outcome) for members, outcome in teams] == [
        ([A], "lost"), ([B], "won"), ([C], "lost")]
    drawn = rate_game([seat(A, "x", "drew"), seat(B, "y", "drew")], "m", "normal", {})
    assert abs(drawn[A].mu - START_MU) < 0.5 and abs(drawn[B].mu - START_MU) < 0.5
    # Every player for themselves (one side, one winner): the winner above the rest, and no
    # difficulty to play against.
    alone = rate_game([seat(A, "table", "won"), seat(B, "table", "lost"),
                       seat(C, "table", "lost")], "standard", "normal", {})
    assert set(alone) == {A, B, C} and alone[A].mu > START_MU > alone[B].mu


def test_ai_seats_are_a_virtual_opponent_per_level_and_alone_rate_nobody() -> None:
    after = rate_game([seat(A, "Wall player", "won"), seat(None, "Investigator", "lost"),
                       seat(None, "Investigator", "lost")], "conflict", "hard", {})
    assert set(after) == {A, ai_player("hard")}
    assert after[A].mu > START_MU > after[ai_player("hard")].mu
    assert rate_game([seat(None, "x", "won"), seat(None, "y", "lost")], "m", "easy", {}) == {}
    assert not ai_player("hard").is_person and A.is_person
    # A person beside an AI on one side: the AI is that side's second member.
    mixed = teams_of([seat(A, "table", "won"), seat(None, "table", "won")], "core", "easy")
    assert mixed == [([A, ai_player("easy")], "won"), ([difficulty("core")], "lost")]
    assert D not in after


def test_the_start_is_openskills_own() -> None:
    from openskill.models import PlackettLuce

    assert (PlackettLuce().mu, PlackettLuce().sigma) == (START_MU, START_SIGMA)
    assert (model().mu, model().sigma) == (START_MU, START_SIGMA)
