//! Hostile guests for the runtime's limit and isolation tests. Each id attacks the host in one
//! way when stepped; `hostile:healthy` is a well-behaved counter. This plugin uses the raw
//! bindings instead of the SDK so it can break the contract on purpose (bad info JSON).
// Natively nothing is exported (see the end of the file), so nothing is used.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code, unused_imports))]

use geode_sdk::EpisodeStart;
use geode_sdk::batch::Member;
use geode_sdk::bindings::exports::geode::env::batch::{
    BatchResults, EpisodeStart as ContractStart, Guest as BatchGuest, InstanceBorrow,
};
use geode_sdk::bindings::exports::geode::env::env::{
    EnvError, Guest, GuestInstance, Instance, PluginSpec, ResetResult, StepResult,
};
use std::cell::Cell;
use std::hint::black_box;
use std::rc::Rc;

const KINDS: &[(&str, &str)] = &[
    (
        "hostile:healthy",
        "counts steps; ends after 3; panics on the action `trap`",
    ),
    ("hostile:spin", "loops forever in step"),
    ("hostile:memory-bomb", "allocates until memory runs out"),
    ("hostile:stack-overflow", "recurses without end"),
    ("hostile:panic", "panics with a message"),
    ("hostile:huge-observation", "returns a 100 MB observation"),
    ("hostile:bad-info", "returns info that is not JSON"),
    ("hostile:array-info", "returns info that is a JSON array"),
    ("hostile:nan-reward", "returns a NaN reward"),
    (
        "hostile:escape",
        "tries the escape named by the action: read-file, write-file, list-dir, env-vars, socket, clock",
    ),
    ("hostile:slow-reset", "spins in reset"),
    (
        "hostile:slow",
        "spins for the number of iterations the action names, then answers",
    ),
    (
        "hostile:sleep",
        "sleeps for an hour, then reports the clock",
    ),
    (
        "hostile:dataset-reader",
        "answers `name index` with that dataset row, `name` with its length",
    ),
];

struct Hostile;

struct Attack {
    kind: String,
    steps: Cell<u32>,
}

/// The exported resource: an attack, shared with the batch table once enrolled.
struct Handle(Rc<Attack>);

fn result(observation: String) -> StepResult {
    StepResult {
        observation,
        reward: 0.0,
        terminated: false,
        truncated: false,
        info: "{}".into(),
    }
}

/// Recurses until the stack runs out: the point of this attack.
#[inline(never)]
#[allow(unconditional_recursion, clippy::only_used_in_recursion)]
fn recurse(depth: u64) -> u64 {
    let local = black_box([depth; 16]);
    recurse(depth + 1) + local[3]
}

fn escape(attempt: &str) -> String {
    let outcome: Result<String, String> = match attempt {
        "read-file" => std::fs::read_to_string("/etc/passwd").map_err(|e| e.to_string()),
        "write-file" => std::fs::write("/tmp/geode-escape", b"x")
            .map(|_| "wrote".into())
            .map_err(|e| e.to_string()),
        "list-dir" => std::fs::read_dir("/")
            .map(|d| format!("{} entries", d.count()))
            .map_err(|e| e.to_string()),
        "env-vars" => {
            let vars: Vec<String> = std::env::vars().map(|(k, _)| k).collect();
            if vars.is_empty() {
                Err("no environment variables".into())
            } else {
                Ok(vars.join(","))
            }
        }
        "socket" => std::net::TcpStream::connect("127.0.0.1:22")
            .map(|_| "connected".into())
            .map_err(|e| e.to_string()),
        "clock" => {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap_or_default();
            return format!("clock {}", now.as_secs());
        }
        other => Err(format!("unknown attempt {other}")),
    };
    match outcome {
        Ok(leak) => format!("ESCAPED: {leak}"),
        Err(why) => format!("denied: {why}"),
    }
}

impl Member for Attack {
    fn reset(&self, _start: EpisodeStart) -> Result<ResetResult, EnvError> {
        if self.kind == "hostile:slow-reset" {
            let mut x = 0u64;
            loop {
                x = black_box(x.wrapping_add(1));
            }
        }
        self.steps.set(0);
        Ok(ResetResult {
            observation: format!("{} ready", self.kind),
            info: "{}".into(),
        })
    }

    fn step(&self, action: &str) -> Result<StepResult, EnvError> {
        self.steps.set(self.steps.get() + 1);
        match self.kind.as_str() {
            "hostile:healthy" => {
                assert!(action != "trap", "asked to trap");
                let mut step = result(format!("step {} got {action}", self.steps.get()));
                step.reward = 1.0;
                step.terminated = self.steps.get() >= 3;
                Ok(step)
            }
            "hostile:spin" => {
                let mut x = 0u64;
                loop {
                    x = black_box(x.wrapping_mul(31).wrapping_add(7));
                }
            }
            "hostile:memory-bomb" => {
                let mut hoard: Vec<Vec<u8>> = Vec::new();
                loop {
                    hoard.push(black_box(vec![7u8; 1 << 20]));
                }
            }
            "hostile:stack-overflow" => Ok(result(format!("{}", recurse(0)))),
            "hostile:panic" => panic!(
                "hostile plugin panicked on purpose at step {}",
                self.steps.get()
            ),
            "hostile:huge-observation" => Ok(result("x".repeat(100 << 20))),
            "hostile:bad-info" => Ok(StepResult {
                info: "this is not json".into(),
                ..result(String::new())
            }),
            "hostile:array-info" => Ok(StepResult {
                info: "[1, 2]".into(),
                ..result(String::new())
            }),
            "hostile:nan-reward" => Ok(StepResult {
                reward: f64::NAN,
                ..result(String::new())
            }),
            "hostile:escape" => Ok(result(escape(action.trim()))),
            "hostile:sleep" => {
                std::thread::sleep(std::time::Duration::from_secs(3600));
                Ok(result(escape("clock")))
            }
            "hostile:dataset-reader" => {
                let mut words = action.split_whitespace();
                let name = words.next().unwrap_or_default();
                let answer = match words.next().map(|w| w.parse::<u64>()) {
                    Some(Ok(index)) => geode_sdk::dataset::row(name, index)
                        .map(|r| serde_json::Value::Object(r).to_string()),
                    _ => geode_sdk::dataset::len(name).map(|n| n.to_string()),
                };
                Ok(result(answer.unwrap_or_else(|e| format!("error: {e}"))))
            }
            "hostile:slow" => {
                let rounds: u64 = action.trim().parse().unwrap_or(0);
                let mut x = 0u64;
                for i in 0..rounds {
                    x = black_box(x.wrapping_mul(31).wrapping_add(i));
                }
                Ok(result(format!("spun {rounds} ({})", x % 2)))
            }
            other => Err(EnvError::Internal(format!("no attack named {other}"))),
        }
    }
}

impl GuestInstance for Handle {
    fn reset(&self, seed: Option<u64>) -> Result<ResetResult, EnvError> {
        self.0.reset(seed.into())
    }

    fn step(&self, action: String) -> Result<StepResult, EnvError> {
        self.0.step(&action)
    }

    fn sample_random_action(&self) -> Result<String, EnvError> {
        Ok("read-file".into())
    }

    fn get_state(&self) -> Result<Vec<u8>, EnvError> {
        Ok(self.0.steps.get().to_le_bytes().to_vec())
    }

    fn set_state(&self, state: Vec<u8>) -> Result<(), EnvError> {
        let bytes: [u8; 4] = state
            .try_into()
            .map_err(|_| EnvError::BadState("expected 4 bytes".into()))?;
        self.0.steps.set(u32::from_le_bytes(bytes));
        Ok(())
    }
}

impl Guest for Hostile {
    type Instance = Handle;

    fn describe() -> Vec<PluginSpec> {
        KINDS
            .iter()
            .map(|(id, what)| PluginSpec {
                id: (*id).into(),
                default_config: "{}".into(),
                description: (*what).into(),
            })
            .collect()
    }

    fn create(id: String, _config: String) -> Result<Instance, EnvError> {
        if !KINDS.iter().any(|(known, _)| *known == id) {
            return Err(EnvError::UnknownId(id));
        }
        Ok(Instance::new(Handle(Rc::new(Attack {
            kind: id,
            steps: Cell::new(0),
        }))))
    }
}

/// Units of hostile envs step each member as its own `step` would, so a member's attack takes
/// down the whole unit's call (which the host then runs again member by member).
impl BatchGuest for Hostile {
    fn enrol(member: InstanceBorrow<'_>) -> u32 {
        let attack: Rc<dyn Member> = member.get::<Handle>().0.clone();
        geode_sdk::batch::enrol(&attack)
    }

    fn step_each(members: Vec<u32>, actions: String, action_ends: Vec<u32>) -> BatchResults {
        geode_sdk::batch::step_each(members, actions, action_ends)
    }

    fn reset_each(members: Vec<u32>, starts: Vec<ContractStart>) -> BatchResults {
        geode_sdk::batch::reset_each(members, starts)
    }

    fn step_each_then_reset(
        members: Vec<u32>,
        actions: String,
        action_ends: Vec<u32>,
        starts: Vec<ContractStart>,
    ) -> BatchResults {
        geode_sdk::batch::step_each_then_reset(members, actions, action_ends, starts)
    }
}

// Exported in wasm only (as `geode_sdk::export_env!` does): natively, the component's export
// names are not valid symbol names for the linker, and this crate only builds for type checks.
#[cfg(target_arch = "wasm32")]
geode_sdk::bindings::export_env_plugin!(Hostile with_types_in geode_sdk::bindings);
