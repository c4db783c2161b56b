//! The session operations of [`Client`] (create, read, delete, truncate, fork) and the busy
//! helper, over [`Client`]'s attempts: one idempotency key per logical call where the operation
//! takes one, and `Agentic-Host` from the session id on every request that names a session (each
//! call built from its operation's row: `crate::call`).

use std::time::{Duration, Instant};

use super::convert::key;
use super::{Client, Response, DEFAULT_IDLE_WAIT};
use crate::call::Call;
use crate::error::{Error, TimeoutError, TimeoutKind};
use crate::generated::types;
use crate::operations;

impl Client {
    /// `POST /v1/sessions`: a new session at revision 0. `idempotency_key`: yours, or `None` for
    /// a fresh one, sent on every attempt of this call.
    pub async fn create_session(
        &self,
        body: &types::CreateSessionRequest,
        idempotency_key: Option<&str>,
    ) -> Result<types::CreateSessionResponse, Error> {
        self.create_session_with_response(body, idempotency_key).await.map(Response::into_inner)
    }

    /// [`Client::create_session`] with the answer's status and headers.
    pub async fn create_session_with_response(
        &self,
        body: &types::CreateSessionRequest,
        idempotency_key: Option<&str>,
    ) -> Result<Response<types::CreateSessionResponse>, Error> {
        let key = key::<types::CreateSessionIdempotencyKey>(idempotency_key)?;
        self.json(Call::new(&operations::CREATE_SESSION, &[]), |_| self.raw.create_session(Some(&key), body)).await
    }

    /// `GET /v1/sessions/{sessionId}`: metadata, instructions, visible history and turns.
    pub async fn read_session(&self, session_id: &str) -> Result<types::ReadSessionResponse, Error> {
        self.read_session_with_response(session_id).await.map(Response::into_inner)
    }

    /// [`Client::read_session`] with the answer's status and headers.
    pub async fn read_session_with_response(
        &self,
        session_id: &str,
    ) -> Result<Response<types::ReadSessionResponse>, Error> {
        self.json(Call::new(&operations::READ_SESSION, &[session_id]), |host| async move {
            self.raw.read_session(session_id, host.as_deref()).await
        })
        .await
    }

    /// `DELETE /v1/sessions/{sessionId}`: removes the session and aborts its active turn.
    pub async fn delete_session(&self, session_id: &str) -> Result<(), Error> {
        self.delete_session_with_response(session_id).await.map(Response::into_inner)
    }

    /// [`Client::delete_session`] with the answer's status and headers.
    pub async fn delete_session_with_response(&self, session_id: &str) -> Result<Response<()>, Error> {
        self.json(Call::new(&operations::DELETE_SESSION, &[session_id]), |host| async move {
            self.raw.delete_session(session_id, host.as_deref()).await
        })
        .await
    }

    /// `POST /v1/sessions/{sessionId}/truncate`: keeps the first `keep_turns` turns, at the next
    /// revision (no idempotency key: the operation takes none).
    pub async fn truncate_session(
        &self,
        session_id: &str,
        body: &types::TruncateSessionRequest,
    ) -> Result<types::CreateSessionResponse, Error> {
        self.truncate_session_with_response(session_id, body).await.map(Response::into_inner)
    }

    /// [`Client::truncate_session`] with the answer's status and headers.
    pub async fn truncate_session_with_response(
        &self,
        session_id: &str,
        body: &types::TruncateSessionRequest,
    ) -> Result<Response<types::CreateSessionResponse>, Error> {
        self.json(Call::new(&operations::TRUNCATE_SESSION, &[session_id]), |host| async move {
            self.raw.truncate_session(session_id, host.as_deref(), body).await
        })
        .await
    }

    /// `POST /v1/sessions/{sessionId}/fork`: a new session on the same host holding this one up
    /// to the boundary `body.revision` (`None`: the current revision; else 0 or the revision of a
    /// turn still recorded), at that revision, with its own accounting at zero; both sessions then
    /// continue independently. `idempotency_key`: yours, or `None` for a fresh one, sent on every
    /// attempt of this call (a retried fork is replayed, never made twice). An active turn is
    /// [`crate::ProblemKind::SessionBusy`]; a boundary the session no longer holds is
    /// [`crate::ProblemKind::SessionRevisionConflict`].
    pub async fn fork_session(
        &self,
        session_id: &str,
        body: &types::ForkSessionRequest,
        idempotency_key: Option<&str>,
    ) -> Result<types::CreateSessionResponse, Error> {
        self.fork_session_with_response(session_id, body, idempotency_key).await.map(Response::into_inner)
    }

    /// [`Client::fork_session`] with the answer's status and headers.
    pub async fn fork_session_with_response(
        &self,
        session_id: &str,
        body: &types::ForkSessionRequest,
        idempotency_key: Option<&str>,
    ) -> Result<Response<types::CreateSessionResponse>, Error> {
        let key = &key::<types::ForkSessionIdempotencyKey>(idempotency_key)?;
        self.json(Call::new(&operations::FORK_SESSION, &[session_id]), |host| async move {
            self.raw.fork_session(session_id, host.as_deref(), Some(key), body).await
        })
        .await
    }

    /// The busy helper: after a `SESSION_BUSY` (pass it as `busy`), reads the session until its
    /// status is no longer `running` and returns that read (the current revision, history and
    /// turns), so the caller decides what to send next. Waits first for the busy error's
    /// `Retry-After` (or 0.1 s), then each wait is twice the one before (a wait under 0.1 s counts
    /// as 0.1 s) up to 1 s, for at most 30 s
    /// ([`DEFAULT_IDLE_WAIT`]); then it fails with [`TimeoutKind::WaitUntilIdle`].
    pub async fn wait_until_idle(
        &self,
        session_id: &str,
        busy: Option<&Error>,
    ) -> Result<types::ReadSessionResponse, Error> {
        self.wait_until_idle_within(session_id, busy, DEFAULT_IDLE_WAIT).await
    }

    /// [`Client::wait_until_idle`] with another bound than 30 s.
    pub async fn wait_until_idle_within(
        &self,
        session_id: &str,
        busy: Option<&Error>,
        bound: Duration,
    ) -> Result<types::ReadSessionResponse, Error> {
        let deadline = Instant::now() + bound;
        let mut wait = busy.and_then(Error::retry_after).unwrap_or(FIRST_IDLE_WAIT);
        loop {
            let remaining = deadline.saturating_duration_since(Instant::now());
            if remaining.is_zero() {
                return Err(Error::Timeout(TimeoutError::new(TimeoutKind::WaitUntilIdle, Some(bound), None)));
            }
            tokio::time::sleep(wait.min(remaining)).await;
            let read = self.read_session(session_id).await?;
            if read.session.status != types::SessionStatus::Running {
                return Ok(read);
            }
            wait = next_idle_wait(wait);
        }
    }
}

const FIRST_IDLE_WAIT: Duration = Duration::from_millis(100);
const MAX_IDLE_WAIT: Duration = Duration::from_secs(1);

/// The busy helper's wait after `previous` (`clients/BEHAVIOUR.md`): twice it, taking a wait under
/// 0.1 s as 0.1 s, at most 1 s; so after a busy error's `Retry-After: 1` the reads come 1 s apart.
fn next_idle_wait(previous: Duration) -> Duration {
    (previous.max(FIRST_IDLE_WAIT) * 2).min(MAX_IDLE_WAIT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_idle_wait_is_twice_the_one_before_up_to_one_second() {
        let ms = Duration::from_millis;
        for schedule in [
            vec![ms(100), ms(200), ms(400), ms(800), ms(1000), ms(1000)], // no busy error
            vec![ms(0), ms(200), ms(400)],                                // Retry-After: 0
            vec![ms(1000), ms(1000), ms(1000)],                           // Retry-After: 1
            vec![ms(3000), ms(1000)],                                     // Retry-After: 3
        ] {
            for pair in schedule.windows(2) {
                assert_eq!(next_idle_wait(pair[0]), pair[1], "after {:?}", pair[0]);
            }
        }
    }
}
