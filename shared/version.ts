// Versions exchanged in daemon.hello. A client of another version replaces an
// idle daemon; the protocol number changes only when the wire changes.
export const PACKAGE_VERSION = "0.1.0";
export const PROTOCOL_VERSION = 1;
