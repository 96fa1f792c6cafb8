//! `report.html`: a run's [`Summary`] as one self-contained page for people to read.
//!
//! The page has no scripts and loads nothing: the CSS is inline and the plots are inline SVG.
//! Every number in its tables also carries `data-key` (its path in `summary.json`, such as
//! `envs.<env id>.pass_at_k.1` or `overall.mean_reward`) and `data-value` (the number exactly as
//! `summary.json` prints it), so a test can check the page against the summary.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde::Serialize;

use crate::settings::RunSettings;
use crate::summary::{Group, Summary};

/// The page's CSS.
const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:1200px;\
padding:0 1em;color:#222}h1{font-size:1.5em}h2{font-size:1.25em;margin-top:2em;\
border-bottom:1px solid #ccc}table{border-collapse:collapse;margin:.5em 1.5em .5em 0}\
th,td{border:1px solid #ddd;padding:.2em .5em;text-align:right;vertical-align:top}\
th{background:#f3f3f3}td.text,th.text{text-align:left}.ci{color:#666;font-size:.85em}\
.wide{overflow-x:auto}.facts,.plots{display:flex;flex-wrap:wrap;align-items:flex-start}\
pre{white-space:pre-wrap;margin:0;max-width:60em}code{font-size:.85em;word-break:break-all}\
svg.plot{width:420px;max-width:100%;height:auto;margin:.5em 1em .5em 0}\
svg text{font-size:11px;fill:#333}.axis{stroke:#333}.grid{stroke:#e4e4e4}\
.bar{fill:#4c78a8}.line{fill:none;stroke:#f58518;stroke-width:2}.dot{fill:#f58518}";

/// Renders `summary` as one self-contained HTML page.
pub fn render(summary: &Summary) -> String {
    let mut page = String::new();
    page.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    let _ = writeln!(page, "<title>geode eval: {}</title>", esc(&summary.model));
    let _ = writeln!(page, "<style>{STYLE}</style>\n</head>\n<body>");
    page.push_str(&header(summary));
    page.push_str(&overview(summary));
    for (index, (id, group)) in summary.envs.iter().enumerate() {
        let prefix = format!("envs.{id}");
        page.push_str(&group_section(&format!("env-{index}"), id, &prefix, group));
    }
    page.push_str(&group_section(
        "overall",
        "All envs",
        "overall",
        &summary.overall,
    ));
    page.push_str("</body>\n</html>\n");
    page
}

/// Escapes text for HTML content and attribute values.
fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A value as `summary.json` prints it.
fn json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "null".to_owned())
}

/// A real number for people: 3 decimals.
fn fixed(value: f64) -> String {
    format!("{value:.3}")
}

/// A rate for people: a percentage with one decimal.
fn percent(value: f64) -> String {
    format!("{:.1}%", value * 100.0)
}

/// `shown` in a span carrying the number's path in `summary.json` and its exact value.
fn tagged<T: Serialize>(key: &str, value: &T, shown: &str) -> String {
    format!(
        "<span data-key=\"{}\" data-value=\"{}\">{}</span>",
        esc(key),
        esc(&json(value)),
        esc(shown)
    )
}

/// A real number with 3 decimals, tagged.
fn tagged_real(key: &str, value: f64) -> String {
    tagged(key, &value, &fixed(value))
}

/// A rate as a percentage, tagged.
fn tagged_rate(key: &str, value: f64) -> String {
    tagged(key, &value, &percent(value))
}

/// A count, tagged.
fn tagged_count<T: Serialize + ToString>(key: &str, value: T) -> String {
    tagged(key, &value, &value.to_string())
}

/// A value and its 95% interval, each shown by `show` and tagged.
fn with_ci(key: &str, value: f64, ci: [f64; 2], show: fn(&str, f64) -> String) -> String {
    format!(
        "{} <span class=\"ci\">[{}, {}]</span>",
        show(key, value),
        show(&format!("{key}_ci95.0"), ci[0]),
        show(&format!("{key}_ci95.1"), ci[1])
    )
}

/// A table of rows `(heading, cell HTML)`.
fn key_value_table(caption: &str, rows: &[(String, String)]) -> String {
    let mut table = format!("<table>\n<caption>{}</caption>\n", esc(caption));
    for (heading, cell) in rows {
        let _ = writeln!(
            table,
            "<tr><th class=\"text\">{}</th><td>{cell}</td></tr>",
            esc(heading)
        );
    }
    table.push_str("</table>\n");
    table
}

/// The page's header: the model, server, geode version and the settings.
fn header(summary: &Summary) -> String {
    let mut html = format!("<h1>geode eval: {}</h1>\n", esc(&summary.model));
    let rows = vec![
        ("model".to_owned(), esc(&summary.model)),
        (
            "base URL".to_owned(),
            format!("<code>{}</code>", esc(&summary.base_url)),
        ),
        ("geode version".to_owned(), esc(&summary.geode_version)),
    ];
    html.push_str("<div class=\"facts\">\n");
    html.push_str(&key_value_table("Run", &rows));
    html.push_str(&key_value_table(
        "Settings",
        &settings_rows(&summary.settings),
    ));
    html.push_str("</div>\n");
    html.push_str(&env_settings_table(&summary.settings));
    html
}

/// Rows of the settings table.
fn settings_rows(settings: &RunSettings) -> Vec<(String, String)> {
    let sampling = &settings.sampling;
    let system = match &settings.system {
        Some(text) => format!("<pre class=\"text\">{}</pre>", esc(text)),
        None => "none".to_owned(),
    };
    vec![
        (
            "temperature".into(),
            optional("settings.sampling.temperature", sampling.temperature),
        ),
        (
            "top_p".into(),
            optional("settings.sampling.top_p", sampling.top_p),
        ),
        (
            "max_tokens".into(),
            optional("settings.sampling.max_tokens", sampling.max_tokens),
        ),
        (
            "seed".into(),
            optional("settings.sampling.seed", sampling.seed),
        ),
        (
            "max turns".into(),
            tagged_count("settings.max_turns", settings.max_turns),
        ),
        (
            "samples per task".into(),
            tagged_count("settings.samples", settings.samples),
        ),
        (
            "concurrency".into(),
            tagged_count("settings.concurrency", settings.concurrency),
        ),
        (
            "success threshold".into(),
            tagged(
                "settings.success_threshold",
                &settings.success_threshold,
                &settings.success_threshold.to_string(),
            ),
        ),
        (
            "env seed".into(),
            tagged_count("settings.env_seed", settings.env_seed),
        ),
        ("system prompt".into(), system),
    ]
}

/// An optional sampling setting, tagged, or "server default".
fn optional<T: Serialize + ToString>(key: &str, value: Option<T>) -> String {
    match value {
        Some(value) => tagged(key, &value, &value.to_string()),
        None => "server default".to_owned(),
    }
}

/// The envs of the settings: id, tasks, config, wrappers and component hash.
fn env_settings_table(settings: &RunSettings) -> String {
    let mut table = String::from(
        "<div class=\"wide\"><table>\n<caption>Envs</caption>\n<tr><th class=\"text\">env</th>\
         <th>tasks</th><th class=\"text\">config</th><th class=\"text\">wrappers</th>\
         <th class=\"text\">component sha256</th></tr>\n",
    );
    for (index, env) in settings.envs.iter().enumerate() {
        let wrappers = if env.wrappers.is_empty() {
            "none".to_owned()
        } else {
            esc(&env.wrappers.join(", "))
        };
        let sha = env.component_sha256.as_deref().unwrap_or("host env");
        let _ = writeln!(
            table,
            "<tr><td class=\"text\">{}</td><td>{}</td><td class=\"text\"><code>{}</code></td>\
             <td class=\"text\">{wrappers}</td><td class=\"text\"><code>{}</code></td></tr>",
            esc(&env.id),
            tagged_count(&format!("settings.envs.{index}.tasks"), env.tasks),
            esc(&json(&env.config)),
            esc(sha)
        );
    }
    table.push_str("</table></div>\n");
    table
}

/// The k of every pass@k column: 1 to the samples, plus any other k a group has, ascending.
fn pass_ks(summary: &Summary) -> Vec<String> {
    let mut ks: BTreeSet<(u64, String)> = (1..=u64::from(summary.settings.samples))
        .map(|k| (k, k.to_string()))
        .collect();
    for group in summary.envs.values().chain([&summary.overall]) {
        for k in group.pass_at_k.keys() {
            ks.insert((k.parse().unwrap_or(u64::MAX), k.clone()));
        }
    }
    ks.into_iter().map(|(_, k)| k).collect()
}

/// The overview table: one row per env and one for all envs.
fn overview(summary: &Summary) -> String {
    let ks = pass_ks(summary);
    let mut table = String::from(
        "<h2>Overview</h2>\n<div class=\"wide\"><table>\n<tr><th class=\"text\">env</th>\
         <th>episodes</th><th>tasks</th><th>mean reward [95% CI]</th>\
         <th>success rate [95% CI]</th>",
    );
    for k in &ks {
        let _ = write!(table, "<th>pass@{}</th>", esc(k));
    }
    for k in &ks {
        let _ = write!(table, "<th>pass^{}</th>", esc(k));
    }
    table.push_str("<th>mean turns</th><th class=\"text\">errors</th></tr>\n");
    for (index, (id, group)) in summary.envs.iter().enumerate() {
        let name = format!("<a href=\"#env-{index}\">{}</a>", esc(id));
        table.push_str(&overview_row(&name, &format!("envs.{id}"), group, &ks));
    }
    table.push_str(&overview_row(
        "<a href=\"#overall\">all envs</a>",
        "overall",
        &summary.overall,
        &ks,
    ));
    table.push_str("</table></div>\n");
    table
}

/// One row of the overview; `name` is HTML.
fn overview_row(name: &str, prefix: &str, group: &Group, ks: &[String]) -> String {
    let mut row = format!(
        "<tr><td class=\"text\">{name}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>",
        tagged_count(&format!("{prefix}.episodes"), group.episodes),
        tagged_count(&format!("{prefix}.tasks"), group.tasks),
        with_ci(
            &format!("{prefix}.mean_reward"),
            group.mean_reward,
            group.mean_reward_ci95,
            tagged_real
        ),
        with_ci(
            &format!("{prefix}.success_rate"),
            group.success_rate,
            group.success_rate_ci95,
            tagged_rate
        ),
    );
    for (field, values) in [
        ("pass_at_k", &group.pass_at_k),
        ("pass_hat_k", &group.pass_hat_k),
    ] {
        for k in ks {
            let cell = match values.get(k) {
                Some(&value) => tagged_rate(&format!("{prefix}.{field}.{k}"), value),
                None => "–".to_owned(),
            };
            let _ = write!(row, "<td>{cell}</td>");
        }
    }
    let _ = writeln!(
        row,
        "<td>{}</td><td class=\"text\">{}</td></tr>",
        tagged_real(&format!("{prefix}.mean_turns"), group.mean_turns),
        counts_inline(&format!("{prefix}.errors"), &group.errors)
    );
    row
}

/// Counts by name on one line (`timeout: 2, env: 1`), each tagged; "none" without any.
fn counts_inline(prefix: &str, counts: &BTreeMap<String, u64>) -> String {
    if counts.is_empty() {
        return "none".to_owned();
    }
    counts
        .iter()
        .map(|(name, &count)| {
            format!(
                "{}: {}",
                esc(name),
                tagged_count(&format!("{prefix}.{name}"), count)
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A table of counts by name, each tagged; a "none" row without any.
fn counts_table(caption: &str, prefix: &str, counts: &BTreeMap<String, u64>) -> String {
    let rows: Vec<(String, String)> = if counts.is_empty() {
        vec![("none".to_owned(), String::new())]
    } else {
        counts
            .iter()
            .map(|(name, &count)| {
                (
                    name.clone(),
                    tagged_count(&format!("{prefix}.{name}"), count),
                )
            })
            .collect()
    };
    key_value_table(caption, &rows)
}

/// One env's (or all envs') section: its tables, then its plots.
fn group_section(anchor: &str, title: &str, prefix: &str, group: &Group) -> String {
    let mut html = format!(
        "<section id=\"{}\">\n<h2>{}</h2>\n",
        esc(anchor),
        esc(title)
    );
    if group.episodes == 0 {
        html.push_str("<p>episodes: 0 (no episodes recorded)</p>\n");
    }
    html.push_str("<div class=\"facts\">\n");
    html.push_str(&key_value_table("Episodes", &facts_rows(prefix, group)));
    html.push_str(&counts_table(
        "Endings",
        &format!("{prefix}.endings"),
        &group.endings,
    ));
    html.push_str(&counts_table(
        "Errors",
        &format!("{prefix}.errors"),
        &group.errors,
    ));
    html.push_str(&counts_table(
        "Retries",
        &format!("{prefix}.retries"),
        &group.retries,
    ));
    html.push_str(&key_value_table("Tokens", &usage_rows(prefix, group)));
    html.push_str(&key_value_table(
        "Latency (ms)",
        &latency_rows(prefix, group),
    ));
    html.push_str("</div>\n<div class=\"plots\">\n");
    html.push_str(&reward_plot(group));
    html.push_str(&pass_at_k_plot(group));
    html.push_str(&turns_plot(group));
    html.push_str(&latency_plot(group));
    html.push_str("</div>\n</section>\n");
    html
}

/// Rows of a group's main numbers.
fn facts_rows(prefix: &str, group: &Group) -> Vec<(String, String)> {
    vec![
        (
            "episodes".into(),
            tagged_count(&format!("{prefix}.episodes"), group.episodes),
        ),
        (
            "tasks".into(),
            tagged_count(&format!("{prefix}.tasks"), group.tasks),
        ),
        (
            "samples per task".into(),
            tagged_count(&format!("{prefix}.samples"), group.samples),
        ),
        (
            "mean reward".into(),
            with_ci(
                &format!("{prefix}.mean_reward"),
                group.mean_reward,
                group.mean_reward_ci95,
                tagged_real,
            ),
        ),
        (
            "success rate".into(),
            with_ci(
                &format!("{prefix}.success_rate"),
                group.success_rate,
                group.success_rate_ci95,
                tagged_rate,
            ),
        ),
        (
            "mean turns".into(),
            tagged_real(&format!("{prefix}.mean_turns"), group.mean_turns),
        ),
    ]
}

/// Rows of a group's token counts.
fn usage_rows(prefix: &str, group: &Group) -> Vec<(String, String)> {
    vec![
        (
            "prompt".into(),
            tagged_count(
                &format!("{prefix}.usage.prompt_tokens"),
                group.usage.prompt_tokens,
            ),
        ),
        (
            "completion".into(),
            tagged_count(
                &format!("{prefix}.usage.completion_tokens"),
                group.usage.completion_tokens,
            ),
        ),
    ]
}

/// Rows of a group's latency summary.
fn latency_rows(prefix: &str, group: &Group) -> Vec<(String, String)> {
    let l = &group.latency_ms;
    [
        ("mean", l.mean),
        ("p50", l.p50),
        ("p90", l.p90),
        ("p99", l.p99),
    ]
    .into_iter()
    .map(|(name, value)| {
        (
            name.to_owned(),
            tagged_real(&format!("{prefix}.latency_ms.{name}"), value),
        )
    })
    .collect()
}

/// The reward distribution: one bar per histogram bin.
fn reward_plot(group: &Group) -> String {
    let bars: Vec<(String, f64)> = group
        .reward_histogram
        .iter()
        .map(|&(low, count)| (short(low), count as f64))
        .collect();
    bar_chart(
        &Frame {
            title: "Reward distribution",
            x_label: "reward (bin start)",
            y_label: "episodes",
        },
        &bars,
    )
}

/// The turns distribution: one bar per number of turns.
fn turns_plot(group: &Group) -> String {
    let bars: Vec<(String, f64)> = group
        .turns_histogram
        .iter()
        .map(|(&turns, &count)| (turns.to_string(), count as f64))
        .collect();
    bar_chart(
        &Frame {
            title: "Turns per episode",
            x_label: "turns",
            y_label: "episodes",
        },
        &bars,
    )
}

/// The latency summary: bars for the mean and the percentiles.
fn latency_plot(group: &Group) -> String {
    let l = &group.latency_ms;
    let bars: Vec<(String, f64)> = if group.episodes == 0 {
        Vec::new()
    } else {
        [
            ("mean", l.mean),
            ("p50", l.p50),
            ("p90", l.p90),
            ("p99", l.p99),
        ]
        .into_iter()
        .map(|(name, value)| (name.to_owned(), value))
        .collect()
    };
    bar_chart(
        &Frame {
            title: "Episode latency",
            x_label: "statistic",
            y_label: "ms",
        },
        &bars,
    )
}

/// The pass@k curve: k on x, pass@k on y.
fn pass_at_k_plot(group: &Group) -> String {
    let mut points: Vec<(u64, f64)> = group
        .pass_at_k
        .iter()
        .filter_map(|(k, &value)| k.parse().ok().map(|k| (k, value)))
        .collect();
    points.sort_by_key(|&(k, _)| k);
    line_chart(
        &Frame {
            title: "pass@k",
            x_label: "k",
            y_label: "pass@k",
        },
        &points,
    )
}

/// A number for an axis or bar label: up to 3 decimals, trailing zeros dropped.
fn short(value: f64) -> String {
    let text = format!("{value:.3}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".to_owned()
    } else {
        text.to_owned()
    }
}

/// A plot's title and axis labels.
struct Frame<'a> {
    title: &'a str,
    x_label: &'a str,
    y_label: &'a str,
}

/// The SVG's size and the plot area within it.
const WIDTH: f64 = 420.0;
const HEIGHT: f64 = 240.0;
const LEFT: f64 = 60.0;
const RIGHT: f64 = 406.0;
const TOP: f64 = 30.0;
const BOTTOM: f64 = 196.0;
/// Most labels on the x axis.
const MAX_X_LABELS: usize = 12;

/// The start of a plot: the SVG element, its title and axis labels.
fn plot_open(frame: &Frame) -> String {
    let title = esc(frame.title);
    format!(
        "<svg class=\"plot\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" role=\"img\" aria-label=\"{title}\">\
         <title>{title}</title>\n\
         <text x=\"{}\" y=\"18\" text-anchor=\"middle\" font-weight=\"bold\">{title}</text>\n\
         <text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n\
         <text x=\"14\" y=\"{}\" text-anchor=\"middle\" transform=\"rotate(-90 14 {})\">{}</text>\n",
        WIDTH / 2.0,
        (LEFT + RIGHT) / 2.0,
        HEIGHT - 8.0,
        esc(frame.x_label),
        (TOP + BOTTOM) / 2.0,
        (TOP + BOTTOM) / 2.0,
        esc(frame.y_label)
    )
}

/// A plot with nothing to show.
fn empty_plot(frame: &Frame) -> String {
    format!(
        "{}<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">no episodes</text>\n</svg>\n",
        plot_open(frame),
        (LEFT + RIGHT) / 2.0,
        (TOP + BOTTOM) / 2.0
    )
}

/// Evenly spaced "nice" ticks (steps of 1, 2 or 5 times a power of ten) from 0 to at least
/// `max`, and the decimals their labels need.
fn nice_ticks(max: f64) -> (Vec<f64>, usize) {
    let max = if max.is_finite() && max > 0.0 {
        max
    } else {
        1.0
    };
    let raw = max / 5.0;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * magnitude)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * magnitude);
    let count = (max / step).ceil().max(1.0) as usize;
    let decimals = if step >= 1.0 {
        0
    } else {
        (-step.log10()).ceil().clamp(0.0, 6.0) as usize
    };
    ((0..=count).map(|i| step * i as f64).collect(), decimals)
}

/// The axes, a y grid with tick labels from `ticks` (labels by `label`), scaled to `top`.
fn y_axis(ticks: &[f64], top: f64, label: impl Fn(f64) -> String) -> String {
    let mut svg = String::new();
    for &tick in ticks {
        let y = scale_y(tick, top);
        let _ = writeln!(
            svg,
            "<line class=\"grid\" x1=\"{LEFT}\" x2=\"{RIGHT}\" y1=\"{y:.1}\" y2=\"{y:.1}\"/>\
             <text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            LEFT - 5.0,
            y + 4.0,
            esc(&label(tick))
        );
    }
    let _ = writeln!(
        svg,
        "<line class=\"axis\" x1=\"{LEFT}\" x2=\"{LEFT}\" y1=\"{TOP}\" y2=\"{BOTTOM}\"/>\
         <line class=\"axis\" x1=\"{LEFT}\" x2=\"{RIGHT}\" y1=\"{BOTTOM}\" y2=\"{BOTTOM}\"/>"
    );
    svg
}

/// The y coordinate of `value` on an axis from 0 to `top`.
fn scale_y(value: f64, top: f64) -> f64 {
    let share = if top > 0.0 {
        (value / top).clamp(0.0, 1.0)
    } else {
        0.0
    };
    BOTTOM - share * (BOTTOM - TOP)
}

/// An x tick label centered at `x`.
fn x_label(x: f64, text: &str) -> String {
    format!(
        "<line class=\"axis\" x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"{BOTTOM}\" y2=\"{}\"/>\
         <text x=\"{x:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
        BOTTOM + 4.0,
        BOTTOM + 16.0,
        esc(text)
    )
}

/// A bar chart of `(label, value)` bars (values ≥ 0).
fn bar_chart(frame: &Frame, bars: &[(String, f64)]) -> String {
    if bars.is_empty() {
        return empty_plot(frame);
    }
    let max = bars.iter().map(|&(_, v)| v).fold(0.0, f64::max);
    let (ticks, decimals) = nice_ticks(max);
    let top = ticks.last().copied().unwrap_or(1.0);
    let mut svg = plot_open(frame);
    svg.push_str(&y_axis(&ticks, top, |t| format!("{t:.decimals$}")));
    let slot = (RIGHT - LEFT) / bars.len() as f64;
    let every = bars.len().div_ceil(MAX_X_LABELS);
    for (i, (label, value)) in bars.iter().enumerate() {
        let x = LEFT + slot * i as f64;
        let y = scale_y(*value, top);
        let _ = writeln!(
            svg,
            "<rect class=\"bar\" x=\"{:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{:.1}\">\
             <title>{}: {}</title></rect>",
            x + slot * 0.1,
            slot * 0.8,
            BOTTOM - y,
            esc(label),
            short(*value)
        );
        if i % every == 0 {
            svg.push_str(&x_label(x + slot / 2.0, label));
        }
    }
    svg.push_str("</svg>\n");
    svg
}

/// A line chart of `(k, value)` points with values in `[0, 1]`, shown as percentages.
fn line_chart(frame: &Frame, points: &[(u64, f64)]) -> String {
    let (Some(&(first, _)), Some(&(last, _))) = (points.first(), points.last()) else {
        return empty_plot(frame);
    };
    let ticks = [0.0, 0.25, 0.5, 0.75, 1.0];
    let mut svg = plot_open(frame);
    svg.push_str(&y_axis(&ticks, 1.0, |t| format!("{:.0}%", t * 100.0)));
    let span = (last - first).max(1) as f64;
    let pad = 20.0;
    let x_of = |k: u64| {
        if first == last {
            (LEFT + RIGHT) / 2.0
        } else {
            LEFT + pad + (k - first) as f64 / span * (RIGHT - LEFT - 2.0 * pad)
        }
    };
    let every = points.len().div_ceil(MAX_X_LABELS);
    let coords: Vec<String> = points
        .iter()
        .map(|&(k, v)| format!("{:.1},{:.1}", x_of(k), scale_y(v, 1.0)))
        .collect();
    let _ = writeln!(
        svg,
        "<polyline class=\"line\" points=\"{}\"/>",
        coords.join(" ")
    );
    for (i, &(k, value)) in points.iter().enumerate() {
        let _ = writeln!(
            svg,
            "<circle class=\"dot\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"3.5\"><title>pass@{k}: {}</title></circle>",
            x_of(k),
            scale_y(value, 1.0),
            percent(value)
        );
        if i % every == 0 || i + 1 == points.len() {
            svg.push_str(&x_label(x_of(k), &k.to_string()));
        }
    }
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::summary::summarize;
    use crate::summary::tests::{record, sample_records, settings};
    use serde_json::Value;

    fn two_env_summary() -> Summary {
        summarize(&settings(&["alpha", "beta"], 2), &sample_records())
    }

    /// The numeric leaves under `value` as `(path, printed value)`, except under `skip`.
    fn leaves(
        value: &Value,
        path: &str,
        skip: &dyn Fn(&str) -> bool,
        out: &mut Vec<(String, String)>,
    ) {
        if skip(path) {
            return;
        }
        match value {
            Value::Object(map) => {
                for (key, child) in map {
                    leaves(child, &format!("{path}.{key}"), skip, out);
                }
            }
            Value::Array(items) => {
                for (index, child) in items.iter().enumerate() {
                    leaves(child, &format!("{path}.{index}"), skip, out);
                }
            }
            Value::Number(_) => out.push((path.to_owned(), value.to_string())),
            _ => {}
        }
    }

    /// Every `(data-key, data-value)` pair of the page.
    fn tagged_pairs(page: &str) -> Vec<(String, String)> {
        let mut pairs = Vec::new();
        let mut rest = page;
        while let Some(at) = rest.find("data-key=\"") {
            rest = &rest[at + 10..];
            let key_end = rest.find('"').unwrap_or(0);
            let key = rest[..key_end].to_owned();
            rest = &rest[key_end..];
            let value_at = rest.find("data-value=\"").map(|i| i + 12).unwrap_or(0);
            rest = &rest[value_at..];
            let value_end = rest.find('"').unwrap_or(0);
            pairs.push((key, rest[..value_end].to_owned()));
        }
        pairs
    }

    /// The value at a dotted path of `summary.json` (env ids without dots).
    fn at_path<'a>(root: &'a Value, path: &str) -> Option<&'a Value> {
        path.split('.').try_fold(root, |value, part| match value {
            Value::Object(map) => map.get(part),
            Value::Array(items) => items.get(part.parse::<usize>().ok()?),
            _ => None,
        })
    }

    #[test]
    fn every_number_of_every_group_is_tagged() {
        let summary = two_env_summary();
        let page = render(&summary);
        let root = serde_json::to_value(&summary).unwrap_or(Value::Null);
        let skip = |path: &str| {
            path.ends_with("histogram")
                || (path.starts_with("settings.envs.") && path.ends_with(".config"))
        };
        let mut expected = Vec::new();
        for part in ["envs", "overall", "settings"] {
            if let Some(value) = root.get(part) {
                leaves(value, part, &skip, &mut expected);
            }
        }
        assert!(expected.len() > 60, "{}", expected.len());
        for key in [
            "envs.alpha.pass_at_k.2",
            "envs.beta.success_rate",
            "overall.latency_ms.p99",
        ] {
            assert!(expected.iter().any(|(k, _)| k == key), "{key}");
        }
        for (key, value) in &expected {
            let needle = format!("data-key=\"{key}\" data-value=\"{value}\"");
            assert!(page.contains(&needle), "missing {needle}");
        }
    }

    #[test]
    fn every_tagged_number_matches_the_summary() {
        let summary = two_env_summary();
        let page = render(&summary);
        let root = serde_json::to_value(&summary).unwrap_or(Value::Null);
        let pairs = tagged_pairs(&page);
        assert!(pairs.len() > 60);
        for (key, value) in pairs {
            let found = at_path(&root, &key).map(Value::to_string);
            assert_eq!(found.as_deref(), Some(value.as_str()), "{key}");
        }
    }

    #[test]
    fn numbers_are_rounded_for_people() {
        let page = render(&two_env_summary());
        assert!(
            page.contains("data-key=\"overall.mean_reward\" data-value=\"0.625\">0.625</span>")
        );
        assert!(
            page.contains("data-key=\"envs.alpha.success_rate\" data-value=\"0.5\">50.0%</span>")
        );
        assert!(
            page.contains("data-key=\"envs.alpha.pass_at_k.2\" data-value=\"1.0\">100.0%</span>")
        );
        assert!(page.contains("<th>pass@1</th><th>pass@2</th><th>pass^1</th><th>pass^2</th>"));
    }

    #[test]
    fn text_is_escaped() {
        let mut settings = settings(&["<script>env</script>"], 1);
        settings.model = "<script>alert(1)</script>".into();
        settings.system = Some("</pre><script>alert('x')</script> & \"quotes\"".into());
        settings.envs[0].wrappers = vec!["<b>wrap</b>".into()];
        let records = vec![record("<script>env</script>", 0, 0, 1.0, 1)];
        let page = render(&summarize(&settings, &records));
        assert!(!page.contains("<script"), "{page}");
        assert!(!page.contains("<b>"));
        assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(page.contains("&lt;/pre&gt;&lt;script&gt;alert(&#39;x&#39;)"));
        assert!(page.contains("&amp; &quot;quotes&quot;"));
        assert!(page.contains("data-key=\"envs.&lt;script&gt;env&lt;/script&gt;.episodes\""));
    }

    #[test]
    fn loads_nothing() {
        let mut summary = two_env_summary();
        for base_url in [
            "http://localhost:8000/v1",
            "https://api.example.invalid/v1?a=<b>&c",
        ] {
            summary.base_url = base_url.into();
            summary.settings.base_url = base_url.into();
            let page = render(&summary);
            let rest = page.replace(&esc(base_url), "");
            for needle in [
                "http://", "https://", "src=", "<link", "<script", "url(", "@import", "xmlns",
            ] {
                assert!(!rest.contains(needle), "{needle}");
            }
        }
    }

    #[test]
    fn plots_have_titles_and_axes() {
        let page = render(&two_env_summary());
        // Four plots per env and four for all envs.
        assert_eq!(page.matches("<svg").count(), 12);
        assert_eq!(page.matches("</svg>").count(), 12);
        for title in [
            "Reward distribution",
            "pass@k",
            "Turns per episode",
            "Episode latency",
        ] {
            let title = format!("<title>{title}</title>");
            assert_eq!(page.matches(&title).count(), 3, "{title}");
        }
        assert!(page.contains("<polyline class=\"line\""));
        assert!(page.contains("<rect class=\"bar\""));
        assert!(page.contains(">100%</text>"));
    }

    #[test]
    fn empty_run_renders() {
        let summary = summarize(&settings(&["alpha"], 3), &[]);
        let page = render(&summary);
        assert!(page.contains("no episodes"));
        assert!(page.contains("data-key=\"overall.episodes\" data-value=\"0\""));
        assert!(!page.contains("NaN"));
    }

    #[test]
    fn nice_ticks_cover_the_maximum() {
        assert_eq!(nice_ticks(5.0), (vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0], 0));
        assert_eq!(nice_ticks(7.0).0.last(), Some(&8.0));
        assert_eq!(nice_ticks(0.0).0.last(), Some(&1.0));
        let (ticks, decimals) = nice_ticks(0.9);
        assert_eq!(decimals, 1);
        assert!(ticks.last().is_some_and(|&t| t >= 0.9));
        assert_eq!(short(0.950_000_000_1), "0.95");
        assert_eq!(short(-0.0), "0");
    }
}
