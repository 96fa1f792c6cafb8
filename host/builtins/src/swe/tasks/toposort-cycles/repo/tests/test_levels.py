from taskgraph import build_levels, load_graph


def test_levels_group_independent_tasks():
    g = load_graph("fetch:\nlint:\ncompile: fetch\ntest: compile lint\ndocs: fetch")
    assert build_levels(g) == [["fetch", "lint"], ["compile", "docs"], ["test"]]
