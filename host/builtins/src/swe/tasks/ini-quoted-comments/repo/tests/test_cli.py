from confkit.cli import main


def test_cli_get(write, capsys):
    path = write("app.ini", "[server]\nport = 8080\n")
    assert main(["get", str(path), "server.port"]) == 0
    assert capsys.readouterr().out == "8080\n"
    assert main(["get", str(path), "server.nope"]) == 1
    assert main(["get", str(path)]) == 2
