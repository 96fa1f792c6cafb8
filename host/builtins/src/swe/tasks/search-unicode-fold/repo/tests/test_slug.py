from findtext import slugify


def test_slugify():
    assert slugify("Crème Brûlée: the recipe!") == "creme-brulee-the-recipe"
    assert slugify("  --  ") == ""
    assert slugify("a" * 100, max_length=5) == "aaaaa"
