//! Routing (`clients/BEHAVIOUR.md`, Routing): the owner of a session or run id, from which every
//! request about it sends `Agentic-Host` (the generated `agentic_host` argument), and the owner a
//! `421 MISDIRECTED_REQUEST` names. Only routing reads an id's prefix; applications treat ids as
//! opaque.

use crate::error::{Error, ProblemKind};

/// Whether `text` is a DNS label (RFC 1123): `^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$`.
pub(crate) fn is_host_label(text: &str) -> bool {
    let bytes = text.as_bytes();
    let edge = |byte: &u8| byte.is_ascii_lowercase() || byte.is_ascii_digit();
    (1..=63).contains(&bytes.len())
        && bytes.first().is_some_and(edge)
        && bytes.last().is_some_and(edge)
        && bytes.iter().all(|byte| edge(byte) || *byte == b'-')
}

/// The owning host of a session or run id (`ses_{hostId}.{random}`, `run_{hostId}.{random}`):
/// the text between the prefix and the first `.`, when it is a DNS label. `None` for an id in
/// the old form (no `.`), with another prefix, or whose host part is not a DNS label.
pub(crate) fn host_of(id: &str) -> Option<&str> {
    let rest = id.strip_prefix("ses_").or_else(|| id.strip_prefix("run_"))?;
    let (host, _) = rest.split_once('.')?;
    is_host_label(host).then_some(host)
}

/// The owner of a session or run id, owned (for the call's first attempt; which id routes a call
/// is its operation's `x-routing-id`: `crate::call`).
pub(crate) fn owner(id: &str) -> Option<String> {
    host_of(id).map(str::to_owned)
}

/// The host to send the same request to at once, when `error` is a `421 MISDIRECTED_REQUEST`
/// naming an owner that is a DNS label.
pub(crate) fn misdirected_owner(error: &Error) -> Option<&str> {
    match error.kind() {
        Some(ProblemKind::MisdirectedRequest { owner_host_id, .. }) if is_host_label(owner_host_id) => {
            Some(owner_host_id)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_host_of_an_id() {
        let long = "a".repeat(63);
        let too_long = "a".repeat(64);
        let cases: Vec<(String, Option<&str>)> = vec![
            ("ses_alpha-1.k3Jx9_Qw-Zp0aBcDeFgHiJ".into(), Some("alpha-1")),
            ("run_beta.AAECAwQFBgcICQoLDA0ODw".into(), Some("beta")),
            ("ses_a.x".into(), Some("a")),
            ("ses_0.x".into(), Some("0")),
            (format!("ses_{long}.x"), Some(long.as_str())),
            ("run_host-7.with.more.dots".into(), Some("host-7")),
            ("ses_alpha.".into(), Some("alpha")),
            ("ses_k3Jx9_Qw-Zp0aBcDeFgHiJ".into(), None), // an old id: no host part
            (format!("ses_{too_long}.x"), None),
            ("ses_Alpha.x".into(), None),
            ("ses_-alpha.x".into(), None),
            ("ses_alpha-.x".into(), None),
            ("ses_al_pha.x".into(), None),
            ("ses_.x".into(), None),
            ("sess_alpha.x".into(), None),
            ("alpha.x".into(), None),
            ("".into(), None),
        ];
        for (id, host) in &cases {
            assert_eq!(host_of(id), *host, "{id:?}");
        }
    }
}
