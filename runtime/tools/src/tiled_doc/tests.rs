use std::path::PathBuf;

use bt::{AssetError, AssetErrorKind, Tilemap};
use bt_engine::config::tiled::{parse_tmj, parse_tmx};

use super::*;

fn no_files(source: &str) -> Result<(String, String), AssetError> {
    Err(AssetError::new(source, AssetErrorKind::NotFound))
}

fn assets() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../carts/platformer/assets")
}

/// The map as BT's own reader reads `bytes`.
fn bt_reads(name: &str, bytes: &[u8]) -> Tilemap {
    let text = std::str::from_utf8(bytes).unwrap();
    match Form::of(name) {
        Form::Tmj => parse_tmj(name, text, &no_files),
        _ => parse_tmx(name, text, &no_files),
    }
    .unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Every cell of every layer BT reads, as tile numbers (`None` empty).
fn cells(map: &Tilemap) -> Vec<Vec<Option<u16>>> {
    let (w, h) = map.size();
    (0..map.layer_count())
        .map(|l| {
            (0..h as i32)
                .flat_map(|y| (0..w as i32).map(move |x| (x, y)))
                .map(|(x, y)| map.tile(l, x, y))
                .collect()
        })
        .collect()
}

/// A Celeste-port-shaped map: 128 × 64 cells, two layers, pretty JSON as `bt import` writes.
fn celeste_shape() -> String {
    let data: Vec<u32> = (0..128 * 64).map(|i| (i * 7 % 97) as u32 % 5).collect();
    let doc = serde_json::json!({
        "type": "map", "version": "1.10", "orientation": "orthogonal",
        "renderorder": "right-down", "width": 128, "height": 64,
        "tilewidth": 8, "tileheight": 8, "infinite": false,
        "layers": [
            {"type": "tilelayer", "id": 1, "name": "map", "width": 128, "height": 64,
             "opacity": 1, "visible": true, "data": data},
            {"type": "tilelayer", "id": 2, "name": "front", "width": 128, "height": 64,
             "opacity": 1, "visible": true, "data": vec![0; 128 * 64]},
        ],
        "tilesets": [{"firstgid": 1, "name": "sprites", "tilewidth": 8, "tileheight": 8,
                      "tilecount": 256, "columns": 16, "image": "celeste.png",
                      "tiles": [{"id": 1, "properties": [{"name": "flags", "type": "int", "value": 3}]}]}],
    });
    let mut text = serde_json::to_string_pretty(&doc).unwrap();
    text.push('\n');
    text
}

#[test]
fn opening_and_saving_with_no_edit_gives_the_same_bytes() {
    for file in ["level1.tmj", "level2.tmx"] {
        let bytes = std::fs::read(assets().join(file)).unwrap();
        let doc = TiledDoc::read(file, &bytes).unwrap();
        assert_eq!(doc.read_only(), None, "{file}");
        assert!(!doc.is_edited());
        assert_eq!(doc.to_bytes().unwrap(), bytes, "{file}");
    }
    let celeste = celeste_shape();
    let doc = TiledDoc::read("celeste.tmj", celeste.as_bytes()).unwrap();
    assert_eq!((doc.size(), doc.layers().len()), ((128, 64), 2));
    assert_eq!(doc.to_bytes().unwrap(), celeste.as_bytes());
}

#[test]
fn an_edited_cell_is_the_only_change_bt_reads_in_every_layer_form() {
    for file in ["level1.tmj", "level2.tmx"] {
        let bytes = std::fs::read(assets().join(file)).unwrap();
        let before = cells(&bt_reads(file, &bytes));
        let mut doc = TiledDoc::read(file, &bytes).unwrap();
        for l in 0..doc.layers().len() {
            let layer = doc.layer_mut(l).unwrap();
            assert!(layer.set_cell(5, 3, 9));
            assert!(layer.set_cell(59, 15, 0));
            assert!(!layer.set_cell(60, 0, 1), "outside the layer");
        }
        let saved = doc.to_bytes().unwrap();
        let after = cells(&bt_reads(file, &saved));
        let mut want = before.clone();
        for layer in &mut want {
            layer[3 * 60 + 5] = Some(8);
            layer[15 * 60 + 59] = None;
        }
        assert_eq!(after, want, "{file}");
        // Only the edited cells' text changed: the bytes outside the layers are the same.
        let again = TiledDoc::read(file, &saved).unwrap();
        assert_eq!(again.layers()[0].cell(5, 3), Some(9));
    }
}

#[test]
fn a_number_layer_changes_only_the_edited_numbers() {
    let text = "<map width=\"3\" height=\"2\" tilewidth=\"8\" tileheight=\"8\">\n \
        <layer name=\"a\" width=\"3\" height=\"2\">\n  <data encoding=\"csv\">\n1,0,3,\n4,4,16\n</data>\n </layer>\n \
        <layer name=\"b\" width=\"3\" height=\"2\">\n  <data>\n   <tile gid=\"2\"/>\n   <tile/>\n   \
        <tile/>\n   <tile/>\n   <tile/>\n   <tile gid=\"1\"/>\n  </data>\n </layer>\n</map>\n";
    let mut doc = TiledDoc::read("m.tmx", text.as_bytes()).unwrap();
    doc.layer_mut(0).unwrap().set_cell(1, 0, 12);
    doc.layer_mut(1).unwrap().set_cell(0, 0, 0);
    doc.layer_mut(1).unwrap().set_cell(1, 0, 7);
    let saved = String::from_utf8(doc.to_bytes().unwrap()).unwrap();
    let want = text.replace("1,0,3,", "1,12,3,").replacen(
        "<tile gid=\"2\"/>\n   <tile/>",
        "<tile/>\n   <tile gid=\"7\"/>",
        1,
    );
    assert_eq!(saved, want);
    let json = "{\"width\":2,\"height\":1,\"tilewidth\":8,\"tileheight\":8,\"layers\":[\
        {\"type\":\"tilelayer\",\"name\":\"a\",\"width\":2,\"height\":1,\"data\":[ 1 ,\n 0 ]},\
        {\"type\":\"tilelayer\",\"name\":\"b\",\"width\":2,\"height\":1,\"encoding\":\"csv\",\"data\":\"0,\\n5\"}]}";
    let mut doc = TiledDoc::read("m.tmj", json.as_bytes()).unwrap();
    doc.layer_mut(0).unwrap().set_cell(1, 0, 30);
    doc.layer_mut(1).unwrap().set_cell(0, 0, 4);
    let saved = String::from_utf8(doc.to_bytes().unwrap()).unwrap();
    assert_eq!(
        saved,
        json.replace("\n 0 ]", "\n 30 ]")
            .replace("\"0,\\n5\"", "\"4,\\n5\"")
    );
}

#[test]
fn a_base64_layer_keeps_its_compression_and_the_flip_bits_of_cells_not_set() {
    let flipped = 0x8000_0002u32;
    for (compression, name) in [
        (Compression::None, ""),
        (Compression::Zlib, "zlib"),
        (Compression::Gzip, "gzip"),
    ] {
        let data = codec::encode(&[1, flipped, 0, 3], compression);
        let tmj = format!(
            "{{\"width\":2,\"height\":2,\"tilewidth\":8,\"tileheight\":8,\"layers\":[\
             {{\"type\":\"tilelayer\",\"name\":\"a\",\"width\":2,\"height\":2,\"encoding\":\"base64\",\
             \"compression\":\"{name}\",\"data\":\"{data}\"}}]}}"
        );
        let mut doc = TiledDoc::read("m.tmj", tmj.as_bytes()).unwrap();
        assert_eq!(doc.layers()[0].cell(1, 0), Some(flipped));
        doc.layer_mut(0).unwrap().set_cell(0, 1, 4);
        let saved = String::from_utf8(doc.to_bytes().unwrap()).unwrap();
        assert!(saved.contains(&format!("\"compression\":\"{name}\"")));
        let again = TiledDoc::read("m.tmj", saved.as_bytes()).unwrap();
        assert_eq!(again.layers()[0].cells(), [1, flipped, 4, 3], "{name}");
        let tmx = format!(
            "<map width=\"2\" height=\"2\" tilewidth=\"8\" tileheight=\"8\"><layer name=\"a\" \
             width=\"2\" height=\"2\"><data encoding=\"base64\" compression=\"{name}\">\n   {data}\n  \
             </data></layer></map>"
        );
        let mut doc = TiledDoc::read("m.tmx", tmx.as_bytes()).unwrap();
        doc.layer_mut(0).unwrap().set_cell(0, 1, 4);
        let saved = String::from_utf8(doc.to_bytes().unwrap()).unwrap();
        assert!(
            saved.contains("\">\n   ") && saved.contains("\n  </data>"),
            "{saved}"
        );
        let again = TiledDoc::read("m.tmx", saved.as_bytes()).unwrap();
        assert_eq!(again.layers()[0].cells(), [1, flipped, 4, 3], "{name}");
    }
}

#[test]
fn tile_flags_are_set_where_they_are_and_added_where_they_are_not() {
    let bytes = std::fs::read(assets().join("level2.tmx")).unwrap();
    let mut doc = TiledDoc::read("level2.tmx", &bytes).unwrap();
    assert_eq!((doc.tile_flags(3), doc.tile_flags(9)), (2, 0));
    doc.set_tile_flags(3, 6).unwrap();
    doc.set_tile_flags(9, 17).unwrap();
    doc.set_tile_flags(12, 1).unwrap();
    let saved = doc.to_bytes().unwrap();
    let map = bt_reads("level2.tmx", &saved);
    assert_eq!(
        (map.flags(3), map.flags(9), map.flags(12), map.flags(0)),
        (6, 17, 1, 1)
    );
    assert_eq!(cells(&map), cells(&bt_reads("level2.tmx", &bytes)));

    let tmj = celeste_shape();
    let mut doc = TiledDoc::read("c.tmj", tmj.as_bytes()).unwrap();
    doc.set_tile_flags(0, 4).unwrap();
    doc.set_tile_flags(1, 0).unwrap();
    doc.set_tile_flags(200, 255).unwrap();
    doc.set_tile_flags(100, 8).unwrap();
    let saved = doc.to_bytes().unwrap();
    let map = bt_reads("c.tmj", &saved);
    assert_eq!(
        (map.flags(0), map.flags(1), map.flags(100), map.flags(200)),
        (4, 0, 8, 255)
    );
    let again = TiledDoc::read("c.tmj", &saved).unwrap();
    assert_eq!(again.tile_flags(200), 255);
}

#[test]
fn tiles_without_a_flags_property_get_one() {
    let tsx = "<?xml version=\"1.0\"?>\n<tileset name=\"t\" tilewidth=\"8\" tileheight=\"8\" tilecount=\"8\">\n \
        <image source=\"t.png\"/>\n <tile id=\"1\" type=\"wall\"/>\n <tile id=\"2\">\n  <properties>\n   \
        <property name=\"hp\" value=\"3\"/>\n  </properties>\n </tile>\n <tile id=\"4\"><properties/></tile>\n</tileset>\n";
    let mut doc = TiledDoc::read("t.tsx", tsx.as_bytes()).unwrap();
    for id in 0..6 {
        doc.set_tile_flags(id, id as u8 + 10).unwrap();
    }
    let saved = String::from_utf8(doc.to_bytes().unwrap()).unwrap();
    let again = TiledDoc::read("t.tsx", saved.as_bytes()).unwrap();
    for id in 0..6 {
        assert_eq!(again.tile_flags(id), id as u8 + 10, "{saved}");
    }
    assert!(saved.contains("<property name=\"hp\" value=\"3\"/>"));
    assert!(saved.contains("type=\"wall\""));
    let tsj = "{\"type\":\"tileset\",\"tilecount\":8,\"image\":\"t.png\"}";
    let mut doc = TiledDoc::read("t.tsj", tsj.as_bytes()).unwrap();
    doc.set_tile_flags(5, 1).unwrap();
    doc.set_tile_flags(2, 3).unwrap();
    let saved = doc.to_bytes().unwrap();
    let again = TiledDoc::read("t.tsj", &saved).unwrap();
    assert_eq!((again.tile_flags(2), again.tile_flags(5)), (3, 1));
    serde_json::from_slice::<serde_json::Value>(&saved).unwrap();
}

#[test]
fn a_map_with_its_tileset_in_a_file_sends_flags_there() {
    let text = "<map width=\"1\" height=\"1\" tilewidth=\"8\" tileheight=\"8\">\
        <tileset firstgid=\"1\" source=\"tiles.tsx\"/><layer name=\"a\" width=\"1\" height=\"1\">\
        <data encoding=\"csv\">1</data></layer></map>";
    let mut doc = TiledDoc::read("m.tmx", text.as_bytes()).unwrap();
    assert_eq!(doc.tilesets()[0].source.as_deref(), Some("tiles.tsx"));
    assert_eq!(
        doc.set_tile_flags(0, 1).unwrap_err().to_string(),
        "m.tmx: the tileset is in its own file \"tiles.tsx\"; its flags are saved there"
    );
}

#[test]
fn visible_is_written_only_when_toggled() {
    let bytes = std::fs::read(assets().join("level2.tmx")).unwrap();
    let mut doc = TiledDoc::read("level2.tmx", &bytes).unwrap();
    doc.layer_mut(0).unwrap().set_visible(false);
    let saved = doc.to_bytes().unwrap();
    let again = TiledDoc::read("level2.tmx", &saved).unwrap();
    assert!(!again.layers()[0].visible() && again.layers()[1].visible());
    let bytes = std::fs::read(assets().join("level1.tmj")).unwrap();
    let mut doc = TiledDoc::read("level1.tmj", &bytes).unwrap();
    doc.layer_mut(1).unwrap().set_visible(false);
    doc.layer_mut(1).unwrap().set_visible(true);
    assert_eq!(doc.to_bytes().unwrap(), bytes);
    doc.layer_mut(1).unwrap().set_visible(false);
    let again = TiledDoc::read("level1.tmj", &doc.to_bytes().unwrap()).unwrap();
    assert!(!again.layers()[1].visible());
}

#[test]
fn an_infinite_map_opens_read_only_and_refuses_a_save() {
    let tmx = "<map width=\"1\" height=\"1\" tilewidth=\"8\" tileheight=\"8\" infinite=\"1\">\
        <layer name=\"a\" width=\"1\" height=\"1\"><data encoding=\"csv\">\
        <chunk x=\"0\" y=\"0\" width=\"16\" height=\"16\">1</chunk></data></layer></map>";
    let doc = TiledDoc::read("big.tmx", tmx.as_bytes()).unwrap();
    assert_eq!(
        doc.read_only(),
        Some("an infinite map (its chunks are not edited)")
    );
    assert_eq!(
        doc.to_bytes().unwrap_err().to_string(),
        "big.tmx: not saved: an infinite map (its chunks are not edited)"
    );
    let tmj = "{\"width\":1,\"height\":1,\"tilewidth\":8,\"tileheight\":8,\"infinite\":true,\
        \"layers\":[{\"type\":\"tilelayer\",\"name\":\"a\",\"width\":1,\"height\":1,\"chunks\":[]}]}";
    let doc = TiledDoc::read("big.tmj", tmj.as_bytes()).unwrap();
    assert!(doc.read_only().is_some() && doc.to_bytes().is_err());
    let zstd = "<map width=\"1\" height=\"1\" tilewidth=\"8\" tileheight=\"8\"><layer name=\"a\" \
        width=\"1\" height=\"1\"><data encoding=\"base64\" compression=\"zstd\">AAAA</data></layer></map>";
    let doc = TiledDoc::read("z.tmx", zstd.as_bytes()).unwrap();
    assert_eq!(
        doc.read_only(),
        Some("line 1: layer 'a': compression 'zstd' is not kept")
    );
}

#[test]
fn broken_files_are_refused_with_their_name_and_line() {
    let e = |name: &str, text: &str| {
        TiledDoc::read(name, text.as_bytes())
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        e("m.tmx", "<map>\n<x></y></map>"),
        "m.tmx: line 2: expected 'x' tag, not 'y'"
    );
    assert_eq!(
        e("m.tmx", "<tileset/>"),
        "m.tmx: line 1: <tileset> where the file starts with <map>"
    );
    assert_eq!(e("m.tmj", "{\"width\":1}"), "m.tmj: height: missing");
    assert_eq!(
        e("m.tmj", "[1,"),
        "m.tmj: line 1: the text ends where a value belongs"
    );
    let deep = format!("<map>{}", "<g>".repeat(20_000));
    assert_eq!(
        e("m.tmx", &deep),
        "m.tmx: line 1: elements nested more than 256 deep"
    );
    assert_eq!(
        TiledDoc::read("m.tmx", b"<map \xff")
            .unwrap_err()
            .to_string(),
        "m.tmx: invalid UTF-8 at byte 5"
    );
}
