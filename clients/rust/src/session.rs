//! Session helpers: hand-written methods on the generated session and request types.

use crate::generated::types::{Attachment, CreateSessionRequest, RunRequest, SessionHandle, SessionInfo, SessionMode};

/// What identifies a session for its whole life: the host that holds it, its id, and its
/// binding (provider instance, model) and mode. None of it changes from turn to turn; the
/// revision, status, timestamps and counters do. Two `SessionInfo`s with equal identities are
/// the same session at possibly different revisions.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SessionIdentity {
    pub host_id: String,
    pub id: String,
    pub provider: String,
    pub model: String,
    pub mode: SessionMode,
}

impl SessionInfo {
    /// The handle `{id, revision}`: exactly the two fields a session run sends.
    pub fn handle(&self) -> SessionHandle {
        // The spec bounds a handle's revision (2^53 - 1, what JSON numbers hold exactly), so the types differ.
        SessionHandle { id: self.id.clone(), revision: i64::try_from(self.revision).unwrap_or(i64::MAX) }
    }

    /// The parts of the session that never change (see [`SessionIdentity`]).
    pub fn identity(&self) -> SessionIdentity {
        SessionIdentity {
            host_id: self.host_id.clone(),
            id: self.id.clone(),
            provider: self.provider.clone(),
            model: self.model.clone(),
            mode: self.mode,
        }
    }

    /// A run that continues this session at its current revision with `input`.
    pub fn run_request(&self, input: impl Into<String>) -> RunRequest {
        RunRequest { session: Some(self.handle()), ..RunRequest::new(&self.provider, &self.model, input) }
    }
}

impl Attachment {
    /// A file for a run's `attachments`, `content` base64-encoded (which media types an instance
    /// takes is in discovery's `attachment_media_types`).
    pub fn from_bytes(name: impl Into<String>, media_type: impl Into<String>, content: impl AsRef<[u8]>) -> Attachment {
        use base64::Engine as _;
        let data = base64::engine::general_purpose::STANDARD.encode(content);
        Attachment { name: name.into(), media_type: media_type.into(), data }
    }
}

impl RunRequest {
    /// A stateless run with only the required fields; set the others on the value.
    pub fn new(provider: impl Into<String>, model: impl Into<String>, input: impl Into<String>) -> RunRequest {
        RunRequest {
            provider: provider.into(),
            model: model.into(),
            input: input.into(),
            attachments: Vec::new(),
            history: Vec::new(),
            idle_timeout_ms: None,
            action_timeout_ms: None,
            on_disconnect: None,
            instructions: None,
            retrieval: None,
            session: None,
            tools: Vec::new(),
        }
    }
}

impl CreateSessionRequest {
    /// A session request with only the required fields; set the others on the value.
    pub fn new(provider: impl Into<String>, model: impl Into<String>, mode: SessionMode) -> CreateSessionRequest {
        CreateSessionRequest {
            provider: provider.into(),
            model: model.into(),
            mode,
            history: Vec::new(),
            instructions: None,
            native_history: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(revision: i64) -> SessionInfo {
        serde_json::from_value(serde_json::json!({
            "id": "ses_1", "revision": revision, "status": "ready", "provider": "echo", "model": "echo-1",
            "mode": "history", "createdAt": "2026-11-29T18:50:42.123Z", "updatedAt": "2026-11-29T18:50:42.123Z",
            "expiresAt": null, "messageCount": 0, "recordBytes": 0, "hostId": "h", "nativeHistory": "full",
            "runCount": 0, "cost": null, "servedModels": [],
            "usage": {"inputTokens": 0, "outputTokens": 0, "cachedInputTokens": 0, "cacheWriteTokens": 0, "reasoningTokens": 0},
            "retries": {"count": 0, "inputTokens": 0, "outputTokens": 0, "cost": null}
        }))
        .unwrap()
    }

    #[test]
    fn handle_copies_exactly_id_and_revision() {
        let handle = info(4).handle();
        assert_eq!(serde_json::to_value(handle).unwrap(), serde_json::json!({"id": "ses_1", "revision": 4}));
    }

    #[test]
    fn identity_ignores_the_revision() {
        assert_eq!(info(1).identity(), info(7).identity());
        assert_eq!(info(1).identity().host_id, "h");
    }

    #[test]
    fn an_attachment_from_bytes_is_base64_encoded() {
        let file = Attachment::from_bytes("a.txt", "text/plain", "h\u{e9}llo");
        assert_eq!(
            (file.name.as_str(), file.media_type.as_str(), file.data.as_str()),
            ("a.txt", "text/plain", "aMOpbGxv")
        );
        assert_eq!(Attachment::from_bytes("b", "application/pdf", [0u8, 255]).data, "AP8=");
    }

    #[test]
    fn run_request_continues_the_session() {
        let request = info(2).run_request("Hello");
        assert_eq!(
            serde_json::to_value(request).unwrap(),
            serde_json::json!({"provider": "echo", "model": "echo-1", "input": "Hello", "session": {"id": "ses_1", "revision": 2}})
        );
    }
}
