//! A Pyxel resource file whose TOML unpacks to the limit is read in memory of a small multiple
//! of that limit, whatever the TOML holds: a value that costs far more to keep than its text
//! (`[],` is three bytes) cannot make a few kilobytes of file take hundreds of megabytes.

use std::io::Write as _;

use bt_test_support::{CountingAlloc, ScratchDir};

#[global_allocator]
static A: CountingAlloc = CountingAlloc::new();

/// The most `pyxel_resource.toml` may unpack to (`bt import`'s limit, docs/cli.md).
const TOML_LIMIT: usize = 16 << 20;

/// A zip archive of one deflated entry, as Pyxel writes a `.pyxres`.
fn pyxres(toml: &[u8]) -> Vec<u8> {
    let name = b"pyxel_resource.toml";
    let mut z = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(toml).unwrap();
    let packed = z.finish().unwrap();
    let mut crc = flate2::Crc::new();
    crc.update(toml);
    let fields = |v: &mut Vec<u8>| {
        v.extend(20u16.to_le_bytes()); // version needed
        v.extend(0u16.to_le_bytes()); // flags
        v.extend(8u16.to_le_bytes()); // deflated
        v.extend([0, 0, 0x21, 0]); // time, date
        v.extend(crc.sum().to_le_bytes());
        v.extend((packed.len() as u32).to_le_bytes());
        v.extend((toml.len() as u32).to_le_bytes());
        v.extend((name.len() as u16).to_le_bytes());
        v.extend(0u16.to_le_bytes()); // extra
    };
    let mut out = 0x0403_4b50u32.to_le_bytes().to_vec();
    fields(&mut out);
    out.extend(name);
    out.extend(&packed);
    let dir_at = out.len() as u32;
    let mut dir = 0x0201_4b50u32.to_le_bytes().to_vec();
    dir.extend(20u16.to_le_bytes()); // made by
    fields(&mut dir);
    dir.extend([0; 10]); // comment length, disk, attributes
    dir.extend(0u32.to_le_bytes()); // the entry's header, at the start
    dir.extend(name);
    out.extend(&dir);
    out.extend(0x0605_4b50u32.to_le_bytes());
    out.extend([0; 4]);
    out.extend(1u16.to_le_bytes());
    out.extend(1u16.to_le_bytes());
    out.extend((dir.len() as u32).to_le_bytes());
    out.extend(dir_at.to_le_bytes());
    out.extend(0u16.to_le_bytes());
    out
}

/// A TOML of exactly [`TOML_LIMIT`] bytes: no image, tilemap or sound, and one music whose
/// channel list repeats `item`.
fn toml_of(item: &str) -> Vec<u8> {
    let head =
        "format_version = 1\nimages = []\ntilemaps = []\nsounds = []\n\n[[musics]]\nseqs = [";
    let tail = "]\n";
    let room = TOML_LIMIT - head.len() - tail.len();
    let mut text = head.to_string();
    text.push_str(&item.repeat(room / item.len()));
    text.push_str(&" ".repeat(room % item.len()));
    text.push_str(tail);
    assert_eq!(text.len(), TOML_LIMIT);
    text.into_bytes()
}

#[test]
fn a_resource_file_unpacking_to_the_limit_is_read_in_a_small_multiple_of_it() {
    let dir = ScratchDir::new("pyxres-memory");
    // The counter sees what this thread allocates.
    let ((), seen) = A.peak_bytes_during(|| {
        std::hint::black_box(vec![0u8; 1 << 20]);
    });
    assert!(seen >= 1 << 20, "the counting allocator is installed");
    // Empty channels (a 32-byte node for three bytes of text), single-value channels, and
    // one channel of eight million numbers.
    for (name, item) in [("empty", "[],"), ("ones", "[0],"), ("zeros", "0,")] {
        let bytes = pyxres(&toml_of(item));
        assert!(bytes.len() < 100_000, "{name}: {} bytes", bytes.len());
        let path = dir.join(format!("{name}.pyxres"));
        std::fs::write(&path, &bytes).unwrap();
        let (result, peak) = A.peak_bytes_during(|| bt_runtime::cli::pyxres_files(&path));
        let e = result.unwrap_err();
        assert!(!e.contains('\n'), "{e}");
        assert!(
            peak <= 4 * TOML_LIMIT as i64,
            "{name}: {peak} bytes at most in memory, more than four times the TOML's limit \
             ({e})"
        );
    }
}
