//! `geode-model-server`: serve a scripted model, or make a test CA (`make-test-ca DIR`).

use clap::Parser;
use geode_model_server::cli::{Cli, Command};
use geode_model_server::{ca, server, shutdown};
use std::process::ExitCode;

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("geode-model-server: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    if let Some(Command::MakeTestCa { dir }) = cli.command {
        return ca::make_test_ca(&dir);
    }
    let config = cli.serve.into_config()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let bound = server::Bound::bind(config).await?;
        bound.announce()?;
        let stop = shutdown::signal(bound.exit_on_stdin_eof())?;
        bound.run(stop).await
    })
}
