import { GraphQLError, Lexer, parse, Source, TokenKind, type DocumentNode } from 'graphql';

/** Bounds a GraphQL document must stay within before it is parsed. */
export interface DocumentBounds {
  /** Most lexical tokens (names, punctuators, values; comments excluded). */
  readonly maxTokens: number;
  /** Deepest selection-set nesting (a root field is depth 1), counted per definition. */
  readonly maxDepth: number;
}

/**
 * Deepest nesting of brackets, braces and parentheses of any kind. The graphql-js parser descends
 * recursively, so a list literal nested some thousand levels overflows the stack; nothing a client needs
 * comes close (deep inputs are sent as variables, which are JSON).
 */
export const maxDocumentNesting = 64;

/** What `scanDocument` found. */
export interface DocumentScan {
  /** Tokens read; when `exceeded` is `tokens`, one more than `maxTokens` (the scan stops there). */
  readonly tokens: number;
  /** Deepest selection-set nesting seen (where the scan stopped, when a limit was passed). */
  readonly depth: number;
  /** The bound passed first, or null within all. */
  readonly exceeded: 'tokens' | 'depth' | 'nesting' | null;
  /** Offset (UTF-16 code units) of the token where the scan stopped, or the document's length. */
  readonly stoppedAt: number;
}

const opening = new Set<TokenKind>([TokenKind.BRACE_L, TokenKind.BRACKET_L, TokenKind.PAREN_L]);
const closing = new Set<TokenKind>([TokenKind.BRACE_R, TokenKind.BRACKET_R, TokenKind.PAREN_R]);

/**
 * Reads the tokens of `source` without building a syntax tree and stops at the first bound passed: more than
 * `maxTokens` tokens, a selection set nested deeper than `maxDepth`, or any nesting deeper than
 * `maxDocumentNesting`. A brace outside parentheses opens a selection set; inside parentheses (arguments,
 * variable defaults) it opens an input object, which counts only toward the nesting bound. The cost is
 * linear in the tokens read, so a refused document costs what its first `maxTokens` tokens cost. Lexical
 * errors are thrown as the GraphQL syntax errors `parse` would throw.
 */
export function scanDocument(source: string, bounds: DocumentBounds): DocumentScan {
  const lexer = new Lexer(new Source(source));
  const open: TokenKind[] = [];
  let parentheses = 0;
  let selectionDepth = 0;
  let depth = 0;
  let tokens = 0;
  for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
    tokens += 1;
    const stop = (exceeded: DocumentScan['exceeded']) => ({
      tokens,
      depth,
      exceeded,
      stoppedAt: token.start,
    });
    if (tokens > bounds.maxTokens) return stop('tokens');
    if (opening.has(token.kind)) {
      open.push(token.kind);
      if (token.kind === TokenKind.PAREN_L) parentheses += 1;
      if (token.kind === TokenKind.BRACE_L && parentheses === 0) {
        selectionDepth += 1;
        depth = Math.max(depth, selectionDepth);
        if (selectionDepth > bounds.maxDepth) return stop('depth');
      }
      if (open.length > maxDocumentNesting) return stop('nesting');
    } else if (closing.has(token.kind)) {
      const kind = open.pop();
      if (kind === TokenKind.PAREN_L) parentheses -= 1;
      if (kind === TokenKind.BRACE_L && parentheses === 0) selectionDepth -= 1;
    }
  }
  return { tokens, depth, exceeded: null, stoppedAt: source.length };
}

/** The refusal of a scan that passed a bound, in the shape of the validation errors of `limitsRule`. */
function boundError(source: Source, scan: DocumentScan, bounds: DocumentBounds): GraphQLError {
  const positions = [scan.stoppedAt];
  if (scan.exceeded === 'tokens') {
    return new GraphQLError(
      `The document holds more than ${bounds.maxTokens} tokens (Engine:GraphQL:MaxTokens); it was not parsed`,
      { source, positions, extensions: { code: 'TOKEN_LIMIT_EXCEEDED', maxTokens: bounds.maxTokens } },
    );
  }
  if (scan.exceeded === 'depth') {
    return new GraphQLError(
      `The operation is at least ${scan.depth} levels deep; at most ${bounds.maxDepth} are allowed (Engine:GraphQL:MaxDepth)`,
      {
        source,
        positions,
        extensions: { code: 'DEPTH_LIMIT_EXCEEDED', depth: scan.depth, maxDepth: bounds.maxDepth },
      },
    );
  }
  return new GraphQLError(
    `The document nests brackets deeper than ${maxDocumentNesting} levels; send deep input as variables`,
    { source, positions, extensions: { code: 'NESTING_LIMIT_EXCEEDED', maxNesting: maxDocumentNesting } },
  );
}

/**
 * A `parse` for graphql-http that refuses a document passing `bounds` before building any syntax tree
 * (`scanDocument`), and otherwise parses it with `maxTokens` set, so the parser itself never reads past the
 * bound either. The refusal is a GraphQL error with `extensions.code` TOKEN_LIMIT_EXCEEDED,
 * DEPTH_LIMIT_EXCEEDED or NESTING_LIMIT_EXCEEDED and the location where reading stopped; validation and
 * execution are never reached.
 */
export function boundedParse(bounds: DocumentBounds): (source: string | Source) => DocumentNode {
  return (input) => {
    const source = typeof input === 'string' ? new Source(input) : input;
    const scan = scanDocument(source.body, bounds);
    if (scan.exceeded) throw boundError(source, scan, bounds);
    return parse(source, { maxTokens: bounds.maxTokens });
  };
}
