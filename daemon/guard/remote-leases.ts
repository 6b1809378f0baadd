// The remote guard's credentials: one random user name and password per lease
// (one browser context of one session, owned by one worker generation). A
// password is kept only as its digest and checked in constant time; a released
// lease's credentials stop working at once. Credentials never leave here except
// in the answer to `create`, and no message names them.
import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { BwError } from "../../shared/protocol/errors.js";
import { parseBasicCredentials } from "../../shared/guard/proxy/http-proxy-request.js";

export interface RemoteLease {
  readonly id: string;
  readonly session: string;
  readonly owner: number;
}

export const DEFAULT_MAX_LEASES = 1_024;
/** 128 bits each, hex. */
const SECRET_BYTES = 16;

interface Entry {
  lease: RemoteLease;
  username: string;
  passwordDigest: Buffer;
}

const digestOf = (secret: string): Buffer => createHash("sha256").update(secret, "utf8").digest();

export class RemoteLeases {
  readonly #byId = new Map<string, Entry>();
  readonly #byUser = new Map<string, Entry>();
  /** Compared against when the user name is unknown, so a miss costs what a hit costs. */
  readonly #nobody = digestOf(randomBytes(SECRET_BYTES).toString("hex"));

  constructor(readonly maxLeases = DEFAULT_MAX_LEASES) {
    if (!Number.isInteger(maxLeases) || maxLeases < 1) throw new BwError("INVALID_ARGUMENT", `maxLeases must be a positive integer, got ${String(maxLeases)}`);
  }

  get size(): number {
    return this.#byId.size;
  }

  /** A new lease with fresh credentials; LIMIT_EXCEEDED when `maxLeases` are live. */
  create(session: string, owner: number): { lease: RemoteLease; username: string; password: string } {
    if (typeof session !== "string" || session.length === 0) throw new BwError("INVALID_ARGUMENT", "a remote guard lease needs a session name");
    if (!Number.isSafeInteger(owner)) throw new BwError("INVALID_ARGUMENT", "a remote guard lease needs an integer owner");
    if (this.#byId.size >= this.maxLeases) throw new BwError("LIMIT_EXCEEDED", `the remote guard holds ${this.maxLeases} leases, its most; release one first`);
    const lease: RemoteLease = Object.freeze({ id: randomUUID(), session, owner });
    const username = randomBytes(SECRET_BYTES).toString("hex");
    const password = randomBytes(SECRET_BYTES).toString("hex");
    const entry: Entry = { lease, username, passwordDigest: digestOf(password) };
    this.#byId.set(lease.id, entry);
    this.#byUser.set(username, entry);
    return { lease, username, password };
  }

  /** The live lease a Proxy-Authorization value proves, or undefined. */
  authorize(proxyAuthorization: string | undefined): RemoteLease | undefined {
    const credentials = parseBasicCredentials(proxyAuthorization);
    if (credentials === undefined) return undefined;
    const entry = this.#byUser.get(credentials.username);
    // Equal-length digests, compared in full whether or not the user name was known.
    const matches = timingSafeEqual(digestOf(credentials.password), entry?.passwordDigest ?? this.#nobody);
    return matches && entry !== undefined ? entry.lease : undefined;
  }

  /** The lease by id while it is live. */
  get(id: string): RemoteLease | undefined {
    return this.#byId.get(id)?.lease;
  }

  /** Forget a lease; its credentials no longer authorize. False if it was not live. */
  release(id: string): boolean {
    const entry = this.#byId.get(id);
    if (entry === undefined) return false;
    this.#byId.delete(id);
    this.#byUser.delete(entry.username);
    return true;
  }

  /** The ids of every live lease of a worker generation. */
  idsOf(owner: number): string[] {
    return [...this.#byId.values()].filter((entry) => entry.lease.owner === owner).map((entry) => entry.lease.id);
  }

  clear(): void {
    this.#byId.clear();
    this.#byUser.clear();
  }
}
