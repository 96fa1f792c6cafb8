from scoreboard import Entry, Leaderboard


def names(board):
    return [(r.rank, r.entry.name) for r in board.standings()]


def test_orders_by_score():
    board = Leaderboard([Entry("a", 10, 5), Entry("b", 30, 5), Entry("c", 20, 5)])
    assert names(board) == [(1, "b"), (2, "c"), (3, "a")]


def test_full_tie_keeps_name_order():
    board = Leaderboard([Entry("zed", 50, 60), Entry("amy", 50, 60)])
    assert names(board) == [(1, "amy"), (1, "zed")]


def test_add_and_len():
    board = Leaderboard()
    board.add(Entry("a", 1, 1))
    assert len(board) == 1


def test_empty_board():
    board = Leaderboard()
    assert board.standings() == []
    assert board.render() == "(no entries)"
