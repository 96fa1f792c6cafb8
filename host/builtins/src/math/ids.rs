//! The math env ids: GEM's ids, the dataset and split each loads in GEM, and geode's sample.

/// One math env id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MathId {
    /// GEM's id.
    pub id: &'static str,
    /// What `list` shows.
    pub description: &'static str,
    /// The shipped sample (`host/builtins/src/math/data/<sample>.jsonl`).
    pub sample: &'static str,
    /// Evaluation ids walk their first epoch in dataset order (GEM does not shuffle them).
    pub eval: bool,
}

const fn id(
    id: &'static str,
    description: &'static str,
    sample: &'static str,
    eval: bool,
) -> MathId {
    MathId {
        id,
        description,
        sample,
        eval,
    }
}

/// Every math id geode's plugins provide. (`math:Geometry3K`, whose observation holds images,
/// runs in the Python package: `geode/envs/math_visual_env.py`.)
pub const MATH_IDS: &[MathId] = &[
    id(
        "math:GSM8K",
        "Grade-school word problems (axon-rl/GSM-8k), last \\boxed{} graded",
        "gsm8k",
        false,
    ),
    id(
        "math:ASDiv2K",
        "Arithmetic word problems (axon-rl/ASDIV-2k), last \\boxed{} graded",
        "asdiv2k",
        false,
    ),
    id(
        "math:Math12K",
        "MATH problems (axon-rl/MATH-12k), last \\boxed{} graded",
        "math12k",
        false,
    ),
    id(
        "math:Math8K-3to5",
        "MATH levels 3-5 (axon-rl/MATH-lvl3to5-8k), last \\boxed{} graded",
        "math8k_3to5",
        false,
    ),
    id(
        "math:Orz57K",
        "Open-Reasoner-Zero problems (axon-rl/ORZ-57k), last \\boxed{} graded",
        "orz57k",
        false,
    ),
    id(
        "math:DeepScaleR40K",
        "DeepScaleR problems (axon-rl/DeepScaleR-40K), last \\boxed{} graded",
        "deepscaler40k",
        false,
    ),
    id(
        "eval:AIME24",
        "AIME 2024 (axon-rl/math-eval, aime24), unshuffled",
        "aime24",
        true,
    ),
    id(
        "eval:AMC",
        "AMC (axon-rl/math-eval, amc), unshuffled",
        "amc",
        true,
    ),
    id(
        "eval:MATH500",
        "MATH500 (axon-rl/math-eval, math), unshuffled",
        "math500",
        true,
    ),
    id(
        "eval:Minerva",
        "Minerva math (axon-rl/math-eval, minerva), unshuffled",
        "minerva",
        true,
    ),
    id(
        "eval:OlympiadBench",
        "OlympiadBench (axon-rl/math-eval, olympiad_bench), unshuffled",
        "olympiadbench",
        true,
    ),
];

/// GEM's math ids no plugin provides, with the reason.
pub const MATH_IDS_NOT_PROVIDED: &[(&str, &str)] = &[(
    "math:Geometry3K",
    "its observation holds images (PIL), so it runs in the Python package (geode[vision])",
)];

/// The math id `id`, if it is one.
pub fn math_id(id: &str) -> Option<&'static MathId> {
    MATH_IDS.iter().find(|known| known.id == id)
}

/// The rows of sample `name` (empty for an unknown name).
pub fn sample_rows(name: &str) -> &'static str {
    match name {
        "gsm8k" => include_str!("data/gsm8k.jsonl"),
        "asdiv2k" => include_str!("data/asdiv2k.jsonl"),
        "math12k" => include_str!("data/math12k.jsonl"),
        "math8k_3to5" => include_str!("data/math8k_3to5.jsonl"),
        "orz57k" => include_str!("data/orz57k.jsonl"),
        "deepscaler40k" => include_str!("data/deepscaler40k.jsonl"),
        "aime24" => include_str!("data/aime24.jsonl"),
        "amc" => include_str!("data/amc.jsonl"),
        "math500" => include_str!("data/math500.jsonl"),
        "minerva" => include_str!("data/minerva.jsonl"),
        "olympiadbench" => include_str!("data/olympiadbench.jsonl"),
        _ => "",
    }
}
