//! JSON values the encoders embed as a whole (`_meta`, `inputResponses`,
//! `data`): a decoded [`RawJson`] re-emitted canonically, a [`Verbatim`]
//! copy, or any `serde::Serialize` value.

use core::cmp::Ordering;

use serde::Serialize;

use super::error::EncodeError;
use super::ser::JsonSer;
use super::sink::Sink;
use super::write::{escape_json_str, write_f64, write_i64, write_u64};
use crate::error::BodyError;
use crate::json::borrowed::{JsonStr, RawJson};
use crate::json::cursor::Cursor;
use crate::json::number::overflows;
use crate::json::validated;

mod sealed {
    use crate::encode::error::EncodeError;
    use crate::encode::sink::Sink;

    /// Proof that a call comes from this crate: the embedding call takes
    /// one, and no one outside can make one.
    #[derive(Debug, Clone, Copy)]
    pub struct Token(pub(crate) ());

    /// Only this crate's value kinds can be embedded, so every value an
    /// encoder writes is JSON; and only the encoders choose a value's place
    /// (its depth limit, whether it must be an object).
    pub trait Sealed {
        /// Writes the value's JSON to `sink`. `max_depth` is the number of
        /// nested arrays and objects the value may open, itself included;
        /// `object_only` requires a JSON object.
        fn write_json<S: Sink + ?Sized>(
            &self,
            sink: &mut S,
            max_depth: usize,
            object_only: bool,
            token: Token,
        ) -> Result<(), EncodeError>;
    }
}

pub(crate) use sealed::Token;

/// The deepest a value stands alone ([`JsonValue::write_to`]): the
/// reference's recursion limit.
const ALONE_DEPTH: usize = 127;

/// A JSON value an encoder can embed: `_meta`, `inputResponses`, `data`.
///
/// Implemented for:
///
/// * [`RawJson`] (a value decoded from a frame, or checked by
///   [`RawJson::parse`]): re-emitted **canonically**, as serde_json
///   re-serialises the `serde_json::Value` the reference decodes from it:
///   whitespace dropped, object keys sorted (byte order of the unescaped
///   key, like the reference's `BTreeMap`) with the last of duplicate keys
///   kept, strings unescaped and escaped again serde_json's way, numbers
///   parsed as serde_json parses them (`u64`, `i64`, else its `f64`
///   algorithm) and written as it writes them (`1E3` becomes `1000.0`,
///   `-0` becomes `-0.0`). Needs no buffer: keys are picked in order by
///   rescanning the object (O(members × size) per object), and stack use
///   grows with the value's nesting (at most 127 levels).
/// * [`Verbatim`]: the decoded text copied byte for byte (fast, but equal to
///   the reference's output only if the text already was canonical).
/// * any `T: serde::Serialize`, owned or borrowed (`json!({…})` as well as
///   `&value`; a `&RawJson` is `Serialize` only if `RawJson` were, so pass
///   a `RawJson` by value): written by this crate's own
///   serializer, which writes exactly what `serde_json::to_vec` writes for
///   the same value (serde_json's escapes, itoa integers, zmij floats,
///   non-finite floats as `null`, bytes as an array of numbers, enums
///   externally tagged, non-string map keys quoted as serde_json quotes
///   them). Map keys come out in the order the value iterates them and
///   struct fields in declaration order: to equal the reference's output for
///   a `_meta` (a `BTreeMap`), give keys sorted and unique (a
///   `BTreeMap`, a `heapless::LinearMap` filled in order, or a struct whose
///   fields are declared in sorted order).
///
/// # Examples
///
/// ```
/// use diverge_frame::encode::ErrorEncoder;
///
/// #[derive(serde::Serialize)]
/// struct Retry { after_ms: u32 }
///
/// let mut buf = [0u8; 64];
/// // Owned or borrowed, alike.
/// let n = ErrorEncoder::new(&mut buf[..], -32603, "busy")?.data(Retry { after_ms: 50 })?.finish()?;
/// assert_eq!(&buf[..n], b"\x01{\"code\":-32603,\"message\":\"busy\",\"data\":{\"after_ms\":50}}");
/// let data = Retry { after_ms: 50 };
/// let m = ErrorEncoder::new(&mut buf[..], -32603, "busy")?.data(&data)?.finish()?;
/// assert_eq!(m, n);
/// # Ok::<(), diverge_frame::encode::EncodeError>(())
/// ```
///
/// Encoders refuse a value the reference could not decode back in its
/// place: a `_meta` or `inputResponses` that is not an object
/// ([`EncodeError::NotAnObject`]) and nesting beyond the reference's depth
/// limit at that place ([`EncodeError::TooDeep`]).
pub trait JsonValue: sealed::Sealed {
    /// Writes the value's JSON to `sink` as a value of its own: what an
    /// encoder embeds, with the reference's depth limit of 127 levels.
    ///
    /// # Errors
    ///
    /// [`EncodeError::TooDeep`] past 127 levels; [`EncodeError::Serialize`]
    /// from a failing `Serialize` impl (or a map key serde_json cannot
    /// write); the sink's own errors.
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::RawJson;
    /// use diverge_frame::encode::JsonValue;
    ///
    /// // A decoded value, written as serde_json writes its `Value`.
    /// let raw = RawJson::parse(br#"{ "z": 1e3, "a": "\u0041" }"#)?;
    /// let mut buf = [0u8; 32];
    /// let mut out = &mut buf[..];
    /// raw.write_to(&mut out)?;
    /// let n = 32 - out.len();
    /// assert_eq!(&buf[..n], br#"{"a":"A","z":1000.0}"#);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    fn write_to<S: Sink + ?Sized>(&self, sink: &mut S) -> Result<(), EncodeError> {
        self.write_json(sink, ALONE_DEPTH, false, Token(()))
    }
}

impl JsonValue for RawJson<'_> {}

impl sealed::Sealed for RawJson<'_> {
    fn write_json<S: Sink + ?Sized>(
        &self,
        sink: &mut S,
        max_depth: usize,
        object_only: bool,
        _: Token,
    ) -> Result<(), EncodeError> {
        if object_only && !self.is_object() {
            return Err(EncodeError::NotAnObject);
        }
        canonical(self.as_bytes(), sink, max_depth)
    }
}

/// A decoded [`RawJson`] to be written exactly as it stands, whitespace,
/// key order and escapes included.
///
/// Faster than the canonical re-emission of `RawJson` and still valid JSON
/// that the reference decodes to the same value, but not byte-identical to
/// the reference's re-serialisation unless the text was already canonical.
///
/// # Examples
///
/// ```
/// use diverge_frame::encode::{ErrorEncoder, Verbatim};
/// use diverge_frame::RawJson;
///
/// let data = RawJson::parse(br#"{ "z": 1, "a": 2 }"#)?;
/// let mut buf = [0u8; 64];
/// let n = ErrorEncoder::new(&mut buf[..], -32603, "boom")?.data(Verbatim(data))?.finish()?;
/// assert_eq!(&buf[..n], b"\x01{\"code\":-32603,\"message\":\"boom\",\"data\":{ \"z\": 1, \"a\": 2 }}");
/// let n = ErrorEncoder::new(&mut buf[..], -32603, "boom")?.data(data)?.finish()?;
/// assert_eq!(&buf[..n], b"\x01{\"code\":-32603,\"message\":\"boom\",\"data\":{\"a\":2,\"z\":1}}");
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verbatim<'a>(pub RawJson<'a>);

impl JsonValue for Verbatim<'_> {}

impl sealed::Sealed for Verbatim<'_> {
    fn write_json<S: Sink + ?Sized>(
        &self,
        sink: &mut S,
        max_depth: usize,
        object_only: bool,
        _: Token,
    ) -> Result<(), EncodeError> {
        if object_only && !self.0.is_object() {
            return Err(EncodeError::NotAnObject);
        }
        if nesting(self.0.as_bytes()) > max_depth {
            return Err(EncodeError::TooDeep);
        }
        sink.try_extend(self.0.as_bytes())
    }
}

impl<T: Serialize> JsonValue for T {}

impl<T: Serialize> sealed::Sealed for T {
    fn write_json<S: Sink + ?Sized>(
        &self,
        sink: &mut S,
        max_depth: usize,
        object_only: bool,
        _: Token,
    ) -> Result<(), EncodeError> {
        self.serialize(&mut JsonSer::new(sink, max_depth, object_only))
    }
}

impl<'a> RawJson<'a> {
    /// Checks `json` as one JSON value the way `serde_json::from_slice::<serde_json::Value>`
    /// does (surrounding whitespace allowed), for embedding it with an
    /// encoder.
    ///
    /// # Errors
    ///
    /// [`BodyError`] with the offset of the first defect, for every input
    /// serde_json rejects as a `Value`.
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::RawJson;
    ///
    /// let meta = RawJson::parse(br#" {"progressToken": 7} "#)?;
    /// assert_eq!(meta.as_bytes(), br#"{"progressToken": 7}"#);
    /// assert!(RawJson::parse(b"{\"a\":1e400}").is_err());
    /// # Ok::<(), diverge_frame::BodyError>(())
    /// ```
    pub fn parse(json: &'a [u8]) -> Result<Self, BodyError> {
        let mut s = Cursor::new(json);
        s.ws();
        let value = s.value_full(0)?;
        s.end()?;
        Ok(value)
    }
}

/// How deeply a value's containers nest (0 for a scalar).
fn nesting(b: &[u8]) -> usize {
    let mut depth = 0usize;
    let mut deepest = 0usize;
    let mut rest = b;
    while let Some((&c, tail)) = rest.split_first() {
        rest = tail;
        match c {
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b'"' => rest = validated::string(rest).2,
            _ => {}
        }
    }
    deepest
}

/// Writes a validated value the way serde_json re-serialises the
/// `serde_json::Value` it parses from it.
fn canonical<S: Sink + ?Sized>(
    v: &[u8],
    out: &mut S,
    depth_left: usize,
) -> Result<(), EncodeError> {
    match v.split_first() {
        Some((b'{', _)) => {
            let inner = depth_left.checked_sub(1).ok_or(EncodeError::TooDeep)?;
            out.try_extend(b"{")?;
            object(RawJson::new(v), out, inner)?;
            out.try_extend(b"}")
        }
        Some((b'[', tail)) => {
            let inner = depth_left.checked_sub(1).ok_or(EncodeError::TooDeep)?;
            out.try_extend(b"[")?;
            let mut rest = tail;
            let mut first = true;
            while let Some((element, next)) = validated::next_element(rest) {
                rest = next;
                if !core::mem::take(&mut first) {
                    out.try_extend(b",")?;
                }
                canonical(element, out, inner)?;
            }
            out.try_extend(b"]")
        }
        Some((b'"', tail)) => {
            let (text, escaped, _) = validated::string(tail);
            out.try_extend(b"\"")?;
            escape_json_str(out, JsonStr::new(text, escaped))?;
            out.try_extend(b"\"")
        }
        Some((b'-' | b'0'..=b'9', _)) => match parse_number(v) {
            Number::U64(n) => write_u64(out, n),
            Number::I64(n) => write_i64(out, n),
            Number::F64(n) => write_f64(out, n),
        },
        _ => out.try_extend(v),
    }
}

/// Orders keys as `String`'s `Ord` does: by the bytes of the unescaped text
/// (the same order as by code point).
fn cmp_keys(a: JsonStr<'_>, b: JsonStr<'_>) -> Ordering {
    if !a.is_escaped() && !b.is_escaped() {
        return a.raw().cmp(b.raw());
    }
    a.chars().cmp(b.chars())
}

/// Writes an object's members in key order, the last of equal keys winning,
/// without a buffer: each round picks the smallest key above the last one
/// written.
fn object<S: Sink + ?Sized>(
    obj: RawJson<'_>,
    out: &mut S,
    depth_left: usize,
) -> Result<(), EncodeError> {
    let mut last: Option<JsonStr<'_>> = None;
    let mut first = true;
    loop {
        let mut best: Option<(JsonStr<'_>, RawJson<'_>)> = None;
        for (key, value) in obj.members() {
            if last.is_some_and(|l| cmp_keys(key, l) != Ordering::Greater) {
                continue;
            }
            match best {
                Some((b, _)) if cmp_keys(key, b) == Ordering::Greater => {}
                _ => best = Some((key, value)),
            }
        }
        let Some((key, value)) = best else {
            return Ok(());
        };
        if !core::mem::take(&mut first) {
            out.try_extend(b",")?;
        }
        out.try_extend(b"\"")?;
        escape_json_str(out, key)?;
        out.try_extend(b"\":")?;
        canonical(value.as_bytes(), out, depth_left)?;
        last = Some(key);
    }
}

/// A number as serde_json's `Value` holds it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Number {
    U64(u64),
    I64(i64),
    F64(f64),
}

/// A cursor over a validated number's text.
struct Digits<'a> {
    b: &'a [u8],
    at: usize,
}

impl Digits<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.at).copied()
    }

    fn digit(&self) -> Option<u64> {
        match self.peek() {
            Some(c @ b'0'..=b'9') => Some(u64::from(c - b'0')),
            _ => None,
        }
    }

    fn bump(&mut self) {
        self.at += 1;
    }

    fn skip_digits(&mut self) {
        while self.digit().is_some() {
            self.bump();
        }
    }
}

/// Parses a validated JSON number exactly as serde_json 1.0.154 does without
/// `float_roundtrip` and `arbitrary_precision` (`parse_integer` and the
/// functions it calls), so the `f64` is bit-for-bit the reference's.
pub(crate) fn parse_number(b: &[u8]) -> Number {
    let mut p = Digits { b, at: 0 };
    let positive = if p.peek() == Some(b'-') {
        p.bump();
        false
    } else {
        true
    };
    let Some(first) = p.digit() else {
        return Number::U64(0);
    };
    p.bump();
    let mut significand = first;
    if first != 0 {
        while let Some(d) = p.digit() {
            if overflows(significand, d) {
                return Number::F64(long_integer(&mut p, positive, significand));
            }
            p.bump();
            significand = significand * 10 + d;
        }
    }
    match p.peek() {
        Some(b'.') => Number::F64(decimal(&mut p, positive, significand, 0)),
        Some(b'e' | b'E') => Number::F64(exponent(&mut p, positive, significand, 0)),
        _ if positive => Number::U64(significand),
        _ => {
            // serde_json's own test for `-0` and magnitudes beyond i64.
            #[allow(clippy::cast_possible_wrap)]
            let neg = (significand as i64).wrapping_neg();
            #[allow(clippy::cast_precision_loss)]
            let as_float = -(significand as f64);
            if neg >= 0 {
                Number::F64(as_float)
            } else {
                Number::I64(neg)
            }
        }
    }
}

fn long_integer(p: &mut Digits<'_>, positive: bool, significand: u64) -> f64 {
    let mut exp: i32 = 0;
    loop {
        match p.peek() {
            Some(b'0'..=b'9') => {
                p.bump();
                exp = exp.wrapping_add(1);
            }
            Some(b'.') => return decimal(p, positive, significand, exp),
            Some(b'e' | b'E') => return exponent(p, positive, significand, exp),
            _ => return f64_from_parts(positive, significand, exp),
        }
    }
}

fn decimal(p: &mut Digits<'_>, positive: bool, mut significand: u64, before: i32) -> f64 {
    p.bump(); // '.'
    let mut after: i32 = 0;
    while let Some(d) = p.digit() {
        if overflows(significand, d) {
            let exp = before.wrapping_add(after);
            p.skip_digits();
            return match p.peek() {
                Some(b'e' | b'E') => exponent(p, positive, significand, exp),
                _ => f64_from_parts(positive, significand, exp),
            };
        }
        p.bump();
        significand = significand * 10 + d;
        after = after.wrapping_sub(1);
    }
    let exp = before.wrapping_add(after);
    match p.peek() {
        Some(b'e' | b'E') => exponent(p, positive, significand, exp),
        _ => f64_from_parts(positive, significand, exp),
    }
}

fn exponent(p: &mut Digits<'_>, positive: bool, significand: u64, starting: i32) -> f64 {
    p.bump(); // 'e' | 'E'
    let positive_exp = match p.peek() {
        Some(b'+') => {
            p.bump();
            true
        }
        Some(b'-') => {
            p.bump();
            false
        }
        _ => true,
    };
    let mut exp: i32 = 0;
    while let Some(d) = p.digit() {
        p.bump();
        // A digit is below 10.
        #[allow(clippy::cast_possible_truncation)]
        let d = d as i32;
        if exp >= i32::MAX / 10 && (exp > i32::MAX / 10 || d > i32::MAX % 10) {
            // serde_json's `parse_exponent_overflow`: validated text only gets
            // here with a zero significand or a negative exponent.
            p.skip_digits();
            return if positive { 0.0 } else { -0.0 };
        }
        exp = exp * 10 + d;
    }
    let fin = if positive_exp {
        starting.saturating_add(exp)
    } else {
        starting.saturating_sub(exp)
    };
    f64_from_parts(positive, significand, fin)
}

/// serde_json's `f64_from_parts` without `float_roundtrip`.
fn f64_from_parts(positive: bool, significand: u64, mut exponent: i32) -> f64 {
    #[allow(clippy::cast_precision_loss)]
    let mut f = significand as f64;
    loop {
        if let Some(&pow) = POW10.get(exponent.unsigned_abs() as usize) {
            if exponent >= 0 {
                f *= pow;
            } else {
                f /= pow;
            }
            break;
        }
        if f == 0.0 {
            break;
        }
        if exponent >= 0 {
            // Out of range: validation rejects this before it gets here.
            f = f64::INFINITY;
            break;
        }
        f /= 1e308;
        exponent += 308;
    }
    if positive { f } else { -f }
}

#[rustfmt::skip]
#[allow(clippy::unreadable_literal)]
const POW10: [f64; 309] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28, 1e29, 1e30, 1e31, 1e32, 1e33, 1e34, 1e35, 1e36, 1e37, 1e38, 1e39, 1e40, 1e41, 1e42, 1e43, 1e44, 1e45, 1e46, 1e47, 1e48, 1e49, 1e50, 1e51, 1e52, 1e53, 1e54, 1e55, 1e56, 1e57, 1e58, 1e59, 1e60, 1e61, 1e62, 1e63, 1e64, 1e65, 1e66, 1e67, 1e68, 1e69, 1e70, 1e71, 1e72, 1e73, 1e74, 1e75, 1e76, 1e77, 1e78, 1e79, 1e80, 1e81, 1e82, 1e83, 1e84, 1e85, 1e86, 1e87, 1e88, 1e89, 1e90, 1e91, 1e92, 1e93, 1e94, 1e95, 1e96, 1e97, 1e98, 1e99, 1e100, 1e101, 1e102, 1e103, 1e104, 1e105, 1e106, 1e107, 1e108, 1e109, 1e110, 1e111, 1e112, 1e113, 1e114, 1e115, 1e116, 1e117, 1e118, 1e119, 1e120, 1e121, 1e122, 1e123, 1e124, 1e125, 1e126, 1e127, 1e128, 1e129, 1e130, 1e131, 1e132, 1e133, 1e134, 1e135, 1e136, 1e137, 1e138, 1e139, 1e140, 1e141, 1e142, 1e143, 1e144, 1e145, 1e146, 1e147, 1e148, 1e149, 1e150, 1e151, 1e152, 1e153, 1e154, 1e155, 1e156, 1e157, 1e158, 1e159, 1e160, 1e161, 1e162, 1e163, 1e164, 1e165, 1e166, 1e167, 1e168, 1e169, 1e170, 1e171, 1e172, 1e173, 1e174, 1e175, 1e176, 1e177, 1e178, 1e179, 1e180, 1e181, 1e182, 1e183, 1e184, 1e185, 1e186, 1e187, 1e188, 1e189, 1e190, 1e191, 1e192, 1e193, 1e194, 1e195, 1e196, 1e197, 1e198, 1e199, 1e200, 1e201, 1e202, 1e203, 1e204, 1e205, 1e206, 1e207, 1e208, 1e209, 1e210, 1e211, 1e212, 1e213, 1e214, 1e215, 1e216, 1e217, 1e218, 1e219, 1e220, 1e221, 1e222, 1e223, 1e224, 1e225, 1e226, 1e227, 1e228, 1e229, 1e230, 1e231, 1e232, 1e233, 1e234, 1e235, 1e236, 1e237, 1e238, 1e239, 1e240, 1e241, 1e242, 1e243, 1e244, 1e245, 1e246, 1e247, 1e248, 1e249, 1e250, 1e251, 1e252, 1e253, 1e254, 1e255, 1e256, 1e257, 1e258, 1e259, 1e260, 1e261, 1e262, 1e263, 1e264, 1e265, 1e266, 1e267, 1e268, 1e269, 1e270, 1e271, 1e272, 1e273, 1e274, 1e275, 1e276, 1e277, 1e278, 1e279, 1e280, 1e281, 1e282, 1e283, 1e284, 1e285, 1e286, 1e287, 1e288, 1e289, 1e290, 1e291, 1e292, 1e293, 1e294, 1e295, 1e296, 1e297, 1e298, 1e299, 1e300, 1e301, 1e302, 1e303, 1e304, 1e305, 1e306, 1e307, 1e308];

#[cfg(test)]
mod tests {
    use super::sealed::Sealed;
    use super::*;

    fn canon(json: &str) -> heapless::String<512> {
        let raw = RawJson::parse(json.as_bytes())
            .ok()
            .unwrap_or(RawJson::new(b"null"));
        let mut out: heapless::Vec<u8, 512> = heapless::Vec::new();
        raw.write_json(&mut out, 127, false, Token(())).ok();
        heapless::String::from_utf8(out).unwrap_or_default()
    }

    #[test]
    fn objects_are_sorted_and_deduplicated() {
        assert_eq!(
            canon(r#" { "z" : 1 , "a" : { "y" : 1 , "b" : 2 } , "z" : 3 } "#),
            r#"{"a":{"b":2,"y":1},"z":3}"#
        );
        assert_eq!(
            canon(r#"{"\u0062":1,"a":2,"é":3,"\u00e9":4}"#),
            r#"{"a":2,"b":1,"é":4}"#
        );
        assert_eq!(canon("{}"), "{}");
        assert_eq!(canon("[ ]"), "[]");
    }

    #[test]
    fn numbers_follow_serde_json() {
        assert_eq!(
            canon("[1E3, -0, 0, -0.0, 1.0, 18446744073709551616, -9223372036854775809]"),
            "[1000.0,-0.0,0,-0.0,1.0,1.8446744073709552e+19,-9.223372036854776e+18]"
        );
        assert_eq!(
            canon("123456789012345678901234567890"),
            "1.2345678901234568e+29"
        );
        assert_eq!(
            canon("[18446744073709551615, -9223372036854775808, 1e-400, -1e-400]"),
            "[18446744073709551615,-9223372036854775808,0.0,-0.0]"
        );
    }

    #[test]
    fn strings_are_reescaped() {
        assert_eq!(
            canon(r#""\u00e9\/\u0001\u007f\b\u2028""#),
            "\"é/\\u0001\u{7f}\\b\u{2028}\""
        );
    }

    #[test]
    fn object_and_depth_checks() {
        let raw = RawJson::new(b"[[1]]");
        let mut out: heapless::Vec<u8, 16> = heapless::Vec::new();
        assert_eq!(
            raw.write_json(&mut out, 1, false, Token(())),
            Err(EncodeError::TooDeep)
        );
        assert_eq!(
            raw.write_json(&mut out, 4, true, Token(())),
            Err(EncodeError::NotAnObject)
        );
        assert_eq!(
            Verbatim(raw).write_json(&mut out, 1, false, Token(())),
            Err(EncodeError::TooDeep)
        );
        assert_eq!(nesting(br#"[{"a":"[[["}]"#), 2);
    }
}
