
// ---- The judge's end: every stub of this copy calls `call`. ----

static WIRE: std::sync::Mutex<Wire> = std::sync::Mutex::new(Wire {
    opened: false,
    control: None,
    stream: None,
    test: None,
});

/// The judge's end of the wire. Alone (`grader` runs one test per judge),
/// the descriptor the grader placed is the wire to the test's subject. In a
/// judge per chapter (`WORKBOOK_WIRE_BATCH=1`), it is the grader's control
/// socket instead, and each test gets a subject of its own: libtest runs
/// every test on a thread named after it, so the first call from a thread
/// of another name asks the grader for a fresh subject (the test's name as
/// one line; the answer is one byte carrying the new wire's descriptor),
/// and the last test's wire is closed before that. A test's calls never
/// reach a process another test's calls reached.
struct Wire {
    /// Whether the placed descriptor has been taken.
    opened: bool,
    control: Option<UnixStream>,
    stream: Option<UnixStream>,
    /// The test whose subject `stream` reaches (a judge per chapter).
    test: Option<String>,
}

impl Wire {
    /// The wire for a call from the current thread, asking the grader for
    /// a new subject when the call is a new test's first.
    fn current(&mut self) -> Option<&mut UnixStream> {
        if !self.opened {
            self.opened = true;
            let placed = open_wire();
            if std::env::var_os("WORKBOOK_WIRE_BATCH").is_some_and(|v| v == "1") {
                self.control = placed;
            } else {
                self.stream = placed;
            }
        }
        if let Some(control) = self.control.as_mut() {
            let here = std::thread::current().name().map(str::to_owned);
            // A thread without a name is one a test started: its test's.
            if self.stream.is_none() || (here.is_some() && here != self.test) {
                self.stream = None;
                let name = here.clone().unwrap_or_default().replace('\n', " ");
                self.stream = std::io::Write::write_all(control, format!("{name}\n").as_bytes())
                    .ok()
                    .and_then(|()| receive_wire(control));
                self.test = here;
            }
        }
        self.stream.as_mut()
    }
}

/// The largest answer the judge reads: the grader's `WORKBOOK_JUDGE_FRAME_MAX`
/// (a share of the judge's memory limit small enough that the frame, its
/// copy and its decoded value fit in that limit whatever the subject sent,
/// postcard's worst growth being 24 times: an empty `Vec` in one byte),
/// else `MAX_FRAME`. So an answer too large is the subject's protocol
/// error, never the judge running out of memory.
fn judge_frame_max() -> usize {
    std::env::var("WORKBOOK_JUDGE_FRAME_MAX")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(MAX_FRAME)
}

/// Sends one call to the subject and returns its answer, or panics (at the
/// stub's own line) with what the learner's code said or did.
#[track_caller]
pub fn call<A: Serialize + ?Sized, R: serde::de::DeserializeOwned>(
    id: &str,
    tag: &str,
    args: &A,
) -> R {
    let name = id.split_once("::").map_or(id, |(_, k)| k);
    let request = match encode(args).and_then(|a| encode(&(id, tag, a))) {
        Ok(r) => r,
        Err(e) => panic!("the grader could not send the arguments of `{name}`: {e:?}"),
    };
    let answer = {
        let mut guard = WIRE.lock().unwrap_or_else(|p| p.into_inner());
        match guard.current() {
            None => Err(format!(
                "`{name}` has no subject process to run in: this test binary is the grader's judge and runs only under `grader grade`"
            )),
            Some(wire) => match write_frame(wire, &request) {
                Err(_) => Err(ended(name)),
                Ok(()) => match read_frame(wire, judge_frame_max()) {
                    Ok(Some(bytes)) => Ok(bytes),
                    Ok(None) => Err(ended(name)),
                    Err(e) => Err(format!("protocol error: in the answer to `{name}`, {e}")),
                },
            },
        }
    };
    let bytes = match answer {
        Ok(b) => b,
        Err(e) => panic!("{e}"),
    };
    match decode::<Reply>(&bytes) {
        Ok(Reply::Value(value)) => match decode::<R>(&value) {
            Ok(r) => r,
            Err(_) => panic!(
                "protocol error: the answer to `{name}` is not a value of its return type"
            ),
        },
        Ok(Reply::Panic { message, place }) => {
            if message.starts_with("not yet implemented") || place.is_empty() {
                panic!("{message}")
            } else {
                panic!("{message}\n(your code panicked at {place})")
            }
        }
        Ok(Reply::Fault(f)) => panic!("protocol error: the subject could not run `{name}`: {f}"),
        Err(_) => panic!("protocol error: the answer to `{name}` is not a reply the grader reads"),
    }
}

/// Uses `wire` for every later call (the grader's `__limited` names the
/// descriptor instead; this is for the round-trip benchmark).
pub fn connect(wire: UnixStream) {
    let mut guard = WIRE.lock().unwrap_or_else(|p| p.into_inner());
    guard.opened = true;
    guard.stream = Some(wire);
}

fn ended(name: &str) -> String {
    format!(
        "your code's process ended while it was running `{name}` (it crashed, or a limit stopped it)"
    )
}

/// Writes a `&mut [T]` argument's new value back, element by element.
#[track_caller]
pub fn write_slice<T: Clone>(to: &mut [T], from: Vec<T>) {
    if to.len() != from.len() {
        panic!(
            "protocol error: a slice of {} came back as {} elements",
            to.len(),
            from.len()
        );
    }
    to.clone_from_slice(&from);
}
