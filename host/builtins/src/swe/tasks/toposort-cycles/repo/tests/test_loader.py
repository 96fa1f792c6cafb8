import pytest

from taskgraph import GraphError, load_graph


def test_load_graph():
    g = load_graph("compile: fetch\nfetch:\n")
    assert g.tasks == ["compile", "fetch"]
    assert g.dependencies("compile") == ["fetch"]


def test_comments_and_blank_lines():
    g = load_graph("# build\n\nfetch:   # nothing to do\n")
    assert g.tasks == ["fetch"]


def test_unknown_dependency_is_added():
    g = load_graph("deploy: package")
    assert g.tasks == ["deploy", "package"]


def test_bad_line():
    with pytest.raises(GraphError):
        load_graph("no colon here")
