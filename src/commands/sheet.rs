//! `rigcheck sheet`: a spec sheet (HTML or Markdown) of this machine or a saved report.

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;

use crate::cli::{GlobalArgs, SheetArgs};
use rigcheck::error::Error;
use rigcheck::io::write_output;
use rigcheck::render::sheet::{self, SheetFormat, Verify};
use rigcheck::{probe, profile, redact, verify};

/// Writes the sheet to `-o FILE`, or to stdout when it is not a terminal (or `--stdout`).
/// A file's format follows its name (`.md` Markdown, `.html` HTML) unless `--format` says
/// it; stderr then says what was written.
pub fn exec(args: &SheetArgs, global: &GlobalArgs) -> Result<ExitCode, Error> {
    let given = match (args.format, global.format) {
        (None, None) => None,
        _ => Some(super::pick_format(
            "sheet",
            global,
            args.format,
            SheetFormat::Html,
        )?),
    };
    let file = args.output.as_deref().filter(|p| *p != Path::new("-"));
    let format = match file {
        Some(path) => format_of(path, given)?,
        None => given.unwrap_or(SheetFormat::Html),
    };
    super::no_color("sheet", global)?;
    // clap sees the conflict only when both follow `sheet`; `--sysroot` before it too.
    if args.report.is_some() && global.sysroot.is_some() {
        return Err(Error::Usage(
            "--report: cannot be used with --sysroot; give only one of them".into(),
        ));
    }
    // Standard input can be read once: the second reader would find it empty (or, read
    // first, take the report as a profile).
    if args.report.as_deref() == Some(std::path::Path::new("-"))
        && args.profile.as_deref() == Some("-")
    {
        return Err(Error::Usage(
            "--report - and --profile -: both read standard input, which can be read once; \
             give one of them as a file"
                .into(),
        ));
    }
    // A sheet is a file to keep: 40 KB of HTML scrolling past is no use to anyone.
    if args.output.is_none() && !args.stdout && std::io::stdout().is_terminal() {
        return Err(Error::Usage(
            "sheet: not writing a spec sheet to the terminal; write it to a file with -o FILE, \
             or print it with --stdout"
                .into(),
        ));
    }
    let profile = args.profile.as_deref().map(profile::load).transpose()?;
    let mut spec = match &args.report {
        Some(path) => rigcheck::load_report(path)?,
        None => probe::inventory(&super::open_source(global.sysroot.as_deref())?),
    };
    // The order is checked before redaction: serials are never part of an order, but the
    // check must see the machine as it is.
    let checked = profile.map(|p| {
        let mut report = verify::verify(&spec, &p, false);
        if global.redact {
            redact::redact_verify(&mut report, &redact::secrets([&spec]));
        }
        Verify::from_report(&report)
    });
    if global.redact {
        redact::redact(&mut spec);
    }
    let mut buf = Vec::new();
    let attention = rigcheck::rules::attention(&spec);
    sheet::write(&spec, &attention, checked.as_ref(), format, &mut buf).map_err(Error::output)?;
    write_output(args.output.as_deref(), &buf, args.force)?;
    if let Some(path) = file {
        eprintln!(
            "{}",
            rigcheck::io::error_line(&format!(
                "wrote {} ({}, {} bytes)",
                path.display(),
                format_name(format),
                grouped(buf.len())
            ))
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The format a sheet written to `path` takes: the one its extension names, which must
/// agree with `--format` where that is given. A name with no known extension needs
/// `--format`, so a sheet is never written in a format its name does not promise unasked.
fn format_of(path: &Path, given: Option<SheetFormat>) -> Result<SheetFormat, Error> {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    let named = match ext.as_deref() {
        Some("md" | "markdown") => Some(SheetFormat::Markdown),
        Some("html" | "htm") => Some(SheetFormat::Html),
        _ => None,
    };
    match (named, given) {
        (Some(n), Some(g)) if n != g => Err(Error::Usage(format!(
            "{}: the name says {} but --format is {}; name it .{} or leave --format out",
            path.display(),
            format_name(n),
            super::value_name(&crate::cli::SheetFormat::from(g)),
            extension(g)
        ))),
        (Some(n), _) => Ok(n),
        (None, Some(g)) => Ok(g),
        (None, None) => Err(Error::Usage(format!(
            "{}: {}, so the sheet's format is not known; name it .html or .md, or give \
             --format html or markdown",
            path.display(),
            match ext {
                Some(e) => format!("'.{e}' is not an extension of a sheet"),
                None => "the name has no extension".to_string(),
            }
        ))),
    }
}

/// The format's name in a sentence.
fn format_name(format: SheetFormat) -> &'static str {
    match format {
        SheetFormat::Html => "HTML",
        SheetFormat::Markdown => "Markdown",
    }
}

/// The usual extension of a sheet in `format`.
fn extension(format: SheetFormat) -> &'static str {
    match format {
        SheetFormat::Html => "html",
        SheetFormat::Markdown => "md",
    }
}

/// `n` with its thousands separated by commas: `4,213`.
fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_grouped_in_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(4213), "4,213");
        assert_eq!(grouped(1_234_567), "1,234,567");
    }

    #[test]
    fn the_extension_names_the_format() {
        let md = SheetFormat::Markdown;
        let html = SheetFormat::Html;
        assert_eq!(format_of(Path::new("x.md"), None).ok(), Some(md));
        assert_eq!(format_of(Path::new("x.MARKDOWN"), None).ok(), Some(md));
        assert_eq!(format_of(Path::new("a/x.htm"), None).ok(), Some(html));
        assert_eq!(format_of(Path::new("x.html"), Some(html)).ok(), Some(html));
        assert_eq!(format_of(Path::new("x.txt"), Some(md)).ok(), Some(md));
        assert!(format_of(Path::new("x.md"), Some(html)).is_err());
        assert!(format_of(Path::new("x.txt"), None).is_err());
        assert!(format_of(Path::new("x"), None).is_err());
    }
}
