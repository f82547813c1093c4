/**
 * The one template renderer: `{{name}}` inserts a value (dotted paths allowed, `{{.}}` is the current item),
 * `{{#name}}…{{/name}}` keeps its body when the value is truthy and repeats it once per item of an array (the item
 * becomes the current scope, the outer scope stays readable), `{{^name}}…{{/name}}` keeps its body when the value is
 * falsy or an empty array. Nothing is escaped: templates produce source and configuration files, not HTML. A
 * placeholder whose name is not in scope is an error (a typo must not render as an empty string).
 */
export type TemplateScope = Readonly<Record<string, unknown>>;

const section = /\{\{([#^])\s*([\w.]+)\s*\}\}\n?([\s\S]*?)\{\{\/\s*\2\s*\}\}\n?/g;
const placeholder = /\{\{\s*([\w.]+|\.)\s*\}\}/g;

function lookup(scopes: readonly unknown[], name: string, template: string): unknown {
  if (name === '.') return scopes[0];
  const [head, ...rest] = name.split('.');
  for (const scope of scopes) {
    if (scope !== null && typeof scope === 'object' && head in (scope as object)) {
      let value: unknown = (scope as Record<string, unknown>)[head];
      for (const part of rest) value = (value as Record<string, unknown> | undefined)?.[part];
      return value;
    }
  }
  throw new Error(`template ${template}: no value named "${name}"`);
}

function renderIn(text: string, scopes: readonly unknown[], template: string): string {
  const withSections = text.replace(section, (_match, kind: string, name: string, body: string) => {
    const value = lookup(scopes, name, template);
    const empty = !value || (Array.isArray(value) && value.length === 0);
    if (kind === '^') return empty ? renderIn(body, scopes, template) : '';
    if (empty) return '';
    const items = Array.isArray(value) ? value : [value];
    return items.map((item) => renderIn(body, [item, ...scopes], template)).join('');
  });
  return withSections.replace(placeholder, (_match, name: string) => {
    const value = lookup(scopes, name, template);
    if (value === undefined || value === null)
      throw new Error(`template ${template}: "${name}" has no value`);
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  });
}

/** Renders one template text with the scope; `template` names it in error messages. */
export function renderTemplate(text: string, scope: TemplateScope, template = 'template'): string {
  return renderIn(text, [scope], template);
}
