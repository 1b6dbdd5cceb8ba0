//! `rigcheck completions SHELL`: a completion script for the shell, from the same clap
//! command that parses the arguments, so it never falls behind them; `--profile` completes
//! to the built-in profile names and to file names.

use std::process::ExitCode;

use clap_complete::Shell;

use crate::cli::{self, CompletionsArgs, GlobalArgs};
use rigcheck::error::Error;
use rigcheck::io::emit;
use rigcheck::profile::BUILTIN;

/// Prints the completion script of `args.shell`. It names no machine, so `--redact` holds
/// as it is.
pub fn exec(args: &CompletionsArgs, global: &GlobalArgs) -> Result<ExitCode, Error> {
    super::plain_output(
        "completions",
        global,
        "prints a script that does not depend on a machine; leave it out",
    )?;
    let mut cmd = visible_only(cli::command());
    let mut buf = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "rigcheck", &mut buf);
    let script = String::from_utf8_lossy(&buf);
    emit(with_profile_files(args.shell, &script).as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// The command line as a shell should complete it: each command with only the options it
/// takes. clap_complete offers hidden options too, and a command's hidden copies of the
/// global options are the ones it refuses (`bench --sysroot`), so they are left out here:
/// the tree is built (globals passed down), then each command is made again from its
/// visible arguments, none global any more.
fn visible_only(mut cmd: clap::Command) -> clap::Command {
    cmd.build();
    rebuilt(&cmd)
}

fn rebuilt(cmd: &clap::Command) -> clap::Command {
    let mut out = cmd.clone();
    let ids: Vec<String> = cmd
        .get_arguments()
        .map(|a| a.get_id().to_string())
        .collect();
    for id in ids {
        out = out.mut_arg(id.as_str(), |a| a.global(false));
    }
    // A command made again holds what it had, less its hidden arguments.
    let mut fresh = clap::Command::new(cmd.get_name().to_string());
    if let Some(about) = cmd.get_about() {
        fresh = fresh.about(about.clone());
    }
    if let Some(v) = cmd.get_version() {
        fresh = fresh.version(v.to_string());
    }
    for a in out.get_arguments().filter(|a| !a.is_hide_set()) {
        fresh = fresh.arg(a.clone());
    }
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        fresh = fresh.subcommand(rebuilt(sub));
    }
    fresh
        .disable_help_subcommand(true)
        .disable_help_flag(true)
        .disable_version_flag(true)
}

/// The script with file names offered beside the built-in profile names wherever
/// `--profile` is completed. clap_complete writes a value's possible values or file names,
/// never both; `--profile` takes either (`cli::ProfileName`), so the word list it writes
/// for the names is widened here, in each shell's own terms.
fn with_profile_files(shell: Shell, script: &str) -> String {
    let names: Vec<&str> = BUILTIN.iter().map(|(name, _)| *name).collect();
    let words = names.join(" ");
    match shell {
        // `compgen -W` lists the names that match, `compgen -f` the files, under the
        // `compopt -o filenames` the script already sets for a file value. The script splits
        // there on newlines only (IFS), so the names are given one a line: clap's
        // space-separated list would come back as a single candidate.
        Shell::Bash => script.replace(
            &format!("$(compgen -W \"{words}\" -- \"${{cur}}\")"),
            &format!(
                "$(compgen -W \"{}\" -- \"${{cur}}\") $(compgen -f -- \"${{cur}}\")",
                names.join("\n")
            ),
        ),
        // `(a b)` completes only those words; `_alternative` offers them and files (after a
        // space: called as written, without the compadd options `_arguments` would add).
        // Only an option's (`--profile=[...]`, `-p+[...]`) list: `profiles show NAME` takes
        // the built-in names alone.
        Shell::Zsh => script
            .lines()
            .map(|line| {
                let line = if line.starts_with("'--profile=[") || line.starts_with("'-p+[") {
                    line.replace(
                        &format!(":({words})'"),
                        &format!(
                            ": _alternative \"profiles\\:built-in profile\\:({words})\" \
                             \"files\\:file\\:_files\"'"
                        ),
                    )
                } else {
                    line.to_string()
                };
                format!("{line}\n")
            })
            .collect(),
        // `-f` (no files) is what keeps fish from offering files after the names.
        // fish's script has no line for a command's positional values: `profiles show`
        // completes to the built-in names from one added here.
        Shell::Fish => {
            let first = format!("-a \"{}\\t", names.first().copied().unwrap_or_default());
            let mut out: String = script
                .lines()
                .map(|line| {
                    if line.contains(&first) {
                        format!("{}\n", line.replacen(" -r -f -a ", " -r -a ", 1))
                    } else {
                        format!("{line}\n")
                    }
                })
                .collect();
            out.push_str(&format!(
                "complete -c rigcheck -n \"__fish_rigcheck_using_subcommand profiles; and \
                 __fish_seen_subcommand_from show\" -f -a \"{words}\"\n"
            ));
            out
        }
        _ => script.to_string(),
    }
}
