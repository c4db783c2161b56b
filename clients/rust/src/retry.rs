//! Which failed attempts are retried, and after how long (`clients/BEHAVIOUR.md`, Retries).
//! Pure functions of the failure, the method and the attempt number, so the table is unit-tested
//! here without a server.

use std::time::{Duration, SystemTime};

use reqwest::header::{HeaderMap, RETRY_AFTER};

use crate::error::{Error, TimeoutKind};

/// The longest `Retry-After` a client waits out; a longer ask is raised at once.
pub const RETRY_AFTER_CAP: Duration = Duration::from_secs(60);
/// The first backoff wait, doubled per retry up to [`BACKOFF_MAX`], without `Retry-After`.
pub const BACKOFF_BASE: Duration = Duration::from_millis(500);
pub const BACKOFF_MAX: Duration = Duration::from_secs(8);

/// What to do after a failed attempt.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Decision {
    /// Raise the error.
    Stop,
    /// Wait this long, then try again.
    RetryAfter(Duration),
    /// Wait the backoff of this retry, then try again.
    Backoff,
}

/// Whether the failure of one attempt may be retried, by the table of BEHAVIOUR.md. `answered`
/// is false when the failure came before any response head arrived.
pub(crate) fn decide(error: &Error, idempotent_method: bool, answered: bool) -> Decision {
    match error {
        // A connection failure before any response: every method. After the head (a body that
        // broke off): never, the answer was produced.
        Error::Connection(_) if !answered => Decision::Backoff,
        Error::Timeout(timeout) if !answered => match timeout.kind() {
            TimeoutKind::Connect => Decision::Backoff,
            // A POST whose head did not arrive in time: the host stops a run whose client hung up.
            TimeoutKind::Read if idempotent_method => Decision::Backoff,
            _ => Decision::Stop,
        },
        Error::Problem(problem) => {
            if should_not_retry(&problem.headers) {
                return Decision::Stop;
            }
            match problem.code.as_str() {
                "HOST_BUSY"
                | "SESSION_STORE_FULL"
                | "SHUTTING_DOWN"
                | "HOST_UNAVAILABLE"
                | "IDEMPOTENCY_KEY_IN_USE" => {
                    wait_for(retry_after(&problem.headers).or_else(|| {
                        problem.retry_after_seconds.map(|seconds| Duration::from_secs(seconds.max(0) as u64))
                    }))
                }
                _ => Decision::Stop,
            }
        }
        Error::UnexpectedStatus(answer) if matches!(answer.status, 502..=504) => {
            if should_not_retry(&answer.headers) {
                Decision::Stop
            } else {
                wait_for(retry_after(&answer.headers))
            }
        }
        _ => Decision::Stop,
    }
}

fn wait_for(asked: Option<Duration>) -> Decision {
    match asked {
        Some(delay) if delay > RETRY_AFTER_CAP => Decision::Stop,
        Some(delay) => Decision::RetryAfter(delay),
        None => Decision::Backoff,
    }
}

fn should_not_retry(headers: &HeaderMap) -> bool {
    headers
        .get("x-should-retry")
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.trim().eq_ignore_ascii_case("false"))
}

/// The wait before retry `retry` (from 0) without `Retry-After`: `min(0.5 s * 2^n, 8 s)` times
/// `jitter`, a factor in `[0.75, 1.0]`.
pub(crate) fn backoff(retry: u32, jitter: f64) -> Duration {
    let base = BACKOFF_BASE.saturating_mul(2u32.saturating_pow(retry.min(16))).min(BACKOFF_MAX);
    base.mul_f64(jitter.clamp(0.75, 1.0))
}

/// A random jitter factor in `[0.75, 1.0]`.
pub(crate) fn jitter() -> f64 {
    // The first 48 bits of a UUID v4 are random (its version and variant bits come later).
    let random = uuid::Uuid::new_v4().as_u64_pair().0 >> 16;
    0.75 + 0.25 * (random as f64 / (1u64 << 48) as f64)
}

/// `Retry-After` as delta-seconds or an HTTP date (a date in the past is no wait).
pub fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let value = headers.get(RETRY_AFTER)?.to_str().ok()?.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let date = chrono::DateTime::parse_from_rfc2822(value).ok()?;
    let at = SystemTime::UNIX_EPOCH + Duration::from_secs(u64::try_from(date.timestamp()).ok()?);
    Some(at.duration_since(SystemTime::now()).unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::error_from_answer;

    fn answer(status: u16, headers: &[(&str, &str)], body: &str) -> Error {
        let mut map = HeaderMap::new();
        for (name, value) in headers {
            map.insert(reqwest::header::HeaderName::from_bytes(name.as_bytes()).unwrap(), value.parse().unwrap());
        }
        error_from_answer(status, &map, body.as_bytes())
    }

    fn problem(status: u16, code: &str, headers: &[(&str, &str)]) -> Error {
        let body = format!(
            r#"{{"type":"urn:agentic-driver:problem:{code}","title":"T","status":{status},"code":"{code}","detail":"d","currentRevision":2,"activeRunId":"run_1","hostId":"a","ownerHostId":"b"}}"#
        );
        answer(status, headers, &body)
    }

    #[test]
    fn retries_the_busy_codes_after_retry_after() {
        for (status, code) in
            [(503, "HOST_BUSY"), (503, "SESSION_STORE_FULL"), (503, "SHUTTING_DOWN"), (503, "HOST_UNAVAILABLE")]
        {
            let error = problem(status, code, &[("retry-after", "2")]);
            assert_eq!(decide(&error, false, true), Decision::RetryAfter(Duration::from_secs(2)), "{code}");
            assert_eq!(decide(&problem(status, code, &[]), false, true), Decision::Backoff, "{code}");
        }
        assert_eq!(decide(&problem(409, "IDEMPOTENCY_KEY_IN_USE", &[]), false, true), Decision::Backoff);
    }

    #[test]
    fn a_retry_after_above_the_cap_is_raised_at_once() {
        assert_eq!(decide(&problem(503, "HOST_BUSY", &[("retry-after", "61")]), false, true), Decision::Stop);
        let at_cap = problem(503, "HOST_BUSY", &[("retry-after", "60")]);
        assert_eq!(decide(&at_cap, false, true), Decision::RetryAfter(RETRY_AFTER_CAP));
    }

    #[test]
    fn never_retries_what_the_table_forbids() {
        for (status, code) in [
            (409, "SESSION_REVISION_CONFLICT"),
            (409, "SESSION_BUSY"),
            (409, "SESSION_INTERRUPTED"),
            (421, "MISDIRECTED_REQUEST"),
            (502, "PROVIDER_ERROR"),
            (504, "PROVIDER_TIMEOUT"),
            (429, "PROVIDER_RATE_LIMITED"),
            (503, "PROVIDER_OVERLOADED"),
            (500, "INTERNAL_ERROR"),
            (400, "VALIDATION_ERROR"),
            (404, "SESSION_NOT_FOUND"),
            (418, "SOME_NEWER_CODE"),
        ] {
            let error = problem(status, code, &[("retry-after", "1")]);
            assert_eq!(decide(&error, true, true), Decision::Stop, "{code}");
        }
        let busy = problem(503, "HOST_BUSY", &[("retry-after", "1"), ("x-should-retry", "false")]);
        assert_eq!(decide(&busy, true, true), Decision::Stop, "x-should-retry: false wins");
    }

    #[test]
    fn retries_a_proxys_gateway_errors_only() {
        for status in [502, 503, 504] {
            assert_eq!(decide(&answer(status, &[], "<html>gateway</html>"), false, true), Decision::Backoff);
        }
        let asked = answer(503, &[("retry-after", "1")], "<html>down</html>");
        assert_eq!(decide(&asked, false, true), Decision::RetryAfter(Duration::from_secs(1)));
        for status in [500, 501, 400, 429] {
            assert_eq!(decide(&answer(status, &[], "<html/>"), true, true), Decision::Stop, "{status}");
        }
        let refused = answer(502, &[("x-should-retry", "false")], "<html/>");
        assert_eq!(decide(&refused, true, true), Decision::Stop);
    }

    #[test]
    fn timeouts_by_kind_and_method() {
        use crate::error::TimeoutError;
        let timeout = |kind| Error::Timeout(TimeoutError::new(kind, None, None));
        assert_eq!(decide(&timeout(TimeoutKind::Connect), false, false), Decision::Backoff);
        assert_eq!(decide(&timeout(TimeoutKind::Read), true, false), Decision::Backoff, "GET/DELETE");
        assert_eq!(decide(&timeout(TimeoutKind::Read), false, false), Decision::Stop, "POST");
        assert_eq!(decide(&timeout(TimeoutKind::Read), true, true), Decision::Stop, "after the head");
        assert_eq!(decide(&timeout(TimeoutKind::StreamIdle), true, false), Decision::Stop);
    }

    #[test]
    fn backoff_doubles_to_its_cap_with_jitter() {
        assert_eq!(backoff(0, 1.0), Duration::from_millis(500));
        assert_eq!(backoff(1, 1.0), Duration::from_secs(1));
        assert_eq!(backoff(3, 1.0), Duration::from_secs(4));
        assert_eq!(backoff(4, 1.0), BACKOFF_MAX);
        assert_eq!(backoff(40, 1.0), BACKOFF_MAX);
        assert_eq!(backoff(0, 0.75), Duration::from_millis(375));
        let draws: Vec<f64> = (0..200).map(|_| jitter()).collect();
        assert!(draws.iter().all(|factor| (0.75..=1.0).contains(factor)));
        assert!(draws.iter().any(|factor| *factor < 0.85) && draws.iter().any(|factor| *factor > 0.9));
    }

    #[test]
    fn reads_retry_after_as_seconds_or_a_date() {
        let mut headers = HeaderMap::new();
        assert_eq!(retry_after(&headers), None);
        headers.insert(RETRY_AFTER, " 7 ".parse().unwrap());
        assert_eq!(retry_after(&headers), Some(Duration::from_secs(7)));
        headers.insert(RETRY_AFTER, "Wed, 21 Oct 2015 07:28:00 GMT".parse().unwrap());
        assert_eq!(retry_after(&headers), Some(Duration::ZERO), "a past date");
        let later = chrono::Utc::now() + chrono::Duration::seconds(30);
        headers.insert(RETRY_AFTER, later.format("%a, %d %b %Y %H:%M:%S GMT").to_string().parse().unwrap());
        let delay = retry_after(&headers).unwrap();
        assert!(delay > Duration::from_secs(27) && delay <= Duration::from_secs(30), "{delay:?}");
        headers.insert(RETRY_AFTER, "soon".parse().unwrap());
        assert_eq!(retry_after(&headers), None);
    }
}
