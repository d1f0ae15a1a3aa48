//! Files made from a run: PNG pictures, GIF animations and WAV sound, all written through
//! [`safe_write`], which never destroys what is at the path.

#[cfg(feature = "files")]
pub mod gif;
pub mod png;
#[cfg(feature = "files")]
pub mod safe_write;
pub mod wav;
