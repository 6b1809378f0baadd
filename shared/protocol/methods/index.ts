// Every RPC method, declared once, by domain. The daemon's socket, the
// daemon→worker pipe and the worker→daemon pipe each build their own
// registry from these declarations.
export * from "./declare.js";
export * from "./daemon.js";
export * from "./session.js";
export * from "./worker.js";
export * from "./guard.js";
export * from "./vault.js";
export * from "./artifacts.js";
export * from "./operations.js";
export * from "./run.js";
export * from "./state.js";
export * from "./remote.js";
export * from "./worker-outcome.js";
