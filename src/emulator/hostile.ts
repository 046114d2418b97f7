/**
 * Attacker payloads carried by the hostile fixtures in every string a scanned host or a
 * domain owner controls. Each one targets a rendering surface of the extension: webview
 * HTML, Markdown hovers, command links in notifications, theme icons in the status bar,
 * code fences, and terminal-style control characters.
 *
 * For the tests only: the shipped emulator bundle (demo data) gets hostileShipped.ts in this
 * module's place (esbuild.mjs), which keeps the labels and drops the payloads.
 */
export const PAYLOADS = {
  script: '<script>window.__pwned=1</script>',
  img: '<img src=x onerror="window.__pwned=1">',
  jsUrl: 'javascript:alert(1)',
  commandLink: '[click](command:workbench.action.terminal.new)',
  themeIcon: '$(alert)',
  mdLink: '[docs](https://evil.example/phish)',
  mdImage: '![x](https://evil.example/beacon.png)',
  fence: '```\n````js\n',
  bidi: 'invoice\u202Efdp.exe',
  zeroWidth: 'ad\u200Bmi\u200Dn\uFEFF',
  nul: 'nul\u0000byte',
  ansi: '\u001b[31mRED\u001b[0m \u001b]8;;https://evil.example\u0007link\u001b]8;;\u0007',
} as const;

export const ALL_PAYLOADS = Object.values(PAYLOADS).join(' ');

/** `label` after the `<script>` payload alone (the hostile host's network owner). */
export function scripted(label: string): string {
  return `${PAYLOADS.script} ${label}`;
}

/** `label` followed by every payload. */
export function hostile(label: string): string {
  return `${label} ${ALL_PAYLOADS}`;
}
