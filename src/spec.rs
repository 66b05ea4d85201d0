//! Opt-in checks of what the MCP spec asks of a read-resource exchange and
//! the reference (rmcp) does not enforce.
//!
//! Decoding stays exactly as permissive as the reference; these checks are a
//! separate, explicit step: `check_spec()` on a decoded [`ResultView`],
//! [`ErrorView`], [`RequestView`] or [`Frame`], and the strict constructors
//! of the [encoders](crate::encode) (which report [`EncodeError::Spec`](crate::encode::EncodeError::Spec)).
//! Each reports the **first** failure as a [`SpecError`] naming the content
//! item (by index) and the field; the checked view says where that value is
//! (`spec_offset`, e.g. [`Frame::spec_offset`]).
//!
//! | check | rule | reference |
//! |---|---|---|
//! | shape | a request or result body is a JSON object, not serde's positional array form | accepts `[..]` |
//! | `resultType` | one of [`RESULT_TYPES`] (`complete`, `input_required`, `task`, rmcp's named values) | any string |
//! | `cacheScope` | written as `"public"` or `"private"` | also `""` and `{"public":null}` |
//! | content `uri` / request `uri` | an absolute URI, RFC 3986 syntax ([`is_absolute_uri`]) | any string |
//! | `mimeType` | a media type, `type/subtype` plus optional parameters, RFC 9110 ([`is_media_type`]) | any string |
//! | `text` / `blob` | exactly one per item | keeps `text`, drops `blob` silently |
//! | `blob` | standard base64 ([`is_base64`]) | any string |
//! | error `code` | a known code ([`is_known_error_code`]) | any `i32` |
//!
//! An explicit `null` for an optional field (`mimeType`, `_meta`,
//! `cacheScope`, ...) reads as absent, in the reference and here, and is
//! not flagged.

pub use crate::check::{
    INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR,
    RESOURCE_NOT_FOUND, RESULT_TYPES, SERVER_ERRORS, SpecError, SpecErrorKind, is_absolute_uri,
    is_base64, is_known_error_code, is_known_result_type, is_media_type,
};

use crate::check::{check_base64, check_error_code, check_mime_type, check_result_type, check_uri};
use crate::frame::Frame;
use crate::json::borrowed::JsonStr;
use crate::json::validated;
use crate::json::validated::next_member;
use crate::view::error::ErrorView;
use crate::view::request::RequestView;
use crate::view::result::{Body, ResultView};

// ----- checks on decoded views -------------------------------------------

/// Whether a body's top-level value is an object (not the positional form).
fn object_form(json: &[u8]) -> Result<(), SpecError> {
    match validated::ws(json).first() {
        Some(b'{') => Ok(()),
        _ => Err(SpecError::new(SpecErrorKind::PositionalForm, None)),
    }
}

/// The value of the member `key` of a top-level object (the last one, as
/// the reference reads it).
fn member<'a>(object: &'a [u8], key: &str) -> Option<&'a [u8]> {
    let mut rest = validated::ws(object).get(1..).unwrap_or_default();
    let mut found = None;
    while let Some((k, v, next)) = next_member(rest) {
        rest = next;
        if k == key {
            found = Some(v.as_bytes());
        }
    }
    found
}

/// Where `part`, a slice of `json`, starts in it.
fn offset_in(json: &[u8], part: &[u8]) -> usize {
    part.as_ptr().addr().wrapping_sub(json.as_ptr().addr())
}

/// Where the string `s`, a string of `json`, starts in it: its opening
/// quote.
fn string_at(json: &[u8], s: JsonStr<'_>) -> usize {
    offset_in(json, s.raw()).wrapping_sub(1)
}

/// Where a positional-form body's value starts: after its whitespace.
fn form_at(json: &[u8]) -> usize {
    json.len() - validated::ws(json).len()
}

impl ResultView<'_> {
    /// Runs the [spec checks](crate::spec) on a decoded result: object form,
    /// `resultType`, `cacheScope`, then each content item in order (`uri`,
    /// `mimeType`, one of `text`/`blob` — rescanning the item's JSON, since
    /// the reference hides a dropped `blob` — and base64 of `blob`).
    ///
    /// # Errors
    ///
    /// The first failure, as a [`SpecError`] with the item index and field.
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::spec::SpecErrorKind;
    /// use diverge_frame::Frame;
    ///
    /// let bytes = b"\x00{\"contents\":[{\"uri\":\"docs://a\",\"text\":\"t\"},{\"uri\":\"docs://b\",\"text\":\"t\",\"blob\":\"AA==\"}]}";
    /// let Frame::Result(result) = Frame::decode(bytes)? else { unreachable!() };
    /// let err = result.check_spec().unwrap_err();
    /// assert_eq!(err.kind(), SpecErrorKind::BothTextAndBlob);
    /// assert_eq!(err.item(), Some(1));
    /// # Ok::<(), diverge_frame::FrameError>(())
    /// ```
    pub fn check_spec(&self) -> Result<(), SpecError> {
        let json = self.json();
        object_form(json)?;
        if let Some(rt) = self.result_type() {
            check_result_type(rt.into())?;
        }
        if let Some(scope) = member(json, "cacheScope")
            && !matches!(scope, b"null" | b"\"public\"" | b"\"private\"")
        {
            // Escaped spellings of the two names are still the names.
            let name = scope
                .strip_prefix(b"\"")
                .and_then(|s| s.strip_suffix(b"\""));
            let named = name.is_some_and(|n| {
                let s = JsonStr::new(n, n.contains(&b'\\'));
                s == "public" || s == "private"
            });
            if !named {
                return Err(SpecError::new(SpecErrorKind::UnknownCacheScope, None));
            }
        }
        for (i, item) in self.contents().enumerate() {
            check_uri(item.uri().into(), Some(i))?;
            if let Some(mime) = item.mime_type() {
                check_mime_type(mime.into(), Some(i))?;
            }
            let mut rest = item.json().get(1..).unwrap_or_default();
            let (mut text, mut blob) = (false, false);
            while let Some((key, _, next)) = next_member(rest) {
                rest = next;
                text |= key == "text";
                blob |= key == "blob";
            }
            if text && blob {
                return Err(SpecError::new(SpecErrorKind::BothTextAndBlob, Some(i)));
            }
            if let Body::Blob(b) = item.body() {
                check_base64(b.into(), Some(i))?;
            }
        }
        Ok(())
    }
}

impl ErrorView<'_> {
    /// Runs the [spec checks](crate::spec) on a decoded error: object form,
    /// then [`is_known_error_code`].
    ///
    /// # Errors
    ///
    /// The first failure, as a [`SpecError`].
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::Frame;
    ///
    /// let Frame::Error(e) = Frame::decode(b"\x01{\"code\":404,\"message\":\"nf\"}")? else { unreachable!() };
    /// assert_eq!(e.check_spec().unwrap_err().field(), Some("code"));
    /// # Ok::<(), diverge_frame::FrameError>(())
    /// ```
    pub fn check_spec(&self) -> Result<(), SpecError> {
        object_form(self.json())?;
        check_error_code(self.code())
    }
}

impl RequestView<'_> {
    /// Runs the [spec checks](crate::spec) on a decoded request: object form,
    /// then an absolute `uri`.
    ///
    /// # Errors
    ///
    /// The first failure, as a [`SpecError`].
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::RequestView;
    ///
    /// assert!(RequestView::decode(br#"{"uri":"docs://a"}"#)?.check_spec().is_ok());
    /// assert!(RequestView::decode(br#"{"uri":"a b"}"#)?.check_spec().is_err());
    /// # Ok::<(), diverge_frame::BodyError>(())
    /// ```
    pub fn check_spec(&self) -> Result<(), SpecError> {
        object_form(self.json())?;
        check_uri(self.uri().into(), None)
    }
}

impl Frame<'_> {
    /// [`ResultView::check_spec`] or [`ErrorView::check_spec`], by tag.
    ///
    /// # Errors
    ///
    /// The first failure, as a [`SpecError`].
    pub fn check_spec(&self) -> Result<(), SpecError> {
        match self {
            Self::Result(r) => r.check_spec(),
            Self::Error(e) => e.check_spec(),
        }
    }
}

impl ResultView<'_> {
    /// Where the value a [`SpecError`] of [`check_spec`](Self::check_spec)
    /// names is: its byte offset in [`json`](Self::json) (a string's
    /// opening quote, an item's `{` for
    /// [`BothTextAndBlob`](SpecErrorKind::BothTextAndBlob)). `None` for an
    /// error this view's check would not give (another item, another
    /// field). Found when asked, so that the error stays small.
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::ResultView;
    ///
    /// let json = br#"{"contents":[{"uri":"a:b","text":""},{"uri":"no scheme","text":""}]}"#;
    /// let view = ResultView::decode(json)?;
    /// let err = view.check_spec().unwrap_err();
    /// let at = view.spec_offset(&err).unwrap();
    /// assert_eq!(&json[at..at + 11], br#""no scheme""#);
    /// # Ok::<(), diverge_frame::BodyError>(())
    /// ```
    #[must_use]
    pub fn spec_offset(&self, e: &SpecError) -> Option<usize> {
        let json = self.json();
        let item = || e.item().and_then(|i| self.contents().nth(i));
        match e.kind() {
            SpecErrorKind::PositionalForm => Some(form_at(json)),
            SpecErrorKind::UnknownResultType => self.result_type().map(|t| string_at(json, t)),
            SpecErrorKind::UnknownCacheScope => {
                member(json, "cacheScope").map(|v| offset_in(json, v))
            }
            SpecErrorKind::NotAbsoluteUri => item().map(|c| string_at(json, c.uri())),
            SpecErrorKind::InvalidMimeType => item()
                .and_then(|c| c.mime_type())
                .map(|m| string_at(json, m)),
            SpecErrorKind::BothTextAndBlob => item().map(|c| offset_in(json, c.json())),
            SpecErrorKind::InvalidBase64 => item().and_then(|c| match c.body() {
                Body::Blob(b) => Some(string_at(json, b.text())),
                Body::Text(_) => None,
            }),
            _ => None,
        }
    }
}

impl ErrorView<'_> {
    /// Where the value a [`SpecError`] of [`check_spec`](Self::check_spec)
    /// names is, in [`json`](Self::json): the body for
    /// [`PositionalForm`](SpecErrorKind::PositionalForm), the `code` for
    /// [`UnknownErrorCode`](SpecErrorKind::UnknownErrorCode); `None` for
    /// another error.
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::ErrorView;
    ///
    /// let json = br#"{"code": 404,"message":"nf"}"#;
    /// let view = ErrorView::decode(json)?;
    /// let err = view.check_spec().unwrap_err();
    /// assert_eq!(view.spec_offset(&err), Some(9));
    /// # Ok::<(), diverge_frame::BodyError>(())
    /// ```
    #[must_use]
    pub fn spec_offset(&self, e: &SpecError) -> Option<usize> {
        let json = self.json();
        match e.kind() {
            SpecErrorKind::PositionalForm => Some(form_at(json)),
            SpecErrorKind::UnknownErrorCode => member(json, "code").map(|v| offset_in(json, v)),
            _ => None,
        }
    }
}

impl RequestView<'_> {
    /// Where the value a [`SpecError`] of [`check_spec`](Self::check_spec)
    /// names is, in [`json`](Self::json): the body for
    /// [`PositionalForm`](SpecErrorKind::PositionalForm), the `uri`'s
    /// opening quote for [`NotAbsoluteUri`](SpecErrorKind::NotAbsoluteUri);
    /// `None` for another error.
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::RequestView;
    ///
    /// let json = br#"{ "uri" : "not absolute" }"#;
    /// let view = RequestView::decode(json)?;
    /// let err = view.check_spec().unwrap_err();
    /// assert_eq!(view.spec_offset(&err), Some(10));
    /// # Ok::<(), diverge_frame::BodyError>(())
    /// ```
    #[must_use]
    pub fn spec_offset(&self, e: &SpecError) -> Option<usize> {
        let json = self.json();
        match e.kind() {
            SpecErrorKind::PositionalForm => Some(form_at(json)),
            SpecErrorKind::NotAbsoluteUri if e.item().is_none() => {
                Some(string_at(json, self.uri()))
            }
            _ => None,
        }
    }
}

impl Frame<'_> {
    /// Where the value a [`SpecError`] of [`check_spec`](Self::check_spec)
    /// names is, as a byte offset in the frame (the tag byte counted, as
    /// [`Frame::decode`]'s offsets are): the view's `spec_offset` plus one.
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::Frame;
    ///
    /// let bytes = b"\x00{\"contents\":[{\"uri\":\"no scheme\",\"text\":\"t\"}]}";
    /// let frame = Frame::decode(bytes)?;
    /// let err = frame.check_spec().unwrap_err();
    /// assert_eq!((err.item(), err.field()), (Some(0), Some("uri")));
    /// assert_eq!(frame.spec_offset(&err), Some(21));
    /// assert_eq!(&bytes[21..32], b"\"no scheme\"");
    /// # Ok::<(), diverge_frame::FrameError>(())
    /// ```
    #[must_use]
    pub fn spec_offset(&self, e: &SpecError) -> Option<usize> {
        match self {
            Self::Result(r) => r.spec_offset(e),
            Self::Error(v) => v.spec_offset(e),
        }
        .map(|at| at + 1)
    }
}

#[cfg(test)]
mod tests {
    use core::fmt;

    use super::*;

    #[test]
    fn result_checks_in_order() {
        let check = |json: &[u8]| -> Result<(), SpecError> {
            let mut frame: heapless::Vec<u8, 256> = heapless::Vec::new();
            frame.push(0).ok();
            frame.extend_from_slice(json).ok();
            match Frame::decode(&frame) {
                Ok(f) => f.check_spec(),
                Err(_) => Err(SpecError::new(SpecErrorKind::PositionalForm, Some(999))),
            }
        };
        let kind = |json: &[u8]| check(json).err().map(|e| (e.kind(), e.item()));
        assert_eq!(kind(br#"{"contents":[]}"#), None);
        assert_eq!(
            kind(br#"[null,null,null,[],null]"#),
            Some((SpecErrorKind::PositionalForm, None))
        );
        assert_eq!(
            kind(br#"{"resultType":"weird","contents":[]}"#),
            Some((SpecErrorKind::UnknownResultType, None))
        );
        assert_eq!(
            kind(br#"{"cacheScope":"","contents":[]}"#),
            Some((SpecErrorKind::UnknownCacheScope, None))
        );
        assert_eq!(
            kind(br#"{"cacheScope":{"public":null},"contents":[]}"#),
            Some((SpecErrorKind::UnknownCacheScope, None))
        );
        assert_eq!(kind(br#"{"cacheScope":"p\u0075blic","contents":[]}"#), None);
        assert_eq!(kind(br#"{"cacheScope":null,"contents":[]}"#), None);
        assert_eq!(
            kind(br#"{"contents":[{"uri":"a:b","text":"t"},{"uri":"rel","text":"t"}]}"#),
            Some((SpecErrorKind::NotAbsoluteUri, Some(1)))
        );
        assert_eq!(
            kind(br#"{"contents":[{"uri":"a:b","mimeType":"text","text":"t"}]}"#),
            Some((SpecErrorKind::InvalidMimeType, Some(0)))
        );
        assert_eq!(
            kind(br#"{"contents":[{"uri":"a:b","blob":"AAE=","text":"t"}]}"#),
            Some((SpecErrorKind::BothTextAndBlob, Some(0)))
        );
        assert_eq!(
            kind(br#"{"contents":[{"uri":"a:b","text":null,"blob":"AAE="}]}"#),
            Some((SpecErrorKind::BothTextAndBlob, Some(0)))
        );
        assert_eq!(
            kind(br#"{"contents":[{"uri":"a:b","blob":"not base64"}]}"#),
            Some((SpecErrorKind::InvalidBase64, Some(0)))
        );
        assert_eq!(
            kind(br#"{"contents":[{"uri":"a:b","blob":"AA\u003d="}]}"#),
            None
        );
        let e = SpecError::new(SpecErrorKind::InvalidBase64, Some(3));
        let mut s: heapless::String<64> = heapless::String::new();
        fmt::Write::write_fmt(&mut s, format_args!("{e}")).ok();
        assert_eq!(s.as_str(), "content item 3: `blob` is not valid base64");
    }
}
