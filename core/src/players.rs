//! The book's players, figures and quizzes, shared by the book's build
//! (`xtask`) and `workbook trace`: `records` reads what a solution's
//! `<slug>_book` example prints, `render` writes HTML and SVG from it.

pub mod records;
pub mod render;
