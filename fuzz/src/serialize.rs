//! The encoders' own `serde::Serializer` (what `ErrorEncoder::data`,
//! `ResultEncoder::meta` and the other `impl JsonValue` fields run for any
//! `&T: Serialize`) against `serde_json::to_vec`, on values the fuzzer
//! shapes: every method of the `Serializer` trait, map keys of every kind
//! (serde_json's `MapKeySerializer` takes some and refuses the rest),
//! strings and names that need escapes, floats that are not finite, and
//! nesting around the encoders' depth limit.
//!
//! The verdicts that must hold, for the error frame's `data` and, when the
//! value is an object, a request's `_meta`:
//!
//! * serde_json writes the value and it opens at most the field's 126
//!   containers (127 with the body, serde_json's decoding limit): the encoder writes exactly serde_json's bytes, and the
//!   frame decodes with that `data`;
//! * it opens more: the encoder refuses it (`TooDeep`), since the reference
//!   could not decode it;
//! * serde_json refuses it (a map key it cannot write): so does the encoder
//!   (`Serialize`, or `TooDeep` where the depth came first);
//! * as `_meta`, a value that is not an object is `NotAnObject`.

use diverge_frame::encode::{Counter, EncodeError, ErrorEncoder, RequestEncoder, Sink};
use diverge_frame::{Frame, RequestView};
use serde::ser::{
    Serialize, SerializeMap, SerializeSeq, SerializeStruct, SerializeStructVariant, SerializeTuple,
    SerializeTupleStruct, SerializeTupleVariant, Serializer,
};

/// Containers a top-level field's value may open (the encoders'
/// `FIELD_DEPTH`): serde_json decodes at most 127 open containers, and the
/// body object is one.
const FIELD_DEPTH: usize = 126;

/// Names for structs, fields and variants: plain, and ones that need escapes.
const NAMES: [&str; 6] = ["a", "uri", "b\"c", "é\n", "\u{0}\u{1f}", ""];

/// A value that calls one method of the `Serializer` trait each.
#[derive(Debug)]
enum Any {
    Bool(bool),
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    I128(i128),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    U128(u128),
    F32(f32),
    F64(f64),
    Char(char),
    Str(String),
    Bytes(Vec<u8>),
    None,
    Some(Box<Any>),
    Unit,
    UnitStruct(usize),
    UnitVariant(usize),
    NewtypeStruct(usize, Box<Any>),
    NewtypeVariant(usize, Box<Any>),
    Seq(Vec<Any>, bool),
    Tuple(Vec<Any>),
    TupleStruct(usize, Vec<Any>),
    TupleVariant(usize, Vec<Any>),
    Map(Vec<(Any, Any)>, bool),
    Struct(usize, Vec<(usize, Any)>),
    StructVariant(usize, Vec<(usize, Any)>),
    /// `collect_str` (a `Display` value written as a string).
    Display(String),
    /// A `Serialize` impl that fails (`S::Error::custom`).
    Custom,
}

/// The fuzzer's bytes, read from the front; zeros once they run out.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn u8(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }
    fn array<const N: usize>(&mut self) -> [u8; N] {
        core::array::from_fn(|_| self.u8())
    }
    fn name(&mut self) -> usize {
        usize::from(self.u8()) % NAMES.len()
    }
    fn len(&mut self) -> usize {
        usize::from(self.u8() % 6)
    }
    fn text(&mut self) -> String {
        let n = usize::from(self.u8() % 24);
        let take = n.min(self.0.len());
        let (text, rest) = self.0.split_at(take);
        self.0 = rest;
        String::from_utf8_lossy(text).into_owned()
    }
}

/// A value from the bytes; `depth` containers around it. Past 200 levels
/// only scalars are made (each level takes a byte, so that deep values
/// come from long inputs).
fn any(b: &mut Bytes<'_>, depth: usize) -> Any {
    let pick = b.u8();
    let kinds = if depth > 200 { 16 } else { 32 };
    match pick % kinds {
        0 => Any::Bool(pick & 0x80 != 0),
        1 => Any::I8(i8::from_le_bytes(b.array())),
        2 => Any::I16(i16::from_le_bytes(b.array())),
        3 => Any::I32(i32::from_le_bytes(b.array())),
        4 => Any::I64(i64::from_le_bytes(b.array())),
        5 => Any::I128(i128::from_le_bytes(b.array())),
        6 => Any::U8(b.u8()),
        7 => Any::U16(u16::from_le_bytes(b.array())),
        8 => Any::U32(u32::from_le_bytes(b.array())),
        9 => Any::U64(u64::from_le_bytes(b.array())),
        10 => Any::U128(u128::from_le_bytes(b.array())),
        11 => Any::F32(f32::from_le_bytes(b.array())),
        12 => Any::F64(f64::from_le_bytes(b.array())),
        13 => Any::Char(
            char::from_u32(u32::from_le_bytes(b.array()) % 0x11_0000).unwrap_or('\u{fffd}'),
        ),
        14 => Any::Str(b.text()),
        15 => Any::Unit,
        16 => Any::Bytes(b.text().into_bytes()),
        17 => Any::None,
        18 => Any::Some(Box::new(any(b, depth))),
        19 => Any::UnitStruct(b.name()),
        20 => Any::UnitVariant(b.name()),
        21 => Any::NewtypeStruct(b.name(), Box::new(any(b, depth))),
        22 => Any::NewtypeVariant(b.name(), Box::new(any(b, depth + 1))),
        23 => {
            let n = b.len();
            Any::Seq(
                (0..n).map(|_| any(b, depth + 1)).collect(),
                pick & 0x80 != 0,
            )
        }
        24 => Any::Tuple((0..b.len()).map(|_| any(b, depth + 1)).collect()),
        25 => Any::TupleStruct(b.name(), (0..b.len()).map(|_| any(b, depth + 1)).collect()),
        26 => Any::TupleVariant(b.name(), (0..b.len()).map(|_| any(b, depth + 2)).collect()),
        27 => {
            let n = b.len();
            Any::Map(
                (0..n)
                    .map(|_| (any(b, depth + 1), any(b, depth + 1)))
                    .collect(),
                pick & 0x80 != 0,
            )
        }
        28 => Any::Struct(
            b.name(),
            (0..b.len())
                .map(|_| (b.name(), any(b, depth + 1)))
                .collect(),
        ),
        29 => Any::Display(b.text()),
        30 => Any::Custom,
        _ => Any::StructVariant(
            b.name(),
            (0..b.len())
                .map(|_| (b.name(), any(b, depth + 2)))
                .collect(),
        ),
    }
}

impl Serialize for Any {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Bool(v) => s.serialize_bool(*v),
            Self::I8(v) => s.serialize_i8(*v),
            Self::I16(v) => s.serialize_i16(*v),
            Self::I32(v) => s.serialize_i32(*v),
            Self::I64(v) => s.serialize_i64(*v),
            Self::I128(v) => s.serialize_i128(*v),
            Self::U8(v) => s.serialize_u8(*v),
            Self::U16(v) => s.serialize_u16(*v),
            Self::U32(v) => s.serialize_u32(*v),
            Self::U64(v) => s.serialize_u64(*v),
            Self::U128(v) => s.serialize_u128(*v),
            Self::F32(v) => s.serialize_f32(*v),
            Self::F64(v) => s.serialize_f64(*v),
            Self::Char(v) => s.serialize_char(*v),
            Self::Str(v) => s.serialize_str(v),
            Self::Bytes(v) => s.serialize_bytes(v),
            Self::None => s.serialize_none(),
            Self::Some(v) => s.serialize_some(v),
            Self::Unit => s.serialize_unit(),
            Self::UnitStruct(n) => s.serialize_unit_struct(NAMES[*n]),
            Self::UnitVariant(n) => s.serialize_unit_variant("E", *n as u32, NAMES[*n]),
            Self::NewtypeStruct(n, v) => s.serialize_newtype_struct(NAMES[*n], v),
            Self::NewtypeVariant(n, v) => s.serialize_newtype_variant("E", *n as u32, NAMES[*n], v),
            Self::Seq(items, sized) => {
                let mut seq = s.serialize_seq(sized.then_some(items.len()))?;
                for v in items {
                    seq.serialize_element(v)?;
                }
                seq.end()
            }
            Self::Tuple(items) => {
                let mut t = s.serialize_tuple(items.len())?;
                for v in items {
                    t.serialize_element(v)?;
                }
                t.end()
            }
            Self::TupleStruct(n, items) => {
                let mut t = s.serialize_tuple_struct(NAMES[*n], items.len())?;
                for v in items {
                    t.serialize_field(v)?;
                }
                t.end()
            }
            Self::TupleVariant(n, items) => {
                let mut t = s.serialize_tuple_variant("E", *n as u32, NAMES[*n], items.len())?;
                for v in items {
                    t.serialize_field(v)?;
                }
                t.end()
            }
            Self::Map(entries, sized) => {
                let mut m = s.serialize_map(sized.then_some(entries.len()))?;
                for (i, (k, v)) in entries.iter().enumerate() {
                    // Both ways of handing over an entry.
                    if i % 2 == 0 {
                        m.serialize_entry(k, v)?;
                    } else {
                        m.serialize_key(k)?;
                        m.serialize_value(v)?;
                    }
                }
                m.end()
            }
            Self::Struct(n, fields) => {
                let mut st = s.serialize_struct(NAMES[*n], fields.len())?;
                for (f, v) in fields {
                    st.serialize_field(NAMES[*f], v)?;
                }
                st.end()
            }
            Self::Display(text) => s.collect_str(text.as_str()),
            Self::Custom => Err(serde::ser::Error::custom("refused")),
            Self::StructVariant(n, fields) => {
                let mut st = s.serialize_struct_variant("E", *n as u32, NAMES[*n], fields.len())?;
                for (f, v) in fields {
                    st.serialize_field(NAMES[*f], v)?;
                }
                st.end()
            }
        }
    }
}

/// The most containers open at once in JSON text `j` (brackets outside
/// strings).
fn depth(j: &[u8]) -> usize {
    let (mut d, mut most, mut string, mut escaped) = (0usize, 0usize, false, false);
    for &c in j {
        if string {
            (string, escaped) = (escaped || c != b'"', !escaped && c == b'\\');
            continue;
        }
        match c {
            b'"' => string = true,
            b'[' | b'{' => {
                d += 1;
                most = most.max(d);
            }
            b']' | b'}' => d = d.saturating_sub(1),
            _ => {}
        }
    }
    most
}

/// Checks one encoder's verdict on `v` against serde_json's `want`:
/// `got` is the field's bytes as written, or the encoder's error.
fn judge(
    what: &str,
    v: &Any,
    want: &Result<Vec<u8>, serde_json::Error>,
    got: Result<&[u8], EncodeError>,
) {
    match (want, got) {
        (Ok(want), Ok(got)) => {
            assert!(
                depth(want) <= FIELD_DEPTH,
                "{what}: {} levels written\n{v:?}",
                depth(want)
            );
            assert_eq!(
                got,
                &want[..],
                "{what}: bytes differ from serde_json's\n{v:?}\ngot  {}\nwant {}",
                String::from_utf8_lossy(got),
                String::from_utf8_lossy(want)
            );
        }
        (Ok(want), Err(EncodeError::TooDeep)) => {
            assert!(
                depth(want) > FIELD_DEPTH,
                "{what}: TooDeep at {} levels\n{v:?}",
                depth(want)
            );
        }
        (Err(_), Err(EncodeError::Serialize | EncodeError::TooDeep)) => {}
        (want, got) => panic!(
            "{what}: serde_json {:?}, encoder {got:?}\n{v:?}",
            want.as_ref().map(|w| String::from_utf8_lossy(w))
        ),
    }
}

/// An error frame with `v` as its `data`, into `sink`.
fn error_frame<S: Sink>(sink: S, v: &Any) -> Result<usize, EncodeError> {
    ErrorEncoder::new(sink, -1, "m")?.data(v)?.finish()
}

/// A request with `v` as its `_meta` and the URI `x`, into `sink`.
fn request_frame<S: Sink>(sink: S, v: &Any) -> Result<usize, EncodeError> {
    RequestEncoder::new(sink)?.meta(v)?.uri("x")?.finish()
}

/// The target: a value from the bytes, through the error frame's `data`
/// and a request's `_meta`, against `serde_json::to_vec`. Each frame is
/// first counted ([`Counter`]), then written into a buffer of that size.
pub fn serialize(data: &[u8]) {
    let v = any(&mut Bytes(data), 0);
    let want = serde_json::to_vec(&v);

    // The error frame's `data`: any value.
    const HEAD: &[u8] = b"\x01{\"code\":-1,\"message\":\"m\",\"data\":";
    match error_frame(Counter::new(), &v) {
        Err(e) => judge("data", &v, &want, Err(e)),
        Ok(len) => {
            let mut buf = vec![0u8; len];
            assert_eq!(
                error_frame(&mut buf[..], &v),
                Ok(len),
                "data: counted and written differ"
            );
            assert_eq!(&buf[..HEAD.len()], HEAD, "the frame's head");
            assert_eq!(buf[len - 1], b'}', "the frame's close");
            let written = &buf[HEAD.len()..len - 1];
            judge("data", &v, &want, Ok(written));
            // The frame decodes, with that `data` (a `null` reads as absent).
            let Ok(Frame::Error(e)) = Frame::decode(&buf) else {
                panic!(
                    "the encoded frame does not decode: {}",
                    String::from_utf8_lossy(&buf)
                );
            };
            match e.data() {
                Some(d) => assert_eq!(d.as_bytes(), written),
                None => assert_eq!(written, b"null"),
            }
        }
    }

    // A request's `_meta`: objects only.
    const META: &[u8] = b"{\"_meta\":";
    match (&want, request_frame(Counter::new(), &v)) {
        (Ok(w), Err(EncodeError::NotAnObject)) => {
            assert_ne!(w.first(), Some(&b'{'), "_meta: an object refused\n{v:?}");
        }
        // Refused before serde_json's own error could come.
        (Err(_), Err(EncodeError::NotAnObject)) => {}
        (_, Err(e)) => judge("_meta", &v, &want, Err(e)),
        (_, Ok(len)) => {
            let mut buf = vec![0u8; len];
            assert_eq!(
                request_frame(&mut buf[..], &v),
                Ok(len),
                "_meta: counted and written differ"
            );
            let field = buf
                .get(META.len()..len - b",\"uri\":\"x\"}".len())
                .expect("a request with its _meta");
            judge("_meta", &v, &want, Ok(field));
            assert_eq!(
                field.first(),
                Some(&b'{'),
                "_meta: not an object written\n{v:?}"
            );
            let r = RequestView::decode(&buf).expect("the encoded request decodes");
            assert_eq!(r.meta().map(|m| m.as_bytes()), Some(field));
        }
    }
}
