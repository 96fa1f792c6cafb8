from confkit import merge, parse


def test_later_layer_wins():
    base = parse("[a]\nx = 1\ny = 2\n")
    site = parse("[a]\ny = 3\n[b]\nz = 4\n")
    merged = merge(base, site)
    assert merged.to_dict() == {"a": {"x": "1", "y": "3"}, "b": {"z": "4"}}
    assert base.get("a", "y") == "2"
