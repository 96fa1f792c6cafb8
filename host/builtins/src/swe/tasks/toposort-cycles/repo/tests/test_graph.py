from taskgraph import Graph


def test_add_task_registers_dependencies():
    g = Graph()
    g.add_task("b", ["a"])
    assert g.tasks == ["a", "b"]
    assert g.dependencies("b") == ["a"]
    assert "a" in g and len(g) == 2


def test_dependents():
    g = Graph()
    g.add_task("b", ["a"])
    g.add_task("c", ["a"])
    assert g.dependents("a") == ["b", "c"]
    assert g.dependents("c") == []
