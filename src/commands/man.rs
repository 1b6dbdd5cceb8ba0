//! `rigcheck man [COMMAND]`: the man page, rendered from the clap command (clap_mangen), so
//! it lists exactly the options the program takes, with the EXIT STATUS and EXAMPLES
//! sections clap does not know about.

use std::process::ExitCode;

use crate::cli::{self, GlobalArgs, ManArgs};
use rigcheck::error::Error;
use rigcheck::io::emit;
use rigcheck::outcome::{EXIT_ERROR, EXIT_FAIL, EXIT_INCOMPLETE, EXIT_PASS};

/// Prints `rigcheck(1)`, `rigcheck-COMMAND(1)`, or `rigcheck-COMMAND-SUB(1)` for a command
/// under another (each page's SEE ALSO names its commands' pages, so a packager follows them
/// to every page); an unknown command is a usage error. The page names no machine, so
/// `--redact` holds as it is.
pub fn exec(args: &ManArgs, global: &GlobalArgs) -> Result<ExitCode, Error> {
    super::plain_output(
        "man",
        global,
        "prints a page that does not depend on a machine; leave it out",
    )?;
    let mut page = cli::command().disable_help_subcommand(true);
    // Building sets each subcommand's display name (`rigcheck-profile-new`) and its global
    // options, as its own page needs them.
    page.build();
    for (depth, name) in args.command.iter().enumerate() {
        page = match page.find_subcommand(name) {
            Some(sub) => sub.clone().version(env!("RIGCHECK_VERSION")),
            None => {
                let names: Vec<&str> = page.get_subcommands().map(|s| s.get_name()).collect();
                let under = match depth {
                    0 => String::new(),
                    _ => format!(" under '{}'", args.command[..depth].join(" ")),
                };
                return Err(Error::Usage(if names.is_empty() {
                    format!("man: no command '{name}'{under}: it has no commands")
                } else {
                    format!(
                        "man: no command '{name}'{under}; use one of {}",
                        names.join(", ")
                    )
                }));
            }
        };
    }
    let mut buf = Vec::new();
    clap_mangen::Man::new(page)
        .render(&mut buf)
        .map_err(Error::output)?;
    let roff = String::from_utf8_lossy(&buf);
    emit(with_sections(&roff, &args.command.join(" ")).as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// The page clap_mangen rendered, with EXIT STATUS and EXAMPLES before its VERSION section
/// (where man-pages(7) puts them: after OPTIONS, before the trailer), or at its end.
fn with_sections(page: &str, command: &str) -> String {
    // A command without entries of its own gets the main page's, which hold for all.
    let codes = exit_status(command)
        .or_else(|| exit_status(""))
        .unwrap_or_default();
    let lines = examples(command)
        .or_else(|| examples(""))
        .unwrap_or_default();
    let mut extra = String::from(".SH \"EXIT STATUS\"\n");
    for (code, meaning) in codes {
        extra.push_str(&format!(".TP\n\\fB{code}\\fR\n{}\n", roff_text(meaning)));
    }
    extra.push_str(".SH EXAMPLES\n");
    for (line, meaning) in lines {
        extra.push_str(&format!(
            ".TP\n\\fB{}\\fR\n{}\n",
            roff_text(line),
            roff_text(meaning)
        ));
    }
    match page.find("\n.SH VERSION") {
        Some(at) => format!("{}\n{extra}{}", &page[..at], &page[at + 1..]),
        None => format!("{page}{extra}"),
    }
}

/// Text as one roff line: backslashes and hyphens escaped (`\-` is the minus a reader can
/// copy), and a leading `.` or `'` kept from being read as a request.
fn roff_text(text: &str) -> String {
    let escaped = text.replace('\\', "\\\\").replace('-', "\\-");
    if escaped.starts_with(['.', '\'']) {
        format!("\\&{escaped}")
    } else {
        escaped
    }
}

/// The exit codes of `command` (`""` the main page, `profile new` a command under another)
/// and what each means there: the README's table "Exit codes", from the codes in `outcome`.
pub fn exit_status(command: &str) -> Option<Vec<(u8, &'static str)>> {
    Some(match command {
        "" => vec![
            (EXIT_PASS, "Everything asked for holds: the report was printed, the machine passes its order or its preflight, no hardware changed."),
            (EXIT_FAIL, "A check failed: verify or preflight found a requirement not met, a fleet host failed, or diff saw hardware change."),
            (EXIT_ERROR, "Usage error or bad input: an unknown option, a profile, report or sysroot that cannot be read. One line on standard error names the file or option and what is wrong."),
            (EXIT_INCOMPLETE, "INCOMPLETE (verify, preflight, diff, fleet, bench): nothing failed, but something asked for could not be read, so it is neither a pass nor a failure."),
        ],
        "inventory" => vec![
            (EXIT_PASS, "The report was printed."),
            (EXIT_ERROR, "Usage or input error."),
        ],
        "capture" => vec![
            (EXIT_PASS, "The machine was recorded."),
            (EXIT_ERROR, "Usage error, DIR not empty without --force, or interrupted (nothing is left behind)."),
        ],
        "verify" => vec![
            (EXIT_PASS, "Every requirement passes (unknown ones too with --allow-unknown, as long as at least one line passes)."),
            (EXIT_FAIL, "A requirement fails (or is unknown, with --strict)."),
            (EXIT_ERROR, "Usage error, bad profile, bad sysroot."),
            (EXIT_INCOMPLETE, "INCOMPLETE: none fails, but one could not be read."),
        ],
        "profiles" | "profiles show" => vec![
            (EXIT_PASS, "Listed or shown."),
            (EXIT_ERROR, "No such built-in profile."),
        ],
        "profile" | "profile new" => vec![
            (EXIT_PASS, "The profile was written."),
            (EXIT_ERROR, "Usage error, or -o FILE exists without --force."),
        ],
        "diff" => vec![
            (EXIT_PASS, "No hardware change."),
            (EXIT_FAIL, "A hardware fact known in both reports changed."),
            (EXIT_ERROR, "Usage error, unreadable report."),
            (EXIT_INCOMPLETE, "INCOMPLETE: no change seen, but hardware facts are known in one report only."),
        ],
        "preflight" => vec![
            (EXIT_PASS, "Ready (warnings allowed)."),
            (EXIT_FAIL, "A check failed."),
            (EXIT_ERROR, "Usage error (bad size or version), bad sysroot."),
            (EXIT_INCOMPLETE, "INCOMPLETE: none failed, but a fact could not be read."),
        ],
        "sheet" => vec![
            (EXIT_PASS, "The sheet was written."),
            (EXIT_ERROR, "Usage error, bad report or profile, -o FILE exists, an -o name whose extension is not .html or .md (without --format) or contradicts --format, a terminal without -o or --stdout."),
        ],
        "fleet" => vec![
            (EXIT_PASS, "Every host passes."),
            (EXIT_FAIL, "A host fails its profile or preflight, or a report is unreadable."),
            (EXIT_ERROR, "Usage error, a path given does not exist, no reports."),
            (EXIT_INCOMPLETE, "INCOMPLETE: no host fails, but a host's check is incomplete."),
        ],
        "bench" => vec![
            (EXIT_PASS, "Measured."),
            (EXIT_ERROR, "Usage error, --sysroot, or gpu in a build without the GPU benchmark."),
            (EXIT_INCOMPLETE, "The one benchmark named (disk, gpu) measured nothing."),
        ],
        "completions" => vec![
            (EXIT_PASS, "The script was printed."),
            (EXIT_ERROR, "Usage error, no such shell."),
        ],
        "man" => vec![
            (EXIT_PASS, "The page was printed."),
            (EXIT_ERROR, "Usage error, no such command."),
        ],
        "schema" => vec![
            (EXIT_PASS, "The schema was printed, the names listed, or the schemas written."),
            (EXIT_ERROR, "Usage error, no such name, DIR cannot be written."),
        ],
        _ => return None,
    })
}

/// Command lines worth copying for `command`, each with what it does.
pub fn examples(command: &str) -> Option<Vec<(&'static str, &'static str)>> {
    Some(match command {
        "" => vec![
            ("rigcheck", "What is in this machine: system, CPUs, memory, GPUs, drives, and what needs a look."),
            ("rigcheck profiles", "The built-in orders, to check a machine against or to copy."),
            ("rigcheck verify --profile hp-z8-g4-dual-rtx6000", "Does this machine match its order? One line per ordered item, then PASS, FAIL or INCOMPLETE."),
            ("rigcheck preflight --gpus 2 --data /data", "Is it ready to train on two GPUs, with the dataset under /data?"),
            ("rigcheck sheet -o z8.html", "A spec sheet to hand on (-o z8.md writes Markdown)."),
            ("rigcheck fleet reports/ --profile order.toml", "One row per host of the JSON reports under reports/, each checked against order.toml."),
            ("rigcheck -f json > host.json", "The report as JSON, for diff, fleet and sheet --report."),
        ],
        "inventory" => vec![
            ("rigcheck inventory -s gpu,memory", "Only the GPUs and the memory."),
            ("rigcheck inventory --redact -f markdown", "Markdown to paste into a ticket, without serial numbers or the host name."),
            ("rigcheck inventory -f prometheus --profile order.toml", "Metrics for node_exporter's textfile collector, with the order check."),
        ],
        "capture" => vec![
            ("rigcheck capture z8-capture", "Record this machine into z8-capture."),
            ("rigcheck --sysroot z8-capture verify --profile order.toml", "Check the recorded machine elsewhere, as if on it."),
        ],
        "verify" => vec![
            ("rigcheck verify --profile hp-z8-g4-dual-rtx6000", "Check this machine against a built-in order."),
            ("rigcheck verify -p order.toml -f junit > verify.xml", "The same for CI, one test case per requirement."),
            ("rigcheck verify -p order.toml --sysroot z8-capture --strict", "Check a recorded machine; what cannot be read counts as a failure."),
        ],
        "profiles" | "profiles show" => vec![
            ("rigcheck profiles", "The built-in profiles, one a line."),
            ("rigcheck profiles show hp-z8-g4-dual-rtx6000 > order.toml", "A profile to edit into your own order."),
        ],
        "profile" | "profile new" => vec![
            ("rigcheck profile new -o golden.toml", "The order this machine passes: a golden machine becomes the order of a fleet."),
            ("rigcheck profile new --sysroot z8-capture --name z8 -o z8.toml", "The same from a recorded machine."),
        ],
        "diff" => vec![
            ("rigcheck diff before.json after.json", "What changed between two reports (rigcheck -f json)."),
            ("rigcheck diff old-capture new-capture -f json", "Between two recorded machines, as JSON."),
        ],
        "preflight" => vec![
            ("rigcheck preflight", "Ready to train on one GPU?"),
            ("rigcheck preflight --gpus 4 --min-free-vram 20GiB --data /data", "Four GPUs with 20 GiB free each, and the dataset's disk."),
            ("rigcheck preflight --gpus 0 -f json", "A CPU-only job, as JSON."),
        ],
        "sheet" => vec![
            ("rigcheck sheet -o z8.html", "A self-contained HTML sheet; the name's extension sets the format."),
            ("rigcheck sheet -o z8.md --profile order.toml", "Markdown, with the order check."),
            ("rigcheck sheet --report host.json -f markdown --stdout", "From a saved report, printed."),
        ],
        "fleet" => vec![
            ("rigcheck fleet reports/", "One row per host, and the odd ones out."),
            ("rigcheck fleet reports/ -p order.toml -f prometheus", "Each host checked against its order, as metrics."),
            ("rigcheck fleet reports/ -p order.toml -f ndjson > fleet.ndjson", "One JSON line per host, with its order check, for DuckDB, ClickHouse or Spark."),
        ],
        "bench" => vec![
            ("rigcheck bench cpu --seconds 5", "Data-loader images per second on 1, 2, 4 … N threads."),
            ("rigcheck bench disk --data /data", "Sequential read where the dataset lives."),
            ("rigcheck bench -f json > bench.json", "Every benchmark as JSON; rigcheck sheet --report bench.json -o bench.html charts it."),
        ],
        "completions" => vec![
            ("rigcheck completions bash > ~/.local/share/bash-completion/completions/rigcheck", "Completion for bash, including the built-in profile names."),
            ("rigcheck completions zsh > ~/.zfunc/_rigcheck", "For zsh (with ~/.zfunc in fpath)."),
        ],
        "man" => vec![
            ("rigcheck man | man -l -", "Read this page."),
            ("rigcheck man verify | man -l -", "The page of one command."),
        ],
        "schema" => vec![
            ("rigcheck schema", "The JSON outputs that have a schema, and what writes each."),
            ("rigcheck schema report > report.schema.json", "The JSON Schema of the report (rigcheck -f json), to validate reports at ingestion."),
            ("rigcheck schema --write schemas/", "Every schema, as schemas/NAME.schema.json."),
        ],
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use clap::Parser;

    /// Every command path that has a page: the main page and each command under it.
    fn pages() -> Vec<String> {
        let cmd = cli::command();
        let mut out = vec![String::new()];
        for sub in cmd.get_subcommands() {
            out.push(sub.get_name().to_string());
            for under in sub.get_subcommands() {
                out.push(format!("{} {}", sub.get_name(), under.get_name()));
            }
        }
        out
    }

    #[test]
    fn every_example_is_a_command_line_rigcheck_takes() {
        for page in pages() {
            let examples = examples(&page).unwrap_or_else(|| panic!("no examples: {page:?}"));
            assert!(!examples.is_empty(), "{page:?}");
            for (line, _) in examples {
                // The rigcheck part of each pipeline, without its redirection.
                for part in line
                    .split(['|', '>'])
                    .filter(|p| p.trim().starts_with("rigcheck"))
                {
                    let words: Vec<&str> = part.split_whitespace().collect();
                    if let Err(e) = cli::Cli::try_parse_from(&words) {
                        panic!("{page:?}: `{part}`: {e}");
                    }
                }
            }
        }
    }

    #[test]
    fn every_page_has_its_own_exit_status() {
        for page in pages() {
            let status = exit_status(&page).unwrap_or_else(|| panic!("no exit status: {page:?}"));
            let codes: Vec<u8> = status.iter().map(|(c, _)| *c).collect();
            assert!(
                codes.contains(&EXIT_PASS) && codes.contains(&EXIT_ERROR),
                "{page:?}"
            );
            assert!(codes.windows(2).all(|w| w[0] < w[1]), "{page:?}: {codes:?}");
        }
    }

    #[test]
    fn roff_text_escapes_what_roff_would_read() {
        assert_eq!(roff_text("-o x.md"), "\\-o x.md");
        assert_eq!(roff_text(".md"), "\\&.md");
        assert_eq!(roff_text("a\\b"), "a\\\\b");
    }
}
