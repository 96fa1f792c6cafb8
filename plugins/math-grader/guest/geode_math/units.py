"""Unit words the MATH-style normalization drops (GEM's list, itself mostly from MathQA).

Each entry is used as a regular expression between non-word boundaries, so `.` in an entry
matches any character, as it does in GEM. The list is followed by every entry with an `s`
appended, in the same order."""

_BASE = (
    "east", "degree", "mph", "kmph", "ft", "m sqaure", " m east", "sq m", "deg", "mile",
    "q .", "monkey", "prime", "ratio", "profit of rs", "rd", "o", "gm", "p . m", "lb", "tile",
    "per", "dm", "lt", "gain", "ab", "way", "west", "a .", "b .", "c .", "d .", "e .", "f .",
    "g .", "h .", "t", "a", "h", "no change", "men", "soldier", "pie", "bc", "excess", "st",
    "inches", "noon", "percent", "by", "gal", "kmh", "c", "acre", "rise", "a . m", "th",
    "π r 2", "sq", "mark", "l", "toy", "coin", "sq . m", "gallon", "° f", "profit", "minw",
    "yr", "women", "feet", "am", "pm", "hr", "cu cm", "square", "v â € ™", "are", "rupee",
    "rounds", "cubic", "cc", "mtr", "s", "ohm", "number", "kmph", "day", "hour", "minute",
    "min", "second", "man", "woman", "sec", "cube", "mt", "sq inch", "mp", "∏ cm ³",
    "hectare", "more", "sec", "unit", "cu . m", "cm 2", "rs .", "rs", "kg", "g", "month", "km",
    "m", "cm", "mm", "apple", "liter", "loss", "yard", "pure", "year", "increase", "decrease",
    "d", "less", "Surface", "litre", "pi sq m", "s .", "metre", "meter", "inch",
)

#: Every unit word, in the order they are removed.
UNIT_WORDS = _BASE + tuple(word + "s" for word in _BASE)

#: Unit names the sympy-stage normalization removes (with plural and power suffixes).
SYMPY_UNITS = (
    "degree", "cm", "centimeter", "meter", "mile", "second", "minute", "hour", "day", "week",
    "month", "year", "foot", "feet", "inch", "yard",
)
