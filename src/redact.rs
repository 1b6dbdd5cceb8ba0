//! `--redact`: removes what identifies one particular machine (serial numbers, UUIDs, MAC
//! addresses, the host name) from a `Spec` before any renderer sees it.
//!
//! Redacted values become the visible text `[redacted]` rather than `null`, so a reader can
//! tell "removed on purpose" from "unknown". Unknown values stay `null`. The same secrets are
//! then scrubbed from every other string in the model (notes, the sysroot path, ...), and any
//! text shaped like a MAC address or a UUID is scrubbed too, whatever field it sits in.

use aho_corasick::{AhoCorasick, Anchored, Input, MatchKind, StartKind};
use serde_json::Value;

use crate::diff::Change;
use crate::fleet::Fleet;
use crate::preflight;
use crate::spec::{Note, Spec};
use crate::verify::VerifyReport;

/// What a redacted value is replaced with.
pub const REDACTED: &str = "[redacted]";

/// Field name of the note that says the report was redacted.
pub const NOTE_FIELD: &str = "redacted";

/// Calls `$visit` on every field of `$spec` that names one machine rather than its model:
/// the host name, serial numbers, UUIDs and the network ports' MAC addresses. The one list of them: `redact` replaces them
/// (`each_identity!(spec, hide, mut)`), `secrets` collects them (`each_identity!(spec, add)`).
macro_rules! each_identity {
    ($spec:expr, $visit:expr $(, $mut:tt)?) => {{
        let spec = $spec;
        let mut visit = $visit;
        visit(&$($mut)? spec.hostname);
        visit(&$($mut)? spec.system.serial);
        visit(&$($mut)? spec.system.uuid);
        visit(&$($mut)? spec.system.board_serial);
        for d in &$($mut)? spec.memory.dimms {
            visit(&$($mut)? d.serial);
        }
        for d in &$($mut)? spec.drives {
            visit(&$($mut)? d.serial);
        }
        for g in &$($mut)? spec.gpus {
            visit(&$($mut)? g.uuid);
            visit(&$($mut)? g.serial);
        }
        for n in &$($mut)? spec.nics {
            for p in &$($mut)? n.ports {
                visit(&$($mut)? p.mac);
            }
        }
    }};
}

/// Replaces serials, UUIDs, MAC addresses and the host name in `spec` with `[redacted]`,
/// everywhere they occur, and adds a note saying so.
pub fn redact(spec: &mut Spec) {
    let mut secrets: Vec<String> = Vec::new();
    let hide = |v: &mut Option<String>| {
        if let Some(s) = v.as_mut() {
            if s != REDACTED {
                secrets.push(std::mem::replace(s, REDACTED.to_string()));
            }
        }
    };
    each_identity!(&mut *spec, hide, mut);
    let scrubber = Scrubber::new(&secrets);

    // Every other string: walk the serialised model so no field is forgotten, then read it
    // back. The model round-trips by construction; if it ever did not, the fields above are
    // already redacted and only the free-text scrub is skipped.
    if let Ok(mut v) = serde_json::to_value(&*spec) {
        scrub_value(&mut v, &scrubber);
        if let Ok(back) = serde_json::from_value::<Spec>(v) {
            *spec = back;
        }
    }
    spec.notes.retain(|n| n.field != NOTE_FIELD);
    spec.notes.push(Note {
        field: NOTE_FIELD.into(),
        reason: "serial numbers, UUIDs, MAC addresses and the host name were removed (--redact)"
            .into(),
    });
}

/// What `redact` hides in `specs` (one machine, or the two reports `diff` compares): the
/// host names, serials and UUIDs, longest first and each once, to scrub out of what is made
/// from the machines (a verify report, a diff, a fleet).
pub fn secrets<'a>(specs: impl IntoIterator<Item = &'a Spec>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for spec in specs {
        let add = |v: &Option<String>| {
            if let Some(s) = v {
                if s != REDACTED && s.trim().chars().count() >= 2 {
                    out.push(s.clone());
                }
            }
        };
        each_identity!(spec, add);
    }
    out.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    out.dedup();
    out
}

/// Scrubs every string of a serialisable value (a report made from a machine) of the
/// scrubber's secrets, MAC addresses and UUIDs, through its JSON form.
fn scrub_model<T: serde::Serialize + serde::de::DeserializeOwned>(x: &mut T, scrubber: &Scrubber) {
    if let Ok(mut v) = serde_json::to_value(&*x) {
        scrub_value(&mut v, scrubber);
        if let Ok(back) = serde_json::from_value::<T>(v) {
            *x = back;
        }
    }
}

/// `--redact` for `verify`: the host name hidden, and the machine's `secrets` scrubbed from
/// every line. The check itself was made on the machine as it is.
pub fn redact_verify(report: &mut VerifyReport, secrets: &[String]) {
    scrub_verify(report, &Scrubber::new(secrets));
}

fn scrub_verify(report: &mut VerifyReport, scrubber: &Scrubber) {
    if report.hostname.is_some() {
        report.hostname = Some(REDACTED.into());
    }
    scrub_model(report, scrubber);
}

/// `--redact` for `diff` and fleet's odd ones out: serials and host names scrubbed from
/// every change; a swapped serial still shows as a change, `[redacted]` on both sides.
pub fn redact_changes(changes: &mut [Change], secrets: &[String]) {
    scrub_changes(changes, &Scrubber::new(secrets));
}

fn scrub_changes(changes: &mut [Change], scrubber: &Scrubber) {
    for c in changes {
        for s in [&mut c.what, &mut c.at, &mut c.before, &mut c.after] {
            *s = scrubber.scrub(s);
        }
    }
}

/// `--redact` for `preflight`: the host name hidden and the machine's secrets scrubbed.
pub fn redact_preflight(report: &mut preflight::Report, secrets: &[String]) {
    let scrubber = Scrubber::new(secrets);
    if report.hostname.is_some() {
        report.hostname = Some(REDACTED.into());
    }
    report.source = scrubber.scrub(&report.source);
    for c in report.checks.iter_mut().chain(&mut report.not_checked) {
        c.found = scrubber.scrub(&c.found);
        for s in [&mut c.subject, &mut c.expected, &mut c.advice]
            .into_iter()
            .flatten()
        {
            *s = scrubber.scrub(s);
        }
    }
}

/// `--redact` for `fleet`: every host's report redacted, its name replaced by `[redacted
/// host N]` (N its place in the fleet, so rows stay apart) and every host's secrets scrubbed
/// from file names, differences and errors.
pub fn redact_fleet(fleet: &mut Fleet) {
    // `fleet::Keep::Reports` keeps every host's report for this.
    let mut all = secrets(fleet.hosts.iter().filter_map(|h| h.spec.as_deref()));
    all.extend(fleet.hosts.iter().map(|h| h.name.clone()));
    all.retain(|s| s != REDACTED && s.trim().chars().count() >= 2);
    // One search over every host's secrets serves every string of the fleet.
    let scrubber = Scrubber::new(&all);
    let mut names = std::collections::HashMap::new();
    for (i, h) in fleet.hosts.iter_mut().enumerate() {
        let new = format!("[redacted host {}]", i + 1);
        names.insert(std::mem::replace(&mut h.name, new.clone()), new);
        h.file = scrubber.scrub(&h.file.to_string_lossy()).into();
        if let Some(v) = h.verify.as_mut() {
            scrub_verify(v, &scrubber);
        }
        if let Some(spec) = h.spec.as_deref_mut() {
            redact(spec);
            h.row = crate::fleet::Row::of(spec);
        }
    }
    let rename = |n: &mut String| {
        *n = names
            .get(n.as_str())
            .cloned()
            .unwrap_or_else(|| scrubber.scrub(n));
    };
    for c in &mut fleet.configurations {
        rename(&mut c.example);
    }
    for o in &mut fleet.odd_ones_out {
        rename(&mut o.host);
        o.file = scrubber.scrub(&o.file.to_string_lossy()).into();
        scrub_changes(&mut o.changes, &scrubber);
        scrub_changes(&mut o.unknown_on_one_side, &scrubber);
    }
    for d in &mut fleet.duplicate_names {
        rename(&mut d.host);
        for f in &mut d.files {
            *f = scrubber.scrub(&f.to_string_lossy()).into();
        }
    }
    for e in &mut fleet.errors {
        e.file = scrubber.scrub(&e.file.to_string_lossy()).into();
        e.error = scrubber.scrub(&e.error);
    }
}

fn scrub_value(v: &mut Value, scrubber: &Scrubber) {
    match v {
        Value::String(s) => *s = scrubber.scrub(s),
        Value::Array(a) => a.iter_mut().for_each(|x| scrub_value(x, scrubber)),
        Value::Object(m) => m.values_mut().for_each(|x| scrub_value(x, scrubber)),
        _ => {}
    }
}

/// Scrubs `secrets` (as whole tokens), MAC addresses and UUIDs out of free text.
pub fn scrub_text(text: &str, secrets: &[String]) -> String {
    Scrubber::new(secrets).scrub(text)
}

/// The secrets of one report, searched all at once: one pass over each string finds every
/// secret in it (Aho-Corasick), so redacting thousands of serials out of thousands of
/// strings is linear in the text, not text × secrets.
pub struct Scrubber {
    /// Leftmost-longest over every secret of two characters or more; `None` without any.
    finder: Option<AhoCorasick>,
}

impl Scrubber {
    /// Prepares the search for `secrets`; one-character secrets are ignored (they would
    /// take letters out of every word).
    pub fn new(secrets: &[String]) -> Self {
        let mut kept: Vec<&str> = secrets
            .iter()
            .map(String::as_str)
            .filter(|s| s.trim().chars().count() >= 2)
            .collect();
        kept.sort_unstable();
        kept.dedup();
        let finder = if kept.is_empty() {
            None
        } else {
            // Anchored searches too: the next-longest secret at the same place.
            AhoCorasick::builder()
                .match_kind(MatchKind::LeftmostLongest)
                .start_kind(StartKind::Both)
                .build(&kept)
                .ok()
        };
        Scrubber { finder }
    }

    /// `text` with every secret that stands as a whole token, every MAC address and every
    /// UUID replaced by `[redacted]`.
    pub fn scrub(&self, text: &str) -> String {
        if text == REDACTED {
            return text.to_string();
        }
        match &self.finder {
            Some(f) => replace_shapes(&replace_tokens(text, f)),
            None => replace_shapes(text),
        }
    }
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric()
}

/// True when `hay[start..end]` is not part of a longer word, so a host name `ws` is taken
/// out of "host ws is down" but not out of "rows".
fn is_token(hay: &str, start: usize, end: usize) -> bool {
    let needle = &hay[start..end];
    let before = hay[..start].chars().next_back();
    let after = hay[end..].chars().next();
    let bounded_left = !(before.is_some_and(is_word) && needle.starts_with(is_word));
    let bounded_right = !(after.is_some_and(is_word) && needle.ends_with(is_word));
    bounded_left && bounded_right
}

/// Replaces each secret found by `finder` that stands as a whole token: at each place the
/// longest secret that does, so a serial containing a shorter secret goes whole.
fn replace_tokens(hay: &str, finder: &AhoCorasick) -> String {
    let mut out = String::with_capacity(hay.len());
    let (mut last, mut at) = (0, 0);
    while let Some(m) = finder.find(Input::new(hay).span(at..hay.len())) {
        let start = m.start();
        let mut end = Some(m.end());
        // Longest first; where it runs into a word, the next-longest secret at `start`.
        while let Some(e) = end {
            if is_token(hay, start, e) {
                break;
            }
            end = finder
                .find(Input::new(hay).span(start..e - 1).anchored(Anchored::Yes))
                .map(|m| m.end());
        }
        match end {
            Some(e) => {
                out.push_str(&hay[last..start]);
                out.push_str(REDACTED);
                last = e;
                at = e;
            }
            // Matches start on a character boundary; the next search starts one byte on.
            None => at = start + 1,
        }
    }
    out.push_str(&hay[last..]);
    out
}

/// Replaces MAC addresses (`aa:bb:cc:dd:ee:ff`, also with `-`) and UUIDs (8-4-4-4-12 hex).
fn replace_shapes(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut last = 0;
    while i < b.len() {
        let left_ok = i == 0 || !b[i - 1].is_ascii_alphanumeric();
        let len = if left_ok { shape_len(&b[i..]) } else { None };
        match len {
            Some(n) => {
                out.push_str(&text[last..i]);
                out.push_str(REDACTED);
                i += n;
                last = i;
            }
            None => i += 1,
        }
    }
    out.push_str(&text[last..]);
    out
}

/// Length of a MAC or UUID starting at `b[0]`, if one does and it ends at a word boundary.
fn shape_len(b: &[u8]) -> Option<usize> {
    let groups = |lens: &[usize], seps: &[u8]| -> Option<usize> {
        let mut i = 0;
        let mut sep_used = None;
        for (k, &n) in lens.iter().enumerate() {
            if k > 0 {
                let c = *b.get(i)?;
                if !seps.contains(&c) || sep_used.is_some_and(|s| s != c) {
                    return None;
                }
                sep_used = Some(c);
                i += 1;
            }
            if b.len() < i + n || !b[i..i + n].iter().all(u8::is_ascii_hexdigit) {
                return None;
            }
            i += n;
        }
        match b.get(i) {
            Some(c) if c.is_ascii_alphanumeric() => None,
            _ => Some(i),
        }
    };
    groups(&[8, 4, 4, 4, 12], b"-").or_else(|| groups(&[2; 6], b":-"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_what_redact_hides() {
        let mut spec = Spec {
            hostname: Some("z8-07".into()),
            ..Spec::default()
        };
        spec.system.serial = Some("CZC9123ABC".into());
        spec.drives.push(crate::spec::Drive {
            serial: Some("S4EWNX0M123456".into()),
            ..Default::default()
        });
        let found = secrets([&spec]);
        assert_eq!(found, ["S4EWNX0M123456", "CZC9123ABC", "z8-07"]);
        redact(&mut spec);
        let text = serde_json::to_string(&spec).unwrap();
        for s in &found {
            assert!(!text.contains(s.as_str()), "{s} left in {text}");
        }
    }

    #[test]
    fn secrets_of_two_reports_are_each_listed_once_longest_first() {
        let mut before = Spec {
            hostname: Some("z8-07".into()),
            ..Spec::default()
        };
        before.system.serial = Some("CZC9123ABC".into());
        let mut after = before.clone();
        after.gpus.push(crate::spec::Gpu {
            serial: Some("1324919060315".into()),
            ..Default::default()
        });
        assert_eq!(
            secrets([&before, &after]),
            ["1324919060315", "CZC9123ABC", "z8-07"]
        );
    }

    #[test]
    fn tokens_are_whole_words() {
        let s = vec!["ws".to_string()];
        assert_eq!(
            scrub_text("host ws: rows ws", &s),
            "host [redacted]: rows [redacted]"
        );
        assert_eq!(scrub_text("rows", &s), "rows");
        assert_eq!(
            scrub_text("/captures/ws/sys", &s),
            "/captures/[redacted]/sys"
        );
    }

    #[test]
    fn longest_secret_at_a_place_and_shorter_ones_where_it_runs_into_a_word() {
        let s: Vec<String> = ["ws", "ws-1", "AB12", "AB1234"]
            .iter()
            .map(|x| x.to_string())
            .collect();
        assert_eq!(scrub_text("on ws-1 now", &s), "on [redacted] now");
        // "ws-1" runs into "x": the shorter "ws" still stands as a token.
        assert_eq!(scrub_text("ws-1x", &s), "[redacted]-1x");
        assert_eq!(
            scrub_text("AB1234 AB12 AB123", &s),
            "[redacted] [redacted] AB123"
        );
        // Non-ASCII around and inside secrets.
        let u = vec!["Ünit-7".to_string()];
        assert_eq!(scrub_text("é Ünit-7 é", &u), "é [redacted] é");
        assert_eq!(scrub_text("éÜnit-7", &u), "éÜnit-7");
        // One-character secrets are ignored.
        assert_eq!(scrub_text("a b", &["a".to_string()]), "a b");
    }

    #[test]
    fn macs_and_uuids() {
        assert_eq!(
            scrub_text("eth0 3c:ec:ef:12:34:56 up", &[]),
            "eth0 [redacted] up"
        );
        assert_eq!(scrub_text("3C-EC-EF-12-34-56", &[]), "[redacted]");
        assert_eq!(
            scrub_text("GPU-5e0b3a66-7b1c-4a3e-9f0e-2d6a3c4b5e6f", &[]),
            "GPU-[redacted]"
        );
        // Times and PCI addresses look a little alike but are not MACs.
        assert_eq!(
            scrub_text("0000:3b:00.0 at 12:34:56", &[]),
            "0000:3b:00.0 at 12:34:56"
        );
        // Mixed separators are not a MAC.
        assert_eq!(scrub_text("aa:bb-cc:dd:ee:ff", &[]), "aa:bb-cc:dd:ee:ff");
    }
}
