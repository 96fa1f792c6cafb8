from mdgen import BulletList


def test_bullets_and_numbers():
    assert BulletList(["a", "b_c"]).render() == "- a\n- b\\_c"
    assert BulletList([1, 2], ordered=True).render() == "1. 1\n2. 2"
