/**
 * A key's UTF-16 code units, big-endian. Comparing these bytes (PostgreSQL compares bytea byte by byte) gives
 * exactly JavaScript's string order, which UTF-8 text under COLLATE "C" does not (it orders characters beyond
 * U+FFFF after U+E000-U+FFFF; JavaScript orders them before).
 */
export function sortKeyOf(key: string): Buffer {
  const bytes = Buffer.allocUnsafe(key.length * 2);
  for (let index = 0; index < key.length; index++) bytes.writeUInt16BE(key.charCodeAt(index), index * 2);
  return bytes;
}

/**
 * The smallest byte string above every byte string starting with `prefix`, or null when there is none (an
 * empty prefix, or one of 0xFF bytes only). `prefix <= sort_key < upper` is "starts with", on the index.
 */
export function upperBoundOf(prefix: Buffer): Buffer | null {
  let end = prefix.length;
  while (end > 0 && prefix[end - 1] === 0xff) end--;
  if (end === 0) return null;
  const upper = Buffer.from(prefix.subarray(0, end));
  upper[end - 1] += 1;
  return upper;
}
