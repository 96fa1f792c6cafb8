//! Amounts as Python keeps them: an integer stays an integer through sums, differences and
//! products, and any float makes the result a float. The records hash on their JSON text, where
//! `100` and `100.0` differ, so the airline's amounts follow TAU-bench's Python to the type.

use serde_json::{Number, Value};
use std::cmp::Ordering;

/// An integer or a float.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    /// A whole number (Python `int`).
    Int(i64),
    /// A float (Python `float`).
    Float(f64),
}

impl Num {
    /// `value` as a number, if it is one.
    pub fn of(value: &Value) -> Option<Num> {
        match value {
            Value::Number(n) => n
                .as_i64()
                .map(Num::Int)
                .or_else(|| n.as_f64().map(Num::Float)),
            _ => None,
        }
    }

    fn float(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }

    fn combine(
        self,
        other: Num,
        int: fn(i64, i64) -> Option<i64>,
        float: fn(f64, f64) -> f64,
    ) -> Num {
        match (self, other) {
            (Num::Int(a), Num::Int(b)) => {
                int(a, b).map_or_else(|| Num::Float(float(a as f64, b as f64)), Num::Int)
            }
            (a, b) => Num::Float(float(a.float(), b.float())),
        }
    }

    /// `self + other`.
    pub fn add(self, other: Num) -> Num {
        self.combine(other, i64::checked_add, |a, b| a + b)
    }

    /// `self - other`.
    pub fn sub(self, other: Num) -> Num {
        self.combine(other, i64::checked_sub, |a, b| a - b)
    }

    /// `self * other`.
    pub fn mul(self, other: Num) -> Num {
        self.combine(other, i64::checked_mul, |a, b| a * b)
    }

    /// `-self`.
    pub fn neg(self) -> Num {
        Num::Int(0).sub(self)
    }

    /// Compares by value (`1 == 1.0`), as Python does.
    pub fn cmp_value(self, other: Num) -> Ordering {
        match (self, other) {
            (Num::Int(a), Num::Int(b)) => a.cmp(&b),
            (a, b) => a.float().partial_cmp(&b.float()).unwrap_or(Ordering::Equal),
        }
    }

    /// Whether `self` is zero.
    pub fn is_zero(self) -> bool {
        self.cmp_value(Num::Int(0)) == Ordering::Equal
    }

    /// The JSON number.
    pub fn to_value(self) -> Value {
        match self {
            Num::Int(i) => Value::from(i),
            Num::Float(f) => Number::from_f64(f).map_or(Value::Null, Value::Number),
        }
    }
}

impl std::fmt::Display for Num {
    /// As Python prints it: `12`, `12.0`, `12.5`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Num::Int(i) => write!(f, "{i}"),
            Num::Float(x) if x.fract() == 0.0 && x.abs() < 1e16 => write!(f, "{x:.1}"),
            Num::Float(x) => write!(f, "{x}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn integers_stay_integers_and_floats_spread() {
        let int = Num::of(&json!(100)).unwrap();
        let float = Num::of(&json!(2.5)).unwrap();
        assert_eq!(int.sub(Num::Int(40)).to_value(), json!(60));
        assert_eq!(int.sub(float).to_value(), json!(97.5));
        assert_eq!(Num::Int(50).mul(Num::Int(3)), Num::Int(150));
        assert_eq!(Num::of(&json!(1286.0)).unwrap().to_string(), "1286.0");
        assert_eq!(Num::Int(-4).to_string(), "-4");
        assert_eq!(
            Num::Int(1286).cmp_value(Num::Float(1286.0)),
            Ordering::Equal
        );
        assert_eq!(
            Num::Int(i64::MAX).add(Num::Int(1)),
            Num::Float(i64::MAX as f64 + 1.0)
        );
        assert!(Num::of(&json!("1")).is_none());
        assert_eq!(Num::Int(7).neg(), Num::Int(-7));
    }
}
