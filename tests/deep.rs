//! Deep nesting against the reference (`serde_json` + rmcp 3.11.0): ignored
//! members (in a result frame, an error frame and a request) nested 1 000 to
//! 70 000 levels, well-formed and broken at every kind of place, and the
//! typed values (`_meta`, `data`), whose limit is the reference's 127 levels.
//!
//! Each input is decoded whole (`Frame::decode`, `RequestView::decode`): the
//! same acceptance as the reference, the same values when both accept, and
//! when both reject an error kind in the category serde_json's
//! `Error::classify()` gives, at the very byte serde_json stops at (its
//! `column()` is the 1-based column of that byte; of the end for `Eof`).
//! Then through the streaming validators at several chunkings: the same
//! answer up to `stream::IGNORED_DEPTH` levels, `StreamDepthExceeded` at the
//! bracket past it otherwise.
#![allow(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::panic,
    clippy::missing_panics_doc
)]

mod common;

use common::oracle::{category, check_frame, check_request, show};
use diverge_frame::stream::{FrameValidator, IGNORED_DEPTH, RequestValidator};
use diverge_frame::{BodyError, BodyErrorKind as K, Frame, FrameError, RequestView};
use rmcp::model::{ReadResourceRequestParams, ReadResourceResult};

// ----- the inputs -------------------------------------------------------------

/// Where a deep value goes.
#[derive(Clone, Copy, Debug)]
enum Place {
    /// An unknown member of a result (`{"contents":[],"x":V}`).
    Result,
    /// An unknown member of an error, before `message`.
    Error,
    /// An unknown member of a request.
    Request,
    /// Inside a result's `_meta` (a typed value: 127 levels).
    ResultMeta,
    /// An error's `data` (a typed value).
    ErrorData,
    /// Inside a request's `_meta` (a typed value).
    RequestMeta,
}

const IGNORED: [Place; 3] = [Place::Result, Place::Error, Place::Request];
const TYPED: [Place; 3] = [Place::ResultMeta, Place::ErrorData, Place::RequestMeta];

impl Place {
    /// The text before and after the value.
    fn around(self) -> (&'static [u8], &'static [u8]) {
        match self {
            Self::Result => (b"\x00{\"contents\":[],\"x\":", b"}"),
            Self::Error => (b"\x01{\"code\":-1,\"x\":", b",\"message\":\"m\"}"),
            Self::Request => (b"{\"uri\":\"a\",\"x\":", b",\"y\":2}"),
            Self::ResultMeta => (b"\x00{\"contents\":[],\"_meta\":{\"k\":", b"}}"),
            Self::ErrorData => (b"\x01{\"code\":-1,\"message\":\"m\",\"data\":", b"}"),
            Self::RequestMeta => (b"{\"uri\":\"a\",\"_meta\":{\"k\":", b"}}"),
        }
    }

    const fn framed(self) -> bool {
        !matches!(self, Self::Request | Self::RequestMeta)
    }

    /// Levels open around the value in the JSON (the top-level object, and
    /// `_meta` itself).
    const fn outside(self) -> usize {
        match self {
            Self::ResultMeta | Self::RequestMeta => 2,
            _ => 1,
        }
    }

    fn wrap(self, value: &[u8]) -> Vec<u8> {
        let (before, after) = self.around();
        [before, value, after].concat()
    }
}

/// How each level of a generated deep value looks.
#[derive(Clone, Copy, Debug)]
struct Shape {
    /// Every `n`th level is an object (0: arrays only).
    obj_every: usize,
    /// Every `n`th level has members before the deeper one (0: none).
    before_every: usize,
    /// Every `n`th level has members after it (0: none).
    after_every: usize,
}

const PLAIN: Shape = Shape {
    obj_every: 0,
    before_every: 0,
    after_every: 0,
};
const MIXED: Shape = Shape {
    obj_every: 3,
    before_every: 7,
    after_every: 5,
};
const OBJECTS: Shape = Shape {
    obj_every: 1,
    before_every: 2,
    after_every: 1,
};

/// A deep value and where each level's parts are (index = level − 1).
struct Deep {
    text: Vec<u8>,
    /// The opening bracket.
    open: Vec<usize>,
    /// The member holding the next level: its key (objects) or value.
    member: Vec<usize>,
    /// The comma after that member, when more members follow.
    comma_after: Vec<Option<usize>>,
    /// The closing bracket.
    close: Vec<usize>,
    obj: Vec<bool>,
}

impl Shape {
    fn build(self, n: usize) -> Deep {
        let every = |k: usize, level: usize| k != 0 && level.is_multiple_of(k);
        let mut d = Deep {
            text: Vec::with_capacity(n * 4),
            open: Vec::with_capacity(n),
            member: Vec::with_capacity(n),
            comma_after: Vec::with_capacity(n),
            close: vec![0; n],
            obj: Vec::with_capacity(n),
        };
        for level in 1..=n {
            let obj = every(self.obj_every, level);
            d.obj.push(obj);
            d.open.push(d.text.len());
            d.text.push(if obj { b'{' } else { b'[' });
            if every(self.before_every, level) {
                d.text.extend_from_slice(if obj {
                    b"\"p\":-1.5e3,\"]\":\"[{\\\"\","
                } else {
                    b"1,\"a]\\\\\",{},"
                });
            }
            d.member.push(d.text.len());
            if obj {
                d.text.extend_from_slice(b"\"k\":");
            }
        }
        d.text.extend_from_slice(b"[0,true]");
        for level in (1..=n).rev() {
            let obj = d.obj[level - 1];
            if every(self.after_every, level) {
                d.comma_after.push(Some(d.text.len()));
                d.text
                    .extend_from_slice(if obj { b",\"q\":null" } else { b",[],\"}\"" });
            } else {
                d.comma_after.push(None);
            }
            d.close[level - 1] = d.text.len();
            d.text.push(if obj { b'}' } else { b']' });
        }
        d.comma_after.reverse();
        d
    }
}

/// One edit of a deep value.
#[derive(Clone, Copy, Debug)]
enum Defect {
    /// The closer of this level replaced by the other kind.
    WrongCloser(usize),
    /// The closer of this level left out.
    MissingCloser(usize),
    /// A comma before this level's closer.
    TrailingComma(usize),
    /// A malformed number put before the member holding the next level.
    BadNumber(usize, &'static [u8]),
    /// The comma after the member holding the next level left out (the
    /// first level at or above this one that has one).
    MissingComma(usize),
    /// The key of the member holding the next level written as a number
    /// (the first object level at or above this one).
    NumberKey(usize),
    /// A key with no colon (the first object level at or above this one).
    MissingColon(usize),
}

impl Deep {
    /// The value with `defect`, or `None` when the shape has no place for it.
    fn with(&self, defect: Defect) -> Option<Vec<u8>> {
        let mut t = self.text.clone();
        let n = self.open.len();
        let first_obj = |l: usize| (l..=n).find(|&l| self.obj[l - 1]);
        match defect {
            Defect::WrongCloser(l) => {
                let at = self.close[l - 1];
                t[at] = if t[at] == b']' { b'}' } else { b']' };
            }
            Defect::MissingCloser(l) => drop(t.remove(self.close[l - 1])),
            Defect::TrailingComma(l) => t.insert(self.close[l - 1], b','),
            Defect::BadNumber(l, number) => {
                let at = self.member[l - 1];
                let key: &[u8] = if self.obj[l - 1] { b"\"b\":" } else { b"" };
                let put = [key, number, b","].concat();
                drop(t.splice(at..at, put));
            }
            Defect::MissingComma(l) => {
                let at = (l..=n).find_map(|l| self.comma_after[l - 1])?;
                t.remove(at);
            }
            Defect::NumberKey(l) => {
                let at = self.member[first_obj(l)? - 1];
                drop(t.splice(at..at + 3, *b"12"));
            }
            Defect::MissingColon(l) => {
                let at = self.member[first_obj(l)? - 1] + 3;
                t.remove(at);
            }
        }
        Some(t)
    }
}

// ----- the checks ---------------------------------------------------------------

/// Our whole-buffer answer: `Ok` or the error.
fn ours(bytes: &[u8], framed: bool) -> Result<(), BodyError> {
    if framed {
        match Frame::decode(bytes) {
            Ok(_) => Ok(()),
            Err(FrameError::Body(e)) => Err(e),
            Err(e) => panic!("{e:?}"),
        }
    } else {
        RequestView::decode(bytes).map(drop)
    }
}

/// The reference's answer.
fn theirs(bytes: &[u8], framed: bool) -> Result<(), serde_json::Error> {
    match bytes.split_first() {
        Some((0, json)) if framed => serde_json::from_slice::<ReadResourceResult>(json).map(drop),
        Some((1, json)) if framed => serde_json::from_slice::<rmcp::ErrorData>(json).map(drop),
        _ => serde_json::from_slice::<ReadResourceRequestParams>(bytes).map(drop),
    }
}

/// Decodes `bytes` both ways and checks that they agree: acceptance and
/// values, or the error's category and the byte it names. Returns our
/// answer (offsets in the JSON, without a frame's tag).
#[track_caller]
fn agree(bytes: &[u8], framed: bool) -> Result<(), BodyError> {
    let got = ours(bytes, framed);
    let want = theirs(bytes, framed);
    let tag = usize::from(framed);
    match (&got, &want) {
        (Ok(()), Ok(())) => {
            let values = if framed {
                check_frame(bytes)
            } else {
                check_request(bytes)
            };
            assert_eq!(values, Ok(true), "{}", show(bytes));
        }
        (Err(e), Err(r)) => {
            assert_eq!(
                category(e.kind()),
                r.classify(),
                "{e:?} against the reference's \"{r}\": {}",
                show(bytes)
            );
            assert_eq!(r.line(), 1);
            let at = e.offset() - tag;
            // serde_json's column is the 1-based column of the byte it
            // stopped at, or the input's length at its end (an `Eof`, or a
            // number the end cut short).
            let at_end = at == bytes.len() - tag;
            let column = if e.kind() == K::Eof || at_end {
                at
            } else {
                at + 1
            };
            assert_eq!(
                column,
                r.column(),
                "{e:?} against the reference's \"{r}\": {}",
                show(bytes)
            );
        }
        _ => panic!(
            "ours {got:?}, the reference {:?}: {}",
            want.map_err(|e| e.to_string()),
            show(bytes)
        ),
    }
    got.map_err(|e| BodyError::new(e.kind(), e.offset() - tag))
}

/// The offset of the first bracket of `bytes` more than `limit` levels
/// deep (counting brackets outside strings only).
fn past(bytes: &[u8], limit: usize) -> Option<usize> {
    let (mut level, mut string, mut escaped) = (0usize, false, false);
    for (i, &c) in bytes.iter().enumerate() {
        if string {
            match c {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => string = false,
                _ => {}
            }
            continue;
        }
        match c {
            b'"' => string = true,
            b'[' | b'{' => {
                level += 1;
                if level > limit {
                    return Some(i);
                }
            }
            b']' | b'}' => level = level.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// The streaming validators' answer on `bytes` cut into `size`-byte chunks.
fn streamed(bytes: &[u8], framed: bool, size: usize) -> Result<(), BodyError> {
    let body = |e: FrameError| match e {
        FrameError::Body(e) => e,
        e => panic!("{e:?}"),
    };
    if framed {
        let mut v = FrameValidator::new();
        for chunk in bytes.chunks(size) {
            v.feed(chunk).map_err(body)?;
        }
        v.finish().map(drop).map_err(body)
    } else {
        let mut v = RequestValidator::new();
        for chunk in bytes.chunks(size) {
            v.feed(chunk)?;
        }
        v.finish()
    }
}

/// The streaming validators give `whole` (our whole-buffer answer, offsets
/// in the JSON) on `bytes`, unless an ignored member goes past
/// `IGNORED_DEPTH` levels before `whole`'s error: then `StreamDepthExceeded`
/// at that bracket.
#[track_caller]
fn stream_agrees(bytes: &[u8], place: Place, whole: Result<(), BodyError>, sizes: &[usize]) {
    let tag = usize::from(place.framed());
    let whole = whole.map_err(|e| BodyError::new(e.kind(), e.offset() + tag));
    let limit = past(bytes, IGNORED_DEPTH + place.outside());
    let want = match (limit, whole) {
        (Some(at), Ok(())) => Err(BodyError::new(K::StreamDepthExceeded, at)),
        (Some(at), Err(e)) if e.offset() > at => Err(BodyError::new(K::StreamDepthExceeded, at)),
        _ => whole,
    };
    for &size in sizes {
        assert_eq!(
            streamed(bytes, place.framed(), size),
            want,
            "{place:?} in chunks of {size}: {}",
            show(bytes)
        );
    }
}

/// Both checks on the value `value` put at `place`; returns the
/// whole-buffer answer (offsets in the JSON).
#[track_caller]
fn check(place: Place, value: &[u8], sizes: &[usize]) -> Result<(), BodyError> {
    check_bytes(place, &place.wrap(value), sizes)
}

/// Both checks on `bytes`, a frame or request with a deep value at `place`.
#[track_caller]
fn check_bytes(place: Place, bytes: &[u8], sizes: &[usize]) -> Result<(), BodyError> {
    let got = agree(bytes, place.framed());
    stream_agrees(bytes, place, got, sizes);
    got
}

/// Chunk sizes for the streaming check: one odd and small, one of a
/// network buffer, and the whole input.
const SIZES: [usize; 3] = [61, 4096, usize::MAX];

fn depths() -> Vec<usize> {
    if cfg!(miri) {
        vec![1000, 1025]
    } else {
        vec![1000, 1024, 1025, 1100, 2049, 5000]
    }
}

// ----- the tests ----------------------------------------------------------------

/// The case: 1 100 opened arrays closed by a wrong bracket is
/// `expected value` at that bracket, as at 1 000 levels.
#[test]
fn a_wrong_closer_below_a_thousand_arrays_is_named_where_it_is() {
    for n in [1000, 1024, 1025, 1100, 5000] {
        for place in IGNORED {
            let value = [vec![b'['; n], vec![b'}']].concat();
            let at = place.around().0.len() - usize::from(place.framed()) + n;
            assert_eq!(
                check(place, &value, &SIZES),
                Err(BodyError::new(K::ExpectedValue, at)),
                "{place:?} {n}"
            );
        }
    }
}

/// Well-formed ignored members of every shape, to 70 000 levels: accepted,
/// as the reference accepts them; typed values past 127 levels refused at
/// the 128th bracket, as the reference refuses them.
#[test]
fn well_formed_deep_values() {
    let mut depths = depths();
    if !cfg!(miri) {
        depths.extend([65_537, 70_000]);
    }
    for n in depths {
        let sizes: &[usize] = if n > 5000 { &[4096] } else { &SIZES };
        for shape in [PLAIN, MIXED, OBJECTS] {
            if n > 5000 && shape.obj_every == 1 {
                continue;
            }
            let deep = shape.build(n);
            for place in IGNORED {
                assert_eq!(check(place, &deep.text, sizes), Ok(()), "{place:?} {n}");
            }
            for place in TYPED {
                let e = check(place, &deep.text, sizes).unwrap_err();
                let at = place.around().0.len() - usize::from(place.framed());
                let open = 128 - place.outside();
                assert_eq!(
                    (e.kind(), e.offset()),
                    (K::RecursionLimitExceeded, at + deep.open[open - 1]),
                    "{place:?} {n}"
                );
            }
        }
    }
}

/// One defect in a deep ignored member, at the deepest point, at middle
/// depths, on both sides of the first stack's 1 024 levels and near the
/// top: the error named is that defect, at its byte, in serde_json's
/// category, whatever the brackets further on.
#[test]
#[cfg_attr(miri, ignore)]
fn one_defect_at_any_depth_is_the_error_named() {
    let depths = if cfg!(miri) {
        vec![1025]
    } else {
        vec![1000, 1100, 5000]
    };
    for n in depths {
        let levels = [1, 2, n / 2, 1023, 1024, 1025, 1030, n - 1, n];
        for shape in [PLAIN, MIXED, OBJECTS] {
            let deep = shape.build(n);
            for &l in levels.iter().filter(|&&l| l >= 1 && l <= n) {
                for defect in [
                    Defect::WrongCloser(l),
                    Defect::MissingCloser(l),
                    Defect::TrailingComma(l),
                    Defect::BadNumber(l, b"01"),
                    Defect::BadNumber(l, b"1."),
                    Defect::BadNumber(l, b"-"),
                    Defect::BadNumber(l, b"2e+"),
                    Defect::MissingComma(l),
                    Defect::NumberKey(l),
                    Defect::MissingColon(l),
                ] {
                    let Some(value) = deep.with(defect) else {
                        continue;
                    };
                    for place in IGNORED {
                        let got = check(place, &value, &[61]);
                        assert!(got.is_err(), "{place:?} {n} {shape:?} {defect:?}: accepted");
                    }
                }
            }
            // Missing closers at the end: the input ends inside the value,
            // anywhere: inside a number too, where serde_json's ignore path
            // names `-`, `1.` or `1e` cut short by the end `invalid number`
            // (a syntax error) and `Eof` elsewhere (`agree` holds the
            // category and the position to the reference's).
            for cut in [1, n / 2, n, n + 1, deep.text.len() / 2, deep.text.len() - 1] {
                for place in IGNORED {
                    let whole = place.wrap(&deep.text);
                    let bytes = &whole[..place.around().0.len() + cut];
                    let got = check_bytes(place, bytes, &[61, usize::MAX]);
                    assert!(
                        matches!(got.map_err(|e| e.kind()), Err(K::Eof | K::InvalidNumber)),
                        "{place:?} {n} {shape:?} cut {cut}: {got:?}"
                    );
                }
            }
        }
    }
}

/// The defect named is the first in reading order: a defect deep in the
/// member (past the first stack's levels) before a mismatched bracket
/// further on, at a shallower level. This was a bracket near the end, or a
/// `MismatchedBracket` after serde_json's `expected ':'`.
#[test]
#[cfg_attr(miri, ignore)]
fn the_first_of_two_defects_is_named() {
    let n = 5000;
    let deep = MIXED.build(n);
    for (deep_level, shallow_level) in [(3000, 1000), (4999, 2), (1500, 1100), (2000, 1025)] {
        for first in [
            Defect::MissingColon(deep_level),
            Defect::BadNumber(deep_level, b"1.e"),
            Defect::MissingComma(deep_level),
            Defect::NumberKey(deep_level),
            Defect::TrailingComma(deep_level),
        ] {
            let Some(mut value) = deep.with(first) else {
                continue;
            };
            // The shallow level's closer, counted from the end (the
            // first defect moved it by a few bytes).
            let from_end = deep.text.len() - deep.close[shallow_level - 1];
            let at = value.len() - from_end;
            value[at] = if value[at] == b']' { b'}' } else { b']' };
            let alone = deep.with(first).unwrap();
            for place in IGNORED {
                let both = check(place, &value, &[61, usize::MAX]).unwrap_err();
                let one = check(place, &alone, &[usize::MAX]).unwrap_err();
                assert_eq!(both, one, "{place:?} {first:?} then level {shallow_level}");
            }
        }
    }
}

/// Mismatched brackets more than 1 024 levels deep after a long
/// well-formed stretch: siblings of thousands of levels each, closed and
/// left, then a wrong closer, a trailing comma or a stray bracket.
#[test]
#[cfg_attr(miri, ignore)]
fn mismatches_deep_after_long_well_formed_stretches() {
    let inner = MIXED.build(3000).text;
    for depth in [1030, 2000, 4000] {
        for tail in [&b"}"[..], b",]", b"]]", b",}", b"[}", b"{]"] {
            let mut value = vec![b'['; depth];
            for _ in 0..3 {
                value.extend_from_slice(&inner);
                value.push(b',');
            }
            value.extend_from_slice(&inner);
            let at = value.len();
            value.extend_from_slice(tail);
            value.extend(std::iter::repeat_n(b']', depth));
            for place in IGNORED {
                let e = check(place, &value, &[61, usize::MAX]).unwrap_err();
                let before = place.around().0.len() - usize::from(place.framed());
                assert!(
                    e.offset() >= before + at,
                    "{place:?} {depth} {:?}: {e:?} before the tail",
                    std::str::from_utf8(tail)
                );
            }
        }
    }
}

/// 70 000 levels, broken at the deepest point and on the way back up,
/// past the hosts' 65 536-level deep window.
#[test]
#[cfg_attr(miri, ignore)]
fn seventy_thousand_levels_broken() {
    let n = 70_000;
    let deep = PLAIN.build(n);
    for l in [n, 65_537, 65_536, 40_000, 4_464, 1025, 1] {
        for defect in [
            Defect::WrongCloser(l),
            Defect::TrailingComma(l),
            Defect::BadNumber(l, b"01"),
        ] {
            let value = deep.with(defect).unwrap();
            for place in IGNORED {
                assert!(
                    check(place, &value, &[4096]).is_err(),
                    "{place:?} {defect:?}"
                );
            }
        }
    }
    let mixed = MIXED.build(n);
    for l in [n - 1, 66_000, 30_000, 1] {
        for defect in [Defect::MissingComma(l), Defect::NumberKey(l)] {
            let value = mixed.with(defect).unwrap();
            assert!(check(Place::Result, &value, &[4096]).is_err(), "{defect:?}");
        }
    }
}
