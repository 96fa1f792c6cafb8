import pytest

from taskgraph import CycleError, Graph, build_order, load_graph


def test_linear_chain():
    g = load_graph("c: b\nb: a\na:")
    assert build_order(g) == ["a", "b", "c"]


def test_diamond():
    g = load_graph("top: left right\nleft: base\nright: base\nbase:")
    assert build_order(g) == ["base", "left", "right", "top"]


def test_ties_sorted_by_name():
    g = load_graph("zeta:\nalpha:\nmid: zeta alpha")
    assert build_order(g) == ["alpha", "zeta", "mid"]


def test_full_cycle_raises():
    with pytest.raises(CycleError) as info:
        build_order(load_graph("a: b\nb: a"))
    assert sorted(info.value.cycle) == ["a", "b"]
    assert str(info.value) == "dependency cycle: a -> b -> a"


def test_empty_graph():
    assert build_order(Graph()) == []
