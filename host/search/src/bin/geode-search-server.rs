//! `geode-search-server`: GEM's retrieval-server protocol over a local BM25 index.
//!
//! ```sh
//! geode-search-server --corpus ~/data/wiki.jsonl --port 8000   # then SEARCH_URL=http://127.0.0.1:8000/retrieve
//! ```
//!
//! Prints `listening on http://ADDR/retrieve` once it accepts connections (`--port 0` picks a
//! free port) and serves until it is stopped.

use anyhow::Context;
use clap::Parser;
use geode_search::server::{Served, serve};
use geode_search::store::{Corpus, shared_index};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Serves GEM's retrieval protocol (POST msgpack to /retrieve) over a local BM25 index.
#[derive(Parser, Debug)]
#[command(name = "geode-search-server", version)]
struct Args {
    /// A JSONL corpus ({"id", "contents"} per line, the title on the first line of contents);
    /// the shipped corpus when omitted.
    #[arg(long)]
    corpus: Option<PathBuf>,
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// The port (0: any free port).
    #[arg(long, default_value_t = 8000)]
    port: u16,
    /// Passages per request when a request gives no topk.
    #[arg(long, default_value_t = 3)]
    topk: u64,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    anyhow::ensure!(args.topk > 0, "--topk must be positive");
    let corpus = match &args.corpus {
        Some(path) => Corpus::File(path.clone()),
        None => Corpus::Shipped,
    };
    let started = Instant::now();
    let index = shared_index(&corpus).context("loading the index")?;
    eprintln!(
        "geode-search-server: {} passages of {} ready in {:.2?}",
        index.len(),
        index.source(),
        started.elapsed()
    );
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting tokio")?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind((args.host.as_str(), args.port))
            .await
            .with_context(|| format!("listening on {}:{}", args.host, args.port))?;
        let address = listener.local_addr()?;
        println!("listening on http://{address}/retrieve");
        std::io::stdout().flush()?;
        let served = Served {
            index,
            default_topk: args.topk,
        };
        serve(listener, served).await.context("serving")
    })
}
