from routekit import Template


def test_slug_converter():
    assert Template("/b/<slug:s>").match("/b/my-post-2") == {"s": "my-post-2"}


def test_path_converter(router):
    assert router.match("/files/docs/guide/intro.md").params == {"name": "docs/guide/intro.md"}
