//! Response frames: one tag byte, then JSON.
//!
//! ```text
//!  0      1                                   n
//! +------+------------------------------------+
//! | tag  | JSON body, to the end of the frame |
//! +------+------------------------------------+
//!
//!  tag  body                        view
//!  0    ReadResourceResult JSON     Frame::Result(ResultView)
//!  1    ErrorData JSON              Frame::Error(ErrorView)
//!  any other byte                   FrameError::UnknownTag
//!  (no bytes at all)                FrameError::Empty
//! ```
//!
//! The wire is specified in the provider protocol's
//! `/mcp/read-resource/{channel}` page (revision 2.3.0); the request that
//! asks for a frame is [`RequestView`](crate::RequestView).

use core::fmt;

use crate::error::FrameError;
use crate::view::error::ErrorView;
use crate::view::result::ResultView;

/// Tag byte of a result frame.
pub const RESULT_TAG: u8 = 0;

/// Tag byte of an error frame.
pub const ERROR_TAG: u8 = 1;

/// Which kind of frame a tag byte announces.
///
/// # Examples
///
/// ```
/// use diverge_frame::{Frame, Tag, ERROR_TAG};
///
/// let raw = Frame::split(b"\x01{\"code\":-32002,\"message\":\"not found\"}")?;
/// assert_eq!(raw.tag(), Tag::Error);
/// assert_eq!(raw.tag().byte(), ERROR_TAG);
/// assert_eq!(u8::from(Tag::Result), 0);
/// # Ok::<(), diverge_frame::FrameError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Tag {
    /// [`RESULT_TAG`]: a `ReadResourceResult` follows.
    Result,
    /// [`ERROR_TAG`]: an `ErrorData` follows.
    Error,
}

impl Tag {
    /// The tag's byte on the wire.
    #[must_use]
    pub const fn byte(self) -> u8 {
        match self {
            Self::Result => RESULT_TAG,
            Self::Error => ERROR_TAG,
        }
    }

    /// The tag a byte stands for, if any.
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::Tag;
    ///
    /// assert_eq!(Tag::from_byte(0), Some(Tag::Result));
    /// assert_eq!(Tag::from_byte(1), Some(Tag::Error));
    /// assert_eq!(Tag::from_byte(b'{'), None);
    /// ```
    #[must_use]
    pub const fn from_byte(byte: u8) -> Option<Self> {
        match byte {
            RESULT_TAG => Some(Self::Result),
            ERROR_TAG => Some(Self::Error),
            _ => None,
        }
    }
}

impl TryFrom<u8> for Tag {
    type Error = FrameError;

    /// [`Tag::from_byte`], with the error [`Frame::split`] gives for the
    /// byte.
    ///
    /// # Errors
    ///
    /// [`FrameError::UnknownTag`] for a byte other than [`RESULT_TAG`] or
    /// [`ERROR_TAG`].
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::{FrameError, Tag};
    ///
    /// assert_eq!(Tag::try_from(1), Ok(Tag::Error));
    /// assert_eq!(Tag::try_from(7), Err(FrameError::UnknownTag(7)));
    /// ```
    fn try_from(byte: u8) -> Result<Self, FrameError> {
        Self::from_byte(byte).ok_or(FrameError::UnknownTag(byte))
    }
}

impl From<Tag> for u8 {
    /// [`Tag::byte`].
    fn from(tag: Tag) -> Self {
        tag.byte()
    }
}

/// A frame split into its tag and its (not yet validated) JSON.
///
/// Made by [`Frame::split`] in O(1). A relay that only forwards frames needs
/// nothing more; [`decode`](Self::decode) continues to a validated [`Frame`].
///
/// # Examples
///
/// ```
/// use diverge_frame::{Frame, Tag};
///
/// let bytes = b"\x00{\"contents\":[]}";
/// let raw = Frame::split(bytes)?; // O(1): only the tag byte is read
/// assert_eq!(raw.tag(), Tag::Result);
/// assert_eq!(raw.json(), b"{\"contents\":[]}");
/// assert_eq!(raw.as_bytes(), bytes); // forward it unchanged
/// let Frame::Result(result) = raw.decode()? else { panic!("expected a result") };
/// assert_eq!(result.contents().len(), 0);
/// # Ok::<(), diverge_frame::FrameError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct RawFrame<'a> {
    tag: Tag,
    bytes: &'a [u8],
}

impl<'a> RawFrame<'a> {
    /// The frame's tag.
    #[must_use]
    pub const fn tag(&self) -> Tag {
        self.tag
    }

    /// The JSON after the tag byte, unchecked.
    #[must_use]
    pub fn json(&self) -> &'a [u8] {
        self.bytes.get(1..).unwrap_or_default()
    }

    /// The whole frame, tag byte included, for forwarding unchanged.
    #[must_use]
    pub const fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Validates the JSON and gives the frame's view.
    ///
    /// # Errors
    ///
    /// [`FrameError::Body`] when the reference would reject the JSON; its
    /// offset counts from the tag byte.
    pub fn decode(self) -> Result<Frame<'a>, FrameError> {
        let json = self.json();
        let shifted = |e: crate::BodyError| FrameError::Body(e.shifted(1));
        match self.tag {
            Tag::Result => ResultView::decode_body(json)
                .map(Frame::Result)
                .map_err(shifted),
            Tag::Error => ErrorView::decode_body(json)
                .map(Frame::Error)
                .map_err(shifted),
        }
    }
}

impl fmt::Debug for RawFrame<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RawFrame")
            .field("tag", &self.tag)
            .field("json_bytes", &self.json().len())
            .finish()
    }
}

/// A validated response frame: a result or an error, as borrowed views.
///
/// # Examples
///
/// ```
/// use diverge_frame::{Frame, Tag};
///
/// let frame = Frame::decode(b"\x01{\"code\":-32002,\"message\":\"not found\"}")?;
/// assert_eq!(frame.tag(), Tag::Error);
/// match frame {
///     Frame::Result(result) => panic!("unexpected result: {result}"),
///     Frame::Error(error) => {
///         assert_eq!(error.code(), -32002);
///         assert!(error.message() == "not found");
///     }
/// }
/// # Ok::<(), diverge_frame::FrameError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Frame<'a> {
    /// Tag `0`: the resource's contents.
    Result(ResultView<'a>),
    /// Tag `1`: the server refused or could not answer.
    Error(ErrorView<'a>),
}

impl<'a> Frame<'a> {
    /// Splits the tag byte from the JSON without reading the JSON (O(1)).
    ///
    /// # Errors
    ///
    /// [`FrameError::Empty`] for no bytes; [`FrameError::UnknownTag`] for a
    /// first byte other than [`RESULT_TAG`] or [`ERROR_TAG`].
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::{Frame, FrameError, Tag};
    ///
    /// let raw = Frame::split(b"\x01{\"code\":-32002,\"message\":\"nope\"}")?;
    /// assert_eq!(raw.tag(), Tag::Error);
    /// assert_eq!(raw.json().first(), Some(&b'{'));
    /// assert_eq!(Frame::split(b""), Err(FrameError::Empty));
    /// assert_eq!(Frame::split(b"\x07{}"), Err(FrameError::UnknownTag(7)));
    /// # Ok::<(), FrameError>(())
    /// ```
    pub fn split(bytes: &'a [u8]) -> Result<RawFrame<'a>, FrameError> {
        let (&tag, _) = bytes.split_first().ok_or(FrameError::Empty)?;
        let tag = Tag::from_byte(tag).ok_or(FrameError::UnknownTag(tag))?;
        Ok(RawFrame { tag, bytes })
    }

    /// Splits and validates a frame: the reference's decode, without a heap.
    ///
    /// Accepts exactly the frames that splitting the tag and then
    /// `serde_json::from_slice` into `rmcp::model::ReadResourceResult` /
    /// `rmcp::ErrorData` accepts.
    ///
    /// # Errors
    ///
    /// [`FrameError::Empty`], [`FrameError::UnknownTag`], or
    /// [`FrameError::Body`] with the offset (from the tag byte) of the first
    /// defect.
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::{BodyErrorKind, Frame, FrameError};
    ///
    /// let frame = Frame::decode(b"\x00{\"contents\":[{\"uri\":\"docs://a\",\"text\":\"hi\"}]}")?;
    /// let Frame::Result(result) = frame else { panic!("expected a result") };
    /// assert_eq!(result.contents().len(), 1);
    ///
    /// assert_eq!(Frame::decode(b""), Err(FrameError::Empty));
    /// assert_eq!(Frame::decode(b"\x02{}"), Err(FrameError::UnknownTag(2)));
    /// let Err(FrameError::Body(err)) = Frame::decode(b"\x00{}") else { panic!() };
    /// assert_eq!(err.kind(), BodyErrorKind::MissingField);
    /// # Ok::<(), FrameError>(())
    /// ```
    pub fn decode(bytes: &'a [u8]) -> Result<Self, FrameError> {
        Self::split(bytes)?.decode()
    }

    /// The frame's tag.
    #[must_use]
    pub const fn tag(&self) -> Tag {
        match self {
            Self::Result(_) => Tag::Result,
            Self::Error(_) => Tag::Error,
        }
    }
}

impl fmt::Display for Frame<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Result(r) => fmt::Display::fmt(r, f),
            Self::Error(e) => fmt::Display::fmt(e, f),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use crate::{BodyErrorKind, FrameError};

    #[test]
    fn split_is_o1_and_checks_only_the_tag() {
        let raw = Frame::split(b"\x00not json at all").unwrap();
        assert_eq!(
            (raw.tag(), raw.json()),
            (Tag::Result, &b"not json at all"[..])
        );
        assert_eq!(raw.as_bytes().len(), 16);
        assert_eq!(Frame::split(b"\x01").unwrap().json(), b"");
        assert_eq!(Frame::split(b""), Err(FrameError::Empty));
        assert_eq!(Frame::split(b"{"), Err(FrameError::UnknownTag(b'{')));
    }

    #[test]
    fn body_offsets_count_from_the_tag_byte() {
        let err = Frame::decode(b"\x01{\"code\":1.5,\"message\":\"m\"}").unwrap_err();
        let FrameError::Body(e) = err else {
            panic!("{err:?}")
        };
        assert_eq!((e.kind(), e.offset()), (BodyErrorKind::InvalidType, 9));
        let err = Frame::decode(b"\x00").unwrap_err();
        assert_eq!(
            err,
            FrameError::Body(crate::BodyError::new(BodyErrorKind::Eof, 1))
        );
    }

    #[test]
    fn tags_round_trip() {
        for tag in [Tag::Result, Tag::Error] {
            assert_eq!(Tag::from_byte(tag.byte()), Some(tag));
        }
        assert_eq!(Tag::from_byte(2), None);
    }

    #[test]
    fn public_types_are_small_copy_send_sync() {
        fn assert_traits<T: Copy + Send + Sync + 'static>() {}
        assert_traits::<FrameError>();
        assert_traits::<crate::BodyError>();
        assert_traits::<Frame<'static>>();
        assert_traits::<RawFrame<'static>>();
        assert_traits::<crate::RequestView<'static>>();
        assert_traits::<crate::Content<'static>>();
        assert_traits::<crate::JsonStr<'static>>();
        assert_traits::<crate::RawJson<'static>>();
        assert!(core::mem::size_of::<FrameError>() <= 24);
        assert!(core::mem::size_of::<crate::BodyError>() <= 16);
    }
}
