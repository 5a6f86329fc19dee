
// ---- The subject's end: a loop that answers calls. ----

/// The last panic's message and place, recorded by the hook.
static PANIC: std::sync::Mutex<Option<(String, String)>> = std::sync::Mutex::new(None);

/// The stack each call runs on: libtest's default for a test thread, so
/// recursion depth means what it meant when tests ran in one process.
const STACK: usize = 2 << 20;

/// Answers calls until the judge closes the wire.
pub fn serve() {
    std::panic::set_hook(Box::new(|info| {
        let message = payload_text(info.payload());
        let place = info
            .location()
            .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()))
            .unwrap_or_default();
        *PANIC.lock().unwrap_or_else(|p| p.into_inner()) = Some((message, place));
    }));
    let Some(wire) = open_wire() else {
        eprintln!("this is the grader's subject process; it runs only under `grader grade`");
        std::process::exit(2);
    };
    // Before the first line of the learner's code runs: from here on the
    // process can compute, allocate, start threads and use the wire it has,
    // and nothing else (no file, socket, process or exec).
    // WORKBOOK_SUBJECT_NO_SECCOMP: a machine without seccomp, simulated
    // by the grader's tests alone (the grader clears the subject's
    // environment and sets it only when its own has it).
    let simulated = std::env::var_os("WORKBOOK_SUBJECT_NO_SECCOMP").is_some_and(|v| v == "1");
    let confined = if simulated {
        Err("no seccomp on this machine (simulated by the grader's tests)".to_string())
    } else {
        confine()
    };
    if let Err(e) = confined {
        eprintln!("the subject runs without a seccomp filter: {e}");
    }
    serve_on(wire);
}

/// Answers calls on `wire` until the judge closes it, on one worker thread
/// with a test thread's stack, started once (a thread per call cost more
/// than the call in a property test's hundreds of them): it reads each
/// frame itself, so a call wakes no other thread.
pub fn serve_on(wire: UnixStream) {
    let worker = std::thread::Builder::new()
        .name("subject".into())
        .stack_size(STACK)
        .spawn(move || answer_all(wire));
    match worker {
        Ok(w) => {
            let _ = w.join();
        }
        Err(e) => eprintln!("the subject cannot start the thread calls run on: {e}"),
    }
}

fn answer_all(mut wire: UnixStream) {
    loop {
        let frame = match read_frame(&mut wire, MAX_FRAME) {
            Ok(Some(f)) => f,
            _ => return,
        };
        let reply = answer(frame);
        let bytes = match encode(&reply) {
            Ok(b) => b,
            Err(e) => match encode(&Reply::Fault(format!("{e:?}"))) {
                Ok(b) => b,
                Err(_) => return,
            },
        };
        if write_frame(&mut wire, &bytes).is_err() {
            return;
        }
    }
}

/// One call, its panic caught and turned into a reply.
fn answer(frame: Vec<u8>) -> Reply {
    let (id, tag, args): (String, String, Vec<u8>) = match decode(&frame) {
        Ok(x) => x,
        Err(e) => return Reply::Fault(format!("{e:?}")),
    };
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| route(&id, &tag, &args)));
    match run {
        Ok(Ok(value)) => Reply::Value(value),
        Ok(Err(fault)) => Reply::Fault(format!("{fault:?}")),
        Err(payload) => {
            let recorded = PANIC.lock().unwrap_or_else(|p| p.into_inner()).take();
            let (message, place) =
                recorded.unwrap_or_else(|| (payload_text(&*payload), String::new()));
            Reply::Panic { message, place }
        }
    }
}

fn payload_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "(a panic without a message)".into())
}

