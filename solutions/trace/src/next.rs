//! "What happens next?": a quiz tied to one step of a player.
//!
//! The problem: a reader who only presses "step" learns to watch, not to
//! predict. A quiz that stops the player at a step and asks which step comes
//! next makes the reader run the search in their head first (mdbook-quiz's
//! "what does this print?" for a search). The state is the records already
//! written: the quiz reads its player's steps back from them, so the right
//! answer is the recorded next step and can never drift from the player. The
//! wrong answers are other steps of the same run that do something else; each
//! says where in the run it happens and what the search would have to see
//! there. The cost is one pass over the records written so far.

use crate::{Out, Quiz};

/// What a step of each kind means, for the answer and the reasons of the
/// wrong choices.
fn meaning(kind: &str) -> &'static str {
    match kind {
        "try" => "the search tries a new choice",
        "place" => "a choice passes the check and is kept",
        "reject" => "a tried choice fails the check and is cleared",
        "undo" => "nothing below is left to try, so the search takes its last choice back",
        "found" => "the search has an answer",
        _ => "the search notes what it checks and changes nothing",
    }
}

/// One recorded step: its kind and its narration (the player's words).
struct Said {
    kind: String,
    say: String,
}

/// The steps of instance `instance` (0-based) of player `player`, in order.
fn steps(records: &str, player: &str, instance: usize) -> Vec<Said> {
    let header = format!("trace\t{player}\t");
    let mut seen = 0;
    let mut inside = false;
    let mut out = Vec::new();
    for line in records.lines() {
        if line.starts_with("trace\t") {
            inside = line.starts_with(&header) && {
                seen += 1;
                seen == instance + 1
            };
            continue;
        }
        if !inside {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        match f[0] {
            "step" if f.len() >= 10 => out.push(Said {
                kind: f[1].to_string(),
                say: f[9].to_string(),
            }),
            "step" | "board" | "node" | "edge" | "given" | "code" | "src" | "counter" | "total"
            | "function" | "call" | "return" | "locals" => {}
            // Any other record closes the trace.
            _ => inside = false,
        }
    }
    out
}

impl Out {
    /// The step just before the first step of `kind` in instance `instance`
    /// of player `player` (so a quiz at it asks for that step), or `None`
    /// when the run has no such step after its first.
    pub fn step_before_first(&self, player: &str, instance: usize, kind: &str) -> Option<usize> {
        let run = steps(&self.0, player, instance);
        (1..run.len()).find(|&j| run[j].kind == kind)
    }

    /// A "what happens next?" quiz at step `k` (1-based: the player shows
    /// step `k`, the reader predicts step `k + 1`) of instance `instance` of
    /// player `player`, written after that player. The choices are the next
    /// step's narration and up to three narrations of other steps of the run
    /// whose kind differs from it, the nearest to `k` first. Panics when the
    /// run has no step `k + 1` (a recorder's bug, caught by its tests).
    pub fn next_step_quiz(&mut self, id: &str, player: &str, instance: usize, k: usize) {
        let run = steps(&self.0, player, instance);
        assert!(
            k >= 1 && k < run.len(),
            "player {player} instance {instance} has no step {} (it has {})",
            k + 1,
            run.len()
        );
        let (now, next) = (&run[k - 1], &run[k]);
        let mut others: Vec<usize> = (0..run.len())
            .filter(|&j| j != k - 1 && run[j].kind != next.kind && run[j].say != next.say)
            .collect();
        others.sort_by_key(|&j| j.abs_diff(k));
        let mut wrong: Vec<(usize, &Said)> = Vec::new();
        for j in others {
            if wrong.len() == 3 {
                break;
            }
            if !wrong
                .iter()
                .any(|(_, s)| s.say == run[j].say || s.kind == run[j].kind)
            {
                wrong.push((j, &run[j]));
            }
        }
        self.quiz(Quiz {
            id,
            question: &format!(
                "What happens next? The player stands at step {k}: \u{201c}{}\u{201d}. What does step {} say?",
                now.say,
                k + 1
            ),
            right: next.say.clone(),
            wrong: wrong.iter().map(|(_, s)| s.say.clone()).collect(),
            explain: format!(
                "Step {}: {}. Press the step button once to see it.",
                k + 1,
                meaning(&next.kind)
            ),
        });
        self.rec(&[
            "at",
            &format!("player-{player}"),
            &instance.to_string(),
            &k.to_string(),
        ]);
        for (j, s) in wrong {
            let reason = if j < k {
                format!(
                    "That came earlier, at step {}: the search has moved on since. After step {k}, {}.",
                    j + 1,
                    meaning(&next.kind)
                )
            } else {
                format!(
                    "That comes later, at step {}. First, after step {k}, {}.",
                    j + 1,
                    meaning(&next.kind)
                )
            };
            self.why(&s.say, &reason);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_next_step_is_the_right_answer_and_every_other_choice_says_where_it_happens() {
        let mut out = Out::default();
        out.rec(&["trace", "p", "T", "a"]);
        for (kind, say) in [
            ("try", "put 1"),
            ("reject", "1 clashes"),
            ("try", "put 2"),
            ("place", "2 fits"),
            ("undo", "take 2 back"),
            ("found", "done"),
        ] {
            out.rec(&["step", kind, "0", "-", "0", "-", "-", "-", "", say]);
        }
        assert_eq!(out.step_before_first("p", 0, "undo"), Some(4));
        assert_eq!(out.step_before_first("p", 1, "undo"), None);
        out.next_step_quiz("next", "p", 0, 3);
        let text = out.into_text();
        assert_eq!(
            crate::answer(&text, "next"),
            Some(("2 fits".to_string(), 4))
        );
        assert!(text.contains("at\tplayer-p\t0\t3\n"), "{text}");
        let whys = text.lines().filter(|l| l.starts_with("why\t")).count();
        assert_eq!(whys, 3, "{text}");
        assert!(
            text.contains("why\t1 clashes\tThat came earlier, at step 2"),
            "{text}"
        );
        assert!(
            !text.contains("choice\t0\tput 2\n"),
            "the current step is no choice"
        );
    }
}
