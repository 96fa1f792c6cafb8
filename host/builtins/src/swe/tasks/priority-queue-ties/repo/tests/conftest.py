import pytest

from jobq import Job


class Flaky:
    """A handler that fails ``failures`` times before succeeding."""

    def __init__(self, failures):
        self.failures = failures
        self.calls = 0

    def __call__(self, payload):
        self.calls += 1
        if self.calls <= self.failures:
            raise RuntimeError(f"boom {self.calls}")
        return payload.get("value", "done")


@pytest.fixture
def flaky():
    return Flaky


@pytest.fixture
def make_job():
    def make(name, **payload):
        return Job(name, handler=lambda p: p.get("value", name), payload=payload)

    return make
