//! [`text!`](macro@crate::text): observations assembled from pieces without `core::fmt`. Inside a wasm
//! guest, `format!` goes through dynamic dispatch and padding logic for every argument and is
//! often the largest cost of a simple step; this appends strings and writes integers directly.

/// Something [`text!`](macro@crate::text) can append.
pub trait Piece {
    /// Appends `self` to `out`.
    fn push_to(&self, out: &mut String);
    /// A guess of its length, to size the buffer once.
    fn size_hint(&self) -> usize {
        8
    }
}

/// Appends `text` to `out`. Texts up to 128 bytes (pieces of an observation, and most whole
/// observations and infos) are copied with at most eight fixed-size, overlapping moves that
/// compile to plain loads and stores, no loop: inside a wasm guest, `push_str` becomes a
/// `memory.copy`, a call out to the host runtime that costs more than the copy itself at these
/// sizes, and every loop round pays for fuel accounting.
#[inline(always)]
pub fn append(out: &mut String, text: &str) {
    let n = text.len();
    if n > 128 {
        out.push_str(text);
        return;
    }
    out.reserve(n);
    // SAFETY: `reserve` made room for `n` more bytes after the current length; every copy below
    // reads inside `text` and writes inside that room (the ranges overlap each other, never the
    // bounds), so after them bytes `len..len + n` hold `text`, valid UTF-8 appended to UTF-8.
    unsafe {
        let buffer = out.as_mut_vec();
        let len = buffer.len();
        let dst = buffer.as_mut_ptr().add(len);
        let src = text.as_ptr();
        let copy =
            |at: usize, size: usize| std::ptr::copy_nonoverlapping(src.add(at), dst.add(at), size);
        match n {
            0 => {}
            1..=3 => {
                copy(0, 1);
                copy(n / 2, 1);
                copy(n - 1, 1);
            }
            4..=7 => {
                copy(0, 4);
                copy(n - 4, 4);
            }
            8..=16 => {
                copy(0, 8);
                copy(n - 8, 8);
            }
            17..=32 => {
                copy(0, 16);
                copy(n - 16, 16);
            }
            33..=64 => {
                copy(0, 16);
                copy(16, 16);
                copy(n - 32, 16);
                copy(n - 16, 16);
            }
            _ => {
                for at in [0, 16, 32, 48, n - 64, n - 48, n - 32, n - 16] {
                    copy(at, 16);
                }
            }
        }
        buffer.set_len(len + n);
    }
}

impl Piece for str {
    #[inline(always)]
    fn push_to(&self, out: &mut String) {
        append(out, self);
    }
    fn size_hint(&self) -> usize {
        self.len()
    }
}

impl Piece for String {
    fn push_to(&self, out: &mut String) {
        append(out, self);
    }
    fn size_hint(&self) -> usize {
        self.len()
    }
}

impl Piece for char {
    fn push_to(&self, out: &mut String) {
        out.push(*self);
    }
}

impl<T: Piece + ?Sized> Piece for &T {
    #[inline(always)]
    fn push_to(&self, out: &mut String) {
        (**self).push_to(out);
    }
    fn size_hint(&self) -> usize {
        (**self).size_hint()
    }
}

/// Integers are written with `itoa` (no padding or sign logic beyond what the number needs);
/// the common small ones (0 to 99, what games mostly print) digit by digit, without a copy,
/// inlined: in a wasm guest a call costs more than writing two digits.
macro_rules! integer_pieces {
    ($($t:ty)*) => {$(
        impl Piece for $t {
            #[inline(always)]
            fn push_to(&self, out: &mut String) {
                let value = *self;
                if (0..100).contains(&value) {
                    push_small(out, value as u8);
                } else {
                    append(out, itoa::Buffer::new().format(value));
                }
            }
        }
    )*};
}

/// Appends `value` (below 100) in decimal, with one capacity check.
#[inline(always)]
fn push_small(out: &mut String, value: u8) {
    out.reserve(2);
    // SAFETY: `reserve` made room for 2 more bytes; ASCII digits keep the string UTF-8.
    unsafe {
        let buffer = out.as_mut_vec();
        let len = buffer.len();
        let dst = buffer.as_mut_ptr().add(len);
        let written = if value >= 10 {
            *dst = b'0' + value / 10;
            *dst.add(1) = b'0' + value % 10;
            2
        } else {
            *dst = b'0' + value;
            1
        };
        buffer.set_len(len + written);
    }
}

integer_pieces!(i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize);

/// A `String` of the pieces in order: `text!("At turn ", turn, ", you guessed ", guess, ".")`.
/// Pieces are string slices, `String`s, `char`s and integers; use `format!` for anything that
/// needs formatting options.
#[macro_export]
macro_rules! text {
    ($($piece:expr),+ $(,)?) => {
        $crate::__text_pieces!([] $($piece,)+)
    };
}

/// [`text!`](crate::text)'s work: binds each piece once (every recursion level's `piece` is a
/// distinct name, by macro hygiene), then sizes the buffer and appends them, without dynamic
/// dispatch.
#[doc(hidden)]
#[macro_export]
macro_rules! __text_pieces {
    ([$($bound:ident)*] $head:expr, $($rest:expr,)*) => {{
        let piece = &$head;
        $crate::__text_pieces!([$($bound)* piece] $($rest,)*)
    }};
    ([$($bound:ident)*]) => {{
        let mut out = String::with_capacity(0 $(+ $crate::text::Piece::size_hint($bound))*);
        $($crate::text::Piece::push_to($bound, &mut out);)*
        out
    }};
}

#[cfg(test)]
mod tests {
    #[test]
    fn pieces_match_format() {
        let (turn, guess, hint) = (3i64, -17i64, "lower");
        let owned = String::from("!");
        let got = crate::text!(
            "At turn ",
            turn,
            ", you guessed ",
            guess,
            ", ",
            hint,
            ' ',
            owned,
            u64::MAX,
            0u8,
            9i32,
            10usize,
            99i8,
            100u16,
            -1i64
        );
        assert_eq!(
            got,
            format!(
                "At turn {turn}, you guessed {guess}, {hint} {owned}{}091099100-1",
                u64::MAX
            )
        );
    }

    #[test]
    fn append_copies_every_length_exactly() {
        let alphabet = ('a'..='z').chain('A'..='Z').chain('0'..='9');
        let source: String = alphabet.cycle().take(160).collect();
        for start in 0..3 {
            for n in 0..=140 {
                let mut out = String::from(&source[..start]);
                super::append(&mut out, &source[10..10 + n]);
                assert_eq!(out, format!("{}{}", &source[..start], &source[10..10 + n]));
            }
        }
        let mut out = String::new();
        super::append(&mut out, "é🎲");
        assert_eq!(out, "é🎲");
    }

    #[test]
    fn each_piece_is_evaluated_once() {
        let mut calls = 0;
        let mut next = || {
            calls += 1;
            calls
        };
        assert_eq!(crate::text!("n=", next(), ", then ", next()), "n=1, then 2");
        assert_eq!(calls, 2);
    }
}
