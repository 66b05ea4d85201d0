//! [`FrameValidator`] and [`RequestValidator`]: the machine fed chunk by
//! chunk, with nothing read out.

use core::fmt;

use crate::error::{BodyError, FrameError};
use crate::frame::Tag;
use crate::json::event::Dyn;
use crate::json::find;
use crate::json::items::Items;
use crate::json::resume::{Kind, Machine};

/// Validates a response frame fed in chunks, as
/// [`Frame::decode`](crate::Frame::decode) validates it whole.
///
/// # Examples
///
/// ```
/// use diverge_frame::stream::FrameValidator;
/// use diverge_frame::{BodyErrorKind, FrameError};
///
/// // The same error, at the same offset, wherever the input is cut.
/// let bad = b"\x01{\"code\":1.5,\"message\":\"m\"}";
/// let whole = diverge_frame::Frame::decode(bad).unwrap_err();
/// let mut v = FrameValidator::new();
/// let mut got = Ok(());
/// for byte in bad.chunks(1) {
///     got = got.and(v.feed(byte));
/// }
/// let got = got.and_then(|()| v.finish().map(|_| ()));
/// assert_eq!(got, Err(whole));
/// let FrameError::Body(e) = whole else { unreachable!() };
/// assert_eq!((e.kind(), e.offset()), (BodyErrorKind::InvalidType, 9));
/// ```
///
/// `Debug` shows where it stands, not the machine inside:
///
/// ```
/// use diverge_frame::stream::FrameValidator;
///
/// let mut v = FrameValidator::new();
/// v.feed(b"\x00{\"contents\":[")?;
/// assert_eq!(format!("{v:?}"), "FrameValidator { tag: Some(Result), fed: 14, error: None }");
/// # Ok::<(), diverge_frame::FrameError>(())
/// ```
#[derive(Clone)]
pub struct FrameValidator {
    tag: Option<Tag>,
    pub(super) machine: Machine,
    error: Option<FrameError>,
}

impl fmt::Debug for FrameValidator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FrameValidator")
            .field("tag", &self.tag)
            .field("fed", &self.fed())
            .field("error", &self.error)
            .finish()
    }
}

impl Default for FrameValidator {
    fn default() -> Self {
        Self::new()
    }
}

impl FrameValidator {
    /// A validator before the frame's first byte.
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::stream::FrameValidator;
    /// use diverge_frame::Tag;
    ///
    /// let mut v = FrameValidator::new();
    /// assert_eq!((v.tag(), v.fed()), (None, 0));
    /// for chunk in b"\x00{\"contents\":[{\"uri\":\"docs://a\",\"text\":\"hi\"}]}".chunks(5) {
    ///     v.feed(chunk)?; // forward each chunk once it is accepted
    /// }
    /// assert_eq!(v.tag(), Some(Tag::Result));
    /// assert_eq!(v.finish()?, Tag::Result);
    /// # Ok::<(), diverge_frame::FrameError>(())
    /// ```
    #[must_use]
    pub const fn new() -> Self {
        Self {
            tag: None,
            machine: Machine::new(Kind::Result, 1),
            error: None,
        }
    }

    /// The frame's tag, once its first byte was fed.
    #[must_use]
    pub const fn tag(&self) -> Option<Tag> {
        self.tag
    }

    /// Bytes accepted so far, the tag byte included (after an error: those of
    /// the chunks before the one that failed).
    #[must_use]
    pub const fn fed(&self) -> usize {
        match self.tag {
            None => 0,
            Some(_) => self.machine.offset(),
        }
    }

    /// Feeds the next bytes of the frame.
    ///
    /// # Errors
    ///
    /// The [`FrameError`] that [`Frame::decode`](crate::Frame::decode) gives
    /// for the whole frame, as soon as these bytes decide it; then the same
    /// error from every later call.
    #[inline]
    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), FrameError> {
        if find::HOST && !self.machine.compact {
            self.step(chunk, false, &mut ())
        } else {
            self.step(chunk, false, &mut Dyn(None))
        }
    }

    /// Ends the frame.
    ///
    /// # Errors
    ///
    /// [`FrameError::Empty`] when nothing was fed, or the error of a frame
    /// that ended early (or of an earlier `feed`).
    pub fn finish(mut self) -> Result<Tag, FrameError> {
        if find::HOST && !self.machine.compact {
            self.step(&[], true, &mut ())?;
        } else {
            self.step(&[], true, &mut Dyn(None))?;
        }
        self.tag.ok_or(FrameError::Empty)
    }

    pub(crate) fn step<S: for<'c> Items<'c>>(
        &mut self,
        mut chunk: &[u8],
        eof: bool,
        sink: &mut S,
    ) -> Result<(), FrameError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        if self.tag.is_none() {
            let Some((&byte, rest)) = chunk.split_first() else {
                return if eof {
                    Err(self.fail(FrameError::Empty))
                } else {
                    Ok(())
                };
            };
            let tag = match Tag::from_byte(byte) {
                Some(tag) => tag,
                None => return Err(self.fail(FrameError::UnknownTag(byte))),
            };
            self.tag = Some(tag);
            let kind = match tag {
                Tag::Result => Kind::Result,
                Tag::Error => Kind::Error,
            };
            // The machine is still as `new` made it (nothing before the
            // tag is fed): only the body's kind changes, no 300-byte copy.
            self.machine.set_kind(kind);
            chunk = rest;
        }
        match self.machine.run(chunk, eof, sink) {
            Ok(()) => Ok(()),
            Err(e) => Err(self.fail(FrameError::Body(e))),
        }
    }

    fn fail(&mut self, e: FrameError) -> FrameError {
        self.error = Some(e);
        e
    }
}

/// Validates request JSON fed in chunks, as
/// [`RequestView::decode`](crate::RequestView::decode) validates it whole.
///
/// # Examples
///
/// ```
/// use diverge_frame::stream::RequestValidator;
///
/// let mut v = RequestValidator::new();
/// v.feed(br#"{"_meta":{"progressToken":7},"u"#)?;
/// v.feed(br#"ri":"docs://readme"}"#)?;
/// v.finish()?;
/// # Ok::<(), diverge_frame::BodyError>(())
/// ```
///
/// `Debug` shows where it stands (`RequestValidator { fed: 12, error: None }`),
/// not the machine inside.
#[derive(Clone)]
pub struct RequestValidator {
    machine: Machine,
    error: Option<BodyError>,
}

impl fmt::Debug for RequestValidator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RequestValidator")
            .field("fed", &self.fed())
            .field("error", &self.error)
            .finish()
    }
}

impl Default for RequestValidator {
    fn default() -> Self {
        Self::new()
    }
}

impl RequestValidator {
    /// A validator before the request's first byte.
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::stream::RequestValidator;
    /// use diverge_frame::BodyErrorKind;
    ///
    /// let mut v = RequestValidator::new();
    /// assert_eq!(v.fed(), 0);
    /// v.feed(br#"{"uri":"docs://rea"#)?;
    /// assert_eq!(v.fed(), 18);
    /// v.feed(br#"dme"}"#)?;
    /// v.finish()?;
    ///
    /// // A request cut short fails when it ends.
    /// let mut cut = RequestValidator::new();
    /// cut.feed(br#"{"uri":"docs://a""#)?;
    /// assert_eq!(cut.finish().unwrap_err().kind(), BodyErrorKind::Eof);
    /// # Ok::<(), diverge_frame::BodyError>(())
    /// ```
    #[must_use]
    pub const fn new() -> Self {
        Self {
            machine: Machine::new(Kind::Request, 0),
            error: None,
        }
    }

    /// Bytes accepted so far (after an error: those of the chunks before the
    /// one that failed).
    #[must_use]
    pub const fn fed(&self) -> usize {
        self.machine.offset()
    }

    /// Feeds the next bytes of the request.
    ///
    /// # Errors
    ///
    /// The [`BodyError`] that [`RequestView::decode`](crate::RequestView::decode)
    /// gives for the whole request, as soon as these bytes decide it; then
    /// the same error from every later call.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), BodyError> {
        self.step(chunk, false)
    }

    /// Ends the request.
    ///
    /// # Errors
    ///
    /// The error of a request that ended early (or of an earlier `feed`).
    pub fn finish(mut self) -> Result<(), BodyError> {
        self.step(&[], true)
    }

    fn step(&mut self, chunk: &[u8], eof: bool) -> Result<(), BodyError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let run = if find::HOST && !self.machine.compact {
            self.machine.run(chunk, eof, &mut ())
        } else {
            self.machine.run(chunk, eof, &mut Dyn(None))
        };
        run.inspect_err(|&e| {
            self.error = Some(e);
        })
    }
}
