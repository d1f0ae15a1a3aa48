//! Outputs every platform makes: PNG pictures and WAV sound, written through [`safe_write`],
//! which never destroys what is at the path. (GIF animations are a tool's: `bt-tools`.)

pub mod png;
pub mod safe_write;
pub mod wav;
