/**
 * What `hostile.ts` becomes in the shipped emulator bundle (`dist/emulator.js`, loaded by
 * "Try with Demo Data"): the fixture hosts and domains keep their plain labels, without the
 * attacker payloads. The payloads exist for the tests alone (the tsc build in out/, which the
 * unit and host tests run); esbuild.mjs puts this module in their place, and
 * test/unit/package/shipped.test.ts checks that no shipped bundle carries one.
 */
export function scripted(label: string): string {
  return label;
}

export function hostile(label: string): string {
  return label;
}
