//! `tool:mcp` (geode-mcp) against real MCP servers: `geode-mcp-test-server` (Rust, stdio,
//! spawned by the tool) and `tests/python/mcp_http_server.py` (the `mcp` package, streamable
//! HTTP on 127.0.0.1). The instructions list the tools with their schemas as GEM does; a good
//! call, a schema-invalid call, an unknown tool, a tool error, a server that dies mid-call, a
//! slow call and an unreachable server each give GEM's observation, `has_error` within the
//! timeout, never a hang; a dropped tool leaves no server process behind; python and MCP tools
//! share one tool wrapper with GEM's counters.

use geode_runtime::tool::{Tool, ToolOutput};
use geode_runtime::wrappers::ToolRewards;
use geode_runtime::{Error, Limits, MakeOptions, WrapperSpec};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A fresh file the test server appends its process ids to.
fn pid_file(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("mcp-test-{}-{name}.pids", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

fn pids(path: &Path) -> Vec<u32> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|line| line.parse().unwrap())
        .collect()
}

/// Whether process `pid` exists and is not a zombie.
fn is_running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| !rest.starts_with('Z')),
        Err(_) => false,
    }
}

fn eventually(limit: Duration, what: &str, mut done: impl FnMut() -> bool) {
    let started = Instant::now();
    while !done() {
        assert!(started.elapsed() < limit, "{what} within {limit:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `tool:mcp` over the stdio test server, recording its pids in `pids`, with `extra` keys.
fn stdio_tool(pids: &Path, extra: Value) -> geode_runtime::Result<Box<dyn Tool>> {
    let mut config = json!({"server": {
        "command": geode_tests::workspace_binary("geode-mcp-test-server", "geode-mcp").display().to_string(),
        "args": ["--pid-file", pids.display().to_string()],
    }});
    for (key, value) in extra.as_object().unwrap() {
        config[key] = value.clone();
    }
    geode_tests::registry().make_tool("tool:mcp", &config, &Limits::default())
}

/// The error of making `tool:mcp` with `config`.
fn make_error(config: &Value) -> Error {
    match geode_tests::registry().make_tool("tool:mcp", config, &Limits::default()) {
        Ok(_) => panic!("{config} made a tool"),
        Err(error) => error,
    }
}

fn call(tool: &mut dyn Tool, name: &str, arguments: &str) -> ToolOutput {
    let action = format!(
        "<think>use {name}</think>\n<tool_call>\n<tool_name>{name}</tool_name>\n<arguments>{arguments}</arguments>\n</tool_call>"
    );
    tool.execute(&action)
        .unwrap()
        .expect("a call of a known tool")
}

#[test]
fn the_instructions_list_the_tools_with_their_schemas_as_gem_does() {
    let file = pid_file("listing");
    let mut tool = stdio_tool(&file, json!({})).unwrap();
    assert_eq!(tool.tool_type(), "mcp");
    let text = tool.instructions().unwrap();
    assert!(text.starts_with(
        "# Tool-Use Instructions\n\nIn this environment you have access to a set of tools"
    ));
    assert!(text.contains("<tool_call>\n<tool_name>tool_name_here</tool_name>\n<arguments>\n{\n  \"param1\": \"value1\",\n  \"param2\": \"value2 \\\"escaped string\\\"\"\n}\n</arguments>\n</tool_call>\n\n"));
    let tools = text
        .split_once("<tools>\n")
        .and_then(|(_, rest)| rest.strip_suffix("\n</tools>"))
        .expect("the tools close the instructions");
    let lines: Vec<&str> = tools.lines().collect();
    assert_eq!(
        lines[0],
        r#"{"type": "function", "function": {"name": "add", "description": "Adds two integers.", "parameters": {"properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"], "type": "object"}}}"#
    );
    let names: Vec<String> = lines
        .iter()
        .map(|line| {
            serde_json::from_str::<Value>(line).unwrap()["function"]["name"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(
        names,
        ["add", "die", "fail", "slow", "wrapped"],
        "sorted by name"
    );
    assert_eq!(pids(&file).len(), 1, "one server, started once");
}

#[test]
fn calls_give_gems_observations() {
    let file = pid_file("calls");
    let mut tool = stdio_tool(&file, json!({"timeout": 10})).unwrap();
    let out = call(&mut *tool, "add", r#"{"a": 2, "b": 3}"#);
    assert_eq!((out.observation.as_str(), out.has_error), ("5", false));
    assert_eq!(
        out.parsed_action,
        "<tool_call>\n<tool_name>add</tool_name>\n<arguments>{\"a\": 2, \"b\": 3}</arguments>\n</tool_call>"
    );

    // Arguments outside the schema never reach the server.
    let out = call(&mut *tool, "add", r#"{"a": "2"}"#);
    assert!(out.has_error);
    assert!(
        out.observation.starts_with(
            "[Tool execution error: the arguments of 'add' do not match its input schema: "
        ) && out
            .observation
            .contains("\"2\" is not of type \"integer\" (at /a)")
            && out
                .observation
                .contains("\"b\" is a required property (at /)"),
        "{}",
        out.observation
    );
    let out = call(&mut *tool, "slow", r#"{"seconds": -1}"#);
    assert!(
        out.observation.contains("-1 is less than the minimum of 0"),
        "{}",
        out.observation
    );

    // A tool error, a FastMCP wrapped result.
    let out = call(&mut *tool, "fail", r#"{"why": "testing"}"#);
    assert_eq!(
        out.observation,
        "[Tool execution error: failed as asked: testing]"
    );
    assert!(out.has_error);
    let out = call(&mut *tool, "wrapped", "");
    assert_eq!(
        (out.observation.as_str(), out.has_error),
        ("[1, 'two', None]", false)
    );

    // Not tool calls (GEM: not valid): an unknown tool, arguments that are not JSON, no call.
    let unknown = "<tool_call><tool_name>subtract</tool_name><arguments>{}</arguments></tool_call>";
    assert_eq!(tool.execute(unknown).unwrap(), None);
    let bad_json = "<tool_call><tool_name>add</tool_name><arguments>{a: 1}</arguments></tool_call>";
    assert_eq!(tool.execute(bad_json).unwrap(), None);
    assert_eq!(tool.execute("<answer>5</answer>").unwrap(), None);
    assert_eq!(pids(&file).len(), 1, "the server lived through all of it");
}

#[test]
fn a_server_that_dies_mid_call_is_an_error_then_starts_again() {
    let file = pid_file("dies");
    let mut tool = stdio_tool(&file, json!({"max_retries": 1})).unwrap();
    let first = pids(&file)[0];
    let started = Instant::now();
    let out = call(&mut *tool, "die", "{}");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    assert!(out.has_error);
    assert!(
        out.observation
            .starts_with("[Tool execution failed: die: the connection to the server was lost"),
        "{}",
        out.observation
    );
    eventually(Duration::from_secs(5), "the dead server is reaped", || {
        !is_running(first)
    });
    let out = call(&mut *tool, "add", r#"{"a": 1, "b": 1}"#);
    assert_eq!((out.observation.as_str(), out.has_error), ("2", false));
    assert_eq!(pids(&file).len(), 2, "a new server answered");

    // GEM's retries: each attempt starts the server again, then the call fails.
    let file = pid_file("dies-retried");
    let mut tool =
        stdio_tool(&file, json!({"max_retries": 3, "delay_between_retries": 0})).unwrap();
    let out = call(&mut *tool, "die", "{}");
    assert!(out.has_error, "{}", out.observation);
    assert_eq!(pids(&file).len(), 3, "three attempts, three servers");
}

#[test]
fn a_slow_call_ends_at_the_timeout_and_the_stuck_server_is_stopped() {
    let file = pid_file("slow");
    let mut tool = stdio_tool(&file, json!({"timeout": 0.5, "max_retries": 1})).unwrap();
    let stuck = pids(&file)[0];
    let started = Instant::now();
    let out = call(&mut *tool, "slow", r#"{"seconds": 60}"#);
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(500) && took < Duration::from_secs(3),
        "{took:?}"
    );
    assert!(out.has_error);
    assert_eq!(
        out.observation,
        "[Tool execution failed: slow: no answer within 0.5 s (timeout)]"
    );
    eventually(
        Duration::from_secs(10),
        "the stuck server is stopped",
        || !is_running(stuck),
    );
    let out = call(&mut *tool, "slow", r#"{"seconds": 0}"#);
    assert_eq!(
        (out.observation.as_str(), out.has_error),
        ("slept 0 s", false)
    );
}

#[test]
fn dropping_a_tool_stops_its_server() {
    let file = pid_file("drop");
    let tool = stdio_tool(&file, json!({})).unwrap();
    let spawned = tool.spawn().unwrap();
    let pid = pids(&file)[0];
    assert!(is_running(pid));
    drop(tool);
    drop(spawned);
    eventually(Duration::from_secs(10), "the server is stopped", || {
        !is_running(pid)
    });
}

#[test]
fn unreachable_servers_are_errors_never_hangs() {
    let missing = json!({"server": {"command": "/nonexistent/mcp-server"}});
    let registry = geode_tests::registry();
    match make_error(&missing) {
        Error::Io { context, source } => {
            assert!(
                context.contains("listing the tools of stdio server 'default'"),
                "{context}"
            );
            assert!(
                source
                    .to_string()
                    .contains("cannot start `/nonexistent/mcp-server`"),
                "{source}"
            );
        }
        other => panic!("{other}"),
    }
    // Without the check at creation, calls fail instead.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let config = json!({
        "server": format!("http://127.0.0.1:{port}/mcp"),
        "validate_on_init": false, "max_retries": 2, "delay_between_retries": 0.1, "timeout": 2,
    });
    let mut tool = registry
        .make_tool("tool:mcp", &config, &Limits::default())
        .unwrap();
    let started = Instant::now();
    let out = tool
        .execute("<tool_call><tool_name>add</tool_name><arguments>{}</arguments></tool_call>")
        .unwrap()
        .unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    assert!(out.has_error);
    assert!(
        out.observation.starts_with("[Tool execution failed: "),
        "{}",
        out.observation
    );
    assert!(
        out.observation.contains("cannot connect"),
        "{}",
        out.observation
    );
    assert!(tool.instructions().is_err());

    // A server that accepts connections and never answers.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let config = json!({
        "server": format!("http://{}/mcp", silent.local_addr().unwrap()),
        "timeout": 0.5, "max_retries": 1,
    });
    let started = Instant::now();
    let error = make_error(&config);
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert!(
        error.to_string().contains("within 0.5 s (timeout)"),
        "{error}"
    );
}

#[test]
fn bad_configs_name_the_key() {
    let cases = [
        (json!({}), "server"),
        (
            json!({"server": {"command": "x", "tools": {}}}),
            "server.default.tools",
        ),
        (
            json!({"server": "http://127.0.0.1:9/mcp", "execution_timeout": 3}),
            "execution_timeout",
        ),
    ];
    for (config, key) in cases {
        match make_error(&config) {
            Error::BadConfig { key: named, .. } => assert_eq!(named, key, "{config}"),
            other => panic!("{config}: {other}"),
        }
    }
}

/// The Python of `target/py-venv` (made by `host/python/dev-install.sh`, with the `mcp`
/// package), if it is there.
fn venv_python() -> Option<PathBuf> {
    let python = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/py-venv/bin/python");
    let has_mcp = Command::new(&python)
        .args(["-c", "import mcp, uvicorn"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    if has_mcp {
        Some(python)
    } else {
        eprintln!(
            "SKIPPED: {} with the `mcp` package is missing; run `bash host/python/dev-install.sh`",
            python.display()
        );
        None
    }
}

/// `tests/python/mcp_http_server.py` on a free port; killed when dropped.
struct HttpServer {
    child: Child,
    url: String,
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_http_server(python: &Path) -> HttpServer {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("python/mcp_http_server.py");
    let mut child = Command::new(python)
        .arg(script)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .trim()
        .strip_prefix("listening on ")
        .expect("the server starts")
        .to_owned();
    HttpServer { child, url }
}

#[test]
fn the_mcp_package_over_streamable_http() {
    let Some(python) = venv_python() else { return };
    let mut server = start_http_server(&python);
    let registry = geode_tests::registry();
    let config = json!({"server": server.url, "timeout": 1, "max_retries": 1});
    let mut tool = registry
        .make_tool("tool:mcp", &config, &Limits::default())
        .unwrap();
    let text = tool.instructions().unwrap();
    for name in ["add", "crash", "fail", "greet", "slow"] {
        assert!(
            text.contains(&format!("{{\"name\": \"{name}\", ")),
            "{name}: {text}"
        );
    }
    assert!(text.contains(r#""description": "Adds two integers.", "parameters": {"#));
    let out = call(&mut *tool, "add", r#"{"a": 20, "b": 22}"#);
    assert_eq!((out.observation.as_str(), out.has_error), ("42", false));
    let out = call(&mut *tool, "greet", r#"{"name": "Ada"}"#);
    assert_eq!(
        (out.observation.as_str(), out.has_error),
        ("Hello, Ada!", false)
    );
    let out = call(&mut *tool, "add", r#"{"a": "x", "b": 1}"#);
    assert!(
        out.has_error && out.observation.contains("\"x\" is not of type \"integer\""),
        "{}",
        out.observation
    );
    let out = call(&mut *tool, "fail", r#"{"why": "testing"}"#);
    assert!(out.has_error);
    assert!(
        out.observation.starts_with("[Tool execution error: ")
            && out.observation.contains("failed as asked: testing"),
        "{}",
        out.observation
    );
    let started = Instant::now();
    let out = call(&mut *tool, "slow", r#"{"seconds": 30}"#);
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(
        out.observation,
        "[Tool execution failed: slow: no answer within 1 s (timeout)]"
    );
    let out = call(&mut *tool, "greet", r#"{"name": "again"}"#);
    assert_eq!(
        out.observation, "Hello, again!",
        "a new session after the timeout"
    );

    // The server dies mid-call: this call and the next fail clearly, in bounded time.
    let started = Instant::now();
    let out = call(&mut *tool, "crash", "{}");
    assert!(
        out.has_error
            && out
                .observation
                .starts_with("[Tool execution failed: crash: "),
        "{}",
        out.observation
    );
    let out = call(&mut *tool, "add", r#"{"a": 1, "b": 2}"#);
    assert!(
        out.has_error && out.observation.contains("cannot connect"),
        "{}",
        out.observation
    );
    assert!(
        started.elapsed() < Duration::from_secs(6),
        "{:?}",
        started.elapsed()
    );
    // The server process is gone (its exit may trail the dropped connection by a moment on a
    // loaded machine).
    let deadline = Instant::now() + Duration::from_secs(10);
    while server.child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < deadline, "the crashed server still runs");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn python_and_mcp_in_one_tool_wrapper_with_gems_counters() {
    let file = pid_file("stack");
    let registry = geode_tests::registry();
    let mcp = json!({"server": {
        "command": geode_tests::workspace_binary("geode-mcp-test-server", "geode-mcp").display().to_string(),
        "args": ["--pid-file", file.display().to_string()],
    }, "timeout": 10, "max_retries": 1});
    let rewards = ToolRewards {
        tool_reward: 0.1,
        tool_success_reward: 0.2,
        ..ToolRewards::default()
    };
    let options = MakeOptions::default().with_wrappers(vec![WrapperSpec::Tools {
        tools: vec![
            ("tool:python".into(), json!({})),
            ("tool:mcp".into(), mcp),
            ("tool:search".into(), json!({"backend": "local"})),
        ],
        rewards,
    }]);
    let mut env = registry.make("eval:Bamboogle", options).unwrap();
    let first = env.reset(Some(0)).unwrap();
    assert!(
        first
            .observation
            .contains("\nAvailable tools:\nSolve the above problem step by step.")
    );
    assert!(first.observation.contains("# Tool-Use Instructions"));
    assert!(
        first
            .observation
            .contains("You have access to a search engine")
    );

    let added = env
        .step("<tool_call><tool_name>add</tool_name><arguments>{\"a\": 40, \"b\": 2}</arguments></tool_call>")
        .unwrap();
    let info = added.info.to_map();
    assert_eq!(
        (added.observation.as_str(), added.reward),
        ("42", 0.1 + 0.2)
    );
    assert_eq!(info["tool_type"], "mcp");
    assert_eq!(
        (
            info["tool_use_counter"].clone(),
            info["tool_success_counter"].clone()
        ),
        (json!(1), json!(1))
    );

    let computed = env.step("<python>print(6 * 7)</python>").unwrap();
    assert_eq!(computed.info.to_map()["tool_type"], "python_code");
    assert_eq!(computed.observation, "Code execution result: 42\n\n");

    let failed = env
        .step("<tool_call><tool_name>add</tool_name><arguments>{\"a\": 1}</arguments></tool_call>")
        .unwrap();
    let info = failed.info.to_map();
    assert_eq!(
        (info["tool_type"].clone(), failed.reward),
        (json!("mcp"), 0.1)
    );
    assert!(failed.observation.starts_with("[Tool execution error: "));
    assert_eq!(
        (
            info["tool_use_counter"].clone(),
            info["tool_success_counter"].clone()
        ),
        (json!(3), json!(2))
    );

    let searched = env.step("<search>Hallstatt</search>").unwrap();
    assert_eq!(searched.info.to_map()["tool_type"], "search");
    let answered = env.step("<answer>no idea</answer>").unwrap();
    assert!(answered.terminated);
    let info = answered.info.to_map();
    assert_eq!(
        (
            info["tool_use_counter"].clone(),
            info["tool_success_counter"].clone()
        ),
        (json!(4), json!(3))
    );
    assert_eq!(pids(&file).len(), 1, "one server for the episode");
}
