//! Question answering and logic (GEM's `QaEnv` ids): each episode is one question from a
//! dataset, and the single step grades the reply.
//!
//! - The observation is the question inside GEM's prompt (reason in `<think>`, answer in
//!   `<answer>`).
//! - The answer is the last `<answer>...</answer>` of the reply, or, for the RuleTaker logic
//!   ids (`extract_boxed`), the last `\boxed{...}`.
//! - Reward 1.0 when it equals one of the row's answers after SQuAD normalization (see
//!   [`exact_match`]), else 0.0; a reply without an answer scores 0.0. Either way the episode
//!   ends (terminated and truncated, GEM's flags) with `{"correct": bool}` as info.
//!
//! Rows come from a host dataset: by default a small sample shipped with geode (see
//! `data/DATA.md`); the `dataset` key can name a JSONL or Parquet export of the real one.
//! Unseeded resets walk the dataset in a shuffled order, epoch by epoch (an episode the host
//! numbered takes row `number` of that walk, so it replays from its number); a seeded reset
//! picks a row from the seed.

mod exact_match;
mod row;

use geode_games::answer::{last_boxed_balanced, last_tagged};
use geode_sdk::dataset::{self, EpisodeOrder, Position};
use geode_sdk::prelude::*;
use row::Question;

/// GEM's observation once an episode is over.
const TERMINAL_STATE: &str = "<｜TERMINAL_STATE｜>";

/// One id: its default dataset (a sample shipped with geode in `data/`, which the host
/// registers as `qa/<file stem>`), the row keys, how answers are
/// extracted, and what the real dataset is.
struct Variant {
    id: &'static str,
    sample: &'static str,
    question_key: &'static str,
    extract_boxed: bool,
    source: &'static str,
}

const fn variant(
    id: &'static str,
    sample: &'static str,
    question_key: &'static str,
    extract_boxed: bool,
    source: &'static str,
) -> Variant {
    Variant {
        id,
        sample,
        question_key,
        extract_boxed,
        source,
    }
}

/// Every id, with GEM's keys and extraction.
const VARIANTS: &[Variant] = &[
    variant(
        "qa:NaturalQuestions",
        "qa/natural_questions",
        "problem",
        false,
        "axon-rl/NaturalQuestions",
    ),
    variant(
        "qa:HotpotQA",
        "qa/hotpotqa",
        "problem",
        false,
        "axon-rl/HotpotQA",
    ),
    variant(
        "logic:RuleTaker-d0",
        "qa/ruletaker_d0",
        "question",
        true,
        "axon-rl/RuleTaker-d0-70k",
    ),
    variant(
        "logic:RuleTaker-d1",
        "qa/ruletaker_d1",
        "question",
        true,
        "axon-rl/RuleTaker-d1-70k",
    ),
    variant(
        "logic:RuleTaker-d2",
        "qa/ruletaker_d2",
        "question",
        true,
        "axon-rl/RuleTaker-d2-70k",
    ),
    variant(
        "logic:RuleTaker-d3",
        "qa/ruletaker_d3",
        "question",
        true,
        "axon-rl/RuleTaker-d3-70k",
    ),
    variant(
        "logic:RuleTaker-d5",
        "qa/ruletaker_d5",
        "question",
        true,
        "axon-rl/RuleTaker-d5-70k",
    ),
    variant(
        "eval:QaOpen",
        "qa/nq_open",
        "question",
        false,
        "nq_open, validation",
    ),
    variant(
        "eval:2Wiki",
        "qa/search_eval_2wiki",
        "question",
        false,
        "axon-rl/search-eval, 2wiki",
    ),
    variant(
        "eval:PopQA",
        "qa/search_eval_popqa",
        "question",
        false,
        "axon-rl/search-eval, popqa",
    ),
    variant(
        "eval:TriviaQA",
        "qa/search_eval_tq",
        "question",
        false,
        "axon-rl/search-eval, tq",
    ),
    variant(
        "eval:HotpotQA",
        "qa/search_eval_hotpotqa",
        "question",
        false,
        "axon-rl/search-eval, hotpotqa",
    ),
    variant(
        "eval:Bamboogle",
        "qa/search_eval_bamboogle",
        "question",
        false,
        "axon-rl/search-eval, bamboogle",
    ),
    variant(
        "eval:NaturalQuestions",
        "qa/search_eval_nq",
        "question",
        false,
        "axon-rl/search-eval, nq",
    ),
    variant(
        "eval:Musique",
        "qa/search_eval_musique",
        "question",
        false,
        "axon-rl/search-eval, musique",
    ),
];

/// GEM's prompt around each question.
fn prompt(question: &str) -> String {
    format!(
        "For any question, always reason through your thought process using:\n\
         <think> your reasoning here </think>\n\
         Then, provide your final answer using:\n\
         <answer> your answer here </answer>\n\n\
         Question: {question}\n"
    )
}

/// The answer found in `reply` (the last tagged one, or the last box when `boxed`) and whether
/// it matches one of `answers`.
fn grade<'a>(reply: &'a str, answers: &[String], boxed: bool) -> (Option<&'a str>, bool) {
    let answer = if boxed {
        last_boxed_balanced(reply)
    } else {
        last_tagged(reply)
    };
    let correct = answer.is_some_and(|a| exact_match::matches_any(a, answers));
    (answer, correct)
}

/// One QA env: where its rows come from, its walk over them and the current question.
#[derive(Serialize, Deserialize)]
struct QaEnv {
    dataset: String,
    question_key: String,
    answer_key: String,
    extract_boxed: bool,
    seed: u64,
    rows: usize,
    position: Position,
    question: Option<Question>,
    #[serde(skip)]
    order: Option<EpisodeOrder>,
    /// How the coming episode starts (from `before_reset`).
    #[serde(skip)]
    pending: Option<EpisodeStart>,
}

impl QaEnv {
    /// The walk over the rows (rebuilt from `position` after a snapshot was restored).
    fn order(&mut self) -> &mut EpisodeOrder {
        let (rows, seed, position) = (self.rows, self.seed, self.position);
        self.order
            .get_or_insert_with(|| EpisodeOrder::restore(rows, seed, position))
    }
}

impl Environment for QaEnv {
    fn specs() -> Vec<Spec> {
        VARIANTS
            .iter()
            .map(|v| {
                let how = if v.extract_boxed {
                    "\\boxed{}"
                } else {
                    "<answer> tags"
                };
                Spec::new(
                    v.id,
                    format!("Answer a question from {} in {how}; exact match", v.source),
                    json!({
                        "dataset": v.sample,
                        "question_key": v.question_key,
                        "answer_key": "answer",
                        "extract_boxed": v.extract_boxed,
                        "seed": 0,
                    }),
                )
            })
            .collect()
    }

    fn create(_id: &str, config: Config) -> Result<Self, Error> {
        let text = |key: &str| -> Result<String, Error> {
            match config.opt_str(key)? {
                Some(value) if !value.is_empty() => Ok(value.to_owned()),
                _ => Err(Error::bad_config(key, "expected a non-empty string")),
            }
        };
        let seed = config.seed_or("seed", 0)?;
        let dataset = text("dataset")?;
        let rows = dataset::len(&dataset)?;
        let rows = usize::try_from(rows)
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| Error::bad_config("dataset", format!("`{dataset}` has no rows")))?;
        Ok(QaEnv {
            question_key: text("question_key")?,
            answer_key: text("answer_key")?,
            extract_boxed: config.bool_or("extract_boxed", false)?,
            order: Some(EpisodeOrder::new(rows, seed)),
            position: EpisodeOrder::new(rows, seed).position(),
            dataset,
            seed,
            rows,
            question: None,
            pending: None,
        })
    }

    fn before_reset(&mut self, start: &EpisodeStart) {
        self.pending = Some(*start);
    }

    fn reset(&mut self, _rng: &mut Rng) -> Result<Reset, Error> {
        let start = self.pending.take().unwrap_or(EpisodeStart::Unseeded);
        let order = self.order();
        let index = match start {
            // A pick drawn from the seed alone; the walk stays where it is.
            EpisodeStart::Seeded(seed) => order.next(Some(seed)),
            // Row `number` of the walk, and the walk just past it.
            EpisodeStart::Continued { number, .. } => {
                order.seek(number.saturating_add(1));
                order.row_at(number)
            }
            EpisodeStart::Unseeded => order.next(None),
        };
        self.position = self.order().position();
        let row = dataset::row(&self.dataset, index as u64)?;
        let question = Question::from_row(&row, index, &self.question_key, &self.answer_key)
            .map_err(|why| {
                Error::InvalidState(format!("row {index} of dataset `{}`: {why}", self.dataset))
            })?;
        let observation = prompt(&question.text);
        self.question = Some(question);
        Ok(Reset::new(observation))
    }

    fn step(&mut self, action: &str, _rng: &mut Rng) -> Result<Step, Error> {
        let question = self
            .question
            .take()
            .ok_or_else(|| Error::InvalidState("the episode is over; call reset".into()))?;
        let correct = grade(action, &question.answers, self.extract_boxed).1;
        let reward = if correct { 1.0 } else { 0.0 };
        Ok(Step::new(TERMINAL_STATE, reward)
            .terminated()
            .truncated_if(true)
            .info("correct", correct))
    }

    fn sample_random_action(&mut self, _rng: &mut Rng) -> String {
        "<answer>Hello World!</answer>".to_owned()
    }
}

export_env!(QaEnv);

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// Replies graded by GEM's QaEnv (recorded by `tests/record_golden.py`): the same answer is
    /// found and the same verdict given, case for case.
    #[test]
    fn grades_as_gem_does() {
        let golden: Vec<Value> =
            serde_json::from_str(include_str!("../tests/golden.json")).unwrap();
        assert!(golden.len() >= 50);
        for case in golden {
            let reply = case["reply"].as_str().unwrap();
            let mut row = serde_json::Map::new();
            row.insert("q".into(), Value::String(String::new()));
            row.insert("a".into(), case["answer"].clone());
            let answers = row::Question::from_row(&row, 0, "q", "a").unwrap().answers;
            let boxed = case["extract_boxed"].as_bool().unwrap();
            let (found, correct) = grade(reply, &answers, boxed);
            assert_eq!(found, case["extracted"].as_str(), "{case}");
            assert_eq!(correct, case["correct"].as_bool().unwrap(), "{case}");
        }
    }
}
