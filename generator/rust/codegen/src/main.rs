//! Writes clients/rust/src/generated.rs from the OpenAPI 3.0 form of openapi.yaml.
//!
//! `agentic-driver-rust-codegen IN.json OUT.rs`: IN is generator/rust/downconvert.py's output.
//! The code is formatted with prettyplease (pinned here), not the toolchain's rustfmt, so the
//! output depends only on Cargo.lock and two generations are byte-identical.

use std::{env, fs, process::ExitCode};

use progenitor_impl::{GenerationSettings, Generator, InterfaceStyle, TagStyle};

const HEADER: &str = "\
// Generated from openapi.yaml by progenitor (see generator/rust/). DO NOT EDIT.
// @generated
";

fn generate(input: &str) -> Result<String, String> {
    let text = fs::read_to_string(input).map_err(|e| format!("{input}: {e}"))?;
    let spec: openapiv3::OpenAPI = serde_json::from_str(&text).map_err(|e| format!("{input}: {e}"))?;
    let mut settings = GenerationSettings::default();
    settings
        .with_interface(InterfaceStyle::Positional)
        .with_tag(TagStyle::Merged)
        .with_derive("PartialEq");
    let mut generator = Generator::new(&settings);
    let tokens = generator.generate_tokens(&spec).map_err(|e| format!("progenitor: {e}"))?;
    let file: syn::File = syn::parse2(tokens).map_err(|e| format!("progenitor output does not parse: {e}"))?;
    Ok(format!("{HEADER}\n{}", prettyplease::unparse(&file)))
}

fn main() -> ExitCode {
    let args: Vec<String> = env::args().collect();
    let [_, input, output] = args.as_slice() else {
        eprintln!("usage: agentic-driver-rust-codegen IN.json OUT.rs");
        return ExitCode::from(2);
    };
    match generate(input).and_then(|code| fs::write(output, code).map_err(|e| format!("{output}: {e}"))) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("agentic-driver-rust-codegen: {message}");
            ExitCode::FAILURE
        }
    }
}
