//! `rigcheck schema [NAME]`: the JSON Schema of one of rigcheck's JSON outputs, from the
//! library's list (`rigcheck::schema`); without a name the outputs are listed, and `--write
//! DIR` writes every schema as `DIR/NAME.schema.json` (how docs/schema/ is made).

use std::process::ExitCode;

use crate::cli::{GlobalArgs, SchemaArgs};
use rigcheck::error::Error;
use rigcheck::io::{emit, write_atomic};
use rigcheck::schema::{self, DOCUMENTS};

/// Prints one schema, the list, or writes every schema into a directory. The schemas name
/// no machine, so `--redact` holds as it is.
pub fn exec(args: &SchemaArgs, global: &GlobalArgs) -> Result<ExitCode, Error> {
    super::plain_output(
        "schema",
        global,
        "prints what rigcheck writes, which does not depend on a machine; leave it out",
    )?;
    if let Some(dir) = &args.write {
        std::fs::create_dir_all(dir).map_err(|source| Error::Io {
            path: dir.clone(),
            source,
        })?;
        for d in DOCUMENTS {
            write_atomic(&dir.join(d.file_name()), d.schema_text().as_bytes(), true)?;
        }
        eprintln!(
            "rigcheck: wrote {} schemas into {}",
            DOCUMENTS.len(),
            dir.display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    let text = match &args.name {
        // clap took only names of the list.
        Some(name) => schema::text(name).unwrap_or_default(),
        None => {
            let width = DOCUMENTS.iter().map(|d| d.name.len()).max().unwrap_or(0);
            DOCUMENTS
                .iter()
                .map(|d| format!("{:width$}  {}\n", d.name, d.written_by.replace('`', "")))
                .collect()
        }
    };
    emit(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
