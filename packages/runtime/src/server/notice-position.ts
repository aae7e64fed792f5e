// Which session notice (by its position in the notices' history) this instance is delivering
// to its sessions' streams right now. Delivery is synchronous (notifySessions hands each
// stream the message at once), so a stream reads the position as it is given the message.
// Internal: shared by server/message-bus.ts and transport/http/server/resumable.ts.

/** The position of the notice being delivered to this instance's sessions now, if any. */
let delivering: string | undefined;

/**
 * The history position of the session notice whose delivery is under way (synchronous:
 * read while a session's stream is given a message), or undefined for any other message. A
 * stream that caught up with the history skips the notices it already has so.
 */
export function sessionNoticePosition(): string | undefined {
  return delivering;
}

export function deliverAt(at: string | undefined, deliver: () => void): void {
  delivering = at;
  try {
    deliver();
  } finally {
    delivering = undefined;
  }
}
