// Stands in for vitest when test fixtures run outside it (bench/repair.mjs): afterAll callbacks run at the end.
const after = [];
export const afterAll = (fn) => after.push(fn);
export async function __runAfterAll() {
  for (const fn of after.splice(0)) await fn();
}
