//! The `contents` walker: a result's `contents` array and its content
//! items, checked in one forward pass as serde_json and rmcp's untagged
//! `ResourceContents` check them: written once, for the whole buffer and
//! for chunks.
//!
//! It is built as the value walker ([`json::walk`](super::walk)) is: one
//! function, [`Cursor::contents`], in two compiled lanes chosen by a
//! constant.
//!
//! * `R = false`, the whole-buffer lane (`Frame::decode`, the `alloc`
//!   builder, and on microcontrollers the views' item reader): the state is
//!   a local, keys and strings are read whole by the scanner's lexemes, an
//!   item's other members by the walker's whole-buffer lane, and what the
//!   items hold goes to an [`Items`] sink (the view's long-string notes,
//!   the builder's rmcp items).
//! * `R = true`, the resumable lane (the streaming core's): the same states,
//!   plus the places where a chunk's end may stop the array. There the walk
//!   saves its state in a [`ContentsWalk`] and returns [`Walked::More`];
//!   keys and strings go through the resumable string lexeme
//!   ([`text::Cut`](super::text::Cut)), other members through the walker's
//!   resumable lane, and a reader is told the items as events ([`Ev`]).
//!
//! The item rule (serde's untagged choice between a text and a blob item)
//! is [`ItemShape`]'s; the commas' rules are [`nest`]'s.

use crate::error::{BodyError, BodyErrorKind as K, Detail};

use super::borrowed::RawJson;
use super::cursor::Cursor;
use super::event::{Ev, Sink, item_field, reads_string};
use super::find::HOST;
use super::nest::{self, Word};
use super::shape::{ITEM_KEYS, ItemKey, ItemShape, Key};
use super::text;
use super::walk::{Walk, Walked};

/// Open containers around a content item's members: the result, the
/// `contents` array and the item itself.
pub(crate) const ITEM: usize = 3;

/// Where the walk of `contents` stands (and, in the resumable lane, where
/// it goes on).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum In {
    /// After `[`: an item or `]`.
    First,
    /// After an item: `,` or `]`.
    Next,
    /// After `,` in the array: an item.
    Comma,
    /// An item is next (whitespace first).
    Item,
    /// After an item's `{`: a key or `}`.
    Open,
    /// After a member: `,` or `}`.
    After,
    /// After `,` in an item: a key.
    MemberComma,
    /// Inside a key (resumable lane).
    Key,
    /// After a key: `:`.
    Colon,
    /// A member's value is next (whitespace first).
    Value,
    /// Inside a string member (resumable lane).
    Str,
    /// Inside a member's other value (resumable lane: the walker's).
    Walk,
    /// Inside an item that is not an object (resumable lane: the walker's),
    /// refused at its end.
    Bad,
}

/// The state of a walk over `contents`: where it stands, how many items
/// it has read, and the item being read. Fixed size; the resumable lane
/// keeps the item's strings and other values in the walker's state it is
/// given ([`Walk`]).
#[derive(Debug, Clone)]
pub(crate) struct ContentsWalk {
    at: In,
    /// Stop after one item (the microcontrollers' item reader).
    one: bool,
    /// The key of the member being read.
    key: Option<ItemKey>,
    /// The item's members so far, for the untagged choice.
    item: ItemShape,
    /// A string member being handed to a reader (resumable lane).
    read: bool,
    /// An item's `_meta` object being handed to a reader (resumable lane):
    /// from where it starts in the chunk that has its `{`, from the start of
    /// each chunk after it (where a walk that ran out goes on).
    cap: bool,
}

impl ContentsWalk {
    /// A walk of the array whose `[` was consumed.
    pub(crate) const fn new() -> Self {
        Self {
            at: In::First,
            one: false,
            key: None,
            item: ItemShape::new(),
            read: false,
            cap: false,
        }
    }

    /// A walk of the array whose `[` was consumed, or (`one`) of one item.
    const fn whole(one: bool) -> Self {
        if one { Self::one() } else { Self::new() }
    }

    /// A walk of one item (whitespace first), which stops after it.
    pub(crate) const fn one() -> Self {
        let mut c = Self::new();
        c.at = In::Item;
        c.one = true;
        c
    }
}

/// Where the whole-buffer lane hands what the items hold, as validation
/// meets it: the view notes long strings for its own walk, the `alloc`
/// builder builds rmcp's items in the same pass, the microcontrollers' item
/// reader keeps the members. Each member comes after its value was checked;
/// `item_end` comes after the item's `}` and answers the item's verdict.
/// The resumable lane tells its sink ([`Sink`]) events instead.
pub(crate) trait Items<'a>: Sink {
    /// A string member (its key, if it is one the untagged choice looks
    /// at): `s` is at its value's opening quote, and the call checks the
    /// string fully (`s.string(true)`, or `s.string_unchecked_utf8()`
    /// followed by its own UTF-8 check).
    #[inline]
    fn string(&mut self, s: &mut Cursor<'a>, _key: Option<ItemKey>) -> Result<(), BodyError> {
        s.string(true).map(drop)
    }
    /// A member whose value is not a string: `s` is at its first byte,
    /// and the call checks the value fully (`s.value_full(ITEM)`) and hands
    /// it to [`other`](Self::other). The `alloc` builder builds `_meta` as
    /// it checks it.
    #[inline]
    fn value(&mut self, s: &mut Cursor<'a>, key: Option<ItemKey>) -> Result<(), BodyError> {
        let value = s.value_full(ITEM)?;
        self.other(key, value);
        Ok(())
    }
    /// A member whose value is not a string, checked.
    #[inline]
    fn other(&mut self, _key: Option<ItemKey>, _value: RawJson<'a>) {}
    /// The item closed with the members seen in `shape`: whether it is a
    /// valid text or blob item.
    #[inline]
    fn item_end(&mut self, shape: &ItemShape) -> bool {
        shape.is_item()
    }
    /// The `contents` array closed just before offset `end`.
    #[inline]
    fn contents_end(&mut self, _end: usize) {}
}

impl Items<'_> for () {}
impl Items<'_> for super::event::Dyn<'_> {}

impl<'a> Cursor<'a> {
    /// The whole-buffer lane as a function: `contents` from after its `[`
    /// (or, with `one`, one item: [`ContentsWalk::one`]), its items handed
    /// to `items`. Returns how many items it read.
    #[inline(always)]
    pub(crate) fn contents_whole<S: Items<'a>>(
        &mut self,
        one: bool,
        items: &mut S,
    ) -> Result<usize, BodyError> {
        if HOST {
            self.contents_at(&mut ContentsWalk::whole(one), items)
        } else {
            self.contents_own(one, items)
        }
    }

    /// The hosts' whole-buffer lane, on a state in the caller's frame
    /// (measured: 20 to 60 instructions a decode less than a state of its
    /// own, which the long state loop spills).
    fn contents_at<S: Items<'a>>(
        &mut self,
        c: &mut ContentsWalk,
        items: &mut S,
    ) -> Result<usize, BodyError> {
        let mut len = 0;
        self.contents::<false, S>(c, None, items, &mut len)?;
        Ok(len)
    }

    /// The microcontrollers' whole-buffer lane, one function for the
    /// decode and the views' item reader, on a state of its own, which
    /// stays in registers ([`contents_at`](Self::contents_at) inlined
    /// here; measured: 104 B of flash less than a state passed in by the
    /// caller).
    #[inline(never)]
    fn contents_own<S: Items<'a>>(&mut self, one: bool, items: &mut S) -> Result<usize, BodyError> {
        self.contents_at(&mut ContentsWalk::whole(one), items)
    }

    /// The resumable lane: the streaming core's, with the walker's state
    /// `w` and its stack for the items' strings and other values. Inlined
    /// into the one function of the core that runs it.
    #[inline(always)]
    pub(crate) fn contents_resume<S: Items<'a>>(
        &mut self,
        c: &mut ContentsWalk,
        w: &mut Walk,
        stack: &mut [Word],
        sink: &mut S,
    ) -> Result<Walked, BodyError> {
        self.contents::<true, S>(c, Some((w, stack)), sink, &mut 0)
    }

    /// Walks `contents` from `c`'s state (see the module's text); `nested`
    /// is the walker's state and stack, which only the resumable lane uses;
    /// `len` counts the items read (in this call). Returns [`Walked::Done`] after the array's `]` (or the one item's
    /// `}`), and in the resumable lane [`Walked::More`] where the chunk ran
    /// out, the state saved in `c`.
    #[inline(always)]
    #[allow(clippy::too_many_lines)]
    fn contents<const R: bool, S: Items<'a>>(
        &mut self,
        c: &mut ContentsWalk,
        mut nested: Option<(&mut Walk, &mut [Word])>,
        sink: &mut S,
        len: &mut usize,
    ) -> Result<Walked, BodyError> {
        let mut at = c.at;
        // Where a captured `_meta` starts in this chunk.
        let mut cap_from = self.pos;
        // The chunk ran out at `$at`: the resumable lane saves the walk and
        // asks for more; at the end of the input it falls through to the
        // error.
        macro_rules! more {
            ($at:expr) => {
                if R && !self.last {
                    c.at = $at;
                    return Ok(Walked::More);
                }
            };
        }
        // A member's value is next: starts it (the resumable lane) or reads
        // it whole (the whole-buffer lane; on hosts right after its key and
        // colon, without a trip through the state loop, which cost `decode`
        // 1 % on `small`; microcontrollers link one copy). Evaluates to where
        // the walk goes on.
        macro_rules! value {
            () => {{
                let first = self.ws();
                if first.is_none() {
                    more!(In::Value);
                }
                c.item.note(c.key, first);
                match (R, nested.as_mut()) {
                    (true, Some((w, _))) => {
                        if first == Some(b'"') {
                            let field = item_field(c.key);
                            c.read = sink.reads() && reads_string(field);
                            if c.read {
                                sink.event(Ev::Start(field));
                            }
                            self.pos += 1;
                            w.text.start(true, false);
                            In::Str
                        } else {
                            w.begin(true, 3);
                            if first == Some(b'{') && c.key == Some(ItemKey::Meta) && sink.reads() {
                                c.cap = true;
                                cap_from = self.pos;
                                sink.event(Ev::Start(item_field(c.key)));
                            }
                            In::Walk
                        }
                    }
                    _ => {
                        if first == Some(b'"') {
                            sink.string(self, c.key)?;
                        } else {
                            sink.value(self, c.key)?;
                        }
                        In::After
                    }
                }
            }};
        }
        loop {
            match at {
                In::First | In::Next => match self.ws() {
                    Some(b']') => {
                        self.pos += 1;
                        if !R {
                            sink.contents_end(self.pos);
                        }
                        return Ok(Walked::Done);
                    }
                    Some(b',') if at == In::Next => {
                        self.pos += 1;
                        at = In::Comma;
                    }
                    None => {
                        more!(at);
                        return Err(self.err(K::Eof));
                    }
                    Some(_) if at == In::Next => {
                        return Err(self.err(K::ExpectedCommaOrEndOfArray));
                    }
                    Some(_) => at = In::Item,
                },
                In::Comma => {
                    let next = self.ws();
                    if next.is_none() {
                        more!(In::Comma);
                    }
                    nest::after_array_comma(next).map_err(|k| self.err(k))?;
                    at = In::Item;
                }
                In::Item => match self.ws() {
                    Some(b'{') => {
                        self.pos += 1;
                        c.item = ItemShape::new();
                        if R && sink.reads() {
                            sink.event(Ev::ItemStart);
                        }
                        at = In::Open;
                    }
                    None if R && !self.last => {
                        c.at = In::Item;
                        return Ok(Walked::More);
                    }
                    // Not an object: checked as a value, then refused.
                    _ => {
                        if let (true, Some((w, _))) = (R, nested.as_mut()) {
                            w.begin(true, 2);
                            at = In::Bad;
                            continue;
                        }
                        self.value_full(ITEM - 1)?;
                        return Err(self.not_object());
                    }
                },
                In::Open | In::After => match self.ws() {
                    Some(b'}') => {
                        self.pos += 1;
                        let ok = if R {
                            c.item.is_item()
                        } else {
                            sink.item_end(&c.item)
                        };
                        if !ok {
                            let why = c.item.fault();
                            let at = self.base + self.pos - 1;
                            return Err(BodyError::about(K::InvalidContentItem, at, why));
                        }
                        if R && sink.reads() {
                            sink.event(Ev::ItemEnd(c.item.is_text()));
                        }
                        *len += 1;
                        if c.one {
                            return Ok(Walked::Done);
                        }
                        at = In::Next;
                    }
                    Some(b',') if at == In::After => {
                        self.pos += 1;
                        at = In::MemberComma;
                        if !R && HOST {
                            // The next member at once (its key and value).
                            let next = self.ws();
                            nest::after_object_comma(next).map_err(|k| self.err(k))?;
                            // (The whole-buffer lane's key takes its colon.)
                            self.item_key::<R>(c, &mut nested)?;
                            at = value!();
                        }
                    }
                    Some(b'"') if at == In::Open => {
                        at = self.item_key::<R>(c, &mut nested)?;
                        if !R && HOST {
                            at = value!();
                        }
                    }
                    None => {
                        more!(at);
                        return Err(self.err(K::Eof));
                    }
                    Some(_) if at == In::Open => return Err(self.err(K::KeyMustBeString)),
                    Some(_) => return Err(self.err(K::ExpectedCommaOrEndOfObject)),
                },
                In::MemberComma => {
                    let next = self.ws();
                    if next.is_none() {
                        more!(In::MemberComma);
                    }
                    nest::after_object_comma(next).map_err(|k| self.err(k))?;
                    if !HOST {
                        // The key at `Open`: one copy of the key's code.
                        at = In::Open;
                        continue;
                    }
                    at = self.item_key::<R>(c, &mut nested)?;
                    if !R {
                        at = value!();
                    }
                }
                In::Colon => match self.ws() {
                    Some(b':') => {
                        self.pos += 1;
                        at = In::Value;
                    }
                    None => {
                        more!(In::Colon);
                        return Err(self.err(K::Eof));
                    }
                    Some(_) => return Err(self.err(K::ExpectedColon)),
                },
                In::Value => at = value!(),
                // The resumable lane's states (the whole-buffer lane never
                // enters them: its lexemes read whole).
                In::Key | In::Str | In::Walk | In::Bad if !R => return Err(self.err(K::Eof)),
                In::Key | In::Str => {
                    let Some((w, _)) = nested.as_mut() else {
                        return Err(self.err(K::Eof));
                    };
                    // (`reads` first: a constant `false` for the validators'
                    // sink, which then has no reader's lane.)
                    // Microcontrollers call the lexeme from one place.
                    let read = sink.reads() && at == In::Str && c.read;
                    let end = if read || !HOST {
                        let field = item_field(c.key);
                        let mut to_reader = |piece: &str| sink.event(Ev::Str(field, piece));
                        let emit: Option<&mut dyn FnMut(&str)> =
                            if read { Some(&mut to_reader) } else { None };
                        w.text
                            .more(self.buf, self.pos, self.base, self.last, emit)?
                    } else {
                        w.text
                            .more(self.buf, self.pos, self.base, self.last, None)?
                    };
                    let Some(end) = end else {
                        self.pos = self.buf.len();
                        more!(at);
                        return Err(self.err(K::Eof));
                    };
                    self.pos = end;
                    if at == In::Key {
                        c.key = ItemKey::of(w.text.name().find(ITEM_KEYS));
                        at = In::Colon;
                    } else {
                        if read {
                            c.read = false;
                            sink.event(Ev::End(item_field(c.key)));
                        }
                        at = In::After;
                    }
                }
                In::Walk | In::Bad => {
                    let Some((w, stack)) = nested.as_mut() else {
                        return Err(self.err(K::Eof));
                    };
                    let walked = self.walk_call(w, stack)?;
                    let from = cap_from;
                    if walked != Walked::Done {
                        // The chunk ran out inside the value.
                        if c.cap {
                            let piece = self.buf.get(from..).unwrap_or_default();
                            if !piece.is_empty() {
                                sink.event(Ev::Raw(item_field(c.key), piece));
                            }
                        }
                        c.at = at;
                        return Ok(Walked::More);
                    }
                    if at == In::Bad {
                        return Err(self.not_object());
                    }
                    if c.cap {
                        c.cap = false;
                        let field = item_field(c.key);
                        let piece = self.buf.get(from..self.pos).unwrap_or_default();
                        if !piece.is_empty() {
                            sink.event(Ev::Raw(field, piece));
                        }
                        sink.event(Ev::End(field));
                    }
                    at = In::After;
                }
            }
        }
    }

    /// `pos` is at an item key's opening quote. The whole-buffer lane reads
    /// the key and its colon whole; the resumable lane takes a plain key whole in the
    /// chunk at once (hosts) and starts the string lexeme on any other.
    /// Returns where the walk goes on.
    #[inline(always)]
    fn item_key<const R: bool>(
        &mut self,
        c: &mut ContentsWalk,
        nested: &mut Option<(&mut Walk, &mut [Word])>,
    ) -> Result<In, BodyError> {
        if let (true, Some((w, _))) = (R, nested.as_mut()) {
            self.pos += 1;
            if let Some((end, key)) = text::plain_key(self.buf, self.pos) {
                self.pos = end;
                c.key = ItemKey::of(key.find(ITEM_KEYS));
                return Ok(In::Colon);
            }
            w.text.start(true, true);
            return Ok(In::Key);
        }
        // By the packed key on hosts, by the text on microcontrollers.
        let found = if HOST {
            self.key_name()?.1.find(ITEM_KEYS)
        } else {
            Key::find_text(self.key_text(true)?, ITEM_KEYS)
        };
        c.key = ItemKey::of(found);
        self.colon()?;
        Ok(In::Value)
    }

    /// An item that is not an object, read whole: refused at its end.
    #[cold]
    fn not_object(&self) -> BodyError {
        let at = self.base + self.pos;
        BodyError::about(K::InvalidContentItem, at, Detail::ITEM_NOT_OBJECT)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]
mod tests {
    extern crate std;
    use std::format;
    use std::string::String;
    use std::vec;
    use std::vec::Vec;

    use super::*;
    use crate::json::event::{Dyn, Field};
    use crate::json::walk::WINDOW;

    const TOKENS: [&[u8]; 30] = [
        b"{",
        b"}",
        b"]",
        b",",
        b" ",
        b":",
        b"\"uri\":\"u\"",
        b"\"uri\":\"a\\u00e9\\ud83d\\ude00\"",
        b"\"text\":\"t\\n\\\"x\"",
        b"\"text\":\"\xe2\x82\xac\"",
        b"\"blob\":\"QUJD\"",
        b"\"mimeType\":\"text/plain\"",
        b"\"mimeType\":null",
        b"\"_meta\":{\"a\":[1,{\"b\":null}]}",
        b"\"_meta\":null",
        b"\"\\u0075ri\":\"e\"",
        b"\"text\":1",
        b"\"x\":[1,2]",
        b"\"x\":tru",
        b"\"x\":\"\\q\"",
        b"\"x\":\"\xff\"",
        b"\"text\":\"\\ud800\"",
        b"\"uri\":",
        b"\"uri\"",
        b"1",
        b"[{}]",
        b"\"",
        b"null",
        b"\x01",
        b"{\"uri\":\"v\",\"text\":\"w\"}",
    ];

    /// What a lane told its sink: each kept string or `_meta` as
    /// `field=text`, and each item's verdict.
    #[derive(Default)]
    struct Log(Vec<String>);

    impl Sink for Log {}

    impl<'a> Items<'a> for Log {
        fn string(&mut self, s: &mut Cursor<'a>, key: Option<ItemKey>) -> Result<(), BodyError> {
            let text = s.string(true)?;
            if key.is_some_and(|k| k != ItemKey::Meta) {
                let mut buf = vec![0; text.unescaped_len()];
                let text = text.unescape_into(&mut buf).unwrap();
                self.0.push(format!("{:?}={text}", item_field(key)));
            }
            Ok(())
        }

        fn other(&mut self, key: Option<ItemKey>, value: RawJson<'a>) {
            if key == Some(ItemKey::Meta) && value.is_object() {
                let raw = String::from_utf8_lossy(value.as_bytes());
                self.0.push(format!("{:?}={raw}", Field::ItemMeta));
            }
        }

        fn item_end(&mut self, shape: &ItemShape) -> bool {
            let ok = shape.is_item();
            if ok {
                self.0.push(format!("end {}", shape.is_text()));
            }
            ok
        }
    }

    /// The whole-buffer lane over `input` (the text after `[`): the end and
    /// item count, or the error; and what it told its sink.
    fn whole(input: &[u8]) -> (Result<(usize, usize), BodyError>, Vec<String>) {
        let mut s = Cursor::new(input);
        let mut log = Log::default();
        let got = s.contents_whole(false, &mut log);
        (got.map(|n| (s.pos, n)), log.0)
    }

    /// The resumable lane fed as chunks ending at `cuts` (then the rest),
    /// a reader's events gathered as the whole lane's sink sees them.
    fn chunked(input: &[u8], cuts: &[usize]) -> (Result<usize, BodyError>, Vec<String>) {
        let mut log = Vec::new();
        let mut text = String::new();
        let mut on = |ev: Ev<'_>| match ev {
            Ev::Start(_) => text.clear(),
            Ev::Str(_, piece) => text.push_str(piece),
            Ev::Raw(_, bytes) => text.push_str(&String::from_utf8_lossy(bytes)),
            Ev::End(field) => log.push(format!("{field:?}={text}")),
            Ev::ItemEnd(is_text) => log.push(format!("end {is_text}")),
            _ => {}
        };
        let mut c = ContentsWalk::new();
        let mut w = Walk::new(true, 0, false);
        let mut stack = [0; WINDOW / nest::BITS];
        let mut from = 0;
        let mut got = None;
        let mut sink = Dyn(Some(&mut on));
        for &to in cuts.iter().chain([input.len()].iter()) {
            let last = to == input.len();
            let mut s = Cursor::chunk(&input[from..to], 0, from, last);
            match s.contents_resume(&mut c, &mut w, &mut stack, &mut sink) {
                Ok(Walked::Done) => {
                    got = Some(Ok(from + s.pos));
                    break;
                }
                Ok(_) => assert!(!last, "the last chunk ends the walk"),
                Err(e) => {
                    got = Some(Err(e));
                    break;
                }
            }
            from = to;
        }
        (got.unwrap(), log)
    }

    /// Fed in chunks cut anywhere (every single cut, and byte by byte), the
    /// resumable lane answers as the whole-buffer lane does: the verdict,
    /// the error's kind and offset, the array's end, and on an accepted
    /// array every kept string (unescaped), `_meta` and item verdict, on
    /// soup of items, members, escapes, UTF-8 and defects cut anywhere.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn chunks_cut_anywhere_answer_as_the_whole_buffer() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut buf = vec![];
        let mut oks = 0usize;
        for round in 0..8_000 {
            crate::json::xorshift(&mut seed);
            crate::json::soup(seed, 14, &TOKENS, &mut buf);
            if round % 3 == 0 {
                // A valid array more often than soup alone makes one.
                buf.splice(0..0, TOKENS[29].iter().copied());
                buf.push(b']');
            }
            let (want, want_log) = whole(&buf);
            oks += usize::from(want.is_ok());
            let cuts: Vec<Vec<usize>> = if round % 8 == 0 {
                vec![(1..buf.len()).collect()]
            } else {
                (0..=buf.len()).map(|c| vec![c]).collect()
            };
            let text = String::from_utf8_lossy(&buf);
            for cut in &cuts {
                let (got, log) = chunked(&buf, cut);
                assert_eq!(got, want.map(|(end, _)| end), "{text:?} cuts {cut:?}");
                if want.is_ok() {
                    assert_eq!(log, want_log, "{text:?} cuts {cut:?}");
                }
            }
        }
        assert!(oks > 300, "{oks} accepted");
    }

    /// One item alone ([`ContentsWalk::one`], the microcontrollers' item
    /// reader) stops after its `}`.
    #[test]
    fn one_item_stops_after_it() {
        let input = br#" {"uri":"u","text":"t"} , {"uri":1}"#;
        let mut s = Cursor::new(input);
        let n = s.contents_whole(true, &mut ()).unwrap();
        assert_eq!((n, s.pos), (1, 23));
    }
}
