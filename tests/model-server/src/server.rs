//! Listening and serving connections: HTTP/1.1 or HTTP/2 on each (h2c on plain HTTP, ALPN
//! on HTTPS), and dropping a connection when a handler asks to.

use crate::app::{Abort, App, router};
use crate::failures::Failures;
use crate::policy::Policy;
use crate::stats::Stats;
use crate::tls;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::TlsAcceptor;
use tower::ServiceExt;

/// How long a TLS handshake may take.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// Everything the server needs to start.
#[derive(Debug)]
pub struct Config {
    /// The address to listen on.
    pub listen: SocketAddr,
    /// The model name served.
    pub model: String,
    /// The bearer token required, if any.
    pub api_key: Option<String>,
    /// The reply policy.
    pub policy: Policy,
    /// The failures to inject.
    pub failures: Failures,
    /// HTTPS with this certificate chain and key (PEM files).
    pub tls: Option<(PathBuf, PathBuf)>,
    /// Stop when stdin closes.
    pub exit_on_stdin_eof: bool,
}

/// A server bound to its address, not yet serving.
pub struct Bound {
    listener: TcpListener,
    addr: SocketAddr,
    tls: Option<TlsAcceptor>,
    app: Arc<App>,
    exit_on_stdin_eof: bool,
}

impl Bound {
    /// Loads the TLS files (if any) and binds the listener.
    pub async fn bind(config: Config) -> anyhow::Result<Self> {
        let tls = match &config.tls {
            Some((cert, key)) => Some(tls::acceptor(cert, key)?),
            None => None,
        };
        let listener = TcpListener::bind(config.listen).await?;
        let addr = listener.local_addr()?;
        let app = Arc::new(App {
            model: config.model,
            api_key: config.api_key,
            policy: config.policy,
            failures: config.failures,
            stats: Stats::default(),
        });
        Ok(Bound {
            listener,
            addr,
            tls,
            app,
            exit_on_stdin_eof: config.exit_on_stdin_eof,
        })
    }

    /// The base URL: `http://ADDR` or `https://ADDR`.
    pub fn url(&self) -> String {
        let scheme = if self.tls.is_some() { "https" } else { "http" };
        format!("{scheme}://{}", self.addr)
    }

    /// The state the handlers share (its stats, for one).
    pub fn app(&self) -> Arc<App> {
        self.app.clone()
    }

    /// Whether the server should stop when stdin closes.
    pub fn exit_on_stdin_eof(&self) -> bool {
        self.exit_on_stdin_eof
    }

    /// Prints `listening on URL` to stdout, flushed.
    pub fn announce(&self) -> anyhow::Result<()> {
        let mut out = std::io::stdout().lock();
        writeln!(out, "listening on {}", self.url())?;
        out.flush()?;
        Ok(())
    }

    /// Serves until `stop` completes; connections still open then are dropped.
    pub async fn run(self, stop: impl Future<Output = ()>) -> anyhow::Result<()> {
        let router = router(self.app);
        tokio::pin!(stop);
        loop {
            tokio::select! {
                accepted = self.listener.accept() => {
                    // Errors such as running out of file descriptors pass; keep serving.
                    let Ok((tcp, _)) = accepted else {
                        tokio::time::sleep(Duration::from_millis(10)).await;
                        continue;
                    };
                    tokio::spawn(connection(tcp, self.tls.clone(), router.clone()));
                }
                () = &mut stop => return Ok(()),
            }
        }
    }
}

/// Serves one TCP connection, over TLS when an acceptor is given.
async fn connection(tcp: TcpStream, tls: Option<TlsAcceptor>, router: Router) {
    let _ = tcp.set_nodelay(true);
    match tls {
        None => serve(tcp, router).await,
        Some(acceptor) => {
            if let Ok(Ok(stream)) =
                tokio::time::timeout(HANDSHAKE_TIMEOUT, acceptor.accept(tcp)).await
            {
                serve(stream, router).await;
            }
        }
    }
}

/// Serves HTTP/1.1 or HTTP/2 (by the client's preface) on `io` until it closes or a handler
/// asks for the connection to be dropped.
async fn serve<I>(io: I, router: Router)
where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let abort = Abort::default();
    let signal = abort.0.clone();
    let service = router.map_request(move |mut request: hyper::Request<Incoming>| {
        request.extensions_mut().insert(abort.clone());
        request
    });
    let builder = auto::Builder::new(TokioExecutor::new());
    let connection = builder.serve_connection(TokioIo::new(io), TowerToHyperService::new(service));
    tokio::select! {
        _ = connection => {}
        () = signal.notified() => {}
    }
}
