from jobq import Job, Scheduler


def test_runs_jobs_by_priority(make_job):
    sched = Scheduler()
    sched.submit(make_job("report"), priority=5)
    sched.submit(make_job("urgent"), priority=0)
    results = sched.run_all()
    assert [r.name for r in results] == ["urgent", "report"]
    assert all(r.ok for r in results)


def test_failed_job_is_retried(flaky):
    handler = flaky(2)
    sched = Scheduler()
    sched.submit(Job("sync", handler=handler, payload={"value": 42}))
    [result] = sched.run_all()
    assert result.ok and result.value == 42
    assert result.attempts == 3
    assert result.delays == [0.5, 1.0]


def test_gives_up_after_max_attempts(flaky):
    sched = Scheduler()
    sched.submit(Job("sync", handler=flaky(10), max_attempts=2))
    [result] = sched.run_all()
    assert not result.ok
    assert result.error == "boom 2"
    assert sched.log[-1] == "sync: attempt 2 failed: boom 2"
