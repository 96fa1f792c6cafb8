from verspec.cli import main


def test_cli_sort(capsys):
    assert main(["sort", "1.10.0", "1.2.0", "1.9.0"]) == 0
    assert capsys.readouterr().out.split() == ["1.2.0", "1.9.0", "1.10.0"]


def test_cli_check(capsys):
    assert main(["check", "^1.2", "1.3.0", "2.0.0"]) == 1
    assert capsys.readouterr().out.splitlines() == ["1.3.0: yes", "2.0.0: no"]


def test_cli_usage(capsys):
    assert main([]) == 2
