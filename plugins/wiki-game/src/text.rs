//! Reading the chosen title out of an action, and cutting page summaries, the way GEM does.

use geode_games::pycompat::is_space;
use serde::{Deserialize, Serialize};

/// The title in the last match of GEM's `\\boxed{([^}]+)}` (Python `re.finditer`, so matches
/// never overlap), stripped of Python whitespace. `None` when nothing matches or only
/// whitespace was boxed.
pub fn boxed_title(action: &str) -> Option<&str> {
    const OPEN: &str = "\\boxed{";
    let mut from = 0;
    let mut last = None;
    while let Some(found) = action[from..].find(OPEN) {
        let body = from + found + OPEN.len();
        match action[body..].find('}') {
            // `[^}]+` needs one character: the match fails here, the scan goes on just after.
            Some(0) => from = from + found + 1,
            Some(len) => {
                last = Some(&action[body..body + len]);
                from = body + len + 1;
            }
            None => break,
        }
    }
    last.map(|body| body.trim_matches(is_space))
        .filter(|title| !title.is_empty())
}

/// What a page summary counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    Characters,
    Words,
    Sentences,
}

impl Unit {
    /// The unit GEM names `name`.
    pub fn parse(name: &str) -> Option<Unit> {
        match name {
            "characters" => Some(Unit::Characters),
            "words" => Some(Unit::Words),
            "sentences" => Some(Unit::Sentences),
            _ => None,
        }
    }
}

/// GEM's `page_summary_length`: how much of a page's text observations show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SummaryLength {
    pub count: usize,
    pub unit: Unit,
}

impl SummaryLength {
    /// The first `count` units of `text`.
    pub fn cut(self, text: &str) -> String {
        match self.unit {
            Unit::Characters => text.chars().take(self.count).collect(),
            Unit::Words => text
                .split(is_space)
                .filter(|w| !w.is_empty())
                .take(self.count)
                .collect::<Vec<_>>()
                .join(" "),
            Unit::Sentences => sentences(text)
                .into_iter()
                .take(self.count)
                .collect::<Vec<_>>()
                .join(" "),
        }
    }
}

/// `text` split like Python's `re.split(r'(?<=[.!?])\s+(?=[A-Z])', text)`: at every run of
/// whitespace that follows `.`, `!` or `?` and precedes an ASCII capital.
fn sentences(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    let mut previous = None;
    while let Some((at, c)) = chars.next() {
        if is_space(c) && matches!(previous, Some('.' | '!' | '?')) {
            let mut end = at + c.len_utf8();
            while let Some(&(next_at, next)) = chars.peek() {
                if !is_space(next) {
                    break;
                }
                end = next_at + next.len_utf8();
                chars.next();
            }
            if chars
                .peek()
                .is_some_and(|&(_, next)| next.is_ascii_uppercase())
            {
                parts.push(&text[start..at]);
                start = end;
            }
            previous = text[..end].chars().next_back();
            continue;
        }
        previous = Some(c);
    }
    parts.push(&text[start..]);
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_the_last_non_overlapping_box() {
        assert_eq!(
            boxed_title("go \\boxed{ foo } then \\boxed{bar baz}"),
            Some("bar baz")
        );
        assert_eq!(boxed_title("\\boxed{a \\boxed{b}"), Some("a \\boxed{b"));
        assert_eq!(boxed_title("\\boxed{}\\boxed{x}"), Some("x"));
        assert_eq!(boxed_title("\\boxed{x} \\boxed{}"), Some("x"));
        assert_eq!(boxed_title("\\boxed{x} \\boxed{   }"), None);
        assert_eq!(boxed_title("\\boxed{line\nbreak}"), Some("line\nbreak"));
        assert_eq!(boxed_title("\\boxed{open"), None);
        assert_eq!(boxed_title(""), None);
        assert_eq!(boxed_title("\\boxed{<PREV_PAGE>}"), Some("<PREV_PAGE>"));
    }

    #[test]
    fn cuts_summaries_by_unit() {
        let text = "Héllo  wörld. It is  late!  why? Not yet.\tDone";
        let cut = |count, unit| SummaryLength { count, unit }.cut(text);
        assert_eq!(cut(5, Unit::Characters), "Héllo");
        assert_eq!(cut(500, Unit::Characters), text);
        assert_eq!(cut(3, Unit::Words), "Héllo wörld. It");
        assert_eq!(cut(0, Unit::Words), "");
        assert_eq!(cut(1, Unit::Sentences), "Héllo  wörld.");
        assert_eq!(cut(2, Unit::Sentences), "Héllo  wörld. It is  late!  why?");
        assert_eq!(
            cut(9, Unit::Sentences),
            "Héllo  wörld. It is  late!  why? Not yet. Done"
        );
    }
}
