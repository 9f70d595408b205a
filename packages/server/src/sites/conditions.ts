import jsep from "jsep";

/**
 * Visibility conditions of sections and site spaces: one JavaScript expression over the visitor's
 * claims, as GitBook writes them (`visitor.claims.isBetaUser == true`). jsep parses the text; the
 * tree is then checked against a small language and turned into `Condition`, which is all that is
 * ever evaluated. Nothing reaches `eval`, `Function` or a method of a value.
 *
 * The language:
 * - literals: strings, numbers, `true`, `false`, `null`, and arrays of expressions;
 * - `visitor.claims` and paths under it, with `.name`, `?.name` or `["name"]` / `[0]`; only own
 *   properties of the claims are read, so `__proto__`, `constructor` and `prototype` are refused;
 * - `==`, `!=`, `===`, `!==`, `<`, `<=`, `>`, `>=` (objects compare by identity only, and are
 *   never ordered), `&&`, `||`, `??`, `!`, unary `-`, and `test ? a : b`;
 * - `<array or string>.includes(<expression>)`, the one method, evaluated here.
 * Anything else (other identifiers, calls, `this`, several statements, assignments) is refused.
 */
export type Condition =
  | { kind: "literal"; value: Primitive }
  | { kind: "claim"; path: Array<string | number> }
  | { kind: "array"; items: Condition[] }
  | { kind: "includes"; target: Condition; value: Condition }
  | { kind: "binary"; operator: BinaryOperator; left: Condition; right: Condition }
  | { kind: "unary"; operator: "!" | "-"; operand: Condition }
  | { kind: "conditional"; test: Condition; consequent: Condition; alternate: Condition };

type Primitive = string | number | boolean | null;
type BinaryOperator = "==" | "!=" | "===" | "!==" | "<" | "<=" | ">" | ">=" | "&&" | "||" | "??";

const BINARY_OPERATORS: ReadonlySet<string> = new Set<BinaryOperator>([
  "==",
  "!=",
  "===",
  "!==",
  "<",
  "<=",
  ">",
  ">=",
  "&&",
  "||",
  "??",
]);
const FORBIDDEN_NAMES: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/** A condition outside the language, or not an expression at all; the message says why. */
export class InvalidCondition extends Error {
  override name = "InvalidCondition";
}

/** Parses and checks a condition; throws `InvalidCondition` when it is refused. */
export function parseCondition(expression: string): Condition {
  let tree: jsep.Expression;
  try {
    tree = jsep(expression);
  } catch (err) {
    throw new InvalidCondition(`The condition is not a valid expression: ${(err as Error).message}.`);
  }
  return toCondition(tree);
}

function toCondition(node: jsep.Expression): Condition {
  switch (node.type) {
    case "Literal": {
      const { value } = node as jsep.Literal;
      if (value instanceof RegExp) throw new InvalidCondition("Regular expressions are not allowed.");
      return { kind: "literal", value };
    }
    case "ArrayExpression":
      return {
        kind: "array",
        items: (node as jsep.ArrayExpression).elements.map((item) => {
          if (item === null) throw new InvalidCondition("Arrays cannot have holes.");
          return toCondition(item);
        }),
      };
    case "Identifier":
    case "MemberExpression":
      return { kind: "claim", path: claimPath(node) };
    case "CallExpression":
      return includesCall(node as jsep.CallExpression);
    case "BinaryExpression": {
      const { operator, left, right } = node as jsep.BinaryExpression;
      if (!BINARY_OPERATORS.has(operator))
        throw new InvalidCondition(`The operator ${operator} is not allowed.`);
      return {
        kind: "binary",
        operator: operator as BinaryOperator,
        left: toCondition(left),
        right: toCondition(right),
      };
    }
    case "UnaryExpression": {
      const { operator, argument } = node as jsep.UnaryExpression;
      if (operator !== "!" && operator !== "-")
        throw new InvalidCondition(`The operator ${operator} is not allowed.`);
      return { kind: "unary", operator, operand: toCondition(argument) };
    }
    case "ConditionalExpression": {
      const { test, consequent, alternate } = node as jsep.ConditionalExpression;
      return {
        kind: "conditional",
        test: toCondition(test),
        consequent: toCondition(consequent),
        alternate: toCondition(alternate),
      };
    }
    default:
      throw new InvalidCondition(`A condition is a single expression; ${node.type} is not allowed.`);
  }
}

/** `visitor.claims.a["b"][0]` → `["a", "b", 0]`; anything not rooted at `visitor.claims` is refused. */
function claimPath(node: jsep.Expression): Array<string | number> {
  const segments: Array<string | number> = [];
  let current = node;
  while (current.type === "MemberExpression") {
    const member = current as jsep.MemberExpression;
    segments.unshift(memberName(member));
    current = member.object;
  }
  const [claims, ...path] = segments;
  if (
    current.type !== "Identifier" ||
    (current as jsep.Identifier).name !== "visitor" ||
    claims !== "claims"
  ) {
    throw new InvalidCondition("A condition can only read values under visitor.claims.");
  }
  return path;
}

function memberName(member: jsep.MemberExpression): string | number {
  const { property } = member;
  let name: unknown;
  if (!member.computed && property.type === "Identifier") name = (property as jsep.Identifier).name;
  else if (member.computed && property.type === "Literal") name = (property as jsep.Literal).value;
  if (typeof name !== "string" && typeof name !== "number")
    throw new InvalidCondition('Properties must be named, as .name or ["name"].');
  if (typeof name === "string" && FORBIDDEN_NAMES.has(name))
    throw new InvalidCondition(`The property ${name} cannot be read.`);
  return name;
}

function includesCall(call: jsep.CallExpression): Condition {
  const { callee } = call;
  const member = callee as jsep.MemberExpression;
  const isIncludes =
    callee.type === "MemberExpression" &&
    !member.computed &&
    member.property.type === "Identifier" &&
    (member.property as jsep.Identifier).name === "includes";
  if (!isIncludes) throw new InvalidCondition("The only function a condition can call is includes().");
  const [value, ...rest] = call.arguments;
  if (value === undefined || rest.length > 0)
    throw new InvalidCondition("includes() takes exactly one argument.");
  return { kind: "includes", target: toCondition(member.object), value: toCondition(value) };
}

/** The claims a condition reads; JSON values, as a verified visitor token carries them. */
export type Claims = Record<string, unknown>;

const isObject = (value: unknown): value is object => typeof value === "object" && value !== null;

function readClaim(claims: Claims, path: ReadonlyArray<string | number>): unknown {
  let current: unknown = claims;
  for (const segment of path) {
    if (!isObject(current) || !Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

/** JavaScript's comparison on primitives; objects are only equal to themselves and never ordered. */
function compare(operator: BinaryOperator, left: unknown, right: unknown): boolean {
  if (isObject(left) || isObject(right)) {
    if (operator === "==" || operator === "===") return left === right;
    if (operator === "!=" || operator === "!==") return left !== right;
    return false;
  }
  // Primitives only: no valueOf or toString of a visitor's value can run.
  const a = left as Primitive | undefined;
  const b = right as Primitive | undefined;
  switch (operator) {
    case "==":
      // biome-ignore lint/suspicious/noDoubleEquals: the condition asked for JavaScript's loose equality
      return a == b;
    case "!=":
      // biome-ignore lint/suspicious/noDoubleEquals: as above
      return a != b;
    case "===":
      return a === b;
    case "!==":
      return a !== b;
    case "<":
      return (a as number) < (b as number);
    case "<=":
      return (a as number) <= (b as number);
    case ">":
      return (a as number) > (b as number);
    default:
      return (a as number) >= (b as number);
  }
}

function evaluate(condition: Condition, claims: Claims): unknown {
  switch (condition.kind) {
    case "literal":
      return condition.value;
    case "claim":
      return readClaim(claims, condition.path);
    case "array":
      return condition.items.map((item) => evaluate(item, claims));
    case "includes": {
      const target = evaluate(condition.target, claims);
      const value = evaluate(condition.value, claims);
      if (Array.isArray(target))
        return target.some((item) => item === value || (Number.isNaN(item) && Number.isNaN(value)));
      return typeof target === "string" && typeof value === "string" && target.includes(value);
    }
    case "unary": {
      const operand = evaluate(condition.operand, claims);
      if (condition.operator === "!") return !operand;
      return typeof operand === "number" ? -operand : Number.NaN;
    }
    case "conditional":
      return evaluate(condition.test, claims)
        ? evaluate(condition.consequent, claims)
        : evaluate(condition.alternate, claims);
    case "binary": {
      const { operator } = condition;
      const left = evaluate(condition.left, claims);
      if (operator === "&&") return left ? evaluate(condition.right, claims) : left;
      if (operator === "||") return left ? left : evaluate(condition.right, claims);
      if (operator === "??") return left ?? evaluate(condition.right, claims);
      return compare(operator, left, evaluate(condition.right, claims));
    }
  }
}

/**
 * Whether a visitor with these claims sees an item with this condition, as GitBook decides it: no
 * condition shows the item; one that cannot be parsed or evaluated hides it.
 */
export function conditionHolds(expression: string | null | undefined, claims: Claims): boolean {
  if (expression == null || expression.trim() === "") return true;
  try {
    return Boolean(evaluate(parseCondition(expression), claims));
  } catch {
    return false;
  }
}
