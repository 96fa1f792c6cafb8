//! `calculate`: an arithmetic expression of numbers, `+ - * /` and parentheses, evaluated and
//! rounded to cents (TAU-bench's tool evaluates the same characters).

use super::{Args, ToolError, ToolResult};
use crate::db::round2;

/// Longest expression accepted, and deepest nesting.
const MAX_CHARS: usize = 1_000;
const MAX_DEPTH: usize = 64;

/// Runs `calculate`.
pub fn run(args: &Args) -> ToolResult {
    let expression = args.text("expression")?;
    if expression.len() > MAX_CHARS {
        return Err(ToolError::BadArguments(format!(
            "the expression is longer than {MAX_CHARS} characters"
        )));
    }
    if !expression
        .chars()
        .all(|c| c.is_ascii_digit() || "+-*/(). ".contains(c))
    {
        return Err(ToolError::BadArguments(
            "invalid characters in the expression".into(),
        ));
    }
    let tokens: Vec<char> = expression.chars().filter(|c| *c != ' ').collect();
    let mut parser = Parser { tokens, at: 0 };
    let value = parser.sum(0)?;
    if parser.at != parser.tokens.len() {
        return Err(syntax());
    }
    if !value.is_finite() {
        return Err(ToolError::BadArguments("division by zero".into()));
    }
    Ok(python_float(round2(value)))
}

fn syntax() -> ToolError {
    ToolError::BadArguments("the expression is not well formed".into())
}

/// A float as Python's `str` writes it (`7.0`, `12.5`).
fn python_float(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e16 {
        format!("{x:.1}")
    } else {
        format!("{x}")
    }
}

struct Parser {
    tokens: Vec<char>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.tokens.get(self.at).copied()
    }

    fn sum(&mut self, depth: usize) -> Result<f64, ToolError> {
        let mut value = self.product(depth)?;
        while let Some(op @ ('+' | '-')) = self.peek() {
            self.at += 1;
            let rhs = self.product(depth)?;
            value = if op == '+' { value + rhs } else { value - rhs };
        }
        Ok(value)
    }

    fn product(&mut self, depth: usize) -> Result<f64, ToolError> {
        let mut value = self.unary(depth)?;
        while let Some(op @ ('*' | '/')) = self.peek() {
            self.at += 1;
            let rhs = self.unary(depth)?;
            value = if op == '*' { value * rhs } else { value / rhs };
        }
        Ok(value)
    }

    fn unary(&mut self, depth: usize) -> Result<f64, ToolError> {
        if depth > MAX_DEPTH {
            return Err(ToolError::BadArguments(
                "the expression nests too deeply".into(),
            ));
        }
        match self.peek() {
            Some('-') => {
                self.at += 1;
                Ok(-self.unary(depth + 1)?)
            }
            Some('+') => {
                self.at += 1;
                self.unary(depth + 1)
            }
            Some('(') => {
                self.at += 1;
                let value = self.sum(depth + 1)?;
                if self.peek() != Some(')') {
                    return Err(syntax());
                }
                self.at += 1;
                Ok(value)
            }
            _ => self.number(),
        }
    }

    fn number(&mut self) -> Result<f64, ToolError> {
        let start = self.at;
        while matches!(self.peek(), Some(c) if c.is_ascii_digit() || c == '.') {
            self.at += 1;
        }
        let text: String = self.tokens[start..self.at].iter().collect();
        text.parse().map_err(|_| syntax())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn calc(e: &str) -> ToolResult {
        run(&Args::new(&json!({"expression": e})).unwrap())
    }

    #[test]
    fn evaluates_and_rounds() {
        assert_eq!(calc("2 * (3 + 4.5)").unwrap(), "15.0");
        assert_eq!(calc("10 / 3").unwrap(), "3.33");
        assert_eq!(calc("-(1.25 + 1) * 2").unwrap(), "-4.5");
    }

    #[test]
    fn refuses_what_is_not_arithmetic() {
        assert_eq!(
            calc("__import__('os')").unwrap_err().kind(),
            "bad_arguments"
        );
        assert_eq!(calc("1 / 0").unwrap_err().kind(), "bad_arguments");
        assert_eq!(calc("(((1").unwrap_err().kind(), "bad_arguments");
        assert_eq!(calc(&"(".repeat(500)).unwrap_err().kind(), "bad_arguments");
        assert_eq!(calc("1..2").unwrap_err().kind(), "bad_arguments");
    }
}
