//! [`RequestView`]: the ask, the JSON of rmcp's `ReadResourceRequestParams`.

use core::fmt;

use super::{Fields, RawFields};
use crate::error::{BodyError, Detail};
use crate::json::borrowed::{JsonStr, RawJson};
use crate::json::cursor::Cursor;
use crate::json::event::Field;
use crate::json::shape::{self, REQUEST_KEYS};

/// A validated read-resource request: `{"uri": …, "_meta"?: …}` plus the
/// draft `inputResponses` / `requestState` fields.
///
/// # Examples
///
/// ```
/// use diverge_frame::RequestView;
///
/// let req = RequestView::decode(br#"{"_meta":{"progressToken":7},"uri":"docs://readme"}"#)?;
/// assert_eq!(req.uri().as_str(), Some("docs://readme"));
/// assert_eq!(req.meta().map(|m| m.as_bytes()), Some(&br#"{"progressToken":7}"#[..]));
/// assert!(req.request_state().is_none());
/// # Ok::<(), diverge_frame::BodyError>(())
/// ```
///
/// `==` compares the request's JSON text as it stands, byte for byte, as
/// [`RawJson`]'s does: two spellings of one value are two views. Compare
/// the accessors for values (a [`JsonStr`] compares its unescaped text).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct RequestView<'a> {
    json: &'a [u8],
    uri: JsonStr<'a>,
    meta: Option<RawJson<'a>>,
    input_responses: Option<RawJson<'a>>,
    request_state: Option<JsonStr<'a>>,
}

impl<'a> RequestView<'a> {
    /// Validates request JSON exactly as
    /// `serde_json::from_slice::<rmcp::model::ReadResourceRequestParams>` does,
    /// without allocating.
    ///
    /// # Errors
    ///
    /// [`BodyError`] with the offset of the first defect, for every input
    /// the reference rejects (and no other).
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::{BodyErrorKind, RequestView};
    ///
    /// let req = RequestView::decode(br#"{"uri":"docs://readme","requestState":"s1"}"#)?;
    /// assert!(req.uri() == "docs://readme");
    /// assert_eq!(req.request_state().and_then(|s| s.as_str()), Some("s1"));
    ///
    /// let err = RequestView::decode(br#"{"uri":7}"#).unwrap_err();
    /// assert_eq!((err.kind(), err.field()), (BodyErrorKind::InvalidType, Some("uri")));
    /// # Ok::<(), diverge_frame::BodyError>(())
    /// ```
    pub fn decode(json: &'a [u8]) -> Result<Self, BodyError> {
        Self::decode_with(json, &mut ())
    }

    /// [`decode`](Self::decode), handing `_meta` and `inputResponses` to
    /// `raw` (the `alloc` builder builds their `Value`s as it checks them).
    #[inline(always)]
    pub(crate) fn decode_with<R: RawFields<'a>>(
        json: &'a [u8],
        raw: &mut R,
    ) -> Result<Self, BodyError> {
        let mut s = Cursor::new(json);
        let mut uri = None;
        let mut meta = None;
        let mut input_responses = None;
        let mut request_state = None;
        let mut fields = Fields::open(&mut s, Detail::REQUEST)?;
        while let Some(i) = fields.next(&mut s, REQUEST_KEYS)? {
            match i {
                0 => meta = raw.raw(&mut s, Field::ReqMeta)?,
                1 => uri = s.string_field(Field::ReqUri)?,
                2 => input_responses = raw.raw(&mut s, Field::InputResponses)?,
                _ => request_state = s.string_field(Field::RequestState)?,
            }
        }
        let Some(uri) = uri else {
            let at = s.pos.saturating_sub(1);
            return Err(shape::missing(Detail::REQUEST, fields.seen(), at));
        };
        s.end()?;
        Ok(Self {
            json,
            uri,
            meta,
            input_responses,
            request_state,
        })
    }

    /// The resource's URI.
    #[must_use]
    pub const fn uri(&self) -> JsonStr<'a> {
        self.uri
    }

    /// The request's `_meta` object, if present and not `null`.
    #[must_use]
    pub const fn meta(&self) -> Option<RawJson<'a>> {
        self.meta
    }

    /// The draft `inputResponses` object, if present and not `null`.
    #[must_use]
    pub const fn input_responses(&self) -> Option<RawJson<'a>> {
        self.input_responses
    }

    /// The draft `requestState` string, if present and not `null`.
    #[must_use]
    pub const fn request_state(&self) -> Option<JsonStr<'a>> {
        self.request_state
    }

    /// The whole request JSON, as decoded.
    #[must_use]
    pub const fn json(&self) -> &'a [u8] {
        self.json
    }
}

impl fmt::Debug for RequestView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RequestView")
            .field("uri", &self.uri)
            .field("meta", &self.meta)
            .field("input_responses", &self.input_responses)
            .field("request_state", &self.request_state)
            .finish()
    }
}

impl fmt::Display for RequestView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "read-resource request for {} ({} bytes)",
            self.uri,
            self.json.len()
        )
    }
}
