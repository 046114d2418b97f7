/**
 * The small JSON Schema subset the agent tools declare (object of string / integer /
 * boolean properties, `required`, `enum`, `maxLength`, `minimum`/`maximum`, no extra
 * properties) and a validator for it. Both surfaces validate with this: a model's
 * arguments are untrusted input. Pure Node: no `vscode` import.
 */

export interface PropertySchema {
  type: 'string' | 'integer' | 'boolean';
  description: string;
  enum?: readonly string[];
  maxLength?: number;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  default?: string | number | boolean;
}

export interface ObjectSchema {
  type: 'object';
  properties: Record<string, PropertySchema>;
  required?: readonly string[];
  additionalProperties: false;
}

export class ToolInputError extends Error {
  override readonly name = 'ToolInputError';
}

export type Input = Record<string, string | number | boolean | undefined>;

/** Checks `input` against `schema`; returns the known properties (defaults filled in). */
export function validateInput(schema: ObjectSchema, input: unknown): Input {
  const obj = input ?? {};
  if (typeof obj !== 'object' || Array.isArray(obj)) throw new ToolInputError('The input must be an object.');
  const out: Input = {};
  const given = obj as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!Object.prototype.hasOwnProperty.call(schema.properties, key)) {
      throw new ToolInputError(`Unknown input property ${JSON.stringify(key.slice(0, 40))}.`);
    }
  }
  for (const [key, prop] of Object.entries(schema.properties)) {
    const v = Object.prototype.hasOwnProperty.call(given, key) ? given[key] : undefined;
    if (v === undefined || v === null) {
      if (schema.required?.includes(key)) throw new ToolInputError(`"${key}" is required.`);
      if (prop.default !== undefined) out[key] = prop.default;
      continue;
    }
    if (prop.type === 'string') {
      if (typeof v !== 'string') throw new ToolInputError(`"${key}" must be a string.`);
      if (prop.maxLength !== undefined && v.length > prop.maxLength) {
        throw new ToolInputError(`"${key}" is longer than ${prop.maxLength} characters.`);
      }
      if (prop.minLength !== undefined && v.trim().length < prop.minLength) {
        throw new ToolInputError(`"${key}" is empty.`);
      }
      if (prop.enum && !prop.enum.includes(v)) {
        throw new ToolInputError(`"${key}" must be one of: ${prop.enum.join(', ')}.`);
      }
      out[key] = v;
    } else if (prop.type === 'integer') {
      if (typeof v !== 'number' || !Number.isInteger(v))
        throw new ToolInputError(`"${key}" must be an integer.`);
      if (prop.minimum !== undefined && v < prop.minimum)
        throw new ToolInputError(`"${key}" must be at least ${prop.minimum}.`);
      if (prop.maximum !== undefined && v > prop.maximum)
        throw new ToolInputError(`"${key}" must be at most ${prop.maximum}.`);
      out[key] = v;
    } else {
      if (typeof v !== 'boolean') throw new ToolInputError(`"${key}" must be true or false.`);
      out[key] = v;
    }
  }
  return out;
}
