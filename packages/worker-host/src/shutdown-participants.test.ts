import { ShutdownParticipants, type ShutdownParticipant } from './shutdown-participants';

function recording() {
  const events: string[] = [];
  const failures: string[] = [];
  const participants = new ShutdownParticipants((participant, step, error) =>
    failures.push(`${participant.name} ${step}: ${(error as Error).message}`),
  );
  const participant = (name: string, fails: Array<'drain' | 'close'> = []): ShutdownParticipant => ({
    name,
    refuse: () => void events.push(`${name} refuse`),
    drain: async () => {
      events.push(`${name} drain`);
      if (fails.includes('drain')) throw new Error('drain broke');
    },
    close: async () => {
      events.push(`${name} close`);
      if (fails.includes('close')) throw new Error('close broke');
    },
  });
  return { events, failures, participants, participant };
}

describe('ShutdownParticipants', () => {
  it('refuses and drains in registration order, closes in reverse order', async () => {
    const { events, participants, participant } = recording();
    participants.add(participant('http'));
    participants.add(participant('grpc'));
    participants.refuseAll();
    await participants.drainAll(new AbortController().signal);
    await participants.closeAll();
    expect(events).toEqual([
      'http refuse',
      'grpc refuse',
      'http drain',
      'grpc drain',
      'grpc close',
      'http close',
    ]);
  });

  it('reports a participant that fails and still reaches the others', async () => {
    const { events, failures, participants, participant } = recording();
    participants.add(participant('http', ['drain', 'close']));
    participants.add(participant('grpc'));
    await participants.drainAll(new AbortController().signal);
    await participants.closeAll();
    expect(failures).toEqual(['http drain: drain broke', 'http close: close broke']);
    expect(events).toEqual(['http drain', 'grpc drain', 'grpc close', 'http close']);
  });

  it('passes the drain signal and forgets a removed participant', async () => {
    const { events, participants, participant } = recording();
    const signals: AbortSignal[] = [];
    participants.add({ name: 'watcher', drain: async (signal) => void signals.push(signal) });
    const remove = participants.add(participant('http'));
    remove();
    remove();
    const controller = new AbortController();
    await participants.drainAll(controller.signal);
    expect(signals).toEqual([controller.signal]);
    expect(events).toEqual([]);
  });
});
