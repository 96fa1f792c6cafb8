//! Exact match after SQuAD-style normalization, GEM's rule for QA rewards: lowercase, drop ASCII
//! punctuation, drop the articles `a`, `an` and `the` as whole words, collapse whitespace.

use geode_games::pycompat::is_space;

/// Whether `c` is a word character of Python's `re` (`\w` on text): alphanumeric or `_`.
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// `text` normalized for comparison (see the module docs).
pub fn normalize(text: &str) -> String {
    let lowered: String = text
        .to_lowercase()
        .chars()
        .filter(|c| !c.is_ascii_punctuation())
        .collect();
    let mut spaced = String::with_capacity(lowered.len());
    let mut rest = lowered.as_str();
    while let Some(c) = rest.chars().next() {
        let run = rest
            .find(|d: char| is_word(d) != is_word(c))
            .unwrap_or(rest.len());
        let (piece, after) = rest.split_at(run);
        if is_word(c) && matches!(piece, "a" | "an" | "the") {
            spaced.push(' ');
        } else {
            spaced.push_str(piece);
        }
        rest = after;
    }
    spaced
        .split(is_space)
        .filter(|word| !word.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether `prediction` matches one of `golden` after normalization.
pub fn matches_any(prediction: &str, golden: &[String]) -> bool {
    let prediction = normalize(prediction);
    golden.iter().any(|answer| normalize(answer) == prediction)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalization() {
        assert_eq!(normalize("  The Eiffel   Tower! "), "eiffel tower");
        assert_eq!(normalize("An apple a day"), "apple day");
        assert_eq!(normalize("theatre, another"), "theatre another");
        assert_eq!(normalize("A.B.C."), "abc");
        assert_eq!(normalize("the_the"), "thethe");
        assert_eq!(normalize("Ünïcode\u{2003}Straße"), "ünïcode straße");
        assert_eq!(normalize("the"), "");
        assert_eq!(normalize(""), "");
    }

    #[test]
    fn matching() {
        let golden = vec!["Paris".to_owned(), "City of Light".to_owned()];
        assert!(matches_any("paris", &golden));
        assert!(matches_any("  the city of light.", &golden));
        assert!(!matches_any("London", &golden));
        assert!(!matches_any("Paris, France", &golden));
        assert!(matches_any("", &["The".to_owned()]));
    }
}
