/**
 * Order keys of pages among their siblings: strings that sort in the pages' order, so that placing a
 * page between two others writes that page alone, never its siblings. The scheme is fractional
 * indexing (as in rocicorp's `fractional-indexing`): an integer part whose first character gives its
 * length, then a fraction with no trailing zero, so that there is always room between two keys.
 * Keys compare as plain strings (code units), which is how `compareOrder` sorts them.
 */
const DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const ZERO = "0";
const SMALLEST_INTEGER = `A${ZERO.repeat(26)}`;

/** A key strictly between `a` and `b` (excluded), where `a < b`; a key at that end when one is missing. */
export function keyBetween(a: string | null, b: string | null): string {
  if (a !== null && b !== null && a >= b) throw new Error(`order keys out of order: ${a} >= ${b}`);
  if (a === null) {
    if (b === null) return `a${ZERO}`;
    const integer = integerPart(b);
    const fraction = b.slice(integer.length);
    if (integer === SMALLEST_INTEGER) return integer + midpoint("", fraction);
    if (integer < b) return integer;
    const decremented = decrement(integer);
    if (decremented === null) throw new Error("order key space exhausted");
    return decremented;
  }
  const integerA = integerPart(a);
  const fractionA = a.slice(integerA.length);
  if (b === null) return increment(integerA) ?? integerA + midpoint(fractionA, null);
  const integerB = integerPart(b);
  if (integerA === integerB) return integerA + midpoint(fractionA, b.slice(integerB.length));
  const incremented = increment(integerA);
  if (incremented === null) throw new Error("order key space exhausted");
  return incremented < b ? incremented : integerA + midpoint(fractionA, null);
}

/** Sorts siblings: by order key, then by id when two sides of a merge chose the same key. */
export function compareOrder(a: { order: string; id: string }, b: { order: string; id: string }): number {
  if (a.order !== b.order) return a.order < b.order ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** A fraction strictly between fractions `a` and `b` (null: no upper bound). */
function midpoint(a: string, b: string | null): string {
  if (b !== null) {
    let common = 0;
    while ((a[common] ?? ZERO) === b[common]) common++;
    if (common > 0) return b.slice(0, common) + midpoint(a.slice(common), b.slice(common));
  }
  const digitA = a ? DIGITS.indexOf(a.charAt(0)) : 0;
  const digitB = b !== null ? DIGITS.indexOf(b.charAt(0)) : DIGITS.length;
  if (digitB - digitA > 1) return DIGITS.charAt(Math.round((digitA + digitB) / 2));
  if (b !== null && b.length > 1) return b.slice(0, 1);
  return DIGITS.charAt(digitA) + midpoint(a.slice(1), null);
}

function integerLength(head: string): number {
  if (head >= "a" && head <= "z") return head.charCodeAt(0) - "a".charCodeAt(0) + 2;
  if (head >= "A" && head <= "Z") return "Z".charCodeAt(0) - head.charCodeAt(0) + 2;
  throw new Error(`invalid order key head: ${head}`);
}

function integerPart(key: string): string {
  return key.slice(0, integerLength(key.charAt(0)));
}

function increment(integer: string): string | null {
  const head = integer.charAt(0);
  const digits = integer.slice(1).split("");
  for (let i = digits.length - 1; i >= 0; i--) {
    const next = DIGITS.indexOf(digits[i] as string) + 1;
    if (next < DIGITS.length) {
      digits[i] = DIGITS.charAt(next);
      return head + digits.join("");
    }
    digits[i] = ZERO;
  }
  // Every digit carried: the integer gets one digit longer (or, below zero, one shorter).
  if (head === "Z") return `a${ZERO}`;
  if (head === "z") return null;
  const nextHead = String.fromCharCode(head.charCodeAt(0) + 1);
  if (nextHead > "a") digits.push(ZERO);
  else digits.pop();
  return nextHead + digits.join("");
}

function decrement(integer: string): string | null {
  const head = integer.charAt(0);
  const digits = integer.slice(1).split("");
  const top = DIGITS.charAt(DIGITS.length - 1);
  for (let i = digits.length - 1; i >= 0; i--) {
    const previous = DIGITS.indexOf(digits[i] as string) - 1;
    if (previous >= 0) {
      digits[i] = DIGITS.charAt(previous);
      return head + digits.join("");
    }
    digits[i] = top;
  }
  if (head === "a") return `Z${top}`;
  if (head === "A") return null;
  const previousHead = String.fromCharCode(head.charCodeAt(0) - 1);
  if (previousHead < "Z") digits.push(top);
  else digits.pop();
  return previousHead + digits.join("");
}
