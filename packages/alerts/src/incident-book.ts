import { randomBytes } from 'node:crypto';
import type { KeyedStore, StoreMirror, StoredRecord } from '@corekit/abstractions';
import type { AlertNotification } from '@corekit/notifier-kit';
import type {
  AlertState,
  AlertsRecord,
  IncidentRecord,
  OpenIncidentPointer,
  SilenceRecord,
} from './alerts-model';
import { utc } from './alerts-model';
import { dueNotification } from './notification-plan';

const rank = (severity: AlertState['severity']) => (severity === 'unhealthy' ? 2 : 1);
const maxAttempts = 20;

export interface IncidentBookSettings {
  readonly service: string;
  readonly groupWindowMs: number;
  /** How long a resolved incident is kept. */
  readonly retentionMs: number;
  readonly now: () => number;
}

/**
 * Incidents and silences, shared by every replica through the `alerts` store: an alert joins the service's open
 * incident or opens one; every change is a compare-and-set write, so replicas that see the same outage record it
 * once. The mirror serves the synchronous catalog reads.
 */
export class IncidentBook {
  constructor(
    private readonly store: KeyedStore<AlertsRecord>,
    private readonly mirror: StoreMirror<AlertsRecord>,
    private readonly settings: IncidentBookSettings,
  ) {}

  private get pointerKey(): string {
    return `open:${this.settings.service}`;
  }

  incidents(): IncidentRecord[] {
    return this.mirror.values().filter((record): record is IncidentRecord => record.kind === 'incident');
  }

  silences(): SilenceRecord[] {
    return this.mirror.values().filter((record): record is SilenceRecord => record.kind === 'silence');
  }

  private async openIncident(): Promise<{
    pointer: StoredRecord<AlertsRecord> | undefined;
    incident: StoredRecord<IncidentRecord> | undefined;
  }> {
    const pointer = await this.store.get(this.pointerKey);
    if (!pointer) return { pointer, incident: undefined };
    const incident = await this.store.get(`incident:${(pointer.value as OpenIncidentPointer).incidentId}`);
    const open = incident?.value.kind === 'incident' && incident.value.status === 'firing';
    return { pointer, incident: open ? (incident as StoredRecord<IncidentRecord>) : undefined };
  }

  private async write(key: string, value: AlertsRecord, expectedVersion: number): Promise<boolean> {
    const ttl =
      value.kind === 'incident' && value.status === 'resolved' ? { ttlMs: this.settings.retentionMs } : {};
    const result = await this.store.put(key, value, { expectedVersion, ...ttl });
    if (result.written) this.mirror.remember(result.record);
    return result.written;
  }

  /**
   * Records a firing alert (or a worse severity of one): it joins the open incident of the service, or opens a new
   * incident whose group window starts now. Answers the incident id and whether anything changed (false when
   * another replica recorded the same alert first).
   */
  async fire(alert: AlertState): Promise<{ incidentId: string; changed: boolean }> {
    for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
      const now = this.settings.now();
      const { pointer, incident } = await this.openIncident();
      if (incident) {
        const existing = incident.value.alerts[alert.alertId];
        if (existing?.status === 'firing' && rank(existing.severity) >= rank(alert.severity)) {
          return { incidentId: incident.value.incidentId, changed: false };
        }
        const joined =
          existing?.status === 'firing'
            ? {
                ...existing,
                severity: alert.severity,
                description: alert.description,
                flapping: alert.flapping,
              }
            : alert;
        const next: IncidentRecord = {
          ...incident.value,
          alerts: { ...incident.value.alerts, [alert.alertId]: joined },
          updatedAtMs: now,
        };
        if (await this.write(incident.key, next, incident.version)) {
          return { incidentId: next.incidentId, changed: true };
        }
        continue;
      }
      const opened = this.newIncident(alert, now);
      if (!(await this.write(`incident:${opened.incidentId}`, opened, 0))) continue;
      const pointerValue: OpenIncidentPointer = { kind: 'open', incidentId: opened.incidentId };
      if (await this.write(this.pointerKey, pointerValue, pointer?.version ?? 0)) {
        return { incidentId: opened.incidentId, changed: true };
      }
      // Another replica opened the service's incident meanwhile: join it instead.
      await this.store.delete(`incident:${opened.incidentId}`);
      this.mirror.forget(`incident:${opened.incidentId}`);
    }
    throw new Error(`alert ${alert.alertId} could not be recorded: the open incident kept changing`);
  }

  private newIncident(alert: AlertState, now: number): IncidentRecord {
    return {
      kind: 'incident',
      incidentId: `inc-${now.toString(36)}-${randomBytes(3).toString('hex')}`,
      service: this.settings.service,
      status: 'firing',
      openedAtMs: now,
      groupUntilMs: now + this.settings.groupWindowMs,
      resolvedAtMs: null,
      updatedAtMs: now,
      alerts: { [alert.alertId]: alert },
      revision: 0,
      notifiedFingerprint: '',
      notifiedStatus: 'none',
      lastNotification: null,
      lastNotificationStaged: true,
    };
  }

  /**
   * Records that an alert cleared. Once no alert of the incident fires, the incident is resolved and is no longer
   * the service's open incident (a new alert opens a new one). False when the alert was not firing.
   */
  async resolve(alertId: string): Promise<boolean> {
    for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
      const now = this.settings.now();
      const { pointer, incident } = await this.openIncident();
      const alert = incident?.value.alerts[alertId];
      if (!incident || !pointer || alert?.status !== 'firing') return false;
      const alerts = {
        ...incident.value.alerts,
        [alertId]: { ...alert, status: 'resolved' as const, resolvedAtUtc: utc(now) },
      };
      const cleared = Object.values(alerts).every((candidate) => candidate.status === 'resolved');
      const next: IncidentRecord = {
        ...incident.value,
        alerts,
        status: cleared ? 'resolved' : 'firing',
        resolvedAtMs: cleared ? now : null,
        updatedAtMs: now,
      };
      if (!(await this.write(incident.key, next, incident.version))) continue;
      if (cleared && (await this.store.delete(this.pointerKey, { expectedVersion: pointer.version }))) {
        this.mirror.forget(this.pointerKey);
      }
      return true;
    }
    throw new Error(`alert ${alertId} could not be resolved: its incident kept changing`);
  }

  /**
   * Stages what is due, once per change of an incident, whichever replica runs it: a notification left unstaged by
   * a replica that died first, then a new one when the incident's visible alerts changed. The revision is taken
   * with a compare-and-set write before staging, so two replicas never make two notifications of one change;
   * staging is idempotent (the notification id names the revision), so staging again after a crash sends once.
   */
  async stageDue(
    links: (incidentId: string) => AlertNotification['links'],
    stage: (notification: AlertNotification) => Promise<void>,
  ): Promise<number> {
    let staged = 0;
    const silences = this.silences();
    for (const candidate of this.incidents()) {
      if (
        candidate.status === 'resolved' &&
        candidate.notifiedStatus !== 'firing' &&
        candidate.lastNotificationStaged
      ) {
        continue;
      }
      const current = await this.store.get(`incident:${candidate.incidentId}`);
      if (!current || current.value.kind !== 'incident') continue;
      let record = current as StoredRecord<IncidentRecord>;
      if (record.value.lastNotification && !record.value.lastNotificationStaged) {
        await stage(record.value.lastNotification);
        record = (await this.markStaged(record)) ?? record;
      }
      const due = dueNotification(record.value, silences, this.settings.now(), links);
      if (!due) continue;
      const next: IncidentRecord = {
        ...record.value,
        revision: due.revision,
        notifiedFingerprint: due.alerts
          .map((alert) => `${alert.alertId}|${alert.status}|${alert.severity}`)
          .join(';'),
        notifiedStatus: due.status,
        lastNotification: due,
        lastNotificationStaged: false,
      };
      if (!(await this.write(record.key, next, record.version))) continue;
      await stage(due);
      staged += 1;
      const written = await this.store.get(record.key);
      if (written?.value.kind === 'incident') await this.markStaged(written as StoredRecord<IncidentRecord>);
    }
    return staged;
  }

  private async markStaged(
    record: StoredRecord<IncidentRecord>,
  ): Promise<StoredRecord<IncidentRecord> | null> {
    const next = { ...record.value, lastNotificationStaged: true };
    if (!(await this.write(record.key, next, record.version))) return null;
    const written = await this.store.get(record.key);
    return written?.value.kind === 'incident' ? (written as StoredRecord<IncidentRecord>) : null;
  }

  async addSilence(silence: SilenceRecord): Promise<void> {
    await this.write(`silence:${silence.silenceId}`, silence, 0);
  }

  /** Ends a silence now; null when unknown, `already-expired` when it had ended. */
  async expireSilence(silenceId: string, by: string): Promise<SilenceRecord | 'already-expired' | null> {
    for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
      const now = this.settings.now();
      const current = await this.store.get(`silence:${silenceId}`);
      if (!current || current.value.kind !== 'silence') return null;
      const silence = current.value;
      if ((silence.expiredAtMs !== null && silence.expiredAtMs <= now) || silence.endsAtMs <= now) {
        return 'already-expired';
      }
      const next: SilenceRecord = { ...silence, expiredAtMs: now, expiredBy: by };
      if (await this.write(current.key, next, current.version)) return next;
    }
    throw new Error(`silence ${silenceId} kept changing`);
  }
}
