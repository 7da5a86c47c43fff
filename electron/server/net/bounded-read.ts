/**
 * Reading a remote server's answer without letting it hold the server: one deadline for the whole
 * exchange (headers to last byte, since the signal given to fetch also ends the body's reading),
 * aborted at once by the caller's own signal (an account or site removed, the app quitting), and a
 * size limit checked on the announced Content-Length and again on the bytes as they come (a server
 * may announce nothing, or lie). CalDAV, websites and subscriptions read through this; each caller
 * keeps its own limits and makes its own error, in its own words.
 */

/** Ends when the time is up or any of the given signals aborts. */
export function deadline(timeoutMs: number, ...signals: Array<AbortSignal | undefined | null>): AbortSignal {
  const given = signals.filter((s): s is AbortSignal => !!s);
  const timer = AbortSignal.timeout(timeoutMs);
  return given.length === 0 ? timer : AbortSignal.any([timer, ...given]);
}

export interface SizeLimit {
  maxBytes: number;
  /** The caller's error for an answer over the limit (thrown, or used to error the stream). */
  tooLarge: () => Error;
}

/** A limit in the words a user reads: "16 MB", "512 KB". */
export function sizeLabel(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} KB`;
}

/** Refuses before reading when the server announces more than the limit; the body is let go. */
function refuseAnnounced(res: Response, limit: SizeLimit): void {
  const announced = Number(res.headers.get('content-length') ?? NaN);
  if (Number.isFinite(announced) && announced > limit.maxBytes) {
    // Not awaited: cancelling must not wait on the server it gives up on.
    void res.body?.cancel().catch(() => undefined);
    throw limit.tooLarge();
  }
}

/**
 * The whole body as UTF-8 text, stopped (and the connection let go) once more than the limit has
 * come. Errors of the network or of the deadline while reading pass through as they are, for the
 * caller to tell in its words.
 */
export async function readBoundedText(res: Response, limit: SizeLimit): Promise<string> {
  refuseAnnounced(res, limit);
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let seen = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    seen += value.byteLength;
    if (seen > limit.maxBytes) {
      void reader.cancel().catch(() => undefined);
      throw limit.tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The same answer as a Response whose body errors once more than the limit has come, for a reader
 * that takes a Response (tsdav). `inspect` may look at each chunk as it passes and return an error
 * to end the body with (a multistatus listing too many responses).
 */
export function boundedResponse(res: Response, limit: SizeLimit, inspect?: (chunk: Uint8Array) => Error | undefined): Response {
  if (!res.body) return res;
  refuseAnnounced(res, limit);
  let seen = 0;
  const limited = res.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        const refused = seen > limit.maxBytes ? limit.tooLarge() : inspect?.(chunk);
        if (refused) controller.error(refused);
        else controller.enqueue(chunk);
      },
    }),
  );
  const out = new Response(limited, { status: res.status, statusText: res.statusText, headers: res.headers });
  // tsdav reports some failures with the response's URL, which a new Response does not have.
  Object.defineProperty(out, 'url', { value: res.url });
  return out;
}
