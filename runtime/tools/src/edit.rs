//! What every editor of BT's own shares: where a save goes ([`SaveTarget`]), a target that
//! keeps the bytes in memory ([`Kept`]) for tests and replays, and the files an editor opened
//! carried as its cart arguments ([`OpenedFiles`], [`FromArgs`]), so a recorded session holds
//! what it edited and `bt replay --verify` plays it again without the files on disk.
//!
//! An editor is a cart. It decides what to write and when; the platform decides where: `bt
//! sound-edit`, `bt sprite-edit` and `bt map-edit` hand their editor a target that writes the
//! file atomically and only over what it last read or wrote there, and a test hands it a
//! [`Kept`] and compares the bytes.
//!
//! ```
//! use bt_tools::edit::{Kept, SaveTarget};
//!
//! let kept = Kept::new();
//! let mut target: Box<dyn SaveTarget> = Box::new(kept.clone());
//! target.save(b"bt-sound 2\n").unwrap();
//! assert_eq!(kept.bytes().as_deref(), Some(&b"bt-sound 2\n"[..]));
//! assert_eq!(kept.saves(), 1);
//! ```

use std::sync::{Arc, Mutex, MutexGuard};

use bt::host::{decode_base64, encode_base64};
use bt::{Cart, CartError, OverlayRows, Render, Settings, Update};

/// Where a save goes: the platform's side of Ctrl+S.
pub trait SaveTarget {
    /// Writes `bytes` as the whole file.
    ///
    /// # Errors
    /// A one-line message naming the file and what went wrong; the editor shows it, and keeps
    /// its edits (they are not lost by a refused save).
    fn save(&mut self, bytes: &[u8]) -> Result<(), String>;
}

/// A [`SaveTarget`] that keeps the last bytes saved, shared by its clones: a test keeps one
/// clone and gives the editor the other (clones may go to other threads, as a `MakeCart`
/// does). It can be told to refuse, as a full disk would.
#[derive(Clone, Default)]
pub struct Kept {
    inner: Arc<Mutex<KeptInner>>,
}

#[derive(Default)]
struct KeptInner {
    bytes: Option<Vec<u8>>,
    saves: usize,
    refuse: Option<String>,
}

impl Kept {
    /// A target that has kept nothing yet.
    pub fn new() -> Kept {
        Kept::default()
    }

    fn inner(&self) -> MutexGuard<'_, KeptInner> {
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The bytes of the last save taken, if any.
    pub fn bytes(&self) -> Option<Vec<u8>> {
        self.inner().bytes.clone()
    }

    /// How many saves were taken (refused ones are not counted).
    pub fn saves(&self) -> usize {
        self.inner().saves
    }

    /// Refuses every save from now on with `message` (`None`: takes them again).
    pub fn refuse(&self, message: Option<&str>) {
        self.inner().refuse = message.map(str::to_string);
    }
}

impl SaveTarget for Kept {
    fn save(&mut self, bytes: &[u8]) -> Result<(), String> {
        let mut inner = self.inner();
        if let Some(message) = &inner.refuse {
            return Err(message.clone());
        }
        inner.bytes = Some(bytes.to_vec());
        inner.saves += 1;
        Ok(())
    }
}

/// The most files one editor session opens: a cart's sheets and tilesets, a map and its
/// tileset and picture.
pub const MAX_OPENED_FILES: usize = 64;

/// One file an editor opened: its name as shown (a path as given, or relative to the cart),
/// and its bytes, `None` when there was no file yet (it is made at the first save).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenedFile {
    /// The file's name as the editor shows it.
    pub name: String,
    /// What it held when opened.
    pub bytes: Option<Vec<u8>>,
}

/// The files an editor session opened, in order. They travel as the session's cart arguments
/// (`file.N`, and `bytes.N` in base64 when the file existed), so the session's recording
/// holds them and its replay opens the very same bytes, wherever the files are now.
///
/// ```
/// use bt_tools::edit::{OpenedFile, OpenedFiles};
///
/// let files = OpenedFiles(vec![
///     OpenedFile { name: "sprites.png".into(), bytes: Some(b"\x89PNG".to_vec()) },
///     OpenedFile { name: "new.png".into(), bytes: None },
/// ]);
/// let args = files.to_args();
/// let back = OpenedFiles::from_args(|name| {
///     args.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
/// })?;
/// assert_eq!(back, files);
/// # Ok::<(), String>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OpenedFiles(pub Vec<OpenedFile>);

impl OpenedFiles {
    /// The files as cart arguments.
    pub fn to_args(&self) -> Vec<(String, String)> {
        let mut args = Vec::new();
        for (i, file) in self.0.iter().enumerate() {
            args.push((format!("file.{i}"), file.name.clone()));
            if let Some(bytes) = &file.bytes {
                args.push((format!("bytes.{i}"), encode_base64(bytes)));
            }
        }
        args
    }

    /// The files the arguments `arg` gives hold, read back.
    ///
    /// # Errors
    /// One line naming the argument that is not base64, or saying no file was named.
    pub fn from_args<'a>(arg: impl Fn(&str) -> Option<&'a str>) -> Result<OpenedFiles, String> {
        let mut files = Vec::new();
        while let Some(name) = arg(&format!("file.{}", files.len())) {
            if files.len() == MAX_OPENED_FILES {
                return Err(format!(
                    "more than {MAX_OPENED_FILES} files named (file.0 to file.{})",
                    MAX_OPENED_FILES - 1
                ));
            }
            let key = format!("bytes.{}", files.len());
            let bytes = arg(&key)
                .map(|text| {
                    decode_base64(text)
                        .map_err(|(at, c)| format!("{key}: '{c}' at character {at} is not base64"))
                })
                .transpose()?;
            files.push(OpenedFile {
                name: name.to_string(),
                bytes,
            });
        }
        if files.is_empty() {
            return Err("no file to edit: the argument file.0 names none".to_string());
        }
        Ok(OpenedFiles(files))
    }
}

/// Makes an editor cart from the files it opened; the platform's part decides where each
/// file's saves go (`bt sprite-edit` to the files, a replay to memory).
pub type OpenEditor =
    Arc<dyn Fn(&OpenedFiles) -> Result<Box<dyn Cart>, String> + Send + Sync + 'static>;

/// An editor as a cart that opens its files from its cart arguments in `init`: the one way
/// `bt sound-edit`, `bt sprite-edit` and `bt map-edit` boot, live and replayed alike. Until
/// `init` it has no editor, so its settings are given.
pub struct FromArgs {
    settings: Settings,
    open: OpenEditor,
    editor: Option<Box<dyn Cart>>,
}

impl FromArgs {
    /// An editor of `settings` made by `open` from the files its arguments name.
    pub fn new(settings: Settings, open: OpenEditor) -> FromArgs {
        FromArgs {
            settings,
            open,
            editor: None,
        }
    }
}

impl Cart for FromArgs {
    fn configure(&self) -> Settings {
        self.settings.clone()
    }

    fn init(&mut self, ctx: &mut Update<'_>) -> Result<(), CartError> {
        let files = OpenedFiles::from_args(|name| ctx.arg(name)).map_err(CartError::msg)?;
        let mut editor = (self.open)(&files).map_err(CartError::msg)?;
        editor.init(ctx)?;
        self.editor = Some(editor);
        Ok(())
    }

    fn update(&mut self, ctx: &mut Update<'_>) {
        if let Some(editor) = &mut self.editor {
            editor.update(ctx);
        }
    }

    fn render(&self, ctx: &mut Render<'_>) {
        if let Some(editor) = &self.editor {
            editor.render(ctx);
        }
    }

    fn reload(&mut self, ctx: &mut Update<'_>) -> Result<(), CartError> {
        match &mut self.editor {
            Some(editor) => editor.reload(ctx),
            None => Ok(()),
        }
    }

    fn overlay_rows(&self, rows: &mut OverlayRows) {
        if let Some(editor) = &self.editor {
            editor.overlay_rows(rows);
        }
    }

    fn test_state(&self) -> Option<String> {
        self.editor.as_ref().and_then(|e| e.test_state())
    }

    fn snapshot(&self) -> Option<Box<dyn Cart>> {
        let editor = match &self.editor {
            Some(editor) => Some(editor.snapshot()?),
            None => None,
        };
        Some(Box::new(FromArgs {
            settings: self.settings.clone(),
            open: self.open.clone(),
            editor,
        }))
    }

    fn snapshot_bytes(&self) -> usize {
        std::mem::size_of_val(self) + self.editor.as_ref().map_or(0, |e| e.snapshot_bytes())
    }
}
