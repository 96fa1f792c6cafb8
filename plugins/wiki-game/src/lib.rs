//! WikiGame: click from a start article to a target article through links, answering with the
//! title of the next page in `\boxed{...}`.
//!
//! Rules, texts and rewards follow GEM's `WikiGameEnv` (its `game:WikiGame-v0-easy` and `-hard`
//! ids), but the articles come from a dataset the host loaded (default `wiki-game/articles`, the article
//! graph in `data/articles.jsonl` that geode registers at start-up) instead of a Kiwix server:
//! - no `\boxed{title}`: format error, −0.2, the episode goes on (truncated at the turn limit);
//! - a title that is not a neighbouring page, or a refused `\boxed{<PREV_PAGE>}`: −0.2;
//! - a move to another page (or an allowed step back): −0.05;
//! - the target page: 1.0, the episode ends;
//! - a page without links: the episode ends with 0.0 (`noregrets`, `eidetic`), or bounces back
//!   at the cost of a second turn, −0.1 (`oneback`, `freenav`);
//! - at the turn limit the episode ends, terminated and truncated, with 0.0.
//!
//! Start and target are drawn so the target can be reached within the turn limit.

mod game;
mod graph;
mod text;

use game::{Game, Settings, Variant};
use geode_sdk::prelude::*;
use graph::Graph;
use serde_json::Value;
use text::{SummaryLength, Unit};

/// The dataset read unless the configuration names another one.
const DEFAULT_DATASET: &str = "wiki-game/articles";

/// One WikiGame env: its configuration, the episode, and the graph (read once, not snapshotted).
#[derive(Serialize, Deserialize)]
struct WikiGame {
    dataset: String,
    settings: Settings,
    game: Option<Game>,
    #[serde(skip)]
    graph: Option<Graph>,
}

/// The graph in `slot`, reading dataset `name` first if needed (after `create`, or after a
/// snapshot was restored).
fn graph_in<'a>(slot: &'a mut Option<Graph>, name: &str) -> Result<&'a Graph, Error> {
    if slot.is_none() {
        *slot = Some(Graph::load(name)?);
    }
    Ok(slot.as_ref().expect("just loaded"))
}

/// GEM's `page_summary_length`: a pair `[count, unit]`.
fn summary_length(config: &Config) -> Result<SummaryLength, Error> {
    const KEY: &str = "page_summary_length";
    let bad = || {
        Error::bad_config(
            KEY,
            "expected [count, unit] with count >= 0 and unit one of characters, words, sentences",
        )
    };
    let Some(Value::Array(pair)) = config.get(KEY) else {
        return Err(bad());
    };
    match pair.as_slice() {
        [count, unit] => Ok(SummaryLength {
            count: count
                .as_u64()
                .and_then(|c| usize::try_from(c).ok())
                .ok_or_else(bad)?,
            unit: unit.as_str().and_then(Unit::parse).ok_or_else(bad)?,
        }),
        _ => Err(bad()),
    }
}

impl Environment for WikiGame {
    fn specs() -> Vec<Spec> {
        let spec = |id: &str, turns: i64| {
            Spec::new(
                id,
                format!("Reach a target article by following links, within {turns} clicks"),
                json!({
                    "max_turns": turns,
                    "variant": "noregrets",
                    "page_summary_length": [100, "characters"],
                    "dataset": DEFAULT_DATASET,
                }),
            )
        };
        vec![
            spec("game:WikiGame-v0-easy", 30),
            spec("game:WikiGame-v0-hard", 15),
        ]
    }

    fn create(_id: &str, config: Config) -> Result<Self, Error> {
        let max_turns = config.int("max_turns")?;
        let max_turns = u64::try_from(max_turns)
            .ok()
            .filter(|&t| t >= 1)
            .ok_or_else(|| Error::bad_config("max_turns", "must be at least 1"))?;
        let variant = config.opt_str("variant")?.unwrap_or("noregrets");
        let variant = Variant::parse(variant).ok_or_else(|| {
            Error::bad_config(
                "variant",
                format!("`{variant}` is not one of noregrets, oneback, freenav, eidetic"),
            )
        })?;
        let dataset = config.opt_str("dataset")?.unwrap_or(DEFAULT_DATASET);
        let mut env = WikiGame {
            dataset: dataset.to_owned(),
            settings: Settings {
                max_turns,
                variant,
                summary: summary_length(&config)?,
            },
            game: None,
            graph: None,
        };
        // Read the graph now, so a missing dataset is reported when the env is made.
        graph_in(&mut env.graph, &env.dataset)?;
        Ok(env)
    }

    fn reset(&mut self, rng: &mut Rng) -> Result<Reset, Error> {
        let graph = graph_in(&mut self.graph, &self.dataset)?;
        let game = Game::new(self.settings, graph, rng)?;
        let reset = Reset::new(game.instructions(graph)).info("suffix", game.suffix(graph));
        self.game = Some(game);
        Ok(reset)
    }

    fn step(&mut self, action: &str, _rng: &mut Rng) -> Result<Step, Error> {
        let graph = graph_in(&mut self.graph, &self.dataset)?;
        let game = self
            .game
            .as_mut()
            .ok_or_else(|| Error::InvalidState("step called before reset".into()))?;
        Ok(game.step(graph, action))
    }

    fn sample_random_action(&mut self, rng: &mut Rng) -> String {
        match (graph_in(&mut self.graph, &self.dataset), &self.game) {
            (Ok(graph), Some(game)) => game.random_action(graph, rng),
            _ => text!("\\boxed{", game::BACK, '}'),
        }
    }
}

export_env!(WikiGame);
