from mdgen import Document


def test_document_render():
    doc = Document().heading("Guide", 1).paragraph("Intro *here*.")
    doc.bullets(["one", "two"]).code("x = 1", "python").quote("note")
    assert doc.render() == (
        "# Guide\n\nIntro \\*here\\*.\n\n- one\n- two\n\n```python\nx = 1\n```\n\n> note\n"
    )
