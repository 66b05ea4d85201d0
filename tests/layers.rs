//! The layering of `src/` (DESIGN.md, "Layering"), read off the source:
//! `error.rs` imports nothing from the crate, the grammar (`json/`) imports
//! only errors, `stream/` imports no view rules, and no file of `src/` reaches
//! itself through the crate's imports (no import circle).
//!
//! An import is any path through `crate::` or `super::` (in a `use` or
//! inline), and a `use` of a child module by its parent (`pub use
//! reader::Reader`). Unit tests (`#[cfg(test)]` modules) are left out: they
//! may reach anything.
#![allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// A module, as the path of names from the crate root (`["json", "cursor"]`).
type Module = Vec<String>;

/// Every `.rs` file under `src/`, as its module and its text.
fn sources() -> BTreeMap<Module, String> {
    fn walk(dir: &Path, out: &mut BTreeMap<Module, String>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path
                    .strip_prefix(concat!(env!("CARGO_MANIFEST_DIR"), "/src"))
                    .unwrap();
                let mut module: Module = rel
                    .with_extension("")
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                if matches!(module.last().map(String::as_str), Some("mod" | "lib")) {
                    module.pop();
                }
                out.insert(module, fs::read_to_string(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/src")),
        &mut out,
    );
    out
}

/// The text without comments and without its unit tests.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]") {
        Some(at) => &text[..at],
        None => text,
    };
    strip_comments(text)
}

/// The text without comments, its unit tests kept. Inside a test module
/// (after the file's first `#[cfg(test)]`) `super::` is the file's own
/// module, so each run of `super::` there loses one.
fn code_and_tests(text: &str) -> String {
    match text.find("#[cfg(test)]") {
        Some(at) => {
            let tests = &text[at..];
            let mut out = String::new();
            let mut rest = tests;
            while let Some(i) = rest.find("super::") {
                out.push_str(&rest[..i]);
                rest = &rest[i + "super::".len()..];
                while let Some(r) = rest.strip_prefix("super::") {
                    out.push_str("super::");
                    rest = r;
                }
            }
            out.push_str(rest);
            format!("{}\n{}", strip_comments(&text[..at]), strip_comments(&out))
        }
        None => strip_comments(text),
    }
}

/// The text without `//` comments.
fn strip_comments(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The paths of the use-tree at the start of `s` (after `crate::` or
/// `super::`): `a::b`, `a::{b, c::d}`, `{a, b}`; each path as its names.
fn use_tree(s: &str) -> Vec<Vec<String>> {
    fn tree(s: &[char], i: &mut usize, prefix: &[String], out: &mut Vec<Vec<String>>) {
        let mut path = prefix.to_vec();
        loop {
            while s.get(*i).is_some_and(|c| c.is_whitespace()) {
                *i += 1;
            }
            if s.get(*i) == Some(&'{') {
                *i += 1;
                loop {
                    tree(s, i, &path, out);
                    while s.get(*i).is_some_and(|c| c.is_whitespace()) {
                        *i += 1;
                    }
                    match s.get(*i) {
                        Some(',') => *i += 1,
                        Some('}') => {
                            *i += 1;
                            return;
                        }
                        _ => return,
                    }
                    while s.get(*i).is_some_and(|c| c.is_whitespace()) {
                        *i += 1;
                    }
                    if s.get(*i) == Some(&'}') {
                        *i += 1;
                        return;
                    }
                }
            }
            let start = *i;
            while s.get(*i).is_some_and(|&c| is_ident(c)) {
                *i += 1;
            }
            if *i == start {
                out.push(path);
                return;
            }
            path.push(s[start..*i].iter().collect());
            if s.get(*i) == Some(&':') && s.get(*i + 1) == Some(&':') {
                *i += 2;
            } else {
                out.push(path);
                return;
            }
        }
    }
    let chars: Vec<char> = s.chars().take(2000).collect();
    let mut out = Vec::new();
    tree(&chars, &mut 0, &[], &mut out);
    out
}

/// The modules `module`'s code imports (`mods` are all the crate's modules).
fn imports(module: &Module, code: &str, mods: &BTreeSet<Module>) -> BTreeSet<Module> {
    let resolve = |path: &[String]| -> Option<Module> {
        (1..=path.len())
            .rev()
            .map(|n| path[..n].to_vec())
            .find(|m| mods.contains(m))
    };
    let mut out = BTreeSet::new();
    let mut add = |base: &[String], rest: &str| {
        for tail in use_tree(rest) {
            let path: Vec<String> = base.iter().cloned().chain(tail).collect();
            if let Some(m) = resolve(&path) {
                out.insert(m);
            }
        }
    };
    for (at, _) in code.match_indices("crate::") {
        if code[..at].chars().next_back().is_some_and(is_ident) {
            continue;
        }
        add(&[], &code[at + "crate::".len()..]);
    }
    for (at, _) in code.match_indices("super::") {
        // The first `super` of a run only.
        if code[..at].chars().next_back().is_some_and(is_ident) || code[..at].ends_with("::") {
            continue;
        }
        // `super::super::x`: one level up per `super`.
        let mut rest = &code[at..];
        let mut up = 0;
        while let Some(r) = rest.strip_prefix("super::") {
            rest = r;
            up += 1;
        }
        if let Some(parent) = module.len().checked_sub(up) {
            add(&module[..parent], rest);
        }
    }
    // A parent's `use child::…`.
    for line in code.lines() {
        let line = line.trim_start();
        let Some(at) = line.find("use ") else {
            continue;
        };
        let head = &line[..at];
        if !(head.is_empty() || head.starts_with("pub")) {
            continue;
        }
        let rest = line[at + 4..].trim_start();
        let rest = rest.strip_prefix("self::").unwrap_or(rest);
        let first: String = rest.chars().take_while(|&c| is_ident(c)).collect();
        let child: Module = module.iter().cloned().chain([first]).collect();
        if mods.contains(&child) {
            add(module, rest);
        }
    }
    out.remove(module);
    out.remove(&Vec::new());
    out
}

fn graph() -> BTreeMap<Module, BTreeSet<Module>> {
    graph_of(code)
}

/// The import graph, each file's text read through `read`.
fn graph_of(read: fn(&str) -> String) -> BTreeMap<Module, BTreeSet<Module>> {
    let sources = sources();
    let mods: BTreeSet<Module> = sources.keys().cloned().collect();
    sources
        .iter()
        .map(|(m, text)| (m.clone(), imports(m, &read(text), &mods)))
        .collect()
}

fn name(m: &Module) -> String {
    if m.is_empty() {
        "lib".to_owned()
    } else {
        m.join("::")
    }
}

#[test]
fn the_reader_sees_the_imports() {
    // The parser itself: a nested use-tree, a parent's use of a child.
    let mods: BTreeSet<Module> = [
        vec![],
        vec!["a".into()],
        vec!["a".into(), "b".into()],
        vec!["c".into()],
    ]
    .into_iter()
    .collect();
    let got = imports(
        &vec!["a".into()],
        "use crate::{c::X, a::b::{Y, Z}};\npub use b::W;",
        &mods,
    );
    let want: BTreeSet<Module> = [vec!["c".into()], vec!["a".into(), "b".into()]]
        .into_iter()
        .collect();
    assert_eq!(got, want);
    let got = imports(
        &vec!["a".into(), "b".into()],
        "fn f() { super::super::c::g() }",
        &mods,
    );
    assert_eq!(got, [vec!["c".to_owned()]].into_iter().collect());
    // Inside a test module, `super::` is the file's own module.
    let text = code_and_tests(
        "use super::d;\n#[cfg(test)]\nmod tests { use super::super::c::X; use super::Y; }",
    );
    assert!(text.contains("use super::d;"), "{text}");
    assert!(text.contains("use super::c::X;"), "{text}");
    assert!(text.contains("use Y;"), "{text}");
}

#[test]
fn error_imports_nothing_from_the_crate() {
    let g = graph();
    let deps = &g[&vec!["error".to_owned()]];
    assert!(
        deps.is_empty(),
        "error.rs imports {:?}",
        deps.iter().map(name).collect::<Vec<_>>()
    );
}

#[test]
fn the_grammar_imports_only_errors() {
    for (m, deps) in graph() {
        if m.first().map(String::as_str) != Some("json") {
            continue;
        }
        for d in deps {
            assert!(
                matches!(d.first().map(String::as_str), Some("json" | "error")),
                "{} imports {}",
                name(&m),
                name(&d)
            );
        }
    }
}

#[test]
fn stream_imports_no_view_rules() {
    for (m, deps) in graph() {
        if m.first().map(String::as_str) != Some("stream") {
            continue;
        }
        for d in deps {
            assert!(
                d.first().map(String::as_str) != Some("view"),
                "{} imports {}",
                name(&m),
                name(&d)
            );
        }
    }
}

/// No module is named like a crate of the standard library or a primitive
/// type's module (`core`, `alloc`, `std`, `str`, …): inside the crate such a
/// name shadows the real one in every path that starts with it.
#[test]
fn no_module_shadows_a_standard_name() {
    const STANDARD: [&str; 10] = [
        "core",
        "alloc",
        "std",
        "str",
        "char",
        "slice",
        "fmt",
        "mem",
        "ptr",
        "proc_macro",
    ];
    for m in sources().keys() {
        for part in m {
            assert!(
                !STANDARD.contains(&part.as_str()),
                "module {} is named like the standard `{part}`",
                name(m)
            );
        }
    }
}

/// No import circle, in the library's code alone and with the unit tests
/// (`#[cfg(test)]` modules) counted too.
#[test]
fn no_import_circle() {
    circles(&graph());
    circles(&graph_of(code_and_tests));
}

fn circles(g: &BTreeMap<Module, BTreeSet<Module>>) {
    // Tarjan's strongly connected components: a component of more than one
    // module is a circle.
    struct State<'g> {
        g: &'g BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'g Module, usize>,
        low: BTreeMap<&'g Module, usize>,
        stack: Vec<&'g Module>,
        on: BTreeSet<&'g Module>,
        circles: Vec<Vec<String>>,
    }
    fn visit<'g>(s: &mut State<'g>, v: &'g Module) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on.insert(v);
        for w in &s.g[v] {
            let Some((w, _)) = s.g.get_key_value(w) else {
                continue;
            };
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if s.on.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut comp = Vec::new();
            loop {
                let w = s.stack.pop().unwrap();
                s.on.remove(w);
                comp.push(name(w));
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                s.circles.push(comp);
            }
        }
    }
    let mut s = State {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        circles: Vec::new(),
    };
    for v in g.keys() {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    assert!(
        s.circles.is_empty(),
        "import circles in src/: {:?}",
        s.circles
    );
}
