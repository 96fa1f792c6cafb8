from mdgen import Document


def test_toc_links():
    doc = Document().heading("Guide", 1).paragraph("Intro.")
    doc.heading("Install").heading("Usage").heading("Install").heading("Details", 3)
    lines = doc.render(toc=True).split("\n\n")[1].splitlines()
    assert lines == [
        "- [Install](#install)",
        "- [Usage](#usage)",
        "- [Install](#install-1)",
        "  - [Details](#details)",
    ]
