//! The handle another thread uses to stop a search or move its deadlines while it runs.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Shared between the searcher and whoever drives it (the AEI reader thread, a Ctrl-C
/// handler, a timer). All methods take `&self` and are safe to call from any thread at any
/// time; the searcher polls it at least every millisecond of search time, so a stop is
/// honoured within a few milliseconds.
///
/// The *hard* deadline, measured from [`Control::start`], is never passed. When to stop
/// earlier (a soft deadline after an iteration, a stable best turn) is the driver's time
/// policy: it sees every completed iteration's report (`Report::completes_iteration`) and
/// calls [`Control::stop`] there, which ends the search with that iteration's result.
#[derive(Debug)]
pub struct Control {
    stop: AtomicBool,
    start: Instant,
    hard_ns: AtomicU64,
}

const NONE: u64 = u64::MAX;

impl Default for Control {
    fn default() -> Self {
        Control::new()
    }
}

impl Control {
    /// No deadline, not stopped; the clock starts now.
    pub fn new() -> Control {
        Control {
            stop: AtomicBool::new(false),
            start: Instant::now(),
            hard_ns: AtomicU64::new(NONE),
        }
    }

    /// When the clock started (the turn's start, for time management).
    pub fn start(&self) -> Instant {
        self.start
    }

    /// Asks the search to stop now and return its best move.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was asked for.
    pub fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Sets (or with `None` removes) the hard deadline, as time since [`Control::start`].
    pub fn set_hard(&self, after: Option<Duration>) {
        self.hard_ns.store(to_ns(after), Ordering::Relaxed);
    }

    /// The hard deadline, as time since the start.
    pub fn hard(&self) -> Option<Duration> {
        from_ns(self.hard_ns.load(Ordering::Relaxed))
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the search must stop now: a stop was asked for or the hard deadline passed.
    pub fn must_stop(&self) -> bool {
        self.stop_requested() || self.hard().is_some_and(|h| self.elapsed() >= h)
    }
}

fn to_ns(d: Option<Duration>) -> u64 {
    d.map_or(NONE, |d| u64::try_from(d.as_nanos()).unwrap_or(NONE - 1))
}

fn from_ns(ns: u64) -> Option<Duration> {
    (ns != NONE).then(|| Duration::from_nanos(ns))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadlines_and_stop() {
        let c = Control::new();
        assert!(!c.must_stop());
        c.set_hard(Some(Duration::ZERO));
        assert!(c.must_stop());
        c.set_hard(None);
        assert!(!c.must_stop());
        c.set_hard(Some(Duration::from_secs(3)));
        assert_eq!(c.hard(), Some(Duration::from_secs(3)));
        c.stop();
        assert!(c.must_stop());
    }
}
