from jobq import Job, JobQueue, Scheduler


def test_equal_priority_is_fifo():
    q = JobQueue()
    for name in ["write", "read", "delete"]:
        q.push(name, priority=5)
    q.push("first", priority=1)
    assert [q.pop() for _ in range(4)] == ["first", "write", "read", "delete"]


def test_uncomparable_items():
    q = JobQueue()
    q.push({"job": "b"}, priority=1)
    q.push({"job": "a"}, priority=1)
    q.push(Job("c"), priority=1)
    assert q.peek() == {"job": "b"}
    assert q.pop() == {"job": "b"}
    assert q.pop() == {"job": "a"}
    assert q.pop().name == "c"


def test_scheduler_keeps_submission_order():
    sched = Scheduler()
    for name in ["resize", "upload", "notify"]:
        sched.submit(Job(name, payload={"n": name}), priority=2)
    sched.submit(Job("auth"), priority=0)
    assert [r.name for r in sched.run_all()] == ["auth", "resize", "upload", "notify"]
