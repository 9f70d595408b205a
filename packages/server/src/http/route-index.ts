interface Node<T> {
  literal: Map<string, Node<T>>;
  param?: Node<T>;
  /** A last parameter that takes the rest of the path, slashes included. */
  rest?: Node<T>;
  value?: T;
}

const newNode = <T>(): Node<T> => ({ literal: new Map() });

function segmentsOf(path: string): string[] {
  // Most paths have no trailing slash: the regular expression would still scan them.
  return (path.endsWith("/") ? path.replace(/\/+$/, "") : path).split("/").slice(1);
}

const isParameter = (segment: string) => segment.startsWith("{") && segment.endsWith("}");

export interface RouteMatch<T> {
  value: T;
  /** The raw (still percent-encoded) values of the template's parameters, in template order. */
  parameters: string[];
}

/**
 * Finds the route template (OpenAPI style, `/v1/spaces/{spaceId}`) a request path belongs to by
 * walking a tree of its segments, so a lookup costs the path's length, not the number of routes.
 * Literal segments win over parameters, as in the OpenAPI rules for templated paths, and parameters
 * over one that takes the rest of the path.
 */
export class RouteIndex<T> {
  readonly #root = newNode<T>();

  /** With `restOfPath`, the template's last parameter takes the rest of a path, slashes included. */
  add(template: string, value: T, { restOfPath = false }: { restOfPath?: boolean } = {}): void {
    let node = this.#root;
    const segments = segmentsOf(template);
    for (const [i, segment] of segments.entries()) {
      if (restOfPath && i === segments.length - 1) {
        if (!isParameter(segment)) throw new Error(`${template} does not end with a parameter`);
        node.rest ??= newNode();
        node = node.rest;
      } else if (isParameter(segment)) {
        node.param ??= newNode();
        node = node.param;
      } else {
        let next = node.literal.get(segment);
        if (!next) {
          next = newNode();
          node.literal.set(segment, next);
        }
        node = next;
      }
    }
    node.value = value;
  }

  find(path: string): RouteMatch<T> | undefined {
    const parameters: string[] = [];
    const value = this.#find(this.#root, segmentsOf(path), 0, parameters);
    return value === undefined ? undefined : { value, parameters };
  }

  #find(node: Node<T>, segments: string[], depth: number, parameters: string[]): T | undefined {
    const segment = segments[depth];
    if (segment === undefined) return node.value;
    const literal = node.literal.get(segment);
    const viaLiteral = literal && this.#find(literal, segments, depth + 1, parameters);
    if (viaLiteral !== undefined) return viaLiteral;
    if (segment === "") return undefined;
    if (node.param) {
      parameters.push(segment);
      const viaParameter = this.#find(node.param, segments, depth + 1, parameters);
      if (viaParameter !== undefined) return viaParameter;
      parameters.pop();
    }
    if (node.rest?.value === undefined) return undefined;
    parameters.push(segments.slice(depth).join("/"));
    return node.rest.value;
  }
}
