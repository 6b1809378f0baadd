// JSON Schema for MCP tool inputs, made from the operation table's argument
// declarations (shared/protocol/operations): one mapping from ArgSpec to a schema, so
// every operation's tool describes exactly what the table's validator takes.
// Pure. Bounds and choices come along; the table's validator still decides.
import { REF_PATTERN, TARGET_KINDS, TARGET_SHAPES, type ArgKind, type ArgSpec } from "../../../shared/protocol/operations/index.js";

export type JsonSchema = { [key: string]: unknown };

/** The locator object's fields that are not strings; every other field it may have is one. */
const TARGET_NON_STRING_FIELDS: JsonSchema = { exact: { type: "boolean" }, x: { type: "number" }, y: { type: "number" } };

/**
 * A ref, or one locator object; checkTarget (shared/protocol/operations/targets.ts) is the rule. The object's
 * fields are named once (propertyNames) and typed string unless listed: the same schema as one property
 * each, in a third fewer bytes, repeated as it is in every tool that takes a target.
 */
export const TARGET_SCHEMA: JsonSchema = {
  description: TARGET_SHAPES,
  anyOf: [
    { type: "string", pattern: REF_PATTERN.source },
    {
      type: "object",
      properties: TARGET_NON_STRING_FIELDS,
      propertyNames: { enum: [...TARGET_KINDS, "name", "exact", "y"] },
      additionalProperties: { type: "string" },
    },
  ],
};

const FIELDS_ITEM: JsonSchema = {
  type: "object",
  properties: { target: TARGET_SCHEMA, value: { type: ["string", "boolean"] } },
  required: ["target", "value"],
  additionalProperties: false,
};

/** The schema of one argument kind. */
export function kindSchema(type: ArgKind): JsonSchema {
  switch (type.kind) {
    case "string":
      return { type: "string", ...(type.choices ? { enum: [...type.choices] } : type.max !== undefined ? { maxLength: type.max } : {}) };
    case "number":
      return {
        type: type.integer ? "integer" : "number",
        ...(type.min !== undefined && Number.isSafeInteger(type.min) ? { minimum: type.min } : {}),
        ...(type.max !== undefined && Number.isSafeInteger(type.max) && type.max < 1e15 ? { maximum: type.max } : {}),
      };
    case "boolean":
      return { type: "boolean" };
    case "strings":
      return { type: "array", items: { type: "string" }, ...(type.max !== undefined ? { maxItems: type.max } : {}) };
    case "target":
      return TARGET_SCHEMA;
    case "fields":
      return { type: "array", items: FIELDS_ITEM, minItems: 1, maxItems: 50 };
    case "json":
      return {};
  }
}

/** One argument: its kind's schema with the table's help as the description. */
export function argSchema(arg: ArgSpec): JsonSchema {
  return { ...kindSchema(arg.type), description: arg.help };
}

/** An object schema of the arguments, and of `extra` properties the front door adds (such as `session`). */
export function objectSchema(args: readonly ArgSpec[], extra: Record<string, JsonSchema> = {}, extraRequired: readonly string[] = []): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const arg of args) properties[arg.name] = argSchema(arg);
  Object.assign(properties, extra);
  const required = [...args.filter((a) => a.required).map((a) => a.name), ...extraRequired];
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}
