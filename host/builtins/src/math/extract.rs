//! The host's copy of the grader's answer extraction (GEM's `extract_answer`): the inside of
//! the last `\boxed{...}`, braces balanced. The env uses it to skip the grader for answers
//! without a box, and to report the answer of a call that ran out of budget.

/// The answer of `response`: the inside of its last `\boxed{}`; `None` without a `\boxed`, or
/// when its last one is not followed by `{` or its braces never balance.
pub fn extract_boxed(response: &str) -> Option<&str> {
    const BOXED: &str = "\\boxed";
    let start = response.rfind(BOXED)?;
    let mut depth: i64 = 0;
    let mut end = None;
    for (offset, byte) in response.as_bytes()[start..].iter().enumerate() {
        match byte {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    end = Some(start + offset);
                    break;
                }
            }
            _ => {}
        }
    }
    let command = &response[start..=end?];
    command.strip_prefix("\\boxed{")?.strip_suffix('}')
}

#[cfg(test)]
mod tests {
    use super::extract_boxed;

    #[test]
    fn last_balanced_box() {
        assert_eq!(
            extract_boxed("a \\boxed{1} b \\boxed{\\frac{1}{2}}"),
            Some("\\frac{1}{2}")
        );
        assert_eq!(extract_boxed("\\boxed{}"), Some(""));
        assert_eq!(extract_boxed("\\boxed {3}"), None);
        assert_eq!(extract_boxed("\\boxed{3"), None);
        assert_eq!(extract_boxed("\\fbox{3}"), None);
        assert_eq!(extract_boxed("no answer"), None);
        assert_eq!(extract_boxed("\\boxed}{x}"), None);
    }
}
