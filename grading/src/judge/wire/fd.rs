
// ---- The descriptor the grader placed. ----

/// This process's end of the wire: the descriptor the grader's
/// `__limited` placed and named in `WORKBOOK_WIRE_FD`.
#[allow(unsafe_code)]
pub fn open_wire() -> Option<UnixStream> {
    use std::os::fd::FromRawFd;
    let fd: i32 = std::env::var("WORKBOOK_WIRE_FD").ok()?.parse().ok()?;
    // SAFETY: the grader opened this descriptor for this process alone and
    // nothing else in it owns or closes it.
    Some(unsafe { UnixStream::from_raw_fd(fd) })
}
