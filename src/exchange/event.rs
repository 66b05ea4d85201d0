//! [`Event`]: what happened on the wire, for the exchange.

use core::fmt;

/// Something that happened on the wire, for [`Exchange::on`](super::Exchange::on).
///
/// # Examples
///
/// ```
/// use diverge_frame::exchange::{Event, Exchange, Status};
///
/// let mut exchange = Exchange::new(0);
/// for event in [Event::AskSent, Event::PathOpened, Event::CleanClose] {
///     exchange.on(event)?;
/// }
/// assert_eq!(exchange.status(), Status::NotServed);
/// assert_eq!(Event::PathAborted.to_string(), "path ended abruptly");
/// # Ok::<(), diverge_frame::exchange::UnexpectedEvent>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum Event {
    /// The ask (kind [`READ_RESOURCE_KIND`](super::READ_RESOURCE_KIND) and the request JSON) was sent on
    /// `/requests`.
    AskSent,
    /// The server opened `/mcp/read-resource/{channel}`.
    PathOpened,
    /// The `/requests` connection ended, cleanly or not.
    RequestsEnded,
    /// The path carried one whole message, then closed cleanly.
    Message,
    /// The path carried bytes that are not a valid frame (a relay refused
    /// them, or [`Frame::decode`](crate::Frame::decode) did once the path closed): see
    /// [`Status::Malformed`](super::Status::Malformed).
    MalformedMessage,
    /// The path closed cleanly with no message.
    CleanClose,
    /// The path ended abruptly.
    PathAborted,
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::AskSent => "ask sent",
            Self::PathOpened => "path opened",
            Self::RequestsEnded => "/requests ended",
            Self::Message => "message received",
            Self::MalformedMessage => "malformed message received",
            Self::CleanClose => "path closed cleanly with no message",
            Self::PathAborted => "path ended abruptly",
        })
    }
}
