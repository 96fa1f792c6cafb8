//! Writing JSON text quickly inside the guest: info objects are built on every step, and most
//! of what they hold is short plain text.

use serde::Serialize;
use serde::ser::{Impossible, Serializer};

/// Appends `text` to `out` as a JSON string literal. Text with nothing to escape (the usual
/// case) is checked eight bytes at a time and copied whole; anything else goes through serde_json.
#[inline(always)]
pub fn push_str_literal(out: &mut String, text: &str) {
    if needs_escape(text.as_bytes()) {
        let quoted = serde_json::to_string(text).expect("a str always serializes");
        out.push_str(&quoted);
        return;
    }
    out.reserve(text.len() + 2);
    out.push('"');
    crate::text::append(out, text);
    out.push('"');
}

/// Appends `value` to `out` as JSON. A string takes [`push_str_literal`]'s fast path.
#[inline(always)]
pub fn push_value<T: Serialize + ?Sized>(
    out: &mut String,
    value: &T,
) -> Result<(), serde_json::Error> {
    if value.serialize(StrOnly(out)).is_ok() {
        return Ok(());
    }
    let mark = out.len();
    // SAFETY: serde_json writes only UTF-8; if it fails midway, the partial bytes are cut off at
    // `mark` (a char boundary of the text before) before the string is used again.
    let bytes = unsafe { out.as_mut_vec() };
    let written = serde_json::to_writer(&mut *bytes, value);
    if written.is_err() {
        bytes.truncate(mark);
    }
    written
}

/// Whether a byte of `bytes` must be escaped in a JSON string: a control byte, `"` or `\`.
/// Bytes are tested eight at a time, the last word overlapping the others, so short keys and
/// values take one or two tests and no byte loop (loops are dear in a fuel-metered guest).
#[inline(always)]
fn needs_escape(bytes: &[u8]) -> bool {
    let n = bytes.len();
    if n < 4 {
        return bytes.iter().any(|&b| b < 0x20 || b == b'"' || b == b'\\');
    }
    if n < 8 {
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        return word_needs_escape(u64::from(word(0)) | (u64::from(word(n - 4)) << 32));
    }
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    (0..n / 8).any(|k| word_needs_escape(word(8 * k))) || word_needs_escape(word(n - 8))
}

/// Whether one of the eight bytes of `x` must be escaped.
#[inline(always)]
fn word_needs_escape(x: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // Exact "has a byte below n" for n <= 128, high bit per byte (bytes >= 0x80 never count).
    let below = |x: u64, n: u8| x.wrapping_sub(ONES * u64::from(n)) & !x;
    let equal = |x: u64, b: u8| below(x ^ (ONES * u64::from(b)), 1);
    (below(x, 0x20) | equal(x, b'"') | equal(x, b'\\')) & HIGHS != 0
}

/// A serializer that writes strings through the fast path and refuses everything else.
struct StrOnly<'a>(&'a mut String);

/// [`StrOnly`]'s refusal: the value is not a string.
#[derive(Debug)]
struct NotAStr;

impl std::fmt::Display for NotAStr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not a string")
    }
}

impl std::error::Error for NotAStr {}

impl serde::ser::Error for NotAStr {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        NotAStr
    }
}

/// Refuses one `serialize_*` method per listed signature.
macro_rules! refuse {
    ($($name:ident($($arg:ident: $ty:ty),*) -> $ret:ty;)*) => {
        $(fn $name(self, $(_: $ty),*) -> Result<$ret, NotAStr> { Err(NotAStr) })*
    };
}

impl Serializer for StrOnly<'_> {
    type Ok = ();
    type Error = NotAStr;
    type SerializeSeq = Impossible<(), NotAStr>;
    type SerializeTuple = Impossible<(), NotAStr>;
    type SerializeTupleStruct = Impossible<(), NotAStr>;
    type SerializeTupleVariant = Impossible<(), NotAStr>;
    type SerializeMap = Impossible<(), NotAStr>;
    type SerializeStruct = Impossible<(), NotAStr>;
    type SerializeStructVariant = Impossible<(), NotAStr>;

    #[inline(always)]
    fn serialize_str(self, v: &str) -> Result<(), NotAStr> {
        push_str_literal(self.0, v);
        Ok(())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<(), NotAStr> {
        Err(NotAStr)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<(), NotAStr> {
        Err(NotAStr)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), NotAStr> {
        Err(NotAStr)
    }

    refuse! {
        serialize_bool(v: bool) -> ();
        serialize_i8(v: i8) -> ();
        serialize_i16(v: i16) -> ();
        serialize_i32(v: i32) -> ();
        serialize_i64(v: i64) -> ();
        serialize_u8(v: u8) -> ();
        serialize_u16(v: u16) -> ();
        serialize_u32(v: u32) -> ();
        serialize_u64(v: u64) -> ();
        serialize_f32(v: f32) -> ();
        serialize_f64(v: f64) -> ();
        serialize_char(v: char) -> ();
        serialize_bytes(v: &[u8]) -> ();
        serialize_none() -> ();
        serialize_unit() -> ();
        serialize_unit_struct(name: &'static str) -> ();
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str) -> ();
        serialize_seq(len: Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(len: usize) -> Self::SerializeTuple;
        serialize_tuple_struct(name: &'static str, len: usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(name: &'static str, index: u32, variant: &'static str, len: usize) -> Self::SerializeTupleVariant;
        serialize_map(len: Option<usize>) -> Self::SerializeMap;
        serialize_struct(name: &'static str, len: usize) -> Self::SerializeStruct;
        serialize_struct_variant(name: &'static str, index: u32, variant: &'static str, len: usize) -> Self::SerializeStructVariant;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn literal(text: &str) -> String {
        let mut out = String::new();
        push_str_literal(&mut out, text);
        out
    }

    #[test]
    fn string_literals_match_serde_json() {
        let cases = [
            "",
            "plain",
            "Enter your next guess.",
            "quote \" inside a long enough text",
            "back\\slash",
            "tab\there",
            "line\nbreak at the end of a chunk\n",
            "ünïcödé and emoji 🎲 with no escapes at all",
            "\u{1f}",
            "0123456\"",
        ];
        for text in cases {
            assert_eq!(
                literal(text),
                serde_json::to_string(text).unwrap(),
                "{text:?}"
            );
        }
    }

    #[test]
    fn every_position_of_every_length_is_checked() {
        for len in 0..=24 {
            let clean = "a".repeat(len);
            assert!(!needs_escape(clean.as_bytes()), "{len}");
            for at in 0..len {
                for bad in [b'"', b'\\', b'\n', 0x00, 0x1f] {
                    let mut bytes = clean.clone().into_bytes();
                    bytes[at] = bad;
                    assert!(needs_escape(&bytes), "{len} {at} {bad}");
                }
                let mut bytes = clean.clone().into_bytes();
                bytes[at] = 0x80; // a UTF-8 continuation byte never needs escaping
                assert!(!needs_escape(&bytes), "{len} {at}");
            }
        }
    }

    #[test]
    fn values_fall_back_to_serde_json() {
        let mut out = String::new();
        push_value(&mut out, &[1, 2]).unwrap();
        push_value(&mut out, "x").unwrap();
        push_value(&mut out, &Some("y")).unwrap();
        push_value(&mut out, &3.5).unwrap();
        assert_eq!(out, r#"[1,2]"x""y"3.5"#);
    }
}
