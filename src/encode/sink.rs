//! Where encoded bytes go: the [`Sink`] trait and its implementations.

use super::error::EncodeError;

/// A destination for encoded bytes.
///
/// Every encoder in [`encode`](crate::encode) writes through this one trait,
/// so a fixed buffer, a `heapless::Vec`, a byte [`Counter`] and (with the
/// `embedded-io` feature) any `embedded_io::Write` share one code path.
///
/// Implemented for:
///
/// * `&mut [u8]`: fills the slice from the front and advances it, like
///   `std::io::Write for &mut [u8]` (for an array, lend `&mut buf[..]`: a
///   `&mut [u8; N]` has no length to shrink as it is written);
/// * `heapless::Vec<u8, N>` (and any `heapless::vec::VecInner<u8, ..>`);
/// * `alloc::vec::Vec<u8>` (feature `alloc`): appends, growing as needed,
///   so a host encodes once, with no [`Counter`] pass to size a buffer;
/// * [`Counter`]: counts bytes and stores none, to size a buffer first;
/// * `IoSink<W>` for any `embedded_io::Write` (feature `embedded-io`);
/// * `&mut S` for any `S: Sink`, so a sink can be lent to an encoder and
///   used again afterwards.
///
/// # Examples
///
/// ```
/// use diverge_frame::encode::Sink;
///
/// let mut buf = [0u8; 4];
/// let mut out = &mut buf[..];
/// out.try_extend(b"ab")?;
/// out.try_extend(b"cd")?;
/// assert!(out.try_extend(b"e").is_err()); // full
/// assert_eq!(&buf, b"abcd");
/// # Ok::<(), diverge_frame::encode::EncodeError>(())
/// ```
///
/// The one method is named `try_extend` (as `postcard`'s flavors name it),
/// not `write`: a `Vec<u8>` or a `&mut [u8]` is also `std::io::Write`, and
/// with both traits in scope a `write` would be ambiguous.
pub trait Sink {
    /// Appends all of `bytes`, or fails.
    ///
    /// # Errors
    ///
    /// [`EncodeError::BufferFull`] when the sink cannot take them all (what
    /// it then holds is unspecified); [`EncodeError::Write`] when an
    /// underlying writer failed.
    fn try_extend(&mut self, bytes: &[u8]) -> Result<(), EncodeError>;
}

impl<S: Sink + ?Sized> Sink for &mut S {
    #[inline]
    fn try_extend(&mut self, bytes: &[u8]) -> Result<(), EncodeError> {
        S::try_extend(self, bytes)
    }
}

impl Sink for &mut [u8] {
    #[inline]
    fn try_extend(&mut self, bytes: &[u8]) -> Result<(), EncodeError> {
        if bytes.len() > self.len() {
            return Err(EncodeError::BufferFull);
        }
        let (head, tail) = core::mem::take(self)
            .split_at_mut_checked(bytes.len())
            .ok_or(EncodeError::BufferFull)?;
        head.copy_from_slice(bytes);
        *self = tail;
        Ok(())
    }
}

impl<LenT, St> Sink for heapless::vec::VecInner<u8, LenT, St>
where
    LenT: heapless::LenType,
    St: heapless::vec::VecStorage<u8> + ?Sized,
{
    #[inline]
    fn try_extend(&mut self, bytes: &[u8]) -> Result<(), EncodeError> {
        self.extend_from_slice(bytes)
            .map_err(|_| EncodeError::BufferFull)
    }
}

/// Appends to the vector, which grows as needed: never
/// [`EncodeError::BufferFull`]. It appends, after what the vector holds: to
/// fill a vector sized beforehand, lend its slice (`&mut vec[..]`), which is
/// a `&mut [u8]` sink.
///
/// ```
/// use diverge_frame::encode::ErrorEncoder;
///
/// let mut out = Vec::new();
/// let n = ErrorEncoder::new(&mut out, -32002, "Resource not found")?.finish()?;
/// assert_eq!(out, b"\x01{\"code\":-32002,\"message\":\"Resource not found\"}");
/// assert_eq!(n, out.len());
/// # Ok::<(), diverge_frame::encode::EncodeError>(())
/// ```
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
impl Sink for alloc::vec::Vec<u8> {
    #[inline]
    fn try_extend(&mut self, bytes: &[u8]) -> Result<(), EncodeError> {
        self.extend_from_slice(bytes);
        Ok(())
    }
}

/// A sink that stores nothing and counts the bytes written to it.
///
/// Run an encoder into a `Counter` to learn the exact size of its output
/// before allocating or reserving a buffer. A `Counter` never fails. It is
/// not `Copy`: lend it to an encoder as `&mut counter`, so that no count
/// goes into a copy unseen.
///
/// # Examples
///
/// ```
/// use diverge_frame::encode::{Counter, ErrorEncoder};
///
/// let mut counter = Counter::new();
/// ErrorEncoder::new(&mut counter, -32002, "Resource not found")?.finish()?;
/// assert_eq!(counter.len(), b"\x01{\"code\":-32002,\"message\":\"Resource not found\"}".len());
/// # Ok::<(), diverge_frame::encode::EncodeError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Counter {
    len: usize,
}

impl Counter {
    /// A counter at zero.
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::encode::{Counter, RequestEncoder};
    ///
    /// let mut counter = Counter::new();
    /// assert!(counter.is_empty());
    /// let n = RequestEncoder::new(&mut counter)?.uri("docs://readme")?.finish()?;
    /// assert_eq!((n, counter.len()), (23, 23)); // `{"uri":"docs://readme"}`
    /// # Ok::<(), diverge_frame::encode::EncodeError>(())
    /// ```
    #[must_use]
    pub const fn new() -> Self {
        Self { len: 0 }
    }

    /// The number of bytes written so far (saturating at `usize::MAX`).
    #[must_use]
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing has been written.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Sink for Counter {
    #[inline]
    fn try_extend(&mut self, bytes: &[u8]) -> Result<(), EncodeError> {
        self.len = self.len.saturating_add(bytes.len());
        Ok(())
    }
}

/// A [`Sink`] over any `embedded_io::Write` (feature `embedded-io`).
///
/// Each encoder write becomes one or more `write` calls on the writer, with
/// no buffering here: wrap an unbuffered UART or socket in a buffered writer
/// if small writes are costly. Nothing is flushed; call `flush` on the
/// writer when the frame is complete.
///
/// When the writer fails, the encoder returns [`EncodeError::Write`] and the
/// writer's own error is kept here ([`error`](Self::error)). A writer that
/// accepts zero bytes of a non-empty write (which `embedded-io` forbids) is
/// reported as [`EncodeError::BufferFull`], never a panic.
///
/// # Examples
///
/// ```
/// use diverge_frame::encode::{ErrorEncoder, IoSink};
///
/// let mut storage = [0u8; 64];
/// let mut sink = IoSink::new(&mut storage[..]); // embedded-io's `Write for &mut [u8]`
/// let n = ErrorEncoder::new(&mut sink, -32603, "Internal error")?.finish()?;
/// assert!(sink.error().is_none());
/// assert_eq!(&storage[..n], b"\x01{\"code\":-32603,\"message\":\"Internal error\"}");
/// # Ok::<(), diverge_frame::encode::EncodeError>(())
/// ```
#[cfg(feature = "embedded-io")]
#[cfg_attr(docsrs, doc(cfg(feature = "embedded-io")))]
pub struct IoSink<W: embedded_io::Write> {
    writer: W,
    error: Option<W::Error>,
}

#[cfg(feature = "embedded-io")]
impl<W: embedded_io::Write> IoSink<W> {
    /// Wraps a writer.
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::encode::EncodeError;
    /// use diverge_frame::deps::embedded_io::SliceWriteError;
    /// use diverge_frame::encode::{IoSink, RequestEncoder};
    ///
    /// let mut storage = [0u8; 8];
    /// let mut sink = IoSink::new(&mut storage[..]);
    /// let err = RequestEncoder::new(&mut sink)?.uri("docs://readme").unwrap_err();
    /// assert_eq!(err, EncodeError::Write);
    /// // The writer's own error is kept in the sink.
    /// assert_eq!(sink.take_error(), Some(SliceWriteError::Full));
    /// # Ok::<(), EncodeError>(())
    /// ```
    #[must_use]
    pub const fn new(writer: W) -> Self {
        Self {
            writer,
            error: None,
        }
    }

    /// The writer's error behind the last [`EncodeError::Write`], if any.
    #[must_use]
    pub const fn error(&self) -> Option<&W::Error> {
        self.error.as_ref()
    }

    /// Takes the writer's last error out, leaving `None`.
    pub const fn take_error(&mut self) -> Option<W::Error> {
        self.error.take()
    }

    /// The wrapped writer.
    pub const fn get_mut(&mut self) -> &mut W {
        &mut self.writer
    }

    /// Unwraps the writer.
    #[must_use]
    pub fn into_inner(self) -> W {
        self.writer
    }
}

#[cfg(feature = "embedded-io")]
impl<W: embedded_io::Write> core::fmt::Debug for IoSink<W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("IoSink")
            .field("failed", &self.error.is_some())
            .finish_non_exhaustive()
    }
}

#[cfg(feature = "embedded-io")]
impl<W: embedded_io::Write> Sink for IoSink<W> {
    fn try_extend(&mut self, mut bytes: &[u8]) -> Result<(), EncodeError> {
        while !bytes.is_empty() {
            match self.writer.write(bytes) {
                Ok(0) => return Err(EncodeError::BufferFull),
                Ok(n) => bytes = bytes.get(n..).unwrap_or_default(),
                Err(e) => {
                    self.error = Some(e);
                    return Err(EncodeError::Write);
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slice_sink_fills_and_refuses_overflow() {
        let mut buf = [0u8; 3];
        let mut out = &mut buf[..];
        assert_eq!(out.try_extend(b"ab"), Ok(()));
        assert_eq!(out.try_extend(b"cd"), Err(EncodeError::BufferFull));
        assert_eq!(out.try_extend(b"c"), Ok(()));
        assert_eq!(out.try_extend(b""), Ok(()));
        assert_eq!(out.try_extend(b"d"), Err(EncodeError::BufferFull));
        assert_eq!(&buf, b"abc");
    }

    #[test]
    fn heapless_vec_sink_refuses_overflow() {
        let mut v: heapless::Vec<u8, 4> = heapless::Vec::new();
        assert_eq!(v.try_extend(b"abc"), Ok(()));
        assert_eq!(v.try_extend(b"de"), Err(EncodeError::BufferFull));
        assert_eq!(v.try_extend(b"d"), Ok(()));
        assert_eq!(v.as_slice(), b"abcd");
    }

    #[test]
    fn counter_counts() {
        let mut c = Counter::new();
        assert!(c.is_empty());
        c.try_extend(b"abc").ok();
        <&mut Counter as Sink>::try_extend(&mut &mut c, b"de").ok();
        assert_eq!(c.len(), 5);
    }
}
