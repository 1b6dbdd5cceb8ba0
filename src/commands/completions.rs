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
    let mut cmd = cli::command();
    let mut buf = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "rigcheck", &mut buf);
    let script = String::from_utf8_lossy(&buf);
    emit(with_profile_files(args.shell, &script).as_bytes())?;
    Ok(ExitCode::SUCCESS)
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
        Shell::Zsh => script.replace(
            &format!(":({words})'"),
            &format!(
                ": _alternative \"profiles\\:built-in profile\\:({words})\" \"files\\:file\\:_files\"'"
            ),
        ),
        // `-f` (no files) is what keeps fish from offering files after the names.
        Shell::Fish => {
            let first = format!("-a \"{}\\t", names.first().copied().unwrap_or_default());
            script
                .lines()
                .map(|line| {
                    if line.contains(&first) {
                        format!("{}\n", line.replacen(" -r -f -a ", " -r -a ", 1))
                    } else {
                        format!("{line}\n")
                    }
                })
                .collect()
        }
        _ => script.to_string(),
    }
}
