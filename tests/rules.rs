//! rules tests.
