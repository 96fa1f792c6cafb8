def test_health(get):
    resp = get("/health")
    assert resp.body == {"status": "ok", "books": 20}


def test_unknown_route(get):
    assert get("/nothing").status == 404
