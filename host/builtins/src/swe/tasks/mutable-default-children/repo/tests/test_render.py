from htmlkit import render


def test_escaping_text(make):
    assert render(make("p", None, "1 < 2 & 3")) == "<p>1 &lt; 2 &amp; 3</p>"


def test_escaping_attribute(make):
    assert render(make("a", {"title": 'say "hi"'})) == '<a title="say &quot;hi&quot;"></a>'


def test_boolean_attribute(make):
    el = make("input", {"disabled": True, "checked": False, "name": "q"})
    assert render(el) == '<input disabled name="q">'


def test_void_element(make):
    assert render(make("br")) == "<br>"
