"""Run queued jobs with retries."""

from typing import List

from .job import Job, JobResult
from .queue import JobQueue
from .retry import backoff


class Scheduler:
    def __init__(self) -> None:
        self.queue = JobQueue()
        self.log: List[str] = []

    def submit(self, job: Job, priority: int = 0) -> None:
        self.queue.push(job, priority)

    def _run_one(self, job: Job) -> JobResult:
        delays = []
        while True:
            try:
                value = job.run()
            except Exception as exc:  # the job's own failure
                self.log.append(f"{job.name}: attempt {job.attempts} failed: {exc}")
                if job.attempts >= job.max_attempts:
                    return JobResult(job.name, False, job.attempts, error=str(exc), delays=delays)
                delays.append(backoff(job.attempts))
                continue
            self.log.append(f"{job.name}: ok")
            return JobResult(job.name, True, job.attempts, value=value, delays=delays)

    def run_all(self) -> List[JobResult]:
        results = []
        while self.queue:
            results.append(self._run_one(self.queue.pop()))
        return results
