
// ---- The judge's end: every stub of this copy calls `call`. ----

static WIRE: std::sync::Mutex<Option<UnixStream>> = std::sync::Mutex::new(None);

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
        if guard.is_none() {
            *guard = open_wire();
        }
        match guard.as_mut() {
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
    *WIRE.lock().unwrap_or_else(|p| p.into_inner()) = Some(wire);
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
