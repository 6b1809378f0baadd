// The floor for a warm CLI call: a process that connects to a unix socket,
// sends one line, reads one line and exits.
import net from "node:net";

const socket = net.connect(process.argv[2]!);
socket.once("connect", () => socket.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n'));
socket.once("data", () => socket.end());
