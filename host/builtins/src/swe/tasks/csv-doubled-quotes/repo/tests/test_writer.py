from tabula import SEMICOLON, format_field, format_rows


def test_plain_fields_unquoted():
    assert format_rows([["a", 1, None]]) == "a,1,\n"


def test_delimiter_quoted():
    assert format_field("x,y") == '"x,y"'
    assert format_field("x,y", SEMICOLON) == "x,y"


def test_quotes_doubled():
    assert format_field('say "hi"') == '"say ""hi"""'


def test_surrounding_space_quoted():
    assert format_field(" padded ") == '" padded "'
