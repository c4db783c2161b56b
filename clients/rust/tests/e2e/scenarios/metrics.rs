//! `metric` steps: the Prometheus text of a host's `/metrics`, summed by name and labels.

use std::collections::HashMap;

use serde_json::{json, Value};

use super::values::resolve;

/// The sum of the samples called `name` whose labels include `labels` (Prometheus text format).
pub fn metric_value(text: &str, name: &str, labels: &serde_json::Map<String, Value>) -> f64 {
    let mut total = 0.0;
    for line in text.lines().filter(|line| !line.starts_with('#')) {
        let Some((series, value)) = line.trim_end().rsplit_once(' ') else { continue };
        let (sample, label_text) = match series.split_once('{') {
            Some((sample, rest)) => (sample, rest.strip_suffix('}').unwrap_or(rest)),
            None => (series, ""),
        };
        if sample != name {
            continue;
        }
        let found = parse_labels(label_text);
        if labels.iter().all(|(key, wanted)| found.get(key.as_str()).map(String::as_str) == wanted.as_str()) {
            total += value.parse::<f64>().unwrap_or(0.0);
        }
    }
    total
}

/// `a="x",b="y\"z"` -> {a: x, b: y"z}.
fn parse_labels(text: &str) -> HashMap<&str, String> {
    let mut labels = HashMap::new();
    let mut rest = text;
    while let Some((key, after)) = rest.split_once("=\"") {
        let mut value = String::new();
        let mut chars = after.char_indices();
        let mut end = after.len();
        while let Some((index, c)) = chars.next() {
            match c {
                '\\' => value.extend(chars.next().map(|(_, escaped)| if escaped == 'n' { '\n' } else { escaped })),
                '"' => {
                    end = index + 1;
                    break;
                }
                c => value.push(c),
            }
        }
        labels.insert(key.trim_start_matches(',').trim(), value);
        rest = &after[end..];
    }
    labels
}

/// A `metric` step (both players'): reads the host's `/metrics` with the request `metrics`,
/// checks the increase since a captured value, then captures the value.
pub async fn metric_step(
    metrics: reqwest::RequestBuilder,
    step: &Value,
    variables: &mut HashMap<String, Value>,
) -> Result<(), String> {
    let text = metrics.send().await.map_err(|e| e.to_string())?.text().await.map_err(|e| e.to_string())?;
    let name = step["metric"].as_str().unwrap_or_default();
    let empty = serde_json::Map::new();
    let labels = step["labels"].as_object().unwrap_or(&empty);
    let value = metric_value(&text, name, labels);
    if let Some(expect) = step.get("expect") {
        let since = resolve(&expect["since"], variables)?.as_f64().unwrap_or(0.0);
        let increase = expect["increase"].as_f64().unwrap_or(0.0);
        if value - since != increase {
            return Err(format!("{name}{} grew by {}, expected {increase}", step["labels"], value - since));
        }
    }
    if let Some(name) = step["capture"].as_str() {
        variables.insert(name.to_string(), json!(value));
    }
    Ok(())
}
