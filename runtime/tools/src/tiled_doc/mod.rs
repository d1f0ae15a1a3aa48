//! A Tiled file as text that edits in place: a map (`.tmj`, `.tmx`) or a tileset (`.tsj`,
//! `.tsx`) whose tile layers' cells and tiles' `flags` property can change while every byte
//! not edited stays as it was: object layers, properties, tileset references, encodings and
//! compression, spacing.
//!
//! Reading finds where each layer's data and each tile's flags lie in the text; saving puts
//! new text only there. A layer written as numbers (CSV, a JSON array, XML `<tile gid>`
//! elements) changes only the numbers of the cells edited, so its line breaks and spacing
//! stay; a base64 layer is encoded again whole, with the compression it had. A cell keeps
//! Tiled's flip bits until it is set.
//!
//! What cannot be kept (an infinite map's chunks, zstd compression, an unknown encoding, a
//! layer of the wrong length) opens the file read-only with a one-line reason, and
//! [`TiledDoc::to_bytes`] refuses.
//!
//! ```
//! use bt_tools::tiled_doc::TiledDoc;
//!
//! let text = "<map width=\"2\" height=\"1\" tilewidth=\"8\" tileheight=\"8\">\n\
//!     <tileset firstgid=\"1\" tilecount=\"4\"/>\n\
//!     <layer name=\"ground\" width=\"2\" height=\"1\">\n\
//!     <data encoding=\"csv\">\n1,0\n</data></layer></map>";
//! let mut doc = TiledDoc::read("level.tmx", text.as_bytes())?;
//! assert_eq!(doc.to_bytes()?, text.as_bytes(), "no edit, the same bytes");
//! doc.layer_mut(0).unwrap().set_cell(1, 0, 3);
//! doc.set_tile_flags(2, 5)?;
//! let saved = String::from_utf8(doc.to_bytes()?).unwrap();
//! assert!(saved.contains("\n1,3\n"));
//! assert!(saved.contains("<tile id=\"2\"><properties><property name=\"flags\""));
//! # Ok::<(), bt_tools::tiled_doc::DocError>(())
//! ```

mod codec;
mod json;
mod tmj;
mod tmx;

use std::collections::BTreeMap;
use std::ops::Range;

use codec::Compression;

/// Tiled's bits in a cell for a flipped or turned tile; the rest is the tile's number
/// (its global id: the tileset's `firstgid` plus the tile's index in the sheet).
pub const FLIP_BITS: u32 = 0xf000_0000;

/// A file that could not be read as a Tiled file, or a save refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{name}: {message}")]
#[non_exhaustive]
pub struct DocError {
    /// What the file is called.
    pub name: String,
    /// What is wrong, with the line or field and the value.
    pub message: String,
}

/// Which of Tiled's four files a document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// A map in JSON (`.tmj`, `.json`).
    Tmj,
    /// A map in XML (`.tmx`).
    Tmx,
    /// A tileset in JSON (`.tsj`).
    Tsj,
    /// A tileset in XML (`.tsx`).
    Tsx,
}

impl Form {
    /// The form a file's name gives: `.tmj`/`.json`, `.tsj`, `.tsx`, anything else `.tmx`.
    pub fn of(name: &str) -> Form {
        let ext = name
            .rsplit_once('.')
            .map(|(_, e)| e.to_ascii_lowercase())
            .unwrap_or_default();
        match ext.as_str() {
            "tmj" | "json" => Form::Tmj,
            "tsj" => Form::Tsj,
            "tsx" => Form::Tsx,
            _ => Form::Tmx,
        }
    }

    fn is_json(self) -> bool {
        matches!(self, Form::Tmj | Form::Tsj)
    }
}

/// The tileset a map uses (or a tileset file is), as far as the editor needs it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tileset {
    /// The global id of its first tile (1 in a tileset file).
    pub first_gid: u32,
    /// The tileset file the map names, when the tileset is not embedded.
    pub source: Option<String>,
    /// The picture of the tiles, as the file names it (beside the file).
    pub image: Option<String>,
    /// How many tiles, if given.
    pub tile_count: Option<u32>,
    /// Tiles a row of the picture, if given.
    pub columns: Option<u32>,
}

/// Where a layer's cells lie in the text.
#[derive(Debug, Clone)]
enum Data {
    /// One span a cell, each a number (CSV, a JSON array).
    Numbers(Vec<Range<usize>>),
    /// One span a cell, each a whole `<tile/>` element.
    Elements(Vec<Range<usize>>),
    /// One span for all, base64 (inside a JSON string's quotes, or an XML element's text
    /// without its surrounding spaces).
    Base64(Range<usize>, Compression),
}

/// Where a layer's `visible` setting lies, or where it would go.
#[derive(Debug, Clone)]
enum VisibleAt {
    /// The value's span (`true`, `0`...).
    Value(Range<usize>),
    /// Absent: the offset to insert it at (after `<layer` or after a JSON layer's `{`).
    Insert(usize),
}

/// A tile layer of a map: its name, whether Tiled shows it, its cells.
#[derive(Debug, Clone)]
pub struct Layer {
    name: String,
    size: (u32, u32),
    visible: bool,
    visible_read: bool,
    visible_at: VisibleAt,
    data: Data,
    read: Vec<u32>,
    cells: Vec<u32>,
}

impl Layer {
    /// A layer as read: its cells from `data` (what its data is and the cells it holds), or,
    /// where its data cannot be kept, empty cells and the reason (the document is then
    /// read-only, as it says).
    fn read(
        name: String,
        size: (u32, u32),
        (visible, visible_at): (bool, VisibleAt),
        data: Result<(Data, Vec<u32>), String>,
    ) -> (Layer, Option<String>) {
        let cells = size.0 as usize * size.1 as usize;
        let ((data, read), reason) = match data {
            Ok(read) => (read, None),
            Err(reason) => ((Data::Numbers(Vec::new()), vec![0; cells]), Some(reason)),
        };
        let layer = Layer {
            name,
            size,
            visible,
            visible_read: visible,
            visible_at,
            data,
            cells: read.clone(),
            read,
        };
        (layer, reason)
    }

    /// The layer's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether Tiled shows the layer (its `visible` setting, not an editor's view of it).
    pub fn visible(&self) -> bool {
        self.visible
    }

    /// Sets Tiled's `visible` setting, written into the file on save.
    pub fn set_visible(&mut self, visible: bool) {
        self.visible = visible;
    }

    /// Cells across and down.
    pub fn size(&self) -> (u32, u32) {
        self.size
    }

    /// The cell at (`x`, `y`) as Tiled keeps it: 0 for none, else the tile's global id with
    /// Tiled's [`FLIP_BITS`]; `None` outside the layer.
    pub fn cell(&self, x: i32, y: i32) -> Option<u32> {
        self.index(x, y).map(|i| self.cells[i])
    }

    /// Sets the cell at (`x`, `y`) to `gid` (flip bits and all); false outside the layer.
    pub fn set_cell(&mut self, x: i32, y: i32, gid: u32) -> bool {
        match self.index(x, y) {
            Some(i) => {
                self.cells[i] = gid;
                true
            }
            None => false,
        }
    }

    /// Every cell, row by row.
    pub fn cells(&self) -> &[u32] {
        &self.cells
    }

    /// Sets every cell from `cells`, row by row; false (and nothing set) when the count is
    /// not the layer's.
    pub fn set_cells(&mut self, cells: &[u32]) -> bool {
        if cells.len() != self.cells.len() {
            return false;
        }
        self.cells.copy_from_slice(cells);
        true
    }

    fn index(&self, x: i32, y: i32) -> Option<usize> {
        let (w, h) = self.size;
        let (x, y) = (u32::try_from(x).ok()?, u32::try_from(y).ok()?);
        (x < w && y < h).then(|| y as usize * w as usize + x as usize)
    }
}

/// Where a tile's `flags` property lies, or what the tileset has to insert one beside.
#[derive(Debug, Clone, Default)]
struct FlagSites {
    /// Tile id to its flags value's span and the value read.
    values: BTreeMap<u32, (Range<usize>, u8)>,
    /// Tile id to where a flags property can be added to the tile (it has none).
    tiles: BTreeMap<u32, Insert>,
    /// Where a new tile entry goes: before the tile of the id, or after all.
    new_tile: NewTile,
}

/// A text to put in at `at`: `before` + the new thing + `after`.
#[derive(Debug, Clone, Default)]
struct Insert {
    at: usize,
    /// Replaces these bytes from `at` (a self-closed `/>` to open up).
    replace: usize,
    before: String,
    /// Between two new things put in at one place (new tile entries).
    sep: String,
    after: String,
}

/// Where new tile entries go, by id.
#[derive(Debug, Clone, Default)]
struct NewTile {
    /// Tile id to an insertion just before that tile's entry (`after` is the separator).
    before: BTreeMap<u32, Insert>,
    /// After the last entry (or where the list begins).
    end: Option<Insert>,
}

/// A Tiled map or tileset file, editable in place.
#[derive(Debug, Clone)]
pub struct TiledDoc {
    name: String,
    text: String,
    form: Form,
    size: (u32, u32),
    tile_size: (u32, u32),
    layers: Vec<Layer>,
    tilesets: Vec<Tileset>,
    flag_sites: Option<FlagSites>,
    flags: BTreeMap<u32, u8>,
    read_only: Option<String>,
}

impl TiledDoc {
    /// Adds a layer as read ([`Layer::read`]); one whose data cannot be kept makes the
    /// document read-only, naming the layer by `at`.
    fn push_read_layer(
        &mut self,
        at: &str,
        name: String,
        size: (u32, u32),
        visible: (bool, VisibleAt),
        data: Result<(Data, Vec<u32>), String>,
    ) {
        let (layer, reason) = Layer::read(name, size, visible, data);
        if let Some(reason) = reason {
            self.read_only.get_or_insert(format!("{at}: {reason}"));
        }
        self.layers.push(layer);
    }

    /// Reads the Tiled file `bytes`; `name` is what errors call it, and its extension picks
    /// the form ([`Form::of`]).
    ///
    /// # Errors
    /// [`DocError`] for bytes that are not UTF-8 text, not JSON or XML, or not a Tiled file
    /// of the form (a map's width missing, say). What is read but cannot be kept opens
    /// read-only instead ([`TiledDoc::read_only`]).
    pub fn read(name: &str, bytes: &[u8]) -> Result<TiledDoc, DocError> {
        let error = |message: String| DocError {
            name: name.to_string(),
            message,
        };
        let text = std::str::from_utf8(bytes)
            .map_err(|e| error(format!("invalid UTF-8 at byte {}", e.valid_up_to())))?
            .to_string();
        let form = Form::of(name);
        let mut doc = TiledDoc {
            name: name.to_string(),
            text,
            form,
            size: (0, 0),
            tile_size: (0, 0),
            layers: Vec::new(),
            tilesets: Vec::new(),
            flag_sites: None,
            flags: BTreeMap::new(),
            read_only: None,
        };
        let text = doc.text.clone();
        if form.is_json() {
            tmj::read(&mut doc, &text).map_err(error)?;
        } else {
            tmx::read(&mut doc, &text).map_err(error)?;
        }
        if let Some(sites) = &doc.flag_sites {
            doc.flags = sites.values.iter().map(|(&id, (_, f))| (id, *f)).collect();
        }
        Ok(doc)
    }

    /// What errors call the file.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The file's form.
    pub fn form(&self) -> Form {
        self.form
    }

    /// Why the file cannot be saved, when it cannot: one line.
    pub fn read_only(&self) -> Option<&str> {
        self.read_only.as_deref()
    }

    /// The map's size in cells ((0, 0) for a tileset file).
    pub fn size(&self) -> (u32, u32) {
        self.size
    }

    /// A tile's size in pixels.
    pub fn tile_size(&self) -> (u32, u32) {
        self.tile_size
    }

    /// The tile layers, groups flattened, in the file's order.
    pub fn layers(&self) -> &[Layer] {
        &self.layers
    }

    /// The tile layer at `index`, to edit.
    pub fn layer_mut(&mut self, index: usize) -> Option<&mut Layer> {
        self.layers.get_mut(index)
    }

    /// The map's tilesets (a tileset file's own one).
    pub fn tilesets(&self) -> &[Tileset] {
        &self.tilesets
    }

    /// The flags of tile `tile_id` (its index in the sheet) in the file's single tileset: 0
    /// when it has none.
    pub fn tile_flags(&self, tile_id: u32) -> u8 {
        self.flags.get(&tile_id).copied().unwrap_or(0)
    }

    /// Sets the flags of tile `tile_id` in the file's single tileset, written as the tile's
    /// integer property `flags`.
    ///
    /// # Errors
    /// A [`DocError`] when the tileset is not in this file (a map naming a tileset file: edit
    /// that file's own document), when the map has no tileset or more than one, or when the
    /// file is read-only.
    pub fn set_tile_flags(&mut self, tile_id: u32, flags: u8) -> Result<(), DocError> {
        if let Some(reason) = &self.read_only {
            return Err(self.error(reason.clone()));
        }
        match self.tilesets.as_slice() {
            [one] if one.source.is_some() => {
                let source = one.source.clone().unwrap_or_default();
                return Err(self.error(format!(
                    "the tileset is in its own file \"{source}\"; its flags are saved there"
                )));
            }
            [_] => {}
            [] => return Err(self.error("no tileset to hold tile flags".into())),
            more => {
                return Err(self.error(format!(
                    "{} tilesets; tile flags are edited in a map of one",
                    more.len()
                )))
            }
        }
        self.flags.insert(tile_id, flags);
        Ok(())
    }

    /// Whether anything differs from the text read.
    pub fn is_edited(&self) -> bool {
        self.layers
            .iter()
            .any(|l| l.cells != l.read || l.visible != l.visible_read)
            || self.flags_edited().next().is_some()
    }

    fn flags_edited(&self) -> impl Iterator<Item = (u32, u8)> + '_ {
        let read = self.flag_sites.as_ref().map(|s| &s.values);
        self.flags.iter().filter_map(move |(&id, &f)| {
            let before = read.and_then(|r| r.get(&id)).map_or(0, |v| v.1);
            (f != before).then_some((id, f))
        })
    }

    fn error(&self, message: String) -> DocError {
        DocError {
            name: self.name.clone(),
            message,
        }
    }

    /// The file's text with the edits made: the bytes read when nothing was edited.
    ///
    /// # Errors
    /// A [`DocError`] with the reason the file is read-only.
    pub fn to_bytes(&self) -> Result<Vec<u8>, DocError> {
        if let Some(reason) = &self.read_only {
            return Err(self.error(format!("not saved: {reason}")));
        }
        let mut edits: Vec<(Range<usize>, String)> = Vec::new();
        for layer in &self.layers {
            self.layer_edits(layer, &mut edits);
        }
        self.flag_edits(&mut edits);
        edits.sort_by_key(|e| (e.0.start, e.0.end));
        let mut out = String::with_capacity(self.text.len());
        let mut at = 0;
        for (range, new) in edits {
            out.push_str(&self.text[at..range.start]);
            out.push_str(&new);
            at = range.end;
        }
        out.push_str(&self.text[at..]);
        Ok(out.into_bytes())
    }

    /// Takes the bytes just saved as the text read: later saves compare with them.
    ///
    /// # Errors
    /// As [`TiledDoc::to_bytes`]; never for a document that saved.
    pub fn saved(&mut self) -> Result<(), DocError> {
        let bytes = self.to_bytes()?;
        *self = TiledDoc::read(&self.name, &bytes)?;
        Ok(())
    }

    fn layer_edits(&self, layer: &Layer, edits: &mut Vec<(Range<usize>, String)>) {
        if layer.visible != layer.visible_read {
            let value = match (self.form.is_json(), layer.visible) {
                (true, v) => v.to_string(),
                (false, true) => "1".into(),
                (false, false) => "0".into(),
            };
            match &layer.visible_at {
                VisibleAt::Value(r) => edits.push((r.clone(), value)),
                VisibleAt::Insert(at) => {
                    let text = if self.form.is_json() {
                        format!("\"visible\":{value},")
                    } else {
                        format!(" visible=\"{value}\"")
                    };
                    edits.push((*at..*at, text));
                }
            }
        }
        if layer.cells == layer.read {
            return;
        }
        let changed = || {
            layer
                .cells
                .iter()
                .zip(&layer.read)
                .enumerate()
                .filter(|(_, (now, was))| now != was)
                .map(|(i, (now, _))| (i, *now))
        };
        match &layer.data {
            Data::Numbers(spans) => {
                for (i, gid) in changed() {
                    edits.push((spans[i].clone(), gid.to_string()));
                }
            }
            Data::Elements(spans) => {
                for (i, gid) in changed() {
                    let element = if gid == 0 {
                        "<tile/>".to_string()
                    } else {
                        format!("<tile gid=\"{gid}\"/>")
                    };
                    edits.push((spans[i].clone(), element));
                }
            }
            Data::Base64(span, compression) => {
                edits.push((span.clone(), codec::encode(&layer.cells, *compression)));
            }
        }
    }

    fn flag_edits(&self, edits: &mut Vec<(Range<usize>, String)>) {
        let Some(sites) = &self.flag_sites else {
            return;
        };
        // New tile entries that go at one place are written together, in id order.
        let mut new_tiles: BTreeMap<usize, (Insert, Vec<String>)> = BTreeMap::new();
        for (id, flags) in self.flags_edited() {
            if let Some((range, _)) = sites.values.get(&id) {
                edits.push((range.clone(), flags.to_string()));
            } else if let Some(insert) = sites.tiles.get(&id) {
                let property = self.flag_property(flags);
                let text = format!("{}{property}{}", insert.before, insert.after);
                edits.push((insert.at..insert.at + insert.replace, text));
            } else {
                let place = sites
                    .new_tile
                    .before
                    .range(id..)
                    .next()
                    .map(|(_, i)| i)
                    .or(sites.new_tile.end.as_ref());
                let Some(place) = place else { continue };
                let tile = self.flag_tile(id, flags);
                new_tiles
                    .entry(place.at)
                    .or_insert_with(|| (place.clone(), Vec::new()))
                    .1
                    .push(tile);
            }
        }
        for (at, (insert, tiles)) in new_tiles {
            let text = format!(
                "{}{}{}",
                insert.before,
                tiles.join(&insert.sep),
                insert.after
            );
            edits.push((at..at + insert.replace, text));
        }
    }

    fn flag_property(&self, flags: u8) -> String {
        if self.form.is_json() {
            format!("{{\"name\":\"flags\",\"type\":\"int\",\"value\":{flags}}}")
        } else {
            format!("<property name=\"flags\" type=\"int\" value=\"{flags}\"/>")
        }
    }

    fn flag_tile(&self, id: u32, flags: u8) -> String {
        let property = self.flag_property(flags);
        if self.form.is_json() {
            format!("{{\"id\":{id},\"properties\":[{property}]}}")
        } else {
            format!("<tile id=\"{id}\"><properties>{property}</properties></tile>")
        }
    }
}

/// `s` on one line: control characters escaped, quotes left as they are.
fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_debug().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
