import pytest

from jobq import EmptyQueue, JobQueue


def test_lower_priority_first():
    q = JobQueue()
    q.push("low", priority=9)
    q.push("high", priority=0)
    q.push("mid", priority=4)
    assert [q.pop(), q.pop(), q.pop()] == ["high", "mid", "low"]


def test_peek_does_not_remove():
    q = JobQueue()
    q.push("x", 1)
    assert q.peek() == "x"
    assert len(q) == 1


def test_pop_empty_raises():
    with pytest.raises(EmptyQueue):
        JobQueue().pop()
    with pytest.raises(IndexError):
        JobQueue().peek()


def test_len_and_bool():
    q = JobQueue()
    assert not q and len(q) == 0
    q.push("a")
    assert q and len(q) == 1
