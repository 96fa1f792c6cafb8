from htmlkit import Document
from htmlkit import builders as h


def test_document_skeleton():
    doc = Document("Hi <there>")
    doc.add(h.p("body text"))
    assert doc.render() == (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        "<title>Hi &lt;there&gt;</title></head><body><p>body text</p></body></html>"
    )
