//! notation tests.
