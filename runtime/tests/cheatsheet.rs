//! `docs/cheatsheet.md` is made from the source: every public call of the cart API's types
//! and the editors' keys, one line each. This test makes the page again and fails when the
//! file differs, so the sheet cannot fall behind the API; `BT_UPDATE_GOLDEN=1 cargo test
//! --release --test cheatsheet` writes it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use syn::{FnArg, ImplItem, Item, Pat, ReturnType, TraitItem, Type, Visibility};

/// The sections of the sheet: a title, and the types (or `math::` for the module's free
/// functions) whose public calls it lists, in the order a cart author meets them.
const SECTIONS: &[(&str, &[&str])] = &[
    ("A cart", &["Cart"]),
    ("In `update` (`ctx: &mut Update`)", &["Update"]),
    ("In `render` (`ctx: &mut Render`)", &["Render"]),
    ("Time, in both (`ctx.…` through `Timing`)", &["Timing"]),
    (
        "Sprites and pictures",
        &[
            "SpriteSheet",
            "SpriteParams",
            "Transform",
            "Image",
            "NineSlice",
        ],
    ),
    ("Maps", &["Tilemap", "MapParams"]),
    ("Text", &["Font", "TextStyle"]),
    ("Colours", &["Palette", "Color32"]),
    ("Shapes and places", &["Rect", "Point"]),
    (
        "Randomness and noise",
        &["Rng", "ValueNoise", "PerlinNoise", "SimplexNoise"],
    ),
    ("Timers and easing", &["Timer", "Easing"]),
    ("Save data", &["SaveData"]),
    ("Sound values", &["Voice", "Note", "SoundFile"]),
    ("Widgets (`bt::ui`)", &["Ui", "Response"]),
    (
        "Maths (`bt::math`, the same bits on every machine)",
        &["math::"],
    ),
];

/// One call: its name, its arguments' names, and the first sentence of its documentation.
struct Call {
    name: String,
    args: Vec<String>,
    returns: bool,
    what: String,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every `.rs` file under `dir`, in name order.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            found.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
    found
}

/// Whether the attributes hide an item from the API: test code, or `#[doc(hidden)]`.
fn hidden(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        let text = quote_attr(a);
        (a.path().is_ident("cfg") && text.contains("test")) || text.contains("hidden")
    })
}

fn quote_attr(a: &syn::Attribute) -> String {
    match &a.meta {
        syn::Meta::List(list) => list.tokens.to_string(),
        _ => String::new(),
    }
}

/// The documentation of an item, its lines joined.
fn doc(attrs: &[syn::Attribute]) -> String {
    let mut text = String::new();
    for a in attrs.iter().filter(|a| a.path().is_ident("doc")) {
        if let syn::Meta::NameValue(nv) = &a.meta {
            if let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) = &nv.value
            {
                let line = s.value();
                if line.trim().is_empty() {
                    if !text.is_empty() {
                        break;
                    }
                    continue;
                }
                text.push_str(line.trim());
                text.push(' ');
            }
        }
    }
    first_sentence(&text)
}

/// The first sentence of `text`, its links made plain text, fit for a table cell.
fn first_sentence(text: &str) -> String {
    let mut out = String::new();
    let mut code = false;
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c == '`' {
            code = !code;
        }
        out.push(c);
        let ends = chars.get(i + 1).is_none_or(|n| n.is_whitespace());
        if !code && (c == '.' || c == ':') && ends {
            break;
        }
    }
    let out = plain_links(out.trim());
    let out = out.trim_end_matches(':').to_string();
    let out = if out.ends_with('.') || out.is_empty() {
        out
    } else {
        format!("{out}.")
    };
    out.replace('|', "\\|")
}

/// `[text](target)` and `[text][target]` as `text`; `[`Self::x`]` as `x`.
fn plain_links(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find(']') else {
            out.push_str(&rest[open..]);
            return out;
        };
        let inner = &after[..close];
        let mut tail = &after[close + 1..];
        for (start, end) in [('(', ')'), ('[', ']')] {
            if tail.starts_with(start) {
                if let Some(e) = tail.find(end) {
                    tail = &tail[e + 1..];
                }
            }
        }
        let inner = inner
            .replace("Self::", "")
            .replace("crate::", "")
            .replace("super::", "");
        out.push_str(&inner);
        rest = tail;
    }
    out.push_str(rest);
    out
}

fn call(sig: &syn::Signature, attrs: &[syn::Attribute]) -> Call {
    let args = sig
        .inputs
        .iter()
        .filter_map(|a| match a {
            FnArg::Receiver(_) => None,
            FnArg::Typed(t) => Some(match &*t.pat {
                Pat::Ident(i) => i.ident.to_string(),
                Pat::Tuple(t) => format!(
                    "({})",
                    t.elems
                        .iter()
                        .map(|p| match p {
                            Pat::Ident(i) => i.ident.to_string(),
                            _ => "_".to_string(),
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                _ => "_".to_string(),
            }),
        })
        .collect();
    Call {
        name: sig.ident.to_string(),
        args,
        returns: !matches!(sig.output, ReturnType::Default),
        what: doc(attrs),
    }
}

/// The name a type is written with, without its generics.
fn type_name(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

/// Collects the public calls of `items` into `calls`, keyed by type (or `module::`).
fn collect(items: &[Item], module: &str, calls: &mut Vec<(String, Call)>) {
    for item in items {
        match item {
            Item::Impl(imp) if imp.trait_.is_none() && !hidden(&imp.attrs) => {
                let Some(owner) = type_name(&imp.self_ty) else {
                    continue;
                };
                for it in &imp.items {
                    if let ImplItem::Fn(f) = it {
                        if matches!(f.vis, Visibility::Public(_)) && !hidden(&f.attrs) {
                            calls.push((owner.clone(), call(&f.sig, &f.attrs)));
                        }
                    }
                }
            }
            Item::Trait(t) if matches!(t.vis, Visibility::Public(_)) && !hidden(&t.attrs) => {
                for it in &t.items {
                    if let TraitItem::Fn(f) = it {
                        calls.push((t.ident.to_string(), call(&f.sig, &f.attrs)));
                    }
                }
            }
            Item::Fn(f) if matches!(f.vis, Visibility::Public(_)) && !hidden(&f.attrs) => {
                calls.push((format!("{module}::"), call(&f.sig, &f.attrs)));
            }
            Item::Mod(m) if !hidden(&m.attrs) => {
                if let Some((_, inner)) = &m.content {
                    collect(inner, &m.ident.to_string(), calls);
                }
            }
            _ => {}
        }
    }
}

/// The keys of BT's editors: (editor, its table).
fn editor_keys() -> Vec<(&'static str, &'static [(&'static str, &'static str)])> {
    vec![
        ("bt sound-edit", bt_runtime::sound_edit::KEYS),
        ("bt sprite-edit", bt_runtime::sprite_edit::KEYS),
        ("bt map-edit", bt_runtime::map_edit::KEYS),
    ]
}

fn sheet() -> String {
    let mut calls = Vec::new();
    let src = root().join("cart-api/src");
    for path in sources(&src) {
        let text = std::fs::read_to_string(&path).unwrap();
        let file = syn::parse_file(&text)
            .unwrap_or_else(|e| panic!("{} does not parse: {e}", path.display()));
        let module = path.file_stem().unwrap().to_string_lossy().into_owned();
        collect(&file.items, &module, &mut calls);
    }
    let mut out = String::new();
    out.push_str(
        "# Cheat sheet\n\n\
         Every call of the cart API on one page, a line each, and the editors' keys. The \
         sheet is made from BT's source by a test, so it names what the API has today; each \
         call's whole story is in its documentation (`cargo doc --open -p bt`) and the guides \
         beside this page. Arguments are named as the source names them; `→` marks a call \
         that gives something back.\n\n\
         Made by `runtime/tests/cheatsheet.rs`: after changing the API, \
         `BT_UPDATE_GOLDEN=1 cargo test --release --test cheatsheet` writes it again.\n",
    );
    for (title, owners) in SECTIONS {
        let _ = write!(
            out,
            "\n## {title}\n\n| call | what it does |\n| --- | --- |\n"
        );
        let mut any = false;
        for owner in *owners {
            let mut seen = std::collections::BTreeSet::new();
            for (o, c) in calls.iter().filter(|(o, _)| o == owner) {
                // A call written twice (for two feature sets, say) is listed once.
                if !seen.insert(c.name.clone()) {
                    continue;
                }
                any = true;
                let prefix = match (*owner, o.ends_with("::")) {
                    ("Update" | "Render" | "Timing", _) => "ctx.".to_string(),
                    (_, true) => o.clone(),
                    ("Cart", _) => "fn ".to_string(),
                    _ => format!("{owner}::"),
                };
                let arrow = if c.returns { " →" } else { "" };
                let _ = writeln!(
                    out,
                    "| `{prefix}{}({})`{arrow} | {} |",
                    c.name,
                    c.args.join(", "),
                    c.what
                );
            }
        }
        assert!(
            any,
            "the section {title:?} lists nothing: a type was renamed?"
        );
    }
    let keys = editor_keys();
    if !keys.is_empty() {
        out.push_str("\n## The editors' keys\n");
        for (editor, table) in keys {
            let _ = write!(
                out,
                "\n### `{editor}`\n\n| key | what it does |\n| --- | --- |\n"
            );
            for (key, what) in table {
                let _ = writeln!(
                    out,
                    "| {} | {} |",
                    key.replace('|', "\\|"),
                    what.replace('|', "\\|")
                );
            }
        }
    }
    out
}

#[test]
fn the_cheat_sheet_is_the_one_the_source_makes() {
    let made = sheet();
    let path = root().join("docs/cheatsheet.md");
    let update = std::env::var("BT_UPDATE_GOLDEN").is_ok_and(|v| !v.is_empty() && v != "0");
    if update {
        std::fs::write(&path, &made).unwrap();
        return;
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    if on_disk != made {
        let first = on_disk
            .lines()
            .zip(made.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(on_disk.lines().count().min(made.lines().count()));
        panic!(
            "docs/cheatsheet.md is not what the API makes (first difference at line {}: {:?} \
             should be {:?}); run BT_UPDATE_GOLDEN=1 cargo test --release --test cheatsheet",
            first + 1,
            on_disk.lines().nth(first).unwrap_or(""),
            made.lines().nth(first).unwrap_or("")
        );
    }
}

#[test]
fn a_call_added_to_the_api_shows_in_the_sheet() {
    let file = syn::parse_file(
        "impl Update<'_> { /// Does a new thing. More. \n pub fn brand_new(&mut self, x: i32) -> u8 { 0 } fn private(&self) {} }",
    )
    .unwrap();
    let mut calls = Vec::new();
    collect(&file.items, "update", &mut calls);
    assert_eq!(calls.len(), 1, "the private call is left out");
    let (owner, c) = &calls[0];
    assert_eq!(owner, "Update");
    assert_eq!(
        (c.name.as_str(), c.args.as_slice()),
        ("brand_new", &["x".to_string()][..])
    );
    assert_eq!(c.what, "Does a new thing.");
    assert!(c.returns);
}

#[test]
fn a_sentence_ends_at_a_full_stop_outside_code_and_links_become_text() {
    assert_eq!(
        first_sentence("Moves by `0.5` px (see [`Self::step`]). Then more."),
        "Moves by `0.5` px (see `step`)."
    );
    assert_eq!(first_sentence("A | B"), "A \\| B.");
}
