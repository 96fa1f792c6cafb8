def test_list_authors(get):
    resp = get("/authors")
    assert resp.status == 200
    assert resp.body["items"] == [
        {"name": "Ada", "books": 5},
        {"name": "Barbara", "books": 5},
        {"name": "Grace", "books": 5},
        {"name": "Linus", "books": 5},
    ]
    assert resp.body["meta"]["pages"] == 1
