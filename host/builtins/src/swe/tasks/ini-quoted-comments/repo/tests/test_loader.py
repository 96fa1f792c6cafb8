from confkit import load, load_many


def test_load_many(write):
    first = write("defaults.ini", "[server]\nport = 80\nhost = localhost\n")
    second = write("site.ini", "\ufeff[server]\nport = 8080\n")
    config = load_many([first, second, first.parent / "missing.ini"], missing_ok=True)
    assert config.to_dict() == {"server": {"port": "8080", "host": "localhost"}}


def test_load(write):
    path = write("one.ini", "[x]\ny = z\n")
    assert load(path).get("x", "y") == "z"
