//! Reads the Python literals TAU-bench's task files are written in: strings (quoted either
//! way, adjacent ones joined, the usual escapes), numbers, `True`/`False`/`None`, lists,
//! tuples, dicts, and calls with keyword arguments (`Task(user_id="...", ...)`), which become
//! objects of their arguments. Nothing is evaluated.

use anyhow::{Context, bail};
use serde_json::{Map, Number, Value};

/// Deepest nesting accepted.
const MAX_DEPTH: usize = 128;

/// The value of the literal that starts at the first `[` after `NAME =` in `source`.
pub fn assigned_list(source: &str, name: &str) -> anyhow::Result<Value> {
    let at = source
        .find(&format!("{name} ="))
        .with_context(|| format!("no `{name} = [...]` in the file"))?;
    let start = at + source[at..].find('[').context("no list after the name")?;
    let mut reader = Reader {
        text: source.as_bytes(),
        at: start,
    };
    reader.value(0)
}

struct Reader<'a> {
    text: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn fail<T>(&self, what: &str) -> anyhow::Result<T> {
        let line = self.text[..self.at.min(self.text.len())]
            .iter()
            .filter(|b| **b == b'\n')
            .count()
            + 1;
        bail!("line {line}: {what}")
    }

    fn skip_space(&mut self) {
        while let Some(&b) = self.text.get(self.at) {
            if b == b'#' {
                while self.text.get(self.at).is_some_and(|b| *b != b'\n') {
                    self.at += 1;
                }
            } else if b.is_ascii_whitespace() {
                self.at += 1;
            } else {
                break;
            }
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.text.get(self.at).copied()
    }

    fn eat(&mut self, byte: u8) -> bool {
        if self.peek() == Some(byte) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> anyhow::Result<Value> {
        if depth > MAX_DEPTH {
            return self.fail("nested too deeply");
        }
        match self.peek() {
            Some(b'[') => {
                self.at += 1;
                Ok(Value::Array(self.items(b']', depth)?))
            }
            Some(b'(') => {
                self.at += 1;
                Ok(Value::Array(self.items(b')', depth)?))
            }
            Some(b'{') => {
                self.at += 1;
                self.dict(depth)
            }
            Some(b'"' | b'\'') => {
                let mut text = String::new();
                while matches!(self.peek(), Some(b'"' | b'\'')) {
                    text.push_str(&self.string()?);
                }
                Ok(Value::String(text))
            }
            Some(b) if b == b'-' || b.is_ascii_digit() => self.number(),
            Some(b) if b.is_ascii_alphabetic() || b == b'_' => self.name_or_call(depth),
            _ => self.fail("expected a value"),
        }
    }

    fn items(&mut self, close: u8, depth: usize) -> anyhow::Result<Vec<Value>> {
        let mut items = Vec::new();
        loop {
            if self.eat(close) {
                return Ok(items);
            }
            items.push(self.value(depth + 1)?);
            if !self.eat(b',') && self.peek() != Some(close) {
                return self.fail("expected `,` or the end of the list");
            }
        }
    }

    fn dict(&mut self, depth: usize) -> anyhow::Result<Value> {
        let mut map = Map::new();
        loop {
            if self.eat(b'}') {
                return Ok(Value::Object(map));
            }
            let Value::String(key) = self.value(depth + 1)? else {
                return self.fail("a dict key must be a string");
            };
            if !self.eat(b':') {
                return self.fail("expected `:`");
            }
            map.insert(key, self.value(depth + 1)?);
            if !self.eat(b',') && self.peek() != Some(b'}') {
                return self.fail("expected `,` or `}`");
            }
        }
    }

    fn identifier(&mut self) -> String {
        let start = self.at;
        while self
            .text
            .get(self.at)
            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'.')
        {
            self.at += 1;
        }
        String::from_utf8_lossy(&self.text[start..self.at]).into_owned()
    }

    fn name_or_call(&mut self, depth: usize) -> anyhow::Result<Value> {
        let name = self.identifier();
        match name.as_str() {
            "True" => return Ok(Value::Bool(true)),
            "False" => return Ok(Value::Bool(false)),
            "None" => return Ok(Value::Null),
            _ => {}
        }
        if !self.eat(b'(') {
            return self.fail(&format!("`{name}` is not a literal"));
        }
        let mut args = Map::new();
        loop {
            if self.eat(b')') {
                return Ok(Value::Object(args));
            }
            self.skip_space();
            let key = self.identifier();
            if key.is_empty() || !self.eat(b'=') {
                return self.fail(&format!("`{name}(...)` takes keyword arguments only"));
            }
            args.insert(key, self.value(depth + 1)?);
            if !self.eat(b',') && self.peek() != Some(b')') {
                return self.fail("expected `,` or `)`");
            }
        }
    }

    fn number(&mut self) -> anyhow::Result<Value> {
        let start = self.at;
        self.at += 1;
        while self
            .text
            .get(self.at)
            .is_some_and(|b| b.is_ascii_digit() || b"._eE+-".contains(b))
        {
            self.at += 1;
        }
        let text = String::from_utf8_lossy(&self.text[start..self.at]).replace('_', "");
        if let Ok(int) = text.parse::<i64>() {
            return Ok(Value::Number(int.into()));
        }
        match text.parse::<f64>().ok().and_then(Number::from_f64) {
            Some(n) => Ok(Value::Number(n)),
            None => self.fail(&format!("`{text}` is not a number")),
        }
    }

    fn string(&mut self) -> anyhow::Result<String> {
        let quote = self.text[self.at];
        let triple = self.text[self.at..].starts_with(&[quote; 3]);
        self.at += if triple { 3 } else { 1 };
        let mut out = Vec::new();
        loop {
            let Some(&b) = self.text.get(self.at) else {
                return self.fail("a string does not end");
            };
            if b == quote && (!triple || self.text[self.at..].starts_with(&[quote; 3])) {
                self.at += if triple { 3 } else { 1 };
                return String::from_utf8(out).or_else(|_| self.fail("a string is not UTF-8"));
            }
            if b == b'\n' && !triple {
                return self.fail("a string does not end on its line");
            }
            self.at += 1;
            if b != b'\\' {
                out.push(b);
                continue;
            }
            let Some(&e) = self.text.get(self.at) else {
                return self.fail("a string does not end");
            };
            self.at += 1;
            match e {
                b'n' => out.push(b'\n'),
                b't' => out.push(b'\t'),
                b'r' => out.push(b'\r'),
                b'0' => out.push(0),
                b'\n' => {}
                b'u' | b'x' => {
                    let len = if e == b'u' { 4 } else { 2 };
                    let hex = self.text.get(self.at..self.at + len).unwrap_or_default();
                    let code = std::str::from_utf8(hex)
                        .ok()
                        .and_then(|h| u32::from_str_radix(h, 16).ok());
                    let Some(c) = code.and_then(char::from_u32) else {
                        return self.fail("a bad escape");
                    };
                    self.at += len;
                    out.extend(c.to_string().as_bytes());
                }
                other => out.push(other),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_tau_bench_task_lists() {
        let source = r#"from tau_bench.types import Task, Action

TASKS = [
    Task(
        annotator="0",  # who wrote it
        user_id='ava_1',
        instruction="You are Ava. "
        "You want a refund.",
        actions=[
            Action(name="find_user_id_by_email", kwargs={"email": "a@b.c"}),
            Action(name="calculate", kwargs={"expression": "1 + 2", "n": -1.5, "ok": True, "x": None}),
        ],
        outputs=["10.5", 'it\'s'],
    ),
]
"#;
        let tasks = assigned_list(source, "TASKS").unwrap();
        assert_eq!(
            tasks,
            json!([{
                "annotator": "0", "user_id": "ava_1", "instruction": "You are Ava. You want a refund.",
                "actions": [
                    {"name": "find_user_id_by_email", "kwargs": {"email": "a@b.c"}},
                    {"name": "calculate", "kwargs": {"expression": "1 + 2", "n": -1.5, "ok": true, "x": null}}
                ],
                "outputs": ["10.5", "it's"]
            }])
        );
    }

    #[test]
    fn refuses_code_and_names_the_line() {
        let err = assigned_list("T = [\n  __import__('os').system('x')\n]", "T").unwrap_err();
        assert!(err.to_string().contains("line 2"), "{err}");
        assert!(assigned_list("T = [Task(1)]", "T").is_err());
        assert!(assigned_list("T = [\"open", "T").is_err());
        assert!(assigned_list(&format!("T = {}", "[".repeat(1000)), "T").is_err());
        assert!(assigned_list("nothing here", "T").is_err());
    }
}
