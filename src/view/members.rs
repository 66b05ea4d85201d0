//! [`RawJson::members`]: the members of a validated object, for the views.
//!
//! On hosts by the walker over validated text ([`next_member`]); on
//! microcontrollers by the scanner's lexemes, which every decode links.

use core::iter::FusedIterator;

use crate::json::borrowed::{JsonStr, RawJson};
use crate::json::cursor::Cursor;
use crate::json::validated::next_member;

impl<'a> RawJson<'a> {
    /// The members of an object value, lazily, in input order (duplicates
    /// included: the reference keeps the last one). Empty for other values.
    #[must_use]
    pub fn members(&self) -> Members<'a> {
        let rest = match self.as_bytes().split_first() {
            // Microcontrollers' walk starts at the brace (see `Members`).
            Some((b'{', rest)) => {
                if crate::json::find::HOST {
                    rest
                } else {
                    self.as_bytes()
                }
            }
            _ => &[],
        };
        Members { rest }
    }

    /// The last member named `key` of an object value (the one the reference
    /// keeps), compared after unescaping.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<Self> {
        self.members()
            .filter(|(k, _)| *k == key)
            .last()
            .map(|(_, v)| v)
    }
}

/// Iterator over the members of an object [`RawJson`]: `(key, value)`.
///
/// # Examples
///
/// ```
/// use diverge_frame::RequestView;
///
/// let req = RequestView::decode(br#"{"uri":"docs://a","_meta":{"progressToken":7,"trace":"on"}}"#)?;
/// let meta = req.meta().expect("the request has a _meta");
/// let mut members = meta.members();
/// let (key, value) = members.next().expect("a first member");
/// assert!(key == "progressToken");
/// assert_eq!(value.as_bytes(), b"7");
/// assert_eq!(members.map(|(key, _)| key).collect::<Vec<_>>(), ["trace"]);
/// # Ok::<(), diverge_frame::BodyError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Members<'a> {
    rest: &'a [u8],
}

impl<'a> Iterator for Members<'a> {
    type Item = (JsonStr<'a>, RawJson<'a>);

    /// On hosts with the walker over validated text; on microcontrollers
    /// with the scanner, as `Content`s are read there.
    fn next(&mut self) -> Option<Self::Item> {
        let (key, value, rest) = if crate::json::find::HOST {
            next_member(self.rest)?
        } else {
            scan_member(self.rest)?
        };
        self.rest = rest;
        Some((key, value))
    }
}

impl FusedIterator for Members<'_> {}

/// Microcontrollers' [`next_member`], by the scanner: `b` is an
/// object from its `{` (before the first member) or the bytes after a
/// member; the member, and the bytes after it. The text was validated, so
/// no rule is checked here: a `{` or `,`, a key, its colon, a value.
fn scan_member(b: &[u8]) -> Option<(JsonStr<'_>, RawJson<'_>, &[u8])> {
    let mut s = Cursor::new(b);
    if let b'{' | b',' = s.ws()? {
        s.pos += 1;
    }
    if s.ws()? != b'"' {
        return None;
    }
    let key = s.key_text(false).ok()?;
    s.colon().ok()?;
    s.ws();
    // Every `RawJson` was checked as a `Value` (`value_full`), so each
    // member's value passes that check again, within the depth limit.
    let value = s.value_full(0).ok()?;
    Some((key, value, b.get(s.pos..)?))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]
mod tests {
    extern crate std;
    use super::*;

    /// The microcontrollers' member walk (the scanner over validated text)
    /// gives the members the hosts' walker gives, and ends where it ends.
    #[test]
    fn members_by_the_scanner_equal_the_walkers() {
        let objects: [&[u8]; 6] = [
            b"{}",
            b"{ }",
            br#"{"a":1}"#,
            br#"{ "a" : [ 1 , { "b" : null } ] , "\u0063" : "x\"y" , "d" : -0.5e-3 , "a" : true }"#,
            br#"{"k":{"k":{"k":{}}},"e":"","f":false,"n":null}"#,
            b"{\"a\":[[[[\"deep\"]]]],\"b\":\"caf\xc3\xa9\"}",
        ];
        // The deepest member a `Value` may hold: 126 levels below the object.
        let deepest = [&b"{\"d\":"[..], &[b'['; 126], &[b']'; 126], b",\"e\":0}"].concat();
        for object in objects.into_iter().chain([&deepest[..]]) {
            Cursor::new(object).value_full(0).unwrap();
            let (mut a, mut b) = (&object[1..], object);
            loop {
                let x = next_member(a);
                let y = scan_member(b);
                assert_eq!(
                    x.map(|(k, v, _)| (k, v)),
                    y.map(|(k, v, _)| (k, v)),
                    "{:?}",
                    std::str::from_utf8(object)
                );
                match (x, y) {
                    (Some((_, _, ra)), Some((_, _, rb))) => {
                        assert_eq!(ra, rb);
                        (a, b) = (ra, rb);
                    }
                    _ => break,
                }
            }
        }
    }

    #[test]
    fn raw_json_members_keep_input_order_and_last_wins() {
        let v = RawJson::new(br#"{"a":1, "b" : [1,{"c":2}] ,"a":"x"}"#);
        let keys: heapless::Vec<_, 4> = v.members().map(|(k, _)| k.raw()).collect();
        assert_eq!(keys.as_slice(), [b"a".as_slice(), b"b", b"a"]);
        assert_eq!(v.get("a").unwrap().as_bytes(), br#""x""#);
        assert_eq!(v.get("b").unwrap().as_bytes(), br#"[1,{"c":2}]"#);
        assert!(v.get("c").is_none());
        assert_eq!(RawJson::new(b"[1]").members().count(), 0);
    }
}
