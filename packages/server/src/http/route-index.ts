interface Node<T> {
  literal: Map<string, Node<T>>;
  param?: Node<T>;
  value?: T;
}

const newNode = <T>(): Node<T> => ({ literal: new Map() });

function segmentsOf(path: string): string[] {
  return path.replace(/\/+$/, "").split("/").slice(1);
}

/**
 * Finds the route template (Express style, `/v1/spaces/:spaceId`) a request path belongs to by
 * walking a tree of its segments, so a lookup costs the path's length, not the number of routes.
 * Literal segments win over parameters, as in the OpenAPI rules for templated paths.
 */
export class RouteIndex<T> {
  readonly #root = newNode<T>();

  add(template: string, value: T): void {
    let node = this.#root;
    for (const segment of segmentsOf(template)) {
      if (segment.startsWith(":")) {
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

  find(path: string): T | undefined {
    return this.#find(this.#root, segmentsOf(path), 0);
  }

  #find(node: Node<T>, segments: string[], depth: number): T | undefined {
    const segment = segments[depth];
    if (segment === undefined) return node.value;
    const literal = node.literal.get(segment);
    const viaLiteral = literal && this.#find(literal, segments, depth + 1);
    if (viaLiteral !== undefined) return viaLiteral;
    return segment !== "" && node.param ? this.#find(node.param, segments, depth + 1) : undefined;
  }
}
