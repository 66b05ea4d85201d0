//! `defmt::Format` for the views and string types (feature `defmt`).
//!
//! Plain types (the tag, the errors, [`CacheScope`](crate::CacheScope),
//! [`Fragment`](crate::Fragment)) derive `defmt::Format` where they are
//! defined. The views here print a summary, never a whole body: the tag,
//! lengths, the URI, the error code. Each prints the same text as its
//! `Display` (where it has one). A [`JsonStr`] prints its unescaped text and
//! a [`RawJson`] its JSON text, as their `Display` does: log them only when
//! you mean to send that text. The exchange layer's [`PathEnd`] prints a
//! message's summary (or, for raw bytes, its length) and [`PathReader`] its
//! counts.

use defmt::{Format, Formatter, write};

use crate::exchange::{PathEnd, PathReader};
use crate::frame::{Frame, RawFrame};
use crate::json::borrowed::{Fragment, JsonStr, RawJson};
use crate::view::error::ErrorView;
use crate::view::request::RequestView;
use crate::view::result::{Body, Content, ResultView};

/// Same text as `Display`: the view's summary.
impl Format for Frame<'_> {
    fn format(&self, f: Formatter<'_>) {
        match self {
            Self::Result(r) => r.format(f),
            Self::Error(e) => e.format(f),
        }
    }
}

/// Same fields as `Debug`: the tag and the JSON's length.
impl Format for RawFrame<'_> {
    fn format(&self, f: Formatter<'_>) {
        write!(
            f,
            "RawFrame {{ tag: {}, json_bytes: {=usize} }}",
            self.tag(),
            self.json().len()
        );
    }
}

/// Same text as `Display`: item count and length, no contents.
impl Format for ResultView<'_> {
    fn format(&self, f: Formatter<'_>) {
        write!(
            f,
            "result with {=usize} content item(s), {=usize} bytes",
            self.contents().len(),
            self.json().len()
        );
    }
}

/// Same text as `Display`: URI, kind and length of the payload.
impl Format for Content<'_> {
    fn format(&self, f: Formatter<'_>) {
        write!(f, "{} ({})", self.uri(), self.body());
    }
}

/// The payload's kind and length in the input, never its text.
impl Format for Body<'_> {
    fn format(&self, f: Formatter<'_>) {
        match self {
            Self::Text(t) => write!(f, "text, {=usize} bytes", t.raw().len()),
            Self::Blob(b) => write!(f, "blob, {=usize} base64 bytes", b.text().raw().len()),
        }
    }
}

/// Same text as `Display`: the code and the message.
impl Format for ErrorView<'_> {
    fn format(&self, f: Formatter<'_>) {
        write!(f, "error {=i32}: {}", self.code(), self.message());
    }
}

/// Same text as `Display`: the URI and the request's length.
impl Format for RequestView<'_> {
    fn format(&self, f: Formatter<'_>) {
        write!(
            f,
            "read-resource request for {} ({=usize} bytes)",
            self.uri(),
            self.json().len()
        );
    }
}

/// Same text as `Display`: the unescaped string, without quotes.
impl Format for JsonStr<'_> {
    fn format(&self, f: Formatter<'_>) {
        for fragment in self.fragments() {
            match fragment {
                Fragment::Str(s) => write!(f, "{=str}", s),
                Fragment::Char(c) => write!(f, "{=char}", c),
            }
        }
    }
}

/// Same text as `Display`: the value's JSON text.
impl Format for RawJson<'_> {
    fn format(&self, f: Formatter<'_>) {
        write!(f, "{=str}", self.as_str());
    }
}

/// The counts, never the bytes (as `Debug`, without the overflow flag).
impl Format for PathReader<'_> {
    fn format(&self, f: Formatter<'_>) {
        write!(
            f,
            "PathReader {{ len: {=usize}, limit: {=usize} }}",
            self.len(),
            self.limit()
        );
    }
}

/// The message's length, never its bytes.
impl<E: Format> Format for PathEnd<&[u8], E> {
    fn format(&self, f: Formatter<'_>) {
        path_end(self, f, |m, f| write!(f, "{=usize} bytes", m.len()));
    }
}

/// The frame's summary.
impl<E: Format> Format for PathEnd<Frame<'_>, E> {
    fn format(&self, f: Formatter<'_>) {
        path_end(self, f, |m, f| m.format(f));
    }
}

/// The raw frame's tag and length.
impl<E: Format> Format for PathEnd<RawFrame<'_>, E> {
    fn format(&self, f: Formatter<'_>) {
        path_end(self, f, |m, f| m.format(f));
    }
}

fn path_end<M, E: Format>(
    end: &PathEnd<M, E>,
    f: Formatter<'_>,
    message: impl FnOnce(&M, Formatter<'_>),
) {
    match end {
        PathEnd::Message(m) => {
            write!(f, "Message(");
            message(m, f);
            write!(f, ")");
        }
        PathEnd::NotServed => write!(f, "NotServed"),
        PathEnd::Unanswered(e) => write!(f, "Unanswered({})", e),
    }
}
