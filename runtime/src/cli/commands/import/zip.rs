//! A zip archive read from memory: its entries' names, and one entry's bytes, inflated no
//! further than a limit. Enough for the archives `bt import` reads (Pyxel's `.pyxres`): entries
//! stored or deflated, not encrypted, not zip64, on one disk.
//!
//! Every size is checked against the archive's length before it is used, and an entry is
//! refused from its declared size before any of it is inflated; the inflater then stops one byte
//! past that size, so an entry that lies about its size cannot fill memory either.

use std::io::Read as _;

/// Signatures of the three records read.
const END_OF_DIRECTORY: u32 = 0x0605_4b50;
const DIRECTORY_ENTRY: u32 = 0x0201_4b50;
const LOCAL_HEADER: u32 = 0x0403_4b50;
/// Fixed sizes of those records (names, extras and comments follow them).
const END_LEN: usize = 22;
const ENTRY_LEN: usize = 46;
const LOCAL_LEN: usize = 30;
/// The longest archive comment, which the end record may be followed by.
const MAX_COMMENT: usize = 0xffff;
/// Entries listed at most: a resource archive has one, or a few dozen in Pyxel's old layout.
const MAX_ENTRIES: usize = 4096;

/// Compression methods read.
const STORED: u16 = 0;
const DEFLATED: u16 = 8;

/// An archive's table of contents, over the archive's bytes.
#[derive(Debug)]
pub(super) struct Zip<'a> {
    bytes: &'a [u8],
    entries: Vec<Entry>,
}

#[derive(Debug)]
struct Entry {
    name: String,
    flags: u16,
    method: u16,
    crc: u32,
    packed: usize,
    size: u64,
    local: usize,
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(
        b.get(at..at.checked_add(2)?)?.try_into().ok()?,
    ))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(
        b.get(at..at.checked_add(4)?)?.try_into().ok()?,
    ))
}

impl<'a> Zip<'a> {
    /// Reads the central directory.
    ///
    /// # Errors
    ///
    /// A message (without the file's name) when `bytes` is not a zip archive this reader takes.
    pub(super) fn read(bytes: &'a [u8]) -> Result<Zip<'a>, String> {
        let not_zip = || "not a zip archive (no end-of-directory record)".to_string();
        if bytes.len() < END_LEN {
            return Err(not_zip());
        }
        // The end record is the last one, followed only by the comment it gives the length of.
        let lowest = bytes.len().saturating_sub(END_LEN + MAX_COMMENT);
        let end = (lowest..=bytes.len() - END_LEN)
            .rev()
            .find(|&at| {
                u32_at(bytes, at) == Some(END_OF_DIRECTORY)
                    && u16_at(bytes, at + 20).map(usize::from) == Some(bytes.len() - at - END_LEN)
            })
            .ok_or_else(not_zip)?;
        let field16 = |at| u16_at(bytes, end + at).unwrap_or(0);
        let field32 = |at| u32_at(bytes, end + at).unwrap_or(0);
        if field16(4) != 0 || field16(6) != 0 || field16(8) != field16(10) {
            return Err("an archive split over several disks is not read".into());
        }
        let count = usize::from(field16(10));
        let (dir_size, dir_at) = (field32(12), field32(16));
        if count == 0xffff || dir_size == u32::MAX || dir_at == u32::MAX {
            return Err("a zip64 archive is not read (a resource file is far smaller)".into());
        }
        if count > MAX_ENTRIES {
            return Err(format!("{count} entries, more than the {MAX_ENTRIES} read"));
        }
        let broken = |what: &str| format!("the archive is damaged: {what}");
        let mut at = dir_at as usize;
        let mut entries = Vec::with_capacity(count);
        for i in 0..count {
            let bad = || broken(&format!("directory entry {i} is cut short"));
            if u32_at(bytes, at) != Some(DIRECTORY_ENTRY) {
                return Err(broken(&format!(
                    "directory entry {i} is not where it should be"
                )));
            }
            let f16 = |off| u16_at(bytes, at + off).ok_or_else(bad);
            let f32 = |off| u32_at(bytes, at + off).ok_or_else(bad);
            let name_len = usize::from(f16(28)?);
            let skip = name_len + usize::from(f16(30)?) + usize::from(f16(32)?);
            let name = bytes
                .get(at + ENTRY_LEN..at + ENTRY_LEN + name_len)
                .ok_or_else(bad)?;
            let (packed, size, local) = (f32(20)?, f32(24)?, f32(42)?);
            if packed == u32::MAX || size == u32::MAX || local == u32::MAX {
                return Err("a zip64 archive is not read (a resource file is far smaller)".into());
            }
            entries.push(Entry {
                name: String::from_utf8_lossy(name).into_owned(),
                flags: f16(8)?,
                method: f16(10)?,
                crc: f32(16)?,
                packed: packed as usize,
                size: u64::from(size),
                local: local as usize,
            });
            at += ENTRY_LEN + skip;
        }
        Ok(Zip { bytes, entries })
    }

    /// Whether an entry of that name is listed.
    pub(super) fn has(&self, name: &str) -> bool {
        self.entries.iter().any(|e| e.name == name)
    }

    /// The names listed, in the directory's order.
    pub(super) fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|e| e.name.as_str())
    }

    /// The bytes of the entry `name` (the first of that name), or `None` when none is listed.
    ///
    /// # Errors
    ///
    /// A message (without the file's name, with the entry's) when the entry unpacks to more
    /// than `limit` bytes, is encrypted or compressed another way than stored or deflated, is
    /// damaged, or fails its checksum.
    pub(super) fn entry(&self, name: &str, limit: u64) -> Result<Option<Vec<u8>>, String> {
        let Some(e) = self.entries.iter().find(|e| e.name == name) else {
            return Ok(None);
        };
        let shown = crate::quote::excerpt(name);
        if e.flags & 1 != 0 {
            return Err(format!("{shown}: an encrypted entry is not read"));
        }
        if e.size > limit {
            return Err(format!(
                "{shown}: unpacks to {} bytes, more than the {limit} read",
                e.size
            ));
        }
        let cut = || format!("{shown}: the archive is damaged: the entry is cut short");
        if u32_at(self.bytes, e.local) != Some(LOCAL_HEADER) {
            return Err(format!(
                "{shown}: the archive is damaged: the entry's header is not where it should be"
            ));
        }
        let name_len = usize::from(u16_at(self.bytes, e.local + 26).ok_or_else(cut)?);
        let extra_len = usize::from(u16_at(self.bytes, e.local + 28).ok_or_else(cut)?);
        let start = e.local + LOCAL_LEN + name_len + extra_len;
        let packed = self
            .bytes
            .get(start..start.checked_add(e.packed).ok_or_else(cut)?)
            .ok_or_else(cut)?;
        let data = match e.method {
            STORED => packed.to_vec(),
            DEFLATED => {
                // One byte past the declared size shows a lie without reading the rest.
                let mut out = Vec::with_capacity(e.size.min(limit) as usize);
                flate2::read::DeflateDecoder::new(packed)
                    .take(e.size + 1)
                    .read_to_end(&mut out)
                    .map_err(|err| format!("{shown}: not valid deflated data: {err}"))?;
                out
            }
            m => {
                return Err(format!(
                    "{shown}: compression method {m} is not read (stored or deflated only)"
                ))
            }
        };
        if data.len() as u64 != e.size {
            return Err(format!(
                "{shown}: the archive is damaged: the entry unpacks to {} bytes where its \
                 directory says {}",
                data.len(),
                e.size
            ));
        }
        let mut crc = flate2::Crc::new();
        crc.update(&data);
        if crc.sum() != e.crc {
            return Err(format!(
                "{shown}: the archive is damaged: the entry fails its checksum"
            ));
        }
        Ok(Some(data))
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use std::io::Write as _;

    /// A zip archive of `entries` (name, bytes, deflated?), written the way zip tools write it.
    pub(crate) fn zip(entries: &[(&str, &[u8], bool)]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut dir = Vec::new();
        for (name, data, deflate) in entries {
            let packed = if *deflate {
                let mut z =
                    flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
                z.write_all(data).unwrap();
                z.finish().unwrap()
            } else {
                data.to_vec()
            };
            let mut crc = flate2::Crc::new();
            crc.update(data);
            let method: u16 = if *deflate { DEFLATED } else { STORED };
            let local = out.len() as u32;
            let common = |v: &mut Vec<u8>| {
                v.extend(20u16.to_le_bytes()); // version needed
                v.extend(0u16.to_le_bytes()); // flags
                v.extend(method.to_le_bytes());
                v.extend([0, 0, 0x21, 0]); // time, date
                v.extend(crc.sum().to_le_bytes());
                v.extend((packed.len() as u32).to_le_bytes());
                v.extend((data.len() as u32).to_le_bytes());
                v.extend((name.len() as u16).to_le_bytes());
                v.extend(0u16.to_le_bytes()); // extra
            };
            out.extend(LOCAL_HEADER.to_le_bytes());
            common(&mut out);
            out.extend(name.as_bytes());
            out.extend(&packed);
            dir.extend(DIRECTORY_ENTRY.to_le_bytes());
            dir.extend(20u16.to_le_bytes()); // made by
            common(&mut dir);
            dir.extend([0; 8]); // comment length, disk, internal and external attributes
            dir.extend([0; 2]);
            dir.extend(local.to_le_bytes());
            dir.extend(name.as_bytes());
        }
        let dir_at = out.len() as u32;
        out.extend(&dir);
        out.extend(END_OF_DIRECTORY.to_le_bytes());
        out.extend([0; 4]);
        out.extend((entries.len() as u16).to_le_bytes());
        out.extend((entries.len() as u16).to_le_bytes());
        out.extend((dir.len() as u32).to_le_bytes());
        out.extend(dir_at.to_le_bytes());
        out.extend(0u16.to_le_bytes());
        out
    }

    #[test]
    fn stored_and_deflated_entries_read_back() {
        let text = b"format_version = 1\n".repeat(50);
        let bytes = zip(&[("a.txt", b"plain", false), ("b.toml", &text, true)]);
        let z = Zip::read(&bytes).unwrap();
        assert_eq!(z.names().collect::<Vec<_>>(), ["a.txt", "b.toml"]);
        assert_eq!(z.entry("a.txt", 100).unwrap().unwrap(), b"plain");
        assert_eq!(z.entry("b.toml", 10_000).unwrap().unwrap(), text);
        assert!(z.entry("c", 100).unwrap().is_none());
        assert!(z.has("b.toml") && !z.has("c"));
    }

    #[test]
    fn an_entry_larger_than_the_limit_is_refused_before_it_is_inflated() {
        // A megabyte of zeros packs into about a kilobyte: a small bomb.
        let zeros = vec![0u8; 1 << 20];
        let bytes = zip(&[("big", &zeros, true)]);
        assert!(bytes.len() < 4096);
        let e = Zip::read(&bytes).unwrap().entry("big", 1000).unwrap_err();
        assert_eq!(e, "big: unpacks to 1048576 bytes, more than the 1000 read");
    }

    #[test]
    fn an_entry_that_lies_about_its_size_stops_one_byte_past_it() {
        let zeros = vec![0u8; 1 << 20];
        let mut bytes = zip(&[("big", &zeros, true)]);
        // Both records say 100 bytes where the data inflates to a megabyte.
        let n = bytes.len();
        let dir_at = u32_at(&bytes, n - 6).unwrap() as usize;
        bytes[22..26].copy_from_slice(&100u32.to_le_bytes());
        bytes[dir_at + 24..dir_at + 28].copy_from_slice(&100u32.to_le_bytes());
        let e = Zip::read(&bytes).unwrap().entry("big", 1000).unwrap_err();
        assert_eq!(
            e,
            "big: the archive is damaged: the entry unpacks to 101 bytes where its directory says 100"
        );
    }

    #[test]
    fn damaged_archives_are_refused_without_panicking() {
        let good = zip(&[("x", b"hello hello hello", true)]);
        assert!(Zip::read(b"PK")
            .unwrap_err()
            .starts_with("not a zip archive"));
        assert!(Zip::read(&[]).is_err());
        // Every truncation and every single flipped byte: an error or the right bytes, never a
        // panic.
        for cut in 0..good.len() {
            if let Ok(z) = Zip::read(&good[..cut]) {
                let _ = z.entry("x", 100);
            }
        }
        for i in 0..good.len() {
            for flip in [0x01u8, 0x80, 0xff] {
                let mut bad = good.clone();
                bad[i] ^= flip;
                if let Ok(z) = Zip::read(&bad) {
                    for name in z.names().map(String::from).collect::<Vec<_>>() {
                        if let Ok(Some(data)) = z.entry(&name, 1000) {
                            assert_eq!(data, b"hello hello hello", "byte {i} ^ {flip:#x}");
                        }
                    }
                }
            }
        }
        // A flipped data byte fails the checksum (or the inflater).
        let mut bad = good.clone();
        bad[32] ^= 0x10;
        assert!(Zip::read(&bad).unwrap().entry("x", 100).is_err());
    }
}
