//! How GEM's Python reads actions: `\s` whitespace and `int()` of a digit run.

use std::fmt;

/// Most digits CPython 3.11+ converts with `int()` (`sys.get_int_max_str_digits()`).
pub const MAX_INT_DIGITS: usize = 4300;

/// Whether Python's regex `\s` (and `str.split()`) treats `c` as whitespace.
pub fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// A non-negative integer read from ASCII digits, printed as Python prints it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PyInt<'a> {
    /// The digits without leading zeros ("0" for zero).
    digits: &'a str,
}

impl<'a> PyInt<'a> {
    /// Reads a run of ASCII digits; `None` where Python's `int()` raises (too many digits).
    pub fn parse(digits: &'a str) -> Option<Self> {
        if digits.is_empty() || digits.len() > MAX_INT_DIGITS {
            return None;
        }
        let trimmed = digits.trim_start_matches('0');
        let digits = if trimmed.is_empty() {
            &digits[digits.len() - 1..]
        } else {
            trimmed
        };
        Some(PyInt { digits })
    }

    /// The value, saturated at `u64::MAX` (larger numbers are out of every range anyway).
    pub fn value(&self) -> u64 {
        self.digits.parse().unwrap_or(u64::MAX)
    }
}

impl fmt::Display for PyInt<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.digits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_like_python_int() {
        let n = PyInt::parse("007").unwrap();
        assert_eq!((n.to_string(), n.value()), ("7".to_string(), 7));
        assert_eq!(PyInt::parse("000").unwrap().to_string(), "0");
        assert_eq!(PyInt::parse(&"9".repeat(30)).unwrap().value(), u64::MAX);
        assert!(PyInt::parse(&"1".repeat(4300)).is_some());
        assert!(PyInt::parse(&"0".repeat(4301)).is_none());
    }

    #[test]
    fn whitespace_matches_python() {
        for c in [
            '\t', '\n', '\u{b}', '\u{1c}', '\u{1f}', ' ', '\u{a0}', '\u{3000}',
        ] {
            assert!(is_py_space(c), "{c:?}");
        }
        for c in ['\u{200b}', 'a', '\u{0}'] {
            assert!(!is_py_space(c), "{c:?}");
        }
    }
}
