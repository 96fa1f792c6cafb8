//! The command line: serving options, or the `make-test-ca` subcommand.

use crate::failures::Failures;
use crate::math::{AnswerTable, MathPolicy};
use crate::policy::Policy;
use crate::server::Config;
use anyhow::{Context, bail};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::net::SocketAddr;
use std::path::PathBuf;

/// `geode-model-server [serve options] | make-test-ca DIR`.
#[derive(Debug, Parser)]
#[command(name = "geode-model-server", version, about)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct Cli {
    /// A subcommand instead of serving.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The options of the server.
    #[command(flatten)]
    pub serve: ServeArgs,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Write DIR/ca.pem (a self-signed CA), DIR/server.pem and DIR/server.key (a certificate
    /// signed by that CA for localhost and 127.0.0.1).
    MakeTestCa {
        /// The directory to write to (created if missing).
        dir: PathBuf,
    },
}

/// Which policy answers chat requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PolicyKind {
    /// Always `--reply TEXT`.
    Constant,
    /// `The answer is \boxed{…}` from `--answers`, right with probability `--p-correct`.
    Math,
    /// Plays GuessTheNumber by bisection.
    Bisect,
    /// A python tool call first, then as `math`.
    ToolMath,
    /// Multi-turn replies from `--answers` (`match` and `replies` per row).
    Script,
    /// A scripted customer of `tau:*` envs: states its goal, gives its facts when asked.
    TauUser,
}

/// The options of the server.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on (port 0: any free port).
    #[arg(long, default_value = "127.0.0.1:0")]
    pub listen: SocketAddr,
    /// The one model name served; requests naming another get 404.
    #[arg(long, required = true)]
    pub model: Option<String>,
    /// Require `Authorization: Bearer KEY`.
    #[arg(long)]
    pub api_key: Option<String>,
    /// The policy that writes replies.
    #[arg(long, value_enum, required = true)]
    pub policy: Option<PolicyKind>,
    /// The reply of `--policy constant`.
    #[arg(long)]
    pub reply: Option<String>,
    /// JSONL with `problem` (or `question`) and `answer` fields, for `math` and `tool-math`.
    #[arg(long)]
    pub answers: Option<PathBuf>,
    /// The probability that `math` and `tool-math` answer right.
    #[arg(long, default_value_t = 1.0)]
    pub p_correct: f64,
    /// Answer every Nth chat request with 429.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub fail_429_every: Option<u64>,
    /// The `Retry-After` seconds of injected 429s.
    #[arg(long, value_name = "SECS", default_value_t = 1)]
    pub retry_after: u64,
    /// Answer every Nth chat request with 500.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub fail_500_every: Option<u64>,
    /// Delay every Nth chat request by `--slow-ms`.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub slow_every: Option<u64>,
    /// The delay of slow requests, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    pub slow_ms: u64,
    /// Answer every Nth chat request with a 200 whose body is not JSON.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub malformed_every: Option<u64>,
    /// Close the connection of every Nth chat request without answering.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub drop_every: Option<u64>,
    /// Answer 400 `context_length_exceeded` when the messages' contents exceed C characters.
    #[arg(long, value_name = "C")]
    pub context_limit_chars: Option<usize>,
    /// Serve HTTPS with this certificate chain (PEM); needs `--tls-key`.
    #[arg(long, requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// The private key (PEM) of `--tls-cert`.
    #[arg(long, requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// Keep running when stdin closes (for a server started in the background with no stdin).
    #[arg(long)]
    pub ignore_stdin: bool,
}

impl ServeArgs {
    /// The server's configuration, with the policy's files loaded.
    pub fn into_config(self) -> anyhow::Result<Config> {
        let policy = self.policy()?;
        let failures = Failures {
            fail_429_every: self.fail_429_every,
            retry_after_secs: self.retry_after,
            fail_500_every: self.fail_500_every,
            slow_every: self.slow_every,
            slow_ms: self.slow_ms,
            malformed_every: self.malformed_every,
            drop_every: self.drop_every,
            context_limit_chars: self.context_limit_chars,
        };
        let tls = self.tls_cert.zip(self.tls_key);
        Ok(Config {
            listen: self.listen,
            model: self.model.context("--model is required")?,
            api_key: self.api_key,
            policy,
            failures,
            tls,
            exit_on_stdin_eof: !self.ignore_stdin,
        })
    }

    fn policy(&self) -> anyhow::Result<Policy> {
        let kind = self.policy.context("--policy is required")?;
        if self.reply.is_some() && kind != PolicyKind::Constant {
            bail!("--reply is only for --policy constant");
        }
        Ok(match kind {
            PolicyKind::Constant => Policy::Constant(
                self.reply
                    .clone()
                    .context("--policy constant needs --reply")?,
            ),
            PolicyKind::Bisect => Policy::Bisect,
            PolicyKind::TauUser => Policy::TauUser,
            PolicyKind::Math => Policy::Math(self.math()?),
            PolicyKind::ToolMath => Policy::ToolMath(self.math()?),
            PolicyKind::Script => Policy::Script(crate::script::Scripts::load(
                self.answers
                    .as_ref()
                    .context("--policy script needs --answers FILE")?,
            )?),
        })
    }

    fn math(&self) -> anyhow::Result<MathPolicy> {
        let path = self
            .answers
            .as_ref()
            .context("this policy needs --answers FILE")?;
        if !(0.0..=1.0).contains(&self.p_correct) {
            bail!("--p-correct must be within [0, 1]");
        }
        Ok(MathPolicy {
            table: AnswerTable::load(path)?,
            p_correct: self.p_correct,
        })
    }
}
