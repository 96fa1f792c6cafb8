from scoreboard import Entry, Leaderboard


def test_render_distinct_scores():
    board = Leaderboard([Entry("bo", 75, 125), Entry("ana", 90, 300)])
    assert board.render().splitlines() == [
        "  #  name  score   time",
        "  1  ana      90   5:00",
        "  2  bo       75   2:05",
    ]
