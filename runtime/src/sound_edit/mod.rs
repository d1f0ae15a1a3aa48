//! The sound editor, `bt sound-edit`: a cart of BT's own that edits a cart's sound file.
//!
//! [`SoundDoc`] holds the file (its sounds, and its lines so a save changes only what was
//! edited).

mod doc;

pub use doc::{
    effect_text, note_text, pitch_text, wave_text, SfxEntry, SoundDoc, Sounds, TuneEntry, TuneRows,
    NEW_SFX_NOTES, NEW_SFX_SPEED,
};
