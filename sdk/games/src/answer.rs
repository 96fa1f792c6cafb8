//! Where an answer sits in an agent's reply, found the way GEM's dataset envs find it: the last
//! `<answer>...</answer>` pair, or the last `\boxed{...}` with balanced braces.

use crate::pycompat::is_space;

/// The text of the last `<answer>...</answer>` of `reply`, without surrounding whitespace.
///
/// Pairs are matched left to right, each `<answer>` with the first `</answer>` after it (a
/// non-greedy `<answer>(.*?)</answer>` over the whole text, newlines included).
pub fn last_tagged(reply: &str) -> Option<&str> {
    const OPEN: &str = "<answer>";
    const CLOSE: &str = "</answer>";
    let mut from = 0;
    let mut last = None;
    while let Some(open) = reply[from..].find(OPEN) {
        let body = from + open + OPEN.len();
        let Some(len) = reply[body..].find(CLOSE) else {
            break;
        };
        last = Some(&reply[body..body + len]);
        from = body + len + CLOSE.len();
    }
    last.map(|body| body.trim_matches(is_space))
}

/// The content of the last `\boxed{...}` of `reply`, braces inside it balanced.
///
/// GEM's rule: take the last `\boxed` (or, when there is none, the last `\fbox`), read on to the
/// brace that brings the count of open braces back to zero, and accept the result only if it
/// reads `\boxed{` + content + `}`. So `\boxed 5`, a `\fbox{...}` and an unclosed box give
/// `None`.
pub fn last_boxed_balanced(reply: &str) -> Option<&str> {
    const OPEN: &str = "\\boxed{";
    let start = reply.rfind("\\boxed").or_else(|| reply.rfind("\\fbox"))?;
    let mut depth = 0i64;
    let mut end = None;
    for (at, byte) in reply.bytes().enumerate().skip(start) {
        match byte {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    end = Some(at);
                    break;
                }
            }
            _ => {}
        }
    }
    let boxed = &reply[start..=end?];
    boxed.strip_prefix(OPEN)?.strip_suffix('}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tagged_answers() {
        assert_eq!(last_tagged("<answer> Paris </answer>"), Some("Paris"));
        assert_eq!(
            last_tagged("<answer>a</answer> <answer>b</answer>"),
            Some("b")
        );
        assert_eq!(last_tagged("<answer>a</answer> <answer>b"), Some("a"));
        assert_eq!(last_tagged("<answer><answer>x</answer>"), Some("<answer>x"));
        assert_eq!(
            last_tagged("<answer>\nmulti\nline\n</answer>"),
            Some("multi\nline")
        );
        assert_eq!(last_tagged("<answer></answer>"), Some(""));
        assert_eq!(last_tagged("no tags"), None);
        assert_eq!(last_tagged("</answer><answer>"), None);
    }

    #[test]
    fn balanced_boxes() {
        assert_eq!(last_boxed_balanced("\\boxed{True}"), Some("True"));
        assert_eq!(
            last_boxed_balanced("\\boxed{a} \\boxed{\\frac{1}{2}}"),
            Some("\\frac{1}{2}")
        );
        assert_eq!(last_boxed_balanced("\\boxed{a} \\boxed{b"), None);
        assert_eq!(last_boxed_balanced("\\boxed 5"), None);
        assert_eq!(last_boxed_balanced("\\fbox{5}"), None);
        assert_eq!(last_boxed_balanced("\\boxed{}"), Some(""));
        assert_eq!(last_boxed_balanced("\\boxed}{x}"), None);
        assert_eq!(last_boxed_balanced("nothing"), None);
        assert_eq!(last_boxed_balanced("é \\boxed{ü}"), Some("ü"));
    }
}
