//! The reader thread: it owns the input and turns it into [`Event`]s on a channel, so the
//! session keeps hearing the controller while a search runs. End of input is `quit`.

use std::io::{BufRead, BufReader, Read};
use std::sync::mpsc::Sender;
use std::thread::JoinHandle;

/// What the session loop waits for.
#[derive(Debug)]
pub enum Event {
    /// One line from the controller, line ending removed (invalid UTF-8 replaced).
    Line(String),
    /// The input ended (or failed): treated as `quit`.
    Eof,
    /// The search with this id has finished; its thread can be joined.
    SearchDone(u64),
}

/// Starts the reader on `input`. It stops at end of input, on a read error, or when the
/// session has gone (the channel is closed).
pub fn spawn<R: Read + Send + 'static>(
    input: R,
    events: Sender<Event>,
) -> std::io::Result<JoinHandle<()>> {
    std::thread::Builder::new()
        .name("aei-reader".into())
        .spawn(move || {
            let mut input = BufReader::new(input);
            let mut buf = Vec::with_capacity(256);
            loop {
                buf.clear();
                match input.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => {
                        let _ = events.send(Event::Eof);
                        return;
                    }
                    Ok(_) => {
                        while matches!(buf.last(), Some(b'\n' | b'\r')) {
                            buf.pop();
                        }
                        let line = String::from_utf8_lossy(&buf).into_owned();
                        if events.send(Event::Line(line)).is_err() {
                            return;
                        }
                    }
                }
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;

    #[test]
    fn lines_then_eof() {
        let (tx, rx) = channel();
        let input = b"aei\r\nisready\n\xffgo\nquit".to_vec();
        spawn(std::io::Cursor::new(input), tx)
            .unwrap()
            .join()
            .unwrap();
        let got: Vec<String> = rx
            .iter()
            .map(|e| match e {
                Event::Line(l) => l,
                Event::Eof => "<eof>".into(),
                Event::SearchDone(_) => "<done>".into(),
            })
            .collect();
        assert_eq!(got, ["aei", "isready", "\u{fffd}go", "quit", "<eof>"]);
    }
}
