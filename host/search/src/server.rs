//! A retrieval server speaking GEM's protocol over a local index, so a trainer that already
//! talks to GEM's server (`SEARCH_URL=http://host:port/retrieve`) can use geode's BM25 index,
//! and so the remote backend is tested against a real process. Run by `geode-search-server`.

use crate::index::LocalIndex;
use crate::protocol::{Document, QueryRequest, RETRIEVE_PATH, RetrievalResponse, Scored};
use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use std::sync::Arc;

/// What the server searches and its default `topk` (for requests without one).
#[derive(Debug, Clone)]
pub struct Served {
    /// The index searched.
    pub index: Arc<LocalIndex>,
    /// Passages per request when the request gives no `topk` (or 0).
    pub default_topk: u64,
}

/// The server's routes: `POST /retrieve`.
pub fn router(served: Served) -> Router {
    Router::new()
        .route(RETRIEVE_PATH, post(retrieve))
        .with_state(served)
}

/// Serves `served` on `listener` until the process ends.
pub async fn serve(listener: tokio::net::TcpListener, served: Served) -> std::io::Result<()> {
    axum::serve(listener, router(served)).await
}

fn refuse(status: StatusCode, message: String) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        message,
    )
        .into_response()
}

async fn retrieve(State(served): State<Served>, body: Bytes) -> Response {
    let request: QueryRequest = match rmp_serde::from_slice(&body) {
        Ok(request) => request,
        Err(e) => {
            return refuse(
                StatusCode::BAD_REQUEST,
                format!("expected a msgpack map {{\"query\", \"topk\", \"return_scores\"}}: {e}"),
            );
        }
    };
    let topk = request
        .topk
        .filter(|k| *k > 0)
        .unwrap_or(served.default_topk);
    let topk = usize::try_from(topk).unwrap_or(usize::MAX);
    let index = served.index.clone();
    let query = request.query.clone();
    let hits = tokio::task::spawn_blocking(move || index.search(&query, topk)).await;
    let hits = match hits {
        Ok(Ok(hits)) => hits,
        Ok(Err(e)) => return refuse(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
        Err(e) => {
            return refuse(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("search failed: {e}"),
            );
        }
    };
    let result = hits
        .into_iter()
        .map(|hit| Scored {
            document: Document {
                id: hit.id.into(),
                contents: hit.contents,
            },
            score: request.return_scores.then_some(f64::from(hit.score)),
        })
        .collect();
    match rmp_serde::to_vec_named(&RetrievalResponse { result }) {
        Ok(bytes) => ([(header::CONTENT_TYPE, "application/msgpack")], bytes).into_response(),
        Err(e) => refuse(StatusCode::INTERNAL_SERVER_ERROR, format!("encoding: {e}")),
    }
}
