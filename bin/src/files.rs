//! Reading the small text files users hand to Tusk (game records, position files, setup
//! files, weights files): whole, as UTF-8, and never more than [`MAX_TEXT_FILE_BYTES`], so a
//! wrong path such as `/dev/zero` is an error, not a process that eats the machine's memory.

use std::io::Read;
use std::path::{Path, PathBuf};

use tusk_engine::notation::text::decode_utf8;
use tusk_engine::ParseError;

/// The largest text file Tusk reads whole: 16 MiB. A game record is a few kilobytes; a file
/// of many megabytes is not one.
pub const MAX_TEXT_FILE_BYTES: u64 = 16 << 20;

/// Why a text file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The file could not be opened or read.
    #[error("cannot read {what} {}: {error}", path.display())]
    Io {
        /// What the file was meant to be (`game record`, `position file`, ...).
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// The operating system's reason (shown in this error's message, so not a source).
        error: std::io::Error,
    },
    /// The file is larger than [`MAX_TEXT_FILE_BYTES`].
    #[error(
        "{what} {} is larger than {} MiB; is it the right file?",
        path.display(),
        MAX_TEXT_FILE_BYTES >> 20
    )]
    TooLarge {
        /// What the file was meant to be.
        what: &'static str,
        /// The file.
        path: PathBuf,
    },
    /// The file is not UTF-8 text (the line and column of the first bad byte).
    #[error("{}: {error}", path.display())]
    NotUtf8 {
        /// The file.
        path: PathBuf,
        /// Where and what the bad byte is (shown in this error's message).
        error: ParseError,
    },
}

/// Reads the whole text file `path` (described as `what` in errors) as UTF-8, refusing more
/// than [`MAX_TEXT_FILE_BYTES`]. Errors name the file; a byte that is not UTF-8 is named
/// with its line and column.
pub fn read_text_file(path: &Path, what: &'static str) -> Result<String, FileError> {
    read_text_file_limited(path, what, MAX_TEXT_FILE_BYTES)
}

/// [`read_text_file`] with another size limit, in bytes.
pub fn read_text_file_limited(
    path: &Path,
    what: &'static str,
    limit: u64,
) -> Result<String, FileError> {
    let io = |error| FileError::Io {
        what,
        path: path.to_path_buf(),
        error,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let mut bytes = Vec::new();
    // One byte more than allowed tells a file at the limit from a larger one.
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > limit {
        return Err(FileError::TooLarge {
            what,
            path: path.to_path_buf(),
        });
    }
    decode_utf8(&bytes).map_err(|error| FileError::NotUtf8 {
        path: path.to_path_buf(),
        error,
    })
}

/// Why an output file could not be claimed for appending.
#[derive(Debug, thiserror::Error)]
pub enum ClaimError {
    /// The file could not be created or opened.
    #[error("opening {}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's reason (shown in this error's message).
        error: std::io::Error,
    },
    /// Another process holds the file: two runs appending to one file would interleave
    /// their games and each resume the other's.
    #[error(
        "{} is being written by another run (another tusk match or datagen holds its lock); \
         wait for it to finish or use another file",
        path.display()
    )]
    Busy {
        /// The file.
        path: PathBuf,
    },
}

/// Opens `path` for appending (creating it when it does not exist) and takes an exclusive
/// advisory lock on it, held until the returned file is dropped, so that a second run
/// writing the same file stops with [`ClaimError::Busy`] before reading or changing it.
pub fn claim_for_appending(path: &Path) -> Result<std::fs::File, ClaimError> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|error| ClaimError::Io {
            path: path.to_path_buf(),
            error,
        })?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(ClaimError::Busy {
            path: path.to_path_buf(),
        }),
        Err(std::fs::TryLockError::Error(error)) => Err(ClaimError::Io {
            path: path.to_path_buf(),
            error,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str, bytes: &[u8]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tusk-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        p
    }

    #[test]
    fn reads_text_up_to_the_limit_and_no_further() {
        let p = scratch("ten.txt", b"0123456789");
        assert_eq!(
            read_text_file_limited(&p, "game record", 10).unwrap(),
            "0123456789"
        );
        let e = read_text_file_limited(&p, "game record", 9).unwrap_err();
        assert!(matches!(e, FileError::TooLarge { .. }), "{e}");
        assert!(e.to_string().contains("game record"), "{e}");
    }

    #[test]
    fn an_endless_file_is_refused_at_the_limit() {
        // /dev/zero never ends: without the limit this would fill the memory.
        let e = read_text_file_limited(Path::new("/dev/zero"), "game record", 1 << 20).unwrap_err();
        assert!(matches!(e, FileError::TooLarge { .. }), "{e}");
    }

    #[test]
    fn errors_name_the_file_and_the_bad_byte() {
        let p = scratch("bad.txt", b"1g Ra1\n\xFF");
        let e = read_text_file(&p, "setup file").unwrap_err().to_string();
        assert!(
            e.contains("bad.txt") && e.contains("line 2, column 1"),
            "{e}"
        );
        let e = read_text_file(Path::new("/no/such/file"), "setup file")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("cannot read setup file /no/such/file"), "{e}");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 256, ..Default::default() })]

        /// Arbitrary bytes, read as a file and handed to every reader of user files, give a
        /// value or an error, never a panic.
        #[test]
        fn arbitrary_bytes_never_panic_a_reader(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300)) {
            let p = scratch("fuzz.txt", &bytes);
            if let Ok(text) = read_text_file(&p, "game record") {
                let _ = tusk_engine::notation::record::Record::parse(&text)
                    .map(|r| r.replay_upto(None));
                let _ = tusk_engine::notation::record::PositionFile::parse(&text);
                let _ = crate::matches::schedule::read_setup_file(&text, "fuzz.txt");
                let _ = tusk_engine::notation::board::parse_aei(&text);
            }
        }
    }

    /// A second claim on a file already claimed is refused as busy (naming the file), and
    /// succeeds once the first holder is gone.
    #[test]
    fn a_claimed_file_cannot_be_claimed_twice() {
        let dir = std::env::temp_dir().join(format!("tusk-claim-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.jsonl");
        let first = claim_for_appending(&path).unwrap();
        let err = claim_for_appending(&path).unwrap_err();
        assert!(matches!(err, ClaimError::Busy { .. }), "{err}");
        assert!(err.to_string().contains("games.jsonl"), "{err}");
        drop(first);
        claim_for_appending(&path).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
