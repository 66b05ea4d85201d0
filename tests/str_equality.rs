//! `JsonStr`'s `==`, `Eq` and `Hash` are of the unescaped text: generated
//! texts, each spelled in several ways (plain, short escapes, `\u` escapes in
//! either case, surrogate pairs), decoded through the public API; two strings
//! are equal exactly when their texts are, and equal strings hash alike, also
//! under a hasher that is sensitive to how the bytes are split into `write`
//! calls. `StrValue` follows.
#![allow(clippy::indexing_slicing, clippy::unwrap_used, clippy::panic)]

mod common;

use std::hash::{BuildHasher, Hash, Hasher, RandomState};

use common::generate::Rng;
use diverge_frame::encode::StrValue;
use diverge_frame::{JsonStr, RequestView};

/// The characters texts are made of: few, so that equal texts are common;
/// ones that must be escaped, ones that may be, and every UTF-8 length.
const ALPHABET: [char; 10] = ['a', 'b', '/', '"', '\\', '\n', '\u{1}', 'é', '€', '😀'];

/// One spelling of `c` inside a JSON string.
fn spell(c: char, rng: &mut Rng, out: &mut String) {
    let must = c == '"' || c == '\\' || c < ' ';
    if !must && rng.below(2) == 0 {
        out.push(c);
        return;
    }
    let short = match c {
        '"' => Some("\\\""),
        '\\' => Some("\\\\"),
        '/' => Some("\\/"),
        '\n' => Some("\\n"),
        _ => None,
    };
    if let Some(s) = short
        && rng.below(2) == 0
    {
        out.push_str(s);
        return;
    }
    let mut units = [0u16; 2];
    for unit in c.encode_utf16(&mut units) {
        let hex = format!("{unit:04x}");
        out.push_str("\\u");
        out.push_str(&if rng.below(2) == 0 {
            hex.to_uppercase()
        } else {
            hex
        });
    }
}

fn text(rng: &mut Rng) -> String {
    (0..rng.below(5)).map(|_| rng.pick(&ALPHABET)).collect()
}

/// A spelling of `text`: the JSON of a request whose `uri` is it.
fn request(text: &str, rng: &mut Rng) -> String {
    let mut json = String::from("{\"uri\":\"");
    for c in text.chars() {
        spell(c, rng, &mut json);
    }
    json.push_str("\"}");
    json
}

/// FNV-1a over each `write` call's bytes, then its length: two different
/// splits of the same bytes hash differently, as many fast hashers do.
struct PerCall(u64);

impl Hasher for PerCall {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes.iter().chain(&bytes.len().to_le_bytes()) {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

fn hashes<T: Hash>(value: &T, std: &RandomState) -> (u64, u64) {
    let mut per_call = PerCall(0xcbf2_9ce4_8422_2325);
    value.hash(&mut per_call);
    (std.hash_one(value), per_call.finish())
}

#[test]
fn equal_texts_are_equal_and_hash_alike_whatever_the_spelling() {
    let std = RandomState::new();
    let mut rng = Rng::new(0x5eed_0f57);
    let (mut equal, mut unequal, mut respelled) = (0, 0, 0);
    for _ in 0..common::cases(20_000, 300) {
        let ta = text(&mut rng);
        // Half the time the same text, spelled anew.
        let tb = if rng.below(2) == 0 {
            ta.clone()
        } else {
            text(&mut rng)
        };
        let (ja, jb) = (request(&ta, &mut rng), request(&tb, &mut rng));
        let (ra, rb) = (
            RequestView::decode(ja.as_bytes()).unwrap(),
            RequestView::decode(jb.as_bytes()).unwrap(),
        );
        let (a, b): (JsonStr<'_>, JsonStr<'_>) = (ra.uri(), rb.uri());
        let same = ta == tb;
        assert_eq!(a == b, same, "{ja} / {jb}");
        assert_eq!(b == a, same, "{jb} / {ja}");
        assert!(a == a && a == ta.as_str() && b == tb.as_str());
        assert_eq!(a.raw_eq(&b), ja == jb, "{ja} / {jb}");
        let (sa, sb) = (StrValue::from(a), StrValue::from(tb.as_str()));
        assert_eq!(sa == sb, same, "{ja} / {tb:?}");
        assert_eq!(sb == sa, same);
        if same {
            assert_eq!(hashes(&a, &std), hashes(&b, &std), "{ja} / {jb}");
            assert_eq!(hashes(&sa, &std), hashes(&sb, &std), "{ja} / {tb:?}");
            assert_eq!(hashes(&sa, &std), hashes(&a, &std));
            equal += 1;
            respelled += usize::from(ja != jb);
        } else {
            unequal += 1;
        }
    }
    let cases = equal + unequal;
    assert!(equal * 3 > cases && unequal * 3 > cases && respelled * 4 > cases);
}

#[test]
fn unequal_texts_hash_apart_here() {
    // Not promised by `Hash`, but a hash of the text must see all of it:
    // prefixes, order and each character.
    let std = RandomState::new();
    let decode = |json: &'static str| RequestView::decode(json.as_bytes()).unwrap().uri();
    let texts = [
        decode(r#"{"uri":""}"#),
        decode(r#"{"uri":"a"}"#),
        decode(r#"{"uri":"\u0061b"}"#),
        decode(r#"{"uri":"ba"}"#),
        decode(r#"{"uri":"\u00e9"}"#),
        decode(r#"{"uri":"\ud83d\ude00"}"#),
    ];
    for (i, x) in texts.iter().enumerate() {
        for y in &texts[i + 1..] {
            assert_ne!(x, y);
            assert_ne!(hashes(x, &std), hashes(y, &std), "{x:?} / {y:?}");
        }
    }
    // A tuple of strings does not run one into the next.
    let (a, ab, b, empty) = (texts[1], texts[2], decode(r#"{"uri":"b"}"#), texts[0]);
    assert_ne!(hashes(&(a, b), &std), hashes(&(ab, empty), &std));
}
