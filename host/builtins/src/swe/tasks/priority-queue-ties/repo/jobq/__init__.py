"""In-process job queue."""

from .job import Job, JobResult
from .queue import EmptyQueue, JobQueue
from .scheduler import Scheduler

__all__ = ["EmptyQueue", "Job", "JobQueue", "JobResult", "Scheduler"]
