//! JSON: the grammar, written once, and the borrowed string and value
//! types.
//!
//! # The files
//!
//! The lexemes and rules, one copy each, asked by every engine:
//!
//! * [`text`]: the string lexeme, the one loop over a string's text (the
//!   hosts' word masks and `memchr` jump, the microcontrollers' byte loop),
//!   and its resumable form ([`text::Cut`]) for strings cut by a chunk's
//!   end;
//! * [`lex`]: the one-character escape set, `\uXXXX`, surrogate pairing,
//!   and the whole escape check with its errors;
//! * [`number`]: the number lexeme (grammar, class and range), resumable at
//!   any byte;
//! * [`nest`]: the bit stack of bracket kinds and what may follow a comma;
//! * [`shape`]: the key matcher and the name tables ([`shape::Key`]), the
//!   content item verdict, the `cacheScope`, `ttlMs` and `code` rules;
//! * [`find`]: byte search in string text and the 16-byte block masks.
//!
//! The engines over them:
//!
//! * [`cursor`]: the cursor over one text ([`cursor::Cursor`]) and its
//!   lexeme calls; its module doc lists the cursor's methods in the files
//!   below;
//! * [`walk`]: a value the schema does not interpret, in both strengths,
//!   with its bounded stack;
//! * [`body`]: the top struct of a result, an error or a request (keys,
//!   colons, commas, brackets, the positional form, duplicate and missing
//!   fields) as a cursor that stops at each field's value, and what each
//!   typed field takes ([`body::take`]);
//! * [`items`]: the `contents` array and its content items;
//! * [`resume`]: the streaming driver, which feeds [`body`], [`walk`] and
//!   [`items`] chunk by chunk; [`event`]: what it tells a reader.
//!
//! And for what has been validated:
//!
//! * [`validated`]: the walk over validated text (whitespace, a string's
//!   or a value's extent, array elements, object members) that the views
//!   re-read with;
//! * [`unescape`]: the unescaper of validated string text;
//! * [`borrowed`]: [`JsonStr`](borrowed::JsonStr), [`RawJson`](borrowed::RawJson)
//!   and the iterators over a string's text.
//!
//! Dependencies run one way: the lexemes import nothing but errors and each
//! other; [`cursor`] imports the lexemes; [`walk`], [`body`] and [`items`]
//! import the cursor (`tests/layers.rs` holds that no file reaches itself).
//!
//! # The lanes
//!
//! [`walk`], [`body`] and [`items`] are each one function compiled in two
//! lanes by a constant `R`, as Boost.JSON builds its resumable parser. Two
//! more axes choose code inside them. Which body each entry point runs:
//!
//! | entry point | `R` | target | strength of a walked value | sink |
//! | --- | --- | --- | --- | --- |
//! | `Frame::decode`, `RequestView::decode`, the encoders' checks | whole buffer | host | compiled per strength | `()`: nothing |
//! | the same | whole buffer | microcontroller | one copy, a run-time flag | `()` |
//! | `rmcp::decode_frame` and the `From` conversions (`alloc`) | whole buffer | host | compiled per strength | the rmcp builder: strings kept as they are scanned |
//! | the views' lazy reads (`contents()`, `members()`, `text()`) | none: [`validated`], [`unescape`] (on microcontrollers a result's items are read again by [`items`]' whole-buffer lane) | both | none: the text is validated | the view's item notes |
//! | `stream::FrameValidator` | resumable | both (`compact` on microcontrollers) | a run-time flag | `()` |
//! | `stream::Reader` | resumable | both | a run-time flag | events to the reader ([`event::Ev`]) |
//!
//! Why each axis exists:
//!
//! * **`R`**: the whole-buffer decoders must not pay for resume points
//!   they never use (a state saved at each byte a chunk could end on); the
//!   stream must not hold a frame. One source, two compiled lanes, so each
//!   rule has one copy and each lane pays only for itself.
//! * **target** ([`find::HOST`], false under `diverge_compact` and on
//!   targets without a vector unit): hosts take word and 16-byte block
//!   masks and `memchr` jumps (long text at several bytes a step);
//!   microcontrollers take byte loops and calls where inlining multiplied
//!   flash (measured on the same job: the cursor's inline whitespace check
//!   at some 90 places cost 2.5 KB; the walker's lane per strength 2.4 KB;
//!   the views' inline `ws` 0.5 KB; each beside its code).
//! * **sink**: `Frame::decode`'s sink is `()`, which compiles to nothing;
//!   the rmcp builder takes each kept string as the scan reaches it, so
//!   that bytes become rmcp values in one pass (`rmcp.rs`).

//! # Adding a top-level field
//!
//! Where a field of a result, an error or a request is stated today (the
//! body driver is still two: the views' decodes over [`body`]'s cursor, and
//! the streaming driver in [`resume`]):
//!
//! 1. its name, in the body's name table ([`shape`]: `RESULT_KEYS`, …) and
//!    the errors' field names (`error.rs`);
//! 2. its rule: what its value takes ([`body::take`]), whether it is
//!    required ([`shape::required`]), and a typed rule of its own if it has
//!    one (like [`shape::ttl_ms`]);
//! 3. its typed reader: the view's decode (`view/`), and for the stream its
//!    [`event::Field`], its row in `resume.rs`'s field table and its end
//!    (`field_end`);
//!
//! then each public API that exposes it: the view's accessor, the
//! encoder's method (`encode/builder.rs`), the reader's event
//! (`stream/reader.rs`) and the rmcp field (`rmcp.rs`).

pub(crate) mod body;
pub(crate) mod borrowed;
pub(crate) mod cursor;
pub(crate) mod event;
pub(crate) mod find;
pub(crate) mod items;
pub(crate) mod lex;
pub(crate) mod nest;
pub(crate) mod number;
pub(crate) mod resume;
pub(crate) mod shape;
pub(crate) mod text;
pub(crate) mod unescape;
pub(crate) mod validated;
pub(crate) mod walk;

/// One step of xorshift64 (shifts 13, 7, 17), the new state: the unit
/// tests' one deterministic source of generated inputs.
#[cfg(test)]
pub(crate) fn xorshift(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

#[cfg(test)]
extern crate std;

/// Token soup: `out` becomes `seed % most` tokens of `tokens`, each picked
/// by a linear congruential step from `seed`: the unit tests' generated
/// inputs of every kind, defects included.
#[cfg(test)]
pub(crate) fn soup(seed: u64, most: u64, tokens: &[&[u8]], out: &mut std::vec::Vec<u8>) {
    out.clear();
    let mut r = seed;
    for _ in 0..seed % most {
        r = r.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        if let Some(token) = tokens.get((r >> 33) as usize % tokens.len()) {
            out.extend_from_slice(token);
        }
    }
}
