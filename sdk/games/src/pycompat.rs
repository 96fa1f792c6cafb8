//! Python behaviour that games ported from GEM rely on, reproduced exactly: scanning every
//! `\boxed{...}` the way `re.finditer` does, the `\s` and `\d` classes of Python's `re`,
//! `int()` of a run of decimal digits, and `random.sample`.

use geode_sdk::Rng;
use std::fmt;

/// Most digits CPython 3.11+ converts with `int()` (`sys.get_int_max_str_digits()`).
pub const MAX_INT_DIGITS: usize = 4300;

/// The body (up to the first `}`) of every `\boxed{...}` in `text`, left to right.
///
/// A GEM pattern such as `\\boxed{(\d+)}` matches exactly the bodies that satisfy it, so the
/// last match of `re.finditer` is the last body that parses. Linear in `text` even for hostile
/// input such as a megabyte of `\boxed{` with no closing brace.
pub fn boxed_bodies(text: &str) -> impl Iterator<Item = &str> {
    const OPEN: &str = "\\boxed{";
    let mut from = 0;
    let mut close = 0;
    std::iter::from_fn(move || {
        let start = from + text[from..].find(OPEN)? + OPEN.len();
        from = start;
        if close < start {
            close = start + text[start..].find('}')?;
        }
        Some(&text[start..close])
    })
}

/// Whether `c` is in Python's `\s` class (`str.isspace`), which adds U+001C..U+001F to Unicode
/// `White_Space`.
#[inline]
pub fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// The fields of `body` split on runs of `\s`, as a pattern like `(\d+)\s+(\d+)` sees them;
/// `None` when `body` is empty or starts or ends with whitespace.
pub fn fields(body: &str) -> Option<Vec<&str>> {
    Some(field_iter(body)?.collect())
}

/// The fields of `body` as [`fields`] splits them, when there are exactly `N`. Reads no further
/// than the field after the `N`th, so a box of a million fields is refused cheaply.
pub fn fields_array<const N: usize>(body: &str) -> Option<[&str; N]> {
    let mut split = field_iter(body)?;
    let mut found = [""; N];
    for slot in &mut found {
        *slot = split.next()?;
    }
    split.next().is_none().then_some(found)
}

/// The fields of `body` split on runs of `\s`, read lazily; `None` when `body` is empty or starts
/// or ends with whitespace.
fn field_iter(body: &str) -> Option<impl Iterator<Item = &str>> {
    let edge_space = |c: Option<char>| c.is_none_or(is_space);
    if edge_space(body.chars().next()) || edge_space(body.chars().last()) {
        return None;
    }
    Some(body.split(is_space).filter(|f| !f.is_empty()))
}

/// The zero of every run of ten decimal digits (Unicode 14.0, as in CPython 3.11).
const DIGIT_ZEROS: [u32; 66] = [
    0x30, 0x660, 0x6F0, 0x7C0, 0x966, 0x9E6, 0xA66, 0xAE6, 0xB66, 0xBE6, 0xC66, 0xCE6, 0xD66,
    0xDE6, 0xE50, 0xED0, 0xF20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80, 0x1A90,
    0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0, 0xFF10,
    0x104A0, 0x10D30, 0x11066, 0x110F0, 0x11136, 0x111D0, 0x112F0, 0x11450, 0x114D0, 0x11650,
    0x116C0, 0x11730, 0x118E0, 0x11950, 0x11C50, 0x11D50, 0x11DA0, 0x16A60, 0x16AC0, 0x16B50,
    0x1D7CE, 0x1D7D8, 0x1D7E2, 0x1D7EC, 0x1D7F6, 0x1E140, 0x1E2F0, 0x1E950, 0x1FBF0,
];

/// The value of `c` if it is in Python's `\d` class (any Unicode decimal digit, e.g. `٣` is 3).
pub fn decimal_value(c: char) -> Option<u32> {
    let code = u32::from(c);
    let run = DIGIT_ZEROS
        .partition_point(|&zero| zero <= code)
        .checked_sub(1)?;
    let value = code - DIGIT_ZEROS[run];
    (value < 10).then_some(value)
}

/// `digits` (ASCII) without leading zeros, as Python prints the number: `"0"` for zero.
pub fn strip_leading_zeros(digits: &str) -> &str {
    let trimmed = digits.trim_start_matches('0');
    if trimmed.is_empty() {
        &digits[digits.len().saturating_sub(1)..]
    } else {
        trimmed
    }
}

/// The value of ASCII `digits`, saturated at `u64::MAX` (stops reading at the first overflow).
fn saturating_value(digits: &str) -> u64 {
    digits.parse().unwrap_or(u64::MAX)
}

/// A non-negative integer read from a run of ASCII digits the way Python's `int()` reads it,
/// borrowing the digits: nothing is copied, so a megabyte of digits costs one scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PyInt<'a> {
    /// The digits without leading zeros ("0" for zero).
    digits: &'a str,
}

impl<'a> PyInt<'a> {
    /// Reads a non-empty run of ASCII digits; `None` where Python's `int()` raises (more than
    /// [`MAX_INT_DIGITS`] digits). The caller has matched the digits already.
    pub fn parse(digits: &'a str) -> Option<Self> {
        if digits.is_empty() || digits.len() > MAX_INT_DIGITS {
            return None;
        }
        Some(PyInt {
            digits: strip_leading_zeros(digits),
        })
    }

    /// The value, saturated at `u64::MAX` (larger numbers are out of every range anyway).
    pub fn value(&self) -> u64 {
        saturating_value(self.digits)
    }
}

impl geode_sdk::text::Piece for PyInt<'_> {
    fn push_to(&self, out: &mut String) {
        out.push_str(self.digits);
    }
    fn size_hint(&self) -> usize {
        self.digits.len()
    }
}

impl geode_sdk::text::Piece for PyUint {
    fn push_to(&self, out: &mut String) {
        out.push_str(&self.text);
    }
    fn size_hint(&self) -> usize {
        self.text.len()
    }
}

impl fmt::Display for PyInt<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.digits)
    }
}

/// A non-negative integer read from `\d+` text the way Python's `int()` reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PyUint {
    /// The value, saturated at `u64::MAX` (larger numbers are out of any game's range).
    pub value: u64,
    /// The number as Python prints it: ASCII digits, no leading zeros.
    pub text: String,
}

impl PyUint {
    /// Parses a non-empty run of decimal digits; `None` if any character is not one.
    pub fn parse(digits: &str) -> Option<PyUint> {
        if digits.is_empty() {
            return None;
        }
        // ASCII digits, the usual case: one scan and one copy, cheap even for a megabyte.
        if digits.bytes().all(|b| b.is_ascii_digit()) {
            let text = strip_leading_zeros(digits);
            return Some(PyUint {
                value: saturating_value(text),
                text: text.to_owned(),
            });
        }
        let mut value = 0u64;
        let mut text = String::new();
        for c in digits.chars() {
            let d = decimal_value(c)?;
            value = value.saturating_mul(10).saturating_add(u64::from(d));
            if d != 0 || !text.is_empty() {
                text.push(char::from(b'0' + d as u8));
            }
        }
        if text.is_empty() {
            text.push('0');
        }
        Some(PyUint { value, text })
    }
}

impl fmt::Display for PyUint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// The indices `random.sample(range(n), k)` picks, in order (`k` is capped at `n`).
pub fn sample_indices(rng: &mut Rng, n: usize, k: usize) -> Vec<usize> {
    sample_range(rng, n as u64, k)
        .into_iter()
        .map(|i| i as usize)
        .collect()
}

/// The numbers `random.sample(range(n), k)` picks, in order (`k` is capped at `n`), for ranges
/// wider than memory: only a range of at most a few dozen numbers is ever held whole.
pub fn sample_range(rng: &mut Rng, n: u64, k: usize) -> Vec<u64> {
    let k = k.min(usize::try_from(n).unwrap_or(usize::MAX));
    let mut setsize = 21u64;
    if k > 5 {
        let exponent = ((k * 3) as f64).ln() / 4f64.ln();
        setsize = setsize.saturating_add(4u64.saturating_pow(exponent.ceil() as u32));
    }
    if n <= setsize {
        let mut pool: Vec<u64> = (0..n).collect();
        (0..k)
            .map(|i| {
                let last = n as usize - i - 1;
                let j = rng.below(n - i as u64) as usize;
                let picked = pool[j];
                pool[j] = pool[last];
                picked
            })
            .collect()
    } else {
        let mut picked = Vec::with_capacity(k);
        let mut seen = std::collections::HashSet::with_capacity(k);
        for _ in 0..k {
            let mut j = rng.below(n);
            while !seen.insert(j) {
                j = rng.below(n);
            }
            picked.push(j);
        }
        picked
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxed_bodies_in_order() {
        let text = "\\boxed{a} x \\boxed{b c} \\boxed{open";
        assert_eq!(boxed_bodies(text).collect::<Vec<_>>(), vec!["a", "b c"]);
        let nested = "\\boxed{\\boxed{7}";
        assert_eq!(
            boxed_bodies(nested).collect::<Vec<_>>(),
            vec!["\\boxed{7", "7"]
        );
        let hostile = "\\boxed{".repeat(200_000);
        assert_eq!(boxed_bodies(&hostile).count(), 0);
    }

    #[test]
    fn python_classes() {
        assert!(is_space('\u{1f}') && is_space('\u{3000}') && !is_space('x'));
        assert_eq!(fields("1 \t2\u{3000}3"), Some(vec!["1", "2", "3"]));
        assert_eq!(fields(" 1 2"), None);
        assert_eq!(fields("1 2\n"), None);
        assert_eq!(fields(""), None);
        assert_eq!(fields_array::<3>("1 \t2\u{3000}3"), Some(["1", "2", "3"]));
        assert_eq!(fields_array::<2>("1 2 3"), None);
        assert_eq!(fields_array::<4>("1 2 3"), None);
        assert_eq!(fields_array::<1>(" 1"), None);
        assert_eq!(fields_array::<1>("7"), Some(["7"]));
        assert_eq!(decimal_value('7'), Some(7));
        assert_eq!(decimal_value('\u{663}'), Some(3));
        assert_eq!(decimal_value('a'), None);
        assert_eq!(decimal_value('\u{2f}'), None);
        let n = PyUint::parse("007").unwrap();
        assert_eq!((n.value, n.text.as_str()), (7, "7"));
        let big = PyUint::parse("123456789012345678901234567890").unwrap();
        assert_eq!(big.value, u64::MAX);
        assert_eq!(big.to_string(), "123456789012345678901234567890");
        assert_eq!(PyUint::parse("000").unwrap().text, "0");
        assert_eq!(PyUint::parse(""), None);
        assert_eq!(PyUint::parse("1a"), None);
        let mixed = PyUint::parse("0\u{663}7").unwrap();
        assert_eq!((mixed.value, mixed.text.as_str()), (37, "37"));
        assert_eq!(PyUint::parse("\u{660}\u{660}").unwrap().text, "0");
    }

    #[test]
    fn py_int_reads_like_python_int() {
        let n = PyInt::parse("007").unwrap();
        assert_eq!((n.to_string(), n.value()), ("7".to_string(), 7));
        assert_eq!(PyInt::parse("000").unwrap().to_string(), "0");
        assert_eq!(PyInt::parse(&"9".repeat(30)).unwrap().value(), u64::MAX);
        assert!(PyInt::parse(&"1".repeat(MAX_INT_DIGITS)).is_some());
        assert!(PyInt::parse(&"0".repeat(MAX_INT_DIGITS + 1)).is_none());
        assert!(PyInt::parse("").is_none());
    }

    #[test]
    fn whitespace_matches_python() {
        for c in [
            '\t', '\n', '\u{b}', '\u{1c}', '\u{1f}', ' ', '\u{a0}', '\u{3000}',
        ] {
            assert!(is_space(c), "{c:?}");
        }
        for c in ['\u{200b}', 'a', '\u{0}'] {
            assert!(!is_space(c), "{c:?}");
        }
    }

    // CPython 3.11: `random.seed(s); random.sample(range(n), k)`.
    #[test]
    fn sample_matches_cpython() {
        assert_eq!(sample_indices(&mut Rng::seeded(42), 10, 3), vec![1, 0, 4]);
        assert_eq!(
            sample_indices(&mut Rng::seeded(42), 100, 5),
            vec![81, 14, 3, 94, 35]
        );
        assert_eq!(
            sample_indices(&mut Rng::seeded(7), 50, 8),
            vec![20, 9, 25, 41, 3, 4, 34, 6]
        );
        assert_eq!(
            sample_range(&mut Rng::seeded(42), 100, 5),
            vec![81, 14, 3, 94, 35]
        );
        assert_eq!(sample_range(&mut Rng::seeded(1), 1 << 40, 2).len(), 2);
        let drawn = sample_indices(&mut Rng::seeded(3), 1000, 30);
        assert_eq!(drawn[..6], [243, 606, 557, 133, 378, 937]);
        assert_eq!(drawn[29], 154);
    }
}
