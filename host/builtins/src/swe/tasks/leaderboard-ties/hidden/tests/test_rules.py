from scoreboard import Entry, Leaderboard

ENTRIES = [
    Entry("ana", 90, 300),
    Entry("bo", 90, 250),
    Entry("cy", 80, 100),
    Entry("dee", 80, 100),
    Entry("eve", 70, 50),
]


def test_faster_time_wins_tie():
    board = Leaderboard([Entry("slow", 50, 900), Entry("fast", 50, 100), Entry("mid", 50, 500)])
    assert [r.entry.name for r in board.standings()] == ["fast", "mid", "slow"]
    assert [r.rank for r in board.standings()] == [1, 2, 3]


def test_competition_ranking_skips():
    board = Leaderboard(ENTRIES)
    assert [(r.rank, r.entry.name) for r in board.standings()] == [
        (1, "bo"), (2, "ana"), (3, "cy"), (3, "dee"), (5, "eve"),
    ]
    tied = Leaderboard([Entry("a", 5, 5), Entry("b", 5, 5), Entry("c", 5, 5), Entry("d", 1, 1)])
    assert [r.rank for r in tied.standings()] == [1, 1, 1, 4]


def test_top_and_render_follow_rules():
    board = Leaderboard(ENTRIES)
    assert [r.entry.name for r in board.top(3)] == ["bo", "ana", "cy", "dee"]
    assert [r.entry.name for r in board.top(4)] == ["bo", "ana", "cy", "dee"]
    lines = board.render().splitlines()
    assert lines[1] == "  1  bo       90   4:10"
    assert lines[-1] == "  5  eve      70   0:50"
