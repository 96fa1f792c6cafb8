//! `geode-mcp-test-server`: a small MCP server over stdio (rmcp) for the tests of `tool:mcp`.
//!
//! ```sh
//! geode-mcp-test-server [--pid-file PATH]   # appends its process id to PATH when it starts
//! ```
//!
//! Tools: `add` (two integers), `slow` (sleeps `seconds`, then answers), `die` (exits the process
//! in the middle of the call), `fail` (a tool-level error result), `wrapped` (a structured
//! result marked as a FastMCP wrapped value).

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler, ServiceExt};
use serde_json::{Map, Value, json};
use std::future::Future;
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

struct TestServer;

fn schema(value: Value) -> Arc<Map<String, Value>> {
    match value {
        Value::Object(map) => Arc::new(map),
        _ => unreachable!("schemas are objects"),
    }
}

fn tools() -> Vec<Tool> {
    vec![
        Tool::new(
            "add",
            "Adds two integers.",
            schema(json!({
                "type": "object",
                "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
                "required": ["a", "b"],
            })),
        ),
        Tool::new(
            "slow",
            "Waits `seconds`, then says so.",
            schema(json!({
                "type": "object",
                "properties": {"seconds": {"type": "number", "minimum": 0}},
                "required": ["seconds"],
            })),
        ),
        Tool::new(
            "die",
            "Exits the server in the middle of the call.",
            schema(json!({"type": "object", "properties": {}})),
        ),
        Tool::new(
            "fail",
            "Always fails, with a message.",
            schema(json!({"type": "object", "properties": {"why": {"type": "string"}}})),
        ),
        Tool::new(
            "wrapped",
            "Returns a list as a structured result.",
            schema(json!({"type": "object", "properties": {}})),
        )
        .with_raw_output_schema(schema(json!({
            "type": "object",
            "properties": {"result": {"type": "array"}},
            "x-fastmcp-wrap-result": true,
        }))),
    ]
}

fn text(message: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(message)])
}

async fn call(params: CallToolRequestParams) -> Result<CallToolResult, ErrorData> {
    let args = Value::Object(params.arguments.unwrap_or_default());
    match params.name.as_ref() {
        "add" => match (args["a"].as_i64(), args["b"].as_i64()) {
            (Some(a), Some(b)) => Ok(text((a + b).to_string())),
            _ => Err(ErrorData::invalid_params("a and b must be integers", None)),
        },
        "slow" => {
            let seconds = args["seconds"].as_f64().unwrap_or(0.0).clamp(0.0, 3600.0);
            tokio::time::sleep(Duration::from_secs_f64(seconds)).await;
            Ok(text(format!("slept {seconds} s")))
        }
        "die" => {
            eprintln!("geode-mcp-test-server: dying as asked");
            std::process::exit(3)
        }
        "fail" => Ok(CallToolResult::error(vec![ContentBlock::text(format!(
            "failed as asked: {}",
            args["why"].as_str().unwrap_or("no reason")
        ))])),
        "wrapped" => {
            let mut result = text("[1, 'two', None]");
            result.structured_content = Some(json!({"result": [1, "two", null]}));
            Ok(result)
        }
        other => Err(ErrorData::invalid_params(
            format!("unknown tool {other}"),
            None,
        )),
    }
}

impl ServerHandler for TestServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<ListToolsResult, ErrorData>> + Send + '_ {
        std::future::ready(Ok(ListToolsResult::with_all_items(tools())))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        call(request).await.map(CallToolResponse::from)
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.next()) {
            ("--pid-file", Some(path)) => {
                let mut file = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)?;
                writeln!(file, "{}", std::process::id())?;
            }
            _ => return Err(format!("unexpected argument {arg}; usage: [--pid-file PATH]").into()),
        }
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let service = TestServer.serve(rmcp::transport::stdio()).await?;
        service.waiting().await?;
        Ok::<(), Box<dyn std::error::Error>>(())
    })
}
