/**
 * Why a request body cannot be taken as UTF-8 JSON, or null when it can. Refused: a content type other than
 * `application/json` or `application/<something>+json` (a browser sends `text/plain`, form and multipart bodies
 * cross-site without a preflight, so accepting them would let any page call a mutation), a charset other
 * than UTF-8, and a body holding NUL characters (UTF-16 or UTF-32 sent without its charset). The caller answers
 * HTTP 415.
 */
export function jsonBodyRefusal(contentType: string | undefined, body?: string): string | null {
  const [mediaType = '', ...parameters] = (contentType ?? '').split(';').map((part) => part.trim());
  const type = mediaType.toLowerCase();
  if (type !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
    return `The content type must be application/json${contentType ? `, not ${JSON.stringify(contentType.slice(0, 100))}` : ''}`;
  }
  for (const parameter of parameters) {
    const [name = '', value = ''] = parameter.split('=').map((part) => part.trim());
    if (name.toLowerCase() !== 'charset') continue;
    const charset = value.replace(/^"|"$/g, '').toLowerCase();
    if (charset !== 'utf-8' && charset !== 'utf8') {
      return `The charset must be UTF-8, not ${JSON.stringify(charset.slice(0, 40))}`;
    }
  }
  if (body !== undefined && body.includes('\u0000')) return 'The body is not UTF-8 (it holds NUL characters)';
  return null;
}
