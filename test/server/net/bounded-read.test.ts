import { describe, expect, it } from 'vitest';
import { boundedResponse, readBoundedText, sizeLabel } from '../../../electron/server/net/bounded-read';

class TooLarge extends Error {}
const limit = (maxBytes: number) => ({ maxBytes, tooLarge: () => new TooLarge(`over ${sizeLabel(maxBytes)}`) });

function streamed(parts: string[], headers: Record<string, string> = {}): Response {
  const enc = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (const p of parts) c.enqueue(enc.encode(p));
      c.close();
    },
  });
  return new Response(body, { headers });
}

describe('bounded read', () => {
  it('reads an answer within the limit whole, as UTF-8 across chunks', async () => {
    const text = await readBoundedText(streamed(['caf', 'é ', 'ok']), limit(100));
    expect(text).toBe('café ok');
  });

  it('refuses an answer announced over the limit before reading it', async () => {
    await expect(readBoundedText(streamed(['x'], { 'content-length': '5000' }), limit(1024))).rejects.toThrow('over 1 KB');
  });

  it('stops reading once more than the limit has come, whatever was announced', async () => {
    await expect(readBoundedText(streamed(['a'.repeat(600), 'b'.repeat(600)]), limit(1024))).rejects.toBeInstanceOf(TooLarge);
  });

  it('a bounded Response errors its body past the limit, and an inspector may end it too', async () => {
    await expect(boundedResponse(streamed(['a'.repeat(600), 'b'.repeat(600)]), limit(1024)).text()).rejects.toBeInstanceOf(TooLarge);
    const refused = new Error('too many');
    const out = boundedResponse(streamed(['<response>', '<response>']), limit(1024), (c) => (new TextDecoder().decode(c).includes('response') ? refused : undefined));
    await expect(out.text()).rejects.toBe(refused);
    expect(await boundedResponse(streamed(['fine']), limit(1024)).text()).toBe('fine');
  });

  it('names limits in MB or KB', () => {
    expect(sizeLabel(16 * 1024 * 1024)).toBe('16 MB');
    expect(sizeLabel(512 * 1024)).toBe('512 KB');
  });
});
