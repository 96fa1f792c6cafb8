//! The `bisect` policy: plays GEM's GuessTheNumber by halving the range its hints leave.

/// The start of the range in the game's instructions: `guess the number between A and B`.
const RANGE: &str = "guess the number between ";
/// The hint texts: `… the target number is higher than X.` / `lower than X.`
const HIGHER: &str = "the target number is higher than ";
const LOWER: &str = "the target number is lower than ";
/// The reply when no range was found.
pub const NO_RANGE: &str = "I do not know.";

/// The next guess, `\boxed{MID}`, from the range in the user messages and every hint in them.
pub fn reply(user_texts: &[String]) -> String {
    let Some((mut lo, mut hi)) = user_texts.iter().find_map(|t| range(t)) else {
        return NO_RANGE.to_owned();
    };
    for text in user_texts {
        for x in numbers_after(text, HIGHER) {
            lo = lo.max(x + 1);
        }
        for x in numbers_after(text, LOWER) {
            hi = hi.min(x - 1);
        }
    }
    let mid = if lo > hi { lo } else { (lo + hi).div_euclid(2) };
    format!("\\boxed{{{mid}}}")
}

/// `(A, B)` from `guess the number between A and B` (case-insensitive).
fn range(text: &str) -> Option<(i128, i128)> {
    let lower = text.to_ascii_lowercase();
    let start = lower.find(RANGE)? + RANGE.len();
    let rest = &lower[start..];
    let (a, rest) = leading_int(rest)?;
    let rest = rest.strip_prefix(" and ")?;
    let (b, _) = leading_int(rest)?;
    Some((a.min(b), a.max(b)))
}

/// Every integer that directly follows `marker` in `text` (case-insensitive).
fn numbers_after(text: &str, marker: &str) -> Vec<i128> {
    let lower = text.to_ascii_lowercase();
    lower
        .match_indices(marker)
        .filter_map(|(i, _)| leading_int(&lower[i + marker.len()..]).map(|(x, _)| x))
        .collect()
}

/// An optionally signed integer at the start of `text`, and the text after it.
fn leading_int(text: &str) -> Option<(i128, &str)> {
    let digits_start = usize::from(text.starts_with('-'));
    let len = text[digits_start..]
        .bytes()
        .take_while(u8::is_ascii_digit)
        .count();
    if len == 0 || len > 30 {
        return None;
    }
    let end = digits_start + len;
    Some((text[..end].parse().ok()?, &text[end..]))
}

#[cfg(test)]
mod tests {
    use super::reply;

    fn texts(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn negative_ranges_and_contradictions() {
        let start = "You have to guess the number between -10 and -3 (inclusive)";
        assert_eq!(reply(&texts(&[start])), "\\boxed{-7}");
        let hint = "At turn 1, you guessed -7, and the target number is lower than -7.";
        assert_eq!(reply(&texts(&[start, hint])), "\\boxed{-9}");
        let odd = "the target number is higher than 5. the target number is lower than 0.";
        assert_eq!(reply(&texts(&[start, odd])), "\\boxed{6}");
    }
}
