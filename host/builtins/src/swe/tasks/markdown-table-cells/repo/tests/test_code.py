from mdgen import CodeBlock


def test_fenced_code():
    assert CodeBlock("print(1)\n", "python").render() == "```python\nprint(1)\n```"


def test_fence_longer_than_backticks_inside():
    assert CodeBlock("a ``` b").render() == "````\na ``` b\n````"
