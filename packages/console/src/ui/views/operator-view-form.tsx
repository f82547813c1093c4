import { useState } from 'preact/hooks';
import type { OperatorViewDocument } from '../../operator-views';
import { getJson, postJson, relativeEnginePath } from '../api';

type Form = OperatorViewDocument['forms'][number];
type Field = Form['fields'][number];

/** Puts `value` into `body` at a dot-separated `name` (`matchers.dependencyId`). */
function place(body: Record<string, unknown>, name: string, value: unknown): void {
  const parts = name.split('.');
  let target = body;
  for (const part of parts.slice(0, -1)) {
    const next = target[part];
    target = (target[part] = next && typeof next === 'object' ? next : {}) as Record<string, unknown>;
  }
  target[parts[parts.length - 1]!] = value;
}

/** The JSON body of a form: each filled field at its name; minutes from now as the ISO time that far ahead. */
export function formBody(fields: readonly Field[], values: Readonly<Record<string, string>>, nowMs: number) {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    const raw = (values[field.name] ?? '').trim();
    if (raw === '') continue;
    place(
      body,
      field.name,
      field.kind === 'minutes-from-now' ? new Date(nowMs + Number(raw) * 60_000).toISOString() : raw,
    );
  }
  return body;
}

function FieldInput({
  field,
  id,
  value,
  onChange,
}: {
  readonly field: Field;
  readonly id: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
}) {
  const common = { id, name: field.name, required: field.required, value };
  if (field.kind === 'choice') {
    return (
      <select {...common} onChange={(event) => onChange(event.currentTarget.value)}>
        {field.required ? null : <option value="">(any)</option>}
        {field.choices.map((choice) => (
          <option key={choice} value={choice}>
            {choice}
          </option>
        ))}
      </select>
    );
  }
  return (
    <input
      {...common}
      type={field.kind === 'minutes-from-now' ? 'number' : 'text'}
      min={field.kind === 'minutes-from-now' ? 1 : undefined}
      step={field.kind === 'minutes-from-now' ? 1 : undefined}
      onInput={(event) => onChange(event.currentTarget.value)}
    />
  );
}

/**
 * A form a pack declared on an operator view (`OperatorViewDefinition.forms`): its fields, sent as the JSON body
 * of the pack's operation, whose validation and authorization decide. The answer (or refusal) is announced.
 */
export function OperatorViewFormPanel({
  viewId,
  form,
  onDone,
}: {
  readonly viewId: string;
  readonly form: Form;
  readonly onDone: () => void;
}) {
  const initial = Object.fromEntries(form.fields.map((field) => [field.name, field.defaultValue ?? '']));
  const [values, setValues] = useState<Record<string, string>>(initial);
  const [status, setStatus] = useState('');
  const baseId = `form-${viewId}-${form.operationId}`;
  const submit = async (event: Event) => {
    event.preventDefault();
    setStatus(`${form.label}: sending…`);
    try {
      const target = relativeEnginePath(form.path);
      const body = formBody(form.fields, values, Date.now());
      if (form.method === 'GET') await getJson(target);
      else await postJson(target, body);
      setStatus(`${form.label}: done.`);
      setValues(initial);
      onDone();
    } catch (failure) {
      setStatus(`${form.label} refused: ${failure instanceof Error ? failure.message : String(failure)}`);
    }
  };
  return (
    <form class="operator-form" data-form={form.operationId} onSubmit={(event) => void submit(event)}>
      <fieldset>
        <legend>{form.label}</legend>
        {form.description ? <p class="muted">{form.description}</p> : null}
        {form.fields.map((field) => {
          const id = `${baseId}-${field.name.replace(/\W/g, '-')}`;
          return (
            <p class="form-field" key={field.name}>
              <label for={id}>
                {field.label}
                {field.required ? ' (required)' : ''}
              </label>{' '}
              <FieldInput
                field={field}
                id={id}
                value={values[field.name] ?? ''}
                onChange={(value) => setValues((current) => ({ ...current, [field.name]: value }))}
              />
              {field.hint ? <span class="muted form-hint"> {field.hint}</span> : null}
            </p>
          );
        })}
        <button type="submit">{form.label}</button>{' '}
        <span role="status" class="form-status" data-form-status>
          {status}
        </span>
      </fieldset>
    </form>
  );
}
