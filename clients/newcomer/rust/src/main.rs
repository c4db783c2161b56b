//! A newcomer's app: everything a first session needs, each result asserted, against the host at
//! `AGENTIC_DRIVER_URL` with `AGENTIC_DRIVER_TOKEN` (see clients/newcomer/with_host.py). Exits
//! non-zero on the first mismatch.

use std::process::ExitCode;

use agentic_driver_client::{types, Client, Error, Event, ProblemKind};

fn check(ok: bool, what: &str) -> Result<(), String> {
    if ok {
        println!("ok   {what}");
        Ok(())
    } else {
        Err(format!("FAIL {what}"))
    }
}

async fn app() -> Result<(), String> {
    std::env::var("AGENTIC_DRIVER_URL").map_err(|_| "AGENTIC_DRIVER_URL is not set")?;
    // The URL and the token from the environment, as the README's first example.
    let client = Client::builder().build().map_err(|e| e.to_string())?;
    let failed = |e: Error| e.to_string();

    // Discovery: the echo provider and one of its models.
    let discovery = client.get_discovery().await.map_err(failed)?;
    let echo = discovery
        .providers
        .iter()
        .find(|provider| provider.id == "echo")
        .ok_or("no echo provider")?;
    let model = echo.models.first().ok_or("echo has no model")?.clone();
    check(
        discovery.sessions.enabled,
        "discovery: sessions are on, echo is served",
    )?;

    // Create, then two runs: the second proves the session continued.
    let request =
        types::CreateSessionRequest::new("echo", model.as_str(), types::SessionMode::History);
    let created = client
        .create_session(&request, None)
        .await
        .map_err(failed)?
        .session;
    check(created.revision == 0, "create: revision 0")?;
    // run_session: the result's session is always there.
    let first = client
        .run_session(&created.run_request("My name is Ada."), None)
        .await
        .map_err(failed)?;
    let session = first.session;
    check(session.revision == 1, "run 1: revision 1")?;
    let second = client
        .run_session(&session.run_request("!recall"), None)
        .await
        .map_err(failed)?;
    check(
        second.result.output.text == "recall: 2 messages; last user: My name is Ada.",
        "run 2: !recall continues",
    )?;
    let session = second.session;

    // A streamed run.
    let mut stream = client
        .stream_run(&session.run_request("!chunks 3\nstreamed"), None)
        .await
        .map_err(failed)?;
    let (mut text, mut completed) = (String::new(), None);
    while let Some(event) = stream.next().await {
        match event.map_err(failed)? {
            Event::OutputDelta(delta) => text.push_str(&delta.text),
            Event::RunCompleted(done) => completed = done.run.session,
            _ => {}
        }
    }
    let session = completed.ok_or("the stream ended without run.completed")?;
    check(
        text == "echo: streamed" && session.revision == 3,
        "stream: deltas and revision 3",
    )?;

    // A stale revision: the typed conflict with the current revision, in one step.
    match client.run(&created.run_request("stale"), None).await {
        Err(error) => match error.kind() {
            Some(ProblemKind::SessionRevisionConflict { current_revision }) => check(
                *current_revision == 3,
                "stale revision: SessionRevisionConflict, current revision 3",
            )?,
            _ => return Err(format!("FAIL stale revision: {error}")),
        },
        Ok(_) => return Err("FAIL stale revision: the run was accepted".into()),
    }

    // A busy session: the typed busy error, then the busy helper.
    let slow = tokio::spawn({
        let (client, request) = (client.clone(), session.run_request("!sleep 1500\nslow"));
        async move { client.run(&request, None).await }
    });
    let mut running = false;
    for _ in 0..200 {
        if client
            .read_session(&session.id)
            .await
            .map_err(failed)?
            .session
            .status
            == types::SessionStatus::Running
        {
            running = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    check(running, "the slow turn is running")?;
    let busy = match client.run(&session.run_request("too soon"), None).await {
        Err(error) => error,
        Ok(_) => return Err("FAIL busy: the run was accepted".into()),
    };
    let Some(ProblemKind::SessionBusy { active_run_id }) = busy.kind() else {
        return Err(format!("FAIL busy: {busy}"));
    };
    check(
        active_run_id.starts_with("run_"),
        "busy: SessionBusy with the active run",
    )?;
    let idle = client
        .wait_until_idle(&session.id, Some(&busy))
        .await
        .map_err(failed)?;
    check(
        idle.session.status == types::SessionStatus::Ready && idle.session.revision == 4,
        "wait_until_idle: ready at revision 4",
    )?;
    let slow = slow.await.map_err(|e| e.to_string())?.map_err(failed)?;
    check(slow.output.text == "echo: slow", "the slow turn completed")?;

    // Read, delete.
    let read = client.read_session(&session.id).await.map_err(failed)?;
    check(
        read.turns.len() == 4 && read.session.revision == 4,
        "read: 4 turns",
    )?;
    client.delete_session(&session.id).await.map_err(failed)?;
    let gone = client.read_session(&session.id).await;
    check(
        matches!(
            gone.as_ref().err().and_then(Error::kind),
            Some(ProblemKind::SessionNotFound)
        ),
        "delete: gone",
    )?;
    Ok(())
}

#[tokio::main]
async fn main() -> ExitCode {
    match app().await {
        Ok(()) => {
            println!("newcomer-rust: all checks passed");
            ExitCode::SUCCESS
        }
        Err(problem) => {
            eprintln!("{problem}");
            ExitCode::FAILURE
        }
    }
}
