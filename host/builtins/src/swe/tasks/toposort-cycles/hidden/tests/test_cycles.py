import pytest

from taskgraph import CycleError, build_levels, build_order, load_graph

TASKS = """
compile: fetch
fetch:
test: compile package
package: test
"""


def test_cycle_downstream_of_root():
    with pytest.raises(CycleError) as info:
        build_order(load_graph(TASKS))
    assert sorted(info.value.cycle) == ["package", "test"]


def test_self_dependency_beside_other_tasks():
    with pytest.raises(CycleError) as info:
        build_order(load_graph("fetch:\nlint: lint"))
    assert info.value.cycle == ["lint"]


def test_levels_detect_cycle():
    g = load_graph("a:\nb: a d\nc: b\nd: c\ne: a")
    with pytest.raises(CycleError) as info:
        build_levels(g)
    assert sorted(info.value.cycle) == ["b", "c", "d"]
    # an acyclic graph still works
    assert build_levels(load_graph("a:\nb: a")) == [["a"], ["b"]]
