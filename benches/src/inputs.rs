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
//! | `sdk` | 512 distinct frames as the Python and TypeScript MCP SDKs write them (1–5 short items, `_meta`, a few errors), cycled like `varied` | see [`sdk`] |

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

/// Which MCP SDK a `sdk` frame imitates.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Sdk {
    /// The Python SDK (pydantic, `model_dump_json` style): every object's keys
    /// sorted (so `_meta` comes first), every non-ASCII character escaped as
    /// `\uXXXX` (surrogate pairs above the BMP), compact separators.
    Python,
    /// The TypeScript SDK (`JSON.stringify`): keys in declaration order, raw
    /// UTF-8.
    TypeScript,
}

impl Sdk {
    fn string(self, s: &str) -> String {
        let mut out = String::new();
        json_string(&mut out, s, self == Self::Python);
        out
    }

    /// An object from `(key, raw JSON value)` members given in declaration
    /// order: sorted by key for Python, kept for TypeScript.
    fn object(self, mut members: Vec<(String, String)>) -> String {
        if self == Self::Python {
            members.sort_by(|a, b| a.0.cmp(&b.0));
        }
        let mut out = String::from("{");
        for (i, (k, v)) in members.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&self.string(k));
            out.push(':');
            out.push_str(v);
        }
        out.push('}');
        out
    }

    /// A float as the SDK's serializer writes it: the shortest text that
    /// reads back the same (Python `repr`, JavaScript `Number#toString`);
    /// Python keeps a `.0` on integral values. Only values in `[1e-4, 1e15)`
    /// come here, where neither uses an exponent.
    fn float(self, x: f64) -> String {
        let mut s = format!("{x}");
        if self == Self::Python && !s.contains('.') {
            s.push_str(".0");
        }
        s
    }
}

/// Pieces of the `sdk` texts: markdown, prose with non-ASCII (accents, CJK,
/// Cyrillic, emoji), code with quotes and backslashes, JSON, logs, CSV.
const SDK_PIECES: &[&str] = &[
    "# Project notes",
    "## Installation",
    "- [x] ship the resource server",
    "- [ ] add `cacheScope` to every result",
    "Run `pip install mcp` or `npm i @modelcontextprotocol/sdk`, then start the server.",
    "See [the docs](https://example.com/docs?q=resources&lang=en) for details.",
    "**Note:** the file is regenerated on every build.",
    "Café au lait, crème brûlée and a naïve résumé.",
    "Größe: 42 m², Preis: 9,99 €.",
    "日本語のテキストです。",
    "Привет, мир! Это пример.",
    "中文说明：请勿删除此文件。",
    "Deployed 🚀 with no regressions ✅.",
    "Zoë Müller reviewed it — «looks good».",
    "def main():\n    print(\"hello, world\")",
    "const config = { name: \"demo\", retries: 3 };",
    "\tif (path.startsWith(\"C:\\\\\")) { return \"windows\"; }",
    "{\"name\": \"demo-server\", \"version\": \"1.4.2\", \"private\": true}",
    "SELECT id, name FROM users WHERE email LIKE '%@example.com';",
    "2026-03-01T12:00:00Z INFO server listening on 127.0.0.1:8080",
    "2026-03-01T12:00:03Z WARN slow request: 812 ms for resources/read",
    "id,name,price\n1,Widget,9.99\n2,Gadget,19.50",
    "The quick brown fox jumps over the lazy dog.",
    "Resources are identified by URIs and read with one request each.",
];

/// A text of about `len` bytes from [`SDK_PIECES`], joined by newlines or spaces.
fn sdk_text(rng: &mut Rng, len: usize) -> String {
    let mut s = String::new();
    while s.len() < len {
        if !s.is_empty() {
            s.push(if rng.below(3) == 0 { ' ' } else { '\n' });
        }
        s.push_str(rng.pick(SDK_PIECES));
    }
    s
}

/// A `file://`, `docs://`, `https://` or custom-scheme URI, and the MIME
/// type that goes with it; some names are non-ASCII.
fn sdk_uri(rng: &mut Rng, blob: bool) -> (String, &'static str) {
    const USERS: &[&str] = &["dev", "alice", "zoë", "build"];
    const DIRS: &[&str] = &["src", "docs", "notes", "config", "data", "tests/fixtures"];
    const NAMES: &[&str] = &[
        "readme",
        "main",
        "utils",
        "café",
        "notes-2026",
        "schema",
        "index",
    ];
    const TEXT_EXT: &[(&str, &str)] = &[
        ("md", "text/markdown"),
        ("py", "text/x-python"),
        ("ts", "text/typescript"),
        ("json", "application/json"),
        ("txt", "text/plain"),
        ("html", "text/html"),
        ("csv", "text/csv"),
    ];
    const BLOB_EXT: &[(&str, &str)] = &[
        ("png", "image/png"),
        ("pdf", "application/pdf"),
        ("bin", "application/octet-stream"),
    ];
    let (ext, mime) = rng.pick(if blob { BLOB_EXT } else { TEXT_EXT });
    let n = rng.below(1000);
    let uri = match rng.below(8) {
        0..=3 => format!(
            "file:///home/{}/project/{}/{}.{ext}",
            rng.pick(USERS),
            rng.pick(DIRS),
            rng.pick(NAMES)
        ),
        4 | 5 => format!("docs://{}/{}-{n}", rng.pick(DIRS), rng.pick(NAMES)),
        6 => format!("https://api.example.com/v1/items/{n}?format={ext}"),
        _ => format!(
            "{}://{}/{n}",
            rng.pick(&["db", "config", "memory", "git"]),
            rng.pick(NAMES)
        ),
    };
    (uri, mime)
}

/// What a `_meta` member of the `sdk` frames holds.
#[derive(Clone, Copy)]
enum MetaValue {
    /// One of these strings.
    Str(&'static [&'static str]),
    /// An integer below this.
    Int(usize),
    /// A ratio of small integers: 16 or 17 significant digits, as often as not.
    Ratio,
    /// Hundredths, below 1 000.
    Hundredths,
    /// One of these.
    Float(&'static [f64]),
    Bool,
}

/// Item `_meta` members.
const SDK_ITEM_META: &[(&str, MetaValue)] = &[
    (
        "lastModified",
        MetaValue::Str(&["2026-03-01T12:00:00Z", "2025-11-30T08:15:42.123Z"]),
    ),
    ("size", MetaValue::Int(1 << 20)),
    ("priority", MetaValue::Float(&[0.0, 0.25, 0.5, 0.8, 1.0])),
    ("readOnly", MetaValue::Bool),
    ("etag", MetaValue::Str(&["W/\"5f3a-1c\"", "\"33a64df5\""])),
    ("lines", MetaValue::Int(5000)),
    ("score", MetaValue::Ratio),
    (
        "author",
        MetaValue::Str(&["Zoë Müller", "李雷", "dev", "Ana Lúcia"]),
    ),
];

/// Result `_meta` members.
const SDK_RESULT_META: &[(&str, MetaValue)] = &[
    (
        "requestId",
        MetaValue::Str(&["req-7f3a9c", "b3d1e2f0-5c4a-4e2b-9f1d-0a6c7e8b9d21"]),
    ),
    ("durationMs", MetaValue::Hundredths),
    ("cached", MetaValue::Bool),
    (
        "server",
        MetaValue::Str(&["files-mcp", "docs-server/1.4.2"]),
    ),
    ("attempt", MetaValue::Int(4)),
];

/// A `_meta` object of 1 to 4 distinct members of `keys`.
fn sdk_meta(rng: &mut Rng, sdk: Sdk, keys: &[(&str, MetaValue)]) -> String {
    let want = 1 + rng.below(4);
    let start = rng.below(keys.len());
    let mut members: Vec<(String, String)> = Vec::new();
    for &(key, kind) in keys.iter().cycle().skip(start).take(want) {
        let value = match kind {
            MetaValue::Str(pool) => sdk.string(rng.pick(pool)),
            MetaValue::Int(below) => rng.below(below).to_string(),
            MetaValue::Ratio => sdk.float((1 + rng.below(96)) as f64 / (3 + rng.below(97)) as f64),
            MetaValue::Hundredths => sdk.float(rng.below(100_000) as f64 / 100.0),
            MetaValue::Float(pool) => sdk.float(rng.pick(pool)),
            MetaValue::Bool => (rng.below(2) == 0).to_string(),
        };
        members.push((key.to_owned(), value));
    }
    sdk.object(members)
}

/// One `sdk` result frame (tag byte included): 1 to 5 short items.
fn sdk_result(rng: &mut Rng, sdk: Sdk) -> Vec<u8> {
    let items = 1 + rng.below(5);
    let mut contents = Vec::new();
    for _ in 0..items {
        let blob = rng.below(8) == 0;
        let (uri, mime) = sdk_uri(rng, blob);
        let body = if blob {
            let bytes: Vec<u8> = (0..24 + rng.below(600)).map(|_| rng.next() as u8).collect();
            ("blob", sdk.string(&base64(&bytes)))
        } else {
            // Tens to a few hundred bytes; one text in 16 is longer.
            let len = if rng.below(16) == 0 {
                600 + rng.below(1400)
            } else {
                16 + rng.below(320)
            };
            ("text", sdk.string(&sdk_text(rng, len)))
        };
        // Declaration order, as the TypeScript SDK writes it.
        let mut m = vec![("uri".to_owned(), sdk.string(&uri))];
        if rng.below(10) != 0 {
            m.push(("mimeType".to_owned(), sdk.string(mime)));
        }
        m.push((body.0.to_owned(), body.1));
        if rng.below(4) == 0 {
            m.push(("_meta".to_owned(), sdk_meta(rng, sdk, SDK_ITEM_META)));
        }
        contents.push(sdk.object(m));
    }
    let mut m = vec![("contents".to_owned(), format!("[{}]", contents.join(",")))];
    if rng.below(5) == 0 {
        m.push(("_meta".to_owned(), sdk_meta(rng, sdk, SDK_RESULT_META)));
    }
    if rng.below(2) == 0 {
        let ttl = rng.pick(&[0u64, 1_000, 30_000, 60_000, 300_000, 3_600_000]);
        m.push(("ttlMs".to_owned(), ttl.to_string()));
    }
    if rng.below(5) < 2 {
        m.push((
            "cacheScope".to_owned(),
            sdk.string(rng.pick(&["public", "private"])),
        ));
    }
    if rng.below(2) == 0 {
        m.push(("resultType".to_owned(), sdk.string("complete")));
    }
    let mut frame = vec![0u8];
    frame.extend_from_slice(sdk.object(m).as_bytes());
    frame
}

/// One `sdk` error frame (tag byte included): code, message, and mostly `data`.
fn sdk_error(rng: &mut Rng, sdk: Sdk) -> Vec<u8> {
    let (code, message) = rng.pick(&[
        (-32002, "Resource not found"),
        (-32602, "Invalid params: uri must be absolute"),
        (-32603, "Internal error: permission denied for «café.md»"),
        (-32600, "Invalid request"),
    ]);
    let mut m = vec![
        ("code".to_owned(), code.to_string()),
        ("message".to_owned(), sdk.string(message)),
    ];
    if rng.below(4) != 0 {
        let (uri, _) = sdk_uri(rng, false);
        let data = sdk.object(vec![
            ("uri".to_owned(), sdk.string(&uri)),
            ("retryable".to_owned(), (rng.below(2) == 0).to_string()),
        ]);
        m.push(("data".to_owned(), data));
    }
    let mut frame = vec![1u8];
    frame.extend_from_slice(sdk.object(m).as_bytes());
    frame
}

/// 512 distinct frames shaped like what the MCP SDKs write, about half in
/// the Python SDK's style and half in the TypeScript SDK's (see [`Sdk`]):
/// results of 1 to 5 short items (texts of tens to a few hundred bytes, one
/// in 16 up to 2 KB, one item in 8 a short blob), `file://`, `docs://` and
/// other URIs, MIME types, some item and result `_meta` objects of a few
/// strings, numbers and bools, `ttlMs`, `cacheScope`, `resultType`; one frame
/// in 24 is an error (code, message, mostly `data`). Most are under 4 KiB.
///
/// Each frame comes with its SDK. Panics if the reference rejects one.
pub fn sdk_tagged() -> Vec<(Sdk, Vec<u8>)> {
    let mut rng = Rng::new(2026);
    (0..512)
        .map(|i| {
            let sdk = if rng.below(2) == 0 {
                Sdk::Python
            } else {
                Sdk::TypeScript
            };
            let frame = if rng.below(24) == 0 {
                sdk_error(&mut rng, sdk)
            } else {
                sdk_result(&mut rng, sdk)
            };
            let (&tag, json) = frame.split_first().unwrap();
            let ok = match tag {
                0 => serde_json::from_slice::<rmcp::model::ReadResourceResult>(json).map(drop),
                _ => serde_json::from_slice::<rmcp::ErrorData>(json).map(drop),
            };
            if let Err(e) = ok {
                panic!(
                    "sdk frame {i} ({sdk:?}) rejected by the reference: {e}\n{}",
                    String::from_utf8_lossy(json)
                );
            }
            (sdk, frame)
        })
        .collect()
}

/// The `sdk` set: the frames of [`sdk_tagged`].
pub fn sdk() -> Vec<Vec<u8>> {
    sdk_tagged().into_iter().map(|(_, f)| f).collect()
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
