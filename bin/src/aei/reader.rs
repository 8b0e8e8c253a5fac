//! The reader thread: it owns the input and turns it into [`Event`]s on a channel, so the
//! session keeps hearing the controller while a search runs. End of input is `quit`. A line
//! longer than [`MAX_LINE_BYTES`] is skipped whole (reported as [`Event::Overlong`]), so
//! endless input without a line break cannot fill the memory.

use std::io::{BufRead, BufReader, Read};
use std::sync::mpsc::Sender;
use std::thread::JoinHandle;

/// The longest line the reader keeps: 64 KiB (AEI lines are under 200 bytes).
pub const MAX_LINE_BYTES: usize = 64 << 10;

/// What the session loop waits for.
#[derive(Debug)]
pub enum Event {
    /// One line from the controller, line ending removed (invalid UTF-8 replaced).
    Line(String),
    /// A line longer than [`MAX_LINE_BYTES`] was skipped; it had this many bytes.
    Overlong(usize),
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
                let event = match read_line(&mut input, &mut buf) {
                    Ok(None) | Err(_) => {
                        let _ = events.send(Event::Eof);
                        return;
                    }
                    Ok(Some(len)) if len > MAX_LINE_BYTES => Event::Overlong(len),
                    Ok(Some(_)) => {
                        while matches!(buf.last(), Some(b'\n' | b'\r')) {
                            buf.pop();
                        }
                        Event::Line(String::from_utf8_lossy(&buf).into_owned())
                    }
                };
                if events.send(event).is_err() {
                    return;
                }
            }
        })
}

/// Reads one line into `buf` (cleared first), keeping at most [`MAX_LINE_BYTES`] + 1 bytes of
/// it and skipping the rest. Returns the line's whole length in bytes, line ending included,
/// or `None` at end of input.
fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<Option<usize>> {
    buf.clear();
    let mut len = 0usize;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok((len > 0).then_some(len));
        }
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..=i], true),
            None => (chunk, false),
        };
        let room = (MAX_LINE_BYTES + 1).saturating_sub(buf.len());
        buf.extend_from_slice(&part[..part.len().min(room)]);
        let used = part.len();
        len = len.saturating_add(used);
        input.consume(used);
        if done {
            return Ok(Some(len));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;

    /// Every event the reader makes of `input`, as text.
    fn read_all(input: Vec<u8>) -> Vec<String> {
        let (tx, rx) = channel();
        spawn(std::io::Cursor::new(input), tx)
            .unwrap()
            .join()
            .unwrap();
        rx.iter()
            .map(|e| match e {
                Event::Line(l) => l,
                Event::Overlong(n) => format!("<overlong {n}>"),
                Event::Eof => "<eof>".into(),
                Event::SearchDone(_) => "<done>".into(),
            })
            .collect()
    }

    #[test]
    fn lines_then_eof() {
        let got = read_all(b"aei\r\nisready\n\xffgo\nquit".to_vec());
        assert_eq!(got, ["aei", "isready", "\u{fffd}go", "quit", "<eof>"]);
    }

    #[test]
    fn an_overlong_line_is_skipped_whole_and_reading_goes_on() {
        let mut input = b"isready\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', 3 * MAX_LINE_BYTES));
        input.extend_from_slice(b"\nquit\n");
        let got = read_all(input);
        let n = 3 * MAX_LINE_BYTES + 1;
        assert_eq!(
            got,
            [
                "isready".to_string(),
                format!("<overlong {n}>"),
                "quit".into(),
                "<eof>".into()
            ]
        );
    }
}
