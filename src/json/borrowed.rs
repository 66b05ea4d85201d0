//! [`JsonStr`]: a JSON string still in its escaped form, and [`RawJson`]: a
//! slice of validated JSON that the codec does not interpret.

use core::fmt;
use core::hash::{Hash, Hasher};
use core::iter::FusedIterator;

use super::unescape;

/// A JSON string as it stands in the input: the bytes between the quotes,
/// escapes and all.
///
/// Only [`Frame::decode`](crate::Frame::decode) and
/// [`RequestView::decode`](crate::RequestView::decode) make one, and only over
/// text they have checked the way the reference checks a typed string: valid
/// UTF-8, valid escapes, paired surrogates. So no method here can fail on the
/// text itself; the only failure is a caller's buffer that is too small.
///
/// # Examples
///
/// ```
/// use diverge_frame::RequestView;
///
/// let req = RequestView::decode(br#"{"uri":"docs://caf\u00e9"}"#)?;
/// let uri = req.uri();
/// assert_eq!(uri.as_str(), None); // it has an escape: no borrowed &str
/// assert!(uri == "docs://café"); // compared without unescaping
/// let mut buf = [0u8; 32];
/// assert_eq!(uri.unescape_into(&mut buf)?, "docs://café");
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
///
/// # Equality and hashing
///
/// `==` (with another `JsonStr` or with a `&str`), [`Eq`] and [`Hash`] are
/// all of the **unescaped** text, so two spellings of one string are equal
/// and hash alike. [`raw_eq`](Self::raw_eq) compares the spellings.
///
/// ```
/// use diverge_frame::RequestView;
///
/// let plain = RequestView::decode(br#"{"uri":"docs://a/b"}"#)?.uri();
/// let escaped = RequestView::decode(br#"{"uri":"docs:\/\/a\/\u0062"}"#)?.uri();
/// assert_eq!(plain, escaped); // one text
/// assert!(!plain.raw_eq(&escaped)); // two spellings
/// # Ok::<(), diverge_frame::BodyError>(())
/// ```
#[derive(Clone, Copy)]
pub struct JsonStr<'a> {
    raw: &'a [u8],
    escaped: bool,
}

/// The caller's buffer was too small for the unescaped or decoded text.
///
/// # Examples
///
/// ```
/// use diverge_frame::RequestView;
///
/// let uri = RequestView::decode(br#"{"uri":"docs://readme"}"#)?.uri();
/// let mut small = [0u8; 4];
/// let err = uri.unescape_into(&mut small).unwrap_err();
/// assert_eq!((err.needed(), err.available()), (13, 4));
/// let mut buf = [0u8; 13];
/// assert_eq!(uri.unescape_into(&mut buf)?, "docs://readme");
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct CapacityError {
    needed: usize,
    available: usize,
}

impl CapacityError {
    /// The whole output needs `needed` bytes and the buffer had
    /// `available`: for a caller's own unescaping that reports as the
    /// crate's does.
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::CapacityError;
    ///
    /// let e = CapacityError::new(10, 4);
    /// assert_eq!((e.needed(), e.available()), (10, 4));
    /// assert_eq!(e.to_string(), "buffer too small: 10 bytes needed, 4 available");
    /// ```
    #[must_use]
    pub const fn new(needed: usize, available: usize) -> Self {
        Self { needed, available }
    }

    /// How many bytes the whole output needs.
    #[must_use]
    pub const fn needed(&self) -> usize {
        self.needed
    }

    /// How many bytes the buffer had.
    #[must_use]
    pub const fn available(&self) -> usize {
        self.available
    }
}

impl fmt::Display for CapacityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "buffer too small: {} bytes needed, {} available",
            self.needed, self.available
        )
    }
}

impl core::error::Error for CapacityError {}

impl<'a> JsonStr<'a> {
    /// Wraps validated string text (the bytes between the quotes).
    pub(crate) const fn new(raw: &'a [u8], escaped: bool) -> Self {
        Self { raw, escaped }
    }

    /// The text between the quotes, exactly as in the input (escapes kept).
    #[must_use]
    pub const fn raw(&self) -> &'a [u8] {
        self.raw
    }

    /// Whether the two strings are spelled alike: the same bytes between
    /// the quotes, escapes and all. `==` compares the unescaped texts
    /// instead, so `raw_eq` implies `==` but not the other way round.
    ///
    /// ```
    /// use diverge_frame::RequestView;
    ///
    /// let a = RequestView::decode(br#"{"uri":"\u0061"}"#)?.uri();
    /// let b = RequestView::decode(br#"{"uri":"a"}"#)?.uri();
    /// assert!(a == b && !a.raw_eq(&b));
    /// assert!(a.raw_eq(&a));
    /// # Ok::<(), diverge_frame::BodyError>(())
    /// ```
    #[must_use]
    pub fn raw_eq(&self, other: &JsonStr<'_>) -> bool {
        self.raw == other.raw
    }

    /// Whether the text holds at least one backslash escape.
    #[must_use]
    pub const fn is_escaped(&self) -> bool {
        self.escaped
    }

    /// The string as a borrowed `&str`, when it has no escapes; `None` when it
    /// has (use [`unescape_into`](Self::unescape_into) or [`chars`](Self::chars)).
    #[must_use]
    pub fn as_str(&self) -> Option<&'a str> {
        if self.escaped {
            None
        } else {
            super::find::from_utf8(self.raw).ok()
        }
    }

    /// The length in bytes of the unescaped string.
    #[must_use]
    pub fn unescaped_len(&self) -> usize {
        if !self.escaped {
            return self.raw.len();
        }
        let mut pieces = self.pieces();
        let mut n = 0;
        while let Some(piece) = pieces.next() {
            n += piece.len();
        }
        n
    }

    /// Whether the unescaped string is empty.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.raw.is_empty()
    }

    /// Unescapes into `buf` and returns the text written, as `&str`.
    ///
    /// # Errors
    ///
    /// [`CapacityError`] when `buf` is shorter than
    /// [`unescaped_len`](Self::unescaped_len); nothing useful is left in `buf`.
    pub fn unescape_into<'b>(&self, buf: &'b mut [u8]) -> Result<&'b str, CapacityError> {
        let available = buf.len();
        // Unescaping never lengthens validated text, so a buffer as long as
        // the raw text always suffices: the fast path. Shorter buffers (and
        // anything the fast path cannot place) take the careful path.
        // On microcontrollers (`HOST` false) escaped text takes the careful
        // path only: the fast path's word-at-a-time copy costs more flash
        // than it saves time on the short text a firmware handles. Both paths
        // write the same bytes and fail alike (a test checks).
        let fast = if self.escaped {
            if super::find::HOST {
                unescape::unescape(self.raw, buf)
            } else {
                None
            }
        } else {
            buf.get_mut(..self.raw.len()).map(|dst| {
                super::find::copy(dst, self.raw);
                self.raw.len()
            })
        };
        let at = match fast {
            Some(at) => at,
            None => self.unescape_careful(buf)?,
        };
        let written = buf.get(..at).unwrap_or_default();
        // The input is validated UTF-8 and escapes decode to whole
        // characters, so this cannot fail.
        super::find::from_utf8(written).map_err(|_| CapacityError {
            needed: at,
            available,
        })
    }

    /// Unescapes piece by piece, checking room for each; returns the
    /// length written.
    fn unescape_careful(&self, buf: &mut [u8]) -> Result<usize, CapacityError> {
        let available = buf.len();
        let mut at = 0usize;
        let mut pieces = self.pieces();
        while let Some(bytes) = pieces.next() {
            let end = at + bytes.len();
            match buf.get_mut(at..end) {
                Some(dst) => super::find::copy(dst, bytes),
                None => {
                    return Err(CapacityError {
                        needed: self.unescaped_len(),
                        available,
                    });
                }
            }
            at = end;
        }
        Ok(at)
    }

    /// Unescapes into a fixed-capacity `heapless::String`.
    ///
    /// # Errors
    ///
    /// [`CapacityError`] when the unescaped text is longer than `N` bytes.
    pub fn to_heapless<const N: usize>(&self) -> Result<heapless::String<N>, CapacityError> {
        let mut out = heapless::String::new();
        for fragment in self.fragments() {
            let ok = match fragment {
                Fragment::Str(s) => out.push_str(s).is_ok(),
                Fragment::Char(c) => out.push(c).is_ok(),
            };
            if !ok {
                return Err(CapacityError {
                    needed: self.unescaped_len(),
                    available: N,
                });
            }
        }
        Ok(out)
    }

    /// The unescaped characters, one by one.
    #[must_use]
    pub fn chars(&self) -> Chars<'a> {
        Chars {
            fragments: self.fragments(),
            current: "".chars(),
        }
    }

    /// The unescaped string's bytes, piece by piece ([`Pieces`]).
    pub(crate) const fn pieces(&self) -> Pieces<'a> {
        Pieces {
            rest: self.raw,
            utf8: [0; 4],
        }
    }

    /// The unescaped string as a sequence of borrowed runs and single escaped
    /// characters, without copying.
    #[must_use]
    pub fn fragments(&self) -> Fragments<'a> {
        Fragments { rest: self.raw }
    }
}

impl PartialEq<str> for JsonStr<'_> {
    /// Compares without unescaping. Inline on hosts, so that a comparison
    /// with a literal (a field name) compiles to a length check and a few
    /// loads; on microcontrollers (where the crate's `HOST` is false) a call
    /// of the same comparison, which inlined at some 30 places cost 0.8 KB of
    /// flash.
    #[inline]
    fn eq(&self, other: &str) -> bool {
        if super::find::HOST {
            self.eq_inline(other)
        } else {
            self.eq_call(other)
        }
    }
}

impl JsonStr<'_> {
    #[inline]
    fn eq_inline(&self, other: &str) -> bool {
        self.eq_bytes(other.as_bytes())
    }

    /// Whether the unescaped text is `other`'s bytes.
    #[inline]
    pub(crate) fn eq_bytes(&self, other: &[u8]) -> bool {
        if self.escaped {
            self.eq_escaped(other)
        } else {
            self.raw == other
        }
    }

    /// `==` as a call.
    #[inline(never)]
    fn eq_call(&self, other: &str) -> bool {
        self.eq_inline(other)
    }

    /// `==` for text with escapes, piece by piece.
    fn eq_escaped(&self, other: &[u8]) -> bool {
        let mut rest = other;
        let mut pieces = self.pieces();
        while let Some(bytes) = pieces.next() {
            // `get`, not `strip_prefix`: no panic path left at opt-level z.
            match rest.split_at_checked(bytes.len()) {
                Some((head, r)) if head == bytes => rest = r,
                _ => return false,
            }
        }
        rest.is_empty()
    }
}

impl PartialEq for JsonStr<'_> {
    /// Whether the unescaped texts are equal (spelling aside: see
    /// [`raw_eq`](JsonStr::raw_eq)), without unescaping into a buffer.
    fn eq(&self, other: &JsonStr<'_>) -> bool {
        match (self.escaped, other.escaped) {
            (false, false) => self.raw == other.raw,
            (true, false) => self.eq_bytes(other.raw),
            (false, true) => other.eq_bytes(self.raw),
            (true, true) => self.raw == other.raw || self.chars().eq(other.chars()),
        }
    }
}

impl Eq for JsonStr<'_> {}

impl Hash for JsonStr<'_> {
    /// Hashes the unescaped text, character by character (each as its
    /// scalar value, a `u32`), then a `0xff` byte, as `str` ends its own:
    /// equal texts hash alike whatever their spelling, with no buffer. It
    /// is not `str`'s hash, so a `JsonStr` key is not looked up by `&str`.
    fn hash<H: Hasher>(&self, state: &mut H) {
        hash_chars(self.chars(), state);
    }
}

/// The hash of an unescaped text that [`JsonStr`] and
/// [`StrValue`](crate::encode::StrValue) share: each character's scalar
/// value, then `0xff`.
pub(crate) fn hash_chars<H: Hasher>(chars: impl Iterator<Item = char>, state: &mut H) {
    for c in chars {
        state.write_u32(u32::from(c));
    }
    state.write_u8(0xff);
}

impl PartialEq<&str> for JsonStr<'_> {
    #[inline]
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

impl PartialEq<JsonStr<'_>> for str {
    fn eq(&self, other: &JsonStr<'_>) -> bool {
        *other == *self
    }
}

impl PartialEq<JsonStr<'_>> for &str {
    fn eq(&self, other: &JsonStr<'_>) -> bool {
        *other == **self
    }
}

impl fmt::Debug for JsonStr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\"")?;
        for c in self.chars() {
            fmt::Display::fmt(&c.escape_debug(), f)?;
        }
        f.write_str("\"")
    }
}

impl fmt::Display for JsonStr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for fragment in self.fragments() {
            match fragment {
                Fragment::Str(s) => f.write_str(s)?,
                Fragment::Char(c) => fmt::Write::write_char(f, c)?,
            }
        }
        Ok(())
    }
}

/// One piece of an unescaped [`JsonStr`]: a run of text as it stands in the
/// input, or one character an escape stood for.
///
/// # Examples
///
/// ```
/// use diverge_frame::{Fragment, RequestView};
///
/// let uri = RequestView::decode(br#"{"uri":"a\nb"}"#)?.uri();
/// let fragments: Vec<Fragment<'_>> = uri.fragments().collect();
/// assert_eq!(fragments, [Fragment::Str("a"), Fragment::Char('\n'), Fragment::Str("b")]);
/// assert_eq!(fragments.iter().map(Fragment::len).sum::<usize>(), uri.unescaped_len());
/// # Ok::<(), diverge_frame::BodyError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Fragment<'a> {
    /// A run with no escapes, borrowed from the input.
    Str(&'a str),
    /// The character of one escape (`\n`, `\u00e9`, a surrogate pair).
    Char(char),
}

impl Fragment<'_> {
    /// Length in bytes of the fragment's UTF-8.
    #[must_use]
    pub const fn len(&self) -> usize {
        match self {
            Self::Str(s) => s.len(),
            Self::Char(c) => c.len_utf8(),
        }
    }

    /// Whether the fragment is an empty run.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Iterator over the [`Fragment`]s of a [`JsonStr`].
///
/// # Examples
///
/// ```
/// use diverge_frame::deps::heapless;
/// use diverge_frame::{Fragment, RequestView};
///
/// let uri = RequestView::decode(br#"{"uri":"docs://caf\u00e9/menu"}"#)?.uri();
/// // Copy the unescaped text piece by piece, without an intermediate buffer.
/// let mut out = heapless::String::<32>::new();
/// for fragment in uri.fragments() {
///     match fragment {
///         Fragment::Str(run) => out.push_str(run)?,
///         Fragment::Char(c) => out.push(c)?,
///     }
/// }
/// assert_eq!(out, "docs://café/menu");
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Fragments<'a> {
    rest: &'a [u8],
}

impl<'a> Iterator for Fragments<'a> {
    type Item = Fragment<'a>;

    fn next(&mut self) -> Option<Fragment<'a>> {
        Some(match split_piece(&mut self.rest)? {
            // Validated UTF-8; runs end before a backslash, which is ASCII.
            Piece::Run(text) => Fragment::Str(core::str::from_utf8(text).unwrap_or("\u{fffd}")),
            Piece::Escape(c) => Fragment::Char(c),
        })
    }
}

impl FusedIterator for Fragments<'_> {}

/// What [`split_piece`] takes off the front of a string's text.
enum Piece<'a> {
    /// A run without escapes, as it stands.
    Run(&'a [u8]),
    /// The character of one escape.
    Escape(char),
}

/// Takes the next run or escape off the front of `rest`, a validated
/// string's text: the one split that [`Fragments`] and [`Pieces`] share.
#[inline(always)]
fn split_piece<'a>(rest: &mut &'a [u8]) -> Option<Piece<'a>> {
    let (&first, tail) = rest.split_first()?;
    if first != b'\\' {
        let run = super::find::memchr(b'\\', rest).unwrap_or(rest.len());
        let (text, after) = rest.split_at_checked(run).unwrap_or((rest, &[]));
        *rest = after;
        return Some(Piece::Run(text));
    }
    let (c, after) = unescape::decode_escape(tail);
    *rest = after;
    Some(Piece::Escape(c))
}

/// The unescaped bytes of a [`JsonStr`], piece by piece: each run as it
/// stands in the input, each escape's character as its UTF-8 in the
/// cursor's own four bytes. [`Fragments`] without a `&str` to check or a
/// `char` to encode at each caller: the crate's own readers (length,
/// comparison, unescaping, base64) take their bytes from one copy of this.
pub(crate) struct Pieces<'a> {
    rest: &'a [u8],
    utf8: [u8; 4],
}

impl Pieces<'_> {
    /// The next piece, or `None` at the end of the text.
    pub(crate) fn next(&mut self) -> Option<&[u8]> {
        Some(match split_piece(&mut self.rest)? {
            Piece::Run(text) => text,
            Piece::Escape(c) => c.encode_utf8(&mut self.utf8).as_bytes(),
        })
    }
}

/// Iterator over the unescaped characters of a [`JsonStr`].
///
/// # Examples
///
/// ```
/// use diverge_frame::RequestView;
///
/// let uri = RequestView::decode(br#"{"uri":"caf\u00e9"}"#)?.uri();
/// assert_eq!(uri.chars().count(), 4);
/// assert_eq!(uri.chars().last(), Some('é'));
/// assert!(uri.chars().eq("café".chars()));
/// # Ok::<(), diverge_frame::BodyError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Chars<'a> {
    fragments: Fragments<'a>,
    current: core::str::Chars<'a>,
}

impl Iterator for Chars<'_> {
    type Item = char;

    fn next(&mut self) -> Option<char> {
        loop {
            if let Some(c) = self.current.next() {
                return Some(c);
            }
            match self.fragments.next()? {
                Fragment::Str(s) => self.current = s.chars(),
                Fragment::Char(c) => return Some(c),
            }
        }
    }
}

impl FusedIterator for Chars<'_> {}

/// A JSON value that the codec does not interpret (`_meta`, `data`,
/// `inputResponses`), as a slice of the input.
///
/// The slice is exactly the value's text, without surrounding whitespace, and
/// it has been validated as the reference validates a `serde_json::Value` in
/// that place (UTF-8, escapes, surrogates, number range, depth).
///
/// `==` and `Hash` are of that text as spelled, byte for byte: `{"a":1}` and
/// `{ "a": 1 }` are one value and two `RawJson`s. The codec does not
/// interpret these values, so it has no value equality to offer; compare
/// members (through [`members`](Self::members)) where that matters.
///
/// # Examples
///
/// ```
/// use diverge_frame::{Frame, RawJson};
///
/// let frame = b"\x01{\"code\":-32602,\"message\":\"bad uri\",\"data\":{ \"uri\": \"x\", \"retry\": false }}";
/// let Frame::Error(error) = Frame::decode(frame)? else { panic!("expected an error") };
/// let data: RawJson<'_> = error.data().expect("the error has data");
/// assert!(data.is_object());
/// assert_eq!(data.as_bytes(), br#"{ "uri": "x", "retry": false }"#); // as spelled
/// assert_eq!(data.get("retry").map(|v| v.as_bytes()), Some(&b"false"[..]));
/// // The same value spelled another way is another RawJson.
/// assert_ne!(data, RawJson::parse(br#"{"uri":"x","retry":false}"#)?);
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct RawJson<'a> {
    raw: &'a [u8],
}

impl<'a> RawJson<'a> {
    /// Wraps a validated JSON value.
    pub(crate) const fn new(raw: &'a [u8]) -> Self {
        Self { raw }
    }

    /// The value's JSON text.
    #[must_use]
    pub const fn as_bytes(&self) -> &'a [u8] {
        self.raw
    }

    /// The value's JSON text as `&str`.
    ///
    /// Every `RawJson` was checked by the decoder (or by
    /// [`RawJson::parse`]) as a JSON value, UTF-8 included, so the text is
    /// always there; it is checked again here (a `RawJson` holds bytes, so
    /// that the decoder need not check them twice), which costs a pass over
    /// the text.
    #[must_use]
    pub fn as_str(&self) -> &'a str {
        // Unreachable `Err`: a `RawJson` is made only of validated text.
        super::find::from_utf8(self.raw).unwrap_or_default()
    }

    /// Whether the value is an object (`{…}`).
    #[must_use]
    pub fn is_object(&self) -> bool {
        self.raw.first() == Some(&b'{')
    }

    /// Whether the value is `null`.
    #[must_use]
    pub fn is_null(&self) -> bool {
        self.raw == b"null"
    }

    /// Deserializes the value into a caller's type with `serde-json-core`,
    /// without a heap (typed access to `_meta` or `data`).
    ///
    /// `serde-json-core` is not the reference: it borrows `&str` fields with
    /// escapes left in, and has its own number handling. Use `JsonStr` through
    /// [`members`](Self::members) where exact string values matter.
    ///
    /// # Errors
    ///
    /// The `serde-json-core` error when the value does not fit `T`.
    pub fn deserialize<T: serde::Deserialize<'a>>(&self) -> Result<T, serde_json_core::de::Error> {
        serde_json_core::from_slice(self.raw).map(|(value, _)| value)
    }
}

impl fmt::Debug for RawJson<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for RawJson<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]
mod tests {
    extern crate std;
    use super::*;
    use std::vec::Vec;

    /// [`Pieces`] yields, piece for piece, the bytes of the [`Fragments`]:
    /// on every sequence of up to four parts over runs, multi-byte text and
    /// every kind of escape.
    #[test]
    #[cfg_attr(miri, ignore)] // 7 381 texts: minutes under Miri
    fn pieces_are_the_fragments_bytes() {
        const PARTS: [&str; 9] = [
            "a",
            "é😀",
            r"\n",
            r"\/",
            r#"\""#,
            r"\u00e9",
            r"\u0000",
            r"\ud83d\ude00",
            r"\uFFFF",
        ];
        let mut texts = std::vec![std::string::String::new()];
        let mut all = Vec::new();
        for _ in 0..4 {
            let longer: Vec<_> = texts
                .iter()
                .flat_map(|t| PARTS.iter().map(move |p| std::format!("{t}{p}")))
                .collect();
            all.append(&mut texts);
            texts = longer;
        }
        all.append(&mut texts);
        let mut n = 0;
        for text in &all {
            let escaped = text.contains('\\');
            let s = JsonStr::new(text.as_bytes(), escaped);
            let fragments: Vec<Vec<u8>> = s
                .fragments()
                .map(|f| match f {
                    Fragment::Str(t) => t.as_bytes().to_vec(),
                    Fragment::Char(c) => c.encode_utf8(&mut [0; 4]).as_bytes().to_vec(),
                })
                .collect();
            let mut pieces = s.pieces();
            let mut got = Vec::new();
            while let Some(p) = pieces.next() {
                got.push(p.to_vec());
            }
            assert_eq!(got, fragments, "{text:?}");
            assert_eq!(s.unescaped_len(), fragments.concat().len(), "{text:?}");
            n += 1;
        }
        assert_eq!(n, 1 + 9 + 81 + 729 + 6561);
    }

    /// `==` as the microcontrollers' call answers as the hosts' inline one.
    #[test]
    fn eq_call_agrees_with_inline() {
        let strs = [
            JsonStr::new(b"uri", false),
            JsonStr::new(br"\u0075ri", true),
            JsonStr::new(br"ur\n", true),
            JsonStr::new(b"", false),
        ];
        for s in strs {
            for other in ["uri", "ur\n", "", "urix", "ur"] {
                assert_eq!(s.eq_call(other), s.eq_inline(other), "{s:?} {other}");
            }
        }
    }

    #[test]
    fn plain_text_is_borrowed() {
        let s = JsonStr::new(b"docs://x", false);
        assert_eq!(s.as_str(), Some("docs://x"));
        assert_eq!(s.unescaped_len(), 8);
        assert!(s == "docs://x" && s != "docs://y" && s != "docs://");
    }

    #[test]
    fn escapes_unescape_every_way_alike() {
        let s = JsonStr::new(br#"a\n\u00e9\uD83D\uDE00\/\"\\"#, true);
        let want = "a\né😀/\"\\";
        assert_eq!(s.as_str(), None);
        assert_eq!(s.unescaped_len(), want.len());
        assert_eq!(s.chars().collect::<heapless::String<32>>().as_str(), want);
        let mut buf = [0u8; 32];
        assert_eq!(s.unescape_into(&mut buf).unwrap(), want);
        assert_eq!(s.to_heapless::<16>().unwrap().as_str(), want);
        assert!(s == want && s != "a\né😀/\"" && s != "a\né😀/\"\\\\");
        let mut small = [0u8; 5];
        assert_eq!(
            s.unescape_into(&mut small),
            Err(CapacityError {
                needed: want.len(),
                available: 5
            })
        );
    }

    /// Microcontrollers unescape escaped text with the careful path alone
    /// (`HOST` false); hosts take the fast path first. Both must give the
    /// same text and the same errors, for every buffer length.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn careful_path_alone_agrees_with_fast_path() {
        const PIECES: [&str; 14] = [
            "a",
            "xyz",
            "0123456789abcdef",
            "é",
            "😀",
            "\\n",
            "\\\"",
            "\\\\",
            "\\/",
            "\\u00e9",
            "\\u0041",
            "\\ud83d\\ude00",
            "\\u2028",
            "\\t",
        ];
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || crate::json::xorshift(&mut seed);
        for _ in 0..3000 {
            let mut raw = heapless::String::<512>::new();
            for _ in 0..next() % 12 {
                let piece = PIECES[(next() % PIECES.len() as u64) as usize];
                for _ in 0..=next() % 4 {
                    raw.push_str(piece).unwrap();
                }
            }
            let s = JsonStr::new(raw.as_bytes(), raw.contains('\\'));
            for len in 0..=raw.len() + 1 {
                let mut a = [0u8; 514];
                let mut b = [0u8; 514];
                let fast = s
                    .unescape_into(&mut a[..len])
                    .map(|t| Vec::from(t.as_bytes()));
                let careful = s
                    .unescape_careful(&mut b[..len])
                    .map(|at| Vec::from(core::str::from_utf8(&b[..at]).unwrap().as_bytes()));
                assert_eq!(fast, careful, "{raw:?} into {len} bytes");
            }
        }
    }
}
