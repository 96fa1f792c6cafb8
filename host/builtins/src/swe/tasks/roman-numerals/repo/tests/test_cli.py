from numerals.cli import main


def test_cli_converts_both_ways(capsys):
    out = main(["2024", "XLII", "bogus"])
    assert out.splitlines() == [
        "2024 = MMXXIV",
        "XLII = 42",
        "bogus: error: not a Roman numeral: 'bogus'",
    ]
    assert capsys.readouterr().out.strip() == out
