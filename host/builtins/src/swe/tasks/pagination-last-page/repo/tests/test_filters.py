from shelf.filters import apply_filters


def test_filter_by_author(store):
    books = apply_filters(store.all(), {"author": "grace"})
    assert [b.id for b in books] == [2, 6, 10, 14, 18]


def test_filter_by_year_range(store):
    books = apply_filters(store.all(), {"year_from": "2000", "year_to": "2005"})
    assert all(2000 <= b.year <= 2005 for b in books)
    assert [b.id for b in books] == [2, 6, 10, 15, 19]


def test_filter_by_tag(store):
    assert len(apply_filters(store.all(), {"tag": "math"})) == 5
