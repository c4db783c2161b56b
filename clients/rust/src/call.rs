//! One call of an operation, built from the operation's row of the generated table
//! (`operations.rs`, from openapi.yaml): the path it is sent to, and the `Agentic-Host` of its first
//! attempt, taken from the argument the row's `x-routing-id` names (`clients/BEHAVIOUR.md`,
//! Routing). A method of [`crate::Client`] says which operation it calls and passes its arguments;
//! it never chooses which of them routes.

use crate::generated::types;
use crate::operations::{Operation, Routing};
use crate::routing;

/// A request body that may hold the id its call routes by (a row's [`Routing::BodyPointer`]).
pub(crate) trait RoutingBody {
    /// The id at `pointer` (`["session", "id"]`) in this body, when it has one there.
    fn routing_id(&self, pointer: &[&str]) -> Option<&str>;
}

impl RoutingBody for types::RunRequest {
    fn routing_id(&self, pointer: &[&str]) -> Option<&str> {
        match pointer {
            ["session", "id"] => self.session.as_ref().map(|session| session.id.as_str()),
            _ => None,
        }
    }
}

/// What one call of an operation sends.
#[derive(Debug)]
pub(crate) struct Call {
    /// The operation's row: its method, for the log and the retry table.
    pub(crate) operation: &'static Operation,
    /// The path template with the call's path parameters in it (for the log).
    pub(crate) path: String,
    /// The owner of the id that routes the call: its first attempt's `Agentic-Host`.
    pub(crate) host: Option<String>,
}

impl Call {
    /// A call of `operation` with `params`, the values of its path parameters in the template's order.
    pub(crate) fn new(operation: &'static Operation, params: &[&str]) -> Call {
        Call::routed(operation, params, None)
    }

    /// A call of `operation` with `params` and the request body, which may hold its routing id.
    pub(crate) fn with_body(operation: &'static Operation, params: &[&str], body: &dyn RoutingBody) -> Call {
        Call::routed(operation, params, Some(body))
    }

    fn routed(operation: &'static Operation, params: &[&str], body: Option<&dyn RoutingBody>) -> Call {
        debug_assert_eq!(parameters(operation.path).count(), params.len(), "{}: its path parameters", operation.id);
        debug_assert!(
            body.is_some() || !matches!(operation.routing, Routing::BodyPointer(_)),
            "{} routes by its body: build its call with Call::with_body",
            operation.id
        );
        let id = match operation.routing {
            Routing::None => None,
            Routing::PathParam(name) => parameters(operation.path)
                .position(|parameter| parameter == name)
                .and_then(|at| params.get(at).copied()),
            Routing::BodyPointer(pointer) => body.and_then(|body| body.routing_id(pointer)),
        };
        Call { operation, path: expand(operation.path, params), host: id.and_then(routing::owner) }
    }
}

/// The names of a path template's parameters, in order (`/v1/runs/{runId}/events`: `runId`).
fn parameters(template: &str) -> impl Iterator<Item = &str> {
    template.split('{').skip(1).filter_map(|part| part.split_once('}').map(|(name, _)| name))
}

/// The template with each `{parameter}` replaced by the next of `params`, as sent (not escaped).
fn expand(template: &str, params: &[&str]) -> String {
    let mut parts = template.split('{');
    let mut path = parts.next().unwrap_or_default().to_owned();
    for (part, value) in parts.zip(params.iter().chain(std::iter::repeat(&""))) {
        let rest = part.split_once('}').map_or(part, |(_, rest)| rest);
        path.push_str(value);
        path.push_str(rest);
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::operations::{self, OPERATIONS};

    /// The operations whose body routes them, and the one body type that does (a `RunRequest`).
    const ROUTED_BY_A_RUN_REQUEST: [&str; 2] = ["run", "streamRun"];

    fn run_request(session: &str) -> types::RunRequest {
        let mut request = types::RunRequest::new("echo", "echo-1", "x");
        request.session = Some(types::SessionHandle { id: session.into(), revision: 0 });
        request
    }

    #[test]
    fn every_routing_id_of_the_table_is_one_the_client_reads() {
        let mut by_body = Vec::new();
        for operation in OPERATIONS {
            match operation.routing {
                Routing::None => {}
                Routing::PathParam(name) => {
                    assert!(parameters(operation.path).any(|parameter| parameter == name), "{}", operation.id)
                }
                Routing::BodyPointer(pointer) => {
                    by_body.push(operation.id);
                    let read = run_request("ses_owner.x").routing_id(pointer).map(str::to_owned);
                    assert_eq!(read.as_deref(), Some("ses_owner.x"), "{}: RunRequest has no {pointer:?}", operation.id);
                }
            }
        }
        assert_eq!(by_body, ROUTED_BY_A_RUN_REQUEST, "the operations routed by a body: teach RoutingBody the others");
    }

    #[test]
    fn each_call_takes_its_host_from_the_argument_its_row_names() {
        let body = run_request("ses_body.x");
        for operation in OPERATIONS {
            let names: Vec<&str> = parameters(operation.path).collect();
            let ids: Vec<String> = (0..names.len()).map(|at| format!("ses_param{at}.x")).collect();
            let params: Vec<&str> = ids.iter().map(String::as_str).collect();
            let call = Call::with_body(operation, &params, &body);
            let want = match operation.routing {
                Routing::None => None,
                Routing::PathParam(name) => names.iter().position(|n| *n == name).map(|at| format!("param{at}")),
                Routing::BodyPointer(_) => Some("body".to_owned()),
            };
            assert_eq!(call.host, want, "{}", operation.id);
            assert!(!call.path.contains(['{', '}']), "{}: {}", operation.id, call.path);
            // Without a body (or without a session in it) nothing routes by the body.
            if !matches!(operation.routing, Routing::BodyPointer(_)) {
                assert_eq!(Call::new(operation, &params).host, want, "{}", operation.id);
            }
        }
        let stateless = types::RunRequest::new("echo", "echo-1", "x");
        assert_eq!(Call::with_body(&operations::RUN, &[], &stateless).host, None);
    }

    #[test]
    fn a_path_is_its_template_with_the_calls_parameters() {
        let call = Call::new(&operations::STREAM_RUN_EVENTS, &["run_beta.AAEC"]);
        assert_eq!(call.path, "/v1/runs/run_beta.AAEC/events");
        assert_eq!(call.host.as_deref(), Some("beta"));
        assert_eq!(Call::new(&operations::GET_HEALTH, &[]).path, "/healthz");
        assert_eq!(Call::new(&operations::READ_SESSION, &["ses_k3Jx9"]).host, None, "an old id: no host part");
        assert_eq!(expand("/a/{x}/b/{y}", &["1", "2"]), "/a/1/b/2");
    }

    #[test]
    fn the_operations_that_take_a_key_are_those_whose_methods_take_one() {
        let keyed: Vec<&str> = OPERATIONS.iter().filter(|op| op.takes_idempotency_key).map(|op| op.id).collect();
        // `idempotency_key: Option<&str>` on run, stream_run, create_session, submit_run_actions,
        // stream_run_actions and fork_session (and nowhere else), in the table's order.
        assert_eq!(keyed, ["run", "streamRun", "createSession", "submitRunActions", "streamRunActions", "forkSession"]);
    }
}
