//! hashing tests.
