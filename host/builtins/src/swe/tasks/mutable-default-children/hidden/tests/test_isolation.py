from htmlkit import Document, Element, render
from htmlkit import builders as h


def test_children_not_shared():
    nav = Element("nav")
    nav.append(Element("a", {"href": "/"}))
    footer = Element("footer")
    assert render(footer) == "<footer></footer>"
    assert render(nav) == '<nav><a href="/"></a></nav>'


def test_attributes_not_shared():
    Element("div").add_class("hidden")
    Element("p").set("id", "main")
    assert render(Element("span")) == "<span></span>"


def test_images_keep_their_own_attributes():
    logo = h.img("logo.png", alt="Logo")
    icon = h.img("icon.png")
    assert render(logo) == '<img alt="Logo" src="logo.png">'
    assert render(icon) == '<img src="icon.png">'
    page = Document("gallery").add(logo).add(icon)
    assert page.render().endswith('<body><img alt="Logo" src="logo.png"><img src="icon.png"></body></html>')
