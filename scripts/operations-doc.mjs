// Rewrites the generated part of docs/operations.md from the operation table
// (after `npm run build`). test/unit/operations-table.test.ts fails while the
// file and the table differ.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { OPERATIONS } from "../dist/shared/protocol/operations/index.js";
import { operationsReference, REFERENCE_BEGIN, REFERENCE_END } from "../dist/shared/protocol/operations/reference.js";

const file = fileURLToPath(new URL("../docs/operations.md", import.meta.url));
const doc = readFileSync(file, "utf8");
const start = doc.indexOf(REFERENCE_BEGIN);
const end = doc.indexOf(REFERENCE_END);
if (start === -1 || end === -1) throw new Error(`docs/operations.md lacks the markers ${REFERENCE_BEGIN} … ${REFERENCE_END}`);
writeFileSync(file, `${doc.slice(0, start)}${operationsReference(OPERATIONS)}${doc.slice(end + REFERENCE_END.length)}`);
