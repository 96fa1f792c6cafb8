//! Word lists a plugin embeds (`include_str!`), one word a line, split once on first use.

use geode_sdk::{Error, Rng};
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// An embedded word list: declare it as a `static` and read it from anywhere.
///
/// ```ignore
/// static BASIC: WordList = WordList::new(include_str!("../data/basic.txt"));
/// let three = BASIC.lowercase_of_length(3);
/// ```
pub struct WordList {
    text: &'static str,
    words: OnceLock<Vec<&'static str>>,
}

impl WordList {
    /// A list over `text`, one word a line (empty lines are skipped).
    pub const fn new(text: &'static str) -> Self {
        WordList {
            text,
            words: OnceLock::new(),
        }
    }

    /// Every word, in file order.
    pub fn all(&self) -> &[&'static str] {
        self.words
            .get_or_init(|| self.text.lines().filter(|w| !w.is_empty()).collect())
    }

    /// The words of `length` letters, all lowercase ASCII (how GEM's Wordle and Hangman filter
    /// their lists), in file order.
    pub fn lowercase_of_length(&self, length: usize) -> Vec<&'static str> {
        self.all()
            .iter()
            .copied()
            .filter(|w| w.len() == length && w.bytes().all(|b| b.is_ascii_lowercase()))
            .collect()
    }

    /// `length`, the `word_length` setting, when the list has lowercase words that long;
    /// otherwise the bad-config error "no {length}-letter words".
    pub fn word_length(&self, length: i64) -> Result<usize, Error> {
        usize::try_from(length)
            .ok()
            .filter(|&n| !self.lowercase_of_length(n).is_empty())
            .ok_or_else(|| Error::bad_config("word_length", format!("no {length}-letter words")))
    }

    /// The secret of a Wordle or Hangman episode: a word drawn with `random.choice` among the
    /// [lowercase words](Self::lowercase_of_length) of `length` letters, uppercased.
    pub fn draw_secret(&self, length: usize, rng: &mut Rng) -> Result<String, Error> {
        let words = self.lowercase_of_length(length);
        let secret = rng
            .choice(&words)
            .ok_or_else(|| Error::Internal("no words of the configured length".into()))?;
        Ok(secret.to_ascii_uppercase())
    }
}

/// The word length and turn limit of a Wordle or Hangman episode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct WordRules {
    /// Letters in the secret word.
    pub word_length: usize,
    /// Turns before the episode is cut short.
    pub max_turns: u64,
}

impl WordRules {
    /// The rules set by the `word_length` (checked against `list`) and `max_turns` settings, or
    /// `None` when either is unset (the `-random` ids, which draw them at every reset).
    pub fn configured(
        list: &WordList,
        word_length: Option<i64>,
        max_turns: Option<i64>,
    ) -> Result<Option<WordRules>, Error> {
        Ok(match (word_length, max_turns) {
            (Some(length), Some(turns)) => Some(WordRules {
                word_length: list.word_length(length)?,
                max_turns: geode_sdk::config::at_least("max_turns", turns, 1)?,
            }),
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static LIST: WordList = WordList::new("cat\n\ndog\nOwl\nmouse\ne-mu\n");

    #[test]
    fn filters_like_gem() {
        assert_eq!(LIST.all(), ["cat", "dog", "Owl", "mouse", "e-mu"]);
        assert_eq!(LIST.lowercase_of_length(3), ["cat", "dog"]);
        assert!(LIST.lowercase_of_length(4).is_empty());
        assert_eq!(LIST.word_length(5), Ok(5));
        assert_eq!(
            LIST.word_length(4),
            Err(Error::BadConfig(
                "config key `word_length`: no 4-letter words".into()
            ))
        );
        assert!(LIST.word_length(-3).is_err());
        let secret = LIST.draw_secret(3, &mut Rng::seeded(1)).unwrap();
        assert!(["CAT", "DOG"].contains(&secret.as_str()));
        assert!(LIST.draw_secret(4, &mut Rng::seeded(1)).is_err());
    }

    #[test]
    fn word_rules_from_settings() {
        let rules = WordRules::configured(&LIST, Some(3), Some(7));
        let expected = WordRules {
            word_length: 3,
            max_turns: 7,
        };
        assert_eq!(rules, Ok(Some(expected)));
        assert_eq!(WordRules::configured(&LIST, None, Some(7)), Ok(None));
        assert!(WordRules::configured(&LIST, Some(4), Some(7)).is_err());
        assert!(WordRules::configured(&LIST, Some(3), Some(0)).is_err());
    }
}
