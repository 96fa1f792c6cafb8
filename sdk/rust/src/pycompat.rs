//! Python behaviour that games ported from GEM rely on, reproduced exactly: scanning every
//! `\boxed{...}` the way `re.finditer` does, the `\s` and `\d` classes of Python's `re`,
//! `int()` of a run of decimal digits, and `random.sample`.

use crate::Rng;

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
pub fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// The fields of `body` split on runs of `\s`, as a pattern like `(\d+)\s+(\d+)` sees them;
/// `None` when `body` is empty or starts or ends with whitespace.
pub fn fields(body: &str) -> Option<Vec<&str>> {
    let edge_space = |c: Option<char>| c.is_none_or(is_space);
    if edge_space(body.chars().next()) || edge_space(body.chars().last()) {
        return None;
    }
    Some(body.split(is_space).filter(|f| !f.is_empty()).collect())
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
        let mut value = 0u64;
        let mut text = String::new();
        for c in digits.chars() {
            let d = decimal_value(c)?;
            value = value.saturating_mul(10).saturating_add(u64::from(d));
            if d != 0 || !text.is_empty() {
                text.push(char::from(b'0' + d as u8));
            }
        }
        if digits.is_empty() {
            return None;
        }
        if text.is_empty() {
            text.push('0');
        }
        Some(PyUint { value, text })
    }
}

impl std::fmt::Display for PyUint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

/// The indices `random.sample(range(n), k)` picks, in order (`k` is capped at `n`).
pub fn sample_indices(rng: &mut Rng, n: usize, k: usize) -> Vec<usize> {
    let k = k.min(n);
    let mut setsize = 21usize;
    if k > 5 {
        let exponent = ((k * 3) as f64).ln() / 4f64.ln();
        setsize += 4usize.saturating_pow(exponent.ceil() as u32);
    }
    if n <= setsize {
        let mut pool: Vec<usize> = (0..n).collect();
        (0..k)
            .map(|i| {
                let j = rng.below((n - i) as u64) as usize;
                let picked = pool[j];
                pool[j] = pool[n - i - 1];
                picked
            })
            .collect()
    } else {
        let mut picked = Vec::with_capacity(k);
        let mut seen = std::collections::HashSet::with_capacity(k);
        for _ in 0..k {
            let mut j = rng.below(n as u64) as usize;
            while !seen.insert(j) {
                j = rng.below(n as u64) as usize;
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
        let drawn = sample_indices(&mut Rng::seeded(3), 1000, 30);
        assert_eq!(drawn[..6], [243, 606, 557, 133, 378, 937]);
        assert_eq!(drawn[29], 154);
    }
}
