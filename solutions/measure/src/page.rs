//! The generated page a measurement example ends with: shown on standard
//! output for the one who ran it, and written where the book includes it
//! (a path relative to the directory the example runs in, the workspace
//! root). An error names the page and why it could not be written.

use std::path::Path;

/// Prints `md`, writes it to `page` and says so.
pub fn write_page(page: &Path, md: &str) -> Result<(), String> {
    print!("{md}");
    std::fs::write(page, md).map_err(|e| format!("cannot write {}: {e}", page.display()))?;
    println!("\nwrote {}", page.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_that_cannot_be_written_is_an_error_naming_it() {
        let err = write_page(Path::new("/nonexistent-folder/peer.md"), "x\n");
        assert!(err.is_err_and(|e| e.starts_with("cannot write /nonexistent-folder/peer.md: ")));
    }
}
