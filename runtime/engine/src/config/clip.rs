//! Sample clips: WAV and Ogg Vorbis files decoded into the 16-bit frames the console plays
//! (with the `clips` feature; without it, as in a page whose cart plays none, a clip is refused
//! saying so).
//!
//! The same code runs natively and in a web page, and gives the same frames on both: a WAV's
//! samples are integers shifted into 16 bits, or floats scaled by 32,768 and cut toward zero
//! (basic IEEE operations); Vorbis goes through BT's copy of lewton, whose sines and cosines
//! come from `libm` rather than the platform (see `vendor/lewton/CHANGES-BT.md`).

#[cfg(feature = "clips")]
use std::io::Cursor;

use bt::sound::DecodedClip;
#[cfg(feature = "clips")]
use bt::sound::{Frame, CLIP_RATES, MAX_CLIP_FRAMES};
use bt::{AssetError, AssetErrorKind};

fn bad(name: &str, why: impl std::fmt::Display) -> AssetError {
    // One line, whatever the decoder said.
    let why = why.to_string().replace(['\n', '\r'], " ");
    AssetError::new(name, AssetErrorKind::BadClip(why))
}

#[cfg(feature = "clips")]
fn too_long(name: &str, frames: u64) -> AssetError {
    AssetError::new(
        name,
        AssetErrorKind::ClipTooLong {
            frames,
            limit: MAX_CLIP_FRAMES,
        },
    )
}

/// Decodes `bytes`, a WAV or Ogg Vorbis file, into frames; `name` is used in errors.
///
/// # Errors
/// An [`AssetError`] naming `name`: neither format, a file its decoder refuses, more than two
/// channels, a rate outside [`CLIP_RATES`], no frames, or more than [`MAX_CLIP_FRAMES`]
/// ([`AssetErrorKind::ClipTooLong`]). A decoder that panics on a broken file is caught and
/// reported the same way.
#[cfg(feature = "clips")]
pub fn decode_clip(name: &str, bytes: &[u8]) -> Result<DecodedClip, AssetError> {
    let decode = || {
        if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WAVE" {
            decode_wav(name, bytes)
        } else if bytes.starts_with(b"OggS") {
            decode_vorbis(name, bytes)
        } else {
            Err(bad(
                name,
                "the file starts with neither RIFF/WAVE (a WAV file) nor OggS (Ogg Vorbis)",
            ))
        }
    };
    let clip = std::panic::catch_unwind(std::panic::AssertUnwindSafe(decode))
        .unwrap_or_else(|_| Err(bad(name, "the decoder failed on a broken file")))?;
    if !CLIP_RATES.contains(&clip.rate) {
        return Err(bad(
            name,
            format!(
                "a rate of {} Hz (clips are {} to {} Hz)",
                clip.rate,
                CLIP_RATES.start(),
                CLIP_RATES.end()
            ),
        ));
    }
    if clip.frames.is_empty() {
        return Err(bad(name, "no sound in it (0 frames)"));
    }
    Ok(clip)
}

/// Without the `clips` feature there is no decoder: the clip is refused, saying why.
///
/// # Errors
/// Always, [`AssetErrorKind::BadClip`] naming `name`.
#[cfg(not(feature = "clips"))]
pub fn decode_clip(name: &str, bytes: &[u8]) -> Result<DecodedClip, AssetError> {
    let _ = bytes;
    Err(bad(
        name,
        "this page was made without the clip decoders: bt web adds them when the cart's asset \
         folder holds a .wav or .ogg file or its code calls load_clip or decode_clip",
    ))
}

/// One or two channels: the frame for each sample or pair.
#[cfg(feature = "clips")]
fn channels(name: &str, count: u64) -> Result<(), AssetError> {
    if !(1..=2).contains(&count) {
        return Err(bad(name, format!("{count} channels (a clip has 1 or 2)")));
    }
    Ok(())
}

/// Pairs interleaved samples into frames (a mono sample on both sides), refusing more than
/// [`MAX_CLIP_FRAMES`].
#[cfg(feature = "clips")]
fn push_frames(
    name: &str,
    frames: &mut Vec<Frame>,
    samples: impl Iterator<Item = Result<i16, AssetError>>,
    stereo: bool,
) -> Result<(), AssetError> {
    let mut left = None;
    for sample in samples {
        let s = sample?;
        let frame = if stereo {
            match left.take() {
                None => {
                    left = Some(s);
                    continue;
                }
                Some(l) => [l, s],
            }
        } else {
            [s, s]
        };
        if frames.len() as u64 >= MAX_CLIP_FRAMES {
            return Err(too_long(name, frames.len() as u64 + 1));
        }
        frames.push(frame);
    }
    Ok(())
}

#[cfg(feature = "clips")]
fn decode_wav(name: &str, bytes: &[u8]) -> Result<DecodedClip, AssetError> {
    let reader = hound::WavReader::new(Cursor::new(bytes)).map_err(|e| bad(name, e))?;
    let spec = reader.spec();
    channels(name, u64::from(spec.channels))?;
    let length = u64::from(reader.duration());
    if length > MAX_CLIP_FRAMES {
        return Err(too_long(name, length));
    }
    let stereo = spec.channels == 2;
    let mut frames = Vec::with_capacity(length as usize);
    let bits = u32::from(spec.bits_per_sample);
    match spec.sample_format {
        hound::SampleFormat::Int => {
            if !(1..=32).contains(&bits) {
                return Err(bad(name, format!("{bits}-bit integer samples")));
            }
            // Shifted so the sample's top bit is bit 31, then down to 16 bits (rounding down).
            let samples = reader.into_samples::<i32>().map(|s| {
                s.map(|v| ((v << (32 - bits)) >> 16) as i16)
                    .map_err(|e| bad(name, e))
            });
            push_frames(name, &mut frames, samples, stereo)?;
        }
        hound::SampleFormat::Float => {
            if bits != 32 {
                return Err(bad(name, format!("{bits}-bit float samples (32-bit only)")));
            }
            let samples = reader
                .into_samples::<f32>()
                .map(|s| s.map(float_to_i16).map_err(|e| bad(name, e)));
            push_frames(name, &mut frames, samples, stereo)?;
        }
    }
    Ok(DecodedClip {
        rate: spec.sample_rate,
        frames,
    })
}

/// A float sample (full scale ±1) in 16 bits: scaled by 32,768, clamped, cut toward zero; not a
/// number is silence. One multiplication and a conversion: the same on every machine.
#[cfg(feature = "clips")]
fn float_to_i16(v: f32) -> i16 {
    (v * 32_768.0).clamp(-32_768.0, 32_767.0) as i16
}

#[cfg(feature = "clips")]
fn decode_vorbis(name: &str, bytes: &[u8]) -> Result<DecodedClip, AssetError> {
    let mut reader =
        lewton::inside_ogg::OggStreamReader::new(Cursor::new(bytes)).map_err(|e| bad(name, e))?;
    let count = u64::from(reader.ident_hdr.audio_channels);
    channels(name, count)?;
    let rate = reader.ident_hdr.audio_sample_rate;
    let stereo = count == 2;
    let mut frames = Vec::new();
    while let Some(packet) = reader.read_dec_packet_itl().map_err(|e| bad(name, e))? {
        push_frames(name, &mut frames, packet.into_iter().map(Ok), stereo)?;
    }
    Ok(DecodedClip { rate, frames })
}

#[cfg(all(test, feature = "clips"))]
pub(crate) mod tests {
    use super::*;

    /// A WAV file of `samples` (interleaved) in `spec`, written with hound.
    pub(crate) fn wav<S: hound::Sample + Copy>(spec: hound::WavSpec, samples: &[S]) -> Vec<u8> {
        let mut out = Cursor::new(Vec::new());
        let mut w = hound::WavWriter::new(&mut out, spec).unwrap();
        for &s in samples {
            w.write_sample(s).unwrap();
        }
        w.finalize().unwrap();
        out.into_inner()
    }

    fn spec(channels: u16, bits: u16, format: hound::SampleFormat) -> hound::WavSpec {
        hound::WavSpec {
            channels,
            sample_rate: 22_050,
            bits_per_sample: bits,
            sample_format: format,
        }
    }

    #[test]
    fn every_pcm_layout_reads_to_the_same_16_bit_frames() {
        use hound::SampleFormat::{Float, Int};
        let want: Vec<Frame> = vec![[0, 0], [256, -256], [-32_768, 32_512]];
        let eight = wav(spec(2, 8, Int), &[0i8, 0, 1, -1, -128, 127]);
        let sixteen = wav(spec(2, 16, Int), &[0i16, 0, 256, -256, -32_768, 32_512]);
        let twenty_four = wav(
            spec(2, 24, Int),
            &[0i32, 0, 256 << 8, -256 << 8, -(1 << 23), 32_512 << 8],
        );
        let thirty_two = wav(
            spec(2, 32, Int),
            &[0i32, 0, 256 << 16, -256 << 16, i32::MIN, 32_512 << 16],
        );
        let float = wav(
            spec(2, 32, Float),
            &[
                0.0f32,
                0.0,
                256.0 / 32_768.0,
                -256.0 / 32_768.0,
                -1.0,
                32_512.0 / 32_768.0,
            ],
        );
        for (what, bytes) in [
            ("8-bit", eight),
            ("16-bit", sixteen),
            ("24-bit", twenty_four),
            ("32-bit", thirty_two),
            ("float", float),
        ] {
            let clip = decode_clip("c.wav", &bytes).unwrap();
            assert_eq!(clip.rate, 22_050, "{what}");
            assert_eq!(clip.frames, want, "{what}");
        }
        let mono = decode_clip("m.wav", &wav(spec(1, 16, Int), &[5i16, -7])).unwrap();
        assert_eq!(mono.frames, [[5, 5], [-7, -7]], "one channel: both sides");
    }

    #[test]
    fn floats_out_of_range_are_clamped_and_not_a_number_is_silence() {
        assert_eq!(float_to_i16(2.0), 32_767);
        assert_eq!(float_to_i16(-2.0), -32_768);
        assert_eq!(float_to_i16(f32::NAN), 0);
        assert_eq!(float_to_i16(-0.5), -16_384);
    }

    #[test]
    fn what_is_not_a_clip_is_refused_on_one_line_naming_the_file() {
        use hound::SampleFormat::Int;
        let cases: Vec<(Vec<u8>, &str)> = vec![
            (b"hello".to_vec(), "neither RIFF/WAVE"),
            (
                b"RIFF\0\0\0\0WAVEjunk".to_vec(),
                "boom.wav: not a sound clip",
            ),
            (
                b"OggS\0\0\0\0\0\0\0\0".to_vec(),
                "boom.wav: not a sound clip",
            ),
            (
                wav(spec(3, 16, Int), &[1i16, 2, 3]),
                "3 channels (a clip has 1 or 2)",
            ),
            (
                wav(spec(1, 16, Int), &[] as &[i16]),
                "no sound in it (0 frames)",
            ),
            (
                wav(
                    hound::WavSpec {
                        sample_rate: 500,
                        ..spec(1, 16, Int)
                    },
                    &[1i16],
                ),
                "a rate of 500 Hz",
            ),
        ];
        for (bytes, says) in cases {
            let e = decode_clip("boom.wav", &bytes).unwrap_err().to_string();
            assert!(e.starts_with("boom.wav: "), "{e}");
            assert!(e.contains(says), "{e}");
            assert!(!e.contains('\n'), "{e}");
        }
    }

    /// The audio cart's clips, bent: bytes flipped, runs cut out, the end cut off, by BT's
    /// own generator. Each is decoded without the panic guard, so a decoder panic fails here
    /// (the fuzz targets `wav_clip` and `ogg_clip` search far wider).
    #[test]
    fn bent_clips_decode_within_the_limits_or_are_refused_never_panicking() {
        const BLIP: &[u8] = include_bytes!("../../../../carts/audio/assets/blip.wav");
        const CHORD: &[u8] = include_bytes!("../../../../carts/audio/assets/chord.ogg");
        let mut rng = bt::Rng::new(7);
        for (name, good, decode) in [
            (
                "b.wav",
                BLIP,
                decode_wav as fn(&str, &[u8]) -> Result<DecodedClip, AssetError>,
            ),
            ("c.ogg", CHORD, decode_vorbis),
        ] {
            let clip = decode(name, good).unwrap();
            assert!(clip.frames.len() > 1000, "{name} decodes as it is");
            for _ in 0..300 {
                let mut bytes = good.to_vec();
                for _ in 0..1 + rng.next_u32() % 8 {
                    let at = rng.next_u32() as usize % bytes.len();
                    match rng.next_u32() % 3 {
                        0 => bytes[at] ^= 1 << (rng.next_u32() % 8),
                        1 => bytes[at] = rng.next_u32() as u8,
                        _ => {
                            let end = (at + 1 + rng.next_u32() as usize % 64).min(bytes.len());
                            bytes.drain(at..end);
                        }
                    }
                    if bytes.is_empty() {
                        break;
                    }
                }
                if rng.next_u32().is_multiple_of(4) {
                    let keep = rng.next_u32() as usize % bytes.len().max(1);
                    bytes.truncate(keep);
                }
                match decode(name, &bytes) {
                    Ok(clip) => assert!(clip.frames.len() as u64 <= MAX_CLIP_FRAMES),
                    Err(e) => assert!(!e.to_string().contains('\n'), "{e}"),
                }
            }
        }
    }

    /// One Ogg page of stream 1 holding `packet` whole (under 255 bytes), its checksum (CRC-32,
    /// polynomial 0x04C11DB7, as the Ogg format has it) filled in: the `ogg` crate checks it
    /// outside the fuzz targets.
    fn ogg_page(sequence: u32, packet: &[u8]) -> Vec<u8> {
        assert!(packet.len() < 255);
        let mut page = b"OggS\0".to_vec();
        page.push(if sequence == 0 { 2 } else { 0 }); // the first page begins the stream
        page.extend_from_slice(&0u64.to_le_bytes()); // granule position
        page.extend_from_slice(&1u32.to_le_bytes()); // stream serial number
        page.extend_from_slice(&sequence.to_le_bytes());
        page.extend_from_slice(&[0; 4]); // the checksum, below
        page.extend_from_slice(&[1, packet.len() as u8]); // one segment, the packet
        page.extend_from_slice(packet);
        let crc = page.iter().fold(0u32, |crc, &byte| {
            (0..8).fold(crc ^ (u32::from(byte) << 24), |c, _| {
                if c & 0x8000_0000 == 0 {
                    c << 1
                } else {
                    (c << 1) ^ 0x04C1_1DB7
                }
            })
        });
        page[22..26].copy_from_slice(&crc.to_le_bytes());
        page
    }

    /// A Vorbis identification header: stereo, 44,100 Hz, blocks of 256 and 2,048 samples (the
    /// fuzzer's file's own).
    const IDENT: &[u8] = &[
        1, b'v', b'o', b'r', b'b', b'i', b's', 0, 0, 0, 0, 2, 0x44, 0xac, 0, 0, 0, 0, 0, 0, 0,
        0x77, 1, 0, 0, 0, 0, 0, 0xb8, 1,
    ];

    /// Found by the `ogg_clip` fuzz target: a comment header claiming a vendor string of
    /// 0xFF000034 bytes, or 2^32 - 1 comments, in a packet of 15 bytes. lewton allocated what
    /// the header said before reading it (4 GB for the string, 206 GB for the comments' list),
    /// and a failed allocation aborts the process, which `decode_clip`'s panic guard cannot
    /// catch. Each must be refused, as the end of the packet comes first.
    #[test]
    fn an_ogg_comment_header_claiming_more_than_its_packet_holds_is_refused() {
        for (what, rest) in [
            (
                "a vendor string of 0xFF000034 bytes",
                &[0x34, 0, 0, 0xff][..],
            ),
            (
                "2^32 - 1 comments",
                &[0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff][..],
            ),
        ] {
            let mut comment = b"\x03vorbis".to_vec();
            comment.extend_from_slice(rest);
            let mut bytes = ogg_page(0, IDENT);
            bytes.extend(ogg_page(1, &comment));
            let e = decode_vorbis("huge.ogg", &bytes).unwrap_err().to_string();
            assert!(e.starts_with("huge.ogg: "), "{what}: {e}");
            // Refused by the header's reader, not by the pages' checksums.
            assert!(e.contains("header decode problem"), "{what}: {e}");
            assert!(!e.contains('\n'), "{what}: {e}");
        }
    }

    /// Vorbis fields, `(value, bits)`, packed least significant bit first.
    fn vorbis_bits(fields: &[(u64, u32)]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut at = 0;
        for &(value, bits) in fields {
            for bit in 0..bits {
                if at % 8 == 0 {
                    out.push(0);
                }
                if value >> bit & 1 == 1 {
                    *out.last_mut().unwrap() |= 1 << (at % 8);
                }
                at += 1;
            }
        }
        out
    }

    /// Found by the `ogg_clip` fuzz target: a setup header's codebook whose lookup table lewton
    /// allocated before reading it, and a failed allocation aborts the process. With no
    /// dimensions and a type-1 table it has 2^32 - 1 values (17 GB; the fuzzer's file); with
    /// 2^16 - 1 dimensions, 2^24 - 1 entries and a type-2 table, 2^40 (4.4 TB). libvorbis and
    /// Tremor refuse such codebooks, and so must we.
    #[test]
    fn an_ogg_codebook_libvorbis_refuses_is_refused() {
        // No vendor string, no comments, the framing bit.
        let comment = b"\x03vorbis\0\0\0\0\0\0\0\0\x01";
        for (dimensions, entries, lookup) in [(0u64, 1u64, 1u64), (0xffff, 0xff_ffff, 2)] {
            let mut setup = b"\x05vorbis".to_vec();
            setup.extend(vorbis_bits(&[
                (0, 8),                                  // one codebook
                (0x56_4342, 24),                         // its sync pattern
                (dimensions, 16),                        // dimensions
                (entries, 24),                           // entries
                (1, 1),                                  // ordered codeword lengths,
                (0, 5),                                  // starting at 1 bit,
                (entries, 64 - entries.leading_zeros()), // for every entry
                (lookup, 4),                             // the lookup table's type
                (0, 32),                                 // minimum value
                (0, 32),                                 // delta
                (0, 4),                                  // 1 bit a value
                (0, 1),                                  // not a sequence
            ]));
            let mut bytes = ogg_page(0, IDENT);
            bytes.extend(ogg_page(1, comment));
            bytes.extend(ogg_page(2, &setup));
            let e = decode_vorbis("book.ogg", &bytes).unwrap_err().to_string();
            assert!(e.starts_with("book.ogg: "), "{dimensions} × {entries}: {e}");
            assert!(
                e.contains("header decode problem"),
                "{dimensions} × {entries}: {e}"
            );
        }
    }

    /// Each codebook within libvorbis's limit can still allocate tens of megabytes, and a setup
    /// header holds up to 256: together they may take 2^22 entries and lookup values (BT's
    /// change to lewton, `SETUP_CODEBOOK_BUDGET`), and the codebook that would pass it is
    /// refused before anything is allocated for it.
    #[test]
    fn the_codebooks_of_a_setup_header_share_one_budget() {
        use lewton::header::{read_header_setup, HeaderReadError};
        // Codebooks of one dimension and 2^20 entries, all 20 bits long, no lookup table: each
        // costs 2^20 * (1 + 1) = 2^21 of the budget.
        let setup = |books: u64| {
            let mut fields = vec![(books - 1, 8)];
            for _ in 0..books {
                fields.extend([
                    (0x56_4342, 24), // the sync pattern
                    (1, 16),         // dimensions
                    (1 << 20, 24),   // entries
                    (1, 1),          // ordered codeword lengths,
                    (19, 5),         // starting at 20 bits,
                    (1 << 20, 21),   // for every entry
                    (0, 4),          // no lookup table
                ]);
            }
            let mut packet = b"\x05vorbis".to_vec();
            packet.extend(vorbis_bits(&fields));
            read_header_setup(&packet, 2, (8, 11)).err()
        };
        // Two fit: the reader goes on past them, to the packet's end.
        assert_eq!(setup(2), Some(HeaderReadError::EndOfPacket));
        assert_eq!(setup(3), Some(HeaderReadError::HeaderBadFormat));
    }

    #[test]
    fn a_clip_over_the_limit_is_refused_from_its_header_with_its_length() {
        // A header claiming more frames than the limit: refused before any is read.
        let mut bytes = wav(spec(1, 16, hound::SampleFormat::Int), &[0i16; 4]);
        let frames = MAX_CLIP_FRAMES + 1;
        let data = (frames * 2) as u32;
        let at = bytes.len() - 8 - 4; // the data chunk's size
        bytes[at..at + 4].copy_from_slice(&data.to_le_bytes());
        let e = decode_clip("long.wav", &bytes).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "long.wav: the clip is {frames} frames long; the limit is {MAX_CLIP_FRAMES} (a \
                 minute at 48,000 Hz)"
            )
        );
    }
}
