//! A pool of worker threads that take jobs from one queue and report on one channel. A worker
//! that panics is reported as such on the channel at once (the run must fail, never end as if
//! the remaining games had not been planned).

use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// What a worker thread does with the jobs it takes.
pub trait Worker: Send + 'static {
    /// One unit of work.
    type Job: Send + 'static;
    /// What a job reports.
    type Event: Send + 'static;

    /// Does one job. `None` stops this worker (the run is being cancelled).
    fn run(&mut self, job: Self::Job) -> Option<Self::Event>;
}

/// A message from the pool.
#[derive(Debug)]
pub enum Message<E> {
    /// A job's report.
    Event(E),
    /// A worker panicked (a bug): its thread's name and the panic message.
    Panicked {
        /// The thread's name.
        thread: String,
        /// The panic message.
        message: String,
    },
}

/// Running worker threads.
pub struct Pool<E> {
    messages: Receiver<Message<E>>,
    handles: Vec<JoinHandle<()>>,
}

/// A worker thread that panicked outside a job (while it was being dropped).
#[derive(Debug, thiserror::Error)]
#[error("worker thread {thread} panicked: {message}")]
pub struct PanicError {
    /// The thread's name.
    pub thread: String,
    /// The panic message.
    pub message: String,
}

/// The text of a panic payload.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(no message)".to_string()
    }
}

/// Takes jobs from `queue` until it is empty or the worker stops; reports each job's event,
/// and a panic as [`Message::Panicked`].
fn work<W: Worker>(
    mut worker: W,
    queue: Arc<Mutex<VecDeque<W::Job>>>,
    tx: Sender<Message<W::Event>>,
) {
    loop {
        let job = queue.lock().unwrap_or_else(|e| e.into_inner()).pop_front();
        let Some(job) = job else { break };
        match catch_unwind(AssertUnwindSafe(|| worker.run(job))) {
            Ok(Some(event)) => {
                if tx.send(Message::Event(event)).is_err() {
                    break;
                }
            }
            Ok(None) => break,
            Err(payload) => {
                let thread = std::thread::current().name().unwrap_or("?").to_string();
                let message = panic_text(payload.as_ref());
                let _ = tx.send(Message::Panicked { thread, message });
                break;
            }
        }
    }
}

impl<E: Send + 'static> Pool<E> {
    /// Starts one thread per worker (named `<name>-<i>`), all taking from `jobs` in order.
    /// When a thread cannot be started, the ones already started are left to finish.
    pub fn start<W: Worker<Event = E>>(
        name: &str,
        jobs: impl IntoIterator<Item = W::Job>,
        workers: Vec<W>,
    ) -> std::io::Result<Pool<E>> {
        let queue = Arc::new(Mutex::new(jobs.into_iter().collect::<VecDeque<_>>()));
        let (tx, messages) = mpsc::channel();
        let mut handles = Vec::new();
        for (i, worker) in workers.into_iter().enumerate() {
            let (queue, tx) = (Arc::clone(&queue), tx.clone());
            handles.push(
                std::thread::Builder::new()
                    .name(format!("{name}-{i}"))
                    .spawn(move || work(worker, queue, tx))?,
            );
        }
        Ok(Pool { messages, handles })
    }

    /// The messages, until every worker has stopped.
    pub fn messages(&self) -> impl Iterator<Item = Message<E>> + '_ {
        self.messages.iter()
    }

    /// Waits for every worker thread; a panic that escaped a job (in a worker's drop) is an
    /// error.
    pub fn join(self) -> Result<(), PanicError> {
        let mut first = Ok(());
        for h in self.handles {
            let thread = h.thread().name().unwrap_or("?").to_string();
            if let Err(payload) = h.join() {
                if first.is_ok() {
                    first = Err(PanicError {
                        thread,
                        message: panic_text(payload.as_ref()),
                    });
                }
            }
        }
        first
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Doubles numbers; panics on 13.
    struct Doubler;

    impl Worker for Doubler {
        type Job = u32;
        type Event = u32;
        fn run(&mut self, job: u32) -> Option<u32> {
            assert_ne!(job, 13, "unlucky job");
            Some(2 * job)
        }
    }

    #[test]
    fn every_job_is_done_once() {
        let jobs = (0..100).filter(|&j| j != 13);
        let pool = Pool::start("double", jobs.clone(), vec![Doubler, Doubler, Doubler]).unwrap();
        let mut got: Vec<u32> = pool
            .messages()
            .map(|m| match m {
                Message::Event(e) => e,
                other => panic!("{other:?}"),
            })
            .collect();
        pool.join().unwrap();
        got.sort_unstable();
        assert_eq!(got, jobs.map(|j| 2 * j).collect::<Vec<_>>());
    }

    #[test]
    fn a_panicking_worker_is_reported_at_once() {
        let pool = Pool::start("double", [1, 13, 2], vec![Doubler]).unwrap();
        let messages: Vec<Message<u32>> = pool.messages().collect();
        pool.join().unwrap();
        assert!(matches!(messages[0], Message::Event(2)), "{messages:?}");
        match &messages[1] {
            Message::Panicked { thread, message } => {
                assert_eq!(thread, "double-0");
                assert!(message.contains("unlucky job"), "{message}");
            }
            other => panic!("{other:?}"),
        }
        // The panicking worker stopped: the job after it was not done.
        assert_eq!(messages.len(), 2, "{messages:?}");
    }
}
