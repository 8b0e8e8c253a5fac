//! fixtures tests.
