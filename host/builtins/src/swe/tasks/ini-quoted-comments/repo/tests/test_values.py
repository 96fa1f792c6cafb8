from confkit.values import clean, strip_inline_comment, unquote


def test_inline_comment_removed():
    assert strip_inline_comment("8080 ; default") == "8080"
    assert strip_inline_comment("8080\t# default") == "8080"


def test_hash_without_space_kept():
    assert strip_inline_comment("http://example.org/#top") == "http://example.org/#top"
    assert strip_inline_comment("a;b") == "a;b"


def test_unquote():
    assert unquote('"  padded  "') == "  padded  "
    assert unquote("'C:\\temp'") == "C:\\temp"
    assert unquote('"tab\\there \\"q\\""') == 'tab\there "q"'
    assert unquote('"unbalanced') == '"unbalanced'


def test_clean():
    assert clean(' "quoted" ; comment') == "quoted"
