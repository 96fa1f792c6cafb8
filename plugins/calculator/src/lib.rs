//! `tool:calculator`: evaluates the arithmetic in `<calculator>...</calculator>`.
//!
//! Supports `+ - * /`, `^` (power), parentheses, unary minus and decimal numbers; results are
//! printed like Python prints floats (integers without a fractional part).

use geode_sdk::export_tool;
use geode_sdk::prelude::*;
use geode_sdk::tool::{ToolOutput, ToolPlugin};

/// The calculator tool.
struct Calculator {
    max_expression_len: usize,
}

const OPEN: &str = "<calculator>";
const CLOSE: &str = "</calculator>";

/// A recursive-descent parser over the expression's bytes.
struct Parser<'a> {
    text: &'a [u8],
    at: usize,
    depth: usize,
}

impl Parser<'_> {
    fn skip_space(&mut self) {
        while self.text.get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.text.get(self.at).copied()
    }

    fn expression(&mut self) -> Result<f64, String> {
        let mut value = self.term()?;
        while let Some(op @ (b'+' | b'-')) = self.peek() {
            self.at += 1;
            let rhs = self.term()?;
            value = if op == b'+' { value + rhs } else { value - rhs };
        }
        Ok(value)
    }

    fn term(&mut self) -> Result<f64, String> {
        let mut value = self.power()?;
        while let Some(op @ (b'*' | b'/')) = self.peek() {
            self.at += 1;
            let rhs = self.power()?;
            if op == b'/' && rhs == 0.0 {
                return Err("division by zero".into());
            }
            value = if op == b'*' { value * rhs } else { value / rhs };
        }
        Ok(value)
    }

    fn power(&mut self) -> Result<f64, String> {
        let base = self.unary()?;
        if self.peek() == Some(b'^') {
            self.at += 1;
            let exponent = self.power()?;
            return Ok(base.powf(exponent));
        }
        Ok(base)
    }

    fn unary(&mut self) -> Result<f64, String> {
        if self.peek() == Some(b'-') {
            self.at += 1;
            return Ok(-self.unary()?);
        }
        self.atom()
    }

    fn atom(&mut self) -> Result<f64, String> {
        match self.peek() {
            Some(b'(') => {
                self.depth += 1;
                if self.depth > 64 {
                    return Err("parentheses nested too deeply".into());
                }
                self.at += 1;
                let value = self.expression()?;
                if self.peek() != Some(b')') {
                    return Err("missing closing parenthesis".into());
                }
                self.at += 1;
                self.depth -= 1;
                Ok(value)
            }
            Some(c) if c.is_ascii_digit() || c == b'.' => {
                let start = self.at;
                while self
                    .text
                    .get(self.at)
                    .is_some_and(|c| c.is_ascii_digit() || *c == b'.')
                {
                    self.at += 1;
                }
                let digits = std::str::from_utf8(&self.text[start..self.at]).unwrap_or("");
                digits.parse().map_err(|_| format!("bad number `{digits}`"))
            }
            Some(c) => Err(format!("unexpected `{}`", c as char)),
            None => Err("unexpected end of expression".into()),
        }
    }
}

/// Evaluates `text` as arithmetic.
fn evaluate(text: &str) -> Result<f64, String> {
    let mut parser = Parser {
        text: text.as_bytes(),
        at: 0,
        depth: 0,
    };
    let value = parser.expression()?;
    if parser.peek().is_some() {
        return Err(format!(
            "unexpected `{}`",
            &text[parser.at..].chars().next().unwrap_or(' ')
        ));
    }
    if !value.is_finite() {
        return Err("the result is not a finite number".into());
    }
    Ok(value)
}

fn format_number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        format!("{value}")
    }
}

impl ToolPlugin for Calculator {
    fn specs() -> Vec<Spec> {
        vec![Spec::new(
            "tool:calculator",
            "Evaluates arithmetic written in <calculator>...</calculator>",
            json!({ "max_expression_len": 1000 }),
        )]
    }

    fn create(_id: &str, config: Config) -> Result<Self, Error> {
        let max = config.int("max_expression_len")?;
        if max < 1 {
            return Err(Error::bad_config(
                "max_expression_len",
                "must be at least 1",
            ));
        }
        Ok(Calculator {
            max_expression_len: max as usize,
        })
    }

    fn instructions(&self) -> String {
        "You can use a calculator: write an arithmetic expression between <calculator> and </calculator> \
         (for example <calculator>(3 + 4) * 2</calculator>) and its value is returned to you."
            .to_owned()
    }

    fn execute(&mut self, action: &str) -> Result<Option<ToolOutput>, Error> {
        let Some(start) = action.find(OPEN) else {
            return Ok(None);
        };
        let body_start = start + OPEN.len();
        let Some(len) = action[body_start..].find(CLOSE) else {
            return Ok(None);
        };
        let expression = action[body_start..body_start + len].trim();
        let parsed_action = action[..body_start + len + CLOSE.len()].to_owned();
        let outcome = if expression.len() > self.max_expression_len {
            Err(format!(
                "expression longer than {} characters",
                self.max_expression_len
            ))
        } else {
            evaluate(expression)
        };
        Ok(Some(match outcome {
            Ok(value) => ToolOutput {
                observation: format!("Calculator result: {}", format_number(value)),
                has_error: false,
                parsed_action,
            },
            Err(why) => ToolOutput {
                observation: format!("Calculator error: {why}"),
                has_error: true,
                parsed_action,
            },
        }))
    }
}

export_tool!(Calculator);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluates_with_precedence() {
        assert_eq!(evaluate("1 + 2 * 3").unwrap(), 7.0);
        assert_eq!(evaluate("(1 + 2) * 3").unwrap(), 9.0);
        assert_eq!(evaluate("2 ^ 3 ^ 2").unwrap(), 512.0);
        assert_eq!(evaluate("-4 / 8").unwrap(), -0.5);
        assert!(evaluate("1 / 0").unwrap_err().contains("division by zero"));
        assert!(evaluate("2 +").is_err());
        assert!(
            evaluate(&"(".repeat(100))
                .unwrap_err()
                .contains("nested too deeply")
        );
        assert_eq!(format_number(14.0), "14");
        assert_eq!(format_number(0.5), "0.5");
    }
}
