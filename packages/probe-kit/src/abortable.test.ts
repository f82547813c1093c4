import { abortable } from './abortable';

describe('abortable', () => {
  it('settles with the work when it finishes first and never runs onAbort', async () => {
    const controller = new AbortController();
    let aborted = 0;
    await expect(abortable(Promise.resolve(7), controller.signal, () => aborted++)).resolves.toBe(7);
    controller.abort();
    expect(aborted).toBe(0);
  });

  it('rejects with ABORTED as soon as the signal aborts, runs onAbort once, and swallows the late failure', async () => {
    const controller = new AbortController();
    let aborted = 0;
    let failLater: (error: Error) => void = () => undefined;
    const work = new Promise<number>((_resolve, reject) => {
      failLater = reject;
    });
    const result = abortable(work, controller.signal, () => aborted++);
    controller.abort(new Error('timed out after 1000 ms'));
    controller.abort();
    await expect(result).rejects.toMatchObject({
      code: 'ABORTED',
      message: expect.stringContaining('timed out after 1000 ms'),
    });
    failLater(new Error('late'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(aborted).toBe(1);
  });

  it('rejects at once for an already aborted signal', async () => {
    const controller = new AbortController();
    controller.abort();
    let aborted = 0;
    await expect(
      abortable(new Promise(() => undefined), controller.signal, () => aborted++),
    ).rejects.toMatchObject({ code: 'ABORTED' });
    expect(aborted).toBe(1);
  });
});
