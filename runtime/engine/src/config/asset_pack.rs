//! A cart's asset folder carried in memory: what a web page has in place of a disk.
//!
//! `bt web` reads the cart's asset folder when it exports the page and builds every file into
//! the module as an [`AssetPack`]; the page's console then reads them through a
//! [`Packed`], so `load_image("sprites.png")`, `load_map("level.tmx")` (with the tileset
//! file beside it), `load_sounds` and `load_data` find the same bytes they find natively, and a
//! cart's code is the same in both places.

use std::borrow::Cow;

use bt::AssetError;
use bt::AssetErrorKind;

use super::assets::{Assets, FileSource};

/// Files by their path in the asset folder (`/` between folders), each with its bytes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AssetPack {
    files: Vec<(String, Cow<'static, [u8]>)>,
}

impl AssetPack {
    /// An empty pack.
    pub fn new() -> AssetPack {
        AssetPack::default()
    }

    /// The pack a [`PackWriter`] wrote, built into the program as one blob (`bt web`'s
    /// `include_bytes!`): each file's bytes are borrowed from `packed`, not copied. No bytes at
    /// all is an empty pack.
    ///
    /// # Errors
    /// A message saying where the blob stops being a pack (another format, or cut short).
    pub fn from_packed(packed: &'static [u8]) -> Result<AssetPack, String> {
        let mut pack = AssetPack::new();
        if packed.is_empty() {
            return Ok(pack);
        }
        let mut rest = packed.strip_prefix(PACKED_MAGIC.as_slice()).ok_or(
            "the asset pack does not start as one: it was not made by this version of bt web",
        )?;
        while !rest.is_empty() {
            let at = packed.len() - rest.len();
            let cut = || format!("the asset pack is cut short at byte {at}");
            let name_len = take(&mut rest, 4).ok_or_else(cut)?;
            let name_len = u32::from_le_bytes(name_len.try_into().expect("4 bytes"));
            let name = take(&mut rest, u64::from(name_len)).ok_or_else(cut)?;
            let name = std::str::from_utf8(name).map_err(|_| {
                format!("the asset pack names a file in bytes that are not UTF-8 at byte {at}")
            })?;
            let size = take(&mut rest, 8).ok_or_else(cut)?;
            let size = u64::from_le_bytes(size.try_into().expect("8 bytes"));
            let bytes = take(&mut rest, size).ok_or_else(cut)?;
            pack.insert(name, Cow::Borrowed(bytes));
        }
        Ok(pack)
    }

    /// Adds (or replaces) the file at `path`, relative to the asset folder.
    pub fn insert(&mut self, path: &str, bytes: impl Into<Cow<'static, [u8]>>) {
        let Some(key) = normalise(path) else {
            return;
        };
        let bytes = bytes.into();
        match self.files.iter_mut().find(|(name, _)| *name == key) {
            Some((_, old)) => *old = bytes,
            None => self.files.push((key, bytes)),
        }
    }

    /// The bytes of the file at `path`: relative to the asset folder, `./` and `..` resolved
    /// as a file system would, `\` taken as `/`.
    pub fn get(&self, path: &str) -> Option<&[u8]> {
        let key = normalise(path)?;
        self.files
            .iter()
            .find(|(name, _)| *name == key)
            .map(|(_, bytes)| bytes.as_ref())
    }

    /// The files' paths, in the order they were added.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.files.iter().map(|(name, _)| name.as_str())
    }

    /// How many files the pack holds.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether the pack holds no file.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

/// The first bytes of a packed asset folder: the format and its version.
const PACKED_MAGIC: &[u8; 12] = b"BT-ASSETS-1\n";

/// The first `n` bytes of `bytes`, which then starts after them; `None` when it is shorter.
fn take<'a>(bytes: &mut &'a [u8], n: u64) -> Option<&'a [u8]> {
    let n = usize::try_from(n).ok().filter(|&n| n <= bytes.len())?;
    let (head, rest) = bytes.split_at(n);
    *bytes = rest;
    Some(head)
}

/// Writes an asset folder as one blob, which [`AssetPack::from_packed`] reads: `bt web` builds
/// it into a page with one `include_bytes!`, so the page's generated source is a few lines
/// whatever the number of files, and a file's name is data, never Rust source. The layout,
/// integers little-endian: `BT-ASSETS-1` and a line feed, then for each file its name's length
/// (u32), its name (UTF-8, `/` between folders), its size (u64) and its bytes.
///
/// ```
/// use bt_engine::config::asset_pack::{AssetPack, PackWriter};
///
/// let mut writer = PackWriter::new();
/// writer.add("maps/level\r1.tmx", b"<map/>");
/// let packed: &'static [u8] = writer.into_bytes().leak();
/// let pack = AssetPack::from_packed(packed).unwrap();
/// assert_eq!(pack.get("maps/level\r1.tmx"), Some(&b"<map/>"[..]));
/// ```
#[derive(Debug, Clone)]
pub struct PackWriter {
    bytes: Vec<u8>,
}

impl PackWriter {
    /// A pack with no file yet.
    pub fn new() -> PackWriter {
        PackWriter {
            bytes: PACKED_MAGIC.to_vec(),
        }
    }

    /// Adds the file `name` (its path in the asset folder) with its bytes.
    ///
    /// # Panics
    /// When `name` is 4 GiB long or more, which no path is.
    pub fn add(&mut self, name: &str, bytes: &[u8]) {
        let name_len = u32::try_from(name.len()).expect("a file name under 4 GiB");
        self.bytes.extend_from_slice(&name_len.to_le_bytes());
        self.bytes.extend_from_slice(name.as_bytes());
        self.bytes
            .extend_from_slice(&(bytes.len() as u64).to_le_bytes());
        self.bytes.extend_from_slice(bytes);
    }

    /// The pack's bytes.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
}

impl Default for PackWriter {
    fn default() -> PackWriter {
        PackWriter::new()
    }
}

/// `path` as a key: components joined with `/`, `.` dropped, `..` taking one back. `None` for
/// an absolute path or one that climbs out of the folder: no pack holds such a file.
fn normalise(path: &str) -> Option<String> {
    let path = path.replace('\\', "/");
    if path.starts_with('/') {
        return None;
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            part => parts.push(part),
        }
    }
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// The files of an [`AssetPack`] as a [`FileSource`], read as [`super::assets::AssetFolder`]
/// reads a folder: the same paths, the same limits, the same errors.
#[derive(Debug, Clone)]
pub struct Packed {
    pack: std::sync::Arc<AssetPack>,
}

impl Packed {
    /// The files in `pack`.
    pub fn new(pack: std::sync::Arc<AssetPack>) -> Packed {
        Packed { pack }
    }
}

impl FileSource for Packed {
    /// The file as packed, refused when longer than `limit`, as a file on a disk is: a pack
    /// holds only what `bt web` read from the folder.
    fn read(&self, path: &str, limit: u64) -> Result<Vec<u8>, AssetError> {
        let bytes = self
            .pack
            .get(path)
            .ok_or_else(|| AssetError::new(path, AssetErrorKind::NotFound))?;
        if bytes.len() as u64 > limit {
            return Err(AssetError::new(
                path,
                AssetErrorKind::FileTooLarge {
                    bytes: bytes.len() as u64,
                    limit,
                },
            ));
        }
        Ok(bytes.to_vec())
    }
}

impl Assets<Packed> {
    /// A cart's assets from `pack`, a web page's.
    pub fn pack(pack: std::sync::Arc<AssetPack>) -> Assets<Packed> {
        Assets(Packed::new(pack))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::assets::Paths;
    use crate::config::png_loader::tests::png;
    use bt::host::ImageLoader;

    #[test]
    fn paths_resolve_as_a_folder_would() {
        let mut pack = AssetPack::new();
        pack.insert("maps/level.tmx", b"map".to_vec());
        pack.insert("./sprites.png", b"png".to_vec());
        assert_eq!(pack.get("maps/level.tmx"), Some(&b"map"[..]));
        assert_eq!(pack.get("maps/../maps/./level.tmx"), Some(&b"map"[..]));
        assert_eq!(pack.get("maps\\level.tmx"), Some(&b"map"[..]));
        assert_eq!(pack.get("sprites.png"), Some(&b"png"[..]));
        assert_eq!(pack.get("/sprites.png"), None);
        assert_eq!(pack.get("../sprites.png"), None);
        assert_eq!(pack.get("level.tmx"), None);
        assert_eq!(
            pack.paths().collect::<Vec<_>>(),
            ["maps/level.tmx", "sprites.png"]
        );
    }

    #[test]
    fn a_packed_folder_reads_back_whatever_its_file_names_hold() {
        let names = [
            "notes.txt",
            "a\rcarriage return.txt",
            "say \"hi\"\\.txt",
            "dir/é\n.png",
        ];
        let mut writer = PackWriter::new();
        for (k, name) in names.iter().enumerate() {
            writer.add(name, &vec![k as u8; k]);
        }
        let packed: &'static [u8] = writer.into_bytes().leak();
        let pack = AssetPack::from_packed(packed).unwrap();
        assert_eq!(pack.len(), names.len());
        for (k, name) in names.iter().enumerate() {
            assert_eq!(pack.get(name), Some(&vec![k as u8; k][..]), "{name:?}");
        }
        assert!(AssetPack::from_packed(&[]).unwrap().is_empty());
    }

    #[test]
    fn a_damaged_pack_is_refused_saying_where() {
        let mut writer = PackWriter::new();
        writer.add("sheet.png", b"12345");
        let good = writer.into_bytes();
        let cut: &'static [u8] = good[..good.len() - 1].to_vec().leak();
        assert_eq!(
            AssetPack::from_packed(cut).unwrap_err(),
            "the asset pack is cut short at byte 12"
        );
        let other: &'static [u8] = b"not a pack at all";
        assert!(AssetPack::from_packed(other)
            .unwrap_err()
            .contains("does not start as one"));
    }

    #[test]
    fn a_pack_reads_as_the_folder_it_came_from() {
        let sheet = png(2, 1, &[255, 0, 0, 255, 0, 0, 0, 0]);
        let mut pack = AssetPack::new();
        pack.insert("sheet.png", sheet.clone());
        pack.insert("notes.txt", b"hello".to_vec());
        let loader = Assets::pack(std::sync::Arc::new(pack));
        let image = loader.load("sheet.png").unwrap();
        assert_eq!(
            image.pixels,
            Assets(Paths).decode("sheet.png", &sheet).unwrap().pixels
        );
        assert_eq!(loader.read("notes.txt").unwrap(), b"hello");
        assert_eq!(
            loader.read("gone.txt").unwrap_err().to_string(),
            "gone.txt: file not found"
        );
        assert_eq!(
            loader.read_limited("notes.txt", 4).unwrap_err().to_string(),
            "notes.txt: could not read it: 5 bytes is over the limit of 4 bytes"
        );
    }

    #[cfg(feature = "tiled")]
    #[test]
    fn a_map_finds_its_tileset_file_beside_it_in_the_pack() {
        let tileset = r#"<?xml version="1.0" encoding="UTF-8"?>
<tileset name="t" tilewidth="8" tileheight="8" tilecount="4" columns="2">
 <tile id="1"><properties><property name="flags" type="int" value="3"/></properties></tile>
</tileset>"#;
        let map = r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="2" height="1" tilewidth="8" tileheight="8" infinite="0">
 <tileset firstgid="1" source="tiles.tsx"/>
 <layer id="1" name="ground" width="2" height="1"><data encoding="csv">1,2</data></layer>
</map>"#;
        let mut pack = AssetPack::new();
        pack.insert("maps/level.tmx", map.as_bytes().to_vec());
        pack.insert("maps/tiles.tsx", tileset.as_bytes().to_vec());
        let loader = Assets::pack(std::sync::Arc::new(pack));
        let tilemap = loader.load_map("maps/level.tmx").unwrap();
        assert_eq!(tilemap.size(), (2, 1));
        assert_eq!(tilemap.tile(0, 0, 0), Some(0));
        assert_eq!(tilemap.tile(0, 1, 0), Some(1));
        assert_eq!(tilemap.flags(1), 3);

        let mut alone = AssetPack::new();
        alone.insert("level.tmx", map.as_bytes().to_vec());
        let e = Assets::pack(std::sync::Arc::new(alone))
            .load_map("level.tmx")
            .unwrap_err();
        assert_eq!(e.to_string(), "level.tmx -> tiles.tsx: file not found");
    }
}
