//! Text files read as bytes: decoded with the position of the first byte that is not UTF-8.

use crate::error::ParseError;

/// Decodes a whole file as UTF-8 text; a leading byte-order mark is dropped. On invalid
/// UTF-8 the error names the 1-based line and column (in characters) of the first bad byte
/// and the byte itself, so that a user can find it in an editor.
pub fn decode_utf8(bytes: &[u8]) -> Result<String, ParseError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok(text.to_string()),
        Err(e) => {
            let good = &bytes[..e.valid_up_to()];
            let line_start = good.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            let line = 1 + good.iter().filter(|&&b| b == b'\n').count();
            // `good` is valid UTF-8, so its last line's characters can be counted.
            let column = 1 + String::from_utf8_lossy(&good[line_start..]).chars().count();
            Err(ParseError::At {
                line,
                column,
                reason: format!(
                    "byte 0x{:02X} is not UTF-8 text (the file must be UTF-8)",
                    bytes[e.valid_up_to()]
                ),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_text_is_returned_whole() {
        assert_eq!(decode_utf8(b"1g Ra1\n2g \xC3\xA9").unwrap(), "1g Ra1\n2g é");
        assert_eq!(decode_utf8(b"\xEF\xBB\xBF7g\n").unwrap(), "7g\n");
    }

    #[test]
    fn a_bad_byte_is_named_with_its_line_and_column() {
        let e = decode_utf8(b"1g Ra1\n\xC3\xA9x \xFFb\nmore").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2, column 4: byte 0xFF is not UTF-8 text (the file must be UTF-8)"
        );
        let e = decode_utf8(b"\x80").unwrap_err();
        assert!(
            e.to_string().starts_with("line 1, column 1: byte 0x80"),
            "{e}"
        );
    }
}
