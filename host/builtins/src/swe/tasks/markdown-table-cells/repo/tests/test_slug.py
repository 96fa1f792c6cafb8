from mdgen.slug import SlugRegistry, slugify


def test_slugify():
    assert slugify("Hello, World!") == "hello-world"
    assert slugify("  API: v2.0 ") == "api-v20"


def test_slug_duplicates():
    registry = SlugRegistry()
    assert [registry.anchor("FAQ") for _ in range(3)] == ["faq", "faq-1", "faq-2"]
