//! The JSON forms: a map (`.tmj`) and a tileset (`.tsj`).

use std::ops::Range;

use super::json::{self, Kind, Value};
use super::{codec, Compression, Data, FlagSites, Insert, TiledDoc, Tileset};
use super::{Form, VisibleAt};

pub(super) fn read(doc: &mut TiledDoc, text: &str) -> Result<(), String> {
    let root = json::parse(text)?;
    if !matches!(root.kind, Kind::Object(_)) {
        return Err("not a JSON object".into());
    }
    let num = |v: &Value, key: &str| -> Result<u32, String> {
        let field = v.get(key).ok_or_else(|| format!("{key}: missing"))?;
        field
            .as_u64(text)
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| format!("{key}: {} is not a whole number", &text[field.span.clone()]))
    };
    let opt = |v: &Value, key: &str| {
        v.get(key)
            .and_then(|f| f.as_u64(text))
            .and_then(|n| u32::try_from(n).ok())
    };
    doc.tile_size = (
        num(&root, "tilewidth").unwrap_or(0),
        num(&root, "tileheight").unwrap_or(0),
    );
    if doc.form == Form::Tsj {
        doc.tilesets.push(tileset_facts(&root, text, 1));
        doc.flag_sites = Some(flag_sites(&root, text));
        return Ok(());
    }
    doc.size = (num(&root, "width")?, num(&root, "height")?);
    doc.tile_size = (num(&root, "tilewidth")?, num(&root, "tileheight")?);
    if root.get("infinite").and_then(Value::as_bool) == Some(true) {
        doc.read_only = Some("an infinite map (its chunks are not edited)".into());
    }
    for t in root.get("tilesets").map_or(&[][..], Value::items) {
        let first_gid = opt(t, "firstgid").unwrap_or(1);
        let mut facts = tileset_facts(t, text, first_gid);
        facts.source = t.get("source").and_then(Value::as_str).map(str::to_string);
        doc.tilesets.push(facts);
    }
    if let [one] = root.get("tilesets").map_or(&[][..], Value::items) {
        if one.get("source").is_none() {
            doc.flag_sites = Some(flag_sites(one, text));
        }
    }
    if let Some(layers) = root.get("layers") {
        read_layers(doc, layers, text, "layers")?;
    }
    Ok(())
}

fn read_layers(doc: &mut TiledDoc, layers: &Value, text: &str, path: &str) -> Result<(), String> {
    for (i, l) in layers.items().iter().enumerate() {
        let name = l
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let at = format!("{path}[{i}] '{name}'");
        match l.get("type").and_then(Value::as_str) {
            Some("group") => {
                if let Some(inner) = l.get("layers") {
                    read_layers(doc, inner, text, &format!("{at}.layers"))?;
                }
                continue;
            }
            Some("tilelayer") => {}
            _ => continue,
        }
        let size = |key: &str| {
            l.get(key)
                .and_then(|v| v.as_u64(text))
                .and_then(|n| u32::try_from(n).ok())
                .unwrap_or(0)
        };
        let size = (size("width"), size("height"));
        let cells = size.0 as usize * size.1 as usize;
        let visible = l.get("visible");
        let visible_read = visible.and_then(Value::as_bool).unwrap_or(true);
        let visible_at = match visible {
            Some(v) => VisibleAt::Value(v.span.clone()),
            None => VisibleAt::Insert(l.span.start + 1),
        };
        let data = layer_data(l, text, cells);
        doc.push_read_layer(&at, name, size, (visible_read, visible_at), data);
    }
    Ok(())
}

fn layer_data(l: &Value, text: &str, cells: usize) -> Result<(Data, Vec<u32>), String> {
    let Some(data) = l.get("data") else {
        return Err("no data (an infinite map's chunks are not edited)".into());
    };
    match &data.kind {
        Kind::Array(items) => {
            if items.len() != cells {
                return Err(format!(
                    "data: {} cells where the layer has {cells}",
                    items.len()
                ));
            }
            let mut read = Vec::with_capacity(cells);
            for (i, item) in items.iter().enumerate() {
                let gid = item
                    .as_u64(text)
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or_else(|| {
                        format!(
                            "data[{i}]: {} is not a tile number",
                            &text[item.span.clone()]
                        )
                    })?;
                read.push(gid);
            }
            Ok((
                Data::Numbers(items.iter().map(|v| v.span.clone()).collect()),
                read,
            ))
        }
        Kind::Str(s) => {
            let encoding = l
                .get("encoding")
                .and_then(Value::as_str)
                .unwrap_or("base64");
            let compression = l.get("compression").and_then(Value::as_str).unwrap_or("");
            // The text inside the quotes: base64 has no characters JSON escapes.
            let inner = data.span.start + 1..data.span.end - 1;
            // Escaped line breaks and tabs between CSV numbers read as spaces of the same
            // length, so each number's place in the text stays exact.
            let raw = text[inner.clone()]
                .replace("\\n", "  ")
                .replace("\\r", "  ")
                .replace("\\t", "  ");
            if raw.contains('\\') || (encoding != "csv" && raw != *s) {
                return Err("data: escaped characters in the layer's text".into());
            }
            match encoding {
                "csv" if compression.is_empty() => {
                    let (spans, read) = csv_numbers(&raw, inner.start)?;
                    if read.len() != cells {
                        return Err(format!(
                            "data: {} cells where the layer has {cells}",
                            read.len()
                        ));
                    }
                    Ok((Data::Numbers(spans), read))
                }
                "base64" => {
                    let c = Compression::named(compression)
                        .ok_or_else(|| format!("compression '{compression}' is not kept"))?;
                    let read = codec::decode(s, c, cells).map_err(|e| format!("data: {e}"))?;
                    Ok((Data::Base64(inner, c), read))
                }
                other => Err(format!("encoding '{other}' is not kept")),
            }
        }
        _ => Err("data: neither an array nor text".into()),
    }
}

/// The numbers of CSV text starting at `offset` in the file: their spans and values.
pub(super) fn csv_numbers(
    csv: &str,
    offset: usize,
) -> Result<(Vec<Range<usize>>, Vec<u32>), String> {
    let mut spans = Vec::new();
    let mut values = Vec::new();
    let mut at = 0;
    for piece in csv.split(',') {
        let lead = piece.len() - piece.trim_start().len();
        let word = piece.trim();
        if !word.is_empty() {
            let value = word.parse::<u32>().map_err(|_| {
                format!(
                    "data: '{}' is not a tile number",
                    word.chars().take(20).collect::<String>()
                )
            })?;
            let start = offset + at + lead;
            spans.push(start..start + word.len());
            values.push(value);
        }
        at += piece.len() + 1;
    }
    Ok((spans, values))
}

fn tileset_facts(t: &Value, text: &str, first_gid: u32) -> Tileset {
    let opt = |key: &str| {
        t.get(key)
            .and_then(|f| f.as_u64(text))
            .and_then(|n| u32::try_from(n).ok())
    };
    Tileset {
        first_gid,
        source: None,
        image: t.get("image").and_then(Value::as_str).map(str::to_string),
        tile_count: opt("tilecount"),
        columns: opt("columns"),
    }
}

/// The separator between the items of a list whose spans are `items`, inside `outer` (the
/// list's brackets or braces): the text between the first two, or `,` and the spacing
/// before the first.
fn separator(text: &str, outer: &Range<usize>, items: &[Range<usize>]) -> String {
    match items {
        [a, b, ..] => text[a.end..b.start].to_string(),
        [a] => format!(",{}", &text[outer.start + 1..a.start]),
        [] => ",".into(),
    }
}

fn flag_sites(tileset: &Value, text: &str) -> FlagSites {
    let mut sites = FlagSites::default();
    let Kind::Object(members) = &tileset.kind else {
        return sites;
    };
    let Some(tiles) = tileset.get("tiles") else {
        // No tiles list: a new member at the object's end.
        let spans: Vec<Range<usize>> = members.iter().map(|m| m.1.start..m.2.span.end).collect();
        let sep = separator(text, &tileset.span, &spans);
        let colon = members
            .first()
            .map_or(":".into(), |m| text[m.1.end..m.2.span.start].to_string());
        let end = spans.last().map_or(tileset.span.start + 1, |s| s.end);
        let lead = if spans.is_empty() { String::new() } else { sep };
        sites.new_tile.end = Some(Insert {
            at: end,
            replace: 0,
            before: format!("{lead}\"tiles\"{colon}["),
            sep: ",".into(),
            after: "]".into(),
        });
        return sites;
    };
    let items = tiles.items();
    let spans: Vec<Range<usize>> = items.iter().map(|v| v.span.clone()).collect();
    let sep = separator(text, &tiles.span, &spans);
    for tile in items {
        let Some(id) = tile
            .get("id")
            .and_then(|v| v.as_u64(text))
            .and_then(|n| u32::try_from(n).ok())
        else {
            continue;
        };
        sites.new_tile.before.insert(
            id,
            Insert {
                at: tile.span.start,
                replace: 0,
                before: String::new(),
                sep: sep.clone(),
                after: sep.clone(),
            },
        );
        let props = tile.get("properties");
        let flags = props.and_then(|p| {
            p.items()
                .iter()
                .find(|p| p.get("name").and_then(Value::as_str) == Some("flags"))
        });
        if let Some(value) = flags.and_then(|f| f.get("value")) {
            let read = value
                .as_u64(text)
                .and_then(|n| u8::try_from(n).ok())
                .unwrap_or(0);
            sites.values.insert(id, (value.span.clone(), read));
        } else if let Some(props) = props {
            let p_spans: Vec<Range<usize>> = props.items().iter().map(|v| v.span.clone()).collect();
            let insert = match p_spans.last() {
                Some(last) => Insert {
                    at: last.end,
                    replace: 0,
                    before: separator(text, &props.span, &p_spans),
                    ..Insert::default()
                },
                None => Insert {
                    at: props.span.start + 1,
                    ..Insert::default()
                },
            };
            sites.tiles.insert(id, insert);
        } else if let Kind::Object(tm) = &tile.kind {
            let last = tm.last().map_or(tile.span.start + 1, |m| m.2.span.end);
            sites.tiles.insert(
                id,
                Insert {
                    at: last,
                    replace: 0,
                    before: ",\"properties\":[".into(),
                    after: "]".into(),
                    ..Insert::default()
                },
            );
        }
    }
    sites.new_tile.end = Some(match spans.last() {
        Some(last) => Insert {
            at: last.end,
            replace: 0,
            before: sep.clone(),
            sep,
            after: String::new(),
        },
        None => Insert {
            at: tiles.span.start + 1,
            replace: 0,
            before: String::new(),
            sep: ",".into(),
            after: String::new(),
        },
    });
    sites
}
