/** The OASIS STIX 2.1 JSON schemas as one validator of a bundle (Ajv, draft 2020-12). */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';

const SCHEMAS = path.resolve(__dirname, '../../../test/fixtures/stix2.1-schemas/schemas');

export function stixValidator() {
  const ajv = new Ajv2020({
    strict: false,
    // The STIX patterns use escapes (`\\-`) that JavaScript's Unicode mode rejects.
    unicodeRegExp: false,
    allErrors: true,
    formats: {
      // Formats the STIX schemas name; checked here so the validation is not lenient about them.
      'idn-hostname': (s: string) =>
        /^(?=.{1,253}$)(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+[\p{L}\p{N}-]{2,63}$/u.test(s),
      uri: (s: string) => URL.canParse(s),
      email: (s: string) => /^[^@\s]+@[^@\s]+$/.test(s),
    },
  });
  const walk = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((e) =>
        e.isDirectory()
          ? walk(path.join(dir, e.name))
          : e.name.endsWith('.json')
            ? [path.join(dir, e.name)]
            : [],
      );
  for (const file of walk(SCHEMAS)) ajv.addSchema(JSON.parse(fs.readFileSync(file, 'utf8')) as object);
  const bundle = ajv.getSchema(
    'http://raw.githubusercontent.com/oasis-open/cti-stix2-json-schemas/stix2.1/schemas/common/bundle.json',
  );
  assert.ok(bundle, 'bundle schema loaded');
  return bundle;
}
