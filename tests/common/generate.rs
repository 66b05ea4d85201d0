//! Deterministic generators of frames and requests that stress every rule of
//! the reference decoder: mostly well-formed, with defects mixed in.
#![allow(
    dead_code,
    unreachable_pub,
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::panic
)]

/// xorshift64*: small, fast, deterministic.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
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
    /// True with probability 1/n.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

pub struct Gen {
    pub rng: Rng,
    /// 0: always valid pieces; larger: more defects.
    pub chaos: usize,
}

const STRING_PIECES: &[&str] = &[
    "a",
    "docs://x",
    "hello world",
    "é",
    "😀",
    "\u{2028}",
    "\u{7f}",
    "/",
    "\\n",
    "\\\"",
    "\\\\",
    "\\/",
    "\\b\\f\\r\\t",
    "\\u00e9",
    "\\u0000",
    "\\uD83D\\uDE00",
    "\\ud83d\\ude00",
    "\\u2028",
    "\\u0041",
    "text",
    "blob",
    "uri",
    "{}[],:",
    "AAE=",
    "https://example.com/a?b=c#d",
    "\\u0075ri",
];
const BAD_STRING_PIECES: &[&[u8]] = &[
    b"\\ud800",
    b"\\udc00",
    b"\\ud800\\u0041",
    b"\\ud800x",
    b"\\u12G4",
    b"\\x",
    b"\t",
    b"\x00",
    b"\x1f",
    b"\xff",
    b"\xed\xa0\x80",
    b"\xc0\xaf",
    b"\xf4\x90\x80\x80",
    b"\xe2\x82",
    b"\\u",
    b"\\ud800\\",
    b"\\ud800\\n",
    b"\\uDBFF\\uDFFF",
];
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "7",
    "1000",
    "-5",
    "2147483647",
    "-2147483648",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551615",
    "1.5",
    "1.0",
    "1e3",
    "1E3",
    "-0.0",
    "0.1",
    "1e-400",
    "1.7976931348623157e308",
    "123456789012345678901234567890",
    "-32002",
    "-32602",
    "-32603",
    "32",
    "4.5e-10",
    "1e+2",
];
const BAD_NUMBERS: &[&str] = &[
    "-0",
    "01",
    "1.",
    "1e",
    "-",
    "+1",
    ".5",
    "1e400",
    "-1e400",
    "1.7976931348623159e308",
    "2147483648",
    "-2147483649",
    "9223372036854775808",
    "-9223372036854775809",
    "18446744073709551616",
    "NaN",
    "Infinity",
    "1e2147483648",
    "0e2147483648",
    "1.e3",
    "-01",
    "0x10",
    "1_000",
];
const WS: &[&str] = &["", "", "", " ", "\n", "\t", "\r\n  ", "  "];
const BAD_WS: &[&str] = &["\x0c", "\x0b", "\u{a0}", "\x00"];

impl Gen {
    pub fn new(seed: u64, chaos: usize) -> Self {
        Self {
            rng: Rng::new(seed),
            chaos,
        }
    }

    fn defect(&mut self) -> bool {
        self.chaos > 0 && self.rng.one_in(40 / self.chaos.min(40))
    }

    pub fn ws(&mut self, out: &mut Vec<u8>) {
        if self.defect() && self.rng.one_in(4) {
            out.extend_from_slice(self.rng.pick(BAD_WS).as_bytes());
        } else {
            out.extend_from_slice(self.rng.pick(WS).as_bytes());
        }
    }

    pub fn string_body(&mut self, out: &mut Vec<u8>) {
        let n = match self.rng.below(10) {
            0 => 0,
            1..=6 => 1 + self.rng.below(3),
            _ => 1 + self.rng.below(12),
        };
        for _ in 0..n {
            if self.defect() {
                out.extend_from_slice(self.rng.pick(BAD_STRING_PIECES));
            } else {
                out.extend_from_slice(self.rng.pick(STRING_PIECES).as_bytes());
            }
        }
    }

    pub fn string(&mut self, out: &mut Vec<u8>) {
        out.push(b'"');
        self.string_body(out);
        if !(self.defect() && self.rng.one_in(8)) {
            out.push(b'"');
        }
    }

    pub fn number(&mut self, out: &mut Vec<u8>) {
        let n = if self.defect() {
            self.rng.pick(BAD_NUMBERS)
        } else {
            self.rng.pick(NUMBERS)
        };
        out.extend_from_slice(n.as_bytes());
    }

    /// A key: a known name (sometimes escaped), or another one.
    pub fn key(&mut self, known: &[&str], out: &mut Vec<u8>) {
        if !known.is_empty() && !self.rng.one_in(4) {
            let name = self.rng.pick(known);
            out.push(b'"');
            if self.rng.one_in(12) && !name.is_empty() {
                // escape the first character: `\u0075ri`
                let c = name.as_bytes()[0];
                out.extend_from_slice(format!("\\u{:04x}", c).as_bytes());
                out.extend_from_slice(&name.as_bytes()[1..]);
            } else if self.rng.one_in(30) {
                out.extend_from_slice(name.to_uppercase().as_bytes());
            } else {
                out.extend_from_slice(name.as_bytes());
            }
            out.push(b'"');
        } else {
            self.string(out);
        }
    }

    /// Any JSON value, up to `depth` more levels.
    pub fn value(&mut self, depth: usize, out: &mut Vec<u8>) {
        let choice = if depth == 0 {
            self.rng.below(5)
        } else {
            self.rng.below(8)
        };
        match choice {
            0 => out.extend_from_slice(b"null"),
            1 => out.extend_from_slice(if self.rng.one_in(2) {
                b"true"
            } else {
                b"false"
            }),
            2 => self.number(out),
            3 | 4 => self.string(out),
            5 | 6 => self.object(depth - 1, &[], out),
            _ => self.array(depth - 1, out),
        }
        if self.defect() && self.rng.one_in(10) {
            out.extend_from_slice(
                self.rng
                    .pick::<&[u8]>(&[b"nul", b"tru", b"x", b"]", b"}", b","]),
            );
        }
    }

    pub fn array(&mut self, depth: usize, out: &mut Vec<u8>) {
        out.push(b'[');
        let n = self.rng.below(4);
        for i in 0..n {
            if i > 0 {
                out.push(b',');
            }
            self.ws(out);
            self.value(depth, out);
            self.ws(out);
        }
        if self.defect() && self.rng.one_in(6) {
            out.push(b',');
        }
        out.push(if self.defect() && self.rng.one_in(6) {
            b'}'
        } else {
            b']'
        });
    }

    pub fn object(&mut self, depth: usize, known: &[&str], out: &mut Vec<u8>) {
        out.push(b'{');
        let n = self.rng.below(4);
        for i in 0..n {
            if i > 0 {
                out.push(b',');
            }
            self.ws(out);
            self.key(known, out);
            self.ws(out);
            out.push(b':');
            self.ws(out);
            self.value(depth, out);
        }
        out.push(if self.defect() && self.rng.one_in(6) {
            b']'
        } else {
            b'}'
        });
    }

    /// Nested containers `n` deep around a scalar (mixed brackets).
    pub fn nest(&mut self, n: usize, out: &mut Vec<u8>) {
        let mut closers = Vec::with_capacity(n);
        for _ in 0..n {
            if self.rng.one_in(2) {
                out.extend_from_slice(b"[");
                closers.push(b']');
            } else {
                out.extend_from_slice(b"{\"k\":");
                closers.push(b'}');
            }
        }
        out.extend_from_slice(b"1");
        if self.defect() && self.rng.one_in(3) && !closers.is_empty() {
            let i = self.rng.below(closers.len());
            closers[i] = if closers[i] == b']' { b'}' } else { b']' };
        }
        out.extend(closers.iter().rev());
    }

    /// A value for a field that usually has the right type.
    fn typed(&mut self, kind: Kind, out: &mut Vec<u8>) {
        if self.defect() && self.rng.one_in(3) {
            self.value(2, out);
            return;
        }
        match kind {
            Kind::Str => self.string(out),
            Kind::OptStr => {
                if self.rng.one_in(6) {
                    out.extend_from_slice(b"null")
                } else {
                    self.string(out)
                }
            }
            Kind::Map => {
                if self.rng.one_in(6) {
                    out.extend_from_slice(b"null")
                } else if self.rng.one_in(25) {
                    let d = 120 + self.rng.below(10);
                    out.extend_from_slice(b"{\"d\":");
                    self.nest(d, out);
                    out.push(b'}');
                } else {
                    self.object(3, &["progressToken", "a", "z", "k"], out)
                }
            }
            Kind::Value => {
                if self.rng.one_in(25) {
                    let d = 120 + self.rng.below(10);
                    self.nest(d, out);
                } else {
                    self.value(3, out)
                }
            }
            Kind::Int => self.number(out),
            Kind::Scope => {
                let scopes: &[&str] = &[
                    "\"public\"",
                    "\"private\"",
                    "\"\"",
                    "null",
                    "{\"public\":null}",
                    "{\"private\":null}",
                    "{\"public\":null,\"public\":null}",
                    "{\"public\":1,\"public\":null}",
                    "{\"public\":null,\"public\":1}",
                    "{\"public\":null,\"private\":null}",
                    "{}",
                    "\"Public\"",
                    "1",
                    "[\"public\"]",
                    "{\"\\u0070ublic\":null}",
                    "\"\\u0070rivate\"",
                    "{\"public\":{}}",
                    "{\"other\":null}",
                ];
                out.extend_from_slice(self.rng.pick(scopes).as_bytes());
            }
            Kind::Contents => {
                out.push(b'[');
                let n = self.rng.below(4);
                for i in 0..n {
                    if i > 0 {
                        out.push(b',');
                    }
                    self.ws(out);
                    self.content_item(out);
                    self.ws(out);
                }
                out.push(b']');
            }
        }
    }

    pub fn content_item(&mut self, out: &mut Vec<u8>) {
        if self.defect() && self.rng.one_in(8) {
            // positional form or a non-object
            out.extend_from_slice(b"[\"u\",null,\"t\",null]");
            return;
        }
        let mut members: Vec<(&str, Kind)> = vec![("uri", Kind::Str)];
        match self.rng.below(6) {
            0 | 1 => members.push(("text", Kind::Str)),
            2 | 3 => members.push(("blob", Kind::Str)),
            4 => {
                members.push(("text", Kind::Str));
                members.push(("blob", Kind::Str));
            }
            _ => {}
        }
        if self.rng.one_in(2) {
            members.push(("mimeType", Kind::OptStr));
        }
        if self.rng.one_in(3) {
            members.push(("_meta", Kind::Map));
        }
        if self.rng.one_in(4) {
            members.push(("annotations", Kind::Value));
        }
        if self.chaos > 0 && self.rng.one_in(6) {
            let dup = members[self.rng.below(members.len())];
            members.push(dup);
        }
        if self.chaos > 0 && self.rng.one_in(8) {
            members.remove(self.rng.below(members.len()));
        }
        if self.chaos > 0 && self.rng.one_in(5) {
            // text that is not a string (falls through to blob)
            members.push(("text", Kind::Value));
        }
        self.shuffle(&mut members);
        self.emit_object(&members, out);
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.rng.below(i + 1);
            items.swap(i, j);
        }
    }

    fn emit_object(&mut self, members: &[(&str, Kind)], out: &mut Vec<u8>) {
        out.push(b'{');
        for (i, (name, kind)) in members.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            self.ws(out);
            self.key(&[name], out);
            self.ws(out);
            out.push(b':');
            self.ws(out);
            self.typed(*kind, out);
            self.ws(out);
        }
        out.push(b'}');
    }

    /// A whole struct in object or positional form, with unknown members.
    fn toplevel(&mut self, fields: &[(&'static str, Kind, bool)], out: &mut Vec<u8>) {
        self.ws(out);
        if self.rng.one_in(10) {
            // positional form: exactly the fields in order (sometimes not)
            out.push(b'[');
            let mut n = fields.len();
            if self.chaos > 0 && self.rng.one_in(4) {
                n = self.rng.below(fields.len() + 2);
            }
            for i in 0..n {
                if i > 0 {
                    out.push(b',');
                }
                self.ws(out);
                match fields.get(i) {
                    Some((_, kind, _)) if !self.rng.one_in(4) || !fields[i].2 => {
                        self.typed(*kind, out)
                    }
                    _ => out.extend_from_slice(b"null"),
                }
            }
            out.push(b']');
        } else {
            let mut members: Vec<(&str, Kind)> = Vec::new();
            for &(name, kind, required) in fields {
                if required || self.rng.one_in(2) {
                    members.push((name, kind));
                }
            }
            let unknown = self.rng.below(3);
            for _ in 0..unknown {
                members.push(("x", Kind::Value));
            }
            if self.chaos > 0 && self.rng.one_in(8) {
                let dup = members[self.rng.below(members.len())];
                members.push(dup);
            }
            if self.chaos > 0 && self.rng.one_in(12) && !members.is_empty() {
                members.remove(self.rng.below(members.len()));
            }
            self.shuffle(&mut members);
            out.push(b'{');
            for (i, (name, kind)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                self.ws(out);
                if *name == "x" {
                    // an unknown member: syntax-only checks, any depth
                    self.string(out);
                    out.push(b':');
                    if self.rng.one_in(20) {
                        let d = 100 + self.rng.below(2000);
                        self.nest(d, out);
                    } else {
                        self.value(3, out);
                    }
                } else {
                    self.key(&[name], out);
                    self.ws(out);
                    out.push(b':');
                    self.ws(out);
                    self.typed(*kind, out);
                }
                self.ws(out);
            }
            out.push(b'}');
        }
        self.ws(out);
        if self.defect() && self.rng.one_in(4) {
            out.extend_from_slice(
                self.rng
                    .pick::<&[u8]>(&[b"x", b"{}", b"\x0c", b"\xef\xbb\xbf"]),
            );
        }
    }

    pub fn request(&mut self) -> Vec<u8> {
        let mut out = Vec::new();
        if self.defect() && self.rng.one_in(20) {
            out.extend_from_slice(b"\xef\xbb\xbf");
        }
        self.toplevel(
            &[
                ("_meta", Kind::Map, false),
                ("uri", Kind::Str, true),
                ("inputResponses", Kind::Map, false),
                ("requestState", Kind::OptStr, false),
            ],
            &mut out,
        );
        out
    }

    pub fn result_json(&mut self) -> Vec<u8> {
        let mut out = Vec::new();
        self.toplevel(
            &[
                ("resultType", Kind::OptStr, false),
                ("ttlMs", Kind::Int, false),
                ("cacheScope", Kind::Scope, false),
                ("contents", Kind::Contents, true),
                ("_meta", Kind::Map, false),
            ],
            &mut out,
        );
        out
    }

    pub fn error_json(&mut self) -> Vec<u8> {
        let mut out = Vec::new();
        self.toplevel(
            &[
                ("code", Kind::Int, true),
                ("message", Kind::Str, true),
                ("data", Kind::Value, false),
            ],
            &mut out,
        );
        out
    }

    pub fn frame(&mut self) -> Vec<u8> {
        let tag = if self.defect() && self.rng.one_in(10) {
            self.rng.below(256) as u8
        } else {
            self.rng.below(2) as u8
        };
        let mut out = vec![tag];
        let json = if tag == 1 {
            self.error_json()
        } else {
            self.result_json()
        };
        out.extend_from_slice(&json);
        out
    }

    /// One to three byte-level mutations.
    pub fn mutate(&mut self, input: &mut Vec<u8>) {
        const ALPHABET: &[u8] = b"{}[]\",:\\ 0123456789-.eEnultrfasx\x00\x0c\x7f\x80\xff\xc3\xa9";
        for _ in 0..1 + self.rng.below(3) {
            if input.is_empty() {
                input.push(self.rng.pick(ALPHABET));
                continue;
            }
            let at = self.rng.below(input.len());
            match self.rng.below(4) {
                0 => {
                    input.remove(at);
                }
                1 => input.insert(at, self.rng.pick(ALPHABET)),
                2 => input[at] = self.rng.pick(ALPHABET),
                _ => {
                    let end = (at + 1 + self.rng.below(8)).min(input.len());
                    let chunk: Vec<u8> = input[at..end].to_vec();
                    let to = self.rng.below(input.len());
                    input.splice(to..to, chunk);
                }
            }
        }
    }
}

#[derive(Clone, Copy)]
enum Kind {
    Str,
    OptStr,
    Map,
    Value,
    Int,
    Scope,
    Contents,
}
