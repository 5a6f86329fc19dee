
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

/// A judge per chapter's new wire: the one byte the grader answers a
/// test's request with, and the descriptor it carries (none when the
/// grader could not start the test's subject).
#[allow(unsafe_code)]
pub fn receive_wire(control: &UnixStream) -> Option<UnixStream> {
    use std::os::fd::{AsRawFd, FromRawFd};
    let mut byte = [0u8; 1];
    let mut iov = libc::iovec {
        iov_base: byte.as_mut_ptr().cast(),
        iov_len: 1,
    };
    // Room for one descriptor's control message, aligned as cmsghdr.
    let mut space = [0u64; 8];
    // SAFETY: a zeroed msghdr is valid; every pointer set in it points to
    // a live local that outlives the call, with its true length.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = space.as_mut_ptr().cast();
    msg.msg_controllen = std::mem::size_of_val(&space) as _;
    // SAFETY: `msg` describes valid buffers (above); the descriptor is ours.
    let got = unsafe { libc::recvmsg(control.as_raw_fd(), &mut msg, libc::MSG_CMSG_CLOEXEC) };
    if got != 1 {
        return None;
    }
    // SAFETY: `msg` was filled by recvmsg; CMSG_FIRSTHDR checks the length.
    let cmsg = unsafe { libc::CMSG_FIRSTHDR(&msg) };
    if cmsg.is_null() {
        return None;
    }
    // SAFETY: non-null, within `space`, as recvmsg wrote it.
    let header = unsafe { &*cmsg };
    if header.cmsg_level != libc::SOL_SOCKET || header.cmsg_type != libc::SCM_RIGHTS {
        return None;
    }
    // SAFETY: an SCM_RIGHTS message's data is at least one descriptor.
    let fd = unsafe { std::ptr::read_unaligned(libc::CMSG_DATA(cmsg).cast::<i32>()) };
    // SAFETY: the kernel just gave this process the descriptor; nothing
    // else owns it.
    Some(unsafe { UnixStream::from_raw_fd(fd) })
}
