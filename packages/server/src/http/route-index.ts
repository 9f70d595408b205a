interface Node<T> {
  literal: Map<string, Node<T>>;
  param?: Node<T>;
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
 * Literal segments win over parameters, as in the OpenAPI rules for templated paths.
 */
export class RouteIndex<T> {
  readonly #root = newNode<T>();

  add(template: string, value: T): void {
    let node = this.#root;
    for (const segment of segmentsOf(template)) {
      if (isParameter(segment)) {
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
    if (segment === "" || !node.param) return undefined;
    parameters.push(segment);
    const viaParameter = this.#find(node.param, segments, depth + 1, parameters);
    if (viaParameter === undefined) parameters.pop();
    return viaParameter;
  }
}
