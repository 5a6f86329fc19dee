//! What the learner tool's integration tests share: the core's test kit
//! (the repository, a small workbook, a learner's version of a function).
#![allow(unused_imports)] // each test file uses a part

pub use workbook_core::testkit::*;
