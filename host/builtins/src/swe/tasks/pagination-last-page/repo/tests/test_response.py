from shelf import Response


def test_json_is_sorted():
    assert Response(200, {"b": 1, "a": 2}).json() == '{"a": 2, "b": 1}'


def test_error_shape():
    assert Response.error(404, "nope").body == {"error": {"status": 404, "message": "nope"}}
