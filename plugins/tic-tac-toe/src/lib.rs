//! TicTacToe for two agents, `player_0` (X, moves first) and `player_1` (O), taking turns.
//!
//! A move is a cell number 1–9 in `\boxed{N}` (a bare number also counts), cells numbered row
//! by row from the top left. Three in a row wins: +1 for the winner, −1 for the loser. A full
//! board with no line is a draw (0 each). An unreadable move or a taken cell forfeits the game
//! (−1 for the mover, +1 for the opponent). Either way both agents terminate and leave.

use geode_games::prelude::*;
use geode_sdk::multiagent::{Agents, MultiAgentEnvironment};

const PLAYERS: [&str; 2] = ["player_0", "player_1"];
const MARKS: [char; 2] = ['X', 'O'];
const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// One game: the board (`None` is empty) and how it ended.
#[derive(Serialize, Deserialize)]
struct TicTacToe {
    board: [Option<u8>; 9],
    last: Option<String>,
}

fn seat(agent: &str) -> Option<usize> {
    PLAYERS.iter().position(|p| *p == agent)
}

/// The cell (0-based) an action names, if it names one in range.
fn parse_cell(action: &str) -> Option<usize> {
    let number = last_boxed_int(action).or_else(|| action.trim().parse().ok())?;
    (1..=9).contains(&number).then(|| number as usize - 1)
}

impl TicTacToe {
    fn legal(&self) -> impl Iterator<Item = usize> + '_ {
        (0..9).filter(|&c| self.board[c].is_none())
    }

    fn wins(&self, player: u8) -> bool {
        LINES
            .iter()
            .any(|line| line.iter().all(|&c| self.board[c] == Some(player)))
    }

    fn render(&self) -> String {
        let mut out = String::new();
        for row in 0..3 {
            for col in 0..3 {
                let c = row * 3 + col;
                out.push(match self.board[c] {
                    Some(p) => MARKS[p as usize],
                    None => char::from(b'1' + c as u8),
                });
                out.push(if col < 2 { '|' } else { '\n' });
            }
            if row < 2 {
                out.push_str("-+-+-\n");
            }
        }
        out
    }
}

impl MultiAgentEnvironment for TicTacToe {
    fn specs() -> Vec<Spec> {
        vec![Spec::new(
            "ma:TicTacToe-v0",
            "Two-player TicTacToe: agents player_0 (X) and player_1 (O) take turns",
            json!({}),
        )]
    }

    fn create(_id: &str, _config: Config) -> Result<Self, Error> {
        Ok(TicTacToe {
            board: [None; 9],
            last: None,
        })
    }

    fn possible_agents(&self) -> Vec<String> {
        PLAYERS.iter().map(|p| p.to_string()).collect()
    }

    fn reset(&mut self, _agents: &mut Agents, _rng: &mut Rng) -> Result<(), Error> {
        self.board = [None; 9];
        self.last = None;
        Ok(())
    }

    fn step(
        &mut self,
        actions: &[(String, String)],
        agents: &mut Agents,
        _rng: &mut Rng,
    ) -> Result<(), Error> {
        let (agent, action) = &actions[0];
        let me = seat(agent).ok_or_else(|| Error::Internal(format!("no seat for {agent}")))?;
        let other = PLAYERS[1 - me];
        let cell = parse_cell(action).filter(|&c| self.board[c].is_none());
        let Some(cell) = cell else {
            self.last = Some(format!("{agent} made an illegal move and forfeits."));
            agents.info(agent, "illegal_move", true);
            agents.end_all(&[(agent, -1.0), (other, 1.0)]);
            return Ok(());
        };
        self.board[cell] = Some(me as u8);
        self.last = Some(format!("{agent} ({}) took cell {}.", MARKS[me], cell + 1));
        if self.wins(me as u8) {
            agents.info(agent, "winner", agent);
            agents.info(other, "winner", agent);
            agents.end_all(&[(agent, 1.0), (other, -1.0)]);
        } else if self.legal().next().is_none() {
            agents.info(agent, "draw", true);
            agents.info(other, "draw", true);
            agents.end_all(&[]);
        }
        Ok(())
    }

    fn observe(&self, agent: &str, agents: &Agents) -> String {
        let mark = seat(agent).map_or('?', |s| MARKS[s]);
        let mut out = format!(
            "You are {agent}, playing {mark} in TicTacToe. Three of your marks in a row, column or diagonal win. \
             Reply with the number of an empty cell in \\boxed{{}}, for example \\boxed{{5}}.\n\n"
        );
        out.push_str(&self.render());
        if let Some(last) = &self.last {
            out.push('\n');
            out.push_str(last);
        }
        if agents.agents().is_empty() {
            out.push_str("\nThe game is over.");
        } else if agents.is_active(agent) {
            let moves: Vec<String> = self.legal().map(|c| (c + 1).to_string()).collect();
            out.push_str(&format!("\nYour move. Empty cells: {}.", moves.join(", ")));
        } else {
            out.push_str("\nWaiting for the other player.");
        }
        out
    }

    fn sample_random_action(&mut self, _agent: &str, _agents: &Agents, rng: &mut Rng) -> String {
        let legal: Vec<usize> = self.legal().collect();
        match rng.choice(&legal) {
            Some(c) => format!("\\boxed{{{}}}", c + 1),
            None => "\\boxed{1}".to_owned(),
        }
    }
}

geode_sdk::export_multiagent!(TicTacToe);

#[cfg(test)]
mod tests {
    use super::*;
    use geode_sdk::multiagent::Session;

    fn game() -> Session<TicTacToe> {
        let mut s = Session::make("ma:TicTacToe-v0", &json!({})).unwrap();
        s.reset(Some(0)).unwrap();
        s
    }

    fn play(
        s: &mut Session<TicTacToe>,
        agent: &str,
        cell: u8,
    ) -> Vec<geode_sdk::multiagent::AgentTurn> {
        s.step(&[(agent.to_string(), format!("\\boxed{{{cell}}}"))])
            .unwrap()
    }

    #[test]
    fn players_alternate_and_a_row_wins() {
        let mut s = game();
        assert_eq!(s.agents().active(), ["player_0"]);
        for (agent, cell) in [
            ("player_0", 1),
            ("player_1", 4),
            ("player_0", 2),
            ("player_1", 5),
        ] {
            let out = play(&mut s, agent, cell);
            assert!(out.iter().all(|t| t.reward == 0.0 && !t.terminated));
        }
        assert_eq!(s.agents().active(), ["player_0"]);
        let out = play(&mut s, "player_0", 3);
        let rewards: Vec<f64> = out.iter().map(|t| t.reward).collect();
        assert_eq!(rewards, [1.0, -1.0]);
        assert!(out.iter().all(|t| t.terminated));
        assert!(s.agents().agents().is_empty(), "finished agents leave");
        assert!(out[0].observation.contains("X|X|X"));
    }

    #[test]
    fn a_full_board_without_a_line_is_a_draw() {
        let mut s = game();
        let moves = [1, 2, 3, 5, 4, 6, 8, 7, 9];
        let mut last = Vec::new();
        for (i, cell) in moves.iter().enumerate() {
            last = play(&mut s, PLAYERS[i % 2], *cell);
        }
        assert!(last.iter().all(|t| t.terminated && t.reward == 0.0));
        assert!(last[0].info.contains("\"draw\":true"));
    }

    #[test]
    fn a_taken_cell_or_gibberish_forfeits() {
        let mut s = game();
        play(&mut s, "player_0", 5);
        let out = play(&mut s, "player_1", 5);
        assert_eq!((out[0].reward, out[1].reward), (1.0, -1.0));
        assert!(out[1].info.contains("illegal_move"));
        let mut s = game();
        let out = s.step(&[("player_0".into(), "the middle".into())]).unwrap();
        assert_eq!((out[0].reward, out[1].reward), (-1.0, 1.0));
    }

    #[test]
    fn only_the_player_to_move_may_act() {
        let mut s = game();
        assert!(s.step(&[("player_1".into(), "\\boxed{1}".into())]).is_err());
        assert!(s.step(&[]).is_err());
    }

    #[test]
    fn random_moves_are_legal_and_replay_from_the_seed() {
        let run = |seed| {
            let mut s = Session::<TicTacToe>::make("ma:TicTacToe-v0", &json!({})).unwrap();
            s.reset(Some(seed)).unwrap();
            let mut moves = Vec::new();
            while let Some(agent) = s.agents().active().first().cloned() {
                let action = s.sample_random_action(&agent).unwrap();
                let out = s.step(&[(agent, action.clone())]).unwrap();
                assert!(out.iter().all(|t| !t.info.contains("illegal")), "{action}");
                moves.push(action);
            }
            moves
        };
        assert_eq!(run(7), run(7));
        assert!((0..20).map(run).any(|m| m != run(7)));
    }
}
