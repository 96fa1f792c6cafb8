//! Action parsing shared by games: the `\boxed{...}` answer convention.

/// The content of the last `\boxed{...}` in `text` (no nested braces), if any.
pub fn last_boxed(text: &str) -> Option<&str> {
    const OPEN: &str = "\\boxed{";
    let mut found = None;
    let mut rest = text;
    let mut offset = 0;
    while let Some(start) = rest.find(OPEN) {
        let body_start = offset + start + OPEN.len();
        match text[body_start..].find('}') {
            Some(len) => {
                found = Some(&text[body_start..body_start + len]);
                offset = body_start;
            }
            None => break,
        }
        rest = &text[offset..];
    }
    found
}

/// The number in the last `\boxed{N}` whose content is only ASCII digits (GEM's `\\boxed{(\d+)}`).
///
/// Boxes holding anything else are skipped, so `\boxed{7} \boxed{x}` gives 7. A number too
/// large for `i64` saturates to `i64::MAX` (it is still a number, just out of any range).
pub fn last_boxed_int(text: &str) -> Option<i64> {
    const OPEN: &str = "\\boxed{";
    let mut found = None;
    let mut offset = 0;
    while let Some(start) = text[offset..].find(OPEN) {
        let body_start = offset + start + OPEN.len();
        let digits = text[body_start..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        if digits > 0 && text[body_start + digits..].starts_with('}') {
            found = Some(
                text[body_start..body_start + digits]
                    .parse::<i64>()
                    .unwrap_or(i64::MAX),
            );
        }
        offset = body_start;
    }
    found
}

/// What `matcher` makes of the text after the last `\boxed{` of `text` where it matches (gives
/// `Some`), trying them from the last one back: the last match of a GEM pattern that starts
/// with `\\boxed\{`. `matcher` sees everything after the brace and decides where its match ends.
pub fn last_boxed_match<'a, T>(
    text: &'a str,
    mut matcher: impl FnMut(&'a str) -> Option<T>,
) -> Option<T> {
    const OPEN: &str = "\\boxed{";
    text.rmatch_indices(OPEN)
        .find_map(|(at, _)| matcher(&text[at + OPEN.len()..]))
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
