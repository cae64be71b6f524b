//! Waiting on an optional deadline, the one timer shape the server's select loops use.

use tokio::time::Instant;

/// Sleeps until `deadline`, or forever without one. A deadline already due returns at once:
/// tokio's timer rounds up to whole milliseconds, which would add up to 1 ms to every echo.
pub(crate) async fn sleep_until_opt(deadline: Option<Instant>) {
    match deadline {
        Some(d) if d <= Instant::now() => {}
        Some(d) => tokio::time::sleep_until(d).await,
        None => std::future::pending().await,
    }
}
