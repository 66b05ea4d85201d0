//! The JSON primitives every encoder shares: serde_json's string escaping,
//! integer and float text, and the byte-counting output wrapper.

use core::fmt;

use super::error::EncodeError;
use super::sink::Sink;
use crate::check::StrValue;
use crate::json::borrowed::{Fragment, JsonStr};

impl StrValue<'_> {
    /// Writes the text as a quoted JSON string, serde_json's way.
    pub(crate) fn write_quoted<S: Sink + ?Sized>(&self, out: &mut S) -> Result<(), EncodeError> {
        out.try_extend(b"\"")?;
        self.write_contents(out)?;
        out.try_extend(b"\"")
    }

    /// Writes the text escaped serde_json's way, without quotes.
    pub(crate) fn write_contents<S: Sink + ?Sized>(&self, out: &mut S) -> Result<(), EncodeError> {
        match self {
            Self::Plain(s) => escape_str(out, s),
            Self::Json(s) => escape_json_str(out, *s),
        }
    }
}

/// Lower-case hex digits, as serde_json writes them in `\u00XX`.
const HEX: &[u8; 16] = b"0123456789abcdef";

/// The escape serde_json writes for `b`, if any (its `ESCAPE` table):
/// `"` and `\`, the short forms `\b \f \n \r \t`, and `\u00XX` for the other
/// C0 controls. Everything else, DEL and non-ASCII included, stays raw.
#[inline]
fn escape_of(b: u8, buf: &mut [u8; 6]) -> Option<&[u8]> {
    let short = match b {
        b'"' => b'"',
        b'\\' => b'\\',
        0x08 => b'b',
        0x0c => b'f',
        b'\n' => b'n',
        b'\r' => b'r',
        b'\t' => b't',
        0x00..=0x1f => {
            let hi = HEX.get(usize::from(b >> 4)).copied().unwrap_or(b'0');
            let lo = HEX.get(usize::from(b & 0xf)).copied().unwrap_or(b'0');
            *buf = [b'\\', b'u', b'0', b'0', hi, lo];
            return Some(buf);
        }
        _ => return None,
    };
    *buf = [b'\\', short, 0, 0, 0, 0];
    buf.get(..2)
}

/// Writes `s` escaped the way serde_json's `format_escaped_str_contents`
/// does, in runs between escapes.
pub(crate) fn escape_str<S: Sink + ?Sized>(out: &mut S, s: &str) -> Result<(), EncodeError> {
    let bytes = s.as_bytes();
    let mut start = 0usize;
    let mut buf = [0u8; 6];
    for (i, &b) in bytes.iter().enumerate() {
        if let Some(esc) = escape_of(b, &mut buf) {
            out.try_extend(bytes.get(start..i).unwrap_or_default())?;
            out.try_extend(esc)?;
            start = i + 1;
        }
    }
    out.try_extend(bytes.get(start..).unwrap_or_default())
}

/// Writes a decoded string's characters escaped serde_json's way. Runs
/// between escapes are written as they stand (validated text has no raw
/// `"`, `\` or control character, so they need none); each escape is
/// replaced by its character, escaped again only if serde_json would.
pub(crate) fn escape_json_str<S: Sink + ?Sized>(
    out: &mut S,
    s: JsonStr<'_>,
) -> Result<(), EncodeError> {
    if let Some(plain) = s.as_str() {
        return escape_str(out, plain);
    }
    for fragment in s.fragments() {
        match fragment {
            Fragment::Str(run) => escape_str(out, run)?,
            Fragment::Char(c) => {
                let mut tmp = [0u8; 4];
                escape_str(out, c.encode_utf8(&mut tmp))?;
            }
        }
    }
    Ok(())
}

/// An adapter that escapes `fmt::Write` text into a sink, keeping the first
/// sink error (serde_json's `collect_str` adapter).
pub(crate) struct EscapeFmt<'a, S: ?Sized> {
    pub(crate) out: &'a mut S,
    pub(crate) error: Option<EncodeError>,
}

impl<S: Sink + ?Sized> fmt::Write for EscapeFmt<'_, S> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        escape_str(self.out, s).map_err(|e| {
            self.error = Some(e);
            fmt::Error
        })
    }
}

/// Writes the decimal digits of `v` (itoa's output).
pub(crate) fn write_u64<S: Sink + ?Sized>(out: &mut S, mut v: u64) -> Result<(), EncodeError> {
    let mut buf = [0u8; 20];
    let mut at = buf.len();
    loop {
        at -= 1;
        if let Some(slot) = buf.get_mut(at) {
            // `v % 10` is below 10.
            #[allow(clippy::cast_possible_truncation)]
            let digit = (v % 10) as u8;
            *slot = b'0' + digit;
        }
        v /= 10;
        if v == 0 || at == 0 {
            break;
        }
    }
    out.try_extend(buf.get(at..).unwrap_or_default())
}

/// Writes `v` in decimal, with a `-` when negative.
pub(crate) fn write_i64<S: Sink + ?Sized>(out: &mut S, v: i64) -> Result<(), EncodeError> {
    if v < 0 {
        out.try_extend(b"-")?;
    }
    write_u64(out, v.unsigned_abs())
}

/// Writes the decimal digits of a `u128`.
pub(crate) fn write_u128<S: Sink + ?Sized>(out: &mut S, mut v: u128) -> Result<(), EncodeError> {
    if let Ok(small) = u64::try_from(v) {
        return write_u64(out, small);
    }
    let mut buf = [0u8; 39];
    let mut at = buf.len();
    loop {
        at -= 1;
        if let Some(slot) = buf.get_mut(at) {
            #[allow(clippy::cast_possible_truncation)]
            let digit = (v % 10) as u8;
            *slot = b'0' + digit;
        }
        v /= 10;
        if v == 0 || at == 0 {
            break;
        }
    }
    out.try_extend(buf.get(at..).unwrap_or_default())
}

/// Writes an `i128` in decimal.
pub(crate) fn write_i128<S: Sink + ?Sized>(out: &mut S, v: i128) -> Result<(), EncodeError> {
    if v < 0 {
        out.try_extend(b"-")?;
    }
    write_u128(out, v.unsigned_abs())
}

/// Writes a finite float as serde_json does (zmij's shortest round-trip
/// text: `1.0`, `1e+300`, `-0.0`); a non-finite one as `null`, as
/// serde_json's serializer does.
pub(crate) fn write_f64<S: Sink + ?Sized>(out: &mut S, v: f64) -> Result<(), EncodeError> {
    if v.is_finite() {
        let mut buf = zmij::Buffer::new();
        out.try_extend(buf.format_finite(v).as_bytes())
    } else {
        out.try_extend(b"null")
    }
}

/// [`write_f64`] for `f32` (serde_json formats `f32` at its own precision).
pub(crate) fn write_f32<S: Sink + ?Sized>(out: &mut S, v: f32) -> Result<(), EncodeError> {
    if v.is_finite() {
        let mut buf = zmij::Buffer::new();
        out.try_extend(buf.format_finite(v).as_bytes())
    } else {
        out.try_extend(b"null")
    }
}

/// The output of one encoder: the sink, the bytes written through it, and
/// whether the encoder runs the spec checks.
#[derive(Debug)]
pub(crate) struct Out<S> {
    sink: S,
    len: usize,
    pub(crate) strict: bool,
}

impl<S> Out<S> {
    pub(crate) const fn new(sink: S, strict: bool) -> Self {
        Self {
            sink,
            len: 0,
            strict,
        }
    }

    /// Bytes written so far.
    pub(crate) const fn len(&self) -> usize {
        self.len
    }
}

impl<S: Sink> Out<S> {
    /// Writes `,"key":` (or `"key":` for the first member); `key` is the
    /// quoted name with its colon.
    pub(crate) fn key(&mut self, first: &mut bool, key: &[u8]) -> Result<(), EncodeError> {
        if !core::mem::take(first) {
            self.try_extend(b",")?;
        }
        self.try_extend(key)
    }
}

impl<S: Sink> Sink for Out<S> {
    #[inline]
    fn try_extend(&mut self, bytes: &[u8]) -> Result<(), EncodeError> {
        self.sink.try_extend(bytes)?;
        self.len = self.len.saturating_add(bytes.len());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn escaped(s: &str) -> heapless::Vec<u8, 256> {
        let mut out = heapless::Vec::new();
        escape_str(&mut out, s).ok();
        out
    }

    #[test]
    fn escapes_like_serde_json() {
        assert_eq!(escaped("a\"b\\c").as_slice(), br#"a\"b\\c"#);
        assert_eq!(escaped("\u{8}\u{c}\n\r\t").as_slice(), br"\b\f\n\r\t");
        assert_eq!(
            escaped("\u{0}\u{1f}\u{b}").as_slice(),
            br"\u0000\u001f\u000b"
        );
        assert_eq!(
            escaped("/\u{7f}\u{2028}é😀").as_slice(),
            "/\u{7f}\u{2028}é😀".as_bytes()
        );
    }

    #[test]
    fn integers() {
        let mut out: heapless::Vec<u8, 128> = heapless::Vec::new();
        for v in [0u64, 7, 10, u64::MAX] {
            out.clear();
            write_u64(&mut out, v).ok();
            let mut expect: heapless::String<40> = heapless::String::new();
            fmt::Write::write_fmt(&mut expect, format_args!("{v}")).ok();
            assert_eq!(out.as_slice(), expect.as_bytes());
        }
        for v in [i128::MIN, -1, 0, i128::MAX, i128::from(u64::MAX) + 1] {
            out.clear();
            write_i128(&mut out, v).ok();
            let mut expect: heapless::String<45> = heapless::String::new();
            fmt::Write::write_fmt(&mut expect, format_args!("{v}")).ok();
            assert_eq!(out.as_slice(), expect.as_bytes());
        }
        out.clear();
        write_i64(&mut out, i64::MIN).ok();
        assert_eq!(out.as_slice(), b"-9223372036854775808");
    }
}
