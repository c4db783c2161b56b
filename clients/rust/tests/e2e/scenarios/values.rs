//! Values, expectations, captures: `$name.path` references, JSON pointers, matchers and the
//! check of an answer against a step's `expect`.

use std::collections::HashMap;

use serde_json::Value;

use super::exchange::{truncate, Exchange};

fn is_reference(text: &str) -> bool {
    let Some(rest) = text.strip_prefix('$') else { return false };
    let mut parts = rest.split('.');
    let first = parts.next().unwrap_or_default();
    let word = |part: &str, first: bool| {
        !part.is_empty()
            && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && (!first || !part.starts_with(|c: char| c.is_ascii_digit()))
    };
    word(first, true) && parts.all(|part| word(part, false))
}

fn lookup(variables: &HashMap<String, Value>, reference: &str) -> Result<Value, String> {
    let mut parts = reference.split('.');
    let name = parts.next().unwrap();
    let mut value = variables.get(name).ok_or(format!("${reference}: nothing was captured as {name}"))?;
    for part in parts {
        value = match value {
            Value::Array(items) => part.parse::<usize>().ok().and_then(|i| items.get(i)),
            Value::Object(fields) => fields.get(part),
            _ => None,
        }
        .ok_or(format!("${reference}: {part} is not in the captured value {value}"))?;
    }
    Ok(value.clone())
}

pub fn resolve(value: &Value, variables: &HashMap<String, Value>) -> Result<Value, String> {
    Ok(match value {
        Value::String(text) if text.starts_with("$$") => Value::String(text[1..].to_string()),
        Value::String(text) if is_reference(text) => lookup(variables, &text[1..])?,
        Value::Array(items) => {
            Value::Array(items.iter().map(|item| resolve(item, variables)).collect::<Result<_, _>>()?)
        }
        Value::Object(fields) if fields.len() == 1 && fields.contains_key("$repeat") => {
            let spec = &fields["$repeat"];
            let text = resolve(&spec["text"], variables)?;
            let times = resolve(&spec["times"], variables)?.as_f64().unwrap_or(0.0) as usize;
            Value::String(text.as_str().map(str::to_string).unwrap_or_else(|| text.to_string()).repeat(times))
        }
        Value::Object(fields) => Value::Object(
            fields
                .iter()
                .map(|(key, item)| Ok((key.clone(), resolve(item, variables)?)))
                .collect::<Result<_, String>>()?,
        ),
        other => other.clone(),
    })
}

pub fn pointer<'a>(document: Option<&'a Value>, location: &str) -> Option<&'a Value> {
    let document = document?;
    if location.is_empty() {
        return Some(document);
    }
    location[1..].split('/').try_fold(document, |value, raw| {
        let part = raw.replace("~1", "/").replace("~0", "~");
        match value {
            Value::Object(fields) => fields.get(&part),
            Value::Array(items) => part.parse::<usize>().ok().and_then(|i| items.get(i)),
            _ => None,
        }
    })
}

/// JSON equality with numbers compared by value (1 equals 1.0).
fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_eq(x, y)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(key, value)| y.get(key).is_some_and(|other| json_eq(value, other)))
        }
        _ => a == b,
    }
}

pub fn matches(actual: Option<&Value>, expected: &Value, variables: &HashMap<String, Value>) -> Result<bool, String> {
    if let Value::Object(fields) = expected {
        if let Some((operator, argument)) =
            fields.iter().next().filter(|(op, _)| fields.len() == 1 && op.starts_with('$') && *op != "$repeat")
        {
            let argument = resolve(argument, variables)?;
            if operator == "$exists" {
                return Ok(actual.is_some() == argument.as_bool().unwrap_or(false));
            }
            let Some(actual) = actual else { return Ok(false) };
            return Ok(match operator.as_str() {
                "$len" => {
                    let length = match actual {
                        Value::Array(items) => items.len(),
                        Value::Object(fields) => fields.len(),
                        Value::String(text) => text.chars().count(),
                        _ => return Ok(false),
                    };
                    argument.as_f64() == Some(length as f64)
                }
                "$in" => {
                    argument.as_array().is_some_and(|options| options.iter().any(|option| json_eq(actual, option)))
                }
                "$ne" => !json_eq(actual, &argument),
                "$type" => match argument.as_str().unwrap_or_default() {
                    "string" => actual.is_string(),
                    "integer" => actual.as_f64().is_some_and(|n| n.fract() == 0.0),
                    "number" => actual.is_number(),
                    "boolean" => actual.is_boolean(),
                    "object" => actual.is_object(),
                    "array" => actual.is_array(),
                    "null" => actual.is_null(),
                    _ => false,
                },
                other => return Err(format!("unknown matcher {other}")),
            });
        }
    }
    Ok(actual.is_some_and(|actual| json_eq(actual, &resolve(expected, variables).unwrap_or(Value::Null))))
}

pub fn shown(value: Option<&Value>) -> String {
    value.map_or("(missing)".to_string(), |value| truncate(&value.to_string(), 300))
}

pub(super) fn check_expect(
    exchange: &Exchange,
    expect: &Value,
    variables: &HashMap<String, Value>,
) -> Result<Vec<String>, String> {
    let mut problems = Vec::new();
    if expect["status"].as_u64() != Some(u64::from(exchange.status)) {
        problems.push(format!("status {}, expected {}", exchange.status, expect["status"]));
    }
    if let Some(wanted) = expect.get("code") {
        let wanted: Vec<&Value> = wanted.as_array().map_or(vec![wanted], |codes| codes.iter().collect());
        let code = exchange.json.as_ref().filter(|_| exchange.status >= 400).and_then(|body| body.get("code"));
        if !code.is_some_and(|code| wanted.contains(&code)) {
            problems.push(format!("code {}, expected {wanted:?}", shown(code)));
        }
    }
    for (location, expected) in expect["body"].as_object().into_iter().flatten() {
        let actual = pointer(exchange.json.as_ref(), location);
        if !matches(actual, expected, variables)? {
            let location = if location.is_empty() { "(whole)" } else { location };
            problems.push(format!("body {location} is {}, expected {}", shown(actual), shown(Some(expected))));
        }
    }
    for (name, expected) in expect["headers"].as_object().into_iter().flatten() {
        let actual = exchange.headers.get(name.as_str()).and_then(|v| v.to_str().ok()).map(|v| Value::String(v.into()));
        if !matches(actual.as_ref(), expected, variables)? {
            problems.push(format!("header {name} is {}, expected {}", shown(actual.as_ref()), shown(Some(expected))));
        }
    }
    Ok(problems)
}
