// The vault's two method sets. The owner's (add, update, remove, list, show,
// audit) is registered on the client socket only; the worker's fill-side set
// on the worker's pipe only, so nothing a snippet can reach can read a secret
// back. Neither starts the worker or the browser.
import {
  VaultAdd,
  VaultAudit,
  VaultCommit,
  VaultDiscard,
  VaultFill,
  VaultGenerate,
  VaultList,
  VaultListForSite,
  VaultRemove,
  VaultShow,
  VaultUpdate,
} from "../../shared/protocol/methods/index.js";
import type { MethodRegistry } from "../../shared/protocol/rpc.js";
import type { VaultService } from "../vault/service.js";

export function registerVaultMethods<C>(registry: MethodRegistry<C>, daemon: { vault: VaultService }): void {
  const vault = daemon.vault;
  registry.define(VaultAdd, (p) => vault.add(p));
  registry.define(VaultUpdate, (p) => {
    const { id, ...patch } = p;
    return vault.update(id, patch);
  });
  registry.define(VaultRemove, (p) => vault.remove(p.id));
  registry.define(VaultList, async (p) => ({ entries: await vault.list(p ?? {}) }));
  registry.define(VaultShow, (p) => vault.show(p.id));
  registry.define(VaultAudit, async (p) => ({ records: await vault.audit(p?.limit) }));
}

export function registerVaultWorkerMethods(registry: MethodRegistry<void>, daemon: { vault: VaultService }): void {
  const vault = daemon.vault;
  registry.define(VaultListForSite, async (p) => ({ entries: await vault.listForSite(p.pageUrl) }));
  registry.define(VaultFill, (p) => vault.fill(p.pageUrl, { id: p.id, username: p.username }));
  registry.define(VaultGenerate, (p) => vault.generate(p.pageUrl, { username: p.username, label: p.label, length: p.length }));
  registry.define(VaultCommit, (p) => vault.commit(p.id, p.username));
  registry.define(VaultDiscard, async (p) => {
    await vault.discard(p.id);
    return { discarded: true as const };
  });
}
