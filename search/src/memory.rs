//! How much memory the machine can give now, where the system says: a transposition table
//! larger than that would be mapped lazily and then, once the search fills it, get the process
//! killed by the system's out-of-memory handler instead of failing where it can be reported.

/// The memory available for new allocations without swapping, in bytes: `MemAvailable` of
/// `/proc/meminfo` on Linux; `None` where it cannot be read (other systems), and the allocator
/// alone decides.
pub(crate) fn available_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_available(&text)
}

/// `MemAvailable` of a `/proc/meminfo` text, in bytes.
fn parse_available(meminfo: &str) -> Option<u64> {
    let line = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))?;
    let mut words = line.split_whitespace();
    let value: u64 = words.next()?.parse().ok()?;
    match words.next() {
        Some("kB") => value.checked_mul(1024),
        None => Some(value),
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_mem_available_in_bytes() {
        let text = "MemTotal:       24585484 kB\nMemFree:        23000000 kB\n\
                    MemAvailable:   23861236 kB\nBuffers:            2048 kB\n";
        assert_eq!(parse_available(text), Some(23_861_236 * 1024));
        assert_eq!(parse_available("MemTotal: 5 kB\n"), None);
        assert_eq!(parse_available("MemAvailable: lots kB\n"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn linux_says_how_much_is_available() {
        let bytes = available_bytes().expect("/proc/meminfo has MemAvailable");
        assert!(bytes > 1 << 20, "{bytes} bytes");
    }
}
