//! The rules of one WikiGame episode over a [`Graph`], independent of how the graph was read.

use crate::graph::Graph;
use crate::text::{SummaryLength, boxed_title};
use geode_games::game::echo;
use geode_sdk::text;
use geode_sdk::{Error, Rng, Step};
use serde::{Deserialize, Serialize};

/// The action that asks to go back to the previous page.
pub const BACK: &str = "<PREV_PAGE>";

/// GEM's `WikiGameReward` table (it differs from the shared text-game one).
pub mod reward {
    pub const SUCCESS: f64 = 1.0;
    pub const INTERNAL_STEP: f64 = -0.05;
    pub const FAIL: f64 = 0.0;
    pub const INVALID_ACTION: f64 = -0.2;
    pub const FORMAT_ERROR: f64 = -0.2;
}

/// GEM's rule sets (`variant`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// No going back; a dead end ends the episode.
    NoRegrets,
    /// `<PREV_PAGE>` allowed, but not twice in a row; a dead end bounces back.
    OneBack,
    /// `<PREV_PAGE>` allowed freely; a dead end bounces back.
    FreeNav,
    /// No going back, but any page linked from any page visited so far may be chosen.
    Eidetic,
}

impl Variant {
    /// The variant GEM names `name`.
    pub fn parse(name: &str) -> Option<Variant> {
        match name {
            "noregrets" => Some(Variant::NoRegrets),
            "oneback" => Some(Variant::OneBack),
            "freenav" => Some(Variant::FreeNav),
            "eidetic" => Some(Variant::Eidetic),
            _ => None,
        }
    }

    fn may_go_back(self) -> bool {
        matches!(self, Variant::OneBack | Variant::FreeNav)
    }

    /// The sentence of the instructions describing movement.
    fn rules_text(self) -> &'static str {
        match self {
            Variant::NoRegrets | Variant::Eidetic => {
                "Choose wisely, as you may NOT backtrack; you can only visit neighboring pages \
                 (though you may revisit pages). Note that trying to backtrack is an illegal move \
                 and will still count towards your maximum number of turns.\n"
            }
            Variant::OneBack => {
                "If you wish, you may respond \\boxed{<PREV_PAGE>} to return to the previous page. \
                 Do note, however, that this counts towards your maximum number of turns. Note \
                 that you may NOT backtrack twice in a row. \n"
            }
            Variant::FreeNav => {
                "If you wish, you may respond \\boxed{<PREV_PAGE>} to return to the previous page. \
                 Do note, however, that this counts towards your maximum number of turns. \n"
            }
        }
    }
}

/// The configuration the rules depend on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    pub max_turns: u64,
    pub variant: Variant,
    pub summary: SummaryLength,
}

/// One episode: where it started, where it must end, where it is.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Game {
    settings: Settings,
    start: usize,
    target: usize,
    current: usize,
    /// Pages moved to, starting with the start page (backtracking pops).
    history: Vec<usize>,
    /// The last move was a backtrack (or a bounce off a dead end).
    backtracked: bool,
    turn: u64,
    /// Eidetic: every page linked from a page visited this episode, in first-seen order.
    seen: Vec<usize>,
}

impl Game {
    /// A new episode: a start page with links, drawn uniformly, and a target with links drawn
    /// uniformly among the pages reachable from it within `max_turns` clicks.
    pub fn new(settings: Settings, graph: &Graph, rng: &mut Rng) -> Result<Game, Error> {
        let limit = usize::try_from(settings.max_turns).unwrap_or(usize::MAX);
        let mut starts: Vec<usize> = (0..graph.len())
            .filter(|&page| !graph.links(page).is_empty())
            .collect();
        loop {
            if starts.is_empty() {
                return Err(Error::InvalidState(format!(
                    "no two articles of the dataset are connected within {limit} clicks"
                )));
            }
            let drawn = rng.below(starts.len() as u64) as usize;
            let start = starts[drawn];
            let targets: Vec<usize> = graph
                .distances(start)
                .into_iter()
                .enumerate()
                .filter(|&(page, d)| {
                    d.is_some_and(|d| (1..=limit).contains(&d)) && !graph.links(page).is_empty()
                })
                .map(|(page, _)| page)
                .collect();
            let Some(&target) = rng.choice(&targets) else {
                starts.remove(drawn);
                continue;
            };
            return Ok(Game::between(settings, graph, start, target));
        }
    }

    /// An episode from `start` to `target`.
    pub fn between(settings: Settings, graph: &Graph, start: usize, target: usize) -> Game {
        let mut game = Game {
            settings,
            start,
            target,
            current: start,
            history: vec![start],
            backtracked: false,
            turn: 0,
            seen: Vec::new(),
        };
        game.remember(graph, start);
        game
    }

    #[cfg(test)]
    pub fn start(&self) -> usize {
        self.start
    }

    #[cfg(test)]
    pub fn target(&self) -> usize {
        self.target
    }

    #[cfg(test)]
    pub fn current(&self) -> usize {
        self.current
    }

    /// Eidetic memory: adds the links of `page`.
    fn remember(&mut self, graph: &Graph, page: usize) {
        if self.settings.variant == Variant::Eidetic {
            for &link in graph.links(page) {
                if !self.seen.contains(&link) {
                    self.seen.push(link);
                }
            }
        }
    }

    /// The pages that may be chosen from `page`.
    fn choices(&self, graph: &Graph, page: usize) -> Vec<usize> {
        let mut pages = self.seen.clone();
        for &link in graph.links(page) {
            if !pages.contains(&link) {
                pages.push(link);
            }
        }
        pages
    }

    fn summary(&self, graph: &Graph, page: usize) -> String {
        self.settings.summary.cut(graph.text(page))
    }

    /// The first observation of the episode.
    pub fn instructions(&self, graph: &Graph) -> String {
        let turns = self.settings.max_turns;
        text!(
            "You are playing the Wikipedia Game, and must reach the target Wikipedia page within ",
            turns,
            " turns.\n\
             This game tests your general knowledge and navigation skills.\n\
             A page refers to a webpage.\n\
             A Wikipedia page is a webpage on Wikipedia containing articles on a specific topic, \
             as identified by its title.\n\
             A neighboring page is any page accessible via a hyperlink from the current page.\n\
             You will start at a random Wikipedia page, and must navigate to a target Wikipedia \
             page by visiting neighboring pages.\n\
             To visit a neighboring page, enter its EXACT title, wrapped in \\boxed{} tags (for \
             example, \\boxed{Python_(programming_language)}).\n",
            self.settings.variant.rules_text(),
            "You started at '",
            graph.title(self.current),
            "' and your target page is '",
            graph.title(self.target),
            "'.\n\
             Here is a summary of the target page:\n",
            self.summary(graph, self.target),
            "...\n\
             You can visit up to ",
            turns,
            " neighboring pages (excluding the starting page) to reach \
             the target page.\n\
             Use the information to navigate to the target page before you run out of turns. \
             Before you make a guess, mention the pages you think will help you reach the target \
             page quickly. Then, justify which is the best and enter that page's title in \
             \\boxed{} tags to navigate there.\n\
             Enter your first guess to start the game.\n"
        )
    }

    /// The `suffix` info: where the player is and which pages it may choose.
    pub fn suffix(&self, graph: &Graph) -> String {
        let mut out = text!(
            "You are currently on the '",
            graph.title(self.current),
            "' page. Your target page is '",
            graph.title(self.target),
            "'.\n\
             Here is a summary of the page:\n",
            self.summary(graph, self.current),
            "...\n\
             This page has the following neighboring pages: "
        );
        let choices = self.choices(graph, self.current);
        for &page in &choices {
            out.push_str("\n- \\boxed{");
            out.push_str(graph.title(page));
            out.push('}');
        }
        if choices.is_empty() {
            out.push_str("\n- ");
        }
        out.push_str(
            "\n\
             Enter the title of the neighboring page you want to navigate to.",
        );
        out
    }

    /// Plays one action.
    pub fn step(&mut self, graph: &Graph, action: &str) -> Step {
        self.turn += 1;
        let turn = self.turn;
        let at_limit = turn == self.settings.max_turns;
        let Some(title) = boxed_title(action) else {
            let obs = text!(
                "At turn ",
                turn,
                ", you did not provide a valid page title."
            );
            return self.with_suffix(
                graph,
                Step::new(obs, reward::FORMAT_ERROR).truncated_if(at_limit),
            );
        };
        if title == BACK {
            let step = self
                .go_back(graph)
                .truncated_if(self.turn == self.settings.max_turns);
            return self.with_suffix(graph, step);
        }
        let choices = self.choices(graph, self.current);
        let chosen = choices
            .iter()
            .copied()
            .find(|&page| graph.title(page) == title);
        let (obs, reward) = match chosen {
            None => (
                self.not_a_neighbor(graph, title, &choices),
                reward::INVALID_ACTION,
            ),
            Some(page) if page == self.target => {
                self.move_to(graph, page);
                let obs = text!(
                    "Congratulations! You have reached the target page '",
                    graph.title(self.target),
                    "' in ",
                    turn,
                    " turns."
                );
                return self.with_suffix(graph, Step::new(obs, reward::SUCCESS).terminated());
            }
            Some(page) if self.choices(graph, page).is_empty() => {
                let step = self.dead_end(graph, page);
                return self.with_suffix(graph, step);
            }
            Some(page) => {
                self.move_to(graph, page);
                let obs = text!(
                    "At turn ",
                    turn,
                    ", you navigated to the '",
                    graph.title(page),
                    "' page. Here is a summary of the page:\n",
                    self.summary(graph, page),
                    "...\n"
                );
                (obs, reward::INTERNAL_STEP)
            }
        };
        let step = if turn >= self.settings.max_turns {
            let obs = text!(
                "At turn ",
                turn,
                ", you have reached the maximum number of turns without reaching the target page '",
                graph.title(self.target),
                "'."
            );
            Step::new(obs, reward::FAIL).terminated().truncated_if(true)
        } else {
            Step::new(obs, reward)
        };
        self.with_suffix(graph, step)
    }

    fn with_suffix(&self, graph: &Graph, step: Step) -> Step {
        step.info("suffix", self.suffix(graph))
    }

    fn move_to(&mut self, graph: &Graph, page: usize) {
        self.current = page;
        self.history.push(page);
        self.backtracked = false;
        self.remember(graph, page);
    }

    /// GEM's reply to a title that is not among the choices, with a "did you mean" when a
    /// choice contains it (ignoring case).
    fn not_a_neighbor(&self, graph: &Graph, title: &str, choices: &[usize]) -> String {
        let wanted = title.to_lowercase();
        let hint = match choices
            .iter()
            .map(|&page| graph.title(page))
            .find(|candidate| candidate.to_lowercase().contains(&wanted))
        {
            Some(candidate) => text!("Did you mean '", candidate, "'?"),
            None => "and neither could it be construed as a valid neighboring page title of it. "
                .to_owned(),
        };
        text!(
            "At turn ",
            self.turn,
            ", you guessed '",
            *echo(title),
            "', which is neither a neighboring page of '",
            graph.title(self.current),
            "', ",
            hint,
            "You must match **exactly** one of the neighboring page titles to navigate there."
        )
    }

    /// `<PREV_PAGE>`: refused, or back to the page before the current one.
    fn go_back(&mut self, graph: &Graph) -> Step {
        let turn = self.turn;
        let refusal = if !self.settings.variant.may_go_back() {
            Some("backtracking is not allowed in this variant of the Wikipedia Game.")
        } else if self.history.len() < 2 {
            Some("there is no previous page that you can return to.")
        } else if self.settings.variant == Variant::OneBack && self.backtracked {
            Some("you have already backtracked once and cannot do so again.")
        } else {
            None
        };
        if let Some(why) = refusal {
            let obs = text!(
                "At turn ",
                turn,
                ", you attempted to backtrack to the previous page, but ",
                why
            );
            return Step::new(obs, reward::INVALID_ACTION);
        }
        self.history.pop();
        self.current = *self
            .history
            .last()
            .expect("the start page stays in the history");
        self.backtracked = true;
        let obs = text!(
            "At turn ",
            turn,
            ", you backtracked to the previous page '",
            graph.title(self.current),
            "'. Here is a summary of the page:\n",
            self.summary(graph, self.current),
            "...\n"
        );
        Step::new(obs, reward::INTERNAL_STEP)
    }

    /// A chosen page without links: the end (no-regrets rules), or a bounce back that costs a
    /// second turn (backtracking rules).
    fn dead_end(&mut self, graph: &Graph, page: usize) -> Step {
        let turn = self.turn;
        if !self.settings.variant.may_go_back() {
            self.current = page;
            let obs = text!(
                "At turn ",
                turn,
                ", you navigated to the '",
                graph.title(page),
                "' page, which is a dead-end pagewith no neighboring pages."
            );
            return Step::new(obs, reward::FAIL).terminated();
        }
        self.backtracked = true;
        self.turn += 1;
        let obs = text!(
            "At turn ",
            turn,
            ", you reached a dead-end page '",
            graph.title(page),
            "' with no neighboring pages. You have been automatically backtracked to the previous \
             page '",
            graph.title(self.current),
            "' at the cost of an additional turn. So now, you are at turn ",
            self.turn,
            ". Here is a summary of the page:\n",
            self.summary(graph, self.current),
            "...\n"
        );
        Step::new(obs, 2.0 * reward::INTERNAL_STEP)
            .truncated_if(self.turn >= self.settings.max_turns)
    }

    /// GEM's random action: a link of the current page, boxed. On a page without links (only
    /// reachable where GEM would raise) it falls back to any choice, then to going back.
    pub fn random_action(&self, graph: &Graph, rng: &mut Rng) -> String {
        let links = graph.links(self.current);
        let pool = if links.is_empty() {
            self.choices(graph, self.current)
        } else {
            links.to_vec()
        };
        let title = rng.choice(&pool).map_or(BACK, |&page| graph.title(page));
        text!("\\boxed{", title, '}')
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::tests::graph;
    use crate::text::Unit;

    fn settings(variant: Variant, max_turns: u64) -> Settings {
        Settings {
            max_turns,
            variant,
            summary: SummaryLength {
                count: 100,
                unit: Unit::Characters,
            },
        }
    }

    /// A → B → C → D (target), B → Dead, C → A, D → A; "Island" links to A only.
    fn world() -> Graph {
        graph(&[
            ("A", "Page A.", &["B"]),
            ("B", "Page B.", &["C", "Dead"]),
            ("C", "Page C.", &["D", "A"]),
            ("D", "Page D is the goal.", &["A"]),
            ("Dead", "Nothing here.", &[]),
            ("Island", "Far away.", &["A"]),
        ])
    }

    fn play(variant: Variant, max_turns: u64) -> (Graph, Game) {
        let g = world();
        let game = Game::between(settings(variant, max_turns), &g, 0, 3);
        (g, game)
    }

    fn suffix(step: &Step) -> String {
        step.info
            .get("suffix")
            .unwrap()
            .as_str()
            .unwrap()
            .to_owned()
    }

    #[test]
    fn shortest_path_wins() {
        let (g, mut game) = play(Variant::NoRegrets, 10);
        let step = game.step(&g, "I pick \\boxed{B}");
        assert_eq!(step.reward, reward::INTERNAL_STEP);
        assert!(!step.terminated && !step.truncated);
        assert_eq!(
            step.observation,
            "At turn 1, you navigated to the 'B' page. Here is a summary of the page:\nPage B....\n"
        );
        assert_eq!(
            suffix(&step),
            "You are currently on the 'B' page. Your target page is 'D'.\nHere is a summary of the \
             page:\nPage B....\nThis page has the following neighboring pages: \n- \\boxed{C}\n- \
             \\boxed{Dead}\nEnter the title of the neighboring page you want to navigate to."
        );
        game.step(&g, "\\boxed{C}");
        let step = game.step(&g, "\\boxed{ D }");
        assert_eq!(step.reward, reward::SUCCESS);
        assert!(step.terminated && !step.truncated);
        assert_eq!(
            step.observation,
            "Congratulations! You have reached the target page 'D' in 3 turns."
        );
    }

    #[test]
    fn invalid_moves_cost_a_turn_and_hint() {
        let (g, mut game) = play(Variant::NoRegrets, 10);
        let step = game.step(&g, "\\boxed{b}");
        assert_eq!(step.reward, reward::INVALID_ACTION);
        assert_eq!(
            step.observation,
            "At turn 1, you guessed 'b', which is neither a neighboring page of 'A', Did you mean \
             'B'?You must match **exactly** one of the neighboring page titles to navigate there."
        );
        let step = game.step(&g, "\\boxed{Island}");
        assert!(
            step.observation
                .contains("and neither could it be construed")
        );
        assert_eq!(game.current(), 0);
        let step = game.step(&g, "no box");
        assert_eq!(step.reward, reward::FORMAT_ERROR);
        assert_eq!(
            step.observation,
            "At turn 3, you did not provide a valid page title."
        );
        assert!(!step.terminated && !step.truncated);
        let step = game.step(&g, "\\boxed{<PREV_PAGE>}");
        assert_eq!(step.reward, reward::INVALID_ACTION);
        assert!(
            step.observation
                .ends_with("not allowed in this variant of the Wikipedia Game.")
        );
    }

    #[test]
    fn the_turn_limit_ends_the_episode() {
        let (g, mut game) = play(Variant::NoRegrets, 2);
        let step = game.step(&g, "\\boxed{B}");
        assert!(!step.terminated && !step.truncated);
        let step = game.step(&g, "\\boxed{C}");
        assert_eq!(step.reward, reward::FAIL);
        assert!(step.terminated && step.truncated);
        assert_eq!(
            step.observation,
            "At turn 2, you have reached the maximum number of turns without reaching the target \
             page 'D'."
        );
        let (g, mut game) = play(Variant::NoRegrets, 1);
        let step = game.step(&g, "nothing");
        assert!(
            !step.terminated && step.truncated,
            "a format error only truncates"
        );
    }

    #[test]
    fn dead_ends_end_or_bounce() {
        let (g, mut game) = play(Variant::NoRegrets, 10);
        game.step(&g, "\\boxed{B}");
        let step = game.step(&g, "\\boxed{Dead}");
        assert!(step.terminated && !step.truncated);
        assert_eq!(step.reward, reward::FAIL);
        assert_eq!(game.current(), 4);

        let (g, mut game) = play(Variant::OneBack, 10);
        game.step(&g, "\\boxed{B}");
        let step = game.step(&g, "\\boxed{Dead}");
        assert!(!step.terminated && !step.truncated);
        assert_eq!(step.reward, -0.1);
        assert!(step.observation.contains("So now, you are at turn 3."));
        assert_eq!(game.current(), 1);
        let step = game.step(&g, "\\boxed{<PREV_PAGE>}");
        assert!(step.observation.contains("already backtracked once"));
    }

    #[test]
    fn backtracking_variants() {
        let (g, mut game) = play(Variant::OneBack, 10);
        let step = game.step(&g, "\\boxed{<PREV_PAGE>}");
        assert!(step.observation.contains("there is no previous page"));
        game.step(&g, "\\boxed{B}");
        game.step(&g, "\\boxed{C}");
        let step = game.step(&g, "\\boxed{<PREV_PAGE>}");
        assert_eq!(step.reward, reward::INTERNAL_STEP);
        assert_eq!(game.current(), 1);
        let step = game.step(&g, "\\boxed{<PREV_PAGE>}");
        assert_eq!(step.reward, reward::INVALID_ACTION);

        let (g, mut game) = play(Variant::FreeNav, 3);
        game.step(&g, "\\boxed{B}");
        game.step(&g, "\\boxed{<PREV_PAGE>}");
        assert_eq!(game.current(), 0);
        let step = game.step(&g, "\\boxed{<PREV_PAGE>}");
        assert!(step.observation.contains("no previous page"));
        assert!(!step.terminated && step.truncated);
    }

    #[test]
    fn eidetic_remembers_every_link_seen() {
        let (g, mut game) = play(Variant::Eidetic, 10);
        game.step(&g, "\\boxed{B}");
        game.step(&g, "\\boxed{Dead}");
        assert_eq!(game.current(), 4, "not a dead end while memories remain");
        let step = game.step(&g, "\\boxed{C}");
        assert_eq!(step.reward, reward::INTERNAL_STEP);
        assert!(suffix(&step).contains("\\boxed{B}\n- \\boxed{C}\n- \\boxed{Dead}\n- \\boxed{D}"));
        assert!(game.step(&g, "\\boxed{D}").terminated);
    }

    #[test]
    fn draws_connected_pairs_reproducibly() {
        let g = world();
        let s = settings(Variant::NoRegrets, 2);
        for seed in 0..50 {
            let game = Game::new(s, &g, &mut Rng::seeded(seed)).unwrap();
            let again = Game::new(s, &g, &mut Rng::seeded(seed)).unwrap();
            assert_eq!(
                (game.start(), game.target()),
                (again.start(), again.target())
            );
            let d = g.distances(game.start())[game.target()].unwrap();
            assert!((1..=2).contains(&d), "seed {seed}");
            assert!(!g.links(game.target()).is_empty());
        }
        let lonely = graph(&[("A", "", &[]), ("B", "", &["A"])]);
        assert!(Game::new(s, &lonely, &mut Rng::seeded(1)).is_err());
    }

    #[test]
    fn random_actions_are_links_of_the_current_page() {
        let (g, game) = play(Variant::NoRegrets, 10);
        let mut rng = Rng::seeded(3);
        assert_eq!(game.random_action(&g, &mut rng), "\\boxed{B}");
        let instructions = game.instructions(&g);
        assert!(instructions.starts_with(
            "You are playing the Wikipedia Game, and must reach the target Wikipedia page within \
             10 turns.\n"
        ));
        assert!(instructions.contains(
            "You started at 'A' and your target page is 'D'.\nHere is a summary of the target \
             page:\nPage D is the goal....\nYou can visit up to 10 neighboring pages"
        ));
    }
}
