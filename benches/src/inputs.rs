//! The bench inputs, generated deterministically (same bytes on every run and
//! every machine), so nothing large is committed.
//!
//! | name | what | size |
//! | --- | --- | --- |
//! | `small` | result, one short markdown text item | 275 B |
//! | `medium` | result, four source-code text items (quotes, backslashes, tabs, newlines, `\uXXXX`, raw non-ASCII), `_meta` objects | 4 443 B |
//! | `dense_1m` | result, one text item with an escape every ~4 bytes | 1 MiB |
//! | `plain_1m` | result, one plain ASCII text item, no escapes | 1 MiB |
//! | `blob_64k` | result, one blob item of 64 KiB base64 text (48 KiB decoded) | 65 679 B |
//! | `error` | error frame with `data` | 107 B |
//! | `request` | request with `_meta` | 72 B |
//! | `varied` | 512 distinct medium-like results, each iteration decodes all | 2.2 MiB total |

use std::fmt::Write as _;

/// xorshift64*: small, fast, deterministic.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// Appends `s` as a JSON string. `ascii`: escape every non-ASCII character as
/// `\uXXXX` (surrogate pairs above the BMP), as `ensure_ascii` encoders do;
/// otherwise write it raw, as serde_json does.
pub fn json_string(out: &mut String, s: &str, ascii: bool) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => write!(out, "\\u{:04x}", c as u32).unwrap(),
            c if ascii && !c.is_ascii() => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    write!(out, "\\u{:04x}", u).unwrap();
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// One content item.
pub struct Item<'a> {
    pub uri: &'a str,
    pub mime_type: Option<&'a str>,
    /// `Ok(text)` or `Err(base64)`.
    pub body: Result<&'a str, &'a str>,
    /// Raw JSON of the item's `_meta`, if any.
    pub meta: Option<&'a str>,
    /// Escape non-ASCII as `\uXXXX`.
    pub ascii: bool,
}

/// A result frame (tag byte included), members in rmcp's serialization order.
pub fn result_frame(
    items: &[Item<'_>],
    ttl_ms: Option<u64>,
    scope: Option<&str>,
    meta: Option<&str>,
) -> Vec<u8> {
    let mut j = String::from("{\"resultType\":\"complete\"");
    if let Some(t) = ttl_ms {
        write!(j, ",\"ttlMs\":{t}").unwrap();
    }
    if let Some(s) = scope {
        write!(j, ",\"cacheScope\":\"{s}\"").unwrap();
    }
    j.push_str(",\"contents\":[");
    for (i, it) in items.iter().enumerate() {
        if i > 0 {
            j.push(',');
        }
        j.push_str("{\"uri\":");
        json_string(&mut j, it.uri, false);
        if let Some(m) = it.mime_type {
            j.push_str(",\"mimeType\":");
            json_string(&mut j, m, false);
        }
        match it.body {
            Ok(text) => {
                j.push_str(",\"text\":");
                json_string(&mut j, text, it.ascii);
            }
            Err(blob) => {
                j.push_str(",\"blob\":");
                json_string(&mut j, blob, false);
            }
        }
        if let Some(m) = it.meta {
            j.push_str(",\"_meta\":");
            j.push_str(m);
        }
        j.push('}');
    }
    j.push(']');
    if let Some(m) = meta {
        j.push_str(",\"_meta\":");
        j.push_str(m);
    }
    j.push('}');
    let mut frame = vec![0u8];
    frame.extend_from_slice(j.as_bytes());
    frame
}

const CODE_LINES: &[&str] = &[
    "fn main() {",
    "\tlet path = \"C:\\\\Users\\\\dev\\\\notes.txt\";",
    "\tprintln!(\"{}: {:?}\", name, value);",
    "\tlet re = Regex::new(r\"^\\d+\\.\\d+$\").unwrap();",
    "\t// Résumé of the café's menu — naïve über-parsing",
    "\tif s.starts_with('\"') && s.ends_with('\"') {",
    "\t\treturn Err(\"unterminated \\\"quote\\\"\".into());",
    "\t}",
    "\tlet greeting = \"こんにちは, 世界! 😀\";",
    "\tmatch c { '\\n' => n += 1, '\\t' => t += 1, _ => {} }",
    "}",
    "",
    "/// Splits `a/b/c` on '/'.",
    "const TABLE: [u8; 4] = [0x00, 0x1f, 0x7f, 0xff];",
];

/// Source-like text of about `len` bytes, cycling through [`CODE_LINES`] from `seed`.
pub fn code_text(len: usize, seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let mut s = String::new();
    while s.len() < len {
        s.push_str(rng.pick(CODE_LINES));
        s.push('\n');
    }
    s
}

/// Text with an escape every ~4 bytes (quotes, backslashes, tabs, newlines,
/// `\u` escapes including surrogate pairs).
pub fn dense_text(len: usize) -> String {
    const PIECES: &[&str] = &[
        "a\"b", "\\", "\t", "\n", "x\"y\"", "é", "😀", "\r\n", "ab\\c", "\u{1}", "—",
    ];
    let mut rng = Rng::new(7);
    let mut s = String::new();
    while s.len() < len {
        s.push_str(rng.pick(PIECES));
        s.push_str(rng.pick(&["", "q", "wx", "yz0"]));
    }
    s
}

/// Plain ASCII prose without any character that needs an escape.
pub fn plain_text(len: usize) -> String {
    const WORDS: &[&str] = &[
        "the", "resource", "server", "returns", "contents", "of", "a", "file", "and", "client",
        "reads", "it", "with", "one", "request", "per", "uri", "cache", "scope", "public",
        "private", "relay", "frame", "JSON", "value.",
    ];
    let mut rng = Rng::new(11);
    let mut s = String::new();
    while s.len() < len {
        s.push_str(rng.pick(WORDS));
        s.push(' ');
    }
    s
}

/// Standard base64 with padding (for generating blobs only).
pub fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                s.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

const META: &str = r#"{"io.modelcontextprotocol/related":{"etag":"W/\"5f3a-1c\"","lastModified":"2026-03-01T12:00:00Z","size":4512,"tags":["src","rust"],"owner":"Zoë"}}"#;
const ITEM_META: &str = r#"{"lang":"rust","lines":[1,120],"checksum":"sha256:9f86d081884c7d65"}"#;

/// 275 B: one short markdown text item.
pub fn small() -> Vec<u8> {
    result_frame(
        &[Item {
            uri: "file:///project/docs/getting-started.md",
            mime_type: Some("text/markdown"),
            body: Ok(
                "# Getting started\n\nWelcome! Run `cargo build --release`, then open http://localhost:8080/ to see the dashboard.",
            ),
            meta: None,
            ascii: false,
        }],
        Some(60_000),
        Some("public"),
        None,
    )
}

/// A medium result built from `seed` (the `varied` set uses many seeds).
pub fn medium_from(seed: u64, items: usize, text_len: usize) -> Vec<u8> {
    let texts: Vec<String> = (0..items as u64)
        .map(|i| code_text(text_len, seed * 31 + i))
        .collect();
    let uris: Vec<String> = (0..items)
        .map(|i| format!("file:///project/src/module_{seed}/part_{i}.rs"))
        .collect();
    let list: Vec<Item<'_>> = (0..items)
        .map(|i| Item {
            uri: &uris[i],
            mime_type: if (seed as usize + i) % 5 == 4 {
                None
            } else {
                Some("text/x-rust")
            },
            body: Ok(&texts[i]),
            meta: if (seed as usize + i).is_multiple_of(3) {
                Some(ITEM_META)
            } else {
                None
            },
            ascii: (seed as usize + i) % 4 == 1,
        })
        .collect();
    let meta = if seed.is_multiple_of(2) {
        Some(META)
    } else {
        None
    };
    result_frame(
        &list,
        Some(30_000 + seed),
        Some(if seed.is_multiple_of(3) {
            "private"
        } else {
            "public"
        }),
        meta,
    )
}

/// 4 443 B: four source-code text items with escapes, non-ASCII and `_meta`.
pub fn medium() -> Vec<u8> {
    medium_from(0, 4, 800)
}

/// 1 MiB: one text item with dense escapes.
pub fn dense_1m() -> Vec<u8> {
    one_text(
        "file:///data/dense.txt",
        &dense_text(1 << 20),
        true,
        1 << 20,
    )
}

/// 1 MiB: one plain ASCII text item.
pub fn plain_1m() -> Vec<u8> {
    one_text(
        "file:///data/plain.txt",
        &plain_text(1 << 20),
        false,
        1 << 20,
    )
}

/// One blob item whose base64 text is 64 KiB (48 KiB decoded).
pub fn blob_64k() -> Vec<u8> {
    let mut rng = Rng::new(3);
    let bytes: Vec<u8> = (0..48 * 1024).map(|_| rng.next() as u8).collect();
    let b64 = base64(&bytes);
    assert_eq!(b64.len(), 64 * 1024);
    result_frame(
        &[Item {
            uri: "file:///data/image.png",
            mime_type: Some("image/png"),
            body: Err(&b64),
            meta: None,
            ascii: false,
        }],
        Some(3_600_000),
        Some("public"),
        None,
    )
}

/// 107 B error frame with `data`.
pub fn error() -> Vec<u8> {
    let mut f = vec![1u8];
    f.extend_from_slice(
        br#"{"code":-32002,"message":"Resource not found","data":{"uri":"file:///project/docs/guide/missing-page.md"}}"#,
    );
    f
}

/// A request with `_meta`.
pub fn request() -> Vec<u8> {
    br#"{"uri":"file:///project/src/main.rs","_meta":{"progressToken":"tok-42"}}"#.to_vec()
}

/// 512 distinct medium-like results (1 to 6 items, 400 to 1 500 bytes of text each).
pub fn varied() -> Vec<Vec<u8>> {
    let mut rng = Rng::new(99);
    (0..512u64)
        .map(|seed| {
            let items = 1 + rng.below(6);
            let text = 400 + rng.below(1100);
            medium_from(seed + 1, items, text)
        })
        .collect()
}

/// The longest prefix of `text` whose escaped form fits `room` bytes,
/// padded with `x` to exactly `room` escaped bytes.
fn fit(text: &str, room: usize, ascii: bool) -> String {
    let mut out = String::new();
    let mut used = 0usize;
    let mut esc = String::new();
    for c in text.chars() {
        esc.clear();
        let mut buf = [0u8; 4];
        json_string(&mut esc, c.encode_utf8(&mut buf), ascii);
        let n = esc.len() - 2;
        if used + n > room {
            break;
        }
        used += n;
        out.push(c);
    }
    out.extend(std::iter::repeat_n('x', room - used));
    out
}

/// A one-text-item result of exactly `len` bytes.
fn one_text(uri: &str, text: &str, ascii: bool, len: usize) -> Vec<u8> {
    let frame = |t: &str| {
        result_frame(
            &[Item {
                uri,
                mime_type: Some("text/plain"),
                body: Ok(t),
                meta: None,
                ascii,
            }],
            None,
            None,
            None,
        )
    };
    let overhead = frame("").len();
    let f = frame(&fit(text, len - overhead, ascii));
    assert_eq!(f.len(), len);
    f
}

/// Every named single input, in table order.
pub fn all() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("small", small()),
        ("medium", medium()),
        ("dense_1m", dense_1m()),
        ("plain_1m", plain_1m()),
        ("blob_64k", blob_64k()),
        ("error", error()),
    ]
}
