//! Action parsing shared by games: the `\boxed{...}` answer convention.

const OPEN: &str = "\\boxed{";

/// Byte offsets just past each `\boxed{` of `text`, from the last one back.
///
/// A byte scan for the backslash (word-at-a-time in `memchr`) is far cheaper per call than
/// building a substring searcher, and actions are parsed on every step.
fn box_bodies_from_last(text: &str) -> impl Iterator<Item = usize> + '_ {
    memchr::memrchr_iter(b'\\', text.as_bytes())
        .filter(move |&at| text.as_bytes()[at..].starts_with(OPEN.as_bytes()))
        .map(|at| at + OPEN.len())
}

/// The content of the last `\boxed{...}` in `text` (no nested braces), if any.
pub fn last_boxed(text: &str) -> Option<&str> {
    box_bodies_from_last(text).find_map(|body| {
        memchr::memchr(b'}', &text.as_bytes()[body..]).map(|len| &text[body..body + len])
    })
}

/// The number in the last `\boxed{N}` whose content is only ASCII digits (GEM's `\\boxed{(\d+)}`).
///
/// Boxes holding anything else are skipped, so `\boxed{7} \boxed{x}` gives 7. A number too
/// large for `i64` saturates to `i64::MAX` (it is still a number, just out of any range).
pub fn last_boxed_int(text: &str) -> Option<i64> {
    last_boxed_digits(text).map(|digits| decimal_saturating(digits.as_bytes()))
}

/// The number [`last_boxed_int`] reads, as Python's `str(int(...))` writes it: its digits
/// without leading zeros, however many (what a game echoes back for a guess too large for
/// `i64`, as GEM does).
pub fn last_boxed_int_text(text: &str) -> Option<&str> {
    let digits = last_boxed_digits(text)?;
    let significant = digits.trim_start_matches('0');
    Some(if significant.is_empty() {
        "0"
    } else {
        significant
    })
}

/// The digits of the last `\boxed{N}` whose content is only ASCII digits.
///
/// Searched from the closing brace back: a numeric answer mostly ends the action, so the common
/// case reads only the answer's own bytes. Inside a wasm guest every loop round pays for fuel
/// accounting, so the fewer rounds the better.
fn last_boxed_digits(text: &str) -> Option<&str> {
    let bytes = text.as_bytes();
    let mut end = bytes.len();
    while let Some(close) = last_close(&bytes[..end]) {
        let before = &bytes[..close];
        let digits = before
            .iter()
            .rev()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let body = close - digits;
        if digits > 0 && before[..body].ends_with(OPEN.as_bytes()) {
            return Some(&text[body..close]);
        }
        end = close;
    }
    None
}

/// The offset of the last `}` of `bytes`.
fn last_close(bytes: &[u8]) -> Option<usize> {
    match bytes.last() {
        Some(b'}') => Some(bytes.len() - 1),
        _ => memchr::memrchr(b'}', bytes),
    }
}

/// The value of ASCII `digits`, saturating at `i64::MAX`. Up to 18 significant digits cannot
/// overflow, so the common case needs no checked (in wasm: 128-bit) multiplication.
fn decimal_saturating(digits: &[u8]) -> i64 {
    let start = digits
        .iter()
        .position(|&d| d != b'0')
        .unwrap_or(digits.len());
    let significant = &digits[start..];
    let value = |n: i64, d: &u8| n * 10 + i64::from(d - b'0');
    if significant.len() <= 18 {
        return significant.iter().fold(0, value);
    }
    significant
        .iter()
        .try_fold(0i64, |n, &d| {
            n.checked_mul(10)?.checked_add(i64::from(d - b'0'))
        })
        .unwrap_or(i64::MAX)
}

/// What `matcher` makes of the text after the last `\boxed{` of `text` where it matches (gives
/// `Some`), trying them from the last one back: the last match of a GEM pattern that starts
/// with `\\boxed\{`. `matcher` sees everything after the brace and decides where its match ends.
pub fn last_boxed_match<'a, T>(
    text: &'a str,
    mut matcher: impl FnMut(&'a str) -> Option<T>,
) -> Option<T> {
    box_bodies_from_last(text).find_map(|body| matcher(&text[body..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxed_int_text_is_the_number_as_python_writes_it() {
        let huge = "\\boxed{00099999999999999999999999} \\boxed{x}";
        assert_eq!(last_boxed_int_text(huge), Some("99999999999999999999999"));
        assert_eq!(last_boxed_int_text("\\boxed{000}"), Some("0"));
        assert_eq!(last_boxed_int_text("\\boxed{-3}"), None);
    }

    #[test]
    fn boxed_int_takes_last_numeric_box() {
        assert_eq!(last_boxed_int("\\boxed{3} then \\boxed{17}"), Some(17));
        assert_eq!(last_boxed_int("\\boxed{3} then \\boxed{x}"), Some(3));
        assert_eq!(last_boxed_int("\\boxed{-3}"), None);
        assert_eq!(last_boxed_int("\\boxed{ 3}"), None);
        assert_eq!(last_boxed_int("no box"), None);
        assert_eq!(
            last_boxed_int("\\boxed{99999999999999999999999}"),
            Some(i64::MAX)
        );
        assert_eq!(
            last_boxed_int("\\boxed{0000000000000000000000042}"),
            Some(42)
        );
        assert_eq!(
            last_boxed_int("\\boxed{999999999999999999}"),
            Some(999_999_999_999_999_999)
        );
        assert_eq!(
            last_boxed_int("\\boxed{9223372036854775807}"),
            Some(i64::MAX)
        );
        assert_eq!(
            last_boxed_int("\\boxed{9223372036854775806}"),
            Some(i64::MAX - 1)
        );
        assert_eq!(last_boxed_int("\\boxed{0}"), Some(0));
    }

    #[test]
    fn boxed_match_takes_the_last_that_matches() {
        let word = |body: &'static str| body.split_once('}').map(|(w, _)| w);
        assert_eq!(last_boxed_match("\\boxed{a} \\boxed{b}", word), Some("b"));
        let digit = |body: &str| body.chars().next().filter(char::is_ascii_digit);
        assert_eq!(last_boxed_match("\\boxed{7} \\boxed{x}", digit), Some('7'));
        assert_eq!(last_boxed_match("\\boxed{x", digit), None);
        assert_eq!(last_boxed_match("", digit), None);
    }

    #[test]
    fn boxed_text() {
        assert_eq!(last_boxed("a \\boxed{left} b \\boxed{up}"), Some("up"));
        assert_eq!(last_boxed("\\boxed{open"), None);
        assert_eq!(last_boxed("\\boxed{a} \\boxed{b"), Some("a"));
        assert_eq!(last_boxed("\\boxed{a\\boxed{b}"), Some("b"));
        assert_eq!(last_boxed("é\\boxed{ü}"), Some("ü"));
    }

    #[test]
    fn short_and_long_texts_find_the_same_boxes() {
        // Boxes far apart in long texts, and backslashes and braces that open or close no box.
        for pad in [0, 10, 40, 60, 70, 200] {
            let filler = "x\\y ".repeat(pad / 5);
            let text = format!("\\boxed{{12}} {filler}\\boxed{{no}}\\");
            assert_eq!(last_boxed_int(&text), Some(12), "{}", text.len());
            assert_eq!(last_boxed(&text), Some("no"));
            let text = format!("{filler}\\boxed{{7}}{filler}");
            assert_eq!(last_boxed_int(&text), Some(7), "{}", text.len());
        }
        assert_eq!(last_boxed_int("\\boxed{12}}"), Some(12));
        assert_eq!(last_boxed_int("\\boxed{\\boxed{5}}"), Some(5));
        assert_eq!(last_boxed_int("\\boxed{4} 7}"), Some(4));
        assert_eq!(last_boxed_int("boxed{4}"), None);
    }
}
