//! The XML forms: a map (`.tmx`) and a tileset (`.tsx`).

use roxmltree::Node;

use super::tmj::csv_numbers;
use super::{codec, Compression, Data, FlagSites, Insert, TiledDoc, Tileset};
use super::{one_line, Form, VisibleAt};

use crate::config::tiled::{xml_too_deep, MAX_XML_DEPTH};

pub(super) fn read(doc: &mut TiledDoc, text: &str) -> Result<(), String> {
    // The limit and the scan BT's own map reader uses: the XML parser recurses.
    if let Some(line) = xml_too_deep(text) {
        return Err(format!(
            "line {line}: elements nested more than {MAX_XML_DEPTH} deep"
        ));
    }
    let xml = roxmltree::Document::parse(text).map_err(|e| {
        let message = e.to_string();
        let message = message
            .rsplit_once(" at ")
            .map_or(message.as_str(), |(m, _)| m);
        format!("line {}: {}", e.pos().row, one_line(message))
    })?;
    let root = xml.root_element();
    let line = |n: Node<'_, '_>| xml.text_pos_at(n.range().start).row;
    let num = |n: Node<'_, '_>, attr: &str| -> Result<u32, String> {
        let v = n
            .attribute(attr)
            .ok_or_else(|| format!("line {}: <{}> has no {attr}", line(n), n.tag_name().name()))?;
        v.trim().parse().map_err(|_| {
            format!(
                "line {}: <{}> {attr}: '{}' is not a whole number",
                line(n),
                n.tag_name().name(),
                one_line(v)
            )
        })
    };
    let want = if doc.form == Form::Tsx {
        "tileset"
    } else {
        "map"
    };
    if root.tag_name().name() != want {
        return Err(format!(
            "line {}: <{}> where the file starts with <{want}>",
            line(root),
            one_line(root.tag_name().name())
        ));
    }
    if doc.form == Form::Tsx {
        doc.tile_size = (
            num(root, "tilewidth").unwrap_or(0),
            num(root, "tileheight").unwrap_or(0),
        );
        doc.tilesets.push(tileset_facts(root, 1));
        doc.flag_sites = Some(flag_sites(root, text));
        return Ok(());
    }
    doc.size = (num(root, "width")?, num(root, "height")?);
    doc.tile_size = (num(root, "tilewidth")?, num(root, "tileheight")?);
    if root.attribute("infinite").is_some_and(|v| v.trim() != "0") {
        doc.read_only = Some("an infinite map (its chunks are not edited)".into());
    }
    let tilesets: Vec<Node<'_, '_>> = root
        .children()
        .filter(|n| n.has_tag_name("tileset"))
        .collect();
    for &t in &tilesets {
        let first_gid = t
            .attribute("firstgid")
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(1);
        let mut facts = tileset_facts(t, first_gid);
        facts.source = t.attribute("source").map(str::to_string);
        doc.tilesets.push(facts);
    }
    if let [one] = tilesets.as_slice() {
        if one.attribute("source").is_none() {
            doc.flag_sites = Some(flag_sites(*one, text));
        }
    }
    read_layers(doc, root, text, &line)
}

fn read_layers(
    doc: &mut TiledDoc,
    parent: Node<'_, '_>,
    text: &str,
    line: &dyn Fn(Node<'_, '_>) -> u32,
) -> Result<(), String> {
    for node in parent.children().filter(Node::is_element) {
        match node.tag_name().name() {
            "group" => read_layers(doc, node, text, line)?,
            "layer" => {
                let name = node.attribute("name").unwrap_or("").to_string();
                let at = format!("line {}: layer '{}'", line(node), one_line(&name));
                let dim = |a: &str| {
                    node.attribute(a)
                        .and_then(|v| v.trim().parse::<u32>().ok())
                        .unwrap_or(0)
                };
                let size = (dim("width"), dim("height"));
                let cells = size.0 as usize * size.1 as usize;
                let visible = node.attributes().find(|a| a.name() == "visible");
                let visible_read = visible.is_none_or(|a| a.value().trim() != "0");
                let visible_at = match visible {
                    Some(a) => VisibleAt::Value(a.range_value()),
                    None => VisibleAt::Insert(node.range().start + "<layer".len()),
                };
                let data = layer_data(node, text, cells);
                doc.push_read_layer(&at, name, size, (visible_read, visible_at), data);
            }
            _ => {}
        }
    }
    Ok(())
}

fn layer_data(layer: Node<'_, '_>, text: &str, cells: usize) -> Result<(Data, Vec<u32>), String> {
    let Some(data) = layer.children().find(|n| n.has_tag_name("data")) else {
        return Err("no <data>".into());
    };
    if data.children().any(|n| n.has_tag_name("chunk")) {
        return Err("chunks of an infinite map are not edited".into());
    }
    let wrong = |n: usize| format!("data: {n} cells where the layer has {cells}");
    let Some(encoding) = data.attribute("encoding") else {
        let tiles: Vec<Node<'_, '_>> = data.children().filter(|n| n.has_tag_name("tile")).collect();
        if tiles.len() != cells {
            return Err(wrong(tiles.len()));
        }
        let mut read = Vec::with_capacity(cells);
        for t in &tiles {
            let gid = t.attribute("gid").unwrap_or("0");
            read.push(
                gid.trim()
                    .parse::<u32>()
                    .map_err(|_| format!("tile gid '{}' is not a tile number", one_line(gid)))?,
            );
        }
        return Ok((
            Data::Elements(tiles.iter().map(|t| t.range()).collect()),
            read,
        ));
    };
    let texts: Vec<Node<'_, '_>> = data.children().filter(Node::is_text).collect();
    let [node] = texts.as_slice() else {
        return Err("data: not one piece of text".into());
    };
    let range = node.range();
    let body = node.text().unwrap_or("");
    if text[range.clone()] != *body {
        return Err("data: escaped characters in the layer's text".into());
    }
    let compression = data.attribute("compression").unwrap_or("");
    match encoding {
        "csv" if compression.is_empty() => {
            let (spans, read) = csv_numbers(body, range.start)?;
            if read.len() != cells {
                return Err(wrong(read.len()));
            }
            Ok((Data::Numbers(spans), read))
        }
        "base64" => {
            let c = Compression::named(compression)
                .ok_or_else(|| format!("compression '{}' is not kept", one_line(compression)))?;
            let read = codec::decode(body, c, cells).map_err(|e| format!("data: {e}"))?;
            let lead = body.len() - body.trim_start().len();
            let start = range.start + lead;
            Ok((Data::Base64(start..start + body.trim().len(), c), read))
        }
        other => Err(format!("encoding '{}' is not kept", one_line(other))),
    }
}

fn tileset_facts(t: Node<'_, '_>, first_gid: u32) -> Tileset {
    let opt = |a: &str| t.attribute(a).and_then(|v| v.trim().parse().ok());
    Tileset {
        first_gid,
        source: None,
        image: t
            .children()
            .find(|n| n.has_tag_name("image"))
            .and_then(|i| i.attribute("source"))
            .map(str::to_string),
        tile_count: opt("tilecount"),
        columns: opt("columns"),
    }
}

/// The spacing before the element at `start` (the line break and indent Tiled wrote).
fn indent(text: &str, start: usize) -> String {
    let before = &text[..start];
    let from = before.trim_end().len();
    before[from..].to_string()
}

/// Where the start tag beginning at `start` ends (just past its `>`), quotes stepped over.
fn tag_end(text: &str, start: usize) -> usize {
    let mut quote = None;
    for (i, c) in text[start..].char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '>') => return start + i + 1,
            _ => {}
        }
    }
    text.len()
}

fn flag_sites(tileset: Node<'_, '_>, text: &str) -> FlagSites {
    let mut sites = FlagSites::default();
    let tiles: Vec<Node<'_, '_>> = tileset
        .children()
        .filter(|n| n.has_tag_name("tile"))
        .collect();
    for &tile in &tiles {
        let Some(id) = tile
            .attribute("id")
            .and_then(|v| v.trim().parse::<u32>().ok())
        else {
            continue;
        };
        let space = indent(text, tile.range().start);
        sites.new_tile.before.insert(
            id,
            Insert {
                at: tile.range().start,
                replace: 0,
                before: String::new(),
                sep: space.clone(),
                after: space,
            },
        );
        let props = tile.children().find(|n| n.has_tag_name("properties"));
        let flags = props.and_then(|p| {
            p.children()
                .find(|n| n.has_tag_name("property") && n.attribute("name") == Some("flags"))
        });
        if let Some(value) = flags.and_then(|f| f.attributes().find(|a| a.name() == "value")) {
            let read = value.value().trim().parse::<u8>().unwrap_or(0);
            sites.values.insert(id, (value.range_value(), read));
            continue;
        }
        let insert = match props {
            Some(p) if text[p.range()].ends_with("</properties>") => Insert {
                at: p.range().end - "</properties>".len(),
                ..Insert::default()
            },
            Some(p) => Insert {
                at: p.range().end - 2,
                replace: 2,
                before: ">".into(),
                after: "</properties>".into(),
                ..Insert::default()
            },
            None => {
                let end = tag_end(text, tile.range().start);
                if text[..end].ends_with("/>") {
                    Insert {
                        at: end - 2,
                        replace: 2,
                        before: "><properties>".into(),
                        after: "</properties></tile>".into(),
                        ..Insert::default()
                    }
                } else {
                    Insert {
                        at: end,
                        before: "<properties>".into(),
                        after: "</properties>".into(),
                        ..Insert::default()
                    }
                }
            }
        };
        sites.tiles.insert(id, insert);
    }
    let last = tiles
        .last()
        .copied()
        .or_else(|| tileset.children().rfind(Node::is_element));
    sites.new_tile.end = Some(match last {
        Some(node) => {
            let space = indent(text, node.range().start);
            Insert {
                at: node.range().end,
                before: space.clone(),
                sep: space,
                ..Insert::default()
            }
        }
        None if text[tileset.range()].ends_with("/>") => Insert {
            at: tileset.range().end - 2,
            replace: 2,
            before: ">".into(),
            after: "</tileset>".into(),
            ..Insert::default()
        },
        None => Insert {
            at: tileset.range().end - "</tileset>".len(),
            ..Insert::default()
        },
    });
    sites
}
