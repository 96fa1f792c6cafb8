from htmlkit import builders as h
from htmlkit import render


def test_unordered_list():
    assert render(h.ul(["one", "two"], class_="menu")) == (
        '<ul class="menu"><li>one</li><li>two</li></ul>'
    )


def test_link():
    assert render(h.a("Home", "/")) == '<a href="/">Home</a>'


def test_nested():
    page = h.div(h.p("Hello & welcome"), class_="intro")
    assert render(page) == '<div class="intro"><p>Hello &amp; welcome</p></div>'
