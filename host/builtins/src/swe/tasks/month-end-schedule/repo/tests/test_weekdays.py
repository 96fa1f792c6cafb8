from recur import is_business_day, next_business_day


def test_next_business_day(d):
    assert next_business_day(d(2023, 4, 29)) == d(2023, 5, 1)  # Saturday
    assert next_business_day(d(2023, 5, 2)) == d(2023, 5, 2)
    assert not is_business_day(d(2023, 4, 30))
